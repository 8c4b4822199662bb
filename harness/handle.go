package harness

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/conch-sh/conch/state"
)

// replyTextMax is how much of a reply's last words a session keeps:
// waiters read the last 800 characters; the rest would only swell the
// record that every step rewrites.
const replyTextMax = 16 << 10

// run is one event being handled: the world around it, and the answer
// once one is given. The event itself is every handler's parameter.
type run struct {
	home *state.Home
	env  Env
	caps Capabilities
	// ans is the answer, given once: one answer an event, even if a
	// transaction that gave it goes on to fail.
	ans      Answer
	answered bool
}

// Handle does what one harness event means in conch, and returns what to
// answer the harness. Both may be set: an answer given before something
// failed still stands (the error is the adapter's to warn of, never to
// fail the session with).
func Handle(home *state.Home, ev Event, env Env) (Answer, error) {
	return handle(home, ev, env, CapsOf(ev.Harness))
}

// handle is Handle for a harness of the capabilities given.
func handle(home *state.Home, ev Event, env Env, caps Capabilities) (Answer, error) {
	if env.Warn == nil {
		env.Warn = func(string) {}
	}
	if env.Getenv == nil {
		env.Getenv = func(string) string { return "" }
	}
	if env.PID == nil {
		env.PID = func() int { return env.PPID }
	}
	r := &run{home: home, env: env, caps: caps}
	err := dispatch(r, &ev)
	return r.ans, err
}

// dispatch hands the event to its kind's handler.
func dispatch(r *run, ev *Event) error {
	switch ev.Kind {
	case SessionStart:
		return sessionStart(r, ev)
	case PromptSubmit:
		return userPrompt(r, ev)
	case PreTool:
		return preTool(r, ev)
	case PostTool:
		return postTool(r, ev)
	case NeedsYou:
		return needsYou(r, ev)
	case Compacted:
		return compacted(r, ev)
	case TurnEnd, SubagentEnd:
		if ev.Kind == TurnEnd && r.caps.HostedSearch {
			if err := webSearches(r, ev); err != nil {
				return err
			}
		}
		return stop(r, ev)
	case TurnFailed:
		return stopFailure(r, ev)
	case TurnInterrupted:
		return interrupt(r, ev)
	case TurnComplete:
		return turnComplete(r, ev)
	case SubagentStart:
		return subagentStart(r, ev)
	case SessionEnd:
		return sessionEnd(r, ev)
	case Permission:
		return permission(r, ev)
	case Words:
		return words(r, ev)
	case ToolResults:
		return toolResults(r, ev)
	}
	return fmt.Errorf("unknown event %q: nothing done", ev.Name)
}

// say gives the answer, once. A zero answer gives none.
func (r *run) say(ans Answer) {
	if ans.IsZero() || r.answered {
		return
	}
	r.answered = true
	r.ans = ans
}

// update runs fn under the home's lock, keeping what went wrong without
// failing it (a log append) for the adapter's warning.
func (r *run) update(fn func(tx *state.Tx) error) error {
	var last *state.Tx
	err := r.home.Update(func(tx *state.Tx) error { last = tx; return fn(tx) })
	if err == nil && last != nil {
		for _, w := range last.Warnings() {
			r.env.Warn(w)
		}
	}
	return err
}

// sessionIn is what the event says of its session.
func sessionIn(r *run, ev *Event, make bool) state.SessionIn {
	return state.SessionIn{
		Harness: ev.Harness, Session: ev.Session,
		Agent: ev.Agent, AgentType: r.env.Wording.Clean(ev.AgentType),
		Folder: folder(r, ev), Mode: ev.Mode,
		Title:      r.env.Wording.CutTitle(ev.Title, state.MaxTitle),
		Transcript: ev.Transcript, Inherit: r.env.Chat, Make: make,
	}
}

