package cli

import (
	"errors"

	"github.com/spf13/cobra"

	"github.com/conch-sh/conch/render"
	"github.com/conch-sh/conch/state"
)

func (a *app) newStep() *cobra.Command {
	var (
		files []string
		tool  string
		pid   int
	)
	cmd := &cobra.Command{
		Use:   "step FAMILY [--file PATH]... [--tool NAME]",
		Short: "As a chat: a step of that family begins",
		Long: `As a chat: a step of that family begins. Families: edit (editing files; a
commit counts), run (running a command), read, search, browse, talk, wait,
other. --file names what the step works on; the files of an edit step are
added to the reply's changed files. A step with no reply running starts one
(not the person's).

Exit codes: 0 done, 2 unknown family or no chat acting, 3 no such chat,
5 another chat stopped this reply: end it now.`,
		Args:        exactArgs(1, "a family"),
		Annotations: access(accessWrite),
	}
	cmd.Flags().StringArrayVar(&files, "file", nil, "a file the step works on (repeatable)")
	cmd.Flags().StringVar(&tool, "tool", "", "the harness's name for the tool")
	cmd.Flags().IntVar(&pid, "pid", 0, "the harness process, should the step start a reply")
	cmd.RunE = run(func(cmd *cobra.Command, args []string) error {
		if err := checkArgs(append(files, tool)); err != nil {
			return err
		}
		in := state.StepIn{Family: args[0], Tool: tool, PID: pid, PPID: a.env.PPID}
		for _, f := range files {
			in.Files = append(in.Files, a.absPath(f))
		}
		var v *state.Verdict
		err := a.update(func(tx *state.Tx) error {
			if _, err := tx.Step(a.actor(), in); err != nil {
				return err
			}
			if in.Family != "edit" || len(in.Files) == 0 {
				return nil
			}
			// A step refuses nothing (the harness's hook does), but it
			// says the claim it steps onto.
			var err error
			v, err = tx.Guard(a.actor(), state.GuardIn{Files: in.Files})
			return err
		})
		if err == nil && v != nil {
			_ = a.printer().Value(render.GuardJSON{Guard: v.Decision, Reason: render.GuardReason(v)}, render.GuardStep(v)+"\n")
		}
		return a.stopped(err)
	})
	return cmd
}

// stopped says a stop notice on standard output, for the harness to read,
// and passes the error on for its exit code 5.
func (a *app) stopped(err error) error {
	var se *state.StoppedError
	if errors.As(err, &se) {
		p := a.printer()
		_ = p.Value(render.StopLineJSON{Stop: render.StopLine(se.Notice)}, render.StopLine(se.Notice)+"\n")
	}
	return err
}
