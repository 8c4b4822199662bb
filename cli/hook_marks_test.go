package cli

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/conch-sh/conch/state/store"
)

// failingFS is the real file system with the writes whose names fail
// picks failing, as a full disk fails them.
type failingFS struct {
	store.OSFS
	fail func(name string) bool
}

func (f failingFS) WriteFile(name string, data []byte, durable bool) error {
	if f.fail(name) {
		return errors.New("no space left on device")
	}
	return f.OSFS.WriteFile(name, data, durable)
}

// TestHookMarksBeforeItAnswers: a hook commits the marks of the notes it
// says before it says them. One whose marks cannot be committed answers
// without the message, which stays due: the next notes shows it, once.
// One whose marks are committed (the records' writes failing after the
// commit point) answers with it, and no later notes shows it again.
func TestHookMarksBeforeItAnswers(t *testing.T) {
	for _, tc := range []struct {
		name      string
		fail      func(name string) bool
		answered  bool // the hook's answer holds the message
		warned    string
		notesShow bool // the next conch notes shows it
	}{
		{"the journal cannot be written", func(n string) bool { return strings.HasSuffix(n, "commit.journal") },
			false, "commit.journal: no space left on device", true},
		{"the records cannot be written once committed", func(n string) bool { return strings.HasSuffix(n, filepath.Join("chats", "c_1.json")) },
			true, "the change is committed", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			home := filepath.Join(t.TempDir(), "home")
			run := func(fsys store.FS, input string, args ...string) (string, string) {
				t.Helper()
				env, out, errs := hookEnv(t, home, input)
				env.FS = fsys
				if code := Main(args, env); code != 0 {
					t.Fatalf("conch %v: exit %d: %s", args, code, errs)
				}
				return out.String(), errs.String()
			}
			event := func(name, extra string) string {
				return `{"session_id":"MARK","cwd":"/tmp/mark","hook_event_name":"` + name + `"` + extra + `}`
			}
			run(nil, event("UserPromptSubmit", `,"prompt":"go"`), "hook", "claude")
			run(nil, "", "chat", "new", "--title", "Sender", "--folder", "/tmp/elsewhere")
			run(nil, "", "chat", "message", "c_1", "the build is red", "--chat", "c_2")
			out, errs := run(failingFS{fail: tc.fail}, event("PostToolUse", `,"tool_name":"Read","tool_input":{"file_path":"/tmp/mark/a"}`), "hook", "claude")
			if got := strings.Contains(out, "the build is red"); got != tc.answered {
				t.Errorf("the hook's answer holds the message: %v, want %v:\n%s", got, tc.answered, out)
			}
			if !strings.Contains(errs, tc.warned) || strings.Count(errs, "\n") != 1 {
				t.Errorf("stderr %q, want one warning line saying %q", errs, tc.warned)
			}
			first, _ := run(nil, "", "notes", "--chat", "c_1")
			if got := strings.Contains(first, "the build is red"); got != tc.notesShow {
				t.Errorf("the next notes shows the message: %v, want %v:\n%s", got, tc.notesShow, first)
			}
			again, _ := run(nil, "", "notes", "--chat", "c_1")
			if strings.Contains(again, "the build is red") {
				t.Errorf("a second notes shows the message again:\n%s", again)
			}
		})
	}
}

// TestNotesFailedMarksShowAgain: conch notes writes its output first and
// marks after (SPEC §4). One whose marks cannot be committed exits 1, and
// the message stays due: the next notes shows it and exits 0, and no notes
// after that shows it again. One whose marks are committed but whose
// records' writes fail after the commit point exits 0 with a warning, and
// the message is not shown again.
func TestNotesFailedMarksShowAgain(t *testing.T) {
	for _, tc := range []struct {
		name string
		fail func(name string) bool
		code int
	}{
		{"the journal cannot be written", func(n string) bool { return strings.HasSuffix(n, "commit.journal") }, 1},
		{"the records cannot be written once committed", func(n string) bool { return strings.HasSuffix(n, filepath.Join("chats", "c_1.json")) }, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			home := filepath.Join(t.TempDir(), "home")
			run := func(fsys store.FS, want int, args ...string) (string, string) {
				t.Helper()
				env, out, errs := hookEnv(t, home, "")
				env.FS = fsys
				if code := Main(args, env); code != want {
					t.Fatalf("conch %v: exit %d, want %d: %s", args, code, want, errs)
				}
				return out.String(), errs.String()
			}
			run(nil, 0, "chat", "new", "--title", "Reader", "--folder", "/tmp/mark")
			run(nil, 0, "chat", "new", "--title", "Sender", "--folder", "/tmp/elsewhere")
			run(nil, 0, "chat", "message", "c_1", "the build is red", "--chat", "c_2")
			out, errs := run(failingFS{fail: tc.fail}, tc.code, "notes", "--chat", "c_1")
			if !strings.Contains(out, "the build is red") || errs == "" {
				t.Fatalf("the notes whose marks failed: stdout %q, stderr %q", out, errs)
			}
			next, _ := run(nil, 0, "notes", "--chat", "c_1")
			if got := strings.Contains(next, "the build is red"); got != (tc.code != 0) {
				t.Errorf("the next notes shows the message: %v, want %v", got, tc.code != 0)
			}
			again, _ := run(nil, 0, "notes", "--chat", "c_1")
			if strings.Contains(again, "the build is red") {
				t.Errorf("a third notes shows the message again:\n%s", again)
			}
		})
	}
}
