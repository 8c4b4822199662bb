package cli

import (
	"github.com/spf13/cobra"

	"github.com/conch-sh/conch/render"
	"github.com/conch-sh/conch/state"
)

// tasksOptions are conch tasks' words.
type tasksOptions struct {
	IO    *render.Printer
	Home  homeRW
	Actor state.Actor
}

// newTasksCmd is conch tasks; runF, when not nil, gets the checked options
// instead of the run (for tests).
func newTasksCmd(a *app, runF func(*tasksOptions) error) *cobra.Command {
	o := &tasksOptions{}
	return &cobra.Command{
		Use:   "tasks",
		Short: "The tasks of the chat acting, and how much room there is to run them",
		Long: `The tasks of the chat acting (every task, for the person), and the capacity:
[tasks] max_running from the config (unset: no limit, shown as null), how
many tasks run across every chat, and how many wait, and why (for room, or
for the person's OK). From a chat, the result of a task that read from
outside what the chat has not is withheld: conch wait task ID gives it, and
carries that taint in first.

Exit codes: 0 done, 3 no such chat.`,
		Args:        exactArgs(0, "no arguments"),
		Annotations: access(accessRead),
		RunE: run(func(cmd *cobra.Command, args []string) error {
			if runF != nil {
				return runF(o)
			}
			o.IO, o.Home, o.Actor = a.printer(), a.homeRW(), a.actor()
			return runTasks(o)
		}),
	}
}

// runTasks lists them, with the capacity.
func runTasks(o *tasksOptions) error {
	return o.Home.view(func(tx *state.View) error {
		st, err := tx.Tasks().Status(o.Actor)
		if err != nil {
			return err
		}
		return o.IO.Value(render.TasksView(st), render.Tasks(st))
	})
}
