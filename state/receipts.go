package state

import (
	"encoding/json"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/conch-sh/conch/state/store"
)

// Receipts (issue 29): a chat's marks count only for a command that got
// out. A notes or a hook prints what it says and marks it said in one
// commit; killed after the commit and before its exit (a hook at its
// timeout, a Ctrl-C), the harness throws its output away, and what it
// marked would be lost. So every commit that marks something said also
// writes a receipt: what it marked, and which process marked it. The
// process takes the receipt away as its very last act, once its output is
// out and its exit is 0 (Home.Confirm: one unlink, nothing after it). A
// receipt whose process is gone is one whose output nobody used: the
// chat's next notes undoes its marks under the lock, and what it said is
// due again. So a kill anywhere from the commit to the exit shows what was
// said once more (never zero times: at most twice, if its output had been
// used after all), and the window that can still lose it is the exit
// itself.
//
// Why undo, and not a commit point moved to the exit: nothing after a
// commit can be the exit's own last act (the lock is let go after it, on a
// backend over the network), and a commit left for the next command to
// apply would hide every mark from the lock-free readers until then. A
// receipt is the same on every store: it is kept in this computer's own
// files (its process can only be judged alive where it runs), in the
// commit's own journal on a local home, written and synced before the
// shared commit on a backend. A notes with nothing to say writes none.

// receiptsDir is the folder of the receipts, in this computer's own files.
const receiptsDir = "marks"

// receipt is what one process marked said for one chat.
type receipt struct {
	Chat string `json:"chat"`
	Proc Proc   `json:"proc"`
	// Stop is the last reply's stop notice, heard.
	Stop *StopNotice `json:"stop,omitempty"`
	// Reply and Said: the reader lines said in that reply (their keys).
	Reply string   `json:"reply,omitempty"`
	Said  []string `json:"said,omitempty"`
	// Entries are the inbox entries said (messages, gone chats, requests).
	Entries []receiptEntry `json:"entries,omitempty"`
	// Waits are the ended waits told, as they were before they went.
	Waits []*wait `json:"waits,omitempty"`
	// Notices are the notices drained.
	Notices []receiptNotice `json:"notices,omitempty"`
}

// receiptEntry is one inbox entry said.
type receiptEntry struct {
	Entry string `json:"entry"`           // m_1, gone m_1, r_1
	Start bool   `json:"start,omitempty"` // it was due at a reply's start
	Read  bool   `json:"read,omitempty"`  // its message went from waiting to read
}

// receiptNotice is one notice drained: its cursor's last_seen before and
// after.
type receiptNotice struct {
	Target   string `json:"target"`
	LastSeen int64  `json:"last_seen"`
	Drained  int64  `json:"drained"`
}

func (r *receipt) empty() bool {
	return r.Stop == nil && len(r.Said) == 0 && len(r.Entries) == 0 && len(r.Waits) == 0 && len(r.Notices) == 0
}

// durable says whether the receipt must survive a power cut: it undoes
// durable marks (the reader lines alone are live state).
func (r *receipt) durable() bool {
	return r.Stop != nil || len(r.Entries) > 0 || len(r.Waits) > 0 || len(r.Notices) > 0
}

// receiptRel is the receipt of chat's marks by process p. The start time
// is in the name, so a process that reuses a dead one's pid writes beside
// its receipt, not over it.
func receiptRel(chat string, p Proc) string {
	return receiptsDir + "/" + chat + "." + strconv.Itoa(p.PID) + "." + strconv.FormatUint(p.Start, 10) + ".json"
}

// validReceiptName says whether name (in receiptsDir) is a receipt's.
func validReceiptName(name string) bool {
	rest, ok := strings.CutSuffix(name, ".json")
	parts := strings.Split(rest, ".")
	if !ok || len(parts) != 3 || !ValidID(parts[0]) {
		return false
	}
	pid, e1 := strconv.Atoi(parts[1])
	start, e2 := strconv.ParseUint(parts[2], 10, 64)
	// Each number as receiptRel writes it: no sign, no leading zero.
	return e1 == nil && e2 == nil && pid >= 0 && strconv.Itoa(pid) == parts[1] && strconv.FormatUint(start, 10) == parts[2]
}

// self is this process, as its receipts name it.
func (h *Home) self() Proc {
	if h.selfProc == nil {
		h.selfProc = &Proc{}
		if h.pid != 0 {
			h.selfProc = procOf(h.pid)
		}
	}
	return *h.selfProc
}

