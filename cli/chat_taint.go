package cli

import (
	"github.com/spf13/cobra"

	"github.com/conch-sh/conch/state"
)

// chatTaintOptions are conch chat taint's words.
type chatTaintOptions struct {
	id              string
	outside, person string

	Home  homeRW
	Actor state.Actor
}

// newChatTaintCmd is conch chat taint; runF, when not nil, gets the
// checked options instead of the run (for tests).
func newChatTaintCmd(a *app, runF func(*chatTaintOptions) error) *cobra.Command {
	o := &chatTaintOptions{}
	cmd := &cobra.Command{
		Use:   "taint [ID] --outside SOURCE | --person WHO",
		Short: "Mark what came into a chat",
		Long: `Mark what came into a chat (default: the chat acting).

--outside SOURCE: it read something from outside (a web page, a mail, a
downloaded file). --person WHO: someone else's words came into it; it is
then not yours, to every other chat, and neither is any chat or task made
from it. Anyone may add outside taint: it only lowers trust, and nothing
takes it away. A person taint only the person, a harness (no chat acting)
or the chat itself may add.

Exit codes: 0 done, 2 usage, 3 no such chat, or a person taint from
another chat.`,
		Args:        maxArgs(1, "one chat id"),
		Annotations: access(accessWrite),
	}
	cmd.Flags().StringVar(&o.outside, "outside", "", "the outside source it read")
	cmd.Flags().StringVar(&o.person, "person", "", "whose words came into it")
	cmd.RunE = run(func(cmd *cobra.Command, args []string) error {
		id, err := target(a.chat, args)
		if err != nil {
			return err
		}
		o.id = id
		if err := state.ValidTaintSource(o.outside + o.person); err != nil {
			return err
		}
		if runF != nil {
			return runF(o)
		}
		o.Home, o.Actor = a.homeRW(), a.actor()
		return runChatTaint(o)
	})
	return cmd
}

// runChatTaint adds the taint.
func runChatTaint(o *chatTaintOptions) error {
	return o.Home.updateChat(o.Actor, func(tx *state.Tx) (*state.Chat, error) {
		return tx.Chats().AddTaint(o.Actor, o.id, o.outside, o.person)
	})
}
