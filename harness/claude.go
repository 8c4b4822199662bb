package harness

import (
	"encoding/json"
	"os"
	"path/filepath"

	"github.com/conch-sh/conch/harness/install"
	"github.com/conch-sh/conch/state"
)

const claudeName = "claude"

// claude is Claude Code's adapter. Its hook protocol is the one Codex,
// Copilot CLI and Qwen Code speak too (decodeHook, encodeHook).
var claude = Adapter{
	Name:    claudeName,
	Title:   "Claude Code",
	Install: &claudeInstall,
	Use:     "claude",
	Short:   "Claude Code's hook: reads one event on standard input and answers it",
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

// claudeInstall is conch install claude: conch's hooks in Claude Code's
// settings.json.
var claudeInstall = install.Recipe{
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
	Dir: func(e install.Env, project bool) string {
		if project {
			return filepath.Join(e.Cwd, ".claude")
		}
		return filepath.Join(e.Home, ".claude")
	},
	Do: func(r *install.Run) ([]*install.Result, error) {
		res, err := r.HookFile(filepath.Join(r.Dir, "settings.json"), claudeHooks(r.Conch))
		if err != nil {
			return nil, err
		}
		if root := install.RepoRoot(r.Cwd); r.Project && !r.Remove && root != "" {
			if root != r.Cwd {
				res.Notes = append(res.Notes, ClaudeSubfolder{Cwd: r.Cwd, Root: root})
			} else {
				res.Notes = append(res.Notes, ClaudeRoot{Root: root})
			}
		}
		// Claude Code's MCP servers: a project's in .mcp.json, the
		// person's own in ~/.claude.json (not in settings.json).
		mcp := filepath.Join(r.Home, ".claude.json")
		if r.Project {
			mcp = filepath.Join(r.Cwd, ".mcp.json")
		}
		return r.WithMCP([]*install.Result{res}, mcp, install.MCPServers)
	},
	After: "Claude Code reads them when a session starts.",
	Check: claudeCheck,
}

// claudeHooks are conch's hooks in Claude Code's settings. Tool events
// match every tool ("*" in every version): each tool call is a step.
// SubagentStart is left out (a subagent's chat is made at its first tool
// call): older versions do not know it.
func claudeHooks(conch string) install.Hooks {
	h := install.Hooks{Harness: claudeName, Command: install.Command(conch, claudeName)}
	for _, e := range []struct{ name, matcher string }{
		{"SessionStart", ""}, {"UserPromptSubmit", ""}, {"PreToolUse", "*"}, {"PostToolUse", "*"},
		{"PostToolUseFailure", "*"}, {"PermissionRequest", "*"},
		{"Notification", ""}, {"PreCompact", ""}, {"Stop", ""}, {"StopFailure", ""}, {"SubagentStop", ""}, {"SessionEnd", ""},
	} {
		h.Events = append(h.Events, install.Event{Name: e.name, Matcher: e.matcher, Timeout: install.HookTimeout})
	}
	return h
}

// claudeCheck is what conch doctor warns of when Claude Code sessions
// started in e.Cwd would run none of conch's hooks, where Claude Code is
// in use (~/.claude is there) or a folder above has them; nil when they
// would, or Claude Code is not in use.
func claudeCheck(e install.Env) install.Note {
	covered, above := claudeCoverage(e.Home, e.Cwd)
	if covered {
		return nil
	}
	if above != "" {
		return ClaudeUncovered{Cwd: e.Cwd, Above: filepath.Join(above, ".claude", "settings.json")}
	}
	if _, err := os.Stat(filepath.Join(e.Home, ".claude")); err != nil {
		return nil
	}
	return ClaudeUncovered{Cwd: e.Cwd}
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

// ClaudeSubfolder is what conch install claude --project notes in a
// folder (Cwd) inside a repository (Root): Claude Code reads a project's
// .claude/settings.json only in the folder a session starts in.
type ClaudeSubfolder struct{ Cwd, Root string }

// ClaudeRoot is what conch install claude --project notes at a
// repository's root: a session started in a folder inside runs none of
// these hooks.
type ClaudeRoot struct{ Root string }

// ClaudeUncovered is what conch doctor warns of: Claude Code sessions
// started in Cwd run no conch hooks; Above is the settings file of the
// nearest folder above that has them ("" for none).
type ClaudeUncovered struct{ Cwd, Above string }

func (ClaudeSubfolder) InstallNote() {}
func (ClaudeRoot) InstallNote()      {}
func (ClaudeUncovered) InstallNote() {}
