package state

import (
	"errors"
	"fmt"
	"time"

	"github.com/conch-sh/conch/state/store"
)

// Index is CONCH_HOME/index.json: a summary of every chat, written when a
// chat changes other than by a step (a reply's start and end, a status, a
// title), so that listing a thousand chats does not open a thousand records.
type Index struct {
	Chats map[string]*Summary `json:"chats"`
}

// Summary is what the index keeps of one chat.
type Summary struct {
	ID         string    `json:"id"`
	Title      string    `json:"title"`
	Origin     string    `json:"origin"`
	Parent     string    `json:"parent,omitempty"`
	Status     string    `json:"status"`
	Archived   bool      `json:"archived,omitempty"`
	Browser    bool      `json:"browser,omitempty"`
	Outside    bool      `json:"outside,omitempty"`
	Person     bool      `json:"person,omitempty"`
	Folder     string    `json:"folder"`
	Computer   string    `json:"computer"`
	LastActive time.Time `json:"last_active"`
	TaskState  string    `json:"task_state,omitempty"`
	Waits      bool      `json:"waits,omitempty"`    // it let go of its reply to wait for something
	Incoming   bool      `json:"incoming,omitempty"` // a start-reply message is on its way in
	Recovery   bool      `json:"recovery,omitempty"`
	MCPOnly    bool      `json:"mcp_only,omitempty"`
	// The running reply, if any.
	ReplyStarted  time.Time `json:"reply_started,omitempty"`
	ReplyPlace    string    `json:"reply_place,omitempty"`
	ReplyComputer string    `json:"reply_computer,omitempty"`
	ReplyPID      int       `json:"reply_pid,omitempty"`
	ReplyPIDStart uint64    `json:"reply_pid_start,omitempty"`

	remote bool // the reply runs on another computer (set as it is read)
}

func summarize(c *Chat) *Summary {
	s := &Summary{
		ID: c.ID, Title: c.Title, Origin: c.Origin, Parent: c.Parent, Status: c.Status,
		Archived: c.Archived, Browser: c.Browser, Outside: len(c.Taint.Outside) > 0,
		Person: len(c.Taint.Person) > 0, Folder: c.Folder, Computer: c.Computer,
		LastActive: c.LastActive, Recovery: c.Recovery, MCPOnly: c.MCPOnly, Waits: len(c.Waiting) > 0,
		Incoming: c.waking() && c.Wake.Reason == "message",
	}
	if c.Task != nil {
		s.TaskState = c.Task.State
	}
	if r := c.Reply; r != nil {
		s.ReplyStarted, s.ReplyPlace, s.ReplyComputer = r.Started, r.Place, r.Computer
		s.ReplyPID, s.ReplyPIDStart, s.remote = r.PID, r.PIDStart, r.remote
	}
	return s
}

// Yours, OffersTogether and the rest, asked of a summary, answer as the
// chat's own methods do.
func (s *Summary) isTask() bool { return s.TaskState != "" }

func (s *Summary) yours() bool {
	return !s.isTask() && !s.Person && (s.Origin == "" || isApp(s.Origin) || s.Origin == "routine")
}

func (s *Summary) offersTogether() bool {
	return !s.isTask() && !s.Person && (s.Origin == "" || isApp(s.Origin))
}

// trusted answers as Chat.Trusted: a task counts, when it is its parent's
// and its parent is yours.
func (s *Summary) trusted() bool { return !s.Person && originRank(s.Origin) > 0 }

// working says whether a reply runs now: its harness process is still
// there. From the index this is the cheap check (is there a process with
// that pid?), which a list of a thousand chats can afford; a pid taken over
// by a stranger is caught where a chat's record is read (Reply.Alive).
func (s *Summary) working() bool {
	return !s.ReplyStarted.IsZero() && (s.remote || procExists(s.ReplyPID))
}

// state is the chat's state as the chat list has it.
func (s *Summary) state() string { return s.stateWith(procExists) }

// stateWith is State, asking exists whether the reply's process is there.
func (s *Summary) stateWith(exists func(pid int) bool) string {
	if !s.ReplyStarted.IsZero() {
		if s.remote || exists(s.ReplyPID) {
			return StatusWorking
		}
		return StatusStopped
	}
	if s.isTask() {
		return taskListState(s.TaskState)
	}
	return s.Status
}

