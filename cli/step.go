package cli

import (
	"errors"

	"github.com/spf13/cobra"

	"github.com/conch-sh/conch/render"
	"github.com/conch-sh/conch/state"
)

// stepOptions are conch step's words.
type stepOptions struct {
	family string
	files  []string // as typed
	tool   string
	pid    int

	IO    *render.Printer
	Home  homeRW
	Actor state.Actor
	Cwd   string
	PPID  int // the parent of this command
}

// newStepCmd is conch step; runF, when not nil, gets the checked options
// instead of the run (for tests).
func newStepCmd(a *app, runF func(*stepOptions) error) *cobra.Command {
	o := &stepOptions{}
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
	cmd.Flags().StringArrayVar(&o.files, "file", nil, "a file the step works on (repeatable)")
	cmd.Flags().StringVar(&o.tool, "tool", "", "the harness's name for the tool")
	cmd.Flags().IntVar(&o.pid, "pid", 0, "the harness process, should the step start a reply")
	cmd.RunE = run(func(cmd *cobra.Command, args []string) error {
		if err := checkArgs(append(o.files, o.tool)); err != nil {
			return err
		}
		o.family = args[0]
		if runF != nil {
			return runF(o)
		}
		o.IO, o.Home, o.Actor, o.Cwd, o.PPID = a.printer(), a.homeRW(), a.actor(), a.env.Cwd, a.env.PPID
		return runStep(o)
	})
	return cmd
}

// runStep records the step, and says the claim an edit steps onto.
func runStep(o *stepOptions) error {
	in := state.StepIn{Family: o.family, Tool: o.tool, PID: o.pid, PPID: o.PPID}
	for _, f := range o.files {
		in.Files = append(in.Files, absPath(o.Cwd, f))
	}
	var v *state.Verdict
	o.Home.home.ReadAhead(o.Actor.ID) // the step reads its chat first
	err := o.Home.update(func(tx *state.Tx) error {
		if _, err := tx.Replies().Step(o.Actor, in); err != nil {
			return err
		}
		if in.Family != "edit" || len(in.Files) == 0 {
			return nil
		}
		// A step refuses nothing (the harness's hook does), but it
		// says the claim it steps onto.
		var err error
		v, err = tx.Claims().Guard(o.Actor, state.GuardIn{Files: in.Files})
		return err
	})
	if err == nil && v != nil {
		_ = o.IO.Value(render.GuardJSON{Guard: v.Decision, Reason: render.GuardReason(v)}, render.GuardStep(v)+"\n")
	}
	return stopped(o.IO, err)
}

// stopped says a stop notice on standard output, for the harness to read,
// and passes the error on for its exit code 5.
func stopped(p *render.Printer, err error) error {
	var se *state.StoppedError
	if errors.As(err, &se) {
		_ = p.Value(render.StopLineJSON{Stop: render.StopLine(se.Notice)}, render.StopLine(se.Notice)+"\n")
	}
	return err
}
