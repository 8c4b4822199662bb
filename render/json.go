package render

import (
	"time"

	"github.com/conch-sh/conch/state"
)

// The JSON conch prints with --json: public views, converted here from the
// domain's values and never the records on disk, so a field the records
// keep for conch's own work (what the reader said, the steps counted, the
// resolved place, a process's start time, the inbox) never becomes a
// contract. conch help json documents every shape; the Printer stamps each
// object with "json_version" (JSONVersion). A time that is not set is left
// out, never printed as the zero time.

// JSONVersion is the version of the shapes below. Version 2 (issue 14)
// made every top-level value an object carrying it; `conch help json` says
// what changed from version 1.
const JSONVersion = 2

// ChatJSON is a chat (chat new, chat show, chat set, chat taint, task new,
// task set), as the actor may see it.
type ChatJSON struct {
	ID           string       `json:"id"`
	Title        string       `json:"title"`
	Origin       string       `json:"origin"`
	Folder       string       `json:"folder"`
	Computer     string       `json:"computer"`
	Status       string       `json:"status"`
	State        string       `json:"state"`
	Mode         string       `json:"mode"`
	Inbound      string       `json:"inbound"`
	Taint        TaintJSON    `json:"taint"`
	Archived     bool         `json:"archived"`
	Goal         string       `json:"goal"`
	Parent       string       `json:"parent"`
	Browser      bool         `json:"browser"`
	Recovery     bool         `json:"recovery"`
	MCPOnly      bool         `json:"mcp_only,omitempty"`
	Created      time.Time    `json:"created,omitzero"`
	LastActive   time.Time    `json:"last_active,omitzero"`
	Active       time.Time    `json:"active,omitzero"`
	StateVersion int64        `json:"state_version"`
	WakeCmd      string       `json:"wake_cmd,omitempty"`
	StopCmd      string       `json:"stop_cmd,omitempty"`
	Task         *TaskJSON    `json:"task,omitempty"`
	Reply        *ReplyJSON   `json:"reply"`
	LastReply    *ReplyJSON   `json:"last_reply"`
	Replies      int          `json:"replies"`
	Chain        string       `json:"chain,omitempty"`
	Wake         *WakeJSON    `json:"wake,omitempty"`
	Stopped      *StoppedJSON `json:"stopped,omitempty"`
	Watchers     []string     `json:"watchers,omitempty"`
	Waiters      []string     `json:"waiters,omitempty"`
	Wrote        []string     `json:"wrote,omitempty"`
	Waiting      []string     `json:"waiting,omitempty"`
}

// TaintJSON is what came into a chat: sources read from outside, and whose
// words came in.
type TaintJSON struct {
	Outside []string `json:"outside,omitempty"`
	Person  []string `json:"person,omitempty"`
}

// TaskJSON is what a task has beyond a chat.
type TaskJSON struct {
	State  string    `json:"state"`
	Result string    `json:"result"`
	Ended  time.Time `json:"ended,omitzero"`
}

// ReplyJSON is a reply: the running one, or the last that ended.
type ReplyJSON struct {
	ID        string    `json:"id"`
	Started   time.Time `json:"started,omitzero"`
	Person    bool      `json:"person"`
	Chain     string    `json:"chain"`
	Unwatched bool      `json:"unwatched"`
	Folder    string    `json:"folder"`
	Computer  string    `json:"computer"`
	Family    string    `json:"family"`
	Tool      string    `json:"tool,omitempty"`
	StepSince time.Time `json:"step_since,omitzero"`
	Files     []string  `json:"files"`
	LastFile  string    `json:"last_file,omitempty"`
	PID       int       `json:"pid"`
	Ended     time.Time `json:"ended,omitzero"`
	Outcome   string    `json:"outcome,omitempty"`
	Text      string    `json:"text,omitempty"`
}

// WakeJSON is a wake conch recorded before it ran the chat's wake_cmd:
// the chat's next reply is the wake's.
type WakeJSON struct {
	Reason  string    `json:"reason"`
	Message string    `json:"message,omitempty"`
	Chain   string    `json:"chain,omitempty"`
	At      time.Time `json:"at,omitzero"`
}

// StoppedJSON says who stopped the chat's running or last reply, and why,
// until the chat has heard it.
type StoppedJSON struct {
	By      string    `json:"by"`
	ByTitle string    `json:"by_title"`
	Reason  string    `json:"reason"`
	At      time.Time `json:"at,omitzero"`
	Reply   string    `json:"reply"`
}

