package cli

import (
	"reflect"
	"testing"
	"time"

	"github.com/conch-sh/conch/state"
)

var modelNow = time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)

// modelView: a held message m_4 (c_2 to c_1), a request r_1 (c_2 stops
// c_1), and the chats c_2 (working), c_3 (needs you), c_1 (idle, holding).
func modelView() *state.PersonView {
	return &state.PersonView{
		List: &state.ChatList{Working: 1, NeedsYou: 1, Chats: []state.OtherChat{
			{ID: "c_2", Title: "Notes", State: state.StatusWorking},
			{ID: "c_3", Title: "Deploy", State: state.StatusNeedsYou},
			{ID: "c_1", Title: "Fix", State: state.StatusIdle},
		}},
		Inbound:  map[string]string{"c_1": "hold", "c_2": "accept", "c_3": "refuse"},
		Held:     []state.HeldMessage{{ID: "m_4", From: "c_2", To: "c_1"}},
		Requests: []*state.Request{{ID: "r_1", By: "c_2", Target: "c_1", State: state.ReqWaiting}},
	}
}

func TestTopKeys(t *testing.T) {
	for _, tc := range []struct {
		name  string
		keys  []string
		press *topPress
		quit  bool
		said  bool   // a hint instead of a press
		det   string // the detail open after
	}{
		{name: "p passes the held message", keys: []string{"p"}, press: &topPress{Verb: "pass", ID: "m_4"}},
		{name: "d dismisses it", keys: []string{"d"}, press: &topPress{Verb: "dismiss", ID: "m_4"}},
		{name: "y on a message is a hint", keys: []string{"y"}, said: true},
		{name: "y confirms the request", keys: []string{"j", "y"}, press: &topPress{Verb: "confirm", ID: "r_1"}},
		{name: "n denies it", keys: []string{"down", "n"}, press: &topPress{Verb: "deny", ID: "r_1"}},
		{name: "p on a request is a hint", keys: []string{"j", "p"}, said: true},
		{name: "i on a message is a hint", keys: []string{"i"}, said: true},
		{name: "i: accept → hold", keys: []string{"j", "j", "i"}, press: &topPress{Verb: "inbound", ID: "c_2", Inbound: "hold"}},
		{name: "i: refuse → accept", keys: []string{"j", "j", "j", "i"}, press: &topPress{Verb: "inbound", ID: "c_3", Inbound: "accept"}},
		{name: "i: hold → refuse", keys: []string{"j", "j", "j", "j", "i"}, press: &topPress{Verb: "inbound", ID: "c_1", Inbound: "refuse"}},
		{name: "down stops at the last row", keys: []string{"j", "j", "j", "j", "j", "j", "j", "i"}, press: &topPress{Verb: "inbound", ID: "c_1", Inbound: "refuse"}},
		{name: "up stops at the first", keys: []string{"k", "up", "p"}, press: &topPress{Verb: "pass", ID: "m_4"}},
		{name: "enter on a message opens its receiver", keys: []string{"enter"}, det: "c_1"},
		{name: "enter on a chat opens it", keys: []string{"j", "j", "enter"}, det: "c_2"},
		{name: "enter again closes it", keys: []string{"enter", "enter"}},
		{name: "esc closes it", keys: []string{"enter", "esc"}},
		{name: "i in a detail is its chat's", keys: []string{"j", "enter", "i"}, det: "c_1", press: &topPress{Verb: "inbound", ID: "c_1", Inbound: "refuse"}},
		{name: "j in a detail keeps the selection", keys: []string{"enter", "j", "p"}, det: "c_1", press: &topPress{Verb: "pass", ID: "m_4"}},
		{name: "q quits", keys: []string{"j", "q"}, quit: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := newTopModel()
			m.setView(modelView(), modelNow)
			var press *topPress
			var quit bool
			for _, k := range tc.keys {
				press, quit = m.key(k)
				if quit {
					break
				}
			}
			if !reflect.DeepEqual(press, tc.press) || quit != tc.quit {
				t.Errorf("press %+v quit %v, want %+v %v", press, quit, tc.press, tc.quit)
			}
			if (m.said != "") != tc.said {
				t.Errorf("said %q", m.said)
			}
			if m.detail != tc.det {
				t.Errorf("detail %q, want %q", m.detail, tc.det)
			}
		})
	}
}

