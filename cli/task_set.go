package cli

import (
	"github.com/spf13/cobra"

	"github.com/conch-sh/conch/state"
)

func (a *app) newTaskSet() *cobra.Command {
	var st, result, resultFile string
	cmd := &cobra.Command{
		Use:   "set ID --state S [--result TEXT | --result-file F]",
		Short: "Set a task's state and result",
		Long: `Set a task's state and result. States: running, waiting-room (waits for
capacity), waiting-ok (waits for the person's OK) are still going; done,
unverified, failed, stopped, interrupted have ended. A task's parent chat,
the task itself and the person may set it. Ending a task ends the waits on it.

Exit codes: 0 done, 2 bad state, 3 no such task.`,
		Args:        exactArgs(1, "one task id"),
		Annotations: access(accessWrite),
	}
	cmd.Flags().StringVar(&st, "state", "", "the task's state")
	cmd.Flags().StringVar(&result, "result", "", "its result, or why it did not finish")
	cmd.Flags().StringVar(&resultFile, "result-file", "", "read the result from a file (- for standard input)")
	_ = cmd.MarkFlagRequired("state")
	cmd.RunE = run(func(cmd *cobra.Command, args []string) error {
		var res *string
		if cmd.Flags().Changed("result") || resultFile != "" {
			r, err := a.readText(result, resultFile, cmd.Flags().Changed("result"), "the result")
			if err != nil {
				return err
			}
			res = &r
		}
		return a.updateChat(func(tx *state.Tx) (*state.Chat, error) {
			return tx.SetTask(a.actor(), args[0], st, res)
		})
	})
	return cmd
}
