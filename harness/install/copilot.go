package install

// conch install copilot: conch's hooks in a hooks file of GitHub Copilot
// CLI's own, conch.json in its hooks folder (Copilot reads every *.json
// there).

import (
	"encoding/json"
	"path/filepath"

	"github.com/conch-sh/conch/render"
)

// Copilot is conch install copilot.
var Copilot = &Recipe{
	Name:  "copilot",
	Use:   "copilot [--project | --user] [--remove]",
	Short: "Put conch's hooks in GitHub Copilot CLI's hooks folder",
	Long: `Put conch's hooks in a hooks file of GitHub Copilot CLI's: conch.json in
$COPILOT_HOME/hooks (default ~/.copilot/hooks) with --user (the default),
in .github/hooks of the current folder's repository with --project.
Copilot reads every *.json file of those folders. A hook someone added to
conch.json is kept, and conch's own (a command "conch hook copilot") is
added once, so running it again changes nothing. The file as it was is
kept beside it (conch.json.bak-TIME), and the new one is written whole.
--remove takes out conch's hooks and nothing else: a conch.json left with
no one else's hook is removed (no backup: it was conch's alone), and with
--project the folders made for it too, once empty.

Copilot reads hooks when a session starts; a repository's only once you
trust its folder.

Exit codes: 0 done, 1 the file cannot be read, is not JSON, or cannot be
written (nothing changed), 2 usage.`,
	MCP:   "~/.copilot/mcp-config.json, or the repository's .mcp.json",
	Where: "Copilot hooks (.github/hooks/conch.json)",
	Dir: func(e Env, project bool) string {
		if project {
			if root := repoRoot(e.Cwd); root != "" {
				return filepath.Join(root, ".github", "hooks")
			}
			return filepath.Join(e.Cwd, ".github", "hooks")
		}
		if d := e.Getenv("COPILOT_HOME"); d != "" {
			return filepath.Join(d, "hooks")
		}
		return filepath.Join(e.Home, ".copilot", "hooks")
	},
	Do: func(r *Run) ([]*Result, error) {
		res, err := r.HookFile(filepath.Join(r.Dir, "conch.json"), copilotHooks(r.Conch))
		if err != nil {
			return nil, err
		}
		if r.Remove && r.Project && res.Changed {
			// .github/hooks as it was: the folders made for conch.json
			// go with it when nothing else is in them.
			for _, d := range r.pruneDirs(r.Dir, filepath.Dir(filepath.Dir(r.Dir))) {
				res.Notes = append(res.Notes, render.InstallFolderRemoved(d))
			}
		}
		// Copilot's MCP servers: the person's in mcp-config.json beside
		// the hooks folder, a repository's in its .mcp.json.
		mcp := filepath.Join(filepath.Dir(r.Dir), "mcp-config.json")
		if r.Project {
			mcp = filepath.Join(filepath.Dir(filepath.Dir(r.Dir)), ".mcp.json")
		}
		return r.withMCP([]*Result{res}, mcp, copilotMCP(r.conchHome()))
	},
	After: render.CopilotAfter,
}

// copilotHooks are conch's hooks in Copilot's format: {"version": 1,
// "hooks": {EVENT: [{"type": "command", "bash": …, "timeoutSec": …}]}}.
// The events are named in PascalCase, which has Copilot send Claude
// Code's field and tool names (conch hook copilot reads that dialect).
// permissionRequest ends a stopped reply's turn; SubagentStart is left
// out (a subagent's first prompt starts its chat).
func copilotHooks(conch string) Hooks {
	h := Hooks{
		Harness: "copilot", Command: Command(conch, "copilot"),
		Flat: true, CommandKey: "bash", TimeoutKey: "timeoutSec",
		Top: []Field{{"version", json.RawMessage(`1`)}},
		Own: true,
	}
	for _, name := range []string{"SessionStart", "UserPromptSubmit", "PreToolUse", "PostToolUse",
		"PostToolUseFailure", "PermissionRequest", "Notification", "Stop", "SubagentStop",
		"ErrorOccurred", "PreCompact", "SessionEnd"} {
		h.Events = append(h.Events, Event{Name: name, Timeout: HookTimeout})
	}
	return h
}

// copilotMCP is conch's server as Copilot CLI reads it: a local server
// with every tool, and the home named, for Copilot passes a server no
// variable but PATH.
func copilotMCP(home string) MCP {
	return MCP{Key: "mcpServers", Entry: func(conch string) []Field {
		return []Field{{"type", jsonOf("local")}, {"command", jsonOf(conch)}, {"args", jsonOf([]string{"mcp"})},
			{"env", jsonOf(map[string]string{"CONCH_HOME": home})}, {"tools", jsonOf([]string{"*"})}}
	}}
}
