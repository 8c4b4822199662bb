package cli

import (
	"encoding/json"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/conch-sh/conch/render"
	"github.com/conch-sh/conch/state"
)

func (a *app) newHookCopilot() *cobra.Command {
	return &cobra.Command{
		Use:   "copilot",
		Short: "GitHub Copilot CLI's hook: reads one event on standard input and answers it",
		Long: `GitHub Copilot CLI's hook (conch install copilot writes it in a hooks
file). It reads one hook event, JSON on standard input, in the dialect
Copilot sends to hooks named in PascalCase (snake_case fields, Claude
Code's tool names), does what the event means in conch as conch hook
claude does, and answers in Copilot's own JSON: the notes as
additionalContext, a denied tool's reason as permissionDecisionReason, a
message that starts a reply as {"decision": "block"} at Stop, and, when
another chat stopped the reply, the pending tool denied with
{"behavior": "deny", "interrupt": true} at permissionRequest, which ends
the turn. What Copilot CLI allows, and the version it was tested against,
are in conch help integrations.

It never breaks the session it serves: bad input, an unknown event, a
locked home or any failure prints one warning line on standard error and
answers nothing.

Exit codes: 0, always.`,
		Args:               cobra.ArbitraryArgs,
		Annotations:        access(accessWrite),
		DisableFlagParsing: true,
		RunE: func(cmd *cobra.Command, args []string) error {
			if asksHelp(args) {
				return cmd.Help()
			}
			return a.runHook(state.HarnessCopilot, nil, (*hook).handleCopilot)
		},
	}
}

// handleCopilot does what one of Copilot CLI's hook events means. The
// PascalCase dialect is Claude Code's protocol in all but a few fields:
// the event is made Claude Code's (copilotEvent) and handle does it.
func (h *hook) handleCopilot() error {
	event := h.copilotEvent()
	switch event {
	case "":
		return nil // nothing of conch's to do (a subagent's own Stop)
	case "permissionRequest":
		h.event = "permissionRequest"
		return h.copilotPermission()
	case "UserPromptSubmit":
		h.continued = h.blockContinued()
	}
	h.p["hook_event_name"] = json.RawMessage(`"` + event + `"`)
	return h.handle()
}

// copilotEvent rewrites the payload into Claude Code's shape and names
// the Claude Code event it is ("" for one conch leaves alone):
//
//   - a subagent's own events carry its id as session_id (and as
//     agent_id) and the session's as parent_agent_id: the session is the
//     parent, the agent the child, as Claude Code has them;
//   - the subagent's first prompt is its start (SubagentStart), its own
//     Stop is left to the SubagentStop that follows at the session;
//   - view, create and edit name their file "path", not "file_path";
//   - an error of a model call ends the turn failed (StopFailure);
//   - permissionRequest and Notification come camelCase (sessionId);
//   - no event names a permission mode: the session's command line does.
func (h *hook) copilotEvent() string {
	p := h.p
	if p.str("hookName") == "permissionRequest" {
		p.rename("sessionId", "session_id")
		return "permissionRequest"
	}
	if !p.has("session_id") {
		p.rename("sessionId", "session_id")
	}
	event := p.str("hook_event_name")
	agent, parent := p.str("agent_id"), p.str("parent_agent_id")
	sub := agent != "" && parent != "" && p.str("session_id") == agent
	if sub {
		p.set("session_id", parent)
	}
	if in := p.obj("tool_input"); in != nil && in.has("path") && !in.has("file_path") {
		in["file_path"] = in["path"]
		b, _ := json.Marshal(in)
		p["tool_input"] = b
	}
	switch event {
	case "UserPromptSubmit":
		if sub {
			return "SubagentStart"
		}
		h.copilotMode()
	case "SessionStart":
		h.copilotMode()
	case "Stop":
		if sub {
			return ""
		}
		p.set("last_assistant_message", copilotLastWords(p.str("transcript_path"), p.str("timestamp")))
	case "ErrorOccurred":
		if p.str("error_context") != "model_call" {
			return "" // a tool's error: its PostToolUseFailure says it
		}
		var e struct {
			Message string `json:"message"`
		}
		_ = json.Unmarshal(p["error"], &e)
		p.set("last_assistant_message", e.Message)
		return "StopFailure"
	}
	return event
}

// copilotFlushWait bounds how long a Stop waits for Copilot to write the
// turn's end to its events file (it writes in batches, a moment late).
const copilotFlushWait = 2 * time.Second

// copilotLastWords are the turn's last words, from Copilot's events file
// (Stop carries none), once the file holds the start of this Stop's hook
// (fired at stamp, an RFC 3339 time), and so the turn's end; after
// copilotFlushWait, whatever it holds then.
func copilotLastWords(path, stamp string) string {
	if path == "" {
		return ""
	}
	if at, err := time.Parse(time.RFC3339Nano, stamp); err == nil {
		for deadline := time.Now().Add(copilotFlushWait); !state.CopilotStopWritten(path, at.UnixMilli()) && time.Now().Before(deadline); {
			time.Sleep(20 * time.Millisecond)
		}
	}
	return state.LastAssistantText(state.HarnessCopilot, path)
}

