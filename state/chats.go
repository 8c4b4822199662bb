package state

import (
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"time"
	"unicode/utf8"
)

// MaxTitle is the longest title, in characters, after cleaning.
const MaxTitle = 120

// Actor is who runs a command: a chat (ID set), or the person at the
// terminal. Terminal says whether standard input is one: a person's press
// (passing a held message, confirming a request) needs it.
type Actor struct {
	ID       string
	Terminal bool
}

// Person says whether no chat is acting.
func (a Actor) Person() bool { return a.ID == "" }

// Press says whether this is a person's press: no chat acting, and a terminal.
func (a Actor) Press() bool { return a.ID == "" && a.Terminal }

// ValidID says whether id has the shape of a chat or task id.
// (c_ or t_ and a number from 1, ten digits at most; checked by hand, not
// by a regexp compiled at start-up, which every command would pay for.)
func ValidID(id string) bool { return validSerial(id, "c_") || validSerial(id, "t_") }

func chatRel(id string) string {
	if strings.HasPrefix(id, "t_") {
		return "tasks/" + id + ".json"
	}
	return "chats/" + id + ".json"
}

func chatIDOf(rel string) (string, bool) {
	for _, dir := range []string{"chats/", "tasks/"} {
		if strings.HasPrefix(rel, dir) && strings.HasSuffix(rel, ".json") {
			return strings.TrimSuffix(strings.TrimPrefix(rel, dir), ".json"), true
		}
	}
	return "", false
}

func isApp(origin string) bool { return strings.HasPrefix(origin, "app:") && len(origin) > 4 }

// IsTask says whether the record is a task's.
func (c *Chat) IsTask() bool { return c.Task != nil }

// yours says whether the chat is the person's own (SPEC §1): origin "",
// app:* or routine, and nobody else's words in it. Tasks are not: they are
// their parent chat's.
func (c *Chat) yours() bool {
	return !c.IsTask() && len(c.Taint.Person) == 0 &&
		(c.Origin == "" || isApp(c.Origin) || c.Origin == "routine")
}

// offersTogether says whether the chat may list, message, stop and wait on
// the person's other chats.
func (c *Chat) offersTogether() bool {
	return !c.IsTask() && len(c.Taint.Person) == 0 && (c.Origin == "" || isApp(c.Origin))
}

// personsOwn says whether the chat is one the person is in (origin "" or
// app:*), whatever came into it since.
func (c *Chat) personsOwn() bool { return !c.IsTask() && (c.Origin == "" || isApp(c.Origin)) }

// trusted says whether the chat or task is the person's own work: an
// origin that is yours and nobody else's words in it. For a task this is
// "its parent is yours and free of person taint" (a task takes its
// parent's origin and taint when it is made), so the reader may speak to
// it and of it. Trust is inherited, never laundered: a chat or task made
// from another takes that one's origin (at most as yours) and its taint
// when it is made, and a person taint added later reaches everything made
// from it (spreadPerson), so this reads the record alone, never the
// parent chain: the hot commands open nothing more for it.
func (c *Chat) trusted() bool { return len(c.Taint.Person) == 0 && originRank(c.Origin) > 0 }

// trustRank orders chats by how much they are the person's: one that
// offers together, a routine's run, a task of the person's, anyone
// else's; nobody else's words before someone's, and within each, one
// that read nothing from outside first.
func (c *Chat) trustRank() int {
	base := 0
	switch {
	case c.offersTogether():
		base = 3
	case c.yours():
		base = 2
	case c.trusted():
		base = 1
	}
	r := base * 2
	if len(c.Taint.Outside) == 0 {
		r++
	}
	return r
}

// MoreYours says whether c is more the person's than o (trustRank).
func (c *Chat) MoreYours(o *Chat) bool { return c.trustRank() > o.trustRank() }

// originRank orders origins by how much they are yours: a chat the person
// is in (2), a routine's run (1), anyone else's (0).
func originRank(o string) int {
	switch {
	case o == "" || isApp(o):
		return 2
	case o == "routine":
		return 1
	}
	return 0
}

