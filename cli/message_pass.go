package cli

import (
	"github.com/spf13/cobra"

	"github.com/conch-sh/conch/render"
	"github.com/conch-sh/conch/state"
)

// newMessageGroup is `conch message pass|dismiss MSG`: the person's press
// on a held message.
func (a *app) newMessageGroup() *cobra.Command {
	g := group("message", "The person's press on a held message: pass it on, or dismiss it")
	press := `

A person's press: run with no chat acting and standard input a terminal;
from a chat, or without a terminal, it is refused (exit 3).

Exit codes: 0 done, 2 usage, 3 refused (not the person's press, no such
message, or not held).`
	g.AddCommand(
		a.messagePress("pass", "Pass a held message on to its chat",
			`Pass a held message on: it waits for its chat's next notes as if let in,
and what its sender had read from outside goes into the chat with it. A chat
that someone else's words came into since does not get it (not delivered).`+press,
			func(tx *state.Tx, id string) (*state.Message, error) { return tx.PassMessage(a.actor(), id) }),
		a.messagePress("dismiss", "Dismiss a held message",
			`Dismiss a held message: it is never delivered, and its cards say dismissed.`+press,
			func(tx *state.Tx, id string) (*state.Message, error) { return tx.DismissMessage(a.actor(), id) }),
	)
	return g
}

func (a *app) messagePress(verb, short, long string, do func(*state.Tx, string) (*state.Message, error)) *cobra.Command {
	return &cobra.Command{
		Use:         verb + " MSG",
		Short:       short,
		Long:        long,
		Args:        exactArgs(1, "one message id"),
		Annotations: access(accessWrite),
		RunE: run(func(cmd *cobra.Command, args []string) error {
			var m *state.Message
			err := a.update(func(tx *state.Tx) (err error) {
				m, err = do(tx, args[0])
				return err
			})
			if err != nil {
				return err
			}
			return a.printer().Value(render.MessageView(m), render.MessageDecided(m))
		}),
	}
}
