package cli

import (
	"github.com/spf13/cobra"

	"github.com/conch-sh/conch/render"
	"github.com/conch-sh/conch/state"
)

func (a *app) newStatus() *cobra.Command {
	var since int64
	cmd := &cobra.Command{
		Use:   "status ID [--since N]",
		Short: "A chat's state version and, with --since N, what changed after N",
		Long: `A chat's state and its state_version: the largest sequence in its log of
state changes. With --since N, the events after N, oldest first, at most 200
(truncated says more follow: ask again --since the last one shown). This is
how a watcher reconciles after a notice: the notice names the command.

history_gap is true when N is older than the history still kept (events are
kept 30 days, 50,000 in all): then refresh the whole state (conch chat show
ID) instead of reading the events as an exact difference.
earliest_available_sequence is the first sequence still kept.

It moves no cursor: a notice is acknowledged by conch notes, not here.
From a chat: one of the person's chats, or one of its own tasks or children;
the goal and result of one that read from outside what the chat acting has
not are withheld.

Exit codes: 0 done, 2 usage, 3 no such chat.`,
		Args:        exactArgs(1, "one chat id"),
		Annotations: access(accessRead),
	}
	cmd.Flags().Int64Var(&since, "since", 0, "the events after this sequence")
	cmd.RunE = run(func(cmd *cobra.Command, args []string) error {
		var after *int64
		if cmd.Flags().Changed("since") {
			after = &since
		}
		return a.view(func(tx *state.View) error {
			st, err := tx.Status(a.actor(), args[0], after)
			if err != nil {
				return err
			}
			return a.printer().Value(render.StatusView(st), render.Status(st))
		})
	})
	return cmd
}
