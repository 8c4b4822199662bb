package harness

import (
	"encoding/json"

	"github.com/conch-sh/conch/state"
)

// OpenCode and Pi report through a plugin (an extension) that conch writes
// (harness/plugins): it runs conch hook opencode|pi with each event as JSON on
// standard input, named by the harness's own hook or event, and does what
// the answer says. decodePlugin reads it into an Event (its tools in
// Claude Code's words, so Family reads them); encodePlugin says the answer
// in the words the plugin reads.

// pluginShort, installPluginLong… are the help of a plugin's hook, around the
// harness's title and name (constants: no string is built at start-up).
const (
	pluginShort    = "'s hook: the plugin conch install "
	pluginShortEnd = " writes runs it per event"
	pluginLong1    = `'s hook. The plugin conch install `
	pluginLong2    = ` writes runs it at each
event with the event as JSON on standard input (named by `
	pluginLong3 = `'s own
hook or event), and does what it answers: {"chat": ID} (the chat, for
CONCH_CHAT in the session's shell), "context" (notes for the model),
"block" (the tool does not run; the model reads why), "stop" (another chat
stopped the reply: said to the model, and the turn is aborted), "prompt"
(a message that starts a reply, sent as the next prompt). The events, and
what the `
	pluginLong4 = ` version conch was tested against allows, are in conch
help integrations.

It never breaks the session it serves: bad input, an unknown event, a
locked home or any failure prints one warning line on standard error and
answers nothing.

Exit codes: 0, always.`
)

// plugAnswer is what the plugins read.
type plugAnswer struct {
	Chat    string `json:"chat,omitempty"`
	Context string `json:"context,omitempty"`
	Block   string `json:"block,omitempty"`
	Stop    string `json:"stop,omitempty"`
	Prompt  string `json:"prompt,omitempty"`
}

// encodePlugin is a reply as the plugins read it: with the chat the event
// is about where the plugin learns it (a session's start, a prompt, a
// subagent's start), for CONCH_CHAT in the session's shell.
func encodePlugin(h *Hook, ans Reply) any {
	ev := h.Ev
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
	case SessionStart, PromptSubmit, SubagentStart, 0:
		out.Chat = chatOf(h, ev)
	}
	if out == (plugAnswer{}) {
		return nil
	}
	return out
}

// chatOf is the chat the event's session (or subagent) is linked to, ""
// for none: a lock-free look.
func chatOf(h *Hook, ev Event) string {
	if ev.Session == "" || h.Home == nil {
		return ""
	}
	var c *state.Chat
	in := state.SessionIn{Harness: ev.Harness, Session: ev.Session, Agent: ev.Agent}
	if err := h.Home.View(func(v *state.View) (err error) { c, err = v.Sessions().Find(in); return err }); err != nil || c == nil {
		return ""
	}
	return c.ID
}

// decodePlugin reads what the plugin sends, in the fields it names after
// Claude Code's.
func decodePlugin(h *Hook, harness string, kind Kind, tool func(string) (toolSpec, bool)) (Event, error) {
	p := h.P
	switch {
	case h.Event == "":
		return Event{}, errNoEventName
	case kind < 0:
		return Event{}, unknownEvent(h.Event)
	}
	h.Kind = kind
	ev := Event{
		Kind: kind, Name: h.Event, Harness: harness,
		Session: p.Str("session_id"), Agent: p.Str("agent_id"), AgentType: p.Str("agent_type"),
		Folder: p.Str("cwd"), Turn: p.Str("turn_id"), Transcript: p.Str("transcript_path"),
		Prompt: p.Str("prompt"), Delivered: p.Flag("conch_prompt"),
		ToolUse:   p.Str("tool_use_id"),
		LastWords: p.Str("last_assistant_message"), HasLastWords: true,
		Continued: p.Flag("stop_hook_active"),
	}
	if kind == SessionStart {
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

func joinWords(a, b string) string {
	switch {
	case a == "":
		return b
	case b == "":
		return a
	}
	return a + "\n\n" + b
}

// toolSpec says a harness's tool in Claude Code's words: its name, and
// which of its arguments is Claude Code's file_path, command, url or
// query.
type toolSpec struct {
	name string
	args map[string]string // the harness's key → Claude Code's
}

// toolInClaudeWords is a harness's tool and its input as Claude Code
// names them, so the step, the guard and the taint read them as they read
// Claude Code's. A tool not in the table is as the harness named it.
func toolInClaudeWords(tools func(string) (toolSpec, bool), name string, input Fields) (string, Fields) {
	spec, ok := tools(name)
	if !ok {
		return name, input
	}
	out := Fields{}
	for from, to := range spec.args {
		if v, ok := input[from]; ok {
			out[to] = v
		}
	}
	return spec.name, out
}

// installPluginLong and installPluginExits are the help of conch install
// opencode and conch install pi, around the harness's own words.
const (
	installPluginLong = `Running it again changes nothing; a file of conch's that
differs (an older conch's, or one you changed) is kept beside it
(NAME.bak-TIME) and written anew, whole, never half. A file of that name
that is not conch's is left alone (exit 1). --remove takes conch's file
out, and nothing else. `
	installPluginExits = `

Exit codes: 0 done, 1 the file cannot be read or written, or is not
conch's (nothing changed), 2 usage.`
)
