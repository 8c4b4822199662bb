package cli

import (
	"io"
	"os"
	"path/filepath"

	"github.com/conch-sh/conch/render"
	"github.com/conch-sh/conch/state"
)

// How a verb reaches what it uses (issue 26, item 5: the gh shape).
//
// app is the wiring alone: the environment, the global flags, the home
// prepare opened and the run's commit mark. A verb is three things:
//
//   - xOptions holds its words (flags, arguments) and, in exported
//     fields, the dependencies its run uses, those alone: IO (the run's
//     printer), Home (the opened home, which marks the run committed),
//     Actor (who runs it), Cwd (the working folder, for paths typed),
//     UserHome (for writing folders as ~/…), Now (the clock), Env (the
//     streams and the world, for the few verbs that reach past them).
//   - newXCmd(a, runF) builds the cobra command: it parses and validates
//     the words and, at run time (after prepare has opened the home),
//     fills the dependencies from a; runF, when not nil, gets the options
//     instead of the run (for tests).
//   - runX(o) is a plain function that does the work with o's fields.
//
// Filling the dependencies costs a hot command no allocation: the printer
// is a value inside app (app.printer allocates nothing) and homeRW is
// three words copied into the options, which only grow (BenchmarkHot:
// notes and step the same allocations, some 60 to 80 bytes more).

// homeRW is the opened home as a verb's run reads and changes it: update
// runs a transaction under the home's lock, says on standard error what
// went wrong without failing it (a log append that could not be
// written), and marks the run committed: a failure after that is a
// warning, never exit 1 (SPEC §2: a command that failed wrote nothing).
type homeRW struct {
	home      *state.Home
	io        *render.Printer
	committed *bool
}

// homeRW is the home prepare opened, for a verb's options.
func (a *app) homeRW() homeRW {
	return homeRW{home: a.home, io: a.printer(), committed: &a.committed}
}

// update runs fn in a transaction under the home's lock.
func (h homeRW) update(fn func(tx *state.Tx) error) error {
	err := updateWarning(h.home, fn, func(w string) { h.io.Warn("%s", w) })
	if err == nil {
		*h.committed = true
	}
	return err
}

// markCommitted marks the run committed after a change made outside a
// transaction of the home (backend migrate's copy).
func (h homeRW) markCommitted() { *h.committed = true }

// view runs fn over the records as they are, with no lock.
func (h homeRW) view(fn func(v *state.View) error) error { return h.home.View(fn) }

// showChat prints a chat a write made or changed, as the actor may see
// it: its id, or with --json the record.
func (h homeRW) showChat(actor state.Actor, c *state.Chat) error {
	return h.view(func(tx *state.View) error {
		shown, err := tx.Chats().Show(actor, c)
		if err != nil {
			return err
		}
		return h.io.Value(render.ChatView(shown), c.ID+"\n")
	})
}

// updateChat runs a write that changes one chat, then prints it.
func (h homeRW) updateChat(actor state.Actor, fn func(tx *state.Tx) (*state.Chat, error)) error {
	var c *state.Chat
	err := h.update(func(tx *state.Tx) error {
		var err error
		c, err = fn(tx)
		return err
	})
	if err != nil {
		return err
	}
	return h.showChat(actor, c)
}

// absPath makes p absolute against the working folder cwd.
func absPath(cwd, p string) string {
	if p == "" || filepath.IsAbs(p) {
		return filepath.Clean(p)
	}
	return filepath.Join(cwd, p)
}

// readText reads free text from a flag or a file (- for in), a file's
// path typed against cwd.
func readText(in io.Reader, cwd, text, file string, textSet bool, what string) (string, error) {
	if file == "" {
		return text, nil
	}
	if textSet {
		return "", usage("give %s as text or as a file, not both", what)
	}
	var data []byte
	var err error
	if file == "-" {
		data, err = io.ReadAll(in)
	} else {
		data, err = os.ReadFile(absPath(cwd, file))
	}
	if err != nil {
		return "", usage("cannot read %s from %s: %v", what, file, err)
	}
	return string(data), nil
}

// warnCommitted says what went wrong after a run's change had committed:
// a warning, for the change stands.
func warnCommitted(p *render.Printer, err error) {
	p.Warn("%s", render.CommittedBut(err))
}
