package state

// Messages between chats (SPEC §5). A message is a durable record,
// CONCH_HOME/messages/m_N.json, written once when it is sent and again
// each time its state moves (waiting → read, held → waiting or dismissed,
// waiting → not delivered). Its receiver's chat record names it in Inbox,
// InboxStart or Held, in the same write that carries the sender's taint
// into the receiver, so a message is due exactly when the taint is there.
// A notes marks a message read in the transaction that prints it; a second
// notes sees it gone from the inbox, so no message is shown twice.

import (
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/conch-sh/conch/state/scrub"
)

// A message's states, as its cards say them.
const (
	MsgWaiting      = "waiting"
	msgRead         = "read"
	MsgHeld         = "held"
	MsgRefused      = "refused"
	msgDismissed    = "dismissed"
	MsgNotDelivered = "not-delivered"
)

// How a --start-reply message starts the receiver's reply.
const (
	StartWoke       = "woke"        // the receiver was idle: its wake_cmd runs now
	StartAfterReply = "after-reply" // it is busy: if this reply ends with the message unread, the next starts with it
	StartNextReply  = "next-reply"  // it has no wake_cmd: the message waits for its next reply
	// StartOpen: its harness session is open (in the person's terminal)
	// and idle: conch does not type into it, so the message waits for the
	// person to go back to it.
	StartOpen = "open"
	// StartDelivered: its session is open and idle in a harness that takes
	// a prompt into it (OpenCode's server): conch sent it its prompt.
	StartDelivered = "delivered"
)

// Message is one message between chats, CONCH_HOME/messages/m_N.json.
type Message struct {
	ID        string `json:"id"`
	From      string `json:"from"`
	FromTitle string `json:"from_title"`
	To        string `json:"to"`
	ToTitle   string `json:"to_title"`
	ToTask    bool   `json:"to_task"`
	// Text is the words with secrets already taken out; they are quoted
	// only when fenced, as they are read.
	Text  string    `json:"text"`
	Chain string    `json:"chain"`
	Sent  time.Time `json:"sent"`
	State string    `json:"state"`
	Why   string    `json:"why,omitempty"` // why it was not delivered
	// AtStart: its sender had read from outside, so it is read only at a
	// reply's start, never at a step.
	AtStart bool `json:"at_start"`
	// Taint is what the sender had read from outside when it sent it: it
	// goes into the receiver before the receiver can read the message.
	Taint      []string   `json:"taint,omitempty"`
	StartReply bool       `json:"start_reply"`
	Woke       bool       `json:"woke"`              // a reply was started for it
	Passed     bool       `json:"passed,omitempty"`  // the person passed it on: the chat's inbound no longer applies
	Done       time.Time  `json:"done,omitzero"`     // when it was read, dismissed or found undeliverable
	Answer     SendAnswer `json:"answer"`            // what its send answered, for a retry with the same key
	Key        string     `json:"key,omitempty"`     // the --key it was sent with
	Watched    *bool      `json:"watched,omitempty"` // --watch: whether the sender now watches the receiver
}

// SendAnswer is what `conch chat message` answered.
type SendAnswer struct {
	State      string `json:"state"`                 // waiting, held or refused
	Delivery   string `json:"delivery"`              // step (read at the receiver's next step) or reply-start
	StartReply string `json:"start_reply,omitempty"` // woke, after-reply, next-reply, open
	// Via is the harness whose own session resume wakes the receiver (or
	// whose open session holds the message), "" for a wake_cmd.
	Via string `json:"via,omitempty"`
}

func messageRel(id string) string { return "messages/" + id + ".json" }

// validMessageID says whether id has the shape of a message id.
func validMessageID(id string) bool { return validSerial(id, "m_") }

