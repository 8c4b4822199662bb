package cli

import (
	"os"
	"path/filepath"
	"regexp"
	"testing"
)

// TestSecurityTopicNamesEveryThreatTest holds conch help security to the
// tests: every row names a threat script that exists, and every threat
// script is named by a row.
func TestSecurityTopicNamesEveryThreatTest(t *testing.T) {
	text := topicSecurity
	named := map[string]bool{}
	for _, m := range regexp.MustCompile(`threat_[a-z_]+\.txtar`).FindAllString(string(text), -1) {
		named[m] = true
		if _, err := os.Stat(filepath.Join("..", "testdata", "script", m)); err != nil {
			t.Errorf("conch help security names %s, which does not exist", m)
		}
	}
	files, _ := filepath.Glob(filepath.Join("..", "testdata", "script", "threat_*.txtar"))
	for _, f := range files {
		if !named[filepath.Base(f)] {
			t.Errorf("%s is not named by any row of conch help security", filepath.Base(f))
		}
	}
	if len(named) < 13 {
		t.Errorf("conch help security names %d threat tests; the threat model has 13 rows", len(named))
	}
}
