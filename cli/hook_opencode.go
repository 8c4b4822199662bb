package cli

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/conch-sh/conch/harness"
	"github.com/conch-sh/conch/state"
)

// OpenCode and Pi report through a plugin (an extension) that conch writes
// (cli/install/plugins): it runs conch hook opencode|pi with each event as JSON on
// standard input, named by the harness's own hook or event, and does what
// the answer says. The decoders here read it into a harness.Event (its
// tools in Claude Code's words, so Family reads them); sayPlugin says the
// answer in the words the plugin reads.

func newHookOpenCode(a *app) *cobra.Command {
	return newPluginHook(a, state.HarnessOpenCode, "OpenCode", (*hook).decodeOpenCode)
}

func newHookPi(a *app) *cobra.Command {
	return newPluginHook(a, state.HarnessPi, "Pi", (*hook).decodePi)
}

func newPluginHook(a *app, id, name string, decode func(h *hook) (harness.Event, error)) *cobra.Command {
	return &cobra.Command{
		Use:   id,
		Short: name + "'s hook: the plugin conch install " + id + " writes runs it per event",
		Long: name + `'s hook. The plugin conch install ` + id + ` writes runs it at each
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
			return a.runHook(id, nil, func(h *hook) (harness.Event, error) {
				h.plugin = true
				return decode(h)
			})
		},
	}
}

// plugAnswer is what the plugins read.
type plugAnswer struct {
	Chat    string `json:"chat,omitempty"`
	Context string `json:"context,omitempty"`
	Block   string `json:"block,omitempty"`
	Stop    string `json:"stop,omitempty"`
	Prompt  string `json:"prompt,omitempty"`
}

// sayPlugin writes the answer as the plugins read it, once: with the
// chat the event is about where the plugin learns it (a session's start,
// a prompt, a subagent's start), for CONCH_CHAT in the session's shell.
func (h *hook) sayPlugin(ev harness.Event, ans harness.Reply) error {
	if h.answered {
		return nil
	}
	out := plugAnswer{Context: ans.Context}
	if ans.Permission != "" {
		out.Block = ans.PermissionReason
	}
	if ans.Stop {
		// The plugin aborts the turn; before a tool, the denial says the
		// notice, and this only who.
		out.Stop = ans.StopReason
		if out.Stop == "" {
			out.Stop = "stopped (conch)"
		}
	}
	if ans.Continue {
		out.Prompt = ans.Prompt
	}
	switch ev.Kind {
	case harness.SessionStart, harness.PromptSubmit, harness.SubagentStart, 0:
		out.Chat = h.chatOf(ev)
	}
	if out == (plugAnswer{}) {
		return nil
	}
	h.answered = true
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(out); err != nil {
		return err
	}
	_, err := h.a.env.Out.Write(buf.Bytes())
	return err
}

// chatOf is the chat the event's session (or subagent) is linked to, ""
// for none: a lock-free look.
func (h *hook) chatOf(ev harness.Event) string {
	if ev.Session == "" || h.a.home == nil {
		return ""
	}
	var c *state.Chat
	in := state.SessionIn{Harness: ev.Harness, Session: ev.Session, Agent: ev.Agent}
	if err := h.a.home.View(func(v *state.View) (err error) { c, err = v.FindHarnessChat(in); return err }); err != nil || c == nil {
		return ""
	}
	return c.ID
}

// openCodeKind is what each of the OpenCode plugin's events means; a
// subagent's (agent_id: its own session) are its child chat's.
func openCodeKind(name string, agent bool, p payload) harness.Kind {
	switch name {
	case "session.created":
		if agent {
			return harness.SubagentStart
		}
		return harness.SessionStart
	case "chat.message":
		if agent {
			return 0 // a subagent's prompt is its parent's tool call: its chat only
		}
		return harness.PromptSubmit
	case "tool.execute.before":
		return harness.PreTool
	case "tool.execute.after":
		return harness.PostTool
	case "session.idle":
		if agent {
			return harness.SubagentEnd
		}
		return harness.TurnEnd
	case "session.error":
		if agent {
			return 0 // its parent's task tool fails with it
		}
		if p.Obj("error").Str("name") == "MessageAbortedError" {
			// Esc, or conch's own abort: the reply ends as stopped; the
			// session.idle that follows finds the turn ended.
			return harness.TurnInterrupted
		}
		return harness.TurnFailed
	case "permission.asked":
		return harness.NeedsYou
	case "session.compacted":
		return harness.Compacted
	case "session.deleted", "dispose":
		return harness.SessionEnd
	}
	return -1
}

// piKind is what each of the Pi extension's events means.
func piKind(name string, p payload) harness.Kind {
	switch name {
	case "session_start":
		return harness.SessionStart
	case "before_agent_start":
		return harness.PromptSubmit
	case "tool_call":
		return harness.PreTool
	case "tool_result":
		return harness.PostTool
	case "turn_end":
		switch p.Str("stop_reason") {
		case "aborted":
			return harness.TurnInterrupted
		case "error":
			return harness.TurnFailed
		}
		return harness.TurnEnd
	case "session_before_compact":
		return harness.Compacted
	case "session_shutdown":
		return harness.SessionEnd
	}
	return -1
}

// decodePlugin reads what the plugin sends, in the fields it names after
// Claude Code's.
func (h *hook) decodePlugin(kind harness.Kind, tool func(string) (toolSpec, bool)) (harness.Event, error) {
	p := h.p
	switch {
	case h.event == "":
		return harness.Event{}, errNoEventName
	case kind < 0:
		return harness.Event{}, unknownEvent(h.event)
	}
	h.kind = kind
	ev := harness.Event{
		Kind: kind, Name: h.event, Harness: h.harness,
		Session: p.Str("session_id"), Agent: p.Str("agent_id"), AgentType: p.Str("agent_type"),
		Folder: p.Str("cwd"), Turn: p.Str("turn_id"), Transcript: p.Str("transcript_path"),
		Prompt: p.Str("prompt"), Delivered: p.Flag("conch_prompt"),
		ToolUse:   p.Str("tool_use_id"),
		LastWords: p.Str("last_assistant_message"), HasLastWords: true,
		Continued: p.Flag("stop_hook_active"),
	}
	if kind == harness.SessionStart {
		_ = json.Unmarshal(p["argv"], &ev.Argv) // not a list of words: none
		ev.Channel = p.Str("server_url")
	}
	if e := p.Str("error"); e != "" || p.Obj("error") != nil {
		if e == "" {
			e = p.Obj("error").Str("message")
		}
		ev.LastWords = joinWords(ev.LastWords, e)
	}
	ev.Tool, ev.Input = toolInClaudeWords(tool, p.Str("tool_name"), p.Obj("tool_input"))
	if resp := p.Obj("tool_response"); resp != nil {
		if f := resp.Obj("metadata").Str("filepath"); f != "" {
			ev.Response, _ = json.Marshal(map[string]string{"filePath": f})
		}
	}
	return ev, nil
}

// decodeOpenCode reads one of the OpenCode plugin's events.
func (h *hook) decodeOpenCode() (harness.Event, error) {
	h.event = h.p.Str("hook_event_name")
	agent := h.p.Str("agent_id") != ""
	ev, err := h.decodePlugin(openCodeKind(h.event, agent, h.p), openCodeTool)
	if err != nil {
		return ev, err
	}
	switch ev.Kind {
	case harness.SessionStart:
		ev.Mode = openCodeMode("", h.p["permission"])
	case harness.PromptSubmit:
		ev.Mode = openCodeMode(h.p.Str("agent"), h.p["permission"])
	case harness.SubagentStart:
		// The task's session is titled "DESCRIPTION (@AGENT subagent)":
		// its description names the child.
		if i := strings.LastIndex(ev.AgentType, " (@"); i > 0 && strings.HasSuffix(ev.AgentType, " subagent)") {
			ev.AgentType = ev.AgentType[:i]
		}
	}
	return ev, nil
}

// decodePi reads one of the Pi extension's events. Pi asks the person
// nothing before a tool runs (it has no permissions): every session is
// auto.
func (h *hook) decodePi() (harness.Event, error) {
	h.event = h.p.Str("hook_event_name")
	ev, err := h.decodePlugin(piKind(h.event, h.p), piTool)
	ev.Mode = state.ModeAuto
	return ev, err
}

func joinWords(a, b string) string {
	switch {
	case a == "":
		return b
	case b == "":
		return a
	}
	return a + "\n\n" + b
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

// toolInClaudeWords is a harness's tool and its input as Claude Code
// names them, so the step, the guard and the taint read them as they read
// Claude Code's. A tool not in the table is as the harness named it.
func toolInClaudeWords(tools func(string) (toolSpec, bool), name string, input payload) (string, payload) {
	spec, ok := tools(name)
	if !ok {
		return name, input
	}
	out := payload{}
	for from, to := range spec.args {
		if v, ok := input[from]; ok {
			out[to] = v
		}
	}
	return spec.name, out
}

var errNoEventName = errors.New("the event has no hook_event_name")

func unknownEvent(name string) error {
	return fmt.Errorf("unknown event %q: nothing done", name)
}
