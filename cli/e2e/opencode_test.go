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
	"time"
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

// TestOpenCodeStop: a stop from another chat refuses the pending tool, so
// it does not run, and aborts the turn: the model is not asked again, and
// the reply ends as stopped, never left working.
func TestOpenCodeStop(t *testing.T) {
	m := newChatModel(t)
	var s *pluginSession
	m.script("PROMPT-OC",
		calls(call("bash", map[string]any{"command": "echo one", "description": "one"})),
		chatTurn{
			calls: []chatCall{call("bash", map[string]any{"command": "touch made.txt", "description": "make a file"})},
			do: func() {
				s.conch("chat", "new", "--title", "Rewrite", "--mode", "auto", "--folder", s.dir)
				s.conch("chat", "stop", "c_1", "--reason", "I am rewriting this folder", "--chat", "c_2")
			},
		},
		reply("I went on after the tool."),
	)
	s = newPluginSession(t, "opencode", m)
	r := s.run("PROMPT-OC: make a file")
	if _, err := os.Stat(filepath.Join(s.dir, "made.txt")); err == nil {
		t.Error("the refused tool ran: made.txt is there")
	}
	if n := len(m.requests("PROMPT-OC")); n != 2 {
		t.Errorf("the turn went on: %d requests, want 2\n%s\n%s", n, r.stdout, r.stderr)
	}
	show := s.conch("chat", "show", "c_1", "--json")
	has(t, "the chat", show, `"outcome": "stopped"`)
	hasNot(t, "the chat", show, `"state": "working"`)
}

// TestOpenCodeSubagent: a task (OpenCode's subagent, a child session) is a
// child chat of the session's, with its own CONCH_CHAT in its shell; its
// reply ends with its last words, and it leaves the person's list when it
// is done. An API error then ends the session's turn: the reply ends
// failed, never left working.
func TestOpenCodeSubagent(t *testing.T) {
	m := newChatModel(t)
	m.script("PROMPT-OC",
		calls(call("task", map[string]any{"description": "Check the lexer", "prompt": "SUB-PROMPT: check the lexer", "subagent_type": "general"})),
		failWith(400),
	)
	m.script("SUB-PROMPT",
		calls(call("bash", map[string]any{"command": "echo child=$CONCH_CHAT", "description": "who am I"})),
		reply("The lexer is fine."),
	)
	s := newPluginSession(t, "opencode", m)
	s.run("PROMPT-OC: check everything")

	sub := m.requests("SUB-PROMPT")
	if len(sub) != 2 {
		t.Fatalf("the subagent asked the model %d times, want 2", len(sub))
	}
	has(t, "the subagent's bash", sub[1].lastToolResult(), "child=c_2")
	child := s.chat("c_2")
	if get(child, "parent") != "c_1" {
		t.Errorf("the subagent's chat is not the session's child:\n%v", child)
	}
	if got := get(child, "last_reply", "text"); got != "The lexer is fine." {
		t.Errorf("the subagent's last words are %v", got)
	}
	if get(child, "archived") != true {
		t.Errorf("the subagent's chat is not archived when done:\n%v", child)
	}
	show := s.conch("chat", "show", "c_1", "--json")
	has(t, "the chat after the API error", show, `"outcome": "failed"`, "refused the request")
	hasNot(t, "the chat", show, `"state": "working"`)
}

// TestOpenCodeServeStartReply: where OpenCode stays (opencode serve, which
// the TUI runs on), a message sent with --start-reply while it works, after
// its last tool, is sent by the plugin as the session's next prompt at the
// turn's end: OpenCode goes on with it, in a reply of the message's, which
// ends with its own last words.
func TestOpenCodeServeStartReply(t *testing.T) {
	m := newChatModel(t)
	var s *pluginSession
	m.script("PROMPT-OC",
		calls(call("bash", map[string]any{"command": "echo parsing", "description": "parse"})),
		chatTurn{
			text: "Parser done.",
			do: func() {
				s.conch("chat", "new", "--title", "Docs", "--mode", "auto", "--folder", s.dir)
				s.conch("chat", "message", "c_1", "Please also update the README", "--start-reply", "--chat", "c_2")
			},
		},
		reply("README updated."),
	)
	s = newPluginSession(t, "opencode", m)
	srv := s.serve()
	id := srv.post(t, "/session", `{}`)["id"]
	if id == nil {
		t.Fatal("opencode serve made no session")
	}
	srv.post(t, "/session/"+id.(string)+"/prompt_async", `{"parts": [{"type": "text", "text": "PROMPT-OC: fix the parser"}]}`)
	waitFor(t, "the message's reply ends with its last words", 90*time.Second, func() bool {
		return get(s.chatOr("c_1"), "last_reply", "text") == "README updated."
	})
	reqs := m.requests("PROMPT-OC")
	if len(reqs) != 3 {
		t.Fatalf("the model was asked %d times, want 3", len(reqs))
	}
	has(t, "the request after the turn's end", reqs[2].userText(), "Please also update the README")
	has(t, "the chat", s.conch("chat", "show", "c_1", "--json"), `"unwatched": true`, `"replies": 2`)
}
