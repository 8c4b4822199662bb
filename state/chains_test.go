package state

import (
	"errors"
	"fmt"
	"os"
	"testing"
	"time"
)

// chainsHome makes c_1 (the sender: the person's reply running, in chain
// ch_1, Auto) and c_2 (the receiver, with a wake_cmd), and sets ch_1's
// count of replies started by messages to started.
func chainsHome(t *testing.T, started int) *Home {
	t.Helper()
	now := time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)
	h := logHome(t, nil, &now)
	mustUpdate(t, h, func(tx *Tx) error {
		if _, err := tx.Chats().Create(Actor{}, NewChat{Title: "Release notes", Folder: "/tmp", Mode: ModeAuto}); err != nil {
			return err
		}
		if _, err := tx.Chats().Create(Actor{}, NewChat{Title: "Fix the login", Folder: "/tmp", WakeCmd: "true"}); err != nil {
			return err
		}
		c, err := tx.Replies().Start(Actor{ID: "c_1"}, ReplyStart{Person: true, PID: os.Getpid()})
		if err != nil {
			return err
		}
		ch, err := tx.Messages().chain(c.Reply.Chain)
		if err != nil {
			return err
		}
		ch.Started = started
		tx.put(chainRel(ch.ID), ch, true)
		return nil
	})
	return h
}

func startedIn(t *testing.T, h *Home, chain string) int {
	t.Helper()
	n := 0
	if err := h.View(func(v *View) error {
		ch, err := v.Messages().chain(chain)
		n = ch.Started
		return err
	}); err != nil {
		t.Fatal(err)
	}
	return n
}

func chatOf(t *testing.T, h *Home, id string) *Chat {
	t.Helper()
	var c *Chat
	if err := h.View(func(v *View) (err error) { c, err = v.Chats().Get(id); return err }); err != nil {
		t.Fatal(err)
	}
	return c
}

// TestStartsBoundOnEveryPath: the bound of replies started by messages in
// one chain holds on every path by which a message starts a reply, through
// the one MessagesTx.startReply: a send to an idle chat is refused at the
// bound; a held message the person passes on, a reply that ends with one
// unread, and a harness's turn that ends with one waiting start nothing at
// the bound (the message waits for the next reply); below it each starts
// the reply and counts it once.
func TestStartsBoundOnEveryPath(t *testing.T) {
	for _, at := range []bool{false, true} {
		started := ChainStarted - 1
		if at {
			started = ChainStarted
		}
		t.Run(fmt.Sprintf("started=%d", started), func(t *testing.T) {
			want := started + 1 // what a reply started counts
			if at {
				want = started
			}
			t.Run("send", func(t *testing.T) {
				h := chainsHome(t, started)
				err := h.Update(func(tx *Tx) error {
					_, err := tx.Messages().Send(Actor{ID: "c_1"}, SendIn{To: "c_2", Text: "start", StartReply: true})
					return err
				})
				var be *BoundError
				if got := errors.As(err, &be) && be.Bound == BoundChainStarted; got != at {
					t.Fatalf("send: %v; want the bound refused: %v", err, at)
				}
				if startedIn(t, h, "ch_1") != want || (chatOf(t, h, "c_2").Wake != nil) == at {
					t.Errorf("send: started %d, wake %+v; want %d", startedIn(t, h, "ch_1"), chatOf(t, h, "c_2").Wake, want)
				}
			})
			t.Run("pass", func(t *testing.T) {
				h := chainsHome(t, started)
				hold := InboundHold
				mustUpdate(t, h, func(tx *Tx) error {
					if _, err := tx.Chats().Set(Actor{Terminal: true}, "c_2", ChatChange{Inbound: &hold}); err != nil {
						return err
					}
					_, err := tx.Messages().Send(Actor{ID: "c_1"}, SendIn{To: "c_2", Text: "start", StartReply: true})
					return err
				})
				mustUpdate(t, h, func(tx *Tx) error {
					_, err := tx.Messages().Pass(Actor{Terminal: true}, "m_1")
					return err
				})
				if startedIn(t, h, "ch_1") != want || (chatOf(t, h, "c_2").Wake != nil) == at {
					t.Errorf("pass: started %d, wake %+v; want %d", startedIn(t, h, "ch_1"), chatOf(t, h, "c_2").Wake, want)
				}
			})
			t.Run("after reply", func(t *testing.T) {
				h := chainsHome(t, started)
				mustUpdate(t, h, func(tx *Tx) error {
					if _, err := tx.Replies().Start(Actor{ID: "c_2"}, ReplyStart{PID: os.Getpid()}); err != nil {
						return err
					}
					m, err := tx.Messages().Send(Actor{ID: "c_1"}, SendIn{To: "c_2", Text: "start", StartReply: true})
					if err == nil && m.Answer.StartReply != StartAfterReply {
						t.Errorf("a busy chat: %s", m.Answer.StartReply)
					}
					return err
				})
				mustUpdate(t, h, func(tx *Tx) error {
					_, err := tx.Replies().End(Actor{ID: "c_2"}, ReplyEnd{})
					return err
				})
				if startedIn(t, h, "ch_1") != want || (chatOf(t, h, "c_2").Wake != nil) == at {
					t.Errorf("after reply: started %d, wake %+v; want %d", startedIn(t, h, "ch_1"), chatOf(t, h, "c_2").Wake, want)
				}
			})
			t.Run("harness", func(t *testing.T) {
				h := chainsHome(t, started)
				mustUpdate(t, h, func(tx *Tx) error {
					if _, err := tx.Replies().Start(Actor{ID: "c_2"}, ReplyStart{PID: os.Getpid()}); err != nil {
						return err
					}
					_, err := tx.Messages().Send(Actor{ID: "c_1"}, SendIn{To: "c_2", Text: "start", StartReply: true})
					return err
				})
				var going bool
				mustUpdate(t, h, func(tx *Tx) (err error) {
					going, err = tx.Sessions().ContinueWithMessage(Actor{ID: "c_2"}, "done", os.Getpid())
					return err
				})
				c := chatOf(t, h, "c_2")
				if going == at || startedIn(t, h, "ch_1") != want {
					t.Errorf("harness: going %v, started %d; want %d", going, startedIn(t, h, "ch_1"), want)
				}
				if !at && (c.Reply == nil || c.Reply.Chain != "ch_1" || !c.Reply.Unwatched || c.Wake != nil) {
					t.Errorf("harness: the reply the message started: %+v, wake %+v", c.Reply, c.Wake)
				}
			})
		})
	}
}

