package cli

import (
	"github.com/spf13/cobra"

	"github.com/conch-sh/conch/render"
	"github.com/conch-sh/conch/state"
)

func (a *app) newChatCompacted() *cobra.Command {
	return &cobra.Command{
		Use:   "compacted [ID]",
		Short: "Its history was compacted (default: the chat acting)",
		Long: `Records in the chat's log that its history was compacted (the harness
summarised it to save room). Log only: watchers get no notice, but a
reconcile sees it. The chat itself, or its harness (no chat acting), may.

Recording is best-effort: if the event cannot be written, a warning says so
and the command still succeeds.

Exit codes: 0 done, 2 usage, 3 refused or no such chat.`,
		Args:        maxArgs(1, "one chat id"),
		Annotations: access(accessWrite),
		RunE: run(func(cmd *cobra.Command, args []string) error {
			id, err := a.target(args)
			if err != nil {
				return err
			}
			var ev *state.Event
			err = a.update(func(tx *state.Tx) (err error) {
				ev, err = tx.Compacted(a.actor(), id)
				return err
			})
			if err != nil {
				return err
			}
			return a.printer().Value(render.CompactedView(id, ev), render.CompactedWords(id, ev))
		}),
	}
}
