package state

import (
	"errors"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"
)

// Watchers keep a cursor per watched chat (SPEC §7). A watcher's cursors
// are one file, CONCH_HOME/watch/WATCHER.json, so that `conch notes` reads
// only that file to find its notices; the watched chat keeps the reverse
// list (Chat.Watchers), so an event finds its watchers without a scan.

// CursorTTL is how long a cursor lives untouched.
const CursorTTL = 30 * 24 * time.Hour

// NoticeWakeEvery is how often at most a notice wakes one watcher.
const NoticeWakeEvery = time.Minute

// cursor is one watcher's place in one watched chat's log. A notice is
// pending while Notified is past LastSeen; the notice says --since LastSeen,
// so its words stay the same while it is pending. Material is the latest
// notifying event, which may run past Notified (the frozen watermark).
type cursor struct {
	LastSeen int64     `json:"last_seen"`
	Notified int64     `json:"notified"`
	Material int64     `json:"material"`
	Touched  time.Time `json:"touched"`
}

// pending says whether a notice waits on the cursor.
func (c *cursor) pending() bool { return c.Notified > c.LastSeen }

// expired says whether the cursor has gone untouched too long.
func (c *cursor) expired(now time.Time) bool { return now.Sub(c.Touched) > CursorTTL }

// land moves the cursor for a notifying event at sequence s that the
// watcher did not cause: a notice opens only when none is pending (its mark
// is then frozen at s), and Material always moves. It says whether a
// notice opened.
func (c *cursor) land(s int64) (opened bool) {
	opened = c.Notified == c.LastSeen
	if opened {
		c.Notified = s
	}
	c.Material = s
	return opened
}

// own moves the cursor past an event the watcher caused itself: it never
// hears of it. With a notice pending, the notice stays as it is.
func (c *cursor) own(s int64) {
	if !c.pending() && s > c.LastSeen {
		c.LastSeen, c.Notified, c.Material = s, s, s
	}
}

// drain acknowledges the pending notice: LastSeen moves to the notified
// mark, and if more came in since it opened, exactly one fresh notice opens
// for the rest. It says whether one reopened.
func (c *cursor) drain() (reopened bool) {
	old := c.Notified
	c.LastSeen = old
	if c.Material > old {
		c.Notified = c.Material
		return true
	}
	return false
}

// cursors are one watcher's cursors, CONCH_HOME/watch/WATCHER.json.
type cursors struct {
	Watcher string             `json:"watcher"`
	Woke    time.Time          `json:"woke,omitzero"` // when a notice last woke the watcher
	Targets map[string]*cursor `json:"targets"`
}

func cursorsRel(watcher string) string { return "watch/" + watcher + ".json" }

// cursors reads a watcher's cursors (empty when it has none).
func (l LogView) cursors(watcher string) (*cursors, error) {
	tx := l.v
	cs, err := load[cursors](tx, cursorsRel(watcher))
	if err != nil {
		return nil, err
	}
	if cs != nil && cs.Watcher != watcher {
		return nil, tx.misnamed(cursorsRel(watcher), cs.Watcher)
	}
	if cs != nil {
		for id, c := range cs.Targets {
			if c == nil {
				return nil, &CorruptError{Path: tx.h.where(cursorsRel(watcher)), Err: fmt.Errorf("its cursor on %q is null", id)}
			}
		}
	}
	if cs == nil {
		cs = &cursors{Watcher: watcher}
	}
	if cs.Targets == nil {
		cs.Targets = map[string]*cursor{}
	}
	return cs, nil
}

// saveCursors writes a watcher's cursors, or removes the file when none are left.
func (lo LogTx) saveCursors(cs *cursors) {
	tx := lo.tx
	if len(cs.Targets) == 0 {
		tx.remove(cursorsRel(cs.Watcher))
		return
	}
	tx.put(cursorsRel(cs.Watcher), cs, true)
}

