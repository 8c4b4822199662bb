//go:build unix

package cli_test

import (
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"syscall"
	"testing"
	"time"
)

// Stopping a writer (SIGSTOP, SIGCONT) is Unix's: the file is built on
// Unix only.

// TestKillWhileHoldingTheLock catches a conch writer while it holds the
// home's lock (stopped with SIGSTOP once a try of the lock finds it
// busy, and found still holding it), kills it with SIGKILL, and then finds
// the lock free to a try that does not wait, and the next command done.
func TestKillWhileHoldingTheLock(t *testing.T) {
	want := 3
	if stressLong() {
		want = 30
	}
	bin := conchBin(t)
	home := newStressHome(t, 2)
	lockPath := filepath.Join(home, "conch.lock")
	f := newFigures()
	r := newRun(bin, home, f)
	goals := []string{""}
	for attempt := 0; f.n["killed holding the lock"] < want; attempt++ {
		if attempt == 2000 {
			t.Fatalf("caught a writer holding the lock %d times in %d tries", f.n["killed holding the lock"], attempt)
		}
		goal := "goal " + strconv.Itoa(attempt)
		goals = append(goals, goal)
		cmd := exec.Command(bin, "chat", "set", "c_1", "--goal", goal)
		cmd.Env = conchEnv(home, "")
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		caught := false
	probe:
		for {
			select {
			case <-done:
				break probe
			default:
			}
			if lockBusy(t, lockPath) {
				_ = cmd.Process.Signal(syscall.SIGSTOP)
				if lockBusy(t, lockPath) {
					caught = true
					break probe
				}
				_ = cmd.Process.Signal(syscall.SIGCONT)
			}
			time.Sleep(50 * time.Microsecond)
		}
		if !caught {
			continue
		}
		_ = cmd.Process.Signal(syscall.SIGKILL)
		<-done
		f.add("killed holding the lock", 1)
		// The kernel let go of the dead writer's lock: a try that does not
		// wait gets it, and the next command is done.
		if lockBusy(t, lockPath) {
			t.Fatal("the lock is still held after its holder was killed")
		}
		common(r, runConch(bin, home, "c_1", "step", "run", "--pid", r.pid))
	}
	doctorClean(t, r)
	o := runConch(bin, home, "", "chat", "show", "c_1", "--json")
	if common(r, o) {
		if c, ok := decode[shown](r, o); ok && !slices.Contains(goals, c.Goal) {
			r.f.bad("mismatches", "c_1 has goal %q, which nobody set", c.Goal)
		}
	}
	f.report(t, "killed while holding the lock")
}
