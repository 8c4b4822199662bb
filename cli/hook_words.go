package cli

import (
	"strings"

	"github.com/conch-sh/conch/harness"
	"github.com/conch-sh/conch/render"
	"github.com/conch-sh/conch/state"
)

// The harness answers in types (harness.Answer); this is where they
// become render's words (a harness.Reply), which the adapter's Encode puts
// in its harness's JSON.

// reply is ans in render's words: the session's introduction and conch's
// prompt section, the guard's note and the notes in the context (the
// notes as the next prompt when the turn goes on); the guard's reason or
// the stop's notice for a refused tool; the stop's notice, or only who
// stopped the reply when the refusal says the notice, for a turn ended.
func reply(ans harness.Answer) harness.Reply { return replyWith(ans, notesWords) }

// replyWith is reply, the notes said by words.
func replyWith(ans harness.Answer, words func(n *state.Notes, room int) string) harness.Reply {
	r := harness.Reply{Permission: ans.Permission, Stop: ans.EndTurn, Continue: ans.Continue}
	var context []string
	if in := ans.Intro; in != nil {
		context = append(context, introduction(*in), render.Prompt)
	}
	switch {
	case ans.Stop != nil && ans.Permission != "":
		r.PermissionReason = render.StopLine(*ans.Stop)
	case ans.Guard != nil && ans.Permission == "":
		context = append(context, render.GuardReason(ans.Guard))
	case ans.Guard != nil:
		r.PermissionReason = render.GuardReason(ans.Guard)
		if ans.Permission == harness.Deny && ans.Guard.Decision == state.GuardAsk {
			r.PermissionReason = render.GuardAskElsewhere(r.PermissionReason)
		}
	}
	if ans.EndTurn && ans.Stop != nil {
		r.StopReason = render.StopLine(*ans.Stop)
		if ans.Permission != "" {
			r.StopReason = render.StopWho(*ans.Stop)
		}
	}
	notes := ""
	if ans.Notes != nil {
		notes = words(ans.Notes, ans.NotesRoom)
	}
	if ans.Continue {
		r.Prompt = notes
	} else {
		context = append(context, notes)
	}
	r.Context = joinText(context...)
	return r
}

// introduction is how a session hears which chat it is, in words.
func introduction(in harness.Intro) string {
	switch in.How {
	case harness.IntroExported:
		return render.Introduce(in.Chat, true)
	case harness.IntroLinked:
		return render.IntroduceLinked(in.Chat, in.Env)
	case harness.IntroRewritten:
		return render.IntroduceRewritten(in.Chat)
	}
	return render.Introduce(in.Chat, false)
}

// joinText joins the parts that are not empty with a blank line.
func joinText(parts ...string) string {
	var keep []string
	for _, p := range parts {
		if p = strings.TrimSpace(p); p != "" {
			keep = append(keep, p)
		}
	}
	return strings.Join(keep, "\n\n")
}

// notesWords are the notes n in render's words, within room bytes.
func notesWords(n *state.Notes, room int) string {
	text, _ := render.Notes(n, room)
	return strings.TrimRight(text, "\n")
}

// hookWording is render's wording for harness.Handle: what it cleans, and
// how many bytes an answer says. It keeps the words of the notes it last
// fitted, which are the ones the answer then carries, so that its reply
// says them without rendering them a second time (at every tool call).
type hookWording struct {
	fitted *state.Notes
	room   int
	text   string
}

func (*hookWording) Clean(s string) string             { return render.Clean(s) }
func (*hookWording) CutTitle(s string, max int) string { return render.CutTitle(s, max) }

func (w *hookWording) Fit(n *state.Notes, room int) (*state.Notes, int) {
	text, shown := render.Notes(n, room)
	w.fitted, w.room, w.text = n, room, strings.TrimRight(text, "\n")
	return shown, len(w.text)
}

// notes are n's words within room: the ones Fit made, when it made them.
func (w *hookWording) notes(n *state.Notes, room int) string {
	if n == w.fitted && room == w.room {
		return w.text
	}
	return notesWords(n, room)
}

// reply is reply(ans), with the notes Fit has said already.
func (w *hookWording) reply(ans harness.Answer) harness.Reply { return replyWith(ans, w.notes) }

func (w *hookWording) Size(ans harness.Answer) int {
	r := w.reply(ans)
	if r.Context != "" {
		return len(r.Context)
	}
	return len(r.Prompt)
}
