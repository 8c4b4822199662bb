//go:build unix

package cli

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// Modes and owners (a folder of mode 000, another user's uid) are Unix's:
// the file is built on Unix only.

// asOwner runs the real conch as the home's owner, a user who is not root:
// this user when the test is not root, else nobody (65534), whose home the
// test hands over to it. Root opens what a mode of 000 closes; the owner
// does not, and that is what doctor must see.
type asOwner struct {
	t         *testing.T
	bin, home string
	cred      *syscall.Credential
}

func newOwner(t *testing.T, bin string) *asOwner {
	dir := openDir(t)
	o := &asOwner{t: t, bin: bin, home: filepath.Join(dir, "home")}
	if err := os.Mkdir(o.home, 0o700); err != nil {
		t.Fatal(err)
	}
	if os.Getuid() == 0 {
		o.cred = &syscall.Credential{Uid: 65534, Gid: 65534}
		if err := os.Chown(o.home, 65534, 65534); err != nil {
			t.Fatal(err)
		}
		if out, err := o.cmd("version").CombinedOutput(); err != nil {
			t.Skipf("cannot run conch as uid 65534 here: %v: %s", err, out)
		}
	}
	return o
}

func (o *asOwner) cmd(args ...string) *exec.Cmd {
	cmd := exec.Command(o.bin, args...)
	cmd.Env = []string{"CONCH_HOME=" + o.home, "HOME=" + filepath.Dir(o.home), "CONCH_NOW=2026-11-29T12:00:00Z", "PATH=/usr/bin:/bin"}
	cmd.Dir = filepath.Dir(o.home)
	if o.cred != nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: o.cred}
	}
	return cmd
}

// run runs conch as the owner and returns its exit code and output.
func (o *asOwner) run(args ...string) (int, string) {
	out, err := o.cmd(args...).CombinedOutput()
	if ee, ok := err.(*exec.ExitError); ok {
		return ee.ExitCode(), string(out)
	} else if err != nil {
		o.t.Fatal(err)
	}
	return 0, string(out)
}

func (o *asOwner) must(args ...string) string {
	o.t.Helper()
	code, out := o.run(args...)
	if code != 0 {
		o.t.Fatalf("conch %s: exit %d: %s", strings.Join(args, " "), code, out)
	}
	return out
}

// TestDoctorWhatTheOwnerCanOpen: records and folders of mode 000, a lock
// file of mode 000 and a home of mode 500 fail every writer run by the
// home's owner; doctor, run as the owner, finds each, --repair mends it
// (the lock file and the home before it takes the lock), and the writer
// then works.
func TestDoctorWhatTheOwnerCanOpen(t *testing.T) {
	bin := conchBinary(t, openDir(t))
	for _, c := range []struct {
		rel  string
		mode os.FileMode
		want string
	}{
		{"chats/c_1.json", 0, "file mode 0, want 0600"},
		{"chats", 0, "folder mode 0, want 0700"},
		{"chats", 0o500, "folder mode 500, want 0700"},
		{"conch.lock", 0, "file mode 0, want 0600"},
		{"conch.lock", 0o400, "file mode 400, want 0600"},
		{".", 0o500, "folder mode 500, want 0700"},
	} {
		t.Run(fmt.Sprintf("%s_%o", strings.ReplaceAll(c.rel, "/", "_"), c.mode), func(t *testing.T) {
			o := newOwner(t, bin)
			o.must("chat", "new", "--title", "Fix login", "--folder", "/tmp")
			o.must("--chat", "c_1", "reply", "start", "--pid", "1")
			o.must("doctor")
			p := filepath.Join(o.home, filepath.FromSlash(c.rel))
			if err := os.Chmod(p, c.mode); err != nil {
				t.Fatal(err)
			}
			// The writer fails, or says what it could not write (a change
			// committed to the journal, an event not recorded).
			if code, out := o.run("--chat", "c_1", "chat", "set", "--goal", "ship it"); code != ExitFailed && !strings.Contains(out, "warning") {
				t.Fatalf("with %s mode %o the writer did not fail: exit %d: %s", c.rel, c.mode, code, out)
			}
			code, out := o.run("doctor")
			if code != ExitFailed || !strings.Contains(out, c.want) {
				t.Fatalf("doctor did not find %s mode %o (want %q): exit %d:\n%s", c.rel, c.mode, c.want, code, out)
			}
			if code, out := o.run("doctor", "--repair"); code != 0 || !strings.Contains(out, c.want+" → mode set to") {
				t.Fatalf("doctor --repair: exit %d:\n%s", code, out)
			}
			o.must("doctor")
			for _, args := range [][]string{{"--chat", "c_1", "chat", "set", "--goal", "ship it again"}, {"--chat", "c_1", "step", "edit", "--file", "/tmp/a"}} {
				if out := o.must(args...); strings.Contains(out, "warning") {
					t.Fatalf("after the repair, conch %s warns: %s", strings.Join(args, " "), out)
				}
			}
		})
	}
	t.Run("owned by another", func(t *testing.T) {
		if os.Getuid() != 0 {
			t.Skip("only root can give a file to another user")
		}
		o := newOwner(t, bin)
		o.must("chat", "new", "--title", "Fix login", "--folder", "/tmp")
		p := filepath.Join(o.home, "chats", "c_1.json")
		if err := os.Chown(p, 0, 0); err != nil {
			t.Fatal(err)
		}
		code, out := o.run("doctor", "--repair")
		if code != ExitFailed || !strings.Contains(out, "c_1.json: this user (uid 65534) cannot read and write it (owned by uid 0)") {
			t.Fatalf("doctor --repair on a record root owns: exit %d:\n%s", code, out)
		}
	})
}
