package state

// Harness sessions: the link between a session that a harness runs (Claude
// Code, Codex) and the chat that stands for it, so that the hook adapters
// find the chat of every event they are handed. A link is kept per session,
// CONCH_HOME/sessions/HARNESS/KEY.json, so a hook reads one small record
// however many sessions the home has seen.

import (
	"encoding/hex"
	"errors"
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/conch-sh/conch/state/digest"
)

// ValidHarness says whether name can be a harness's id (package
// harness names each one): 1 to 32 lowercase letters and digits, so it is
// a folder's name (sessions/NAME) and nothing else.
func ValidHarness(name string) bool {
	if name == "" || len(name) > 32 {
		return false
	}
	for _, c := range name {
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

// linkedHarnesses are the harnesses whose sessions the home has links of
// (the folders of sessions/).
func (tx *View) linkedHarnesses() ([]string, error) {
	names, err := tx.h.store.List("sessions")
	if err != nil {
		return nil, err
	}
	var out []string
	for _, n := range names {
		if h, ok := strings.CutSuffix(n, "/"); ok && ValidHarness(h) {
			out = append(out, h)
		}
	}
	return out, nil
}

// SessionLink is one harness session's link to its chat.
type SessionLink struct {
	Harness    string            `json:"harness"`
	Session    string            `json:"session"`
	Chat       string            `json:"chat"`
	Agents     map[string]string `json:"agents,omitempty"` // a subagent's id → its child chat
	Transcript string            `json:"transcript,omitempty"`
	Created    time.Time         `json:"created"`
	// LastTurn is the last turn whose end was reported (Codex gives turns
	// ids), so that a Stop hook and the notify program that both report
	// one turn end one reply, not two.
	LastTurn string `json:"last_turn,omitempty"`
	// Deleted keeps, for each chat of the session that was deleted (its
	// own or a subagent's), what a chat remade for it must inherit: a
	// deleted chat's session is never a way to a cleaner one.
	Deleted map[string]*tombstone `json:"deleted,omitempty"`
	// ModeCap, once a chat was remade for the session, is the most its
	// chat's mode may be, whatever the harness reports since.
	ModeCap string `json:"mode_cap,omitempty"`
	// Shells are the conch commands running now in the session's shell,
	// by tool call, each with the subagent that runs it ("" for the
	// session itself): the shell is the session's, shared by its
	// subagents, and only the hook's payload says whose a command is.
	Shells map[string]string `json:"shells,omitempty"`
}

// tombstone is what a deleted chat leaves in its session's link.
type tombstone struct {
	Origin string `json:"origin"`
	Parent string `json:"parent,omitempty"`
	Mode   string `json:"mode"`
	Taint  Taint  `json:"taint"`
}

// remade makes c, the chat a session now stands for in place of a deleted
// one, no more trusted than that one was: its taint and at most its mode;
// and, when c was made for it just now (fresh), an origin no more yours
// and its parent. (A session that CONCH_CHAT names an existing chat for
// brings that chat the deleted one's taint, and changes nothing else of it.)
func (s SessionsTx) remade(c *Chat, t *tombstone, fresh bool) {
	tx := s.tx
	if t == nil {
		return
	}
	origin := c.Origin
	tx.Chats().inherit(c, &Chat{ID: c.ID, Origin: t.Origin, Taint: t.Taint})
	if !fresh {
		c.Origin = origin
	} else if c.Parent == "" {
		c.Parent = t.Parent
	}
	if modeRank(c.Mode) > modeRank(t.Mode) {
		c.Mode = t.Mode
	}
	tx.Chats().save(c, true)
}

// entomb leaves a tombstone for c, being deleted, in every harness
// session's link that names it. Not a hot path: a delete reads the links.
func (s SessionsTx) entomb(c *Chat) error {
	tx := s.tx
	harnesses, err := tx.linkedHarnesses()
	if err != nil {
		return err
	}
	for _, harness := range harnesses {
		dir := "sessions/" + harness
		entries, err := tx.recordIDs(dir, func(string) bool { return true })
		if err != nil {
			return err
		}
		for _, key := range entries {
			rel := dir + "/" + key + ".json"
			link, err := load[SessionLink](tx, rel)
			if err != nil {
				return err
			}
			if link == nil || (link.Chat != c.ID && !slices.Contains(slices.Collect(maps.Values(link.Agents)), c.ID)) {
				continue
			}
			if link.Deleted == nil {
				link.Deleted = map[string]*tombstone{}
			}
			link.Deleted[c.ID] = &tombstone{Origin: c.Origin, Parent: c.Parent, Mode: c.Mode, Taint: c.Taint}
			tx.put(rel, link, true)
		}
	}
	return nil
}

// plainKey says whether a session id may name its link file as it is: a
// letter or digit, then letters, digits, '.', '_' or '-', at most 128 in
// all. (Checked by hand: a regexp would be compiled at every start-up.)
func plainKey(key string) bool {
	if key == "" || len(key) > 128 {
		return false
	}
	for i, r := range key {
		alnum := r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9'
		if !alnum && (i == 0 || r != '.' && r != '_' && r != '-') {
			return false
		}
	}
	return true
}

// sessionRel is where a session's link is kept. A session id is the
// harness's word, not conch's: one that is not a plain name is hashed, so
// it can never reach outside the folder.
func sessionRel(harness, session string) string {
	key := session
	if !plainKey(key) || strings.Contains(key, "..") {
		sum := digest.Sum256([]byte(session))
		key = "h-" + hex.EncodeToString(sum[:16])
	}
	return "sessions/" + harness + "/" + key + ".json"
}

// SessionIn is what a hook adapter knows of a session from one event.
type SessionIn struct {
	Harness   string
	Session   string
	Agent     string // set when the event comes from inside a subagent
	AgentType string
	Folder    string // the harness's working folder, absolute
	Mode      string // the mode the harness reports, "" when it says none
	Title     string // a title the harness gave the session, cleaned
	// Transcript is the harness's own session file.
	Transcript string
	// Inherit is the chat named by CONCH_CHAT in the harness's environment:
	// a session started for a chat (its wake_cmd, or a person who set it)
	// becomes that chat; one started from inside a chat's running reply
	// becomes its child.
	Inherit string
	// Make says whether to make the chat when the session has none.
	Make bool
}

// Chat finds the chat linked to a harness session, or makes it (when
// in.Make). With in.Agent it is the subagent's child chat, made with the
// session's chat as its parent. The mode the harness reports is the
// chat's: the harness sets mode, never a chat (a child gets at most its
// parent's). But a hook that runs with a chat acting (in.Inherit: the
// session was started from inside a chat, whose model could have chosen
// what it reports) may lower the mode, never raise it. A chat remade for
// a session whose chat was deleted inherits that one's tombstone. It
// returns nil, false, nil when there is no chat and none was to be made.
func (s SessionsTx) Chat(in SessionIn) (c *Chat, made bool, err error) {
	tx := s.tx
	if err := in.valid(); err != nil {
		return nil, false, err
	}
	rel := sessionRel(in.Harness, in.Session)
	link, err := load[SessionLink](tx, rel)
	if err != nil {
		return nil, false, err
	}
	var main *Chat
	if link != nil {
		if main, err = tx.Chats().Get(link.Chat); err != nil && !errors.Is(err, ErrNoChat) {
			return nil, false, err
		}
	}
	if main == nil {
		// No link, or its chat was deleted since.
		if !in.Make {
			return nil, false, nil
		}
		fresh := false
		if main, fresh, err = tx.Sessions().sessionChat(in); err != nil {
			return nil, false, err
		}
		made = true
		if link == nil {
			link = &SessionLink{Harness: in.Harness, Session: in.Session, Created: tx.Now()}
		} else if t := link.Deleted[link.Chat]; t != nil {
			tx.Sessions().remade(main, t, fresh)
			if link.ModeCap == "" || modeRank(t.Mode) < modeRank(link.ModeCap) {
				link.ModeCap = t.Mode
			}
		}
		link.Chat = main.ID
		tx.put(rel, link, true)
	}
	if in.Transcript != "" && len(in.Transcript) <= MaxFolder && link.Transcript != in.Transcript {
		link.Transcript = in.Transcript
		tx.put(rel, link, true)
	}
	changed := false
	mode := in.Mode
	if mode != "" && link.ModeCap != "" && modeRank(mode) > modeRank(link.ModeCap) {
		mode = link.ModeCap
	}
	if mode != "" && main.Mode != mode && (in.Inherit == "" || modeRank(mode) < modeRank(main.Mode)) {
		main.Mode, changed = mode, true
	}
	if main.Title == "" && in.Title != "" {
		main.Title, changed = cutRunes(in.Title, MaxTitle), true
	}
	if changed {
		tx.Chats().save(main, true)
	}
	if in.Agent == "" {
		return main, made, nil
	}
	gone := ""
	if id := link.Agents[in.Agent]; id != "" {
		gone = id
		child, err := tx.Chats().Get(id)
		if err == nil {
			if modeRank(child.Mode) > modeRank(main.Mode) {
				child.Mode = main.Mode
				tx.Chats().save(child, true)
			}
			return child, made, nil
		}
		if !errors.Is(err, ErrNoChat) {
			return nil, false, err
		}
	}
	if !in.Make {
		return nil, false, nil
	}
	title := cutRunes(strings.TrimSpace(in.AgentType+" subagent"), MaxTitle)
	child, err := tx.Chats().newChat(title, main.Folder, main.Mode, main)
	if err != nil {
		return nil, false, err
	}
	if gone != "" {
		tx.Sessions().remade(child, link.Deleted[gone], true)
	}
	tx.ripple().spawned(Actor{ID: main.ID}, main, child)
	if link.Agents == nil {
		link.Agents = map[string]string{}
	}
	link.Agents[in.Agent] = child.ID
	tx.put(rel, link, true)
	return child, true, nil
}

// valid checks what a hook event says of its session.
func (in SessionIn) valid() error {
	if !ValidHarness(in.Harness) {
		return usagef("harness %q: not a harness's name", in.Harness)
	}
	for _, s := range []string{in.Session, in.Agent, in.AgentType, in.Folder, in.Title, in.Transcript} {
		if err := validText("session field", s); err != nil {
			return err
		}
	}
	if in.Session == "" {
		return usagef("the event names no session")
	}
	if err := maxBytes("agent id", in.Agent, MaxKey); err != nil {
		return err
	}
	if in.Mode != "" {
		return oneOf("mode", in.Mode, Modes)
	}
	return nil
}

// Find is the chat SessionsTx.Chat would answer for a session
// linked already, read without the lock and changing nothing (a mode or a
// title the event brings is the locked path's to write); nil when the
// session, or its subagent, has no chat yet.
func (s SessionsView) Find(in SessionIn) (*Chat, error) {
	tx := s.v
	if err := in.valid(); err != nil {
		return nil, err
	}
	link, err := load[SessionLink](tx, sessionRel(in.Harness, in.Session))
	if err != nil || link == nil {
		return nil, err
	}
	id := link.Chat
	if in.Agent != "" {
		if id = link.Agents[in.Agent]; id == "" {
			return nil, nil
		}
	}
	c, err := tx.Chats().Get(id)
	if errors.Is(err, ErrNoChat) {
		return nil, nil
	}
	return c, err
}

// sessionChat is the chat a new session stands for: the chat the
// harness's environment names when that one is idle (the session was
// started for it), its child when that one is working (a session started
// from inside its reply) or is a task, else a new chat of the person's.
// A child inherits its parent's taint and is never more yours than it.
func (s SessionsTx) sessionChat(in SessionIn) (c *Chat, fresh bool, err error) {
	tx := s.tx
	folder := in.Folder
	if folder == "" {
		return nil, false, usagef("the event names no folder")
	}
	folder = filepath.Clean(folder)
	mode := in.Mode
	if mode == "" {
		mode = ModeAsk
	}
	if in.Inherit != "" {
		if c, err := tx.Chats().Get(in.Inherit); err == nil {
			if !c.working() && !c.IsTask() {
				return c, false, nil
			}
			child, err := tx.Chats().newChat(cutRunes(in.Title, MaxTitle), folder, mode, c)
			if err != nil {
				return nil, false, err
			}
			tx.ripple().spawned(Actor{ID: c.ID}, c, child)
			return child, true, nil
		} else if !errors.Is(err, ErrNoChat) {
			return nil, false, err
		}
	}
	c, err = tx.Chats().newChat(cutRunes(in.Title, MaxTitle), folder, mode, nil)
	return c, err == nil, err
}

// newChat makes a chat the way a harness does: it may have no title yet (it
// takes one from the person's first prompt). A child of parent gets at most
// its mode, its taint, and an origin no more yours.
func (dom ChatsTx) newChat(title, folder, mode string, parent *Chat) (*Chat, error) {
	tx := dom.tx
	id, err := tx.nextID("c")
	if err != nil {
		return nil, err
	}
	now := tx.Now()
	c := &Chat{
		ID: id, Title: tx.Messages().scrubField(title), Folder: cutBytes(folder, MaxFolder), Computer: tx.h.Computer, Status: StatusIdle,
		Mode: mode, Inbound: InboundAccept, Created: now, LastActive: now,
	}
	c.Reach = reachOf(c.Folder)
	if parent != nil {
		c.Parent = parent.ID
		if modeRank(c.Mode) > modeRank(parent.Mode) {
			c.Mode = parent.Mode
		}
		tx.Chats().inherit(c, parent)
	}
	tx.Chats().save(c, true)
	return c, nil
}

// LinkOf is the link of a harness session, or nil.
func (s SessionsView) LinkOf(harness, session string) (*SessionLink, error) {
	tx := s.v
	if !ValidHarness(harness) || session == "" {
		return nil, nil
	}
	return load[SessionLink](tx, sessionRel(harness, session))
}

// EndTurn records that the end of a session's turn was reported, and says
// whether it had been already.
func (s SessionsTx) EndTurn(harness, session, turn string) (seen bool, err error) {
	tx := s.tx
	if turn == "" {
		return false, nil
	}
	rel := sessionRel(harness, session)
	link, err := load[SessionLink](tx, rel)
	if err != nil || link == nil {
		return false, err
	}
	if link.LastTurn == turn {
		return true, nil
	}
	link.LastTurn = turn
	tx.put(rel, link, true)
	return false, nil
}

// ChangedFiles adds files to the running reply's changed files, as an edit
// step would, without changing what the reply is doing now (the harness
// reports them after the tool ran). With no reply running, it is an edit
// step, which starts one.
func (s SessionsTx) ChangedFiles(a Actor, files []string, ppid int) (*Chat, error) {
	tx := s.tx
	c, err := tx.Chats().Get(a.ID)
	if err != nil {
		return nil, err
	}
	if c.Reply == nil || !c.Reply.Alive() {
		return tx.Replies().Step(a, StepIn{Family: "edit", Files: files, PPID: ppid})
	}
	for _, f := range files {
		if err := boundedFile(f); err != nil {
			return nil, err
		}
		f = filepath.Clean(f)
		if !slices.Contains(c.Reply.Files, f) && len(c.Reply.Files) < MaxFiles {
			c.Reply.Files = append(c.Reply.Files, f)
			c.Reply.LastFile = f
			tx.Chats().save(c, false)
		}
	}
	return c, nil
}

func cutRunes(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return strings.TrimRight(string(r[:n]), " ")
}

// TurnEnded says whether the end of a session's turn was reported already.
func (s SessionsView) TurnEnded(harness, session, turn string) (bool, error) {
	tx := s.v
	if turn == "" {
		return false, nil
	}
	link, err := tx.Sessions().LinkOf(harness, session)
	if err != nil || link == nil {
		return false, err
	}
	return link.LastTurn == turn, nil
}

// ContinueWithMessage is a harness's turn ending (Claude Code's Stop) while
// a --start-reply message waits for the chat, unread: the reply ends with
// its last words, and the reply the message starts begins at once, in the
// same session, so the harness can go on with the message instead of
// stopping. That reply is the message's, as if conch had woken the chat:
// it joins the message's chain, counts toward its bound of replies started
// by messages, and runs unwatched (MessagesTx.startReply, ByHarness). It
// says whether it did; a reply another chat stopped, or a message past its
// chain's bound, goes on nowhere.
func (s SessionsTx) ContinueWithMessage(a Actor, text string, pid int) (bool, error) {
	tx := s.tx
	c, err := tx.Chats().Get(a.ID)
	if err != nil {
		return false, err
	}
	if c.Reply == nil || c.StopPending() != nil || c.waking() {
		return false, nil
	}
	m, err := tx.Messages().startReply(c, nil, byHarness)
	if err != nil || m == nil {
		return false, err
	}
	if err := validText("text", text); err != nil {
		return false, err // nothing is written: the count and the wake go too
	}
	tx.Replies().end(a, c, OutcomeFinished, text)
	if _, err := tx.Replies().Start(a, ReplyStart{PID: pid}); err != nil {
		return false, err
	}
	return true, nil
}

// ShellStarted records that a tool call of the session (of its subagent
// agent, or "" for the session itself) runs a conch command in the
// session's shell.
func (s SessionsTx) ShellStarted(harness, session, toolUse, agent string) error {
	tx := s.tx
	if toolUse == "" || len(toolUse) > 256 {
		return nil
	}
	rel := sessionRel(harness, session)
	link, err := load[SessionLink](tx, rel)
	if err != nil || link == nil {
		return err
	}
	if link.Shells == nil {
		link.Shells = map[string]string{}
	}
	link.Shells[toolUse] = agent
	tx.put(rel, link, false)
	return nil
}

// ShellsEnded forgets the conch commands of a session's shell that ended:
// the tool call toolUse, or, with toolUse "", every one of agent (of the
// session itself when agent is "": its turn ended, while its background
// subagents may go on).
func (s SessionsTx) ShellsEnded(harness, session, toolUse, agent string) error {
	tx := s.tx
	rel := sessionRel(harness, session)
	link, err := load[SessionLink](tx, rel)
	if err != nil || link == nil || len(link.Shells) == 0 {
		return err
	}
	n := len(link.Shells)
	for id, ag := range link.Shells {
		if id == toolUse || toolUse == "" && ag == agent {
			delete(link.Shells, id)
		}
	}
	if len(link.Shells) != n {
		tx.put(rel, link, false)
	}
	return nil
}

// ShellChat is the chat a conch command run in a harness session's shell
// acts as, when the command names the session's own chat (its exported
// CONCH_CHAT): the subagent's child chat when the conch commands running
// in that shell now are all one subagent's, else chat itself. It reads
// one small record, without the lock.
func (h *Home) ShellChat(harness, session, chat string) string {
	if session == "" || len(session) > 256 {
		return chat
	}
	out := chat
	_ = h.View(func(tx *View) error {
		link, err := load[SessionLink](tx, sessionRel(harness, session))
		if err != nil || link == nil || link.Chat != chat || len(link.Shells) == 0 {
			return err
		}
		agent := ""
		for _, ag := range link.Shells {
			if ag == "" || agent != "" && ag != agent {
				return nil // the session's own, or two subagents': it cannot tell
			}
			agent = ag
		}
		if id := link.Agents[agent]; id != "" {
			out = id
		}
		return nil
	})
	return out
}
