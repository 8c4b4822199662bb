package cli_test

import (
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/conch-sh/conch/cli"
)

var update = flag.Bool("update", false, "rewrite the expected output in testdata/script")

func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"conch": func() { os.Exit(cli.Main(os.Args[1:], cli.System())) },
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
	}
}
