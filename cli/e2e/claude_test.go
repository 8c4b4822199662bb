package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gofrs/flock"
)

// The real Claude Code (testdata/e2e/harnesses.txt) in print mode, with
// conch's hooks installed by conch install claude, against the scripted
// fake model: each test checks what conch recorded (through conch's own
// commands) and what the model was sent.

// running is a claude -p started in the background.
type running struct {
	done chan *session
}

func (e *claudeEnv) start(prompt string, args ...string) *running {
	cmd := e.command(prompt, args...)
	r := &running{done: make(chan *session, 1)}
	go func() { r.done <- e.wait(cmd) }()
	return r
}

func (r *running) wait(t testing.TB) *session {
	t.Helper()
	select {
	case s := <-r.done:
		return s
	case <-time.After(2 * time.Minute):
		t.Fatal("claude -p did not end")
		return nil
	}
}

// ok fails the test when the session did not end well.
func (s *session) ok(t testing.TB) *session {
	t.Helper()
	if s.err != nil {
		t.Fatalf("claude -p: %v\nstderr: %s\nout: %s", s.err, s.stderr, s.out)
	}
	return s
}

// eventually waits, polling, until cond holds (a minute at most): for
// what conch records as a consequence of the harness's own pace.
func eventually(t testing.TB, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("never: %s", what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func has(t testing.TB, where, got string, want ...string) {
	t.Helper()
	for _, w := range want {
		if !strings.Contains(got, w) {
			t.Errorf("%s: want %q in:\n%s", where, w, got)
		}
	}
}

func hasNot(t testing.TB, where, got string, unwanted ...string) {
	t.Helper()
	for _, w := range unwanted {
		if strings.Contains(got, w) {
			t.Errorf("%s: want no %q in:\n%s", where, w, got)
		}
	}
}

// TestClaudeTwoSessions: two sessions in one folder hear of each other; a
// message reaches the other mid-turn (in a tool result's context); a
// start-reply message is delivered at Stop and the session goes on with
// it; the person's wait wakes with the last words; a Bash step that is a
// conch command is not "running commands" for the other.
func TestClaudeTwoSessions(t *testing.T) {
	m := newMessagesAPI(t)
	m.conversation("PROMPT-A",
		says(tool("Write", map[string]any{"file_path": "src/parser.go", "content": "package src\n"})),
		says(tool("Bash", map[string]any{"command": "true", "description": "check"})),
		says(text("Parser fixed.")),
		says(text("Rebased onto the lexer.")),
	)
	m.conversation("PROMPT-B",
		says(tool("Bash", map[string]any{"command": "conch chat message c_1 'Leave src/lexer.go to me'", "description": "tell A"})),
		says(text("Told A.")),
	)
	h1 := m.holdTurn("PROMPT-A", 1)
	h2 := m.holdTurn("PROMPT-A", 2)
	defer h1()
	defer h2()
	e := newClaudeEnv(t, m)
	e.install()
	if err := os.MkdirAll(filepath.Join(e.project, "src"), 0o755); err != nil {
		t.Fatal(err)
	}

	// A starts and writes src/parser.go; it is held before its next step.
	a := e.start("PROMPT-A: fix the parser")
	m.reach("PROMPT-A", 1)
	list := e.conchOut("chats", "list")
	has(t, "the person's list", list, "(chat c_1): ", "Changing parser.go")

	// The person waits for A (blocking, as at a terminal).
	waited := make(chan string, 1)
	go func() {
		out, err := conch(t, e.env(), "wait", "chat", "c_1", "--timeout", "90s")
		if err != nil {
			out += err.Error()
		}
		waited <- out
	}()

	// B, in the same folder, hears at its start that A is changing
	// src/parser.go, and messages A from its own Bash (acting as its chat).
	b := e.run("PROMPT-B: add a lexer test").ok(t)
	reqB := m.laneRequests("PROMPT-B")
	has(t, "B's first request", reqB[0].allText(), "is changing files in this folder right now", "(chat c_1), changing src/parser.go")
	has(t, "B's result", string(b.out), "Told A.")
	has(t, "B's message card", e.conchOut("messages", "--chat", "c_2"), "To “PROMPT-A: fix the parser”")

	// A's next tool call brings the message, mid-turn; B's conch command
	// was talking, not running commands.
	h1()
	m.reach("PROMPT-A", 2)
	reqA := m.laneRequests("PROMPT-A")
	has(t, "A's request after its step", reqA[2].lastUserText(), "a message from another of the person's chats", "Leave src/lexer.go to me", "To answer, use conch chat message c_2")
	for _, r := range reqA {
		hasNot(t, "A's requests", r.allText(), "is running commands in this folder")
	}

	// A start-reply message sent while A is busy, after its last step: at
	// A's Stop it is delivered, and A goes on with it.
	e.conchOut("chat", "message", "c_1", "Rebase onto the lexer when you are done", "--start-reply", "--chat", "c_2")
	h2()
	sa := a.wait(t).ok(t)
	has(t, "A's result", string(sa.out), "Rebased onto the lexer.")
	reqA = m.laneRequests("PROMPT-A")
	if len(reqA) != 4 {
		t.Fatalf("A made %d requests, want 4", len(reqA))
	}
	has(t, "A's request after Stop", reqA[3].lastUserText(), "Rebase onto the lexer when you are done")
	show := e.conchOut("chat", "show", "c_1", "--json")
	// (A print-mode session ends with SessionEnd: the chat is stopped.)
	has(t, "A at the end", show, `"state": "stopped"`, `"text": "Rebased onto the lexer."`, `"unwatched": true`)

	// The person's wait woke with A's last words.
	select {
	case out := <-waited:
		has(t, "the person's wait", out, "finished its reply", "Rebased onto the lexer.")
	case <-time.After(time.Minute):
		t.Fatal("the wait never ended")
	}
}

// TestClaudeStopDeniesTool (item 1): a stop from another chat denies the
// pending tool, so it does not run, ends the turn, and is said once.
func TestClaudeStopDeniesTool(t *testing.T) {
	m := newMessagesAPI(t,
		says(tool("Bash", map[string]any{"command": "touch made.txt", "description": "make a file"})),
		says(text("I went on after the tool.")),
		says(text("Picked up again.")),
	)
	release := m.holdTurn("", 0)
	defer release()
	e := newClaudeEnv(t, m)
	e.install()
	run := e.start("Make a file")
	m.reach("", 0)
	e.conchOut("chat", "new", "--title", "Rewrite", "--mode", "auto")
	e.conchOut("chat", "stop", "c_1", "--reason", "I am rewriting this folder", "--chat", "c_2")
	release()
	s := run.wait(t).ok(t)
	if _, err := os.Stat(filepath.Join(e.project, "made.txt")); err == nil {
		t.Error("the denied tool ran: made.txt is there")
	}
	if n := len(m.mainRequests()); n != 1 {
		t.Errorf("the turn went on: %d requests, want 1", n)
	}
	has(t, "the chat", e.conchOut("chat", "show", "c_1", "--json"), `"state": "stopped"`)

	// The next prompt in the session: the model read the stop once, in the
	// denied tool's result; the new prompt does not say it again.
	e.run("Go on", "--resume", s.id).ok(t)
	reqs := m.mainRequests()
	last := reqs[len(reqs)-1]
	if n := strings.Count(last.allText(), "stopped your last reply: I am rewriting this folder"); n != 1 {
		t.Errorf("the stop is said %d times in the resumed conversation, want 1:\n%s", n, last.allText())
	}
	hasNot(t, "the new prompt's context", last.lastUserText(), "UserPromptSubmit hook additional context: “Rewrite”")
}

// TestClaudeFailures (items 2 and 3): a failing tool (PostToolUseFailure)
// brings a waiting message; an API error (StopFailure) ends the reply as
// failed.
func TestClaudeFailures(t *testing.T) {
	m := newMessagesAPI(t,
		says(tool("Bash", map[string]any{"command": "exit 1", "description": "a failing test"})),
		apiError(400, "invalid_request_error"),
	)
	release := m.holdTurn("", 0)
	defer release()
	e := newClaudeEnv(t, m)
	e.install()
	run := e.start("Run the tests")
	m.reach("", 0)
	e.conchOut("chat", "new", "--title", "Lexer")
	e.conchOut("chat", "message", "c_1", "The lexer test is mine", "--chat", "c_2")
	release()
	run.wait(t)
	reqs := m.mainRequests()
	if len(reqs) < 2 {
		t.Fatalf("%d requests, want 2 or more", len(reqs))
	}
	has(t, "the request after the failed tool", reqs[1].lastUserText(), "The lexer test is mine")
	show := e.conchOut("chat", "show", "c_1", "--json")
	has(t, "the chat after the API error", show, `"outcome": "failed"`)
	hasNot(t, "the chat after the API error", show, `"state": "working"`)
	hasNot(t, "the person's list", e.conchOut("chats", "list", "--working"), "c_1")
}

// TestClaudeBackgroundAgent (items 4, 5, 7): a background agent keeps the
// chat working past its Stop; the harness's task-notification turn is not
// the person's; the subagent's own conch command acts as its chat; the
// subagent's chat leaves the list when it ends.
func TestClaudeBackgroundAgent(t *testing.T) {
	m := newMessagesAPI(t,
		says(tool("Agent", map[string]any{"description": "lexer work", "prompt": "SUBTASK-1: write the lexer", "subagent_type": "general-purpose", "run_in_background": true})),
		says(text("Started the agent.")),
		says(text("The agent finished the lexer.")),
	)
	m.subagent("SUBTASK-1",
		says(tool("Bash", map[string]any{"command": "conch chat set --goal 'Write the lexer'", "description": "say what it does"})),
		says(text("Lexer written.")),
	)
	release := m.holdTurn("SUBTASK-1", 1)
	defer release()
	e := newClaudeEnv(t, m)
	e.install()
	run := e.start("Write the lexer")
	// The session's turn ends while its agent runs: still working.
	eventually(t, "the chat waits for its background agent", func() bool {
		out, _ := conch(t, e.env(), "chat", "show", "c_1", "--json")
		return strings.Contains(out, `"family": "wait"`)
	})
	has(t, "the busy list", e.conchOut("chats", "list", "--working"), "(chat c_1): waiting")
	m.reach("SUBTASK-1", 1)
	// Its conch command, in the shell it shares with the session (the
	// session's CONCH_CHAT), acted as the subagent's own chat, and was
	// talking, not running commands.
	has(t, "the subagent's chat", e.conchOut("chat", "show", "c_2", "--json"), `"parent": "c_1"`, `"family": "talk"`, `"goal": "Write the lexer"`)
	has(t, "the session's chat", e.conchOut("chat", "show", "c_1", "--json"), `"goal": ""`)
	release()
	run.wait(t).ok(t)
	show := e.conchOut("chat", "show", "c_1", "--json")
	has(t, "the chat at the end", show, `"state": "stopped"`, `"outcome": "finished"`, `"text": "The agent finished the lexer."`, `"replies": 1`)
	if n := strings.Count(e.conchOut("status", "c_1", "--since", "0"), "human_direct_message"); n != 1 {
		t.Errorf("%d human_direct_message, want 1 (the task-notification is not the person's)", n)
	}
	has(t, "the subagent at the end", e.conchOut("chat", "show", "c_2", "--json"), `"archived": true`, `"text": "Lexer written."`)
	hasNot(t, "the person's list", e.conchOut("chats", "list"), "c_2")
}

// TestClaudePermissionRequest (item 9): print mode asks through
// PermissionRequest, not Notification: the chat needs the person.
func TestClaudePermissionRequest(t *testing.T) {
	m := newMessagesAPI(t,
		says(tool("Bash", map[string]any{"command": "touch made.txt", "description": "make a file"})),
		says(text("It was not allowed.")),
	)
	release := m.holdTurn("", 1)
	defer release()
	e := newClaudeEnv(t, m)
	e.install()
	e.permissionMode = "default"
	run := e.start("Make a file")
	m.reach("", 1)
	has(t, "the chat asking", e.conchOut("chat", "show", "c_1", "--json"), `"state": "needs-you"`)
	release()
	run.wait(t).ok(t)
}

// TestClaudeLockedHome: a home locked the whole session: every hook
// answers nothing within its budget and the session goes on. A home
// locked only at its start: the first hook that can take the lock tells
// the session which chat it is, and the model's conch commands act as it.
func TestClaudeLockedHome(t *testing.T) {
	m := newMessagesAPI(t,
		says(tool("Bash", map[string]any{"command": "true", "description": "a step"})),
		says(text("Done while locked.")),
		says(tool("Bash", map[string]any{"command": "conch chat set --goal 'Work after the lock'", "description": "a step"})),
		says(text("Done.")),
	)
	e := newClaudeEnv(t, m)
	e.install()
	e.conchOut("chats", "list") // the home exists
	if err := os.MkdirAll(e.conch, 0o700); err != nil {
		t.Fatal(err)
	}
	fl := flock.New(filepath.Join(e.conch, "conch.lock"))
	if err := fl.Lock(); err != nil {
		t.Fatal(err)
	}
	s := e.run("Work while the home is locked")
	fl.Unlock()
	s.ok(t)
	has(t, "the result", string(s.out), "Done while locked.")
	hasNot(t, "the home", e.conchOut("chats", "list"), "c_1")

	// Locked through SessionStart and the prompt only.
	if err := fl.Lock(); err != nil {
		t.Fatal(err)
	}
	release := m.holdTurn("", 2)
	defer release()
	run := e.start("Work after the lock")
	m.reach("", 2)
	fl.Unlock()
	release()
	run.wait(t).ok(t)
	reqs := m.mainRequests()
	has(t, "the request after the first step", reqs[len(reqs)-1].lastUserText(), "this session is chat c_1 among the person's chats")
	// Nothing was exported to its shell, but the model's own conch command
	// acted as its chat (Claude Code's CLAUDE_CODE_SESSION_ID).
	has(t, "the chat", e.conchOut("chat", "show", "c_1", "--json"), `"goal": "Work after the lock"`)
}

// TestClaudeProjectSubfolder (item 8): Claude Code reads a project's
// .claude/settings.json only in the folder a session starts in: install
// --project in a subfolder says so, a session started at the repository's
// root runs no conch hook, and conch doctor there warns; installed at the
// root, it says that a session started in a subfolder runs none of its
// hooks, and one does not.
func TestClaudeProjectSubfolder(t *testing.T) {
	m := newMessagesAPI(t, says(text("Hello from the root.")), says(text("Hello from the subfolder.")),
		says(text("Hello from another subfolder.")), says(text("Hello from the root again.")))
	e := newClaudeEnv(t, m)
	sub := filepath.Join(e.project, "web")
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	out := e.conchIn(sub, "install", "claude", "--project")
	has(t, "install in a subfolder", out, "Claude Code reads .claude/settings.json only in the folder a session starts in", "cd "+e.project+" && conch install claude --project", "conch install claude --user")

	e.run("Hi from the root").ok(t)
	hasNot(t, "after a session at the root", e.conchOut("chats", "list"), "c_1")
	cmd := exec.Command(conchBin, "doctor")
	cmd.Env, cmd.Dir = e.env(), e.project
	warn, _ := cmd.CombinedOutput()
	has(t, "doctor at the root", string(warn), "Claude Code sessions started in "+e.project+" run no conch hooks")

	c := e.command("Hi from the subfolder")
	c.Dir = sub
	e.wait(c).ok(t)
	has(t, "after a session in the subfolder", e.conchOut("chats", "list"), "(chat c_1)")

	// Installed at the root, the hooks serve sessions started there, and
	// install says that one started in a folder inside runs none of them.
	out = e.conchIn(e.project, "install", "claude", "--project")
	has(t, "install at the root", out, "these hooks serve sessions started in "+e.project+", not in its subfolders", "conch install claude --user")
	other := filepath.Join(e.project, "api")
	if err := os.MkdirAll(other, 0o755); err != nil {
		t.Fatal(err)
	}
	c = e.command("Hi from another subfolder")
	c.Dir = other
	e.wait(c).ok(t)
	hasNot(t, "after a session in a subfolder of the root's install", e.conchOut("chats", "list"), "c_2")
	e.run("Hi from the root again").ok(t)
	has(t, "after a session at the root", e.conchOut("chats", "list"), "(chat c_2)")
}
