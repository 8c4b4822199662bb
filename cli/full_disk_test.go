package cli

import (
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/conch-sh/conch/state/store"
)

// files is every file of the home but its lock, path → content.
func files(t *testing.T, home string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(home, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || strings.HasSuffix(p, ".lock") {
			return err
		}
		data, err := os.ReadFile(p)
		out[p] = string(data)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// fullDisk runs conch over home on fsys (nil: the real file system).
func fullDisk(t *testing.T, home string, fsys store.FS, args ...string) (code int, out, errs string) {
	t.Helper()
	env, o, e := hookEnv(t, home, "")
	env.FS = fsys
	code = Main(args, env)
	return code, o.String(), e.String()
}

// TestSendOnAFullDisk (issue 29): on a disk with room for the commit's
// journal and not for its records (full, or out of inodes), a send fails
// before it is acknowledged: exit 1, one line, nothing changed, nothing
// left to apply; the message is never shown.
func TestSendOnAFullDisk(t *testing.T) {
	home := filepath.Join(t.TempDir(), "home")
	for _, title := range []string{"Sender", "Reader"} {
		if code, _, errs := fullDisk(t, home, nil, "chat", "new", "--title", title, "--folder", "/tmp"); code != 0 {
			t.Fatal(errs)
		}
	}
	before := files(t, home)
	full := failingFS{fail: func(name string) bool { return filepath.Base(name) != "commit.journal" }}
	code, out, errs := fullDisk(t, home, full, "chat", "message", "c_2", "tok-full the build is red", "--chat", "c_1")
	if code != ExitFailed || out != "" || strings.Count(errs, "\n") != 1 || !strings.Contains(errs, "no space left") {
		t.Fatalf("a send on a full disk: exit %d, %q, %q; want exit 1 and one line", code, out, errs)
	}
	if after := files(t, home); !maps.Equal(before, after) {
		t.Fatalf("the failed send changed the home: %v, was %v", slices.Sorted(maps.Keys(after)), slices.Sorted(maps.Keys(before)))
	}
	if code, out, errs := fullDisk(t, home, nil, "notes", "--chat", "c_2"); code != 0 || strings.Contains(out, "tok-full") {
		t.Fatalf("notes after the failed send: exit %d %q %q", code, out, errs)
	}
}

// TestListRefusedWhileACommitIsCutShort (issue 29): a send whose records
// were written in part (the disk filled under it) is
// acknowledged, its journal standing; conch chats list refuses, in one
// line, while nothing has finished the commit, rather than list what the
// records no longer say; the next command that writes finishes it, and
// the message is shown once.
func TestListRefusedWhileACommitIsCutShort(t *testing.T) {
	home := filepath.Join(t.TempDir(), "home")
	for _, title := range []string{"Sender", "Reader"} {
		if code, _, errs := fullDisk(t, home, nil, "chat", "new", "--title", title, "--folder", "/tmp"); code != 0 {
			t.Fatal(errs)
		}
	}
	full := failingFS{fail: func(name string) bool { return filepath.Base(name) == "c_2.json" }}
	code, out, errs := fullDisk(t, home, full, "chat", "message", "c_2", "tok-cut the build is red", "--chat", "c_1")
	if code != 0 || strings.TrimSpace(out) != "m_1" || !strings.Contains(errs, "committed") {
		t.Fatalf("a send whose index cannot be written: exit %d %q %q", code, out, errs)
	}
	code, out, errs = fullDisk(t, home, full, "chats", "list")
	if code != ExitFailed || out != "" || strings.Count(errs, "\n") != 1 || !strings.Contains(errs, "cut short") {
		t.Fatalf("chats list over a commit cut short: exit %d %q %q; want exit 1 and one line", code, out, errs)
	}
	if code, out, errs := fullDisk(t, home, nil, "notes", "--chat", "c_2"); code != 0 || strings.Count(out, "tok-cut") != 1 {
		t.Fatalf("notes once the disk has room: exit %d %q %q", code, out, errs)
	}
	if code, _, errs := fullDisk(t, home, nil, "chats", "list"); code != 0 {
		t.Fatalf("chats list once the commit is finished: exit %d %q", code, errs)
	}
	if code, out, _ := fullDisk(t, home, nil, "doctor"); code != 0 {
		t.Fatalf("doctor: %s", out)
	}
}
