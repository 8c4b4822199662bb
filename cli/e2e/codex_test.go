package e2e

// The real Codex CLI (testdata/e2e/harnesses.txt), driven against the fake
// model with conch's hooks installed by conch install codex: each test
// checks one behaviour of conch help integrations' Codex part, through
// conch's own commands and the requests the model received.

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/conch-sh/conch/lock"
)

// bypass runs hooks that are not trusted yet (codex exec runs none
// otherwise: TestCodexExecTrust).
const bypass = "--dangerously-bypass-hook-trust"

// get reads a field of a JSON object by its path.
func get(m map[string]any, path ...string) any {
	var v any = m
	for _, k := range path {
		o, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		v = o[k]
	}
	return v
}

// start runs codex exec in the background; its result comes on the channel.
func (s *codexSession) start(prompt string, flags ...string) <-chan execResult {
	ch := make(chan execResult, 1)
	go func() { ch <- s.exec(prompt, flags...) }()
	return ch
}

func done(t *testing.T, ch <-chan execResult) execResult {
	t.Helper()
	select {
	case r := <-ch:
		if r.err != nil {
			t.Fatalf("codex exec: %v\n%s\n%s", r.err, r.stdout, r.stderr)
		}
		return r
	case <-time.After(120 * time.Second):
		t.Fatal("codex exec did not end")
	}
	return execResult{}
}

// TestCodexExecTrust: codex exec runs untrusted hooks not at all, and says
// nothing of it (install's note says so, and how to trust them); notify
// still reports the turn's end. With the hooks run, SessionEnd is heard.
func TestCodexExecTrust(t *testing.T) {
	s := newCodex(t, func(r *modelRequest, n int) turn { return turn{say("Hello.")} })
	note := s.install()
	if !strings.Contains(note, "codex exec skips untrusted") || !strings.Contains(note, bypass) {
		t.Errorf("install's note does not say how codex exec treats untrusted hooks:\n%s", note)
	}
	r := s.exec("Say hello")
	if r.err != nil {
		t.Fatalf("codex exec: %v\n%s", r.err, r.stderr)
	}
	if strings.Contains(r.stderr, "hook: ") {
		t.Errorf("codex exec ran an untrusted hook:\n%s", r.stderr)
	}
	// notify needs no trust: the turn's end made the session a chat, idle
	// (no SessionEnd was heard). Codex starts its notify program without
	// waiting for it, so it may still run after codex exec has exited.
	waitFor(t, "notify alone makes the turn a chat's reply, idle, with its words", 30*time.Second, func() bool {
		c := s.chatOr("c_1")
		return get(c, "status") == "idle" && get(c, "last_reply", "text") == "Hello."
	})
	r = s.exec("Say hello", bypass)
	if r.err != nil || !strings.Contains(r.stderr, "hook: SessionStart Completed") {
		t.Fatalf("codex exec %s: %v\n%s", bypass, r.err, r.stderr)
	}
	if c := s.chatOr("c_2"); get(c, "status") != "stopped" {
		t.Errorf("with the hooks run, the session's chat is %v, want stopped at its end", c)
	}
}

// TestCodexExec: one codex exec, start to end. The model's own conch
// commands act as its chat (CODEX_THREAD_ID; no CONCH_CHAT is set), a
// hosted web search taints the chat as outside, and a finished codex exec
// leaves its chat stopped (SessionEnd, its timeout within Codex's 3 s).
func TestCodexExec(t *testing.T) {
	var s *codexSession
	s = newCodex(t, func(r *modelRequest, n int) turn {
		switch n {
		case 0:
			return turn{webSearch("golang flock"), shell("call_1", conchBin+" step edit --file notes.md && "+conchBin+" chat show --json")}
		}
		return turn{say("Notes written.")}
	})
	s.install()
	r := s.exec("Write the notes", bypass)
	if r.err != nil {
		t.Fatalf("codex exec: %v\n%s", r.err, r.stderr)
	}
	for _, bad := range []string{"conch: warning", "timeout", "Ignored unsupported"} {
		if strings.Contains(r.stderr, bad) {
			t.Errorf("codex exec said %q:\n%s", bad, r.stderr)
		}
	}
	list := s.chats()
	if len(list) != 1 {
		t.Fatalf("chats %v, want one", list)
	}
	c := s.chat("c_1")
	if got := get(c, "status"); got != "stopped" {
		t.Errorf("after codex exec the chat is %v, want stopped", got)
	}
	if got := get(c, "last_reply", "text"); got != "Notes written." {
		t.Errorf("last words %v", got)
	}
	files, _ := get(c, "last_reply", "files").([]any)
	if len(files) != 1 || files[0] != filepath.Join(s.dir, "notes.md") {
		t.Errorf("the model's conch step did not act as its chat: files %v", files)
	}
	out, ok := s.model.mainRequests()[1].outputOf("call_1")
	if !ok || !strings.Contains(out, `\"id\": \"c_1\"`) {
		t.Errorf("the model's conch chat show did not show its own chat:\n%s", out)
	}
	if !strings.Contains(s.conch("chat", "show", "c_1"), "web search: golang flock") {
		t.Errorf("the hosted web search did not taint the chat:\n%s", s.conch("chat", "show", "c_1", "--json"))
	}
}

