//go:build linux

package proc

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestHarnessPIDStopsBelowConch: a wake_cmd's shell is started by the conch
// command that woke the chat; a `conch reply start` run inside it rests its
// reply on that shell, not on the waking conch, which exits at once.
func TestHarnessPIDStopsBelowConch(t *testing.T) {
	dir := t.TempDir()
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh")
	}
	data, err := os.ReadFile(sh)
	if err != nil {
		t.Skip(err)
	}
	// A process named conch (a copy of sh) runs a shell, as runDetached's
	// caller does; "; true" keeps the outer one from exec'ing the inner.
	fake := filepath.Join(dir, "conch")
	if err := os.WriteFile(fake, data, 0o755); err != nil {
		t.Fatal(err)
	}
	pidFile := filepath.Join(dir, "pid")
	cmd := exec.Command(fake, "-c", `sh -c 'echo $$ > `+pidFile+`.tmp && mv `+pidFile+`.tmp `+pidFile+` && sleep 30'; true`)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	var inner int
	for deadline := time.Now().Add(10 * time.Second); inner == 0; time.Sleep(10 * time.Millisecond) {
		if b, err := os.ReadFile(pidFile); err == nil {
			inner, _ = strconv.Atoi(strings.TrimSpace(string(b)))
		}
		if time.Now().After(deadline) {
			t.Fatal("the inner shell never wrote its pid")
		}
	}
	if got := HarnessPID(inner); got != inner {
		t.Errorf("HarnessPID(the wake's shell %d) = %d (the process named conch is %d); want the shell", inner, got, cmd.Process.Pid)
	}
}
