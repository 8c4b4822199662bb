package state

// Waits (SPEC §6): a chat (or the person) waits for another chat to stop
// working, or for a task it started to end.
//
// Each waiter has one durable record, CONCH_HOME/waits/WAITER.json (WAITER
// is a chat id, or "person"), holding its waits keyed by the target's id, so
// the same target twice is the same wait. A wait is registered until its
// target stops working; then the command that changed the target ends it
// (endWaitsOn, from the ripple points), writing how the target ended into
// the record, carrying the target's outside taint into the waiter and
// waking the waiter if nobody blocks on the wait. An ended wait stays in the
// record until the waiter is told (conch notes, or the blocking wait that
// returns). The chat records keep the graph in step: Chat.Waiting lists the
// targets of a chat's registered waits, Chat.Waiters the waiters on a chat.

import (
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/conch-sh/conch/state/scrub"
)

// PersonWaiter is the waiter key of the person (no chat acting).
const PersonWaiter = "person"

// ReplyTail is how many characters of a finished reply the waiting chat
// reads, from its end.
const ReplyTail = 800

// keepTail is how much of the target's text an ended wait keeps until it
// is told: far more than ReplyTail, so that taking the key shapes out when
// it is told, and only then cutting to ReplyTail, never meets a secret cut
// in two (a private key block is a few thousand characters).
const keepTail = 20 * ReplyTail

// Wait kinds.
const (
	WaitChat = "chat"
	WaitTask = "task"
)

// How a chat that was waited for ended (EndedWait.How); a task's is its
// state.
const (
	EndedFinished = "finished"  // its reply finished
	EndedStopped  = "stopped"   // stopped before its reply finished (stopped, failed, or its process gone)
	EndedNeedsYou = "needs-you" // it needs the person
	EndedIdle     = "idle"      // it never began a reply
	EndedGone     = "gone"      // deleted
	EndedHidden   = "hidden"    // there still, but no longer one the waiter may see
	// EndedNotWoken: conch woke it, but its harness never began the reply
	// (it could not start, log in or find its session): the message waits
	// for its next reply, and a later one can wake it again.
	EndedNotWoken = "not-woken"
)

// unseen says whether an ending tells nothing of the target: it is gone,
// or no longer the waiter's to see.
func (e *ending) unseen() bool { return e.How == EndedGone || e.How == EndedHidden }

// waits is one waiter's record, CONCH_HOME/waits/WAITER.json.
type waits struct {
	Waiter string           `json:"waiter"`
	Waits  map[string]*wait `json:"waits"` // by target id
}

// wait is one wait, registered or ended and not yet told.
type wait struct {
	Target string    `json:"target"`
	Kind   string    `json:"kind"` // chat, task
	Title  string    `json:"title"`
	Since  time.Time `json:"since"`
	// Chain is the chain the waiter was in: the reply its wake starts joins it.
	Chain string `json:"chain,omitempty"`
	// Blocker is the process blocking on the wait, if one is: while it
	// lives, it tells the waiter, and nobody wakes it.
	Blocker *Proc   `json:"blocker,omitempty"`
	Ended   *ending `json:"ended,omitempty"`
}

// Proc is a process, with its start time so a reused pid is not taken for it.
type Proc struct {
	PID   int    `json:"pid"`
	Start uint64 `json:"start,omitempty"`
}

// ending is how a waited-for chat or task ended, written when the wait ended.
type ending struct {
	At    time.Time `json:"at"`
	How   string    `json:"how"`             // EndedFinished…, or a task's state
	Reply string    `json:"reply,omitempty"` // the reply whose words Text holds
	Text  string    `json:"text,omitempty"`  // its words (a task's result), secrets out, the end kept
	Woke  bool      `json:"woke,omitempty"`  // the waiter's wake_cmd was run
}

// EndedWait is a wait that ended, as the waiting chat hears it.
type EndedWait struct {
	Target string    `json:"target"`
	Kind   string    `json:"kind"`
	Title  string    `json:"title"`
	How    string    `json:"how"`
	Text   string    `json:"text"` // the last 800 characters, secrets out; "" when bare
	Bare   bool      `json:"bare"` // someone else's words came into the waiter: how only
	Ended  time.Time `json:"ended"`
}

