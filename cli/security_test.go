package cli

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
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

// TestReliabilityTopicNamesItsTests holds conch help reliability to the
// tests it names: each is a test function of the repository.
func TestReliabilityTopicNamesItsTests(t *testing.T) {
	names := regexp.MustCompile(`\bTest[A-Z][A-Za-z]+`).FindAllString(topicReliability, -1)
	if len(names) < 8 {
		t.Fatalf("conch help reliability names %d tests", len(names))
	}
	var src strings.Builder
	for _, dir := range []string{".", "../state", "../state/store"} {
		files, _ := filepath.Glob(filepath.Join(dir, "*_test.go"))
		for _, f := range files {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			src.Write(data)
		}
	}
	for _, n := range names {
		if !strings.Contains(src.String(), "func "+n+"(") {
			t.Errorf("conch help reliability names %s, which is no test", n)
		}
	}
}
