package cli

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// brokenOut is a standard output whose writes fail, as a full disk or a
// closed pipe makes them.
type brokenOut struct{}

func (brokenOut) Write([]byte) (int, error) { return 0, errors.New("no space left on device") }

// TestFailureAfterCommitIsAWarning: once a command's change has committed,
// what fails after it (here its answer's write) is said as a warning and
// the command exits 0: it did what it was asked, and a retry must not do
// it twice (issue 19: a command that exits 1 changed nothing).
func TestFailureAfterCommitIsAWarning(t *testing.T) {
	home := filepath.Join(t.TempDir(), "home")
	run := func(out *bytes.Buffer, broken bool, args ...string) (int, string) {
		var errOut bytes.Buffer
		env := Env{
			In: strings.NewReader(""), Out: out, Err: &errOut,
			Getenv: func(k string) string {
				if k == "CONCH_HOME" {
					return home
				}
				return ""
			},
			Now: func() time.Time { return time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC) }, Hostname: "test", Cwd: t.TempDir(), PPID: os.Getppid(),
		}
		if broken {
			env.Out = brokenOut{}
		}
		return Main(args, env), errOut.String()
	}
	code, stderr := run(nil, true, "chat", "new", "--title", "Fix the login")
	if code != ExitOK || !strings.Contains(stderr, "conch: warning: committed, but then:") || !strings.Contains(stderr, "no space left") {
		t.Fatalf("chat new with its answer unwritable: exit %d, stderr %q; want 0 and the warning", code, stderr)
	}
	var out bytes.Buffer
	if code, stderr := run(&out, false, "chat", "show", "c_1", "--json"); code != ExitOK || !strings.Contains(out.String(), "Fix the login") {
		t.Fatalf("the chat the command made is not there: exit %d %s %s", code, out.String(), stderr)
	}
	// A failure before anything committed stays exit 1 and writes nothing.
	if code, _ := run(nil, true, "chat", "show", "c_1"); code != ExitFailed {
		t.Errorf("a read whose answer cannot be written: exit %d, want %d", code, ExitFailed)
	}
	out.Reset()
	if code, _ := run(&out, false, "chat", "new", "--title", "Next"); code != ExitOK || strings.TrimSpace(out.String()) != "c_2" {
		t.Errorf("the next chat: exit %d, %q; want c_2", code, out.String())
	}
}
