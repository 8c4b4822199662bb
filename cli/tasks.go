package cli

import (
	"github.com/spf13/cobra"

	"github.com/conch-sh/conch/render"
	"github.com/conch-sh/conch/state"
)

func (a *app) newTasks() *cobra.Command {
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
			return a.view(func(tx *state.View) error {
				st, err := tx.Tasks(a.actor())
				if err != nil {
					return err
				}
				return a.printer().Value(render.TasksView(st), render.Tasks(st))
			})
		}),
	}
}
