package harness

import (
	"encoding/json"
	"path/filepath"

	"github.com/conch-sh/conch/harness/install"
	"github.com/conch-sh/conch/state"
)

const cursorName = "cursor"

// cursor is Cursor's adapter, for its agent hooks (.cursor/hooks.json).
var cursor = Adapter{
	Name:    cursorName,
	Title:   "Cursor",
	Install: &cursorInstall,
	Use:     "cursor",
	Short:   "Cursor's agent hook (.cursor/hooks.json): reads one event on standard input and answers it",
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
	// Cursor (its hooks documentation; cursor-agent is not tested here):
	// only sessionStart's additional_context reaches the model; preToolUse
	// allows or denies; no hook ends a turn; a stop's followup_message is
	// the next prompt, through beforeSubmitPrompt. Nothing in its shell
	// names the conversation.
	Caps: Capabilities{
		Context: 1 << SessionStart, Deny: true, KeepGoing: true,
		ContextCap: 10000, PromptOnContinue: true,
	},
	Decode: decodeCursor,
	Encode: encodeCursor,
}

// cursorKind is what one of Cursor's agent events means (0: none conch
// takes; a stop's is by its status).
func cursorKind(event string) Kind {
	switch event {
	case "sessionStart":
		return SessionStart
	case "beforeSubmitPrompt":
		return PromptSubmit
	case "preToolUse":
		return PreTool
	case "postToolUse", "postToolUseFailure", "afterFileEdit":
		return PostTool
	case "afterAgentResponse":
		return Words
	case "preCompact":
		return Compacted
	case "sessionEnd":
		return SessionEnd
	}
	return 0
}

// cursorTool is Claude Code's name for one of Cursor's tools (the tool
// table's), or the name as it is.
func cursorTool(name string) string {
	switch name {
	case "Shell":
		return "Bash"
	case "StrReplace":
		return "Edit"
	case "Delete":
		return "Write"
	case "Task":
		return "Agent"
	}
	return name // Read, Write, Edit, Grep, Glob, WebFetch: Claude Code's own
}

// decodeCursor reads one of Cursor's agent hook events: the session is the
// conversation, the folder the first workspace root when the event names
// no cwd, the tools have Claude Code's names, afterFileEdit is a Write of
// its file, a stop is the turn's end, failure or interruption by its
// status, and the assistant's words come in afterAgentResponse, before
// the stop. subagentStart and subagentStop name no agent: conch leaves
// them alone (their tools' events are the session's steps).
func decodeCursor(h *Hook) (Event, error) {
	p := h.P
	h.Event = p.Str("hook_event_name")
	if h.Event == "" {
		return Event{}, errNoEventName
	}
	h.Kind = cursorKind(h.Event)
	if h.Event == "stop" {
		switch p.Str("status") {
		case "aborted":
			h.Kind = TurnInterrupted
		case "error":
			h.Kind = TurnFailed
		default:
			h.Kind = TurnEnd
		}
	}
	if h.Kind == 0 {
		if h.Event == "subagentStart" || h.Event == "subagentStop" {
			return Event{}, nil
		}
		return Event{}, unknownEvent(h.Event)
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
	ev := Event{
		Kind: h.Kind, Name: h.Event, Harness: cursorName,
		Session: session, Folder: folder, Prompt: p.Str("prompt"),
		Tool: p.Str("tool_name"), ToolUse: p.Str("tool_use_id"), Input: p.Obj("tool_input"),
	}
	ev.Tool = cursorTool(ev.Tool)
	if in := ev.Input; in != nil && !in.Has("file_path") {
		for _, k := range []string{"path", "target_file", "file"} {
			if in.Has(k) {
				in["file_path"] = in[k]
				break
			}
		}
	}
	switch h.Event {
	case "sessionStart":
		switch p.Str("composer_mode") {
		case "ask":
			ev.Mode = state.ModePlan // Cursor's ask mode changes nothing
		case "agent", "edit":
			ev.Mode = state.ModeAsk
		}
	case "afterFileEdit":
		ev.Tool = "Write"
		ev.Input = Fields{"file_path": p["file_path"]}
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
func encodeCursor(h *Hook, ans Reply) any {
	var out cursorAnswer
	switch h.Kind {
	case SessionStart:
		out.AdditionalContext = ans.Context
	case PreTool:
		if ans.Permission != "" {
			out.Decision, out.Reason = "deny", ans.PermissionReason
		}
	case TurnEnd:
		if ans.Continue {
			out.FollowupMessage = ans.Prompt
		}
	}
	if out == (cursorAnswer{}) {
		return nil
	}
	return out
}

// cursorInstall is conch install cursor: conch's hooks in Cursor's
// hooks.json.
var cursorInstall = install.Recipe{
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
	Dir: func(e install.Env, project bool) string {
		if project {
			return filepath.Join(e.Cwd, ".cursor")
		}
		return filepath.Join(e.Home, ".cursor")
	},
	Do: func(r *install.Run) ([]*install.Result, error) {
		res, err := r.HookFile(filepath.Join(r.Dir, "hooks.json"), cursorHooks(r.Conch))
		if err != nil {
			return nil, err
		}
		return r.WithMCP([]*install.Result{res}, filepath.Join(r.Dir, "mcp.json"), install.MCPServers)
	},
	After: "Cursor reads them when it starts (a project's in a trusted workspace).",
}

// cursorHooks are conch's hooks in Cursor's format: {"version": 1,
// "hooks": {event: [{"command": …, "timeout": …}]}}. beforeReadFile and
// beforeMCPExecution are left out: Cursor blocks the read or the call
// when their hook fails, and preToolUse sees both.
func cursorHooks(conch string) install.Hooks {
	h := install.Hooks{
		Harness: cursorName, Command: install.Command(conch, cursorName),
		Flat: true, Handler: []install.Field{},
		Top: []install.Field{{Key: "version", Value: json.RawMessage(`1`)}},
	}
	for _, name := range []string{"sessionStart", "beforeSubmitPrompt", "preToolUse", "postToolUse",
		"postToolUseFailure", "afterFileEdit", "afterAgentResponse", "stop", "preCompact", "sessionEnd"} {
		h.Events = append(h.Events, install.Event{Name: name, Timeout: install.HookTimeout})
	}
	return h
}
