package state

import (
	"slices"
)

// NewTask is what `conch task new` asks for. Folder is absolute, or "" for
// the chat's own.
type NewTask struct {
	Title, Folder, Key string
}

// Create registers a task the acting chat started.
func (ta TasksTx) Create(a Actor, in NewTask) (*Chat, error) {
	tx := ta.tx
	if a.Person() {
		return nil, needsChat("task new")
	}
	if err := validTitle(in.Title); err != nil {
		return nil, err
	}
	if err := validText("key", in.Key); err != nil {
		return nil, err
	}
	if err := maxBytes("key", in.Key, MaxKey); err != nil {
		return nil, err
	}
	parent, err := tx.Chats().Get(a.ID)
	if err != nil {
		return nil, err
	}
	folder := parent.Folder
	if in.Folder != "" {
		if folder, err = absFolder(in.Folder); err != nil {
			return nil, err
		}
	}
	key := ""
	if in.Key != "" {
		key = "task new\x00" + a.ID + "\x00" + in.Key
		if id, err := tx.key(key); err != nil {
			return nil, err
		} else if id != "" {
			if t, err := tx.Chats().Get(id); err == nil {
				return t, nil
			}
		}
	}
	id, err := tx.nextID("t")
	if err != nil {
		return nil, err
	}
	now := tx.Now()
	// A task is its parent's: yours only if the parent is (it takes the
	// parent's origin), and what came into the parent is in it too.
	t := &Chat{
		ID: id, Title: tx.Messages().scrubField(in.Title), Origin: parent.Origin, Folder: folder, Reach: reachOf(folder), Computer: tx.h.Computer, Status: StatusIdle,
		Mode: parent.Mode, Inbound: InboundAccept, Parent: parent.ID, Created: now, LastActive: now,
		Task: &TaskInfo{State: TaskRunning},
	}
	tx.Chats().inherit(t, parent)
	tx.Chats().save(t, true)
	if key != "" {
		if err := tx.setKey(key, id); err != nil {
			return nil, err
		}
	}
	tx.ripple().spawned(a, parent, t)
	return t, nil
}

// Set sets a task's state and result: its parent chat, the task itself
// or the person may.
func (ta TasksTx) Set(a Actor, id, state string, result *string) (*Chat, error) {
	tx := ta.tx
	if err := oneOf("state", state, append(slices.Clone(taskGoing), taskEnded...)); err != nil {
		return nil, err
	}
	if result != nil {
		if err := validText("result", *result); err != nil {
			return nil, err
		}
		if err := maxChars("result", *result, MaxResult); err != nil {
			return nil, err
		}
	}
	t, err := tx.Chats().Named(a, id)
	if err != nil {
		return nil, err
	}
	if !t.IsTask() {
		return nil, usagef("%s is a chat, not a task", id)
	}
	if !a.Person() && a.ID != t.ID && a.ID != t.Parent {
		return nil, noChat(id)
	}
	was := t.Task.State
	t.Task.State = state
	if result != nil {
		t.Task.Result = tx.Messages().scrubField(*result)
	}
	now := tx.Now()
	t.LastActive = now
	tx.Chats().save(t, true)
	if slices.Contains(taskEnded, state) && !slices.Contains(taskEnded, was) {
		t.Task.Ended = now
		tx.ripple().taskEnded(a, t)
		tx.ripple().stoppedWorking(a, t)
	}
	return t, nil
}

// taskGoingState says whether a task state is one still going.
func taskGoingState(s string) bool { return slices.Contains(taskGoing, s) }

// Capacity is how many tasks may run at once and how many run and wait now,
// across every chat.
type Capacity struct {
	MaxRunning  *int `json:"max_running"` // [tasks] max_running; null: no limit
	Running     int  `json:"running"`
	WaitingRoom int  `json:"waiting_room"` // waiting for room to run
	WaitingOK   int  `json:"waiting_ok"`   // waiting for the person's OK
}

// TaskRow is one task as `conch tasks` lists it.
type TaskRow struct {
	ID     string `json:"id"`
	Title  string `json:"title"`
	Parent string `json:"parent"`
	State  string `json:"state"`
	Result string `json:"result"`
	// Withheld: the result was taken away from a reader it would carry
	// outside words into; render says so in its place.
	Withheld bool `json:"-"`
}

// TaskStatus is `conch tasks`: capacity, and the tasks the actor may see
// (a chat's own; every task for the person).
type TaskStatus struct {
	Capacity Capacity  `json:"capacity"`
	Tasks    []TaskRow `json:"tasks"`
}

// Status reads the capacity from the index and the actor's tasks from their
// records.
func (ta TasksView) Status(a Actor) (*TaskStatus, error) {
	tx := ta.v
	me, err := tx.Chats().acting(a)
	if err != nil {
		return nil, err
	}
	// A chat that is not yours (an outside agent's, or one with someone
	// else's words in it) learns nothing of the person's, not even how
	// many tasks they run.
	closed := me != nil && !me.yours()
	ix, err := tx.Chats().Index()
	if err != nil {
		return nil, err
	}
	st := &TaskStatus{Capacity: Capacity{MaxRunning: tx.h.Config.Tasks.MaxRunning}, Tasks: []TaskRow{}}
	var ids []string
	for _, s := range ix.Chats {
		if !s.isTask() || closed && s.Parent != a.ID {
			continue
		}
		switch s.TaskState {
		case TaskRunning:
			st.Capacity.Running++
		case taskWaitingRoom:
			st.Capacity.WaitingRoom++
		case taskWaitingOK:
			st.Capacity.WaitingOK++
		}
		if a.Person() || s.Parent == a.ID {
			ids = append(ids, s.ID)
		}
	}
	slices.SortFunc(ids, func(x, y string) int { return serial(x) - serial(y) })
	for _, id := range ids {
		t, err := tx.Chats().Get(id)
		if err != nil {
			return nil, err
		}
		result, held := t.Task.Result, false
		if carries(t, me) {
			held = withhold(&result)
		}
		st.Tasks = append(st.Tasks, TaskRow{ID: t.ID, Title: t.Title, Parent: t.Parent, State: t.Task.State, Result: result, Withheld: held})
	}
	return st, nil
}
