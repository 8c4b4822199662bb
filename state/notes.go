package state

import (
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"
)

// MaxReaderLines is how many reader lines a reply hears at most.
const MaxReaderLines = 4

// Notes is what a chat must hear now (SPEC §4), in the order it is said.
// Each capability adds one source: the reader (readerLines, below),
// messages (messages.go), waits (waits.go) and notices (events.go).
type Notes struct {
	Stop     *StopNotice  `json:"stop"`     // its reply was stopped, or its last one
	StopNow  bool         `json:"stop_now"` // the running reply was stopped: end it now
	Reader   []ReaderLine `json:"reader"`
	Messages []DueMessage `json:"messages"`
	Waits    []EndedWait  `json:"waits"`
	Notices  []Notice     `json:"notices"`

	// recheck: something in the inbox can no longer be delivered as it
	// stands; NotesTx.Mark, under the lock, records why.
	recheck bool
}

// Empty says whether there is nothing to say.
func (n *Notes) Empty() bool {
	return n.Stop == nil && len(n.Reader) == 0 && len(n.Messages) == 0 && len(n.Waits) == 0 && len(n.Notices) == 0 && !n.recheck
}

// ReaderLine is one line about another chat in the same place.
type ReaderLine struct {
	Kind  string `json:"kind"` // changing, running, shared
	Key   string `json:"key"`  // what it says, for once per reply
	Chat  string `json:"chat"`
	Title string `json:"title"`
	File  string `json:"file,omitempty"` // relative to the listener's folder when inside it
	// Until is when a claim ends (kind claimed).
	Until time.Time `json:"until,omitempty"`
}

// For gathers what the acting chat must hear now. It changes nothing:
// NotesTx.Mark records what was said.
func (d NotesView) For(a Actor) (*Notes, error) {
	tx := d.v
	if a.Person() {
		return nil, needsChat("notes")
	}
	me, err := tx.Chats().Get(a.ID)
	if err != nil {
		return nil, err
	}
	n := &Notes{Reader: []ReaderLine{}, Messages: []DueMessage{}, Waits: []EndedWait{}, Notices: []Notice{}}
	if s := me.StopPending(); s != nil {
		// The reply was stopped: only this is said, and nothing is marked.
		n.Stop, n.StopNow = s, true
		return n, nil
	}
	n.Stop = me.stopHeard()
	if n.Reader, err = tx.Notes().readerLines(me); err != nil {
		return nil, err
	}
	if n.Messages, n.recheck, err = tx.Messages().due(me); err != nil {
		return nil, err
	}
	if n.Waits, err = tx.Waits().ended(me); err != nil {
		return nil, err
	}
	if n.Notices, err = tx.Log().pendingNotices(me); err != nil {
		return nil, err
	}
	if !tx.inTx() {
		// A process died with marks it said: the lock undoes them
		// (under it, NotesTx.Due has).
		if dead, err := tx.Notes().deadReceipts(me.ID); err != nil {
			return nil, err
		} else if len(dead) > 0 {
			n.recheck = true
		}
		// A commit cut short (its records half written: a disk that
		// filled under it) may hold messages for this chat: the lock
		// finishes it first.
		if tx.cutShort() != nil {
			n.recheck = true
		}
	}
	return n, nil
}

// Teller is how one caller says a chat's notes (conch notes, a hook).
type Teller struct {
	// Mark says whether what is said is marked said (conch notes --peek
	// marks nothing).
	Mark bool
	// Update runs a transaction under the lock, the caller's way (it
	// hears the transaction's warnings); nil is Home.Update.
	Update func(fn func(tx *Tx) error) error
	// Say says the notes n and returns what of them it said. tx is nil
	// when it runs without the lock (there is nothing to mark: the notes
	// are empty, a stop, or not to be marked); under the lock it may put
	// its words off until the marks are committed (tx.After).
	Say func(tx *Tx, n *Notes) (said *Notes, err error)
}

// TellNotes is the one notes protocol (SPEC §4), of conch notes and every
// hook: look without the lock (most calls have nothing to say); when there
// is something to mark, gather again under the lock, say, then mark what
// was said, in the same transaction. A stop is said and marks nothing.
func (h *Home) TellNotes(a Actor, t Teller) error {
	var n *Notes
	if err := h.View(func(tx *View) (err error) { n, err = tx.Notes().For(a); return err }); err != nil {
		return err
	}
	if n.Empty() || n.StopNow || !t.Mark {
		_, err := t.Say(nil, n)
		return err
	}
	update := t.Update
	if update == nil {
		update = h.Update
	}
	// Under the lock the notes are gathered again, and these are the ones
	// said and marked; a stop that came in between is among them.
	return update(func(tx *Tx) error {
		n, err := tx.Notes().Due(a)
		if err != nil {
			return err
		}
		said, err := t.Say(tx, n)
		if err != nil || n.StopNow {
			return err
		}
		return tx.Notes().Mark(a, said)
	})
}

// Due gathers the notes under the lock, once the marks of every
// process that died before it got out with them are undone (receipts.go):
// what such a process said is due again.
func (d NotesTx) Due(a Actor) (*Notes, error) {
	tx := d.tx
	if err := tx.Notes().undoDeadMarks(a); err != nil {
		return nil, err
	}
	return tx.Notes().For(a)
}