// folder is where the harness works now: the event's folder (which
// follows cd, so it may be a folder inside the project), else the
// adapter's own.
func folder(r *run, ev *Event) string { return ev.WorkFolder(r.env.Cwd) }

// WorkFolder is where the harness works now: the event's folder, when it
// names one (absolute), else fallback (the adapter's own).
func (e *Event) WorkFolder(fallback string) string {
	if f := e.Folder; f != "" && filepath.IsAbs(f) {
		return filepath.Clean(f)
	}
	return fallback
}

// abs makes a path the harness gave absolute against its folder.
func abs(r *run, ev *Event, p string) string {
	if p == "" || filepath.IsAbs(p) {
		return filepath.Clean(p)
	}
	return filepath.Join(folder(r, ev), p)
}

// toolStep is the step family of the event's tool, and the files it
// works on, absolute.
func toolStep(r *run, ev *Event) (family string, files []string) {
	family, raw := Family(toolWord(ev.Harness, ev.Tool), ev.Input)
	for _, f := range raw {
		files = appendNew(files, abs(r, ev, f))
	}
	return family, files
}

// chat finds (or, with make, makes) the chat the event is about.
func chat(r *run, ev *Event, tx *state.Tx, make bool) (*state.Chat, bool, error) {
	return tx.Sessions().Chat(sessionIn(r, ev, make))
}

// stopAnswer ends the harness's turn: another chat stopped this reply.
func stopAnswer(n state.StopNotice) Answer { return Answer{Stop: &n, EndTurn: true} }

// SessionStart: the chat linked to the session is found or made, its id
// exported to the session's shell, and the session told who it is, how
// conch works and what it must hear now.
func sessionStart(r *run, ev *Event) error {
	var c *state.Chat
	in := sessionIn(r, ev, true)
	in.Agent = "" // a session with --agent is still the main session
	err := r.update(func(tx *state.Tx) (err error) {
		c, _, err = tx.Sessions().Chat(in)
		if err != nil {
			return err
		}
		if c.Status == state.StatusStopped && c.Reply == nil {
			// The session is back (resumed, or cleared into this one).
			s := state.StatusIdle
			if _, err = tx.Chats().Set(state.Actor{ID: c.ID}, c.ID, state.ChatChange{Status: &s}); err != nil {
				return err
			}
		}
		return keepResume(r, ev, tx, c)
	})
	if err != nil {
		return err
	}
	exported := exportChat(r, c) || r.caps.ShellChat
	return withNotes(r, ev, c, Answer{Intro: introduction(r, c, exported)})
}

// UserPromptSubmit: the person's own message starts a reply (the chat's
// title, if it has none, comes from it).
func userPrompt(r *run, ev *Event) error {
	var (
		c    *state.Chat
		made bool
	)
	prompt := ev.Prompt
	person := !harnessPrompt(prompt) && !ev.Delivered && !ev.Continued
	in := sessionIn(r, ev, true)
	in.Agent = ""
	err := r.update(func(tx *state.Tx) (err error) {
		if c, made, err = tx.Sessions().Chat(in); err != nil {
			return err
		}
		if rp := c.Reply; r.caps.PromptOnContinue && rp != nil && rp.Unwatched && rp.Steps == 0 && rp.Alive() {
			// The prompt conch gave the turn's end to go on with: the
			// reply it began for the message, nobody watching, at its
			// start.
			person = false
		}
		if !person && c.Reply != nil && c.Reply.Alive() {
			// The harness goes on by itself (background work it was
			// waiting for ended): the same reply, not a new one.
			c, err = tx.Replies().Step(state.Actor{ID: c.ID}, state.StepIn{Family: "other", PPID: r.env.PPID})
			if err != nil {
				return err
			}
			return tx.Sessions().HookedPrompt(c.ID, ev.Harness, prompt)
		}
		rs := state.ReplyStart{Person: person, PID: r.env.PID(), Reach: true}
		if person {
			rs.Title = r.env.Wording.CutTitle(prompt, state.MaxTitle)
		}
		if f := folder(r, ev); !inside(f, c.Folder) {
			// The session moved out of its chat's folder (another
			// worktree): the reply works where the session is. A folder
			// inside the chat's is the same place, and paths stay
			// relative to the chat's folder.
			rs.Folder = f
		}
		if c, err = tx.Replies().Start(state.Actor{ID: c.ID}, rs); err != nil {
			return err
		}
		return tx.Sessions().HookedPrompt(c.ID, ev.Harness, prompt)
	})
	if err != nil {
		return err
	}
	var base Answer
	if made {
		// Its SessionStart was never seen (conch was set up mid-session).
		base.Intro = introduceLate(r, c)
	}
	return withNotes(r, ev, c, base)
}

