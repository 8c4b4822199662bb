package state

import (
	"container/heap"
	"errors"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/conch-sh/conch/state/proc"
)

// Retention (SPEC §7): the log keeps 30 days and 50,000 events in all.
// Pruning stamps each chat's pruned watermark before it removes events, so
// a reader never mistakes pruned history for none; heads never go back. It
// runs in `conch gc`, which a writing command starts detached when the last
// run is an hour old: never inside a hot command (step, notes, a hook).

// Limits are what retention keeps.
type Limits struct {
	Age    time.Duration // events older than this go
	Events int           // at most this many events in all
	Batch  int           // events removed per transaction, so the lock is never held long
}

// DefaultLimits are SPEC §7's.
var DefaultLimits = Limits{Age: 30 * 24 * time.Hour, Events: 50_000, Batch: 2_000}

// GCEvery is how often at most a writing command starts a gc.
const GCEvery = time.Hour

// gcRel is the retention clock: when pruning last ran or was started.
const gcRel = "log/gc.json"

type gcClock struct {
	Last time.Time `json:"last"`
}

// GCResult is what a gc did.
type GCResult struct {
	Pruned  int `json:"pruned"`          // events removed by age or by the cap
	Expired int `json:"cursors_expired"` // watches untouched for 30 days, or on chats gone
	Orphans int `json:"logs_removed"`    // logs of chats that are gone
	// Warnings are what went wrong once a batch was committed (the next
	// command finishes writing it).
	Warnings []string `json:"-"`
}

// gcIfDue starts a detached `conch gc` once the transaction is written, when
// the last one is an hour old. A home's first event starts the clock.
func (lo LogTx) gcIfDue() {
	tx := lo.tx
	if tx.logs.gcChecked {
		return
	}
	tx.logs.gcChecked = true
	clock, err := load[gcClock](tx, gcRel)
	if err != nil {
		tx.warn("the retention clock cannot be read: %v", err)
		return
	}
	now := tx.Log().retentionNow()
	if clock != nil && now.Sub(clock.Last) < GCEvery {
		return
	}
	start := clock != nil
	tx.put(gcRel, &gcClock{Last: now}, true)
	if start {
		tx.After(func() { tx.Log().startGC() })
	}
}

// retentionNow is the clock that retention prunes and expires by: the
// command's clock, but never later than the wall clock (issue 12, rule
// 16). CONCH_NOW may pin the clock for reading and for tests; a chat that
// sets it a year ahead must not prune the history, or expire the watches,
// of every other chat.
func (l LogView) retentionNow() time.Time {
	tx := l.v
	now := tx.Now()
	if wall := tx.h.Wall(); wall.Before(now) {
		return wall
	}
	return now
}

// stampGC moves the retention clock to now; it never goes back.
func (lo LogTx) stampGC() error {
	tx := lo.tx
	clock, err := load[gcClock](tx, gcRel)
	if err != nil {
		return err
	}
	if now := tx.Log().retentionNow(); clock == nil || clock.Last.Before(now) {
		tx.put(gcRel, &gcClock{Last: now}, true)
	}
	return nil
}

// startGC runs `conch gc` detached, in its own session, with the home and
// the clock this command had.
func (l LogView) startGC() {
	tx := l.v
	exe := tx.h.exe()
	if exe == "" {
		return
	}
	env := append(os.Environ(), "CONCH_HOME="+tx.h.Dir, "CONCH_CHAT=")
	env = append(env, tx.h.reach...)
	if now := tx.h.Getenv("CONCH_NOW"); now != "" {
		env = append(env, "CONCH_NOW="+now)
	}
	if err := proc.Detach([]string{exe, "gc"}, env, ""); err != nil {
		tx.warn("could not start conch gc: %v", err)
	}
}

// GC prunes the log to DefaultLimits and expires watches (conch gc). Each
// batch is a commit of its own, the watermarks written before the events
// go: when one fails, the result says what the batches before it did, and
// the error what stopped it.
func (h *Home) GC() (*GCResult, error) { return h.gc(DefaultLimits) }

