package cli_test

import (
	"context"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/conch-sh/conch/state/store/natsstore/natstest"
)

// clusterComputers are a laptop and a build server on one home on a
// cluster (url names every node), replicated 3 times.
func clusterComputers(t testing.TB, url, creds, ca string) (*computer, *computer, string) {
	t.Helper()
	if testing.Short() {
		t.Skip("-short: no processes on a backend")
	}
	bin := conchBinTB(t)
	dir := t.TempDir()
	home := strings.NewReplacer("/", "_", " ", "_").Replace(t.Name())
	mk := func(name string) *computer {
		c := &computer{t: t, bin: bin, home: filepath.Join(dir, name, "home"), name: name}
		if err := os.MkdirAll(c.home, 0o700); err != nil {
			t.Fatal(err)
		}
		cfg := fmt.Sprintf("[backend]\nurl = %q\nhome = %q\ncreds = %q\ntls_ca = %q\nreplicas = 3\n\n[preferences]\ncomputer = %q\n", url, home, creds, ca, name)
		if err := os.WriteFile(filepath.Join(c.home, "config.toml"), []byte(cfg), 0o600); err != nil {
			t.Fatal(err)
		}
		return c
	}
	return mk("laptop"), mk("build-server"), home
}

// sendRun is what runSenders saw: 16 senders on two computers, each
// sending its messages one after another to the readers (and running a
// hook of its harness every other one; every fifth send killed with
// SIGKILL at some point), the readers reading as they go,
// while event(k) is called as the k-th send is done (a node lost, back).
type sendRun struct {
	mu     sync.Mutex
	acked  map[string]bool // the message's words → its send exited 0
	failed []string
	done   int
	read   strings.Builder // what the readers' notes that exited 0 showed
}

func runSenders(t *testing.T, laptop, server *computer, readers, procs, each int, event func(done int)) *sendRun {
	t.Helper()
	r := &sendRun{acked: map[string]bool{}}
	// The readers read as the senders send (a reader's inbox holds at most
	// a few messages waiting: SPEC §5's bound).
	stop := make(chan struct{})
	var rg sync.WaitGroup
	for i := 1; i <= readers; i++ {
		rg.Add(1)
		go func() {
			defer rg.Done()
			for {
				select {
				case <-stop:
					return
				default:
				}
				out, err := laptop.cmd("c_"+strconv.Itoa(i), "notes").CombinedOutput()
				if strings.Contains(string(out), "panic") {
					t.Errorf("a notes panicked:\n%s", out)
				}
				r.mu.Lock()
				if err == nil {
					r.read.Write(out)
				} else {
					r.failed = append(r.failed, "notes: "+strings.TrimSpace(string(out)))
				}
				r.mu.Unlock()
			}
		}()
	}
	defer func() { close(stop); rg.Wait() }()
	var wg sync.WaitGroup
	for p := 0; p < procs; p++ {
		c := []*computer{laptop, server}[p%2]
		from := "c_" + strconv.Itoa(1+readers+p)
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < each; i++ {
				words := fmt.Sprintf("note %d.%d.", p, i)
				to := "c_" + strconv.Itoa(1+(p+i)%readers)
				send := c.cmd(from, "chat", "message", to, words)
				var buf strings.Builder
				send.Stdout, send.Stderr = &buf, &buf
				err := send.Start()
				if err == nil && (p+i)%5 == 4 {
					// kill -9 of a sender, at some point of its run.
					time.Sleep(time.Duration((p*7+i)%9) * time.Millisecond)
					_ = send.Process.Signal(syscall.SIGKILL)
				}
				if err == nil {
					err = send.Wait()
				}
				out := []byte(buf.String())
				if strings.Contains(string(out), "panic") || strings.Contains(string(out), "goroutine ") {
					t.Errorf("%s: a send panicked:\n%s", c.name, out)
				}
				if i%2 == 1 {
					// A hook of the sender's harness answers, warning at most.
					hook := c.cmd(from, "hook", "claude")
					hook.Stdin = strings.NewReader(`{"session_id":"S` + from + `","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"}}`)
					if hout, herr := hook.CombinedOutput(); herr != nil || strings.Contains(string(hout), "panic") {
						t.Errorf("%s: a hook failed: %v\n%s", c.name, herr, hout)
					}
				}
				r.mu.Lock()
				r.acked[words] = err == nil
				if err != nil {
					r.failed = append(r.failed, strings.TrimSpace(string(out))+" ("+err.Error()+")")
				}
				r.done++
				n := r.done
				r.mu.Unlock()
				if event != nil {
					event(n)
				}
			}
		}()
	}
	wg.Wait()
	return r
}

