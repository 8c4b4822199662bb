package cli

import (
	"errors"

	"github.com/spf13/cobra"

	"github.com/conch-sh/conch/render"
)

func (a *app) newDoctor() *cobra.Command {
	var repair bool
	cmd := &cobra.Command{
		Use:   "doctor [--repair]",
		Short: "Check the home: permissions, unreadable or torn records, leftover temporary files",
		Long: `Check the home: folder and file permissions (0700 and 0600), records that
do not parse (torn or corrupt), and temporary files left over by a writer
that stopped. --repair quarantines what cannot be read (into
CONCH_HOME/quarantine), removes leftover temporary files, sets permissions
and rebuilds the index from the chat records, and says what it did.

Exit codes: 0 nothing wrong (or all repaired), 1 problems found.`,
		Args:        exactArgs(0, "no arguments"),
		Annotations: access(accessWrite),
	}
	cmd.Flags().BoolVar(&repair, "repair", false, "quarantine, remove and rebuild what it can")
	cmd.RunE = run(func(cmd *cobra.Command, args []string) error {
		found, err := a.home.Doctor(repair)
		if err != nil {
			return err
		}
		view := render.DoctorView(found)
		if w := a.claudeWarning(); w != "" {
			// Not a problem of the home: said, not counted.
			a.printer().Warn("%s", w)
		}
		if err := a.printer().Value(view, render.Doctor(found)); err != nil {
			return err
		}
		if view.Open > 0 {
			return errors.New(render.DoctorOpen(view.Open))
		}
		return nil
	})
	return cmd
}
