package state

import (
	"strings"
	"testing"
)

// A session id is the harness's word: one that is not a plain name is
// hashed, so its link can never be written outside sessions/HARNESS/.
func TestSessionRelStaysInside(t *testing.T) {
	for _, id := range []string{"../../etc/passwd", "a/b", "..", ".hidden", "x\x00y", strings.Repeat("a", 200), "séance", ""} {
		rel := sessionRel("claude", id)
		name := strings.TrimPrefix(rel, "sessions/claude/")
		if name == rel || strings.ContainsAny(name, "/\\") || strings.HasPrefix(name, ".") || !strings.HasPrefix(name, "h-") {
			t.Errorf("session %q is kept at %q", id, rel)
		}
	}
	if got := sessionRel("codex", "019a-4f2e_b.1"); got != "sessions/codex/019a-4f2e_b.1.json" {
		t.Errorf("a plain id is kept at %q", got)
	}
}
