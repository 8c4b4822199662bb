package cli_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/gofrs/flock"

	"github.com/conch-sh/conch/state"
)

// The kill test: writers killed with SIGKILL at random points (before the
// lock, holding it, half way through a commit, after it), many at once on
// one home. Afterwards conch doctor finds nothing torn, every JSON record
// parses, and every write a command acknowledged (exit 0) is still there.
// A writer killed while it holds the lock leaves it to the next command at
// once: the kernel lets go of a dead process's flock.
//
//	go test ./cli/ -run TestKill                       short form (CI): about 200 kills
//	CONCH_STRESS=long go test ./cli/ -run TestKill -v  long form: about 1,500

// killWrite is one kind of write the killed workers run.
type killWrite struct {
	name   string
	weight int
	args   func(w, k int, pid string) []string
}

var killWrites = []killWrite{
	{"chat set --goal", 4, func(w, k int, pid string) []string {
		return []string{"chat", "set", "--goal", fmt.Sprintf("goal %d of worker %d", k, w), "--json"}
	}},
	{"reply start", 2, func(w, k int, pid string) []string {
		return []string{"reply", "start", "--person", "--pid", pid, "--json"}
	}},
	{"step", 3, func(w, k int, pid string) []string {
		return []string{"step", "edit", "--file", fmt.Sprintf("src/w%d/f%d.go", w, k), "--pid", pid}
	}},
	{"reply end", 2, func(w, k int, pid string) []string {
		return []string{"reply", "end", "--text", fmt.Sprintf("reply %d of worker %d", k, w), "--json"}
	}},
	{"task new --key", 2, func(w, k int, pid string) []string {
		return []string{"task", "new", "--title", fmt.Sprintf("task %d of worker %d", k, w), "--key", fmt.Sprintf("k%d", k), "--json"}
	}},
	{"chat message", 3, func(w, k int, pid string) []string {
		// To the next worker round: every chat hears from one other.
		return []string{"chat", "message", fmt.Sprintf("c_%d", w%killWorkers+1), fmt.Sprintf("message %d of worker %d", k, w), "--json"}
	}},
	{"notes", 3, func(w, k int, pid string) []string { return []string{"notes", "--json"} }},
	{"wait chat --detach", 2, func(w, k int, pid string) []string {
		// On the worker two ahead: waits go round the ring, and the one
		// that would close a loop is refused.
		return []string{"wait", "chat", fmt.Sprintf("c_%d", (w+1)%killWorkers+1), "--detach", "--json"}
	}},
}

// killWorkers is how many workers the kill test runs at once (set by its scale).
var killWorkers int

// runKilled runs a command with a kill that may come before it ends.
func runKilled(bin, home, chat string, args []string, after time.Duration, kill bool) (*obs, time.Duration) {
	cmd := exec.Command(bin, args...)
	cmd.Env = conchEnv(home, chat)
	kinds := typedCmd(cmd, home)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	began := time.Now()
	if err := cmd.Start(); err != nil {
		return &obs{args: args, code: -2, err: err.Error()}, 0
	}
	if kill {
		// Signal is safe once the process is reaped: it reports that it is
		// done and kills nothing else.
		t := time.AfterFunc(after, func() { _ = cmd.Process.Signal(syscall.SIGKILL) })
		defer t.Stop()
	}
	err := cmd.Wait()
	o := observed(args, &out, &errb, err)
	kinds(o)
	return o, time.Since(began)
}

// killModel is what a worker may find of its chat at the end: the goals
// that may be its last (the last acknowledged, and any tried after it by a
// command that was killed), the highest reply it was told of, and the
// tasks it was told it made.
type killModel struct {
	id       string
	goals    []string
	replies  int
	tasks    map[string]string // key → task id, acknowledged
	taskArgs map[string][]string
	history  []*obs // what its commands did, to say what went before a loss
}

func (m *killModel) story() string {
	var b strings.Builder
	for _, o := range m.history {
		fmt.Fprintf(&b, "\n    %s", o)
	}
	return b.String()
}

