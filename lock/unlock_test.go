package lock

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"testing"
	"time"
)

// TestFailedUnlockDoesNotWaitForItself runs TestTakeTwice under strace with
// the unlock (the second flock call) failed: the second take must still
// find the lock free, since releasing closes the file whatever the unlock
// said. Without that, the process waits for the lock it leaked.
func TestFailedUnlockDoesNotWaitForItself(t *testing.T) {
	if os.Getenv("CONCH_LOCK_TWICE") != "" {
		t.Skip("the helper runs alone")
	}
	if runtime.GOOS != "linux" {
		t.Skip("strace is Linux's: the failed unlock is not tried")
	}
	strace, err := exec.LookPath("strace")
	if err != nil {
		t.Skip("strace is not installed (.ci/run installs it): the failed unlock is not tried")
	}
	if out, err := exec.Command(strace, "-f", "-qq", "-o", "/dev/null", "true").CombinedOutput(); err != nil {
		t.Skipf("strace cannot trace here (ptrace not allowed?): %v: %s", err, out)
	}
	trace := filepath.Join(t.TempDir(), "trace")
	cmd := exec.Command(strace, "-f", "-qq", "-o", trace, "-e", "trace=flock", "-e", "inject=flock:error=EIO:when=2",
		os.Args[0], "-test.run=^TestTakeTwice$", "-test.count=1")
	cmd.Env = append(os.Environ(), "CONCH_LOCK_TWICE="+filepath.Join(t.TempDir(), "conch.lock"))
	out, err := cmd.CombinedOutput()
	log, _ := os.ReadFile(trace)
	if !regexp.MustCompile(`LOCK_UN\)\s+= -1 EIO .*\(INJECTED\)`).Match(log) {
		t.Fatalf("the unlock was not failed:\n%s", log)
	}
	if err != nil {
		t.Fatalf("with the unlock failed, the second take did not get the lock: %v\n%s", err, out)
	}
}

// TestTakeTwice takes the lock, lets go and takes it again with almost no
// wait: a lock this process still held would make the second take fail.
func TestTakeTwice(t *testing.T) {
	path := os.Getenv("CONCH_LOCK_TWICE")
	if path == "" {
		path = filepath.Join(t.TempDir(), "conch.lock")
	}
	unlock, err := Exclusive(context.Background(), path, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	unlock()
	unlock2, err := Exclusive(context.Background(), path, time.Millisecond)
	if err != nil {
		t.Fatalf("the second take: %v", err)
	}
	unlock2()
}
