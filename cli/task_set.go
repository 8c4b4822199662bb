package cli

import (
	"io"

	"github.com/spf13/cobra"

	"github.com/conch-sh/conch/state"
)

// taskSetOptions are conch task set's words.
type taskSetOptions struct {
	id                     string
	st, result, resultFile string
	resultSet              bool // --result given

	Home  homeRW
	Actor state.Actor
	In    io.Reader // standard input, for a text given as -
	Cwd   string
}

// newTaskSetCmd is conch task set; runF, when not nil, gets the checked
// options instead of the run (for tests).
func newTaskSetCmd(a *app, runF func(*taskSetOptions) error) *cobra.Command {
	o := &taskSetOptions{}
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
	cmd.Flags().StringVar(&o.st, "state", "", "the task's state")
	cmd.Flags().StringVar(&o.result, "result", "", "its result, or why it did not finish")
	cmd.Flags().StringVar(&o.resultFile, "result-file", "", "read the result from a file (- for standard input)")
	_ = cmd.MarkFlagRequired("state")
	cmd.RunE = run(func(cmd *cobra.Command, args []string) error {
		o.id, o.resultSet = args[0], cmd.Flags().Changed("result")
		if runF != nil {
			return runF(o)
		}
		o.Home, o.Actor, o.In, o.Cwd = a.homeRW(), a.actor(), a.env.In, a.env.Cwd
		return runTaskSet(o)
	})
	return cmd
}

// runTaskSet sets it.
func runTaskSet(o *taskSetOptions) error {
	var res *string
	if o.resultSet || o.resultFile != "" {
		r, err := readText(o.In, o.Cwd, o.result, o.resultFile, o.resultSet, "the result")
		if err != nil {
			return err
		}
		res = &r
	}
	return o.Home.updateChat(o.Actor, func(tx *state.Tx) (*state.Chat, error) {
		return tx.Tasks().Set(o.Actor, o.id, o.st, res)
	})
}
