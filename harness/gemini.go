package harness

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/conch-sh/conch/harness/install"
	"github.com/conch-sh/conch/state"
	"github.com/conch-sh/conch/state/proc"
)

const geminiName = "gemini"

// gemini is Gemini CLI's adapter: its own events and JSON.
var gemini = Adapter{
	Name:    geminiName,
	Title:   "Gemini CLI",
	Install: &geminiInstall,
	Use:     "gemini",
	Short:   "Gemini CLI's hook: reads one event on standard input and answers it",
	Long: `Gemini CLI's hook (conch install gemini puts it in the settings). It reads
one hook event, JSON on standard input, and does what the event means in
conch, as conch hook claude does for Claude Code: BeforeAgent starts a
reply, BeforeTool and AfterTool are a step, AfterAgent ends the reply with
its last words, SessionEnd stops the chat. It answers in Gemini CLI's
JSON: the notes as additionalContext (after a tool, at the reply's start);
when another chat stopped the reply, {"continue": false}, which keeps the
pending tool from running and ends the turn; {"decision": "block"} at
AfterAgent to deliver a message that starts a reply. A shell command of
the model's that runs conch gets CONCH_CHAT set in it (BeforeTool's
tool_input), so that it acts as the session's chat. The table of events,
what Gemini CLI cannot do, and the version it was tested against are in
conch help integrations.

It never breaks the session it serves: bad input, an unknown event, a
locked home or any failure prints one warning line on standard error
(which Gemini CLI shows) and answers nothing.

Exit codes: 0, always.`,
	// Gemini CLI 0.61.0 reads additionalContext at SessionStart,
	// BeforeAgent and AfterTool only; continue:false at BeforeTool keeps
	// the tool from running and ends the turn. Its shell names no session
	// (only GEMINI_CLI=1), and its hooks get no env file.
	Caps: Capabilities{
		Resume:  geminiResume,
		Context: 1<<SessionStart | 1<<PromptSubmit | 1<<PostTool, Deny: true, KeepGoing: true,
		ContextCap: 10000, StopBeforeTool: true, StopHeard: true, Ask: true, SystemMessage: true,
		RewritesShell: true,
	},
	// Gemini CLI 0.61's tool names (its *_TOOL_NAME constants);
	// search_file_content is its grep's older name.
	Tools: []ToolWord{
		{"write_file", "Write"}, {"replace", "Edit"}, {"read_file", "Read"}, {"read_many_files", "Glob"},
		{"grep_search", "Grep"}, {"search_file_content", "Grep"}, {"glob", "Glob"}, {"list_directory", "LS"},
		{"web_fetch", "WebFetch"}, {"google_web_search", "WebSearch"}, {"run_shell_command", "Bash"},
	},
	Decode: decodeGemini,
	Encode: encodeGemini,
}

// gemini --help: "-r, --resume … --resume {uuid}" (its error for an
// unknown one), "-p, --prompt", "--approval-mode default|auto_edit|yolo|plan".
var geminiResume = &Resumer{
	Program: "gemini",
	Argv:    func(s string) []string { return []string{"--resume", s} },
	Modes: []ModeFlags{
		{state.ModeAsk, []string{"--approval-mode", "default"}}, {state.ModePlan, []string{"--approval-mode", "plan"}},
	},
	Own:         approvalOwn,
	Before:      func(string) []string { return []string{"-p"} },
	CarryValues: []string{"-m", "--model"},
	Env:         []string{"GEMINI_*", "GOOGLE_*"},
	Says:        "gemini --resume SESSION -p",
}

// geminiKind is what a Gemini CLI event means, 0 for one conch does not
// take.
func geminiKind(name string) Kind {
	switch name {
	case "SessionStart":
		return SessionStart
	case "BeforeAgent":
		return PromptSubmit
	case "BeforeTool":
		return PreTool
	case "AfterTool":
		return PostTool
	case "AfterAgent":
		return TurnEnd
	case "Notification":
		return NeedsYou
	case "PreCompress":
		return Compacted
	case "SessionEnd":
		return SessionEnd
	}
	return 0
}

// geminiAgentTool is Gemini CLI's tool that runs a subagent.
const geminiAgentTool = "invoke_agent"

