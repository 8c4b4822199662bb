package harness

import "github.com/conch-sh/conch/state"

// withNotes answers with base and the chat's notes, when it has any, by
// the one notes protocol (state's TellNotes): the answer is given once the
// marks are committed. An event that cannot mark answers base without the
// notes, which stay due, as they do at an event whose answer the harness
// cannot put before the model. A stopped reply answers stop instead, and
// marks nothing.
func withNotes(r *run, ev *Event, c *state.Chat, base Answer) error {
	if !r.caps.Context.Has(ev.Kind) {
		return nil // nothing said here: the notes stay due
	}
	actor := state.Actor{ID: c.ID}
	err := r.home.TellNotes(actor, state.Teller{
		Mark:   true,
		Update: r.update,
		Say: func(tx *state.Tx, n *state.Notes) (*state.Notes, error) {
			switch {
			case tx == nil && n.StopNow:
				return n, sayStop(r, ev, c, stopAnswer(*n.Stop))
			case tx == nil:
				r.say(base)
				return n, nil
			case n.StopNow:
				r.say(stopAnswer(*n.Stop))
				if !stopHeard(r, ev) {
					return n, nil
				}
				return n, tx.Replies().HeardStop(actor)
			}
			return sayNotes(r, tx, n, base), nil
		},
	})
	if err != nil && !r.answered {
		r.say(base)
	}
	return err
}

// sayNotes is what of the chat's notes n, gathered in tx, base with them
// can say within what the harness's cap leaves beside base's own text
// (whatever does not fit stays due, for the caller to mark), and says it
// once tx is committed: an event whose marks fail says nothing of them,
// so nothing is said twice. It runs under the lock.
func sayNotes(r *run, tx *state.Tx, n *state.Notes, base Answer) *state.Notes {
	room := r.caps.ContextCap - withX(r.env.Wording.Size(base)) - 64
	ans := base
	shown, size := r.env.Wording.Fit(&state.Notes{}, 0)
	if room > 0 {
		shown, size = r.env.Wording.Fit(n, room)
	}
	if size > 0 {
		ans.Notes, ans.NotesRoom = n, room
	}
	tx.After(func() { r.say(ans) })
	return shown
}

// withX is how many bytes an answer of size bytes says with one byte of
// notes after it (a blank line between).
func withX(size int) int {
	if size == 0 {
		return 1
	}
	return size + 3
}
