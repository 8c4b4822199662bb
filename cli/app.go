package cli

import (
	"os"

	"github.com/conch-sh/conch/state"
	"github.com/conch-sh/conch/state/proc"
)

// updateWarning runs fn in a transaction under the home's lock; after a
// commit, warn hears each thing that went wrong without failing it.
func updateWarning(home *state.Home, fn func(tx *state.Tx) error, warn func(string)) error {
	var last *state.Tx
	err := home.Update(func(tx *state.Tx) error { last = tx; return fn(tx) })
	if err == nil && last != nil {
		for _, w := range last.Warnings() {
			warn(w)
		}
	}
	return err
}

// userHome is the person's home folder, for writing folders as ~/…
func (a *app) userHome() string {
	if h := a.env.Getenv("HOME"); h != "" {
		return h
	}
	h, _ := os.UserHomeDir()
	return h
}

// harnessPID is the process running the chat: --pid, else the parent of
// this command (past a shell that only ran it).
func (a *app) harnessPID(pid int) int {
	if pid != 0 {
		return pid
	}
	if a.harness != 0 {
		return a.harness
	}
	return proc.HarnessPID(a.env.PPID)
}
