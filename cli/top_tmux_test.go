package cli_test

// conch top in a real terminal: tmux runs the built binary in an 80×24
// (or narrower) window, send-keys presses, capture-pane reads the screen.
// Each test waits for what the screen must come to show (with a deadline
// that only a failure reaches), never for a time.

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

type topTerm struct {
	t          *testing.T
	bin, home  string
	sock, work string
}

// conchBinary builds conch once for the terminal tests.
func conchBinary(t *testing.T) string {
	t.Helper()
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux is not installed (.ci/run installs it from Debian's packages): conch top's terminal tests skipped")
	}
	bin := filepath.Join(t.TempDir(), "conch")
	out, err := exec.Command("go", "build", "-o", bin, "../cmd/conch").CombinedOutput()
	if err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

func newTopTerm(t *testing.T, bin string) *topTerm {
	dir := t.TempDir()
	x := &topTerm{t: t, bin: bin, home: filepath.Join(dir, "home"), sock: filepath.Join(dir, "tmux.sock"), work: dir}
	t.Cleanup(func() { exec.Command("tmux", "-S", x.sock, "kill-server").Run() })
	return x
}

// conch runs a conch command on the test's home, as the person (not at a
// terminal) unless args name a chat.
func (x *topTerm) conch(args ...string) string {
	x.t.Helper()
	cmd := exec.Command(x.bin, args...)
	cmd.Env = append(cleanEnv(), "CONCH_HOME="+x.home, "HOME="+x.work)
	cmd.Dir = x.work
	out, err := cmd.CombinedOutput()
	if err != nil {
		if _, ok := err.(*exec.ExitError); !ok {
			x.t.Fatalf("conch %v: %v\n%s", args, err, out)
		}
	}
	return string(out)
}

// hook runs conch hook claude with one event, as Claude Code would.
func (x *topTerm) hook(event map[string]any) string {
	x.t.Helper()
	event["transcript_path"] = filepath.Join(x.work, "none.jsonl")
	event["cwd"] = x.work
	payload, _ := json.Marshal(event)
	cmd := exec.Command(x.bin, "hook", "claude")
	cmd.Env = append(cleanEnv(), "CONCH_HOME="+x.home, "HOME="+x.work)
	cmd.Dir = x.work
	cmd.Stdin = strings.NewReader(string(payload))
	out, err := cmd.CombinedOutput()
	if err != nil {
		x.t.Fatalf("conch hook claude %s: %v\n%s", payload, err, out)
	}
	return string(out)
}

func cleanEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "CONCH_") && !strings.HasPrefix(kv, "NO_COLOR=") && !strings.HasPrefix(kv, "TMUX") {
			env = append(env, kv)
		}
	}
	return env
}

// start runs script (sh) in a new tmux window of w×h, with CONCH_HOME and
// the environment given.
func (x *topTerm) start(w, h int, env []string, script string) {
	x.t.Helper()
	sh := "cd " + x.work + " && exec env -u CONCH_CHAT CONCH_HOME=" + x.home + " HOME=" + x.work + " " + strings.Join(env, " ") + " sh -c '" + script + "'"
	args := []string{"-S", x.sock, "-f", "/dev/null", "new-session", "-d", "-s", "top", "-x", strconv.Itoa(w), "-y", strconv.Itoa(h), sh}
	if out, err := exec.Command("tmux", args...).CombinedOutput(); err != nil {
		x.t.Fatalf("tmux new-session: %v\n%s", err, out)
	}
}

// top runs conch top in a w×h window, and waits for its first frame.
func (x *topTerm) top(w, h int, env ...string) {
	x.t.Helper()
	x.start(w, h, env, x.bin+" top; echo conch top exited $?; exec cat")
	x.waitFor("its first frame", func(s string) bool { return strings.Contains(s, "conch top ·") })
}

func (x *topTerm) tmux(args ...string) string {
	x.t.Helper()
	out, err := exec.Command("tmux", append([]string{"-S", x.sock}, args...)...).CombinedOutput()
	if err != nil {
		x.t.Fatalf("tmux %v: %v\n%s", args, err, out)
	}
	return string(out)
}

