package cli

import (
	"github.com/spf13/cobra"

	"github.com/conch-sh/conch/render"
	"github.com/conch-sh/conch/state"
)

// newMessageGroup is `conch message pass|dismiss MSG`: the person's press
// on a held message.
func newMessageGroup(a *app) *cobra.Command {
	g := group("message", "The person's press on a held message: pass it on, or dismiss it")
	press := `

A person's press: run with no chat acting and standard input a terminal;
from a chat, or without a terminal, it is refused (exit 3).

Exit codes: 0 done, 2 usage, 3 refused (not the person's press, no such
message, or not held).`
	g.AddCommand(
		newMessagePressCmd(a, "pass", "Pass a held message on to its chat",
			`Pass a held message on: it waits for its chat's next notes as if let in,
and what its sender had read from outside goes into the chat with it. A chat
that someone else's words came into since does not get it (not delivered).`+press,
			func(tx *state.Tx, p1 state.Actor, p2 string) (*state.Message, error) {
				return tx.Messages().Pass(p1, p2)
			}, nil),
		newMessagePressCmd(a, "dismiss", "Dismiss a held message",
			`Dismiss a held message: it is never delivered, and its cards say dismissed.`+press,
			func(tx *state.Tx, p1 state.Actor, p2 string) (*state.Message, error) {
				return tx.Messages().Dismiss(p1, p2)
			}, nil),
	)
	return g
}

// messagePressOptions are conch message pass's and dismiss's words.
type messagePressOptions struct {
	id string                                                       // the held message
	do func(*state.Tx, state.Actor, string) (*state.Message, error) // the press

	IO    *render.Printer
	Home  homeRW
	Actor state.Actor
}

// newMessagePressCmd is conch message VERB, whose press is do; runF, when
// not nil, gets the options instead of the press (for tests).
func newMessagePressCmd(a *app, verb, short, long string, do func(*state.Tx, state.Actor, string) (*state.Message, error), runF func(*messagePressOptions) error) *cobra.Command {
	o := &messagePressOptions{do: do}
	return &cobra.Command{
		Use:         verb + " MSG",
		Short:       short,
		Long:        long,
		Args:        exactArgs(1, "one message id"),
		Annotations: access(accessWrite),
		RunE: run(func(cmd *cobra.Command, args []string) error {
			o.id = args[0]
			if runF != nil {
				return runF(o)
			}
			o.IO, o.Home, o.Actor = a.printer(), a.homeRW(), a.actor()
			return runMessagePress(o)
		}),
	}
}

// runMessagePress presses, and says what became of the message.
func runMessagePress(o *messagePressOptions) error {
	var m *state.Message
	err := o.Home.update(func(tx *state.Tx) (err error) {
		m, err = o.do(tx, o.Actor, o.id)
		return err
	})
	if err != nil {
		return err
	}
	return o.IO.Value(render.MessageView(m), render.MessageDecided(m))
}
