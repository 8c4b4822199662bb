package e2e

import (
	"encoding/json"
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

// TestCodexGuardLinksAndTree (issue 24): one chat works in dir/fe and
// claims src/lib.rs; the real Codex works in dir/be, the same work tree.
// Its apply_patch of the claimed file through a link (lib -> src) is
// denied and the file unchanged; its git stash wrapped in bash -lc and a
// cd is denied too: the other chat's change is still in the work tree.
func TestCodexGuardLinksAndTree(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git on this machine")
	}
	patch := "*** Begin Patch\n*** Update File: ../lib/lib.rs\n@@\n-pub fn foo() {}\n+pub fn bar() {}\n*** End Patch\n"
	s := newCodex(t, func(r *modelRequest, n int) turn {
		switch n {
		case 0:
			return turn{applyPatch(r, "call_1", patch)}
		case 1:
			return turn{shell("call_2", "bash -lc 'cd .. && git stash'")}
		}
		return turn{say("I kept off the claimed file and left the work tree alone.")}
	})
	src := filepath.Join(s.dir, "src", "lib.rs")
	be := filepath.Join(s.dir, "be")
	for _, d := range []string{filepath.Dir(src), filepath.Join(s.dir, "fe"), be} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(src, []byte("pub fn foo() {}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(s.dir, "src"), filepath.Join(s.dir, "lib")); err != nil {
		t.Fatal(err)
	}
	readme, git := workInProgress(t, s.dir)
	s.install()
	s.conch("chat", "new", "--title", "Fix the login", "--folder", filepath.Join(s.dir, "fe"))
	s.conch("--chat", "c_1", "reply", "start", "--person")
	s.conch("--chat", "c_1", "claim", src)

	r := s.exec("Rename foo to bar in lib/lib.rs, then stash your work", bypass, "--cd", be)
	if r.err != nil {
		t.Fatalf("codex exec: %v\n%s", r.err, r.stderr)
	}
	if got, _ := os.ReadFile(src); string(got) != "pub fn foo() {}\n" {
		t.Errorf("the denied apply_patch through the link happened: src/lib.rs is %q", got)
	}
	if list := git("stash", "list"); list != "" {
		t.Errorf("the denied git stash ran: %q", list)
	}
	if got, _ := os.ReadFile(readme); !strings.Contains(string(got), "work in progress") {
		t.Errorf("the denied git stash ran: README is %q", got)
	}
	reqs := s.model.mainRequests()
	if len(reqs) < 3 {
		t.Fatalf("the model was asked %d times, want 3", len(reqs))
	}
	if out, _ := reqs[1].outputOf("call_1"); !strings.Contains(out, "“Fix the login” (chat c_1) has claimed") {
		t.Errorf("the denied patch's output does not say the claim:\n%s", out)
	}
	if out, _ := reqs[2].outputOf("call_2"); !strings.Contains(out, "“Fix the login” (chat c_1) is working in this work tree: git stash would move the checkout under it.") {
		t.Errorf("the denied stash's output does not say why:\n%s", out)
	}
}

// applyPatch is a call of Codex's apply_patch tool, in the form the
// request offers it: a freeform custom tool, else a function.
func applyPatch(r *modelRequest, callID, patch string) map[string]any {
	tools, _ := r.Body["tools"].([]any)
	for _, tl := range tools {
		if m, _ := tl.(map[string]any); m["name"] == "apply_patch" && m["type"] == "custom" {
			return map[string]any{"type": "custom_tool_call", "name": "apply_patch", "input": patch, "call_id": callID, "status": "completed"}
		}
	}
	args, _ := json.Marshal(map[string]any{"input": patch})
	return map[string]any{"type": "function_call", "name": "apply_patch", "arguments": string(args), "call_id": callID, "status": "completed"}
}
