package cli

import (
	"io"

	"github.com/spf13/cobra"

	"github.com/conch-sh/conch/render"
	"github.com/conch-sh/conch/state"
)

// notesOptions are conch notes' words.
type notesOptions struct {
	peek     bool
	maxChars int

	IO    *render.Printer
	Home  homeRW
	Actor state.Actor
}

// newNotesCmd is conch notes; runF, when not nil, gets the checked options
// instead of the run (for tests).
func newNotesCmd(a *app, runF func(*notesOptions) error) *cobra.Command {
	o := &notesOptions{}
	cmd := &cobra.Command{
		Use:   "notes [--peek] [--max-chars N]",
		Short: "As a chat: what it must hear now, at a reply's start and after each step",
		Long: `As a chat: what it must hear now. The harness calls it at a reply's start
and after each step. In this order, each only when there is something:

  1. a stop notice: another chat stopped this reply (then only this is said,
     and the exit code is 5), or its last reply;
  2. the person's other chats in this place: changing files, running
     commands, or a file both changed (each once a reply, {{MaxReaderLines}} lines at most);
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
	cmd.Flags().BoolVar(&o.peek, "peek", false, "mark nothing")
	cmd.Flags().IntVar(&o.maxChars, "max-chars", 0, "keep the output within N characters")
	cmd.RunE = run(func(cmd *cobra.Command, args []string) error {
		if o.maxChars < 0 {
			return usage("--max-chars %d: want 0 or more", o.maxChars)
		}
		if runF != nil {
			return runF(o)
		}
		o.IO, o.Home, o.Actor = a.printer(), a.homeRW(), a.actor()
		return runNotes(o)
	})
	return cmd
}

// runNotes says what the chat must hear now (Home.TellNotes: looked at
// without the lock, then gathered, said and marked under it).
func runNotes(o *notesOptions) error {
	var last *state.Notes
	err := o.Home.home.TellNotes(o.Actor, state.Teller{
		Mark:   !o.peek,
		Update: o.Home.update,
		Say: func(tx *state.Tx, n *state.Notes) (*state.Notes, error) {
			last = n
			if n.Empty() && !o.IO.JSON {
				return n, nil // nothing to say
			}
			return printNotes(o.IO, n, o.maxChars)
		},
	})
	if err != nil {
		return err
	}
	return stopNow(last)
}

func stopNow(n *state.Notes) error {
	if n.StopNow {
		return &state.StoppedError{Notice: *n.Stop}
	}
	return nil
}

// printNotes writes the notes, words or JSON, and returns what it said.
func printNotes(p *render.Printer, n *state.Notes, maxChars int) (*state.Notes, error) {
	text, shown := render.Notes(n, maxChars)
	if p.JSON {
		return shown, p.WriteJSON(render.NotesView(shown))
	}
	_, err := io.WriteString(p.Out, render.Terminal(text))
	return shown, err
}
