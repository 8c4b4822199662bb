// Command mincobra is the floor the hook's figures are measured against
// (BenchmarkGuardPreToolUse): a cobra program that reads its input and
// says nothing, as small as a command-line tool in Go gets.
package main

import (
	"io"
	"os"

	"github.com/spf13/cobra"
)

func main() {
	root := &cobra.Command{
		Use: "mincobra",
		RunE: func(cmd *cobra.Command, args []string) error {
			_, err := io.Copy(io.Discard, os.Stdin)
			return err
		},
	}
	if root.Execute() != nil {
		os.Exit(1)
	}
}
