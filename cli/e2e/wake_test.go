package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Waking an idle chat through its own harness (issue 23): a session runs
// once and ends; another chat sends it a --start-reply message; conch
// resumes that very session headless (claude -p --resume, codex exec
// resume), the fake model receives the framed message in the same
// session's next turn, and the sender's wait returns with the answer.

// TestClaudeWake: an ended Claude Code session is woken by a message.
func TestClaudeWake(t *testing.T) {
	m := newMessagesAPI(t)
	m.conversation("PROMPT-B",
		says(text("Login fixed.")),
		says(text("Rebased on v2, tests pass.")),
	)
	e := newClaudeEnv(t, m)
	e.install()
	e.run("PROMPT-B: fix the login").ok(t)
	has(t, "B once it ended", e.conchOut("chat", "show", "c_1", "--json"), `"state": "stopped"`, "wake-run")

	e.conchOut("chat", "new", "--title", "Release notes")
	e.conchOut("reply", "start", "--person", "--chat", "c_2")
	sent := e.conchOut("chat", "message", "c_1", "the API moved to v2: rebase and rerun the tests", "--start-reply", "--chat", "c_2")
	has(t, "the send", sent, "woke “PROMPT-B: fix the login” (chat c_1): its Claude Code session resumes headless")
	out, err := conch(t, e.env(), "wait", "chat", "c_1", "--timeout", "90s")
	if err != nil {
		t.Fatalf("the wait: %v\n%s", err, out)
	}
	has(t, "the sender's wait", out, "finished its reply", "Rebased on v2, tests pass.")

	reqs := m.laneRequests("PROMPT-B")
	if len(reqs) != 2 {
		m.dump("wake")
		t.Fatalf("B's conversation made %d requests, want 2", len(reqs))
	}
	has(t, "the woken turn", reqs[1].allText(), "Login fixed.", "a message from another of the person's chats, “Release notes” (chat c_2)",
		"<chat-message>", "the API moved to v2: rebase and rerun the tests", "conch woke this session")
	show := e.conchOut("chat", "show", "c_1", "--json")
	has(t, "B after its woken reply", show, `"unwatched": true`, `"text": "Rebased on v2, tests pass."`)
	hasNot(t, "the person's list", e.conchOut("chats", "list"), "c_3")
	wokenRunEnds(t, e.conch, "c_1")
	noSecretsOut(t, e.conch, "sk-ant-e2e-fake")
}

// wokenRunEnds waits until the woken run of chat id is over (its wake-run
// has seen its harness exit), so that nothing writes in the test's folders
// after it.
func wokenRunEnds(t *testing.T, home, id string) {
	t.Helper()
	eventually(t, "the woken run ends", func() bool {
		data, err := os.ReadFile(filepath.Join(home, "resume", id+".json"))
		return err == nil && !strings.Contains(string(data), `"runner"`)
	})
}

// noSecretsOut fails when the key is anywhere in the conch home but the
// chat's resume file.
func noSecretsOut(t *testing.T, home, key string) {
	t.Helper()
	_ = filepath.WalkDir(home, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || strings.HasPrefix(filepath.Base(filepath.Dir(p)), "resume") {
			return nil
		}
		if data, err := os.ReadFile(p); err == nil && strings.Contains(string(data), key) {
			t.Errorf("the harness's key is in %s", p)
		}
		return nil
	})
}

// TestCodexWake: an ended codex exec session is woken by a message.
func TestCodexWake(t *testing.T) {
	b := newCodex(t, func(r *modelRequest, n int) turn {
		if strings.Contains(r.text(), "the API moved to v2") {
			return turn{say("Rebased on v2, tests pass.")}
		}
		return turn{say("Login fixed.")}
	})
	b.install()
	if res := b.exec("fix the login", bypass); res.err != nil {
		t.Fatalf("codex exec: %v\n%s", res.err, res.stderr)
	}
	has(t, "B once it ended", b.conch("chat", "show", "c_1", "--json"), "wake-run")
	b.conch("chat", "new", "--title", "Release notes")
	b.conch("reply", "start", "--person", "--chat", "c_2")
	start := time.Now()
	sent := b.conch("chat", "message", "c_1", "the API moved to v2: rebase and rerun the tests", "--start-reply", "--chat", "c_2")
	has(t, "the send", sent, "its Codex session resumes headless")
	out, err := b.conchIn(b.dir, nil, "wait", "chat", "c_1", "--timeout", "90s")
	if err != nil {
		t.Fatalf("the wait: %v\n%s", err, out)
	}
	t.Logf("send to the wait's end: %v", time.Since(start))
	has(t, "the sender's wait", out, "finished its reply", "Rebased on v2, tests pass.")
	reqs := b.model.mainRequests()
	last := reqs[len(reqs)-1]
	has(t, "the woken turn", last.text(), "Login fixed.", "a message from another of the person's chats", "the API moved to v2: rebase and rerun the tests")
	hasNot(t, "the person's list", b.conch("chats", "list"), "c_3")
	wokenRunEnds(t, b.conchHome, "c_1")
	noSecretsOut(t, b.conchHome, "sk-fake-for-tests")
}
