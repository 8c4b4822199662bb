package e2e

// The real Qwen Code (testdata/e2e/harnesses.txt), driven against the fake
// chat completions model with conch's hooks installed by conch install
// qwen: each test checks one behaviour of conch help integrations' Qwen
// Code part.

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestQwenRun: one qwen -p, start to end. The session is a chat in its
// folder, in auto mode (--approval-mode yolo); each tool call is a step
// (the file written is the reply's); the model's own conch commands act
// as its chat (QWEN_CODE_SESSION_ID in its shell); a message sent
// mid-turn reaches the model with the next send of the tools' results; a
// web fetch taints the chat as outside; the reply ends with its last
// words.
func TestQwenRun(t *testing.T) {
	var s *qwenSession
	s = newQwen(t, func(r *ccRequest, n int) cturn {
		switch n {
		case 0:
			return cturn{csay("Writing."), ccall("call_1", "write_file", map[string]any{"file_path": filepath.Join(s.dir, "notes.md"), "content": "notes\n"}), ccall("call_2", "run_shell_command", map[string]any{"command": "conch chat show --json", "description": "me"})}
		case 1:
			s.conch("chat", "new", "--title", "Docs", "--mode", "auto")
			s.conch("chat", "message", "c_1", "FYI: I am on the docs", "--chat", "c_2")
			return cturn{ccall("call_3", "web_fetch", map[string]any{"url": "https://example.com/flock", "prompt": "Summarize"})}
		}
		return cturn{csay("Notes written.")}
	})
	s.install()
	r := s.run("Write the notes")
	if r.err != nil {
		t.Fatalf("qwen: %v\n%s\n%s", r.err, r.stdout, r.stderr)
	}
	if strings.Contains(r.stderr, "conch: warning") {
		t.Errorf("a hook went wrong:\n%s", r.stderr)
	}
	c := s.chat("c_1")
	for path, want := range map[string]any{"mode": "auto", "folder": s.dir, "title": "Write the notes"} {
		if got := get(c, path); got != want {
			t.Errorf("chat %s %v, want %v", path, got, want)
		}
	}
	if got := get(c, "last_reply", "text"); got != "Notes written." {
		t.Errorf("last words %q", got)
	}
	if got := get(c, "replies"); got != 1.0 {
		t.Errorf("%v replies, want 1: the sends of the tools' results are the same reply", got)
	}
	files, _ := get(c, "last_reply", "files").([]any)
	if len(files) != 1 || files[0] != filepath.Join(s.dir, "notes.md") {
		t.Errorf("the reply's files %v, want notes.md", files)
	}
	reqs := s.model.mainRequests()
	if len(reqs) != 3 {
		t.Fatalf("%d model requests, want 3", len(reqs))
	}
	if !strings.Contains(reqs[0].text(), "this session is chat c_1") {
		t.Errorf("the session did not hear which chat it is:\n%s", reqs[0].text())
	}
	if out, _ := reqs[1].resultOf("call_2"); !strings.Contains(out, `\"id\": \"c_1\"`) {
		t.Errorf("the model's conch chat show did not act as its chat:\n%s", out)
	}
	if !strings.Contains(reqs[2].text(), "FYI: I am on the docs") {
		t.Errorf("the message did not reach the model mid-turn:\n%s", reqs[2].text())
	}
	if shown := s.conch("chat", "show", "c_1"); !strings.Contains(shown, "https://example.com/flock") {
		t.Errorf("the web fetch did not taint the chat:\n%s", shown)
	}
}

// TestQwenStop: a stop from another chat keeps the pending tool from
// running (it is denied) and ends the turn at the next send of the tools'
// results; the reply is not left working.
func TestQwenStop(t *testing.T) {
	release := make(chan struct{})
	s := newQwen(t, func(r *ccRequest, n int) cturn {
		if n == 0 {
			<-release
			return cturn{ccall("call_1", "run_shell_command", map[string]any{"command": "touch made.txt", "description": "make"})}
		}
		return cturn{csay("I went on after the tool.")}
	})
	s.install()
	run := s.start("Make a file")
	waitFor(t, "the chat's reply working", 90*time.Second, func() bool {
		c := s.chatOr("c_1")
		return c != nil && get(c, "state") == "working"
	})
	s.conch("chat", "new", "--title", "Rewrite", "--mode", "auto")
	s.conch("chat", "stop", "c_1", "--reason", "I am rewriting this folder", "--chat", "c_2")
	close(release)
	doneRun(t, "qwen", run)
	if _, err := os.Stat(filepath.Join(s.dir, "made.txt")); err == nil {
		t.Error("the stopped reply's tool ran: made.txt is there")
	}
	if n := len(s.model.mainRequests()); n != 1 {
		t.Errorf("the turn went on: %d model requests, want 1", n)
	}
	c := s.chat("c_1")
	if got := get(c, "state"); got == "working" {
		t.Errorf("the stopped chat is left working")
	}
	if got := get(c, "last_reply", "outcome"); got != "stopped" {
		t.Errorf("the reply ended %v, want stopped", got)
	}
}

// TestQwenStartReply: a --start-reply message that waits for the chat is
// delivered at its turn's end (Stop's block: Qwen Code goes on with it),
// in a reply of the message's, which ends with its own words.
func TestQwenStartReply(t *testing.T) {
	hold := make(chan struct{})
	var s *qwenSession
	s = newQwen(t, func(r *ccRequest, n int) cturn {
		switch n {
		case 0:
			return cturn{ccall("call_1", "run_shell_command", map[string]any{"command": "echo parsing", "description": "parse"})}
		case 1:
			<-hold
			return cturn{csay("Parser done.")}
		}
		return cturn{csay("README updated.")}
	})
	s.install()
	run := s.start("Work on the parser")
	waitFor(t, "the model's second request", 90*time.Second, func() bool { return len(s.model.mainRequests()) == 2 })
	s.conch("chat", "new", "--title", "Docs", "--mode", "auto")
	s.conch("chat", "message", "c_1", "--start-reply", "Please also update the README", "--chat", "c_2")
	close(hold)
	doneRun(t, "qwen", run)
	reqs := s.model.mainRequests()
	if len(reqs) != 3 {
		t.Fatalf("%d model requests, want 3 (the message's reply)", len(reqs))
	}
	if !strings.Contains(reqs[2].text(), "Please also update the README") {
		t.Errorf("the message did not reach the model at the turn's end:\n%s", reqs[2].text())
	}
	c := s.chat("c_1")
	if got := get(c, "last_reply", "text"); got != "README updated." {
		t.Errorf("last words %v, want the message's reply's", got)
	}
	if got := get(c, "replies"); got != 2.0 {
		t.Errorf("%v replies, want 2 (the person's, the message's)", got)
	}
}
