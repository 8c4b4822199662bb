package state

// Waking a chat through its own harness (issue 23). When a harness session
// starts, its adapter keeps how to resume that very session headless
// (claude -p --resume ID, codex exec resume ID, …) and the harness's own
// variables it needs to reach its model, in CONCH_HOME/resume/ID.json:
// this computer's own file (mode 0600, as every file of the home), never
// a record a command prints, never the sender's environment. The chat's
// wake_cmd is then conch's own (conch wake-run), so every path that wakes
// a chat (a --start-reply message, a wait's end, a notice) wakes it so,
// with the bounds, the chain and the unwatched reply they always had.
//
// A wake never runs a second copy of a session that is still open: while
// the session's own process lives (a terminal the person has open), the
// message waits for the person, and the sender is told so. While a woken
// run goes, a wake for it is left to that run (wake-run starts the harness
// again when the run ends with the wake untaken): one woken run at a time.

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/conch-sh/conch/state/store"
)

// WakeGrace is how long a wake may go unclaimed (no wake-run took it, no
// reply began) before it is found dead: the harness never reached its
// hooks, and a later message can wake the chat again.
const WakeGrace = 2 * time.Minute

// wakeFailed is a wake's Runner once its run ended with no reply begun.
const wakeFailed = -1

// ResumeHow is how a harness resumes one of its sessions headless, with a
// prompt: Argv, then the flags of the chat's mode, then Prompt (a flag
// before the prompt, if the harness takes one), then the prompt.
type ResumeHow struct {
	Argv   []string            `json:"argv"`
	Modes  map[string][]string `json:"modes,omitempty"`
	Prompt []string            `json:"prompt,omitempty"`
	// Own are the first run's own flags of its permission mode, and the
	// conch mode they mean: a resume whose mode is not lower runs so.
	Own     []string `json:"own,omitempty"`
	OwnMode string   `json:"own_mode,omitempty"`
}

// Resume is what conch keeps of a chat's harness session to wake it.
type Resume struct {
	Harness string    `json:"harness"`
	Session string    `json:"session"`
	How     ResumeHow `json:"how"`
	// Env are the harness's own variables (keys, base URLs, config
	// folders): secrets, kept only here.
	Env []string `json:"env,omitempty"`
	// Proc is the session's harness process: while it lives, the session
	// is open (in the person's terminal, or a woken run).
	Proc Proc `json:"proc"`
	// Channel is where the harness takes a prompt into the session while
	// it is open (OpenCode's server, on this computer): conch sends the
	// wake's prompt there rather than leave the message for the person.
	Channel string `json:"channel,omitempty"`
	// Runner is conch's wake-run while a woken run goes.
	Runner *Proc     `json:"runner,omitempty"`
	At     time.Time `json:"at"`
}

func resumeRel(id string) string { return "resume/" + id + ".json" }

// WakeRunArg is the verb of conch's own wake_cmd.
const WakeRunArg = "wake-run"

// ownWake says whether a wake_cmd is conch's own (conch wake-run), which a
// harness's session start set.
func ownWake(cmd string) bool {
	return strings.HasSuffix(cmd, " "+WakeRunArg) || cmd == WakeRunArg
}

// wakeRunCmd is conch's own wake_cmd: this conch, when it is one (a test's
// binary is not), else the conch on the harness's PATH.
func wakeRunCmd(exe string) string {
	if exe != "" && filepath.Base(exe) == "conch" && !strings.ContainsAny(exe, "'\n") {
		return "'" + exe + "' " + WakeRunArg
	}
	return "conch " + WakeRunArg
}

