package state

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/conch-sh/conch/state/store"
)

// The signal log (SPEC §7). Every chat and task has a durable log of typed
// state changes under CONCH_HOME/log/ID/: one file per event, named by its
// zero-padded sequence, and a head (head.json) with the largest sequence
// ever recorded and the pruned watermark. Appending writes one event and the
// head; reading `--since N` opens the head and the events it returns, never
// the whole log.

// The kinds of event, and whether each notifies watchers.
const (
	kindHuman           = "human_direct_message"
	kindUpstreamMissing = "upstream_missing"
	KindGoal            = "goal_changed"
	kindSpawned         = "child_spawned"
	kindCompleted       = "run_completed"
	kindFailed          = "run_failed"
	KindCompacted       = "compacted"
	kindAdopted         = "adopted"
)

// notifies says which kinds notify watchers; the others are log only (a
// child_spawned seeds its parent's cursor instead).
var notifies = map[string]bool{
	kindHuman: true, kindUpstreamMissing: true, KindGoal: true,
	kindSpawned: false, kindCompleted: false, kindFailed: false, KindCompacted: false, kindAdopted: false,
}

// Who caused an event.
const (
	ActorHuman  = "human"  // the person's own message, or a command with no chat acting
	ActorAgent  = "agent"  // a command a chat ran (actor_chat is that chat)
	ActorSystem = "system" // conch's own work
)

// How a run that failed ended.
const (
	runCancelled = "cancelled"
	runTimeout   = "timeout"
	runError     = "error"
)

// MaxSummary is the longest event summary, in characters.
const MaxSummary = 200

// Event is one state change in a chat's log. Its summary is a short
// description, never a message body.
type Event struct {
	Sequence  int64     `json:"sequence"`
	Kind      string    `json:"kind"`
	Actor     string    `json:"actor"`
	ActorChat string    `json:"actor_chat"` // the chat that caused it; "" for the person or conch
	At        time.Time `json:"at"`
	Summary   string    `json:"summary"`
	Outcome   string    `json:"outcome"` // run_failed: cancelled, timeout or error; else ""
}

// head is a chat's log head, CONCH_HOME/log/ID/head.json: the largest
// sequence ever recorded (its state_version, which never goes back) and
// the pruned watermark (every sequence up to it is gone).
type head struct {
	StateVersion int64     `json:"state_version"`
	Pruned       int64     `json:"pruned"`
	Touched      time.Time `json:"touched"`
}

func logDir(id string) string  { return "log/" + id }
func headRel(id string) string { return "log/" + id + "/head.json" }
func eventRel(id string, seq int64) string {
	return fmt.Sprintf("log/%s/%012d.json", id, seq)
}

// logTx is what a transaction knows of the log beyond its records:
// whether it recorded an event (a commit that fails is then tried again
// without), whether it records none (off: the error that made the first
// try fail), and whether it looked at the retention clock.
type logTx struct {
	recorded  bool
	off       error
	gcChecked bool
}

