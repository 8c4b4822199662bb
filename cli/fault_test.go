//go:build linux

package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
	"unsafe"
)

// The fault campaign (SPEC §9, issue 19): the real binary, run under strace
// from a prepared home, has one file-system system call failed (ENOSPC,
// EIO, EDQUOT or EROFS, in turn) or is killed at it (SIGKILL), at every
// such call of every writing command; after each run the home is checked:
//
//   - whole: doctor finds nothing once the next command has run;
//   - a command that failed (an exit code other than a clean run's) changed
//     nothing, once the next command has run (which rolls forward whatever
//     a commit left); one killed left all or nothing;
//   - each message due, and one a send that exited 0 made, is shown by
//     exactly one notes (or hook) that exits 0, as a harness judges it (a
//     killed run's output is thrown away, issue 29): notes is run until
//     quiet;
//   - no cursor past its target's log;
//   - no id given twice (a record under a known id is still the same one,
//     and the next chat's id is past every id seen);
//   - no panic, no hang (a run is bounded).
//
// strace and the pseudo-terminal it opens (/dev/ptmx, TIOCGPTN) are
// Linux's: the file is built on Linux only.
//
// CONCH_FAULT_ALL=1 runs every fault point of every command (the README's
// "Measuring" section has the figures); otherwise a fast subset (every
// tenth point). CONCH_FAULT_REPORT=FILE writes every finding to FILE, one
// a line; CONCH_FAULT_ONLY=NAME runs one command (named as below).
// Invariants in faultPending are reported, not failed (see there).

// faultSyscalls are the system calls faults are put into.
var faultSyscalls = []string{"openat", "read", "write", "close", "fsync", "fdatasync", "rename", "renameat", "renameat2",
	"unlink", "unlinkat", "mkdir", "mkdirat", "fchmod", "flock", "getdents64", "ftruncate", "newfstatat", "fstat"}

var faultErrnos = []string{"ENOSPC", "EIO", "EDQUOT", "EROFS"}

// faultPending are the windows an issue's own rules leave open: found,
// logged, not failed. None is left: a hook killed between its marks'
// commit and its answer, or whose answer cannot be written, leaves its
// receipt, and the next notes says the same again (issue 29).
var faultPending = map[string]bool{}

// faultAsserted are the commands whose every invariant is asserted
// already: doctor --repair is this part's own.
var faultAsserted = map[string]bool{"doctor --repair": true}

// faultCmd is one writing command of the campaign.
type faultCmd struct {
	name  string
	chat  string // acting chat, "" for the person
	tty   bool   // run with a terminal on standard input (a person's press)
	stdin string
	args  []string
	sends string // the token of the message it sends (or passes on), if any
	retry bool   // keyed: a run that did not exit 0 is tried again, and must then send once
	hook  bool   // a hook: it always exits 0, and records the harness's process (strace), so no two runs are alike
}

// hookPayload is a Claude Code or Codex hook event of session S1 (Claude)
// or S2 (Codex).
func hookPayload(harness, event, user string) string {
	session := "S1"
	if harness == "codex" {
		session = "S2"
	}
	p := map[string]any{"session_id": session, "cwd": user, "hook_event_name": event, "turn_id": "turn-9"}
	switch event {
	case "SessionStart":
		p["source"] = "startup"
	case "UserPromptSubmit":
		p["prompt"] = "Fix the parser"
	case "PreToolUse", "PostToolUse":
		p["tool_name"] = "Edit"
		p["tool_input"] = map[string]any{"file_path": filepath.Join(user, "parser.go")}
		if harness == "codex" {
			p["tool_name"] = "Bash"
			p["tool_input"] = map[string]any{"command": "go test"}
		}
	case "Stop":
		p["stop_hook_active"] = false
		p["last_assistant_message"] = "Fixed the parser."
	}
	data, _ := json.Marshal(p)
	return string(data)
}

