package cli_test

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/conch-sh/conch/cli"
	"github.com/conch-sh/conch/cli/mcpserver"
	"github.com/conch-sh/conch/state/store/natsstore/hub"
)

var update = flag.Bool("update", false, "rewrite the expected output in testdata/script")

func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		// The scripts' conch is conch-mcp: it is conch on a local home,
		// reaches the backend TestScriptBackend names, and serves conch mcp.
		"conch":        func() { os.Exit(cli.Main(os.Args[1:], typedErrors(mcpserver.Env()))) },
		"mcp-call":     mcpCall,
		"notify-count": notifyCount,
		"conch-hub":    func() { os.Exit(hub.Main(os.Args[1:], os.Stdout, os.Stderr, os.Getenv)) },
	})
}

// TestScript runs the testscript files that specify conch's behaviour.
func TestScript(t *testing.T) {
	testscript.Run(t, scriptParams(t, "../testdata/script"))
}

func scriptParams(t *testing.T, dir string) testscript.Params {
	return testscript.Params{
		Dir:                 dir,
		UpdateScripts:       *update,
		RequireExplicitExec: true,
		Setup: func(e *testscript.Env) error {
			e.Setenv("CONCH_HOME", filepath.Join(e.WorkDir, "home"))
			e.Setenv("HOME", filepath.Join(e.WorkDir, "user"))
			e.Setenv("CONCH_NOW", "2026-11-29T12:00:00Z")
			e.Setenv("CONCH_CHAT", "")
			// Times of day (a claim's "until 12:30") are the local time.
			e.Setenv("TZ", "UTC")
			// A race-built conch sleeps a second at exit by default; the
			// scripts run thousands of them.
			e.Setenv("GORACE", "atexit_sleep_ms=0")
			return nil
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){"notified": notified},
		// [backend]: the suite runs on a NATS server (TestScriptBackend).
		Condition: func(cond string) (bool, error) {
			if cond == "backend" {
				return false, nil
			}
			return false, fmt.Errorf("unknown condition %q", cond)
		},
	}
}

// notifyCount is a [notify] command for the scripts: notify-count FILE
// SENTENCE appends one line to FILE, what the notice is about and its
// sentence (and CONCH_CHAT, were it passed on).
func notifyCount() {
	f, err := os.OpenFile(os.Args[1], os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600)
	if err != nil {
		os.Exit(1)
	}
	or := func(name string) string {
		if v := os.Getenv(name); v != "" {
			return v
		}
		return "-"
	}
	line := fmt.Sprintf("%s %s %s | %s", or("CONCH_NOTIFY_KIND"), or("CONCH_NOTIFY_CHAT"), or("CONCH_NOTIFY_ID"), strings.Join(os.Args[2:], " | "))
	if c := os.Getenv("CONCH_CHAT"); c != "" {
		line += " | CONCH_CHAT=" + c
	}
	if c := os.Getenv("FROM_CHAT"); c != "" {
		line += " | FROM_CHAT=" + c // a variable of the causing chat's shell
	}
	_, err = f.WriteString(line + "\n")
	if err != nil || f.Close() != nil {
		os.Exit(1)
	}
	os.Exit(0)
}

// notified N waits until the file notified holds N notices, and fails if
// it holds more. The notify command runs detached: the wait is for it to
// have run, and its deadline is reached only by a failure.
func notified(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: notified N")
	}
	want, err := strconv.Atoi(args[0])
	if err != nil {
		ts.Fatalf("notified: %v", err)
	}
	count := func() (int, string) {
		b, _ := os.ReadFile(ts.MkAbs("notified"))
		return strings.Count(string(b), "\n"), string(b)
	}
	deadline := time.Now().Add(10 * time.Second)
	n, text := count()
	for n < want && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
		n, text = count()
	}
	if n != want {
		ts.Fatalf("%d notices, want %d:\n%s", n, want, text)
	}
}
