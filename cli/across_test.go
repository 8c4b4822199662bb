package cli_test

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/conch-sh/conch/cli"
	"github.com/conch-sh/conch/state/store"
	"github.com/conch-sh/conch/state/store/natsstore"
	"github.com/conch-sh/conch/state/store/natsstore/natstest"
)

func natsstoreOpen(url, home string) (*natsstore.Store, error) {
	return natsstore.Open(natsstore.Options{URL: url, Home: home})
}

// computer is one CONCH_HOME on the shared server: its own folder, config
// and computer name, the records on the backend.
type computer struct {
	t    testing.TB
	bin  string
	home string
	name string
}

// twoComputers are a laptop and a build server on one embedded server.
func twoComputers(t testing.TB) (*natstest.Server, *computer, *computer) {
	t.Helper()
	if testing.Short() {
		t.Skip("-short: no processes on a backend")
	}
	srv := natstest.Start(t)
	bin := conchBinTB(t)
	dir := t.TempDir()
	home := strings.NewReplacer("/", "_", " ", "_").Replace(t.Name())
	mk := func(name string) *computer {
		c := &computer{t: t, bin: bin, home: filepath.Join(dir, name, "home"), name: name}
		if err := os.MkdirAll(c.home, 0o700); err != nil {
			t.Fatal(err)
		}
		cfg := fmt.Sprintf("[backend]\nurl = %q\nhome = %q\n\n[preferences]\ncomputer = %q\n", srv.URL, home, name)
		if err := os.WriteFile(filepath.Join(c.home, "config.toml"), []byte(cfg), 0o600); err != nil {
			t.Fatal(err)
		}
		return c
	}
	return srv, mk("laptop"), mk("build-server")
}

func conchBinTB(t testing.TB) string {
	t.Helper()
	p, err := exec.LookPath("conch")
	if err != nil {
		t.Fatalf("no conch on PATH (testscript.Main puts it there): %v", err)
	}
	return p
}

func (c *computer) cmd(chat string, args ...string) *exec.Cmd {
	cmd := exec.Command(c.bin, args...)
	cmd.Env = conchEnv(c.home, chat)
	return cmd
}

// run runs conch on this computer and fails the test if it fails.
func (c *computer) run(chat string, args ...string) string {
	c.t.Helper()
	out, err := c.cmd(chat, args...).CombinedOutput()
	if err != nil {
		c.t.Fatalf("%s: conch %s: %v\n%s", c.name, strings.Join(args, " "), err, out)
	}
	return string(out)
}

// Two computers see one set of chats: each lists the other's, on its
// computer, never in the same folder; a message sent on one is read once
// on the other; a wait on one ends when the reply on the other ends.
func TestAcrossComputers(t *testing.T) {
	_, laptop, server := twoComputers(t)
	dir := t.TempDir()
	if id := strings.TrimSpace(laptop.run("", "chat", "new", "--title", "Laptop chat", "--folder", dir)); id != "c_1" {
		t.Fatalf("the laptop's first chat is %q", id)
	}
	if id := strings.TrimSpace(server.run("", "chat", "new", "--title", "Server chat", "--folder", dir)); id != "c_2" {
		t.Fatalf("the server's first chat is %q, want c_2 (ids are one set across)", id)
	}
	list := laptop.run("", "chats", "list")
	if !strings.Contains(list, "“Server chat” (chat c_2)") || !strings.Contains(list, "on build-server") {
		t.Fatalf("the laptop does not list the server's chat on its computer:\n%s", list)
	}
	// The same folder on two computers is not the same folder.
	notes := laptop.run("c_1", "chats", "list")
	if strings.Contains(notes, "same folder") {
		t.Fatalf("a chat on another computer is in the same folder:\n%s", notes)
	}

	// A message sent on the server is read once, on the laptop.
	server.run("c_2", "chat", "message", "c_1", "the build is green")
	if got := laptop.run("c_1", "notes"); strings.Count(got, "the build is green") != 1 {
		t.Fatalf("the laptop's notes:\n%s", got)
	}
	if got := laptop.run("c_1", "notes"); strings.Contains(got, "the build is green") {
		t.Fatalf("the message was shown twice:\n%s", got)
	}

	// A wait on the laptop ends when the server's reply ends.
	server.run("c_2", "reply", "start", "--pid", strconv.Itoa(os.Getpid()))
	waiter := laptop.cmd("c_1", "wait", "chat", "c_2", "--timeout", "30s")
	stderr, _ := waiter.StderrPipe()
	var out strings.Builder
	waiter.Stdout = &out
	if err := waiter.Start(); err != nil {
		t.Fatal(err)
	}
	if line, err := bufio.NewReader(stderr).ReadString('\n'); err != nil || !strings.HasPrefix(line, "waiting for") {
		t.Fatalf("the waiter did not block: %q %v", line, err)
	}
	server.run("c_2", "reply", "end", "--text", "done")
	if err := waiter.Wait(); err != nil || !strings.Contains(out.String(), "finished its reply") {
		t.Fatalf("the wait across: %v %q", err, out.String())
	}
}

