package cli

import (
	"errors"
	"time"

	"github.com/spf13/cobra"

	"github.com/conch-sh/conch/render"
	"github.com/conch-sh/conch/state"
)

// claimOptions are conch claim's words.
type claimOptions struct {
	paths  []string      // as typed: paths, folders or globs
	dur    time.Duration // --for, when forSet
	forSet bool
	reason string

	IO       *render.Printer
	Home     homeRW
	Actor    state.Actor
	Cwd      string
	UserHome string
	PPID     int // the parent of this command
}

// newClaimCmd is conch claim; runF, when not nil, gets the checked
// options instead of the claim (for tests).
func newClaimCmd(a *app, runF func(*claimOptions) error) *cobra.Command {
	o := &claimOptions{}
	cmd := &cobra.Command{
		Use:   "claim PATH|GLOB... [--for DUR] [--reason TEXT]",
		Short: "As a chat: these files are mine for now; the person's other chats keep off them",
		Long: `As a chat that offers together: claims files (a path, a folder, or a glob
such as 'src/auth/*.ts') for a time (--for, default {{ClaimDefault}}, at most {{ClaimLongest}}). Paths
are resolved like --file, and their links followed. A claim lies inside
the chat's place: the work tree holding its folder, as the harness or the
person gave it (a chat's own reply start --folder does not move it), never
the whole of it, and nothing from a place that is /. The person's other
chats hear of it when they work in the folder, and an edit of theirs onto a
claimed file is stopped by their harness's hook ([guard] claims in
config.toml: deny, ask or note). A claim ends at its time, at conch release,
when the chat is stopped, archived or deleted, or when its harness process
is gone. Claiming a path this chat holds again holds it until the new time.
At most {{MaxClaims}} live claims a chat. All of the paths are claimed, or none.

Exit codes: 0 done, 2 bad path, glob or duration, the whole place, or no
chat acting, 3 another chat holds one of them (the message says who, until
when), a path outside the chat's place, the bound of {{MaxClaims}}, or a chat that is
not yours.`,
		Args:        cobra.MinimumNArgs(1),
		Annotations: access(accessWrite),
	}
	cmd.Flags().DurationVar(&o.dur, "for", 0, "how long the claim lasts (default {{ClaimDefault}}, at most {{ClaimLongest}})")
	cmd.Flags().StringVar(&o.reason, "reason", "", "why, in a few words (the others read it)")
	cmd.RunE = run(func(cmd *cobra.Command, args []string) error {
		if err := checkArgs([]string{o.reason}); err != nil {
			return err
		}
		o.paths, o.forSet = args, cmd.Flags().Changed("for")
		if o.forSet && o.dur <= 0 {
			return usage("--for %s: a claim lasts from %s to %s", o.dur, render.Span(state.ClaimShortest), render.Span(state.ClaimLongest))
		}
		if runF != nil {
			return runF(o)
		}
		o.IO, o.Home, o.Actor, o.Cwd, o.UserHome, o.PPID = a.printer(), a.homeRW(), a.actor(), a.env.Cwd, a.userHome(), a.env.PPID
		return runClaim(o)
	})
	return cmd
}

// runClaim claims the paths, resolved against the current folder, and
// says what is held, or who holds one of them.
func runClaim(o *claimOptions) error {
	in := state.ClaimIn{Reason: o.reason, PPID: o.PPID}
	if o.forSet {
		in.For = o.dur
	}
	for _, p := range o.paths {
		in.Patterns = append(in.Patterns, absPath(o.Cwd, p))
	}
	var (
		made  []state.Claim
		notes []state.Verdict
	)
	err := o.Home.update(func(tx *state.Tx) (err error) {
		if made, err = tx.Claims().Take(o.Actor, in); err != nil {
			return err
		}
		notes, err = tx.Claims().Worktrees(o.Actor, made)
		return err
	})
	var held *state.ClaimConflict
	if errors.As(err, &held) {
		return &state.Error{Kind: state.ErrRefused, Msg: render.ClaimHeld(render.ClaimPath(held.Pattern, o.Cwd, o.UserHome), held.Holder)}
	}
	if err != nil {
		return err
	}
	live := make([]state.LiveClaim, 0, len(made))
	for _, c := range made {
		live = append(live, state.LiveClaim{Claim: c})
	}
	return o.IO.Value(render.ClaimsOut{Claims: render.ClaimsJSON(live, o.Actor.ID)},
		render.Claimed(made, o.Cwd, o.UserHome)+render.ClaimNotes(notes))
}
