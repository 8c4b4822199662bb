package cli

import (
	"github.com/spf13/cobra"

	"github.com/conch-sh/conch/render"
	"github.com/conch-sh/conch/state"
)

// chatShowOptions are conch chat show's words.
type chatShowOptions struct {
	id string // the chat

	IO       *render.Printer
	Home     homeRW
	Actor    state.Actor
	UserHome string
}

// newChatShowCmd is conch chat show; runF, when not nil, gets the checked
// options instead of the run (for tests).
func newChatShowCmd(a *app, runF func(*chatShowOptions) error) *cobra.Command {
	o := &chatShowOptions{}
	return &cobra.Command{
		Use:   "show [ID]",
		Short: "Show one chat, whole",
		Long: `Show one chat, whole (default: the chat acting).

From a chat, another chat's reply text is never shown, a chat that is not
yours is no chat at all, and the goal and task result of one that read from
outside what the chat acting has not are withheld (conch wait task ID gives
a task's result, and carries its taint in first).

Exit codes: 0 done, 2 usage, 3 no such chat.`,
		Args:        maxArgs(1, "one chat id"),
		Annotations: access(accessRead),
		RunE: run(func(cmd *cobra.Command, args []string) error {
			id, err := target(a.chat, args)
			if err != nil {
				return err
			}
			o.id = id
			if runF != nil {
				return runF(o)
			}
			o.IO, o.Home, o.Actor, o.UserHome = a.printer(), a.homeRW(), a.actor(), a.userHome()
			return runChatShow(o)
		}),
	}
}

// runChatShow shows the chat as the actor may see it.
func runChatShow(o *chatShowOptions) error {
	return o.Home.view(func(tx *state.View) error {
		c, err := tx.Chats().Named(o.Actor, o.id)
		if err != nil {
			return err
		}
		shown, err := tx.Chats().Show(o.Actor, c)
		if err != nil {
			return err
		}
		return o.IO.Value(render.ChatView(shown), render.ChatShow(shown, tx.Now(), o.UserHome))
	})
}

// target is the chat a command names: its argument, else the chat acting.
func target(chat string, args []string) (string, error) {
	if len(args) == 1 {
		return args[0], nil
	}
	if chat == "" {
		return "", usage("name a chat: give its id, --chat ID, or set CONCH_CHAT")
	}
	return chat, nil
}
