package state

import (
	"os"
	"os/exec"
	"syscall"
)

// Wake reasons: what started a reply conch woke.
const (
	WakeMessage = "message"
	WakeWait    = "wait"
	WakeNotice  = "notice"
)

// wake records a wake on c (so that its next reply is the wake's: it joins
// chain, and a message's wake runs unwatched) and, once the transaction is
// written, runs its wake_cmd detached with CONCH_CHAT, CONCH_WAKE and
// CONCH_MESSAGE set. It says whether there was a wake_cmd to run.
func (tx *Tx) wake(c *Chat, reason, message, chain string) bool {
	if c.WakeCmd == "" {
		return false
	}
	c.Wake = &Wake{Reason: reason, Message: message, Chain: chain, At: tx.Now()}
	tx.saveChat(c, true)
	env := []string{"CONCH_CHAT=" + c.ID, "CONCH_WAKE=" + reason, "CONCH_MESSAGE=" + message}
	cmd := c.WakeCmd
	tx.After(func() { runDetached(cmd, env) })
	return true
}

// runStopCmd runs a chat's stop_cmd detached, once the change is written.
func (tx *Tx) runStopCmd(c *Chat, by, reason string) {
	if c.StopCmd == "" {
		return
	}
	env := []string{"CONCH_CHAT=" + c.ID, "CONCH_STOPPED_BY=" + by, "CONCH_STOP_REASON=" + reason}
	cmd := c.StopCmd
	tx.After(func() { runDetached(cmd, env) })
}

// runDetached starts a shell command in its own session, its streams on
// /dev/null, and does not wait for it: conch never blocks on a harness.
func runDetached(command string, env []string) {
	cmd := exec.Command("/bin/sh", "-c", command)
	cmd.Env = append(os.Environ(), env...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if err := cmd.Start(); err != nil {
		return
	}
	_ = cmd.Process.Release()
}
