package render

import (
	"fmt"
	"strings"

	"github.com/conch-sh/conch/state"
)

// Tasks is `conch tasks` in words.
func Tasks(st *state.TaskStatus) string {
	var b strings.Builder
	c := st.Capacity
	limit := "no limit"
	if c.MaxRunning != nil {
		limit = fmt.Sprintf("at most %d at once", *c.MaxRunning)
	}
	fmt.Fprintf(&b, "Tasks: %s · %d running · %d waiting for room · %d waiting for the person's OK\n", limit, c.Running, c.WaitingRoom, c.WaitingOK)
	for _, t := range st.Tasks {
		line := fmt.Sprintf("- %s: %s", Named(t.Title, t.ID), t.State)
		if r := heldOr(t.Result, t.Withheld, t.ID, true); r != "" {
			line += " · " + Clean(r)
		}
		b.WriteString(line + "\n")
	}
	return b.String()
}
