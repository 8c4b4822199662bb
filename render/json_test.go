package render

import (
	"bytes"
	"encoding/json"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/conch-sh/conch/state"
)

// TestVersioned: every object the Printer writes says json_version first,
// compact or indented, empty or not; anything else is left as it is, and
// an object that says a version already is not given a second.
func TestVersioned(t *testing.T) {
	for in, want := range map[string]string{
		`{}`:                          `{"json_version":2}`,
		`{"a":1}`:                     `{"json_version":2,"a":1}`,
		"{\n  \"a\": 1\n}":            "{\n  \"json_version\": 2,\n  \"a\": 1\n}",
		`{"json_version":2}`:          `{"json_version":2}`,
		`[{"a":1}]`:                   `[{"a":1}]`,
		`"s"`:                         `"s"`,
		`null`:                        `null`,
		``:                            ``,
		"{\n  \"json_version\": 2\n}": "{\n  \"json_version\": 2\n}",
	} {
		if got := string(Versioned([]byte(in))); got != want {
			t.Errorf("Versioned(%q) = %q, want %q", in, got, want)
		}
	}
	var b bytes.Buffer
	p := &Printer{Out: &b, JSON: true}
	if err := p.WriteJSON(DeletedJSON{ID: "c_1", Deleted: true}); err != nil {
		t.Fatal(err)
	}
	if want := "{\n  \"json_version\": 2,\n  \"id\": \"c_1\",\n  \"deleted\": true\n}\n"; b.String() != want {
		t.Errorf("WriteJSON = %q, want %q", b.String(), want)
	}
	b.Reset()
	p.Err = &b
	p.Error("no chat c_9", 3)
	if want := `{"json_version":2,"error":"no chat c_9","code":3}` + "\n"; b.String() != want {
		t.Errorf("Error = %q, want %q", b.String(), want)
	}
}

// TestViewsLeaveOutRecordFields: the views carry none of a record's own
// fields, and a time not set is left out.
func TestViewsLeaveOutRecordFields(t *testing.T) {
	at := time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)
	r := &state.Reply{ID: "c_1.1", Started: at, Place: "/x", PIDStart: 7, Said: []string{"l"}, Steps: 3, PID: 1}
	c := &state.Chat{ID: "c_1", Reply: r, CmdEnv: []string{"PATH=/bin"}, Inbox: []string{"m_1"}, InboxStart: []string{"m_2"},
		Held: []string{"m_3"}, Cards: []string{"m_1"}, Recent: []state.RecentSend{{To: "c_2"}},
		Task: &state.TaskInfo{State: state.TaskRunning}, Stopped: &state.StopNotice{By: "c_2", Heard: true}}
	data, err := json.Marshal(ChatView(&state.ChatShown{Chat: c, State: "working"}))
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"place", "pid_start", "said", "steps", "cmd_env", "inbox", "inbox_start", "held", "cards", "recent", "heard", "ended", "last_active", "created"} {
		if strings.Contains(string(data), `"`+k+`":`) {
			t.Errorf("chat JSON has %q: %s", k, data)
		}
	}
	if strings.Contains(string(data), "0001-01-01") {
		t.Errorf("a zero time is printed: %s", data)
	}
	if !strings.Contains(string(data), `"files":[]`) {
		t.Errorf("a reply's files are not a list: %s", data)
	}
}

