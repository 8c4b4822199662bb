package cli_test

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/conch-sh/conch/state/store/natsstore/natstest"
)

// The figures across computers (issue 27), taken by the lead on a quiet
// machine, never asserted:
//
//	go test ./cli/ -run '^$' -bench 'BenchmarkWakeAcrossCluster' -benchtime 50x
//	go test ./cli/ -run '^$' -bench 'BenchmarkBackendCommands' -benchtime 200x
//	go test ./cli/ -run '^$' -bench 'BenchmarkNodeLoss' -benchtime 5x

// BenchmarkWakeAcrossCluster: a `conch wait chat` on the laptop wakes
// after the chat on the build server ends its reply, on a home on three
// nodes replicated 3 times, over TLS with credentials: the median and the
// 99th percentile.
func BenchmarkWakeAcrossCluster(b *testing.B) {
	nodes, url := natstest.Cluster(b, 3)
	laptop, server, _ := clusterComputers(b, url, nodes[0].Creds, nodes[0].CA)
	dir := b.TempDir()
	laptop.run("", "chat", "new", "--title", "Waiter", "--folder", dir)
	server.run("", "chat", "new", "--title", "Worker", "--folder", dir)
	pid := strconv.Itoa(os.Getpid())
	var wake []time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		server.run("c_2", "reply", "start", "--pid", pid)
		waiter := laptop.cmd("c_1", "wait", "chat", "c_2", "--timeout", "30s")
		stderr, _ := waiter.StderrPipe()
		var out strings.Builder
		waiter.Stdout = &out
		if err := waiter.Start(); err != nil {
			b.Fatal(err)
		}
		if line, err := bufio.NewReader(stderr).ReadString('\n'); err != nil || !strings.HasPrefix(line, "waiting for") {
			b.Fatalf("the waiter did not block: %q %v", line, err)
		}
		end := server.cmd("c_2", "reply", "end", "--text", "done")
		b.StartTimer()
		t0 := time.Now()
		if err := end.Run(); err != nil {
			b.Fatal(err)
		}
		if err := waiter.Wait(); err != nil {
			b.Fatal(err)
		}
		wake = append(wake, time.Since(t0))
		b.StopTimer()
		if !strings.Contains(out.String(), "finished its reply") {
			b.Fatalf("the waiter said %q", out.String())
		}
	}
	ms := func(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
	b.ReportMetric(ms(percentile(wake, 50)), "wake-median-ms")
	b.ReportMetric(ms(percentile(wake, 99)), "wake-p99-ms")
}

// BenchmarkBackendCommands: a step and a `conch notes`, each a process of
// conch-nats (the test binary's conch), on a local home, on one server on
// loopback, on one with credentials and TLS, and on three nodes
// replicated 3 times: the backend's cost against the local one (issue 27:
// at most 3 times).
func BenchmarkBackendCommands(b *testing.B) {
	if testing.Short() {
		b.Skip("-short: no processes on a backend")
	}
	homes := map[string]func(b *testing.B) *computer{
		"local": func(b *testing.B) *computer {
			return &computer{t: b, bin: conchBinTB(b), home: filepath.Join(b.TempDir(), "home"), name: "laptop"}
		},
		"loopback": func(b *testing.B) *computer {
			_, c, _ := twoComputers(b)
			return c
		},
		"tls": func(b *testing.B) *computer {
			srv := natstest.StartSecure(b)
			c := &computer{t: b, bin: conchBinTB(b), home: filepath.Join(b.TempDir(), "home"), name: "laptop"}
			if err := os.MkdirAll(c.home, 0o700); err != nil {
				b.Fatal(err)
			}
			cfg := fmt.Sprintf("[backend]\nurl = %q\ncreds = %q\ntls_ca = %q\n", srv.URL, srv.Creds, srv.CA)
			if err := os.WriteFile(filepath.Join(c.home, "config.toml"), []byte(cfg), 0o600); err != nil {
				b.Fatal(err)
			}
			return c
		},
		"cluster": func(b *testing.B) *computer {
			nodes, url := natstest.Cluster(b, 3)
			c, _, _ := clusterComputers(b, url, nodes[0].Creds, nodes[0].CA)
			return c
		},
	}
	for _, name := range []string{"local", "loopback", "tls", "cluster"} {
		for _, verb := range []string{"step", "notes"} {
			b.Run(name+"/"+verb, func(b *testing.B) {
				c := homes[name](b)
				dir := b.TempDir()
				c.run("", "chat", "new", "--title", "Busy", "--folder", dir)
				c.run("c_1", "reply", "start", "--pid", strconv.Itoa(os.Getpid()))
				args := map[string][]string{"step": {"step", "read", "--file", filepath.Join(dir, "a.go")}, "notes": {"notes"}}[verb]
				b.ResetTimer()
				for i := 0; i < b.N; i++ {
					if out, err := c.cmd("c_1", args...).CombinedOutput(); err != nil {
						b.Fatalf("conch %s: %v\n%s", verb, err, out)
					}
				}
			})
		}
	}
}

// BenchmarkNodeLoss: how long commands fail while a node is lost: the
// node that leads the home's stream is shut down, and a `chat message`
// is sent again and again until one is acknowledged; each round the node
// comes back before the next. ms-until-ok is from the loss to that send's
// start; failed is how many failed before it.
func BenchmarkNodeLoss(b *testing.B) {
	nodes, url := natstest.Cluster(b, 3)
	laptop, _, home := clusterComputers(b, url, nodes[0].Creds, nodes[0].CA)
	dir := b.TempDir()
	laptop.run("", "chat", "new", "--title", "Reader", "--folder", dir)
	laptop.run("", "chat", "new", "--title", "Sender", "--folder", dir, "--mode", "auto")
	var until []time.Duration
	failed := 0
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		laptop.run("c_1", "notes") // room in the reader's inbox
		lead := leaderOf(b, url, nodes[0].Creds, nodes[0].CA, home)
		var lost *natstest.Server
		for _, n := range nodes {
			if n.Name() == lead {
				lost = n
			}
		}
		b.StartTimer()
		t0 := time.Now()
		lost.Kill()
		for {
			start := time.Now()
			if laptop.cmd("c_2", "chat", "message", "c_1", fmt.Sprintf("round %d", i)).Run() == nil {
				until = append(until, start.Sub(t0))
				break
			}
			failed++
		}
		b.StopTimer()
		lost.Start(b)
		waitJetStream(b, url, nodes[0].Creds, nodes[0].CA)
	}
	ms := func(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
	b.ReportMetric(ms(percentile(until, 50)), "ms-until-ok-median")
	b.ReportMetric(ms(percentile(until, 100)), "ms-until-ok-max")
	b.ReportMetric(float64(failed)/float64(b.N), "failed/op")
}
