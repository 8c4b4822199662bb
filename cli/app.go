package cli

import (
	"os"

	"github.com/conch-sh/conch/state"
)

// update runs fn in a transaction under the home's lock.
func (a *app) update(fn func(tx *state.Tx) error) error { return a.home.Update(fn) }

// view runs fn over the records as they are, with no lock.
func (a *app) view(fn func(tx *state.Tx) error) error { return a.home.View(fn) }

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
	return state.HarnessPID(a.env.PPID)
}

// showChat prints a chat as the actor may see it.
func (a *app) showChat(tx *state.Tx, c *state.Chat) error {
	shown, err := tx.Show(a.actor(), c)
	if err != nil {
		return err
	}
	return a.printer().Value(shown, c.ID+"\n")
}