// Ids are allocated once across computers: 16 processes on each making
// chats at once never get the same id.
func TestIDsAcrossComputers(t *testing.T) {
	_, laptop, server := twoComputers(t)
	const procs, each = 16, 3
	dir := t.TempDir()
	var mu sync.Mutex
	seen := map[string]string{}
	var wg sync.WaitGroup
	for _, c := range []*computer{laptop, server} {
		for p := 0; p < procs; p++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := 0; i < each; i++ {
					out, err := c.cmd("", "chat", "new", "--title", fmt.Sprintf("%s %d.%d", c.name, p, i), "--folder", dir).CombinedOutput()
					if err != nil {
						t.Errorf("%s: chat new: %v\n%s", c.name, err, out)
						return
					}
					id := strings.TrimSpace(string(out))
					mu.Lock()
					if by, dup := seen[id]; dup {
						t.Errorf("%s got %s, already %s's", c.name, id, by)
					}
					seen[id] = c.name
					mu.Unlock()
				}
			}()
		}
	}
	wg.Wait()
	if len(seen) != 2*procs*each {
		t.Fatalf("%d ids for %d chats made", len(seen), 2*procs*each)
	}
}

// kill -9 of senders on both computers loses and duplicates nothing: a
// message whose send exited 0 is read exactly once; one killed is read at
// most once.
func TestKillAcrossComputers(t *testing.T) {
	_, laptop, server := twoComputers(t)
	dir := t.TempDir()
	const readers, senders, sends = 6, 12, 24 // within SPEC §5's bounds
	for r := 0; r < readers; r++ {
		laptop.run("", "chat", "new", "--title", fmt.Sprintf("Reader %d", r), "--folder", dir)
	}
	makeChats(laptop, server, dir, senders)
	rnd := rand.New(rand.NewSource(1))
	done := make([]bool, sends)
	var wg sync.WaitGroup
	for i := 0; i < sends; i++ {
		c := []*computer{laptop, server}[i%2]
		from, to := "c_"+strconv.Itoa(1+readers+i%senders), "c_"+strconv.Itoa(1+i%readers)
		cmd := c.cmd(from, "chat", "message", to, fmt.Sprintf("note number %d.", i))
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		kill := i%3 == 0
		delay := time.Duration(rnd.Intn(8)) * time.Millisecond
		wg.Add(1)
		go func() {
			defer wg.Done()
			if kill {
				time.Sleep(delay) // a kill at some point of its run
				_ = cmd.Process.Signal(syscall.SIGKILL)
			}
			done[i] = cmd.Wait() == nil
		}()
	}
	wg.Wait()
	if !slices.Contains(done, true) {
		t.Fatal("no send went through")
	}
	var got strings.Builder
	for r := 1; r <= readers; r++ {
		got.WriteString(laptop.run("c_"+strconv.Itoa(r), "notes"))
		got.WriteString(laptop.run("c_"+strconv.Itoa(r), "notes"))
	}
	for i := 0; i < sends; i++ {
		n := strings.Count(got.String(), fmt.Sprintf("note number %d.", i))
		if n > 1 || done[i] && n != 1 {
			t.Errorf("message %d (its send exited 0: %v) was shown %d times", i, done[i], n)
		}
	}
}