// harnessPrompt says whether a prompt is one the harness made itself, not
// the person's: Claude Code starts a turn with a <task-notification> when
// background work ends, and with a teammate's, another session's or an
// agent's message likewise.
func harnessPrompt(prompt string) bool {
	for _, tag := range []string{"<task-notification>", "<teammate-message", "<cross-session-message", "<agent-message"} {
		if strings.HasPrefix(prompt, tag) {
			return true
		}
	}
	return false
}

// PreToolUse: a step begins, of the tool's family, on its files. A reply
// another chat stopped ends the turn.
func preTool(r *run, ev *Event) error {
	tool := ev.Tool
	family, files := toolStep(r, ev)
	var (
		c    *state.Chat
		made bool
		v    *state.Verdict
	)
	err := r.update(func(tx *state.Tx) (err error) {
		if c, made, err = chat(r, ev, tx, true); err != nil {
			return err
		}
		if v, err = guard(r, ev, tx, c, family, files); err != nil {
			return err
		}
		if v != nil && !r.caps.Deny {
			v.Decision = state.GuardNote // the tool runs whatever is said
		}
		stepFiles := files
		if v != nil && v.Decision != state.GuardNote {
			stepFiles = nil // the edit may not happen: PostToolUse adds what did
		}
		if _, err = tx.Replies().Step(state.Actor{ID: c.ID}, state.StepIn{Family: family, Files: stepFiles, Tool: r.env.Wording.Clean(tool), PPID: r.env.PPID}); err != nil {
			return err
		}
		if conchShell(ev) {
			// The command it runs acts as whoever runs it: the session,
			// or its subagent (agent_id), which shares the session's shell.
			return tx.Sessions().ShellStarted(ev.Harness, ev.Session, ev.ToolUse, ev.Agent)
		}
		return nil
	})
	if se := stoppedNotice(err); se != nil {
		if !r.caps.Deny {
			return nil // the tool runs: the next event that can says the stop
		}
		if slices.Contains(r.caps.PermissionTools, tool) {
			// Its Permission hook, next, denies it and ends the turn (a
			// denial here would let the turn go on).
			return nil
		}
		return sayStop(r, ev, c, stopBeforeTool(r, *se))
	}
	if !r.caps.Context.Has(PreTool) {
		if err == nil && v != nil && v.Decision != state.GuardNote {
			r.say(guardAnswer(r, v)) // a refusal needs no context
		}
		return err
	}
	late := err == nil && made && (r.caps.ShellSession || r.caps.ShellChat) && ev.Agent == ""
	if err == nil && v != nil {
		ans := guardAnswer(r, v)
		if late {
			ans.Intro = introduceLate(r, c)
		}
		r.say(ans)
		return nil
	}
	if late {
		// Neither SessionStart nor the prompt could take the lock: the
		// session hears now which chat it is.
		r.say(Answer{Intro: introduceLate(r, c)})
		return nil
	}
	return err
}

