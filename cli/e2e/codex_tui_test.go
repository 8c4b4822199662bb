//go:build unix

package e2e

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/conch-sh/conch/lock"
)

// startCodexTUI runs Codex's TUI in tmux for the session, with env added,
// and ends the app-server daemon it starts when the test ends (the
// daemon outlives the TUI: it is found by its program, which Codex copies
// into this test's own CODEX_HOME, and ended by its pid).
func (s *codexSession) startCodexTUI(env []string, flags ...string) *tui {
	s.t.Helper()
	u := startTUI(s.t, s.dir, append(s.env(), env...), append([]string{s.bin}, flags...)...)
	s.t.Cleanup(func() {
		pids := s.daemons()
		for _, pid := range pids {
			syscall.Kill(pid, syscall.SIGTERM)
		}
		deadline := time.Now().Add(5 * time.Second)
		for _, pid := range pids {
			for syscall.Kill(pid, 0) == nil && time.Now().Before(deadline) {
				time.Sleep(50 * time.Millisecond)
			}
			syscall.Kill(pid, syscall.SIGKILL)
		}
	})
	return u
}

// daemons are the pids of the Codex processes running a program from this
// test's CODEX_HOME (the app-server daemon and its helper).
func (s *codexSession) daemons() []int {
	var pids []int
	ents, _ := os.ReadDir("/proc")
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		exe, err := os.Readlink(filepath.Join("/proc", e.Name(), "exe"))
		if err == nil && strings.HasPrefix(exe, s.codexHome+string(os.PathSeparator)) {
			pids = append(pids, pid)
		}
	}
	return pids
}

// appServers are the pids of the app-server daemons among daemons (not
// their helpers).
func (s *codexSession) appServers() []int {
	var pids []int
	for _, pid := range s.daemons() {
		args, _ := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "cmdline"))
		if words := strings.Split(string(args), "\x00"); len(words) > 1 && words[1] == "app-server" {
			pids = append(pids, pid)
		}
	}
	return pids
}