// Mark records that what n holds was said: reader lines once per
// reply, messages read, ended waits told, notices drained. It rechecks each
// under the lock and marks only what is still due, and writes the receipt
// of what it marked, which this process takes away once it is out
// (receipts.go).
func (d NotesTx) Mark(a Actor, n *Notes) error {
	tx := d.tx
	me, err := tx.Chats().Get(a.ID)
	if err != nil {
		return err
	}
	if n.StopNow {
		return nil
	}
	tx.marks = &receipt{Chat: me.ID, Proc: tx.h.self()}
	if n.Stop != nil && me.Stopped != nil {
		tx.marks.Stop = me.Stopped
		me.Stopped = nil
		tx.Chats().save(me, true)
	}
	if me.Reply != nil && len(n.Reader) > 0 {
		for _, l := range n.Reader {
			if !slices.Contains(me.Reply.Said, l.Key) {
				me.Reply.Said = append(me.Reply.Said, l.Key)
				tx.marks.Reply = me.Reply.ID
				tx.marks.Said = append(tx.marks.Said, l.Key)
			}
		}
		tx.Chats().save(me, false)
	}
	if err := tx.Messages().mark(me, n.Messages); err != nil {
		return err
	}
	if err := tx.Waits().mark(me, n.Waits); err != nil {
		return err
	}
	if err := tx.Log().drainNotices(me, n.Notices); err != nil {
		return err
	}
	tx.Notes().keepReceipt()
	return nil
}

// readerLines are the lines about the person's other chats working in the
// same place as this chat's reply: each chat and each shared file once per
// reply, four lines a reply at most.
func (d NotesView) readerLines(me *Chat) ([]ReaderLine, error) {
	tx := d.v
	lines := []ReaderLine{}
	if !me.trusted() {
		// Someone else's words are in it, or it is an outside agent's or
		// another app's chat, or a task of one: it is told nothing of the
		// person's chats.
		return lines, nil
	}
	r := me.Reply
	if r == nil {
		// The reader speaks to a reply, once per reply: with none running
		// there is nobody to tell.
		return lines, nil
	}
	said, place, computer, folder, myFiles := r.Said, r.Place, r.Computer, r.Folder, r.Files
	room := MaxReaderLines - len(said)
	if room <= 0 {
		return lines, nil
	}
	ix, err := tx.Chats().Index()
	if err != nil {
		return nil, err
	}
	worktrees := sync.OnceValue(tx.Chats().worktrees)
	var others []*Summary
	for _, s := range ix.Chats {
		if s.ID == me.ID || !s.trusted() {
			continue
		}
		if s.ReplyStarted.IsZero() || !sharePlace(computer, place, s.ReplyComputer, s.ReplyPlace, worktrees) {
			continue
		}
		others = append(others, s)
	}
	sort.Slice(others, func(i, j int) bool { return others[i].ID < others[j].ID })
	add := func(l ReaderLine) {
		if len(lines) >= room || slices.Contains(said, l.Key) {
			return
		}
		if slices.ContainsFunc(lines, func(had ReaderLine) bool { return had.Key == l.Key }) {
			return // each chat and each shared file once
		}
		lines = append(lines, l)
	}
	// The records the lines below are most likely told from, read side by
	// side on a home on a backend (one after another there, each is a
	// round trip).
	var ahead []string
	for _, s := range others[:min(room, len(others))] {
		ahead = append(ahead, chatRel(s.ID))
	}
	tx.h.prefetch(ahead)
	err = tx.Claims().eachLive(func(cl *Claim) bool {
		return cl.Computer == computer && claimNear(cl, folder, place, myFiles)
	}, func(l LiveClaim) bool {
		if !l.ownClaim(me) {
			add(ReaderLine{Kind: "claimed", Key: "claim " + l.Chat + " " + l.Pattern, Chat: l.Chat, Title: l.Title, File: relTo(l.Pattern, folder), Until: l.Until})
		}
		return len(lines) < room // full: no claimant more is looked at
	})
	if err != nil {
		return nil, err
	}
	for _, s := range others {
		if len(lines) >= room {
			break // nothing more is said this call: open no more records
		}
		if !s.working() {
			// Asked here, in the order the lines are said, not of every
			// chat in the place: a full reader asks no process more.
			continue
		}
		o, err := tx.Chats().Get(s.ID)
		if err != nil {
			return nil, err
		}
		or := o.Reply
		if or == nil {
			continue
		}
		key := "chat " + o.ID
		switch {
		case len(or.Files) > 0 || or.Family == "edit":
			add(ReaderLine{Kind: "changing", Key: key, Chat: o.ID, Title: o.Title, File: relTo(or.LastFile, folder)})
		case or.Family == "run":
			add(ReaderLine{Kind: "running", Key: key, Chat: o.ID, Title: o.Title})
		}
		for _, f := range myFiles {
			if slices.Contains(or.Files, f) {
				add(ReaderLine{Kind: "shared", Key: "file " + f, Chat: o.ID, Title: o.Title, File: relTo(f, folder)})
			}
		}
	}
	// A file name crosses to another chat: secrets out (a step's files are
	// not scrubbed as they are recorded, which would cost every step).
	for i := range lines {
		lines[i].File = tx.Messages().scrubField(lines[i].File)
	}
	return lines, nil
}

// claimNear says whether a claim is one a reply working in folder (place
// resolved) and having changed files must hear of: it lies in the folder,
// the folder lies in it, or it covers a file the reply changed.
func claimNear(l *Claim, folder, place string, files []string) bool {
	lit := literalDir(l.Pattern)
	if within(lit, folder) || within(lit, place) || within(folder, lit) || within(place, lit) {
		return true
	}
	return slices.ContainsFunc(files, l.covers)
}

// relTo is path p relative to dir when inside it, else p itself.
func relTo(p, dir string) string {
	if p == "" || dir == "" {
		return p
	}
	if rel, err := filepath.Rel(dir, p); err == nil && !strings.HasPrefix(rel, "..") {
		return rel
	}
	return p
}
