package cli

import (
	"time"

	"github.com/conch-sh/conch/render"
	"github.com/conch-sh/conch/state"
)

// topModel is conch top without its terminal: what it shows, what is
// selected, and what a key does. A key that changes the home answers a
// topPress for the loop to carry out as the person's press; the model
// itself reads and writes nothing, so it is tested without a terminal.
type topModel struct {
	view     *state.PersonView
	items    []render.TopItem
	selected int
	// selKey is the selected item's kind and id: a refresh keeps the
	// selection on it wherever it moved, or as near as it was.
	selKey string
	// moved says the person has moved the selection: until then it stays
	// on the first row, so that what comes to wait for them first is
	// selected (a held message that arrives: p passes it).
	moved  bool
	detail string // the chat whose detail is open, "" for the list
	said   string
	// told is when each chat last rang the bell, for once a minute.
	told map[string]time.Time
}

// topPress is what a key asks of the home: exactly what the person's own
// command would do (conch message pass, dismiss, confirm, deny, chat set
// --inbound).
type topPress struct {
	Verb    string // pass, dismiss, confirm, deny, inbound
	ID      string // the message, request or chat
	Inbound string // for inbound: the chat's next inbound
}

// Keys, as the loop reads them from the terminal.
const (
	keyUp    = "up"
	keyDown  = "down"
	keyEnter = "enter"
	keyEsc   = "esc"
	keyQuit  = "q"
)

func newTopModel() *topModel { return &topModel{told: map[string]time.Time{}} }

// setView takes a fresh look at the home. It says whether something new
// waits for the person (the bell rings): a chat that now needs you, a
// request, a held message, at most once a chat a minute. The first look
// rings nothing: what waited before conch top started is on the screen.
func (m *topModel) setView(v *state.PersonView, now time.Time) (ring bool) {
	if m.view != nil {
		for _, chat := range newForPerson(m.view, v) {
			if last, ok := m.told[chat]; ok && now.Sub(last) < state.NotifyEvery && !now.Before(last) {
				continue
			}
			m.told[chat] = now
			ring = true
		}
	}
	m.view = v
	m.items = render.TopItems(v)
	if i := m.index(m.selKey); i >= 0 && m.moved {
		m.selected = i
	}
	if !m.moved {
		m.selected = 0
	}
	m.selected = max(min(m.selected, len(m.items)-1), 0)
	m.remember()
	return ring
}

// newForPerson are the chats whose doing something new is, that waits for
// the person in next and did not in prev (the chat counted as [notify]
// counts it: the one that needs you, asks for a stop, sent the message).
func newForPerson(prev, next *state.PersonView) []string {
	seen := map[string]bool{}
	for _, m := range prev.Held {
		seen[m.ID] = true
	}
	for _, r := range prev.Requests {
		seen[r.ID] = true
	}
	for _, c := range prev.List.Chats {
		if c.State == state.StatusNeedsYou {
			seen[c.ID] = true
		}
	}
	var out []string
	for _, m := range next.Held {
		if !seen[m.ID] {
			out = append(out, m.From)
		}
	}
	for _, r := range next.Requests {
		if !seen[r.ID] {
			out = append(out, r.By)
		}
	}
	for _, c := range next.List.Chats {
		if c.State == state.StatusNeedsYou && !seen[c.ID] {
			out = append(out, c.ID)
		}
	}
	return out
}

func (m *topModel) index(key string) int {
	for i, it := range m.items {
		if it.Kind+" "+it.ID == key {
			return i
		}
	}
	return -1
}

func (m *topModel) remember() {
	m.selKey = ""
	if it, ok := m.current(); ok {
		m.selKey = it.Kind + " " + it.ID
	}
}

func (m *topModel) current() (render.TopItem, bool) {
	if m.selected < 0 || m.selected >= len(m.items) {
		return render.TopItem{}, false
	}
	return m.items[m.selected], true
}

// key is one key pressed. It answers what the press asks of the home (nil:
// nothing), and whether to quit.
func (m *topModel) key(k string) (p *topPress, quit bool) {
	m.said = ""
	it, ok := m.current()
	switch k {
	case keyQuit:
		return nil, true
	case keyUp, "k":
		m.moved = true
		if m.detail == "" && m.selected > 0 {
			m.selected--
		}
	case keyDown, "j":
		m.moved = true
		if m.detail == "" && m.selected < len(m.items)-1 {
			m.selected++
		}
	case keyEnter:
		switch {
		case m.detail != "":
			m.detail = ""
		case ok:
			m.detail = it.Chat
		}
	case keyEsc:
		m.detail = ""
	case "p", "d":
		if !ok || it.Kind != render.TopHeld {
			m.said = "p and d act on a held message: select one with ↑/↓"
			break
		}
		verb := map[string]string{"p": "pass", "d": "dismiss"}[k]
		return &topPress{Verb: verb, ID: it.ID}, false
	case "y", "n":
		if !ok || it.Kind != render.TopRequest {
			m.said = "y and n act on a request: select one with ↑/↓"
			break
		}
		verb := map[string]string{"y": "confirm", "n": "deny"}[k]
		return &topPress{Verb: verb, ID: it.ID}, false
	case "i":
		chat := m.detail
		if chat == "" && ok && it.Kind == render.TopChat {
			chat = it.ID
		}
		if chat == "" {
			m.said = "i cycles a chat's inbound: select a chat with ↑/↓"
			break
		}
		return &topPress{Verb: "inbound", ID: chat, Inbound: nextInbound(m.view.Inbound[chat])}, false
	}
	m.remember()
	return nil, false
}

// nextInbound is the inbound after in: accept → hold → refuse → accept.
func nextInbound(in string) string {
	switch in {
	case state.InboundHold:
		return state.InboundRefuse
	case state.InboundRefuse:
		return state.InboundAccept
	}
	return state.InboundHold
}

// frame is what the screen shows now.
func (m *topModel) frame(d *state.ChatDetail, w, h int, color bool, now time.Time, home string) render.TopFrame {
	f := render.TopFrame{View: m.view, Selected: m.selected, Width: w, Height: h, Color: color, Now: now, Home: home, Said: m.said}
	if m.detail != "" {
		f.Detail = d
	}
	return f
}