// ChatView is the JSON of a chat as shown.
func ChatView(c *state.ChatShown) ChatJSON {
	out := ChatJSON{
		ID: c.ID, Title: c.Title, Origin: c.Origin, Folder: c.Folder, Computer: c.Computer,
		Status: c.Status, State: c.State, Mode: c.Mode, Inbound: c.Inbound,
		Taint:    TaintJSON{Outside: c.Taint.Outside, Person: c.Taint.Person},
		Archived: c.Archived, Goal: heldOr(c.Goal, c.GoalWithheld, c.ID, c.IsTask()), Parent: c.Parent, Browser: c.Browser, Recovery: c.Recovery, MCPOnly: c.MCPOnly,
		Created: c.Created, LastActive: c.LastActive, Active: c.Active, StateVersion: c.StateVersion,
		WakeCmd: c.WakeCmd, StopCmd: c.StopCmd,
		Reply: replyOrNil(c.Reply), LastReply: replyOrNil(c.LastReply), Replies: c.Replies,
		Chain:    c.Chain,
		Watchers: c.Watchers, Waiters: c.Waiters, Wrote: c.Wrote, Waiting: c.Waiting,
	}
	if t := c.Task; t != nil {
		out.Task = &TaskJSON{State: t.State, Result: heldOr(t.Result, c.ResultWithheld, c.ID, true), Ended: t.Ended}
	}
	if n := c.Stopped; n != nil {
		out.Stopped = &StoppedJSON{By: n.By, ByTitle: n.ByTitle, Reason: n.Reason, At: n.At, Reply: n.Reply}
	}
	if w := c.Wake; w != nil {
		out.Wake = &WakeJSON{Reason: w.Reason, Message: w.Message, Chain: w.Chain, At: w.At}
	}
	return out
}

// ReplyView is the JSON of a reply (reply start, reply end).
func ReplyView(r *state.Reply) ReplyJSON {
	files := r.Files
	if files == nil {
		files = []string{}
	}
	return ReplyJSON{
		ID: r.ID, Started: r.Started, Person: r.Person, Chain: r.Chain, Unwatched: r.Unwatched,
		Folder: r.Folder, Computer: r.Computer, Family: r.Family, Tool: r.Tool, StepSince: r.StepSince,
		Files: files, LastFile: r.LastFile, PID: r.PID,
		Ended: r.Ended, Outcome: r.Outcome, Text: r.Text,
	}
}

func replyOrNil(r *state.Reply) *ReplyJSON {
	if r == nil {
		return nil
	}
	v := ReplyView(r)
	return &v
}

// NoReplyJSON is reply end's answer when no reply was running.
type NoReplyJSON struct {
	ID    string     `json:"id"`
	Reply *ReplyJSON `json:"reply"`
}

// DeletedJSON is chat delete's answer.
type DeletedJSON struct {
	ID      string `json:"id"`
	Deleted bool   `json:"deleted"`
}

// ChatsJSON is conch chats list.
type ChatsJSON struct {
	Working  int          `json:"working"`
	NeedsYou int          `json:"needs_you"`
	Chats    []ListedJSON `json:"chats"`
}

// ListedJSON is one chat of the list.
type ListedJSON struct {
	ID           string          `json:"id"`
	Title        string          `json:"title"`
	State        string          `json:"state"`
	Doing        string          `json:"doing,omitempty"`
	DoingSince   time.Time       `json:"doing_since,omitzero"`
	ReplyStarted time.Time       `json:"reply_started,omitzero"`
	LastActive   time.Time       `json:"last_active,omitzero"`
	SameFolder   bool            `json:"same_folder"`
	Folder       string          `json:"folder"`
	Computer     string          `json:"computer,omitempty"`
	Files        []string        `json:"files"`
	LastFile     string          `json:"last_file,omitempty"`
	Browser      bool            `json:"browser"`
	TasksGoing   int             `json:"tasks_going"`
	From         string          `json:"from"`
	Untrusted    bool            `json:"untrusted"`
	Claims       []ListClaimJSON `json:"claims"`
}

// ListClaimJSON is one live claim of a listed chat.
type ListClaimJSON struct {
	Path   string    `json:"path"`
	Glob   bool      `json:"glob"`
	Until  time.Time `json:"until,omitzero"`
	Reason string    `json:"reason"`
}