func validSerial(id, prefix string) bool {
	n, ok := strings.CutPrefix(id, prefix)
	if !ok || n == "" || len(n) > 10 || n[0] == '0' {
		return false
	}
	for _, r := range n {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

func serial(id string) int {
	_, n, _ := strings.Cut(id, "_")
	v, _ := strconv.Atoi(n)
	return v
}

func (d MessagesView) record(id string) (*Message, error) {
	tx := d.v
	if !validMessageID(id) {
		return nil, nil
	}
	m, err := load[Message](tx, messageRel(id))
	if err == nil && m != nil && m.ID != id {
		return nil, tx.misnamed(messageRel(id), m.ID)
	}
	return m, err
}

// get reads one message, as the actor may see it: the person sees
// every message, a chat only its own (sent or received).
func (d MessagesView) get(a Actor, id string) (*Message, error) {
	tx := d.v
	m, err := tx.Messages().record(id)
	if err != nil {
		return nil, err
	}
	if m == nil || (!a.Person() && a.ID != m.From && a.ID != m.To) {
		return nil, refusedf("no message %s", id)
	}
	return m, nil
}

// receives says whether `to` may receive messages and stops from me: one
// of the person's own chats (origin "" or app:*) or one of me's own tasks,
// with nobody else's words in it. Never a routine's run, another chat's
// task, an outside agent's or another app's chat.
func receives(me, to *Chat) bool {
	if len(to.Taint.Person) > 0 {
		return false
	}
	if to.IsTask() {
		return to.Parent == me.ID
	}
	return to.personsOwn()
}

// receiver is the chat id names, if me may message or stop it; anything
// else is no chat at all.
func (d MessagesView) receiver(a Actor, me *Chat, id string) (*Chat, error) {
	tx := d.v
	if id == me.ID {
		return nil, refusedf("chat %s cannot message or stop itself", id)
	}
	to, err := tx.Chats().Named(a, id)
	if err != nil {
		return nil, err
	}
	if !receives(me, to) {
		return nil, noChat(id)
	}
	return to, nil
}

// together checks that the acting chat may message or stop others: a chat
// that offers together (plan mode is checked after a key's replay).
func (d MessagesView) together(a Actor, verb string) (*Chat, error) {
	tx := d.v
	if a.Person() {
		return nil, needsChat(verb)
	}
	me, err := tx.Chats().Get(a.ID)
	if err != nil {
		return nil, err
	}
	if !me.offersTogether() {
		return nil, refusedf("%s is not offered to chat %s: only the person's own chats, with nobody else's words in them, may reach other chats", verb, me.ID)
	}
	return me, nil
}

// takes says whether c still takes message m now: "" yes; MsgHeld, it
// holds them for the person; MsgNotDelivered, not at all (and why). A
// message the person passed on is past the chat's inbound; m nil asks
// about messages in general.
func takes(c *Chat, m *Message) (state, why string) {
	switch {
	case len(c.Taint.Person) > 0:
		return MsgNotDelivered, "someone else's words came into it"
	case m != nil && m.Passed:
		return "", ""
	case c.Inbound == InboundRefuse:
		return MsgNotDelivered, "it turns messages from other chats away"
	case c.Inbound == InboundHold:
		return MsgHeld, ""
	}
	return "", ""
}

// SendIn is what `conch chat message` asks for.
type SendIn struct {
	To         string
	Text       string
	StartReply bool
	Watch      bool
	Key        string
	// Fits, when set, is asked about the words as they will be read
	// (secrets out) before anything is written: a message that no harness
	// could ever be shown is refused at send, rather than sitting due for
	// ever (issue 12, rule 14).
	Fits func(words string) error
}

// ValidMessageText checks a message's words: not empty, at most
// MaxMessageChars characters, UTF-8 without NUL.
func ValidMessageText(text string) error {
	if err := validText("message", text); err != nil {
		return err
	}
	if strings.TrimSpace(text) == "" {
		return usagef("the message is empty")
	}
	if n := utf8.RuneCountInString(text); n > MaxMessageChars {
		return usagef("the message is %d characters; at most %d", n, MaxMessageChars)
	}
	return nil
}

// Send sends a message from the acting chat (SPEC §5). A message
// the receiver turns away is recorded (state refused) and returned without
// error: the caller answers exit 3 after the record is written. A message
// past a bound is refused with the bound named, and writes nothing.
func (dom MessagesTx) Send(a Actor, in SendIn) (*Message, error) {
	tx := dom.tx
	if err := ValidMessageText(in.Text); err != nil {
		return nil, err
	}
	if err := validText("key", in.Key); err != nil {
		return nil, err
	}
	if err := maxBytes("key", in.Key, MaxKey); err != nil {
		return nil, err
	}
	me, err := tx.Messages().together(a, "chat message")
	if err != nil {
		return nil, err
	}
	key := ""
	if in.Key != "" {
		key = "chat message\x00" + me.ID + "\x00" + in.Key
		if m, err := tx.Messages().keyed(me, key); err != nil || m != nil {
			return m, err
		}
	}
	if me.Mode == ModePlan {
		return nil, refusedf("chat %s is in plan mode: it cannot message other chats", me.ID)
	}
	to, err := tx.Messages().receiver(a, me, in.To)
	if err != nil {
		return nil, err
	}
	text := tx.Messages().scrubber().Scrub(in.Text)
	if in.Fits != nil {
		if err := in.Fits(text); err != nil {
			return nil, err
		}
	}
	chainID, err := tx.Messages().currentChain(me)
	if err != nil {
		return nil, err
	}
	ch, err := tx.Messages().chain(chainID)
	if err != nil {
		return nil, err
	}
	now := tx.Now()
	sum := wordsSum(text)
	state := MsgWaiting
	switch to.Inbound {
	case InboundRefuse:
		state = MsgRefused
	case InboundHold:
		state = MsgHeld
	}
	outside := len(me.Taint.Outside) > 0
	willStart := in.StartReply && state == MsgWaiting && !to.working() && !to.waking() && tx.Wakes().canWake(to)
	// The bounds in time run on the wall clock: a sender that sets
	// CONCH_NOW ahead (or walks it through the past) must not age its own
	// recent sends out of them (issue 12, rule 6a: nothing resets them).
	wall := tx.h.Wall()
	if err := checkBounds(me, to, ch, sum, wall, willStart); err != nil {
		return nil, err
	}
	id, err := tx.nextID("m")
	if err != nil {
		return nil, err
	}
	m := &Message{
		ID: id, From: me.ID, FromTitle: me.Title, To: to.ID, ToTitle: to.Title, ToTask: to.IsTask(),
		Text: text, Chain: chainID, Sent: now, State: state, AtStart: outside,
		Taint: slices.Clone(me.Taint.Outside), StartReply: in.StartReply, Key: in.Key,
	}
	m.Answer = SendAnswer{State: state, Delivery: "reply-start"}
	if !outside && to.working() {
		m.Answer.Delivery = "step"
	}
	me.Cards = append(me.Cards, id)
	to.Cards = append(to.Cards, id)
	if !slices.Contains(to.Wrote, me.ID) {
		to.Wrote = append(to.Wrote, me.ID)
	}
	// A message turned away counts too: a chat cannot write to one that
	// refuses it without bound.
	ch.countMessage(me.ID, to.ID, 1)
	ch.Updated = now
	tx.put(chainRel(chainID), ch, true)
	countRecent(me, to.ID, sum, wall, true)
	switch state {
	case MsgWaiting:
		tx.Messages().deliver(to, m)
		if in.StartReply {
			if m.Answer.StartReply, err = tx.Messages().startReplyFor(to, m); err != nil {
				return nil, err
			}
		}
	case MsgHeld:
		to.Held = append(to.Held, id)
		tx.ripple().messageHeld(m)
	default:
		m.Done = now
	}
	if in.Watch && state != MsgRefused {
		w := tx.Chats().watch(me, to)
		m.Watched = &w
	} else if in.Watch {
		w := false
		m.Watched = &w
	}
	tx.put(messageRel(id), m, true)
	tx.Chats().save(me, true)
	tx.Chats().save(to, true)
	if key != "" {
		if err := tx.setKey(key, id); err != nil {
			return nil, err
		}
	}
	return m, nil
}

// keyed is the message an earlier send with the same key made, if
// that send finished (the receiver's record names it: it is written with
// the inbox). A send killed half way is marked not delivered and what it
// counted is taken back, and the retry sends anew.
func (dom MessagesTx) keyed(me *Chat, key string) (*Message, error) {
	tx := dom.tx
	id, err := tx.key(key)
	if err != nil || id == "" {
		return nil, err
	}
	m, err := tx.Messages().record(id)
	if err != nil || m == nil {
		return nil, err
	}
	to, err := tx.Chats().ifAny(m.To)
	if err != nil {
		return nil, err
	}
	if to == nil || slices.Contains(to.Cards, m.ID) {
		return m, nil
	}
	if m.State == MsgWaiting || m.State == MsgHeld || m.State == MsgRefused {
		m.State, m.Why, m.Done = MsgNotDelivered, "its send did not finish", tx.Now()
		tx.put(messageRel(m.ID), m, true)
		// The chain record is written before the message: the torn send
		// counted there, and perhaps in the sender's recent words.
		ch, err := tx.Messages().chain(m.Chain)
		if err != nil {
			return nil, err
		}
		ch.countMessage(m.From, m.To, -1)
		if m.Woke {
			ch.countStart(-1)
		}
		tx.put(chainRel(ch.ID), ch, true)
		countRecent(me, m.To, wordsSum(m.Text), time.Time{}, false) // the repeat bound keeps it one
		tx.Chats().save(me, true)
	}
	return nil, nil
}

// deliver puts a waiting message in its receiver's inbox, carrying the
// sender's outside taint in the same write.
func (d MessagesView) deliver(to *Chat, m *Message) {
	tx := d.v
	if len(m.Taint) > 0 {
		tx.Chats().carryTaint(&Chat{ID: m.From, Taint: Taint{Outside: m.Taint}}, to)
	}
	if m.AtStart {
		to.InboxStart = append(to.InboxStart, m.ID)
	} else {
		to.Inbox = append(to.Inbox, m.ID)
	}
}

// startReplyFor starts the receiver's reply for a --start-reply message
// that is now waiting for it, and says how (m.Answer.Via says through
// what: the harness whose session conch resumes, else its wake_cmd).
func (dom MessagesTx) startReplyFor(to *Chat, m *Message) (string, error) {
	tx := dom.tx
	way, r := tx.Wakes().wakeWay(to)
	if r != nil {
		m.Answer.Via = r.Harness
	}
	switch {
	case to.working():
		if way == wayNone {
			return StartNextReply, nil
		}
		return StartAfterReply, nil
	case way == wayNone:
		return StartNextReply, nil
	case way == wayOpen:
		tx.ripple().messageWaitsOpen(m)
		return StartOpen, nil
	case to.waking():
		// Another wake is on its way: the reply it starts reads this too.
		return StartWoke, nil
	}
	started, err := tx.Messages().startReply(to, m, byWakeCmd)
	if err != nil {
		return "", err
	}
	if started == nil {
		// Past its chain's bound (a held message the person passed on;
		// a send past it is refused before): it waits for the next reply.
		return StartNextReply, nil
	}
	if way == wayChannel {
		return StartDelivered, nil
	}
	return StartWoke, nil
}

// How the reply a message starts begins (MessagesTx.startReply).
type startBy int

const (
	// ByWakeCmd: conch runs the chat's wake_cmd once the change is
	// written (a chat without one cannot be started so).
	byWakeCmd startBy = iota
	// ByHarness: the harness that asks is there and goes on with the
	// reply itself (Claude Code's Stop hook answers with the message).
	byHarness
)

// startReply is the one path by which a message starts a reply of
// chat c (SPEC §5): for a --start-reply send (and a held one the person
// passes on), for a reply that ended with one unread, and for a harness's
// turn that ends with one waiting (Claude Code's Stop). It takes m, or,
// with m nil, the first --start-reply message waiting unread for c that c
// still takes and that its chain's bound lets start a reply. It checks
// that bound (startsBound), counts the reply against it, and records the
// wake, so that c's next reply is the message's: it joins the message's
// chain and runs unwatched, whatever --person says. It returns the message
// that starts the reply, or nil: none waits, or the bound is reached (the
// message then waits for c's next reply like any other). Whether c may be
// started now (idle, or its reply ending) is the caller's to say.
//
// Looking with m nil, a record it cannot read is passed over and its
// error returned, with the message found after it if any: the end of a
// reply goes on without it, a harness's turn fails with it (and then
// nothing is written).
func (dom MessagesTx) startReply(c *Chat, m *Message, by startBy) (*Message, error) {
	tx := dom.tx
	if by == byWakeCmd && !tx.Wakes().canWake(c) {
		return nil, nil
	}
	var first error
	var ch *chain
	if m != nil {
		var err error
		if ch, err = tx.Messages().chain(m.Chain); err != nil {
			return nil, err
		}
		if ch.startsBound() != nil {
			return nil, nil
		}
	} else {
		for _, e := range slices.Concat(c.Inbox, c.InboxStart) {
			x, err := tx.Messages().record(e) // nil for an entry that is not a message
			if err == nil && x != nil && x.StartReply && x.State == MsgWaiting {
				if s, _ := takes(c, x); s == "" {
					ch, err = tx.Messages().chain(x.Chain)
					if err == nil && ch.startsBound() == nil {
						m = x
						break
					}
				}
			}
			if err != nil && first == nil {
				first = err
			}
		}
		if m == nil {
			return nil, first
		}
	}
	now := tx.Now()
	ch.countStart(1)
	ch.Updated = now
	tx.put(chainRel(ch.ID), ch, true)
	m.Woke = true
	tx.put(messageRel(m.ID), m, true)
	if by == byWakeCmd {
		tx.Wakes().wake(c, wakeMessage, m.ID, m.Chain)
	} else {
		// Recorded before the reply ends, so that its end does not wake
		// the chat's wake_cmd for the same message: the harness is here.
		c.Wake = &Wake{Reason: wakeMessage, Message: m.ID, Chain: m.Chain, At: now}
		tx.Chats().save(c, true)
	}
	return m, first
}

// scrubber takes out the values of the variables [scrub] env names and
// anything shaped like a key. Only this path (and a wait's reply) loads
// the rules.
func (d MessagesView) scrubber() *scrub.Scrubber {
	tx := d.v
	return scrub.New(tx.Waits().secretValues())
}

// DueMessage is something the messages capability says in notes: a
// message due to be read now, with its frame's facts (Kind "message"), how
// a stop this chat asked for ended ("request"), or that a chat it wrote to
// was deleted ("gone").
type DueMessage struct {
	ID        string `json:"id"`
	Kind      string `json:"kind"`
	From      string `json:"from,omitempty"`
	FromTitle string `json:"from_title,omitempty"`
	Text      string `json:"text,omitempty"` // the words, secrets out, not yet quoted
	NoReply   bool   `json:"no_reply"`       // the receiver is a task: no hint to answer
	// For a request or a gone chat: the other chat, and how it ended.
	Chat    string `json:"chat,omitempty"`
	Title   string `json:"title,omitempty"`
	Outcome string `json:"outcome,omitempty"` // request: stopped, ended, denied
	Why     string `json:"why,omitempty"`
}

// The kinds of DueMessage.
const (
	DueMessageKind = "message"
	DueRequest     = "request"
	DueGone        = "gone"
)

// atStart says whether a notes now is at the chat's reply's start: no reply
// runs, or the running one has had no step yet. (The harness calls notes
// after reply start and after each step; only the first sees no step.)
func atStart(c *Chat) bool { return c.Reply == nil || c.Reply.Steps == 0 }

// inboxNow is the chat's inbox entries due now, oldest first.
func inboxNow(c *Chat) []string {
	if !atStart(c) || len(c.InboxStart) == 0 {
		return c.Inbox
	}
	all := append(slices.Clone(c.Inbox), c.InboxStart...)
	slices.SortStableFunc(all, func(x, y string) int {
		return serial(strings.TrimPrefix(x, "gone ")) - serial(strings.TrimPrefix(y, "gone "))
	})
	return all
}

// due is what the messages capability says at this notes.
// recheck says that some message can no longer be delivered as it is (the
// chat stopped taking messages, or it is gone): the notes must take the
// lock so markMessages records that.
func (d MessagesView) due(me *Chat) (due []DueMessage, recheck bool, err error) {
	tx := d.v
	due = []DueMessage{}
	entries := inboxNow(me)
	if len(entries) == 0 {
		return due, false, nil
	}
	for _, e := range entries {
		kind, id := DueMessageKind, e
		if rest, ok := strings.CutPrefix(e, "gone "); ok {
			kind, id = DueGone, rest
		} else if validSerial(e, "r_") {
			kind = DueRequest
		}
		switch kind {
		case DueMessageKind:
			m, err := tx.Messages().record(id)
			if err != nil {
				return nil, false, err
			}
			if m == nil || m.State != MsgWaiting {
				recheck = true
				continue
			}
			if refusal, _ := takes(me, m); refusal != "" {
				recheck = true
				continue
			}
			due = append(due, DueMessage{ID: m.ID, Kind: kind, From: m.From, FromTitle: m.FromTitle, Text: m.Text, NoReply: me.IsTask()})
		case DueGone:
			m, err := tx.Messages().record(id)
			if err != nil {
				return nil, false, err
			}
			if m == nil {
				recheck = true
				continue
			}
			due = append(due, DueMessage{ID: m.ID, Kind: kind, Chat: m.To, Title: m.ToTitle})
		case DueRequest:
			r, err := tx.Requests().record(id)
			if err != nil {
				return nil, false, err
			}
			if r == nil {
				recheck = true
				continue
			}
			due = append(due, DueMessage{ID: r.ID, Kind: kind, Chat: r.Target, Title: r.TargetTitle, Outcome: r.State, Why: r.Why})
		}
	}
	return due, recheck, nil
}

// mark records that ms were said: messages read (the reply joins
// their chain), the rest taken off the inbox. Under the lock it also
// checks the chat again: if it no longer takes messages, what waits for it
// is marked not delivered, with why (or held, if it now holds them).
func (dom MessagesTx) mark(me *Chat, ms []DueMessage) error {
	tx := dom.tx
	now := tx.Now()
	changed := false
	for _, d := range ms {
		entry := d.ID
		if d.Kind == DueGone {
			entry = "gone " + d.ID
		}
		read := false
		if d.Kind == DueMessageKind {
			if !slices.Contains(me.Inbox, entry) && !slices.Contains(me.InboxStart, entry) {
				continue // another notes read it first
			}
			m, err := tx.Messages().record(d.ID)
			if err != nil {
				return err
			}
			if m != nil && m.State == MsgWaiting {
				m.State, m.Done = msgRead, now
				tx.put(messageRel(m.ID), m, true)
				joinChain(me, m.Chain)
				read = true
			}
		}
		start := slices.Contains(me.InboxStart, entry)
		if dropEntry(me, entry) {
			changed = true
			if tx.marks != nil {
				tx.marks.Entries = append(tx.marks.Entries, receiptEntry{Entry: entry, Start: start, Read: read})
			}
		}
	}
	for _, e := range slices.Concat(me.Inbox, me.InboxStart) {
		isMsg := validMessageID(e)
		if validSerial(e, "r_") {
			r, err := tx.Requests().record(e)
			if err != nil {
				return err
			}
			if r == nil {
				changed = dropEntry(me, e) || changed
			}
			continue
		}
		m, err := tx.Messages().record(strings.TrimPrefix(e, "gone "))
		if err != nil {
			return err
		}
		state, why := "", ""
		if m != nil {
			state, why = takes(me, m)
		}
		switch {
		case m == nil || (isMsg && m.State != MsgWaiting):
			// Its record is gone, or it is no longer waiting: nothing to say.
		case !isMsg || state == "":
			continue
		case state == MsgHeld:
			m.State = MsgHeld
			tx.put(messageRel(m.ID), m, true)
			tx.ripple().messageHeld(m)
		default:
			m.State, m.Why, m.Done = MsgNotDelivered, why, now
			tx.put(messageRel(m.ID), m, true)
		}
		dropEntry(me, e)
		if m != nil && m.State == MsgHeld {
			me.Held = append(me.Held, m.ID)
		}
		changed = true
	}
	if changed {
		tx.Chats().save(me, true)
	}
	return nil
}

// dropEntry takes an entry off the chat's inbox lists.
func dropEntry(c *Chat, e string) bool {
	n := len(c.Inbox) + len(c.InboxStart) + len(c.Held)
	c.Inbox = without(c.Inbox, e)
	c.InboxStart = without(c.InboxStart, e)
	c.Held = without(c.Held, e)
	return len(c.Inbox)+len(c.InboxStart)+len(c.Held) != n
}

// messagesAfterReply: a reply ended. A --start-reply message it did not
// read starts the next reply now, through the wake_cmd, if the reply
// finished or failed by itself. A reply stopped, waiting for the person,
// or ended because another began (or its harness went) starts nothing:
// someone meant it to stop, or the next reply is already there to read it.
func (dom MessagesTx) afterReply(c *Chat) {
	tx := dom.tx
	if c.LastReply == nil || c.waking() || c.WakeCmd == "" || (len(c.Inbox) == 0 && len(c.InboxStart) == 0) {
		return
	}
	if o := c.LastReply.Outcome; o != OutcomeFinished && o != OutcomeFailed {
		return
	}
	// A record that cannot be read is passed over here: the reply's end
	// does not fail for it (the message waits for the next reply anyway).
	_, _ = tx.Messages().startReply(c, nil, byWakeCmd)
}

// messagesOnDelete: a chat is being deleted. What waits for it is not
// delivered; each chat that wrote to it hears so at its next notes (a
// "gone" entry naming the last message it sent there); stops it asked for
// or that were asked of it, still waiting for the person, end.
func (dom MessagesTx) onDelete(c *Chat) error {
	tx := dom.tx
	now := tx.Now()
	for _, e := range slices.Concat(c.Inbox, c.InboxStart, c.Held) {
		if !validMessageID(e) {
			continue
		}
		m, err := tx.Messages().record(e)
		if err != nil {
			return err
		}
		if m != nil && (m.State == MsgWaiting || m.State == MsgHeld) {
			m.State, m.Why, m.Done = MsgNotDelivered, "the chat was deleted", now
			tx.put(messageRel(m.ID), m, true)
		}
	}
	for _, w := range c.Wrote {
		writer, err := tx.Chats().ifAny(w)
		if err != nil {
			return err
		}
		if writer == nil {
			continue
		}
		for i := len(c.Cards) - 1; i >= 0; i-- {
			m, err := tx.Messages().record(c.Cards[i])
			if err != nil {
				return err
			}
			if m != nil && m.From == w && m.To == c.ID {
				writer.Inbox = append(writer.Inbox, "gone "+m.ID)
				tx.Chats().save(writer, true)
				break
			}
		}
	}
	return tx.Requests().onDelete(c)
}

// state is the state a card shows: the record's, except that a
// message whose send was cut short (its receiver's record never named it)
// is not delivered.
func (d MessagesView) state(m *Message) (state, why string, err error) {
	tx := d.v
	state, why = m.State, m.Why
	if state != MsgWaiting && state != MsgHeld {
		return state, why, nil
	}
	to, err := tx.Chats().ifAny(m.To)
	if err != nil {
		return "", "", err
	}
	if to != nil && !slices.Contains(to.Cards, m.ID) {
		return MsgNotDelivered, "its send did not finish", nil
	}
	return state, why, nil
}

// Pass passes a held message on to its receiver (the person's
// press): it waits for the receiver's next notes as if let in, and the
// sender's taint goes with it. A receiver that is gone, or that someone
// else's words came into, does not get it: not delivered.
func (dom MessagesTx) Pass(a Actor, id string) (*Message, error) {
	tx := dom.tx
	m, err := tx.Messages().held(a, id, "passing a held message on")
	if err != nil {
		return nil, err
	}
	now := tx.Now()
	to, err := tx.Chats().ifAny(m.To)
	if err != nil {
		return nil, err
	}
	switch {
	case to == nil:
		m.State, m.Why, m.Done = MsgNotDelivered, "the chat was deleted", now
	case len(to.Taint.Person) > 0:
		m.State, m.Why, m.Done = MsgNotDelivered, "someone else's words came into it", now
		dropEntry(to, m.ID)
		tx.Chats().save(to, true)
	default:
		// The person passes it: their word outweighs the chat's inbound.
		dropEntry(to, m.ID)
		m.State, m.Passed = MsgWaiting, true
		tx.Messages().deliver(to, m)
		if m.StartReply {
			if _, err := tx.Messages().startReplyFor(to, m); err != nil {
				return nil, err
			}
		}
		tx.Chats().save(to, true)
	}
	tx.put(messageRel(m.ID), m, true)
	return m, nil
}

// Dismiss dismisses a held message (the person's press).
func (dom MessagesTx) Dismiss(a Actor, id string) (*Message, error) {
	tx := dom.tx
	m, err := tx.Messages().held(a, id, "dismissing a held message")
	if err != nil {
		return nil, err
	}
	m.State, m.Done = msgDismissed, tx.Now()
	if to, err := tx.Chats().ifAny(m.To); err != nil {
		return nil, err
	} else if to != nil && dropEntry(to, m.ID) {
		tx.Chats().save(to, true)
	}
	tx.put(messageRel(m.ID), m, true)
	return m, nil
}

func (d MessagesView) held(a Actor, id, what string) (*Message, error) {
	tx := d.v
	if !a.Press() {
		return nil, notPress(what)
	}
	m, err := tx.Messages().get(a, id)
	if err != nil {
		return nil, err
	}
	state, why, err := tx.Messages().state(m)
	if err != nil {
		return nil, err
	}
	if state != MsgHeld {
		return nil, &NotHeldError{ID: id, State: state, Why: why}
	}
	return m, nil
}

// NotHeldError refuses a press on a message that is not held (exit 3); its
// state, in words, is render's to say.
type NotHeldError struct {
	ID, State, Why string
}

func (e *NotHeldError) Error() string { return "message " + e.ID + " is not held (" + e.State + ")" }

// Unwrap is the refusal it is, an *Error of kind ErrRefused.
func (e *NotHeldError) Unwrap() error { return &Error{Kind: ErrRefused, Msg: e.Error()} }

// Card is one message or stop as a card list shows it.
type Card struct {
	ID   string `json:"id"`
	Kind string `json:"kind"` // message, stop
	// Side is the card's side for the chat whose cards these are: "to" (it
	// sent the message, or asked for the stop) or "from" (it came to it);
	// "" in the person's list of every card.
	Side      string    `json:"side"`
	From      string    `json:"from"`
	FromTitle string    `json:"from_title"`
	To        string    `json:"to"`
	ToTitle   string    `json:"to_title"`
	State     string    `json:"state"`
	Why       string    `json:"why,omitempty"`
	At        time.Time `json:"at"`
	// Text is a message's words: shown to the person, to the chat that
	// sent it, and to its receiver once read; never to anyone else, and
	// never to the receiver before it reads them (a held message's words
	// stay with the person).
	Text       string `json:"text,omitempty"`
	Reason     string `json:"reason,omitempty"` // a stop's reason
	StartReply bool   `json:"start_reply,omitempty"`
	AskedFor   bool   `json:"asked_person,omitempty"` // a stop that waited for the person's OK
}

// Cards are the message and stop cards of chat id, as the actor may see
// them (a chat: its own, or those of a chat it may read); with id "" and
// no chat acting, every card in the home, each once.
func (d MessagesView) Cards(a Actor, id string) ([]Card, error) {
	tx := d.v
	cards := []Card{}
	var ids []string
	if id == "" && a.Person() {
		for _, dir := range []string{"messages", "requests"} {
			in, err := tx.recordIDs(dir, func(n string) bool { return validMessageID(n) || validRequestID(n) })
			if err != nil {
				return nil, err
			}
			ids = append(ids, in...)
		}
		// Oldest first: by number here, by time across the two kinds below.
		slices.SortStableFunc(ids, func(x, y string) int { return serial(x) - serial(y) })
	} else {
		if id == "" {
			id = a.ID
		}
		c, err := tx.Chats().Named(a, id)
		if err != nil {
			return nil, err
		}
		ids = c.Cards
	}
	// A chat sees no card of a chat it may not see (one no longer the
	// person's, since): not its title, not that it wrote.
	hidden := func(string) bool { return false }
	if !a.Person() {
		me, err := tx.Chats().Get(a.ID)
		if err != nil {
			return nil, err
		}
		hidden = func(other string) bool {
			if other == me.ID || other == id {
				return false
			}
			o, err := tx.Chats().Get(other)
			return err == nil && !canSee(me, o)
		}
	}
	for _, cid := range ids {
		side := ""
		if validRequestID(cid) {
			r, err := tx.Requests().record(cid)
			if err != nil {
				return nil, err
			}
			if r == nil || hidden(r.By) || hidden(r.Target) {
				continue
			}
			if id != "" {
				side = "to"
				if r.Target == id {
					side = "from"
				}
			}
			cards = append(cards, Card{
				ID: r.ID, Kind: "stop", Side: side, From: r.By, FromTitle: r.ByTitle, To: r.Target,
				ToTitle: r.TargetTitle, State: r.State, Why: r.Why, At: r.Asked, Reason: r.Reason, AskedFor: r.AskedPerson,
			})
			continue
		}
		m, err := tx.Messages().record(cid)
		if err != nil {
			return nil, err
		}
		if m == nil || hidden(m.From) || hidden(m.To) {
			continue
		}
		state, why, err := tx.Messages().state(m)
		if err != nil {
			return nil, err
		}
		if id != "" {
			side = "to"
			if m.To == id {
				side = "from"
			}
		}
		card := Card{
			ID: m.ID, Kind: "message", Side: side, From: m.From, FromTitle: m.FromTitle, To: m.To,
			ToTitle: m.ToTitle, State: state, Why: why, At: m.Sent, StartReply: m.StartReply,
		}
		if a.Person() || a.ID == m.From || (a.ID == m.To && state == msgRead) {
			card.Text = m.Text
		}
		cards = append(cards, card)
	}
	if id == "" {
		slices.SortStableFunc(cards, func(x, y Card) int { return x.At.Compare(y.At) })
	}
	return cards, nil
}
