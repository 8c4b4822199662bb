package state

import (
	"fmt"
	"path/filepath"
	"slices"
	"strconv"

	"github.com/conch-sh/conch/state/place"
)

// ReplyStart is what `conch reply start` asks for.
type ReplyStart struct {
	Person bool
	Title  string // a title made from the person's first message, cleaned, for a chat that has none
	Folder string // absolute; "" for the chat's own
	PID    int    // the harness process
	// Reach: the harness or the person at a terminal started it, so its
	// folder is theirs to give, and the chat's reach moves there. A
	// chat's own reply start leaves the reach where it was.
	Reach bool
}

// Start begins a reply of the acting chat. A reply that still runs is
// ended first, as not finished. A reply that conch's own wake started is the
// wake's, whatever Person says: it joins the wake's chain and runs unwatched.
func (re RepliesTx) Start(a Actor, in ReplyStart) (*Chat, error) {
	tx := re.tx
	if a.Person() {
		return nil, needsChat("reply start")
	}
	if in.Folder != "" {
		var err error
		if in.Folder, err = absFolder(in.Folder); err != nil {
			return nil, err
		}
	}
	c, err := tx.Chats().Get(a.ID)
	if err != nil {
		return nil, err
	}
	// A --person that comes while an unwatched reply still runs is not
	// the person's: conch cannot tell a harness's --person from the
	// model's, so only a reply begun after that one ended may be.
	var unwatched *Reply
	if c.Reply != nil && c.Reply.Unwatched && c.Reply.Alive() {
		unwatched = c.Reply
	}
	if c.Reply != nil {
		tx.Replies().end(a, c, outcomeGone, "")
	}
	if c.Title == "" && in.Title != "" {
		c.Title = tx.Messages().scrubField(in.Title)
	}
	if in.Reach {
		tx.Chats().moveReach(c, in.Folder)
	}
	r := tx.Replies().newReply(c, in.Folder, in.PID)
	switch {
	case c.Wake != nil:
		// A reply conch woke (for a message, a wait that ended, a notice)
		// runs with nobody watching it.
		r.Chain, r.Unwatched = c.Wake.Chain, true
		c.Wake = nil
	case unwatched != nil:
		r.Chain, r.Unwatched = unwatched.Chain, true
	case in.Person:
		r.Person = true
		chain, err := tx.nextID("ch")
		if err != nil {
			return nil, err
		}
		r.Chain = chain
		tx.ripple().humanMessage(c)
	default:
		r.Chain = c.Chain
	}
	c.Chain = r.Chain
	c.Reply = r
	if c.Status == StatusNeedsYou || c.Status == StatusStopped {
		c.Status = StatusIdle
	}
	tx.Chats().save(c, true)
	return c, nil
}

func (r RepliesView) newReply(c *Chat, folder string, pid int) *Reply {
	tx := r.v
	if folder == "" {
		folder = c.Folder
	}
	now := tx.Now()
	c.Replies++
	c.LastActive = now
	start, _ := procStart(pid)
	p := placeOf(folder)
	tree, repo := place.Tree(p)
	return &Reply{
		ID: c.ID + "." + strconv.Itoa(c.Replies), Started: now, Folder: folder,
		Computer: tx.h.Computer, Place: p, Tree: tree, Repo: repo, Family: "other",
		StepSince: now, PID: pid, PIDStart: start, Files: []string{},
	}
}

// StepIn is what `conch step` asks for.
type StepIn struct {
	Family string
	Files  []string // absolute
	Tool   string
	PID    int // the harness process, should the step start a reply
	// PPID, with no PID given: the harness is found from the command's
	// parent (HarnessPID), and only when the step starts a reply.
	PPID int
}

// harness is the process that runs the reply the step starts.
func (in StepIn) harness() int {
	if in.PID != 0 {
		return in.PID
	}
	return harnessPID(in.PPID)
}

// Step records that a step of the family begins. A step with no reply
// running starts one (not the person's). A chat whose reply another chat
// stopped gets ErrStopped with the notice, until its next reply starts.
func (re RepliesTx) Step(a Actor, in StepIn) (*Chat, error) {
	tx := re.tx
	if a.Person() {
		return nil, needsChat("step")
	}
	if err := oneOf("family", in.Family, families); err != nil {
		return nil, err
	}
	for _, f := range in.Files {
		if err := boundedFile(f); err != nil {
			return nil, err
		}
	}
	in.Tool = cutBytes(in.Tool, MaxTool)
	c, err := tx.Chats().Get(a.ID)
	if err != nil {
		return nil, err
	}
	if n := c.StopPending(); n != nil {
		return nil, &StoppedError{Notice: *n}
	}
	if c.Reply != nil && !c.Reply.Alive() {
		tx.Replies().end(a, c, outcomeGone, "")
	}
	if c.Reply == nil {
		r := tx.Replies().newReply(c, "", in.harness())
		r.Chain = c.Chain
		if c.Wake != nil {
			r.Chain, r.Unwatched, c.Wake = c.Wake.Chain, true, nil
			c.Chain = r.Chain
		}
		c.Reply = r
		tx.Chats().save(c, true)
	} else {
		tx.Chats().save(c, false)
	}
	r := c.Reply
	r.Family, r.Tool, r.StepSince = in.Family, in.Tool, tx.Now()
	r.Steps++
	if in.Family == "edit" {
		for _, f := range in.Files {
			f = filepath.Clean(f)
			if !slices.Contains(r.Files, f) && len(r.Files) < MaxFiles {
				r.Files = append(r.Files, f)
			}
			r.LastFile = f
		}
	}
	return c, nil
}

