package cli

import (
	"os"

	"github.com/conch-sh/conch/state"
	"github.com/conch-sh/conch/state/proc"
)

// update runs fn in a transaction under the home's lock, then says on
// standard error what went wrong without failing it (a log append that
// could not be written).
func (a *app) update(fn func(tx *state.Tx) error) error { return a.homeRW().update(fn) }

// warnCommitted says what went wrong after this command's change had
// committed: a warning, for the change stands.
func (a *app) warnCommitted(err error) { warnCommitted(a.printer(), err) }

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

// view runs fn over the records as they are, with no lock.
func (a *app) view(fn func(v *state.View) error) error { return a.home.View(fn) }

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
