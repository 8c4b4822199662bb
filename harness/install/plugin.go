package install

// A plugin (an extension) file conch owns, in the folder a harness loads
// code from (OpenCode's plugins, Pi's extensions): written whole, known by
// its first line, running the conch program named in it.

import (
	"encoding/json"
	"path/filepath"
	"strings"
)

// PluginDir is where a harness loads plugins from: in the current folder
// with --project; else under the folder the variable names (when it is
// absolute), or the person's home's fallback, then sub.
func PluginDir(e Env, project bool, inProject, variable, fallback, sub string) string {
	if project {
		return filepath.Join(e.Cwd, filepath.FromSlash(inProject))
	}
	dir := e.Getenv(variable)
	if dir == "" || !filepath.IsAbs(dir) {
		dir = filepath.Join(e.Home, filepath.FromSlash(fallback))
	}
	return filepath.Join(dir, filepath.FromSlash(sub))
}

// Plugin writes (or takes out) the plugin file conch owns in r.Dir.
func (r *Run) Plugin(file, template string, events []string) ([]*Result, error) {
	mark, _, _ := strings.Cut(template, "\n")
	res, err := r.OwnFile(filepath.Join(r.Dir, file), Own{
		Data: pluginText(template, r.Conch), Mark: mark, Events: events,
		// One conch wrote, for whatever program, and nobody changed
		// since: replaced without a backup.
		Written: func(old []byte) bool { return string(old) == string(pluginText(template, pluginProgram(old))) },
	})
	if err != nil {
		return nil, err
	}
	return []*Result{res}, nil
}

// pluginText is the plugin as conch writes it, running the program named.
func pluginText(template, conch string) []byte {
	prog, _ := json.Marshal(conch) // a JSON string is a JavaScript one
	return []byte(strings.Replace(template, `const CONCH = "conch";`, "const CONCH = "+string(prog)+";", 1))
}

// pluginProgram is the program a plugin file conch wrote runs ("" when
// it names none).
func pluginProgram(data []byte) string {
	for _, line := range strings.Split(string(data), "\n") {
		if rest, ok := strings.CutPrefix(line, "const CONCH = "); ok {
			lit, _, _ := strings.Cut(rest, ";")
			var prog string
			if json.Unmarshal([]byte(lit), &prog) == nil {
				return prog
			}
		}
	}
	return ""
}
