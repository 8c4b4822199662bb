package state

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/conch-sh/conch/state/store"
)

// faultFS is the real file system with one call made to fail: the Nth call
// (counting every call the storage layer makes), once or from then on. A
// failed write fails as a full disk does (ENOSPC); anything else fails with
// an I/O error. A failed call changes nothing, as the real WriteFile, which
// writes a temporary file and renames it, leaves the old file whole when
// the write or the rename fails.
type faultFS struct {
	store.FS
	failAt int  // 1-based; 0 fails nothing
	sticky bool // every call from failAt on fails, not only that one
	calls  int
	failed []string // the calls that failed, as "op path"
}

func (f *faultFS) fault(op, name string) error {
	f.calls++
	if f.failAt == 0 || f.calls < f.failAt || (!f.sticky && f.calls > f.failAt) {
		return nil
	}
	f.failed = append(f.failed, op+" "+name)
	errno := syscall.EIO
	if op == "write" {
		errno = syscall.ENOSPC
	}
	return &fs.PathError{Op: op, Path: name, Err: errno}
}

func (f *faultFS) ReadFile(name string) ([]byte, error) {
	if err := f.fault("read", name); err != nil {
		return nil, err
	}
	return f.FS.ReadFile(name)
}

func (f *faultFS) ReadAt(name string, offs []int64, sizes []int) ([][]byte, error) {
	if err := f.fault("read", name); err != nil {
		return nil, err
	}
	return f.FS.ReadAt(name, offs, sizes)
}

func (f *faultFS) WriteFile(name string, data []byte, durable bool) error {
	if err := f.fault("write", name); err != nil {
		return err
	}
	return f.FS.WriteFile(name, data, durable)
}

func (f *faultFS) WriteAt(name string, data []byte, off int64) error {
	if err := f.fault("write", name); err != nil {
		return err
	}
	return f.FS.WriteAt(name, data, off)
}

func (f *faultFS) Remove(name string) error {
	if err := f.fault("remove", name); err != nil {
		return err
	}
	return f.FS.Remove(name)
}

func (f *faultFS) RemoveAll(name string) error {
	if err := f.fault("removeall", name); err != nil {
		return err
	}
	return f.FS.RemoveAll(name)
}

func (f *faultFS) Rename(from, to string) error {
	if err := f.fault("rename", from); err != nil {
		return err
	}
	return f.FS.Rename(from, to)
}

func (f *faultFS) ReadDir(name string) ([]fs.DirEntry, error) {
	if err := f.fault("readdir", name); err != nil {
		return nil, err
	}
	return f.FS.ReadDir(name)
}

func (f *faultFS) MkdirAll(name string) error {
	if err := f.fault("mkdir", name); err != nil {
		return err
	}
	return f.FS.MkdirAll(name)
}

func (f *faultFS) SyncDir(name string) error {
	if err := f.fault("sync", name); err != nil {
		return err
	}
	return f.FS.SyncDir(name)
}

func (f *faultFS) Stat(name string) (fs.FileInfo, error) {
	if err := f.fault("stat", name); err != nil {
		return nil, err
	}
	return f.FS.Stat(name)
}

// quickFS is the real file system without the syncs: the walk proves the
// storage layer's logic, not the disk's, and a sync per call makes it slow.
type quickFS struct{ store.OSFS }

func (q quickFS) WriteFile(name string, data []byte, durable bool) error {
	return q.OSFS.WriteFile(name, data, false)
}

func (quickFS) SyncDir(name string) error { return nil }

var faultNow = time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)

