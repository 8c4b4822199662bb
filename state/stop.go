package state

import (
	"slices"
	"strings"
	"unicode/utf8"
)

// MaxReason is the longest reason for a stop, in characters: it is said in
// one line to the stopped chat.
const MaxReason = 500

// StopIn is what `conch chat stop` asks for.
type StopIn struct {
	Target, Reason, Key string
}

// StopResult is what a stop did: nothing (the target was not working), a
// stop now (Request.State stopped), or a request that waits for the
// person (Request.State waiting, and the caller answers exit 4).
type StopResult struct {
	Target     string   `json:"target"`
	NotWorking bool     `json:"not_working"`
	Request    *Request `json:"request"`
}

// Stop stops another chat's reply (SPEC §5), as a chat that offers
// together and is not in plan mode, for a receiver of its messages. It
// asks the person first in Ask mode, or once the asking chat has read
// from outside or runs unwatched; in Auto with nothing read it stops the
// reply at once. A target that is not working has nothing to stop: nothing
// is recorded, not even the key.
func (re RepliesTx) Stop(a Actor, in StopIn) (*StopResult, error) {
	tx := re.tx
	if err := validText("reason", in.Reason); err != nil {
		return nil, err
	}
	if strings.TrimSpace(in.Reason) == "" {
		return nil, usagef("give a reason: --reason R")
	}
	if n := utf8.RuneCountInString(in.Reason); n > MaxReason {
		return nil, usagef("the reason is %d characters; at most %d", n, MaxReason)
	}
	if err := validText("key", in.Key); err != nil {
		return nil, err
	}
	if err := maxBytes("key", in.Key, MaxKey); err != nil {
		return nil, err
	}
	me, err := tx.Messages().together(a, "chat stop")
	if err != nil {
		return nil, err
	}
	key := ""
	if in.Key != "" {
		key = "chat stop\x00" + me.ID + "\x00" + in.Key
		if r, err := tx.Replies().keyedStop(key); err != nil || r != nil {
			return &StopResult{Target: in.Target, Request: r}, err
		}
	}
	if me.Mode == ModePlan {
		return nil, refusedf("chat %s is in plan mode: it cannot stop other chats", me.ID)
	}
	target, err := tx.Messages().receiver(a, me, in.Target)
	if err != nil {
		return nil, err
	}
	if !target.working() {
		return &StopResult{Target: target.ID, NotWorking: true}, nil
	}
	because := ""
	switch {
	case me.Mode != ModeAuto:
		because = BecauseAsk
	case len(me.Taint.Outside) > 0:
		because = BecauseOutside
	case me.Reply != nil && me.Reply.Unwatched:
		because = BecauseUnwatched
	}
	if because != "" {
		// Asked again for the same reply: the same request, not a second.
		for _, id := range me.Cards {
			r, err := tx.Requests().record(id)
			if err != nil {
				return nil, err
			}
			if r != nil && r.State == ReqWaiting && r.By == me.ID && r.Target == target.ID && r.Reply == target.Reply.ID {
				return &StopResult{Target: target.ID, Request: r}, nil
			}
		}
	}
	id, err := tx.nextID("r")
	if err != nil {
		return nil, err
	}
	r := &Request{
		ID: id, Kind: "stop", By: me.ID, ByTitle: me.Title, Target: target.ID, TargetTitle: target.Title,
		Reply: target.Reply.ID, Reason: tx.Messages().scrubber().Scrub(in.Reason), Asked: tx.Now(),
		AskedPerson: because != "", Because: because, State: ReqWaiting, Key: in.Key,
	}
	me.Cards = append(me.Cards, id)
	target.Cards = append(target.Cards, id)
	tx.Chats().save(me, true)
	if because == "" {
		tx.Replies().stopNow(a, r, target)
		r.Decided = r.Asked
	}
	tx.Chats().save(target, true)
	tx.put(requestRel(id), r, true)
	if r.State == ReqWaiting {
		tx.ripple().requestWaits(r)
	}
	if key != "" {
		if err := tx.setKey(key, id); err != nil {
			return nil, err
		}
	}
	return &StopResult{Target: target.ID, Request: r}, nil
}

// keyedStop is the stop an earlier command with the same key made, if it
// finished (the target's record names it, and it is written last). One
// killed half way ends with nothing stopped, and the retry stops anew.
func (re RepliesTx) keyedStop(key string) (*Request, error) {
	tx := re.tx
	id, err := tx.key(key)
	if err != nil || id == "" {
		return nil, err
	}
	r, err := tx.Requests().record(id)
	if err != nil || r == nil {
		return nil, err
	}
	target, err := tx.Chats().ifAny(r.Target)
	if err != nil {
		return nil, err
	}
	if target == nil || slices.Contains(target.Cards, r.ID) {
		return r, nil
	}
	if r.State == ReqWaiting || r.State == ReqStopped {
		r.State, r.Why, r.Decided = ReqEnded, "its command did not finish", tx.Now()
		tx.put(requestRel(r.ID), r, true)
	}
	return nil, nil
}

// stopNow stops the target's running reply: it ends as stopped, the
// target's next step or notes exits 5 with the notice and its next reply
// hears who stopped it and why, and its stop_cmd runs.
func (re RepliesTx) stopNow(a Actor, r *Request, target *Chat) {
	tx := re.tx
	target.Stopped = &StopNotice{By: r.By, ByTitle: r.ByTitle, Reason: r.Reason, At: tx.Now(), Reply: target.Reply.ID}
	if !slices.Contains(target.Cards, r.ID) {
		target.Cards = append(target.Cards, r.ID)
	}
	tx.Replies().end(a, target, OutcomeStopped, "")
	tx.Wakes().runStopCmd(target, r.By, r.Reason)
	r.State = ReqStopped
}