// WaitView is a wait as the wait commands print it.
type WaitView struct {
	Waiter   string     `json:"waiter"`
	Target   string     `json:"target"`
	Kind     string     `json:"kind"`
	Title    string     `json:"title"`
	State    string     `json:"state"` // waiting, ended, cancelled
	Since    time.Time  `json:"since"`
	Chain    string     `json:"chain,omitempty"`
	Blocking bool       `json:"blocking"`
	Ending   *EndedWait `json:"ending"`
	// Recorded says the ending came from a wait record, to be marked told
	// once said (an ending found at once was never recorded).
	Recorded bool `json:"-"`
}

// Wait view states.
const (
	waitWaiting   = "waiting"
	WaitEnded     = "ended"
	waitCancelled = "cancelled"
)

func waitsRel(waiter string) string { return "waits/" + waiter + ".json" }

// waiterOf is the waiter key of an actor.
func waiterOf(a Actor) string {
	if a.Person() {
		return PersonWaiter
	}
	return a.ID
}

// of reads a waiter's record, or a new empty one (kept in the
// transaction, so every reader in it shares one).
func (wa WaitsView) of(waiter string) (*waits, error) {
	tx := wa.v
	rel := waitsRel(waiter)
	ws, err := load[waits](tx, rel)
	if err != nil {
		return nil, err
	}
	if ws != nil && ws.Waiter != waiter {
		return nil, tx.misnamed(rel, ws.Waiter)
	}
	if ws != nil {
		for id, w := range ws.Waits {
			if w == nil || w.Target != id {
				return nil, &CorruptError{Path: tx.h.where(rel), Err: fmt.Errorf("its wait on %q is not a wait on that chat", id)}
			}
		}
	}
	if ws == nil {
		ws = &waits{Waiter: waiter}
		tx.read[rel] = ws
	}
	if ws.Waits == nil {
		ws.Waits = map[string]*wait{}
	}
	return ws, nil
}

// save writes a waiter's record, or removes it when it holds no wait.
func (wa WaitsTx) save(ws *waits) {
	tx := wa.tx
	rel := waitsRel(ws.Waiter)
	if len(ws.Waits) == 0 {
		tx.remove(rel)
		tx.recs.have[rel] = ws
		return
	}
	tx.put(rel, ws, true)
}

// stillWorking says whether a chat counts as working for whoever waits on
// it (SPEC §6): a reply running (its process there), a reply on its way in
// (a wake for a start-reply message, or for a wait of its own that ended),
// stopped under conch but set to carry on (recovery), or waiting for
// something of its own. A task works until its state is an ended one.
func (c *Chat) stillWorking() bool {
	if c.IsTask() {
		return taskGoingState(c.Task.State)
	}
	switch {
	case c.Reply != nil && c.Reply.Alive():
		return true
	case c.waking() && (c.Wake.Reason == wakeMessage || c.Wake.Reason == wakeWait):
		return true
	case c.Recovery && c.Status == StatusStopped:
		return true
	}
	return len(c.Waiting) > 0
}

// goneReply says whether the chat's running reply's process is gone: the
// reply did not finish, and the next command that writes must say so.
func (c *Chat) goneReply() bool { return c.Reply != nil && !c.Reply.Alive() }

// visibleTo says whether the waiter may still see the target: the person
// sees every chat; a chat sees the person's chats that are yours, and its
// own children and tasks.
func visibleTo(waiter string, c *Chat) bool {
	if waiter == PersonWaiter {
		return true
	}
	if len(c.Taint.Person) > 0 {
		return false
	}
	if c.IsTask() {
		return c.Parent == waiter
	}
	return c.yours() || c.Parent == waiter
}

// secretValues are the values of the [scrub] env variables, as this
// process sees them.
func (wa WaitsView) secretValues() []string {
	tx := wa.v
	var vals []string
	for _, name := range tx.h.Config.Scrub.Env {
		if v := tx.h.Getenv(name); v != "" {
			vals = append(vals, v)
		}
	}
	return vals
}

// takeOutValues takes the secret values (and their trimmed forms) out of
// text, longest first. It is the cheap half of scrubbing, for the command
// that ends a wait: that process may know values the waiter's does not,
// while the key shapes, the same wherever they are looked for, are taken
// out when the wait is told, so the command that ends a reply never pays
// to compile them.
func takeOutValues(text string, vals []string) string {
	return scrub.New(vals).TakeOutValues(text)
}

