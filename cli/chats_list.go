package cli

import (
	"github.com/spf13/cobra"

	"github.com/conch-sh/conch/render"
	"github.com/conch-sh/conch/state"
)

func (a *app) newChatsList() *cobra.Command {
	var working bool
	cmd := &cobra.Command{
		Use:   "list [--working]",
		Short: "What the person's other chats are doing right now",
		Long: `What the person's other chats are doing right now: busy chats first (newest
reply first), then those that need you, then those active in the last three
days; twelve at most. The header counts every busy chat and every one that
needs you, even past the list's end. --working gives only the busy ones.

Offered to a chat the person is in (no origin, or app:NAME) and to the
person; not to a routine's run, a task, or a chat with someone else's words
in it.

Exit codes: 0 done, 3 not offered here.`,
		Args:        exactArgs(0, "no arguments"),
		Annotations: access(accessRead),
	}
	cmd.Flags().BoolVar(&working, "working", false, "only the busy chats")
	cmd.RunE = run(func(cmd *cobra.Command, args []string) error {
		return a.view(func(tx *state.View) error {
			l, err := tx.ListChats(a.actor(), working)
			if err != nil {
				return err
			}
			return a.printer().Value(render.ChatsView(l), render.ChatList(l, tx.Now(), a.userHome(), a.actor().Person()))
		})
	})
	return cmd
}
