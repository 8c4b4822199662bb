package cli

import (
	"runtime/debug"

	"github.com/spf13/cobra"

	"github.com/conch-sh/conch/render"
)

// Version is conch's version; a release build sets it with -ldflags.
var Version = "0.1.0-dev"

func (a *app) newVersion() *cobra.Command {
	return &cobra.Command{
		Use:         "version",
		Short:       "Print conch's version",
		Args:        exactArgs(0, "no arguments"),
		Annotations: access(accessNone),
		RunE: run(func(cmd *cobra.Command, args []string) error {
			v := Version
			if info, ok := debug.ReadBuildInfo(); ok && info.Main.Version != "" && info.Main.Version != "(devel)" {
				v = info.Main.Version
			}
			return a.printer().Value(render.VersionJSON{Version: v}, render.Version(v))
		}),
	}
}
