package cli

import (
	"github.com/spf13/cobra"

	"github.com/conch-sh/conch/render"
	"github.com/conch-sh/conch/state"
)

// watchOptions are conch watch's words.
type watchOptions struct {
	id string

	IO    *render.Printer
	Home  homeRW
	Actor state.Actor
}

// newWatchCmd is conch watch; runF, when not nil, gets the checked options
// instead of the run (for tests).
func newWatchCmd(a *app, runF func(*watchOptions) error) *cobra.Command {
	o := &watchOptions{}
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
			o.id = args[0]
			if runF != nil {
				return runF(o)
			}
			o.IO, o.Home, o.Actor = a.printer(), a.homeRW(), a.actor()
			return runWatch(o)
		}),
	}
}

// runWatch starts the watch.
func runWatch(o *watchOptions) error {
	var w *state.Watch
	err := o.Home.update(func(tx *state.Tx) (err error) {
		w, err = tx.Chats().Watch(o.Actor, o.id)
		return err
	})
	if err != nil {
		return err
	}
	return o.IO.Value(render.WatchView(w), render.WatchWords(w))
}

// unwatchOptions are conch unwatch's words.
type unwatchOptions struct {
	id string

	IO    *render.Printer
	Home  homeRW
	Actor state.Actor
}

// newUnwatchCmd is conch unwatch; runF, when not nil, gets the checked
// options instead of the run (for tests).
func newUnwatchCmd(a *app, runF func(*unwatchOptions) error) *cobra.Command {
	o := &unwatchOptions{}
	return &cobra.Command{
		Use:   "unwatch ID",
		Short: "As a chat: stop watching another chat",
		Long: `As a chat: stop watching chat ID; a pending notice about it goes with the
watch. A chat not watched is no error (watching: false says so).

Exit codes: 0 done, 2 no chat acting, 3 no such chat.`,
		Args:        exactArgs(1, "one chat id"),
		Annotations: access(accessWrite),
		RunE: run(func(cmd *cobra.Command, args []string) error {
			o.id = args[0]
			if runF != nil {
				return runF(o)
			}
			o.IO, o.Home, o.Actor = a.printer(), a.homeRW(), a.actor()
			return runUnwatch(o)
		}),
	}
}

// runUnwatch ends it.
func runUnwatch(o *unwatchOptions) error {
	var w *state.Watch
	err := o.Home.update(func(tx *state.Tx) (err error) {
		w, err = tx.Chats().Unwatch(o.Actor, o.id)
		return err
	})
	if err != nil {
		return err
	}
	return o.IO.Value(render.WatchView(w), render.UnwatchWords(w))
}