// guard judges the tool call about to run (issue 18): an edit onto a file
// another of the person's chats claimed, a command that moves a checkout
// another of them works in. nil: nothing to say.
func guard(r *run, ev *Event, tx *state.Tx, c *state.Chat, family string, files []string) (*state.Verdict, error) {
	in := state.GuardIn{Cwd: folder(r, ev)}
	if family == "edit" {
		in.Files = files
	}
	if shellTool(toolWord(ev.Harness, ev.Tool)) {
		in.Command = ev.Input.Str("command")
	}
	return tx.Claims().Guard(state.Actor{ID: c.ID}, in)
}

// guardAnswer is the guard's verdict as an answer: a deny, with the reason
// the model reads; an ask (the harness's own permission prompt; where it
// has none, a deny that says to ask the person); or a note (the tool runs;
// the reason goes into the context).
func guardAnswer(r *run, v *state.Verdict) Answer {
	switch v.Decision {
	case state.GuardNote:
		return Answer{Guard: v}
	case state.GuardAsk:
		if r.caps.Ask {
			return Answer{Guard: v, Permission: Ask}
		}
	}
	return Answer{Guard: v, Permission: Deny}
}

// stopBeforeTool is how a stopped reply is told before a tool runs: the
// tool is denied with the notice, so it does not run (Claude Code runs
// the pending tool before it ends a turn on a stop alone), and where the
// harness can, the turn ends too. Claude Code puts both the denial and
// the stop's reason before the model: the notice goes in the denial (the
// tool's result), the reason says only who, so the notice is said once.
func stopBeforeTool(r *run, n state.StopNotice) Answer {
	return Answer{Stop: &n, Permission: Deny, EndTurn: r.caps.StopBeforeTool}
}

// sayStop says a stop notice and records that the session heard it, so
// that the next reply's notes do not say it again: the model read it in
// the denied tool's result, the person saw it where the turn ended.
func sayStop(r *run, ev *Event, c *state.Chat, ans Answer) error {
	r.say(ans)
	if c == nil || !stopHeard(r, ev) {
		return nil // the turn goes on past a denial: its next reply hears it
	}
	return r.update(func(tx *state.Tx) error { return tx.Replies().HeardStop(state.Actor{ID: c.ID}) })
}

// stopHeard says whether a stop said at this event ends the turn where
// it is read: at every event of a harness whose stop does (StopHeard), and
// at the send of the tools' results, which a stop keeps from being made.
func stopHeard(r *run, ev *Event) bool { return r.caps.StopHeard || ev.Kind == ToolResults }

func stoppedNotice(err error) *state.StopNotice {
	if se, ok := err.(*state.StoppedError); ok {
		return &se.Notice
	}
	return nil
}

// PostToolUse: the files the tool changed, outside taint from what it
// fetched, and then the notes.
func postTool(r *run, ev *Event) error {
	tool := ev.Tool
	family, files := toolStep(r, ev)
	if family == "edit" && len(ev.Response) > 0 {
		if f := Obj(ev.Response).Str("filePath"); f != "" {
			files = appendNew(files, abs(r, ev, f))
		}
	}
	source := outsideSource(r.env.Wording, toolWord(ev.Harness, tool), ev.Input)
	// Most tool calls change nothing conch keeps (the step began at
	// PreToolUse): look first without the lock, as conch notes does.
	var c *state.Chat
	look := sessionIn(r, ev, false)
	if err := r.home.View(func(tx *state.View) (err error) { c, err = tx.Sessions().Find(look); return err }); err != nil {
		return err
	}
	shell := conchShell(ev)
	if c != nil && c.Reply != nil && source == "" && !shell && (family != "edit" || hasAll(c.Reply.Files, files)) {
		return withNotes(r, ev, c, Answer{})
	}
	err := r.update(func(tx *state.Tx) (err error) {
		if c, _, err = chat(r, ev, tx, true); err != nil {
			return err
		}
		actor := state.Actor{ID: c.ID}
		switch {
		case c.Reply == nil:
			// The turn goes on with no reply running: the person answered
			// a prompt that ended the last one as needs-you, or conch was
			// set up mid-turn. The tool that ran was a step of a reply.
			in := state.StepIn{Family: family, Files: files, Tool: r.env.Wording.Clean(tool), PPID: r.env.PPID}
			if _, err := tx.Replies().Step(actor, in); err != nil {
				return err
			}
		case family == "edit" && len(files) > 0:
			if _, err := tx.Sessions().ChangedFiles(actor, files, r.env.PPID); err != nil {
				return err
			}
		}
		if source != "" {
			if _, err = tx.Chats().AddTaint(actor, c.ID, source, ""); err != nil {
				return err
			}
		}
		if shell {
			return tx.Sessions().ShellsEnded(ev.Harness, ev.Session, ev.ToolUse, "")
		}
		return nil
	})
	if se := stoppedNotice(err); se != nil {
		return sayStop(r, ev, c, stopAnswer(*se))
	}
	if err != nil {
		return err
	}
	return withNotes(r, ev, c, Answer{})
}