// StoppedError is ErrStopped with the notice the stopped chat hears.
type StoppedError struct{ Notice StopNotice }

func (e *StoppedError) Error() string {
	return fmt.Sprintf("“%s” (chat %s) stopped this reply: end it now (%s)", e.Notice.ByTitle, e.Notice.By, e.Notice.Reason)
}
func (e *StoppedError) Unwrap() error { return ErrStopped }

// StopPending is the stop notice a chat must hear now (its reply was
// stopped and no reply has started since), or nil.
func (c *Chat) StopPending() *StopNotice {
	if c.Stopped == nil || c.Reply != nil || c.LastReply == nil || c.LastReply.ID != c.Stopped.Reply {
		return nil
	}
	return c.Stopped
}

// stopHeard is the notice of a stop of the chat's last reply, to be said at
// its next reply, or nil.
func (c *Chat) stopHeard() *StopNotice {
	if c.Stopped == nil || c.Stopped.Heard || c.Reply == nil || c.Reply.ID == c.Stopped.Reply {
		return nil
	}
	return c.Stopped
}

// HeardStop records that the chat was told, where its harness shows it at
// once (a hook's answer that ends the turn), that its reply was stopped:
// its next reply's notes do not say it again.
func (re RepliesTx) HeardStop(a Actor) error {
	tx := re.tx
	c, err := tx.Chats().Get(a.ID)
	if err != nil {
		return err
	}
	if c.Stopped == nil || c.Stopped.Heard {
		return nil
	}
	c.Stopped.Heard = true
	tx.Chats().save(c, true)
	return nil
}

// ReplyEnd is what `conch reply end` asks for.
type ReplyEnd struct {
	Outcome string
	Text    string
}

// End ends the acting chat's reply; its finished text is kept for
// whoever waits on it.
func (re RepliesTx) End(a Actor, in ReplyEnd) (*Chat, error) {
	tx := re.tx
	if a.Person() {
		return nil, needsChat("reply end")
	}
	if in.Outcome == "" {
		in.Outcome = OutcomeFinished
	}
	if err := oneOf("outcome", in.Outcome, outcomes); err != nil {
		return nil, err
	}
	if err := validText("text", in.Text); err != nil {
		return nil, err
	}
	in.Text = tailOf(in.Text, MaxReplyText)
	c, err := tx.Chats().Get(a.ID)
	if err != nil {
		return nil, err
	}
	if c.Reply == nil {
		switch {
		case c.StopPending() != nil && c.LastReply != nil:
			// The harness ends the reply another chat stopped: keep its words.
			if in.Text != "" {
				c.LastReply.Text = in.Text
			}
		case in.Outcome == outcomeNeedsYou && c.Status != StatusNeedsYou:
			c.Status = StatusNeedsYou
			c.LastActive = tx.Now()
			tx.ripple().stoppedWorking(a, c)
			tx.ripple().nowNeedsYou(c)
		default:
			return c, nil
		}
		tx.Chats().save(c, true)
		return c, nil
	}
	tx.Replies().end(a, c, in.Outcome, in.Text)
	tx.Chats().save(c, true)
	return c, nil
}

// FailEnded is a harness's late word that the reply its session's end
// already stopped had failed: Claude Code runs its StopFailure hook and its
// SessionEnd hook without waiting for the first, so SessionEnd can take the
// lock first. The last reply's outcome becomes failed, with the error as its
// words; a reply another chat stopped, or one that ended otherwise, keeps
// its outcome. Waits on it have ended already, with the stop.
func (re RepliesTx) FailEnded(a Actor, text string) error {
	tx := re.tx
	c, err := tx.Chats().Get(a.ID)
	if err != nil {
		return err
	}
	r := c.LastReply
	if c.Reply != nil || r == nil || r.Outcome != OutcomeStopped || c.StopPending() != nil {
		return nil
	}
	r.Outcome = OutcomeFailed
	if text != "" {
		r.Text = tailOf(text, MaxReplyText)
	}
	tx.Chats().save(c, true)
	return nil
}

// Words keeps what the assistant said last in the running reply, for
// a harness that says it before its turn ends and not at the end (Cursor's
// afterAgentResponse): the turn's end takes them as the reply's last
// words. With no reply running it does nothing.
func (re RepliesTx) Words(a Actor, text string) error {
	tx := re.tx
	c, err := tx.Chats().Get(a.ID)
	if err != nil || c.Reply == nil {
		return err
	}
	if err := validText("text", text); err != nil {
		return err
	}
	c.Reply.Text = tailOf(text, MaxReplyText)
	tx.Chats().save(c, false)
	return nil
}

// end moves the running reply to LastReply, sets the status its
// outcome gives, and tells whoever waits on or watches the chat.
func (re RepliesTx) end(a Actor, c *Chat, outcome, text string) {
	tx := re.tx
	r := c.Reply
	now := tx.Now()
	r.Ended, r.Outcome, r.Text = now, outcome, text
	r.Said = nil
	c.Reply, c.LastReply = nil, r
	c.LastActive = now
	switch outcome {
	case outcomeNeedsYou:
		c.Status = StatusNeedsYou
		tx.ripple().nowNeedsYou(c)
	case OutcomeStopped, outcomeGone:
		c.Status = StatusStopped
	default:
		c.Status = StatusIdle
	}
	tx.Chats().save(c, true)
	tx.ripple().replyEnded(a, c, r)
	tx.ripple().stoppedWorking(a, c)
}
