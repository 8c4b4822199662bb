package harness

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/conch-sh/conch/harness/install"
	"github.com/conch-sh/conch/state"
	"github.com/conch-sh/conch/state/proc"
)

const copilotName = "copilot"

// copilot is GitHub Copilot CLI's adapter: hooks named in PascalCase, in
// Claude Code's protocol but for a few fields (decodeCopilot), answered in
// its own JSON.
var copilot = Adapter{
	Name:    copilotName,
	Title:   "Copilot CLI",
	Install: &copilotInstall,
	Use:     "copilot",
	Short:   "GitHub Copilot CLI's hook: reads one event on standard input and answers it",
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
	// Copilot CLI 1.0.102 ignores continue:false; its permissionRequest
	// hook ends the turn (interrupt), asked before every shell command,
	// file write and web fetch (also with --allow-all-tools), never before
	// a read, a search or a subagent. It has no env file, but puts
	// COPILOT_AGENT_SESSION_ID in its shell (a subagent's shell has
	// another id). A Stop's decision block fires UserPromptSubmit for the
	// prompt it gave.
	Caps: Capabilities{
		Resume:  copilotResume,
		Context: hookContext, Deny: true, KeepGoing: true,
		ContextCap: 10000, Ask: true,
		SessionEnv: "COPILOT_AGENT_SESSION_ID", ShellSession: true,
		PermissionTools:  []string{"Bash", "Write", "Edit", "WebFetch"},
		PromptOnContinue: true,
	},
	Decode:    decodeCopilot,
	Encode:    encodeCopilot,
	LastWords: copilotLastWords,
}

// copilot --help: "-r, --resume [<value>] … session ID", "-p, --prompt
// <text>", "--allow-all-tools … required for non-interactive mode"
// (without it, print mode refuses its tools).
var copilotResume = &Resumer{
	Program:     "copilot",
	Argv:        func(s string) []string { return []string{"--resume=" + s} },
	Modes:       []ModeFlags{{state.ModeAuto, []string{"--allow-all-tools"}}},
	CarryValues: []string{"--model"},
	Before:      func(string) []string { return []string{"-p"} },
	Env:         []string{"COPILOT_*", "GH_TOKEN", "GITHUB_TOKEN", "GH_HOST"},
	ProcEnv:     true,
	Says:        "copilot --resume=SESSION -p",
}

// copilotKind is what Copilot CLI's events (named in PascalCase) mean.
func copilotKind(event string) Kind {
	switch event {
	case "ErrorOccurred":
		return TurnFailed
	case "permissionRequest":
		return Permission
	}
	return claudeKind(event)
}

// decodeCopilot reads one of Copilot CLI's hook events. The PascalCase
// dialect is Claude Code's in all but a few fields, which are put right
// first:
//
//   - a subagent's own events carry its id as session_id (and as
//     agent_id) and the session's as parent_agent_id: the session is the
//     parent, the agent the child, as Claude Code has them;
//   - the subagent's first prompt is its start (SubagentStart); its own
//     Stop is left to the SubagentStop that follows at the session;
//   - view, create and edit name their file "path", not "file_path";
//   - an error of a model call ends the turn failed, with the error's
//     message; a tool's is left to its PostToolUseFailure;
//   - Stop carries no last words: the session's events file has them;
//   - permissionRequest and Notification come camelCase (sessionId,
//     hookName, toolName);
//   - no event names a permission mode: the session's command line does.
func decodeCopilot(h *Hook) (Event, error) {
	p := h.P
	if p.Str("hookName") == "permissionRequest" {
		rename(p, "sessionId", "session_id")
		rename(p, "toolName", "tool_name")
		p["hook_event_name"] = json.RawMessage(`"permissionRequest"`)
	}
	rename(p, "sessionId", "session_id")
	event := p.Str("hook_event_name")
	agent, parent := p.Str("agent_id"), p.Str("parent_agent_id")
	sub := agent != "" && parent != "" && p.Str("session_id") == agent
	if sub {
		setStr(p, "session_id", parent)
	}
	if in := p.Obj("tool_input"); in != nil && in.Has("path") && !in.Has("file_path") {
		in["file_path"] = in["path"]
		b, _ := json.Marshal(in)
		p["tool_input"] = b
	}
	switch event {
	case "UserPromptSubmit":
		if sub {
			setStr(p, "hook_event_name", "SubagentStart")
		} else {
			copilotMode(h)
		}
	case "SessionStart":
		copilotMode(h)
	case "Stop":
		if sub {
			h.Event = event
			return Event{}, nil // its SubagentStop, at the session, ends its chat's reply
		}
		setStr(p, "last_assistant_message", copilotStopWords(p.Str("transcript_path"), p.Str("timestamp")))
	case "ErrorOccurred":
		if p.Str("error_context") != "model_call" {
			h.Event = event
			return Event{}, nil
		}
		var e struct {
			Message string `json:"message"`
		}
		_ = json.Unmarshal(p["error"], &e)
		setStr(p, "last_assistant_message", e.Message)
	}
	return decodeHook(h, copilotName, copilotKind)
}

