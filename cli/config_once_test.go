package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/conch-sh/conch/state/store"
)

// countingFS counts the reads of one file.
type countingFS struct {
	store.OSFS
	name  string
	reads *atomic.Int32
}

func (f countingFS) ReadFile(name string) ([]byte, error) {
	if filepath.Base(name) == f.name {
		f.reads.Add(1)
	}
	return f.OSFS.ReadFile(name)
}

// TestConfigReadOnce: a command reads config.toml once, though it looks at
// it before the home is opened (for a backend it names) and Open decodes
// it (issue 25: every command pays each read).
func TestConfigReadOnce(t *testing.T) {
	home := t.TempDir()
	if err := os.WriteFile(filepath.Join(home, "config.toml"), []byte("[tasks]\nmax_running = 2\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"chats", "list"}, {"tasks", "--json"}} {
		var reads atomic.Int32
		var out, errb bytes.Buffer
		env := map[string]string{"CONCH_HOME": home}
		code := Main(args, Env{
			In: strings.NewReader(""), Out: &out, Err: &errb,
			Getenv: func(k string) string { return env[k] },
			Now:    time.Now, Hostname: "test", Cwd: home,
			FS: countingFS{name: "config.toml", reads: &reads},
		})
		if code != ExitOK {
			t.Fatalf("conch %s: exit %d: %s", strings.Join(args, " "), code, errb.String())
		}
		if n := reads.Load(); n != 1 {
			t.Errorf("conch %s read config.toml %d times, want once", strings.Join(args, " "), n)
		}
	}
}
