package harness

import (
	"strings"

	"github.com/conch-sh/conch/render"
	"github.com/conch-sh/conch/state"
)

// withNotes answers with the chat's notes, when it has any (and with what
// build adds around them), by the one notes protocol (state's TellNotes):
// the answer is given once the marks are committed. An event that cannot
// mark answers without the notes, which stay due, as they do at an event
// whose answer the harness cannot put before the model. A stopped reply
// answers stop instead, and marks nothing.
func (r *run) withNotes(c *state.Chat, build func(notes string) Answer, stop func(reason string) Answer) error {
	if !r.caps.Context.Has(r.ev.Kind) {
		return nil // nothing said here: the notes stay due
	}
	actor := state.Actor{ID: c.ID}
	err := r.home.TellNotes(actor, state.Teller{
		Mark:   true,
		Update: r.update,
		Say: func(tx *state.Tx, n *state.Notes) (*state.Notes, error) {
			switch {
			case tx == nil && n.StopNow:
				return n, r.sayStop(c, stop(render.StopLine(*n.Stop)))
			case tx == nil:
				r.say(build(""))
				return n, nil
			case n.StopNow:
				r.say(stop(render.StopLine(*n.Stop)))
				if !r.stopHeard() {
					return n, nil
				}
				return n, tx.HeardStop(actor)
			}
			return r.sayNotes(tx, n, build), nil
		},
	})
	if err != nil && !r.answered {
		r.say(build(""))
	}
	return err
}

// sayNotes is what of the chat's notes n, gathered in tx, an answer can
// say within what the harness's cap leaves beside what build puts around
// them (whatever does not fit stays due, for the caller to mark), and
// says it once tx is committed: an event whose marks fail says nothing of
// them, so nothing is said twice. It runs under the lock.
func (r *run) sayNotes(tx *state.Tx, n *state.Notes, build func(notes string) Answer) *state.Notes {
	room := r.caps.ContextCap - len(build("x").text()) - 64
	text, shown := "", n
	if room > 0 {
		text, shown = render.Notes(n, room)
	} else {
		text, shown = render.Notes(&state.Notes{}, 0)
	}
	ans := build(strings.TrimRight(text, "\n"))
	tx.After(func() { r.say(ans) })
	return shown
}
