package cli

import (
	"github.com/spf13/cobra"
)

// demoOptions are conch demo's words.
type demoOptions struct {
	keep bool

	Env Env // the scenario runs conch commands in this world
}

// newDemoCmd is conch demo; runF, when not nil, gets the checked options
// instead of the run (for tests).
func newDemoCmd(a *app, runF func(*demoOptions) error) *cobra.Command {
	o := &demoOptions{}
	cmd := &cobra.Command{
		Use:   "demo [--keep]",
		Short: "Show what conch does: three chats in a throwaway home",
		Long: `Show what conch does: a scripted scenario of three chats in a throwaway
home (a temporary folder, removed afterwards unless --keep), with every
command it runs and what each chat hears.

Exit codes: 0 done, 1 the scenario failed.`,
		Args:        exactArgs(0, "no arguments"),
		Annotations: access(accessNone),
	}
	cmd.Flags().BoolVar(&o.keep, "keep", false, "keep the throwaway home and say where it is")
	cmd.RunE = run(func(cmd *cobra.Command, args []string) error {
		if runF != nil {
			return runF(o)
		}
		o.Env = a.env
		return runDemo(o)
	})
	return cmd
}

// runDemo plays the scenario.
func runDemo(o *demoOptions) error {
	return playDemo(o.Env, o.keep)
}