// check reads every reader's notes (twice) and fails the test for a
// message acknowledged and not read once, or read twice.
func (r *sendRun) check(t *testing.T, laptop *computer, readers int) {
	t.Helper()
	var got strings.Builder
	got.WriteString(r.read.String())
	for i := 1; i <= readers; i++ {
		for n := 0; n < 2; n++ {
			got.WriteString(laptop.run("c_"+strconv.Itoa(i), "notes"))
		}
	}
	acked := 0
	for words, ok := range r.acked {
		n := strings.Count(got.String(), words)
		if ok {
			acked++
		}
		if n > 1 || ok && n != 1 {
			t.Errorf("%q (its send exited 0: %v) was shown %d times", words, ok, n)
		}
	}
	t.Logf("%d sends, %d acknowledged; the failures: %q", len(r.acked), acked, r.failed)
}

// waitJetStream waits until the cluster's JetStream answers (its nodes
// have elected a leader), at most 30 s.
func waitJetStream(t testing.TB, url, creds, ca string) {
	t.Helper()
	nk, err := nats.NkeyOptionFromSeed(creds)
	if err != nil {
		t.Fatal(err)
	}
	nc, err := nats.Connect(url, nk, nats.RootCAs(ca))
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	js, _ := jetstream.New(nc)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	for {
		try, cancelTry := context.WithTimeout(ctx, time.Second)
		_, err := js.AccountInfo(try)
		cancelTry()
		if err == nil {
			return
		} else if ctx.Err() != nil {
			t.Fatalf("the cluster's JetStream does not answer: %v", err)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// leaderOf is the name of the node that leads the home's stream.
func leaderOf(t testing.TB, url, creds, ca, home string) string {
	t.Helper()
	nk, err := nats.NkeyOptionFromSeed(creds)
	if err != nil {
		t.Fatal(err)
	}
	nc, err := nats.Connect(url, nk, nats.RootCAs(ca))
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	js, _ := jetstream.New(nc)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	for ctx.Err() == nil {
		if st, err := js.Stream(ctx, "KV_"+home); err == nil && st.CachedInfo().Cluster != nil && st.CachedInfo().Cluster.Leader != "" {
			return st.CachedInfo().Cluster.Leader
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Fatal("the home's stream has no leader")
	return ""
}

// A home on three nodes, replicated 3 times, through the loss of the
// node that leads its stream while 16 senders on two computers run: no
// send panics, every send that exited 0 is read exactly once, none twice;
// the node comes back and catches up.
func TestClusterNodeLost(t *testing.T) {
	nodes, url := natstest.Cluster(t, 3)
	laptop, server, home := clusterComputers(t, url, nodes[0].Creds, nodes[0].CA)
	dir := t.TempDir()
	const readers, procs, each = 4, 16, 6
	for i := 0; i < readers; i++ {
		laptop.run("", "chat", "new", "--title", fmt.Sprintf("Reader %d", i), "--folder", dir)
	}
	makeChats(laptop, server, dir, procs)
	if out := laptop.run("", "doctor"); !strings.Contains(out, "3 replica(s)") || !strings.Contains(out, "authenticated, encrypted") {
		t.Fatalf("doctor on the cluster:\n%s", out)
	}
	lead := leaderOf(t, url, nodes[0].Creds, nodes[0].CA, home)
	var lost *natstest.Server
	for _, n := range nodes {
		if n.Name() == lead {
			lost = n
		}
	}
	var once, back sync.Once
	r := runSenders(t, laptop, server, readers, procs, each, func(done int) {
		if done >= procs*each/3 {
			once.Do(func() { lost.Kill() }) // in-process: its connections cut, its files as they were
		}
		if done >= 2*procs*each/3 {
			back.Do(func() { lost.Start(t) })
		}
	})
	after := 0
	for words, ok := range r.acked {
		if ok && strings.HasSuffix(words, ".5.") {
			after++
		}
	}
	if after == 0 {
		t.Fatal("no send after the loss went through")
	}
	r.check(t, laptop, readers)
	// The node is back, and holds what the others wrote.
	deadline := time.Now().Add(30 * time.Second)
	for {
		if lastSeq(t, lost, home) == lastSeq(t, nodes[(indexOf(nodes, lost)+1)%3], home) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the node that came back did not catch up: %d against %d", lastSeq(t, lost, home), lastSeq(t, nodes[(indexOf(nodes, lost)+1)%3], home))
		}
		time.Sleep(200 * time.Millisecond)
	}
}

func indexOf(nodes []*natstest.Server, n *natstest.Server) int {
	for i, m := range nodes {
		if m == n {
			return i
		}
	}
	return -1
}

// lastSeq is the last sequence of the home's stream on the node itself.
func lastSeq(t testing.TB, n *natstest.Server, home string) uint64 {
	t.Helper()
	info, err := n.Jsz(&server.JSzOptions{Accounts: true, Streams: true})
	if err != nil {
		return 0
	}
	for _, a := range info.AccountDetails {
		for _, st := range a.Streams {
			if st.Name == "KV_"+home {
				return st.State.LastSeq
			}
		}
	}
	return 0
}

func freePorts(t *testing.T, n int) []int {
	t.Helper()
	var ports []int
	for i := 0; i < n; i++ {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		defer l.Close()
		ports = append(ports, l.Addr().(*net.TCPAddr).Port)
	}
	return ports
}
