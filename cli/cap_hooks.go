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
	for _, ad := range harness.Adapters {
		hook.AddCommand(newHookCmd(a, ad))
	}
	return hook
}

// newHookCmd is conch hook NAME, the adapter of one harness.
func newHookCmd(a *app, ad *harness.Adapter) *cobra.Command {
	return &cobra.Command{
		Use: ad.Use, Short: ad.Short, Long: ad.Long,
		Args:        cobra.ArbitraryArgs, // a hook refuses nothing the harness passes
		Annotations: access(accessWrite),
		// Whatever the harness passes is the hook's to judge, never a
		// usage error: Codex's one argument is JSON, never a flag.
		DisableFlagParsing: true,
		RunE: func(cmd *cobra.Command, args []string) error {
			if asksHelp(args) {
				return cmd.Help()
			}
			var input []byte
			if ad.ArgEvent && len(args) > 0 {
				input = []byte(args[len(args)-1])
			}
			return a.runHook(ad, input)
		},
	}
}

// asksHelp says whether the words are a request for the command's help.
func asksHelp(args []string) bool {
	return len(args) == 1 && (args[0] == "-h" || args[0] == "--help")
}

// The budgets of a hook. Claude Code gives SessionEnd hooks 1.5 s in all;
// every other event has far more, but a person waits on each.
const (
	hookLockWait = time.Second
	// hookMaxInput bounds what a hook reads: a Write's payload carries the
	// whole file, twice; past this the event is not read at all.
	hookMaxInput = 64 << 20
)

// hook is one run of an adapter: its harness's Hook (the event it was
// handed, decoded), and what cli keeps of the run.
type hook struct {
	a  *app
	ad *harness.Adapter
	h  *harness.Hook
	// answered is set once an answer is written: one answer a run.
	answered bool
	// warnings are said together, on one line, when the run ends.
	warnings []string
	// held is the answer of a run whose home was locked, said with the
	// warning as its systemMessage (lockSaid).
	held harness.Answer
	// words is the run's wording, which keeps the notes it put in words.
	words hookWording
}

// lockSaid says whether the run's error, a lock not had in time, is said
// to the person as the answer's systemMessage: the harness shows one for
// the event (every answer Codex's hook schemas give a systemMessage but
// SessionEnd's, which has none). Every answer that can carry it does,
// the context it carries beside it too.
func (h *hook) lockSaid(err error) bool {
	return errors.Is(err, state.ErrLockTimeout) && !h.ad.Plugin && h.ad.Caps.ShowsSystemMessage(h.h.Kind)
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
func (a *app) runHook(ad *harness.Adapter, input []byte) (err error) {
	h := &hook{a: a, ad: ad, h: &harness.Hook{Arg: input != nil}}
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
			what := "hook " + ad.Name
			if h.h.Event != "" {
				what += " " + h.h.Event
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
	if a.chat == "" {
		a.chat = a.env.Getenv("CONCH_CHAT")
	}
	a.backendTimeout = hookLockWait
	if a.chat == "" {
		// Started from another harness's shell whose CONCH_CHAT was never
		// exported (its SessionStart missed the lock): that session's own
		// variable names the chat it was started in.
		a.chat = a.sessionChatBut(ad.Name)
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
	userHome := a.userHome()
	hk := h.h
	hk.P, hk.Home, hk.Chat = p, home, a.chat
	hk.Cwd, hk.PPID, hk.Getenv, hk.UserHome = a.env.Cwd, a.env.PPID, a.env.Getenv, userHome
	hk.PID = func() int { return a.harnessPID(0) }
	ev, err := ad.Decode(hk)
	a.chat = hk.Chat // the decoder may know better (Codex's TUI)
	if hk.HarnessPID != 0 {
		a.harness = hk.HarnessPID
	}
	hk.Ev = ev
	if errors.Is(err, harness.ErrNothing) {
		return nil
	}
	if err != nil {
		return err
	}
	if ev.Kind == 0 && !ad.Plugin {
		return nil // a zero event is one conch leaves alone (a plugin still hears its answer)
	}
	env := harness.Env{
		Cwd: a.env.Cwd, PPID: a.env.PPID, Chat: a.chat,
		PID:    func() int { return a.harnessPID(0) },
		Getenv: a.env.Getenv, Environ: a.env.Environ, UserHome: userHome,
		Warn:    func(w string) { h.warnings = append(h.warnings, w) },
		Wording: &h.words,
	}
	var ans harness.Answer
	if ev.Kind != 0 { // a plugin's event with nothing to do has none
		ans, err = harness.Handle(home, ev, env)
	}
	if then := hk.Then; err == nil && then != nil && !(then.Kind == harness.SubagentStart && (ans.Permission == harness.Deny || ans.EndTurn)) {
		// (A subagent whose call was refused never runs.)
		var thenAns harness.Answer
		thenAns, err = harness.Handle(home, *then, env)
		if ans.IsZero() {
			ans = thenAns
		}
	}
	if h.lockSaid(err) {
		h.held = ans // said with the warning, once its line is made
	} else if serr := h.say(h.words.reply(ans)); serr != nil {
		a.unsaid = true // the harness heard nothing: what it marks stays due
		h.warn("%v", serr)
	}
	return err
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

// parsePayload reads a harness's event, leniently (harness.Fields).
func parsePayload(data []byte) (harness.Fields, error) {
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

// say encodes the reply in the harness's JSON (its adapter's Encode)
// and writes it, once. A reply that says nothing is not said, unless the
// adapter's plugin hears every event's or the decoder has a tool's input
// to answer.
func (h *hook) say(r harness.Reply) error {
	if h.answered || r.IsZero() && !h.ad.Plugin && h.h.Input == nil {
		return nil
	}
	wire := h.ad.Encode(h.h, r)
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