func openAt(t testing.TB, dir string, fsys store.FS) *Home {
	t.Helper()
	if fsys == nil {
		fsys = quickFS{}
	}
	h, err := Open(Options{Dir: dir, Now: func() time.Time { return faultNow }, Wall: func() time.Time { return faultNow }, Hostname: "test", FS: fsys})
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// faultBase fills a home the operations below work on: c_1 idle with a
// goal, c_2 with a reply running (its harness is this test) that has
// changed a file, t_1 a task of c_2, c_3 a chat c_2 spawned.
func faultBase(t testing.TB, dir string) {
	t.Helper()
	h := openAt(t, dir, nil)
	person, c2 := Actor{}, Actor{ID: "c_2"}
	work := filepath.Join(filepath.Dir(dir), "work")
	err := h.Update(func(tx *Tx) error {
		for _, title := range []string{"Release notes", "Fix the login"} {
			if _, err := tx.Chats().Create(person, NewChat{Title: title, Folder: work}); err != nil {
				return err
			}
		}
		goal := "ship 1.0"
		if _, err := tx.Chats().Set(person, "c_1", ChatChange{Goal: &goal}); err != nil {
			return err
		}
		if _, err := tx.Replies().Start(c2, ReplyStart{Person: true, PID: os.Getpid()}); err != nil {
			return err
		}
		if _, err := tx.Replies().Step(c2, StepIn{Family: "edit", Files: []string{filepath.Join(work, "auth.go")}}); err != nil {
			return err
		}
		if _, err := tx.Tasks().Create(c2, NewTask{Title: "Run the tests"}); err != nil {
			return err
		}
		if _, err := tx.Chats().Create(c2, NewChat{Title: "A helper", Folder: work, Parent: "c_2"}); err != nil {
			return err
		}
		// Messages, a watch, a request and a wait: c_1 (auto) has written to c_2
		// (m_1, due at c_2's next step); c_2 to c_3, which holds it (m_2);
		// c_2 watches c_1; c_3 asked the person to stop c_2 (r_1).
		if _, err := tx.Chats().Set(person, "c_1", ChatChange{Mode: ptr(ModeAuto)}); err != nil {
			return err
		}
		if _, err := tx.Chats().Set(person, "c_3", ChatChange{Inbound: ptr(InboundHold)}); err != nil {
			return err
		}
		if _, err := tx.Messages().Send(Actor{ID: "c_1"}, SendIn{To: "c_2", Text: "hello from one"}); err != nil {
			return err
		}
		if _, err := tx.Messages().Send(c2, SendIn{To: "c_3", Text: "hello, helper"}); err != nil {
			return err
		}
		if _, err := tx.Chats().Watch(c2, "c_1"); err != nil {
			return err
		}
		if _, err := tx.Replies().Stop(Actor{ID: "c_3"}, StopIn{Target: "c_2", Reason: "enough"}); err != nil {
			return err
		}
		// c_1 waits for c_2 to stop working.
		_, err := tx.Waits().Start(Actor{ID: "c_1"}, WaitChat, "c_2", 0)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
}

// faultOp is one state operation whose every file-system call the walk
// below fails in turn. A capability adds its operations to faultOps.
type faultOp struct {
	name  string
	fresh bool // runs in a home that does not exist yet
	run   func(tx *Tx) error
}

func ptr[T any](v T) *T { return &v }

var faultOps = []faultOp{
	{name: "CreateChat in a new home", fresh: true, run: func(tx *Tx) error {
		_, err := tx.Chats().Create(Actor{}, NewChat{Title: "First", Folder: "/work", Key: "k1"})
		return err
	}},
	{name: "CreateChat with a parent and a key", run: func(tx *Tx) error {
		_, err := tx.Chats().Create(Actor{ID: "c_2"}, NewChat{Title: "Second helper", Folder: "/work", Parent: "c_2", Key: "k2"})
		return err
	}},
	{name: "SetChat title, goal and status", run: func(tx *Tx) error {
		_, err := tx.Chats().Set(Actor{}, "c_2", ChatChange{Title: ptr("Fix the login, again"), Goal: ptr("green tests"), Status: ptr(StatusNeedsYou)})
		return err
	}},
	{name: "SetChat the goal of a spawned chat", run: func(tx *Tx) error {
		_, err := tx.Chats().Set(Actor{ID: "c_2"}, "c_3", ChatChange{Goal: ptr("help")})
		return err
	}},
	{name: "StartReply as the person's", run: func(tx *Tx) error {
		_, err := tx.Replies().Start(Actor{ID: "c_1"}, ReplyStart{Person: true, PID: os.Getpid()})
		return err
	}},
	{name: "StartReply over a running one", run: func(tx *Tx) error {
		_, err := tx.Replies().Start(Actor{ID: "c_2"}, ReplyStart{PID: os.Getpid()})
		return err
	}},
	{name: "Step in a running reply", run: func(tx *Tx) error {
		_, err := tx.Replies().Step(Actor{ID: "c_2"}, StepIn{Family: "edit", Files: []string{"/work/login.go"}})
		return err
	}},
	{name: "Step that starts a reply", run: func(tx *Tx) error {
		_, err := tx.Replies().Step(Actor{ID: "c_1"}, StepIn{Family: "run", PID: os.Getpid()})
		return err
	}},
	{name: "EndReply", run: func(tx *Tx) error {
		_, err := tx.Replies().End(Actor{ID: "c_2"}, ReplyEnd{Outcome: OutcomeFinished, Text: "done"})
		return err
	}},
	{name: "CreateTask with a key", run: func(tx *Tx) error {
		_, err := tx.Tasks().Create(Actor{ID: "c_2"}, NewTask{Title: "Lint", Key: "lint"})
		return err
	}},
	{name: "SetTask to done", run: func(tx *Tx) error {
		_, err := tx.Tasks().Set(Actor{ID: "c_2"}, "t_1", TaskDone, ptr("all green"))
		return err
	}},
	{name: "AddTaint", run: func(tx *Tx) error {
		_, err := tx.Chats().AddTaint(Actor{}, "c_2", "https://example.com", "")
		return err
	}},
	{name: "DeleteChat", run: func(tx *Tx) error {
		_, err := tx.Chats().Delete(Actor{}, "c_3")
		return err
	}},
	{name: "DeleteChat that wrote and was written to", run: func(tx *Tx) error {
		_, err := tx.Chats().Delete(Actor{}, "c_1")
		return err
	}},
	{name: "SendMessage, keyed and watched", run: func(tx *Tx) error {
		_, err := tx.Messages().Send(Actor{ID: "c_2"}, SendIn{To: "c_1", Text: "and back", Watch: true, Key: "k"})
		return err
	}},
	{name: "SendMessage that starts a reply", run: func(tx *Tx) error {
		_, err := tx.Messages().Send(Actor{ID: "c_1"}, SendIn{To: "c_2", Text: "start now", StartReply: true})
		return err
	}},
	{name: "MarkNotes reads a message", run: func(tx *Tx) error {
		n, err := tx.Notes().For(Actor{ID: "c_2"})
		if err != nil {
			return err
		}
		if len(n.Messages) == 0 {
			return errors.New("the base has no message due to c_2")
		}
		return tx.Notes().Mark(Actor{ID: "c_2"}, n)
	}},
	{name: "PassMessage", run: func(tx *Tx) error {
		_, err := tx.Messages().Pass(Actor{Terminal: true}, "m_2")
		return err
	}},
	{name: "DismissMessage", run: func(tx *Tx) error {
		_, err := tx.Messages().Dismiss(Actor{Terminal: true}, "m_2")
		return err
	}},
	{name: "StopChat now", run: func(tx *Tx) error {
		_, err := tx.Replies().Stop(Actor{ID: "c_1"}, StopIn{Target: "c_2", Reason: "clash", Key: "s"})
		return err
	}},
	{name: "ConfirmRequest", run: func(tx *Tx) error {
		_, err := tx.Requests().Confirm(Actor{Terminal: true}, "r_1")
		return err
	}},
	{name: "DenyRequest", run: func(tx *Tx) error {
		_, err := tx.Requests().Deny(Actor{Terminal: true}, "r_1")
		return err
	}},
	{name: "Watch", run: func(tx *Tx) error {
		_, err := tx.Chats().Watch(Actor{ID: "c_1"}, "c_2")
		return err
	}},
	{name: "Unwatch", run: func(tx *Tx) error {
		_, err := tx.Chats().Unwatch(Actor{ID: "c_2"}, "c_1")
		return err
	}},
	{name: "ResetChat", run: func(tx *Tx) error {
		_, err := tx.Chats().Reset(Actor{}, "c_2")
		return err
	}},
	{name: "StartWait on a task", run: func(tx *Tx) error {
		_, err := tx.Waits().Start(Actor{ID: "c_2"}, WaitTask, "t_1", 0)
		return err
	}},
	{name: "CancelWait", run: func(tx *Tx) error {
		_, err := tx.Waits().Cancel(Actor{ID: "c_1"}, "c_2")
		return err
	}},
	{name: "EndReply ends a wait, and the waiter is told", run: func(tx *Tx) error {
		if _, err := tx.Replies().End(Actor{ID: "c_2"}, ReplyEnd{Text: "all done"}); err != nil {
			return err
		}
		n, err := tx.Notes().For(Actor{ID: "c_1"})
		if err != nil {
			return err
		}
		return tx.Notes().Mark(Actor{ID: "c_1"}, n)
	}},
	{name: "a Stop hook going on with a --start-reply message, and its notes", run: func(tx *Tx) error {
		if _, err := tx.Messages().Send(Actor{ID: "c_1"}, SendIn{To: "c_2", Text: "go on with this", StartReply: true}); err != nil {
			return err
		}
		going, err := tx.Sessions().ContinueWithMessage(Actor{ID: "c_2"}, "first part done", os.Getpid())
		if err != nil {
			return err
		}
		if !going {
			return errors.New("did not go on")
		}
		n, err := tx.Notes().For(Actor{ID: "c_2"})
		if err != nil {
			return err
		}
		return tx.Notes().Mark(Actor{ID: "c_2"}, n)
	}},
	{name: "Compacted", run: func(tx *Tx) error {
		_, err := tx.Log().Compacted(Actor{}, "c_1")
		return err
	}},
}

// TestFaultEveryCall walks N over every file-system call of each
// operation, failing the Nth once and, in a second walk, from then on (as
// a writer killed at that call would leave it). Each time, once the next
// command has run on a disk that works, the home is all or nothing: as
// before when the operation failed, as a clean run leaves it when it
// succeeded (or as a clean run that records no event leaves it, with a
// warning saying so). No cursor is past its log, and an operation that
// fails says so with an error that names the file and carries the cause.
func TestFaultEveryCall(t *testing.T) {
	for _, op := range faultOps {
		t.Run(op.name, func(t *testing.T) {
			t.Parallel()
			root := t.TempDir()
			base := filepath.Join(root, "base", "home")
			if !op.fresh {
				faultBase(t, base)
			}
			before := visible(t, base)
			afterDir := filepath.Join(root, "after", "home")
			copyTree(t, base, afterDir)
			if err := openAt(t, afterDir, nil).Update(op.run); err != nil {
				t.Fatalf("without faults: %v", err)
			}
			after := visible(t, afterDir)
			if equalSnap(before, after) {
				t.Fatal("the operation changes nothing: the walk would prove nothing")
			}
			quietDir := filepath.Join(root, "quiet", "home")
			copyTree(t, base, quietDir)
			quiet := after
			if err := updateUnlogged(t, openAt(t, quietDir, nil), op.run); err == nil {
				quiet = visible(t, quietDir)
			}
			for _, sticky := range []bool{false, true} {
				mode := "once"
				if sticky {
					mode = "from then on"
				}
				for n := 1; ; n++ {
					dir := filepath.Join(root, fmt.Sprintf("n%d-%v", n, sticky), "home")
					copyTree(t, base, dir)
					ffs := &faultFS{FS: quickFS{}, failAt: n, sticky: sticky}
					// Opening the home (its config) counts among the calls.
					h, err := Open(Options{Dir: dir, Now: func() time.Time { return faultNow }, Wall: func() time.Time { return faultNow }, Hostname: "test", FS: ffs})
					var warnings []string
					if err == nil {
						var last *Tx
						err = h.Update(func(tx *Tx) error { last = tx; return op.run(tx) })
						if last != nil && err == nil {
							warnings = last.Warnings()
						}
					}
					if len(ffs.failed) == 0 {
						if n == 1 {
							t.Fatal("the operation made no file-system call")
						}
						t.Logf("%s: %d calls, each failed in turn", mode, n-1)
						break
					}
					what := fmt.Sprintf("%s, call %d (%s) failing", mode, n, ffs.failed[0])
					if err != nil {
						checkFaultError(t, what, err, dir)
					}
					checkWarnings(t, what, warnings, dir)
					// A reader, before the next command finishes what
					// the commit left, finds no cursor past a log.
					checkCursors(t, what+", read at once", dir)
					// What is left can be read, and the next command
					// finishes what a commit left.
					if findings, derr := openAt(t, dir, nil).Doctor(false); derr != nil || torn(findings) {
						t.Errorf("%s: doctor afterwards: %v %v", what, findings, derr)
					}
					if err := openAt(t, dir, nil).Update(func(tx *Tx) error { return nil }); err != nil {
						t.Errorf("%s: the next command: %v", what, err)
					}
					// Failed once, a commit cleans up after itself:
					// not even an event past its log's head is left.
					// Killed (from then on), such events may stay, and
					// no reader sees them.
					now := snapshot(t, dir)
					if sticky {
						now = visible(t, dir)
					}
					unlogged := slices.ContainsFunc(warnings, func(w string) bool { return strings.Contains(w, "was not recorded") })
					read := strings.HasPrefix(ffs.failed[0], "read") || strings.HasPrefix(ffs.failed[0], "stat")
					switch {
					case err != nil:
						if !equalSnap(now, before) {
							t.Errorf("%s: failed (%v), yet changed:\n%s", what, err, diffSnap(now, before))
						}
					case equalSnap(now, after):
					case unlogged && equalSnap(now, quiet):
					case read && len(warnings) > 0:
						// A read it could do without (the retention
						// clock, a watcher's cursors) is said, and
						// costs only that: every record is whole, no
						// cursor past its log (below).
						checkParses(t, what, now)
					default:
						t.Errorf("%s: succeeded (warnings %q), but the records are neither as a clean run leaves them nor as one without events:\n%s",
							what, warnings, diffSnap(now, after))
					}
					checkCursors(t, what, dir)
					checkIndex(t, what, dir)
				}
			}
		})
	}
}

// updateUnlogged is Update with a transaction that records no event, as
// Update's second try is.
func updateUnlogged(t testing.TB, h *Home, fn func(tx *Tx) error) error {
	t.Helper()
	unlock, err := h.store.Lock(0)
	if err != nil {
		t.Fatal(err)
	}
	defer unlock()
	_, err = h.try(fn, errors.New("not recorded in this run"))
	return err
}

// checkCursors: no watcher's cursor is past the log of the chat it
// watches, and no head past its events.
func checkCursors(t *testing.T, what, dir string) {
	t.Helper()
	h := openAt(t, dir, nil)
	ids, _ := newView(h).recordIDs("watch", ValidID)
	err := h.View(func(tx *View) error {
		for _, w := range ids {
			cs, err := tx.Log().cursors(w)
			if err != nil {
				return err
			}
			for target, c := range cs.Targets {
				hd, err := tx.Log().head(target)
				if err != nil {
					return err
				}
				if c.LastSeen > hd.StateVersion || c.Notified > hd.StateVersion || c.Material > hd.StateVersion {
					t.Errorf("%s: %s's cursor on %s is %+v, past its log's head %d", what, w, target, *c, hd.StateVersion)
				}
			}
		}
		logs, _ := tx.Log().logIDs()
		for _, id := range logs {
			hd, err := tx.Log().head(id)
			if err != nil {
				return err
			}
			for seq := hd.Pruned + 1; seq <= hd.StateVersion; seq++ {
				if ev, err := tx.Log().readEvent(id, seq); err != nil || ev == nil {
					t.Errorf("%s: the head of %s says %d, but event %d is not there (%v)", what, id, hd.StateVersion, seq, err)
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Errorf("%s: %v", what, err)
	}
}

// visible is what a reader sees of the home: every file but the lock, and
// but events past their log's head (a commit cut short wrote them; no
// reader reads them, and the next event of the log is written over them).
func visible(t testing.TB, dir string) map[string]string {
	t.Helper()
	m := snapshot(t, dir)
	for name := range m {
		if !isEventRel(name) {
			continue
		}
		id := strings.Split(name, "/")[1]
		var hd head
		if data, ok := m[headRel(id)]; ok {
			if err := json.Unmarshal([]byte(data), &hd); err != nil {
				continue
			}
		}
		seq, _ := strconv.ParseInt(strings.TrimSuffix(strings.Split(name, "/")[2], ".json"), 10, 64)
		if seq > hd.StateVersion {
			delete(m, name)
		}
	}
	return m
}

// checkIndex: no commit is left half done, and the index sums up exactly
// the chat and task records there are.
func checkIndex(t *testing.T, what, dir string) {
	t.Helper()
	for _, left := range []string{store.OldMarkName, store.JournalName} {
		if _, err := os.Stat(filepath.Join(dir, left)); err == nil {
			t.Errorf("%s: the next command left %s", what, left)
		}
	}
	h := openAt(t, dir, nil)
	err := h.View(func(tx *View) error {
		ix, err := tx.Chats().Index()
		if err != nil {
			return err
		}
		n := 0
		for _, sub := range []string{"chats", "tasks"} {
			entries, _ := os.ReadDir(filepath.Join(dir, sub))
			for _, e := range entries {
				id := strings.TrimSuffix(e.Name(), ".json")
				c, err := tx.Chats().Get(id)
				if err != nil {
					return err
				}
				n++
				if s := ix.Chats[id]; s == nil || !reflect.DeepEqual(s, summarize(c)) {
					t.Errorf("%s: the index does not sum up %s as its record is", what, id)
				}
			}
		}
		if len(ix.Chats) != n {
			t.Errorf("%s: the index has %d chats; there are %d records", what, len(ix.Chats), n)
		}
		return nil
	})
	if err != nil {
		t.Errorf("%s: %v", what, err)
	}
}

// checkWarnings: each warning names a file in the home and its cause.
func checkWarnings(t *testing.T, what string, warnings []string, dir string) {
	t.Helper()
	for _, w := range warnings {
		if !strings.Contains(w, dir) || !(strings.Contains(w, syscall.ENOSPC.Error()) || strings.Contains(w, syscall.EIO.Error())) {
			t.Errorf("%s: a warning that does not name the file and its cause: %s", what, w)
		}
	}
}

func checkParses(t *testing.T, what string, now map[string]string) {
	t.Helper()
	for name, got := range now {
		if strings.HasSuffix(name, ".json") && !json.Valid([]byte(got)) {
			t.Errorf("%s: %s does not parse:\n%s", what, name, got)
		}
	}
}

// checkFaultError: the error names a file in the home and carries the cause.
func checkFaultError(t *testing.T, what string, err error, dir string) {
	t.Helper()
	if !strings.Contains(err.Error(), dir) {
		t.Errorf("%s: the error does not name the file: %v", what, err)
	}
	if !errors.Is(err, syscall.ENOSPC) && !errors.Is(err, syscall.EIO) {
		t.Errorf("%s: the error does not carry its cause: %v", what, err)
	}
	var e *Error
	if errors.As(err, &e) {
		t.Errorf("%s: a failing disk is reported as %v (%v), not as a failure", what, e.Kind, err)
	}
}

func torn(findings []Finding) bool {
	for _, f := range findings {
		if strings.HasPrefix(f.Problem, "record") {
			return true
		}
	}
	return false
}

// snapshot is every file under dir but the lock file, by relative path.
func snapshot(t testing.TB, dir string) map[string]string {
	t.Helper()
	m := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if errors.Is(err, fs.ErrNotExist) && p == dir {
			return filepath.SkipDir
		}
		if err != nil || d.IsDir() || d.Name() == "conch.lock" {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		m[filepath.ToSlash(rel)] = string(data)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func equalSnap(a, b map[string]string) bool { return diffSnap(a, b) == "" }

func diffSnap(a, b map[string]string) string {
	var out []string
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			out = append(out, k)
		}
	}
	for k := range b {
		if _, ok := a[k]; !ok {
			out = append(out, k)
		}
	}
	sort.Strings(out)
	return strings.Join(out, "\n")
}

func copyTree(t testing.TB, from, to string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(to), 0o700); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(from); errors.Is(err, fs.ErrNotExist) {
		return
	}
	err := filepath.WalkDir(from, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(from, p)
		dst := filepath.Join(to, rel)
		if d.IsDir() {
			return os.MkdirAll(dst, 0o700)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(dst, data, 0o600)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestFaultGC fails every file-system call of a gc in turn (once, and from
// then on): each chat's watermark is written before its events go, so
// every event above it is there; a gc that fails says what the batches
// before it did, and no more than a clean gc does; one that succeeds
// without a warning leaves the home as a clean gc does.
func TestFaultGC(t *testing.T) {
	limits := Limits{Age: 30 * 24 * time.Hour, Events: 1, Batch: 1}
	root := t.TempDir()
	base := filepath.Join(root, "base", "home")
	faultBase(t, base)
	afterDir := filepath.Join(root, "after", "home")
	copyTree(t, base, afterDir)
	clean, err := openAt(t, afterDir, nil).gc(limits)
	if err != nil || clean.Pruned < 2*limits.Batch+1 {
		t.Fatalf("a clean gc: %+v %v; want more than one batch pruned", clean, err)
	}
	after := visible(t, afterDir)
	for _, sticky := range []bool{false, true} {
		for n := 1; ; n++ {
			dir := filepath.Join(root, fmt.Sprintf("n%d-%v", n, sticky), "home")
			copyTree(t, base, dir)
			ffs := &faultFS{FS: quickFS{}, failAt: n, sticky: sticky}
			h, err := Open(Options{Dir: dir, Now: func() time.Time { return faultNow }, Wall: func() time.Time { return faultNow }, Hostname: "test", FS: ffs})
			var res *GCResult
			if err == nil {
				res, err = h.gc(limits)
			}
			if len(ffs.failed) == 0 {
				break
			}
			what := fmt.Sprintf("sticky %v, call %d (%s) failing", sticky, n, ffs.failed[0])
			if err != nil {
				checkFaultError(t, what, err, dir)
				if h != nil && res == nil || res != nil && (res.Pruned > clean.Pruned || res.Expired > clean.Expired || res.Orphans > clean.Orphans) {
					t.Errorf("%s: a failed gc says it did %+v; a clean one does %+v", what, res, clean)
				}
			} else {
				checkWarnings(t, what, res.Warnings, dir)
			}
			// What a reader sees before the next command finishes the
			// commit: no watermark below an event that is gone.
			checkCursors(t, what+", read at once", dir)
			if err := openAt(t, dir, nil).Update(func(tx *Tx) error { return nil }); err != nil {
				t.Errorf("%s: the next command: %v", what, err)
			}
			checkCursors(t, what, dir)
			if now := visible(t, dir); err == nil && len(res.Warnings) == 0 && !equalSnap(now, after) {
				t.Errorf("%s: succeeded without a word, but the home is not as a clean gc leaves it:\n%s", what, diffSnap(now, after))
			}
			// A gc run again finishes the work.
			if _, err := openAt(t, dir, nil).gc(limits); err != nil {
				t.Errorf("%s: gc again: %v", what, err)
			}
			if now := visible(t, dir); !equalSnap(now, after) {
				t.Errorf("%s: gc again leaves the home unlike a clean gc:\n%s", what, diffSnap(now, after))
			}
		}
	}
}
