package state

import (
	"strings"
	"time"
)

// What conch top shows the person (issue 17): every chat as the person's
// chats list has them, and what waits for the person. Read lock-free, like
// every read.

// PersonView is one look at the home for conch top.
type PersonView struct {
	List *ChatList
	// Computers names the computer of each listed chat, when the listed
	// chats are on more than one (nil when all are on one).
	Computers map[string]string
	// Inbound is each listed chat's inbound (accept, hold, refuse).
	Inbound map[string]string
	Held    []HeldMessage // oldest first
	// Open are --start-reply messages that wait, unread, for the person
	// to go back to their receiver's session, open in its harness.
	Open     []HeldMessage
	Requests []*Request // waiting for the person's OK, oldest first
}

// HeldMessage is a message held for the person: who to whom, and the first
// line of its words (secrets already out; cleaned where it is shown).
type HeldMessage struct {
	ID        string
	From      string
	FromTitle string
	To        string
	ToTitle   string
	FirstLine string
	Sent      time.Time
	Via       string // Open: the harness whose session is open
}

// Settled is a memo of the messages and requests whose state can no longer
// change (a message read, refused, dismissed or not delivered; a request
// decided), so that a view kept open reads each of them once.
type Settled map[string]bool

// Person looks at the home as the person. settled may be nil.
func (t TopView) Person(settled Settled) (*PersonView, error) {
	tx := t.v
	l, err := tx.Chats().List(Actor{}, false)
	if err != nil {
		return nil, err
	}
	v := &PersonView{List: l, Inbound: map[string]string{}}
	listed := map[string]bool{}
	for _, c := range l.Chats {
		listed[c.ID] = true
		// At most ListMax records: the view is the person's, not a step's.
		if r, err := tx.Chats().Get(c.ID); err == nil {
			v.Inbound[c.ID] = r.Inbound
		}
	}
	computers := map[string]string{}
	several := false
	first := ""
	if err := tx.Chats().scanIndex(func(s *Summary) {
		if !listed[s.ID] {
			return
		}
		computers[s.ID] = s.Computer
		if first == "" {
			first = s.Computer
		} else if s.Computer != first {
			several = true
		}
	}); err != nil {
		return nil, err
	}
	if several {
		v.Computers = computers
	}
	if v.Held, v.Open, err = tx.Messages().heldMessages(settled); err != nil {
		return nil, err
	}
	if v.Requests, err = tx.Requests().waitingRequests(settled); err != nil {
		return nil, err
	}
	return v, nil
}

// waitingRequests are the stops that wait for the person's OK, oldest
// first, as conch requests has them; a request decided is settled.
func (re RequestsView) waitingRequests(settled Settled) ([]*Request, error) {
	tx := re.v
	ids, err := tx.recordIDs("requests", validRequestID)
	if err != nil {
		return nil, err
	}
	out := []*Request{}
	for _, id := range ids {
		if settled[id] {
			continue
		}
		r, err := tx.Requests().record(id)
		if err != nil {
			return nil, err
		}
		switch {
		case r == nil:
		case r.State == ReqWaiting:
			out = append(out, r)
		case settled != nil:
			settled[id] = true
		}
	}
	sortBySerial(out, func(r *Request) string { return r.ID })
	return out, nil
}

// heldMessages are the messages held for the person, and those that wait
// for the person to go back to an open session, oldest first.
func (d MessagesView) heldMessages(settled Settled) (held, open []HeldMessage, err error) {
	tx := d.v
	ids, err := tx.recordIDs("messages", validMessageID)
	if err != nil {
		return nil, nil, err
	}
	var out []HeldMessage
	for _, id := range ids {
		if settled[id] {
			continue
		}
		m, err := tx.Messages().record(id)
		if err != nil {
			return nil, nil, err
		}
		if m == nil {
			continue
		}
		state, _, err := tx.Messages().state(m)
		if err != nil {
			return nil, nil, err
		}
		first, _, _ := strings.Cut(strings.TrimSpace(m.Text), "\n")
		h := HeldMessage{ID: m.ID, From: m.From, FromTitle: m.FromTitle, To: m.To, ToTitle: m.ToTitle, FirstLine: first, Sent: m.Sent, Via: m.Answer.Via}
		switch {
		case state == MsgHeld:
			out = append(out, h)
		case state == MsgWaiting && m.Answer.StartReply == StartOpen:
			open = append(open, h)
		}
		// Only the record's own state settles it: a send seen half
		// written (its receiver's record not yet naming it) looks not
		// delivered, and is held a moment later.
		if settled != nil && m.State != MsgHeld && m.State != MsgWaiting {
			settled[id] = true
		}
	}
	sortBySerial(out, func(h HeldMessage) string { return h.ID })
	sortBySerial(open, func(h HeldMessage) string { return h.ID })
	return out, open, nil
}

func sortBySerial[T any](xs []T, id func(T) string) {
	for i := 1; i < len(xs); i++ {
		for j := i; j > 0 && serial(id(xs[j])) < serial(id(xs[j-1])); j-- {
			xs[j], xs[j-1] = xs[j-1], xs[j]
		}
	}
}

// ChatDetail is the selected chat in conch top: the chat, its last events,
// its cards and its waits.
type ChatDetail struct {
	Shown  *ChatShown
	Events []Event
	Cards  []Card
	Waits  []*WaitView
}

// detailEvents is how many of a chat's last events its detail shows.
const detailEvents = 8

// Detail reads chat id whole, as the person sees it.
func (t TopView) Detail(id string) (*ChatDetail, error) {
	tx := t.v
	person := Actor{}
	c, err := tx.Chats().Named(person, id)
	if err != nil {
		return nil, err
	}
	shown, err := tx.Chats().Show(person, c)
	if err != nil {
		return nil, err
	}
	d := &ChatDetail{Shown: shown}
	since := max(shown.StateVersion-detailEvents, 0)
	if st, err := tx.Log().Status(person, id, &since); err == nil {
		d.Events = st.Events
	}
	if d.Cards, err = tx.Messages().Cards(person, id); err != nil {
		return nil, err
	}
	if len(d.Cards) > detailEvents {
		d.Cards = d.Cards[len(d.Cards)-detailEvents:]
	}
	// A chat's waits, as it sees them; one that may not wait has none.
	if ws, err := tx.Waits().List(Actor{ID: id}); err == nil {
		d.Waits = ws
	}
	return d, nil
}
