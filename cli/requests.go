package cli

import (
	"github.com/spf13/cobra"

	"github.com/conch-sh/conch/render"
	"github.com/conch-sh/conch/state"
)

// requestsOptions are conch requests' words.
type requestsOptions struct {
	IO    *render.Printer
	Home  homeRW
	Actor state.Actor
}

// newRequestsCmd is conch requests; runF, when not nil, gets the checked
// options instead of the run (for tests).
func newRequestsCmd(a *app, runF func(*requestsOptions) error) *cobra.Command {
	o := &requestsOptions{}
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
			if runF != nil {
				return runF(o)
			}
			o.IO, o.Home, o.Actor = a.printer(), a.homeRW(), a.actor()
			return runRequests(o)
		}),
	}
}

// runRequests lists them.
func runRequests(o *requestsOptions) error {
	return o.Home.view(func(tx *state.View) error {
		rs, err := tx.Requests().List(o.Actor)
		if err != nil {
			return err
		}
		return o.IO.Value(render.RequestsView(rs), render.Requests(rs, o.Actor.Person()))
	})
}

// requestPressOptions are conch confirm's and deny's words.
type requestPressOptions struct {
	id string                                                       // the request
	do func(*state.Tx, state.Actor, string) (*state.Request, error) // the press

	IO    *render.Printer
	Home  homeRW
	Actor state.Actor
}

// newRequestPressCmd is conch VERB, whose press is do; runF, when not
// nil, gets the options instead of the press (for tests).
func newRequestPressCmd(a *app, verb, short, long string, do func(*state.Tx, state.Actor, string) (*state.Request, error), runF func(*requestPressOptions) error) *cobra.Command {
	o := &requestPressOptions{do: do}
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
			o.id = args[0]
			if runF != nil {
				return runF(o)
			}
			o.IO, o.Home, o.Actor = a.printer(), a.homeRW(), a.actor()
			return runRequestPress(o)
		}),
	}
}

// runRequestPress presses, and says how the request ended.
func runRequestPress(o *requestPressOptions) error {
	var r *state.Request
	err := o.Home.update(func(tx *state.Tx) (err error) {
		r, err = o.do(tx, o.Actor, o.id)
		return err
	})
	if err != nil {
		return err
	}
	return o.IO.Value(render.RequestView(r), render.Decided(r))
}

// newConfirmCmd is conch confirm.
func newConfirmCmd(a *app, runF func(*requestPressOptions) error) *cobra.Command {
	return newRequestPressCmd(a, "confirm", "Carry out a request that waits for the person",
		`Carry out a request: the stop goes ahead. If the reply it would stop has
ended since, nothing is stopped. Either way the asking chat's next notes says
how its request ended.`,
		func(tx *state.Tx, p1 state.Actor, p2 string) (*state.Request, error) {
			return tx.Requests().Confirm(p1, p2)
		}, runF)
}

// newDenyCmd is conch deny.
func newDenyCmd(a *app, runF func(*requestPressOptions) error) *cobra.Command {
	return newRequestPressCmd(a, "deny", "Turn down a request that waits for the person",
		`Turn a request down: nothing is stopped, and the asking chat's next notes
says so.`,
		func(tx *state.Tx, p1 state.Actor, p2 string) (*state.Request, error) {
			return tx.Requests().Deny(p1, p2)
		}, runF)
}
