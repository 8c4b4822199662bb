package render

import (
	"fmt"
	"strings"

	"github.com/conch-sh/conch/harness"
	"github.com/conch-sh/conch/harness/install"
)

// InstallLine is what conch install did to one file, for its words, and
// its JSON (conch help json).
type InstallLine struct {
	File    string   `json:"file"`
	Changed bool     `json:"changed"`
	Backup  string   `json:"backup,omitempty"`
	Events  []string `json:"events"`
	Notes   []string `json:"notes,omitempty"`
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

// InstallNote is what an install's note says, in lines: install's own
// notes, and those of the harnesses' recipes (harness/NAME.go).
func InstallNote(n install.Note) []string {
	switch n := n.(type) {
	case install.NotConchs:
		return []string{"it is not conch's (its first line is not conch's): left as it is"}
	case install.OwnRemoved:
		return []string{"nothing but conch's part was in it: removed, with no backup"}
	case install.FolderRemoved:
		return []string{"its folder " + n.Dir + ", empty now: removed"}
	case install.MCPNotConchs:
		return []string{"its MCP server named conch does not run conch mcp: left as it is"}
	case harness.ClaudeSubfolder:
		return []string{
			"Claude Code reads .claude/settings.json only in the folder a session starts in: these hooks serve sessions started in " + n.Cwd + ", not in " + n.Root + " or its other folders.",
			"To cover the repository: cd " + install.Quote(n.Root) + " && conch install claude --project (sessions started there), or conch install claude --user (every session).",
		}
	case harness.ClaudeRoot:
		return []string{
			"Claude Code reads .claude/settings.json only in the folder a session starts in: these hooks serve sessions started in " + n.Root + ", not in its subfolders.",
			"To cover those too: conch install claude --user (every session), or conch install claude --project in each subfolder sessions start in.",
		}
	case harness.ClaudeUncovered:
		if n.Above != "" {
			return []string{"Claude Code sessions started in " + n.Cwd + " run no conch hooks: " + n.Above + " has them, but Claude Code reads only the folder a session starts in (conch install claude --user covers every folder)"}
		}
		return []string{"Claude Code sessions started in " + n.Cwd + " run no conch hooks (conch install claude --user covers every folder, --project this one)"}
	case harness.CodexHooksOff:
		return []string{fmt.Sprintf("hooks are turned off in %s ([features] %s = false): conch hears only each turn's end until they are on", n.Path, n.Key)}
	case harness.CodexOwnNotify:
		return []string{fmt.Sprintf("%s has a notify program of its own: left as it is; conch's Stop hook reports each turn's end", n.Path)}
	case harness.CodexNotifyOut:
		return []string{fmt.Sprintf("%s: conch's notify taken out (the file as it was: %s); Codex takes notify only from your own config.toml", n.Path, n.Backup)}
	case harness.CodexTrustOut:
		return []string{fmt.Sprintf("Codex's trust in conch's hooks taken out (%d entries)", n.N)}
	}
	return nil
}
