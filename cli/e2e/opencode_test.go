package e2e

// The real OpenCode (testdata/e2e/harnesses.txt), opencode run against the
// fake chat completions model, with conch's plugin installed by conch
// install opencode: each test checks behaviours of conch help
// integrations' OpenCode part, through conch's own commands and the
// requests the model received.

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestOpenCodeRun: one opencode run, start to end. The session is a chat
// (auto: OpenCode asks before no tool by default) that hears at its start
// who it is and what another chat in the folder does; the model's own
// conch commands act as its chat (CONCH_CHAT in its shell); a write is an
// edit step on its file; a message sent mid-turn reaches the model after
// the next tool; a web fetch taints the chat as outside; the reply ends
// with the last words, and the chat is stopped when opencode run ends.
func TestOpenCodeRun(t *testing.T) {
	m := newChatModel(t)
	var s *pluginSession
	m.script("PROMPT-OC",
		calls(call("bash", map[string]any{"command": "echo chat=$CONCH_CHAT && conch chats list", "description": "who am I"})),
		chatTurn{
			calls: []chatCall{call("write", map[string]any{"filePath": "notes.md", "content": "notes\n"})},
			do:    func() { s.conch("chat", "message", "c_2", "Leave notes.md short", "--chat", "c_1") },
		},
		calls(call("webfetch", map[string]any{"url": m.page, "format": "text"})),
		reply("Notes written."),
	)
	s = newPluginSession(t, "opencode", m)
	s.conch("chat", "new", "--title", "The other one", "--folder", s.dir)
	s.conch("step", "edit", "--file", filepath.Join(s.dir, "README"), "--chat", "c_1")

	r := s.run("PROMPT-OC: write the notes").ok(t)
	has(t, "opencode run's output", r.stdout, "Notes written.")

	reqs := m.requests("PROMPT-OC")
	if len(reqs) != 4 {
		t.Fatalf("the model was asked %d times, want 4", len(reqs))
	}
	has(t, "the first request", reqs[0].userText(), "conch: this session is chat c_2", "CONCH_CHAT=c_2", "“The other one” (chat c_1), changing README")
	has(t, "the bash result", reqs[1].lastToolResult(), "chat=c_2")
	has(t, "the write's result", reqs[2].lastToolResult(), "Leave notes.md short", "conch chat message c_1")

	c := s.chat("c_2")
	if got := get(c, "status"); got != "stopped" {
		t.Errorf("after opencode run the chat is %v, want stopped", got)
	}
	if got := get(c, "mode"); got != "auto" {
		t.Errorf("the chat's mode is %v, want auto", got)
	}
	if got := get(c, "last_reply", "text"); got != "Notes written." {
		t.Errorf("the reply's last words are %v, want “Notes written.”", got)
	}
	if got := get(c, "title"); got != "PROMPT-OC: write the notes" {
		t.Errorf("the chat's title is %v", got)
	}
	files, _ := get(c, "last_reply", "files").([]any)
	if len(files) != 1 || files[0] != filepath.Join(s.dir, "notes.md") {
		t.Errorf("the write is not the reply's change: files %v", files)
	}
	has(t, "the chat", s.conch("chat", "show", "c_2"), m.page)
	if _, err := os.Stat(filepath.Join(s.dir, "notes.md")); err != nil {
		t.Errorf("the write did not happen: %v", err)
	}
	if strings.Contains(r.stderr, "conch: warning") {
		t.Errorf("a hook warned:\n%s", r.stderr)
	}
}
