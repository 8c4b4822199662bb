package render

import (
	"fmt"
	"strings"

	"github.com/conch-sh/conch/state"
)

// Doctor is what conch doctor says: a line a finding, with what --repair
// did about it, or that the home is healthy.
func Doctor(found []state.Finding) string {
	if len(found) == 0 {
		return "the home is healthy\n"
	}
	var b strings.Builder
	for _, f := range found {
		fmt.Fprintf(&b, "%s: %s", f.Path, f.Problem)
		if f.Repaired != "" {
			fmt.Fprintf(&b, " → %s", f.Repaired)
		}
		b.WriteString("\n")
	}
	return b.String()
}

// DoctorOpen is doctor's failure: the problems it left open.
func DoctorOpen(open int) string {
	return fmt.Sprintf("doctor found %d problem(s) (conch doctor --repair mends what it can)", open)
}
