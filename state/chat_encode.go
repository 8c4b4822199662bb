package state

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strconv"
	"time"
	"unicode/utf8"

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
	w := jsonWriter{b: make([]byte, 0, 1024)}
	w.open('{')
	w.str("id", c.ID)
	w.str("title", c.Title)
	w.str("origin", c.Origin)
	w.str("folder", c.Folder)
	w.strOmit("reach", c.Reach)
	w.str("computer", c.Computer)
	w.str("status", c.Status)
	w.str("mode", c.Mode)
	w.str("inbound", c.Inbound)
	w.key("taint")
	w.open('{')
	w.strsOmit("outside", c.Taint.Outside)
	w.strsOmit("person", c.Taint.Person)
	w.close('}')
	w.boolean("archived", c.Archived)
	w.str("goal", c.Goal)
	w.str("parent", c.Parent)
	w.boolean("browser", c.Browser)
	w.boolean("recovery", c.Recovery)
	if c.MCPOnly {
		w.boolean("mcp_only", true)
	}
	w.time("created", c.Created)
	w.time("last_active", c.LastActive)
	w.strOmit("wake_cmd", c.WakeCmd)
	w.strOmit("stop_cmd", c.StopCmd)
	w.strsOmit("cmd_env", c.CmdEnv)
	if t := c.Task; t != nil {
		w.key("task")
		w.open('{')
		w.str("state", t.State)
		w.str("result", t.Result)
		w.time("ended", t.Ended)
		w.close('}')
	}
	w.reply("reply", c.Reply)
	w.reply("last_reply", c.LastReply)
	w.int("replies", c.Replies)
	w.strOmit("chain", c.Chain)
	if k := c.Wake; k != nil {
		w.key("wake")
		w.open('{')
		w.str("reason", k.Reason)
		w.strOmit("message", k.Message)
		w.strOmit("chain", k.Chain)
		w.time("at", k.At)
		if k.Runner != 0 {
			w.int("runner", k.Runner)
		}
		if k.RunnerStart != 0 {
			w.key("runner_start")
			w.b = strconv.AppendUint(w.b, k.RunnerStart, 10)
		}
		w.close('}')
	}
	if s := c.Stopped; s != nil {
		w.key("stopped")
		w.open('{')
		w.str("by", s.By)
		w.str("by_title", s.ByTitle)
		w.str("reason", s.Reason)
		w.time("at", s.At)
		w.str("reply", s.Reply)
		w.boolean("heard", s.Heard)
		w.close('}')
	}
	w.strsOmit("inbox", c.Inbox)
	w.strsOmit("inbox_start", c.InboxStart)
	w.strsOmit("held", c.Held)
	w.strsOmit("cards", c.Cards)
	if len(c.Recent) > 0 {
		w.key("recent")
		w.open('[')
		for _, s := range c.Recent {
			w.member()
			w.open('{')
			w.str("to", s.To)
			w.str("sum", s.Sum)
			w.time("at", s.At)
			w.close('}')
		}
		w.close(']')
	}
	w.strsOmit("watchers", c.Watchers)
	w.strsOmit("waiters", c.Waiters)
	w.strsOmit("wrote", c.Wrote)
	w.strsOmit("waiting", c.Waiting)
	w.close('}')
	return w.b, w.err
}

func (w *jsonWriter) reply(key string, r *Reply) {
	w.key(key)
	if r == nil {
		w.b = append(w.b, "null"...)
		return
	}
	w.open('{')
	w.str("id", r.ID)
	w.time("started", r.Started)
	w.boolean("person", r.Person)
	w.str("chain", r.Chain)
	w.boolean("unwatched", r.Unwatched)
	w.str("folder", r.Folder)
	w.str("computer", r.Computer)
	w.str("place", r.Place)
	w.strOmit("tree", r.Tree)
	w.strOmit("repo", r.Repo)
	w.str("family", r.Family)
	w.strOmit("tool", r.Tool)
	w.time("step_since", r.StepSince)
	w.strs("files", r.Files)
	w.strOmit("last_file", r.LastFile)
	w.int("pid", r.PID)
	if r.PIDStart != 0 {
		w.key("pid_start")
		w.b = strconv.AppendUint(w.b, r.PIDStart, 10)
	}
	w.strsOmit("said", r.Said)
	w.int("steps", r.Steps)
	w.time("ended", r.Ended) // omitempty never leaves out a struct
	w.strOmit("outcome", r.Outcome)
	w.strOmit("text", r.Text)
	w.close('}')
}