// TestBoundsAreTyped: each bound of SPEC §5 refuses with a *BoundError
// that names it and its number, is ErrBound and ErrRefused (exit 3), and
// says the same words as ever.
func TestBoundsAreTyped(t *testing.T) {
	me := &Chat{ID: "c_1"}
	to := &Chat{ID: "c_2"}
	wall := time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)
	recent := func(n int) []RecentSend {
		var rs []RecentSend
		for i := range n {
			rs = append(rs, RecentSend{To: "c_2", Sum: wordsSum(fmt.Sprint(i)), At: wall})
		}
		return rs
	}
	for _, tc := range []struct {
		bound  Bound
		limit  int
		ch     chain
		inbox  []string
		recent []RecentSend
		starts bool
		words  string
	}{
		{BoundChainMessages, 8, chain{Messages: 8}, nil, nil, false,
			"message refused: bound reached: 8 messages in one chain (a message of the person's starts a new one)"},
		{BoundChainStarted, 4, chain{Started: 4}, nil, nil, true,
			"message refused: bound reached: 4 replies started by messages in one chain"},
		{BoundChainPair, 3, chain{Pairs: map[string]int{"c_1>c_2": 3}}, nil, nil, false,
			"message refused: bound reached: 3 messages from chat c_1 to chat c_2 in one chain"},
		{BoundWaiting, 5, chain{}, []string{"m_1", "m_2", "m_3", "m_4", "m_5"}, nil, false,
			"message refused: bound reached: 5 messages already wait for chat c_2"},
		{BoundRepeat, 1, chain{}, nil, recent(1), false,
			"message refused: bound reached: the same words to chat c_2 once in 10 minutes"},
		{BoundWindowPair, 10, chain{}, nil, recent(10), false,
			"message refused: bound reached: 10 messages from chat c_1 to chat c_2 in 10 minutes"},
	} {
		ch := tc.ch
		if ch.Pairs == nil {
			ch.Pairs = map[string]int{}
		}
		to.Inbox, me.Recent = tc.inbox, tc.recent
		sum := wordsSum("words")
		if tc.bound == BoundRepeat {
			sum = wordsSum("0")
		}
		err := checkBounds(me, to, &ch, sum, wall, tc.starts)
		var be *BoundError
		if !errors.As(err, &be) || be.Bound != tc.bound || be.Limit != tc.limit {
			t.Errorf("%s: %v (%#v), want a BoundError of %d", tc.bound, err, be, tc.limit)
			continue
		}
		if !errors.Is(err, ErrBound) || !errors.Is(err, ErrRefused) || errors.Is(err, ErrUsage) {
			t.Errorf("%s: not ErrBound and ErrRefused: %v", tc.bound, err)
		}
		if err.Error() != tc.words {
			t.Errorf("%s: %q, want %q", tc.bound, err.Error(), tc.words)
		}
		// One below the bound, the same message goes.
		switch tc.bound {
		case BoundChainMessages:
			ch.Messages--
		case BoundChainStarted:
			ch.Started--
		case BoundChainPair:
			ch.Pairs["c_1>c_2"]--
		case BoundWaiting:
			to.Inbox = to.Inbox[1:]
		case BoundRepeat:
			me.Recent[0].At = wall.Add(-RepeatWindow)
		case BoundWindowPair:
			me.Recent = me.Recent[1:]
		}
		if err := checkBounds(me, to, &ch, sum, wall, tc.starts); err != nil {
			t.Errorf("%s: one below the bound: %v", tc.bound, err)
		}
	}
}

// TestTornSendTakesBackItsCounts: a keyed send that did not finish (its
// receiver's record never named it) takes back what it counted, on every
// bound it counted toward, so that the retry is not refused for it.
func TestTornSendTakesBackItsCounts(t *testing.T) {
	ch := &chain{ID: "ch_1", Pairs: map[string]int{}}
	me := &Chat{ID: "c_1"}
	wall := time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)
	ch.countMessage("c_1", "c_2", 1)
	ch.countStart(1)
	countRecent(me, "c_2", wordsSum("hi"), wall, true)
	if ch.Messages != 1 || ch.Pairs["c_1>c_2"] != 1 || ch.Started != 1 || len(me.Recent) != 1 {
		t.Fatalf("counted: %+v, %+v", ch, me.Recent)
	}
	ch.countMessage("c_1", "c_2", -1)
	ch.countStart(-1)
	countRecent(me, "c_2", wordsSum("hi"), time.Time{}, false)
	ch.countStart(-1) // never below nothing
	if ch.Messages != 0 || ch.Pairs["c_1>c_2"] != 0 || ch.Started != 0 || len(me.Recent) != 0 {
		t.Fatalf("taken back: %+v, %+v", ch, me.Recent)
	}
}
