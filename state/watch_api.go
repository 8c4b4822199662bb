package state

import (
	"errors"
	"slices"
	"time"
)

// Watching (SPEC §7): explicit watches (conch watch, chat message --watch),
// unwatching, and a chat's reset. Spawning seeds a watch too (logSpawn).

// watch makes watcher watch target, registered at the target's current
// state version, so earlier history never makes a notice. A watch that
// exists keeps its cursor as it is, a pending notice included (only its
// clock is touched). It says false where the watcher may not watch the
// target (read access, SPEC §1; a chat does not watch itself), and where
// the watch could not be registered (said as a warning).
func (dom ChatsTx) watch(watcher, target *Chat) bool {
	tx := dom.tx
	cur, err := tx.Chats().register(watcher, target)
	if err != nil {
		if !errors.Is(err, ErrRefused) && !errors.Is(err, ErrNoChat) {
			tx.warn("chat %s could not watch chat %s: %v", watcher.ID, target.ID, err)
		}
		return false
	}
	return cur != nil
}

// register is watch with its reasons: a refusal when the watcher may not
// watch the target, an error when a record cannot be read.
func (dom ChatsTx) register(watcher, target *Chat) (*cursor, error) {
	tx := dom.tx
	if watcher.ID == target.ID {
		return nil, refusedf("a chat does not watch itself")
	}
	if !canSee(watcher, target) {
		return nil, noChat(target.ID)
	}
	cs, err := tx.Log().cursors(watcher.ID)
	if err != nil {
		return nil, err
	}
	now := tx.Now()
	cur := cs.Targets[target.ID]
	if cur == nil || cur.expired(tx.Log().retentionNow()) {
		v, err := tx.Log().Version(target.ID)
		if err != nil {
			return nil, err
		}
		cur = &cursor{LastSeen: v, Notified: v, Material: v}
		cs.Targets[target.ID] = cur
	}
	cur.Touched = now
	tx.Log().saveCursors(cs)
	if !slices.Contains(target.Watchers, watcher.ID) {
		target.Watchers = append(target.Watchers, watcher.ID)
		tx.Chats().save(target, true)
	}
	return cur, nil
}

// Watch is one watcher's cursor on one chat, as watch and unwatch answer.
type Watch struct {
	Watcher  string    `json:"watcher"`
	Target   string    `json:"target"`
	Watching bool      `json:"watching"`
	LastSeen int64     `json:"last_seen"`
	Notified int64     `json:"notified"`
	Material int64     `json:"material"`
	Touched  time.Time `json:"touched"`
	Pending  bool      `json:"pending"` // a notice waits
}

func watchOf(watcher, target string, cur *cursor) *Watch {
	w := &Watch{Watcher: watcher, Target: target}
	if cur != nil {
		w.Watching, w.LastSeen, w.Notified, w.Material, w.Touched, w.Pending =
			true, cur.LastSeen, cur.Notified, cur.Material, cur.Touched, cur.pending()
	}
	return w
}

// Watch makes the acting chat watch chat id (conch watch ID).
func (dom ChatsTx) Watch(a Actor, id string) (*Watch, error) {
	tx := dom.tx
	me, err := tx.Chats().watcher(a, "watch")
	if err != nil {
		return nil, err
	}
	target, err := tx.Chats().Named(a, id)
	if err != nil {
		return nil, err
	}
	cur, err := tx.Chats().register(me, target)
	if err != nil {
		return nil, err
	}
	return watchOf(me.ID, target.ID, cur), nil
}

// Unwatch removes the acting chat's watch on chat id (conch unwatch ID). A
// chat it does not watch is no error: Watching says whether it did.
func (dom ChatsTx) Unwatch(a Actor, id string) (*Watch, error) {
	tx := dom.tx
	me, err := tx.Chats().watcher(a, "unwatch")
	if err != nil {
		return nil, err
	}
	target, err := tx.Chats().Named(a, id)
	if err != nil {
		return nil, err
	}
	cs, err := tx.Log().cursors(me.ID)
	if err != nil {
		return nil, err
	}
	w := watchOf(me.ID, target.ID, cs.Targets[target.ID])
	if w.Watching {
		delete(cs.Targets, target.ID)
		tx.Log().saveCursors(cs)
	}
	if i := slices.Index(target.Watchers, me.ID); i >= 0 {
		target.Watchers = slices.Delete(target.Watchers, i, i+1)
		tx.Chats().save(target, true)
	}
	return w, nil
}

func (ch ChatsView) watcher(a Actor, verb string) (*Chat, error) {
	tx := ch.v
	if a.Person() {
		return nil, needsChat(verb)
	}
	return tx.Chats().Get(a.ID)
}

// Reset is conch chat reset: the harness cleared the chat's history, so
// the watches it kept go (its log stays, and so do the watches on it). The
// chat itself, or the person, may. It returns the chats it watched.
func (dom ChatsTx) Reset(a Actor, id string) ([]string, error) {
	tx := dom.tx
	c, err := tx.Chats().Named(a, id)
	if err != nil {
		return nil, err
	}
	if !a.Person() && a.ID != c.ID {
		return nil, refusedf("chat %s cannot reset chat %s: only the chat itself, or its harness", a.ID, c.ID)
	}
	return tx.Log().dropCursorsOf(c.ID)
}