// decodeGemini reads a Gemini CLI event: its fields, and what Gemini CLI
// leaves out found elsewhere (the approval mode, the earlier reply's words
// in a turn that went on); the answer is said in Gemini CLI's own JSON.
func decodeGemini(h *Hook) (Event, error) {
	p := h.P
	h.Event = p.Str("hook_event_name")
	if h.Event == "" {
		return Event{}, errNoEventName
	}
	if h.Kind = geminiKind(h.Event); h.Kind == 0 {
		return Event{}, unknownEvent(h.Event)
	}
	ev := Event{
		Kind: h.Kind, Name: h.Event, Harness: geminiName,
		Session: p.Str("session_id"), Folder: p.Str("cwd"), Transcript: p.Str("transcript_path"),
		Tool: p.Str("tool_name"), Input: p.Obj("tool_input"), Response: p["tool_response"],
		Continued: p.Flag("stop_hook_active"), HasLastWords: true,
	}
	switch h.Event {
	case "SessionStart", "BeforeAgent":
		// Gemini CLI names no approval mode in its events: its command
		// line and settings do.
		ev.Mode = harnessMode(geminiMode(geminiArgs(h.PPID), ev.WorkFolder(h.Cwd), h.UserHome))
	}
	switch h.Event {
	case "BeforeAgent":
		ev.Prompt = bareGeminiPrompt(p.Str("prompt"))
		// AfterAgent's block hands its reason back as a new prompt, which
		// fires BeforeAgent again: the message's reply goes on.
		ev.Continued = strings.Contains(ev.Prompt, "<chat-message>") && messageReplyGoingOn(h, ev)
	case "AfterAgent":
		ev.LastWords = p.Str("prompt_response")
		if ev.LastWords == "[no response text]" {
			ev.LastWords = "" // Gemini CLI's word for a turn that said nothing
		}
		if ev.Continued {
			ev.LastWords = sinceLastReply(h, ev, ev.LastWords)
		}
	case "Notification":
		if ev.Notification = p.Str("notification_type"); ev.Notification == "ToolPermission" {
			ev.Notification = "permission_prompt"
		}
	case "PreCompress":
		if p.Str("trigger") != "manual" {
			// Gemini CLI fires it before every model request, whether or
			// not it compresses: only /compress is one.
			return ev, ErrNothing
		}
	case "BeforeTool", "AfterTool":
		h.Input = geminiShell(h, &ev)
		if ev.Tool == geminiAgentTool {
			h.Then = geminiSubagent(ev)
		}
	}
	return ev, nil
}

// bareGeminiPrompt is the person's prompt without the context hooks put
// before it: in gemini -p, SessionStart's additionalContext comes first,
// in <hook_context>…</hook_context>.
func bareGeminiPrompt(prompt string) string {
	for strings.HasPrefix(prompt, "<hook_context>") {
		end := strings.Index(prompt, "</hook_context>")
		if end < 0 {
			break
		}
		prompt = strings.TrimLeft(prompt[end+len("</hook_context>"):], " \n")
	}
	return prompt
}

// sinceLastReply is what a turn that went on with a message said in the
// message's reply: Gemini CLI's prompt_response holds the whole turn's
// words, the earlier reply's (which ended with them) first.
func sinceLastReply(h *Hook, ev Event, text string) string {
	c := sessionChat(h, ev)
	if c == nil || c.LastReply == nil || c.LastReply.Text == "" {
		return text
	}
	if i := strings.LastIndex(text, c.LastReply.Text); i >= 0 {
		return strings.TrimSpace(text[i+len(c.LastReply.Text):])
	}
	return text
}

// geminiShell reads a shell tool's input: the CONCH_CHAT conch put in a
// command is not the model's (the command reads as the model wrote it),
// and at BeforeTool a command that runs conch anywhere in it (first, or
// after another command) and names no chat gets it, in the arguments
// Gemini CLI is to run (returned; nil for none). Gemini CLI builds the
// tool from the arguments answered alone: all of them are given.
func geminiShell(h *Hook, ev *Event) map[string]json.RawMessage {
	if ev.Input == nil || ev.Tool != "run_shell_command" {
		return nil
	}
	command := ev.Input.Str("command")
	bare := strings.TrimPrefix(command, chatPrefix(command))
	if bare != command {
		input := Fields{}
		for k, v := range ev.Input {
			input[k] = v
		}
		b, _ := json.Marshal(bare)
		input["command"] = b
		ev.Input = input
	}
	if ev.Kind != PreTool || !state.RunsConchUnnamed(bare) {
		return nil // no conch in it, or each conch in it names its chat
	}
	chat := state.LinkedChat(h.Home.Store(), geminiName, ev.Session)
	if chat == "" {
		return nil
	}
	args := map[string]json.RawMessage{}
	for k, v := range ev.Input {
		args[k] = v
	}
	b, _ := json.Marshal("export CONCH_CHAT=" + chat + "; " + bare)
	args["command"] = b
	return args
}

