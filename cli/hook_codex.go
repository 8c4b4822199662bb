package cli

import (
	"encoding/json"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/conch-sh/conch/harness"
	"github.com/conch-sh/conch/state"
	"github.com/conch-sh/conch/state/proc"
)

func newHookCodex(a *app) *cobra.Command {
	return &cobra.Command{
		Use:   "codex [JSON]",
		Short: "Codex's hook (an event on standard input) and its notify program (one JSON argument)",
		Long: `Codex's hook and notify program (conch install codex sets both up).

With no argument it is a Codex hook: it reads one hook event, JSON on
standard input, and answers in Codex's JSON, as conch hook claude does for
Claude Code (Codex's hooks speak the same protocol; Codex refuses
continue:false before a tool, so a stopped reply's tool is denied instead).
Interrupt ends the reply as stopped, SessionEnd stops the chat; the events
and what Codex 0.169 allows are in conch help integrations. On Windows
the TUI's app-server daemon is not told apart (conch reads no process's
command line there): its hooks act as the daemon's CONCH_CHAT.

With one argument it is Codex's notify program: Codex appends one JSON
object to the command, {"type": "agent-turn-complete", "thread-id", "turn-id",
"cwd", "input-messages", "last-assistant-message"}, when a turn ends. The
chat's reply ends with the last assistant message (once per turn, however
many of the hook and the notify program report it). Codex reads nothing
back from notify.

It never breaks the session it serves: any failure prints one warning line
on standard error and answers nothing.

Exit codes: 0, always.`,
		Args:        cobra.ArbitraryArgs,
		Annotations: access(accessWrite),
		// Whatever the harness passes is the hook's to judge, never a
		// usage error: Codex's one argument is JSON, never a flag.
		DisableFlagParsing: true,
		RunE: func(cmd *cobra.Command, args []string) error {
			if asksHelp(args) {
				return cmd.Help()
			}
			if len(args) > 0 {
				return a.runHook(state.HarnessCodex, []byte(args[len(args)-1]), (*hook).decodeNotify)
			}
			return a.runHook(state.HarnessCodex, nil, (*hook).decodeCodex)
		},
	}
}

// codexKind is what each of Codex's hook events means: Claude Code's
// names (codex speaks its protocol), and Interrupt.
func codexKind(event string) harness.Kind {
	if event == "Interrupt" {
		// Esc in the TUI, a steer that interrupts, codex agents' x.
		return harness.TurnInterrupted
	}
	return claudeKind(event)
}

// decodeCodex reads one of Codex's hook events.
func (h *hook) decodeCodex() (harness.Event, error) {
	ev, err := h.decodeHook(codexKind)
	if err != nil {
		return ev, err
	}
	if daemon := h.daemon(); daemon != 0 && (h.kind == harness.PromptSubmit || h.kind == harness.SessionStart) {
		// The session's chat is made at these two. The TUI the person is
		// in, where conch can tell which it is, says the chat it was
		// started for (CONCH_CHAT in its own environment: a wake's, or a
		// person's); the daemon's is another terminal's.
		tui := proc.CodexClient(daemon, ev.WorkFolder(h.a.env.Cwd), h.a.env.Getenv("CODEX_HOME"))
		if id := proc.Env(tui, "CONCH_CHAT"); state.ValidID(id) {
			h.a.chat = id
		}
		if h.kind == harness.PromptSubmit {
			// The daemon outlives /quit, a turn still running going on in
			// it unseen: the reply's process is the TUI.
			h.a.harness = tui
		}
	}
	return ev, nil
}

// daemon is the pid of Codex's app-server daemon when it runs this hook,
// else 0. The TUI's daemon runs every session of every terminal after the
// first, with the first one's environment: its CONCH_CHAT names no chat
// of this session's, so it is not read (the TUI's own is, by decodeCodex).
func (h *hook) daemon() int {
	pid := proc.HarnessPID(h.a.env.PPID)
	if !proc.IsCodexDaemon(pid) {
		return 0
	}
	h.a.chat = ""
	return pid
}

// decodeNotify reads what Codex hands its notify program: a turn ended.
func (h *hook) decodeNotify() (harness.Event, error) {
	p := h.p
	h.event = p.Str("type")
	if h.event != "agent-turn-complete" {
		return harness.Event{}, fmt.Errorf("notification type %q: only agent-turn-complete is known", h.event)
	}
	h.kind = harness.TurnComplete
	var inputs []string
	_ = json.Unmarshal(p["input-messages"], &inputs)
	h.daemon()
	return harness.Event{
		Kind: h.kind, Name: h.event, Harness: h.harness,
		Session: p.Str("thread-id"), Turn: p.Str("turn-id"), Folder: p.Str("cwd"),
		Inputs: inputs, LastWords: p.Str("last-assistant-message"),
	}, nil
}