// ToolResults: the turn sends its tools' results to the model. The reply
// goes on; the notes reach the model now. A reply another chat stopped
// (its pending tool was denied, and the reply ended) ends the turn here,
// and the stop is heard. A subagent's send says nothing: its notes are
// its parent's to hear.
func toolResults(r *run, ev *Event) error {
	if ev.Agent != "" {
		return nil
	}
	look := sessionIn(r, ev, false)
	var c *state.Chat
	if err := r.home.View(func(tx *state.View) (err error) { c, err = tx.Sessions().Find(look); return err }); err != nil || c == nil {
		return err
	}
	if c.Reply == nil {
		if n := c.StopPending(); n != nil {
			return sayStop(r, ev, c, stopAnswer(*n))
		}
		return nil
	}
	return withNotes(r, ev, c, Answer{})
}

// Notification (a permission prompt, the idle prompt, an MCP server asking
// for input) and Codex's PermissionRequest: the chat needs the person.
// Other notifications (auth_success) are not about the person.
func needsYou(r *run, ev *Event) error {
	switch ev.Notification {
	case "", "permission_prompt", "idle_prompt", "elicitation_dialog":
	default:
		return nil
	}
	return r.update(func(tx *state.Tx) error {
		c, _, err := chat(r, ev, tx, false)
		if err != nil || c == nil {
			return err
		}
		s := state.StatusNeedsYou
		_, err = tx.Chats().Set(state.Actor{ID: c.ID}, c.ID, state.ChatChange{Status: &s})
		return err
	})
}

// PreCompact: the session's history is compacted (log only).
func compacted(r *run, ev *Event) error {
	in := sessionIn(r, ev, false)
	return r.update(func(tx *state.Tx) error {
		c, _, err := tx.Sessions().Chat(in)
		if err != nil || c == nil {
			return err // nothing, when the session has no chat
		}
		_, err = tx.Log().Compacted(state.Actor{ID: c.ID}, c.ID)
		return err
	})
}

