package cli_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/conch-sh/conch/state/store/natsstore/natstest"
)

// onFilesOnly are the scripts that cannot pass on a backend by their
// nature, and why.
var onFilesOnly = map[string]string{}

func init() {
	for why, scripts := range map[string]string{
		"it reads or changes the home's record files itself": "wait_scrub wait_person wait_detached threat_secrets_fields threat_field_bounds " +
			"notify_events message_quoting log_events home_files home_default_dir gc_stopped gc_retention claim_basic claim_ends " +
			"reply_pid_reuse home_computer_default exit_codes_kinds",
		"it checks and repairs a home on files (modes, torn files, journals)": "doctor_counters doctor_cut_commit doctor_log_hole " +
			"doctor_perms doctor_shape doctor_temp doctor_torn doctor_symlink_home doctor_healthy",
		"it checks that bad input leaves no home folder (the folder holds the config here)": "input_bad hook_claude_garbage " +
			"home_readonly_more args_not_text notify_test",
		"it puts a failing file system under conch":                     "log_besteffort",
		"it holds the home's file lock (conch.lock) from a shell":       "hook_claude_current",
		"a CONCH_HOME with no home in it is still on the shared server": "status_access",
	} {
		for _, s := range strings.Fields(scripts) {
			onFilesOnly[s] = why
		}
	}
}

// TestScriptBackend runs the whole testscript suite once more with the
// home on NATS JetStream: one embedded server on 127.0.0.1, each script
// its own home on it (CONCH_BACKEND_HOME), its config.toml still local.
func TestScriptBackend(t *testing.T) {
	if testing.Short() {
		t.Skip("the suite on a backend: not in -short")
	}
	srv := natstest.Start(t)
	p := scriptParams(t, "../testdata/script")
	setup := p.Setup
	p.Condition = func(cond string) (bool, error) {
		if cond == "backend" {
			return true, nil
		}
		return false, fmt.Errorf("unknown condition %q", cond)
	}
	var n atomic.Int64
	p.Setup = func(e *testscript.Env) error {
		if err := setup(e); err != nil {
			return err
		}
		name := strings.TrimPrefix(filepath.Base(e.WorkDir), "script-")
		if why, ok := onFilesOnly[name]; ok {
			e.T().Skip("on files only: " + why)
		}
		// The home's folder holds its config (which names the
		// backend), as a person's does.
		if err := os.MkdirAll(filepath.Join(e.WorkDir, "home"), 0o700); err != nil {
			return err
		}
		e.Setenv("CONCH_BACKEND_URL", srv.URL)
		e.Setenv("BACKEND_URL", srv.URL) // for a script that sets it aside
		e.Setenv("CONCH_BACKEND_HOME", fmt.Sprintf("s%d", n.Add(1)))
		return nil
	}
	testscript.Run(t, p)
}