// chatPrefix is the CONCH_CHAT conch put before a shell command, or "".
func chatPrefix(command string) string {
	const p = "export CONCH_CHAT="
	if !strings.HasPrefix(command, p) {
		return ""
	}
	end := strings.Index(command, "; ")
	if end < 0 || !state.ValidID(command[len(p):end]) {
		return ""
	}
	return command[:end+2]
}

// geminiSubagent is what a call of Gemini CLI's invoke_agent also is: at
// BeforeTool, a subagent's start (its child chat made, its reply begun);
// at AfterTool, its end (the reply ended with the subagent's report, the
// child archived). Gemini CLI names no tool call, so the call is known by
// the agent's name and prompt. The subagent's own tool calls fire the same
// hooks as its parent's, with nothing telling them apart: they are the
// parent's steps.
func geminiSubagent(ev Event) *Event {
	name := ev.Input.Str("agent_name")
	sub := Event{
		Harness: ev.Harness, Name: ev.Name, Session: ev.Session, Folder: ev.Folder, Transcript: ev.Transcript,
		Agent:     "gemini-agent-" + strconv.FormatUint(fnv64(name+"\x00"+ev.Input.Str("prompt")), 16),
		AgentType: name, HasLastWords: true,
	}
	if ev.Kind == PreTool {
		sub.Kind = SubagentStart
		return &sub
	}
	sub.Kind = SubagentEnd
	if len(ev.Response) > 0 {
		sub.LastWords = toolText(Obj(ev.Response)["llmContent"])
	}
	return &sub
}

// toolText is the text of a tool's result as Gemini CLI gives it: a
// string, or parts, each with its text.
func toolText(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var parts []struct {
		Text string `json:"text"`
	}
	_ = json.Unmarshal(raw, &parts)
	var texts []string
	for _, p := range parts {
		if p.Text != "" {
			texts = append(texts, p.Text)
		}
	}
	return strings.Join(texts, "\n")
}

// fnv64 is the 64-bit FNV-1a hash of s.
func fnv64(s string) uint64 {
	hash := uint64(14695981039346656037)
	for i := 0; i < len(s); i++ {
		hash ^= uint64(s[i])
		hash *= 1099511628211
	}
	return hash
}

// geminiArgs is the command line of the Gemini CLI process that runs a
// hook whose parent is ppid (Linux and macOS; nil elsewhere or when it
// cannot be read).
func geminiArgs(ppid int) []string { return proc.Args(proc.HarnessPID(ppid)) }

// geminiMode is Gemini CLI's approval mode: --approval-mode (or --yolo)
// on its command line, else general.defaultApprovalMode of the folder's
// settings or the person's, else default. A mode changed in the session
// (Shift+Tab) is not seen: no event names it.
func geminiMode(args []string, folder, home string) string {
	for i, a := range args {
		switch {
		case a == "-y" || a == "--yolo" || a == "--yolo=true":
			return "yolo"
		case a == "--approval-mode" && i+1 < len(args):
			return args[i+1]
		case strings.HasPrefix(a, "--approval-mode="):
			return strings.TrimPrefix(a, "--approval-mode=")
		}
	}
	for _, dir := range []string{folder, home} {
		if dir == "" {
			continue
		}
		data, err := os.ReadFile(filepath.Join(dir, ".gemini", "settings.json"))
		if err != nil {
			continue
		}
		var s struct {
			General struct {
				DefaultApprovalMode string `json:"defaultApprovalMode"`
			} `json:"general"`
		}
		if json.Unmarshal(data, &s) == nil && s.General.DefaultApprovalMode != "" {
			return s.General.DefaultApprovalMode
		}
	}
	return "default"
}