func TestKill(t *testing.T) {
	sc := scaleFor(stressScale{procs: 16, ops: 40, seeds: 1}, stressScale{procs: 16, ops: 100, seeds: 3}, stressScale{procs: 4, ops: 6, seeds: 1})
	bin := conchBin(t)
	total := newFigures()
	killWorkers = sc.procs
	for seed := int64(1); seed <= int64(sc.seeds); seed++ {
		t.Run("seed"+strconv.FormatInt(seed, 10), func(t *testing.T) {
			f := newFigures()
			home := newStressHome(t, sc.procs)
			r := newRun(bin, home, f)
			weights := 0
			for _, kw := range killWrites {
				weights += kw.weight
			}
			models := make([]*killModel, sc.procs)
			// The kill comes at a random point of a command's life: up to
			// twice the time an unkilled command has taken so far.
			var mu sync.Mutex
			var tookAll []time.Duration
			life := func() time.Duration {
				mu.Lock()
				defer mu.Unlock()
				if len(tookAll) < 5 {
					return 10 * time.Millisecond
				}
				s := slices.Clone(tookAll)
				slices.Sort(s)
				return s[len(s)/2]
			}
			var wg sync.WaitGroup
			for w := 0; w < sc.procs; w++ {
				m := &killModel{id: fmt.Sprintf("c_%d", w+1), goals: []string{""}, tasks: map[string]string{}, taskArgs: map[string][]string{}}
				models[w] = m
				wg.Add(1)
				go func(w int) {
					defer wg.Done()
					rnd := rand.New(rand.NewSource(seed*1000 + int64(w)))
					for k := 0; k < sc.ops; k++ {
						x := rnd.Intn(weights)
						var kw killWrite
						for _, kw = range killWrites {
							if x -= kw.weight; x < 0 {
								break
							}
						}
						args := kw.args(w+1, k, r.pid)
						kill := rnd.Intn(10) < 6
						after := time.Duration(rnd.Int63n(int64(2*life()) + 1))
						o, took := runKilled(bin, home, m.id, args, after, kill)
						o.worker = w + 1
						if o.code != -1 {
							mu.Lock()
							tookAll = append(tookAll, took)
							mu.Unlock()
						}
						judgeKilled(r, m, kw.name, o)
					}
				}(w)
			}
			wg.Wait()
			killAfterChecks(t, r, models)
			f.report(t, fmt.Sprintf("seed %d", seed))
			for k, v := range f.n {
				total.add(k, v)
			}
		})
	}
	total.report(t, "kill, all seeds")
}

// judgeKilled moves a worker's model on by what one command did: killed,
// it may or may not have happened; acknowledged, it did. Workers judge as
// they go, so what they share is under the run's lock.
func judgeKilled(r *stressRun, m *killModel, name string, o *obs) {
	m.history = append(m.history, o)
	if o.code == -1 {
		r.f.add("commands", 1)
		r.f.add("killed", 1)
		r.mu.Lock()
		defer r.mu.Unlock()
		switch name {
		case "chat set --goal":
			m.goals = append(m.goals, o.args[3])
		case "chat message":
			// It may have gone: its words may be shown.
			r.mayHave[m.id+"\x00"+o.args[3]] = true
		case "wait chat --detach":
			r.waitTry[m.id+">"+o.args[2]] = true
		case "notes":
			// A notes killed once it had printed may have marked what it
			// printed, too: what it printed counts apart.
			var n notesOut
			if json.Unmarshal([]byte(o.out), &n) == nil {
				for _, d := range n.Messages {
					r.shownKilled[d.ID] = true
				}
			}
		}
		return
	}
	refused := func(*obs) bool { return false }
	switch name {
	case "chat message":
		refused = boundReached
	case "wait chat --detach":
		refused = waitLoop
	}
	if !judged(r, o, refused) || o.code != 0 {
		return
	}
	r.f.add("acknowledged", 1)
	switch name {
	case "chat set --goal":
		m.goals = []string{o.args[3]}
	case "reply start":
		if rep, ok := decode[state.Reply](r, o); ok {
			n, _ := strconv.Atoi(strings.TrimPrefix(rep.ID, m.id+"."))
			if n <= m.replies {
				r.f.bad("regressions", "reply %s after reply %s.%d: %s", rep.ID, m.id, m.replies, o)
			}
			m.replies = max(m.replies, n)
			r.once("chain", rep.Chain, o.String())
		}
	case "chat message":
		judgeSend(r, &model{id: m.id}, o)
	case "wait chat --detach":
		judgeWait(r, &model{id: m.id}, o)
	case "notes":
		judgeNotes(r, &model{id: m.id, seen: map[string]int64{}}, o)
	case "task new --key":
		if c, ok := decode[shown](r, o); ok {
			key := o.args[5]
			m.tasks[key] = c.ID
			m.taskArgs[key] = o.args
			r.once("task", c.ID, o.String())
		}
	}
}

