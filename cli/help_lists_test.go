package cli

import (
	"bytes"
	"regexp"
	"strings"
	"testing"

	"github.com/conch-sh/conch/harness"
)

// TestHelpListsTheAdapters renders help as a person reads it: conch
// --help lists conch help integrations with every adapter's harness by
// its name, and under Environment the session variable of each adapter
// whose harness names its session in its shell, one line each, and no
// other.
func TestHelpListsTheAdapters(t *testing.T) {
	// Said from the adapters, never by hand.
	if !strings.Contains(rootLong, "{{SessionVariables}}") {
		t.Error("conch's help lists the session variables by hand: write {{SessionVariables}}")
	}
	for _, topic := range helpTopics() {
		if topic.Name() == "integrations" && !strings.Contains(topic.Short, "{{Harnesses}}") {
			t.Errorf("conch help integrations lists the harnesses by hand (%q): write {{Harnesses}}", topic.Short)
		}
	}
	var out, errb bytes.Buffer
	code := Main([]string{"--help"}, Env{In: strings.NewReader(""), Out: &out, Err: &errb, Getenv: func(string) string { return "" }})
	if code != ExitOK {
		t.Fatalf("conch --help: exit %d: %s", code, errb.String())
	}
	help := out.String()
	if strings.Contains(help, "{{") {
		t.Errorf("conch --help prints a placeholder:\n%s", help)
	}
	line := regexp.MustCompile(`(?m)^  conch integrations +Setting up (.*) to report to conch$`).FindStringSubmatch(help)
	if line == nil {
		t.Fatalf("conch --help has no integrations line:\n%s", help)
	}
	for _, a := range harness.Adapters {
		if !strings.Contains(line[1], a.Title) {
			t.Errorf("the integrations line %q does not name %s", line[1], a.Title)
		}
	}
	vars := regexp.MustCompile(`(?m)^  ([A-Z_]+) +(.+)'s session, in its shell: `).FindAllStringSubmatch(help, -1)
	var want [][2]string
	for _, a := range harness.Adapters {
		if a.Caps.SessionEnv != "" {
			want = append(want, [2]string{a.Caps.SessionEnv, a.Title})
		}
	}
	if len(vars) != len(want) {
		t.Fatalf("conch --help says %d session variables, want %d (%q):\n%s", len(vars), len(want), want, help)
	}
	for i, v := range vars {
		if v[1] != want[i][0] || v[2] != want[i][1] {
			t.Errorf("session variable %d: %s of %s, want %s of %s", i, v[1], v[2], want[i][0], want[i][1])
		}
	}
}