// KeepResume keeps how to resume chat id's harness session, at the
// session's start: its wake_cmd becomes conch's own, unless the person (or
// a harness) set one of theirs, which wins. cmdEnv is what the wake-run
// itself runs with (CmdEnvOf the harness's environment).
func (s SessionsTx) KeepResume(id string, r Resume, cmdEnv []string) error {
	tx := s.tx
	c, err := tx.Chats().Get(id)
	if err != nil {
		return err
	}
	if c.WakeCmd != "" && !ownWake(c.WakeCmd) || c.IsTask() || c.Parent != "" || elsewhere(c.Computer, tx.h.Computer) {
		return nil
	}
	if len(r.How.Argv) == 0 || len(r.How.Argv) > 16 || len(r.Env) > 64 {
		return nil
	}
	old, err := tx.Sessions().resumeOf(id)
	if err != nil {
		return err
	}
	if old != nil && old.Runner != nil && alive(old.Runner.PID, old.Runner.Start) {
		r.Runner = old.Runner // a woken run's own start: it still goes
	}
	r.At = tx.Now()
	if cmd := wakeRunCmd(tx.h.exe()); c.WakeCmd != cmd || !slices.Equal(c.CmdEnv, cmdEnv) {
		c.WakeCmd, c.CmdEnv = cmd, cmdEnv
		tx.Chats().commandsSet(c)
		tx.Chats().save(c, true)
	}
	tx.Sessions().putResume(id, &r)
	return nil
}

// resumeOf is chat id's resume record, or nil.
func (s SessionsView) resumeOf(id string) (*Resume, error) {
	tx := s.v
	if !ValidID(id) {
		return nil, nil
	}
	if !tx.h.shared {
		r, err := load[Resume](tx, resumeRel(id))
		if err == nil && r != nil {
			if err = r.valid(); err != nil {
				return nil, &CorruptError{Path: tx.h.where(resumeRel(id)), Err: err}
			}
		}
		return r, err
	}
	data, err := tx.h.local.Get(resumeRel(id))
	if errors.Is(err, store.ErrNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, readError(tx.h.local.Where(resumeRel(id)), err)
	}
	r := new(Resume)
	if err := json.Unmarshal(data, r); err == nil {
		err = r.valid()
	}
	if err != nil {
		return nil, &CorruptError{Path: tx.h.local.Where(resumeRel(id)), Err: err}
	}
	return r, nil
}

// valid says what is wrong with a resume record as read: it names a
// harness (by a name that can be one: which harnesses conch has adapters
// for is package harness's to know) and a program to run, within the
// bounds a wake_cmd has.
func (r *Resume) valid() error {
	if !ValidHarness(r.Harness) {
		return fmt.Errorf("it names no harness (%q is not a harness's name)", r.Harness)
	}
	if len(r.How.Argv) == 0 || r.How.Argv[0] == "" || !filepath.IsAbs(r.How.Argv[0]) {
		return errors.New("it names no program to run")
	}
	n := 0
	for _, part := range [][]string{r.How.Argv, r.How.Prompt, r.How.Own, r.Env} {
		for _, a := range part {
			n += len(a)
		}
	}
	for _, m := range r.How.Modes {
		for _, a := range m {
			n += len(a)
		}
	}
	if n > 16*MaxCommand {
		return fmt.Errorf("it holds %d bytes of words, past %d", n, 16*MaxCommand)
	}
	return nil
}

// putResume writes chat id's resume record: with the transaction on a
// local home, else in this computer's own files once the shared commit is
// done (never on a shared store: its secrets are this computer's).
func (s SessionsTx) putResume(id string, r *Resume) {
	tx := s.tx
	if !tx.h.shared {
		tx.put(resumeRel(id), r, true)
		return
	}
	data, err := json.MarshalIndent(r, "", " ")
	if err != nil {
		return
	}
	tx.After(func() {
		unlock, err := tx.h.local.Lock(tx.h.LockWait)
		if err != nil {
			return
		}
		defer unlock()
		_, _ = tx.h.local.Commit([]store.Write{{Key: resumeRel(id), Data: append(data, '\n'), Class: store.Durable}})
	})
}

// dropResume removes chat id's resume record (a chat deleted): nothing of
// its harness's variables stays behind.
func (s SessionsTx) dropResume(id string) {
	tx := s.tx
	if r, err := tx.Sessions().resumeOf(id); err == nil && r == nil {
		return // none (one that cannot be read goes too)
	}
	if !tx.h.shared {
		tx.remove(resumeRel(id))
		return
	}
	tx.After(func() {
		unlock, err := tx.h.local.Lock(tx.h.LockWait)
		if err != nil {
			return
		}
		defer unlock()
		_, _ = tx.h.local.Commit([]store.Write{{Key: resumeRel(id), Delete: true}})
	})
}