// inherit makes c, new, no more trusted than from, the chat it is made
// from: from's taint (outside and person) copied in, and an origin no more
// yours than from's.
func (ch ChatsView) inherit(c, from *Chat) {
	tx := ch.v
	if from == nil {
		return
	}
	tx.Chats().carryTaint(from, c)
	narrowReach(c, from)
	for _, who := range from.Taint.Person {
		if !slices.Contains(c.Taint.Person, who) {
			c.Taint.Person = append(c.Taint.Person, who)
		}
	}
	if originRank(c.Origin) > originRank(from.Origin) {
		c.Origin = from.Origin
	}
}

// working says whether a reply runs now.
func (c *Chat) working() bool { return c.Reply != nil && c.Reply.Alive() }

// Alive says whether the reply's harness process is still there.
//
// A reply on another computer is as its record says: its pid means nothing
// here, and its own computer's commands notice when it goes (SPEC §12).
func (r *Reply) Alive() bool { return r.remote || alive(r.PID, r.PIDStart) }

// readOn marks what the record holds that runs on another computer than
// here, as it is read.
func (c *Chat) readOn(here string) {
	if r := c.Reply; r != nil {
		r.remote = elsewhere(r.Computer, here)
	}
}

// elsewhere says whether computer is another than here ("" is an older
// record's: here).
func elsewhere(computer, here string) bool { return computer != "" && computer != here }

func alive(pid int, start uint64) bool {
	got, ok := procStart(pid)
	return ok && (start == 0 || got == 0 || got == start)
}

// state is the chat's state as the chat list has it.
func (c *Chat) state() string { return c.stateWith((*Reply).Alive) }

// stateWith is State with the liveness check given, for a caller that
// checks many replies and remembers what it found.
func (c *Chat) stateWith(alive func(*Reply) bool) string {
	if c.Reply != nil {
		if alive(c.Reply) {
			return StatusWorking
		}
		return StatusStopped
	}
	if c.IsTask() {
		return taskListState(c.Task.State)
	}
	return c.Status
}

func taskListState(state string) string {
	switch state {
	case TaskRunning, taskWaitingRoom:
		return StatusWorking
	case taskWaitingOK:
		return StatusNeedsYou
	case TaskDone, TaskUnverified:
		return StatusIdle
	}
	return StatusStopped
}

// active is when the chat last did anything.
func (c *Chat) active() time.Time {
	if c.Reply != nil && c.Reply.StepSince.After(c.LastActive) {
		return c.Reply.StepSince
	}
	return c.LastActive
}

// Get reads a chat or task record. A missing one is ErrNoChat.
func (ch ChatsView) Get(id string) (*Chat, error) {
	tx := ch.v
	c, err := tx.Chats().ifAny(id)
	if err == nil && c == nil {
		return nil, noChat(id)
	}
	return c, err
}

// ifAny reads a chat or task record, or nil when there is none (or
// the id is none a chat could have). A record that holds another id is
// corrupt: written back, it would land on the other's file.
func (ch ChatsView) ifAny(id string) (*Chat, error) {
	tx := ch.v
	if !ValidID(id) {
		return nil, nil
	}
	rel := chatRel(id)
	c, err := load[Chat](tx, rel)
	if err != nil || c == nil {
		return nil, err
	}
	if c.ID != id || c.IsTask() != strings.HasPrefix(id, "t_") {
		// A record under another's name would be written back under its own.
		return nil, &CorruptError{Path: tx.h.where(rel), Err: fmt.Errorf("it holds %s %q", kindOf(c), c.ID)}
	}
	if c.Wake != nil && !c.Wake.dead && !tx.changed(rel) {
		c.Wake.dead = wakeDead(c.Wake, tx.Now())
	}
	if r := tx.pending; r != nil && !r.dirty[rel] {
		if _, seen := r.loaded[id]; !seen {
			// As read from the file, which the index sums up; a record this
			// transaction made or changed is not in the index as it is here.
			r.loaded[id] = summarize(c)
		}
	}
	return c, nil
}

func kindOf(c *Chat) string {
	if c.IsTask() {
		return "task"
	}
	return "chat"
}

// acting is the chat the actor is, or nil for the person.
func (ch ChatsView) acting(a Actor) (*Chat, error) {
	tx := ch.v
	if a.Person() {
		return nil, nil
	}
	return tx.Chats().Get(a.ID)
}