// ChatsView is the JSON of the chat list.
func ChatsView(l *state.ChatList) ChatsJSON {
	out := ChatsJSON{Working: l.Working, NeedsYou: l.NeedsYou, Chats: make([]ListedJSON, len(l.Chats))}
	for i := range l.Chats {
		o := &l.Chats[i]
		files := o.Files
		if files == nil {
			files = []string{}
		}
		claims := make([]ListClaimJSON, len(o.Claims))
		for j, c := range o.Claims {
			claims[j] = ListClaimJSON{Path: c.Path, Glob: c.Glob, Until: c.Until, Reason: c.Reason}
		}
		v := ListedJSON{
			ID: o.ID, Title: o.Title, State: o.State, Doing: o.Doing, LastActive: o.LastActive,
			SameFolder: o.SameFolder, Folder: o.Folder, Computer: o.Computer, Files: files, LastFile: o.LastFile,
			Browser: o.Browser, TasksGoing: o.TasksGoing, From: o.From, Untrusted: o.Untrusted, Claims: claims,
		}
		if o.DoingSince != nil {
			v.DoingSince = *o.DoingSince
		}
		if o.ReplyStarted != nil {
			v.ReplyStarted = *o.ReplyStarted
		}
		out.Chats[i] = v
	}
	return out
}

// TasksJSON is conch tasks: the capacity and the tasks.
type TasksJSON struct {
	Capacity CapacityJSON  `json:"capacity"`
	Tasks    []TaskRowJSON `json:"tasks"`
}

// CapacityJSON is how many tasks may run and how many run and wait.
type CapacityJSON struct {
	MaxRunning  *int `json:"max_running"`
	Running     int  `json:"running"`
	WaitingRoom int  `json:"waiting_room"`
	WaitingOK   int  `json:"waiting_ok"`
}

// TaskRowJSON is one task of conch tasks.
type TaskRowJSON struct {
	ID     string `json:"id"`
	Title  string `json:"title"`
	Parent string `json:"parent"`
	State  string `json:"state"`
	Result string `json:"result"`
}

// TasksView is the JSON of conch tasks.
func TasksView(st *state.TaskStatus) TasksJSON {
	c := st.Capacity
	out := TasksJSON{
		Capacity: CapacityJSON{MaxRunning: c.MaxRunning, Running: c.Running, WaitingRoom: c.WaitingRoom, WaitingOK: c.WaitingOK},
		Tasks:    make([]TaskRowJSON, len(st.Tasks)),
	}
	for i, t := range st.Tasks {
		out.Tasks[i] = TaskRowJSON{ID: t.ID, Title: t.Title, Parent: t.Parent, State: t.State, Result: heldOr(t.Result, t.Withheld, t.ID, true)}
	}
	return out
}

// StatusChatJSON is the chat's state as conch status gives it.
type StatusChatJSON struct {
	ID        string    `json:"id"`
	Kind      string    `json:"kind"`
	Title     string    `json:"title"`
	State     string    `json:"state"`
	Goal      string    `json:"goal"`
	Parent    string    `json:"parent"`
	Folder    string    `json:"folder"`
	Active    time.Time `json:"active,omitzero"`
	TaskState string    `json:"task_state"`
	Result    string    `json:"result"`
}

// EventJSON is one event of a chat's signal log (SPEC §7's fixed shape).
type EventJSON struct {
	Sequence  int64     `json:"sequence"`
	Kind      string    `json:"kind"`
	Actor     string    `json:"actor"`
	ActorChat string    `json:"actor_chat"`
	At        time.Time `json:"at"`
	Summary   string    `json:"summary"`
	Outcome   string    `json:"outcome"`
}

// EventView is the JSON of an event.
func EventView(e *state.Event) EventJSON {
	return EventJSON{Sequence: e.Sequence, Kind: e.Kind, Actor: e.Actor, ActorChat: e.ActorChat, At: e.At, Summary: e.Summary, Outcome: e.Outcome}
}

// statusJSON is `conch status --json` without --since; statusSinceJSON with
// it. The shape is SPEC §7's.
type statusJSON struct {
	Chat              StatusChatJSON `json:"chat"`
	StateVersion      int64          `json:"state_version"`
	Truncated         bool           `json:"truncated"`
	HistoryGap        bool           `json:"history_gap"`
	EarliestAvailable int64          `json:"earliest_available_sequence"`
}

