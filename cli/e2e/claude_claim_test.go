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
		"“Fix the login” (chat c_1) is working in this folder: git stash would move the checkout under it.")
}