// tail is the last n characters of s.
func tail(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	i := len(s)
	for k := 0; k < n; k++ {
		_, size := utf8.DecodeLastRuneInString(s[:i])
		i -= size
	}
	return s[i:]
}

// endingOf is how c ended, now that it has stopped working: the secret
// values this process knows are taken out of its words before they are cut
// (the rest when the wait is told: see takeOutValues).
func (wa WaitsView) endingOf(c *Chat) ending {
	tx := wa.v
	e := ending{At: tx.Now()}
	text := ""
	switch {
	case c.IsTask():
		e.How, text = c.Task.State, c.Task.Result
	case c.Status == StatusNeedsYou:
		e.How = EndedNeedsYou
	case c.Wake != nil && c.Wake.dead && c.Reply == nil:
		e.How = EndedNotWoken // what it said before is not its answer
		return e
	case c.LastReply != nil:
		switch c.LastReply.Outcome {
		case OutcomeFinished:
			e.How = EndedFinished
		case outcomeNeedsYou:
			e.How = EndedNeedsYou
		default:
			e.How = EndedStopped
		}
	case c.Status == StatusStopped:
		e.How = EndedStopped
	default:
		e.How = EndedIdle
	}
	if !c.IsTask() && c.LastReply != nil {
		e.Reply, text = c.LastReply.ID, c.LastReply.Text
	}
	if text != "" {
		e.Text = tail(takeOutValues(text, tx.Waits().secretValues()), keepTail)
	}
	return e
}

// tell is an ended wait as the waiter hears it now: secrets taken out again
// (as this process knows them) before the cut, and only how it ended when
// someone else's words came into the waiter.
func (wa WaitsView) tell(waiter *Chat, w *wait) *EndedWait {
	tx := wa.v
	e := w.Ended
	ew := &EndedWait{Target: w.Target, Kind: w.Kind, Title: w.Title, How: e.How, Ended: e.At}
	if e.unseen() {
		// Nothing about a chat that is not (or no longer) one of yours.
		ew.Title = ""
		return ew
	}
	if waiter != nil && len(waiter.Taint.Person) > 0 {
		ew.Bare = true
		return ew
	}
	if e.Text != "" {
		ew.Text = tail(strings.TrimSpace(tx.Messages().scrubber().Scrub(e.Text)), ReplyTail)
	}
	return ew
}

// endWaitsOn ends the waits on c if it no longer works. A ripple point has
// no error to return: a record that cannot be read fails the transaction.
func (wa WaitsTx) endWaitsOn(a Actor, c *Chat) {
	tx := wa.tx
	if err := tx.Waits().endWaits(a, c); err != nil {
		tx.fail(err)
	}
}

func (wa WaitsTx) endWaits(a Actor, c *Chat) error {
	tx := wa.tx
	if len(c.Waiters) == 0 || c.stillWorking() {
		return nil
	}
	e := tx.Waits().endingOf(c)
	waiters := slices.Clone(c.Waiters)
	c.Waiters = nil
	tx.Chats().save(c, true)
	for _, w := range waiters {
		if err := tx.Waits().endWait(a, w, c, e); err != nil {
			return err
		}
	}
	return nil
}

// endWait ends one waiter's wait on target with e: written to its record,
// the target's outside taint carried into the waiter (before it can read
// the words), and the waiter woken unless a process blocks on the wait or
// its reply runs (it hears at its next step). A waiter that waited for
// nothing else and is not woken stops working itself, and the waits on it
// end in turn.
func (wa WaitsTx) endWait(a Actor, waiter string, target *Chat, e ending) error {
	tx := wa.tx
	target.Waiters = without(target.Waiters, waiter)
	ws, err := tx.Waits().of(waiter)
	if err != nil {
		return err
	}
	w := ws.Waits[target.ID]
	if w == nil || w.Ended != nil {
		return nil
	}
	switch {
	case e.How == EndedGone:
	case e.How == EndedHidden || !visibleTo(waiter, target):
		e = ending{At: e.At, How: EndedHidden}
	default:
		w.Title = target.Title
	}
	if waiter == PersonWaiter {
		w.Ended = &e
		tx.Waits().save(ws)
		return nil
	}
	me, err := tx.Chats().Get(waiter)
	if errors.Is(err, ErrNoChat) {
		delete(ws.Waits, target.ID)
		tx.Waits().save(ws)
		return nil
	}
	if err != nil {
		return err
	}
	me.Waiting = without(me.Waiting, target.ID)
	if !e.unseen() {
		tx.Chats().carryTaint(target, me)
	}
	if !w.blocked() && !me.working() {
		e.Woke = tx.Wakes().wake(me, wakeWait, "", w.Chain)
	}
	w.Ended = &e
	tx.Waits().save(ws)
	tx.Chats().save(me, true)
	return tx.Waits().settle(a, me)
}

