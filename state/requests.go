package state

// Stops one chat asks of another, and the requests among them that wait
// for the person's OK (SPEC §5): CONCH_HOME/requests/r_N.json. Every stop
// is a record, so that both chats' cards can say who stopped whom and why;
// a request is one that had to ask the person first (asked_person).

import (
	"slices"
	"sort"
	"time"
)

// A stop's states.
const (
	ReqWaiting = "waiting" // for the person's OK
	ReqStopped = "stopped" // the target's reply was stopped
	ReqEnded   = "ended"   // nothing was stopped: the reply ended first, or a chat was deleted
	ReqDenied  = "denied"  // the person said no
)

// Why a stop asks the person first.
const (
	BecauseAsk       = "ask-mode"  // the asking chat is in Ask mode
	BecauseOutside   = "outside"   // it read something from outside
	BecauseUnwatched = "unwatched" // its reply runs with nobody watching (a message started it)
)

// Request is one stop a chat asked for, CONCH_HOME/requests/r_N.json.
type Request struct {
	ID          string    `json:"id"`
	Kind        string    `json:"kind"` // stop
	By          string    `json:"by"`
	ByTitle     string    `json:"by_title"`
	Target      string    `json:"target"`
	TargetTitle string    `json:"target_title"`
	Reply       string    `json:"reply"` // the target's reply it stops
	Reason      string    `json:"reason"`
	Asked       time.Time `json:"asked"`
	AskedPerson bool      `json:"asked_person"`      // it waited for the person's OK
	Because     string    `json:"because,omitempty"` // why it did: ask-mode, outside, unwatched
	State       string    `json:"state"`
	Why         string    `json:"why,omitempty"` // ended: why nothing was stopped
	Decided     time.Time `json:"decided,omitzero"`
	Key         string    `json:"key,omitempty"`
}

func requestRel(id string) string { return "requests/" + id + ".json" }

// validRequestID says whether id has the shape of a request id.
func validRequestID(id string) bool { return validSerial(id, "r_") }

func (re RequestsView) record(id string) (*Request, error) {
	tx := re.v
	if !validRequestID(id) {
		return nil, nil
	}
	r, err := load[Request](tx, requestRel(id))
	if err == nil && r != nil && r.ID != id {
		return nil, tx.misnamed(requestRel(id), r.ID)
	}
	return r, err
}

// get reads one stop, as the actor may see it: the person every one,
// a chat those it asked for or that were asked of it.
func (re RequestsView) get(a Actor, id string) (*Request, error) {
	tx := re.v
	r, err := tx.Requests().record(id)
	if err != nil {
		return nil, err
	}
	if r == nil || (!a.Person() && a.ID != r.By && a.ID != r.Target) {
		return nil, refusedf("no request %s", id)
	}
	return r, nil
}

// all reads every stop record, oldest first.
func (re RequestsView) all() ([]*Request, error) {
	tx := re.v
	ids, err := tx.recordIDs("requests", validRequestID)
	if err != nil {
		return nil, err
	}
	var rs []*Request
	for _, id := range ids {
		r, err := tx.Requests().record(id)
		if err != nil {
			return nil, err
		}
		if r != nil {
			rs = append(rs, r)
		}
	}
	sort.Slice(rs, func(i, j int) bool { return serial(rs[i].ID) < serial(rs[j].ID) })
	return rs, nil
}

// List are the stops that wait for the person (no chat acting), or
// every stop the acting chat asked for.
func (re RequestsView) List(a Actor) ([]*Request, error) {
	tx := re.v
	out := []*Request{}
	if a.Person() {
		rs, err := tx.Requests().all()
		if err != nil {
			return nil, err
		}
		for _, r := range rs {
			if r.State == ReqWaiting {
				out = append(out, r)
			}
		}
		return out, nil
	}
	me, err := tx.Chats().Get(a.ID)
	if err != nil {
		return nil, err
	}
	for _, id := range me.Cards {
		r, err := tx.Requests().record(id)
		if err != nil {
			return nil, err
		}
		if r != nil && r.By == me.ID {
			out = append(out, r)
		}
	}
	return out, nil
}

// Confirm carries out a stop that waited for the person (their
// press). If the reply it would stop has ended since, nothing is stopped.
// Either way the asking chat hears how its request ended.
func (re RequestsTx) Confirm(a Actor, id string) (*Request, error) {
	tx := re.tx
	r, err := tx.Requests().waitingRequest(a, id, "confirming a request")
	if err != nil {
		return nil, err
	}
	now := tx.Now()
	target, err := tx.Chats().ifAny(r.Target)
	if err != nil {
		return nil, err
	}
	switch {
	case target == nil:
		r.State, r.Why = ReqEnded, "the chat was deleted"
	case target.Reply == nil || target.Reply.ID != r.Reply || !target.working():
		r.State, r.Why = ReqEnded, "its reply had ended"
	default:
		tx.Replies().stopNow(a, r, target)
	}
	r.Decided = now
	tx.put(requestRel(r.ID), r, true)
	return r, tx.Requests().tellAsker(r)
}

// Deny turns a waiting stop down (the person's press).
func (re RequestsTx) Deny(a Actor, id string) (*Request, error) {
	tx := re.tx
	r, err := tx.Requests().waitingRequest(a, id, "denying a request")
	if err != nil {
		return nil, err
	}
	r.State, r.Decided = ReqDenied, tx.Now()
	tx.put(requestRel(r.ID), r, true)
	return r, tx.Requests().tellAsker(r)
}

func (re RequestsView) waitingRequest(a Actor, id, what string) (*Request, error) {
	tx := re.v
	if !a.Press() {
		return nil, notPress(what)
	}
	r, err := tx.Requests().get(a, id)
	if err != nil {
		return nil, err
	}
	if r.State != ReqWaiting {
		return nil, &NotWaitingError{Request: r}
	}
	return r, nil
}

// NotWaitingError refuses a press on a request that no longer waits for
// the person (exit 3); how it ended, in words, is render's to say.
type NotWaitingError struct {
	Request *Request
}

func (e *NotWaitingError) Error() string {
	return "request " + e.Request.ID + " is not waiting (" + e.Request.State + ")"
}

// Unwrap is the refusal it is, an *Error of kind ErrRefused.
func (e *NotWaitingError) Unwrap() error { return &Error{Kind: ErrRefused, Msg: e.Error()} }

// tellAsker puts the request in the asking chat's inbox: its next notes
// says how the request ended.
func (re RequestsTx) tellAsker(r *Request) error {
	tx := re.tx
	asker, err := tx.Chats().ifAny(r.By)
	if err != nil || asker == nil {
		return err
	}
	if !slices.Contains(asker.Inbox, r.ID) {
		asker.Inbox = append(asker.Inbox, r.ID)
		tx.Chats().save(asker, true)
	}
	return nil
}

// requestsOnDelete: a chat is being deleted. Stops that wait for the
// person and that it asked for, or that were asked of it, end; a chat
// whose request so ended hears it.
func (re RequestsTx) onDelete(c *Chat) error {
	tx := re.tx
	rs, err := tx.Requests().all()
	if err != nil {
		return err
	}
	for _, r := range rs {
		if r.State != ReqWaiting || (r.By != c.ID && r.Target != c.ID) {
			continue
		}
		r.State, r.Why, r.Decided = ReqEnded, "the chat was deleted", tx.Now()
		tx.put(requestRel(r.ID), r, true)
		if r.By != c.ID {
			if err := tx.Requests().tellAsker(r); err != nil {
				return err
			}
		}
	}
	return nil
}
