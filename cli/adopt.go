package cli

import (
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/conch-sh/conch/harness"
	"github.com/conch-sh/conch/render"
	"github.com/conch-sh/conch/state"
)

// adoptOptions are conch adopt's words.
type adoptOptions struct {
	harness string // one of harness.Adoptable()
	file    string // as typed

	IO    *render.Printer
	Home  homeRW
	Actor state.Actor
	Cwd   string
}

// newAdoptCmd is conch adopt; runF, when not nil, gets the checked options
// instead of the run (for tests).
func newAdoptCmd(a *app, runF func(*adoptOptions) error) *cobra.Command {
	o := &adoptOptions{}
	return &cobra.Command{
		Use:   "adopt claude|codex --chat ID FILE",
		Short: "Link a chat to an outside agent's own session file, for conch scan to read",
		Long: `Link a chat to an outside agent's own session file: a Claude Code
transcript (~/.claude/projects/…/SESSION.jsonl) or a Codex rollout
(~/.codex/sessions/…/rollout-….jsonl). From then on conch scan reads what is
appended to it and records a human_direct_message in the chat's log when a
person typed into that session directly; its watchers hear of it. What was
in the file before is not news: the scan starts at its end. Adopting the
same file again changes nothing; another file replaces the link. One file
is adopted by one chat. An adopted event is recorded in the chat's log.

Exit codes: 0 done, 2 usage (no chat, an unknown harness, no such file),
3 no such chat, a task, a chat that is not yours, or the file adopted by
another chat (one that is no longer yours loses it to the chat adopting).`,
		Args:        exactArgs(2, "a harness (claude or codex) and a file"),
		Annotations: access(accessWrite),
		RunE: run(func(cmd *cobra.Command, args []string) error {
			o.harness, o.file = args[0], args[1]
			if !slices.Contains(harness.Adoptable(), o.harness) {
				return usage("harness %q: want one of %s", o.harness, strings.Join(harness.Adoptable(), ", "))
			}
			if runF != nil {
				return runF(o)
			}
			o.IO, o.Home, o.Actor, o.Cwd = a.printer(), a.homeRW(), a.actor(), a.env.Cwd
			return runAdopt(o)
		}),
	}
}

// runAdopt links the chat to the file, resolved against the current
// folder.
func runAdopt(o *adoptOptions) error {
	var ad *state.Adoption
	err := o.Home.update(func(tx *state.Tx) (err error) {
		ad, err = tx.Sessions().Adopt(o.Actor, o.harness, harness.Title(o.harness), absPath(o.Cwd, o.file), harness.SessionFile)
		return err
	})
	if err != nil {
		return err
	}
	return o.IO.Value(render.AdoptionView(ad), render.Adopted(ad))
}