// Named is the chat id as the actor may see it: the person sees every chat;
// a chat sees itself, the person's chats that are yours, and its own tasks
// and children. Anything else is, to it, no chat at all.
func (ch ChatsView) Named(a Actor, id string) (*Chat, error) {
	tx := ch.v
	c, err := tx.Chats().Get(id)
	if err != nil {
		return nil, err
	}
	if a.Person() || a.ID == id {
		return c, nil
	}
	me, err := tx.Chats().Get(a.ID)
	if err != nil {
		return nil, err
	}
	if !canSee(me, c) {
		return nil, noChat(id)
	}
	return c, nil
}

// canSee is the line of read access (SPEC §1): a chat that offers together
// sees the person's chats that are yours; any chat sees its own tasks and
// children. A chat with someone else's words in it, an outside agent's, a
// routine's run or a task sees no other chat of the person's.
func canSee(me, c *Chat) bool {
	if len(me.Taint.Person) > 0 {
		return false
	}
	if c.Parent == me.ID && len(c.Taint.Person) == 0 {
		return true
	}
	return me.offersTogether() && c.yours()
}

func (dom ChatsTx) save(c *Chat, durable bool) {
	tx := dom.tx
	tx.put(chatRel(c.ID), c, durable)
}

func validText(what, s string) error {
	if !utf8.ValidString(s) {
		return usagef("%s is not valid UTF-8", what)
	}
	if strings.ContainsRune(s, 0) {
		return usagef("%s holds a NUL byte", what)
	}
	return nil
}

func validTitle(t string) error {
	if err := validText("title", t); err != nil {
		return err
	}
	if strings.TrimSpace(t) == "" {
		return usagef("title is empty")
	}
	if n := utf8.RuneCountInString(t); n > MaxTitle {
		return usagef("title is %d characters after cleaning; at most %d", n, MaxTitle)
	}
	return nil
}

func validOrigin(o string) error {
	if slices.Contains(origins, o) {
		return nil
	}
	if name, ok := strings.CutPrefix(o, "app:"); ok {
		if !validAppName(name) {
			return usagef("origin app:%s: an app's name is 1 to %d of A-Z a-z 0-9 . _ -", cutBytes(name, 64), MaxAppName)
		}
		return nil
	}
	return usagef("origin %.64q: want \"\", app:NAME, routine, peer, client or artifact", o)
}

func oneOf(what, v string, allowed []string) error {
	if slices.Contains(allowed, v) {
		return nil
	}
	return usagef("%s %q: want one of %s", what, v, strings.Join(allowed, ", "))
}

func modeRank(m string) int { return slices.Index(Modes, m) }

func absFolder(dir string) (string, error) {
	if err := validText("folder", dir); err != nil {
		return "", err
	}
	if dir == "" {
		return "", usagef("folder is empty")
	}
	if err := maxBytes("folder", dir, MaxFolder); err != nil {
		return "", err
	}
	a, err := filepath.Abs(dir)
	if err != nil {
		return "", usagef("folder %s: %v", dir, err)
	}
	if err := maxBytes("folder", a, MaxFolder); err != nil {
		return "", err
	}
	return a, nil
}

// NewChat is what `conch chat new` asks for. Folder is already absolute.
type NewChat struct {
	Title, Folder, Origin, Parent, Mode, WakeCmd, StopCmd, Key string
	MCPOnly                                                    bool // made by conch mcp for a session whose hooks do not report
}

