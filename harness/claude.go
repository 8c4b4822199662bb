package harness

import (
	"encoding/json"

	"github.com/conch-sh/conch/state"
)

const claudeName = "claude"

// claude is Claude Code's adapter. Its hook protocol is the one Codex,
// Copilot CLI and Qwen Code speak too (decodeHook, encodeHook).
var claude = Adapter{
	Name:  claudeName,
	Title: "Claude Code",
	Use:   "claude",
	Short: "Claude Code's hook: reads one event on standard input and answers it",
	Long: `Claude Code's hook (conch install claude puts it in the settings). It
reads one hook event, JSON on standard input, does what the event means in
conch (a reply begins at UserPromptSubmit, each tool call is a step, Stop
ends the reply, StopFailure ends it failed, …), and answers in Claude
Code's own JSON: the notes as additionalContext; when another chat stopped
the reply, the pending tool denied and {"continue": false}; {"decision":
"block"} to deliver a message that starts a reply. The table of events,
and the Claude Code version it was tested against, are in conch help
integrations.

It never breaks the session it serves: bad input, an unknown event, a
locked home or any failure prints one warning line on standard error and
answers nothing.

Exit codes: 0, always.`,
	// Claude Code 2.1.328 puts CLAUDE_CODE_SESSION_ID in every Bash
	// command's environment, beside the CONCH_CHAT of its env file, which
	// a SessionStart that missed the lock never wrote.
	Caps: Capabilities{
		Resume:  claudeResume,
		Context: hookContext, Deny: true, KeepGoing: true,
		ContextCap: 10000, StopBeforeTool: true, StopHeard: true, Ask: true,
		EnvFiles: []string{"CLAUDE_ENV_FILE"}, SessionEnv: "CLAUDE_CODE_SESSION_ID", ShellSession: true,
	},
	Decode:    decodeClaude,
	Encode:    encodeHook,
	LastWords: claudeLastWords,
	Typed:     claudeTyped,
}

// claude --help: "-r, --resume [value] Resume a conversation by session
// ID", "-p, --print", "--permission-mode <mode> (choices: acceptEdits,
// auto, bypassPermissions, manual, dontAsk, plan)"; manual is its default
// mode (the binary maps it to "default").
var claudeResume = &Resumer{
	Program: "claude",
	Argv:    func(s string) []string { return []string{"-p", "--resume", s} },
	Modes: []ModeFlags{
		{state.ModeAsk, []string{"--permission-mode", "manual"}}, {state.ModePlan, []string{"--permission-mode", "plan"}},
	},
	Own: claudeOwn, CarryValues: []string{"--model"},
	Env:  []string{"ANTHROPIC_*", "CLAUDE_CODE_*", "CLAUDE_CONFIG_DIR", "DISABLE_*", "AWS_*", "GOOGLE_APPLICATION_CREDENTIALS", "CLOUD_ML_REGION", "IS_SANDBOX"},
	Says: "claude -p --resume SESSION",
}

// claudeKind is what each of Claude Code's hook events means in conch.
// Codex's hooks speak the same protocol, with the same names.
func claudeKind(event string) Kind {
	switch event {
	case "SessionStart":
		return SessionStart
	case "UserPromptSubmit":
		return PromptSubmit
	case "PreToolUse":
		return PreTool
	case "PostToolUse", "PostToolUseFailure":
		// A tool that failed (a test that fails, a command exiting 1)
		// fires PostToolUseFailure instead: the notes come all the same.
		return PostTool
	case "Notification", "PermissionRequest":
		return NeedsYou
	case "PreCompact":
		return Compacted
	case "Stop":
		return TurnEnd
	case "SubagentStop":
		return SubagentEnd
	case "StopFailure":
		return TurnFailed
	case "SubagentStart":
		return SubagentStart
	case "SessionEnd":
		return SessionEnd
	}
	return 0
}

// decodeClaude reads one of Claude Code's hook events.
func decodeClaude(h *Hook) (Event, error) {
	if h.P.Has("cursor_version") {
		// Cursor runs Claude Code's hooks too ("third-party hooks"):
		// conch hook cursor, from Cursor's own hooks, is its adapter.
		return Event{}, nil
	}
	return decodeHook(h, claudeName, claudeKind)
}

