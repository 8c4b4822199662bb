package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestClaudeClaimGuard (issue 18): two chats in one folder; one claims
// src/auth.ts and works on. The real Claude Code session's Edit of that file
// is denied by its PreToolUse hook: the file is unchanged and the model
// read the reason. Its git stash, while the other works there, is stopped
// likewise ([guard] checkout = "deny"): the change it would have stashed
// is still in the work tree.
func TestClaudeClaimGuard(t *testing.T) {
	m := newMessagesAPI(t)
	e := newClaudeEnv(t, m)
	auth := filepath.Join(e.project, "src", "auth.ts")
	if err := os.MkdirAll(filepath.Dir(auth), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(auth, []byte("export const session = 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	readme, git := workInProgress(t, e.project)

	m.lane("").turns = []apiTurn{
		// Claude Code edits only a file it has read: without the guard
		// the Edit would happen.
		says(tool("Read", map[string]any{"file_path": auth})),
		says(tool("Edit", map[string]any{"file_path": auth, "old_string": "session = 1", "new_string": "session = 2"})),
		says(tool("Bash", map[string]any{"command": "git stash", "description": "stash the changes"})),
		says(text("I kept off the claimed file and left the checkout alone.")),
	}
	e.install()
	e.conchOut("chat", "new", "--title", "Fix the login", "--folder", e.project)
	e.conchOut("--chat", "c_1", "reply", "start", "--person")
	e.conchOut("--chat", "c_1", "claim", auth, "--reason", "rewriting the session code")
	if err := os.WriteFile(filepath.Join(e.conch, "config.toml"), []byte("[guard]\ncheckout = \"deny\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}

	e.run("Bump the session version in src/auth.ts, then stash your work").ok(t)

	if got, _ := os.ReadFile(auth); string(got) != "export const session = 1\n" {
		t.Errorf("the denied Edit happened: src/auth.ts is %q", got)
	}
	if got, _ := os.ReadFile(readme); !strings.Contains(string(got), "work in progress") {
		t.Errorf("the denied git stash ran: README is %q", got)
	}
	if list := git("stash", "list"); list != "" {
		t.Errorf("the denied git stash ran: %q", list)
	}
	reqs := m.mainRequests()
	if len(reqs) < 4 {
		t.Fatalf("%d requests to the model, want 4", len(reqs))
	}
	has(t, "what the model read after its Edit", reqs[2].allText(),
		"“Fix the login” (chat c_1) has claimed src/auth.ts until", "rewriting the session code", "conch chat message c_1")
	has(t, "what the model read after its git stash", reqs[3].allText(),
		"“Fix the login” (chat c_1) is working in this work tree: git stash would move the checkout under it.")
}

// TestClaudeGuardLinksAndTree (issue 24): one chat works in proj/fe and
// claims src/auth.ts; the real Claude Code session works in proj/be, in
// the same work tree. Its Edit of the claimed file through a link (lib ->
// src) is denied, the file unchanged; its git stash, wrapped in sh -c and
// a cd, is denied too ([guard] checkout = "deny"): the other chat's change
// is still in the work tree.
func TestClaudeGuardLinksAndTree(t *testing.T) {
	m := newMessagesAPI(t)
	e := newClaudeEnv(t, m)
	auth := filepath.Join(e.project, "src", "auth.ts")
	for _, d := range []string{filepath.Dir(auth), filepath.Join(e.project, "fe"), filepath.Join(e.project, "be")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(auth, []byte("export const session = 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(e.project, "src"), filepath.Join(e.project, "lib")); err != nil {
		t.Fatal(err)
	}
	readme, git := workInProgress(t, e.project)
	through := filepath.Join(e.project, "lib", "auth.ts")

	m.lane("").turns = []apiTurn{
		says(tool("Read", map[string]any{"file_path": through})),
		says(tool("Edit", map[string]any{"file_path": through, "old_string": "session = 1", "new_string": "session = 2"})),
		says(tool("Bash", map[string]any{"command": "sh -c 'cd .. && git stash'", "description": "stash the changes"})),
		says(text("I kept off the claimed file and left the work tree alone.")),
	}
	e.install()
	e.conchOut("chat", "new", "--title", "Fix the login", "--folder", filepath.Join(e.project, "fe"))
	e.conchOut("--chat", "c_1", "reply", "start", "--person")
	e.conchOut("--chat", "c_1", "claim", auth, "--reason", "rewriting the session code")
	if err := os.WriteFile(filepath.Join(e.conch, "config.toml"), []byte("[guard]\ncheckout = \"deny\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}

	cmd := e.command("Bump the session version in lib/auth.ts, then stash your work")
	cmd.Dir = filepath.Join(e.project, "be")
	e.wait(cmd).ok(t)

	if got, _ := os.ReadFile(auth); string(got) != "export const session = 1\n" {
		t.Errorf("the denied Edit through the link happened: src/auth.ts is %q", got)
	}
	if got, _ := os.ReadFile(readme); !strings.Contains(string(got), "work in progress") {
		t.Errorf("the denied git stash ran: README is %q", got)
	}
	if list := git("stash", "list"); list != "" {
		t.Errorf("the denied git stash ran: %q", list)
	}
	reqs := m.mainRequests()
	if len(reqs) < 4 {
		t.Fatalf("%d requests to the model, want 4", len(reqs))
	}
	has(t, "what the model read after its Edit through the link", reqs[2].allText(),
		"“Fix the login” (chat c_1) has claimed", "rewriting the session code")
	has(t, "what the model read after its wrapped git stash", reqs[3].allText(),
		"“Fix the login” (chat c_1) is working in this work tree: git stash would move the checkout under it.")
}