// TestCodexTUI: the TUI under tmux, with its app-server daemon, as a person
// runs it. Hooks are trusted at Codex's prompt; a TUI started with
// CONCH_CHAT set (as a wake starts one) is that chat; the TUI's hidden
// title threads make no chats; the model's conch commands act as its chat;
// Esc ends the reply as stopped and the wait on it; a locked home is said
// to the person; /quit mid-turn does the same though the daemon goes on;
// a TUI started later with no CONCH_CHAT, which the daemon serves with the
// first terminal's environment (CONCH_CHAT naming that chat), is a chat of
// its own; install --remove takes out the trust.
func TestCodexTUI(t *testing.T) {
	tmuxPath(t)
	s := newCodex(t, func(r *modelRequest, n int) turn {
		switch n {
		case 0:
			return turn{shell("call_1", conchBin+" step edit --file stale.txt")}
		case 1:
			return turn{say("First done.")}
		case 2, 5:
			return nil // thinks until interrupted
		case 3:
			return turn{shell("call_2", "echo locked")}
		}
		return turn{say("Fine.")}
	})
	s.install()
	s.conch("chat", "new", "--title", "Woken", "--folder", s.dir)
	s.conch("chat", "new", "--title", "Watcher", "--folder", s.dir)
	u := s.startCodexTUI([]string{"CONCH_CHAT=c_1"})

	// Codex asks to review the new hooks: trust them all.
	u.waitScreen("Hooks need review", 90*time.Second)
	u.pressUntil("Down", "› 2. Trust all", 60*time.Second)
	u.pressUntil("Enter", "Ask Codex to do anything", 90*time.Second)
	cfg, _ := os.ReadFile(filepath.Join(s.codexHome, "config.toml"))
	if n := strings.Count(string(cfg), "trusted_hash"); n != 9 {
		t.Errorf("trusting recorded %d hooks, want conch's 9:\n%s", n, cfg)
	}

	// A turn: the session is the chat the TUI's CONCH_CHAT names (c_1),
	// no new chat (the title thread is none), nor a child; the model's
	// own step is its.
	u.typeText("Say hello")
	u.keys("Enter")
	waitFor(t, "the first turn's end", 90*time.Second, func() bool {
		c := s.chatOr("c_1")
		return get(c, "last_reply", "text") == "First done." && get(c, "state") == "idle"
	})
	if list := s.chats(); len(list) != 2 {
		t.Errorf("chats %v, want Woken (the session's) and Watcher", list)
	}
	c := s.chat("c_1")
	if get(c, "parent") != "" {
		t.Errorf("the session's chat is a child of %v", get(c, "parent"))
	}
	files, _ := get(c, "last_reply", "files").([]any)
	if len(files) != 1 || files[0] != filepath.Join(s.dir, "stale.txt") {
		t.Errorf("the model's conch step did not act as the session's chat: %v", files)
	}
	if get(s.chat("c_2"), "last_reply") != nil {
		t.Error("Watcher (c_2) has a reply: the model's step or a hidden thread's notify acted as it")
	}

	// Esc while the model thinks: the reply ends as stopped, and the wait
	// on it ends.
	u.typeText("Think long")
	u.keys("Enter")
	s.model.waitRequest(t, "the second turn's request", func(r *modelRequest) bool {
		return strings.Contains(r.text(), "Think long") && !hidden(r)
	})
	s.conch("wait", "chat", "c_1", "--chat", "c_2")
	u.keys("Escape")
	waitFor(t, "the interrupted reply's end", 90*time.Second, func() bool {
		return get(s.chatOr("c_1"), "last_reply", "outcome") == "stopped"
	})
	if notes := s.conch("notes", "--chat", "c_2"); !strings.Contains(notes, "was stopped before its reply finished") {
		t.Errorf("the wait did not end with the stop:\n%s", notes)
	}

	// The home locked: each hook of the turn says so where the person
	// looks (its systemMessage).
	unlock, err := lock.Exclusive(context.Background(), filepath.Join(s.conchHome, "conch.lock"), time.Second)
	if err != nil {
		t.Fatal(err)
	}
	u.typeText("Locked now")
	u.keys("Enter")
	for _, event := range []string{"UserPromptSubmit", "PreToolUse", "PostToolUse", "Stop"} {
		u.waitScreen("Hook · conch: warning: hook codex "+event+": lock", 90*time.Second)
	}
	unlock()
	u.waitScreen("Fine.", 90*time.Second)

	// /quit while the model thinks: the daemon goes on with the turn
	// ("Any running work continues"), and fires no hook; the reply's
	// process was the TUI, so the reply is over for conch, as stopped,
	// and the wait on it ends.
	u.typeText("Think again")
	u.keys("Enter")
	s.model.waitRequest(t, "the last turn's request", func(r *modelRequest) bool {
		return strings.Contains(r.text(), "Think again") && !hidden(r)
	})
	waitFor(t, "the last turn's reply", 90*time.Second, func() bool {
		return get(s.chatOr("c_1"), "state") == "working"
	})
	s.conch("wait", "chat", "c_1", "--chat", "c_2")
	u.typeText("/quit")
	u.keys("Enter")
	u.waitScreen("Stop the current turn: run codex agents", 90*time.Second)
	waitFor(t, "the reply stopped at /quit", 90*time.Second, func() bool {
		list := s.conch("chats", "list", "--json")
		return strings.Contains(list, `"state": "stopped"`)
	})
	if notes := s.conch("notes", "--chat", "c_2"); !strings.Contains(notes, "was stopped before its reply finished") {
		t.Errorf("the wait did not end at /quit:\n%s", notes)
	}

	// Another TUI, started later with no CONCH_CHAT: the daemon, which the
	// first one started (its CONCH_CHAT c_1), serves it with that
	// environment; its session is a chat of its own, read from its own
	// process, never c_1.
	replies := get(s.chat("c_1"), "replies")
	daemons := fmt.Sprint(s.appServers())
	if daemons == "[]" {
		t.Error("no app-server daemon runs after /quit")
	}
	u2 := s.startCodexTUI(nil)
	u2.waitScreen("Ask Codex to do anything", 90*time.Second)
	// On a busy machine the later TUI's start can show a short-lived
	// app-server process beside the daemon; one of its own stays.
	settled := time.Now().Add(30 * time.Second)
	for now := fmt.Sprint(s.appServers()); now != daemons; now = fmt.Sprint(s.appServers()) {
		if time.Now().After(settled) {
			t.Errorf("the later TUI has an app-server %s of its own, not the first one's %s", now, daemons)
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	u2.typeText("Say hello again")
	u2.keys("Enter")
	waitFor(t, "the later TUI's turn", 90*time.Second, func() bool {
		return get(s.chatOr("c_3"), "last_reply", "text") == "Fine."
	})
	if got := get(s.chat("c_1"), "replies"); got != replies {
		t.Errorf("c_1, the daemon's CONCH_CHAT, has %v replies after the later TUI's turn, %v before", got, replies)
	}
	u2.typeText("/quit")
	u2.keys("Enter")

	// install --remove takes out conch's hooks and the trust they had.
	out := s.install("--remove")
	if !strings.Contains(out, "taken out (9 entries)") {
		t.Errorf("install --remove said:\n%s", out)
	}
	cfg, _ = os.ReadFile(filepath.Join(s.codexHome, "config.toml"))
	if strings.Contains(string(cfg), "trusted_hash") {
		t.Errorf("trust entries left:\n%s", cfg)
	}
}