// Create registers a chat. The same key gives the same chat.
func (dom ChatsTx) Create(a Actor, in NewChat) (*Chat, error) {
	tx := dom.tx
	if err := validTitle(in.Title); err != nil {
		return nil, err
	}
	if err := validOrigin(in.Origin); err != nil {
		return nil, err
	}
	if in.Mode == "" {
		in.Mode = ModeAsk
	}
	if err := oneOf("mode", in.Mode, Modes); err != nil {
		return nil, err
	}
	folder, err := absFolder(in.Folder)
	if err != nil {
		return nil, err
	}
	for _, s := range []string{in.WakeCmd, in.StopCmd, in.Key} {
		if err := validText("argument", s); err != nil {
			return nil, err
		}
	}
	if err := boundedCommands(in.WakeCmd, in.StopCmd, in.Key); err != nil {
		return nil, err
	}
	in.Title = tx.Messages().scrubField(in.Title)
	me, err := tx.Chats().acting(a)
	if err != nil {
		return nil, err
	}
	if me != nil && (in.WakeCmd != "" || in.StopCmd != "") {
		return nil, refusedf("a chat cannot set a wake or stop command: the harness does")
	}
	if me != nil && in.Parent == "" {
		// A chat made from a chat is that chat's child.
		in.Parent = me.ID
	}
	var parent *Chat
	if in.Parent != "" {
		if parent, err = tx.Chats().Named(a, in.Parent); err != nil {
			return nil, err
		}
		if me != nil && parent.ID != me.ID && parent.Parent != me.ID {
			return nil, refusedf("chat %s cannot make a chat under chat %s: --parent names the chat itself or one of its own children", me.ID, parent.ID)
		}
		// A chat made by a chat gets at most its parent's mode.
		if modeRank(in.Mode) > modeRank(parent.Mode) {
			in.Mode = parent.Mode
		}
	}
	if me != nil && modeRank(in.Mode) > modeRank(me.Mode) {
		in.Mode = me.Mode
	}
	key := ""
	if in.Key != "" {
		key = "chat new\x00" + a.ID + "\x00" + in.Key
		if id, err := tx.key(key); err != nil {
			return nil, err
		} else if id != "" {
			if c, err := tx.Chats().Get(id); err == nil {
				return c, nil
			}
		}
	}
	id, err := tx.nextID("c")
	if err != nil {
		return nil, err
	}
	now := tx.Now()
	c := &Chat{
		ID: id, Title: in.Title, Origin: in.Origin, Folder: folder, Reach: reachOf(folder), Computer: tx.h.Computer,
		Status: StatusIdle, Mode: in.Mode, Inbound: InboundAccept, Parent: in.Parent,
		Created: now, LastActive: now, WakeCmd: in.WakeCmd, StopCmd: in.StopCmd, MCPOnly: in.MCPOnly,
	}
	if in.WakeCmd != "" || in.StopCmd != "" {
		// Only the harness sets them: its environment is the one they run in.
		c.CmdEnv = CmdEnvOf(tx.h.Getenv)
		tx.Chats().commandsSet(c)
	}
	tx.Chats().inherit(c, me)
	if parent != me {
		tx.Chats().inherit(c, parent)
	}
	tx.Chats().save(c, true)
	if key != "" {
		if err := tx.setKey(key, id); err != nil {
			return nil, err
		}
	}
	if parent != nil {
		tx.ripple().spawned(a, parent, c)
	}
	return c, nil
}

// ChatChange is what `conch chat set` asks for; nil fields stay as they are.
type ChatChange struct {
	Title    *string
	Status   *string
	Archived *bool
	Mode     *string
	Inbound  *string
	Goal     *string
	Browser  *bool
	Recovery *bool
	WakeCmd  *string
	StopCmd  *string
}

