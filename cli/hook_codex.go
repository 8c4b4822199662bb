package cli

import (
	"encoding/json"
	"fmt"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/conch-sh/conch/render"
	"github.com/conch-sh/conch/state"
)

func (a *app) newHookCodex() *cobra.Command {
	return &cobra.Command{
		Use:   "codex [JSON]",
		Short: "Codex's hook (an event on standard input) and its notify program (one JSON argument)",
		Long: `Codex's hook and notify program (conch install codex sets both up).

With no argument it is a Codex hook: it reads one hook event, JSON on
standard input, and answers in Codex's JSON, as conch hook claude does for
Claude Code (Codex's hooks speak the same protocol; Codex refuses
continue:false before a tool, so a stopped reply's tool is denied instead).
Interrupt ends the reply as stopped, SessionEnd stops the chat; the events
and what Codex 0.169 allows are in conch help integrations.

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
				return a.runHook(state.HarnessCodex, []byte(args[len(args)-1]), func(h *hook) error {
					return h.notify()
				})
			}
			return a.runHook(state.HarnessCodex, nil, (*hook).handleCodex)
		},
	}
}

// handleCodex does what one of Codex's hook events means: Claude Code's
// protocol (handle), and the events and ways of Codex's own.
func (h *hook) handleCodex() error {
	h.event = h.p.str("hook_event_name")
	if daemon := h.daemon(); daemon != 0 && h.event == "UserPromptSubmit" {
		// The daemon outlives /quit, a turn still running going on in it
		// unseen: the reply's process is the TUI the person is in, where
		// conch can tell which it is.
		h.a.harness = state.CodexClient(daemon, h.folder(), h.a.env.Getenv("CODEX_HOME"))
	}
	switch h.event {
	case "Interrupt":
		return h.interrupt()
	case "Stop":
		if err := h.webSearches(); err != nil {
			return err
		}
	}
	return h.handle()
}

// daemon is the pid of Codex's app-server daemon when it runs this hook,
// else 0. The TUI's daemon runs every session of every terminal after the
// first, with the first one's environment: its CONCH_CHAT names no chat
// of this session's, so it is not read.
func (h *hook) daemon() int {
	pid := state.HarnessPID(h.a.env.PPID)
	if !state.IsCodexDaemon(pid) {
		return 0
	}
	h.a.chat = ""
	return pid
}

// Interrupt (Esc in the TUI, a steer that interrupts, codex agents' x):
// the turn is aborted, so its reply ends as stopped, and waits on it end.
// Codex fires no Stop for it; the turn is remembered as ended, so a late
// notify for it ends nothing more.
func (h *hook) interrupt() error {
	in := h.sessionIn(false)
	in.Agent = ""
	turn := h.p.str("turn_id")
	return h.update(func(tx *state.Tx) error {
		c, _, err := tx.HarnessChat(in)
		if err != nil || c == nil {
			return err
		}
		if seen, err := tx.EndTurn(h.harness, in.Session, turn); err != nil || seen {
			return err
		}
		if c.Reply == nil {
			return nil
		}
		_, err = tx.EndReply(state.Actor{ID: c.ID}, state.ReplyEnd{Outcome: state.OutcomeStopped})
		return err
	})
}

// webSearches taints the chat as outside with each hosted web search the
// turn made: Codex runs them itself and fires no hook, so the rollout
// (transcript_path) is read for them when the turn ends.
func (h *hook) webSearches() error {
	queries := state.WebSearches(h.p.str("transcript_path"), h.p.str("turn_id"))
	if len(queries) == 0 {
		return nil
	}
	in := h.sessionIn(false)
	in.Agent = ""
	return h.update(func(tx *state.Tx) error {
		c, _, err := tx.HarnessChat(in)
		if err != nil || c == nil {
			return err
		}
		for _, q := range queries {
			source := "web search"
			if q = render.Clean(q); q != "" {
				source += ": " + q
			}
			if _, err := tx.AddTaint(state.Actor{ID: c.ID}, c.ID, source, ""); err != nil {
				return err
			}
		}
		return nil
	})
}

// notify is Codex's notify program: a turn ended.
func (h *hook) notify() error {
	h.event = h.p.str("type")
	if h.event != "agent-turn-complete" {
		return fmt.Errorf("notification type %q: only agent-turn-complete is known", h.event)
	}
	var inputs []string
	_ = json.Unmarshal(h.p["input-messages"], &inputs)
	first := ""
	if len(inputs) > 0 {
		first = inputs[0]
	}
	text := lastWords(h.p.str("last-assistant-message"))
	thread, turn := h.p.str("thread-id"), h.p.str("turn-id")
	h.daemon()
	if thread == "" && h.a.chat == "" {
		// Older Codex sends no thread-id: nothing says which chat it is.
		return fmt.Errorf("the notification names no thread-id (an older Codex): set CONCH_CHAT for the session, or use Codex's hooks")
	}
	if thread != "" && state.LinkedChat(h.a.homeDir(), state.HarnessCodex, thread) == "" && !h.keptThread(thread) {
		// A thread Codex keeps no rollout of is one of its own hidden
		// ones (the TUI's title generation, which calls notify too): no
		// chat, and no chat's reply ends for it.
		return nil
	}
	in := state.SessionIn{
		Harness: state.HarnessCodex, Session: thread, Folder: h.folder(),
		Inherit: h.a.chat, Make: true,
	}
	return h.update(func(tx *state.Tx) error {
		var c *state.Chat
		var err error
		if thread == "" {
			c, err = tx.Chat(h.a.chat)
		} else {
			if seen, err := tx.EndTurn(state.HarnessCodex, thread, turn); err != nil || seen {
				return err
			}
			c, _, err = tx.HarnessChat(in)
			if err == nil && turn != "" {
				// A chat made just now has no link to remember the turn in yet.
				_, err = tx.EndTurn(state.HarnessCodex, thread, turn)
			}
		}
		if err != nil {
			return err
		}
		actor := state.Actor{ID: c.ID}
		if c.Reply == nil {
			// Nothing reported the turn's start (Codex's hooks are off):
			// the turn is a reply of its own, the person's when they typed.
			rs := state.ReplyStart{Person: len(inputs) > 0, Title: render.CutTitle(first, state.MaxTitle), PID: h.a.harnessPID(0)}
			if _, err := tx.StartReply(actor, rs); err != nil {
				return err
			}
		}
		_, err = tx.EndReply(actor, state.ReplyEnd{Outcome: state.OutcomeFinished, Text: text})
		return err
	})
}

// keptThread says whether Codex keeps a rollout of the thread
// ($CODEX_HOME/sessions/YYYY/MM/DD/rollout-TIME-THREAD.jsonl): every
// session a person runs has one by the end of its first turn; the
// harness's hidden threads are ephemeral and have none.
func (h *hook) keptThread(thread string) bool {
	for _, r := range thread {
		if !(r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r == '-') {
			return false // no rollout is named so
		}
	}
	dir := h.a.env.Getenv("CODEX_HOME")
	if dir == "" {
		dir = filepath.Join(h.a.userHome(), ".codex")
	}
	found, _ := filepath.Glob(filepath.Join(dir, "sessions", "*", "*", "*", "rollout-*-"+thread+".jsonl"))
	return len(found) > 0
}
