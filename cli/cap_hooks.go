package cli

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/spf13/cobra"

	"github.com/conch-sh/conch/lock"
	"github.com/conch-sh/conch/render"
	"github.com/conch-sh/conch/state"
)

// hooksCommands adds the hooks capability's commands: subcommands of chat to
// chat, and returns the top-level ones.
func (a *app) hooksCommands(chat *cobra.Command) []*cobra.Command {
	hook := a.newHookGroup()
	install := group("install", "Set a harness up to report to conch through its hooks")
	install.AddCommand(a.newInstallClaude(), a.newInstallCodex())
	return []*cobra.Command{hook, install, a.newAdopt(), a.newScan()}
}

// newHookGroup is conch hook and its adapters.
func (a *app) newHookGroup() *cobra.Command {
	hook := group("hook", "Adapters a harness runs from its own hooks (see conch help integrations)")
	hook.Annotations = access(accessWrite)
	// A hook must never break the session it serves: its own preparation
	// turns every failure into a warning, where the root's would exit 2.
	hook.PersistentPreRunE = func(cmd *cobra.Command, args []string) error { return nil }
	hook.AddCommand(a.newHookClaude(), a.newHookCodex(), a.newHookGemini(), a.newHookQwen())
	return hook
}

// The budgets of a hook. Claude Code gives SessionEnd hooks 1.5 s in all;
// every other event has far more, but a person waits on each.
const (
	hookLockWait = time.Second
	// hookMaxInput bounds what a hook reads: a Write's payload carries the
	// whole file, twice; past this the event is not read at all.
	hookMaxInput = 64 << 20
	// contextCap is Claude Code's cap on an additionalContext string (and
	// on a reason); Codex takes the same answers. Measured in bytes, which
	// are never fewer than the UTF-16 units the harness counts.
	contextCap = 10000
	// replyTextMax is how much of a reply's last words an adapter keeps:
	// waiters read the last 800 characters; the rest would only swell the
	// record that every step rewrites.
	replyTextMax = 16 << 10
)

// hook is one run of an adapter: the event it was handed and its answer.
type hook struct {
	a       *app
	harness string
	p       payload
	event   string
	// answered is set once an answer is written: one answer a run, even
	// if a transaction that wrote it goes on to fail.
	answered bool
	// warnings are said together, on one line, when the run ends.
	warnings []string
	// encode, when set, turns an answer into the harness's own JSON
	// (Gemini CLI's); else the answer is said as it is.
	encode func(*answer) any
	// rewrite is the tool's arguments as the harness is to run them
	// (Gemini CLI's shell command with CONCH_CHAT set), nil for as they are.
	rewrite map[string]json.RawMessage
	// continued says that a prompt is the harness going on with what a
	// hook handed it (a message delivered at the turn's end), not the
	// person's.
	continued bool
}

// warn keeps a warning for the run's one warning line.
func (h *hook) warn(format string, args ...any) {
	h.warnings = append(h.warnings, fmt.Sprintf(format, args...))
}

// runHook reads one event (input, or standard input when input is nil) and
// hands it to handle. Whatever happens (an event it cannot read, bad JSON,
// a missing field, a locked home, a panic) it prints at most one warning
// line on standard error and returns nil: the harness goes on.
func (a *app) runHook(harness string, input []byte, handle func(h *hook) error) (err error) {
	h := &hook{a: a, harness: harness}
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("%v", r)
		}
		if err != nil {
			h.warnings = append(h.warnings, err.Error())
			if a.env.Failed != nil {
				a.env.Failed(err)
			}
		}
		if len(h.warnings) > 0 {
			what := "hook " + harness
			if h.event != "" {
				what += " " + h.event
			}
			line := fmt.Sprintf("conch: warning: %s: %s", what, oneLine(strings.Join(h.warnings, "; ")))
			fmt.Fprintln(a.env.Err, line)
			var locked *lock.TimeoutError
			if errors.As(err, &locked) && showsSystemMessage(harness, h.event) {
				// The harness keeps a hook's standard error in a log the
				// person never reads: a locked home is said where they look.
				_ = h.say(&answer{SystemMessage: line})
			}
		}
		err = nil
	}()
	if input == nil {
		if input, err = a.readHookInput(); err != nil {
			return err
		}
	}
	p, err := parsePayload(input)
	if err != nil {
		return err
	}
	h.p = p
	if a.chat == "" {
		a.chat = a.env.Getenv("CONCH_CHAT")
	}
	if a.chat == "" {
		// Started from another harness's shell whose CONCH_CHAT was never
		// exported (its SessionStart missed the lock): that session's own
		// variable names the chat it was started in.
		a.chat = a.sessionChatBut(h.harness)
	}
	if a.chat != "" && !state.ValidID(a.chat) {
		a.chat = "" // not a chat id: the harness's environment names no chat
	}
	home, err := a.openHome()
	if err != nil {
		return err
	}
	home.LockWait = hookLockWait
	a.home = home
	return handle(h)
}

