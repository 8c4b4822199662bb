package cli

import (
	"github.com/conch-sh/conch/render"
	"github.com/conch-sh/conch/state"
)

// guard judges the tool call about to run (issue 18): an edit onto a file
// another of the person's chats claimed, a command that moves a checkout
// another of them works in. nil: nothing to say.
func (h *hook) guard(tx *state.Tx, c *state.Chat, tool, family string, files []string) (*state.Verdict, error) {
	in := state.GuardIn{Cwd: h.folder()}
	if family == "edit" {
		in.Files = files
	}
	if shellTool(tool) {
		in.Command = h.p.obj("tool_input").str("command")
	}
	return tx.Guard(state.Actor{ID: c.ID}, in)
}

// shellTool says whether a harness's tool runs a shell command line.
func shellTool(tool string) bool {
	switch tool {
	case "Bash", "shell", "exec_command", "local_shell", "run_shell_command":
		return true
	}
	return false
}

// guardAnswer is the guard's verdict in the harness's own words: a deny
// (Claude Code's and Codex's permissionDecision "deny", with the reason the
// model reads), an ask (Claude Code's own permission prompt; Codex 0.169's
// PreToolUse has none, so there it is a deny that says to ask the person),
// or a note (the tool runs; the reason goes into the context).
func (h *hook) guardAnswer(v *state.Verdict) *answer {
	reason := render.GuardReason(v)
	switch v.Decision {
	case state.GuardNote:
		return h.context(reason)
	case state.GuardAsk:
		if h.harness != state.HarnessCodex {
			return &answer{HookSpecificOutput: &specific{HookEventName: h.event, PermissionDecision: "ask", PermissionDecisionReason: reason}}
		}
		reason = render.GuardAskElsewhere(reason)
	}
	return &answer{HookSpecificOutput: &specific{HookEventName: h.event, PermissionDecision: "deny", PermissionDecisionReason: reason}}
}