// TestCodexTwoSessions: two Codex sessions in one folder hear of each
// other; a message reaches the other mid-turn, a --start-reply message
// starts its next reply at its turn's end, and a wait on it wakes with
// its last words.
func TestCodexTwoSessions(t *testing.T) {
	plainSent, aAfterTool, startSent := make(chan struct{}), make(chan struct{}), make(chan struct{})
	var b *codexSession
	a := newCodex(t, func(r *modelRequest, n int) turn {
		switch n {
		case 0:
			<-plainSent
			return turn{shell("a_1", "echo parsing")}
		case 1:
			close(aAfterTool)
			<-startSent
			return turn{say("Parser done.")}
		}
		return turn{say("README updated.")}
	})
	a.install()
	runA := a.start("Work on the parser", bypass)
	waitFor(t, "A's chat working", 60*time.Second, func() bool {
		return len(a.chats()) == 1 && get(a.chats()[0], "state") == "working"
	})
	b = a.another(func(r *modelRequest, n int) turn {
		switch n {
		case 0:
			return turn{shell("b_1", conchBin+" chats list")}
		case 1:
			return turn{shell("b_2", conchBin+" chat message c_1 'FYI: I am on the docs'")}
		case 2:
			close(plainSent)
			<-aAfterTool // A's last tool is behind it: the message waits for its turn's end
			return turn{shell("b_3", conchBin+" chat message c_1 --start-reply 'Please also update the README'")}
		case 3:
			return turn{shell("b_4", conchBin+" wait chat c_1 --timeout 60s")}
		}
		return turn{say("Docs done.")}
	})
	b.install()
	runB := b.start("Write the docs", bypass)
	// B's wait is registered: A may go on.
	waitFor(t, "B's wait on A", 60*time.Second, func() bool {
		out, _ := b.conchIn(b.dir, nil, "wait", "list", "--chat", "c_2")
		return strings.Contains(out, "c_1")
	})
	close(startSent)
	ra := done(t, runA)
	done(t, runB)

	breqs := b.model.mainRequests()
	heard, _ := breqs[1].outputOf("b_1")
	if !strings.Contains(heard, "Work on the parser") || !strings.Contains(heard, "working") {
		t.Errorf("B did not hear of A working in its folder:\n%s", heard)
	}
	woke, _ := breqs[4].outputOf("b_4")
	// The words are the reply's that ended last when the waiter read them:
	// the first, or the one the message started, which ends at once.
	if !strings.Contains(woke, "finished its reply") || !strings.Contains(woke, "Parser done.") && !strings.Contains(woke, "README updated.") {
		t.Errorf("B's wait did not wake with A's last words:\n%s", woke)
	}
	areqs := a.model.mainRequests()
	if len(areqs) != 3 {
		for i, r := range areqs {
			os.WriteFile(filepath.Join("/work/explore", "areq"+string(rune('0'+i))), []byte(r.text()), 0o644)
			t.Logf("A.s request: %.300s", r.text())
		}
		t.Logf("A's codex exec:\n%s", ra.stderr)
		t.Fatalf("A's model had %d requests, want 3 (the tool's output, the turn the message started)", len(areqs))
	}
	if !strings.Contains(areqs[1].text(), "FYI: I am on the docs") {
		t.Errorf("the message did not reach A after its tool:\n%s", areqs[1].text())
	}
	if !strings.Contains(areqs[2].text(), "Please also update the README") {
		t.Errorf("the --start-reply message did not start A's next reply:\n%s", areqs[2].text())
	}
	if got := get(a.chat("c_1"), "last_reply", "text"); got != "README updated." {
		t.Errorf("A's last words %v", got)
	}
}

