package install

import (
	"os"
	"path/filepath"

	"github.com/conch-sh/conch/render"
)

// Claude is conch install claude: conch's hooks in Claude Code's
// settings.json.
var Claude = &Recipe{
	Name:  "claude",
	Use:   "claude [--project | --user] [--remove]",
	Short: "Put conch's hooks in Claude Code's settings",
	Long: `Put conch's hooks in Claude Code's settings: ~/.claude/settings.json with
--user (the default), .claude/settings.json of the current folder with
--project. Every hook already there is kept; conch's own (a command
"conch hook claude") is added once, so running it again changes nothing.
The file as it was is kept beside it (settings.json.bak-TIME), and the new
one is written whole, never half. --remove takes out conch's hooks and
nothing else. Claude Code reads the hooks when a session starts.

Exit codes: 0 done, 1 the file cannot be read, is not JSON, or cannot be
written (nothing changed), 2 usage.`,
	MCP:   "~/.claude.json, or .mcp.json with --project",
	Where: ".claude/settings.json",
	Dir: func(e Env, project bool) string {
		if project {
			return filepath.Join(e.Cwd, ".claude")
		}
		return filepath.Join(e.Home, ".claude")
	},
	Do: func(r *Run) ([]*Result, error) {
		res, err := r.HookFile(filepath.Join(r.Dir, "settings.json"), claudeHooks(r.Conch))
		if err != nil {
			return nil, err
		}
		if root := repoRoot(r.Cwd); r.Project && !r.Remove && root != "" {
			if root != r.Cwd {
				res.Notes = append(res.Notes, render.ClaudeSubfolder(r.Cwd, root, Quote(root))...)
			} else {
				res.Notes = append(res.Notes, render.ClaudeRoot(root)...)
			}
		}
		// Claude Code's MCP servers: a project's in .mcp.json, the
		// person's own in ~/.claude.json (not in settings.json).
		mcp := filepath.Join(r.Home, ".claude.json")
		if r.Project {
			mcp = filepath.Join(r.Cwd, ".mcp.json")
		}
		return r.withMCP([]*Result{res}, mcp, MCPServers)
	},
	After: render.ClaudeAfter,
}

// claudeHooks are conch's hooks in Claude Code's settings. Tool events
// match every tool ("*" in every version): each tool call is a step.
// SubagentStart is left out (a subagent's chat is made at its first tool
// call): older versions do not know it.
func claudeHooks(conch string) Hooks {
	h := Hooks{Harness: "claude", Command: Command(conch, "claude")}
	for _, e := range []struct{ name, matcher string }{
		{"SessionStart", ""}, {"UserPromptSubmit", ""}, {"PreToolUse", "*"}, {"PostToolUse", "*"},
		{"PostToolUseFailure", "*"}, {"PermissionRequest", "*"},
		{"Notification", ""}, {"PreCompact", ""}, {"Stop", ""}, {"StopFailure", ""}, {"SubagentStop", ""}, {"SessionEnd", ""},
	} {
		h.Events = append(h.Events, Event{Name: e.name, Matcher: e.matcher, Timeout: HookTimeout})
	}
	return h
}

// HookTimeout is the timeout, in seconds, conch's handlers carry: a hook
// that waits for a locked home gives up after a second, so this is only a
// backstop.
const HookTimeout = 10

// repoRoot is the top folder of the git repository dir is in ("" for
// none): the folder that has .git, a folder or (in a worktree) a file.
func repoRoot(dir string) string {
	for d := filepath.Clean(dir); ; d = filepath.Dir(d) {
		if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			return d
		}
		if filepath.Dir(d) == d {
			return ""
		}
	}
}

// ClaudeWarning is what conch doctor says when Claude Code sessions
// started in e.Cwd would run none of conch's hooks, where Claude Code is
// in use (~/.claude is there) or a folder above has them; "" when they
// would, or Claude Code is not in use.
func ClaudeWarning(e Env) string {
	covered, above := claudeCoverage(e.Home, e.Cwd)
	if covered {
		return ""
	}
	if above != "" {
		return render.ClaudeUncovered(e.Cwd, filepath.Join(above, ".claude", "settings.json"))
	}
	if _, err := os.Stat(filepath.Join(e.Home, ".claude")); err != nil {
		return ""
	}
	return render.ClaudeUncovered(e.Cwd, "")
}

// claudeCoverage says whether Claude Code sessions started in dir run
// conch's hooks (the user settings, or dir's own project or local
// settings have them), and, when they do not, the nearest folder above
// dir whose project settings have them ("" for none).
func claudeCoverage(home, dir string) (covered bool, above string) {
	hooks := claudeHooks("conch")
	has := func(path string) bool {
		data, err := os.ReadFile(path)
		return err == nil && hooks.Has(data)
	}
	if has(filepath.Join(home, ".claude", "settings.json")) {
		return true, ""
	}
	dir = filepath.Clean(dir)
	if has(filepath.Join(dir, ".claude", "settings.json")) || has(filepath.Join(dir, ".claude", "settings.local.json")) {
		return true, ""
	}
	for d := filepath.Dir(dir); ; d = filepath.Dir(d) {
		if has(filepath.Join(d, ".claude", "settings.json")) || has(filepath.Join(d, ".claude", "settings.local.json")) {
			return false, d
		}
		if filepath.Dir(d) == d {
			return false, ""
		}
	}
}
