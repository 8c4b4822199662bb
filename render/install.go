package render

import (
	"fmt"
	"strings"
)

// InstallLine is what conch install did to one file, for its words.
type InstallLine struct {
	File    string
	Changed bool
	Backup  string
	Events  []string
	Notes   []string
}

// Installed is what conch install NAME says: each file's outcome, its
// backup and notes; then, once something was put in, a note when the
// program the hooks run is not on PATH (missing) and after, what the
// person does next.
func Installed(done []InstallLine, remove, missing bool, conch, after string) string {
	var b strings.Builder
	changed := false
	for _, r := range done {
		switch {
		case !r.Changed && remove:
			fmt.Fprintf(&b, "%s: nothing of conch's to take out\n", r.File)
		case !r.Changed:
			fmt.Fprintf(&b, "%s: conch's hooks are there already\n", r.File)
		case remove:
			fmt.Fprintf(&b, "%s: conch's part taken out\n", r.File)
		default:
			fmt.Fprintf(&b, "%s: conch's part put in (%s)\n", r.File, strings.Join(r.Events, ", "))
		}
		if r.Backup != "" {
			fmt.Fprintf(&b, "  the file as it was: %s\n", r.Backup)
		}
		for _, n := range r.Notes {
			fmt.Fprintf(&b, "  %s\n", n)
		}
		changed = changed || r.Changed
	}
	if changed && !remove {
		if missing {
			fmt.Fprintf(&b, "note: %s is not on PATH here; the hooks run it by that name (--conch PATH names another)\n", conch)
		}
		b.WriteString(after + "\n")
	}
	return b.String()
}

// InstallNotConchs notes a file by the name of conch's own that is not
// conch's, left as it is by a removal.
const InstallNotConchs = "it is not conch's (its first line is not conch's): left as it is"

// InstallOwnRemoved notes a hooks file of conch's own name that a removal
// left holding nothing of anyone else's: it is gone, with no backup.
const InstallOwnRemoved = "nothing but conch's part was in it: removed, with no backup"

// InstallFolderRemoved notes a folder made for conch's file that its
// removal left empty, removed too.
func InstallFolderRemoved(dir string) string {
	return "its folder " + dir + ", empty now: removed"
}

// ClaudeAfter is said once conch install claude put something in.
const ClaudeAfter = "Claude Code reads them when a session starts."

// ClaudeSubfolder is what conch install claude --project says in a folder
// inside a repository (cdRoot: root, shell-quoted): Claude Code reads a
// project's .claude/settings.json only in the folder a session starts in.
func ClaudeSubfolder(cwd, root, cdRoot string) []string {
	return []string{
		"Claude Code reads .claude/settings.json only in the folder a session starts in: these hooks serve sessions started in " + cwd + ", not in " + root + " or its other folders.",
		"To cover the repository: cd " + cdRoot + " && conch install claude --project (sessions started there), or conch install claude --user (every session).",
	}
}

// ClaudeRoot is what conch install claude --project says at a
// repository's root (root): Claude Code reads the settings of the folder
// a session starts in, so a session started in a folder inside runs none
// of these hooks.
func ClaudeRoot(root string) []string {
	return []string{
		"Claude Code reads .claude/settings.json only in the folder a session starts in: these hooks serve sessions started in " + root + ", not in its subfolders.",
		"To cover those too: conch install claude --user (every session), or conch install claude --project in each subfolder sessions start in.",
	}
}

// ClaudeUncovered is what conch doctor says when Claude Code sessions
// started in cwd run no conch hooks; above is the settings file of the
// nearest folder above that has them ("" for none).
func ClaudeUncovered(cwd, above string) string {
	if above != "" {
		return "Claude Code sessions started in " + cwd + " run no conch hooks: " + above + " has them, but Claude Code reads only the folder a session starts in (conch install claude --user covers every folder)"
	}
	return "Claude Code sessions started in " + cwd + " run no conch hooks (conch install claude --user covers every folder, --project this one)"
}

// CopilotAfter is said once conch install copilot put something in.
const CopilotAfter = "Copilot CLI reads them when a session starts (a repository's once you trust its folder)."

// GeminiAfter is said once conch install gemini put something in.
const GeminiAfter = "Gemini CLI reads them when a session starts; a project's hooks run only in a trusted folder."

// QwenAfter is said once conch install qwen put something in.
const QwenAfter = "Qwen Code reads them when a session starts; a project's hooks run only in a trusted folder."

// CursorAfter is said once conch install cursor put something in.
const CursorAfter = "Cursor reads them when it starts (a project's in a trusted workspace)."

// CodexAfter is what a person must do after conch install codex: Codex
// runs a hook only once it is trusted, and codex exec says nothing of the
// ones it skips.
const CodexAfter = `Codex runs new hooks only once you trust them; codex exec skips untrusted
hooks without a word (conch then hears only each turn's end, from notify).
Trust conch's once in the TUI (codex, then /hooks and t to trust all), or
run codex exec --dangerously-bypass-hook-trust.`

// CodexHooksOff notes a config.toml whose [features] turn hooks off.
func CodexHooksOff(path, key string) string {
	return fmt.Sprintf("hooks are turned off in %s ([features] %s = false): conch hears only each turn's end until they are on", path, key)
}

// CodexOwnNotify notes a config.toml whose notify program is not conch's.
func CodexOwnNotify(path string) string {
	return fmt.Sprintf("%s has a notify program of its own: left as it is; conch's Stop hook reports each turn's end", path)
}

// CodexNotifyOut notes the notify line an older conch put in a project's
// config.toml, taken out.
func CodexNotifyOut(path, backup string) string {
	return fmt.Sprintf("%s: conch's notify taken out (the file as it was: %s); Codex takes notify only from your own config.toml", path, backup)
}

// CodexTrustOut notes Codex's trust entries for conch's hooks, taken out.
func CodexTrustOut(n int) string {
	return fmt.Sprintf("Codex's trust in conch's hooks taken out (%d entries)", n)
}

// OpenCodeAfter and PiAfter are what install says once the plugin is in.
const (
	OpenCodeAfter = "OpenCode loads it when it starts."
	PiAfter       = "Pi loads it when it starts (or at /reload)."
)

// MCPNotConchs notes an MCP server named conch that does not run conch
// mcp, left as it is by a removal.
const MCPNotConchs = "its MCP server named conch does not run conch mcp: left as it is"