// Set changes a chat, under the rules of who may change what.
func (dom ChatsTx) Set(a Actor, id string, ch ChatChange) (*Chat, error) {
	tx := dom.tx
	if ch.Title != nil {
		if err := validTitle(*ch.Title); err != nil {
			return nil, err
		}
	}
	if ch.Status != nil {
		if err := oneOf("status", *ch.Status, statuses); err != nil {
			return nil, err
		}
	}
	if ch.Mode != nil {
		if err := oneOf("mode", *ch.Mode, Modes); err != nil {
			return nil, err
		}
	}
	if ch.Inbound != nil {
		if err := oneOf("inbound", *ch.Inbound, inbounds); err != nil {
			return nil, err
		}
	}
	for _, s := range []*string{ch.Goal, ch.WakeCmd, ch.StopCmd} {
		if s != nil {
			if err := validText("argument", *s); err != nil {
				return nil, err
			}
		}
	}
	if ch.Goal != nil {
		if err := maxChars("goal", *ch.Goal, MaxGoal); err != nil {
			return nil, err
		}
	}
	if err := boundedCommands(deref(ch.WakeCmd), deref(ch.StopCmd), ""); err != nil {
		return nil, err
	}
	c, err := tx.Chats().Named(a, id)
	if err != nil {
		return nil, err
	}
	if err := mayChange(a, c, ch); err != nil {
		return nil, err
	}
	if (ch.WakeCmd != nil || ch.StopCmd != nil) && tx.h.shared && elsewhere(c.Computer, tx.h.Computer) {
		return nil, refusedf("chat %s is on %s: its wake_cmd and stop_cmd are that computer's, set there", c.ID, c.Computer)
	}
	now := tx.Now()
	if ch.Title != nil {
		c.Title = tx.Messages().scrubField(*ch.Title)
	}
	if ch.Archived != nil {
		c.Archived = *ch.Archived
	}
	if ch.Mode != nil {
		c.Mode = *ch.Mode
	}
	if ch.Inbound != nil {
		c.Inbound = *ch.Inbound
	}
	if ch.Browser != nil {
		c.Browser = *ch.Browser
	}
	if ch.Recovery != nil {
		c.Recovery = *ch.Recovery
	}
	if ch.WakeCmd != nil {
		c.WakeCmd = *ch.WakeCmd
	}
	if ch.StopCmd != nil {
		c.StopCmd = *ch.StopCmd
	}
	if ch.WakeCmd != nil || ch.StopCmd != nil {
		// Only the harness sets them: its environment is the one they run in.
		c.CmdEnv = CmdEnvOf(tx.h.Getenv)
		tx.Chats().commandsSet(c)
	}
	if ch.Goal != nil {
		g := tx.Messages().scrubField(*ch.Goal)
		ch.Goal = &g
	}
	if ch.Goal != nil && *ch.Goal != c.Goal {
		c.Goal = *ch.Goal
		tx.ripple().goalChanged(a, c)
	}
	if ch.Status != nil {
		// A status set by hand ends the running reply, if any, and the
		// waits on the chat: it is not working any more.
		outcome := map[string]string{StatusIdle: OutcomeFinished, StatusNeedsYou: outcomeNeedsYou, StatusStopped: OutcomeStopped}[*ch.Status]
		if c.Reply != nil {
			tx.Replies().end(a, c, outcome, "")
		} else if *ch.Status != c.Status {
			tx.ripple().stoppedWorking(a, c)
			if *ch.Status == StatusNeedsYou {
				tx.ripple().nowNeedsYou(c)
			}
		}
		c.Status = *ch.Status
		c.LastActive = now
	}
	if ch.Status != nil || ch.Recovery != nil {
		tx.ripple().mayStopWorking(a, c)
	}
	tx.Chats().save(c, true)
	return c, nil
}

// mayChange is "who may change what" (SPEC §2): words a model wrote must
// never raise trust.
func mayChange(a Actor, c *Chat, ch ChatChange) error {
	harness := ch.Mode != nil || ch.WakeCmd != nil || ch.StopCmd != nil
	if a.Person() {
		if ch.Inbound != nil && looser(*ch.Inbound, c.Inbound) && !a.Press() {
			return notPress("letting more messages into chat " + c.ID)
		}
		return nil
	}
	if harness {
		return refusedf("mode, wake_cmd and stop_cmd are set by the harness, never by a chat")
	}
	if a.ID == c.ID {
		if ch.Inbound != nil && looser(*ch.Inbound, c.Inbound) {
			return refusedf("a chat may only make its own inbound stricter (accept, hold, refuse); letting more in is the person's press")
		}
		return nil
	}
	onlyGoal := ch == (ChatChange{Goal: ch.Goal})
	if c.Parent == a.ID && onlyGoal {
		return nil
	}
	return refusedf("chat %s cannot change chat %s: a chat may change only itself, and the goal of a chat it spawned", a.ID, c.ID)
}

func looser(to, from string) bool {
	return slices.Index(inbounds, to) < slices.Index(inbounds, from)
}

