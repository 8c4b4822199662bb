package cli

import (
	"github.com/spf13/cobra"

	"github.com/conch-sh/conch/state"
)

func (a *app) newChatTaint() *cobra.Command {
	var outside, person string
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
	cmd.Flags().StringVar(&outside, "outside", "", "the outside source it read")
	cmd.Flags().StringVar(&person, "person", "", "whose words came into it")
	cmd.RunE = run(func(cmd *cobra.Command, args []string) error {
		id, err := a.target(args)
		if err != nil {
			return err
		}
		if err := state.ValidTaintSource(outside + person); err != nil {
			return err
		}
		return a.updateChat(func(tx *state.Tx) (*state.Chat, error) {
			return tx.AddTaint(a.actor(), id, outside, person)
		})
	})
	return cmd
}
