package state

import (
	"errors"
	"fmt"
	"strings"

	"github.com/conch-sh/conch/state/store"
)

// idKinds are the kinds of id conch allocates, and the folder that holds a
// record under each one's name (ids without a file of their own: none).
var idKinds = []struct{ prefix, dir string }{
	{"c", "chats"}, {"t", "tasks"}, {"m", "messages"}, {"r", "requests"}, {"ch", "chains"},
}

// idFile is where the record named id would be, "" for a kind with none.
func idFile(prefix, id string) string {
	for _, k := range idKinds {
		if k.prefix == prefix {
			return k.dir + "/" + id + ".json"
		}
	}
	return ""
}

// serialOf is the number of an id of the kind (c_12 → 12), 0 if it is not one.
func serialOf(id, prefix string) int {
	if !validSerial(id, prefix+"_") {
		return 0
	}
	n := 0
	for _, r := range id[len(prefix)+1:] {
		n = n*10 + int(r-'0')
		if n >= 1e9 {
			return 0
		}
	}
	return n
}

// noteIDs raises seen[prefix] to the number of every id in s: an id alone
// ("c_3"), or among other words ("gone m_3", "c_1>c_2", "c_1.3").
func noteIDs(seen counters, s string) {
	for _, w := range strings.FieldsFunc(s, func(r rune) bool {
		return !(r == '_' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z')
	}) {
		prefix, _, ok := strings.Cut(w, "_")
		if !ok {
			continue
		}
		if n := serialOf(w, prefix); n > seen[prefix] {
			seen[prefix] = n
		}
	}
}

// usedIDs is the largest id of each kind the home's records use: the
// records' own names, the logs, watches, waits and adoptions kept under a
// chat's name, and the ids the chat and message records name (a chat
// deleted since, a chain with no file). It is what counters.json would
// say, for a home that lost it: ids must never restart.
func (tx *View) usedIDs() (counters, error) {
	seen := counters{}
	for _, dir := range []string{"chats", "tasks", "messages", "requests", "chains", "log", "watch", "waits", "adopted"} {
		names, err := tx.h.store.List(dir)
		if errors.Is(err, store.ErrNotDir) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("read %s: %w", tx.h.where(dir), err)
		}
		for _, name := range names {
			if strings.HasSuffix(name, "/") {
				// a log's folder; a folder where a record belongs is doctor's
				noteIDs(seen, strings.TrimSuffix(strings.TrimSuffix(name, "/"), ".json"))
				continue
			}
			id := strings.TrimSuffix(name, ".json")
			noteIDs(seen, id)
			switch {
			case dir == "chats" || dir == "tasks":
				// What a chat names: its parent, its chain, its cards
				// and inboxes, the chats it waits on or that wrote to it.
				c, err := readRecord[Chat](tx, dir+"/"+name)
				if err := unlessCorrupt(err); err != nil {
					return nil, err
				}
				if c != nil {
					for _, s := range [][]string{{c.Parent, c.Chain}, c.Cards, c.Inbox, c.InboxStart, c.Held, c.Waiting, c.Wrote, c.Watchers, c.Waiters} {
						for _, v := range s {
							noteIDs(seen, v)
						}
					}
					for _, r := range []*Reply{c.Reply, c.LastReply} {
						if r != nil {
							noteIDs(seen, r.Chain)
						}
					}
				}
			case dir == "messages":
				m, err := readRecord[Message](tx, dir+"/"+name)
				if err := unlessCorrupt(err); err != nil {
					return nil, err
				}
				if m != nil {
					noteIDs(seen, m.From+" "+m.To+" "+m.Chain)
				}
			}
		}
	}
	// A session's link names its chats, the deleted ones too.
	harnesses, _ := tx.linkedHarnesses() // none, or what doctor finds
	for _, harness := range harnesses {
		dir := "sessions/" + harness
		names, err := tx.h.store.List(dir)
		if err != nil {
			continue // none, or what doctor finds
		}
		for _, name := range names {
			if !strings.HasSuffix(name, ".json") {
				continue
			}
			l, err := readRecord[SessionLink](tx, dir+"/"+name)
			if err := unlessCorrupt(err); err != nil {
				return nil, err
			}
			if l == nil {
				continue
			}
			noteIDs(seen, l.Chat)
			for _, chat := range l.Agents {
				noteIDs(seen, chat) // a value conch wrote; the key is the harness's word
			}
			for chat := range l.Deleted {
				noteIDs(seen, chat)
			}
		}
	}
	return seen, nil
}

// unlessCorrupt is err, but nil for a record that cannot be read (or a
// folder where it belongs): its name counts, and doctor finds the rest.
// A disk that fails is an error: counters rebuilt short would give ids again.
func unlessCorrupt(err error) error {
	var ce *CorruptError
	if err == nil || errors.As(err, &ce) || errors.Is(err, store.ErrIsDir) {
		return nil
	}
	return err
}

// counters reads counters.json. A home without one, or with one behind the
// records (restored from a backup, written by hand), gets them rebuilt
// from the records, never restarted.
func (tx *View) counters() (*counters, error) {
	c, err := load[counters](tx, "counters.json")
	if err != nil {
		return nil, err
	}
	if c != nil {
		return c, nil
	}
	c = &counters{}
	used, err := tx.usedIDs()
	if err != nil {
		return nil, err
	}
	for k, n := range used {
		(*c)[k] = n
	}
	tx.read["counters.json"] = c
	return c, nil
}

// taken says whether id's record is there already (this transaction's, or
// on the disk).
func (tx *View) taken(prefix, id string) (bool, error) {
	rel := idFile(prefix, id)
	if rel == "" {
		return false, nil
	}
	if v, ok := tx.cached(rel); ok {
		return v != nil, nil
	}
	// A read, not a stat: an absent file costs the same, and the test
	// file systems answer it as the disk does.
	p := tx.h.where(rel)
	_, err := tx.h.store.Get(rel)
	switch {
	case err == nil || errors.Is(err, store.ErrTooLarge):
		return true, nil
	case errors.Is(err, store.ErrNotFound):
		return false, nil
	}
	return false, readError(p, err)
}
