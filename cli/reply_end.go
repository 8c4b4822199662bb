package cli

import (
	"io"

	"github.com/spf13/cobra"

	"github.com/conch-sh/conch/render"
	"github.com/conch-sh/conch/state"
)

// replyEndOptions are conch reply end's words.
type replyEndOptions struct {
	outcome, text, textFile string
	textSet                 bool // --text given

	IO    *render.Printer
	Home  homeRW
	Actor state.Actor
	In    io.Reader // standard input, for a text given as -
	Cwd   string
}

// newReplyEndCmd is conch reply end; runF, when not nil, gets the options
// instead of the end (for tests).
func newReplyEndCmd(a *app, runF func(*replyEndOptions) error) *cobra.Command {
	o := &replyEndOptions{}
	cmd := &cobra.Command{
		Use:   "end [--outcome finished|stopped|failed|needs-you] [--text T | --text-file F]",
		Short: "As a chat: the reply ends",
		Long: `As a chat: the reply ends. Its finished text is kept for whoever waits on
the chat (the last {{ReplyTail}} characters, secrets taken out). Ending a reply ends
the waits on the chat.

Exit codes: 0 done, 2 usage or no chat acting, 3 no such chat.`,
		Args:        exactArgs(0, "no arguments"),
		Annotations: access(accessWrite),
	}
	f := cmd.Flags()
	f.StringVar(&o.outcome, "outcome", state.OutcomeFinished, "finished, stopped, failed or needs-you")
	f.StringVar(&o.text, "text", "", "the reply's finished text")
	f.StringVar(&o.textFile, "text-file", "", "read the text from a file (- for standard input)")
	cmd.RunE = run(func(cmd *cobra.Command, args []string) error {
		o.textSet = cmd.Flags().Changed("text")
		if runF != nil {
			return runF(o)
		}
		o.IO, o.Home, o.Actor, o.In, o.Cwd = a.printer(), a.homeRW(), a.actor(), a.env.In, a.env.Cwd
		return runReplyEnd(o)
	})
	return cmd
}

// runReplyEnd ends the acting chat's reply and says how it ended.
func runReplyEnd(o *replyEndOptions) error {
	t, err := readText(o.In, o.Cwd, o.text, o.textFile, o.textSet, "the text")
	if err != nil {
		return err
	}
	var c *state.Chat
	err = o.Home.update(func(tx *state.Tx) error {
		var err error
		c, err = tx.Replies().End(o.Actor, state.ReplyEnd{Outcome: o.outcome, Text: t})
		return err
	})
	if err != nil {
		return err
	}
	if r := c.LastReply; r != nil {
		return o.IO.Value(render.ReplyView(r), render.ReplyEnded(r))
	}
	return o.IO.Value(render.NoReplyJSON{ID: c.ID}, render.NoReplyEnded)
}
