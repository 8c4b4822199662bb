package cli_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/conch-sh/conch/cli"
	"github.com/conch-sh/conch/lock"
	"github.com/conch-sh/conch/state"
)

// The stress test runs real processes of conch on one home, many at once,
// and then checks what each of them saw: SPEC §9's promises under load.
// Each worker acts as its own chat and runs a seeded random mix of the
// commands in stressOps, one after the other, as a harness would; at least
// 32 workers run at once. Every figure the checker counts must be zero.
//
// A capability plugs in by adding its commands to stressOps (with a judge
// that checks each answer against the worker's model and the run's
// ledgers) and, if it has something to prove once all is done, a check to
// stressChecks.
//
//	go test ./cli/ -run TestStress                       short form (CI)
//	CONCH_STRESS=long go test ./cli/ -run TestStress -v  long form
//	CONCH_STRESS_PROCS=64 ...                            more workers at once

// stressScale is how much the test does: workers at once, commands each,
// seeds in turn.
type stressScale struct{ procs, ops, seeds int }

func stressLong() bool { return os.Getenv("CONCH_STRESS") == "long" }

// scaleFor picks the scale; CONCH_STRESS_PROCS=N runs N workers at once
// instead (SPEC §10 promises no lock timeouts at 32; more is a load test).
func scaleFor(short, long, race stressScale) stressScale {
	sc := short
	switch {
	case stressLong():
		sc = long
	case raceEnabled:
		// Every conch the test runs is the race-instrumented test binary.
		sc = race
	}
	if n, err := strconv.Atoi(os.Getenv("CONCH_STRESS_PROCS")); err == nil && n > 1 {
		sc.procs = n
	}
	return sc
}

// conchBin is the conch that testscript.Main put on PATH for the tests.
func conchBin(t *testing.T) string {
	t.Helper()
	p, err := exec.LookPath("conch")
	if err != nil {
		t.Fatalf("no conch on PATH (testscript.Main puts it there): %v", err)
	}
	return p
}

// obs is what one conch process did: its words, its exit code (-1 when it
// was killed), what it printed, and the kinds of error it ended with.
type obs struct {
	worker int
	args   []string
	code   int
	out    string
	err    string
	kinds  map[errorKind]bool
}

// errorKind is a kind of error the checker tells apart, by the error's
// type (errors.Is, errors.As) in the conch process, never by its words.
type errorKind string

const (
	kindLock     errorKind = "lock timeout"      // a *lock.TimeoutError
	kindCorrupt  errorKind = "unreadable record" // a *state.CorruptError
	kindBound    errorKind = "bound"             // state.ErrBound
	kindWaitLoop errorKind = "wait loop"         // state.ErrWaitLoop
)

// kindsOf are the kinds err is.
func kindsOf(err error) []errorKind {
	var kinds []errorKind
	var locked *lock.TimeoutError
	var corrupt *state.CorruptError
	if errors.As(err, &locked) {
		kinds = append(kinds, kindLock)
	}
	if errors.As(err, &corrupt) {
		kinds = append(kinds, kindCorrupt)
	}
	if errors.Is(err, state.ErrBound) {
		kinds = append(kinds, kindBound)
	}
	if errors.Is(err, state.ErrWaitLoop) {
		kinds = append(kinds, kindWaitLoop)
	}
	return kinds
}

// errorsFile names the file a conch the tests run writes the kinds of its
// error to (typedErrors), one a line.
const errorsFile = "CONCH_TEST_ERRORS"

// typedErrors is env for the conch the tests run: when errorsFile is set,
// the error a run ends with is written there as its kinds, so that the
// checker can judge it by its type.
func typedErrors(env cli.Env) cli.Env {
	path := os.Getenv(errorsFile)
	if path == "" {
		return env
	}
	env.Failed = func(err error) {
		var b strings.Builder
		for _, k := range kindsOf(err) {
			b.WriteString(string(k) + "\n")
		}
		_ = os.WriteFile(path, []byte(b.String()), 0o600)
	}
	return env
}

func (o *obs) String() string {
	said := strings.Join(strings.Fields(o.out+" "+o.err), " ")
	if len(said) > 600 {
		said = said[:600] + "…"
	}
	return fmt.Sprintf("worker %d: conch %s: exit %d: %s", o.worker, strings.Join(o.args, " "), o.code, said)
}

// conchEnv is the environment of a conch the tests run: no CONCH_ variable
// of the outer world, the real clock, the home given.
func conchEnv(home, chat string) []string {
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "CONCH_") {
			env = append(env, kv)
		}
	}
	env = append(env, "CONCH_HOME="+home, "HOME="+filepath.Dir(home))
	if chat != "" {
		env = append(env, "CONCH_CHAT="+chat)
	}
	return env
}