// copilotFlushWait bounds how long a Stop waits for Copilot to write the
// turn's end to its events file (it writes in batches, a moment late).
const copilotFlushWait = 2 * time.Second

// copilotStopWords are the turn's last words, from Copilot's events file
// (Stop carries none), once the file holds the start of this Stop's hook
// (fired at stamp, an RFC 3339 time), and so the turn's end; after
// copilotFlushWait, whatever it holds then.
func copilotStopWords(path, stamp string) string {
	if path == "" {
		return ""
	}
	if at, err := time.Parse(time.RFC3339Nano, stamp); err == nil {
		for deadline := time.Now().Add(copilotFlushWait); !copilotStopWritten(path, at.UnixMilli()) && time.Now().Before(deadline); {
			time.Sleep(20 * time.Millisecond)
		}
	}
	return copilotLastWords(rows(fileTail(path)))
}

// copilotMode puts the session's permission mode in the payload, as
// Claude Code names it, from the Copilot command line running the hook:
// --plan (or --mode plan) is plan; --allow-all-tools, --allow-all, --yolo
// or COPILOT_ALLOW_ALL, where no tool waits for the person, is
// bypassPermissions; anything else is default. A mode switched inside the
// session (shift+tab) is not seen.
func copilotMode(h *Hook) {
	args := proc.Args(h.PID())
	if len(args) == 0 {
		return
	}
	mode := "default"
	if v := strings.ToLower(strings.TrimSpace(h.Getenv("COPILOT_ALLOW_ALL"))); slices.Contains([]string{"true", "1", "yes", "on", "y"}, v) {
		mode = "bypassPermissions"
	}
	for i, w := range args[1:] {
		switch {
		case w == "--allow-all-tools" || w == "--allow-all" || w == "--yolo":
			mode = "bypassPermissions"
		case w == "--plan" || w == "--mode=plan" || w == "--mode" && i+2 < len(args) && args[i+2] == "plan":
			setStr(h.P, "permission_mode", "plan")
			return
		}
	}
	setStr(h.P, "permission_mode", mode)
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

// encodeCopilot is ans as Copilot reads it at event. continue:false has
// no meaning to Copilot (its turn goes on): a stop after a tool is said as
// context, beside the tool's result; before one, as its denial; at
// permissionRequest, as {"behavior": "deny", "interrupt": true}, which
// ends the turn.
func encodeCopilot(h *Hook, ans Reply) any {
	if h.Kind == Permission {
		if ans.Permission != Deny {
			return nil
		}
		return copilotAnswer{Behavior: "deny", Message: ans.PermissionReason, Interrupt: ans.Stop}
	}
	out := copilotAnswer{AdditionalContext: ans.Context, PermissionDecision: ans.Permission, PermissionDecisionReason: ans.PermissionReason}
	if ans.Continue {
		out.Decision, out.Reason = "block", ans.Prompt
	}
	if ans.Stop && out.PermissionDecision == "" && out.AdditionalContext == "" {
		out.AdditionalContext = ans.StopReason
	}
	if out == (copilotAnswer{}) {
		return nil
	}
	return out
}

// rename moves a field to another key, when the new one is not there.
func rename(p Fields, from, to string) {
	if v, ok := p[from]; ok && !p.Has(to) {
		p[to] = v
	}
}

// setStr puts a string field.
func setStr(p Fields, key, value string) {
	b, _ := json.Marshal(value)
	p[key] = b
}

// copilotLastWords is the last assistant text of a Copilot CLI events
// file's rows in this turn: a subagent's rows are its own chat's words,
// and the person's prompt ends the search (the turn said nothing).
func copilotLastWords(lines [][]byte) string {
	for i := len(lines) - 1; i >= 0; i-- {
		var row copilotRow
		if json.Unmarshal(lines[i], &row) != nil || row.Data.ParentToolCallID != "" {
			continue // a subagent's row (its own chat's words)
		}
		switch row.Type {
		case "assistant.message":
			if row.Data.Content != "" {
				return row.Data.Content
			}
		case "user.message":
			if row.Data.Source == "" {
				return "" // the person's prompt: this turn said nothing
			}
		}
	}
	return ""
}

// copilotRow is one row of Copilot CLI's session events
// (~/.copilot/session-state/SESSION/events.jsonl): the fields conch reads.
// A subagent's messages carry the task's parentToolCallId; a prompt that
// is not the person's (a subagent's task) carries a source.
type copilotRow struct {
	Type string `json:"type"`
	Data struct {
		Content          string `json:"content"`
		Source           string `json:"source"`
		ParentToolCallID string `json:"parentToolCallId"`
	} `json:"data"`
}

// copilotStopWritten says whether Copilot CLI's events file at path holds
// the start of the agentStop hook fired at the time at (Unix
// milliseconds, as its hook.start row has it): Copilot writes the file in
// batches, a moment after the events, and the turn's last message is in
// it only once the batch holding that hook's start is.
func copilotStopWritten(path string, at int64) bool {
	for _, line := range bytes.Split(fileTail(path), []byte{'\n'}) {
		if !bytes.Contains(line, []byte(`"agentStop"`)) {
			continue
		}
		var row struct {
			Type string `json:"type"`
			Data struct {
				HookType string `json:"hookType"`
				Input    struct {
					Timestamp int64 `json:"timestamp"`
				} `json:"input"`
			} `json:"data"`
		}
		if json.Unmarshal(line, &row) == nil && row.Type == "hook.start" && row.Data.HookType == "agentStop" && row.Data.Input.Timestamp == at {
			return true
		}
	}
	return false
}

// copilotInstall is conch install copilot: conch's hooks in a hooks file
// of GitHub Copilot CLI's own, conch.json in its hooks folder (Copilot
// reads every *.json there).
var copilotInstall = install.Recipe{
	Use:   "copilot [--project | --user] [--remove]",
	Short: "Put conch's hooks in GitHub Copilot CLI's hooks folder",
	Long: `Put conch's hooks in a hooks file of GitHub Copilot CLI's: conch.json in
$COPILOT_HOME/hooks (default ~/.copilot/hooks) with --user (the default),
in .github/hooks of the current folder's repository with --project.
Copilot reads every *.json file of those folders. A hook someone added to
conch.json is kept, and conch's own (a command "conch hook copilot") is
added once, so running it again changes nothing. The file as it was is
kept beside it (conch.json.bak-TIME), and the new one is written whole.
--remove takes out conch's hooks and nothing else: a conch.json left with
no one else's hook is removed (no backup: it was conch's alone), and with
--project the folders made for it too, once empty.

Copilot reads hooks when a session starts; a repository's only once you
trust its folder.

Exit codes: 0 done, 1 the file cannot be read, is not JSON, or cannot be
written (nothing changed), 2 usage.`,
	MCP:   "~/.copilot/mcp-config.json, or the repository's .mcp.json",
	Where: "Copilot hooks (.github/hooks/conch.json)",
	Dir: func(e install.Env, project bool) string {
		if project {
			if root := install.RepoRoot(e.Cwd); root != "" {
				return filepath.Join(root, ".github", "hooks")
			}
			return filepath.Join(e.Cwd, ".github", "hooks")
		}
		if d := e.Getenv("COPILOT_HOME"); d != "" {
			return filepath.Join(d, "hooks")
		}
		return filepath.Join(e.Home, ".copilot", "hooks")
	},
	Do: func(r *install.Run) ([]*install.Result, error) {
		res, err := r.HookFile(filepath.Join(r.Dir, "conch.json"), copilotHooks(r.Conch))
		if err != nil {
			return nil, err
		}
		if r.Remove && r.Project && res.Changed {
			// .github/hooks as it was: the folders made for conch.json
			// go with it when nothing else is in them.
			for _, d := range r.PruneDirs(r.Dir, filepath.Dir(filepath.Dir(r.Dir))) {
				res.Notes = append(res.Notes, install.FolderRemoved{Dir: d})
			}
		}
		// Copilot's MCP servers: the person's in mcp-config.json beside
		// the hooks folder, a repository's in its .mcp.json.
		mcp := filepath.Join(filepath.Dir(r.Dir), "mcp-config.json")
		if r.Project {
			mcp = filepath.Join(filepath.Dir(filepath.Dir(r.Dir)), ".mcp.json")
		}
		return r.WithMCP([]*install.Result{res}, mcp, copilotMCP(r.Env.ConchHome()))
	},
	After: "Copilot CLI reads them when a session starts (a repository's once you trust its folder).",
}

// copilotHooks are conch's hooks in Copilot's format: {"version": 1,
// "hooks": {EVENT: [{"type": "command", "bash": …, "timeoutSec": …}]}}.
// The events are named in PascalCase, which has Copilot send Claude
// Code's field and tool names (conch hook copilot reads that dialect).
// permissionRequest ends a stopped reply's turn; SubagentStart is left
// out (a subagent's first prompt starts its chat).
func copilotHooks(conch string) install.Hooks {
	h := install.Hooks{
		Harness: copilotName, Command: install.Command(conch, copilotName),
		Flat: true, CommandKey: "bash", TimeoutKey: "timeoutSec",
		Top: []install.Field{{Key: "version", Value: json.RawMessage(`1`)}},
		Own: true,
	}
	for _, name := range []string{"SessionStart", "UserPromptSubmit", "PreToolUse", "PostToolUse",
		"PostToolUseFailure", "PermissionRequest", "Notification", "Stop", "SubagentStop",
		"ErrorOccurred", "PreCompact", "SessionEnd"} {
		h.Events = append(h.Events, install.Event{Name: name, Timeout: install.HookTimeout})
	}
	return h
}

// copilotMCP is conch's server as Copilot CLI reads it: a local server
// with every tool, and the home named, for Copilot passes a server no
// variable but PATH.
func copilotMCP(home string) install.MCP {
	return install.MCP{Key: "mcpServers", Entry: func(conch string) []install.Field {
		return []install.Field{{Key: "type", Value: install.JSONOf("local")}, {Key: "command", Value: install.JSONOf(conch)}, {Key: "args", Value: install.JSONOf([]string{"mcp"})},
			{Key: "env", Value: install.JSONOf(map[string]string{"CONCH_HOME": home})}, {Key: "tools", Value: install.JSONOf([]string{"*"})}}
	}}
}
