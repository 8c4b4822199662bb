package install

// conch install opencode and conch install pi: a plugin (an extension)
// file conch owns, in the folder the harness loads code from.

import (
	_ "embed"
	"encoding/json"
	"path/filepath"
	"strings"

	"github.com/conch-sh/conch/render"
)

// The plugin (extension) files conch writes for harnesses that load code,
// not hooks: the file is conch's own, whole, known by its first line; it
// runs conch hook NAME at each event.
var (
	//go:embed plugins/opencode.js
	openCodePlugin string
	//go:embed plugins/pi.ts
	piExtension string
)

// OpenCode is conch install opencode.
var OpenCode = &Recipe{
	Name:  "opencode",
	Use:   "opencode [--project | --user] [--remove]",
	Short: "Put conch's plugin where OpenCode loads it",
	Long: `Write conch's plugin for OpenCode: ~/.config/opencode/plugins/conch.js ($XDG_CONFIG_HOME) with --user (the
default), .opencode/plugins/conch.js of the current folder with --project. The file is
conch's own, known by its first line; it runs conch hook opencode at
each event. ` + pluginLong + render.OpenCodeAfter + pluginExits,
	Where: "OpenCode folder",
	Runs:  "the plugin runs",
	MCP:   "opencode.json",
	Dir: func(e Env, project bool) string {
		return pluginDir(e, project, ".opencode/plugins", "XDG_CONFIG_HOME", ".config", "opencode/plugins")
	},
	Do: func(r *Run) ([]*Result, error) {
		done, err := r.plugin("conch.js", openCodePlugin, []string{"session.created", "chat.message", "tool.execute.before",
			"tool.execute.after", "shell.env", "session.idle", "session.error", "permission.asked",
			"session.compacted", "session.deleted", "dispose"})
		if err != nil {
			return nil, err
		}
		// OpenCode's MCP servers are in opencode.json: the project's,
		// or the person's beside the plugins folder.
		config := filepath.Join(filepath.Dir(r.Dir), "opencode.json")
		if r.Project {
			config = filepath.Join(r.Cwd, "opencode.json")
		}
		return r.withMCP(done, config, openCodeMCP)
	},
	After: render.OpenCodeAfter,
}

// Pi is conch install pi.
var Pi = &Recipe{
	Name:  "pi",
	Use:   "pi [--project | --user] [--remove]",
	Short: "Put conch's plugin where Pi loads it",
	Long: `Write conch's plugin for Pi: ~/.pi/agent/extensions/conch.ts ($PI_CODING_AGENT_DIR) with --user (the
default), .pi/extensions/conch.ts of the current folder with --project. The file is
conch's own, known by its first line; it runs conch hook pi at
each event. ` + pluginLong + render.PiAfter + pluginExits,
	Where: "Pi folder",
	Runs:  "the plugin runs",
	Dir: func(e Env, project bool) string {
		return pluginDir(e, project, ".pi/extensions", "PI_CODING_AGENT_DIR", ".pi/agent", "extensions")
	},
	Do: func(r *Run) ([]*Result, error) {
		return r.plugin("conch.ts", piExtension, []string{"session_start", "before_agent_start", "tool_call",
			"tool_result", "turn_end", "session_before_compact", "session_shutdown"})
	},
	After: render.PiAfter,
}

const (
	pluginLong = `Running it again changes nothing; a file of conch's that
differs (an older conch's, or one you changed) is kept beside it
(NAME.bak-TIME) and written anew, whole, never half. A file of that name
that is not conch's is left alone (exit 1). --remove takes conch's file
out, and nothing else. `
	pluginExits = `

Exit codes: 0 done, 1 the file cannot be read or written, or is not
conch's (nothing changed), 2 usage.`
)

// pluginDir is where a harness loads plugins from: in the current folder
// with --project; else under the folder the variable names (when it is
// absolute), or the person's home's fallback, then sub.
func pluginDir(e Env, project bool, inProject, variable, fallback, sub string) string {
	if project {
		return filepath.Join(e.Cwd, filepath.FromSlash(inProject))
	}
	dir := e.Getenv(variable)
	if dir == "" || !filepath.IsAbs(dir) {
		dir = filepath.Join(e.Home, filepath.FromSlash(fallback))
	}
	return filepath.Join(dir, filepath.FromSlash(sub))
}

// plugin writes (or takes out) the plugin file conch owns in r.Dir.
func (r *Run) plugin(file, template string, events []string) ([]*Result, error) {
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

// openCodeMCP is conch's server as OpenCode reads it: "mcp": {"conch":
// {"type": "local", "command": [conch, "mcp"], "enabled": true}}.
var openCodeMCP = MCP{Key: "mcp", Entry: func(conch string) []Field {
	return []Field{{"type", jsonOf("local")}, {"command", jsonOf([]string{conch, "mcp"})}, {"enabled", jsonOf(true)}}
}}