// killAfterChecks: nothing torn, every record parses, every acknowledged
// write is there, keyed writes answer as before, and once the next command
// has run the index agrees with the records.
func killAfterChecks(t *testing.T, r *stressRun, models []*killModel) {
	doctorClean(t, r)
	temps := 0
	_ = filepath.WalkDir(r.home, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		switch name := d.Name(); {
		case strings.HasPrefix(name, "."):
			temps++
		case strings.HasSuffix(name, ".json"):
			data, err := os.ReadFile(p)
			if err != nil || !json.Valid(data) {
				r.f.bad("torn records", "%s does not parse: %v %q", p, err, data)
			}
		}
		return nil
	})
	r.f.add("temporary files left by killed writers", temps)
	for _, m := range models {
		o := runConch(r.bin, r.home, "", "chat", "show", m.id, "--json")
		if !common(r, o) {
			continue
		}
		c, ok := decode[shown](r, o)
		if !ok {
			continue
		}
		if !slices.Contains(m.goals, c.Goal) {
			r.f.bad("lost", "%s has goal %q; want one of %q; it saw:%s\n  and now: %s", m.id, c.Goal, m.goals, m.story(), o)
		}
		if c.Replies < m.replies {
			r.f.bad("lost", "%s has had %d replies; it was told of reply %d", m.id, c.Replies, m.replies)
		}
		keys := make([]string, 0, len(m.tasks))
		for k := range m.tasks {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, key := range keys {
			id := m.tasks[key]
			o := runConch(r.bin, r.home, m.id, "chat", "show", id, "--json")
			if o.code != 0 {
				r.f.bad("lost", "task %s, acknowledged to %s, is gone: %s", id, m.id, o)
				continue
			}
			// The same key again is the same task.
			o = runConch(r.bin, r.home, m.id, m.taskArgs[key]...)
			if common(r, o) {
				if again, ok := decode[shown](r, o); ok && again.ID != id {
					r.f.bad("duplicated", "task new --key %s made %s, then %s", key, id, again.ID)
				}
			}
		}
	}
	// The home takes writes as before; the first mends what a commit cut
	// short left across records, and then the index sums them up.
	for _, m := range models {
		common(r, runConch(r.bin, r.home, m.id, "step", "run", "--pid", r.pid))
	}
	indexAgrees(t, r)
	// Every reply ends (so every wait ends); each chat begins a reply and
	// hears its notes until nothing is due: every message acknowledged is
	// shown once, every wait's end told once.
	for _, m := range models {
		common(r, runConch(r.bin, r.home, m.id, "reply", "end"))
	}
	for _, m := range models {
		common(r, runConch(r.bin, r.home, m.id, "reply", "start", "--pid", r.pid))
		for i := 0; i < 3; i++ {
			o := runConch(r.bin, r.home, m.id, "notes", "--json")
			if common(r, o) {
				judgeNotes(r, &model{id: m.id, seen: map[string]int64{}}, o)
			}
		}
	}
	messagesOnce(t, r)
	r.workers = nil
	for _, m := range models {
		r.workers = append(r.workers, &model{id: m.id})
	}
	waitsTold(t, r)
}

// lockBusy says whether some process holds the lock file, trying it
// without waiting.
func lockBusy(t *testing.T, path string) bool {
	t.Helper()
	fl := flock.New(path)
	ok, err := fl.TryLock()
	if err != nil {
		t.Fatalf("try %s: %v", path, err)
	}
	if ok {
		_ = fl.Unlock()
	}
	return !ok
}
