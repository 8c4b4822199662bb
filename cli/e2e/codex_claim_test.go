package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
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
	for _, want := range []string{"“Fix the login” (chat c_1) is working in this work tree: git stash would move the checkout under it.", "The person is to decide"} {
		if !strings.Contains(out, want) {
			t.Errorf("the denied tool's output lacks %q:\n%s", want, out)
		}
	}
}

// TestCodexGuardWorkTree (issue 24): one chat works in dir/fe; the real
// Codex works in dir/be, another folder of the same work tree. Its git
// stash, wrapped in bash -lc and a cd, is denied: the other chat's change
// is still in the work tree, and the model read why. (Codex offers its
// apply_patch tool only to models its catalog knows, which the fake model
// is not: an apply_patch through a link is held by threat_claim_links.)
func TestCodexGuardWorkTree(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git on this machine")
	}
	s := newCodex(t, func(r *modelRequest, n int) turn {
		if n == 0 {
			return turn{shell("call_1", "bash -lc 'cd .. && git stash'")}
		}
		return turn{say("I left the work tree alone.")}
	})
	be := filepath.Join(s.dir, "be")
	for _, d := range []string{filepath.Join(s.dir, "fe"), be} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	readme, git := workInProgress(t, s.dir)
	s.install()
	s.conch("chat", "new", "--title", "Fix the login", "--folder", filepath.Join(s.dir, "fe"))
	s.conch("--chat", "c_1", "reply", "start", "--person")

	r := s.exec("Stash your work", bypass, "--cd", be)
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
	if out, _ := reqs[1].outputOf("call_1"); !strings.Contains(out, "“Fix the login” (chat c_1) is working in this work tree: git stash would move the checkout under it.") {
		t.Errorf("the denied stash's output does not say why:\n%s", out)
	}
}