// decodeHook reads a hook event of Claude Code's protocol (Claude Code's,
// or that of a harness that speaks it, named harness), its names read by
// kind.
func decodeHook(h *Hook, harness string, kind func(string) Kind) (Event, error) {
	p := h.P
	h.Event = p.Str("hook_event_name")
	if h.Event == "" {
		return Event{}, errNoEventName
	}
	if h.Kind = kind(h.Event); h.Kind == 0 {
		return Event{}, unknownEvent(h.Event)
	}
	ev := Event{
		Kind: h.Kind, Name: h.Event, Harness: harness,
		Session: p.Str("session_id"), Agent: p.Str("agent_id"), AgentType: p.Str("agent_type"),
		Folder: p.Str("cwd"), Mode: harnessMode(p.Str("permission_mode")),
		Title: p.Str("session_title"), Turn: p.Str("turn_id"),
		Transcript: p.Str("transcript_path"), AgentTranscript: p.Str("agent_transcript_path"),
		Prompt: p.Str("prompt"),
		Tool:   p.Str("tool_name"), ToolUse: p.Str("tool_use_id"), Input: p.Obj("tool_input"),
		Response:     p["tool_response"],
		Notification: p.Str("notification_type"),
		LastWords:    p.Str("last_assistant_message"), HasLastWords: p.Has("last_assistant_message"),
		Continued: p.Flag("stop_hook_active"),
	}
	if h.Kind == TurnEnd || h.Kind == SubagentEnd {
		ev.Background = backgroundRunning(p)
	}
	return ev, nil
}

// backgroundRunning says whether a Stop leaves background work of the
// session still in flight (Claude Code's background_tasks: running or
// pending agents, shells and the like).
func backgroundRunning(p Fields) bool {
	var tasks []struct {
		Status string `json:"status"`
	}
	if json.Unmarshal(p["background_tasks"], &tasks) != nil {
		return false
	}
	for _, t := range tasks {
		switch t.Status {
		case "", "running", "pending":
			return true
		}
	}
	return false
}

// hookAnswer is a reply in the hooks' JSON (the keys both Claude Code and
// Codex accept; Codex refuses any other).
type hookAnswer struct {
	Continue           *bool         `json:"continue,omitempty"`
	StopReason         string        `json:"stopReason,omitempty"`
	Decision           string        `json:"decision,omitempty"`
	Reason             string        `json:"reason,omitempty"`
	HookSpecificOutput *hookSpecific `json:"hookSpecificOutput,omitempty"`
	// SystemMessage is shown to the person, not the model.
	SystemMessage string `json:"systemMessage,omitempty"`
}

type hookSpecific struct {
	HookEventName            string `json:"hookEventName"`
	PermissionDecision       string `json:"permissionDecision,omitempty"`
	PermissionDecisionReason string `json:"permissionDecisionReason,omitempty"`
	AdditionalContext        string `json:"additionalContext,omitempty"`
}

// encodeHook is a reply in the hooks' JSON, which Claude Code, Codex and
// Qwen Code share: the context and a permission decision in
// hookSpecificOutput, a stop as continue:false, a prompt that keeps the
// turn going as a block.
func encodeHook(h *Hook, r Reply) any {
	out := &hookAnswer{SystemMessage: r.SystemMessage}
	if r.Stop {
		f := false
		out.Continue, out.StopReason = &f, r.StopReason
	}
	if r.Continue {
		out.Decision, out.Reason = "block", r.Prompt
	}
	if r.Context != "" || r.Permission != "" {
		out.HookSpecificOutput = &hookSpecific{
			HookEventName: h.Event, PermissionDecision: r.Permission,
			PermissionDecisionReason: r.PermissionReason, AdditionalContext: r.Context,
		}
	}
	return out
}

// harnessMode is conch's mode for a harness's permission mode: plan is
// plan; modes where nothing asks the person first (bypassPermissions,
// Claude Code's auto) are auto; the rest, where some tool calls still wait
// for the person (default, acceptEdits, dontAsk, which denies rather than
// asks), are ask. An unknown mode changes nothing.
func harnessMode(pm string) string {
	switch pm {
	case "plan":
		return state.ModePlan
	case "default", "acceptEdits", "auto_edit", "dontAsk":
		return state.ModeAsk
	case "bypassPermissions", "auto", "yolo":
		return state.ModeAuto
	}
	return ""
}
