package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/conch-sh/conch/lock"
	"github.com/conch-sh/conch/state/store"
)

// TestHookCodexLockedHome: Codex keeps a hook's standard error where the
// person never looks, so a hook that cannot have the home's lock also
// says it as systemMessage, which Codex shows the person; SessionEnd,
// whose answer Codex does not read, only warns.
func TestHookCodexLockedHome(t *testing.T) {
	home := filepath.Join(t.TempDir(), "home")
	if err := os.MkdirAll(home, 0o700); err != nil {
		t.Fatal(err)
	}
	unlock, err := lock.Exclusive(context.Background(), filepath.Join(home, "conch.lock"), time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer unlock()
	want := "conch: warning: hook codex UserPromptSubmit: lock " + filepath.Join(home, "conch.lock") + " not had in 1s"
	input := `{"session_id":"S","turn_id":"T","cwd":"/tmp","hook_event_name":"UserPromptSubmit","prompt":"hi","model":"m","permission_mode":"default","transcript_path":null}`
	env, out, errs := hookEnv(t, home, input)
	if code := Main([]string{"hook", "codex"}, env); code != 0 {
		t.Fatalf("exit %d, want 0", code)
	}
	var ans map[string]string
	if err := json.Unmarshal(out.Bytes(), &ans); err != nil || len(ans) != 1 || !strings.HasPrefix(ans["systemMessage"], want) {
		t.Errorf("answered %q, want only a systemMessage starting %q", out, want)
	}
	if got := errs.String(); !strings.HasPrefix(got, want) || strings.Count(got, "\n") != 1 {
		t.Errorf("stderr %q, want one line starting %q", got, want)
	}

	input = `{"session_id":"S","cwd":"/tmp","hook_event_name":"SessionEnd","reason":"other","transcript_path":null}`
	env, out, errs = hookEnv(t, home, input)
	if code := Main([]string{"hook", "codex"}, env); code != 0 {
		t.Fatalf("exit %d, want 0", code)
	}
	if out.Len() != 0 || !strings.Contains(errs.String(), "hook codex SessionEnd: lock") {
		t.Errorf("SessionEnd answered %q, warned %q; want nothing, and the warning", out, errs)
	}
}

// fakeCodex runs a process that looks like Codex to /proc: its program
// named codex, its arguments args, working in dir with env, until the
// test ends. (It is a shell, renamed, reading the script named by its
// first argument; Start returns once it runs, so /proc shows it.)
func fakeCodex(t *testing.T, dir string, env []string, args ...string) *exec.Cmd {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "codex")
	sh, err := os.ReadFile("/bin/sh")
	if err != nil {
		t.Skip("no /bin/sh")
	}
	if err := os.WriteFile(bin, sh, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, args[0]), []byte("sleep 60\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, args...)
	cmd.Args[0] = "codex"
	cmd.Dir, cmd.Env = dir, env
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	return cmd
}

// TestHookCodexDaemon: a hook whose harness is Codex's app-server daemon
// (which the TUI leaves running, serving later sessions with the first
// terminal's environment) takes no CONCH_CHAT from it, and the reply it
// starts rests on the TUI the person is in, so a /quit mid-turn ends it.
func TestHookCodexDaemon(t *testing.T) {
	if runtime.GOOS != "linux" {
		// macOS's /bin/sh runs bash, dash or zsh in its own place, so a
		// renamed copy is no process named codex; state/proc's
		// TestDarwinCodexClient covers the lookup there.
		t.Skip("the fake Codex is a renamed /bin/sh, which only Linux runs under its new name")
	}
	home := filepath.Join(t.TempDir(), "home")
	proj := t.TempDir()
	codexHome := t.TempDir()
	daemon := fakeCodex(t, t.TempDir(), nil, "app-server", "--listen", "unix://").Process.Pid
	tui := fakeCodex(t, proj, []string{"CODEX_HOME=" + codexHome}, "tui")
	client := tui.Process.Pid

	run := daemonRun(t, home, daemon)
	run("", nil, "chat", "new", "--title", "Watcher", "--folder", proj)
	env := map[string]string{"CONCH_CHAT": "c_1", "CODEX_HOME": codexHome}
	prompt := `{"session_id":"S","turn_id":"T","cwd":"` + proj + `","hook_event_name":"UserPromptSubmit","prompt":"hi","model":"m","permission_mode":"default","transcript_path":null}`
	run(prompt, env, "hook", "codex")
	var c struct {
		ID     string `json:"id"`
		Parent string `json:"parent"`
		Reply  struct {
			PID int `json:"pid"`
		} `json:"reply"`
	}
	if err := json.Unmarshal([]byte(run("", nil, "chat", "show", "c_2", "--json")), &c); err != nil {
		t.Fatalf("the session is no chat of its own (the daemon's CONCH_CHAT won?): %v", err)
	}
	if c.Parent != "" {
		t.Errorf("the session's chat is a child of %s, the daemon's CONCH_CHAT", c.Parent)
	}
	if c.Reply.PID != client {
		t.Errorf("the reply rests on pid %d, want the TUI's %d (the daemon is %d)", c.Reply.PID, client, daemon)
	}

	// /quit mid-turn: the TUI goes, the daemon goes on, no hook fires. The
	// reply is over, as stopped; the turn's Stop, when the daemon ends it,
	// keeps its words as a reply of their own.
	tui.Process.Kill()
	tui.Wait()
	if list := run("", nil, "chats", "list", "--json"); !strings.Contains(list, `"state": "stopped"`) {
		t.Errorf("after the TUI went the reply is not stopped:\n%s", list)
	}
	stop := `{"session_id":"S","turn_id":"T","cwd":"` + proj + `","hook_event_name":"Stop","model":"m","permission_mode":"default","transcript_path":null,"stop_hook_active":false,"last_assistant_message":"Late words."}`
	run(stop, env, "hook", "codex")
	var after struct {
		Last struct {
			Outcome, Text string
		} `json:"last_reply"`
	}
	json.Unmarshal([]byte(run("", nil, "chat", "show", "c_2", "--json")), &after)
	if after.Last.Outcome != "finished" || after.Last.Text != "Late words." {
		t.Errorf("after the late Stop the last reply is %+v", after.Last)
	}

	// notify, which the daemon runs too, for a thread with hooks off: its
	// own chat, not the daemon's CONCH_CHAT.
	day := filepath.Join(codexHome, "sessions", "2026", "11", "29")
	if err := os.MkdirAll(day, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(day, "rollout-2026-11-29T12-00-00-T2.jsonl"), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	run("", env, "hook", "codex", `{"type":"agent-turn-complete","thread-id":"T2","turn-id":"U","cwd":"`+proj+`","input-messages":["hi"],"last-assistant-message":"Mine."}`)
	if show := run("", nil, "chat", "show", "c_3", "--json"); !strings.Contains(show, `"text": "Mine."`) {
		t.Errorf("notify under the daemon made no chat of its own:\n%s", show)
	}
	if show := run("", nil, "chat", "show", "c_1", "--json"); strings.Contains(show, "Mine.") {
		t.Errorf("notify under the daemon ended the daemon's CONCH_CHAT's reply:\n%s", show)
	}
}

// TestHookCodexTUIChat: a TUI started with CONCH_CHAT set (as a wake, or a
// person, starts one for a chat) is that chat: its hooks, which the
// daemon runs with another terminal's environment (CONCH_CHAT naming
// another chat), read it from the TUI's own process. A TUI started with
// none is a chat of its own, whatever the daemon's says.
func TestHookCodexTUIChat(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the fake Codex is a renamed /bin/sh, which only Linux runs under its new name")
	}
	home := filepath.Join(t.TempDir(), "home")
	proj, other := t.TempDir(), t.TempDir()
	codexHome := t.TempDir()
	daemon := fakeCodex(t, t.TempDir(), []string{"CONCH_CHAT=c_1"}, "app-server", "--listen", "unix://").Process.Pid
	tui := fakeCodex(t, proj, []string{"CODEX_HOME=" + codexHome, "CONCH_CHAT=c_2"}, "tui")
	fakeCodex(t, other, []string{"CODEX_HOME=" + codexHome}, "tui")

	run := daemonRun(t, home, daemon)
	run("", nil, "chat", "new", "--title", "Other terminal", "--folder", other)
	run("", nil, "chat", "new", "--title", "Woken", "--folder", proj)
	env := map[string]string{"CONCH_CHAT": "c_1", "CODEX_HOME": codexHome}
	event := func(name, session, folder string) string {
		return `{"session_id":"` + session + `","turn_id":"T","cwd":"` + folder + `","hook_event_name":"` + name + `","source":"startup","prompt":"hi","model":"m","permission_mode":"default","transcript_path":null}`
	}
	if ans := run(event("SessionStart", "S", proj), env, "hook", "codex"); !strings.Contains(ans, "this session is chat c_2") {
		t.Errorf("the TUI's session is not the chat its CONCH_CHAT names (c_2):\n%s", ans)
	}
	run(event("UserPromptSubmit", "S", proj), env, "hook", "codex")
	var c struct {
		Reply struct {
			PID int `json:"pid"`
		} `json:"reply"`
	}
	if err := json.Unmarshal([]byte(run("", nil, "chat", "show", "c_2", "--json")), &c); err != nil || c.Reply.PID != tui.Process.Pid {
		t.Errorf("c_2's reply rests on pid %d, want the TUI's %d (%v)", c.Reply.PID, tui.Process.Pid, err)
	}

	// The other terminal's TUI, with no CONCH_CHAT: a chat of its own, not
	// the daemon's c_1.
	run(event("SessionStart", "S2", other), env, "hook", "codex")
	run(event("UserPromptSubmit", "S2", other), env, "hook", "codex")
	list := run("", nil, "chats", "list", "--json")
	if !strings.Contains(list, `"id": "c_3"`) {
		t.Errorf("the TUI with no CONCH_CHAT made no chat of its own:\n%s", list)
	}
	if show := run("", nil, "chat", "show", "c_1", "--json"); strings.Contains(show, `"reply": {`) {
		t.Errorf("the daemon's CONCH_CHAT (c_1) took the other TUI's turn:\n%s", show)
	}
}

// lockOnce is a home on local files, as a backend, whose write lock is had
// once per command and not again: a hook's first update goes through, and
// its next (the notes' marks) finds the home locked, as when another
// command takes the lock in between.
type lockOnce struct {
	*store.Files
	locks int
}

func (s *lockOnce) Lock(wait time.Duration) (func(), error) {
	if s.locks++; s.locks > 1 {
		return nil, &lock.TimeoutError{Path: s.Where("conch.lock"), Waited: time.Second}
	}
	return s.Files.Lock(wait)
}
func (s *lockOnce) URL() string                    { return "nats://127.0.0.1:4222" }
func (s *lockOnce) Bucket() string                 { return "conch" }
func (s *lockOnce) Health() (BackendHealth, error) { return BackendHealth{}, nil }

// TestHookCodexLockWarningEverywhere: every answer of Codex's that can
// carry systemMessage (its hook schemas give one to every event conch
// hooks but SessionEnd) carries the locked home's warning: with the home
// locked throughout, and with the lock had for the event's first update
// but not for the notes' marks after it, when the answer has context to
// give too (the session's introduction): both are said, in one answer.
func TestHookCodexLockWarningEverywhere(t *testing.T) {
	home := filepath.Join(t.TempDir(), "home")
	files := func(name string) string {
		data, err := os.ReadFile(filepath.Join("..", "testdata", "hooks", "codex", name))
		if err != nil {
			t.Fatal(err)
		}
		return string(data)
	}
	base := `"session_id":"SESSION-A","turn_id":"T","cwd":"/tmp/proj","model":"m","permission_mode":"default","transcript_path":null`
	events := map[string]string{
		"SessionStart":      files("session_start.json"),
		"UserPromptSubmit":  files("user_prompt_submit.json"),
		"PreToolUse":        files("pre_tool_use_bash.json"),
		"PostToolUse":       files("post_tool_use_bash.json"),
		"PermissionRequest": `{` + base + `,"hook_event_name":"PermissionRequest","tool_name":"Bash","tool_input":{"command":"ls"}}`,
		"PreCompact":        `{` + base + `,"hook_event_name":"PreCompact","trigger":"manual"}`,
		"Stop":              files("stop_0169.json"),
		"Interrupt":         files("interrupt.json"),
	}
	run := func(input string, backend OpenBackend, args ...string) (string, string) {
		t.Helper()
		env, out, errs := hookEnv(t, home, input)
		if backend != nil {
			get := env.Getenv
			env.Getenv = func(k string) string {
				if k == "CONCH_BACKEND_URL" {
					return "nats://127.0.0.1:4222"
				}
				return get(k)
			}
			env.OpenBackend = backend
		}
		if code := Main(args, env); code != 0 {
			t.Fatalf("conch %v: exit %d: %s", args, code, errs)
		}
		return out.String(), errs.String()
	}
	// The session is a chat (c_1) with a message due for it.
	run(files("session_start.json"), nil, "hook", "codex")
	run("", nil, "chat", "new", "--title", "Other")
	run("", nil, "chat", "message", "c_1", "the API moved", "--chat", "c_2")

	unlock, err := lock.Exclusive(context.Background(), filepath.Join(home, "conch.lock"), time.Second)
	if err != nil {
		t.Fatal(err)
	}
	for name, input := range events {
		out, _ := run(input, nil, "hook", "codex")
		var ans map[string]any
		if err := json.Unmarshal([]byte(out), &ans); err != nil || !strings.HasPrefix(fmt.Sprint(ans["systemMessage"]), "conch: warning: hook codex "+name+": lock ") {
			t.Errorf("%s, the home locked: answered %q, want the warning as systemMessage", name, out)
		}
	}
	if out, warned := run(files("session_end.json"), nil, "hook", "codex"); out != "" || !strings.Contains(warned, "lock") {
		t.Errorf("SessionEnd (no systemMessage in Codex's schema) answered %q, warned %q", out, warned)
	}
	unlock()

	once := func(BackendConfig) (BackendStore, error) { return &lockOnce{Files: store.NewFiles(home, nil, 0)}, nil }
	out, _ := run(files("session_start.json"), once, "hook", "codex")
	var ans struct {
		SystemMessage string `json:"systemMessage"`
		Specific      struct {
			Context string `json:"additionalContext"`
		} `json:"hookSpecificOutput"`
	}
	if err := json.Unmarshal([]byte(out), &ans); err != nil {
		t.Fatalf("SessionStart with the notes' lock not had answered %q: %v", out, err)
	}
	// The warning names the lock (a session's start also keeps its
	// chat's wake on this computer, under a lock of its own, and says
	// first that it could not).
	if !strings.Contains(ans.Specific.Context, "this session is chat c_1") || !strings.HasPrefix(ans.SystemMessage, "conch: warning: hook codex SessionStart: ") || !strings.Contains(ans.SystemMessage, "conch.lock not had in") {
		t.Errorf("SessionStart with the notes' lock not had: want the introduction and the warning, answered %q", out)
	}
	if strings.Contains(ans.Specific.Context, "the API moved") {
		t.Errorf("the message was said though its mark was not made:\n%s", out)
	}
	if notes, _ := run("", nil, "notes", "--chat", "c_1"); !strings.Contains(notes, "the API moved") {
		t.Errorf("the message is not due any more:\n%s", notes)
	}
}

// daemonRun runs conch in home as a hook Codex's app-server daemon runs
// does (its parent), with env's variables over the test's.
func daemonRun(t *testing.T, home string, daemon int) func(input string, env map[string]string, args ...string) string {
	return func(input string, env map[string]string, args ...string) string {
		t.Helper()
		e, out, errs := hookEnv(t, home, input)
		get := e.Getenv
		e.Getenv = func(k string) string {
			if v, ok := env[k]; ok {
				return v
			}
			return get(k)
		}
		e.PPID = daemon
		if code := Main(args, e); code != 0 || errs.Len() > 0 {
			t.Fatalf("conch %v: exit %d: %s", args, code, errs)
		}
		return out.String()
	}
}
