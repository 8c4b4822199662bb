package cli

import (
	"errors"
	"time"

	"github.com/spf13/cobra"

	"github.com/conch-sh/conch/render"
	"github.com/conch-sh/conch/state"
)

func (a *app) newClaim() *cobra.Command {
	var (
		dur    time.Duration
		reason string
	)
	cmd := &cobra.Command{
		Use:   "claim PATH|GLOB... [--for DUR] [--reason TEXT]",
		Short: "As a chat: these files are mine for now; the person's other chats keep off them",
		Long: `As a chat that offers together: claims files (a path, a folder, or a glob
such as 'src/auth/*.ts' inside the chat's own folder) for a time (--for,
default 30m, at most 2h). Paths are resolved like --file. The person's other
chats hear of it when they work in the folder, and an edit of theirs onto a
claimed file is stopped by their harness's hook ([guard] claims in
config.toml: deny, ask or note). A claim ends at its time, at conch release,
when the chat is stopped, archived or deleted, or when its harness process
is gone. Claiming a path this chat holds again holds it until the new time.
At most 50 live claims a chat. All of the paths are claimed, or none.

Exit codes: 0 done, 2 bad path, glob or duration, or no chat acting,
3 another chat holds one of them (the message says who, until when), the
bound of 50, or a chat that is not yours.`,
		Args:        cobra.MinimumNArgs(1),
		Annotations: access(accessWrite),
	}
	cmd.Flags().DurationVar(&dur, "for", 0, "how long the claim lasts (default 30m, at most 2h)")
	cmd.Flags().StringVar(&reason, "reason", "", "why, in a few words (the others read it)")
	cmd.RunE = run(func(cmd *cobra.Command, args []string) error {
		if err := checkArgs([]string{reason}); err != nil {
			return err
		}
		in := state.ClaimIn{Reason: reason, PPID: a.env.PPID}
		if cmd.Flags().Changed("for") {
			if dur <= 0 {
				return usage("--for %s: a claim lasts from 1m to 2h", dur)
			}
			in.For = dur
		}
		for _, p := range args {
			in.Patterns = append(in.Patterns, a.absPath(p))
		}
		var made []state.Claim
		err := a.update(func(tx *state.Tx) (err error) {
			made, err = tx.Claim(a.actor(), in)
			return err
		})
		var held *state.ClaimConflict
		if errors.As(err, &held) {
			return &state.Error{Kind: state.ErrRefused, Msg: render.ClaimHeld(render.ClaimPath(held.Pattern, a.env.Cwd, a.userHome()), held.Holder)}
		}
		if err != nil {
			return err
		}
		live := make([]state.LiveClaim, 0, len(made))
		for _, c := range made {
			live = append(live, state.LiveClaim{Claim: c})
		}
		return a.printer().Value(render.ClaimsOut{Claims: render.ClaimsJSON(live, a.chat)},
			render.Claimed(made, a.env.Cwd, a.userHome()))
	})
	return cmd
}
