package cli_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/conch-sh/conch/state"
)

// TestKillSendersNeitherTearNorRepeat holds conch to SPEC §9 with real
// processes: senders of messages are killed with SIGKILL at random points
// while a reader runs conch notes over and over, and each killed send is
// retried with its --key. Afterwards no record is torn (every JSON file
// parses), no message was shown twice by notes that exited 0, no key sent
// its words twice, and every send that exited 0 (and so was delivered:
// nothing here holds or refuses) was shown exactly once.
//
// CONCH_KILL_SENDS sets how many sends to try (default 64, about half of
// them killed).
func TestKillSendersNeitherTearNorRepeat(t *testing.T) {
	if testing.Short() {
		t.Skip("builds conch and kills processes; skipped with -short")
	}
	sends := 64
	if s := os.Getenv("CONCH_KILL_SENDS"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil {
			t.Fatalf("CONCH_KILL_SENDS=%q: %v", s, err)
		}
		sends = n
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "conch")
	build := exec.Command("go", "build", "-o", bin, "github.com/conch-sh/conch/cmd/conch")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	home := filepath.Join(dir, "home")
	env := []string{"CONCH_HOME=" + home, "HOME=" + dir, "PATH=" + os.Getenv("PATH")}
	conch := func(args ...string) *exec.Cmd {
		cmd := exec.Command(bin, args...)
		cmd.Env = env
		cmd.Dir = dir
		return cmd
	}
	must := func(args ...string) string {
		t.Helper()
		out, err := conch(args...).Output()
		if err != nil {
			t.Fatalf("conch %s: %v", strings.Join(args, " "), err)
		}
		return strings.TrimSpace(string(out))
	}
	const senders = 4
	for i := 1; i <= senders+1; i++ {
		must("chat", "new", "--title", fmt.Sprintf("Chat %d", i), "--folder", dir)
	}
	reader := fmt.Sprintf("c_%d", senders+1)
	pid := strconv.Itoa(os.Getpid())

	var (
		mu     sync.Mutex
		sent   = map[string]bool{} // ids whose send exited 0
		shown  = map[string]int{}  // ids shown by a notes that exited 0
		said   = map[string]int{}  // words shown by a notes that exited 0
		okSent = map[string]bool{} // words whose send (or its retry) exited 0
		killed int
		failed []string
	)
	fail := func(format string, args ...any) {
		mu.Lock()
		failed = append(failed, fmt.Sprintf(format, args...))
		mu.Unlock()
	}
	readNotes := func() int {
		out, err := conch("--chat", reader, "notes", "--json").Output()
		if err != nil {
			fail("notes: %v", err)
			return 0
		}
		var n struct {
			Messages []struct {
				ID   string `json:"id"`
				Text string `json:"text"`
			} `json:"messages"`
		}
		if err := json.Unmarshal(out, &n); err != nil {
			fail("notes printed %q: %v", out, err)
			return 0
		}
		mu.Lock()
		for _, m := range n.Messages {
			shown[m.ID]++
			said[m.Text]++
		}
		mu.Unlock()
		return len(n.Messages)
	}

	// Time a few sends, so that kills fall anywhere in a send's life:
	// starting, under the lock, writing, or answering.
	var took []time.Duration
	for i := 0; i < 3; i++ {
		must("--chat", "c_1", "reply", "start", "--person", "--pid", pid)
		start := time.Now()
		id := must("--chat", "c_1", "chat", "message", reader, fmt.Sprintf("timed %d", i))
		took = append(took, time.Since(start))
		sent[id] = true
	}
	slices.Sort(took)
	window := took[1] * 3 / 2

	done := make(chan struct{})
	var readerDone sync.WaitGroup
	readerDone.Add(1)
	go func() {
		defer readerDone.Done()
		for {
			select {
			case <-done:
				return
			default:
				readNotes()
			}
		}
	}()

	var wg sync.WaitGroup
	for s := 1; s <= senders; s++ {
		wg.Add(1)
		go func(s int) {
			defer wg.Done()
			me := fmt.Sprintf("c_%d", s)
			for i := 0; i < sends/senders; i++ {
				// A reply of the person's: a new chain, so the chain's
				// bounds do not end the test early.
				if out, err := conch("--chat", me, "reply", "start", "--person", "--pid", pid).CombinedOutput(); err != nil {
					fail("reply start: %v: %s", err, out)
					return
				}
				words := fmt.Sprintf("words %d from %s", i, me)
				// Half the sends are killed, at a random point of their run,
				// and retried with the same key.
				for attempt := 0; attempt < 2; attempt++ {
					cmd := conch("--chat", me, "chat", "message", reader, words, "--key", words)
					var out bytes.Buffer
					cmd.Stdout = &out
					if err := cmd.Start(); err != nil {
						fail("start: %v", err)
						return
					}
					var timer *time.Timer
					if attempt == 0 && rand.IntN(2) == 0 {
						timer = time.AfterFunc(time.Duration(rand.Int64N(int64(window))), func() { _ = cmd.Process.Kill() })
					}
					err := cmd.Wait()
					if timer != nil {
						timer.Stop()
					}
					var exit *exec.ExitError
					switch {
					case err == nil:
						id, _, _ := strings.Cut(out.String(), "\n")
						mu.Lock()
						sent[id] = true
						okSent[words] = true
						mu.Unlock()
					case errors.As(err, &exit) && exit.ExitCode() == -1:
						mu.Lock()
						killed++
						mu.Unlock()
						continue // the retry
					case errors.As(err, &exit) && exit.ExitCode() == 3:
						// A bound (five already wait): refused, nothing sent.
					default:
						fail("send: %v", err)
					}
					break
				}
			}
		}(s)
	}
	wg.Wait()
	close(done)
	readerDone.Wait()
	// Drain what is left (a bounded number of times: a notes that never
	// marked would say the same for ever).
	for i := 0; i < 2*state.MaxWaiting && readNotes() > 0; i++ { // at most MaxWaiting wait: a few notes drain them
	}
	readNotes()

	for _, f := range failed {
		t.Error(f)
	}
	t.Logf("%d sends exited 0, %d killed (within %v of starting), %d shown", len(sent), killed, window, len(shown))
	if len(sent) == 0 || killed == 0 {
		t.Fatalf("the run proves nothing: %d sends exited 0, %d were killed", len(sent), killed)
	}
	for id, n := range shown {
		if n > 1 {
			t.Errorf("message %s was shown %d times", id, n)
		}
	}
	for id := range sent {
		if shown[id] != 1 {
			t.Errorf("message %s: its send exited 0 but notes showed it %d times", id, shown[id])
		}
	}
	for words, n := range said {
		if n > 1 {
			t.Errorf("%q was sent %d times under one key", words, n)
		}
	}
	for words := range okSent {
		if said[words] != 1 {
			t.Errorf("%q: its send exited 0 but its words were shown %d times", words, said[words])
		}
	}
	// No record is torn: every record parses. (.NAME123 files are a killed
	// writer's temporary files, never read.)
	torn := 0
	err := filepath.WalkDir(home, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || strings.HasPrefix(d.Name(), ".") || !strings.HasSuffix(p, ".json") {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if !json.Valid(data) {
			t.Errorf("record %s is torn: %q", p, data)
		}
		if bytes.Contains(data, []byte(`"why": "its send did not finish"`)) {
			torn++
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d sends were cut short after their key was written; their retries sent anew", torn)
	// A killed writer may leave a temporary file: no record is torn by it,
	// and doctor --repair takes it away. After that the home is healthy.
	if out, err := conch("doctor", "--repair").CombinedOutput(); err != nil {
		t.Errorf("conch doctor --repair: %v\n%s", err, out)
	}
	if out, err := conch("doctor").CombinedOutput(); err != nil {
		t.Errorf("conch doctor after --repair: %v\n%s", err, out)
	}
}
