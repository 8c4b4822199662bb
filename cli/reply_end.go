package cli

import (
	"github.com/spf13/cobra"

	"github.com/conch-sh/conch/render"
	"github.com/conch-sh/conch/state"
)

func (a *app) newReplyEnd() *cobra.Command {
	var outcome, text, textFile string
	cmd := &cobra.Command{
		Use:   "end [--outcome finished|stopped|failed|needs-you] [--text T | --text-file F]",
		Short: "As a chat: the reply ends",
		Long: `As a chat: the reply ends. Its finished text is kept for whoever waits on
the chat (the last 800 characters, secrets taken out). Ending a reply ends
the waits on the chat.

Exit codes: 0 done, 2 usage or no chat acting, 3 no such chat.`,
		Args:        exactArgs(0, "no arguments"),
		Annotations: access(accessWrite),
	}
	f := cmd.Flags()
	f.StringVar(&outcome, "outcome", state.OutcomeFinished, "finished, stopped, failed or needs-you")
	f.StringVar(&text, "text", "", "the reply's finished text")
	f.StringVar(&textFile, "text-file", "", "read the text from a file (- for standard input)")
	cmd.RunE = run(func(cmd *cobra.Command, args []string) error {
		t, err := a.readText(text, textFile, cmd.Flags().Changed("text"), "the text")
		if err != nil {
			return err
		}
		var c *state.Chat
		err = a.update(func(tx *state.Tx) error {
			var err error
			c, err = tx.EndReply(a.actor(), state.ReplyEnd{Outcome: outcome, Text: t})
			return err
		})
		if err != nil {
			return err
		}
		if r := c.LastReply; r != nil {
			return a.printer().Value(render.ReplyView(r), render.ReplyEnded(r))
		}
		return a.printer().Value(render.NoReplyJSON{ID: c.ID}, render.NoReplyEnded)
	})
	return cmd
}