// Stop (and SubagentStop, for a subagent's child chat): the reply ends,
// with the assistant's last words. A --start-reply message that waits for
// the chat is delivered instead, as a prompt: the harness goes on with it
// in a reply of the message's (once: not when it is going on because of
// such an answer already).
func stop(r *run, ev *Event) error {
	text := ev.LastWords
	if text == "" && !ev.HasLastWords {
		// Older versions send no last words: read them from the session's
		// own file, which can lag the turn.
		path := ev.AgentTranscript
		if path == "" || ev.Agent == "" {
			path = ev.Transcript
		}
		text = LastAssistantText(ev.Harness, path)
	}
	text = lastWords(strings.ReplaceAll(text, "\x00", " "))
	in := sessionIn(r, ev, false)
	if ev.Kind == TurnEnd {
		in.Agent = ""
	}
	turn, goOn := ev.Turn, r.caps.KeepGoing && in.Agent == "" && !ev.Continued
	return r.update(func(tx *state.Tx) error {
		c, _, err := tx.Sessions().Chat(in)
		if err != nil || c == nil {
			return err
		}
		if text == "" && c.Reply != nil {
			text = c.Reply.Text // the words a Words event kept
		}
		actor := state.Actor{ID: c.ID}
		if err := tx.Sessions().ShellsEnded(ev.Harness, in.Session, "", in.Agent); err != nil {
			return err
		}
		if in.Agent == "" {
			if ended, err := tx.Sessions().TurnEnded(ev.Harness, in.Session, turn); err != nil || ended {
				return err // the notify program ended this turn already
			}
		}
		if goOn {
			going, err := tx.Sessions().ContinueWithMessage(actor, text, r.env.PID())
			if err != nil {
				return err
			}
			if going {
				n, err := tx.Notes().Due(actor)
				if err != nil {
					return err
				}
				said := sayNotes(r, tx, n, Answer{Continue: true})
				return tx.Notes().Mark(actor, said)
			}
		}
		if in.Agent == "" {
			if _, err := tx.Sessions().EndTurn(ev.Harness, in.Session, turn); err != nil {
				return err
			}
			if c.StopPending() == nil && ev.Background {
				// The turn ends, but background work it started (an Agent
				// run in the background, the default now) goes on and will
				// wake the session when it ends: the chat is not done. Its
				// reply goes on, waiting, until a Stop with nothing left.
				_, err := tx.Replies().Step(actor, state.StepIn{Family: "wait", Tool: "background work", PPID: r.env.PPID})
				return err
			}
		}
		if c.Reply == nil && c.StopPending() == nil && text != "" {
			// The turn went on with no reply running (the person answered
			// a prompt that ended the last one): its last words still end
			// a reply, for whoever waits on the chat.
			if _, err := tx.Replies().Start(actor, state.ReplyStart{PID: r.env.PID(), Reach: true}); err != nil {
				return err
			}
		}
		if _, err = tx.Replies().End(actor, state.ReplyEnd{Outcome: state.OutcomeFinished, Text: text}); err != nil {
			return err
		}
		if in.Agent != "" && c.Parent != "" {
			// A subagent's work is done: its chat leaves the person's list
			// (its run is in its parent's log), as an archived chat.
			archived := true
			_, err = tx.Chats().Set(actor, c.ID, state.ChatChange{Archived: &archived})
		}
		return err
	})
}

// StopFailure: an API error (a rate limit, an overloaded server, a
// refused request) ended the turn instead of Stop. The reply ends as
// failed, so waits on the chat end and the list stops saying working.
func stopFailure(r *run, ev *Event) error {
	text := lastWords(ev.LastWords)
	in := sessionIn(r, ev, false)
	in.Agent = ""
	return r.update(func(tx *state.Tx) error {
		c, _, err := tx.Sessions().Chat(in)
		if err != nil || c == nil {
			return err
		}
		// A plugin's harness reports the turn's end after its failure
		// too: that end finds the turn ended.
		if _, err := tx.Sessions().EndTurn(ev.Harness, in.Session, ev.Turn); err != nil {
			return err
		}
		if c.Reply == nil {
			// SessionEnd, run beside this hook, ended it first.
			return tx.Replies().FailEnded(state.Actor{ID: c.ID}, text)
		}
		_, err = tx.Replies().End(state.Actor{ID: c.ID}, state.ReplyEnd{Outcome: state.OutcomeFailed, Text: text})
		return err
	})
}

// SubagentStart: the subagent's child chat is made and its reply begins.
func subagentStart(r *run, ev *Event) error {
	in := sessionIn(r, ev, true)
	if in.Agent == "" {
		return fmt.Errorf("the event names no agent_id")
	}
	return r.update(func(tx *state.Tx) error {
		c, _, err := tx.Sessions().Chat(in)
		if err != nil {
			return err
		}
		_, err = tx.Replies().Start(state.Actor{ID: c.ID}, state.ReplyStart{PID: r.env.PID(), Reach: true})
		return err
	})
}