// isEventRel says whether rel is an event's file (log/ID/NNNNNNNNNNNN.json).
func isEventRel(rel string) bool {
	rest, ok := strings.CutPrefix(rel, "log/")
	if !ok {
		return false
	}
	id, file, ok := strings.Cut(rest, "/")
	if !ok || !ValidID(id) {
		return false
	}
	name, ok := strings.CutSuffix(file, ".json")
	if !ok || len(name) != 12 {
		return false
	}
	for _, r := range name {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

// head reads a chat's log head (a zero head if it has no log yet).
func (l LogView) head(id string) (*head, error) {
	tx := l.v
	h, err := load[head](tx, headRel(id))
	if err != nil {
		return nil, err
	}
	if h == nil {
		h = &head{}
	}
	return h, nil
}

// Version is the largest sequence in the chat's log.
func (l LogView) Version(id string) (int64, error) {
	tx := l.v
	h, err := tx.Log().head(id)
	if err != nil {
		return 0, err
	}
	return h.StateVersion, nil
}

// actorOf is who an Actor is in the log.
func actorOf(a Actor) (kind, chat string) {
	if a.Person() {
		return ActorHuman, ""
	}
	return ActorAgent, a.ID
}

// Record appends an event to c's log and tells its watchers. Other
// capabilities (adopted sessions, scans) call it. Recording is best-effort:
// what goes wrong is a warning on the transaction, never a failure.
func (lo LogTx) Record(c *Chat, kind, actorKind, actorChat, summary, outcome string) {
	tx := lo.tx
	if _, known := notifies[kind]; !known {
		tx.warn("event kind %q is not one conch knows; not recorded", kind)
		return
	}
	if !slices.Contains([]string{ActorHuman, ActorAgent, ActorSystem}, actorKind) {
		tx.warn("event actor %q is not human, agent or system; not recorded", actorKind)
		return
	}
	if !slices.Contains([]string{"", runCancelled, runTimeout, runError}, outcome) {
		tx.warn("event outcome %q is not cancelled, timeout or error; not recorded", outcome)
		return
	}
	tx.Log().record(c, kind, actorKind, actorChat, summary, outcome)
}

// record appends an event to c's log, tells c's watchers when the kind
// notifies, and starts the retention work when it is due. It returns the
// event, or nil when it could not be recorded (said as a warning).
func (lo LogTx) record(c *Chat, kind, actor, actorChat, summary, outcome string) *Event {
	tx := lo.tx
	if tx.logs.off != nil {
		tx.warn("an event in the log of chat %s was not recorded: %v", c.ID, tx.logs.off)
		return nil
	}
	tx.logs.recorded = true
	h, err := tx.Log().head(c.ID)
	if err != nil {
		tx.warn("an event in the log of chat %s was not recorded: %v", c.ID, err)
		return nil
	}
	now := tx.Now()
	ev := &Event{
		Sequence: h.StateVersion + 1, Kind: kind, Actor: actor, ActorChat: actorChat,
		At: now, Summary: cleanSummary(summary), Outcome: outcome,
	}
	tx.put(eventRel(c.ID, ev.Sequence), ev, true)
	h.StateVersion, h.Touched = ev.Sequence, now
	tx.put(headRel(c.ID), h, true)
	if notifies[kind] {
		tx.Log().notify(c, ev)
	}
	tx.Log().gcIfDue()
	return ev
}

// cleanSummary keeps a summary to one short line: control characters become
// spaces, white space folds, and it is cut to MaxSummary characters.
func cleanSummary(s string) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	s = strings.Join(strings.FieldsFunc(s, func(r rune) bool { return unicode.IsSpace(r) || unicode.IsControl(r) }), " ")
	if utf8.RuneCountInString(s) > MaxSummary {
		s = string([]rune(s)[:MaxSummary-1]) + "…"
	}
	return s
}

// logSpawn: a chat was made with a parent, or a task started. The event
// goes in the child's own log, and the parent's cursor on the child is
// seeded at the child's spawn version.
func (lo LogTx) spawn(a Actor, parent, child *Chat) {
	tx := lo.tx
	kind, chat := actorOf(a)
	summary := "chat spawned by chat " + parent.ID
	if child.IsTask() {
		summary = "task started by chat " + parent.ID
	}
	tx.Log().record(child, kindSpawned, kind, chat, summary, "")
	tx.Chats().watch(parent, child)
}

// logGoal: the goal was set, changed or removed. The goal's words stay out
// of the log: a watcher reads them with chat show.
func (lo LogTx) goal(a Actor, c *Chat) {
	tx := lo.tx
	kind, chat := actorOf(a)
	summary := "goal set"
	if c.Goal == "" {
		summary = "goal removed"
	}
	tx.Log().record(c, KindGoal, kind, chat, summary, "")
}

// logHuman: the person's own message started a reply of c.
func (lo LogTx) human(c *Chat) {
	tx := lo.tx
	summary := "the person wrote to it directly"
	if isApp(c.Origin) {
		summary += ", via " + strings.TrimPrefix(c.Origin, "app:")
	}
	tx.Log().record(c, kindHuman, ActorHuman, "", summary, "")
}

// logReplyEnd: a reply of c ended. Only a child's reply is a run worth
// logging (a task's run is the task, logged when it ends).
func (lo LogTx) replyEnd(a Actor, c *Chat, r *Reply) {
	tx := lo.tx
	if c.IsTask() || c.Parent == "" {
		return
	}
	kind, chat := actorOf(a)
	ev, outcome, summary := kindCompleted, "", "reply finished"
	switch r.Outcome {
	case outcomeNeedsYou:
		summary = "reply ended: it needs the person"
	case OutcomeStopped:
		ev, outcome, summary = kindFailed, runCancelled, "reply stopped"
	case OutcomeFailed:
		ev, outcome, summary = kindFailed, runError, "reply failed"
	case outcomeGone:
		ev, outcome, summary = kindFailed, runError, "reply did not finish: its process is gone"
		kind, chat = ActorSystem, ""
	}
	tx.Log().record(c, ev, kind, chat, summary, outcome)
}

// logTaskEnd: a task reached an ended state.
func (lo LogTx) taskEnd(a Actor, t *Chat) {
	tx := lo.tx
	kind, chat := actorOf(a)
	ev, outcome := kindCompleted, ""
	switch t.Task.State {
	case TaskFailed, TaskInterrupted:
		ev, outcome = kindFailed, runError
	case TaskStopped:
		ev, outcome = kindFailed, runCancelled
	}
	tx.Log().record(t, ev, kind, chat, "task "+t.Task.State, outcome)
}

// logOnDelete: c is being deleted. Its cursors go both ways (the ones it
// keeps on others, the ones others keep on it), and its log with it.
func (lo LogTx) onDelete(c *Chat) error {
	tx := lo.tx
	if _, err := tx.Log().dropCursorsOf(c.ID); err != nil {
		return err
	}
	for _, w := range c.Watchers {
		cs, err := tx.Log().cursors(w)
		if err != nil {
			return err
		}
		if _, there := cs.Targets[c.ID]; there {
			delete(cs.Targets, c.ID)
			tx.Log().saveCursors(cs)
		}
	}
	c.Watchers = nil
	tx.remove(logDir(c.ID))
	return nil
}

// Compacted records that a chat's history was compacted (conch chat
// compacted): the chat itself, or the person (its harness), may say so. It
// returns the event, or nil when it could not be recorded.
func (lo LogTx) Compacted(a Actor, id string) (*Event, error) {
	tx := lo.tx
	c, err := tx.Chats().Named(a, id)
	if err != nil {
		return nil, err
	}
	if !a.Person() && a.ID != c.ID {
		return nil, refusedf("chat %s cannot say chat %s was compacted: only the chat itself, or its harness", a.ID, c.ID)
	}
	kind, chat := actorOf(a)
	return tx.Log().record(c, KindCompacted, kind, chat, "history compacted", ""), nil
}

// Notice is a pending notice that a watched chat changed.
type Notice struct {
	Target string `json:"target"`
	Since  int64  `json:"since"`
}

// pendingNotices are the watcher's pending notices, one per watched chat,
// in the order of the chats' ids. It reads only the watcher's cursor file.
func (l LogView) pendingNotices(me *Chat) ([]Notice, error) {
	tx := l.v
	ns := []Notice{}
	cs, err := tx.Log().cursors(me.ID)
	if err != nil {
		return nil, err
	}
	now := tx.Now()
	// Only the pending are sorted: at most notes, none are.
	for t, cur := range cs.Targets {
		if cur.pending() && !cur.expired(now) {
			ns = append(ns, Notice{Target: t, Since: cur.LastSeen})
		}
	}
	slices.SortFunc(ns, func(a, b Notice) int {
		if idLess(a.Target, b.Target) {
			return -1
		}
		return 1 // targets are a map's keys: never the same
	})
	return ns, nil
}

// drainNotices acknowledges the notices that were said: each cursor's
// last_seen moves to its notified mark, and where more came in since the
// notice opened, exactly one fresh notice opens for the rest. A notice that
// changed since it was read (another notes drained it) is left alone.
func (lo LogTx) drainNotices(me *Chat, ns []Notice) error {
	tx := lo.tx
	if len(ns) == 0 {
		return nil
	}
	cs, err := tx.Log().cursors(me.ID)
	if err != nil {
		return err
	}
	now, changed := tx.Now(), false
	for _, n := range ns {
		cur := cs.Targets[n.Target]
		if cur == nil || !cur.pending() || cur.LastSeen != n.Since {
			continue
		}
		before := cur.LastSeen
		cur.drain()
		if tx.marks != nil {
			tx.marks.Notices = append(tx.marks.Notices, receiptNotice{Target: n.Target, LastSeen: before, Drained: cur.LastSeen})
		}
		cur.Touched = now
		changed = true
	}
	if changed {
		tx.Log().saveCursors(cs)
	}
	return nil
}

// Status is what `conch status ID [--since N]` answers.
type Status struct {
	Chat         ChatState `json:"chat"`
	StateVersion int64     `json:"state_version"`
	Since        *int64    `json:"-"`
	Events       []Event   `json:"-"`
	Truncated    bool      `json:"truncated"`
	HistoryGap   bool      `json:"history_gap"`
	// EarliestAvailable is the earliest sequence the log still holds (or
	// will hold): every event from it on is there.
	EarliestAvailable int64 `json:"earliest_available_sequence"`
}

// ChatState is the chat's state as status gives it.
type ChatState struct {
	ID        string    `json:"id"`
	Kind      string    `json:"kind"` // chat or task
	Title     string    `json:"title"`
	State     string    `json:"state"`
	Goal      string    `json:"goal"`
	Parent    string    `json:"parent"`
	Folder    string    `json:"folder"`
	Active    time.Time `json:"active"`
	TaskState string    `json:"task_state"`
	Result    string    `json:"result"`
	// GoalWithheld and ResultWithheld: taken away from a reader they
	// would carry outside words into; render says so in their place.
	GoalWithheld, ResultWithheld bool `json:"-"`
}

// MaxStatusEvents is how many events one status answers at most.
const MaxStatusEvents = 200

// Status is a chat's state version and, with since, the events after it,
// ascending, at most MaxStatusEvents. It moves no cursor. history_gap comes
// from the chat's pruned watermark, never from sequence arithmetic.
func (l LogView) Status(a Actor, id string, since *int64) (*Status, error) {
	tx := l.v
	if since != nil && *since < 0 {
		return nil, usagef("--since %d: want 0 or more", *since)
	}
	c, err := tx.Chats().Named(a, id)
	if err != nil {
		return nil, err
	}
	st := &Status{Chat: chatState(c), Since: since}
	if !a.Person() && a.ID != c.ID {
		me, err := tx.Chats().Get(a.ID)
		if err != nil {
			return nil, err
		}
		if carries(c, me) {
			st.Chat.GoalWithheld, st.Chat.ResultWithheld = withhold(&st.Chat.Goal), withhold(&st.Chat.Result)
		}
	}
	h, err := tx.Log().head(c.ID)
	if err != nil {
		return nil, err
	}
	if since == nil {
		st.StateVersion, st.EarliestAvailable = h.StateVersion, h.Pruned+1
		return st, nil
	}
	// Read lock-free, a gc may prune under our feet: it stamps the
	// watermark before it removes, so a missing event means read the head
	// again and start over from there.
	var missing int64
	for range 3 {
		st.StateVersion, st.EarliestAvailable = h.StateVersion, h.Pruned+1
		st.HistoryGap = *since < h.Pruned
		st.Events = []Event{}
		from := max(*since, h.Pruned) + 1
		to := min(h.StateVersion, from+MaxStatusEvents-1)
		st.Truncated = to < h.StateVersion
		missing = 0
		for seq := from; seq <= to; seq++ {
			ev, err := tx.Log().readEvent(c.ID, seq)
			if err != nil {
				return nil, err
			}
			if ev == nil {
				missing = seq
				break
			}
			st.Events = append(st.Events, *ev)
		}
		if missing == 0 {
			return st, nil
		}
		fresh, err := tx.Log().freshHead(c.ID)
		if err != nil {
			return nil, err
		}
		if fresh.Pruned <= h.Pruned {
			break
		}
		h = fresh
	}
	return nil, &CorruptError{Path: tx.h.where(eventRel(c.ID, missing)),
		Err: fmt.Errorf("it is missing, though %s says the log holds up to %d", tx.h.where(headRel(c.ID)), h.StateVersion)}
}

func chatState(c *Chat) ChatState {
	s := ChatState{
		ID: c.ID, Kind: "chat", Title: c.Title, State: c.state(), Goal: c.Goal,
		Parent: c.Parent, Folder: c.Folder, Active: c.active(),
	}
	if c.IsTask() {
		s.Kind, s.TaskState, s.Result = "task", c.Task.State, c.Task.Result
	}
	return s
}

// readEvent reads one event straight from its file (nil when it is not
// there), bypassing the transaction's cache so a retry sees the disk.
func (l LogView) readEvent(id string, seq int64) (*Event, error) {
	tx := l.v
	p := tx.h.where(eventRel(id, seq))
	data, err := tx.h.store.Get(eventRel(id, seq))
	if errors.Is(err, store.ErrNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, readError(p, err)
	}
	ev := new(Event)
	if err := json.Unmarshal(data, ev); err != nil {
		return nil, &CorruptError{Path: p, Err: err}
	}
	if ev.Sequence != seq {
		return nil, &CorruptError{Path: p, Err: fmt.Errorf("it holds sequence %d", ev.Sequence)}
	}
	return ev, nil
}

// freshHead reads a chat's head from the disk, not the transaction's cache.
func (l LogView) freshHead(id string) (*head, error) {
	tx := l.v
	h, err := readRecord[head](tx, headRel(id))
	if h == nil && err == nil {
		h = &head{}
	}
	return h, err
}
