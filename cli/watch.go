package cli

import (
	"github.com/spf13/cobra"

	"github.com/conch-sh/conch/render"
	"github.com/conch-sh/conch/state"
)

func (a *app) newWatch() *cobra.Command {
	return &cobra.Command{
		Use:   "watch ID",
		Short: "As a chat: watch another chat, to hear when someone else changes it",
		Long: `As a chat: watch chat ID. When another actor changes it (the person steps
in, its goal changes, its upstream goes missing), conch notes says so once:

  ` + render.NoticeLine(state.Notice{Target: "c_2", Since: 12}) + `

The watch starts at the chat's current state version, so nothing from before
makes a notice. Watching a chat already watched keeps its cursor as it is,
a pending notice included. A chat watches its children and tasks without
asking. Watches untouched for 30 days expire.

From a chat: one of the person's chats, or one of its own tasks or children.

Exit codes: 0 done, 2 no chat acting, 3 no such chat, or the chat itself.`,
		Args:        exactArgs(1, "one chat id"),
		Annotations: access(accessWrite),
		RunE: run(func(cmd *cobra.Command, args []string) error {
			var w *state.Watch
			err := a.update(func(tx *state.Tx) (err error) {
				w, err = tx.Watch(a.actor(), args[0])
				return err
			})
			if err != nil {
				return err
			}
			return a.printer().Value(render.WatchView(w), render.WatchWords(w))
		}),
	}
}

func (a *app) newUnwatch() *cobra.Command {
	return &cobra.Command{
		Use:   "unwatch ID",
		Short: "As a chat: stop watching another chat",
		Long: `As a chat: stop watching chat ID; a pending notice about it goes with the
watch. A chat not watched is no error (watching: false says so).

Exit codes: 0 done, 2 no chat acting, 3 no such chat.`,
		Args:        exactArgs(1, "one chat id"),
		Annotations: access(accessWrite),
		RunE: run(func(cmd *cobra.Command, args []string) error {
			var w *state.Watch
			err := a.update(func(tx *state.Tx) (err error) {
				w, err = tx.Unwatch(a.actor(), args[0])
				return err
			})
			if err != nil {
				return err
			}
			return a.printer().Value(render.WatchView(w), render.UnwatchWords(w))
		}),
	}
}
