package cli

import (
	"github.com/spf13/cobra"

	"github.com/conch-sh/conch/render"
	"github.com/conch-sh/conch/state"
)

// claimsOptions are conch claims' words.
type claimsOptions struct {
	IO       *render.Printer
	Home     homeRW
	Actor    state.Actor
	Cwd      string
	UserHome string
}

// newClaimsCmd is conch claims; runF, when not nil, gets the checked
// options instead of the run (for tests).
func newClaimsCmd(a *app, runF func(*claimsOptions) error) *cobra.Command {
	o := &claimsOptions{}
	return &cobra.Command{
		Use:   "claims",
		Short: "Every live claim the chat acting may see: whose, what, until when, why",
		Long: `Every live claim that the chat acting may see (the person sees all; one of
the person's own chats sees the claims of the person's chats; any other chat
none): whose, what (relative to the current folder when inside it), until
when, why (cleaned). A claim from a chat that read something from outside
is marked: the guard treats it as a note, never a denial.

Exit codes: 0 done, 3 no such chat.`,
		Args:        exactArgs(0, "no arguments"),
		Annotations: access(accessRead),
		RunE: run(func(cmd *cobra.Command, args []string) error {
			if runF != nil {
				return runF(o)
			}
			o.IO, o.Home, o.Actor, o.Cwd, o.UserHome = a.printer(), a.homeRW(), a.actor(), a.env.Cwd, a.userHome()
			return runClaims(o)
		}),
	}
}

// runClaims lists the live claims the actor may see.
func runClaims(o *claimsOptions) error {
	return o.Home.view(func(tx *state.View) error {
		live, err := tx.Claims().List(o.Actor)
		if err != nil {
			return err
		}
		return o.IO.Value(render.ClaimsOut{Claims: render.ClaimsJSON(live, o.Actor.ID)},
			render.Claims(live, o.Actor.ID, o.Cwd, o.UserHome))
	})
}
