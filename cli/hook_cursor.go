package cli

import (
	"encoding/json"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/conch-sh/conch/harness"
	"github.com/conch-sh/conch/state"
)

func newHookCursor(a *app) *cobra.Command {
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
			return a.runHook(state.HarnessCursor, nil, (*hook).decodeCursor)
		},
	}
}

// cursorKinds are what Cursor's agent events mean.
var cursorKinds = map[string]harness.Kind{
	"sessionStart": harness.SessionStart, "beforeSubmitPrompt": harness.PromptSubmit,
	"preToolUse": harness.PreTool, "postToolUse": harness.PostTool, "postToolUseFailure": harness.PostTool,
	"afterFileEdit": harness.PostTool, "afterAgentResponse": harness.Words,
	"preCompact": harness.Compacted, "sessionEnd": harness.SessionEnd,
}

// cursorTools are Claude Code's names for Cursor's tools (the tool table's).
var cursorTools = map[string]string{
	"Shell": "Bash", "Read": "Read", "Write": "Write", "Edit": "Edit", "StrReplace": "Edit",
	"Delete": "Write", "Grep": "Grep", "Glob": "Glob", "Task": "Agent", "WebFetch": "WebFetch",
}

// decodeCursor reads one of Cursor's agent hook events: the session is the
// conversation, the folder the first workspace root when the event names
// no cwd, the tools have Claude Code's names, afterFileEdit is a Write of
// its file, a stop is the turn's end, failure or interruption by its
// status, and the assistant's words come in afterAgentResponse, before
// the stop. subagentStart and subagentStop name no agent: conch leaves
// them alone (their tools' events are the session's steps).
func (h *hook) decodeCursor() (harness.Event, error) {
	p := h.p
	h.event = p.Str("hook_event_name")
	if h.event == "" {
		return harness.Event{}, fmt.Errorf("the event has no hook_event_name")
	}
	h.kind = cursorKinds[h.event]
	if h.event == "stop" {
		switch p.Str("status") {
		case "aborted":
			h.kind = harness.TurnInterrupted
		case "error":
			h.kind = harness.TurnFailed
		default:
			h.kind = harness.TurnEnd
		}
	}
	if h.kind == 0 {
		if h.event == "subagentStart" || h.event == "subagentStop" {
			return harness.Event{}, nil
		}
		return harness.Event{}, fmt.Errorf("unknown event %q: nothing done", h.event)
	}
	folder := p.Str("cwd")
	if folder == "" {
		var roots []string
		if json.Unmarshal(p["workspace_roots"], &roots) == nil && len(roots) > 0 {
			folder = roots[0]
		}
	}
	session := p.Str("conversation_id")
	if session == "" {
		session = p.Str("session_id")
	}
	ev := harness.Event{
		Kind: h.kind, Name: h.event, Harness: h.harness,
		Session: session, Folder: folder, Prompt: p.Str("prompt"),
		Tool: p.Str("tool_name"), ToolUse: p.Str("tool_use_id"), Input: p.Obj("tool_input"),
	}
	if t, ok := cursorTools[ev.Tool]; ok {
		ev.Tool = t
	}
	if in := ev.Input; in != nil && !in.Has("file_path") {
		for _, k := range []string{"path", "target_file", "file"} {
			if in.Has(k) {
				in["file_path"] = in[k]
				break
			}
		}
	}
	switch h.event {
	case "sessionStart":
		switch p.Str("composer_mode") {
		case "ask":
			ev.Mode = state.ModePlan // Cursor's ask mode changes nothing
		case "agent", "edit":
			ev.Mode = state.ModeAsk
		}
	case "afterFileEdit":
		ev.Tool = "Write"
		ev.Input = harness.Fields{"file_path": p["file_path"]}
	case "afterAgentResponse":
		ev.LastWords = p.Str("text")
	case "stop":
		var loops int
		ev.Continued = json.Unmarshal(p["loop_count"], &loops) == nil && loops > 0
		// The words afterAgentResponse kept end the reply (a stop says none).
		ev.HasLastWords = true
	}
	return ev, nil
}

// cursorAnswer is an answer in Cursor's JSON.
type cursorAnswer struct {
	AdditionalContext string `json:"additional_context,omitempty"`
	Decision          string `json:"decision,omitempty"`
	Reason            string `json:"reason,omitempty"`
	FollowupMessage   string `json:"followup_message,omitempty"`
}

// encodeCursor is ans as Cursor reads it at event (nil: nothing it
// reads): sessionStart's additional_context; preToolUse's decision, allow
// or deny (it has no ask); a stop's followup_message, the next prompt.
func encodeCursor(kind harness.Kind, ans harness.Reply) any {
	var out cursorAnswer
	switch kind {
	case harness.SessionStart:
		out.AdditionalContext = ans.Context
	case harness.PreTool:
		if ans.Permission != "" {
			out.Decision, out.Reason = "deny", ans.PermissionReason
		}
	case harness.TurnEnd:
		if ans.Continue {
			out.FollowupMessage = ans.Prompt
		}
	}
	if out == (cursorAnswer{}) {
		return nil
	}
	return out
}