// A restart of the server in the middle of a run loses nothing a command
// acknowledged: every send that exited 0 is read, once, by the notes that
// exited 0, before the restart or after it.
func TestServerRestart(t *testing.T) {
	srv, laptop, server := twoComputers(t)
	dir := t.TempDir()
	laptop.run("", "chat", "new", "--title", "Reader", "--folder", dir)
	const sends = 30
	makeChats(laptop, server, dir, 10)
	acked := make([]bool, sends)
	var read strings.Builder
	notes := func() {
		if out, err := laptop.cmd("c_1", "notes").Output(); err == nil {
			read.Write(out)
		}
	}
	for i := 0; i < sends; i++ {
		if i == sends/2 {
			srv.Restart(t) // in the middle of the run
		}
		acked[i] = server.cmd("c_"+strconv.Itoa(2+i%10), "chat", "message", "c_1", fmt.Sprintf("sent %d.", i)).Run() == nil
		notes()
	}
	read.WriteString(laptop.run("c_1", "notes"))
	for i := 0; i < sends; i++ {
		if n := strings.Count(read.String(), fmt.Sprintf("sent %d.", i)); acked[i] && n != 1 || n > 1 {
			t.Errorf("send %d (exit 0: %v) was read %d times", i, acked[i], n)
		}
	}
	if !slices.Contains(acked[sends/2:], true) {
		t.Fatal("no send after the restart went through")
	}
}

// makeChats makes n chats on both computers in turn.
func makeChats(a, b *computer, dir string, n int) {
	for i := 0; i < n; i++ {
		[]*computer{a, b}[i%2].run("", "chat", "new", "--title", fmt.Sprintf("Sender %d", i), "--folder", dir)
	}
}