func (h *Home) gc(l Limits) (*GCResult, error) {
	res := &GCResult{}
	if there, err := h.store.Exists(); err != nil || !there {
		return res, err // no home: nothing to keep, and gc makes none
	}
	update := func(fn func(tx *Tx) error) error {
		var last *Tx
		err := h.Update(func(tx *Tx) error { last = tx; return fn(tx) })
		if err == nil && last != nil {
			res.Warnings = append(res.Warnings, last.Warnings()...)
		}
		return err
	}
	var orphans, expired int
	err := update(func(tx *Tx) (err error) {
		// The retention clock is no event: it is written with the rest,
		// or the gc fails.
		if err := tx.Log().stampGC(); err != nil {
			return err
		}
		if orphans, err = tx.Log().sweep(); err != nil {
			return err
		}
		expired, err = tx.Log().expireCursors()
		return err
	})
	if err != nil {
		return res, err
	}
	res.Orphans, res.Expired = orphans, expired
	for {
		n := 0
		err := update(func(tx *Tx) (err error) {
			n, err = tx.Log().pruneBatch(l)
			return err
		})
		if err != nil {
			return res, err
		}
		res.Pruned += n
		if n < l.Batch {
			return res, nil
		}
	}
}

// logIDs are the chats that have a log folder.
func (l LogView) logIDs() ([]string, error) {
	tx := l.v
	names, err := tx.h.store.List("log")
	if err != nil {
		return nil, err
	}
	var ids []string
	for _, name := range names {
		if id, dir := strings.CutSuffix(name, "/"); dir && ValidID(id) {
			ids = append(ids, id)
		}
	}
	return ids, nil
}

// sweep removes the logs of chats that are gone, and events a gc that
// stopped between stamping a watermark and removing left below it. Events
// go in ascending order after their watermark is written, so what such a
// gc left is a run ending at the watermark: it probes down from there, one
// file per clean log.
func (lo LogTx) sweep() (orphans int, err error) {
	tx := lo.tx
	ids, err := tx.Log().logIDs()
	if err != nil {
		return 0, err
	}
	for _, id := range ids {
		if _, err := tx.Chats().Get(id); errors.Is(err, ErrNoChat) {
			tx.remove(logDir(id))
			orphans++
			continue
		} else if err != nil {
			return orphans, err
		}
		h, err := tx.Log().head(id)
		if err != nil {
			return orphans, err
		}
		for seq := h.Pruned; seq > 0; seq-- {
			if _, err := tx.h.store.Get(eventRel(id, seq)); err != nil {
				break
			}
			tx.remove(eventRel(id, seq))
		}
	}
	return orphans, nil
}

// expireCursors drops watches untouched for CursorTTL, and watches of or on
// chats that are gone, with their places in the reverse lists.
func (lo LogTx) expireCursors() (int, error) {
	tx := lo.tx
	ids, err := tx.recordIDs("watch", ValidID)
	if err != nil {
		return 0, err
	}
	now, expired := tx.Log().retentionNow(), 0
	for _, id := range ids {
		cs, err := tx.Log().cursors(id)
		if err != nil {
			return expired, err
		}
		_, err = tx.Chats().Get(id)
		watcherGone := errors.Is(err, ErrNoChat)
		if err != nil && !watcherGone {
			return expired, err
		}
		changed := false
		for _, t := range cs.targets() {
			tc, err := tx.Chats().Get(t)
			targetGone := errors.Is(err, ErrNoChat)
			if err != nil && !targetGone {
				return expired, err
			}
			if !watcherGone && !targetGone && !cs.Targets[t].expired(now) {
				continue
			}
			delete(cs.Targets, t)
			expired++
			changed = true
			if tc != nil {
				tc.Watchers = without(tc.Watchers, id)
				tx.Chats().save(tc, true)
			}
		}
		if changed || watcherGone {
			tx.Log().saveCursors(cs)
		}
	}
	return expired, nil
}

