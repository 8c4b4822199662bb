package cli

import (
	"encoding/json"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/conch-sh/conch/harness"
	"github.com/conch-sh/conch/state"
)

func newHookClaude(a *app) *cobra.Command {
	return &cobra.Command{
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
		Args:        cobra.ArbitraryArgs, // a hook refuses nothing the harness passes
		Annotations: access(accessWrite),
		// Whatever the harness passes is the hook's to judge, never a
		// usage error: Codex's one argument is JSON, never a flag.
		DisableFlagParsing: true,
		RunE: func(cmd *cobra.Command, args []string) error {
			if asksHelp(args) {
				return cmd.Help()
			}
			return a.runHook(state.HarnessClaude, nil, (*hook).decodeClaude)
		},
	}
}

// asksHelp says whether the words are a request for the command's help.
func asksHelp(args []string) bool {
	return len(args) == 1 && (args[0] == "-h" || args[0] == "--help")
}

// claudeKind is what each of Claude Code's hook events means in conch.
// Codex's hooks speak the same protocol, with the same names.
func claudeKind(event string) harness.Kind {
	switch event {
	case "SessionStart":
		return harness.SessionStart
	case "UserPromptSubmit":
		return harness.PromptSubmit
	case "PreToolUse":
		return harness.PreTool
	case "PostToolUse", "PostToolUseFailure":
		// A tool that failed (a test that fails, a command exiting 1)
		// fires PostToolUseFailure instead: the notes come all the same.
		return harness.PostTool
	case "Notification", "PermissionRequest":
		return harness.NeedsYou
	case "PreCompact":
		return harness.Compacted
	case "Stop":
		return harness.TurnEnd
	case "SubagentStop":
		return harness.SubagentEnd
	case "StopFailure":
		return harness.TurnFailed
	case "SubagentStart":
		return harness.SubagentStart
	case "SessionEnd":
		return harness.SessionEnd
	}
	return 0
}

// decodeClaude reads one of Claude Code's hook events.
func (h *hook) decodeClaude() (harness.Event, error) {
	if h.p.Has("cursor_version") {
		// Cursor runs Claude Code's hooks too ("third-party hooks"):
		// conch hook cursor, from Cursor's own hooks, is its adapter.
		return harness.Event{}, nil
	}
	return h.decodeHook(claudeKind)
}

// decodeHook reads a hook event of Claude Code's protocol (Claude Code's,
// or Codex's, which speaks it), its names read by kind.
func (h *hook) decodeHook(kind func(string) harness.Kind) (harness.Event, error) {
	p := h.p
	h.event = p.Str("hook_event_name")
	if h.event == "" {
		return harness.Event{}, fmt.Errorf("the event has no hook_event_name")
	}
	if h.kind = kind(h.event); h.kind == 0 {
		return harness.Event{}, fmt.Errorf("unknown event %q: nothing done", h.event)
	}
	ev := harness.Event{
		Kind: h.kind, Name: h.event, Harness: h.harness,
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
	if h.kind == harness.TurnEnd || h.kind == harness.SubagentEnd {
		ev.Background = backgroundRunning(p)
	}
	return ev, nil
}

// backgroundRunning says whether a Stop leaves background work of the
// session still in flight (Claude Code's background_tasks: running or
// pending agents, shells and the like).
func backgroundRunning(p payload) bool {
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
