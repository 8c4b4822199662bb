package cli

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/conch-sh/conch/harness"
	"github.com/conch-sh/conch/render"
	"github.com/conch-sh/conch/state"
)

// hooksCommands adds the hooks capability's commands: subcommands of chat to
// chat, and returns the top-level ones.
func hooksCommands(a *app, chat *cobra.Command) []*cobra.Command {
	hook := newHookGroup(a)
	install := group("install", "Set a harness up to report to conch through its hooks")
	install.AddCommand(newInstallCommands(a)...)
	return []*cobra.Command{hook, install, newAdoptCmd(a, nil), newScanCmd(a, nil), newWakeRunCmd(a, nil)}
}

// newHookGroup is conch hook and its adapters.
func newHookGroup(a *app) *cobra.Command {
	hook := group("hook", "Adapters a harness runs from its own hooks (see conch help integrations)")
	hook.Annotations = access(accessWrite)
	// A hook must never break the session it serves: its own preparation
	// turns every failure into a warning, where the root's would exit 2.
	hook.PersistentPreRunE = func(cmd *cobra.Command, args []string) error { return nil }
	hook.AddCommand(newHookClaude(a), newHookCodex(a), newHookCopilot(a), newHookCursor(a), newHookOpenCode(a), newHookPi(a), newHookGemini(a), newHookQwen(a))
	return hook
}

// The budgets of a hook. Claude Code gives SessionEnd hooks 1.5 s in all;
// every other event has far more, but a person waits on each.
const (
	hookLockWait = time.Second
	// hookMaxInput bounds what a hook reads: a Write's payload carries the
	// whole file, twice; past this the event is not read at all.
	hookMaxInput = 64 << 20
)

// hook is one run of an adapter: the event it was handed, decoded, and
// its answer.
type hook struct {
	a       *app
	harness string
	p       payload
	event   string       // the harness's name for the event
	kind    harness.Kind // what it means, once decoded
	// answered is set once an answer is written: one answer a run.
	answered bool
	// warnings are said together, on one line, when the run ends.
	warnings []string
	// plugin: the harness runs conch's own plugin, which reads the
	// plugins' answer (sayPlugin), not the hooks' JSON.
	plugin bool
	// encode, when set, says an answer in the harness's own JSON (Gemini
	// CLI's); else in Claude Code's, which Codex and Qwen Code speak too.
	encode func(r harness.Reply) any
	// then, when set, is a second event the one decoded brings (Gemini
	// CLI's invoke_agent call is a subagent's start or end too), handled
	// after it; its answer is said only when the first said none.
	then *harness.Event
	// speak: the encoder has something to say even for an answer that
	// says nothing (Gemini CLI's shell command rewritten).
	speak bool
	// held is the answer of a run whose home was locked, said with the
	// warning as its systemMessage (lockSaid).
	held harness.Answer
}

// lockSaid says whether the run's error, a lock not had in time, is said
// to the person as the answer's systemMessage: the harness shows one for
// the event (every answer Codex's hook schemas give a systemMessage but
// SessionEnd's, which has none). Every answer that can carry it does,
// the context it carries beside it too.
func (h *hook) lockSaid(err error) bool {
	return errors.Is(err, state.ErrLockTimeout) && !h.plugin && harness.ShowsSystemMessage(h.harness, h.kind)
}

// warn keeps a warning for the run's one warning line.
func (h *hook) warn(format string, args ...any) {
	h.warnings = append(h.warnings, fmt.Sprintf(format, args...))
}