// How a chat can be woken now (wakeWay).
const (
	wayNone    = ""        // no wake_cmd (or not here)
	wayCmd     = "cmd"     // its wake_cmd runs
	wayResume  = "resume"  // its harness resumes its session headless
	wayRunning = "running" // a woken run goes: it takes the wake when it ends
	wayOpen    = "open"    // its session is open in its harness: the person's
	wayChannel = "channel" // open, and its harness takes a prompt into it (Channel)
)

// wakeWay says how c can be woken now, and its resume record when conch's
// own wake_cmd is its.
func (w WakesView) wakeWay(c *Chat) (string, *Resume) {
	tx := w.v
	if c.WakeCmd == "" || elsewhere(c.Computer, tx.h.Computer) {
		return wayNone, nil
	}
	if !ownWake(c.WakeCmd) {
		return wayCmd, nil
	}
	r, err := tx.Sessions().resumeOf(c.ID)
	if err != nil || r == nil {
		return wayNone, nil
	}
	switch {
	case r.Runner != nil && alive(r.Runner.PID, r.Runner.Start):
		return wayRunning, r
	case r.Proc.PID > 0 && alive(r.Proc.PID, r.Proc.Start) && c.Status != StatusStopped:
		// (A session whose end was heard is over, though its process may
		// still be leaving: claude -p, codex exec.)
		if r.Channel != "" {
			return wayChannel, r
		}
		return wayOpen, r
	}
	return wayResume, r
}

// sessionEnded says whether c is stopped only because its harness session
// ended (SessionEnd), not by another chat, and conch can resume it: a
// notice wakes it as it would an idle chat.
func (c *Chat) sessionEnded() bool {
	return c.Status == StatusStopped && c.Reply == nil && c.StopPending() == nil && ownWake(c.WakeCmd)
}

// waking says whether a wake recorded for c is still on its way: claimed
// by a live wake-run, or recorded within WakeGrace.
func (c *Chat) waking() bool { return c.Wake != nil && !c.Wake.dead }

// wakeDead says whether a wake recorded at w.At has died by now: the
// wake-run that claimed it is gone, or none claimed it in WakeGrace.
func wakeDead(w *Wake, now time.Time) bool {
	if w.Runner == wakeFailed {
		return true
	}
	if w.Runner > 0 {
		return !alive(w.Runner, w.RunnerStart)
	}
	return now.Sub(w.At) > WakeGrace
}

// WakeRun is what conch wake-run runs: the harness's resume, in the chat's
// folder, with the harness's own variables.
type WakeRun struct {
	Chat    string
	Harness string
	Argv    []string // the prompt is the caller's to add
	Env     []string
	Dir     string
	Message *Message // the message the wake is for, if one
	// Channel, Session: the wake's prompt goes into the open session
	// there (OpenCode's server), not to a harness conch starts.
	Channel, Session string
}

