package cli

import (
	"github.com/spf13/cobra"

	"github.com/conch-sh/conch/render"
	"github.com/conch-sh/conch/state"
)

// chatResetOptions are conch chat reset's words.
type chatResetOptions struct {
	id string // the chat

	IO    *render.Printer
	Home  homeRW
	Actor state.Actor
}

// newChatResetCmd is conch chat reset; runF, when not nil, gets the
// checked options instead of the run (for tests).
func newChatResetCmd(a *app, runF func(*chatResetOptions) error) *cobra.Command {
	o := &chatResetOptions{}
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
			id, err := target(a.chat, args)
			if err != nil {
				return err
			}
			o.id = id
			if runF != nil {
				return runF(o)
			}
			o.IO, o.Home, o.Actor = a.printer(), a.homeRW(), a.actor()
			return runChatReset(o)
		}),
	}
}

// runChatReset drops the chat's own watches.
func runChatReset(o *chatResetOptions) error {
	var dropped []string
	err := o.Home.update(func(tx *state.Tx) (err error) {
		dropped, err = tx.Chats().Reset(o.Actor, o.id)
		return err
	})
	if err != nil {
		return err
	}
	return o.IO.Value(render.ResetView(o.id, dropped), render.ResetWords(o.id, dropped))
}