func (x *topTerm) screen() string { return x.tmux("capture-pane", "-p", "-t", "top") }

// keys presses keys in tmux's words (j, Enter, Up).
func (x *topTerm) keys(keys ...string) {
	x.t.Helper()
	x.tmux(append([]string{"send-keys", "-t", "top"}, keys...)...)
}

// waitFor waits until the screen satisfies ok, and returns it. The deadline
// is for a failure only: a screen that is right comes within milliseconds.
func (x *topTerm) waitFor(what string, ok func(screen string) bool) string {
	x.t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for {
		s := x.screen()
		if ok(s) {
			return s
		}
		if time.Now().After(deadline) {
			x.t.Fatalf("the screen never showed %s:\n%s", what, s)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func (x *topTerm) waitText(text string) string {
	x.t.Helper()
	return x.waitFor(fmt.Sprintf("%q", text), func(s string) bool { return strings.Contains(s, text) })
}

// selected is the screen's selected row (the one marked >).
func selected(screen string) string {
	for _, l := range strings.Split(screen, "\n") {
		if strings.HasPrefix(l, "> ") {
			return l
		}
	}
	return ""
}

// seed makes three chats: c_1 “Fix login” working and holding messages,
// c_2 “Release notes” working, which sends c_1 a message (held) and asks to
// stop it (a request), c_3 “Deploy” that needs you.
func (x *topTerm) seed() {
	pid := strconv.Itoa(os.Getpid())
	x.conch("chat", "new", "--title", "Fix login", "--folder", x.work)
	x.conch("chat", "new", "--title", "Release notes", "--folder", x.work)
	x.conch("chat", "new", "--title", "Deploy", "--folder", x.work)
	x.conch("chat", "set", "c_1", "--inbound", "hold")
	x.conch("reply", "start", "--chat", "c_1", "--pid", pid)
	x.conch("step", "edit", "--file", filepath.Join(x.work, "src", "auth.ts"), "--chat", "c_1", "--pid", pid)
	x.conch("reply", "start", "--chat", "c_2", "--pid", pid)
	x.conch("chat", "message", "c_1", "please rebase\nsecond line", "--chat", "c_2")
	x.conch("chat", "stop", "c_1", "--reason", "it takes too long", "--chat", "c_2")
	x.conch("chat", "set", "c_3", "--status", "needs-you")
}

func (x *topTerm) json(v any, args ...string) {
	x.t.Helper()
	out := x.conch(append(args, "--json")...)
	if err := json.Unmarshal([]byte(out), v); err != nil {
		x.t.Fatalf("conch %v: %v\n%s", args, err, out)
	}
}

// cardState is the state of message or request id, as conch messages has it.
func (x *topTerm) cardState(id string) string {
	var out struct{ Cards []struct{ ID, State string } }
	x.json(&out, "messages")
	for _, c := range out.Cards {
		if c.ID == id {
			return c.State
		}
	}
	return ""
}

func (x *topTerm) inbound(id string) string {
	var c struct{ Inbound string }
	x.json(&c, "chat", "show", id)
	return c.Inbound
}

func TestTopTerminal(t *testing.T) {
	bin := conchBinary(t)

	// The screen at 80×24: every chat, what waits for you, the footer.
	t.Run("shows", func(t *testing.T) {
		x := newTopTerm(t, bin)
		x.seed()
		x.top(80, 24)
		s := x.waitText("Your chats")
		for _, want := range []string{
			"conch top · 2 working · 1 needs you · 2 wait for you",
			"m_1 held: from “Release notes” (chat c_2) to “Fix login” (chat c_1): “please",
			"r_1 “Release notes” (chat c_2) asks to stop “Fix login” (chat c_1)",
			"needs you: “Deploy” (chat c_3)",
			"“Fix login” (chat c_1): editing files for",
			"inbound hold",
			"q quit",
		} {
			if !strings.Contains(s, want) {
				t.Errorf("the screen does not show %q:\n%s", want, s)
			}
		}
		if strings.Contains(s, "second line") {
			t.Errorf("a held message shows more than its first line:\n%s", s)
		}
		for i, l := range strings.Split(strings.TrimRight(s, "\n"), "\n") {
			if n := len([]rune(l)); n > 80 {
				t.Errorf("row %d is %d columns: %q", i, n, l)
			}
		}
	})

	// ↓/j and ↑/k move the selection.
	t.Run("select", func(t *testing.T) {
		x := newTopTerm(t, bin)
		x.seed()
		x.top(80, 24)
		if sel := selected(x.screen()); !strings.Contains(sel, "m_1") {
			t.Fatalf("the first row is not selected at the start: %q", sel)
		}
		x.keys("j")
		x.waitFor("r_1 selected", func(s string) bool { return strings.Contains(selected(s), "r_1") })
		x.keys("Down")
		x.waitFor("the first chat selected", func(s string) bool { return strings.Contains(selected(s), "(chat c_2): working") })
		x.keys("k")
		x.waitFor("r_1 selected again", func(s string) bool { return strings.Contains(selected(s), "r_1") })
		x.keys("Up")
		x.waitFor("m_1 selected again", func(s string) bool { return strings.Contains(selected(s), "m_1") })
	})

	// enter opens the selected chat's detail, and closes it.
	t.Run("enter", func(t *testing.T) {
		x := newTopTerm(t, bin)
		x.seed()
		x.conch("chat", "set", "c_3", "--goal", "ship it")
		x.top(80, 24)
		x.keys("j", "j", "j")
		x.waitFor("c_1 selected", func(s string) bool { return strings.Contains(selected(s), "(chat c_1)") })
		x.keys("Enter")
		s := x.waitText("changed: src/auth.ts")
		for _, want := range []string{"“Fix login” (chat c_1) · working · ask mode · inbound hold", "Messages", "m_1  From “Release notes”", "enter back"} {
			if !strings.Contains(s, want) {
				t.Errorf("the detail does not show %q:\n%s", want, s)
			}
		}
		x.keys("Enter")
		x.waitText("Your chats")
	})

	// p passes the selected held message on.
	t.Run("p", func(t *testing.T) {
		x := newTopTerm(t, bin)
		x.seed()
		x.top(80, 24)
		x.keys("p")
		x.waitText("m_1 passed on: “Fix login” (chat c_1) reads it at its next notes")
		if st := x.cardState("m_1"); st != "waiting" {
			t.Errorf("m_1 is %q after p, want waiting", st)
		}
		if s := x.screen(); strings.Contains(s, "m_1 held") {
			t.Errorf("m_1 still shows as held:\n%s", s)
		}
	})

	// d dismisses it.
	t.Run("d", func(t *testing.T) {
		x := newTopTerm(t, bin)
		x.seed()
		x.top(80, 24)
		x.keys("d")
		x.waitText("m_1 dismissed")
		if st := x.cardState("m_1"); st != "dismissed" {
			t.Errorf("m_1 is %q after d, want dismissed", st)
		}
	})

	// y confirms the selected request: the stop goes ahead.
	t.Run("y", func(t *testing.T) {
		x := newTopTerm(t, bin)
		x.seed()
		x.top(80, 24)
		x.keys("y")
		x.waitText("y and n act on a request") // not yet: m_1 is selected
		x.keys("j", "y")
		x.waitText("r_1: it stopped the reply")
		if st := x.cardState("r_1"); st != "stopped" {
			t.Errorf("r_1 is %q after y, want stopped", st)
		}
	})

	// n denies it.
	t.Run("n", func(t *testing.T) {
		x := newTopTerm(t, bin)
		x.seed()
		x.top(80, 24)
		x.keys("j", "n")
		x.waitText("r_1: it was denied")
		if st := x.cardState("r_1"); st != "denied" {
			t.Errorf("r_1 is %q after n, want denied", st)
		}
	})

	// i cycles the selected chat's inbound: hold → refuse → accept (a
	// loosening, the person's press) → hold.
	t.Run("i", func(t *testing.T) {
		x := newTopTerm(t, bin)
		x.seed()
		x.top(80, 24)
		x.keys("j", "j", "j")
		x.waitFor("c_1 selected", func(s string) bool { return strings.Contains(selected(s), "(chat c_1)") })
		for _, want := range []string{"refuse", "accept", "hold"} {
			x.keys("i")
			x.waitText("“Fix login” (chat c_1): inbound " + want)
			if got := x.inbound("c_1"); got != want {
				t.Errorf("c_1's inbound is %q, want %q", got, want)
			}
		}
	})

	// A change shows without a key: a held message that comes in.
	t.Run("live", func(t *testing.T) {
		x := newTopTerm(t, bin)
		x.seed()
		x.top(80, 24)
		x.conch("chat", "message", "c_1", "one more", "--chat", "c_2")
		x.waitText("m_2 held: from “Release notes” (chat c_2)")
		x.conch("chat", "set", "c_2", "--status", "needs-you")
		x.waitText("needs you: “Release notes” (chat c_2), “Deploy” (chat c_3)")
	})

	// As a new user would: beside two Claude Code sessions (their hooks'
	// events), conch top shows them working, a held message appears, p
	// passes it on and the session reads it, q leaves the terminal.
	t.Run("claude_sessions", func(t *testing.T) {
		x := newTopTerm(t, bin)
		for _, s := range []struct{ id, prompt, file string }{
			{"S-A", "fix the login", "auth.ts"}, {"S-B", "write the release notes", "NOTES.md"},
		} {
			x.hook(map[string]any{"session_id": s.id, "hook_event_name": "SessionStart", "source": "startup"})
			x.hook(map[string]any{"session_id": s.id, "hook_event_name": "UserPromptSubmit", "prompt": s.prompt})
			x.hook(map[string]any{"session_id": s.id, "hook_event_name": "PreToolUse", "tool_name": "Edit",
				"tool_input": map[string]any{"file_path": filepath.Join(x.work, s.file)}})
		}
		x.start(80, 24, nil, "echo before top; "+x.bin+" top; echo conch top exited $?; exec cat")
		x.waitText("“fix the login” (chat c_1): editing files for")
		x.waitText("“write the release notes” (chat c_2): editing files for")
		x.conch("chat", "set", "c_1", "--inbound", "hold")
		x.conch("chat", "message", "c_1", "I changed NOTES.md, not auth.ts", "--chat", "c_2")
		x.waitText("> m_1 held: from “write the release notes” (chat c_2) to “fix the login”")
		x.keys("p")
		x.waitText("m_1 passed on")
		out := x.hook(map[string]any{"session_id": "S-A", "hook_event_name": "PostToolUse", "tool_name": "Edit",
			"tool_input": map[string]any{"file_path": filepath.Join(x.work, "auth.ts")}, "tool_response": map[string]any{}})
		if !strings.Contains(out, "I changed NOTES.md, not auth.ts") {
			t.Errorf("the session did not read the message passed on: %s", out)
		}
		x.keys("q")
		if s := x.waitText("conch top exited 0"); !strings.Contains(s, "before top") {
			t.Errorf("the screen is not as it was:\n%s", s)
		}
	})

	// The bell rings for what comes to wait for the person, not for what
	// waited when conch top started.
	t.Run("bell", func(t *testing.T) {
		x := newTopTerm(t, bin)
		x.seed()
		x.top(80, 24)
		x.keys("j", "k") // a look after the first
		x.waitFor("m_1 selected", func(s string) bool { return strings.Contains(selected(s), "m_1") })
		if flag := strings.TrimSpace(x.tmux("display", "-p", "-t", "top", "#{window_bell_flag}")); flag != "0" {
			t.Fatalf("the bell rang for what waited at the start: %q", flag)
		}
		x.conch("chat", "message", "c_1", "one more", "--chat", "c_3")
		x.waitText("m_2 held")
		x.waitFor("the bell", func(string) bool {
			return strings.TrimSpace(x.tmux("display", "-p", "-t", "top", "#{window_bell_flag}")) == "1"
		})
	})

	// NO_COLOR: not one colour or style on the screen; without it, some.
	t.Run("no_color", func(t *testing.T) {
		x := newTopTerm(t, bin)
		x.seed()
		x.top(80, 24)
		if s := x.tmux("capture-pane", "-p", "-e", "-t", "top"); !strings.Contains(s, "\x1b[") {
			t.Errorf("no style without NO_COLOR:\n%q", s)
		}
		y := newTopTerm(t, bin)
		y.seed()
		y.top(80, 24, "NO_COLOR=1")
		if s := y.tmux("capture-pane", "-p", "-e", "-t", "top"); strings.Contains(s, "\x1b[") {
			t.Errorf("NO_COLOR, and the screen has styles:\n%q", s)
		}
	})

	// A narrow terminal: every row fits, the footer is the short one.
	t.Run("narrow", func(t *testing.T) {
		x := newTopTerm(t, bin)
		x.seed()
		x.top(40, 12)
		s := x.waitText("↑↓ ⏎ p d y n i q")
		for i, l := range strings.Split(strings.TrimRight(s, "\n"), "\n") {
			if n := len([]rune(l)); n > 40 {
				t.Errorf("row %d is %d columns: %q", i, n, l)
			}
		}
		if !strings.Contains(s, "> m_1 held") {
			t.Errorf("the narrow screen lost the selection:\n%s", s)
		}
	})

	// q leaves the terminal as it was: the screen before it, the same
	// terminal settings, the cursor shown, the alternate screen left.
	t.Run("q", func(t *testing.T) {
		x := newTopTerm(t, bin)
		x.seed()
		x.start(80, 24, nil, "stty -g > before; echo before top; "+x.bin+" top; echo conch top exited $?; stty -g > after; exec cat")
		x.waitText("conch top ·")
		if on := strings.TrimSpace(x.tmux("display", "-p", "-t", "top", "#{alternate_on}")); on != "1" {
			t.Errorf("conch top is not on the alternate screen: %q", on)
		}
		x.keys("q")
		s := x.waitText("conch top exited 0")
		if !strings.Contains(s, "before top") || strings.Contains(s, "Your chats") {
			t.Errorf("the screen is not as it was:\n%s", s)
		}
		x.restored()
	})

	// A signal quits as q does.
	t.Run("signal", func(t *testing.T) {
		x := newTopTerm(t, bin)
		x.seed()
		x.start(80, 24, nil, "stty -g > before; echo before top; "+x.bin+" top; echo conch top exited $?; stty -g > after; exec cat")
		x.waitText("conch top ·")
		sh := strings.TrimSpace(x.tmux("display", "-p", "-t", "top", "#{pane_pid}"))
		children, err := os.ReadFile("/proc/" + sh + "/task/" + sh + "/children")
		if err != nil || len(strings.Fields(string(children))) != 1 {
			t.Skipf("cannot find conch top's process: %v %q", err, children)
		}
		pid, _ := strconv.Atoi(strings.Fields(string(children))[0])
		p, _ := os.FindProcess(pid)
		if err := p.Signal(os.Interrupt); err != nil {
			t.Fatal(err)
		}
		x.waitText("conch top exited 0")
		x.restored()
	})
}

// restored checks what the q and signal tests share: terminal settings as
// before, the cursor shown, the alternate screen left.
func (x *topTerm) restored() {
	x.t.Helper()
	x.waitFor("the settings written", func(string) bool {
		b, err := os.ReadFile(filepath.Join(x.work, "after"))
		return err == nil && len(b) > 0
	})
	before, _ := os.ReadFile(filepath.Join(x.work, "before"))
	after, _ := os.ReadFile(filepath.Join(x.work, "after"))
	if string(before) != string(after) {
		x.t.Errorf("the terminal's settings changed:\nbefore %s\nafter  %s", before, after)
	}
	if on := strings.TrimSpace(x.tmux("display", "-p", "-t", "top", "#{alternate_on}")); on != "0" {
		x.t.Errorf("the alternate screen is still on: %q", on)
	}
	if flag := strings.TrimSpace(x.tmux("display", "-p", "-t", "top", "#{cursor_flag}")); flag != "1" {
		x.t.Errorf("the cursor is still hidden: cursor_flag %q", flag)
	}
}