func runConch(bin, home, chat string, args ...string) *obs {
	return runConchIn(bin, home, chat, "", args...)
}

// runConchIn is runConch with stdin as the command's standard input.
func runConchIn(bin, home, chat, stdin string, args ...string) *obs {
	cmd := exec.Command(bin, args...)
	cmd.Env = conchEnv(home, chat)
	kinds := typedCmd(cmd, home)
	cmd.Stdin = strings.NewReader(stdin)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	o := observed(args, &out, &errb, cmd.Run())
	kinds(o)
	return o
}

// typedCmd has cmd, a conch about to run on home, write the kinds of the
// error it ends with to a file of its own beside home (typedErrors); the
// function it returns reads them into o once cmd has ended.
func typedCmd(cmd *exec.Cmd, home string) func(o *obs) {
	path := filepath.Join(filepath.Dir(home), fmt.Sprintf("errors-%d", errorsSeq.Add(1)))
	cmd.Env = append(cmd.Env, errorsFile+"="+path)
	return func(o *obs) {
		data, err := os.ReadFile(path)
		if err != nil {
			return // none: it ended well, or was killed first
		}
		for k := range strings.Lines(string(data)) {
			o.kinds[errorKind(strings.TrimSuffix(k, "\n"))] = true
		}
		_ = os.Remove(path)
	}
}

// errorsSeq numbers the commands the tests run, for their errors files.
var errorsSeq atomic.Int64

// observed is what a finished command did: its output, and its exit code
// (-1 killed by a signal, -2 not run or not waited for).
func observed(args []string, out, errb *bytes.Buffer, err error) *obs {
	o := &obs{args: args, out: out.String(), err: errb.String(), kinds: map[errorKind]bool{}}
	var ee *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &ee):
		o.code = ee.ExitCode()
		if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			o.code = -1
		}
	default:
		o.code = -2
		o.err += err.Error()
	}
	return o
}

// figures are what the checker counts. All but "commands" must be zero.
type figures struct {
	mu sync.Mutex
	n  map[string]int
	// examples keeps the first few of each kind, to say what went wrong.
	examples map[string][]string
}

// The kinds of trouble; each must stay at zero.
var troubles = []string{
	"unexpected exits", "lock timeouts", "unparsed records", "torn records",
	"lost", "duplicated", "unexpected messages", "unexpected waits", "regressions", "mismatches",
}

func newFigures() *figures {
	return &figures{n: map[string]int{}, examples: map[string][]string{}}
}

func (f *figures) add(kind string, n int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.n[kind] += n
}

// bad counts one trouble of kind, with what shows it.
func (f *figures) bad(kind, format string, args ...any) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.n[kind]++
	if len(f.examples[kind]) < 5 {
		f.examples[kind] = append(f.examples[kind], fmt.Sprintf(format, args...))
	}
}

