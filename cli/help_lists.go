package cli

import (
	"slices"
	"strings"

	"github.com/conch-sh/conch/harness"
)

// A help text that lists the harnesses says the list by a placeholder,
// {{Harnesses}}, and help puts the list in from harness.Adapters as it
// prints (sayNumbers, with the bounds): a harness added is in every such
// list. Prose about what one harness does stays prose.

// helpLists are the lists of harnesses the help texts say, worked out
// only when help prints.
func helpLists() []helpNumber {
	return []helpNumber{
		{"Harnesses", harnessTitles()},
		{"SessionVariables", sessionVariables()},
	}
}

// harnessTitles are the harnesses conch has adapters for, by their own
// names in alphabetical order: "Claude Code, Codex, … and Qwen Code".
func harnessTitles() string {
	var titles []string
	for _, a := range harness.Adapters {
		titles = append(titles, a.Title)
	}
	slices.Sort(titles)
	if len(titles) < 2 {
		return strings.Join(titles, "")
	}
	return strings.Join(titles[:len(titles)-1], ", ") + " and " + titles[len(titles)-1]
}

// sessionVariables are the Environment lines of the variables a harness
// sets in its shell to name its session (Capabilities.SessionEnv), in
// the order a command reads them, the names' column aligned.
func sessionVariables() string {
	var adapters []*harness.Adapter
	width := 0
	for _, a := range harness.Adapters {
		if a.Caps.SessionEnv != "" {
			adapters = append(adapters, a)
			width = max(width, len(a.Caps.SessionEnv))
		}
	}
	lines := make([]string, len(adapters))
	for i, a := range adapters {
		what := "the same"
		if i == 0 {
			what = "acts as the session's chat"
		}
		v := a.Caps.SessionEnv
		lines[i] = "  " + v + strings.Repeat(" ", width-len(v)+2) + a.Title + "'s session, in its shell: " + what
	}
	return strings.Join(lines, "\n")
}
