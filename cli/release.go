package cli

import (
	"github.com/spf13/cobra"

	"github.com/conch-sh/conch/render"
	"github.com/conch-sh/conch/state"
)

// releaseOptions are conch release's words.
type releaseOptions struct {
	paths []string // as typed (none: all of the chat acting's)

	IO       *render.Printer
	Home     homeRW
	Actor    state.Actor
	Cwd      string
	UserHome string
}

// newReleaseCmd is conch release; runF, when not nil, gets the checked
// options instead of the run (for tests).
func newReleaseCmd(a *app, runF func(*releaseOptions) error) *cobra.Command {
	o := &releaseOptions{}
	return &cobra.Command{
		Use:   "release [PATH|GLOB...]",
		Short: "Ends claims: the chat acting's (all when none are named), or, as the person, anyone's",
		Long: `Ends claims. As a chat: its own claims on the paths or globs named (a path
named releases the claims on it and inside it), or all of its claims when
none are named. As the person (no chat acting): anyone's claims on the paths
named; a claim never holds the person off. Nothing claimed is nothing to
release: exit 0.

Exit codes: 0 done, 2 bad input (the person names no path), 3 no such chat.`,
		Annotations: access(accessWrite),
		RunE: run(func(cmd *cobra.Command, args []string) error {
			o.paths = args
			if runF != nil {
				return runF(o)
			}
			o.IO, o.Home, o.Actor, o.Cwd, o.UserHome = a.printer(), a.homeRW(), a.actor(), a.env.Cwd, a.userHome()
			return runRelease(o)
		}),
	}
}

// runRelease ends the claims and says which.
func runRelease(o *releaseOptions) error {
	var patterns []string
	for _, p := range o.paths {
		patterns = append(patterns, absPath(o.Cwd, p))
	}
	var gone []state.Claim
	err := o.Home.update(func(tx *state.Tx) (err error) {
		gone, err = tx.Claims().Release(o.Actor, patterns)
		return err
	})
	if err != nil {
		return err
	}
	live := make([]state.LiveClaim, 0, len(gone))
	for _, c := range gone {
		live = append(live, state.LiveClaim{Claim: c})
	}
	return o.IO.Value(render.ClaimsOut{Claims: render.ClaimsJSON(live, o.Actor.ID)},
		render.Released(gone, o.Cwd, o.UserHome))
}
