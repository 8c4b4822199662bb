package e2e

// The real GitHub Copilot CLI (testdata/e2e/harnesses.txt), driven with
// copilot -p against the fake model, conch's hooks installed by conch
// install copilot: each test checks one behaviour of conch help
// integrations' Copilot row, through conch's own commands and what the
// model was sent.

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func (s *copilotSession) mustRun(prompt string, flags ...string) execResult {
	s.t.Helper()
	r := s.run(prompt, flags...)
	if r.err != nil {
		s.t.Fatalf("copilot -p: %v\n%s\n%s", r.err, r.stdout, r.stderr)
	}
	return r
}

// TestCopilotSession: a session is a chat (its folder, its mode from
// --allow-all-tools, its title from the prompt) that hears who it is at
// its start; its own conch commands act as it (COPILOT_AGENT_SESSION_ID);
// a message sent mid-turn reaches the model beside the next tool's
// result; each tool call is a step, an edit's file a changed file; the
// turn's end ends the reply with its last words, and the session's end
// stops the chat.
func TestCopilotSession(t *testing.T) {
	var s *copilotSession
	s = newCopilot(t, func(r *modelRequest, n int) turn {
		switch n {
		case 0:
			// The session is chat c_2 (SessionStart made it; c_1 is the
			// other chat): c_1 tells it something while its first tool runs.
			s.conch("chat", "message", "c_2", "MIDTURN-NOTE the build is red", "--chat", "c_1")
			return turn{bash("call_1", "conch chat show --json")}
		case 1:
			return turn{copilotTool("call_2", "create", map[string]any{"path": filepath.Join(s.dir, "a.txt"), "file_text": "hello\n"})}
		}
		return turn{say("All done here.")}
	})
	s.install()
	s.conch("chat", "new", "--title", "Sender", "--folder", t.TempDir())
	s.mustRun("Fix the build")

	reqs := s.model.mainRequests()
	if len(reqs) != 3 {
		t.Fatalf("the model got %d requests, want 3", len(reqs))
	}
	if !strings.Contains(reqs[0].text(), "this session is chat c_2") || !strings.Contains(reqs[0].text(), "COPILOT_AGENT_SESSION_ID") {
		t.Errorf("the session did not hear which chat it is at its start:\n%.2000s", reqs[0].text())
	}
	out, _ := reqs[1].outputOf("call_1")
	if !strings.Contains(out, `\"id\": \"c_2\"`) {
		t.Errorf("conch chat show in the session's shell did not act as its chat:\n%s", out)
	}
	if !strings.Contains(out, "MIDTURN-NOTE") {
		t.Errorf("the message sent mid-turn did not reach the model after the tool:\n%s", out)
	}
	c := s.chat("c_2")
	if get(c, "title") != "Fix the build" || get(c, "mode") != "auto" || get(c, "folder") != s.dir {
		t.Errorf("the chat is not the session's (title, mode auto, folder): %v %v %v", get(c, "title"), get(c, "mode"), get(c, "folder"))
	}
	if get(c, "last_reply", "outcome") != "finished" || get(c, "last_reply", "text") != "All done here." {
		t.Errorf("the turn's end did not end the reply with its last words: %v", get(c, "last_reply"))
	}
	files, _ := get(c, "last_reply", "files").([]any)
	if len(files) != 1 || files[0] != filepath.Join(s.dir, "a.txt") {
		t.Errorf("the reply's changed files are %v, want a.txt", files)
	}
	if get(c, "status") != "stopped" {
		t.Errorf("copilot -p ended, the chat is %v, want stopped", get(c, "status"))
	}
	// The notes were said once: the message is read.
	if strings.Contains(s.conch("notes", "--chat", "c_2"), "MIDTURN-NOTE") {
		t.Error("the message is still due after the model heard it")
	}
}

