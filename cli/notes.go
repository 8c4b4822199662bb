package cli

import (
	"io"

	"github.com/spf13/cobra"

	"github.com/conch-sh/conch/render"
	"github.com/conch-sh/conch/state"
)

func (a *app) newNotes() *cobra.Command {
	var (
		peek     bool
		maxChars int
	)
	cmd := &cobra.Command{
		Use:   "notes [--peek] [--max-chars N]",
		Short: "As a chat: what it must hear now, at a reply's start and after each step",
		Long: `As a chat: what it must hear now. The harness calls it at a reply's start
and after each step. In this order, each only when there is something:

  1. a stop notice: another chat stopped this reply (then only this is said,
     and the exit code is 5), or its last reply;
  2. the person's other chats in this place: changing files, running
     commands, or a file both changed (each once a reply, four lines at most);
  3. messages due, framed and fenced;
  4. waits that ended;
  5. notices: a watched chat changed.

With nothing to say it prints nothing. --peek marks nothing as said, read or
drained. --max-chars N keeps the output within N characters: whole messages
that do not fit stay due. The output is written first and marked after, so a
notes killed on the way says the same again next time.

Exit codes: 0 done, 2 no chat acting, 3 no such chat, 5 this reply was
stopped: end it now.`,
		Args:        exactArgs(0, "no arguments"),
		Annotations: access(accessWrite),
	}
	cmd.Flags().BoolVar(&peek, "peek", false, "mark nothing")
	cmd.Flags().IntVar(&maxChars, "max-chars", 0, "keep the output within N characters")
	cmd.RunE = run(func(cmd *cobra.Command, args []string) error {
		if maxChars < 0 {
			return usage("--max-chars %d: want 0 or more", maxChars)
		}
		// Most calls have nothing to say: look without the lock first.
		var n *state.Notes
		if err := a.view(func(tx *state.View) (err error) { n, err = tx.Notes(a.actor()); return err }); err != nil {
			return err
		}
		if n.Empty() {
			if a.json {
				_, err := a.printNotes(n, maxChars)
				return err
			}
			return nil
		}
		if peek || n.StopNow {
			if _, err := a.printNotes(n, maxChars); err != nil {
				return err
			}
			return a.stopNow(n)
		}
		// Under the lock the notes are gathered again, and these are the
		// ones said and marked; a stop that came in between is among them.
		err := a.update(func(tx *state.Tx) (err error) {
			if n, err = tx.Notes(a.actor()); err != nil {
				return err
			}
			shown, err := a.printNotes(n, maxChars)
			if err != nil {
				return err
			}
			if n.StopNow {
				return nil
			}
			return tx.MarkNotes(a.actor(), shown)
		})
		if err != nil {
			return err
		}
		return a.stopNow(n)
	})
	return cmd
}

func (a *app) stopNow(n *state.Notes) error {
	if n.StopNow {
		return &state.StoppedError{Notice: *n.Stop}
	}
	return nil
}

// printNotes writes the notes, words or JSON, and returns what it said.
func (a *app) printNotes(n *state.Notes, maxChars int) (*state.Notes, error) {
	text, shown := render.Notes(n, maxChars)
	if a.json {
		out := struct {
			Stop     any                `json:"stop"`
			Reader   []string           `json:"reader"`
			Messages []state.DueMessage `json:"messages"`
			Waits    []state.EndedWait  `json:"waits"`
			Notices  []string           `json:"notices"`
		}{Reader: []string{}, Messages: shown.Messages, Waits: shown.Waits, Notices: []string{}}
		if shown.Stop != nil {
			out.Stop = map[string]any{"by": shown.Stop.By, "reason": shown.Stop.Reason, "now": shown.StopNow, "line": render.StopLine(*shown.Stop)}
		}
		for _, l := range shown.Reader {
			out.Reader = append(out.Reader, render.ReaderLine(l))
		}
		for _, x := range shown.Notices {
			out.Notices = append(out.Notices, render.NoticeLine(x))
		}
		return shown, a.printer().WriteJSON(out)
	}
	_, err := io.WriteString(a.env.Out, render.Terminal(text))
	return shown, err
}
