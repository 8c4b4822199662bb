package cli

import (
	"github.com/spf13/cobra"

	"github.com/conch-sh/conch/harness"
	"github.com/conch-sh/conch/render"
	"github.com/conch-sh/conch/state"
)

// scanOptions are conch scan's words.
type scanOptions struct {
	IO   *render.Printer
	Home homeRW
}

// newScanCmd is conch scan; runF, when not nil, gets the checked options
// instead of the run (for tests).
func newScanCmd(a *app, runF func(*scanOptions) error) *cobra.Command {
	o := &scanOptions{}
	return &cobra.Command{
		Use:   "scan",
		Short: "Read what was appended to the adopted session files since the last look",
		Long: `Read what was appended to each adopted session file (conch adopt) since
the last look, at most 1 MiB of each a look, whole rows only: a row still
being written waits for the next look, and no byte is ever skipped (a single
row longer than 1 MiB blocks that file's scan, and each look says so).

For each row a person typed into the session directly, a
human_direct_message is recorded in the chat's log, and its watchers hear of
it. Tool results, meta rows, compaction summaries, the harness's own
injected context, and words that match one of the last {{EchoWindow}} messages conch
sent to the chat (its own words coming back) or prompts its hooks reported
already are not. A file gone {{MissedLooks}} looks in a row records upstream_missing
and drops the link.

Run it from cron, or any timer: conch runs no daemon.

Exit codes: 0 done (whatever each file said), 1 the home cannot be read or
written.`,
		Args:        exactArgs(0, "no arguments"),
		Annotations: access(accessWrite),
		RunE: run(func(cmd *cobra.Command, args []string) error {
			if runF != nil {
				return runF(o)
			}
			o.IO, o.Home = a.printer(), a.homeRW()
			return runScan(o)
		}),
	}
}

// runScan reads the files without the lock, then records what they said
// under it, for every file at once.
func runScan(o *scanOptions) error {
	var ads []*state.Adoption
	if err := o.Home.view(func(tx *state.View) (err error) { ads, err = tx.Sessions().Adoptions(); return err }); err != nil {
		return err
	}
	// The files are read without the lock; what they said is
	// recorded under it, for every file at once.
	looks := make([]state.Look, len(ads))
	for i, ad := range ads {
		looks[i] = harness.LookAt(*ad)
	}
	results := []state.ScanResult{}
	if len(looks) > 0 {
		err := o.Home.update(func(tx *state.Tx) error {
			results = results[:0]
			for _, l := range looks {
				r, err := tx.Sessions().ApplyLook(l)
				if err != nil {
					return err
				}
				results = append(results, r)
			}
			return nil
		})
		if err != nil {
			return err
		}
	}
	return o.IO.Value(render.ScansView(results), render.Scanned(results))
}
