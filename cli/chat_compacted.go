package cli

import (
	"github.com/spf13/cobra"

	"github.com/conch-sh/conch/render"
	"github.com/conch-sh/conch/state"
)

// chatCompactedOptions are conch chat compacted's words.
type chatCompactedOptions struct {
	id string // the chat

	IO    *render.Printer
	Home  homeRW
	Actor state.Actor
}

// newChatCompactedCmd is conch chat compacted; runF, when not nil, gets
// the checked options instead of the run (for tests).
func newChatCompactedCmd(a *app, runF func(*chatCompactedOptions) error) *cobra.Command {
	o := &chatCompactedOptions{}
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
			id, err := target(a.chat, args)
			if err != nil {
				return err
			}
			o.id = id
			if runF != nil {
				return runF(o)
			}
			o.IO, o.Home, o.Actor = a.printer(), a.homeRW(), a.actor()
			return runChatCompacted(o)
		}),
	}
}

// runChatCompacted records it in the chat's log.
func runChatCompacted(o *chatCompactedOptions) error {
	var ev *state.Event
	err := o.Home.update(func(tx *state.Tx) (err error) {
		ev, err = tx.Log().Compacted(o.Actor, o.id)
		return err
	})
	if err != nil {
		return err
	}
	return o.IO.Value(render.CompactedView(o.id, ev), render.CompactedWords(o.id, ev))
}