// Index is the index as it is now.
func (ch ChatsView) Index() (*Index, error) {
	tx := ch.v
	if tx.index != nil {
		return tx.index, nil
	}
	ix, err := tx.Chats().readIndexFile()
	if err != nil {
		return nil, err
	}
	if ix.Chats == nil {
		ix.Chats = map[string]*Summary{}
	}
	for id, s := range ix.Chats {
		if s == nil || s.ID != id {
			return nil, &CorruptError{Path: tx.h.where("index.json"), Err: fmt.Errorf("its entry %q is not that chat's summary", id)}
		}
		s.remote = elsewhere(s.ReplyComputer, tx.h.Computer)
	}
	tx.index = ix
	return ix, nil
}

// updateIndex brings the index in line with the chats the transaction
// changed; it is written only when a summary changed (so a step, which
// changes only its reply's live state, leaves it alone).
func (dom ChatsTx) updateIndex() error {
	tx := dom.tx
	changed := false
	var ix *Index
	for rel := range tx.recs.dirty {
		c, ok := tx.recs.have[rel].(*Chat)
		if !ok {
			continue
		}
		s := summarize(c)
		if was := tx.recs.loaded[c.ID]; was != nil && *was == *s {
			continue // its summary is as it was read: the index has it
		}
		if ix == nil {
			var err error
			if ix, err = tx.Chats().Index(); err != nil {
				return err
			}
		}
		if old := ix.Chats[c.ID]; old == nil || *old != *s {
			ix.Chats[c.ID] = s
			changed = true
		}
	}
	for rel := range tx.recs.gone {
		if id, ok := chatIDOf(rel); ok {
			if ix == nil {
				var err error
				if ix, err = tx.Chats().Index(); err != nil {
					return err
				}
			}
			if _, there := ix.Chats[id]; there {
				delete(ix.Chats, id)
				changed = true
			}
		}
	}
	if changed {
		tx.put("index.json", ix, true)
	}
	return nil
}

// readIndexFile reads index.json straight into its fast form: through
// load, encoding/json would first scan the whole file once more.
func (ch ChatsView) readIndexFile() (*Index, error) {
	tx := ch.v
	p := tx.h.where("index.json")
	data, err := tx.h.store.Get("index.json")
	if errors.Is(err, store.ErrNotFound) {
		return &Index{}, nil
	}
	if err != nil {
		return nil, readError(p, err)
	}
	ix := &Index{}
	if err := ix.UnmarshalJSON(data); err != nil {
		return nil, &CorruptError{Path: p, Err: err}
	}
	return ix, nil
}

// scanIndex calls fn with each chat's summary, as ChatsView.Index would give
// them, without keeping them: fn is handed one summary that the next call
// overwrites, so it copies what it keeps. Listing a thousand chats reads
// them this way, without a thousand summaries on the heap.
func (ch ChatsView) scanIndex(fn func(s *Summary)) error {
	tx := ch.v
	if tx.index != nil {
		for _, s := range tx.index.Chats {
			fn(s)
		}
		return nil
	}
	p := tx.h.where("index.json")
	data, err := tx.h.store.Get("index.json")
	if errors.Is(err, store.ErrNotFound) {
		return nil
	}
	if err != nil {
		return readError(p, err)
	}
	lines, err := indexLines(data)
	if err != nil {
		return &CorruptError{Path: p, Err: err}
	}
	var s Summary
	prev := ""
	for i, line := range lines {
		if err := parseSummaryInto(&s, line); err != nil {
			return &CorruptError{Path: p, Err: fmt.Errorf("index entry %d: %w", i+1, err)}
		}
		// conch writes the entries in order of id: one out of order (or
		// twice) was not written by it. (No map of ids seen: in a new
		// process every fresh page is a fault.)
		if s.ID <= prev {
			return &CorruptError{Path: p, Err: fmt.Errorf("index entry %d: %s is out of order or twice", i+1, s.ID)}
		}
		prev = s.ID
		s.remote = elsewhere(s.ReplyComputer, tx.h.Computer)
		fn(&s)
	}
	return nil
}

// RunningIn is the chat whose running reply runs in the harness process
// pid (that started at start, when known) on this computer: the chat of
// the session that process serves, as a hook recorded it. A subagent's
// chat, or a task, that runs in the same process is passed over; "" when
// no chat, or more than one main chat, claims the process.
func (ch ChatsView) RunningIn(pid int, start uint64) (string, error) {
	tx := ch.v
	if pid <= 0 {
		return "", nil
	}
	ix, err := tx.Chats().Index()
	if err != nil {
		return "", err
	}
	found := ""
	for id, s := range ix.Chats {
		if s.ReplyStarted.IsZero() || s.remote || s.ReplyPID != pid || s.Parent != "" || s.isTask() {
			continue
		}
		if start != 0 && s.ReplyPIDStart != 0 && s.ReplyPIDStart != start {
			continue // the pid was taken over since
		}
		if found != "" {
			return "", nil
		}
		found = id
	}
	return found, nil
}
