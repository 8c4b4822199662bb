package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/conch-sh/conch/state"
)

func (a *app) newHookGemini() *cobra.Command {
	return &cobra.Command{
		Use:   "gemini",
		Short: "Gemini CLI's hook: reads one event on standard input and answers it",
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
		Args:               cobra.ArbitraryArgs,
		Annotations:        access(accessWrite),
		DisableFlagParsing: true,
		RunE: func(cmd *cobra.Command, args []string) error {
			if asksHelp(args) {
				return cmd.Help()
			}
			return a.runHook(state.HarnessGemini, nil, (*hook).handleGemini)
		},
	}
}

// geminiEvent is the Claude Code event a Gemini CLI event is, "" for one
// conch does not take.
func geminiEvent(name string) string {
	switch name {
	case "SessionStart", "SessionEnd", "Notification":
		return name
	case "BeforeAgent":
		return "UserPromptSubmit"
	case "BeforeTool":
		return "PreToolUse"
	case "AfterTool":
		return "PostToolUse"
	case "AfterAgent":
		return "Stop"
	case "PreCompress":
		return "PreCompact"
	}
	return ""
}

// geminiAgentTool is Gemini CLI's tool that runs a subagent.
const geminiAgentTool = "invoke_agent"

// handleGemini reads a Gemini CLI event as the Claude Code event it is
// (a decoder: the fields renamed, what Gemini CLI leaves out found
// elsewhere) and hands it to handle; the answer is said in Gemini CLI's
// own JSON (geminiAnswer).
func (h *hook) handleGemini() error {
	native := h.p.str("hook_event_name")
	ev := geminiEvent(native)
	switch {
	case native == "":
		return fmt.Errorf("the event has no hook_event_name")
	case ev == "":
		h.event = native
		return fmt.Errorf("unknown event %q: nothing done", native)
	}
	h.p.set("hook_event_name", ev)
	h.encode = func(ans *answer) any { return h.geminiAnswer(native, ans) }
	switch native {
	case "SessionStart", "BeforeAgent":
		// Gemini CLI names no approval mode in its events: its command
		// line and settings do.
		h.p.set("permission_mode", geminiMode(h.geminiArgs(), h.folder(), h.a.userHome()))
		if native == "BeforeAgent" {
			h.p.set("prompt", bareGeminiPrompt(h.p.str("prompt")))
		}
		if native == "BeforeAgent" && strings.Contains(h.p.str("prompt"), "<chat-message>") {
			// AfterAgent's block hands its reason back as a new prompt,
			// which fires BeforeAgent again: the message's reply goes on.
			h.continued = h.messageReplyGoingOn()
		}
	case "AfterAgent":
		text := h.p.str("prompt_response")
		if text == "[no response text]" {
			text = "" // Gemini CLI's word for a turn that said nothing
		}
		if h.p.flag("stop_hook_active") {
			text = h.sinceLastReply(text)
		}
		h.p.set("last_assistant_message", text)
	case "Notification":
		if h.p.str("notification_type") == "ToolPermission" {
			h.p.set("notification_type", "permission_prompt")
		}
	case "PreCompress":
		if h.p.str("trigger") != "manual" {
			// Gemini CLI fires it before every model request, whether
			// or not it compresses: only /compress is one.
			return nil
		}
	case "BeforeTool", "AfterTool":
		h.geminiTool()
	}
	err := h.handle()
	if err == nil && h.p.str("tool_name") == geminiAgentTool {
		err = h.geminiSubagent(native)
	}
	if err == nil && h.rewrite != nil && !h.answered {
		err = h.say(&answer{})
	}
	return err
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

// messageReplyGoingOn says whether the session's chat is in a reply a
// message started at the turn's end (conch handed the message back to
// the harness), still running and not yet past its first step.
func (h *hook) messageReplyGoingOn() bool {
	look := h.sessionIn(false)
	look.Mode, look.Transcript = "", ""
	going := false
	_ = h.a.view(func(v *state.View) error {
		c, err := v.FindHarnessChat(look)
		going = err == nil && c != nil && c.Reply != nil && c.Reply.Alive() && !c.Reply.Person && c.Reply.Steps == 0
		return nil
	})
	return going
}

// sinceLastReply is what a turn that went on with a message said in the
// message's reply: Gemini CLI's prompt_response holds the whole turn's
// words, the earlier reply's (which ended with them) first.
func (h *hook) sinceLastReply(text string) string {
	look := h.sessionIn(false)
	look.Mode, look.Transcript = "", ""
	_ = h.a.view(func(v *state.View) error {
		c, err := v.FindHarnessChat(look)
		if err != nil || c == nil || c.LastReply == nil || c.LastReply.Text == "" {
			return nil
		}
		if i := strings.LastIndex(text, c.LastReply.Text); i >= 0 {
			text = strings.TrimSpace(text[i+len(c.LastReply.Text):])
		}
		return nil
	})
	return text
}

// geminiTool reads a tool event's input: the CONCH_CHAT conch put in a
// shell command is not the model's (so the command reads as the model
// wrote it), and at BeforeTool a shell command that runs conch gets it,
// in the arguments Gemini CLI runs (rewrite).
func (h *hook) geminiTool() {
	input := h.p.obj("tool_input")
	if input == nil || h.p.str("tool_name") != "run_shell_command" {
		return
	}
	command := input.str("command")
	bare := strings.TrimPrefix(command, chatPrefix(command))
	if bare != command {
		input.set("command", bare)
		h.p.setRaw("tool_input", input)
	}
	if h.p.str("hook_event_name") != "PreToolUse" || !strings.Contains(bare, "conch") || strings.Contains(bare, "CONCH_CHAT") || strings.Contains(bare, "--chat") {
		return
	}
	chat := state.LinkedChat(h.a.homeDir(), state.HarnessGemini, h.p.str("session_id"))
	if chat == "" {
		return
	}
	args := map[string]json.RawMessage{}
	for k, v := range input {
		args[k] = v
	}
	b, _ := json.Marshal("export CONCH_CHAT=" + chat + "; " + bare)
	args["command"] = b
	h.rewrite = args
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

// geminiSubagent gives a subagent Gemini CLI runs (its invoke_agent tool)
// a child chat: made, its reply begun, when the tool is called; its reply
// ended with the subagent's report, and the chat archived, when the tool
// returns. Gemini CLI names no call of a tool, so the call is known by
// the agent's name and prompt. The subagent's own tool calls fire the
// same hooks as its parent's, with nothing telling them apart: they are
// the parent's steps.
func (h *hook) geminiSubagent(native string) error {
	input := h.p.obj("tool_input")
	name := input.str("agent_name")
	h.p.set("agent_id", "gemini-agent-"+strconv.FormatUint(fnv64(name+"\x00"+input.str("prompt")), 16))
	h.p.set("agent_type", name)
	if native == "BeforeTool" {
		if h.answered {
			// The call was denied or the reply stopped: no subagent runs.
			return nil
		}
		h.event = "SubagentStart"
		return h.subagentStart()
	}
	report := ""
	if resp := h.p.obj("tool_response"); resp != nil {
		report = toolText(resp["llmContent"])
	}
	h.p.set("last_assistant_message", report)
	h.p.set("hook_event_name", "SubagentStop")
	h.event = "SubagentStop"
	return h.stop()
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

// geminiArgs is the command line of the Gemini CLI process that runs this
// hook (Linux only; nil elsewhere or when it cannot be read).
func (h *hook) geminiArgs() []string {
	pid := state.HarnessPID(h.a.env.PPID)
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/cmdline")
	if err != nil {
		return nil
	}
	return strings.Split(strings.TrimRight(string(data), "\x00"), "\x00")
}

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

// geminiAnswer says ans, an answer in Claude Code's terms, in Gemini
// CLI's: a permission decision is its decision and reason; a stop before
// a tool ({"continue": false} with the pending tool denied) is one
// continue:false whose stopReason is the notice (Gemini CLI puts the
// stopReason before the model and the person, and runs no tool);
// additionalContext is additionalContext (Gemini CLI reads it at
// SessionStart, BeforeAgent and AfterTool); a shell command's rewrite goes
// in tool_input.
func (h *hook) geminiAnswer(native string, ans *answer) any {
	out := geminiOutput{Continue: ans.Continue, StopReason: ans.StopReason, Decision: ans.Decision, Reason: ans.Reason, SystemMessage: ans.SystemMessage}
	specific := map[string]any{}
	if s := ans.HookSpecificOutput; s != nil {
		switch s.PermissionDecision {
		case "deny":
			out.Decision, out.Reason = "deny", s.PermissionDecisionReason
			if out.Continue != nil && !*out.Continue {
				out.StopReason = s.PermissionDecisionReason
			}
		case "ask":
			out.Decision, out.Reason, out.SystemMessage = "ask", s.PermissionDecisionReason, s.PermissionDecisionReason
		}
		if s.AdditionalContext != "" {
			specific["additionalContext"] = s.AdditionalContext
		}
	}
	if h.rewrite != nil && out.Decision == "" && out.Continue == nil {
		specific["tool_input"] = h.rewrite
	}
	if len(specific) > 0 {
		specific["hookEventName"] = native
		out.HookSpecificOutput = specific
	}
	return out
}