// Claim is conch wake-run's start: the wake recorded for chat id is
// this run's (runner), and how to run the harness for it. nil: there is
// no wake to run (a reply took it, or it is not conch's own).
func (w WakesTx) Claim(id string, runner Proc) (*WakeRun, error) {
	tx := w.tx
	c, err := tx.Chats().Get(id)
	if err != nil {
		return nil, err
	}
	if c.Wake == nil || c.working() || !ownWake(c.WakeCmd) {
		return nil, nil
	}
	r, err := tx.Sessions().resumeOf(id)
	if err != nil || r == nil {
		return nil, err
	}
	c.Wake.Runner, c.Wake.RunnerStart, c.Wake.dead = runner.PID, runner.Start, false
	tx.Chats().save(c, true)
	way, _ := tx.Wakes().wakeWay(c)
	rr := *r
	rr.Runner = &runner
	tx.Sessions().putResume(id, &rr)
	run := &WakeRun{Chat: id, Harness: r.Harness, Dir: c.Folder}
	if way == wayChannel {
		run.Channel, run.Session = r.Channel, r.Session
	}
	if tx.h.shared {
		run.Dir = c.cmdFolder
	}
	mode := c.Mode
	if c.Wake.Message != "" {
		m, err := tx.Messages().record(c.Wake.Message)
		if err != nil {
			return nil, err
		}
		if m != nil && (m.AtStart || len(m.Taint) > 0) && modeRank(mode) > modeRank(ModeAsk) {
			mode = ModeAsk // an unwatched run never acts on a page's words unasked
		}
		run.Message = m
	}
	if modeRank(mode) < 0 {
		mode = ModeAsk
	}
	flags := r.How.Modes[mode]
	if r.How.OwnMode != "" && modeRank(r.How.OwnMode) <= modeRank(mode) {
		flags = r.How.Own // as the first run did: never above the wake's mode
	}
	run.Argv = slices.Concat(r.How.Argv, flags, r.How.Prompt)
	run.Env = slices.Concat(r.Env, c.CmdEnv, []string{"CONCH_HOME=" + tx.h.Dir, "CONCH_CHAT=" + id}, tx.h.reach)
	return run, nil
}

// RunEnded is conch wake-run's end, once the harness it ran has
// exited (code: how, for the log). It says whether to run the harness
// again: a wake recorded while the run went, untaken. A wake the run
// claimed that no reply took failed: the waits on the chat end saying so,
// and a later message can wake it again.
func (w WakesTx) RunEnded(id string, runner Proc) (again bool, err error) {
	tx := w.tx
	c, err := tx.Chats().Get(id)
	if err != nil {
		return false, err
	}
	r, err := tx.Sessions().resumeOf(id)
	if err != nil {
		return false, err
	}
	if r != nil && r.Runner != nil && r.Runner.PID == runner.PID {
		rr := *r
		rr.Runner = nil
		tx.Sessions().putResume(id, &rr)
	}
	switch {
	case c.Wake == nil || c.working():
		return false, nil
	case c.Wake.Runner == 0:
		return true, nil // recorded for this run to take once it ended
	case c.Wake.Runner != runner.PID:
		return false, nil
	}
	// It stays, dead, so that a wait registered after it hears how it
	// ended, and the next reply is still the wake's; a later wake takes
	// its place.
	c.Wake.Runner, c.Wake.RunnerStart, c.Wake.dead = wakeFailed, 0, true
	tx.Chats().save(c, true)
	tx.Log().record(c, kindFailed, ActorSystem, "", "a wake: its harness ended before a reply began", "error")
	return false, tx.Waits().endWaits(Actor{ID: c.ID}, c)
}

// Sent is conch wake-run's word that the wake's prompt went into the
// open session (Channel): the wake is no longer this run's, and the reply
// it starts has WakeGrace from now to begin.
func (w WakesTx) Sent(id string, runner Proc) error {
	tx := w.tx
	c, err := tx.Chats().Get(id)
	if err != nil {
		return err
	}
	r, err := tx.Sessions().resumeOf(id)
	if err != nil {
		return err
	}
	if r != nil && r.Runner != nil && r.Runner.PID == runner.PID {
		rr := *r
		rr.Runner = nil
		tx.Sessions().putResume(id, &rr)
	}
	if c.Wake != nil && c.Wake.Runner == runner.PID {
		c.Wake.Runner, c.Wake.RunnerStart, c.Wake.At = 0, 0, tx.Now()
		tx.Chats().save(c, true)
	}
	return nil
}

// LocalURL is u when it is an http address on this computer's loopback
// (where a harness's own server listens), else "": conch sends nothing
// anywhere else.
func LocalURL(u string) string {
	p, err := url.Parse(u)
	if err != nil || len(u) > 256 || p.Scheme != "http" || p.User != nil || p.RawQuery != "" || p.Fragment != "" || (p.Path != "" && p.Path != "/") || p.Opaque != "" {
		return ""
	}
	switch p.Hostname() {
	case "127.0.0.1", "localhost", "::1":
		return "http://" + p.Host
	}
	return ""
}
