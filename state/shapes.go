package state

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/conch-sh/conch/state/store"
)

// What conch keeps where: doctor's map of the home.
const (
	shapeUnknown = iota // not conch's, or a kind doctor does not know: left alone
	shapeFolder
	shapeFile   // a file that is not a record (the lock, the commit mark, the config)
	shapeRecord // a JSON record, read by read
)

type shape struct {
	kind int
	what string                            // the kind of record, for the findings
	name string                            // the id or key the record is under
	read func(tx *View, name string) error // reads it as the commands do
}

func (s shape) noun() string {
	switch s.kind {
	case shapeFolder:
		return "folder"
	case shapeRecord:
		return s.what + " record"
	}
	return "file"
}

// topFolders are the folders at the top of a home.
var topFolders = []string{"chats", "tasks", "messages", "requests", "chains", "watch", "waits", "log", "sessions", "adopted", "resume", receiptsDir}

func record(what, name string, read func(tx *View, name string) error) shape {
	return shape{kind: shapeRecord, what: what, name: name, read: read}
}

// shapeOf says what belongs at rel (a slash path inside the home).
func shapeOf(rel string) shape {
	parts := strings.Split(rel, "/")
	last := parts[len(parts)-1]
	id, isJSON := strings.CutSuffix(last, ".json")
	switch len(parts) {
	case 1:
		switch rel {
		case ".":
			return shape{kind: shapeFolder}
		case "index.json":
			return record("index", "", func(tx *View, _ string) error { _, err := tx.Chats().Index(); return err })
		case "counters.json":
			return record("counters", "", func(tx *View, _ string) error { return readCounters(tx) })
		case "keys.json":
			return record("keys", "", func(tx *View, _ string) error { _, err := load[Keys](tx, "keys.json"); return err })
		case "conch.lock", store.OldMarkName, store.JournalName, "config.toml":
			return shape{kind: shapeFile}
		}
		for _, f := range topFolders {
			if rel == f {
				return shape{kind: shapeFolder}
			}
		}
	case 2:
		dir := parts[0]
		if !isJSON {
			if dir == "log" && ValidID(last) || dir == "sessions" && plainKey(last) {
				return shape{kind: shapeFolder}
			}
			break
		}
		switch {
		case dir == "chats" && validSerial(id, "c_"), dir == "tasks" && validSerial(id, "t_"):
			return record("chat", id, func(tx *View, id string) error { _, err := tx.Chats().Get(id); return err })
		case dir == "messages" && validMessageID(id):
			return record("message", id, func(tx *View, id string) error { _, err := tx.Messages().record(id); return err })
		case dir == "requests" && validSerial(id, "r_"):
			return record("request", id, func(tx *View, id string) error { _, err := tx.Requests().record(id); return err })
		case dir == "chains" && validSerial(id, "ch_"):
			return record("chain", id, func(tx *View, id string) error { _, err := tx.Messages().chain(id); return err })
		case dir == "watch" && ValidID(id):
			return record("watch", id, func(tx *View, id string) error { _, err := tx.Log().cursors(id); return err })
		case dir == "waits" && (ValidID(id) || id == PersonWaiter):
			return record("waits", id, func(tx *View, id string) error { _, err := tx.Waits().of(id); return err })
		case dir == receiptsDir && validReceiptName(last):
			return record("receipt", rel, readReceipt)
		case dir == "resume" && ValidID(id):
			return record("resume", id, func(tx *View, id string) error { _, err := tx.Sessions().resumeOf(id); return err })
		case dir == "adopted" && ValidID(id):
			return record("adoption", id, readAdoption)
		case rel == gcRel:
			return record("retention clock", "", func(tx *View, _ string) error { _, err := load[gcClock](tx, gcRel); return err })
		}
	case 3:
		switch {
		case parts[0] == "log" && ValidID(parts[1]) && last == "head.json":
			return record("log head", parts[1], func(tx *View, id string) error { _, err := load[head](tx, headRel(id)); return err })
		case parts[0] == "log" && ValidID(parts[1]) && isJSON && len(id) == 12:
			seq, err := strconv.ParseInt(id, 10, 64)
			if err != nil || seq < 1 {
				break
			}
			return record("event", parts[1], func(tx *View, chat string) error { _, err := tx.Log().readEvent(chat, seq); return err })
		case parts[0] == "sessions" && plainKey(parts[1]) && isJSON:
			return record("session link", rel, readSessionLink)
		}
	}
	return shape{}
}

func readCounters(tx *View) error {
	c, err := load[counters](tx, "counters.json")
	if err != nil || c == nil {
		return err
	}
	for k, n := range *c {
		if n < 0 || n >= 1e9 {
			return fmt.Errorf("counter %q is %d", k, n)
		}
	}
	return nil
}

func readAdoption(tx *View, id string) error {
	ad, err := load[Adoption](tx, adoptionRel(id))
	if err == nil && ad != nil && ad.Chat != id {
		return tx.misnamed(adoptionRel(id), ad.Chat)
	}
	return err
}

func readReceipt(tx *View, rel string) error {
	r, err := load[receipt](tx, rel)
	if err == nil && r != nil && !strings.HasPrefix(rel, receiptsDir+"/"+r.Chat+".") {
		return tx.misnamed(rel, r.Chat)
	}
	return err
}

func readSessionLink(tx *View, rel string) error {
	l, err := load[SessionLink](tx, rel)
	if err == nil && l != nil && sessionRel(l.Harness, l.Session) != rel {
		return tx.misnamed(rel, l.Harness+" session "+l.Session)
	}
	return err
}