// TestCopilotStop: a reply another chat stops keeps its next tool from
// running and ends the turn there (permissionRequest's interrupt): the
// model is asked nothing more, and the model heard why.
func TestCopilotStop(t *testing.T) {
	var s *copilotSession
	s = newCopilot(t, func(r *modelRequest, n int) turn {
		if n == 0 {
			s.conch("chat", "stop", "c_2", "--reason", "release freeze", "--chat", "c_1")
			return turn{bash("call_1", "touch "+filepath.Join(s.dir, "stopped.txt"))}
		}
		return turn{say("I went on.")}
	})
	s.install()
	s.conch("chat", "new", "--title", "Release", "--mode", "auto", "--folder", t.TempDir())
	s.conch("reply", "start", "--chat", "c_1")
	r := s.run("Ship it")
	if _, err := os.Stat(filepath.Join(s.dir, "stopped.txt")); err == nil {
		t.Error("the tool ran after the reply was stopped")
	}
	if n := len(s.model.mainRequests()); n != 1 {
		t.Errorf("the model got %d requests, want 1: the turn went on after the stop\n%s", n, r.stdout)
	}
	if !strings.Contains(r.stdout+r.stderr, "release freeze") {
		t.Errorf("copilot did not show the stop's reason:\n%s\n%s", r.stdout, r.stderr)
	}
	if get(s.chat("c_2"), "last_reply", "outcome") != "stopped" {
		t.Errorf("the stopped reply is %v", get(s.chat("c_2"), "last_reply", "outcome"))
	}
}

// TestCopilotStartReply: a message sent with --start-reply that waits at
// the turn's end goes on in a reply of its own (Stop's decision block):
// the model reads it as the next prompt, and that reply's end has its
// last words, for whoever waits.
func TestCopilotStartReply(t *testing.T) {
	var s *copilotSession
	s = newCopilot(t, func(r *modelRequest, n int) turn {
		switch n {
		case 0:
			s.conch("chat", "message", "c_2", "RUN-THE-LINTER please", "--start-reply", "--chat", "c_1")
			return turn{say("First part done.")}
		}
		return turn{say("Linted.")}
	})
	s.install()
	s.conch("chat", "new", "--title", "Sender", "--folder", t.TempDir())
	s.mustRun("Do the first part")
	reqs := s.model.mainRequests()
	if len(reqs) != 2 || !strings.Contains(reqs[1].text(), "RUN-THE-LINTER") {
		t.Fatalf("the message did not start the next turn (%d requests)", len(reqs))
	}
	c := s.chat("c_2")
	if get(c, "last_reply", "text") != "Linted." || get(c, "replies") != 2.0 {
		t.Errorf("the message's reply did not end with its words: %v, %v replies", get(c, "last_reply", "text"), get(c, "replies"))
	}
}

// TestCopilotFailedTurn: a turn whose model call fails (ErrorOccurred)
// ends its reply failed, never left working.
func TestCopilotFailedTurn(t *testing.T) {
	s := newCopilot(t, func(r *modelRequest, n int) turn { return httpError(400) })
	s.install()
	s.run("Say hello")
	c := s.chat("c_1")
	if get(c, "reply") != nil || get(c, "last_reply", "outcome") != "failed" {
		t.Errorf("the failed turn's reply: %v / %v", get(c, "reply"), get(c, "last_reply"))
	}
}

// TestCopilotSubagentAndFetch: a web fetch taints the chat with its URL;
// a subagent (the task tool) is a child chat whose steps are its own and
// whose end has its last words.
func TestCopilotSubagentAndFetch(t *testing.T) {
	var s *copilotSession
	s = newCopilot(t, func(r *modelRequest, n int) turn {
		switch n {
		case 0:
			return turn{copilotTool("call_1", "web_fetch", map[string]any{"url": s.model.url + "/models"})}
		case 1:
			return turn{copilotTool("call_2", "task", map[string]any{"description": "sub work", "prompt": "SUBTASK look around", "agent_type": "general-purpose", "name": "helper"})}
		case 2:
			return turn{bash("call_3", "echo sub")}
		case 3:
			return turn{say("sub done")}
		}
		return turn{say("Main done.")}
	})
	s.online = true
	s.install()
	s.mustRun("Look it up")
	c := s.chat("c_1")
	b, _ := json.Marshal(get(c, "taint"))
	if !strings.Contains(string(b), s.model.url+"/models") {
		t.Errorf("the fetch did not taint the chat: %s", b)
	}
	child := s.chat("c_2")
	if get(child, "parent") != "c_1" || get(child, "last_reply", "text") != "sub done" || get(child, "archived") != true {
		t.Errorf("the subagent's chat: parent %v, text %v, archived %v", get(child, "parent"), get(child, "last_reply", "text"), get(child, "archived"))
	}
	if get(c, "last_reply", "text") != "Main done." {
		t.Errorf("the session's reply ended with %v", get(c, "last_reply", "text"))
	}
}
