package state

import (
	"fmt"
	"path/filepath"
	"sort"
	"sync"
	"time"

	"github.com/conch-sh/conch/state/store"
)

// ListMax is the most chats `conch chats list` shows.
const ListMax = 12

// RecentWindow is how recently a chat must have been active to be listed
// when it neither works nor needs you.
const RecentWindow = 72 * time.Hour

// OtherChat is one row of `conch chats list`.
type OtherChat struct {
	ID           string     `json:"id"`
	Title        string     `json:"title"`
	State        string     `json:"state"`
	Doing        string     `json:"doing,omitempty"` // the step family, while working
	DoingSince   *time.Time `json:"doing_since,omitempty"`
	ReplyStarted *time.Time `json:"reply_started,omitempty"`
	LastActive   time.Time  `json:"last_active"`
	SameFolder   bool       `json:"same_folder"`
	Folder       string     `json:"folder"`
	Computer     string     `json:"computer,omitempty"` // set when it is another computer than this one
	Files        []string   `json:"files"`
	LastFile     string     `json:"last_file,omitempty"`
	Browser      bool       `json:"browser"`
	TasksGoing   int        `json:"tasks_going"`
	From         string     `json:"from"` // "", "task", "routine", "app:NAME"
	Untrusted    bool       `json:"untrusted"`
	MCPOnly      bool       `json:"mcp_only,omitempty"` // known only through conch mcp: its hooks do not report
	Claims       []ClaimRef `json:"claims"`             // its live claims (issue 18)
}

// ClaimRef is one claim of a listed chat.
type ClaimRef struct {
	Path   string    `json:"path"`
	Glob   bool      `json:"glob"`
	Until  time.Time `json:"until"`
	Reason string    `json:"reason"`
}

// ChatList is what `conch chats list` says.
type ChatList struct {
	Working  int         `json:"working"`
	NeedsYou int         `json:"needs_you"`
	Chats    []OtherChat `json:"chats"`
}

// List lists the person's other chats, as the actor may see them.
func (ch ChatsView) List(a Actor, workingOnly bool) (*ChatList, error) {
	tx := ch.v
	me, err := tx.Chats().acting(a)
	if err != nil {
		return nil, err
	}
	if me != nil && !me.offersTogether() {
		return nil, refusedf("chats list is not offered to chat %s", me.ID)
	}
	if err := tx.cutShort(); err != nil {
		return nil, err
	}
	now := tx.Now()
	// Each group keeps only its first ListMax rows, in order, as it goes:
	// a thousand chats are counted, not gathered and sorted.
	busy := topRows{byReply: true}
	var needs, recent topRows
	going := map[string]int{}
	// Chats run by one harness share its process: each pid is asked once.
	var pids procMemo
	err = tx.Chats().scanIndex(func(s *Summary) {
		if s.isTask() && taskGoingState(s.TaskState) {
			going[s.Parent]++
		}
		if me != nil && s.ID == me.ID {
			return
		}
		ownTask := me != nil && s.isTask() && s.Parent == me.ID
		if !s.yours() && !ownTask {
			return
		}
		st := s.stateWith(pids.exists)
		if s.Archived && st != StatusWorking {
			return
		}
		switch {
		case st == StatusWorking:
			busy.add(s, st)
		case st == StatusNeedsYou:
			needs.add(s, st)
		case !workingOnly && now.Sub(s.LastActive) <= RecentWindow:
			recent.add(s, st)
		}
	})
	if err != nil {
		return nil, err
	}
	out := &ChatList{Working: busy.n, NeedsYou: needs.n, Chats: []OtherChat{}}
	rows := append(make([]row, 0, 3*ListMax), busy.rows()...)
	if !workingOnly {
		rows = append(append(rows, needs.rows()...), recent.rows()...)
	}
	if len(rows) > ListMax {
		rows = rows[:ListMax]
	}
	var myPlace, myComputer string
	if me != nil {
		myPlace, myComputer = placeOf(me.Folder), me.Computer
		if me.Reply != nil {
			myPlace, myComputer = me.Reply.Place, me.Reply.Computer
		}
	}
	worktrees := sync.OnceValue(tx.Chats().worktrees)
	// Chats run by one harness share its process: look each up once.
	type proc struct {
		pid    int
		start  uint64
		remote bool
	}
	seen := map[proc]bool{}
	replyAlive := func(r *Reply) bool {
		k := proc{r.PID, r.PIDStart, r.remote}
		is, ok := seen[k]
		if !ok {
			is = r.Alive()
			seen[k] = is
		}
		return is
	}
	// The working chats' records are opened below, one after another: on
	// a home on a backend they are read side by side first.
	var working []string
	for _, r := range rows {
		if r.state == StatusWorking && !r.s.ReplyStarted.IsZero() {
			working = append(working, chatRel(r.s.ID))
		}
	}
	tx.h.prefetch(working)
	for _, r := range rows {
		s := &r.s
		o := OtherChat{
			ID: s.ID, Title: s.Title, State: r.state, LastActive: s.LastActive, Folder: s.Folder,
			Files: []string{}, Browser: s.Browser, TasksGoing: going[s.ID], Untrusted: s.Outside,
			From: s.Origin, MCPOnly: s.MCPOnly,
		}
		if s.isTask() {
			o.From = "task"
		}
		place, computer := "", s.Computer
		if r.state == StatusWorking && !s.ReplyStarted.IsZero() {
			// Only a working chat's record is opened: for its step and files.
			c, err := tx.Chats().Get(s.ID)
			if err != nil {
				return nil, err
			}
			// The record's check also tells a pid a stranger took over.
			o.State = c.stateWith(replyAlive)
			if c.Reply != nil {
				rs, ss := c.Reply.Started, c.Reply.StepSince
				o.ReplyStarted, o.DoingSince = &rs, &ss
				o.Doing, o.Files, o.LastFile = c.Reply.Family, c.Reply.Files, c.Reply.LastFile
				if me != nil {
					// Files cross to the chat asking: secrets out.
					o.Files, o.LastFile = tx.Messages().scrubFields(o.Files), tx.Messages().scrubField(o.LastFile)
				}
				o.Folder, place, computer = c.Reply.Folder, c.Reply.Place, c.Reply.Computer
				o.LastActive = c.active()
			}
		}
		if elsewhere(computer, tx.h.Computer) {
			// Its folder is on that computer: never the same as one here.
			o.Computer = computer
		} else if me != nil {
			if place == "" {
				place = placeOf(s.Folder)
			}
			o.SameFolder = sharePlace(myComputer, myPlace, computer, place, worktrees)
		}
		out.Chats = append(out.Chats, o)
	}
	if len(out.Chats) == 0 {
		return out, nil
	}
	live, err := tx.Claims().live()
	if err != nil {
		return nil, err
	}
	for i := range out.Chats {
		o := &out.Chats[i]
		o.Claims = []ClaimRef{}
		for _, l := range claimsOf(live, o.ID) {
			o.Claims = append(o.Claims, ClaimRef{Path: l.Pattern, Glob: l.Glob, Until: l.Until, Reason: l.Reason})
		}
	}
	return out, nil
}