// FuzzVersioned: whatever object is written, with whatever keys and
// values, the stamped JSON is valid, says json_version 2 first, and holds
// every other key and value as before.
func FuzzVersioned(f *testing.F) {
	f.Add("a", "b", true)
	f.Add("", "", false)
	f.Add("json_version", "3", true)
	f.Add("\u2028", "\x7f\u009b", false)
	f.Add("}", "{\n", true)
	f.Fuzz(func(t *testing.T, key, value string, indent bool) {
		in := map[string]string{}
		if key != "" {
			in[key] = value
		}
		var data []byte
		if indent {
			data, _ = json.MarshalIndent(in, "", "  ")
		} else {
			data, _ = json.Marshal(in)
		}
		out := Versioned(data)
		if !json.Valid(out) {
			t.Fatalf("not JSON: %q from %q", out, data)
		}
		dec := json.NewDecoder(bytes.NewReader(out))
		if tok, _ := dec.Token(); tok != json.Delim('{') {
			t.Fatalf("not an object: %q", out)
		}
		if tok, _ := dec.Token(); tok != "json_version" {
			t.Fatalf("json_version is not first: %q", out)
		}
		var before, back map[string]any
		if err := json.Unmarshal(data, &before); err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(out, &back); err != nil {
			t.Fatal(err)
		}
		if key == "json_version" {
			return // it said its own version, and is left alone
		}
		if back["json_version"] != float64(JSONVersion) || len(back) != len(before)+1 {
			t.Fatalf("%q: version or keys wrong", out)
		}
		for k, v := range before {
			if back[k] != v {
				t.Fatalf("%q: %q changed", out, k)
			}
		}
	})
}

// BenchmarkJSON compares, in one run, what version 1 printed (the state
// value marshalled as it is) with version 2 (the view converted, marshalled
// and stamped), for the JSON on the paths that must stay cheap: the chat
// list at its longest (12 chats), status --since at its longest (200
// events), and one chat shown.
func BenchmarkJSON(b *testing.B) {
	at := time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)
	list := &state.ChatList{Working: 6, NeedsYou: 3}
	for i := range 12 {
		list.Chats = append(list.Chats, state.OtherChat{ID: "c_" + string(rune('a'+i)), Title: "Fix the login", State: "working",
			Doing: "edit", DoingSince: &at, ReplyStarted: &at, LastActive: at, Folder: "/home/me/src/app",
			Files: []string{"/home/me/src/app/auth.ts", "/home/me/src/app/login.ts"}, LastFile: "/home/me/src/app/auth.ts",
			Claims: []state.ClaimRef{{Path: "/home/me/src/app/auth.ts", Until: at, Reason: "refactor"}}})
	}
	since := int64(0)
	st := &state.Status{Chat: state.ChatState{ID: "c_2", Kind: "chat", Title: "Child", State: "idle", Active: at}, StateVersion: 200, Since: &since}
	for i := range 200 {
		st.Events = append(st.Events, state.Event{Sequence: int64(i + 1), Kind: "goal_changed", Actor: "agent", ActorChat: "c_1", At: at, Summary: "goal set"})
	}
	r := &state.Reply{ID: "c_1.3", Started: at, Chain: "ch_1", Folder: "/home/me/src/app", Family: "edit", StepSince: at,
		Files: []string{"/home/me/src/app/auth.ts"}, PID: 1234, Said: []string{"a line"}, Steps: 12}
	shown := &state.ChatShown{Chat: &state.Chat{ID: "c_1", Title: "Fix the login", Folder: "/home/me/src/app", Status: "idle",
		Mode: "ask", Inbound: "accept", Created: at, LastActive: at, Reply: r, LastReply: r, Replies: 3,
		Inbox: []string{"m_1"}, Cards: []string{"m_1", "m_2"}, Watchers: []string{"c_2"}}, State: "working", Active: at, StateVersion: 40}
	p := &Printer{Out: io.Discard, JSON: true}
	for _, bc := range []struct {
		name       string
		record, v2 func() any
	}{
		{"chats-list", func() any { return list }, func() any { return ChatsView(list) }},
		{"status-since-200", func() any {
			return struct {
				C  state.ChatState `json:"chat"`
				V  int64           `json:"state_version"`
				Ev []state.Event   `json:"events"`
			}{st.Chat, st.StateVersion, st.Events}
		}, func() any { return StatusView(st) }},
		{"chat-show", func() any { return shown }, func() any { return ChatView(shown) }},
	} {
		b.Run(bc.name+"/v1-record", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				data, _ := json.MarshalIndent(bc.record(), "", "  ")
				_, _ = p.Out.Write(EscapeJSONControls(data))
			}
		})
		b.Run(bc.name+"/v2-view", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				_ = p.WriteJSON(bc.v2())
			}
		})
	}
}
