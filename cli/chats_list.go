package cli

import (
	"github.com/spf13/cobra"

	"github.com/conch-sh/conch/render"
	"github.com/conch-sh/conch/state"
)

// chatsListOptions are conch chats list's words.
type chatsListOptions struct {
	working bool // only the busy chats

	IO       *render.Printer
	Home     homeRW
	Actor    state.Actor
	UserHome string
}

// newChatsListCmd is conch chats list; runF, when not nil, gets the
// checked options instead of the run (for tests).
func newChatsListCmd(a *app, runF func(*chatsListOptions) error) *cobra.Command {
	o := &chatsListOptions{}
	cmd := &cobra.Command{
		Use:   "list [--working]",
		Short: "What the person's other chats are doing right now",
		Long: `What the person's other chats are doing right now: busy chats first (newest
reply first), then those that need you, then those active in the last {{RecentDays}}
days; {{ListMax}} at most. The header counts every busy chat and every one that
needs you, even past the list's end. --working gives only the busy ones.

Offered to a chat the person is in (no origin, or app:NAME) and to the
person; not to a routine's run, a task, or a chat with someone else's words
in it.

Exit codes: 0 done, 3 not offered here.`,
		Args:        exactArgs(0, "no arguments"),
		Annotations: access(accessRead),
	}
	cmd.Flags().BoolVar(&o.working, "working", false, "only the busy chats")
	cmd.RunE = run(func(cmd *cobra.Command, args []string) error {
		if runF != nil {
			return runF(o)
		}
		o.IO, o.Home, o.Actor, o.UserHome = a.printer(), a.homeRW(), a.actor(), a.userHome()
		return runChatsList(o)
	})
	return cmd
}

// runChatsList lists the other chats.
func runChatsList(o *chatsListOptions) error {
	return o.Home.view(func(tx *state.View) error {
		l, err := tx.Chats().List(o.Actor, o.working)
		if err != nil {
			return err
		}
		return o.IO.Value(render.ChatsView(l), render.ChatList(l, tx.Now(), o.UserHome, o.Actor.Person()))
	})
}