// TestCodexStopMidTool: another chat stops the reply while a tool runs.
// Codex 0.169 lets no hook end a turn: after the tool, continue:false
// puts the stop notice in place of the tool's output and the model is
// asked again; every tool it calls after is denied with the notice (a
// PreToolUse continue:false Codex refuses); the turn ends when the model
// answers, and the reply is stopped, not finished.
func TestCodexStopMidTool(t *testing.T) {
	s := newCodex(t, func(r *modelRequest, n int) turn {
		switch n {
		case 0:
			return turn{shell("call_1", conchBin+" chat stop c_2 --reason 'release freeze' --chat c_1")}
		case 1:
			return turn{shell("call_2", "touch ran.txt")}
		}
		return turn{say("Stopped, as asked.")}
	})
	s.install()
	s.conch("chat", "new", "--title", "Release", "--mode", "auto", "--folder", s.dir)
	r := s.exec("Ship it", bypass)
	if r.err != nil {
		t.Fatalf("codex exec: %v\n%s", r.err, r.stderr)
	}
	reqs := s.model.mainRequests()
	if len(reqs) != 3 {
		t.Fatalf("the model was asked %d times, want 3", len(reqs))
	}
	if out, _ := reqs[1].outputOf("call_1"); !strings.Contains(out, "stopped your last reply: release freeze") {
		t.Errorf("the tool's output is not the stop notice: %s", out)
	}
	if out, _ := reqs[2].outputOf("call_2"); !strings.Contains(out, "release freeze") {
		t.Errorf("the tool after the stop was not denied with the notice: %s", out)
	}
	if _, err := os.Stat(filepath.Join(s.dir, "ran.txt")); err == nil {
		t.Error("the tool after the stop ran")
	}
	if got := get(s.chat("c_2"), "last_reply", "outcome"); got != "stopped" {
		t.Errorf("the stopped reply ended %v", got)
	}
}

// TestCodexLockedHome: hooks that cannot have the home's lock never break
// codex exec: the session runs to its end, unknown to conch. (codex exec
// shows the person neither a hook's standard error nor its systemMessage;
// the TUI shows the systemMessage: TestCodexTUI.)
func TestCodexLockedHome(t *testing.T) {
	s := newCodex(t, func(r *modelRequest, n int) turn { return turn{say("Hello.")} })
	s.install()
	if err := os.MkdirAll(s.conchHome, 0o700); err != nil {
		t.Fatal(err)
	}
	unlock, err := lock.Exclusive(context.Background(), filepath.Join(s.conchHome, "conch.lock"), time.Second)
	if err != nil {
		t.Fatal(err)
	}
	r := s.exec("Say hello", bypass)
	unlock()
	if r.err != nil || !strings.Contains(r.stdout, "Hello.") {
		t.Fatalf("codex exec with the home locked: %v\n%s\n%s", r.err, r.stdout, r.stderr)
	}
	if strings.Contains(s.model.mainRequests()[0].text(), "conch: this session is chat") {
		t.Error("a hook answered while the home was locked")
	}
}

// TestCodexProjectInstall: install --project puts conch's hooks in the
// project's .codex/ and no notify, which Codex refuses there, warning at
// every run (shown here with the line an older conch wrote).
func TestCodexProjectInstall(t *testing.T) {
	s := newCodex(t, func(r *modelRequest, n int) turn { return turn{say("Hello.")} })
	proj := filepath.Join(s.dir, ".codex")
	if err := os.MkdirAll(proj, 0o755); err != nil {
		t.Fatal(err)
	}
	old := `notify = ["` + conchBin + `", "hook", "codex"]` + "\n"
	if err := os.WriteFile(filepath.Join(proj, "config.toml"), []byte(old), 0o644); err != nil {
		t.Fatal(err)
	}
	r := s.exec("Say hello")
	if !strings.Contains(r.stderr, "Ignored unsupported project-local config keys") {
		t.Errorf("Codex took notify in a project config without a word:\n%s", r.stderr)
	}
	out := s.install("--project")
	if !strings.Contains(out, "conch's notify taken out") {
		t.Errorf("install --project said:\n%s", out)
	}
	r = s.exec("Say hello", bypass)
	if r.err != nil || strings.Contains(r.stderr, "Ignored unsupported") {
		t.Errorf("codex exec after install --project: %v\n%s", r.err, r.stderr)
	}
	if !strings.Contains(r.stderr, "hook: SessionStart Completed") || len(s.chats()) != 1 {
		t.Errorf("the project's hooks did not make the session a chat:\n%s", r.stderr)
	}
	if _, err := os.Stat(filepath.Join(s.codexHome, "hooks.json")); err == nil {
		t.Error("install --project wrote the user's hooks.json")
	}
}
