package install

// conch install cursor: conch's hooks in Cursor's hooks.json.

import (
	"encoding/json"
	"path/filepath"

	"github.com/conch-sh/conch/render"
)

// Cursor is conch install cursor.
var Cursor = &Recipe{
	Name:  "cursor",
	Use:   "cursor [--project | --user] [--remove]",
	Short: "Put conch's hooks in Cursor's hooks.json",
	Long: `Put conch's hooks in Cursor's hooks.json, for its agent (the editor's and
cursor-agent's): ~/.cursor/hooks.json with --user (the default),
.cursor/hooks.json of the current folder with --project. Every hook
already there is kept; conch's own (a command "conch hook cursor") is
added once, so running it again changes nothing. The file as it was is
kept beside it (hooks.json.bak-TIME), and the new one is written whole.
--remove takes out conch's hooks and nothing else.

Cursor reads hooks.json when it starts; a project's only in a trusted
workspace.

Exit codes: 0 done, 1 the file cannot be read, is not JSON, or cannot be
written (nothing changed), 2 usage.`,
	MCP:   "mcp.json",
	Where: "Cursor hooks (.cursor/hooks.json)",
	Dir: func(e Env, project bool) string {
		if project {
			return filepath.Join(e.Cwd, ".cursor")
		}
		return filepath.Join(e.Home, ".cursor")
	},
	Do: func(r *Run) ([]*Result, error) {
		res, err := r.HookFile(filepath.Join(r.Dir, "hooks.json"), cursorHooks(r.Conch))
		if err != nil {
			return nil, err
		}
		return r.withMCP([]*Result{res}, filepath.Join(r.Dir, "mcp.json"), MCPServers)
	},
	After: render.CursorAfter,
}

// cursorHooks are conch's hooks in Cursor's format: {"version": 1,
// "hooks": {event: [{"command": …, "timeout": …}]}}. beforeReadFile and
// beforeMCPExecution are left out: Cursor blocks the read or the call
// when their hook fails, and preToolUse sees both.
func cursorHooks(conch string) Hooks {
	h := Hooks{
		Harness: "cursor", Command: Command(conch, "cursor"),
		Flat: true, Handler: []Field{},
		Top: []Field{{"version", json.RawMessage(`1`)}},
	}
	for _, name := range []string{"sessionStart", "beforeSubmitPrompt", "preToolUse", "postToolUse",
		"postToolUseFailure", "afterFileEdit", "afterAgentResponse", "stop", "preCompact", "sessionEnd"} {
		h.Events = append(h.Events, Event{Name: name, Timeout: HookTimeout})
	}
	return h
}
