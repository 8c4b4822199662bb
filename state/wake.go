package state

import (
	"slices"

	"github.com/conch-sh/conch/state/proc"
)

// Wake reasons: what started a reply conch woke.
const (
	wakeMessage = "message"
	wakeWait    = "wait"
	wakeNotice  = "notice"
)

// wake records a wake on c (so that its next reply is the wake's: it joins
// chain, and a message's wake runs unwatched) and, once the transaction is
// written, runs its wake_cmd detached with CONCH_CHAT, CONCH_WAKE and
// CONCH_MESSAGE set. It says whether there was a wake_cmd to run. A chat
// on another computer has none here: its command, its folder and its
// harness are on that computer, so what would wake it waits, due, for its
// next reply, as for a chat with no wake_cmd.
//
// A chat whose wake_cmd is conch's own (its harness's resume) is woken so
// only when its session is not open: while the person has it open, the
// message waits for them. While a woken run of it goes, the wake is
// recorded for that run to take when it ends (one woken run at a time).
func (w WakesTx) wake(c *Chat, reason, message, chain string) bool {
	tx := w.tx
	way, _ := tx.Wakes().wakeWay(c)
	if way == wayNone || way == wayOpen {
		return false
	}
	c.Wake = &Wake{Reason: reason, Message: message, Chain: chain, At: tx.Now()}
	tx.Chats().save(c, true)
	if way != wayRunning {
		tx.Wakes().runCmd(c, c.WakeCmd, "CONCH_WAKE="+reason, "CONCH_MESSAGE="+message) // a resume, a channel's prompt, or the person's command
	}
	return true
}

// canWake says whether tx.wake would wake c now.
func (w WakesView) canWake(c *Chat) bool {
	tx := w.v
	way, _ := tx.Wakes().wakeWay(c)
	return way != wayNone && way != wayOpen
}

// runStopCmd runs a chat's stop_cmd detached, once the change is written;
// never for a chat on another computer (its hooks hear the stop at its
// next tool call).
func (w WakesTx) runStopCmd(c *Chat, by, reason string) {
	tx := w.tx
	if c.StopCmd == "" || elsewhere(c.Computer, tx.h.Computer) {
		return
	}
	tx.Wakes().runCmd(c, c.StopCmd, "CONCH_STOPPED_BY="+by, "CONCH_STOP_REASON="+reason)
}

// cmdEnvNames are the variables of the harness's environment that conch
// records when the harness registers a wake_cmd or stop_cmd, and runs them
// with: enough to find and start a program, nothing a sender could use to
// steer it.
// CONCH_NOW among them is the clock a test harness pins.
var cmdEnvNames = []string{"PATH", "HOME", "USER", "LOGNAME", "SHELL", "LANG", "LC_ALL", "LC_CTYPE", "TMPDIR", "XDG_RUNTIME_DIR", "CONCH_NOW"}

// minimalPath is the PATH of a command whose harness registered none.
const minimalPath = "PATH=/usr/local/bin:/usr/bin:/bin"

// CmdEnvOf is what a harness's environment gives CmdEnv: the values of
// CmdEnvNames that are set, each within MaxCommand bytes.
func CmdEnvOf(getenv func(string) string) []string {
	var env []string
	for _, k := range cmdEnvNames {
		if v := getenv(k); v != "" && len(v) <= MaxCommand {
			env = append(env, k+"="+v)
		}
	}
	return env
}

// runCmd runs one of c's commands, once the transaction is written, in
// c's own folder and with a fixed environment (issue 12, rule 17): the one
// its harness registered (else a minimal PATH), the home, and the CONCH_*
// variables that say why; never the environment or the folder of the
// command that caused it, which may be another chat's.
func (w WakesTx) runCmd(c *Chat, command string, vars ...string) {
	tx := w.tx
	env := slices.Clone(c.CmdEnv)
	if len(env) == 0 {
		env = []string{minimalPath}
	}
	env = append(env, "CONCH_HOME="+tx.h.Dir, "CONCH_CHAT="+c.ID)
	env = append(env, tx.h.reach...)
	env = append(env, vars...)
	argv, dir := []string{"/bin/sh", "-c", command}, c.Folder
	if tx.h.shared {
		dir = c.cmdFolder // where they were set, not where a shared record says
	}
	if dir == "" {
		dir = "/" // never the folder of the command that caused it
	}
	tx.After(func() { _ = proc.Detach(argv, env, dir) })
}