// settle brings a chat's waiters up to date with it: a reply whose process
// is gone is ended as not finished (which ends the waits on the chat if it
// no longer works), else the waits on it end if it no longer works.
func (wa WaitsTx) settle(a Actor, c *Chat) error {
	tx := wa.tx
	if c.goneReply() {
		tx.Replies().end(a, c, outcomeGone, "")
		return tx.failed
	}
	return tx.Waits().endWaits(a, c)
}

// waitsAfterReply: a chat's reply ended while a wait of its own had ended
// and it had not yet heard (its reply ran, so it was not woken): it is woken
// now, so the next reply starts with it.
func (wa WaitsTx) afterReply(c *Chat) {
	tx := wa.tx
	if c.WakeCmd == "" || c.waking() || c.IsTask() {
		return
	}
	ws, err := tx.Waits().of(c.ID)
	if err != nil {
		tx.fail(err)
		return
	}
	for _, id := range sortedTargets(ws) {
		w := ws.Waits[id]
		if w.Ended != nil && !w.Ended.Woke && !w.blocked() {
			w.Ended.Woke = tx.Wakes().wake(c, wakeWait, "", w.Chain)
			tx.Waits().save(ws)
			return
		}
	}
}

func (w *wait) blocked() bool { return w.Blocker != nil && alive(w.Blocker.PID, w.Blocker.Start) }

