package cli

import (
	"github.com/spf13/cobra"

	"github.com/conch-sh/conch/render"
	"github.com/conch-sh/conch/state"
)

// statusOptions are conch status's words.
type statusOptions struct {
	id       string
	since    int64 // with sinceSet: the events after it
	sinceSet bool

	IO    *render.Printer
	Home  homeRW
	Actor state.Actor
}

// newStatusCmd is conch status; runF, when not nil, gets the checked
// options instead of the run (for tests).
func newStatusCmd(a *app, runF func(*statusOptions) error) *cobra.Command {
	o := &statusOptions{}
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
	cmd.Flags().Int64Var(&o.since, "since", 0, "the events after this sequence")
	cmd.RunE = run(func(cmd *cobra.Command, args []string) error {
		o.id, o.sinceSet = args[0], cmd.Flags().Changed("since")
		if runF != nil {
			return runF(o)
		}
		o.IO, o.Home, o.Actor = a.printer(), a.homeRW(), a.actor()
		return runStatus(o)
	})
	return cmd
}

// runStatus shows the chat's state and what changed.
func runStatus(o *statusOptions) error {
	var after *int64
	if o.sinceSet {
		after = &o.since
	}
	return o.Home.view(func(tx *state.View) error {
		st, err := tx.Log().Status(o.Actor, o.id, after)
		if err != nil {
			return err
		}
		return o.IO.Value(render.StatusView(st), render.Status(st))
	})
}