type statusSinceJSON struct {
	Chat              StatusChatJSON `json:"chat"`
	StateVersion      int64          `json:"state_version"`
	Events            []EventJSON    `json:"events"`
	Truncated         bool           `json:"truncated"`
	HistoryGap        bool           `json:"history_gap"`
	EarliestAvailable int64          `json:"earliest_available_sequence"`
}

// StatusView is the value `conch status --json` prints: events present
// (possibly empty) with --since, absent without.
func StatusView(st *state.Status) any {
	c := st.Chat
	task := c.Kind == "task"
	chat := StatusChatJSON{ID: c.ID, Kind: c.Kind, Title: c.Title, State: c.State, Goal: heldOr(c.Goal, c.GoalWithheld, c.ID, task),
		Parent: c.Parent, Folder: c.Folder, Active: c.Active, TaskState: c.TaskState, Result: heldOr(c.Result, c.ResultWithheld, c.ID, task)}
	if st.Since == nil {
		return statusJSON{chat, st.StateVersion, st.Truncated, st.HistoryGap, st.EarliestAvailable}
	}
	evs := make([]EventJSON, len(st.Events))
	for i := range st.Events {
		evs[i] = EventView(&st.Events[i])
	}
	return statusSinceJSON{chat, st.StateVersion, evs, st.Truncated, st.HistoryGap, st.EarliestAvailable}
}

// CompactedView is what conch chat compacted --json prints: the event it
// recorded (null when it could not be).
func CompactedView(id string, ev *state.Event) any {
	out := struct {
		Chat  string     `json:"chat"`
		Event *EventJSON `json:"event"`
	}{Chat: id}
	if ev != nil {
		e := EventView(ev)
		out.Event = &e
	}
	return out
}

// ResetView is what conch chat reset --json prints.
func ResetView(id string, dropped []string) any {
	if dropped == nil {
		dropped = []string{}
	}
	return struct {
		Chat      string   `json:"chat"`
		Unwatched []string `json:"unwatched"`
	}{id, dropped}
}

// WatchJSON is one watcher's cursor on one chat (watch, unwatch).
type WatchJSON struct {
	Watcher  string    `json:"watcher"`
	Target   string    `json:"target"`
	Watching bool      `json:"watching"`
	LastSeen int64     `json:"last_seen"`
	Notified int64     `json:"notified"`
	Material int64     `json:"material"`
	Touched  time.Time `json:"touched,omitzero"`
	Pending  bool      `json:"pending"`
}

// WatchView is the JSON of a watch.
func WatchView(w *state.Watch) WatchJSON {
	return WatchJSON{Watcher: w.Watcher, Target: w.Target, Watching: w.Watching, LastSeen: w.LastSeen,
		Notified: w.Notified, Material: w.Material, Touched: w.Touched, Pending: w.Pending}
}

// GCJSON is what conch gc did.
type GCJSON struct {
	Pruned  int `json:"pruned"`
	Expired int `json:"cursors_expired"`
	Orphans int `json:"logs_removed"`
}

// GCView is the JSON of a gc.
func GCView(r *state.GCResult) GCJSON {
	return GCJSON{Pruned: r.Pruned, Expired: r.Expired, Orphans: r.Orphans}
}

// MessageJSON is a message (chat message, message pass, message dismiss).
type MessageJSON struct {
	ID         string     `json:"id"`
	From       string     `json:"from"`
	FromTitle  string     `json:"from_title"`
	To         string     `json:"to"`
	ToTitle    string     `json:"to_title"`
	ToTask     bool       `json:"to_task"`
	Text       string     `json:"text"`
	Chain      string     `json:"chain"`
	Sent       time.Time  `json:"sent,omitzero"`
	State      string     `json:"state"`
	Why        string     `json:"why,omitempty"`
	AtStart    bool       `json:"at_start"`
	Taint      []string   `json:"taint,omitempty"`
	StartReply bool       `json:"start_reply"`
	Woke       bool       `json:"woke"`
	Passed     bool       `json:"passed,omitempty"`
	Done       time.Time  `json:"done,omitzero"`
	Answer     AnswerJSON `json:"answer"`
	Key        string     `json:"key,omitempty"`
	Watched    *bool      `json:"watched,omitempty"`
}

