package cli

import (
	"bufio"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestIntegrationsNamePins: conch help integrations says, for each harness
// testdata/e2e/harnesses.txt pins (the versions cli/e2e drives), that it
// was tested against that very version, and names no other: a bumped pin
// with the help left behind fails here.
func TestIntegrationsNamePins(t *testing.T) {
	labels := map[string]string{
		"claude": "Claude Code", "codex": "Codex CLI", "copilot": "Copilot CLI",
		"opencode": "OpenCode", "pi": "Pi", "gemini": "Gemini CLI", "qwen": "Qwen Code",
	}
	f, err := os.Open(filepath.Join("..", "testdata", "e2e", "harnesses.txt"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	pins := 0
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		fields := strings.Fields(line)
		if len(fields) != 2 {
			t.Fatalf("harnesses.txt: %q is not \"name package@version\"", line)
		}
		label, ok := labels[fields[0]]
		if !ok {
			t.Fatalf("harnesses.txt pins %q, which this test has no name for", fields[0])
		}
		version := fields[1][strings.LastIndex(fields[1], "@")+1:]
		if want := "ested against " + label + " " + version; !strings.Contains(topicIntegrations, want) {
			t.Errorf("conch help integrations does not say %q (harnesses.txt pins %s)", "t"+want, fields[1])
		}
		pins++
	}
	if n := len(regexp.MustCompile(`ested against [A-Z]`).FindAllString(topicIntegrations, -1)); n != pins {
		t.Errorf("conch help integrations names a version tested against %d times, for %d pins", n, pins)
	}
}
