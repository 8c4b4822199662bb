package cli

import (
	"runtime/debug"

	"github.com/spf13/cobra"

	"github.com/conch-sh/conch/render"
)

// Version is conch's version; a release build sets it with -ldflags.
var Version = "0.1.0-dev"

// versionOptions are conch version's words.
type versionOptions struct {
	IO *render.Printer
}

// newVersionCmd is conch version; runF, when not nil, gets the checked
// options instead of the run (for tests).
func newVersionCmd(a *app, runF func(*versionOptions) error) *cobra.Command {
	o := &versionOptions{}
	return &cobra.Command{
		Use:         "version",
		Short:       "Print conch's version",
		Args:        exactArgs(0, "no arguments"),
		Annotations: access(accessNone),
		RunE: run(func(cmd *cobra.Command, args []string) error {
			if runF != nil {
				return runF(o)
			}
			o.IO = a.printer()
			return runVersion(o)
		}),
	}
}

// runVersion prints it.
func runVersion(o *versionOptions) error {
	v := Version
	if info, ok := debug.ReadBuildInfo(); ok && info.Main.Version != "" && info.Main.Version != "(devel)" {
		v = info.Main.Version
	}
	return o.IO.Value(render.VersionJSON{Version: v}, render.Version(v))
}