// deadReceipts are the receipts of chat's marks whose process is gone
// (and that this transaction has not undone already), by key.
func (d NotesView) deadReceipts(chat string) (map[string]*receipt, error) {
	tx := d.v
	local := tx.h.local
	names, err := local.List(receiptsDir)
	if err != nil || len(names) == 0 {
		return nil, err
	}
	var dead map[string]*receipt
	for _, name := range names {
		rel := receiptsDir + "/" + name
		if !strings.HasPrefix(name, chat+".") || !validReceiptName(name) || tx.undone[rel] {
			continue
		}
		data, err := local.Get(rel)
		if err != nil {
			continue // taken away since it was listed: its process got out
		}
		r := &receipt{}
		if json.Unmarshal(data, r) != nil || r.Chat != chat {
			// Not a receipt conch wrote: doctor says so; its marks,
			// whatever they were, cannot be undone.
			continue
		}
		if r.Proc == tx.h.self() || alive(r.Proc.PID, r.Proc.Start) {
			continue // its process may still get out
		}
		if dead == nil {
			dead = map[string]*receipt{}
		}
		dead[rel] = r
	}
	return dead, nil
}

// undoDeadMarks undoes the marks of every receipt of a's chat whose
// process died before it got out: what it said is due again. Each undo
// goes only as far as the records still stand as the marks left them, so
// undoing a commit that never happened changes nothing.
func (d NotesTx) undoDeadMarks(a Actor) error {
	tx := d.tx
	if a.Person() {
		return nil
	}
	dead, err := tx.Notes().deadReceipts(a.ID)
	if err != nil || len(dead) == 0 {
		return err
	}
	me, err := tx.Chats().Get(a.ID)
	if err != nil {
		return err
	}
	keys := make([]string, 0, len(dead))
	for rel := range dead {
		keys = append(keys, rel)
	}
	slices.Sort(keys)
	for _, rel := range keys {
		if err := tx.Notes().undoReceipt(me, dead[rel]); err != nil {
			return err
		}
		if tx.undone == nil {
			tx.undone = map[string]bool{}
		}
		tx.undone[rel] = true
		if !tx.h.shared {
			tx.remove(rel) // in the same commit as the undo
		}
	}
	return nil
}

func (d NotesTx) undoReceipt(me *Chat, r *receipt) error {
	tx := d.tx
	changed, durable := false, false
	if r.Stop != nil && me.Stopped == nil {
		me.Stopped = r.Stop
		changed, durable = true, true
	}
	if me.Reply != nil && me.Reply.ID == r.Reply && len(r.Said) > 0 {
		n := len(me.Reply.Said)
		me.Reply.Said = slices.DeleteFunc(me.Reply.Said, func(k string) bool { return slices.Contains(r.Said, k) })
		changed = changed || len(me.Reply.Said) != n
	}
	for _, e := range r.Entries {
		if slices.Contains(me.Inbox, e.Entry) || slices.Contains(me.InboxStart, e.Entry) {
			continue
		}
		if e.Read {
			m, err := tx.Messages().record(e.Entry)
			if err != nil {
				return err
			}
			if m == nil || m.State != msgRead {
				continue // gone, or moved on since
			}
			m.State, m.Done = MsgWaiting, time.Time{}
			tx.put(messageRel(m.ID), m, true)
		}
		if e.Start {
			me.InboxStart = insertBySerial(me.InboxStart, e.Entry)
		} else {
			me.Inbox = insertBySerial(me.Inbox, e.Entry)
		}
		changed, durable = true, true
	}
	if changed {
		tx.Chats().save(me, durable)
	}
	if len(r.Waits) > 0 {
		ws, err := tx.Waits().of(me.ID)
		if err != nil {
			return err
		}
		back := false
		for _, w := range r.Waits {
			if w != nil && w.Ended != nil && ws.Waits[w.Target] == nil {
				ws.Waits[w.Target] = w
				back = true
			}
		}
		if back {
			tx.Waits().save(ws)
		}
	}
	if len(r.Notices) > 0 {
		cs, err := tx.Log().cursors(me.ID)
		if err != nil {
			return err
		}
		back := false
		for _, n := range slices.Backward(r.Notices) {
			// Last drained first: one notice drained twice goes back
			// the way it came.
			if cur := cs.Targets[n.Target]; cur != nil && cur.LastSeen == n.Drained && n.LastSeen < n.Drained {
				cur.LastSeen = n.LastSeen
				back = true
			}
		}
		if back {
			tx.Log().saveCursors(cs)
		}
	}
	return nil
}

