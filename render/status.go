package render

import (
	"fmt"
	"strings"
	"time"

	"github.com/conch-sh/conch/state"
)

// statusJSON is `conch status --json` without --since; statusSinceJSON with
// it. The shape is SPEC §7's and never changes without a version bump.
type statusJSON struct {
	Chat              state.ChatState `json:"chat"`
	StateVersion      int64           `json:"state_version"`
	Truncated         bool            `json:"truncated"`
	HistoryGap        bool            `json:"history_gap"`
	EarliestAvailable int64           `json:"earliest_available_sequence"`
}

type statusSinceJSON struct {
	Chat              state.ChatState `json:"chat"`
	StateVersion      int64           `json:"state_version"`
	Events            []state.Event   `json:"events"`
	Truncated         bool            `json:"truncated"`
	HistoryGap        bool            `json:"history_gap"`
	EarliestAvailable int64           `json:"earliest_available_sequence"`
}

// StatusJSON is the value `conch status --json` prints: events present
// (possibly empty) with --since, absent without.
func StatusJSON(st *state.Status) any {
	if st.Since == nil {
		return statusJSON{st.Chat, st.StateVersion, st.Truncated, st.HistoryGap, st.EarliestAvailable}
	}
	evs := st.Events
	if evs == nil {
		evs = []state.Event{}
	}
	return statusSinceJSON{st.Chat, st.StateVersion, evs, st.Truncated, st.HistoryGap, st.EarliestAvailable}
}

// Status is `conch status` in words.
func Status(st *state.Status) string {
	var b strings.Builder
	c := st.Chat
	fmt.Fprintf(&b, "%s %s “%s”: %s · state version %d\n", c.Kind, c.ID, Clean(c.Title), c.State, st.StateVersion)
	if c.Goal != "" {
		fmt.Fprintf(&b, "  goal: %s\n", Clean(c.Goal))
	}
	if st.Since == nil {
		return b.String()
	}
	if st.HistoryGap {
		fmt.Fprintf(&b, "history gap: events before %d are no longer kept; refresh the whole state with conch chat show %s\n", st.EarliestAvailable, c.ID)
	}
	if len(st.Events) == 0 {
		fmt.Fprintf(&b, "no events after %d\n", *st.Since)
		return b.String()
	}
	fmt.Fprintf(&b, "events after %d:\n", *st.Since)
	for _, ev := range st.Events {
		b.WriteString("  " + EventLine(ev) + "\n")
	}
	if st.Truncated {
		fmt.Fprintf(&b, "more follow: conch status %s --since %d\n", c.ID, st.Events[len(st.Events)-1].Sequence)
	}
	return b.String()
}

// EventLine is one event of a chat's log in words.
func EventLine(ev state.Event) string {
	kind := ev.Kind
	if ev.Outcome != "" {
		kind += " (" + ev.Outcome + ")"
	}
	return fmt.Sprintf("%d  %s by %s at %s: %s", ev.Sequence, kind, ActorWords(ev.Actor, ev.ActorChat),
		ev.At.UTC().Format(time.RFC3339), Clean(ev.Summary))
}

// ActorWords is who caused an event.
func ActorWords(actor, chat string) string {
	switch {
	case actor == state.ActorAgent && chat != "":
		return "chat " + chat
	case actor == state.ActorHuman:
		return "the person"
	case actor == state.ActorSystem:
		return "conch"
	}
	return actor
}

// WatchWords is what conch watch says.
func WatchWords(w *state.Watch) string {
	s := fmt.Sprintf("watching %s from state version %d\n", w.Target, w.LastSeen)
	if w.Pending {
		s += NoticeLine(state.Notice{Target: w.Target, Since: w.LastSeen}) + "\n"
	}
	return s
}

// UnwatchWords is what conch unwatch says.
func UnwatchWords(w *state.Watch) string {
	if !w.Watching {
		return "not watching " + w.Target + "\n"
	}
	return "unwatched " + w.Target + "\n"
}

// GCWords is what conch gc says.
func GCWords(r *state.GCResult) string {
	return fmt.Sprintf("pruned %s, expired %s, removed %s of deleted chats\n",
		plural(r.Pruned, "event", "events"), plural(r.Expired, "watch", "watches"), plural(r.Orphans, "log", "logs"))
}

// GCStopped is what a gc that stopped part way says it did before.
func GCStopped(r *state.GCResult) string {
	if r.Pruned == 0 && r.Expired == 0 && r.Orphans == 0 {
		return "gc stopped having changed nothing"
	}
	return fmt.Sprintf("gc stopped, having pruned %s, expired %s, removed %s of deleted chats",
		plural(r.Pruned, "event", "events"), plural(r.Expired, "watch", "watches"), plural(r.Orphans, "log", "logs"))
}

// CompactedJSON is what conch chat compacted --json prints: the event it
// recorded (null when it could not be).
func CompactedJSON(id string, ev *state.Event) any {
	return struct {
		Chat  string       `json:"chat"`
		Event *state.Event `json:"event"`
	}{id, ev}
}

// CompactedWords is what conch chat compacted says.
func CompactedWords(id string, ev *state.Event) string {
	if ev == nil {
		return id + " compacted (not recorded)\n"
	}
	return fmt.Sprintf("%s compacted: event %d\n", id, ev.Sequence)
}

// ResetJSON is what conch chat reset --json prints.
func ResetJSON(id string, dropped []string) any {
	if dropped == nil {
		dropped = []string{}
	}
	return struct {
		Chat      string   `json:"chat"`
		Unwatched []string `json:"unwatched"`
	}{id, dropped}
}

// ResetWords is what conch chat reset says.
func ResetWords(id string, dropped []string) string {
	if len(dropped) == 0 {
		return "reset " + id + ": it watched no chat\n"
	}
	return "reset " + id + ": it no longer watches " + strings.Join(dropped, ", ") + "\n"
}