// runHook reads one event (input, or standard input when input is nil),
// decodes it into a harness event, has harness.Handle do what it means,
// and encodes the answer. Whatever happens (an event it cannot read, bad JSON,
// a missing field, a locked home, a panic) it prints at most one warning
// line on standard error and returns nil: the harness goes on.
func (a *app) runHook(name string, input []byte, decode func(h *hook) (harness.Event, error)) (err error) {
	h := &hook{a: a, harness: name}
	a.hooked = true
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
			what := "hook " + name
			if h.event != "" {
				what += " " + h.event
			}
			line := fmt.Sprintf("conch: warning: %s: %s", what, oneLine(strings.Join(h.warnings, "; ")))
			fmt.Fprintln(a.env.Err, line)
			if h.lockSaid(err) {
				// The harness keeps a hook's standard error in a log the
				// person never reads: a locked home is said where they
				// look, in the answer the hook gives (the context it
				// still has, a session's introduction, goes with it).
				r := reply(h.held)
				r.SystemMessage = line
				_ = h.say(r)
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
	a.backendTimeout = hookLockWait
	if a.chat == "" {
		// Started from another harness's shell whose CONCH_CHAT was never
		// exported (its SessionStart missed the lock): that session's own
		// variable names the chat it was started in.
		a.chat = a.sessionChatBut(h.harness)
	}
	if a.chat != "" && !state.ValidID(a.chat) {
		a.chat = "" // not a chat id: the harness's environment names no chat
	}
	home := a.home // a home on a backend is open already (records)
	if home == nil {
		if home, err = a.openHome(); err != nil {
			return err
		}
	}
	home.LockWait = hookLockWait
	a.home = home
	ev, err := decode(h)
	if errors.Is(err, errNothing) {
		return nil
	}
	if err != nil {
		return err
	}
	if ev.Kind == 0 && !h.plugin {
		return nil // a zero event is one conch leaves alone (a plugin still hears its answer)
	}
	env := harness.Env{
		Cwd: a.env.Cwd, PPID: a.env.PPID, Chat: a.chat,
		PID:    func() int { return a.harnessPID(0) },
		Getenv: a.env.Getenv, Environ: a.env.Environ, UserHome: a.userHome(),
		Warn:    func(w string) { h.warnings = append(h.warnings, w) },
		Wording: hookWording{},
	}
	var ans harness.Answer
	if ev.Kind != 0 { // a plugin's event with nothing to do has none
		ans, err = harness.Handle(home, ev, env)
	}
	if err == nil && h.then != nil && !(h.then.Kind == harness.SubagentStart && (ans.Permission == harness.Deny || ans.EndTurn)) {
		// (A subagent whose call was refused never runs.)
		var then harness.Answer
		then, err = harness.Handle(home, *h.then, env)
		if ans.IsZero() {
			ans = then
		}
	}
	say := h.say
	if h.plugin {
		say = func(r harness.Reply) error { return h.sayPlugin(ev, r) }
	}
	if h.lockSaid(err) {
		h.held = ans // said with the warning, once its line is made
	} else if serr := say(reply(ans)); serr != nil {
		a.unsaid = true // the harness heard nothing: what it marks stays due
		h.warn("%v", serr)
	}
	return err
}

// errNothing is a decoder's word for an event that means nothing in
// conch (Gemini CLI's PreCompress before a request it does not compress).
var errNothing = errors.New("nothing to do")

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

// payload is a harness's event, read leniently (harness.Fields).
type payload = harness.Fields

func parsePayload(data []byte) (payload, error) {
	data = bytes.TrimSpace(data)
	if len(data) == 0 {
		return nil, errors.New("no event on standard input")
	}
	p, err := harness.ParseObject(data)
	if err != nil || p == nil {
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

type specific struct {
	HookEventName            string `json:"hookEventName"`
	PermissionDecision       string `json:"permissionDecision,omitempty"`
	PermissionDecisionReason string `json:"permissionDecisionReason,omitempty"`
	AdditionalContext        string `json:"additionalContext,omitempty"`
}

// say encodes the answer in the harness's JSON and writes it, once. A
// zero answer says nothing.
func (h *hook) say(ans harness.Reply) error {
	if ans.IsZero() && !h.speak || h.answered {
		return nil
	}
	var wire any = encodeAnswer(h.event, ans)
	switch {
	case h.encode != nil:
		wire = h.encode(ans)
	case h.harness == state.HarnessCopilot:
		wire = encodeCopilot(h.kind, ans)
	case h.harness == state.HarnessCursor:
		wire = encodeCursor(h.kind, ans)
	}
	if wire == nil {
		return nil // nothing the harness reads
	}
	h.answered = true
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(wire); err != nil {
		return err
	}
	_, err := h.a.env.Out.Write(buf.Bytes())
	return err
}

// encodeAnswer is an answer in the hooks' JSON, which Claude Code and Codex
// share: the context and a permission decision in hookSpecificOutput, a
// stop as continue:false, a prompt that keeps the turn going as a block.
func encodeAnswer(event string, ans harness.Reply) *answer {
	out := &answer{SystemMessage: ans.SystemMessage}
	if ans.Stop {
		f := false
		out.Continue, out.StopReason = &f, ans.StopReason
	}
	if ans.Continue {
		out.Decision, out.Reason = "block", ans.Prompt
	}
	if ans.Context != "" || ans.Permission != "" {
		out.HookSpecificOutput = &specific{
			HookEventName: event, PermissionDecision: ans.Permission,
			PermissionDecisionReason: ans.PermissionReason, AdditionalContext: ans.Context,
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
