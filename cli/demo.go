package cli

import (
	"github.com/spf13/cobra"
)

func (a *app) newDemo() *cobra.Command {
	var keep bool
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
	cmd.Flags().BoolVar(&keep, "keep", false, "keep the throwaway home and say where it is")
	cmd.RunE = run(func(cmd *cobra.Command, args []string) error { return a.demo(keep) })
	return cmd
}