func sortedTargets(ws *waits) []string {
	ids := make([]string, 0, len(ws.Waits))
	for id := range ws.Waits {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	return ids
}

// waitsOnDelete: a chat is being deleted. The waits on it end (it is gone),
// and its own waits go with it.
func (wa WaitsTx) onDelete(c *Chat) error {
	tx := wa.tx
	a := Actor{}
	e := ending{At: tx.Now(), How: EndedGone}
	for _, w := range slices.Clone(c.Waiters) {
		if err := tx.Waits().endWait(a, w, c, e); err != nil {
			return err
		}
	}
	c.Waiters = nil
	ws, err := tx.Waits().of(c.ID)
	if err != nil {
		return err
	}
	for _, id := range sortedTargets(ws) {
		if ws.Waits[id].Ended != nil {
			continue
		}
		t, err := tx.Chats().Get(id)
		if errors.Is(err, ErrNoChat) {
			continue
		}
		if err != nil {
			return err
		}
		t.Waiters = without(t.Waiters, c.ID)
		tx.Chats().save(t, true)
	}
	ws.Waits = nil
	tx.Waits().save(ws)
	c.Waiting = nil
	return nil
}

// Start is `conch wait chat ID` and `conch wait task ID`: it registers
// the actor's wait on the target, or finds the one registered (the same
// target is the same wait), or, when the target has already stopped
// working, answers how it ended at once. blocker is the process that will
// block on the wait (0: none). An ended answer that came from a record is
// marked told by WaitTold once it has been said.
func (wa WaitsTx) Start(a Actor, kind, id string, blocker int) (*WaitView, error) {
	tx := wa.tx
	if err := waitKind(kind, id); err != nil {
		return nil, err
	}
	me, err := tx.Chats().acting(a)
	if err != nil {
		return nil, err
	}
	if me != nil && !me.offersTogether() {
		return nil, refusedf("wait is not offered to chat %s: only a chat the person is in, with nobody else's words in it, waits on others", me.ID)
	}
	t, err := tx.Chats().Named(a, id)
	if err != nil {
		return nil, err
	}
	waiter := waiterOf(a)
	ws, err := tx.Waits().of(waiter)
	if err != nil {
		return nil, err
	}
	if w := ws.Waits[id]; w != nil && w.Ended != nil {
		return tx.Waits().view(me, waiter, w), nil
	}
	if me != nil && me.ID == id {
		return nil, loopf("chat %s cannot wait for itself: %s → %s", id, id, id)
	}
	// A reply whose process is gone did not finish: say so before asking
	// whether the target works.
	if err := tx.Waits().settle(a, t); err != nil {
		return nil, err
	}
	if w := ws.Waits[id]; w != nil {
		if w.Ended == nil && blocker != 0 {
			w.Blocker = procOf(blocker)
			tx.Waits().save(ws)
		}
		return tx.Waits().view(me, waiter, w), nil
	}
	if !t.stillWorking() {
		// Already not working: say how it ended, registering nothing.
		e := tx.Waits().endingOf(t)
		if me != nil {
			if tx.Chats().carryTaint(t, me) {
				tx.Chats().save(me, true)
			}
		}
		w := &wait{Target: id, Kind: kind, Title: t.Title, Since: tx.Now(), Ended: &e}
		v := tx.Waits().view(me, waiter, w)
		v.Recorded = false
		return v, nil
	}
	if me != nil {
		if loop, err := tx.Waits().waitLoop(me.ID, id); err != nil {
			return nil, err
		} else if loop != nil {
			return nil, loopf("chat %s cannot wait for %s: the waits would go round in a loop, %s", me.ID, id, strings.Join(loop, " → "))
		}
	}
	w := &wait{Target: id, Kind: kind, Title: t.Title, Since: tx.Now()}
	if me != nil {
		w.Chain = me.Chain
		me.Waiting = append(me.Waiting, id)
		tx.Chats().save(me, true)
	}
	if blocker != 0 {
		w.Blocker = procOf(blocker)
	}
	ws.Waits[id] = w
	tx.Waits().save(ws)
	t.Waiters = append(t.Waiters, waiter)
	tx.Chats().save(t, true)
	return tx.Waits().view(me, waiter, w), nil
}

func waitKind(kind, id string) error {
	switch kind {
	case WaitChat:
		if strings.HasPrefix(id, "t_") {
			return usagef("%s is a task: conch wait task %s", id, id)
		}
	case WaitTask:
		if strings.HasPrefix(id, "c_") {
			return usagef("%s is a chat: conch wait chat %s", id, id)
		}
	default:
		return usagef("wait kind %q: want chat or task", kind)
	}
	return nil
}

func procOf(pid int) *Proc {
	start, _ := procStart(pid)
	return &Proc{PID: pid, Start: start}
}

// waitLoop is the chain of waits that a wait of from on to would close, as
// ids from from back to from (c_1, c_2, c_3, c_1), or nil.
func (wa WaitsView) waitLoop(from, to string) ([]string, error) {
	tx := wa.v
	seen := map[string]bool{}
	var walk func(id string) ([]string, error)
	walk = func(id string) ([]string, error) {
		if id == from {
			return []string{id}, nil
		}
		if seen[id] {
			return nil, nil
		}
		seen[id] = true
		c, err := tx.Chats().Get(id)
		if errors.Is(err, ErrNoChat) {
			return nil, nil
		}
		if err != nil {
			return nil, err
		}
		for _, next := range c.Waiting {
			path, err := walk(next)
			if err != nil || path != nil {
				if path != nil {
					path = append([]string{id}, path...)
				}
				return path, err
			}
		}
		return nil, nil
	}
	path, err := walk(to)
	if path != nil {
		path = append([]string{from}, path...)
	}
	return path, err
}

// view is a wait as the wait commands print it.
func (wa WaitsView) view(me *Chat, waiter string, w *wait) *WaitView {
	tx := wa.v
	v := &WaitView{
		Waiter: waiter, Target: w.Target, Kind: w.Kind, Title: w.Title, State: waitWaiting,
		Since: w.Since, Chain: w.Chain, Blocking: w.blocked(),
	}
	if w.Ended != nil {
		v.State, v.Ending, v.Recorded = WaitEnded, tx.Waits().tell(me, w), true
		v.Title = v.Ending.Title
	}
	return v
}

// Told marks an ended wait said (a blocking wait returned with it, or
// a wait command found it ended): its record goes.
func (wa WaitsTx) Told(a Actor, target string, ended time.Time) error {
	tx := wa.tx
	ws, err := tx.Waits().of(waiterOf(a))
	if err != nil {
		return err
	}
	if w := ws.Waits[target]; w != nil && w.Ended != nil && w.Ended.At.Equal(ended) {
		delete(ws.Waits, target)
		tx.Waits().save(ws)
		if !a.Person() {
			// Told by a command a chat runs: the chat's notes say it
			// again if that command does not get out (receipts.go).
			tx.marks = &receipt{Chat: a.ID, Proc: tx.h.self(), Waits: []*wait{w}}
			tx.Notes().keepReceipt()
		}
	}
	return nil
}

// Of is the actor's wait on target as it is now, or nil. A blocking
// wait that gives up at its timeout asks it: one that ended meanwhile is
// said; else it stays registered, as if detached (its blocker gone, the
// chat is woken when it ends).
func (wa WaitsView) Of(a Actor, target string) (*WaitView, error) {
	tx := wa.v
	me, waiter, ws, err := tx.Waits().actorWaits(a)
	if err != nil {
		return nil, err
	}
	w := ws.Waits[target]
	if w == nil {
		return nil, nil
	}
	return tx.Waits().view(me, waiter, w), nil
}

// actorWaits is the acting chat (nil for the person), its name as a
// waiter, and its waits record.
func (wa WaitsView) actorWaits(a Actor) (me *Chat, waiter string, ws *waits, err error) {
	tx := wa.v
	if me, err = tx.Chats().acting(a); err != nil {
		return nil, "", nil, err
	}
	waiter = waiterOf(a)
	ws, err = tx.Waits().of(waiter)
	return me, waiter, ws, err
}

// Cancel is `conch wait cancel ID`: the actor's wait on the target goes,
// registered or ended.
func (wa WaitsTx) Cancel(a Actor, target string) (*WaitView, error) {
	tx := wa.tx
	me, waiter, ws, err := tx.Waits().actorWaits(a)
	if err != nil {
		return nil, err
	}
	w := ws.Waits[target]
	if w == nil {
		return nil, refusedf("no wait for %s", target)
	}
	v := tx.Waits().view(me, waiter, w)
	v.State = waitCancelled
	delete(ws.Waits, target)
	tx.Waits().save(ws)
	if w.Ended != nil {
		return v, nil
	}
	if t, err := tx.Chats().Get(target); err == nil {
		t.Waiters = without(t.Waiters, waiter)
		tx.Chats().save(t, true)
	} else if !errors.Is(err, ErrNoChat) {
		return nil, err
	}
	if me != nil {
		me.Waiting = without(me.Waiting, target)
		tx.Chats().save(me, true)
		// It waits for nothing more of its own: if that was all that kept it
		// working, the waits on it end.
		if err := tx.Waits().settle(a, me); err != nil {
			return nil, err
		}
	}
	return v, nil
}

// List is `conch wait list`: the actor's waits, by target.
func (wa WaitsView) List(a Actor) ([]*WaitView, error) {
	tx := wa.v
	me, waiter, ws, err := tx.Waits().actorWaits(a)
	if err != nil {
		return nil, err
	}
	out := []*WaitView{}
	for _, id := range sortedTargets(ws) {
		out = append(out, tx.Waits().view(me, waiter, ws.Waits[id]))
	}
	return out, nil
}

// Settle brings the actor's registered waits up to date with their
// targets: a target that stopped working without a command saying so (its
// reply's process gone, a wake that went away) ends them now. It says
// whether it changed anything.
func (wa WaitsTx) Settle(a Actor) (bool, error) {
	tx := wa.tx
	waiter := waiterOf(a)
	ws, err := tx.Waits().of(waiter)
	if err != nil {
		return false, err
	}
	changed := false
	for _, id := range sortedTargets(ws) {
		if ws.Waits[id].Ended != nil {
			continue
		}
		over, err := tx.Waits().targetOver(waiter, id)
		if err != nil {
			return false, err
		}
		if !over {
			continue
		}
		if err := tx.Waits().settleTarget(a, waiter, id); err != nil {
			return false, err
		}
		changed = true
	}
	return changed, nil
}

// targetOver says whether a registered wait's target has stopped working
// (or gone) without the wait having been ended: a read, changing nothing.
func (wa WaitsView) targetOver(waiter, id string) (bool, error) {
	tx := wa.v
	t, err := tx.Chats().Get(id)
	if errors.Is(err, ErrNoChat) {
		return true, nil
	}
	if err != nil {
		return false, err
	}
	return t.goneReply() || !t.stillWorking() || !visibleTo(waiter, t), nil
}

// settleTarget ends a registered wait whose target stopped working
// unannounced, and any other waits on that target.
func (wa WaitsTx) settleTarget(a Actor, waiter, id string) error {
	tx := wa.tx
	t, err := tx.Chats().Get(id)
	if errors.Is(err, ErrNoChat) {
		return tx.Waits().endWait(a, waiter, &Chat{ID: id}, ending{At: tx.Now(), How: EndedGone})
	}
	if err != nil {
		return err
	}
	if !visibleTo(waiter, t) {
		// No longer one the waiter may see: this wait ends alone, saying
		// nothing of it.
		if err := tx.Waits().endWait(a, waiter, t, ending{At: tx.Now(), How: EndedHidden}); err != nil {
			return err
		}
		tx.Chats().save(t, true)
		return nil
	}
	return tx.Waits().settle(a, t)
}

// ended are the waits of me that ended and that it must hear now: not
// those a live process blocks on (it tells them), and, found as they are
// read, registered ones whose target stopped working unannounced (ended
// for real, with the taint carried, in the transaction that marks them
// told).
func (wa WaitsView) ended(me *Chat) ([]EndedWait, error) {
	tx := wa.v
	ws, err := tx.Waits().of(me.ID)
	if err != nil {
		return nil, err
	}
	out := []EndedWait{}
	for _, id := range sortedTargets(ws) {
		w := ws.Waits[id]
		if w.blocked() {
			continue
		}
		if w.Ended != nil {
			out = append(out, *tx.Waits().tell(me, w))
			continue
		}
		over, err := tx.Waits().targetOver(me.ID, id)
		if err != nil {
			return nil, err
		}
		if !over {
			continue
		}
		if e := tx.Waits().endingNow(me.ID, id); e != nil {
			cp := *w
			cp.Ended = e
			out = append(out, *tx.Waits().tell(me, &cp))
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Ended.Before(out[j].Ended) })
	return out, nil
}

// endingNow is how a target that stopped working unannounced would be said
// to have ended (as settling it would write it), or nil if, once settled,
// it still works (stopped, but set to carry on).
func (wa WaitsView) endingNow(waiter, id string) *ending {
	tx := wa.v
	t, err := tx.Chats().Get(id)
	if err != nil {
		return &ending{At: tx.Now(), How: EndedGone}
	}
	if !visibleTo(waiter, t) {
		return &ending{At: tx.Now(), How: EndedHidden}
	}
	cp := *t
	if cp.goneReply() {
		r := *cp.Reply
		r.Outcome, r.Text = outcomeGone, ""
		cp.Reply, cp.LastReply, cp.Status = nil, &r, StatusStopped
	}
	if cp.stillWorking() {
		return nil
	}
	e := tx.Waits().endingOf(&cp)
	return &e
}

// mark records that the ended waits in ws were told: a registered one
// found over as it was read is ended for real first (its taint carried),
// and every told one leaves the record.
func (wa WaitsTx) mark(me *Chat, told []EndedWait) error {
	tx := wa.tx
	if len(told) == 0 {
		return nil
	}
	a := Actor{ID: me.ID}
	ws, err := tx.Waits().of(me.ID)
	if err != nil {
		return err
	}
	for _, t := range told {
		w := ws.Waits[t.Target]
		if w == nil {
			continue
		}
		if w.Ended == nil {
			if err := tx.Waits().settleTarget(a, me.ID, t.Target); err != nil {
				return err
			}
		}
		if w.Ended != nil {
			delete(ws.Waits, t.Target)
			if tx.marks != nil {
				tx.marks.Waits = append(tx.marks.Waits, w)
			}
		}
	}
	tx.Waits().save(ws)
	return nil
}

// Over says whether any registered wait of the actor has a target that
// stopped working unannounced (WaitsTx.Settle would change something): a read.
func (wa WaitsView) Over(a Actor) (bool, error) {
	tx := wa.v
	waiter := waiterOf(a)
	ws, err := tx.Waits().of(waiter)
	if err != nil {
		return false, err
	}
	for _, id := range sortedTargets(ws) {
		if ws.Waits[id].Ended != nil {
			continue
		}
		if over, err := tx.Waits().targetOver(waiter, id); err != nil || over {
			return over, err
		}
	}
	return false, nil
}