// targets are the watched chats' ids in order (c_2 before c_10).
func (cs *cursors) targets() []string {
	ids := make([]string, 0, len(cs.Targets))
	for id := range cs.Targets {
		ids = append(ids, id)
	}
	sort.Slice(ids, func(i, j int) bool { return idLess(ids[i], ids[j]) })
	return ids
}

// idLess orders ids by kind, then number: c_2 before c_10, chats before tasks.
func idLess(a, b string) bool {
	pa, na, _ := strings.Cut(a, "_")
	pb, nb, _ := strings.Cut(b, "_")
	if pa != pb {
		return pa < pb
	}
	ia, _ := strconv.Atoi(na)
	ib, _ := strconv.Atoi(nb)
	if ia != ib {
		return ia < ib
	}
	return a < b
}

// notify tells c's watchers of a notifying event: each cursor lands the
// event (or passes it, for the watcher that caused it); a notice that opens
// wakes a main watcher that is idle and has a wake_cmd, at most once a
// minute. Cursors found expired, or whose watcher is gone, are dropped.
func (lo LogTx) notify(c *Chat, ev *Event) {
	tx := lo.tx
	now := tx.Now()
	expiry := tx.Log().retentionNow() // expiring a watch is retention
	keep := c.Watchers[:0:0]
	for _, w := range c.Watchers {
		cs, err := tx.Log().cursors(w)
		if err != nil {
			tx.warn("watcher %s of chat %s was not told of event %d: %v", w, c.ID, ev.Sequence, err)
			keep = append(keep, w)
			continue
		}
		cur := cs.Targets[c.ID]
		if cur == nil {
			continue // the reverse list ran ahead of the cursor: mend it
		}
		if cur.expired(expiry) {
			delete(cs.Targets, c.ID)
			tx.Log().saveCursors(cs)
			continue
		}
		wc, err := tx.Chats().Get(w)
		if errors.Is(err, ErrNoChat) {
			delete(cs.Targets, c.ID)
			tx.Log().saveCursors(cs)
			continue
		}
		keep = append(keep, w)
		if err != nil {
			tx.warn("watcher %s of chat %s was not told of event %d: %v", w, c.ID, ev.Sequence, err)
			continue
		}
		if w == ev.ActorChat {
			cur.own(ev.Sequence)
			cur.Touched = now
			tx.Log().saveCursors(cs)
			continue
		}
		if !canSee(wc, c) {
			continue // it may no longer see c: it hears nothing of it
		}
		opened := cur.land(ev.Sequence)
		cur.Touched = now
		if opened && wc.Parent == "" && !wc.IsTask() && wc.WakeCmd != "" && !wc.waking() &&
			(wc.state() == StatusIdle || wc.sessionEnded()) && now.Sub(cs.Woke) >= NoticeWakeEvery {
			if tx.Wakes().wake(wc, wakeNotice, "", wc.Chain) {
				cs.Woke = now
			}
		}
		tx.Log().saveCursors(cs)
	}
	if !slices.Equal(keep, c.Watchers) {
		c.Watchers = keep
		tx.Chats().save(c, true)
	}
}

// dropCursorsOf removes every cursor the watcher keeps, and the watcher from
// each watched chat's reverse list. It returns the chats it watched.
func (lo LogTx) dropCursorsOf(watcher string) ([]string, error) {
	tx := lo.tx
	cs, err := tx.Log().cursors(watcher)
	if err != nil {
		return nil, err
	}
	targets := cs.targets()
	for _, t := range targets {
		tc, err := tx.Chats().Get(t)
		if errors.Is(err, ErrNoChat) {
			continue
		}
		if err != nil {
			return nil, err
		}
		if i := slices.Index(tc.Watchers, watcher); i >= 0 {
			tc.Watchers = slices.Delete(tc.Watchers, i, i+1)
			tx.Chats().save(tc, true)
		}
	}
	if len(targets) > 0 {
		tx.remove(cursorsRel(watcher))
	}
	return targets, nil
}
