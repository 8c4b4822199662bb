package cli

import (
	"github.com/spf13/cobra"

	"github.com/conch-sh/conch/render"
	"github.com/conch-sh/conch/state"
)

// taskNewOptions are conch task new's words.
type taskNewOptions struct {
	title, folder, key string

	Home  homeRW
	Actor state.Actor
	Cwd   string
}

// newTaskNewCmd is conch task new; runF, when not nil, gets the checked
// options instead of the run (for tests).
func newTaskNewCmd(a *app, runF func(*taskNewOptions) error) *cobra.Command {
	o := &taskNewOptions{}
	cmd := &cobra.Command{
		Use:   "new --title T [--folder DIR] [--key K]",
		Short: "As a chat: register a task it started, and print its id",
		Long: `As a chat: register a task it started, and print its id (t_1, t_2, …).
The task's folder defaults to the chat's. The same --key gives the same task.
The task starts running; the chat watches it from its spawn on. A task is
its chat's: it takes the chat's origin and taint, and is yours only when
the chat is.

Exit codes: 0 done, 2 bad value or no chat acting.`,
		Args:        exactArgs(0, "no arguments"),
		Annotations: access(accessWrite),
	}
	cmd.Flags().StringVar(&o.title, "title", "", "the task's title")
	cmd.Flags().StringVar(&o.folder, "folder", "", "the folder it works in (default: the chat's)")
	cmd.Flags().StringVar(&o.key, "key", "", "an idempotency key: the same key gives the same task")
	_ = cmd.MarkFlagRequired("title")
	cmd.RunE = run(func(cmd *cobra.Command, args []string) error {
		if err := checkArgs([]string{o.title}); err != nil {
			return err
		}
		if runF != nil {
			return runF(o)
		}
		o.Home, o.Actor, o.Cwd = a.homeRW(), a.actor(), a.env.Cwd
		return runTaskNew(o)
	})
	return cmd
}

// runTaskNew registers the task and prints its id.
func runTaskNew(o *taskNewOptions) error {
	in := state.NewTask{Title: render.Clean(o.title), Key: o.key}
	if o.folder != "" {
		in.Folder = absPath(o.Cwd, o.folder)
	}
	return o.Home.updateChat(o.Actor, func(tx *state.Tx) (*state.Chat, error) {
		return tx.Tasks().Create(o.Actor, in)
	})
}
