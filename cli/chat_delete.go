package cli

import (
	"github.com/spf13/cobra"

	"github.com/conch-sh/conch/render"
	"github.com/conch-sh/conch/state"
)

// chatDeleteOptions are conch chat delete's words.
type chatDeleteOptions struct {
	id string

	IO    *render.Printer
	Home  homeRW
	Actor state.Actor
}

// newChatDeleteCmd is conch chat delete; runF, when not nil, gets the
// checked options instead of the run (for tests).
func newChatDeleteCmd(a *app, runF func(*chatDeleteOptions) error) *cobra.Command {
	o := &chatDeleteOptions{}
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
			o.id = args[0]
			if runF != nil {
				return runF(o)
			}
			o.IO, o.Home, o.Actor = a.printer(), a.homeRW(), a.actor()
			return runChatDelete(o)
		}),
	}
}

// runChatDelete deletes the chat.
func runChatDelete(o *chatDeleteOptions) error {
	err := o.Home.update(func(tx *state.Tx) error {
		_, err := tx.Chats().Delete(o.Actor, o.id)
		return err
	})
	if err != nil {
		return err
	}
	return o.IO.Value(render.DeletedJSON{ID: o.id, Deleted: true}, render.Deleted(o.id))
}