// AddTaint marks what came into a chat. Anyone may add outside taint: it
// only lowers trust. A person taint only the person, the harness (no chat
// acting) or the chat itself may add: from another chat it would be a way
// to shut the person's chats out of each other. A person taint reaches
// every chat and task made from this one (spreadPerson).
func (dom ChatsTx) AddTaint(a Actor, id string, outside, person string) (*Chat, error) {
	tx := dom.tx
	if (outside == "") == (person == "") {
		return nil, usagef("give one of --outside SOURCE or --person WHO")
	}
	if err := validText("taint", outside+person); err != nil {
		return nil, err
	}
	c, err := tx.Chats().Named(a, id)
	if err != nil {
		return nil, err
	}
	if person != "" && !a.Person() && a.ID != c.ID {
		return nil, refusedf("chat %s cannot add a person taint to chat %s: only the person, the harness or the chat itself may", a.ID, c.ID)
	}
	if outside != "" {
		c.Taint.Outside, _ = addSource(c.Taint.Outside, tx.Messages().scrubField(outside))
	}
	if person != "" {
		who := tx.Messages().scrubField(person)
		var added bool
		if c.Taint.Person, added = addSource(c.Taint.Person, who); added {
			if err := tx.Chats().spreadPerson(c, who); err != nil {
				return nil, err
			}
		}
	}
	tx.Chats().save(c, true)
	return c, nil
}

// spreadPerson adds a person taint just added to c to every chat and task
// made from it, through any number of generations (found by their parent
// in the index): yours holds only where the whole parent chain is free of
// person taint. Not a hot path: it runs when a person taint is added.
func (dom ChatsTx) spreadPerson(c *Chat, who string) error {
	tx := dom.tx
	ix, err := tx.Chats().Index()
	if err != nil {
		return err
	}
	children := map[string][]string{}
	for _, s := range ix.Chats {
		if s.Parent != "" {
			children[s.Parent] = append(children[s.Parent], s.ID)
		}
	}
	seen := map[string]bool{c.ID: true}
	next := children[c.ID]
	for len(next) > 0 {
		id := next[0]
		next = next[1:]
		if seen[id] {
			continue
		}
		seen[id] = true
		d, err := tx.Chats().Get(id)
		if errors.Is(err, ErrNoChat) {
			continue
		}
		if err != nil {
			return err
		}
		if !slices.Contains(d.Taint.Person, who) {
			d.Taint.Person = append(d.Taint.Person, who)
			tx.Chats().save(d, true)
		}
		next = append(next, children[id]...)
	}
	return nil
}

// carryTaint carries outside taint from one chat into another (and names
// the chat it came through). It says whether anything was added.
func (ch ChatsView) carryTaint(from, to *Chat) bool {
	added := false
	for _, src := range from.Taint.Outside {
		var more bool
		to.Taint.Outside, more = addSource(to.Taint.Outside, src)
		added = added || more
	}
	if len(from.Taint.Outside) > 0 {
		var more bool
		to.Taint.Outside, more = addSource(to.Taint.Outside, "chat "+from.ID)
		added = added || more
	}
	return added
}

// Delete deletes a chat: the person may delete any, a chat only itself.
func (dom ChatsTx) Delete(a Actor, id string) (*Chat, error) {
	tx := dom.tx
	c, err := tx.Chats().Named(a, id)
	if err != nil {
		return nil, err
	}
	if !a.Person() && a.ID != id {
		return nil, refusedf("chat %s cannot delete chat %s: only the person, or the chat itself", a.ID, id)
	}
	if err := tx.ripple().deleted(a, c); err != nil {
		return nil, err
	}
	tx.remove(chatRel(c.ID))
	tx.Sessions().dropResume(c.ID) // its harness's variables go with it
	return c, nil
}

// ChatShown is a chat as `conch chat show` gives it.
type ChatShown struct {
	*Chat
	State        string    `json:"state"`
	Active       time.Time `json:"active"`
	StateVersion int64     `json:"state_version"`
	// GoalWithheld and ResultWithheld: the goal (a task's result) carries
	// what the reader has not read from outside, and is "" here; render
	// says it is withheld in its place.
	GoalWithheld, ResultWithheld bool `json:"-"`
}

