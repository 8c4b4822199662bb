package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestBackendWithoutExec: where a process cannot be replaced (Windows), a
// plain conch over a home on a backend says so in one line, and what to
// run instead, exits 1 and writes nothing; a hook warns and exits 0.
func TestBackendWithoutExec(t *testing.T) {
	home := filepath.Join(t.TempDir(), "home")
	if err := os.MkdirAll(home, 0o700); err != nil {
		t.Fatal(err)
	}
	cfg := "[backend]\nurl = \"nats://127.0.0.1:1\"\n"
	if err := os.WriteFile(filepath.Join(home, "config.toml"), []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	e, out, errs := hookEnv(t, home, "")
	e.Exec = nil
	if code := Main([]string{"chat", "new", "--title", "T"}, e); code != ExitFailed {
		t.Errorf("exit %d, want %d", code, ExitFailed)
	}
	if out.Len() != 0 || strings.Count(errs.String(), "\n") != 1 || !strings.Contains(errs.String(), "cannot run conch-nats in conch's place") || !strings.Contains(errs.String(), "-tags nats") {
		t.Errorf("said %q, %q; want one line naming conch-nats and -tags nats", out, errs)
	}
	if ents, _ := os.ReadDir(home); len(ents) != 1 {
		t.Errorf("the home holds %d files; want the config alone", len(ents))
	}
	e, out, errs = hookEnv(t, home, `{"session_id":"S1","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"}}`)
	e.Exec = nil
	if code := Main([]string{"hook", "claude"}, e); code != ExitOK || out.Len() != 0 || !strings.HasPrefix(errs.String(), "conch: warning: hook: ") || !strings.Contains(errs.String(), "in conch's place") {
		t.Errorf("a hook: exit %d, %q, %q", code, out, errs)
	}
}
