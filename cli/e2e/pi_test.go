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
	"time"
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

// TestPiStop: a stop from another chat refuses the pending tool, so it
// does not run, and aborts the turn: the model is not asked again, and
// the chat is not left working. Pi goes on with the next prompt, which
// does not hear the stop again.
func TestPiStop(t *testing.T) {
	m := newChatModel(t)
	var s *pluginSession
	m.script("PROMPT-PI",
		calls(call("bash", map[string]any{"command": "echo one"})),
		chatTurn{
			calls: []chatCall{call("bash", map[string]any{"command": "touch made.txt"})},
			do: func() {
				s.conch("chat", "new", "--title", "Rewrite", "--mode", "auto", "--folder", s.dir)
				s.conch("chat", "stop", "c_1", "--reason", "I am rewriting this folder", "--chat", "c_2")
			},
		},
		reply("I went on after the tool."),
	)
	s = newPluginSession(t, "pi", m)
	r := s.run("PROMPT-PI: make a file")
	if _, err := os.Stat(filepath.Join(s.dir, "made.txt")); err == nil {
		t.Error("the refused tool ran: made.txt is there")
	}
	if n := len(m.requests("PROMPT-PI")); n != 2 {
		t.Errorf("the turn went on: %d requests, want 2\n%s\n%s", n, r.stdout, r.stderr)
	}
	show := s.conch("chat", "show", "c_1", "--json")
	has(t, "the chat", show, `"state": "stopped"`, `"outcome": "stopped"`)
	hasNot(t, "the chat", show, `"state": "working"`)
}

// TestPiStartReply: a message sent with --start-reply while Pi works, after
// its last tool, is delivered at the turn's end: Pi (in RPC mode, which
// stays for more prompts, as the TUI does) goes on with it as its next
// prompt, in a reply of the message's, which ends with its own last words.
func TestPiStartReply(t *testing.T) {
	m := newChatModel(t)
	var s *pluginSession
	m.script("PROMPT-PI",
		calls(call("bash", map[string]any{"command": "echo parsing"})),
		chatTurn{
			text: "Parser done.",
			do: func() {
				s.conch("chat", "new", "--title", "Docs", "--mode", "auto", "--folder", s.dir)
				s.conch("chat", "message", "c_1", "Please also update the README", "--start-reply", "--chat", "c_2")
			},
		},
		reply("README updated."),
	)
	s = newPluginSession(t, "pi", m)
	rpc := s.rpc()
	rpc.send(`{"type": "prompt", "message": "PROMPT-PI: fix the parser"}`)
	waitFor(t, "the message's reply ends with its last words", 60*time.Second, func() bool {
		return get(s.chatOr("c_1"), "last_reply", "text") == "README updated."
	})
	rpc.close()
	reqs := m.requests("PROMPT-PI")
	if len(reqs) != 3 {
		t.Fatalf("the model was asked %d times, want 3", len(reqs))
	}
	has(t, "the request after the turn's end", reqs[2].userText(), "Please also update the README")
	show := s.conch("chat", "show", "c_1", "--json")
	has(t, "the chat", show, `"text": "README updated."`, `"unwatched": true`, `"replies": 2`)
}

// TestPiPrintStartReplyWaits: pi -p leaves when its prompt is done, so a
// --start-reply message sent during it is not sent as a prompt it would
// never answer: it waits, and the session's next prompt hears it.
func TestPiPrintStartReplyWaits(t *testing.T) {
	m := newChatModel(t)
	var s *pluginSession
	m.script("PROMPT-PI",
		chatTurn{
			text: "Parser done.",
			do: func() {
				s.conch("chat", "new", "--title", "Docs", "--mode", "auto", "--folder", s.dir)
				s.conch("chat", "message", "c_1", "Please also update the README", "--start-reply", "--chat", "c_2")
			},
		},
		reply("README updated."),
	)
	s = newPluginSession(t, "pi", m)
	s.run("PROMPT-PI: fix the parser").ok(t)
	if n := len(m.requests("PROMPT-PI")); n != 1 {
		t.Fatalf("the model was asked %d times, want 1", n)
	}
	s.run("Go on", "--continue").ok(t)
	reqs := m.requests("PROMPT-PI")
	if len(reqs) != 2 {
		t.Fatalf("the model was asked %d times, want 2", len(reqs))
	}
	has(t, "the next prompt's request", reqs[1].userText(), "Please also update the README")
}

// TestPiPrintWaitFinished: a wait on a pi -p turn ends with the turn's own
// end: finished, with its last words, never "stopped" by the session's end
// or the process leaving right after it.
func TestPiPrintWaitFinished(t *testing.T) {
	m := newChatModel(t)
	var s *pluginSession
	m.script("PROMPT-PI", chatTurn{
		text: "Parser done.",
		do:   func() { s.conch("wait", "chat", "c_2", "--chat", "c_1") },
	})
	s = newPluginSession(t, "pi", m)
	s.conch("chat", "new", "--title", "Waiter", "--mode", "auto", "--folder", s.dir)
	s.run("PROMPT-PI: fix the parser").ok(t)
	notes := s.conch("notes", "--chat", "c_1")
	has(t, "the waiter's notes", notes, "finished its reply", "Parser done.")
	hasNot(t, "the waiter's notes", notes, "was stopped before its reply finished")
	if got := get(s.chat("c_2"), "last_reply", "outcome"); got != "finished" {
		t.Errorf("the turn's reply ended %v, want finished", got)
	}
}

// TestPiFailure: an API error ends the turn: the reply ends failed, with
// the error as its last words, never left working.
func TestPiFailure(t *testing.T) {
	m := newChatModel(t)
	m.script("PROMPT-PI", failWith(400))
	s := newPluginSession(t, "pi", m)
	s.run("PROMPT-PI: fix the parser")
	show := s.conch("chat", "show", "c_1", "--json")
	has(t, "the chat after the API error", show, `"outcome": "failed"`, "refused the request")
	hasNot(t, "the chat", show, `"state": "working"`)
}
