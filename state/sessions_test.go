package state

import (
	"path/filepath"
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

// FuzzValidHarness: a name ValidHarness takes is one folder's name under
// sessions/, never a path that leaves it, and a name it refuses makes no
// link's path.
func FuzzValidHarness(f *testing.F) {
	for _, s := range []string{"claude", "qwen", "", "../x", "a/b", "Claude", "c_1", strings.Repeat("a", 33)} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if !ValidHarness(s) {
			return
		}
		rel := sessionRel(s, "k")
		if rel != "sessions/"+s+"/k.json" || filepath.Base(filepath.Dir(rel)) != s || strings.ContainsAny(s, "/\\.\x00 ") || len(s) > 32 {
			t.Errorf("ValidHarness(%q) takes a name that is not one folder's: %s", s, rel)
		}
	})
}