func faultCommands(user string) []faultCmd {
	hook := func(harness, event string) faultCmd {
		return faultCmd{name: "hook " + harness + " " + event, stdin: hookPayload(harness, event, user), args: []string{"hook", harness}, hook: true}
	}
	return []faultCmd{
		{name: "chat new", args: []string{"chat", "new", "--title", "Fault new", "--folder", user}},
		{name: "task new", chat: "c_1", args: []string{"task", "new", "--title", "Fault task"}},
		{name: "task set", chat: "c_1", args: []string{"task", "set", "t_1", "--state", "done", "--result", "it passed"}},
		{name: "reply start", chat: "c_3", args: []string{"reply", "start", "--person", "--pid", strconv.Itoa(os.Getpid())}},
		{name: "reply end", chat: "c_2", args: []string{"reply", "end", "--text", "the login is fixed"}},
		{name: "step", chat: "c_2", args: []string{"step", "edit", "--file", filepath.Join(user, "login.go")}},
		{name: "notes", chat: "c_2", args: []string{"notes"}},
		{name: "chat message", chat: "c_1", args: []string{"chat", "message", "c_2", "tok-send the copy is ready"}, sends: "tok-send"},
		{name: "chat message --start-reply --key", chat: "c_1", args: []string{"chat", "message", "c_4", "tok-keyed look at this", "--start-reply", "--key", "k-9"}, sends: "tok-keyed", retry: true},
		{name: "chat stop", chat: "c_1", args: []string{"chat", "stop", "c_4", "--reason", "hold on"}},
		{name: "wait --detach", chat: "c_1", args: []string{"wait", "chat", "c_4", "--detach"}},
		{name: "wait cancel", chat: "c_1", args: []string{"wait", "cancel", "c_2"}},
		{name: "watch", chat: "c_1", args: []string{"watch", "c_4"}},
		{name: "unwatch", chat: "c_1", args: []string{"unwatch", "c_2"}},
		{name: "chat set", args: []string{"chat", "set", "c_2", "--goal", "ship the login", "--title", "Fix the login now"}},
		{name: "chat taint", args: []string{"chat", "taint", "c_2", "--outside", "https://example.com/page"}},
		{name: "chat delete", args: []string{"chat", "delete", "c_3"}},
		{name: "message pass", tty: true, args: []string{"message", "pass", "m_2"}, sends: "tok-m2"},
		{name: "message dismiss", tty: true, args: []string{"message", "dismiss", "m_2"}},
		{name: "confirm", tty: true, args: []string{"confirm", "r_1"}},
		{name: "deny", tty: true, args: []string{"deny", "r_1"}},
		{name: "gc", args: []string{"gc"}},
		{name: "doctor --repair", args: []string{"doctor", "--repair"}},
		hook("claude", "UserPromptSubmit"),
		hook("claude", "PreToolUse"),
		hook("claude", "PostToolUse"),
		hook("claude", "Stop"),
		hook("codex", "UserPromptSubmit"),
		hook("codex", "PreToolUse"),
		hook("codex", "PostToolUse"),
		hook("codex", "Stop"),
	}
}

// faultRig is the campaign's binary, prepared home and folders.
type faultRig struct {
	t        *testing.T
	bin      string
	strace   string
	dir      string
	user     string
	host     string            // the computer's name, as the binary finds it
	pristine string            // the prepared home, kept aside
	due      map[string]string // token of each message due in the prepared home → its receiver
	before   map[string]string // the prepared home's records
	// more, when set, are the variables a run in home has beside the
	// rig's own (a home on a backend); backend opens one in this process.
	more    func(home string) []string
	backend OpenBackend
}

func (r *faultRig) env(home, chat string) []string {
	env := []string{"CONCH_HOME=" + home, "HOME=" + r.user, "CONCH_NOW=2026-11-29T12:00:00Z", "PATH=" + os.Getenv("PATH"),
		"HTTP_PROXY=http://127.0.0.1:9", "HTTPS_PROXY=http://127.0.0.1:9", "ALL_PROXY=http://127.0.0.1:9", "NO_PROXY=127.0.0.1,localhost"}
	if chat != "" {
		env = append(env, "CONCH_CHAT="+chat)
	}
	if r.more != nil {
		env = append(env, r.more(home)...)
	}
	return env
}

