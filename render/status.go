package render

import (
	"fmt"
	"strings"
	"time"

	"github.com/conch-sh/conch/state"
)

// Status is `conch status` in words.
func Status(st *state.Status) string {
	var b strings.Builder
	c := st.Chat
	fmt.Fprintf(&b, "%s %s “%s”: %s · state version %d\n", c.Kind, c.ID, Clean(c.Title), c.State, st.StateVersion)
	if goal := heldOr(c.Goal, c.GoalWithheld, c.ID, c.Kind == "task"); goal != "" {
		fmt.Fprintf(&b, "  goal: %s\n", Clean(goal))
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

// CompactedWords is what conch chat compacted says.
func CompactedWords(id string, ev *state.Event) string {
	if ev == nil {
		return id + " compacted (not recorded)\n"
	}
	return fmt.Sprintf("%s compacted: event %d\n", id, ev.Sequence)
}

// ResetWords is what conch chat reset says.
func ResetWords(id string, dropped []string) string {
	if len(dropped) == 0 {
		return "reset " + id + ": it watched no chat\n"
	}
	return "reset " + id + ": it no longer watches " + strings.Join(dropped, ", ") + "\n"
}
