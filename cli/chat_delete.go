package cli

import (
	"github.com/spf13/cobra"

	"github.com/conch-sh/conch/render"
	"github.com/conch-sh/conch/state"
)

func (a *app) newChatDelete() *cobra.Command {
	return &cobra.Command{
		Use:   "delete ID",
		Short: "Delete a chat; chats that wrote to it are told",
		Long: `Delete a chat: its record, its waits and the watches both ways. The chats
that wrote to it are told. The person may delete any chat; a chat only
itself.

Exit codes: 0 done, 2 usage, 3 refused or no such chat.`,
		Args:        exactArgs(1, "one chat id"),
		Annotations: access(accessWrite),
		RunE: run(func(cmd *cobra.Command, args []string) error {
			err := a.update(func(tx *state.Tx) error {
				_, err := tx.DeleteChat(a.actor(), args[0])
				return err
			})
			if err != nil {
				return err
			}
			return a.printer().Value(render.DeletedJSON{ID: args[0], Deleted: true}, render.Deleted(args[0]))
		}),
	}
}