// Show is the chat as the actor may see it. The person sees it whole. A
// chat (issue 12, rule 18) sees no wake or stop command, no id of a chat it
// may not see, and of another chat no reply text, no cards, inbox, chain or
// wake, and no watcher, waiter or writer but itself; the file and tool
// names of another chat's replies come with secrets out.
func (ch ChatsView) Show(a Actor, c *Chat) (*ChatShown, error) {
	tx := ch.v
	v, err := tx.Log().Version(c.ID)
	if err != nil {
		return nil, err
	}
	cp := *c
	var goalHeld, resultHeld bool
	if !a.Person() {
		me, err := tx.Chats().Get(a.ID)
		if err != nil {
			return nil, err
		}
		if carries(c, me) {
			goalHeld = withhold(&cp.Goal)
			if cp.Task != nil {
				t := *cp.Task
				resultHeld = withhold(&t.Result)
				cp.Task = &t
			}
		}
		tx.Chats().showTo(me, &cp)
	}
	return &ChatShown{Chat: &cp, State: c.state(), Active: c.active(), StateVersion: v, GoalWithheld: goalHeld, ResultWithheld: resultHeld}, nil
}

// showTo narrows a copy of a chat's record to what chat me may see.
func (ch ChatsView) showTo(me *Chat, c *Chat) {
	tx := ch.v
	c.WakeCmd, c.StopCmd, c.CmdEnv = "", "", nil
	seen := map[string]bool{me.ID: true, "person": true}
	visible := func(id string) bool {
		if v, ok := seen[id]; ok {
			return v
		}
		o, err := tx.Chats().Get(id)
		seen[id] = err == nil && canSee(me, o)
		return seen[id]
	}
	if c.Parent != "" && !visible(c.Parent) {
		c.Parent = ""
	}
	outside := make([]string, 0, len(c.Taint.Outside))
	for _, src := range c.Taint.Outside {
		if id, ok := strings.CutPrefix(src, "chat "); ok && ValidID(id) && !visible(id) {
			src = "another chat"
		}
		if !slices.Contains(outside, src) {
			outside = append(outside, src)
		}
	}
	c.Taint.Outside = outside
	if c.ID == me.ID {
		c.Watchers = slices.DeleteFunc(slices.Clone(c.Watchers), func(id string) bool { return !visible(id) })
		c.Waiters = slices.DeleteFunc(slices.Clone(c.Waiters), func(id string) bool { return !visible(id) })
		c.Wrote = slices.DeleteFunc(slices.Clone(c.Wrote), func(id string) bool { return !visible(id) })
		c.Waiting = slices.DeleteFunc(slices.Clone(c.Waiting), func(id string) bool { return !visible(id) })
		return
	}
	mine := func(list []string) []string {
		if slices.Contains(list, me.ID) {
			return []string{me.ID}
		}
		return nil
	}
	c.Watchers, c.Waiters, c.Wrote = mine(c.Watchers), mine(c.Waiters), mine(c.Wrote)
	c.Waiting = nil
	c.Inbox, c.InboxStart, c.Held, c.Cards, c.Recent = nil, nil, nil, nil, nil
	c.Chain, c.Wake, c.Stopped = "", nil, nil
	for _, r := range []**Reply{&c.Reply, &c.LastReply} {
		if *r == nil {
			continue
		}
		cr := **r
		cr.Text, cr.Said, cr.Chain = "", nil, ""
		cr.Files, cr.LastFile = tx.Messages().scrubFields(cr.Files), tx.Messages().scrubField(cr.LastFile)
		cr.Tool = tx.Messages().scrubField(cr.Tool)
		*r = &cr
	}
}

// carries says whether words from c (its goal, a task's result) would carry
// into reader something from outside that reader has not read: then they
// are withheld from it (words that cross carry their taint). conch wait
// gives them, after it has tainted the reader.
func carries(c, reader *Chat) bool {
	if reader == nil || reader.ID == c.ID {
		return false
	}
	for _, src := range c.Taint.Outside {
		if !slices.Contains(reader.Taint.Outside, src) {
			return true
		}
	}
	return false
}

// withhold takes away words a reader must not read, and says whether
// there were any (render says, in their place, that they are withheld).
func withhold(words *string) bool {
	if *words == "" {
		return false
	}
	*words = ""
	return true
}
