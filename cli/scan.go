package cli

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/conch-sh/conch/state"
)

func (a *app) newScan() *cobra.Command {
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
injected context, and words that match one of the last 50 messages conch
sent to the chat (its own words coming back) or prompts its hooks reported
already are not. A file gone three looks in a row records upstream_missing
and drops the link.

Run it from cron, or any timer: conch runs no daemon.

Exit codes: 0 done (whatever each file said), 1 the home cannot be read or
written.`,
		Args:        exactArgs(0, "no arguments"),
		Annotations: access(accessWrite),
		RunE: run(func(cmd *cobra.Command, args []string) error {
			var ads []*state.Adoption
			if err := a.view(func(tx *state.Tx) (err error) { ads, err = tx.Adoptions(); return err }); err != nil {
				return err
			}
			// The files are read without the lock; what they said is
			// recorded under it, for every file at once.
			looks := make([]state.Look, len(ads))
			for i, ad := range ads {
				looks[i] = state.LookAt(*ad)
			}
			results := []state.ScanResult{}
			if len(looks) > 0 {
				err := a.update(func(tx *state.Tx) error {
					results = results[:0]
					for _, l := range looks {
						r, err := tx.ApplyLook(l)
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
			var b strings.Builder
			if len(results) == 0 {
				b.WriteString("no adopted sessions\n")
			}
			for _, r := range results {
				b.WriteString(scanLine(r) + "\n")
			}
			return a.printer().Value(results, b.String())
		}),
	}
}

// scanLine is one look in words.
func scanLine(r state.ScanResult) string {
	head := r.Chat + ": " + r.File
	switch {
	case r.Skipped:
		return head + ": another scan read it first"
	case r.Error != "":
		return head + ": cannot be read: " + r.Error
	case r.Dropped && r.Missing:
		return fmt.Sprintf("%s: gone %d looks in a row: upstream_missing recorded, link dropped", head, r.Missed)
	case r.Dropped:
		return head + ": the chat is gone: link dropped"
	case r.Missing:
		return fmt.Sprintf("%s: missing (%d of %d looks)", head, r.Missed, state.MissedLooks)
	}
	var parts []string
	if r.Restarted {
		parts = append(parts, "shorter than the last look (replaced): read again from its start")
	}
	switch {
	case r.Messages > 0:
		parts = append(parts, fmt.Sprintf("%s typed by the person directly", plural(r.Messages, "message")))
	case r.Read > 0:
		parts = append(parts, "nothing typed by the person")
	default:
		parts = append(parts, "nothing new")
	}
	if r.Echoes > 0 {
		parts = append(parts, fmt.Sprintf("%s known already (conch's own words, or prompts its hooks reported)", plural(r.Echoes, "row")))
	}
	if r.Read > 0 {
		parts = append(parts, fmt.Sprintf("%d bytes read", r.Read))
	}
	if r.Blocked {
		parts = append(parts, fmt.Sprintf("a row longer than %d bytes at byte %d blocks the scan (no byte is skipped)", state.ScanCap, r.Offset))
	}
	return head + ": " + strings.Join(parts, "; ")
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}
