// Command mincobra is the yardstick of SPEC §10: the smallest cobra
// program, a root command and a version subcommand, nothing else. bench/run
// builds it beside conch and times both in the same run; conch's budgets are
// ratios of its median wall time.
package main

import (
	"fmt"
	"os"

	"github.com/spf13/cobra"
)

func main() {
	root := &cobra.Command{Use: "mincobra", SilenceUsage: true}
	root.AddCommand(&cobra.Command{
		Use:   "version",
		Short: "Print the version",
		Run:   func(cmd *cobra.Command, args []string) { fmt.Fprintln(cmd.OutOrStdout(), "mincobra 0") },
	})
	if err := root.Execute(); err != nil {
		os.Exit(1)
	}
}
