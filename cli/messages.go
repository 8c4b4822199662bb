package cli

import (
	"github.com/spf13/cobra"

	"github.com/conch-sh/conch/render"
	"github.com/conch-sh/conch/state"
)

// messagesOptions are conch messages' words.
type messagesOptions struct {
	id string // the chat ("" with no chat acting: every card)

	IO    *render.Printer
	Home  homeRW
	Actor state.Actor
}

// newMessagesCmd is conch messages; runF, when not nil, gets the checked
// options instead of the run (for tests).
func newMessagesCmd(a *app, runF func(*messagesOptions) error) *cobra.Command {
	o := &messagesOptions{}
	return &cobra.Command{
		Use:   "messages [ID]",
		Short: "The message and stop cards of a chat, both directions",
		Long: `The message cards of a chat (default: the chat acting), each message once
per side, oldest first, with its state: waiting, read, held, refused,
dismissed, or not delivered (and why). "To “Fix the login”" is a message
this chat sent; "From “Release notes” · ` + render.NotYou + `" one that
came to it. Stops one chat asked of another are cards too.

A message's words are shown to the person, to the chat that sent it, and to
its receiver once it has read them. From a chat, another chat's cards are
read as conch chat show reads it: yours, or its own tasks and children. With
no chat acting and no ID: every card in the home (held messages wait there
for conch message pass or dismiss).

Exit codes: 0 done, 2 usage, 3 no such chat.`,
		Args:        maxArgs(1, "one chat id"),
		Annotations: access(accessRead),
		RunE: run(func(cmd *cobra.Command, args []string) error {
			if len(args) == 1 {
				o.id = args[0]
			}
			if runF != nil {
				return runF(o)
			}
			o.IO, o.Home, o.Actor = a.printer(), a.homeRW(), a.actor()
			return runMessages(o)
		}),
	}
}

// runMessages shows the cards.
func runMessages(o *messagesOptions) error {
	return o.Home.view(func(tx *state.View) error {
		cards, err := tx.Messages().Cards(o.Actor, o.id)
		if err != nil {
			return err
		}
		return o.IO.Value(render.CardsView(cards), render.Cards(cards))
	})
}