func (f *figures) report(t *testing.T, what string) {
	t.Helper()
	var parts []string
	var keys []string
	for k := range f.n {
		if !slices.Contains(troubles, k) {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	for _, k := range keys {
		parts = append(parts, fmt.Sprintf("%s %d", k, f.n[k]))
	}
	for _, k := range troubles {
		parts = append(parts, fmt.Sprintf("%s %d", k, f.n[k]))
	}
	t.Logf("%s: %s", what, strings.Join(parts, ", "))
	for _, k := range troubles {
		if f.n[k] > 0 {
			t.Errorf("%s: %d %s; for example:\n  %s", what, f.n[k], k, strings.Join(f.examples[k], "\n  "))
		}
	}
}

// stressRun is one seed's run: its home, its workers' models, and ledgers
// that judges share across workers.
type stressRun struct {
	bin, home string
	pid       string // the harness every reply names: this test, alive throughout
	workers   []*model
	f         *figures
	mu        sync.Mutex
	ledger    map[string]map[string]int // kind → id → how many times
	// Messages: each acknowledged send (its receiver), each one shown by a
	// notes that exited 0 (to whom), and each send that was killed (and so
	// may or may not have gone).
	sent      map[string]string
	shown     map[string][]string
	shownText map[string]string // id → from and words, as shown
	mayHave   map[string]bool   // from and words of a send that was killed
	// shownKilled: shown by a notes that was killed once it had printed.
	shownKilled map[string]bool
	// Waits: each registration acknowledged (waiter>target), or tried by
	// a command that was killed; each ending told, by waiter>target@ended.
	waited  map[string]bool
	told    map[string]int
	waitTry map[string]bool
}

func newRun(bin, home string, f *figures) *stressRun {
	return &stressRun{
		bin: bin, home: home, pid: strconv.Itoa(os.Getpid()), f: f,
		ledger: map[string]map[string]int{}, sent: map[string]string{}, shown: map[string][]string{},
		shownText: map[string]string{}, mayHave: map[string]bool{}, shownKilled: map[string]bool{},
		waited: map[string]bool{}, told: map[string]int{}, waitTry: map[string]bool{},
	}
}

// once records that id of kind was handed out; a second time is a duplicate.
func (r *stressRun) once(kind, id, context string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.ledger[kind] == nil {
		r.ledger[kind] = map[string]int{}
	}
	r.ledger[kind][id]++
	if r.ledger[kind][id] == 2 {
		r.f.bad("duplicated", "%s %s handed out twice (%s)", kind, id, context)
	}
}

// model is what one worker knows of its own chat, which no other worker
// changes, and the highest counters it has seen of the others.
type model struct {
	id       string
	goal     string
	replies  int
	running  bool
	lastText *string          // the text of its last ended reply, once known
	seen     map[string]int64 // "replies c_2", "version c_2" → highest seen
}

// monotone counts a regression when what an observer sees goes back.
func (m *model) monotone(r *stressRun, what string, v int64, o *obs) {
	if old, ok := m.seen[what]; ok && v < old {
		r.f.bad("regressions", "%s went back from %d to %d: %s", what, old, v, o)
	}
	if v > m.seen[what] {
		m.seen[what] = v
	}
}

// stressOp is one kind of command the workers run.
type stressOp struct {
	name   string
	weight int
	// args are the command's words, for worker w's k-th command.
	args func(r *stressRun, w, k int, rnd *rand.Rand) []string
	// judge checks the answer against the worker's model and moves it on.
	judge func(r *stressRun, m *model, o *obs)
	// refused says whether a nonzero exit is an answer the command may
	// give (a bound reached); nil: only 0 is.
	refused func(o *obs) bool
	// input, if set, is the command's standard input, and the command runs
	// as a harness runs it (no CONCH_CHAT): a hook adapter.
	input func(r *stressRun, w, k int, rnd *rand.Rand) string
}

// planned is one command a worker will run.
type planned struct {
	args  []string
	input string
	op    *stressOp
}

// shown is a chat as chat show, chat set and reply start print it.
type shown struct {
	state.Chat
	State        string `json:"state"`
	StateVersion int64  `json:"state_version"`
}

func decode[T any](r *stressRun, o *obs) (*T, bool) {
	v := new(T)
	if err := json.Unmarshal([]byte(o.out), v); err != nil {
		r.f.bad("unparsed records", "%v: %s", err, o)
		return nil, false
	}
	return v, true
}

// ownChat checks a worker's own chat, as a command printed it, against
// what the worker knows.
func ownChat(r *stressRun, m *model, c *shown, o *obs) {
	if c.ID != m.id || c.Goal != m.goal || c.Replies != m.replies || (c.Reply != nil) != m.running {
		r.f.bad("mismatches", "%s seen as goal %q replies %d running %v; want goal %q replies %d running %v: %s",
			m.id, c.Goal, c.Replies, c.Reply != nil, m.goal, m.replies, m.running, o)
	}
	if m.lastText != nil && (c.LastReply == nil || c.LastReply.Text != *m.lastText) {
		r.f.bad("lost", "%s's last reply text is not %q: %s", m.id, *m.lastText, o)
	}
}

var families = []string{"edit", "run", "read", "search", "browse", "talk", "wait", "other"}

var stressOps = []stressOp{
	{name: "step", weight: 30,
		args: func(r *stressRun, w, k int, rnd *rand.Rand) []string {
			fam := families[rnd.Intn(len(families))]
			return []string{"step", fam, "--file", fmt.Sprintf("src/w%d/f%d.go", w, rnd.Intn(4)), "--pid", r.pid}
		},
		judge: func(r *stressRun, m *model, o *obs) {
			if !m.running {
				m.replies++
				m.running = true
			}
		}},
	{name: "notes", weight: 20,
		args: func(r *stressRun, w, k int, rnd *rand.Rand) []string { return []string{"notes", "--json"} }, judge: judgeNotes},
	{name: "chats list", weight: 10,
		args: func(r *stressRun, w, k int, rnd *rand.Rand) []string { return []string{"chats", "list", "--json"} },
		judge: func(r *stressRun, m *model, o *obs) {
			l, ok := decode[state.ChatList](r, o)
			if !ok {
				return
			}
			for _, c := range l.Chats {
				if c.ID == m.id {
					r.f.bad("mismatches", "the list shows the chat asking: %s", o)
				}
			}
		}},
	{name: "chat set --goal", weight: 10,
		args: func(r *stressRun, w, k int, rnd *rand.Rand) []string {
			return []string{"chat", "set", "--goal", fmt.Sprintf("goal %d of worker %d", k, w), "--json"}
		},
		judge: func(r *stressRun, m *model, o *obs) {
			m.goal = o.args[3]
			if c, ok := decode[shown](r, o); ok {
				ownChat(r, m, c, o)
			}
		}},
	{name: "reply start", weight: 8,
		args: func(r *stressRun, w, k int, rnd *rand.Rand) []string {
			if rnd.Intn(2) == 0 {
				return []string{"reply", "start", "--person", "--pid", r.pid, "--json"}
			}
			return []string{"reply", "start", "--pid", r.pid, "--json"}
		},
		judge: func(r *stressRun, m *model, o *obs) {
			if m.running {
				// The running reply ends first, as not finished: no text.
				m.lastText = new(string)
			}
			m.replies++
			m.running = true
			rep, ok := decode[state.Reply](r, o)
			if !ok {
				return
			}
			if want := m.id + "." + strconv.Itoa(m.replies); rep.ID != want {
				r.f.bad("mismatches", "reply %s, want %s: %s", rep.ID, want, o)
			}
			if rep.Person {
				r.once("chain", rep.Chain, o.String())
			}
		}},
	{name: "reply end", weight: 7,
		args: func(r *stressRun, w, k int, rnd *rand.Rand) []string {
			return []string{"reply", "end", "--text", fmt.Sprintf("reply %d of worker %d ends", k, w), "--json"}
		},
		judge: func(r *stressRun, m *model, o *obs) {
			if !m.running {
				return // nothing to end: it says so and changes nothing
			}
			m.running = false
			m.lastText = &o.args[3]
			rep, ok := decode[state.Reply](r, o)
			if ok && (rep.ID != m.id+"."+strconv.Itoa(m.replies) || rep.Text != o.args[3]) {
				r.f.bad("mismatches", "ended reply %s %q, want %s.%d %q: %s", rep.ID, rep.Text, m.id, m.replies, o.args[3], o)
			}
		}},
	{name: "chat show", weight: 15,
		args: func(r *stressRun, w, k int, rnd *rand.Rand) []string {
			return []string{"chat", "show", fmt.Sprintf("c_%d", 1+rnd.Intn(len(r.workers))), "--json"}
		},
		judge: func(r *stressRun, m *model, o *obs) {
			c, ok := decode[shown](r, o)
			if !ok {
				return
			}
			if c.ID == m.id {
				ownChat(r, m, c, o)
			}
			m.monotone(r, "replies of "+c.ID, int64(c.Replies), o)
			m.monotone(r, "state_version of "+c.ID, c.StateVersion, o)
		}},
	{name: "chat message", weight: 10,
		args: func(r *stressRun, w, k int, rnd *rand.Rand) []string {
			to := 1 + rnd.Intn(len(r.workers)-1)
			if to >= w {
				to++
			}
			args := []string{"chat", "message", fmt.Sprintf("c_%d", to), fmt.Sprintf("message %d of worker %d", k, w), "--json"}
			if rnd.Intn(4) == 0 {
				args = append(args, "--start-reply")
			}
			return args
		},
		judge: judgeSend, refused: boundReached},
	{name: "status --since", weight: 6,
		args: func(r *stressRun, w, k int, rnd *rand.Rand) []string {
			return []string{"status", fmt.Sprintf("c_%d", 1+rnd.Intn(len(r.workers))), "--since", "0", "--json"}
		},
		judge: judgeStatus},
	{name: "wait chat --detach", weight: 5,
		args: func(r *stressRun, w, k int, rnd *rand.Rand) []string {
			to := 1 + rnd.Intn(len(r.workers)-1)
			if to >= w {
				to++
			}
			return []string{"wait", "chat", fmt.Sprintf("c_%d", to), "--detach", "--json"}
		},
		judge: judgeWait, refused: waitLoop},
	{name: "hook claude", weight: 6,
		args: func(r *stressRun, w, k int, rnd *rand.Rand) []string { return []string{"hook", "claude"} },
		input: func(r *stressRun, w, k int, rnd *rand.Rand) string {
			return claudeEvent(r, w, k, rnd)
		},
		judge: judgeHook},
	{name: "watch", weight: 3,
		args: func(r *stressRun, w, k int, rnd *rand.Rand) []string {
			to := 1 + rnd.Intn(len(r.workers)-1)
			if to >= w {
				to++
			}
			return []string{"watch", fmt.Sprintf("c_%d", to), "--json"}
		},
		judge: func(r *stressRun, m *model, o *obs) { decode[map[string]any](r, o) }},
}

// claudeEvent is one Claude Code hook event of worker w's own session, as
// Claude Code sends it (testdata/hooks/claude holds recorded ones).
func claudeEvent(r *stressRun, w, k int, rnd *rand.Rand) string {
	folder := filepath.Join(filepath.Dir(r.home), "shared")
	file := filepath.Join(folder, fmt.Sprintf("src/h%d.go", w))
	ev := map[string]any{
		"session_id":      fmt.Sprintf("stress-session-%d", w),
		"transcript_path": filepath.Join(folder, fmt.Sprintf("session-%d.jsonl", w)),
		"cwd":             folder,
	}
	switch rnd.Intn(6) {
	case 0:
		ev["hook_event_name"], ev["source"] = "SessionStart", "startup"
	case 1:
		ev["hook_event_name"], ev["prompt"] = "UserPromptSubmit", fmt.Sprintf("prompt %d of worker %d", k, w)
	case 2:
		ev["hook_event_name"], ev["tool_name"] = "PreToolUse", "Edit"
		ev["tool_input"] = map[string]any{"file_path": file, "old_string": "a", "new_string": "b"}
	case 3:
		ev["hook_event_name"], ev["tool_name"] = "PostToolUse", "Edit"
		ev["tool_input"] = map[string]any{"file_path": file, "old_string": "a", "new_string": "b"}
		ev["tool_response"] = map[string]any{"filePath": file}
	case 4:
		ev["hook_event_name"], ev["tool_name"] = "PreToolUse", "Bash"
		ev["tool_input"] = map[string]any{"command": "go test ./..."}
	default:
		ev["hook_event_name"], ev["stop_hook_active"] = "Stop", false
		ev["last_assistant_message"] = fmt.Sprintf("done with %d", k)
	}
	data, _ := json.Marshal(ev)
	return string(data)
}

// judgeHook: an adapter never breaks the session it serves: it exits 0
// (checked by judged) and answers nothing or one JSON object.
func judgeHook(r *stressRun, m *model, o *obs) {
	if strings.TrimSpace(o.out) != "" {
		decode[map[string]any](r, o)
	}
	if o.err != "" {
		r.f.add("hooks that warned", 1)
	}
}

// waitLoop: a wait that would go round in a loop is refused (exit 3).
func waitLoop(o *obs) bool {
	return o.code == 3 && o.kinds[kindWaitLoop]
}

// judgeWait: a wait registered (or ended at once) for the target asked.
func judgeWait(r *stressRun, m *model, o *obs) {
	if o.code != 0 {
		return
	}
	v, ok := decode[state.WaitView](r, o)
	if !ok {
		return
	}
	if v.Waiter != m.id || v.Target != o.args[2] {
		r.f.bad("mismatches", "wait of %s on %s: %s", v.Waiter, v.Target, o)
	}
	r.mu.Lock()
	r.waited[m.id+">"+v.Target] = true
	r.mu.Unlock()
}

// waitsTold: once every reply has ended and every chat has heard its notes,
// no wait is left ended and untold.
func waitsTold(t *testing.T, r *stressRun) {
	for _, m := range r.workers {
		o := runConch(r.bin, r.home, m.id, "wait", "list", "--json")
		if !common(r, o) {
			continue
		}
		l, ok := decode[struct {
			Waits []state.WaitView `json:"waits"`
		}](r, o)
		if !ok {
			continue
		}
		for _, v := range l.Waits {
			if v.State == state.WaitEnded {
				r.f.bad("lost", "%s's wait on %s ended (%s) and was never told", m.id, v.Target, v.Ending.How)
			}
		}
	}
	r.f.add("wait endings told", len(r.told))
}

// boundReached: a message past a bound is refused (exit 3), the bound named.
func boundReached(o *obs) bool {
	return o.code == 3 && o.kinds[kindBound]
}

// judgeSend: an acknowledged message has a fresh id and the receiver asked.
func judgeSend(r *stressRun, m *model, o *obs) {
	if o.code != 0 {
		return
	}
	msg, ok := decode[state.Message](r, o)
	if !ok {
		return
	}
	r.once("message", msg.ID, o.String())
	if msg.To != o.args[2] || msg.From != m.id || msg.Answer.State != state.MsgWaiting {
		r.f.bad("mismatches", "message %s from %s to %s, %s: %s", msg.ID, msg.From, msg.To, msg.Answer.State, o)
	}
	r.mu.Lock()
	r.sent[msg.ID] = msg.To
	r.mu.Unlock()
}

// notesOut is what notes --json prints.
type notesOut struct {
	Reader   []string           `json:"reader"`
	Messages []state.DueMessage `json:"messages"`
	Waits    []state.EndedWait  `json:"waits"`
	Notices  []string           `json:"notices"`
}

// noticeSince reads a notice line: its target and the sequence it asks to
// reconcile from (the watcher's cursor).
var noticeSince = regexp.MustCompile(`conch status (\S+) --since (\d+)$`)

// judgeNotes: each message shown is counted for its receiver; a watcher's
// cursor, as its notices say it, never goes back.
func judgeNotes(r *stressRun, m *model, o *obs) {
	n, ok := decode[notesOut](r, o)
	if !ok {
		return
	}
	r.mu.Lock()
	for _, d := range n.Messages {
		if d.Kind == state.DueMessageKind {
			r.shown[d.ID] = append(r.shown[d.ID], m.id)
			r.shownText[d.ID] = d.From + "\x00" + d.Text
		}
	}
	for _, w := range n.Waits {
		pair := m.id + ">" + w.Target
		key := pair + "@" + w.Ended.Format(time.RFC3339Nano)
		r.told[key]++
		if r.told[key] == 2 {
			r.f.bad("duplicated", "the end of %s's wait on %s (at %s) was told twice: %s", m.id, w.Target, w.Ended, o)
		}
		if !r.waited[pair] && !r.waitTry[pair] {
			r.f.bad("unexpected waits", "%s was told of a wait on %s it never registered: %s", m.id, w.Target, o)
		}
	}
	r.mu.Unlock()
	for _, line := range n.Notices {
		x := noticeSince.FindStringSubmatch(line)
		if x == nil {
			r.f.bad("unparsed records", "notice %q: %s", line, o)
			continue
		}
		since, _ := strconv.ParseInt(x[2], 10, 64)
		m.monotone(r, "cursor on "+x[1], since, o)
	}
}

// judgeStatus: a chat's log, read from the start, has every sequence once,
// in order, up to its state version, which never goes back.
func judgeStatus(r *stressRun, m *model, o *obs) {
	st, ok := decode[struct {
		Chat struct {
			ID string `json:"id"`
		} `json:"chat"`
		StateVersion int64         `json:"state_version"`
		Events       []state.Event `json:"events"`
		Truncated    bool          `json:"truncated"`
		HistoryGap   bool          `json:"history_gap"`
		Earliest     int64         `json:"earliest_available_sequence"`
	}](r, o)
	if !ok {
		return
	}
	next := int64(1)
	if st.HistoryGap {
		next = st.Earliest
	}
	for _, ev := range st.Events {
		if ev.Sequence != next {
			r.f.bad("regressions", "%s's log: sequence %d where %d was due: %s", st.Chat.ID, ev.Sequence, next, o)
			break
		}
		next++
	}
	if !st.Truncated && next-1 != st.StateVersion {
		r.f.bad("regressions", "%s's log ends at %d; its state version is %d: %s", st.Chat.ID, next-1, st.StateVersion, o)
	}
	m.monotone(r, "state_version of "+st.Chat.ID, st.StateVersion, o)
}

func opNamed(name string) *stressOp {
	for i := range stressOps {
		if stressOps[i].name == name {
			return &stressOps[i]
		}
	}
	panic("no stress op " + name)
}

// stressCheck is a check over the home once every worker is done.
type stressCheck struct {
	name string
	end  func(t *testing.T, r *stressRun)
}

var stressChecks = []stressCheck{
	{name: "doctor finds nothing", end: doctorClean},
	{name: "every acknowledged write is there", end: func(t *testing.T, r *stressRun) {
		for _, m := range r.workers {
			o := runConch(r.bin, r.home, "", "chat", "show", m.id, "--json")
			if o.code != 0 {
				r.f.bad("unexpected exits", "%s", o)
				continue
			}
			if c, ok := decode[shown](r, o); ok {
				ownChat(r, m, c, o)
			}
		}
	}},
	{name: "the index agrees with the records", end: indexAgrees},
	{name: "every message is shown once", end: messagesOnce},
	{name: "every wait that ended is told", end: waitsTold},
}

// messagesOnce: every acknowledged message was shown once, by a notes of
// its receiver that exited 0; none was shown that nobody sent.
func messagesOnce(t *testing.T, r *stressRun) {
	ids := make([]string, 0, len(r.sent))
	for id := range r.sent {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	for _, id := range ids {
		to := r.sent[id]
		switch got := r.shown[id]; {
		case len(got) == 0 && r.shownKilled[id]:
			// Printed whole by a notes killed after it marked the message
			// read, before it could exit: the harness had the words, the
			// exit code never came.
			r.f.add("shown only by a notes killed after it marked", 1)
		case len(got) == 0:
			r.f.bad("lost", "message %s to %s was never shown", id, to)
		case len(got) > 1:
			r.f.bad("duplicated", "message %s was shown %d times (to %v)", id, len(got), got)
		case got[0] != to:
			r.f.bad("mismatches", "message %s to %s was shown to %s", id, to, got[0])
		}
	}
	for id, got := range r.shown {
		if _, ok := r.sent[id]; !ok && !r.mayHave[r.shownText[id]] {
			r.f.bad("unexpected messages", "message %s, which nobody sent, was shown to %v", id, got)
		}
	}
	r.f.add("messages sent", len(r.sent))
}

// doctorClean runs conch doctor: no torn record, no finding at all. Young
// temporary files of killed writers are no finding (doctor leaves a file
// younger than a minute to whoever may still write it).
func doctorClean(t *testing.T, r *stressRun) {
	o := runConch(r.bin, r.home, "", "doctor", "--json")
	var d struct {
		Findings []state.Finding `json:"findings"`
	}
	if err := json.Unmarshal([]byte(o.out), &d); err != nil {
		r.f.bad("unparsed records", "doctor: %v: %s", err, o)
		return
	}
	for _, x := range d.Findings {
		kind := "mismatches"
		if strings.HasPrefix(x.Problem, "record") {
			kind = "torn records"
		}
		r.f.bad(kind, "doctor: %s: %s", x.Path, x.Problem)
	}
}

// indexAgrees reads the index and every chat record as files and compares
// what the list relies on.
func indexAgrees(t *testing.T, r *stressRun) {
	var ix state.Index
	data, err := os.ReadFile(filepath.Join(r.home, "index.json"))
	if err == nil {
		err = json.Unmarshal(data, &ix)
	}
	if err != nil {
		r.f.bad("unparsed records", "index.json: %v", err)
		return
	}
	for _, dir := range []string{"chats", "tasks"} {
		entries, _ := os.ReadDir(filepath.Join(r.home, dir))
		for _, e := range entries {
			if strings.HasPrefix(e.Name(), ".") {
				continue
			}
			var c state.Chat
			data, err := os.ReadFile(filepath.Join(r.home, dir, e.Name()))
			if err == nil {
				err = json.Unmarshal(data, &c)
			}
			if err != nil {
				r.f.bad("unparsed records", "%s/%s: %v", dir, e.Name(), err)
				continue
			}
			s := ix.Chats[c.ID]
			switch {
			case s == nil:
				r.f.bad("lost", "%s is not in the index", c.ID)
			case s.Title != c.Title || s.Status != c.Status || s.ReplyStarted.IsZero() != (c.Reply == nil):
				r.f.bad("mismatches", "the index says %s is %q %s reply %v; its record %q %s reply %v",
					c.ID, s.Title, s.Status, !s.ReplyStarted.IsZero(), c.Title, c.Status, c.Reply != nil)
			}
		}
	}
}

// newStressHome makes a home with n chats, c_1 … c_n, the person's; every
// other one works in the shared folder, so that the reader has things to
// say.
func newStressHome(t *testing.T, n int) string {
	t.Helper()
	root := t.TempDir()
	home := filepath.Join(root, "home")
	host, _ := os.Hostname()
	h, err := state.Open(state.Options{Dir: home, Hostname: host})
	if err != nil {
		t.Fatal(err)
	}
	err = h.Update(func(tx *state.Tx) error {
		for i := 1; i <= n; i++ {
			folder := filepath.Join(root, "shared")
			if i%2 == 0 {
				folder = filepath.Join(root, "own", strconv.Itoa(i))
			}
			if _, err := tx.Chats().Create(state.Actor{}, state.NewChat{Title: fmt.Sprintf("Worker %d", i), Folder: folder}); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return home
}

// plan draws worker w's commands from the seed.
func plan(r *stressRun, w, n int, rnd *rand.Rand) []planned {
	total := 0
	for _, op := range stressOps {
		total += op.weight
	}
	var ps []planned
	for k := 0; k < n; k++ {
		x := rnd.Intn(total)
		for i := range stressOps {
			op := &stressOps[i]
			if x -= op.weight; x < 0 {
				p := planned{args: op.args(r, w, k, rnd), op: op}
				if op.input != nil {
					p.input = op.input(r, w, k, rnd)
				}
				ps = append(ps, p)
				break
			}
		}
	}
	return ps
}

// run runs one planned command as worker w.
func (p planned) run(r *stressRun, w int) *obs {
	chat := r.workers[w].id
	if p.op.input != nil {
		chat = ""
	}
	o := runConchIn(r.bin, r.home, chat, p.input, p.args...)
	o.worker = w + 1
	return o
}

// common judges what every command answers: its exit code, and the words
// that say a lock was not had or a record could not be read.
func common(r *stressRun, o *obs) bool { return judged(r, o, nil) }

// judged is common for a command that may also be refused.
func judged(r *stressRun, o *obs, refused func(*obs) bool) bool {
	r.f.add("commands", 1)
	switch {
	case o.kinds[kindLock]:
		r.f.bad("lock timeouts", "%s", o)
	case o.kinds[kindCorrupt]:
		r.f.bad("unparsed records", "%s", o)
	case o.code != 0 && refused != nil && refused(o):
		r.f.add("refused by a bound", 1)
		return true
	case o.code != 0:
		r.f.bad("unexpected exits", "%s", o)
	default:
		return true
	}
	return false
}

func TestStress(t *testing.T) {
	sc := scaleFor(stressScale{procs: 32, ops: 10, seeds: 2}, stressScale{procs: 32, ops: 150, seeds: 5}, stressScale{procs: 32, ops: 2, seeds: 1})
	bin := conchBin(t)
	f := newFigures()
	for seed := int64(1); seed <= int64(sc.seeds); seed++ {
		t.Run("seed"+strconv.FormatInt(seed, 10), func(t *testing.T) {
			sf := newFigures()
			r := newRun(bin, newStressHome(t, sc.procs), sf)
			plans := make([][]planned, sc.procs)
			for w := 0; w < sc.procs; w++ {
				r.workers = append(r.workers, &model{id: fmt.Sprintf("c_%d", w+1), seen: map[string]int64{}})
			}
			for w := 0; w < sc.procs; w++ {
				plans[w] = plan(r, w+1, sc.ops, rand.New(rand.NewSource(seed*1000+int64(w))))
			}
			seen := make([][]*obs, sc.procs)
			var wg sync.WaitGroup
			for w := 0; w < sc.procs; w++ {
				wg.Add(1)
				go func(w int) {
					defer wg.Done()
					for _, p := range plans[w] {
						seen[w] = append(seen[w], p.run(r, w))
					}
				}(w)
			}
			wg.Wait()
			// Then every reply ends (so every wait ends), and each worker
			// begins a reply and hears its notes until nothing is due, so
			// that every message sent is shown and every wait's end told.
			for w := range seen {
				p := planned{args: opNamed("reply end").args(r, w+1, sc.ops, nil), op: opNamed("reply end")}
				plans[w] = append(plans[w], p)
				seen[w] = append(seen[w], p.run(r, w))
			}
			for w := range seen {
				for _, name := range []string{"reply start", "notes", "notes", "notes"} {
					p := planned{args: []string{"reply", "start", "--pid", r.pid, "--json"}, op: opNamed(name)}
					if name == "notes" {
						p.args = p.op.args(r, w+1, 0, nil)
					}
					plans[w] = append(plans[w], p)
					seen[w] = append(seen[w], p.run(r, w))
				}
			}
			// What each process saw, worker by worker, in its order.
			for w := range seen {
				for i, o := range seen[w] {
					op := plans[w][i].op
					if op.input != nil {
						// A hook answers within its budget even when the
						// home is busy: then it answers nothing, and says so.
						if o.kinds[kindLock] {
							r.f.add("hooks that found the home busy and answered nothing", 1)
							o.err = ""
							delete(o.kinds, kindLock)
						}
					}
					if judged(r, o, op.refused) {
						op.judge(r, r.workers[w], o)
					}
				}
			}
			for _, c := range stressChecks {
				c.end(t, r)
			}
			sf.add("processes at once", sc.procs)
			sf.report(t, fmt.Sprintf("seed %d", seed))
			for k, v := range sf.n {
				if k != "processes at once" {
					f.add(k, v)
				}
			}
		})
	}
	f.add("processes at once", sc.procs)
	f.add("seeds", sc.seeds)
	f.report(t, "stress, all seeds")
}

// TestStressKnowsErrorsByType: the checker's kinds come from the error's
// type in the conch process (typedErrors), whatever its words: a bound
// reached and a wait in a loop are told apart from other refusals.
func TestStressKnowsErrorsByType(t *testing.T) {
	bin := conchBin(t)
	home := newStressHome(t, 2)
	pid := strconv.Itoa(os.Getpid())
	if o := runConch(bin, home, "c_1", "reply", "start", "--person", "--pid", pid); o.code != 0 {
		t.Fatal(o)
	}
	if o := runConch(bin, home, "c_1", "chat", "message", "c_2", "the same words"); o.code != 0 || len(o.kinds) != 0 {
		t.Fatal(o)
	}
	o := runConch(bin, home, "c_1", "chat", "message", "c_2", "the same words")
	if !boundReached(o) || waitLoop(o) {
		t.Errorf("the same words again: kinds %v: %s", o.kinds, o)
	}
	o = runConch(bin, home, "c_1", "wait", "chat", "c_1")
	if !waitLoop(o) || boundReached(o) {
		t.Errorf("a wait on itself: kinds %v: %s", o.kinds, o)
	}
	o = runConch(bin, home, "c_1", "chat", "message", "c_9", "to nobody")
	if o.code != 3 || len(o.kinds) != 0 {
		t.Errorf("no such chat: kinds %v: %s", o.kinds, o)
	}
}