// readHookInput reads the event from standard input, within its bound.
func (a *app) readHookInput() ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(a.env.In, hookMaxInput+1))
	if err != nil {
		return nil, fmt.Errorf("reading the event: %v", err)
	}
	if len(data) > hookMaxInput {
		return nil, fmt.Errorf("the event is larger than %d MiB: not read", hookMaxInput>>20)
	}
	return data, nil
}

func oneLine(s string) string {
	return strings.Join(strings.Fields(render.Line(s)), " ")
}

// payload is a harness's event, read leniently: unknown fields are
// ignored, a missing one reads as empty, and one of an unexpected type
// reads as missing, so a field that changed shape between versions costs
// that field, not the event.
type payload map[string]json.RawMessage

func parsePayload(data []byte) (payload, error) {
	data = bytes.TrimSpace(data)
	if len(data) == 0 {
		return nil, errors.New("no event on standard input")
	}
	var p payload
	if err := json.Unmarshal(data, &p); err != nil || p == nil {
		return nil, fmt.Errorf("the event is not a JSON object: %s", shortErr(err))
	}
	return p, nil
}

func shortErr(err error) string {
	if err == nil {
		return "null"
	}
	return err.Error()
}

// str is a string field, cleaned of what conch refuses in text (NUL
// bytes); a number reads as its digits (Codex's turn-id is either).
func (p payload) str(key string) string {
	raw, ok := p[key]
	if !ok {
		return ""
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return strings.ReplaceAll(strings.ToValidUTF8(s, "\uFFFD"), "\x00", " ")
	}
	var n json.Number
	if json.Unmarshal(raw, &n) == nil {
		return n.String()
	}
	return ""
}

func (p payload) flag(key string) bool {
	var b bool
	_ = json.Unmarshal(p[key], &b)
	return b
}

func (p payload) obj(key string) payload {
	var o payload
	if json.Unmarshal(p[key], &o) != nil {
		return nil
	}
	return o
}

// set puts a string field in, as an adapter reads an event in Claude
// Code's terms.
func (p payload) set(key, value string) {
	b, _ := json.Marshal(value)
	p[key] = b
}

// setRaw puts a field of any JSON value in.
func (p payload) setRaw(key string, v any) {
	b, _ := json.Marshal(v)
	p[key] = b
}

func (p payload) has(key string) bool {
	raw, ok := p[key]
	return ok && string(raw) != "null"
}

// answer is what an adapter says back, in the harness's own format (the
// keys both Claude Code and Codex accept; Codex refuses any other).
type answer struct {
	Continue           *bool     `json:"continue,omitempty"`
	StopReason         string    `json:"stopReason,omitempty"`
	Decision           string    `json:"decision,omitempty"`
	Reason             string    `json:"reason,omitempty"`
	HookSpecificOutput *specific `json:"hookSpecificOutput,omitempty"`
	// SystemMessage is shown to the person, not the model.
	SystemMessage string `json:"systemMessage,omitempty"`
}

// stopEnds says whether the harness ends its turn when this event's hook
// answers {"continue": false} (Claude Code and Gemini CLI at any event,
// Qwen Code at UserPromptSubmit, which keeps the model request from being
// sent), so that a stop is heard where it is said. Codex refuses it before
// a tool, and Qwen Code's tool hooks only fail the one tool call: the turn
// goes on, and the stop is said again.
func (h *hook) stopEnds() bool {
	switch h.harness {
	case state.HarnessClaude, state.HarnessGemini:
		return true
	case state.HarnessQwen:
		return h.event == "UserPromptSubmit"
	}
	return false
}

