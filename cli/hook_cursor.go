package cli

import (
	"encoding/json"

	"github.com/spf13/cobra"

	"github.com/conch-sh/conch/state"
)

func (a *app) newHookCursor() *cobra.Command {
	return &cobra.Command{
		Use:   "cursor",
		Short: "Cursor's agent hook (.cursor/hooks.json): reads one event on standard input and answers it",
		Long: `Cursor's agent hook (conch install cursor puts it in hooks.json). It reads
one hook event, JSON on standard input (sessionStart, beforeSubmitPrompt,
preToolUse, postToolUse, postToolUseFailure, afterFileEdit,
afterAgentResponse, stop, preCompact, sessionEnd), does what the event
means in conch as conch hook claude does, and answers in Cursor's own
JSON: the chat's introduction and notes as additional_context at
sessionStart, a denied tool as {"decision": "deny", "reason"}, a message
that starts a reply as a stop's followup_message. Cursor's other events
carry no context to the model: what it cannot do is in conch help
integrations.

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
			return a.runHook(state.HarnessCursor, nil, (*hook).handleCursor)
		},
	}
}

// handleCursor does what one of Cursor's agent hook events means: the
// event is made Claude Code's (cursorEvent) and handle does it, except
// for what only Cursor says (its assistant's words before the turn ends,
// a turn aborted).
func (h *hook) handleCursor() error {
	event := h.cursorEvent()
	switch event {
	case "":
		return nil
	case "afterAgentResponse":
		h.event = event
		return h.cursorWords()
	case "aborted":
		h.event = "stop"
		return h.cursorAborted()
	case "UserPromptSubmit":
		h.continued = h.blockContinued()
	}
	h.p.set("hook_event_name", event)
	return h.handle()
}

// cursorEvent rewrites a Cursor payload into Claude Code's shape and
// names the Claude Code event it is ("" for one conch leaves alone):
// the session is the conversation, the folder the first workspace root
// when the event names no cwd, the tools have Claude Code's names, a
// stop is Stop, StopFailure or aborted by its status, and the reply's
// last words are the ones afterAgentResponse kept. Only sessionStart's
// answer reaches the model as context: every other event's notes stay
// due (mute).
func (h *hook) cursorEvent() string {
	p := h.p
	p.rename("conversation_id", "session_id")
	if !p.has("cwd") {
		var roots []string
		if json.Unmarshal(p["workspace_roots"], &roots) == nil && len(roots) > 0 {
			p.set("cwd", roots[0])
		}
	}
	if tool, ok := cursorTools[p.str("tool_name")]; ok {
		p.set("tool_name", tool)
	}
	if in := p.obj("tool_input"); in != nil && !in.has("file_path") {
		for _, k := range []string{"path", "target_file", "file"} {
			if in.has(k) {
				in["file_path"] = in[k]
				b, _ := json.Marshal(in)
				p["tool_input"] = b
				break
			}
		}
	}
	h.mute = true
	switch p.str("hook_event_name") {
	case "sessionStart":
		h.mute = false
		switch p.str("composer_mode") {
		case "ask":
			p.set("permission_mode", "plan") // Cursor's ask mode changes nothing
		case "agent", "edit":
			p.set("permission_mode", "default")
		}
		return "SessionStart"
	case "beforeSubmitPrompt":
		return "UserPromptSubmit"
	case "preToolUse":
		return "PreToolUse"
	case "postToolUse":
		return "PostToolUse"
	case "postToolUseFailure":
		return "PostToolUseFailure"
	case "afterFileEdit":
		// The edit's file, as a Write's step: its file counts as changed.
		in, _ := json.Marshal(map[string]string{"file_path": p.str("file_path")})
		p["tool_input"] = in
		p.set("tool_name", "Write")
		return "PostToolUse"
	case "afterAgentResponse":
		return "afterAgentResponse"
	case "stop":
		switch p.str("status") {
		case "aborted":
			return "aborted"
		case "error":
			p.set("last_assistant_message", h.cursorReplyWords())
			return "StopFailure"
		}
		p.set("last_assistant_message", h.cursorReplyWords())
		var loops int
		if json.Unmarshal(p["loop_count"], &loops) == nil && loops > 0 {
			p["stop_hook_active"] = json.RawMessage("true")
		}
		return "Stop"
	case "preCompact":
		return "PreCompact"
	case "sessionEnd":
		return "SessionEnd"
	}
	return "" // subagentStart/Stop name no agent: the session's chat has their steps
}

// cursorTools are Claude Code's names for Cursor's tools.
var cursorTools = map[string]string{
	"Shell": "Bash", "Read": "Read", "Write": "Write", "Edit": "Edit", "StrReplace": "Edit",
	"Delete": "Write", "Grep": "Grep", "Glob": "Glob", "Task": "Agent", "WebFetch": "WebFetch",
}

// cursorReplyWords are the words afterAgentResponse kept in the running
// reply ("" for none).
func (h *hook) cursorReplyWords() string {
	var text string
	look := h.sessionIn(false)
	look.Mode, look.Transcript = "", ""
	_ = h.a.view(func(tx *state.Tx) error {
		c, _, err := tx.HarnessChat(look)
		if err == nil && c != nil && c.Reply != nil {
			text = c.Reply.Text
		}
		return err
	})
	return text
}

// cursorWords: the assistant finished a message. Its words are kept in
// the reply, for the stop that ends it (which carries none).
func (h *hook) cursorWords() error {
	text := lastWords(h.p.str("text"))
	if text == "" {
		return nil
	}
	in := h.sessionIn(false)
	in.Mode, in.Transcript = "", ""
	return h.update(func(tx *state.Tx) error {
		c, _, err := tx.HarnessChat(in)
		if err != nil || c == nil {
			return err
		}
		return tx.ReplyWords(state.Actor{ID: c.ID}, text)
	})
}

// cursorAborted: the person stopped the turn. Its reply ends as stopped,
// so waits on it end and the list stops saying working.
func (h *hook) cursorAborted() error {
	in := h.sessionIn(false)
	in.Mode, in.Transcript = "", ""
	return h.update(func(tx *state.Tx) error {
		c, _, err := tx.HarnessChat(in)
		if err != nil || c == nil || c.Reply == nil {
			return err
		}
		_, err = tx.EndReply(state.Actor{ID: c.ID}, state.ReplyEnd{Outcome: state.OutcomeStopped, Text: c.Reply.Text})
		return err
	})
}

// cursorAnswer is an answer in Cursor's JSON, per event.
type cursorAnswer struct {
	AdditionalContext string `json:"additional_context,omitempty"`
	Decision          string `json:"decision,omitempty"`
	Reason            string `json:"reason,omitempty"`
	FollowupMessage   string `json:"followup_message,omitempty"`
}

// cursorWire is ans as Cursor reads it at event (nil: nothing it reads).
// Cursor's preToolUse allows or denies, and has no ask; only sessionStart
// adds context; a stop's followup_message is the next prompt.
func cursorWire(event string, ans *answer) any {
	var out cursorAnswer
	s := ans.HookSpecificOutput
	switch event {
	case "SessionStart":
		if s != nil {
			out.AdditionalContext = s.AdditionalContext
		}
	case "PreToolUse":
		if s != nil && (s.PermissionDecision == "deny" || s.PermissionDecision == "ask") {
			out.Decision, out.Reason = "deny", s.PermissionDecisionReason
		}
	case "Stop":
		if ans.Decision == "block" {
			out.FollowupMessage = ans.Reason
		}
	}
	if out == (cursorAnswer{}) {
		return nil
	}
	return out
}
