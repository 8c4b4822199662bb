package e2e

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// TestCodexCheckoutGuard (issue 18): another chat works in the folder; the
// real Codex's git stash is denied by its PreToolUse hook (Codex 0.169 has
// no ask there: the default checkout = "ask" is a deny that says the person
// is to decide), the change is not stashed, and the model read why.
func TestCodexCheckoutGuard(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git on this machine")
	}
	s := newCodex(t, func(r *modelRequest, n int) turn {
		if n == 0 {
			return turn{shell("call_1", "git stash")}
		}
		return turn{say("I left the checkout alone.")}
	})
	readme, git := workInProgress(t, s.dir)
	s.install()
	s.conch("chat", "new", "--title", "Fix the login", "--folder", s.dir)
	s.conch("--chat", "c_1", "reply", "start", "--person")

	r := s.exec("Stash your work", bypass)
	if r.err != nil {
		t.Fatalf("codex exec: %v\n%s", r.err, r.stderr)
	}
	if list := git("stash", "list"); list != "" {
		t.Errorf("the denied git stash ran: %q", list)
	}
	if got, _ := os.ReadFile(readme); !strings.Contains(string(got), "work in progress") {
		t.Errorf("the denied git stash ran: README is %q", got)
	}
	reqs := s.model.mainRequests()
	if len(reqs) < 2 {
		t.Fatalf("the model was asked %d times, want 2", len(reqs))
	}
	out, _ := reqs[1].outputOf("call_1")
	for _, want := range []string{"“Fix the login” (chat c_1) is working in this folder: git stash would move the checkout under it.", "The person is to decide"} {
		if !strings.Contains(out, want) {
			t.Errorf("the denied tool's output lacks %q:\n%s", want, out)
		}
	}
}