// SessionEnd: the session's chat, and any subagent of it still running,
// is stopped.
func sessionEnd(r *run, ev *Event) error {
	in := sessionIn(r, ev, false)
	in.Agent = ""
	return r.update(func(tx *state.Tx) error {
		c, _, err := tx.Sessions().Chat(in)
		if err != nil || c == nil {
			return err
		}
		stopped := state.StatusStopped
		link, err := tx.Sessions().LinkOf(ev.Harness, in.Session)
		if err != nil {
			return err
		}
		for _, id := range link.Agents {
			child, err := tx.Chats().Get(id)
			if err != nil || child.Reply == nil {
				continue
			}
			if _, err := tx.Chats().Set(state.Actor{ID: id}, id, state.ChatChange{Status: &stopped}); err != nil {
				return err
			}
		}
		_, err = tx.Chats().Set(state.Actor{ID: c.ID}, c.ID, state.ChatChange{Status: &stopped})
		return err
	})
}

// Interrupt (Esc in Codex's TUI, a steer that interrupts, codex agents'
// x): the turn is aborted, so its reply ends as stopped, and waits on it
// end. Codex fires no Stop for it; the turn is remembered as ended, so a
// late notify for it ends nothing more.
func interrupt(r *run, ev *Event) error {
	in := sessionIn(r, ev, false)
	in.Agent = ""
	return r.update(func(tx *state.Tx) error {
		c, _, err := tx.Sessions().Chat(in)
		if err != nil || c == nil {
			return err
		}
		if seen, err := tx.Sessions().EndTurn(ev.Harness, in.Session, ev.Turn); err != nil || seen {
			return err
		}
		if c.Reply == nil {
			return nil
		}
		_, err = tx.Replies().End(state.Actor{ID: c.ID}, state.ReplyEnd{Outcome: state.OutcomeStopped})
		return err
	})
}

// webSearches taints the chat as outside with each hosted web search the
// turn made: the harness runs them itself and fires no hook, so its
// session file (the transcript) is read for them when the turn ends.
func webSearches(r *run, ev *Event) error {
	queries := WebSearches(ev.Transcript, ev.Turn)
	if len(queries) == 0 {
		return nil
	}
	in := sessionIn(r, ev, false)
	in.Agent = ""
	return r.update(func(tx *state.Tx) error {
		c, _, err := tx.Sessions().Chat(in)
		if err != nil || c == nil {
			return err
		}
		for _, q := range queries {
			source := "web search"
			if q = r.env.Wording.Clean(q); q != "" {
				source += ": " + q
			}
			if _, err := tx.Chats().AddTaint(state.Actor{ID: c.ID}, c.ID, source, ""); err != nil {
				return err
			}
		}
		return nil
	})
}