// BenchmarkWakeAcrossComputers: a `conch wait chat` on the laptop wakes
// after the chat on the build server ends its reply (issue 15: median ≤
// 100 ms on loopback), through a KV watch.
//
//	go test ./cli/ -run '^$' -bench BenchmarkWakeAcrossComputers -benchtime 50x
func BenchmarkWakeAcrossComputers(b *testing.B) {
	_, laptop, server := twoComputers(b)
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

// The real conch links no NATS client: for a home on a backend it runs
// conch-nats in its place (beside it), the same words, streams and exit
// code; without conch-nats it says so in one line, and a hook warns and
// exits 0.
func TestConchRunsConchNats(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: the real binaries are not built")
	}
	srv := natstest.Start(t)
	dir := t.TempDir()
	for _, b := range []string{"conch", "conch-nats"} {
		if out, err := exec.Command("go", "build", "-o", filepath.Join(dir, "bin", b), "../cmd/"+b).CombinedOutput(); err != nil {
			t.Fatalf("building %s: %v\n%s", b, err, out)
		}
	}
	if out, err := exec.Command("go", "list", "-deps", "../cmd/conch").Output(); err != nil || strings.Contains(string(out), "nats-io") {
		t.Fatalf("conch links the NATS client (%v)", err)
	}
	home := filepath.Join(dir, "home")
	if err := os.MkdirAll(home, 0o700); err != nil {
		t.Fatal(err)
	}
	cfg := fmt.Sprintf("[backend]\nurl = %q\nhome = \"execd\"\n", srv.URL)
	if err := os.WriteFile(filepath.Join(home, "config.toml"), []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	conch := func(stdin string, args ...string) (string, string, error) {
		cmd := exec.Command(filepath.Join(dir, "bin", "conch"), args...)
		cmd.Env = conchEnv(home, "")
		cmd.Stdin = strings.NewReader(stdin)
		var out, errb strings.Builder
		cmd.Stdout, cmd.Stderr = &out, &errb
		err := cmd.Run()
		return out.String(), errb.String(), err
	}
	if out, errs, err := conch("", "chat", "new", "--title", "Through conch-nats", "--folder", dir); err != nil || strings.TrimSpace(out) != "c_1" {
		t.Fatalf("chat new through conch-nats: %q %q %v", out, errs, err)
	}
	s, err := natsstoreOpen(srv.URL, "execd")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Get("chats/c_1.json"); err != nil {
		t.Fatalf("the chat is not on the backend: %v", err)
	}
	if _, err := os.Stat(filepath.Join(home, "chats")); err == nil {
		t.Fatal("the chat was written in the local home")
	}
	// Without conch-nats: one line, exit 1; a hook warns and exits 0.
	if err := os.Remove(filepath.Join(dir, "bin", "conch-nats")); err != nil {
		t.Fatal(err)
	}
	_, errs, err := conch("", "chats", "list")
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 1 || strings.Count(errs, "\n") != 1 || !strings.Contains(errs, srv.URL) || !strings.Contains(errs, "conch-nats") {
		t.Fatalf("without conch-nats: %q %v", errs, err)
	}
	out, errs, err := conch(`{"session_id":"S1","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"}}`, "hook", "claude")
	if err != nil || out != "" || !strings.HasPrefix(errs, "conch: warning: hook") {
		t.Fatalf("a hook without conch-nats: %q %q %v", out, errs, err)
	}
}

// A plain conch gives a command on a home on a backend over to conch-nats
// as its process starts (package handover/early), before cobra and the
// rest of conch start, whose start-up the command would not use: here
// the package inits the first process ran (GODEBUG=inittrace=1) before
// a stand-in conch-nats took its place. A [backend] table that names no
// url hands over too (conch-nats runs it as a local home), and a command
// that never reaches the records (version) does not.
func TestConchHandsOverFirst(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: the real binary is not built")
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "bin")
	if out, err := exec.Command("go", "build", "-o", filepath.Join(bin, "conch"), "../cmd/conch").CombinedOutput(); err != nil {
		t.Fatalf("building conch: %v\n%s", err, out)
	}
	if err := os.WriteFile(filepath.Join(bin, "conch-nats"), []byte("#!/bin/sh\necho \"conch-nats $*\"\n"), 0o700); err != nil {
		t.Fatal(err)
	}
	home := filepath.Join(dir, "home")
	if err := os.MkdirAll(home, 0o700); err != nil {
		t.Fatal(err)
	}
	run := func(config string, args ...string) (string, string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(home, "config.toml"), []byte(config), 0o600); err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command(filepath.Join(bin, "conch"), args...)
		cmd.Env = append(conchEnv(home, ""), "GODEBUG=inittrace=1")
		var out, errb strings.Builder
		cmd.Stdout, cmd.Stderr = &out, &errb
		if err := cmd.Run(); err != nil {
			t.Fatalf("conch %v: %v: %s", args, err, errb.String())
		}
		return out.String(), errb.String()
	}
	for _, config := range []string{"[backend]\nurl = \"nats://127.0.0.1:4222\"\n", "[backend]\n# url = \"nats://127.0.0.1:4222\"\n"} {
		out, inits := run(config, "step", "run", "--chat", "c_1", "--pid", "1")
		if out != "conch-nats step run --chat c_1 --pid 1\n" {
			t.Fatalf("%q: conch step said %q, want conch-nats's words (%s)", config, out, inits)
		}
		for _, late := range []string{"github.com/spf13/cobra", "github.com/conch-sh/conch/state ", "github.com/fsnotify/fsnotify", "net ", "reflect ", "encoding/json "} {
			if strings.Contains(inits, "init "+late) {
				t.Errorf("%q: conch started %s before it handed over:\n%s", config, late, inits)
			}
		}
		if !strings.Contains(inits, "init os ") {
			t.Errorf("%q: no init trace of the first process: %q", config, inits)
		}
	}
	if out, inits := run("[backend]\nurl = \"nats://127.0.0.1:4222\"\n", "version"); strings.Contains(out, "conch-nats") || !strings.Contains(inits, "init github.com/spf13/cobra") {
		t.Errorf("conch version handed over: %q", out)
	}
}

