package e2e

// The TUI under tmux: a private tmux server per test (its own socket), a
// window the size of a terminal, keys sent, the screen read back.

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// tui is one harness TUI running in tmux.
type tui struct {
	t      testing.TB
	socket string
}

// tmuxPath is tmux, or a skip.
func tmuxPath(t testing.TB) string {
	t.Helper()
	p, err := exec.LookPath("tmux")
	if err != nil {
		t.Skip("e2e: tmux is not on this machine, so the TUI cannot be driven; .ci/run installs it")
	}
	return p
}

// startTUI runs argv in dir with env (the whole environment) in a fresh
// tmux server.
func startTUI(t testing.TB, dir string, env []string, argv ...string) *tui {
	t.Helper()
	tmuxPath(t)
	sock := filepath.Join(t.TempDir(), "tmux.sock")
	u := &tui{t: t, socket: sock}
	cmd := append([]string{"env", "-i"}, env...)
	cmd = append(cmd, argv...)
	var quoted []string
	for _, c := range cmd {
		quoted = append(quoted, "'"+strings.ReplaceAll(c, "'", `'\''`)+"'")
	}
	u.run("-f", "/dev/null", "new-session", "-d", "-s", "main", "-x", "160", "-y", "48", "-c", dir, strings.Join(quoted, " "))
	u.run("set-option", "-t", "main", "remain-on-exit", "on")
	t.Cleanup(func() { exec.Command("tmux", "-S", sock, "kill-server").Run() })
	return u
}

func (u *tui) run(args ...string) string {
	u.t.Helper()
	out, err := exec.Command("tmux", append([]string{"-S", u.socket}, args...)...).CombinedOutput()
	if err != nil {
		u.t.Fatalf("tmux %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

// screen is what the window shows now.
func (u *tui) screen() string {
	return u.run("capture-pane", "-p", "-t", "main")
}

// keys sends tmux key names (Enter, Escape, C-c) or literal text.
func (u *tui) keys(keys ...string) { u.run(append([]string{"send-keys", "-t", "main"}, keys...)...) }

// typeText types literal text.
func (u *tui) typeText(s string) { u.run("send-keys", "-t", "main", "-l", s) }

// waitScreen waits until the screen holds want.
func (u *tui) waitScreen(want string, within time.Duration) string {
	u.t.Helper()
	deadline := time.Now().Add(within)
	for {
		s := u.screen()
		if strings.Contains(s, want) {
			return s
		}
		if time.Now().After(deadline) {
			u.t.Fatalf("the TUI never showed %q; it shows:\n%s", want, s)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// pressUntil presses key until the screen shows want: a TUI that draws
// before it reads its input drops keys sent too early, and nothing it
// shows tells when it starts reading.
func (u *tui) pressUntil(key, want string, within time.Duration) string {
	u.t.Helper()
	deadline := time.Now().Add(within)
	for {
		u.keys(key)
		for next := time.Now().Add(2 * time.Second); time.Now().Before(next); time.Sleep(100 * time.Millisecond) {
			if s := u.screen(); strings.Contains(s, want) {
				return s
			}
		}
		if time.Now().After(deadline) {
			u.t.Fatalf("pressing %s, the TUI never showed %q; it shows:\n%s", key, want, u.screen())
		}
	}
}

// pid is the pid of the window's first process.
func (u *tui) pid() int {
	var pid int
	fmt.Sscan(strings.TrimSpace(u.run("display-message", "-p", "-t", "main", "#{pane_pid}")), &pid)
	return pid
}

// dead says whether the window's process has exited.
func (u *tui) dead() bool {
	return strings.TrimSpace(u.run("display-message", "-p", "-t", "main", "#{pane_dead}")) == "1"
}

var _ = os.Getenv
