package cli

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/conch-sh/conch/render"
)

// gCOptions are conch gc's words.
type gCOptions struct {
	IO   *render.Printer
	Home homeRW
}

// newGCCmd is conch gc; runF, when not nil, gets the checked options
// instead of the run (for tests).
func newGCCmd(a *app, runF func(*gCOptions) error) *cobra.Command {
	o := &gCOptions{}
	return &cobra.Command{
		Use:   "gc",
		Short: "Prune the log to 30 days and 50,000 events; expire old watches",
		Long: `Retention: events older than 30 days go, then the oldest of all while more
than 50,000 remain; watches untouched for 30 days expire; the logs and
watches of deleted chats go. Each chat's pruned watermark is stamped before
its events are removed, and its state_version never goes back.

A writing command starts it, detached, when the last run is an hour old;
running it by hand is safe at any time. It works in batches, so the lock is
never held for long.

Exit codes: 0 done, 1 a record could not be read or written.`,
		Args:        exactArgs(0, "no arguments"),
		Annotations: access(accessWrite),
		RunE: run(func(cmd *cobra.Command, args []string) error {
			if runF != nil {
				return runF(o)
			}
			o.IO, o.Home = a.printer(), a.homeRW()
			return runGC(o)
		}),
	}
}

// runGC prunes, and says what went.
func runGC(o *gCOptions) error {
	res, err := o.Home.home.GC()
	if err != nil {
		return fmt.Errorf("%s: %w", render.GCStopped(res), err)
	}
	for _, w := range res.Warnings {
		o.IO.Warn("%s", w)
	}
	return o.IO.Value(render.GCView(res), render.GCWords(res))
}
