package cli

import (
	"github.com/spf13/cobra"

	"github.com/conch-sh/conch/render"
	"github.com/conch-sh/conch/state"
)

func (a *app) newChatReset() *cobra.Command {
	return &cobra.Command{
		Use:   "reset [ID]",
		Short: "Its history was cleared: its own watches go (default: the chat acting)",
		Long: `The harness cleared the chat's history: the watches it kept on other chats
go, with their pending notices (it no longer knows what it expected of
them). Its own log stays, and so do other chats' watches on it. The chat
itself, or its harness (no chat acting), may.

Exit codes: 0 done, 2 usage, 3 refused or no such chat.`,
		Args:        maxArgs(1, "one chat id"),
		Annotations: access(accessWrite),
		RunE: run(func(cmd *cobra.Command, args []string) error {
			id, err := a.target(args)
			if err != nil {
				return err
			}
			var dropped []string
			err = a.update(func(tx *state.Tx) (err error) {
				dropped, err = tx.ResetChat(a.actor(), id)
				return err
			})
			if err != nil {
				return err
			}
			return a.printer().Value(render.ResetView(id, dropped), render.ResetWords(id, dropped))
		}),
	}
}
