package state

// Chains and the bounds that stop loops (SPEC §5). A reply the person's own
// message started begins a chain; any other reply joins the chain that led
// to it (a message's, a wake's, else the one the chat was in), so a chain's
// count carries through every reply it leads to and a loop of any length
// (two chats, three, more) is bounded. CONCH_HOME/chains/ch_N.json.

import (
	"encoding/hex"
	"slices"
	"strings"
	"time"

	"github.com/conch-sh/conch/state/digest"
)

// The bounds on chats talking to each other (SPEC §5), fixed rather than
// settings.
const (
	MaxMessageChars = 4000             // the words of one message
	ChainMessages   = 8                // messages in one chain, all told
	ChainStarted    = 4                // replies started by messages in one chain
	ChainPair       = 3                // messages from one chat to another in one chain
	MaxWaiting      = 5                // messages waiting (or held) for one chat at once
	RepeatWindow    = 10 * time.Minute // the same words to the same chat once in this long
	// WindowPair is a bound that nothing resets (no person's message, no
	// new chain): at most this many messages from one chat to another in
	// any RepeatWindow. conch cannot tell a harness's reply start --person
	// from one the model ran, so the chain bounds alone could be reset.
	WindowPair = 10
)

// chain is one chain of messages, CONCH_HOME/chains/ch_N.json: what the
// replies it led to have sent, for the bounds.
type chain struct {
	ID       string         `json:"id"`
	Messages int            `json:"messages"`
	Started  int            `json:"started"`
	Pairs    map[string]int `json:"pairs"` // "c_1>c_2": messages from c_1 to c_2
	Updated  time.Time      `json:"updated"`
}

func chainRel(id string) string { return "chains/" + id + ".json" }

func (d MessagesView) chain(id string) (*chain, error) {
	tx := d.v
	ch, err := load[chain](tx, chainRel(id))
	if err != nil {
		return nil, err
	}
	if ch != nil && ch.ID != id {
		return nil, tx.misnamed(chainRel(id), ch.ID)
	}
	if ch == nil {
		ch = &chain{ID: id}
	}
	if ch.Pairs == nil {
		ch.Pairs = map[string]int{}
	}
	return ch, nil
}

// currentChain is the chain the chat is in now: its running reply's, else
// the one it was last in. A chat that was never in one (no reply, no
// message read) begins one, so that what it sends is bounded too.
func (dom MessagesTx) currentChain(c *Chat) (string, error) {
	tx := dom.tx
	if c.Reply != nil && c.Reply.Chain != "" {
		return c.Reply.Chain, nil
	}
	if c.Chain != "" {
		return c.Chain, nil
	}
	id, err := tx.nextID("ch")
	if err != nil {
		return "", err
	}
	c.Chain = id
	if c.Reply != nil {
		c.Reply.Chain = id
	}
	return id, nil
}

// joinChain: a reply that reads a message joins the message's chain,
// unless the person's own message started it (the person's word begins a
// chain afresh). A loop of any length so carries one count all the way
// round.
func joinChain(c *Chat, chain string) {
	if chain == "" {
		return
	}
	if c.Reply != nil {
		if c.Reply.Person {
			return
		}
		c.Reply.Chain = chain
	}
	c.Chain = chain
}

// The bounds, each checked in one function below and counted in one: a
// chain's counts by countMessage and countStart, a sender's recent words
// by countRecent; what waits for a chat is its inbox itself. checkBounds
// asks them all of a message about to be sent, in this order, and
// MessagesTx.startReply asks startsBound again of a message about to start
// a reply.

// checkBounds refuses a message from me to to past one of the bounds,
// naming the first it reaches. starts: the message would start the
// receiver's reply now.
func checkBounds(me, to *Chat, ch *chain, sum string, now time.Time, starts bool) error {
	if err := ch.messagesBound(); err != nil {
		return err
	}
	if starts {
		if err := ch.startsBound(); err != nil {
			return err
		}
	}
	if err := ch.pairBound(me.ID, to.ID); err != nil {
		return err
	}
	if err := waitingBound(to); err != nil {
		return err
	}
	return recentBounds(me, to.ID, sum, now)
}