// turnComplete is a turn's end reported outside the hooks (Codex's notify
// program): the chat's reply ends with the last words, once a turn.
func turnComplete(r *run, ev *Event) error {
	first := ""
	if len(ev.Inputs) > 0 {
		first = ev.Inputs[0]
	}
	text := lastWords(ev.LastWords)
	thread, turn := ev.Session, ev.Turn
	if thread == "" && r.env.Chat == "" {
		// Older Codex sends no thread-id: nothing says which chat it is.
		return fmt.Errorf("the notification names no thread-id (an older Codex): set CONCH_CHAT for the session, or use Codex's hooks")
	}
	if r.caps.HiddenThreads && thread != "" && !linked(r, ev, thread) && !keptThread(r, thread) {
		// A thread the harness keeps no session file of is one of its
		// own hidden ones (Codex's title generation, which calls notify
		// too): no chat, and no chat's reply ends for it.
		return nil
	}
	in := state.SessionIn{
		Harness: ev.Harness, Session: thread, Folder: folder(r, ev),
		Inherit: r.env.Chat, Make: true,
	}
	return r.update(func(tx *state.Tx) error {
		var c *state.Chat
		var err error
		if thread == "" {
			c, err = tx.Chats().Get(r.env.Chat)
		} else {
			if seen, err := tx.Sessions().EndTurn(ev.Harness, thread, turn); err != nil || seen {
				return err
			}
			c, _, err = tx.Sessions().Chat(in)
			if err == nil && turn != "" {
				// A chat made just now has no link to remember the turn in yet.
				_, err = tx.Sessions().EndTurn(ev.Harness, thread, turn)
			}
		}
		if err != nil {
			return err
		}
		actor := state.Actor{ID: c.ID}
		if c.Reply == nil {
			// Nothing reported the turn's start (the hooks are off): the
			// turn is a reply of its own, the person's when they typed.
			rs := state.ReplyStart{Person: len(ev.Inputs) > 0, Title: r.env.Wording.CutTitle(first, state.MaxTitle), PID: r.env.PID(), Reach: true}
			if _, err := tx.Replies().Start(actor, rs); err != nil {
				return err
			}
		}
		_, err = tx.Replies().End(actor, state.ReplyEnd{Outcome: state.OutcomeFinished, Text: text})
		return err
	})
}

// linked says whether the harness's session is linked to a chat, read
// without the lock.
func linked(r *run, ev *Event, session string) bool {
	var link *state.SessionLink
	_ = r.home.View(func(v *state.View) (err error) { link, err = v.Sessions().LinkOf(ev.Harness, session); return err })
	return link != nil && state.ValidID(link.Chat)
}

// permission: the harness asks its hooks before it asks permission for a
// tool (Copilot's permissionRequest). A reply another chat stopped has the
// tool denied with the notice, and the turn stopped there; otherwise
// nothing is said, and the harness decides as it would.
func permission(r *run, ev *Event) error {
	look := sessionIn(r, ev, false)
	look.Agent = "" // a subagent's permission is asked in its session
	look.Mode, look.Transcript = "", ""
	var c *state.Chat
	if err := r.home.View(func(v *state.View) (err error) { c, err = v.Sessions().Find(look); return err }); err != nil || c == nil {
		return err
	}
	n := c.StopPending()
	if n == nil {
		return nil
	}
	r.say(Answer{Stop: n, Permission: Deny, EndTurn: true})
	return r.update(func(tx *state.Tx) error { return tx.Replies().HeardStop(state.Actor{ID: c.ID}) })
}

// words: the assistant finished a message before its turn's end (Cursor's
// afterAgentResponse): its words are kept in the reply, for the turn's
// end, which carries none.
func words(r *run, ev *Event) error {
	text := lastWords(ev.LastWords)
	if text == "" {
		return nil
	}
	in := sessionIn(r, ev, false)
	in.Mode, in.Transcript = "", ""
	return r.update(func(tx *state.Tx) error {
		c, _, err := tx.Sessions().Chat(in)
		if err != nil || c == nil {
			return err
		}
		return tx.Replies().Words(state.Actor{ID: c.ID}, text)
	})
}

// lastWords keeps the end of a reply's text, cut at a character.
func lastWords(s string) string {
	if len(s) <= replyTextMax {
		return s
	}
	s = s[len(s)-replyTextMax:]
	for len(s) > 0 && !utf8.RuneStart(s[0]) {
		s = s[1:]
	}
	return s
}

// inside says whether path p is dir or a folder inside it.
func inside(p, dir string) bool {
	rel, err := filepath.Rel(dir, p)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, "../")
}

func hasAll(list, want []string) bool {
	for _, w := range want {
		if !slices.Contains(list, filepath.Clean(w)) {
			return false
		}
	}
	return true
}