// insertBySerial puts entry into list in the order of the ids (gone m_3
// after m_2), as the sends appended them.
func insertBySerial(list []string, entry string) []string {
	key := func(e string) int { return serial(strings.TrimPrefix(e, "gone ")) }
	i, _ := slices.BinarySearchFunc(list, entry, func(have, want string) int { return key(have) - key(want) })
	return slices.Insert(list, i, entry)
}

// keepReceipt writes the receipt of the marks this transaction made, once
// they are committed: on a local home in the same commit; on a shared one
// in this computer's own files first (commit).
func (d NotesTx) keepReceipt() {
	tx := d.tx
	r := tx.marks
	tx.marks = nil
	if r == nil || r.empty() {
		return
	}
	rel := receiptRel(r.Chat, r.Proc)
	if prev := tx.h.receipts[rel]; prev != nil {
		// One receipt a chat and process: a second commit of marks
		// rewrites it with both, so one unlink confirms them all.
		r = prev.merge(r)
	}
	if tx.h.shared {
		tx.receipt, tx.receiptRel = r, rel
	} else {
		tx.put(rel, r, r.durable())
	}
	tx.After(func() {
		if tx.h.receipts == nil {
			tx.h.receipts = map[string]*receipt{}
		}
		tx.h.receipts[rel] = r
	})
}

// merge is the receipt of both p's marks and then r's.
func (p *receipt) merge(r *receipt) *receipt {
	m := *p
	if m.Stop == nil {
		m.Stop = r.Stop
	}
	if len(r.Said) > 0 {
		if m.Reply != r.Reply {
			m.Reply, m.Said = r.Reply, nil
		}
		m.Said = append(slices.Clone(m.Said), r.Said...)
	}
	m.Entries = append(slices.Clone(m.Entries), r.Entries...)
	m.Waits = append(slices.Clone(m.Waits), r.Waits...)
	m.Notices = append(slices.Clone(m.Notices), r.Notices...)
	return &m
}

// writeLocalReceipt writes a shared home's receipt in this computer's own
// files, before the shared commit it stands for: killed between the two,
// it undoes marks that were never made, which changes nothing.
func (d NotesTx) writeLocalReceipt() error {
	tx := d.tx
	if tx.receipt == nil {
		return nil
	}
	data, err := marshalRecord(tx.receipt)
	if err != nil {
		return err
	}
	class := store.Live
	if tx.receipt.durable() {
		class = store.Durable
	}
	unlock, err := tx.h.local.Lock(tx.h.LockWait)
	if err != nil {
		return lockError(err)
	}
	defer unlock()
	_, err = tx.h.local.Commit([]store.Write{{Key: tx.receiptRel, Data: append(data, '\n'), Class: class}})
	return err
}

// dropUndoneLocal takes away, from this computer's own files, the
// receipts a shared commit has just undone.
func (d NotesTx) dropUndoneLocal() {
	tx := d.tx
	if !tx.h.shared || len(tx.undone) == 0 {
		return
	}
	var ws []store.Write
	for rel := range tx.undone {
		ws = append(ws, store.Write{Key: rel, Delete: true})
	}
	unlock, err := tx.h.local.Lock(tx.h.LockWait)
	if err != nil {
		tx.warn("the undone receipts were not taken away: %v", err)
		return
	}
	defer unlock()
	if _, err := tx.h.local.Commit(ws); err != nil {
		tx.warn("the undone receipts were not taken away: %v", err)
	}
}

// dropper is a store that removes one record with one system call and
// nothing after it (store.Files.Drop).
type dropper interface{ Drop(key string) error }

// Confirm takes away the receipts this process wrote: its output is out,
// and it exits 0. It is the process's last act, one unlink a receipt and
// nothing after it (no sync: a receipt a power cut brings back says again
// what was said, at most once more). A removal that fails is tried once
// more; one that fails again leaves the receipt, and what it stands for
// is said again (a home gone read-only: twice, never zero times).
func (h *Home) Confirm() error {
	var first error
	rels := make([]string, 0, len(h.receipts))
	for rel := range h.receipts {
		rels = append(rels, rel)
	}
	slices.Sort(rels)
	drop := func(rel string) error {
		if d, ok := h.local.(dropper); ok {
			return d.Drop(rel)
		}
		_, err := h.local.Commit([]store.Write{{Key: rel, Delete: true}})
		return err
	}
	for _, rel := range rels {
		err := drop(rel)
		if err != nil {
			err = drop(rel) // once more at once: a failure may pass
		}
		if err != nil && first == nil {
			first = err
		}
	}
	h.receipts = nil
	return first
}

// Unconfirmed says whether this process holds receipts it has not taken
// away.
func (h *Home) Unconfirmed() bool { return len(h.receipts) > 0 }