// messagesBound: at most ChainMessages messages in one chain, all told.
func (ch *chain) messagesBound() error {
	if ch.Messages >= ChainMessages {
		return boundf(BoundChainMessages, ChainMessages, "message refused: bound reached: %d messages in one chain (a message of the person's starts a new one)", ChainMessages)
	}
	return nil
}

// startsBound: at most ChainStarted replies started by messages in one
// chain.
func (ch *chain) startsBound() error {
	if ch.Started >= ChainStarted {
		return boundf(BoundChainStarted, ChainStarted, "message refused: bound reached: %d replies started by messages in one chain", ChainStarted)
	}
	return nil
}

// pairBound: at most ChainPair messages from one chat to another in one
// chain.
func (ch *chain) pairBound(from, to string) error {
	if ch.Pairs[pairKey(from, to)] >= ChainPair {
		return boundf(BoundChainPair, ChainPair, "message refused: bound reached: %d messages from chat %s to chat %s in one chain", ChainPair, from, to)
	}
	return nil
}

// waitingBound: at most MaxWaiting messages waiting for a chat at once.
func waitingBound(to *Chat) error {
	if waitingFor(to) >= MaxWaiting {
		return boundf(BoundWaiting, MaxWaiting, "message refused: bound reached: %d messages already wait for chat %s", MaxWaiting, to.ID)
	}
	return nil
}

// recentBounds: the same words from me to a chat once in RepeatWindow, and
// at most WindowPair messages from me to it in any RepeatWindow.
func recentBounds(me *Chat, to, sum string, now time.Time) error {
	toIt := 0
	for _, r := range recentSince(me.Recent, now) {
		if r.To != to {
			continue
		}
		if r.Sum == sum {
			return boundf(BoundRepeat, 1, "message refused: bound reached: the same words to chat %s once in %d minutes", to, int(RepeatWindow/time.Minute))
		}
		toIt++
	}
	if toIt >= WindowPair {
		return boundf(BoundWindowPair, WindowPair, "message refused: bound reached: %d messages from chat %s to chat %s in %d minutes", WindowPair, me.ID, to, int(RepeatWindow/time.Minute))
	}
	return nil
}

func pairKey(from, to string) string { return from + ">" + to }

// countMessage counts a message from one chat to another in its chain
// (toward messagesBound and pairBound); n -1 takes back what a send that
// did not finish counted.
func (ch *chain) countMessage(from, to string, n int) {
	ch.Messages = max(ch.Messages+n, 0)
	ch.Pairs[pairKey(from, to)] = max(ch.Pairs[pairKey(from, to)]+n, 0)
}

// countStart counts a reply a message started in its chain (toward
// startsBound); n -1 takes one back.
func (ch *chain) countStart(n int) { ch.Started = max(ch.Started+n, 0) }

// countRecent counts a message's words toward recentBounds (the window
// runs on the wall clock, now); with sent false it forgets the words of a
// send that did not finish, so that a retry is not taken for a repeat.
func countRecent(me *Chat, to, sum string, now time.Time, sent bool) {
	if !sent {
		me.Recent = slices.DeleteFunc(me.Recent, func(r RecentSend) bool { return r.To == to && r.Sum == sum })
		return
	}
	me.Recent = append(recentSince(me.Recent, now), RecentSend{To: to, Sum: sum, At: now})
}

// waitingFor counts the messages that wait for c: due, or held.
func waitingFor(c *Chat) int {
	n := len(c.InboxStart) + len(c.Held)
	for _, e := range c.Inbox {
		if validMessageID(e) {
			n++
		}
	}
	return n
}

func recentSince(rs []RecentSend, now time.Time) []RecentSend {
	var keep []RecentSend
	for _, r := range rs {
		if now.Sub(r.At) < RepeatWindow {
			keep = append(keep, r)
		}
	}
	return keep
}

// wordsSum is a digest of a message's words, white space folded, for the
// bound on the same words; the words themselves are not kept for it.
func wordsSum(text string) string {
	sum := digest.Sum256([]byte(strings.Join(strings.Fields(text), " ")))
	return hex.EncodeToString(sum[:12])
}
