package cli

import (
	"github.com/spf13/cobra"

	"github.com/conch-sh/conch/render"
	"github.com/conch-sh/conch/state"
)

func (a *app) newMessages() *cobra.Command {
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
			id := ""
			if len(args) == 1 {
				id = args[0]
			}
			return a.view(func(tx *state.View) error {
				cards, err := tx.Cards(a.actor(), id)
				if err != nil {
					return err
				}
				return a.printer().Value(render.CardsView(cards), render.Cards(cards))
			})
		}),
	}
}
