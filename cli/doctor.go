package cli

import (
	"fmt"
	"strings"

	"github.com/conch-sh/conch/cli/install"

	"github.com/spf13/cobra"
)

// doctorOptions are conch doctor's words.
type doctorOptions struct {
	repair bool
}

// newDoctorCmd is conch doctor; runF, when not nil, gets the checked
// options instead of the run (for tests).
func (a *app) newDoctorCmd(runF func(*doctorOptions) error) *cobra.Command {
	o := &doctorOptions{}
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
	cmd.Flags().BoolVar(&o.repair, "repair", false, "quarantine, remove and rebuild what it can")
	cmd.RunE = run(func(cmd *cobra.Command, args []string) error {
		if runF != nil {
			return runF(o)
		}
		return a.runDoctor(o)
	})
	return cmd
}

// runDoctor checks the home (and mends it, with --repair) and says what it found.
func (a *app) runDoctor(o *doctorOptions) error {
	found, err := a.home.Doctor(o.repair)
	if err != nil {
		return err
	}
	var b strings.Builder
	open := 0
	for _, f := range found {
		fmt.Fprintf(&b, "%s: %s", f.Path, f.Problem)
		if f.Repaired != "" {
			fmt.Fprintf(&b, " → %s", f.Repaired)
		} else {
			open++
		}
		b.WriteString("\n")
	}
	if len(found) == 0 {
		b.WriteString("the home is healthy\n")
	}
	if w := install.ClaudeWarning(a.installEnv()); w != "" {
		// Not a problem of the home: said, not counted.
		fmt.Fprintf(a.env.Err, "conch: warning: %s\n", w)
	}
	if err := a.printer().Value(map[string]any{"findings": found, "open": open}, b.String()); err != nil {
		return err
	}
	if open > 0 {
		return fmt.Errorf("doctor found %d problem(s) (conch doctor --repair mends what it can)", open)
	}
	return nil
}