func newer(a, b time.Time, ida, idb string) bool {
	if !a.Equal(b) {
		return a.After(b)
	}
	return ida > idb
}

// worktrees is conch's own folder of task worktrees, resolved.
func (ch ChatsView) worktrees() string {
	tx := ch.v
	return placeOf(filepath.Join(tx.h.Dir, "worktrees"))
}

type row struct {
	s     Summary
	state string
}

// topRows keeps the ListMax newest rows of a group (newest first, by the
// reply's start when byReply, else by last activity; ties by id) and counts
// every row it was offered. The rows live in the value itself: a thousand
// chats offered make no allocation.
type topRows struct {
	byReply bool
	kept    [ListMax]row
	len     int
	n       int
}

func (t *topRows) at(s *Summary) time.Time {
	if t.byReply {
		return s.ReplyStarted
	}
	return s.LastActive
}

func (t *topRows) add(s *Summary, state string) {
	t.n++
	at := t.at(s)
	i := sort.Search(t.len, func(i int) bool {
		o := &t.kept[i].s
		return newer(at, t.at(o), s.ID, o.ID)
	})
	if i >= ListMax {
		return
	}
	if t.len < ListMax {
		t.len++
	}
	copy(t.kept[i+1:t.len], t.kept[i:t.len-1])
	t.kept[i] = row{*s, state} // s is the scan's: the next chat overwrites it
}

func (t *topRows) rows() []row { return t.kept[:t.len] }

// procMemo asks the system once per pid whether a process is there.
type procMemo struct {
	seen map[int]bool
}

func (m *procMemo) exists(pid int) bool {
	if is, ok := m.seen[pid]; ok {
		return is
	}
	if m.seen == nil {
		m.seen = map[int]bool{}
	}
	is := procExists(pid)
	m.seen[pid] = is
	return is
}

// cutShort refuses a lock-free read of the index while a commit cut short
// stands unfinished (issue 29): its records may be written and the index
// not (a disk that filled under it), and the list would disagree with
// them. The next command that writes finishes it first.
func (tx *View) cutShort() error {
	if tx.inTx() {
		return nil // under the lock, finished already
	}
	f, ok := tx.h.store.(store.Journaled)
	if !ok {
		return nil
	}
	cut, err := f.CutShort()
	if err != nil || !cut {
		return err
	}
	return fmt.Errorf("a commit was cut short and is not finished (%s): the list could disagree with the records; the next conch command that writes finishes it (if it cannot, the disk may be full: free some space)", tx.h.where(store.JournalName))
}
