package install

// conch install qwen: conch's hooks in Qwen Code's settings.json.

import (
	"path/filepath"

	"github.com/conch-sh/conch/render"
)

// Qwen is conch install qwen.
var Qwen = &Recipe{
	Name:  "qwen",
	Use:   "qwen [--project | --user] [--remove]",
	Short: "Put conch's hooks in Qwen Code's settings",
	Long: `Put conch's hooks in Qwen Code's settings: ~/.qwen/settings.json with
--user (the default), .qwen/settings.json of the current folder with
--project (Qwen Code runs a project's hooks only in a trusted folder).
Every hook and setting already there is kept; conch's own (a command
"conch hook qwen") is added once, so running it again changes nothing.
The file as it was is kept beside it (settings.json.bak-TIME), and the new
one is written whole, never half. --remove takes out conch's hooks and
nothing else. Qwen Code reads the hooks when a session starts (or when
its /hooks menu is opened).

Exit codes: 0 done, 1 the file cannot be read, is not JSON, or cannot be
written (nothing changed), 2 usage.`,
	MCP:   "settings.json",
	Where: ".qwen/settings.json",
	Dir: func(e Env, project bool) string {
		if project {
			return filepath.Join(e.Cwd, ".qwen")
		}
		return filepath.Join(e.Home, ".qwen")
	},
	Do: func(r *Run) ([]*Result, error) {
		res, err := r.HookFile(filepath.Join(r.Dir, "settings.json"), qwenHooks(r.Conch))
		if err != nil {
			return nil, err
		}
		return r.withMCP([]*Result{res}, filepath.Join(r.Dir, "settings.json"), MCPServers)
	},
	After: render.QwenAfter,
}

// qwenHooks are conch's hooks in Qwen Code's settings: Claude Code's
// events (Qwen Code keeps its protocol), tool events matching every tool,
// timeouts in seconds.
func qwenHooks(conch string) Hooks {
	h := Hooks{Harness: "qwen", Command: Command(conch, "qwen")}
	for _, e := range []struct{ name, matcher string }{
		{"SessionStart", ""}, {"UserPromptSubmit", ""}, {"PreToolUse", "*"}, {"PostToolUse", "*"},
		{"PostToolUseFailure", "*"}, {"PermissionRequest", "*"}, {"Notification", ""}, {"PreCompact", ""},
		{"Stop", ""}, {"StopFailure", ""}, {"SubagentStart", ""}, {"SubagentStop", ""}, {"SessionEnd", ""},
	} {
		h.Events = append(h.Events, Event{Name: e.name, Matcher: e.matcher, Timeout: HookTimeout})
	}
	return h
}
