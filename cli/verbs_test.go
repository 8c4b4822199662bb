package cli

import (
	"errors"
	"io"
	"testing"

	"github.com/spf13/cobra"

	"github.com/conch-sh/conch/state"
)

// parse runs a verb's command on args with its run function caught: the
// error is what the words alone brought (nil when they parsed).
func parse(t *testing.T, cmd *cobra.Command, args ...string) error {
	t.Helper()
	if args == nil {
		args = []string{} // nil would have cobra read the test binary's own arguments
	}
	cmd.SetArgs(args)
	cmd.SetOut(io.Discard)
	cmd.SetErr(io.Discard)
	cmd.SilenceErrors, cmd.SilenceUsage = true, true
	return cmd.Execute()
}

// isUsage says whether err is a usage error (exit 2).
func isUsage(err error) bool { return errors.Is(err, state.ErrUsage) }

func testApp() *app {
	return &app{env: Env{Getenv: func(string) string { return "" }, Cwd: "/work/proj"}}
}