// startHub runs conch-hub as a person does, with its credentials (--auth)
// on 127.0.0.1, and reads the join line it prints: the URL and the token.
func startHub(t *testing.T, args ...string) (cmd *exec.Cmd, url, token string) {
	t.Helper()
	p, err := exec.LookPath("conch-hub")
	if err != nil {
		t.Fatalf("no conch-hub on PATH (testscript.Main puts it there): %v", err)
	}
	cmd = exec.Command(p, args...)
	cmd.Env = conchEnv(t.TempDir(), "")
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var errb strings.Builder
	cmd.Stderr = &errb
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		if t.Failed() && errb.Len() > 0 {
			t.Logf("conch-hub %s said:\n%s", strings.Join(args, " "), errb.String())
		}
	})
	r := bufio.NewReader(out)
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			t.Fatalf("conch-hub printed no join line: %v\n%s", err, errb.String())
		}
		if f := strings.Fields(line); len(f) == 5 && f[0] == "conch" && f[1] == "backend" && f[2] == "join" {
			go func() { _, _ = r.WriteTo(io.Discard) }()
			return cmd, f[3], f[4]
		}
	}
}

// A hub with credentials, joined by the line it prints: without them a
// computer gets nothing (no creds, or plain nats://, or another hub's
// token); joined, its files are its own (0600), its commands reach the
// home and doctor says the link is authenticated and encrypted.
func TestJoinHub(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: no processes on a backend")
	}
	store := t.TempDir()
	_, url, token := startHub(t, "--listen", "127.0.0.1:0", "--store", store, "--auth", filepath.Join(store, "auth"))
	if !strings.HasPrefix(url, "tls://127.0.0.1:") {
		t.Fatalf("the join line's URL is %q", url)
	}
	for _, f := range []string{"auth/ca.pem", "auth/ca-key.pem", "auth/user.nk", "auth/routes.secret", "node.pem", "node-key.pem"} {
		if st, err := os.Stat(filepath.Join(store, f)); err != nil || st.Mode().Perm() != 0o600 {
			t.Errorf("the hub's %s: %v %v", f, st, err)
		}
	}
	c := &computer{t: t, bin: conchBinTB(t), home: filepath.Join(t.TempDir(), "home"), name: "laptop"}
	dir := t.TempDir()
	// Not joined: nothing, however it is asked.
	for _, u := range []string{url, "nats://" + strings.TrimPrefix(url, "tls://")} {
		cmd := c.cmd("", "chat", "new", "--title", "Intruder", "--folder", dir)
		cmd.Env = append(cmd.Env, "CONCH_BACKEND_URL="+u)
		if out, err := cmd.CombinedOutput(); err == nil || !strings.Contains(string(out), "cannot be reached") {
			t.Fatalf("%s without credentials: %v\n%s", u, err, out)
		}
	}
	// Another hub's token is no key to this one.
	other := t.TempDir()
	_, _, otherToken := startHub(t, "--listen", "127.0.0.1:0", "--store", other, "--auth", filepath.Join(other, "auth"))
	c.run("", "backend", "join", url, otherToken)
	if out, err := c.cmd("", "chat", "new", "--title", "Intruder", "--folder", dir).CombinedOutput(); err == nil {
		t.Fatalf("another hub's token reached the home:\n%s", out)
	}
	// Joined with its own token.
	if out := c.run("", "backend", "join", url, token); !strings.Contains(out, "joined "+url) {
		t.Fatalf("join said %q", out)
	}
	for _, f := range []string{"config.toml", "hub.creds", "hub-ca.pem"} {
		if st, err := os.Stat(filepath.Join(c.home, f)); err != nil || st.Mode().Perm() != 0o600 {
			t.Errorf("the joined computer's %s: %v %v", f, st, err)
		}
	}
	if id := strings.TrimSpace(c.run("", "chat", "new", "--title", "Joined", "--folder", dir)); id != "c_1" {
		t.Fatalf("the joined computer's chat is %q", id)
	}
	if out := c.run("", "doctor"); !strings.Contains(out, "the link: authenticated, encrypted (TLS)") {
		t.Fatalf("doctor on the joined computer:\n%s", out)
	}
	// A bad token, a URL beyond loopback in clear: one line, exit 2, the
	// config as it was.
	before, _ := os.ReadFile(filepath.Join(c.home, "config.toml"))
	for _, args := range [][]string{{url, "SUnot-a-token"}, {"nats://hub.lan:4222", token}} {
		out, err := c.cmd("", append([]string{"backend", "join"}, args...)...).CombinedOutput()
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.ExitCode() != 2 || strings.Count(string(out), "\n") != 1 {
			t.Errorf("join %q: %v\n%s", args, err, out)
		}
	}
	if after, _ := os.ReadFile(filepath.Join(c.home, "config.toml")); string(after) != string(before) {
		t.Errorf("a refused join changed the config:\n%s", after)
	}
}

