package cli

import (
	"github.com/spf13/cobra"

	"github.com/conch-sh/conch/render"
	"github.com/conch-sh/conch/state"
)

func (a *app) newChatShow() *cobra.Command {
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
			id, err := a.target(args)
			if err != nil {
				return err
			}
			return a.view(func(tx *state.View) error {
				c, err := tx.Named(a.actor(), id)
				if err != nil {
					return err
				}
				shown, err := tx.Show(a.actor(), c)
				if err != nil {
					return err
				}
				return a.printer().Value(render.ChatView(shown), render.ChatShow(shown, tx.Now(), a.userHome()))
			})
		}),
	}
}

// target is the chat a command names: its argument, else the chat acting.
func (a *app) target(args []string) (string, error) {
	if len(args) == 1 {
		return args[0], nil
	}
	if a.chat == "" {
		return "", usage("name a chat: give its id, --chat ID, or set CONCH_CHAT")
	}
	return a.chat, nil
}
