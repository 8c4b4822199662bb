package cli

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/conch-sh/conch/harness"
	"github.com/conch-sh/conch/harness/install"
	"github.com/conch-sh/conch/render"
)

// doctorOptions are conch doctor's words.
type doctorOptions struct {
	repair bool

	IO      *render.Printer
	Home    homeRW
	Install install.Env // where the harnesses' settings are, for their warnings
}

// newDoctorCmd is conch doctor; runF, when not nil, gets the checked
// options instead of the run (for tests).
func newDoctorCmd(a *app, runF func(*doctorOptions) error) *cobra.Command {
	o := &doctorOptions{}
	cmd := &cobra.Command{
		Use:   "doctor [--repair]",
		Short: "Check the home: permissions, unreadable or torn records, leftover temporary files",
		Long: `Check the home: folder and file permissions (0700 and 0600), records that
do not parse (torn or corrupt), and temporary files left over by a writer
that stopped. --repair quarantines what cannot be read (into
CONCH_HOME/quarantine), removes leftover temporary files, sets permissions
and rebuilds the index from the chat records, and says what it did. On
Windows, which has no such modes, permissions are not checked.

Exit codes: 0 nothing wrong (or all repaired), 1 problems found.`,
		Args:        exactArgs(0, "no arguments"),
		Annotations: access(accessWrite),
	}
	cmd.Flags().BoolVar(&o.repair, "repair", false, "quarantine, remove and rebuild what it can")
	cmd.RunE = run(func(cmd *cobra.Command, args []string) error {
		if runF != nil {
			return runF(o)
		}
		o.IO, o.Home, o.Install = a.printer(), a.homeRW(), installEnv(a)
		return runDoctor(o)
	})
	return cmd
}

// runDoctor checks the home (and mends it, with --repair) and says what it found.
func runDoctor(o *doctorOptions) error {
	if ns, ok := o.Home.home.Store().(BackendStore); ok {
		return doctorBackend(o, ns)
	}
	found, err := o.Home.home.Doctor(o.repair)
	if err != nil {
		return err
	}
	view := render.DoctorView(found)
	// Not a problem of the home: said, not counted.
	warnUncovered(o)
	if err := o.IO.Value(view, render.Doctor(found)); err != nil {
		return err
	}
	if view.Open > 0 {
		return errors.New(render.DoctorOpen(view.Open))
	}
	return nil
}

// doctorBackend checks a home on a backend: the server reached, the round
// trip, the home's stream as conch needs it. (Its records' shapes are the
// server's to keep whole; doctor's file checks are for a local home.)
func doctorBackend(o *doctorOptions, s BackendStore) error {
	h, err := s.Health()
	if err != nil {
		return err
	}
	var b strings.Builder
	fmt.Fprintf(&b, "backend %s home %s: reached, round trip %s; %s\n", s.URL(), s.Bucket(), h.RTT.Round(10*time.Microsecond), h.Summary)
	fmt.Fprintf(&b, "the link: %s, %s\n", map[bool]string{true: "authenticated", false: "not authenticated"}[h.Authenticated],
		map[bool]string{true: "encrypted (TLS)", false: "not encrypted (a server on this computer)"}[h.Encrypted])
	for _, p := range h.Problems {
		fmt.Fprintf(&b, "%s: %s\n", s.Where(""), p)
	}
	if len(h.Problems) == 0 {
		b.WriteString("the home is healthy\n")
	}
	warnUncovered(o)
	// doctor's own shape (findings, open), and the backend's figures.
	v := struct {
		render.DoctorJSON
		Backend string  `json:"backend"`
		Home    string  `json:"home"`
		RTTms   float64 `json:"rtt_ms"`
		Auth    bool    `json:"authenticated"`
		TLS     bool    `json:"encrypted"`
	}{render.DoctorJSON{Findings: []render.FindingJSON{}, Open: len(h.Problems)}, s.URL(), s.Bucket(), float64(h.RTT.Microseconds()) / 1000, h.Authenticated, h.Encrypted}
	for _, p := range h.Problems {
		v.Findings = append(v.Findings, render.FindingJSON{Path: s.Where(""), Problem: p})
	}
	if err := o.IO.Value(v, b.String()); err != nil {
		return err
	}
	if len(h.Problems) > 0 {
		return fmt.Errorf("doctor found %d problem(s) on the backend", len(h.Problems))
	}
	return nil
}

// warnUncovered warns, for each harness whose recipe can tell, where its
// sessions started here would run none of conch's hooks.
func warnUncovered(o *doctorOptions) {
	for _, h := range harness.Adapters {
		if h.Install == nil || h.Install.Check == nil {
			continue
		}
		if n := h.Install.Check(o.Install); n != nil {
			for _, w := range render.InstallNote(n) {
				o.IO.Warn("%s", w)
			}
		}
	}
}
