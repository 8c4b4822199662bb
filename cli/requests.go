package cli

import (
	"github.com/spf13/cobra"

	"github.com/conch-sh/conch/render"
	"github.com/conch-sh/conch/state"
)

func (a *app) newRequests() *cobra.Command {
	return &cobra.Command{
		Use:   "requests",
		Short: "Requests that wait for the person's OK",
		Long: `With no chat acting: the requests that wait for the person's OK (a stop a
chat asked for from Ask mode, after reading something from outside, or from
a reply nobody watches). conch confirm REQ carries one out; conch deny REQ
turns it down. As a chat: every stop it asked for, and how each ended.

Exit codes: 0 done, 2 usage, 3 no such chat.`,
		Args:        exactArgs(0, "no arguments"),
		Annotations: access(accessRead),
		RunE: run(func(cmd *cobra.Command, args []string) error {
			return a.view(func(tx *state.View) error {
				rs, err := tx.Requests(a.actor())
				if err != nil {
					return err
				}
				return a.printer().Value(render.RequestsView(rs), render.Requests(rs, a.actor().Person()))
			})
		}),
	}
}

func (a *app) newRequestPress(verb, short, long string, do func(*state.Tx, string) (*state.Request, error)) *cobra.Command {
	return &cobra.Command{
		Use:   verb + " REQ",
		Short: short,
		Long: long + `

A person's press: run with no chat acting and standard input a terminal;
from a chat, or without a terminal, it is refused (exit 3).

Exit codes: 0 done, 2 usage, 3 refused (not the person's press, no such
request, or not waiting).`,
		Args:        exactArgs(1, "one request id"),
		Annotations: access(accessWrite),
		RunE: run(func(cmd *cobra.Command, args []string) error {
			var r *state.Request
			err := a.update(func(tx *state.Tx) (err error) {
				r, err = do(tx, args[0])
				return err
			})
			if err != nil {
				return err
			}
			return a.printer().Value(render.RequestView(r), render.Decided(r))
		}),
	}
}

func (a *app) newConfirm() *cobra.Command {
	return a.newRequestPress("confirm", "Carry out a request that waits for the person",
		`Carry out a request: the stop goes ahead. If the reply it would stop has
ended since, nothing is stopped. Either way the asking chat's next notes says
how its request ended.`,
		func(tx *state.Tx, id string) (*state.Request, error) { return tx.ConfirmRequest(a.actor(), id) })
}

func (a *app) newDeny() *cobra.Command {
	return a.newRequestPress("deny", "Turn down a request that waits for the person",
		`Turn a request down: nothing is stopped, and the asking chat's next notes
says so.`,
		func(tx *state.Tx, id string) (*state.Request, error) { return tx.DenyRequest(a.actor(), id) })
}