// AnswerJSON is what a send answered, the same for every retry of its key.
type AnswerJSON struct {
	State      string `json:"state"`
	Delivery   string `json:"delivery"`
	StartReply string `json:"start_reply,omitempty"`
	Via        string `json:"via,omitempty"` // the harness whose session resume wakes the receiver
}

// MessageView is the JSON of a message.
func MessageView(m *state.Message) MessageJSON {
	return MessageJSON{
		ID: m.ID, From: m.From, FromTitle: m.FromTitle, To: m.To, ToTitle: m.ToTitle, ToTask: m.ToTask,
		Text: m.Text, Chain: m.Chain, Sent: m.Sent, State: m.State, Why: m.Why, AtStart: m.AtStart,
		Taint: m.Taint, StartReply: m.StartReply, Woke: m.Woke, Passed: m.Passed, Done: m.Done,
		Answer: AnswerJSON{State: m.Answer.State, Delivery: m.Answer.Delivery, StartReply: m.Answer.StartReply, Via: m.Answer.Via},
		Key:    m.Key, Watched: m.Watched,
	}
}

// RequestJSON is a stop one chat asked of another (chat stop, requests,
// confirm, deny).
type RequestJSON struct {
	ID          string    `json:"id"`
	Kind        string    `json:"kind"`
	By          string    `json:"by"`
	ByTitle     string    `json:"by_title"`
	Target      string    `json:"target"`
	TargetTitle string    `json:"target_title"`
	Reply       string    `json:"reply"`
	Reason      string    `json:"reason"`
	Asked       time.Time `json:"asked,omitzero"`
	AskedPerson bool      `json:"asked_person"`
	Because     string    `json:"because,omitempty"`
	State       string    `json:"state"`
	Why         string    `json:"why,omitempty"`
	Decided     time.Time `json:"decided,omitzero"`
	Key         string    `json:"key,omitempty"`
}

// RequestView is the JSON of a request.
func RequestView(r *state.Request) RequestJSON {
	return RequestJSON{ID: r.ID, Kind: r.Kind, By: r.By, ByTitle: r.ByTitle, Target: r.Target, TargetTitle: r.TargetTitle,
		Reply: r.Reply, Reason: r.Reason, Asked: r.Asked, AskedPerson: r.AskedPerson, Because: r.Because,
		State: r.State, Why: r.Why, Decided: r.Decided, Key: r.Key}
}

// RequestsJSON is conch requests.
type RequestsJSON struct {
	Requests []RequestJSON `json:"requests"`
}

// RequestsView is the JSON of a list of requests.
func RequestsView(rs []*state.Request) RequestsJSON {
	out := RequestsJSON{Requests: make([]RequestJSON, len(rs))}
	for i, r := range rs {
		out.Requests[i] = RequestView(r)
	}
	return out
}

// StopJSON is what chat stop did.
type StopJSON struct {
	Target     string       `json:"target"`
	NotWorking bool         `json:"not_working"`
	Request    *RequestJSON `json:"request"`
}

// StopView is the JSON of a stop.
func StopView(r *state.StopResult) StopJSON {
	out := StopJSON{Target: r.Target, NotWorking: r.NotWorking}
	if r.Request != nil {
		v := RequestView(r.Request)
		out.Request = &v
	}
	return out
}

// CardJSON is one message or stop card.
type CardJSON struct {
	ID         string    `json:"id"`
	Kind       string    `json:"kind"`
	Side       string    `json:"side"`
	From       string    `json:"from"`
	FromTitle  string    `json:"from_title"`
	To         string    `json:"to"`
	ToTitle    string    `json:"to_title"`
	State      string    `json:"state"`
	Why        string    `json:"why,omitempty"`
	At         time.Time `json:"at,omitzero"`
	Text       string    `json:"text,omitempty"`
	Reason     string    `json:"reason,omitempty"`
	StartReply bool      `json:"start_reply,omitempty"`
	AskedFor   bool      `json:"asked_person,omitempty"`
}

// CardsJSON is conch messages.
type CardsJSON struct {
	Cards []CardJSON `json:"cards"`
}

// CardsView is the JSON of a chat's cards.
func CardsView(cs []state.Card) CardsJSON {
	out := CardsJSON{Cards: make([]CardJSON, len(cs))}
	for i, c := range cs {
		out.Cards[i] = CardJSON{ID: c.ID, Kind: c.Kind, Side: c.Side, From: c.From, FromTitle: c.FromTitle,
			To: c.To, ToTitle: c.ToTitle, State: c.State, Why: c.Why, At: c.At, Text: c.Text,
			Reason: c.Reason, StartReply: c.StartReply, AskedFor: c.AskedFor}
	}
	return out
}

