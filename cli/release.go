package cli

import (
	"github.com/spf13/cobra"

	"github.com/conch-sh/conch/render"
	"github.com/conch-sh/conch/state"
)

func (a *app) newRelease() *cobra.Command {
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
			var patterns []string
			for _, p := range args {
				patterns = append(patterns, a.absPath(p))
			}
			var gone []state.Claim
			err := a.update(func(tx *state.Tx) (err error) {
				gone, err = tx.Release(a.actor(), patterns)
				return err
			})
			if err != nil {
				return err
			}
			live := make([]state.LiveClaim, 0, len(gone))
			for _, c := range gone {
				live = append(live, state.LiveClaim{Claim: c})
			}
			return a.printer().Value(render.ClaimsOut{Claims: render.ClaimsJSON(live, a.chat)},
				render.Released(gone, a.env.Cwd, a.userHome()))
		}),
	}
}
