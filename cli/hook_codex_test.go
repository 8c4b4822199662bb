package cli

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/conch-sh/conch/lock"
)

// TestHookCodexLockedHome: Codex keeps a hook's standard error where the
// person never looks, so a hook that cannot have the home's lock also
// says it as systemMessage, which Codex shows the person; SessionEnd,
// whose answer Codex does not read, only warns.
func TestHookCodexLockedHome(t *testing.T) {
	home := filepath.Join(t.TempDir(), "home")
	if err := os.MkdirAll(home, 0o700); err != nil {
		t.Fatal(err)
	}
	unlock, err := lock.Exclusive(context.Background(), filepath.Join(home, "conch.lock"), time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer unlock()
	want := "conch: warning: hook codex UserPromptSubmit: lock " + filepath.Join(home, "conch.lock") + " not had in 1s"
	input := `{"session_id":"S","turn_id":"T","cwd":"/tmp","hook_event_name":"UserPromptSubmit","prompt":"hi","model":"m","permission_mode":"default","transcript_path":null}`
	env, out, errs := hookEnv(t, home, input)
	if code := Main([]string{"hook", "codex"}, env); code != 0 {
		t.Fatalf("exit %d, want 0", code)
	}
	var ans map[string]string
	if err := json.Unmarshal(out.Bytes(), &ans); err != nil || len(ans) != 1 || !strings.HasPrefix(ans["systemMessage"], want) {
		t.Errorf("answered %q, want only a systemMessage starting %q", out, want)
	}
	if got := errs.String(); !strings.HasPrefix(got, want) || strings.Count(got, "\n") != 1 {
		t.Errorf("stderr %q, want one line starting %q", got, want)
	}

	input = `{"session_id":"S","cwd":"/tmp","hook_event_name":"SessionEnd","reason":"other","transcript_path":null}`
	env, out, errs = hookEnv(t, home, input)
	if code := Main([]string{"hook", "codex"}, env); code != 0 {
		t.Fatalf("exit %d, want 0", code)
	}
	if out.Len() != 0 || !strings.Contains(errs.String(), "hook codex SessionEnd: lock") {
		t.Errorf("SessionEnd answered %q, warned %q; want nothing, and the warning", out, errs)
	}
}
