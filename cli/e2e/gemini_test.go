package e2e

// The real Gemini CLI (testdata/e2e/harnesses.txt), driven against the
// fake Gemini model with conch's hooks installed by conch install gemini:
// each test checks one behaviour of conch help integrations' Gemini CLI
// part, through conch's own commands and the requests the model received.

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func doneRun(t *testing.T, what string, ch <-chan execResult) execResult {
	t.Helper()
	select {
	case r := <-ch:
		if r.err != nil {
			t.Fatalf("%s: %v\n%s\n%s", what, r.err, r.stdout, r.stderr)
		}
		return r
	case <-time.After(150 * time.Second):
		t.Fatalf("%s did not end", what)
	}
	return execResult{}
}

// TestGeminiRun: one gemini -p, start to end. The session is a chat in
// its folder, in auto mode (--approval-mode yolo); each tool call is a
// step (the file written is the reply's); the model's own conch commands
// act as its chat (conch put CONCH_CHAT in them); a web fetch taints the
// chat as outside; the reply ends with its last words; the session's end
// stops the chat.
func TestGeminiRun(t *testing.T) {
	s := newGemini(t, func(r *geminiRequest, n int) gturn {
		switch n {
		case 0:
			return gturn{gsay("Writing."), gcall("write_file", map[string]any{"file_path": "notes.md", "content": "notes\n"}), gshell("conch chat show --json")}
		case 1:
			return gturn{gcall("web_fetch", map[string]any{"prompt": "Summarize https://example.com/flock"})}
		}
		return gturn{gsay("Notes written.")}
	})
	s.install()
	r := s.run("Write the notes")
	if r.err != nil {
		t.Fatalf("gemini: %v\n%s\n%s", r.err, r.stdout, r.stderr)
	}
	if strings.Contains(r.stderr, "conch: warning") || strings.Contains(r.stderr, "Hook(s) [") {
		t.Errorf("a hook went wrong:\n%s", r.stderr)
	}
	list := s.chats()
	if len(list) != 1 {
		t.Fatalf("chats %v, want one", list)
	}
	c := s.chat("c_1")
	for path, want := range map[string]any{"status": "stopped", "mode": "auto", "folder": s.dir} {
		if got := get(c, path); got != want {
			t.Errorf("chat %s %v, want %v", path, got, want)
		}
	}
	if got := get(c, "last_reply", "text"); got != "Writing.  \nNotes written." {
		t.Errorf("last words %q", got)
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
	out, _ := reqs[1].responseOf("run_shell_command")
	if !strings.Contains(out, `\"id\": \"c_1\"`) {
		t.Errorf("the model's conch chat show did not act as its chat:\n%s", out)
	}
	if shown := s.conch("chat", "show", "c_1"); !strings.Contains(shown, "https://example.com/flock") {
		t.Errorf("the web fetch did not taint the chat:\n%s", shown)
	}
}

// TestGeminiStop: a stop from another chat keeps the pending tool from
// running and ends the turn ({"continue": false} at BeforeTool); the
// chat's reply ends as stopped.
func TestGeminiStop(t *testing.T) {
	release := make(chan struct{})
	s := newGemini(t, func(r *geminiRequest, n int) gturn {
		if n == 0 {
			<-release
			return gturn{gshell("touch made.txt")}
		}
		return gturn{gsay("I went on after the tool.")}
	})
	s.install()
	run := s.start("Make a file")
	waitFor(t, "the chat's reply working", 60*time.Second, func() bool {
		c := s.chatOr("c_1")
		return c != nil && get(c, "state") == "working"
	})
	s.conch("chat", "new", "--title", "Rewrite", "--mode", "auto")
	s.conch("chat", "stop", "c_1", "--reason", "I am rewriting this folder", "--chat", "c_2")
	close(release)
	r := doneRun(t, "gemini", run)
	if _, err := os.Stat(filepath.Join(s.dir, "made.txt")); err == nil {
		t.Error("the stopped reply's tool ran: made.txt is there")
	}
	if n := len(s.model.mainRequests()); n != 1 {
		t.Errorf("the turn went on: %d model requests, want 1", n)
	}
	if !strings.Contains(r.stdout+r.stderr, "I am rewriting this folder") {
		t.Errorf("the person was not told why the turn ended:\n%s\n%s", r.stdout, r.stderr)
	}
	if got := get(s.chat("c_1"), "last_reply", "outcome"); got != "stopped" {
		t.Errorf("the reply ended %v, want stopped", got)
	}
}

// TestGeminiStartReply: a --start-reply message that waits for the chat
// is delivered at its turn's end (AfterAgent's block: Gemini CLI goes on
// with it as a new prompt), in a reply of the message's; the first reply
// ended with its own last words.
func TestGeminiStartReply(t *testing.T) {
	hold := make(chan struct{})
	s := newGemini(t, func(r *geminiRequest, n int) gturn {
		switch n {
		case 0:
			return gturn{gshell("echo parsing")}
		case 1:
			<-hold
			return gturn{gsay("Parser done.")}
		}
		return gturn{gsay("README updated.")}
	})
	s.install()
	run := s.start("Work on the parser")
	waitFor(t, "the model's second request", 60*time.Second, func() bool { return len(s.model.mainRequests()) == 2 })
	s.conch("chat", "new", "--title", "Docs", "--mode", "auto")
	s.conch("chat", "message", "c_1", "--start-reply", "Please also update the README", "--chat", "c_2")
	close(hold)
	doneRun(t, "gemini", run)
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
	out := s.conch("wait", "chat", "c_1", "--timeout", "1s")
	if !strings.Contains(out, "README updated.") {
		t.Errorf("a wait on the chat reads %q", out)
	}
}

// TestGeminiShellConchAfter: a shell command of the model's that runs
// conch after another command (after ; && || | or a new line, in a
// subshell, through env), even one whose other commands say CONCH_CHAT or
// --chat, acts as the session's chat, as one that starts with conch does:
// conch put CONCH_CHAT in it (BeforeTool's tool_input), read from the
// line's own words.
func TestGeminiShellConchAfter(t *testing.T) {
	commands := []string{
		"echo x; conch chat show --json",
		"true && conch chat show --json",
		"false || conch chat show --json",
		"echo x | conch chat show --json",
		"echo x\nconch chat show --json",
		"cd . && (conch chat show --json)",
		"echo \"$CONCH_CHAT\"; conch chat show --json",
		"grep -c -- --chat /dev/null; conch chat show --json",
		"env TERM=dumb conch chat show --json",
	}
	s := newGemini(t, func(r *geminiRequest, n int) gturn {
		if n < len(commands) {
			return gturn{gshell(commands[n])}
		}
		return gturn{gsay("Shown.")}
	})
	s.install()
	r := s.run("Show the chat")
	if r.err != nil {
		t.Fatalf("gemini: %v\n%s\n%s", r.err, r.stdout, r.stderr)
	}
	reqs := s.model.mainRequests()
	if len(reqs) != len(commands)+1 {
		t.Fatalf("%d model requests, want %d", len(reqs), len(commands)+1)
	}
	for i, command := range commands {
		out, _ := reqs[i+1].responseOf("run_shell_command")
		if !strings.Contains(out, `\"id\": \"c_1\"`) {
			t.Errorf("%q did not act as the session's chat:\n%s", command, out)
		}
		if strings.Contains(out, "CONCH_CHAT") {
			t.Errorf("%q: the model reads conch's CONCH_CHAT in its command:\n%s", command, out)
		}
	}
}