// copilotMode puts the session's permission mode in the payload, as
// Claude Code names it, from the Copilot command line running the hook:
// --plan (or --mode plan) is plan; --allow-all-tools, --allow-all, --yolo
// or COPILOT_ALLOW_ALL, where no tool waits for the person, is
// bypassPermissions; anything else is default. Modes switched inside the
// session (shift+tab) are not seen.
func (h *hook) copilotMode() {
	args := state.ProcArgs(h.a.harnessPID(0))
	if len(args) == 0 {
		return
	}
	mode := "default"
	if v := strings.ToLower(strings.TrimSpace(h.a.env.Getenv("COPILOT_ALLOW_ALL"))); slices.Contains([]string{"true", "1", "yes", "on", "y"}, v) {
		mode = "bypassPermissions"
	}
	for i, w := range args[1:] {
		switch {
		case w == "--allow-all-tools" || w == "--allow-all" || w == "--yolo":
			mode = "bypassPermissions"
		case w == "--plan" || w == "--mode=plan" || w == "--mode" && i+2 < len(args) && args[i+2] == "plan":
			h.p.set("permission_mode", "plan")
			return
		}
	}
	h.p.set("permission_mode", mode)
}

// blockContinued says whether a prompt is the one the harness makes
// itself of what conch gave its Stop to go on with (Copilot's {"decision":
// "block"}, Cursor's followup_message): both fire their prompt hook for
// it, in the reply conch began for the message it delivered (one nobody
// watches, at its start).
func (h *hook) blockContinued() bool {
	look := h.sessionIn(false)
	look.Mode, look.Transcript = "", ""
	var c *state.Chat
	if h.a.view(func(tx *state.Tx) (err error) { c, _, err = tx.HarnessChat(look); return err }) != nil || c == nil {
		return false
	}
	r := c.Reply
	return r != nil && r.Unwatched && r.Steps == 0 && r.Alive()
}

// copilotAsks says whether Copilot asks permission for the tool (its
// permissionRequest hook then fires, even with --allow-all-tools): its
// shell, its file writes and its web fetch. Reads, searches and subagents
// do not.
func copilotAsks(tool string) bool {
	switch tool {
	case "Bash", "Write", "Edit", "WebFetch", "bash", "create", "edit", "web_fetch":
		return true
	}
	return false
}

// copilotPermission: Copilot is about to ask permission for a tool (it
// asks its hooks first, whatever it would decide). A reply another chat
// stopped denies the tool with the notice and interrupts the turn: the
// tool does not run and the turn ends there. Otherwise nothing is said,
// and Copilot decides as it would.
func (h *hook) copilotPermission() error {
	var c *state.Chat
	look := h.sessionIn(false)
	look.Agent = "" // a subagent's permission is asked in the session
	look.Mode, look.Transcript = "", ""
	if err := h.a.view(func(tx *state.Tx) (err error) { c, _, err = tx.HarnessChat(look); return err }); err != nil || c == nil {
		return err
	}
	n := c.StopPending()
	if n == nil {
		return nil
	}
	if err := h.say(&answer{Behavior: "deny", Message: render.StopLine(*n), Interrupt: true}); err != nil {
		return err
	}
	return h.update(func(tx *state.Tx) error { return tx.HeardStop(state.Actor{ID: c.ID}) })
}

// copilotAnswer is an answer in Copilot CLI's JSON: it reads the fields
// at the top level (hookSpecificOutput's additionalContext is not read).
type copilotAnswer struct {
	AdditionalContext        string `json:"additionalContext,omitempty"`
	PermissionDecision       string `json:"permissionDecision,omitempty"`
	PermissionDecisionReason string `json:"permissionDecisionReason,omitempty"`
	Decision                 string `json:"decision,omitempty"`
	Reason                   string `json:"reason,omitempty"`
	Behavior                 string `json:"behavior,omitempty"`
	Message                  string `json:"message,omitempty"`
	Interrupt                bool   `json:"interrupt,omitempty"`
}

// copilotWire is ans as Copilot reads it. continue:false has no meaning
// to Copilot (its turn goes on): a stop after a tool is said as context,
// beside the tool's result; before a tool, as its denial, or at
// permissionRequest, which ends the turn.
func copilotWire(ans *answer) any {
	out := copilotAnswer{Decision: ans.Decision, Reason: ans.Reason, Behavior: ans.Behavior, Message: ans.Message, Interrupt: ans.Interrupt}
	if s := ans.HookSpecificOutput; s != nil {
		out.AdditionalContext = s.AdditionalContext
		out.PermissionDecision, out.PermissionDecisionReason = s.PermissionDecision, s.PermissionDecisionReason
	}
	if ans.Continue != nil && !*ans.Continue && out.PermissionDecision == "" && out.AdditionalContext == "" {
		out.AdditionalContext = ans.StopReason
	}
	if out == (copilotAnswer{}) {
		return nil
	}
	return out
}

// rename moves a field to another key, when the new one is not there.
func (p payload) rename(from, to string) {
	if v, ok := p[from]; ok && !p.has(to) {
		p[to] = v
	}
}

// set puts a string field.
func (p payload) set(key, value string) {
	b, _ := json.Marshal(value)
	p[key] = b
}
