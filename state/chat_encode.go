package state

import (
	"encoding/json"
	"fmt"

	"github.com/conch-sh/conch/state/codec"
	"github.com/conch-sh/conch/state/store"
)

// Every write command writes a chat's record, and encoding/json spends
// more learning the record's types, once in each process, than writing it
// (a fifth of a millisecond of a step's three). So the record is written
// by hand, byte for byte as json.MarshalIndent(c, "", " ") writes it:
// TestEncodeChatIsMarshalIndent and FuzzEncodeChat hold the two together,
// and fail when the record gains a field this file does not write.

// marshalRecord is json.MarshalIndent(v, "", " "), by hand for a chat.
func marshalRecord(v any) ([]byte, error) {
	var data []byte
	var err error
	if c, ok := v.(*Chat); ok && c != nil {
		data, err = encodeChat(c)
	} else {
		data, err = json.MarshalIndent(v, "", " ")
	}
	if err == nil && len(data) >= store.MaxRecord {
		// Written, it could not be read back.
		return nil, fmt.Errorf("a record of %d bytes: %w", len(data), store.ErrTooLarge)
	}
	return data, err
}

func encodeChat(c *Chat) ([]byte, error) {
	w := codec.NewWriter(1024)
	w.Open('{')
	w.Str("id", c.ID)
	w.Str("title", c.Title)
	w.Str("origin", c.Origin)
	w.Str("folder", c.Folder)
	w.StrOmit("reach", c.Reach)
	w.Str("computer", c.Computer)
	w.Str("status", c.Status)
	w.Str("mode", c.Mode)
	w.Str("inbound", c.Inbound)
	w.Key("taint")
	w.Open('{')
	w.StrsOmit("outside", c.Taint.Outside)
	w.StrsOmit("person", c.Taint.Person)
	w.Close('}')
	w.Bool("archived", c.Archived)
	w.Str("goal", c.Goal)
	w.Str("parent", c.Parent)
	w.Bool("browser", c.Browser)
	w.Bool("recovery", c.Recovery)
	if c.MCPOnly {
		w.Bool("mcp_only", true)
	}
	w.Time("created", c.Created)
	w.Time("last_active", c.LastActive)
	w.StrOmit("wake_cmd", c.WakeCmd)
	w.StrOmit("stop_cmd", c.StopCmd)
	w.StrsOmit("cmd_env", c.CmdEnv)
	if t := c.Task; t != nil {
		w.Key("task")
		w.Open('{')
		w.Str("state", t.State)
		w.Str("result", t.Result)
		w.Time("ended", t.Ended)
		w.Close('}')
	}
	writeReply(&w, "reply", c.Reply)
	writeReply(&w, "last_reply", c.LastReply)
	w.Int("replies", c.Replies)
	w.StrOmit("chain", c.Chain)
	if k := c.Wake; k != nil {
		w.Key("wake")
		w.Open('{')
		w.Str("reason", k.Reason)
		w.StrOmit("message", k.Message)
		w.StrOmit("chain", k.Chain)
		w.Time("at", k.At)
		if k.Runner != 0 {
			w.Int("runner", k.Runner)
		}
		if k.RunnerStart != 0 {
			w.Uint("runner_start", k.RunnerStart)
		}
		w.Close('}')
	}
	if s := c.Stopped; s != nil {
		w.Key("stopped")
		w.Open('{')
		w.Str("by", s.By)
		w.Str("by_title", s.ByTitle)
		w.Str("reason", s.Reason)
		w.Time("at", s.At)
		w.Str("reply", s.Reply)
		w.Bool("heard", s.Heard)
		w.Close('}')
	}
	w.StrsOmit("inbox", c.Inbox)
	w.StrsOmit("inbox_start", c.InboxStart)
	w.StrsOmit("held", c.Held)
	w.StrsOmit("cards", c.Cards)
	if len(c.Recent) > 0 {
		w.Key("recent")
		w.Open('[')
		for _, s := range c.Recent {
			w.Member()
			w.Open('{')
			w.Str("to", s.To)
			w.Str("sum", s.Sum)
			w.Time("at", s.At)
			w.Close('}')
		}
		w.Close(']')
	}
	w.StrsOmit("watchers", c.Watchers)
	w.StrsOmit("waiters", c.Waiters)
	w.StrsOmit("wrote", c.Wrote)
	w.StrsOmit("waiting", c.Waiting)
	w.Close('}')
	return w.Bytes()
}

// writeReply writes a reply, or null.
func writeReply(w *codec.Writer, key string, r *Reply) {
	w.Key(key)
	if r == nil {
		w.Null()
		return
	}
	w.Open('{')
	w.Str("id", r.ID)
	w.Time("started", r.Started)
	w.Bool("person", r.Person)
	w.Str("chain", r.Chain)
	w.Bool("unwatched", r.Unwatched)
	w.Str("folder", r.Folder)
	w.Str("computer", r.Computer)
	w.Str("place", r.Place)
	w.StrOmit("tree", r.Tree)
	w.StrOmit("repo", r.Repo)
	w.Str("family", r.Family)
	w.StrOmit("tool", r.Tool)
	w.Time("step_since", r.StepSince)
	w.Strs("files", r.Files)
	w.StrOmit("last_file", r.LastFile)
	w.Int("pid", r.PID)
	if r.PIDStart != 0 {
		w.Uint("pid_start", r.PIDStart)
	}
	w.StrsOmit("said", r.Said)
	w.Int("steps", r.Steps)
	w.Time("ended", r.Ended) // omitempty never leaves out a struct
	w.StrOmit("outcome", r.Outcome)
	w.StrOmit("text", r.Text)
	w.Close('}')
}