// A fresh look keeps the selection on the same row wherever it moved; a
// row that went keeps the selection where it was.
func TestTopSelectionKept(t *testing.T) {
	m := newTopModel()
	m.setView(modelView(), modelNow)
	m.key("j")
	m.key("j")
	m.key("j") // c_3
	v := modelView()
	v.Held = nil // the message was passed: every row moves up one
	m.setView(v, modelNow)
	if it, _ := m.current(); it.ID != "c_3" {
		t.Errorf("selected %s, want c_3", it.ID)
	}
	v = modelView()
	v.List.Chats = v.List.Chats[:1]
	v.Held, v.Requests = nil, nil
	m.setView(v, modelNow)
	if it, _ := m.current(); it.ID != "c_2" {
		t.Errorf("selected %s after its row went, want the last there is", it.ID)
	}
	// Until the person moves it, the selection stays on the first row:
	// what comes to wait for them first is selected.
	m = newTopModel()
	v = modelView()
	v.Held, v.Requests = nil, nil
	m.setView(v, modelNow)
	m.setView(modelView(), modelNow)
	if it, _ := m.current(); it.ID != "m_4" {
		t.Errorf("unmoved, selected %s, want the held message that came first", it.ID)
	}
	m.setView(&state.PersonView{List: &state.ChatList{}}, modelNow)
	if p, _ := m.key("p"); p != nil {
		t.Errorf("p with nothing on the screen pressed %+v", p)
	}
}

// The bell: for what is new, not for what was there at the start; once a
// chat a minute.
func TestTopBell(t *testing.T) {
	m := newTopModel()
	if m.setView(modelView(), modelNow) {
		t.Error("the first look rang")
	}
	if m.setView(modelView(), modelNow) {
		t.Error("nothing new rang")
	}
	v := modelView()
	v.Held = append(v.Held, state.HeldMessage{ID: "m_5", From: "c_9", To: "c_1"})
	if !m.setView(v, modelNow) {
		t.Error("a new held message did not ring")
	}
	v = modelView()
	v.Held = append(v.Held, state.HeldMessage{ID: "m_6", From: "c_9", To: "c_1"})
	if m.setView(v, modelNow.Add(30*time.Second)) {
		t.Error("c_9 rang twice in a minute")
	}
	v = modelView()
	v.Requests = append(v.Requests, &state.Request{ID: "r_2", By: "c_8", Target: "c_1"})
	if !m.setView(v, modelNow.Add(30*time.Second)) {
		t.Error("a new request from another chat did not ring")
	}
	v = modelView()
	v.List.Chats[0].State = state.StatusNeedsYou
	if !m.setView(v, modelNow.Add(31*time.Second)) {
		t.Error("a chat that now needs you did not ring")
	}
	v = modelView()
	v.Held = append(v.Held, state.HeldMessage{ID: "m_7", From: "c_9", To: "c_1"})
	if !m.setView(v, modelNow.Add(61*time.Second)) {
		t.Error("c_9 did not ring a minute on")
	}
}

func TestParseKeys(t *testing.T) {
	for in, want := range map[string][]string{
		"j":                {"j"},
		"\x1b[A\x1b[B":     {keyUp, keyDown},
		"\x1bOA\x1bOB":     {keyUp, keyDown},
		"\x1b":             {keyEsc},
		"\r":               {keyEnter},
		"\n":               {keyEnter},
		"\x03":             {keyQuit},
		"\x1b[1;5Aq":       {"q"},
		"pdyni":            {"p", "d", "y", "n", "i"},
		"\x1b[200~x\x00\t": {"x"},
	} {
		if got := parseKeys([]byte(in)); !reflect.DeepEqual(got, want) {
			t.Errorf("parseKeys(%q) = %q, want %q", in, got, want)
		}
	}
}

func FuzzParseKeys(f *testing.F) {
	for _, s := range []string{"jk", "\x1b[A", "\x1bO", "\x1b[", "\x1b[1;5", "\r\n\x03"} {
		f.Add([]byte(s))
	}
	known := map[string]bool{keyUp: true, keyDown: true, keyEnter: true, keyEsc: true, keyQuit: true}
	f.Fuzz(func(t *testing.T, b []byte) {
		for _, k := range parseKeys(b) {
			if !known[k] && (len(k) != 1 || k[0] < 0x20 || k[0] >= 0x7f) {
				t.Fatalf("parseKeys(%q) gave %q", b, k)
			}
		}
	})
}