// NotesJSON is conch notes: what it said, in its order.
type NotesJSON struct {
	Stop     *NotesStopJSON `json:"stop"`
	Reader   []string       `json:"reader"`
	Messages []DueJSON      `json:"messages"`
	Waits    []EndingJSON   `json:"waits"`
	Notices  []string       `json:"notices"`
}

// NotesStopJSON is the stop notice of conch notes: now, this reply was
// stopped (exit 5); else the last one was.
type NotesStopJSON struct {
	By     string `json:"by"`
	Reason string `json:"reason"`
	Now    bool   `json:"now"`
	Line   string `json:"line"`
}

// DueJSON is one thing the messages capability says in notes: a message
// due now, how a stop this chat asked for ended, or a chat it wrote to
// that was deleted.
type DueJSON struct {
	ID        string `json:"id"`
	Kind      string `json:"kind"`
	From      string `json:"from,omitempty"`
	FromTitle string `json:"from_title,omitempty"`
	Text      string `json:"text,omitempty"`
	NoReply   bool   `json:"no_reply"`
	Chat      string `json:"chat,omitempty"`
	Title     string `json:"title,omitempty"`
	Outcome   string `json:"outcome,omitempty"`
	Why       string `json:"why,omitempty"`
}

// EndingJSON is how a waited-for chat or task ended (a wait's ending, and
// each wait of conch notes).
type EndingJSON struct {
	Target string    `json:"target"`
	Kind   string    `json:"kind"`
	Title  string    `json:"title"`
	How    string    `json:"how"`
	Text   string    `json:"text"`
	Bare   bool      `json:"bare"`
	Ended  time.Time `json:"ended,omitzero"`
}

// NotesView is the JSON of what notes said.
func NotesView(n *state.Notes) NotesJSON {
	out := NotesJSON{
		Reader:   make([]string, len(n.Reader)),
		Messages: make([]DueJSON, len(n.Messages)),
		Waits:    make([]EndingJSON, len(n.Waits)),
		Notices:  make([]string, len(n.Notices)),
	}
	if n.Stop != nil {
		out.Stop = &NotesStopJSON{By: n.Stop.By, Reason: n.Stop.Reason, Now: n.StopNow, Line: StopLine(*n.Stop)}
	}
	for i, l := range n.Reader {
		out.Reader[i] = ReaderLine(l)
	}
	for i, m := range n.Messages {
		out.Messages[i] = DueJSON{ID: m.ID, Kind: m.Kind, From: m.From, FromTitle: m.FromTitle, Text: m.Text,
			NoReply: m.NoReply, Chat: m.Chat, Title: m.Title, Outcome: m.Outcome, Why: m.Why}
	}
	for i := range n.Waits {
		out.Waits[i] = EndingView(&n.Waits[i])
	}
	for i, x := range n.Notices {
		out.Notices[i] = NoticeLine(x)
	}
	return out
}

// EndingView is the JSON of an ended wait.
func EndingView(e *state.EndedWait) EndingJSON {
	return EndingJSON{Target: e.Target, Kind: e.Kind, Title: e.Title, How: e.How, Text: e.Text, Bare: e.Bare, Ended: e.Ended}
}

// WaitJSON is one wait (wait chat, wait task, wait cancel, and each of
// wait list).
type WaitJSON struct {
	Waiter   string      `json:"waiter"`
	Target   string      `json:"target"`
	Kind     string      `json:"kind"`
	Title    string      `json:"title"`
	State    string      `json:"state"`
	Since    time.Time   `json:"since,omitzero"`
	Chain    string      `json:"chain,omitempty"`
	Blocking bool        `json:"blocking"`
	Ending   *EndingJSON `json:"ending"`
}

// WaitsJSON is conch wait list.
type WaitsJSON struct {
	Waits []WaitJSON `json:"waits"`
}

// WaitView is the JSON of a wait.
func WaitView(v *state.WaitView) WaitJSON {
	out := WaitJSON{Waiter: v.Waiter, Target: v.Target, Kind: v.Kind, Title: v.Title, State: v.State,
		Since: v.Since, Chain: v.Chain, Blocking: v.Blocking}
	if v.Ending != nil {
		e := EndingView(v.Ending)
		out.Ending = &e
	}
	return out
}