// A backend beyond this computer in clear, or without credentials, is
// refused from the config's words alone, before anything is dialed (the
// backend here fails the test if it is opened): one line that says how
// to join, exit 2; a hook warns and exits 0. Loopback stays open.
func TestBackendRefusedBeyondLoopback(t *testing.T) {
	for _, c := range []struct {
		backend string
		opened  bool
	}{
		{"url = \"nats://hub.lan:4222\"", false},
		{"url = \"nats://192.0.2.4:4222\"\ncreds = \"/c\"\ntls_ca = \"/ca\"", false},
		{"url = \"tls://hub.lan:4222\"", false},
		{"url = \"tls://127.0.0.1:4222,tls://hub.lan:4222\"\ntls_ca = \"/ca\"", false},
		{"url = \"tls://hub.lan:4222\"\ncreds = \"/c\"\ntls_ca = \"/ca\"", true},
		{"url = \"nats://127.0.0.1:4222\"", true},
	} {
		home := t.TempDir()
		if err := os.WriteFile(filepath.Join(home, "config.toml"), []byte("[backend]\n"+c.backend+"\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		for _, args := range [][]string{{"chats", "list"}, {"hook", "claude"}} {
			opened := false
			var errb strings.Builder
			code := cli.Main(args, cli.Env{
				In: strings.NewReader(`{"session_id":"S1","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"}}`), Out: io.Discard, Err: &errb,
				Getenv: func(k string) string { return map[string]string{"CONCH_HOME": home}[k] }, Now: time.Now, Hostname: "laptop", Cwd: home,
				OpenBackend: func(cli.BackendConfig) (cli.BackendStore, error) {
					opened = true
					return nil, errors.New("the fake backend is not there")
				},
			})
			switch {
			case opened != c.opened:
				t.Errorf("%q, conch %s: opened the backend: %v", c.backend, args[0], opened)
			case c.opened:
			case args[0] == "hook" && (code != 0 || !strings.Contains(errb.String(), "conch backend join")):
				t.Errorf("%q: the hook: exit %d: %s", c.backend, code, errb.String())
			case args[0] != "hook" && (code != 2 || strings.Count(errb.String(), "\n") != 1 || !strings.Contains(errb.String(), "conch backend join")):
				t.Errorf("%q: exit %d: %q", c.backend, code, errb.String())
			}
		}
	}
}

// setBackend changes only [backend]'s url, creds and tls_ca; the rest of
// the config is as it was.
func TestJoinKeepsConfig(t *testing.T) {
	home := t.TempDir()
	cfg := "# mine\n[preferences]\ncomputer = \"laptop\"\n\n[backend]   # the hub\nurl = \"nats://127.0.0.1:4222\"\nhome = \"work\"\n\n[notify]\ncommand = [\"notify-send\"]\n"
	if err := os.WriteFile(filepath.Join(home, "config.toml"), []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	srv := natstest.StartSecure(t)
	var out strings.Builder
	if code := cli.Main([]string{"backend", "join", srv.URL, srv.Token}, cli.Env{
		In: strings.NewReader(""), Out: &out, Err: &out,
		Getenv: func(k string) string { return map[string]string{"CONCH_HOME": home}[k] }, Now: time.Now, Hostname: "laptop", Cwd: home,
	}); code != 0 {
		t.Fatalf("join: %d %s", code, out.String())
	}
	got, _ := os.ReadFile(filepath.Join(home, "config.toml"))
	want := strings.Replace(cfg, "url = \"nats://127.0.0.1:4222\"\n", "creds = \""+filepath.Join(home, "hub.creds")+"\"\ntls_ca = \""+filepath.Join(home, "hub-ca.pem")+"\"\nurl = \""+srv.URL+"\"\n", 1)
	if string(got) != want {
		t.Fatalf("the config after join:\n%s\nwant:\n%s", got, want)
	}
}

// Commands never travel: a chat record written straight into the server
// (a lying client with the credentials) carrying a wake_cmd, a stop_cmd
// and their environment runs nothing on the chat's computer; the chat's
// own, set on its computer, are kept there (CONCH_HOME/commands), never on
// the server, and run.
func TestCommandsNeverTravel(t *testing.T) {
	srv, laptop, server := twoComputers(t)
	dir := t.TempDir()
	laptop.run("", "chat", "new", "--title", "Sleeper", "--folder", dir)
	laptop.run("", "chat", "new", "--title", "Sender", "--folder", dir, "--mode", "auto")
	liar, err := natsstoreOpen(srv.URL, strings.NewReplacer("/", "_", " ", "_").Replace(t.Name()))
	if err != nil {
		t.Fatal(err)
	}
	defer liar.Close()
	lie := func(key string, set map[string]any) {
		t.Helper()
		unlock, err := liar.Lock(0)
		if err != nil {
			t.Fatal(err)
		}
		defer unlock()
		data, err := liar.Get(key)
		if err != nil {
			t.Fatal(err)
		}
		var rec map[string]any
		if err := json.Unmarshal(data, &rec); err != nil {
			t.Fatal(err)
		}
		for k, v := range set {
			rec[k] = v
		}
		if data, err = json.Marshal(rec); err != nil {
			t.Fatal(err)
		}
		if _, err := liar.Commit([]store.Write{{Key: key, Data: data, Class: store.Durable}}); err != nil {
			t.Fatal(err)
		}
	}
	pwned := filepath.Join(dir, "pwned")
	lie("chats/c_1.json", map[string]any{"wake_cmd": "touch " + pwned, "stop_cmd": "touch " + pwned, "cmd_env": []string{"PATH=/tmp/evil"}})
	if out := laptop.run("c_2", "chat", "message", "c_1", "wake up", "--start-reply"); !strings.Contains(out, "cannot be woken") {
		t.Fatalf("the server's wake_cmd woke the chat: %s", out)
	}
	if out := laptop.run("", "chat", "show", "c_1", "--json"); strings.Contains(out, pwned) || strings.Contains(out, "evil") {
		t.Fatalf("the laptop shows the server's commands as the chat's:\n%s", out)
	}

	// Its own, set on its computer: kept there, not on the server; run.
	woken := filepath.Join(dir, "woken")
	laptop.run("", "chat", "set", "c_1", "--wake-cmd", "touch "+woken)
	if data, err := liar.Get("chats/c_1.json"); err != nil || strings.Contains(string(data), woken) {
		t.Fatalf("the chat's wake_cmd went to the server: %v\n%s", err, data)
	}
	if st, err := os.Stat(filepath.Join(laptop.home, "commands", "c_1.json")); err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("the laptop's own commands file: %v %v", st, err)
	}
	// A record rewritten by the server with another wake_cmd changes
	// nothing of what runs.
	lie("chats/c_1.json", map[string]any{"wake_cmd": "touch " + pwned})
	if out := laptop.run("c_2", "chat", "message", "c_1", "now wake up", "--start-reply"); strings.Contains(out, "cannot be woken") || !strings.Contains(out, "woke") {
		t.Fatalf("the chat's own wake_cmd did not wake it: %s", out)
	}
	// Another computer cannot set them.
	if out, err := server.cmd("", "chat", "set", "c_1", "--wake-cmd", "touch "+pwned).CombinedOutput(); err == nil || !strings.Contains(string(out), "on laptop") {
		t.Fatalf("the server set the laptop's wake_cmd: %v %s", err, out)
	}
	if _, err := os.Stat(pwned); err == nil {
		t.Fatal("a command from the server ran")
	}
}

// A server that lies (or another client with the credentials) cannot
// crash a command or a hook: a record that is not JSON, one under
// another's name, a key no conch writes, a journal that names the lock
// and another stream: every command answers or fails in one line naming
// the record, a hook exits 0, and nothing panics.
func TestLyingServer(t *testing.T) {
	srv, laptop, _ := twoComputers(t)
	dir := t.TempDir()
	laptop.run("", "chat", "new", "--title", "One", "--folder", dir)
	laptop.run("", "chat", "new", "--title", "Two", "--folder", dir)
	home := strings.NewReplacer("/", "_", " ", "_").Replace(t.Name())
	nc, err := nats.Connect(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	put := func(kvKey string, data string) {
		t.Helper()
		if _, err := nc.Request("$KV."+home+"."+kvKey, []byte(data), 5*time.Second); err != nil {
			t.Fatal(err)
		}
	}
	run := func(stage string, args ...string) (string, int) {
		t.Helper()
		cmd := laptop.cmd("c_2", args...)
		cmd.Stdin = strings.NewReader(`{"session_id":"S1","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"}}`)
		out, err := cmd.CombinedOutput()
		code := 0
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(out), "panic") || strings.Contains(string(out), "goroutine ") || code > 5 {
			t.Fatalf("%s: conch %s: exit %d\n%s", stage, strings.Join(args, " "), code, out)
		}
		return string(out), code
	}
	every := func(stage string) {
		t.Helper()
		for _, args := range [][]string{{"chats", "list"}, {"notes"}, {"chat", "show", "c_1"}, {"step", "read", "--file", "/w/a.go"}, {"chat", "message", "c_1", "hello"}} {
			run(stage, args...)
		}
		if out, code := run(stage, "hook", "claude"); code != 0 {
			t.Fatalf("%s: the hook exited %d:\n%s", stage, code, out)
		}
	}
	put("r.chats.c_9=2ejson", `{"id":"c_9"}`) // a key conch never writes (lower-case hex)
	put("r.chats.=2E=2E", `{}`)
	put("r.chats.a=2Fb=2Ejson", `{}`)
	every("keys no conch writes")
	if out, _ := run("keys", "chats", "list"); !strings.Contains(out, "“One”") || strings.Contains(out, "c_9") {
		t.Fatalf("the list with keys no conch writes:\n%s", out)
	}
	put("r.chats.c_1=2Ejson", `{"id":"c_2","title":"I am two"}`)
	every("a record under another's name")
	put("r.chats.c_1=2Ejson", `not json at all`)
	every("a record that is not JSON")
	if out, code := run("not JSON", "chat", "show", "c_1"); code != 1 || !strings.Contains(out, "chats/c_1.json") || strings.Count(out, "\n") != 1 {
		t.Fatalf("a record that is not JSON: exit %d\n%s", code, out)
	}
	put("r.chats.c_1=2Ejson", `{"id":"c_1","title":"One","inbox":["m_999999999"],"reply":{"pid":-5,"computer":"laptop"},"waiters":["person","c_404"]}`)
	every("a record that names what is not there")
	put("m.journal", `["m.lock","$JS.API.>","r.chats.c_2=2Ejson"]`)
	if out, code := run("a journal that lies", "chat", "set", "c_2", "--title", "Renamed"); code != 1 || !strings.Contains(out, "journal") {
		t.Fatalf("a lying journal: exit %d\n%s", code, out)
	}
	every("a journal that lies")
	s, err := natsstoreOpen(srv.URL, home)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if _, err := s.Get("chats/c_2.json"); err != nil {
		t.Fatalf("the journal deleted a chat: %v", err)
	}
}