// result is what one run of conch did.
type result struct {
	code          int
	killed        bool
	out, err      string
	trace         string
	timedOut      bool
	injectedLines []string
}

// runConch runs conch over home: with strace arguments, the real binary
// under strace; without, in this process (the checks after a run: the
// same code, a hundred times cheaper than a process).
func (r *faultRig) runConch(home string, c faultCmd, strace []string) result {
	if strace == nil {
		return r.inProcess(home, c)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	f, err := os.CreateTemp(r.dir, "trace-")
	if err != nil {
		r.t.Fatal(err)
	}
	f.Close()
	trace := f.Name()
	defer os.Remove(trace)
	args := append([]string{"-f", "-qq", "-o", trace}, strace...)
	cmd := exec.CommandContext(ctx, r.strace, append(append(args, r.bin), c.args...)...)
	cmd.Env = r.env(home, c.chat)
	cmd.Dir = r.user
	var out, errs bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errs
	if c.tty {
		master, slave, err := openPty()
		if err != nil {
			r.t.Fatalf("a terminal for %s: %v", c.name, err)
		}
		defer master.Close()
		defer slave.Close()
		cmd.Stdin = slave
	} else {
		cmd.Stdin = strings.NewReader(c.stdin)
	}
	err = cmd.Run()
	res := result{out: out.String(), err: errs.String(), timedOut: ctx.Err() != nil}
	if ee, ok := err.(*exec.ExitError); ok {
		res.code = ee.ExitCode()
		if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			res.killed = true
		}
	} else if err != nil {
		r.t.Fatalf("run %s: %v", c.name, err)
	}
	{
		data, _ := os.ReadFile(trace)
		res.trace = string(data)
		for _, l := range strings.Split(res.trace, "\n") {
			if strings.Contains(l, "(INJECTED)") || strings.Contains(l, "+++ killed by SIGKILL") {
				res.injectedLines = append(res.injectedLines, l)
			}
		}
		// strace reports the tracee's death by signal as its own: the
		// exit status says 137 when the tracee was killed.
		if strings.Contains(res.trace, "+++ killed by SIGKILL") {
			res.killed = true
		}
	}
	return res
}

func (r *faultRig) inProcess(home string, c faultCmd) result {
	vars := map[string]string{}
	for _, kv := range r.env(home, c.chat) {
		k, v, _ := strings.Cut(kv, "=")
		vars[k] = v
	}
	now, _ := time.Parse(time.RFC3339, vars["CONCH_NOW"])
	var out, errs bytes.Buffer
	env := Env{
		In: strings.NewReader(c.stdin), Out: &out, Err: &errs, Terminal: c.tty,
		Getenv: func(k string) string { return vars[k] }, Now: func() time.Time { return now },
		Hostname: r.host, Cwd: r.user, PPID: os.Getpid(), OpenBackend: r.backend,
	}
	code := Main(c.args, env)
	return result{code: code, out: out.String(), err: errs.String()}
}

// must runs a command in home that must exit with one of codes.
func (r *faultRig) must(home string, c faultCmd, codes ...int) result {
	r.t.Helper()
	res := r.runConch(home, c, nil)
	for _, code := range codes {
		if res.code == code {
			return res
		}
	}
	r.t.Fatalf("conch %s (as %q): exit %d, want %v: %s%s", strings.Join(c.args, " "), c.chat, res.code, codes, res.out, res.err)
	return res
}

func cmd(chat string, args ...string) faultCmd { return faultCmd{chat: chat, args: args} }

