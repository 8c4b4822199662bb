package cli

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/conch-sh/conch/state"
)

// The plugin (extension) files conch writes for harnesses that load code,
// not hooks: the file is conch's own, whole, known by its first line.
var (
	//go:embed plugins/opencode.js
	openCodePlugin string
	//go:embed plugins/pi.ts
	piExtension string
)

// pluginRecipe is how conch sets up a harness that runs a plugin file.
type pluginRecipe struct {
	harness, name string
	template      string
	file          string   // the file's name in the harness's folder
	events        []string // what the plugin reports, for install's words
	after         string   // when the harness reads it
	// user and project are the folders the harness loads the file from.
	user    func(a *app) string
	project func(a *app) string
}

// openCodeRecipe and piRecipe are functions, not variables: nothing is
// built at start-up.
func openCodeRecipe() pluginRecipe {
	return pluginRecipe{
		harness: state.HarnessOpenCode, name: "OpenCode", template: openCodePlugin, file: "conch.js",
		events: []string{"session.created", "chat.message", "tool.execute.before", "tool.execute.after", "shell.env",
			"session.idle", "session.error", "permission.asked", "session.compacted", "session.deleted", "dispose"},
		after: "OpenCode loads it when it starts.",
		user: func(a *app) string {
			dir := a.env.Getenv("XDG_CONFIG_HOME")
			if dir == "" || !filepath.IsAbs(dir) {
				dir = filepath.Join(a.userHome(), ".config")
			}
			return filepath.Join(dir, "opencode", "plugins")
		},
		project: func(a *app) string { return filepath.Join(a.env.Cwd, ".opencode", "plugins") },
	}
}

func piRecipe() pluginRecipe {
	return pluginRecipe{
		harness: state.HarnessPi, name: "Pi", template: piExtension, file: "conch.ts",
		events: []string{"session_start", "before_agent_start", "tool_call", "tool_result", "turn_end",
			"session_before_compact", "session_shutdown"},
		after: "Pi loads it when it starts (or at /reload).",
		user: func(a *app) string {
			dir := a.env.Getenv("PI_CODING_AGENT_DIR")
			if dir == "" || !filepath.IsAbs(dir) {
				dir = filepath.Join(a.userHome(), ".pi", "agent")
			}
			return filepath.Join(dir, "extensions")
		},
		project: func(a *app) string { return filepath.Join(a.env.Cwd, ".pi", "extensions") },
	}
}

func (a *app) newInstallOpenCode() *cobra.Command { return a.newInstallPlugin(openCodeRecipe()) }
func (a *app) newInstallPi() *cobra.Command       { return a.newInstallPlugin(piRecipe()) }

func (a *app) newInstallPlugin(r pluginRecipe) *cobra.Command {
	var o installOptions
	user, project := map[string]string{
		state.HarnessOpenCode: "~/.config/opencode/plugins/conch.js ($XDG_CONFIG_HOME)",
		state.HarnessPi:       "~/.pi/agent/extensions/conch.ts ($PI_CODING_AGENT_DIR)",
	}[r.harness], map[string]string{
		state.HarnessOpenCode: ".opencode/plugins/conch.js",
		state.HarnessPi:       ".pi/extensions/conch.ts",
	}[r.harness]
	cmd := &cobra.Command{
		Use:   r.harness + " [--project | --user] [--remove]",
		Short: "Put conch's plugin where " + r.name + " loads it",
		Long: `Write conch's plugin for ` + r.name + `: ` + user + ` with --user (the
default), ` + project + ` of the current folder with --project. The file is
conch's own, known by its first line; it runs conch hook ` + r.harness + ` at
each event. Running it again changes nothing; a file of conch's that
differs (an older conch's, or one you changed) is kept beside it
(NAME.bak-TIME) and written anew, whole, never half. A file of that name
that is not conch's is left alone (exit 1). --remove takes conch's file
out, and nothing else. ` + r.after + `

Exit codes: 0 done, 1 the file cannot be read or written, or is not
conch's (nothing changed), 2 usage.`,
		Args:        exactArgs(0, "no arguments"),
		Annotations: access(accessNone),
	}
	o.flags(cmd, r.name+" folder")
	cmd.Flags().Lookup("conch").Usage = "the conch program the plugin runs (default: conch, found on PATH)"
	cmd.RunE = run(func(cmd *cobra.Command, args []string) error {
		if err := o.check(); err != nil {
			return err
		}
		dir := r.user(a)
		if o.project {
			dir = r.project(a)
		}
		res, err := a.installPluginFile(filepath.Join(dir, r.file), r, &o)
		if err != nil {
			return err
		}
		return a.sayInstalled([]*installed{res}, &o, r.after)
	})
	return cmd
}

// pluginText is the plugin as conch writes it, running the program named.
func pluginText(r pluginRecipe, conch string) []byte {
	prog, _ := json.Marshal(conch) // a JSON string is a JavaScript one
	return []byte(strings.Replace(r.template, `const CONCH = "conch";`, "const CONCH = "+string(prog)+";", 1))
}

// pluginMarker is the first line of every plugin conch writes, whatever
// program it runs.
func pluginMarker(r pluginRecipe) string {
	line, _, _ := strings.Cut(r.template, "\n")
	return line
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

// installPluginFile writes conch's plugin at path, or takes it out.
func (a *app) installPluginFile(path string, r pluginRecipe, o *installOptions) (*installed, error) {
	path = resolveLink(path)
	res := &installed{File: path, Events: r.events}
	want := pluginText(r, o.conch)
	data, err := os.ReadFile(path)
	exists := err == nil
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("cannot read %s: %v", path, err)
	}
	ours := exists && bytes.HasPrefix(data, []byte(pluginMarker(r)+"\n"))
	switch {
	case !exists && o.remove:
		return res, nil
	case exists && !ours && o.remove:
		res.Notes = append(res.Notes, "it is not conch's (its first line is not conch's): left as it is")
		return res, nil
	case exists && !ours:
		return nil, fmt.Errorf("%s is there and is not conch's (its first line is not conch's); nothing changed", path)
	case !o.remove && bytes.Equal(data, want):
		return res, nil
	}
	if exists && !bytes.Equal(data, pluginText(r, pluginProgram(data))) {
		// Changed since conch wrote it (by an older conch, another
		// --conch, or by hand): kept as it was.
		if res.Backup, err = a.backup(path, data); err != nil {
			return nil, err
		}
	}
	if o.remove {
		if err := os.Remove(path); err != nil {
			return nil, fmt.Errorf("cannot remove %s: %v", path, err)
		}
	} else if err := writeWhole(path, want); err != nil {
		return nil, err
	}
	res.Changed = true
	return res, nil
}
