package e2e

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
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
func wokenRunEnds(t testing.TB, home, id string) {
	t.Helper()
	eventually(t, "the woken run ends", func() bool {
		data, err := os.ReadFile(filepath.Join(home, "resume", id+".json"))
		return err == nil && !strings.Contains(string(data), `"runner"`)
	})
}

// rerunResume runs chat id's resume as its wake-run did, and says what
// the harness wrote: why a wake never began its reply.
func rerunResume(t *testing.T, home, id string) string {
	data, err := os.ReadFile(filepath.Join(home, "resume", id+".json"))
	if err != nil {
		return err.Error()
	}
	var r struct {
		How struct {
			Argv, Prompt []string
			Modes        map[string][]string
		}
		Env []string
	}
	if err := json.Unmarshal(data, &r); err != nil {
		return err.Error()
	}
	argv := append(append(append([]string{}, r.How.Argv...), r.How.Modes["auto"]...), append(r.How.Prompt, "say hi")...)
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Env = append(baseEnv(), r.Env...)
	out, err := cmd.CombinedOutput()
	return fmt.Sprintf("%q %q: %v\n%s", argv, r.Env, err, out)
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

// TestWakeHandOff is issue 23's "done when": two Claude Code sessions and a
// Codex session, each run once and ended, finish a three-way hand-off with
// nobody typing. A messages B with --start-reply and waits; B wakes, does
// its turn, messages C; C wakes and answers; A's wait ends, A wakes, and
// reads B's answer.
func TestWakeHandOff(t *testing.T) {
	m := newMessagesAPI(t)
	m.conversation("PROMPT-B",
		says(text("Login fixed.")),
		says(tool("Bash", map[string]any{"command": "conch chat message c_2 'the API moved to v2: rebase the parser' --start-reply", "description": "ask C"})),
		says(text("Login rebased on v2; asked C to rebase the parser.")),
	)
	m.conversation("PROMPT-A",
		says(tool("Bash", map[string]any{"command": "conch chat message c_1 'the API moved to v2: rebase the login and rerun its tests' --start-reply", "description": "ask B"})),
		says(tool("Bash", map[string]any{"command": "conch wait chat c_1", "description": "wait for B"})),
		says(text("Asked B; waiting for it.")),
		says(text("B is done: the release notes can say v2.")),
	)
	e := newClaudeEnv(t, m)
	e.install()
	c := newCodex(t, func(r *modelRequest, n int) turn {
		if strings.Contains(r.text(), "rebase the parser") {
			return turn{say("Parser rebased on v2.")}
		}
		return turn{say("Parser fixed.")}
	})
	c.conchHome, c.dir = e.conch, e.project
	if err := os.WriteFile(filepath.Join(c.codexHome, "config.toml"), []byte(fmt.Sprintf(codexConfig, c.model.url, c.dir)), 0o600); err != nil {
		t.Fatal(err)
	}
	c.install()

	// Each runs once and ends: B (c_1), C (c_2), then A (c_3), whose turn
	// messages B and waits for it.
	e.run("PROMPT-B: fix the login").ok(t)
	if res := c.exec("fix the parser", bypass); res.err != nil {
		t.Fatalf("codex exec: %v\n%s", res.err, res.stderr)
	}
	start := time.Now()
	e.run("PROMPT-A: write the release notes").ok(t)

	// Nobody types: A's wait ends when B's woken reply does, and A's own
	// woken turn reads B's answer.
	eventually(t, "A woken with B's answer", func() bool { return len(m.laneRequests("PROMPT-A")) >= 4 })
	t.Logf("A's end to its woken turn's first request: %v", time.Since(start))
	a := m.laneRequests("PROMPT-A")
	has(t, "A's woken turn", a[3].allText(), "the wait for chat c_1 ended", "finished its reply", "Login rebased on v2; asked C to rebase the parser.")
	b := m.laneRequests("PROMPT-B")
	has(t, "B's woken turn", b[1].allText(), "Login fixed.", "(chat c_3)", "rebase the login and rerun its tests")
	cr := c.model.waitRequest(t, "C's woken turn", func(r *modelRequest) bool { return strings.Contains(r.text(), "rebase the parser") })
	has(t, "C's woken turn", cr.text(), "Parser fixed.", "(chat c_1)")
	eventually(t, "C answers", func() bool {
		return strings.Contains(e.conchOut("chat", "show", "c_2", "--json"), `"text": "Parser rebased on v2."`)
	})
	eventually(t, "A's woken reply ends", func() bool {
		return strings.Contains(e.conchOut("chat", "show", "c_3", "--json"), `"text": "B is done: the release notes can say v2."`)
	})
	for _, id := range []string{"c_1", "c_2", "c_3"} {
		wokenRunEnds(t, e.conch, id)
	}
	hasNot(t, "the person's list", e.conchOut("chats", "list"), "c_4")
}

// TestGeminiWake: an ended gemini -p session is woken by a message.
func TestGeminiWake(t *testing.T) {
	s := newGemini(t, func(r *geminiRequest, n int) gturn {
		if strings.Contains(r.text(), "the API moved to v2") {
			return gturn{gsay("Rebased on v2, tests pass.")}
		}
		return gturn{gsay("Login fixed.")}
	})
	s.install()
	if res := s.run("fix the login"); res.err != nil {
		t.Fatalf("gemini: %v\n%s", res.err, res.stderr)
	}
	h := s.home
	wakeOnce(t, h.conchHome, func(args ...string) (string, error) { return h.conchIn(h.dir, nil, args...) }, "Gemini CLI", func() string {
		reqs := s.model.mainRequests()
		return reqs[len(reqs)-1].text()
	})
}

// wakeOnce: chat c_1 of h, run once and ended, is woken by a message from
// a new chat; the sender's wait returns the answer, and the woken turn's
// request (last) carries the session's first turn and the framed message.
func wakeOnce(t *testing.T, conchHome string, run func(args ...string) (string, error), name string, last func() string) {
	t.Helper()
	conch := func(args ...string) string {
		t.Helper()
		out, err := run(args...)
		if err != nil {
			t.Fatalf("%v\n%s", err, out)
		}
		return out
	}
	has(t, "the chat once it ended", conch("chat", "show", "c_1", "--json"), "wake-run")
	conch("chat", "new", "--title", "Release notes")
	conch("reply", "start", "--person", "--chat", "c_2")
	sent := conch("chat", "message", "c_1", "the API moved to v2: rebase and rerun the tests", "--start-reply", "--chat", "c_2")
	has(t, "the send", sent, "its "+name+" session resumes headless")
	out := conch("wait", "chat", "c_1", "--timeout", "120s")
	if strings.Contains(out, "was woken, but") {
		t.Logf("the resume, run again by hand: %s", rerunResume(t, conchHome, "c_1"))
	}
	has(t, "the sender's wait", out, "finished its reply", "Rebased on v2, tests pass.")
	has(t, "the woken turn", last(), "Login fixed.", "a message from another of the person", "the API moved to v2: rebase and rerun the tests")
	hasNot(t, "the person's list", conch("chats", "list"), "c_3")
	wokenRunEnds(t, conchHome, "c_1")
}

// TestOpenCodeWake: an ended opencode run session is woken by a message.
func TestOpenCodeWake(t *testing.T) { pluginWake(t, "opencode", "OpenCode") }

// TestPiWake: an ended pi -p session is woken by a message.
func TestPiWake(t *testing.T) { pluginWake(t, "pi", "Pi") }

func pluginWake(t *testing.T, harness, name string) {
	m := newChatModel(t)
	m.script("PROMPT-W", reply("Login fixed."), reply("Rebased on v2, tests pass."))
	s := newPluginSession(t, harness, m)
	s.run("PROMPT-W: fix the login").ok(t)
	wakeOnce(t, s.conchHome, func(args ...string) (string, error) { return s.conchIn(s.dir, args...) }, name, func() string {
		reqs := m.requests("PROMPT-W")
		return reqs[len(reqs)-1].all()
	})
}

// TestCopilotWake: an ended copilot -p session is woken by a message.
func TestCopilotWake(t *testing.T) {
	s := newCopilot(t, func(r *modelRequest, n int) turn {
		if strings.Contains(r.text(), "the API moved to v2") {
			return turn{say("Rebased on v2, tests pass.")}
		}
		return turn{say("Login fixed.")}
	})
	s.install()
	s.mustRun("fix the login")
	wakeOnce(t, s.conchHome, func(args ...string) (string, error) { return s.conchIn(s.dir, nil, args...) }, "Copilot CLI", func() string {
		reqs := s.model.mainRequests()
		return reqs[len(reqs)-1].text()
	})
}

// TestQwenWake: an ended qwen -p session is woken by a message.
func TestQwenWake(t *testing.T) {
	s := newQwen(t, func(r *ccRequest, n int) cturn {
		if strings.Contains(r.text(), "the API moved to v2") {
			return cturn{csay("Rebased on v2, tests pass.")}
		}
		return cturn{csay("Login fixed.")}
	})
	s.install()
	if res := s.run("fix the login"); res.err != nil {
		t.Fatalf("qwen: %v\n%s", res.err, res.stderr)
	}
	h := s.home
	wakeOnce(t, h.conchHome, func(args ...string) (string, error) { return h.conchIn(h.dir, nil, args...) }, "Qwen Code", func() string {
		reqs := s.model.requests()
		return reqs[len(reqs)-1].text()
	})
}

// TestOpenCodeServeWake (item 4): a session open and idle in opencode
// serve (which the TUI runs on) is not run a second time: the message is
// delivered into that open session, through its own server, and the
// sender's wait returns its answer.
func TestOpenCodeServeWake(t *testing.T) {
	m := newChatModel(t)
	m.script("PROMPT-OC", reply("Login fixed."), reply("Rebased on v2, tests pass."))
	s := newPluginSession(t, "opencode", m)
	srv := s.serve()
	id := srv.post(t, "/session", `{}`)["id"]
	if id == nil {
		t.Fatal("opencode serve made no session")
	}
	srv.post(t, "/session/"+id.(string)+"/prompt_async", `{"parts": [{"type": "text", "text": "PROMPT-OC: fix the login"}]}`)
	waitFor(t, "the first reply ends", 90*time.Second, func() bool {
		c := s.chatOr("c_1")
		return get(c, "last_reply", "text") == "Login fixed." && get(c, "state") != "working"
	})
	s.conch("chat", "new", "--title", "Release notes", "--folder", s.dir)
	s.conch("reply", "start", "--person", "--chat", "c_2")
	sent := s.conch("chat", "message", "c_1", "the API moved to v2: rebase and rerun the tests", "--start-reply", "--chat", "c_2")
	has(t, "the send", sent, "delivered into the open OpenCode session of “PROMPT-OC: fix the login” (chat c_1): its next reply starts with this message")
	out, err := s.conchIn(s.dir, "wait", "chat", "c_1", "--timeout", "90s")
	if err != nil {
		t.Fatalf("the wait: %v\n%s", err, out)
	}
	has(t, "the sender's wait", out, "finished its reply", "Rebased on v2, tests pass.")
	reqs := m.requests("PROMPT-OC")
	has(t, "the delivered turn", reqs[len(reqs)-1].all(), "Login fixed.", "a message from another of the person", "the API moved to v2: rebase and rerun the tests")
	has(t, "the chat", s.conch("chat", "show", "c_1", "--json"), `"unwatched": true`)
	hasNot(t, "the person's list", s.conch("chats", "list"), "c_3")
}