// prepare makes the home every command of the campaign starts from:
// c_1 (the person's, its reply running), c_2 (its reply running, a
// message from c_1 due, watched and waited on by c_1), c_3 (holding a
// message for the person), t_1 (c_1's task), c_4 (Claude session S1, a
// message due), c_5 (Codex session S2, a message due), a stop request r_1
// waiting for the person.
func (r *faultRig) prepare(home string) {
	pid := strconv.Itoa(os.Getpid())
	r.must(home, cmd("", "chat", "new", "--title", "Release notes", "--folder", r.user), 0)
	r.must(home, cmd("", "chat", "new", "--title", "Fix the login", "--folder", r.user), 0)
	r.must(home, cmd("", "chat", "new", "--title", "Docs", "--folder", r.user), 0)
	r.must(home, cmd("", "chat", "set", "c_3", "--inbound", "hold"), 0)
	r.must(home, cmd("c_1", "reply", "start", "--person", "--pid", pid), 0)
	r.must(home, cmd("c_2", "reply", "start", "--pid", pid), 0)
	r.must(home, cmd("c_1", "task", "new", "--title", "Run the tests"), 0)
	r.must(home, cmd("c_1", "chat", "message", "c_2", "tok-m1 the changelog is done", "--watch"), 0)
	r.must(home, cmd("c_1", "chat", "message", "c_3", "tok-m2 held for the person"), 0)
	r.must(home, cmd("c_1", "wait", "chat", "c_2", "--detach"), 0)
	r.must(home, cmd("c_1", "chat", "stop", "c_2", "--reason", "wait for me"), 4)
	for _, harness := range []string{"claude", "codex"} {
		r.must(home, faultCmd{args: []string{"hook", harness}, stdin: hookPayload(harness, "SessionStart", r.user)}, 0)
		r.must(home, faultCmd{args: []string{"hook", harness}, stdin: hookPayload(harness, "UserPromptSubmit", r.user)}, 0)
	}
	r.must(home, cmd("c_1", "chat", "message", "c_4", "tok-m3 for the Claude session"), 0)
	r.must(home, cmd("c_1", "chat", "message", "c_5", "tok-m4 for the Codex session"), 0)
	r.must(home, cmd("", "gc"), 0)
	r.due = map[string]string{"tok-m1": "c_2", "tok-m3": "c_4", "tok-m4": "c_5"}
}

// recentAt finds the time of a recent send in a chat record.
var recentAt = regexp.MustCompile(`("sum": "[^"]*",\s*"at": )"[^"]*"`)

