package state

import (
	"path/filepath"
	"sort"
	"time"
)

// ListMax is the most chats `conch chats list` shows.
const ListMax = 12

// recentWindow is how recently a chat must have been active to be listed
// when it neither works nor needs you.
const recentWindow = 72 * time.Hour

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
	Files        []string   `json:"files"`
	LastFile     string     `json:"last_file,omitempty"`
	Browser      bool       `json:"browser"`
	TasksGoing   int        `json:"tasks_going"`
	From         string     `json:"from"` // "", "task", "routine", "app:NAME"
	Untrusted    bool       `json:"untrusted"`
}

// ChatList is what `conch chats list` says.
type ChatList struct {
	Working  int         `json:"working"`
	NeedsYou int         `json:"needs_you"`
	Chats    []OtherChat `json:"chats"`
}

// ListChats lists the person's other chats, as the actor may see them.
func (tx *Tx) ListChats(a Actor, workingOnly bool) (*ChatList, error) {
	me, err := tx.Acting(a)
	if err != nil {
		return nil, err
	}
	if me != nil && !me.OffersTogether() {
		return nil, refusedf("chats list is not offered to chat %s", me.ID)
	}
	ix, err := tx.ReadIndex()
	if err != nil {
		return nil, err
	}
	now := tx.Now()
	type row struct {
		s     *Summary
		state string
	}
	var busy, needs, recent []row
	going := map[string]int{}
	for _, s := range ix.Chats {
		if s.IsTask() && TaskGoingState(s.TaskState) {
			going[s.Parent]++
		}
	}
	for _, s := range ix.Chats {
		if me != nil && s.ID == me.ID {
			continue
		}
		ownTask := me != nil && s.IsTask() && s.Parent == me.ID
		if !s.Yours() && !ownTask {
			continue
		}
		st := s.State()
		if s.Archived && st != StatusWorking {
			continue
		}
		switch {
		case st == StatusWorking:
			busy = append(busy, row{s, st})
		case st == StatusNeedsYou:
			needs = append(needs, row{s, st})
		case !workingOnly && now.Sub(s.LastActive) <= recentWindow:
			recent = append(recent, row{s, st})
		}
	}
	sort.Slice(busy, func(i, j int) bool {
		return newer(busy[i].s.ReplyStarted, busy[j].s.ReplyStarted, busy[i].s.ID, busy[j].s.ID)
	})
	sort.Slice(needs, func(i, j int) bool {
		return newer(needs[i].s.LastActive, needs[j].s.LastActive, needs[i].s.ID, needs[j].s.ID)
	})
	sort.Slice(recent, func(i, j int) bool {
		return newer(recent[i].s.LastActive, recent[j].s.LastActive, recent[i].s.ID, recent[j].s.ID)
	})
	out := &ChatList{Working: len(busy), NeedsYou: len(needs), Chats: []OtherChat{}}
	rows := busy
	if !workingOnly {
		rows = append(append(rows, needs...), recent...)
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
	worktrees := tx.Worktrees()
	for _, r := range rows {
		s := r.s
		o := OtherChat{
			ID: s.ID, Title: s.Title, State: r.state, LastActive: s.LastActive, Folder: s.Folder,
			Files: []string{}, Browser: s.Browser, TasksGoing: going[s.ID], Untrusted: s.Outside,
			From: s.Origin,
		}
		if s.IsTask() {
			o.From = "task"
		}
		place, computer := "", s.Computer
		if r.state == StatusWorking && !s.ReplyStarted.IsZero() {
			// Only a working chat's record is opened: for its step and files.
			c, err := tx.Chat(s.ID)
			if err != nil {
				return nil, err
			}
			if c.Reply != nil {
				rs, ss := c.Reply.Started, c.Reply.StepSince
				o.ReplyStarted, o.DoingSince = &rs, &ss
				o.Doing, o.Files, o.LastFile = c.Reply.Family, c.Reply.Files, c.Reply.LastFile
				o.Folder, place, computer = c.Reply.Folder, c.Reply.Place, c.Reply.Computer
				o.LastActive = c.Active()
			}
		}
		if me != nil {
			if place == "" {
				place = placeOf(s.Folder)
			}
			o.SameFolder = samePlace(myComputer, myPlace, computer, place, worktrees)
		}
		out.Chats = append(out.Chats, o)
	}
	return out, nil
}

func newer(a, b time.Time, ida, idb string) bool {
	if !a.Equal(b) {
		return a.After(b)
	}
	return ida > idb
}

// Worktrees is conch's own folder of task worktrees, resolved.
func (tx *Tx) Worktrees() string {
	return placeOf(filepath.Join(tx.h.Dir, "worktrees"))
}
