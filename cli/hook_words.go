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
func reply(ans harness.Answer) harness.Reply {
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
		text, _ := render.Notes(ans.Notes, ans.NotesRoom)
		notes = strings.TrimRight(text, "\n")
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

// hookWording is render's wording for harness.Handle: what it cleans, and
// how many bytes an answer says.
type hookWording struct{}

func (hookWording) Clean(s string) string             { return render.Clean(s) }
func (hookWording) CutTitle(s string, max int) string { return render.CutTitle(s, max) }

func (hookWording) Fit(n *state.Notes, room int) (*state.Notes, int) {
	text, shown := render.Notes(n, room)
	return shown, len(strings.TrimRight(text, "\n"))
}

func (hookWording) Size(ans harness.Answer) int {
	r := reply(ans)
	if r.Context != "" {
		return len(r.Context)
	}
	return len(r.Prompt)
}