// dump is the home's records, path → content, leaving out temporary
// files, lock files and the quarantine.
func dump(t *testing.T, home string) map[string]string {
	out := map[string]string{}
	err := filepath.WalkDir(home, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(home, p)
		rel = filepath.ToSlash(rel)
		switch {
		case rel == "quarantine", rel == "marks":
			// The receipts of a process's marks are its own, until it
			// gets out or the next notes undoes them (issue 29): the
			// records are what a run changed.
			return filepath.SkipDir
		case d.IsDir():
		case strings.HasPrefix(d.Name(), "."), strings.HasSuffix(d.Name(), ".lock"):
		default:
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			if strings.HasPrefix(rel, "chats/") {
				// A recent send is stamped on the wall clock (the bounds
				// in time run on it), which CONCH_NOW does not pin.
				data = recentAt.ReplaceAll(data, []byte(`${1}"wall"`))
			}
			out[rel] = string(data)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// pastHeads is d without the events past their log's head: a command
// killed before its commit point may leave one, which no reader reads and
// the next event is written over.
func pastHeads(d map[string]string) map[string]string {
	out := make(map[string]string, len(d))
	for rel, v := range d {
		parts := strings.Split(rel, "/")
		if len(parts) == 3 && parts[0] == "log" && len(parts[2]) == 17 {
			var head struct {
				StateVersion int64 `json:"state_version"`
			}
			_ = json.Unmarshal([]byte(d["log/"+parts[1]+"/head.json"]), &head)
			if seq, err := strconv.ParseInt(strings.TrimSuffix(parts[2], ".json"), 10, 64); err == nil && seq > head.StateVersion {
				continue
			}
		}
		out[rel] = v
	}
	return out
}

func diffDumps(a, b map[string]string) []string {
	var d []string
	for k, v := range a {
		if w, ok := b[k]; !ok {
			d = append(d, "-"+k)
		} else if v != w {
			d = append(d, "~"+k)
		}
	}
	for k := range b {
		if _, ok := a[k]; !ok {
			d = append(d, "+"+k)
		}
	}
	sort.Strings(d)
	return d
}

// point is one fault point: the nth call of a system call on the
// command's thread, with the call as a clean run made it.
type point struct {
	syscall string
	n       int
	call    string
}

var traceLine = regexp.MustCompile(`^(\d+) +([a-z0-9_]+)\((.*)$`)

// points reads a clean run's trace: the calls of the command's thread from
// its first look at the home on.
func points(trace, home string) []point {
	var out []point
	count := map[string]int{}
	main := ""
	lines := strings.Split(trace, "\n")
	for _, l := range lines {
		if m := traceLine.FindStringSubmatch(l); m != nil && strings.Contains(m[3], home) {
			main = m[1] // the command's thread: the first to look at the home
			break
		}
	}
	started := false
	for _, l := range lines {
		m := traceLine.FindStringSubmatch(l)
		if m == nil || m[1] != main {
			continue
		}
		count[m[2]]++
		if !started && strings.Contains(m[3], home) {
			started = true
		}
		if started {
			out = append(out, point{syscall: m[2], n: count[m[2]], call: m[2] + "(" + shorten(m[3])})
		}
	}
	return out
}

func shorten(s string) string {
	if i := strings.Index(s, " <unfinished"); i >= 0 {
		s = s[:i]
	}
	if len(s) > 140 {
		s = s[:140] + "…"
	}
	return s
}

// finding is one broken invariant.
type finding struct {
	invariant string
	command   string
	fault     string
	detail    string
}

// check runs the command once with the fault, then the checks, in home.
func (r *faultRig) check(home string, c faultCmd, p point, fault string, clean result, cleanAfter map[string]string) ([]finding, bool) {
	t := r.t
	if err := os.RemoveAll(home); err != nil {
		t.Fatal(err)
	}
	copyTree(t, r.pristine, home)
	inject := p.syscall + ":" + fault + ":when=" + strconv.Itoa(p.n)
	res := r.runConch(home, c, []string{"-e", "trace=" + p.syscall, "-e", "inject=" + inject})
	where := fmt.Sprintf("%s at %s #%d %s", fault, p.syscall, p.n, p.call)
	var found []finding
	if len(res.injectedLines) == 0 && !res.timedOut {
		return nil, false // the run never came to the call: a clean run
	}
	add := func(inv, format string, args ...any) {
		found = append(found, finding{inv, c.name, where, fmt.Sprintf(format, args...)})
	}
	if res.timedOut {
		add("bounded", "still running after 30 s")
		return found, true
	}
	if strings.Contains(res.err, "panic:") || strings.Contains(res.err, "goroutine ") {
		add("no panic", "%s", firstLines(res.err, 6))
	}
	killed := strings.HasPrefix(fault, "signal")
	failed := res.code != clean.code && !killed
	// The next command: it rolls forward what the run left (a commit cut
	// short), refused before it writes anything of its own.
	next := r.runConch(home, cmd("c_1", "unwatch", "c_99"), nil)
	if next.code != ExitRefused {
		add("whole", "the next command: exit %d: %s", next.code, firstLines(next.err, 3))
	}
	if c.retry && (res.code != 0 || killed) {
		// A keyed send tried again after it failed or was killed: it
		// answers as a clean run does, and the message goes once.
		again := r.runConch(home, c, nil)
		if again.code != clean.code {
			add("keyed retry", "tried again after exit %d: exit %d: %s", res.code, again.code, firstLines(again.err, 2))
		}
		res, killed, failed = again, false, false
	}
	after := dump(t, home)
	committed := len(diffDumps(cleanAfter, pastHeads(after))) == 0
	unchanged := len(diffDumps(r.before, pastHeads(after))) == 0
	receipts, _ := os.ReadDir(filepath.Join(home, "marks"))
	switch {
	case failed && unchanged:
	case failed && committed && len(receipts) > 0:
		// Its marks are committed, but it could not confirm them: its
		// receipt stands, and the next notes says the same again.
	case failed && committed:
		// Whole, but said to have failed: the answer could not be
		// written, or a read after the commit failed.
		add("failed after commit", "exit %d (%s), but its change is committed whole", res.code, firstLines(res.err, 1))
		failed = false
	case failed && !unchanged:
		add("unchanged", "exit %d (%s) but changed %s", res.code, firstLines(res.err, 1), strings.Join(diffDumps(r.before, after), " "))
	case killed && !unchanged && !committed && !c.hook:
		add("all or nothing", "killed, and the next command left neither the home before nor the home after: %s", strings.Join(diffDumps(cleanAfter, after), " "))
	}
	if doc := r.runConch(home, cmd("", "doctor"), nil); doc.code != 0 {
		add("whole", "doctor after the next command: %s", firstLines(doc.out+doc.err, 4))
	}
	// Cursors never past their target's log.
	for rel, data := range after {
		if !strings.HasPrefix(rel, "watch/") {
			continue
		}
		var cs struct {
			Targets map[string]struct{ LastSeen, Notified, Material int64 } `json:"targets"`
		}
		_ = json.Unmarshal([]byte(data), &cs)
		for target, cur := range cs.Targets {
			var head struct {
				StateVersion int64 `json:"state_version"`
			}
			_ = json.Unmarshal([]byte(after["log/"+target+"/head.json"]), &head)
			if top := max(cur.LastSeen, cur.Notified, cur.Material); top > head.StateVersion {
				add("cursor", "%s's cursor on %s at %d, past its log (%d)", rel, target, top, head.StateVersion)
			}
		}
	}
	// No id given twice: a record under a known id is the same record.
	for rel, was := range r.before {
		now, ok := after[rel]
		if !ok || !(strings.HasPrefix(rel, "chats/") || strings.HasPrefix(rel, "tasks/") || strings.HasPrefix(rel, "messages/") || strings.HasPrefix(rel, "requests/")) {
			continue
		}
		if a, b := identity(was), identity(now); a != b {
			add("no reuse", "%s was %s, is %s", rel, a, b)
		}
	}
	probe := r.runConch(home, cmd("", "chat", "new", "--title", "Probe", "--folder", r.user), nil)
	if probe.code != 0 {
		add("whole", "chat new after the run: exit %d: %s", probe.code, firstLines(probe.err, 2))
	} else if n := serial(strings.TrimSpace(probe.out)); n <= maxSerial(r.before, "chats/c_") || n <= maxSerial(after, "chats/c_") {
		add("no reuse", "the next chat is %s, not past every chat there was", strings.TrimSpace(probe.out))
	}
	// Every message shown exactly once by a notes that exits 0.
	shown := map[string]int{}
	tokens := map[string]bool{"tok-m2": true}
	for tok := range r.due {
		tokens[tok] = true
	}
	if c.sends != "" {
		tokens[c.sends] = true
	}
	count := func(out string) {
		for tok := range tokens {
			shown[tok] += strings.Count(out, tok)
		}
	}
	if res.code == 0 && !killed {
		count(res.out)
	}
	receivers := map[string]bool{"c_2": true, "c_4": true, "c_5": true, "c_3": true}
	for chat := range receivers {
		for range 3 {
			n := r.runConch(home, cmd(chat, "notes"), nil)
			if n.code == ExitStopped {
				r.runConch(home, cmd(chat, "reply", "start", "--pid", strconv.Itoa(os.Getpid())), nil)
				continue
			}
			if n.code == 0 {
				count(n.out)
			}
			if !strings.Contains(n.out, "tok-") {
				break
			}
		}
	}
	if held := "tok-m2"; c.sends != held && shown[held] != 0 {
		add("once", "%s, held for the person, was shown %d times", held, shown[held])
	}
	for tok, to := range r.due {
		switch {
		case shown[tok] > 1:
			add("once", "%s (due to %s) shown %d times", tok, to, shown[tok])
		case shown[tok] == 1:
		default:
			add("once", "%s (due to %s) shown 0 times", tok, to)
		}
	}
	if c.sends != "" {
		switch {
		case res.code == 0 && !killed && shown[c.sends] != 1:
			add("once", "its send exited 0, but %s was shown %d times", c.sends, shown[c.sends])
		case failed && shown[c.sends] != 0:
			add("once", "its send failed (exit %d), but %s was shown %d times", res.code, c.sends, shown[c.sends])
		case killed && shown[c.sends] > 1:
			add("once", "killed, and %s was shown %d times", c.sends, shown[c.sends])
		}
	}
	return found, true
}

// identity is what a record under an id is: who made it and when.
func identity(data string) string {
	var v struct {
		Created, Sent, Asked, Origin, From, To, By, Target, Text string
	}
	_ = json.Unmarshal([]byte(data), &v)
	return fmt.Sprintf("%+v", v)
}

func serial(id string) int {
	_, n, _ := strings.Cut(id, "_")
	v, _ := strconv.Atoi(n)
	return v
}

func maxSerial(d map[string]string, prefix string) int {
	m := 0
	for rel := range d {
		if id, ok := strings.CutPrefix(rel, prefix); ok {
			m = max(m, serial("c_"+strings.TrimSuffix(id, ".json")))
		}
	}
	return m
}

func firstLines(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	if len(lines) > n {
		lines = lines[:n]
	}
	return strings.Join(lines, " | ")
}

// openPty opens a pseudo-terminal: a person's press needs a terminal on
// standard input.
func openPty() (master, slave *os.File, err error) {
	master, err = os.OpenFile("/dev/ptmx", os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		return nil, nil, err
	}
	var n uint32
	if _, _, e := syscall.Syscall(syscall.SYS_IOCTL, master.Fd(), syscall.TIOCGPTN, uintptr(unsafe.Pointer(&n))); e != 0 {
		master.Close()
		return nil, nil, e
	}
	var unlock int32
	if _, _, e := syscall.Syscall(syscall.SYS_IOCTL, master.Fd(), syscall.TIOCSPTLCK, uintptr(unsafe.Pointer(&unlock))); e != 0 {
		master.Close()
		return nil, nil, e
	}
	slave, err = os.OpenFile("/dev/pts/"+strconv.Itoa(int(n)), os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		master.Close()
		return nil, nil, err
	}
	return master, slave, nil
}

// needStrace is strace's path, or the test skipped where strace cannot
// trace.
func needStrace(t *testing.T) string {
	t.Helper()
	strace, err := exec.LookPath("strace")
	if err != nil {
		t.Skip("strace is not installed (.ci/run installs it from Debian's packages): no fault campaign")
	}
	if out, err := exec.Command(strace, "-f", "-qq", "-o", "/dev/null", "true").CombinedOutput(); err != nil {
		t.Skipf("strace cannot trace here (ptrace not allowed?): %v: %s", err, out)
	}
	return strace
}

// newFaultRig is a rig running bin under strace, its files in dir.
func newFaultRig(t *testing.T, bin, strace, dir string) *faultRig {
	t.Helper()
	r := &faultRig{t: t, bin: bin, strace: strace, dir: dir, user: filepath.Join(dir, "user")}
	r.host, _ = os.Hostname()
	if err := os.MkdirAll(r.user, 0o700); err != nil {
		t.Fatal(err)
	}
	return r
}

// TestFaultCampaign is the campaign; see the top of this file.
func TestFaultCampaign(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: no fault campaign")
	}
	strace := needStrace(t)
	all := os.Getenv("CONCH_FAULT_ALL") != ""
	only := os.Getenv("CONCH_FAULT_ONLY") // a command's name: that one alone
	dir := openDir(t)
	r := newFaultRig(t, conchBinary(t, dir), strace, dir)
	workers := 2
	homes := make([]string, workers)
	for i := range homes {
		homes[i] = filepath.Join(dir, fmt.Sprintf("run%d", i), "home")
	}
	// The prepared home is made where the runs' homes are, then kept aside.
	r.prepare(homes[0])
	r.pristine = filepath.Join(dir, "pristine")
	copyTree(t, homes[0], r.pristine)
	r.before = dump(t, r.pristine)
	// The next command of every check must itself change nothing.
	if res := r.runConch(homes[0], cmd("c_1", "unwatch", "c_99"), nil); res.code != ExitRefused {
		t.Fatalf("the next command: exit %d: %s", res.code, res.err)
	}
	if d := diffDumps(r.before, dump(t, homes[0])); len(d) > 0 {
		t.Fatalf("the next command changed %v", d)
	}

	start := time.Now()
	var mu sync.Mutex
	var found []finding
	runs, missed := 0, 0
	perCommand := map[string]int{}
	ptyOK := true
	if m, sl, err := openPty(); err != nil {
		ptyOK = false
		t.Logf("no pseudo-terminal here (%v): the person's presses (message pass, dismiss, confirm, deny) are left out", err)
	} else {
		m.Close()
		sl.Close()
	}
	for _, c := range faultCommands(r.user) {
		if only != "" && c.name != only || c.tty && !ptyOK {
			continue
		}
		// A clean run, traced: its exit code, and its fault points.
		if err := os.RemoveAll(homes[0]); err != nil {
			t.Fatal(err)
		}
		copyTree(t, r.pristine, homes[0])
		clean := r.runConch(homes[0], c, []string{"-e", "trace=" + strings.Join(faultSyscalls, ",")})
		if clean.code != 0 && clean.code != ExitNeedsPerson {
			t.Fatalf("%s: a clean run: exit %d: %s%s", c.name, clean.code, clean.out, clean.err)
		}
		cleanAfter := dump(t, homes[0])
		pts := points(clean.trace, homes[0])
		perCommand[c.name] = len(pts)
		type job struct {
			p     point
			fault string
		}
		var jobs []job
		for i, p := range pts {
			errno := faultErrnos[i%len(faultErrnos)]
			if !all && i%10 != 0 {
				continue
			}
			jobs = append(jobs, job{p, "error=" + errno}, job{p, "signal=SIGKILL"})
		}
		var wg sync.WaitGroup
		next := make(chan job)
		for w := range workers {
			wg.Add(1)
			go func(home string) {
				defer wg.Done()
				for j := range next {
					f, hit := r.check(home, c, j.p, j.fault, clean, cleanAfter)
					mu.Lock()
					runs++
					if !hit {
						missed++
					}
					found = append(found, f...)
					mu.Unlock()
				}
			}(homes[w])
		}
		for _, j := range jobs {
			next <- j
		}
		close(next)
		wg.Wait()
	}
	total := 0
	names := make([]string, 0, len(perCommand))
	for n, k := range perCommand {
		total += k
		names = append(names, fmt.Sprintf("%s %d", n, k))
	}
	sort.Strings(names)
	t.Logf("fault points: %d over %d commands (%s)", total, len(perCommand), strings.Join(names, ", "))
	t.Logf("runs: %d in %s (all=%v); %d never came to their fault point", runs, time.Since(start).Round(time.Second), all, missed)
	if path := os.Getenv("CONCH_FAULT_REPORT"); path != "" {
		// Every finding, one a line, for the record.
		var b strings.Builder
		for _, f := range found {
			fmt.Fprintf(&b, "%s\t%s\t%s\t%s\n", f.invariant, f.command, f.fault, f.detail)
		}
		if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
			t.Error(err)
		}
	}
	byInv := map[string][]finding{}
	for _, f := range found {
		byInv[f.invariant] = append(byInv[f.invariant], f)
	}
	invs := make([]string, 0, len(byInv))
	for inv := range byInv {
		invs = append(invs, inv)
	}
	sort.Strings(invs)
	for _, inv := range invs {
		fs := byInv[inv]
		failing := slices.ContainsFunc(fs, func(f finding) bool { return !faultPending[inv] || faultAsserted[f.command] })
		report := t.Logf
		if failing {
			report = t.Errorf
		}
		report("invariant %q broken in %d runs; first ones:", inv, len(fs))
		for i, f := range fs {
			if i == 12 {
				break
			}
			report("  %s, %s: %s", f.command, f.fault, f.detail)
		}
	}
}
