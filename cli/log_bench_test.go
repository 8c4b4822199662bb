package cli_test

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/conch-sh/conch/cli"
	"github.com/conch-sh/conch/state"
	"github.com/conch-sh/conch/state/store"
)

// The hot commands with 50 chats and 50,000 events in the home (SPEC §10):
// `conch notes` reads only the watcher's cursor file, `conch status
// --since` only the head and the events it returns.
//
//	go test ./cli/ -run '^$' -bench Log50k -benchtime 200x

const (
	benchChats  = 50
	benchEvents = 1_000 // per chat: 50,000 in all
)

var benchNow = time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)

// syncless skips the syncs while the benchmark home is built.
type syncless struct{ store.OSFS }

func (f syncless) WriteFile(name string, data []byte, durable bool) error {
	return f.OSFS.WriteFile(name, data, false)
}

// benchHome builds a home of 50 chats with 1,000 events each, c_1 watching
// every other chat and a notice pending on each. It is built with the state
// functions, as the commands would build it.
func benchHome(b *testing.B) string {
	home := filepath.Join(b.TempDir(), "home")
	h, err := state.Open(state.Options{Dir: home, Now: func() time.Time { return benchNow }, Hostname: "bench", FS: syncless{}})
	if err != nil {
		b.Fatal(err)
	}
	var ids []string
	err = h.Update(func(tx *state.Tx) error {
		ids = nil
		for i := 0; i < benchChats; i++ {
			c, err := tx.Chats().Create(state.Actor{}, state.NewChat{Title: fmt.Sprintf("Chat %d", i+1), Folder: "/tmp"})
			if err != nil {
				return err
			}
			ids = append(ids, c.ID)
		}
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
	for _, id := range ids[1:] {
		if err := run(home, "watch", id, "--chat", ids[0]); err != nil {
			b.Fatal(err)
		}
	}
	for _, id := range ids {
		err := h.Update(func(tx *state.Tx) error {
			c, err := tx.Chats().Get(id)
			if err != nil {
				return err
			}
			for i := 0; i < benchEvents-1; i++ {
				tx.Log().Record(c, state.KindCompacted, state.ActorAgent, id, "history compacted", "")
			}
			tx.Log().Record(c, state.KindGoal, state.ActorHuman, "", "goal set", "")
			return nil
		})
		if err != nil {
			b.Fatal(err)
		}
	}
	return home
}

// run runs conch in-process against home, its output thrown away.
func run(home string, args ...string) error {
	env := map[string]string{"CONCH_HOME": home, "CONCH_NOW": benchNow.Format(time.RFC3339)}
	var errb bytes.Buffer
	code := cli.Main(args, cli.Env{
		In: bytes.NewReader(nil), Out: io.Discard, Err: &errb,
		Getenv: func(k string) string { return env[k] }, Now: time.Now, Hostname: "bench", Cwd: "/tmp",
	})
	if code != 0 {
		return fmt.Errorf("conch %v: exit %d: %s", args, code, errb.String())
	}
	return nil
}

// BenchmarkLog50k runs the commands in-process, then as processes of the
// built binary beside `conch version` (the start-up cost of the whole
// binary), all over one home built once.
func BenchmarkLog50k(b *testing.B) {
	home := benchHome(b)
	since := fmt.Sprint(benchEvents - 200)
	for _, bc := range []struct {
		name string
		args []string
	}{
		// notes as the watcher of 49 chats, each with a notice pending
		// (--peek, so every run reads the same), and as a chat with
		// nothing to hear; status --since: the last 200 events of a
		// 1,000-event log; status: the head alone.
		{"notes-pending", []string{"notes", "--peek", "--chat", "c_1"}},
		{"notes-quiet", []string{"notes", "--chat", "c_2"}},
		{"status-since", []string{"status", "c_2", "--since", since, "--json"}},
		{"status", []string{"status", "c_2", "--json"}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				if err := run(home, bc.args...); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
	bin := filepath.Join(b.TempDir(), "conch")
	if out, err := exec.Command("go", "build", "-o", bin, "../cmd/conch").CombinedOutput(); err != nil {
		b.Fatalf("build: %v\n%s", err, out)
	}
	for _, args := range [][]string{
		{"version"},
		{"notes", "--chat", "c_2"},
		{"notes", "--peek", "--chat", "c_1"},
		{"status", "c_2", "--since", since, "--json"},
	} {
		b.Run("exec "+strings.Join(args, " "), func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				cmd := exec.Command(bin, args...)
				cmd.Env = append(os.Environ(), "CONCH_HOME="+home, "CONCH_NOW="+benchNow.Format(time.RFC3339), "CONCH_CHAT=")
				if out, err := cmd.CombinedOutput(); err != nil {
					b.Fatalf("%v: %v\n%s", args, err, out)
				}
			}
		})
	}
}