func without(list []string, s string) []string {
	return slices.DeleteFunc(list, func(x string) bool { return x == s })
}

// pruneBatch removes at most l.Batch events: first those older than l.Age
// (a prefix of each log), then the oldest in all while more than l.Events
// remain. Each chat's watermark is stamped (its head, written first at
// commit) before its events are removed.
func (lo LogTx) pruneBatch(l Limits) (int, error) {
	tx := lo.tx
	ids, err := tx.Log().logIDs()
	if err != nil {
		return 0, err
	}
	cutoff := tx.Log().retentionNow().Add(-l.Age)
	budget := l.Batch
	logs := make([]*pruning, 0, len(ids))
	total := 0
	for _, id := range ids {
		h, err := tx.Log().head(id)
		if err != nil {
			return 0, err
		}
		p := &pruning{id: id, head: h, to: h.Pruned}
		logs = append(logs, p)
		// By age: each log's old events are a prefix of it.
		for budget > 0 && p.to < h.StateVersion {
			ev, err := p.next(tx)
			if err != nil {
				return 0, err
			}
			if ev != nil && !ev.At.Before(cutoff) {
				break
			}
			p.take()
			budget--
		}
		total += int(h.StateVersion - p.to)
	}
	// By the cap: the oldest event of all goes, one at a time.
	q := &oldest{}
	for _, p := range logs {
		if p.to < p.head.StateVersion {
			if _, err := p.next(tx); err != nil {
				return 0, err
			}
			heap.Push(q, p)
		}
	}
	for budget > 0 && total > l.Events && q.Len() > 0 {
		p := heap.Pop(q).(*pruning)
		p.take()
		budget--
		total--
		if p.to < p.head.StateVersion {
			if _, err := p.next(tx); err != nil {
				return 0, err
			}
			heap.Push(q, p)
		}
	}
	n := 0
	for _, p := range logs {
		if p.to == p.head.Pruned {
			continue
		}
		for seq := p.head.Pruned + 1; seq <= p.to; seq++ {
			tx.remove(eventRel(p.id, seq))
			n++
		}
		p.head.Pruned = p.to
		tx.put(headRel(p.id), p.head, true)
	}
	return n, nil
}

// pruning is one log's place in a prune: events up to `to` go.
type pruning struct {
	id   string
	head *head
	to   int64
	ev   *Event // the event at to+1, once read (nil when its file is missing)
	read bool
}

func (p *pruning) next(tx *Tx) (*Event, error) {
	if !p.read {
		ev, err := tx.Log().readEvent(p.id, p.to+1)
		if err != nil {
			return nil, err
		}
		p.ev, p.read = ev, true
	}
	return p.ev, nil
}

func (p *pruning) take() { p.to++; p.ev, p.read = nil, false }

// at is when the next event was recorded; a missing one sorts first, so
// the gap it leaves is closed.
func (p *pruning) at() time.Time {
	if p.ev == nil {
		return time.Time{}
	}
	return p.ev.At
}

// oldest is a heap of logs by their next event's time.
type oldest []*pruning

func (q oldest) Len() int { return len(q) }
func (q oldest) Less(i, j int) bool {
	if !q[i].at().Equal(q[j].at()) {
		return q[i].at().Before(q[j].at())
	}
	return idLess(q[i].id, q[j].id)
}
func (q oldest) Swap(i, j int) { q[i], q[j] = q[j], q[i] }
func (q *oldest) Push(x any)   { *q = append(*q, x.(*pruning)) }
func (q *oldest) Pop() any {
	old := *q
	p := old[len(old)-1]
	*q = old[:len(old)-1]
	return p
}

// exe is the conch binary, "" when it is not known.
func (h *Home) exe() string {
	if h.Exe == nil {
		return ""
	}
	return h.Exe()
}