// showsSystemMessage says whether the harness shows a hook's
// systemMessage to the person for the event: Codex does for every event
// whose answer it reads (not SessionEnd, nor the notify program).
func showsSystemMessage(harness, event string) bool {
	return harness == state.HarnessCodex && event != "" && event != "SessionEnd" && event != "agent-turn-complete"
}

type specific struct {
	HookEventName            string `json:"hookEventName"`
	PermissionDecision       string `json:"permissionDecision,omitempty"`
	PermissionDecisionReason string `json:"permissionDecisionReason,omitempty"`
	AdditionalContext        string `json:"additionalContext,omitempty"`
}

// context is an answer that adds text to the model's context, or none when
// there is no text.
func (h *hook) context(text string) *answer {
	if text == "" {
		return nil
	}
	return &answer{HookSpecificOutput: &specific{HookEventName: h.event, AdditionalContext: text}}
}

// stopAnswer ends the harness's turn: another chat stopped this reply.
func stopAnswer(reason string) *answer {
	f := false
	return &answer{Continue: &f, StopReason: reason}
}

// say writes the answer, once. A nil answer says nothing.
func (h *hook) say(ans *answer) error {
	if ans == nil || h.answered {
		return nil
	}
	h.answered = true
	var out any = ans
	if h.encode != nil {
		out = h.encode(ans)
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(out); err != nil {
		return err
	}
	_, err := h.a.env.Out.Write(buf.Bytes())
	return err
}

// sessionIn is what the event says of its session.
func (h *hook) sessionIn(make bool) state.SessionIn {
	in := state.SessionIn{
		Harness: h.harness, Session: h.p.str("session_id"),
		Agent: h.p.str("agent_id"), AgentType: render.Clean(h.p.str("agent_type")),
		Folder: h.folder(), Mode: harnessMode(h.p.str("permission_mode")),
		Title:      render.CutTitle(h.p.str("session_title"), state.MaxTitle),
		Transcript: h.p.str("transcript_path"), Inherit: h.a.chat, Make: make,
	}
	return in
}

// folder is where the harness works now: the event's cwd (which follows
// cd, so it may be a folder inside the project), else the adapter's own.
func (h *hook) folder() string {
	if cwd := h.p.str("cwd"); cwd != "" && filepath.IsAbs(cwd) {
		return filepath.Clean(cwd)
	}
	return h.a.env.Cwd
}

// abs makes a path the harness gave absolute against its folder.
func (h *hook) abs(p string) string {
	if p == "" || filepath.IsAbs(p) {
		return filepath.Clean(p)
	}
	return filepath.Join(h.folder(), p)
}

// harnessMode is conch's mode for a harness's permission mode: plan is
// plan; modes where nothing asks the person first (bypassPermissions,
// Claude Code's and Qwen Code's auto, Gemini CLI's and Qwen Code's yolo)
// are auto; the rest, where some tool calls still wait for the person
// (default, acceptEdits, auto_edit, dontAsk, which denies rather than
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

// chat finds (or, with make, makes) the chat the event is about.
func (h *hook) chat(tx *state.Tx, make bool) (*state.Chat, bool, error) {
	return tx.HarnessChat(h.sessionIn(make))
}

// update runs fn under the home's lock, keeping what went wrong without
// failing it (a log append) for the run's one warning line.
func (h *hook) update(fn func(tx *state.Tx) error) error {
	return updateWarning(h.a.home, fn, func(w string) { h.warnings = append(h.warnings, w) })
}

// withNotes answers with the chat's notes, when it has any (and with
// what build adds around them): the notes are gathered without the lock,
// and only when there are some is the lock taken to mark them said; the
// answer is written once the marks are committed. A hook that cannot mark
// answers without the notes, which stay due. A stopped reply answers stop
// instead, and marks nothing.
func (h *hook) withNotes(c *state.Chat, build func(notes string) *answer, stop func(reason string) *answer) error {
	actor := state.Actor{ID: c.ID}
	var n *state.Notes
	if err := h.a.view(func(tx *state.View) (err error) { n, err = tx.Notes(actor); return err }); err != nil {
		return err
	}
	switch {
	case n.StopNow:
		return h.sayStop(c, stop(render.StopLine(*n.Stop)))
	case n.Empty():
		return h.say(build(""))
	}
	err := h.update(func(tx *state.Tx) error {
		n, err := tx.Notes(actor)
		if err != nil {
			return err
		}
		if n.StopNow {
			if err := h.say(stop(render.StopLine(*n.Stop))); err != nil || !h.stopEnds() {
				return err
			}
			return tx.HeardStop(actor)
		}
		return h.sayNotes(tx, actor, n, build)
	})
	if err != nil && !h.answered {
		if serr := h.say(build("")); serr != nil {
			h.warn("%v", serr)
		}
	}
	return err
}

// sayNotes marks the chat's notes n, gathered in tx, as said, within what
// the harness's cap leaves beside what build puts around them (whatever
// does not fit stays due), and says them once tx is committed: a hook
// whose marks fail says nothing of them, so nothing is said twice. It
// runs under the lock.
func (h *hook) sayNotes(tx *state.Tx, actor state.Actor, n *state.Notes, build func(notes string) *answer) error {
	room := contextCap - len(build("x").contextText()) - 64
	text, shown := "", n
	if room > 0 {
		text, shown = render.Notes(n, room)
	} else {
		text, shown = render.Notes(&state.Notes{}, 0)
	}
	ans := build(strings.TrimRight(text, "\n"))
	tx.After(func() {
		if err := h.say(ans); err != nil {
			h.warn("%v", err)
		}
	})
	return tx.MarkNotes(actor, shown)
}

// contextText is the text an answer puts before the model.
func (ans *answer) contextText() string {
	switch {
	case ans == nil:
		return ""
	case ans.HookSpecificOutput != nil:
		return ans.HookSpecificOutput.AdditionalContext
	}
	return ans.Reason
}

// joinText joins the parts that are not empty with a blank line.
func joinText(parts ...string) string {
	var keep []string
	for _, p := range parts {
		if p = strings.TrimSpace(p); p != "" {
			keep = append(keep, p)
		}
	}
	return strings.Join(keep, "\n\n")
}

// lastWords keeps the end of a reply's text, cut at a character.
func lastWords(s string) string {
	if len(s) <= replyTextMax {
		return s
	}
	s = s[len(s)-replyTextMax:]
	for len(s) > 0 && !utf8.RuneStart(s[0]) {
		s = s[1:]
	}
	return s
}

// introduce is what a session hears first: which chat it is in conch, and
// how its own conch commands act as it.
func introduce(c *state.Chat, envFile bool) string {
	how := "add --chat " + c.ID + " to conch commands run from this session (or set CONCH_CHAT=" + c.ID + ")"
	if envFile {
		how = "conch commands run from this session's shell act as it (CONCH_CHAT=" + c.ID + " is set there; where it is not, add --chat " + c.ID + ")"
	}
	return "conch: this session is chat " + c.ID + " among the person's chats; " + how + "."
}

// introduceRewritten is what a Gemini CLI session hears first: its shell
// names no session, so conch puts CONCH_CHAT in each shell command of the
// model's that runs conch (Gemini CLI lets a BeforeTool hook rewrite a
// tool's arguments).
func introduceRewritten(c *state.Chat) string {
	return "conch: this session is chat " + c.ID + " among the person's chats; conch commands run from this session's shell act as it (conch sets CONCH_CHAT=" + c.ID + " in each shell command that runs conch; elsewhere, add --chat " + c.ID + ")."
}

// introduceLinked is what a session hears first when its harness names the
// session in its shell (variable env) but conch could not export
// CONCH_CHAT there: its conch commands act as it all the same.
func introduceLinked(c *state.Chat, env string) string {
	return "conch: this session is chat " + c.ID + " among the person's chats; conch commands run from this session's shell act as it (" + env + " names the session there; elsewhere, add --chat " + c.ID + ")."
}
