//go:build linux

package cli

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/conch-sh/conch/state/store/natsstore"
	"github.com/conch-sh/conch/state/store/natsstore/natstest"
)

// natsBackend is cli/natsbackend's store, which this package's tests
// cannot import (it imports cli): a home on NATS for the runs in this
// process.
type natsBackend struct{ *natsstore.Store }

func (s natsBackend) Health() (BackendHealth, error) {
	h, err := s.Store.Health()
	return BackendHealth{RTT: h.RTT, Summary: h.Summary, Problems: h.Problems, Authenticated: h.Authenticated, Encrypted: h.Encrypted}, err
}

func openNats(c BackendConfig) (BackendStore, error) {
	s, err := natsstore.Open(natsstore.Options{URL: c.URL, Home: c.Home, Creds: c.Creds, TLSCA: c.TLSCA, Replicas: c.Replicas, Timeout: c.Timeout, Holder: c.Holder})
	if err != nil {
		return nil, err
	}
	return natsBackend{s}, nil
}

// pointsAfter are the points of every thread after the first line of the
// trace that holds mark: each the nth call of its system call on its
// thread (strace counts a when= per thread: injected, it kills the
// process at the first thread to come to its nth call, this one or one
// before it).
func pointsAfter(trace, mark string) []point {
	at := strings.Index(trace, mark)
	if at < 0 {
		return nil
	}
	before := strings.Count(trace[:at], "\n")
	count := map[string]int{}
	var out []point
	for n, l := range strings.Split(trace, "\n") {
		m := traceLine.FindStringSubmatch(l)
		if m == nil {
			continue
		}
		count[m[1]+" "+m[2]]++
		if n > before {
			out = append(out, point{syscall: m[2], n: count[m[1]+" "+m[2]], call: "thread " + m[1] + " " + m[2] + "(" + shorten(m[3])})
		}
	}
	return out
}

// TestKillAfterTheBatch is TestKillAfterTheCommitPoint on a backend (an
// embedded NATS server on 127.0.0.1): conch-nats, running notes or a hook
// that says notes, is killed with SIGKILL at the system calls of its
// threads from the moment it sends its commit's atomic batch (JetStream's
// acknowledgement read, the lock's release, the connection's close, the
// receipt's removal) to its exit.
// Each run is judged as a harness judges it, as on files. A run killed
// holding the lock leaves it to run out (3 s), so points are sampled: at
// most eight a command, spread evenly, and always the last two (every one
// with CONCH_FAULT_ALL=1).
func TestKillAfterTheBatch(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: no fault campaign")
	}
	strace := needStrace(t)
	all := os.Getenv("CONCH_FAULT_ALL") != ""
	srv := natstest.Start(t)
	dir := openDir(t)
	bin := filepath.Join(dir, "conch-nats")
	if out, err := exec.Command("go", "build", "-o", bin, "../cmd/conch-nats").CombinedOutput(); err != nil {
		t.Fatalf("building conch-nats: %v\n%s", err, out)
	}
	r := newFaultRig(t, bin, strace, dir)
	r.backend = openNats
	r.more = func(home string) []string {
		return []string{"CONCH_BACKEND_URL=" + srv.URL, "CONCH_BACKEND_HOME=" + filepath.Base(filepath.Dir(home))}
	}
	var homes atomic.Int64
	// fresh is a new home on the server: c_2 with a message due, and the
	// Claude session S1 (c_3), its reply running, with one that starts a
	// reply due (said at its next prompt, or delivered by its Stop).
	fresh := func() string {
		home := filepath.Join(dir, fmt.Sprintf("k%d", homes.Add(1)), "home")
		if err := os.MkdirAll(home, 0o700); err != nil {
			t.Fatal(err)
		}
		r.must(home, cmd("", "chat", "new", "--title", "Sender", "--folder", r.user), 0)
		r.must(home, cmd("", "chat", "new", "--title", "Reader", "--folder", r.user), 0)
		for _, event := range []string{"SessionStart", "UserPromptSubmit"} {
			r.must(home, faultCmd{args: []string{"hook", "claude"}, stdin: hookPayload("claude", event, r.user)}, 0)
		}
		r.must(home, cmd("c_1", "chat", "message", "c_2", "tok-b1 the copy is ready"), 0)
		r.must(home, cmd("c_1", "chat", "message", "c_3", "tok-b2 for the Claude session", "--start-reply"), 0)
		return home
	}
	r.due = map[string]string{"tok-b1": "c_2", "tok-b2": "c_3"}
	hook := func(event string) faultCmd {
		return faultCmd{name: "hook claude " + event, stdin: hookPayload("claude", event, r.user), args: []string{"hook", "claude"}, hook: true}
	}
	var mu sync.Mutex
	runs, kills := 0, 0
	for _, c := range []faultCmd{{name: "notes", chat: "c_2", args: []string{"notes"}}, hook("UserPromptSubmit"), hook("PostToolUse"), hook("Stop")} {
		home := fresh()
		clean := r.runConch(home, c, []string{"-s", "4096", "-e", "trace=" + strings.Join(faultSyscalls, ",")})
		if clean.code != 0 {
			t.Fatalf("%s: a clean run: exit %d: %s%s", c.name, clean.code, clean.out, clean.err)
		}
		pts := pointsAfter(clean.trace, "Nats-Batch-Commit")
		if len(pts) == 0 {
			t.Fatalf("%s: a clean run sends no batch", c.name)
		}
		var jobs []point
		step := max(1, len(pts)/6)
		for i, p := range pts {
			if all || i%step == 0 || i >= len(pts)-2 {
				jobs = append(jobs, p)
			}
		}
		t.Logf("%s: %d points after the batch, %d run", c.name, len(pts), len(jobs))
		var wg sync.WaitGroup
		next := make(chan point)
		for range 2 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for p := range next {
					home := fresh()
					res := r.runConch(home, c, killedAt(p))
					problems := r.judge(home, res)
					mu.Lock()
					runs++
					if res.killed {
						kills++
					}
					for _, pr := range problems {
						t.Errorf("%s, killed at %s #%d %s: %s", c.name, p.syscall, p.n, p.call, pr)
					}
					mu.Unlock()
				}
			}()
		}
		for _, p := range jobs {
			next <- p
		}
		close(next)
		wg.Wait()
	}
	t.Logf("%d runs, %d of them killed at their point", runs, kills)
	if kills == 0 {
		t.Fatal("no run was killed: the campaign tested nothing")
	}
}
