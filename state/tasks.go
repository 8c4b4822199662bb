package state

import "slices"

// NewTask is what `conch task new` asks for. Folder is absolute, or "" for
// the chat's own.
type NewTask struct {
	Title, Folder, Key string
}

// CreateTask registers a task the acting chat started.
func (tx *Tx) CreateTask(a Actor, in NewTask) (*Chat, error) {
	if a.Person() {
		return nil, usagef("task new acts as a chat: give --chat ID or set CONCH_CHAT")
	}
	if err := validTitle(in.Title); err != nil {
		return nil, err
	}
	if err := validText("key", in.Key); err != nil {
		return nil, err
	}
	parent, err := tx.Chat(a.ID)
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
			if t, err := tx.Chat(id); err == nil {
				return t, nil
			}
		}
	}
	id, err := tx.nextID("t")
	if err != nil {
		return nil, err
	}
	now := tx.Now()
	t := &Chat{
		ID: id, Title: in.Title, Folder: folder, Computer: tx.h.Computer, Status: StatusIdle,
		Mode: parent.Mode, Inbound: InboundAccept, Parent: parent.ID, Created: now, LastActive: now,
		Task: &TaskInfo{State: TaskRunning},
	}
	tx.saveChat(t, true)
	if key != "" {
		if err := tx.setKey(key, id); err != nil {
			return nil, err
		}
	}
	tx.spawned(a, parent, t)
	return t, nil
}

// SetTask sets a task's state and result: its parent chat, the task itself
// or the person may.
func (tx *Tx) SetTask(a Actor, id, state string, result *string) (*Chat, error) {
	if err := oneOf("state", state, append(slices.Clone(TaskGoing), TaskEnded...)); err != nil {
		return nil, err
	}
	if result != nil {
		if err := validText("result", *result); err != nil {
			return nil, err
		}
	}
	t, err := tx.Named(a, id)
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
		t.Task.Result = *result
	}
	now := tx.Now()
	t.LastActive = now
	tx.saveChat(t, true)
	if slices.Contains(TaskEnded, state) && !slices.Contains(TaskEnded, was) {
		t.Task.Ended = now
		tx.taskEnded(a, t)
		tx.stoppedWorking(a, t)
	}
	return t, nil
}

// TaskGoingState says whether a task state is one still going.
func TaskGoingState(s string) bool { return slices.Contains(TaskGoing, s) }
