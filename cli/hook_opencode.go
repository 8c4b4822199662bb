package cli

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/conch-sh/conch/state"
)

// OpenCode and Pi report through a plugin (an extension) that conch writes
// (cli/plugins): it runs conch hook opencode|pi with each event as JSON on
// standard input, named by the harness's own hook or event, and does what
// the answer says. The decoders here say each event in Claude Code's words
// and run the same handlers; the encoder says their answer in the words the
// plugin reads.

func (a *app) newHookOpenCode() *cobra.Command {
	return a.newPluginHook(state.HarnessOpenCode, "OpenCode", (*hook).handleOpenCode)
}

func (a *app) newHookPi() *cobra.Command {
	return a.newPluginHook(state.HarnessPi, "Pi", (*hook).handlePi)
}

func (a *app) newPluginHook(harness, name string, handle func(h *hook) error) *cobra.Command {
	return &cobra.Command{
		Use:   harness,
		Short: name + "'s hook: the plugin conch install " + harness + " writes runs it per event",
		Long: name + `'s hook. The plugin conch install ` + harness + ` writes runs it at each
event with the event as JSON on standard input (named by ` + name + `'s own
hook or event), and does what it answers: {"chat": ID} (the chat, for
CONCH_CHAT in the session's shell), "context" (notes for the model),
"block" (the tool does not run; the model reads why), "stop" (another chat
stopped the reply: said to the model, and the turn is aborted), "prompt"
(a message that starts a reply, sent as the next prompt). The events, and
what the ` + name + ` version conch was tested against allows, are in conch
help integrations.

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
			return a.runHook(harness, nil, func(h *hook) error {
				h.encode = pluginAnswer(h)
				if err := handle(h); err != nil {
					return err
				}
				if !h.answered && h.chatID != "" {
					return h.say(&answer{}) // the chat, for the shell
				}
				return nil
			})
		},
	}
}

// endsTurn says whether a stop the hook answers ends the harness's turn
// (Claude Code's continue:false, the plugins' abort), so that the session
// has heard it; Codex's turn goes on past a denial.
func endsTurn(harness string) bool {
	return harness != state.HarnessCodex
}

// shellGetsChat says whether the harness's plugin puts the chat's id in
// the session's shell (CONCH_CHAT), from the answer that names it.
func shellGetsChat(harness string) bool {
	return harness == state.HarnessOpenCode || harness == state.HarnessPi
}

// plugAnswer is what the plugins read.
type plugAnswer struct {
	Chat    string `json:"chat,omitempty"`
	Context string `json:"context,omitempty"`
	Block   string `json:"block,omitempty"`
	Stop    string `json:"stop,omitempty"`
	Prompt  string `json:"prompt,omitempty"`
}

// pluginAnswer says a handler's answer as the plugins read it.
func pluginAnswer(h *hook) func(ans *answer) any {
	return func(ans *answer) any {
		out := plugAnswer{Chat: h.chatID}
		if s := ans.HookSpecificOutput; s != nil {
			out.Context = s.AdditionalContext
			if s.PermissionDecision == "deny" || s.PermissionDecision == "ask" {
				out.Block = s.PermissionDecisionReason
			}
		}
		if ans.Continue != nil && !*ans.Continue {
			// The plugin aborts the turn; before a tool, the denial says
			// the notice, and this only who.
			out.Stop = ans.StopReason
			if out.Stop == "" {
				out.Stop = "stopped (conch)"
			}
		}
		if ans.Decision == "block" {
			out.Prompt = ans.Reason
		}
		return out
	}
}

// handleOpenCode does what one of the OpenCode plugin's events means.
func (h *hook) handleOpenCode() error {
	name := h.p.str("hook_event_name")
	h.event = name
	agent := h.p.str("agent_id") != ""
	switch name {
	case "session.created":
		if agent {
			// The task's session is titled "DESCRIPTION (@AGENT subagent)":
			// its description names the child.
			t := h.p.str("agent_type")
			if i := strings.LastIndex(t, " (@"); i > 0 && strings.HasSuffix(t, " subagent)") {
				h.set("agent_type", t[:i])
			}
			return h.as("SubagentStart", h.subagentStart)
		}
		h.setMode(openCodeMode("", h.p["permission"]))
		return h.as("SessionStart", h.sessionStart)
	case "chat.message":
		if agent {
			// A subagent's prompt is its parent's tool call: its reply
			// began with its session.
			return h.as("SubagentPrompt", h.subagentPrompt)
		}
		h.setMode(openCodeMode(h.p.str("agent"), h.p["permission"]))
		h.notPerson = h.p.flag("conch_prompt")
		return h.as("UserPromptSubmit", h.userPrompt)
	case "tool.execute.before":
		h.toolInClaudeWords(openCodeTool)
		return h.as("PreToolUse", h.preTool)
	case "tool.execute.after":
		h.toolInClaudeWords(openCodeTool)
		if resp := h.p.obj("tool_response"); resp != nil {
			if f := resp.obj("metadata").str("filepath"); f != "" {
				h.setObj("tool_response", map[string]string{"filePath": f})
			}
		}
		return h.as("PostToolUse", h.postTool)
	case "session.idle":
		if agent {
			return h.as("SubagentStop", h.stop)
		}
		return h.as("Stop", h.stop)
	case "session.error":
		if agent {
			return nil // its parent's task tool fails with it
		}
		e := h.p.obj("error")
		if e.str("name") == "MessageAbortedError" {
			// Esc, or conch's own abort: the reply ends as stopped; the
			// session.idle that follows finds the turn ended.
			return h.as("Interrupt", h.interrupt)
		}
		h.set("last_assistant_message", joinText(h.p.str("last_assistant_message"), e.str("message")))
		return h.as("StopFailure", h.stopFailure)
	case "permission.asked":
		return h.as("PermissionRequest", h.needsYou)
	case "session.compacted":
		return h.as("PreCompact", h.compacted)
	case "session.deleted", "dispose":
		return h.as("SessionEnd", h.sessionEnd)
	case "":
		return errNoEventName
	}
	return unknownEvent(name)
}

// handlePi does what one of the Pi extension's events means.
func (h *hook) handlePi() error {
	name := h.p.str("hook_event_name")
	h.event = name
	// Pi asks the person nothing before a tool runs (it has no
	// permissions): every session is auto.
	h.setMode(state.ModeAuto)
	switch name {
	case "session_start":
		return h.as("SessionStart", h.sessionStart)
	case "before_agent_start":
		h.notPerson = h.p.flag("conch_prompt")
		return h.as("UserPromptSubmit", h.userPrompt)
	case "tool_call":
		h.toolInClaudeWords(piTool)
		return h.as("PreToolUse", h.preTool)
	case "tool_result":
		h.toolInClaudeWords(piTool)
		return h.as("PostToolUse", h.postTool)
	case "turn_end":
		switch h.p.str("stop_reason") {
		case "aborted":
			return h.as("Interrupt", h.interrupt)
		case "error":
			h.set("last_assistant_message", joinText(h.p.str("last_assistant_message"), h.p.str("error")))
			return h.as("StopFailure", h.stopFailure)
		}
		return h.as("Stop", h.stop)
	case "session_before_compact":
		return h.as("PreCompact", h.compacted)
	case "session_shutdown":
		return h.as("SessionEnd", h.sessionEnd)
	case "":
		return errNoEventName
	}
	return unknownEvent(name)
}

// as runs a handler under Claude Code's name for the event, which the
// handlers read (and the warning line says).
func (h *hook) as(event string, handler func() error) error {
	h.event = event
	return handler()
}

// subagentPrompt answers a subagent's prompt with its chat, for its shell.
func (h *hook) subagentPrompt() error {
	var c *state.Chat
	in := h.sessionIn(false)
	if err := h.a.view(func(v *state.View) (err error) { c, err = v.FindHarnessChat(in); return err }); err != nil || c == nil {
		return err
	}
	h.chatID = c.ID
	return nil
}

func (h *hook) set(key, value string) {
	b, _ := json.Marshal(value)
	h.p[key] = b
}

func (h *hook) setObj(key string, value any) {
	b, _ := json.Marshal(value)
	h.p[key] = b
}

// setMode puts conch's mode in the event as the permission mode that
// harnessMode reads back ("" leaves the chat's as it is).
func (h *hook) setMode(mode string) {
	pm := ""
	switch mode {
	case state.ModePlan:
		pm = "plan"
	case state.ModeAsk:
		pm = "default"
	case state.ModeAuto:
		pm = "bypassPermissions"
	}
	h.set("permission_mode", pm)
}

// openCodeMode is conch's mode for an OpenCode session: its plan agent is
// plan; otherwise ask when the config's permission rules ask the person
// before some tool runs ("ask" anywhere in them), else auto: OpenCode
// runs every tool unasked by default.
func openCodeMode(agent string, permission json.RawMessage) string {
	if agent == "plan" {
		return state.ModePlan
	}
	var rules any
	if json.Unmarshal(permission, &rules) != nil {
		return ""
	}
	if asks(rules) {
		return state.ModeAsk
	}
	return state.ModeAuto
}

func asks(v any) bool {
	switch v := v.(type) {
	case string:
		return v == "ask"
	case map[string]any:
		for _, x := range v {
			if asks(x) {
				return true
			}
		}
	case []any:
		for _, x := range v {
			if asks(x) {
				return true
			}
		}
	}
	return false
}

// toolSpec says a harness's tool in Claude Code's words: its name, and
// which of its arguments is Claude Code's file_path, command, url or
// query.
type toolSpec struct {
	name string
	args map[string]string // the harness's key → Claude Code's
}

// openCodeTool is one of OpenCode 1.18's tools in Claude Code's words
// (the argument names read from the payloads its plugin sends). A tool
// not named here is "other".
func openCodeTool(name string) (toolSpec, bool) {
	switch name {
	case "bash":
		return toolSpec{"Bash", map[string]string{"command": "command"}}, true
	case "read":
		return toolSpec{"Read", map[string]string{"filePath": "file_path"}}, true
	case "write":
		return toolSpec{"Write", map[string]string{"filePath": "file_path"}}, true
	case "edit", "multiedit":
		return toolSpec{"Edit", map[string]string{"filePath": "file_path"}}, true
	case "apply_patch", "patch":
		return toolSpec{"apply_patch", map[string]string{"patchText": "patch"}}, true
	case "glob":
		return toolSpec{"Glob", nil}, true
	case "grep":
		return toolSpec{"Grep", nil}, true
	case "list":
		return toolSpec{"LS", nil}, true
	case "webfetch":
		return toolSpec{"WebFetch", map[string]string{"url": "url"}}, true
	case "websearch", "codesearch":
		return toolSpec{"WebSearch", map[string]string{"query": "query"}}, true
	}
	return toolSpec{}, false
}

// piTool is one of Pi 0.73's tools in Claude Code's words.
func piTool(name string) (toolSpec, bool) {
	switch name {
	case "bash":
		return toolSpec{"Bash", map[string]string{"command": "command"}}, true
	case "read":
		return toolSpec{"Read", map[string]string{"path": "file_path"}}, true
	case "write":
		return toolSpec{"Write", map[string]string{"path": "file_path"}}, true
	case "edit":
		return toolSpec{"Edit", map[string]string{"path": "file_path"}}, true
	case "grep":
		return toolSpec{"Grep", nil}, true
	case "find":
		return toolSpec{"Glob", nil}, true
	case "ls":
		return toolSpec{"LS", nil}, true
	}
	return toolSpec{}, false
}

// toolInClaudeWords rewrites the event's tool_name and tool_input as
// Claude Code names them, so the step, the guard and the taint read them
// as they read Claude Code's.
func (h *hook) toolInClaudeWords(tools func(string) (toolSpec, bool)) {
	spec, ok := tools(h.p.str("tool_name"))
	if !ok {
		return
	}
	input := h.p.obj("tool_input")
	out := map[string]json.RawMessage{}
	for from, to := range spec.args {
		if v, ok := input[from]; ok {
			out[to] = v
		}
	}
	h.set("tool_name", spec.name)
	h.setObj("tool_input", out)
}

var errNoEventName = errors.New("the event has no hook_event_name")

func unknownEvent(name string) error {
	return fmt.Errorf("unknown event %q: nothing done", name)
}
