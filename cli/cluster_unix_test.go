//go:build unix

package cli_test

import (
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// A node frozen (SIGSTOP) for 20 s, a conch-hub process of a cluster of
// three, while the senders run: the same as a node lost, and the node
// thawed catches up.
func TestClusterNodeFrozen(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: a node frozen for 20 s")
	}
	ports := freePorts(t, 6)
	auth := filepath.Join(t.TempDir(), "auth")
	var routes []string
	for i := 0; i < 3; i++ {
		routes = append(routes, fmt.Sprintf("127.0.0.1:%d", ports[3+i]))
	}
	var procs []*exec.Cmd
	var urls []string
	var token string
	for i := 0; i < 3; i++ {
		args := []string{"--listen", fmt.Sprintf("127.0.0.1:%d", ports[i]), "--store", t.TempDir(), "--auth", auth, "--host", "127.0.0.1",
			"--name", fmt.Sprintf("node%d", i+1), "--cluster", "conch", "--cluster-listen", routes[i], "--routes", strings.Join(routes, ",")}
		cmd, u, tok := startHub(t, args...)
		if i > 0 && tok != token {
			t.Fatalf("node %d of the cluster prints another token", i+1)
		}
		procs, urls, token = append(procs, cmd), append(urls, u), tok
	}
	url := strings.Join(urls, ",")
	dir := t.TempDir()
	joined := filepath.Join(t.TempDir(), "joined")
	c := &computer{t: t, bin: conchBinTB(t), home: joined, name: "joiner"}
	c.run("", "backend", "join", url, token)
	creds, ca := filepath.Join(joined, "hub.creds"), filepath.Join(joined, "hub-ca.pem")
	waitJetStream(t, url, creds, ca)
	laptop, server, home := clusterComputers(t, url, creds, ca)
	const readers, senders, each = 4, 16, 4
	for i := 0; i < readers; i++ {
		laptop.run("", "chat", "new", "--title", fmt.Sprintf("Reader %d", i), "--folder", dir)
	}
	makeChats(laptop, server, dir, senders)
	lead := leaderOf(t, url, creds, ca, home)
	frozen := procs[int(lead[len(lead)-1]-'1')]
	var freeze, thaw sync.Once
	start := time.Now()
	r := runSenders(t, laptop, server, readers, senders, each, func(done int) {
		if done >= senders*each/4 {
			freeze.Do(func() { _ = frozen.Process.Signal(syscall.SIGSTOP); start = time.Now() })
		}
		if time.Since(start) >= 20*time.Second || done >= senders*each*3/4 {
			thaw.Do(func() {
				if d := 20*time.Second - time.Since(start); d > 0 {
					time.Sleep(d) // frozen for 20 s, whatever the senders did
				}
				_ = frozen.Process.Signal(syscall.SIGCONT)
			})
		}
	})
	thaw.Do(func() { _ = frozen.Process.Signal(syscall.SIGCONT) })
	r.check(t, laptop, readers)
}

// freePorts are n ports free on 127.0.0.1 now, each another.