// geminiOutput is an answer in Gemini CLI's JSON.
type geminiOutput struct {
	Continue           *bool          `json:"continue,omitempty"`
	StopReason         string         `json:"stopReason,omitempty"`
	Decision           string         `json:"decision,omitempty"`
	Reason             string         `json:"reason,omitempty"`
	SystemMessage      string         `json:"systemMessage,omitempty"`
	HookSpecificOutput map[string]any `json:"hookSpecificOutput,omitempty"`
}

// encodeGemini says ans in Gemini CLI's JSON: a refused tool is its
// decision and reason; a stop before a tool (the tool refused, the turn
// stopped) is one continue:false whose stopReason is the notice (Gemini
// CLI puts the stopReason before the model and the person, and runs no
// tool); a turn kept going is a block whose reason Gemini CLI sends as
// the next prompt; context is additionalContext; a shell command's
// rewrite goes in tool_input.
func encodeGemini(h *Hook, ans Reply) any {
	event, rewrite := h.Event, h.Input
	out := geminiOutput{SystemMessage: ans.SystemMessage}
	if ans.Stop {
		f := false
		out.Continue, out.StopReason = &f, ans.StopReason
	}
	if ans.Continue {
		out.Decision, out.Reason = "block", ans.Prompt
	}
	switch ans.Permission {
	case Deny:
		out.Decision, out.Reason = "deny", ans.PermissionReason
		if ans.Stop {
			out.StopReason = ans.PermissionReason
		}
	case Ask:
		out.Decision, out.Reason, out.SystemMessage = "ask", ans.PermissionReason, ans.PermissionReason
	}
	specific := map[string]any{}
	if ans.Context != "" {
		specific["additionalContext"] = ans.Context
	}
	if rewrite != nil && out.Decision == "" && out.Continue == nil {
		specific["tool_input"] = rewrite
	}
	if len(specific) > 0 {
		specific["hookEventName"] = event
		out.HookSpecificOutput = specific
	}
	return out
}

// geminiInstall is conch install gemini: conch's hooks in Gemini CLI's
// settings.json.
var geminiInstall = install.Recipe{
	Use:   "gemini [--project | --user] [--remove]",
	Short: "Put conch's hooks in Gemini CLI's settings",
	Long: `Put conch's hooks in Gemini CLI's settings: ~/.gemini/settings.json with
--user (the default), .gemini/settings.json of the current folder with
--project (Gemini CLI runs a project's hooks only in a trusted folder, and
warns once when they are new). Every hook and setting already there is
kept; conch's own (a command "conch hook gemini", its timeout in
milliseconds) is added once, so running it again changes nothing. The
file as it was is kept beside it (settings.json.bak-TIME), and the new
one is written whole, never half. --remove takes out conch's hooks and
nothing else. Gemini CLI reads the hooks when a session starts.

Exit codes: 0 done, 1 the file cannot be read, is not JSON, or cannot be
written (nothing changed), 2 usage.`,
	MCP:   "settings.json",
	Where: ".gemini/settings.json",
	Dir: func(e install.Env, project bool) string {
		if project {
			return filepath.Join(e.Cwd, ".gemini")
		}
		return filepath.Join(e.Home, ".gemini")
	},
	Do: func(r *install.Run) ([]*install.Result, error) {
		res, err := r.HookFile(filepath.Join(r.Dir, "settings.json"), geminiHooks(r.Conch))
		if err != nil {
			return nil, err
		}
		return r.WithMCP([]*install.Result{res}, filepath.Join(r.Dir, "settings.json"), install.MCPServers)
	},
	After: "Gemini CLI reads them when a session starts; a project's hooks run only in a trusted folder.",
}

// geminiHooks are conch's hooks in Gemini CLI's settings (its own event
// names): tool events match every tool ("*"); PreCompress only /compress
// ("manual": Gemini CLI fires "auto" before every model request).
// Timeouts are in milliseconds.
func geminiHooks(conch string) install.Hooks {
	h := install.Hooks{Harness: geminiName, Command: install.Command(conch, geminiName)}
	for _, e := range []struct{ name, matcher string }{
		{"SessionStart", ""}, {"BeforeAgent", ""}, {"BeforeTool", "*"}, {"AfterTool", "*"},
		{"AfterAgent", ""}, {"Notification", ""}, {"PreCompress", "manual"}, {"SessionEnd", ""},
	} {
		h.Events = append(h.Events, install.Event{Name: e.name, Matcher: e.matcher, Timeout: install.HookTimeout * 1000})
	}
	return h
}