// jsonWriter writes JSON indented as json.MarshalIndent(v, "", " ") does.
type jsonWriter struct {
	b     []byte
	count []int // members written so far, per object or array open
	err   error
}

func (w *jsonWriter) open(c byte) {
	w.b = append(w.b, c)
	w.count = append(w.count, 0)
}

func (w *jsonWriter) close(c byte) {
	n := w.count[len(w.count)-1]
	w.count = w.count[:len(w.count)-1]
	if n > 0 {
		w.newline()
	}
	w.b = append(w.b, c)
}

func (w *jsonWriter) newline() {
	w.b = append(w.b, '\n')
	for range w.count {
		w.b = append(w.b, ' ')
	}
}

// member begins a member of the object or array open.
func (w *jsonWriter) member() {
	if w.count[len(w.count)-1] > 0 {
		w.b = append(w.b, ',')
	}
	w.count[len(w.count)-1]++
	w.newline()
}

func (w *jsonWriter) key(k string) {
	w.member()
	w.b = append(w.b, '"')
	w.b = append(w.b, k...)
	w.b = append(w.b, `": `...)
}

func (w *jsonWriter) str(key, s string) {
	w.key(key)
	w.quote(s)
}

func (w *jsonWriter) strOmit(key, s string) {
	if s != "" {
		w.str(key, s)
	}
}

func (w *jsonWriter) strs(key string, list []string) {
	w.key(key)
	if list == nil {
		w.b = append(w.b, "null"...)
		return
	}
	w.open('[')
	for _, s := range list {
		w.member()
		w.quote(s)
	}
	w.close(']')
}

func (w *jsonWriter) strsOmit(key string, list []string) {
	if len(list) > 0 {
		w.strs(key, list)
	}
}

func (w *jsonWriter) boolean(key string, v bool) {
	w.key(key)
	w.b = strconv.AppendBool(w.b, v)
}

func (w *jsonWriter) int(key string, v int) {
	w.key(key)
	w.b = strconv.AppendInt(w.b, int64(v), 10)
}

// time writes what time.Time's own MarshalJSON writes, as encoding/json
// has it; a year it cannot write is the same error.
func (w *jsonWriter) time(key string, t time.Time) {
	w.key(key)
	b, err := t.MarshalJSON()
	if err != nil && w.err == nil {
		w.err = &json.MarshalerError{Type: reflect.TypeFor[time.Time](), Err: err}
	}
	w.b = append(w.b, b...)
}

// quote writes s as a JSON string. A string with nothing to escape (the
// common case: ids, paths, words) is copied; any other is quoted by
// encoding/json, whose escapes (HTML characters, U+2028, bytes that are not
// UTF-8) stay the rule.
func (w *jsonWriter) quote(s string) {
	ascii := true
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c < 0x20, c == '"', c == '\\', c == '<', c == '>', c == '&':
			w.quoteSlow(s)
			return
		case c >= 0x80:
			ascii = false
		}
	}
	if !ascii {
		for _, r := range s {
			if r == utf8.RuneError || r == '\u2028' || r == '\u2029' {
				w.quoteSlow(s)
				return
			}
		}
	}
	w.b = append(w.b, '"')
	w.b = append(w.b, s...)
	w.b = append(w.b, '"')
}

func (w *jsonWriter) quoteSlow(s string) {
	b, _ := json.Marshal(s) // a string always marshals
	w.b = append(w.b, b...)
}
