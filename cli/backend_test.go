package cli

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/conch-sh/conch/state/store"
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

// closeCount is a backend of local files that counts its closes, and
// keeps the keys it was asked to read ahead.
type closeCount struct {
	*store.Files
	closed int
	ahead  []string
}

func (s *closeCount) Close()                         { s.closed++ }
func (s *closeCount) ReadAhead(keys ...string)       { s.ahead = append(s.ahead, keys...) }
func (s *closeCount) URL() string                    { return "nats://127.0.0.1:4222" }
func (s *closeCount) Bucket() string                 { return "conch" }
func (s *closeCount) Health() (BackendHealth, error) { return BackendHealth{}, nil }

// TestMainClosesTheBackend: every command that opened a home on a backend
// closes it once before it exits, reading or writing, a hook too: the
// store's last unlock goes out as it closes (natsstore), and one left
// open at exit would leave the lock to run out. A step reads its chat's
// record ahead, beside taking the lock.
func TestMainClosesTheBackend(t *testing.T) {
	home := filepath.Join(t.TempDir(), "home")
	be := &closeCount{Files: store.NewFiles(home, nil, 0)}
	for _, c := range []struct {
		input string
		args  []string
	}{
		{"", []string{"chat", "new", "--title", "T"}},
		{"", []string{"chats", "list"}},
		{"", []string{"step", "run", "--chat", "c_1", "--pid", "1"}},
		{"", []string{"notes", "--chat", "c_1"}},
		{`{"session_id":"S1","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"}}`, []string{"hook", "claude"}},
		{"", []string{"chat", "show", "c_9"}}, // fails: closed all the same
	} {
		be.closed, be.ahead = 0, nil
		env, _, errs := hookEnv(t, home, c.input)
		get := env.Getenv
		env.Getenv = func(k string) string {
			if k == "CONCH_BACKEND_URL" {
				return "nats://127.0.0.1:4222"
			}
			return get(k)
		}
		env.OpenBackend = func(BackendConfig) (BackendStore, error) { return be, nil }
		Main(c.args, env)
		if be.closed != 1 {
			t.Errorf("conch %v closed the backend %d times, want once (%s)", c.args, be.closed, errs)
		}
		if c.args[0] == "step" && !slices.Equal(be.ahead, []string{"chats/c_1.json"}) {
			t.Errorf("conch step read %q ahead, want its chat's record", be.ahead)
		}
	}
}

// A [backend] table that names no url hands over all the same (conch-nats
// runs it as a local home); where conch-nats cannot be run, conch runs it
// as the local home itself, with no word of a backend.
func TestBackendTableWithoutURL(t *testing.T) {
	home := filepath.Join(t.TempDir(), "home")
	if err := os.MkdirAll(home, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(home, "config.toml"), []byte("[backend]\n# url = \"nats://127.0.0.1:4222\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	var ran []string
	for _, exec := range []func(string, []string, []string) error{
		func(path string, argv, env []string) error { ran = argv; return errors.New("exec format error") },
		nil,
	} {
		e, out, errs := hookEnv(t, home, "")
		e.Exec = exec
		e.Exe = func() string { return "" }
		t.Setenv("PATH", t.TempDir())
		if exec != nil {
			bin := filepath.Join(filepath.Dir(home), "bin")
			if err := os.MkdirAll(bin, 0o700); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(bin, conchNats), []byte("#!/bin/sh\n"), 0o700); err != nil {
				t.Fatal(err)
			}
			e.Exe = func() string { return filepath.Join(bin, "conch") }
		}
		if code := Main([]string{"chat", "new", "--title", "T"}, e); code != ExitOK || errs.Len() != 0 {
			t.Errorf("exit %d, said %q %q; want the chat made in the local home", code, out, errs)
		}
	}
	if len(ran) == 0 || filepath.Base(ran[0]) != conchNats {
		t.Errorf("conch did not try conch-nats first: %q", ran)
	}
	if _, err := os.Stat(filepath.Join(home, "chats", "c_2.json")); err != nil {
		t.Errorf("the second chat is not in the local home: %v", err)
	}
}
