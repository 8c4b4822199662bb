package install

// conch install gemini: conch's hooks in Gemini CLI's settings.json.

import (
	"path/filepath"

	"github.com/conch-sh/conch/render"
)

// Gemini is conch install gemini.
var Gemini = &Recipe{
	Name:  "gemini",
	Use:   "gemini [--project | --user] [--remove]",
	Short: "Put conch's hooks in Gemini CLI's settings",
	Long: `Put conch's hooks in Gemini CLI's settings: ~/.gemini/settings.json with
--user (the default), .gemini/settings.json of the current folder with
--project (Gemini CLI runs a project's hooks only in a trusted folder, and
warns once when they are new). Every hook and setting already there is
kept; conch's own (a command "conch hook gemini", its timeout in
milliseconds) is added once, so running it again changes nothing. The
file as it was is kept beside it (settings.json.bak-TIME), and the new
one is written whole, never half. --remove takes out conch's hooks and
nothing else. Gemini CLI reads the hooks when a session starts.

Exit codes: 0 done, 1 the file cannot be read, is not JSON, or cannot be
written (nothing changed), 2 usage.`,
	MCP:   "settings.json",
	Where: ".gemini/settings.json",
	Dir: func(e Env, project bool) string {
		if project {
			return filepath.Join(e.Cwd, ".gemini")
		}
		return filepath.Join(e.Home, ".gemini")
	},
	Do: func(r *Run) ([]*Result, error) {
		res, err := r.HookFile(filepath.Join(r.Dir, "settings.json"), geminiHooks(r.Conch))
		if err != nil {
			return nil, err
		}
		return r.withMCP([]*Result{res}, filepath.Join(r.Dir, "settings.json"), MCPServers)
	},
	After: render.GeminiAfter,
}

// geminiHooks are conch's hooks in Gemini CLI's settings (its own event
// names): tool events match every tool ("*"); PreCompress only /compress
// ("manual": Gemini CLI fires "auto" before every model request).
// Timeouts are in milliseconds.
func geminiHooks(conch string) Hooks {
	h := Hooks{Harness: "gemini", Command: Command(conch, "gemini")}
	for _, e := range []struct{ name, matcher string }{
		{"SessionStart", ""}, {"BeforeAgent", ""}, {"BeforeTool", "*"}, {"AfterTool", "*"},
		{"AfterAgent", ""}, {"Notification", ""}, {"PreCompress", "manual"}, {"SessionEnd", ""},
	} {
		h.Events = append(h.Events, Event{Name: e.name, Matcher: e.matcher, Timeout: HookTimeout * 1000})
	}
	return h
}
