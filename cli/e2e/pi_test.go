package e2e

// The real Pi (testdata/e2e/harnesses.txt), pi -p against the fake chat
// completions model, with conch's extension installed by conch install
// pi: each test checks behaviours of conch help integrations' Pi part,
// through conch's own commands and the requests the model received.

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestPiRun: one pi -p, start to end. The session is a chat (auto: Pi
// asks before no tool) that hears at its start who it is and what another
// chat in the folder does; the model's own conch commands act as its chat
// (CONCH_CHAT in its shell); a write is an edit step on its file; a
// message sent mid-turn reaches the model after the next tool; the reply
// ends with the last words, and the chat is stopped when pi -p ends.
func TestPiRun(t *testing.T) {
	m := newChatModel(t)
	var s *pluginSession
	m.script("PROMPT-PI",
		calls(call("bash", map[string]any{"command": "echo chat=$CONCH_CHAT && conch chats list"})),
		chatTurn{
			calls: []chatCall{call("write", map[string]any{"path": "notes.md", "content": "notes\n"})},
			do:    func() { s.conch("chat", "message", "c_2", "Leave notes.md short", "--chat", "c_1") },
		},
		reply("Notes written."),
	)
	s = newPluginSession(t, "pi", m)
	s.conch("chat", "new", "--title", "The other one", "--folder", s.dir)
	s.conch("step", "edit", "--file", filepath.Join(s.dir, "README"), "--chat", "c_1")

	r := s.run("PROMPT-PI: write the notes").ok(t)
	has(t, "pi's output", r.stdout, "Notes written.")

	reqs := m.requests("PROMPT-PI")
	if len(reqs) != 3 {
		t.Fatalf("the model was asked %d times, want 3", len(reqs))
	}
	has(t, "the first request", reqs[0].userText(), "conch: this session is chat c_2", "CONCH_CHAT=c_2", "“The other one” (chat c_1), changing README")
	has(t, "the bash result", reqs[1].lastToolResult(), "chat=c_2")
	has(t, "the write's result", reqs[2].lastToolResult(), "Leave notes.md short", "conch chat message c_1")

	c := s.chat("c_2")
	if got := get(c, "status"); got != "stopped" {
		t.Errorf("after pi -p the chat is %v, want stopped", got)
	}
	if got := get(c, "mode"); got != "auto" {
		t.Errorf("the chat's mode is %v, want auto", got)
	}
	if got := get(c, "last_reply", "text"); got != "Notes written." {
		t.Errorf("the reply's last words are %v, want “Notes written.”", got)
	}
	if got := get(c, "title"); got != "PROMPT-PI: write the notes" {
		t.Errorf("the chat's title is %v", got)
	}
	files, _ := get(c, "last_reply", "files").([]any)
	if len(files) != 1 || files[0] != filepath.Join(s.dir, "notes.md") {
		t.Errorf("the write is not the reply's change: files %v", files)
	}
	if _, err := os.Stat(filepath.Join(s.dir, "notes.md")); err != nil {
		t.Errorf("the write did not happen: %v", err)
	}
	if strings.Contains(r.stderr, "conch: warning") {
		t.Errorf("a hook warned:\n%s", r.stderr)
	}
}