// WaitsView is the JSON of wait list.
func WaitsView(vs []*state.WaitView) WaitsJSON {
	out := WaitsJSON{Waits: make([]WaitJSON, len(vs))}
	for i, v := range vs {
		out.Waits[i] = WaitView(v)
	}
	return out
}

// AdoptionJSON is a chat's link to an outside session file (conch adopt).
type AdoptionJSON struct {
	Chat     string    `json:"chat"`
	Harness  string    `json:"harness"`
	File     string    `json:"file"`
	Offset   int64     `json:"offset"`
	Missed   int       `json:"missed"`
	Adopted  time.Time `json:"adopted,omitzero"`
	LastLook time.Time `json:"last_look,omitzero"`
}

// AdoptionView is the JSON of an adoption.
func AdoptionView(ad *state.Adoption) AdoptionJSON {
	return AdoptionJSON{Chat: ad.Chat, Harness: ad.Harness, File: ad.File, Offset: ad.Offset,
		Missed: ad.Missed, Adopted: ad.Adopted, LastLook: ad.LastLook}
}

// ScanJSON is what one conch scan did for one adopted file.
type ScanJSON struct {
	Chat      string `json:"chat"`
	File      string `json:"file"`
	Read      int64  `json:"read"`
	Offset    int64  `json:"offset"`
	Messages  int    `json:"messages"`
	Echoes    int    `json:"echoes"`
	Missing   bool   `json:"missing"`
	Missed    int    `json:"missed"`
	Dropped   bool   `json:"dropped"`
	Blocked   bool   `json:"blocked"`
	Restarted bool   `json:"restarted"`
	Skipped   bool   `json:"skipped"`
	Error     string `json:"error,omitempty"`
}

// ScansJSON is conch scan.
type ScansJSON struct {
	Scans []ScanJSON `json:"scans"`
}

// ScansView is the JSON of a scan.
func ScansView(rs []state.ScanResult) ScansJSON {
	out := ScansJSON{Scans: make([]ScanJSON, len(rs))}
	for i, r := range rs {
		out.Scans[i] = ScanJSON{Chat: r.Chat, File: r.File, Read: r.Read, Offset: r.Offset, Messages: r.Messages,
			Echoes: r.Echoes, Missing: r.Missing, Missed: r.Missed, Dropped: r.Dropped, Blocked: r.Blocked,
			Restarted: r.Restarted, Skipped: r.Skipped, Error: r.Error}
	}
	return out
}

// DoctorJSON is what conch doctor found, and how many remain open.
type DoctorJSON struct {
	Findings []FindingJSON `json:"findings"`
	Open     int           `json:"open"`
}

// FindingJSON is one finding of doctor, and what --repair did about it.
type FindingJSON struct {
	Path     string `json:"path"`
	Problem  string `json:"problem"`
	Repaired string `json:"repaired,omitempty"`
}

// ClaimsOut is conch claims, claim and release.
type ClaimsOut struct {
	Claims []ClaimJSON `json:"claims"`
}

// GuardJSON is conch step onto a claimed file: what the hook would answer.
type GuardJSON struct {
	Guard  string `json:"guard"`
	Reason string `json:"reason"`
}

// StopLineJSON is conch step's answer when its reply was stopped.
type StopLineJSON struct {
	Stop string `json:"stop"`
}

// LinesJSON is conch top --once: the frame's rows.
type LinesJSON struct {
	Lines []string `json:"lines"`
}

// VersionJSON is conch version.
type VersionJSON struct {
	Version string `json:"version"`
}

// PromptJSON is conch prompt.
type PromptJSON struct {
	Prompt string `json:"prompt"`
}

// NotifySentJSON is conch notify test.
type NotifySentJSON struct {
	Command []string `json:"command"`
	Sent    bool     `json:"sent"`
}

// DoctorView is the JSON of what doctor found.
func DoctorView(found []state.Finding) DoctorJSON {
	out := DoctorJSON{Findings: make([]FindingJSON, len(found))}
	for i, f := range found {
		out.Findings[i] = FindingJSON{Path: f.Path, Problem: f.Problem, Repaired: f.Repaired}
		if f.Repaired == "" {
			out.Open++
		}
	}
	return out
}
