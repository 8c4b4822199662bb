package cli

import (
	"strings"
	"testing"

	"github.com/conch-sh/conch/harness"
	"github.com/conch-sh/conch/render"
	"github.com/conch-sh/conch/state"
)

// TestReplyWords: each typed answer is said in render's words where the
// harness reads them: a stop before a tool is the denial's notice and, for
// the turn's end, only who; a stop alone is the notice; the guard's ask,
// where the harness cannot ask, is a denial that says to ask the person;
// the introduction comes with conch's prompt section, the notes after
// them, and the notes are the next prompt when the turn goes on.
func TestReplyWords(t *testing.T) {
	stop := &state.StopNotice{By: "c_2", ByTitle: "lexer", Reason: "the build is mine now"}
	ask := &state.Verdict{Decision: state.GuardAsk, Kind: "checkout", Move: "git checkout main", Chat: "c_2"}
	notes := &state.Notes{Messages: []state.DueMessage{{ID: "m_1", Kind: "message", From: "c_2", Text: "the lexer is yours"}}}
	notesText, _ := render.Notes(notes, 4000)
	notesText = strings.TrimRight(notesText, "\n")
	intro := render.Introduce("c_1", true)
	for _, c := range []struct {
		name string
		ans  harness.Answer
		want harness.Reply
	}{
		{"nothing", harness.Answer{}, harness.Reply{}},
		{"a stop before a tool", harness.Answer{Stop: stop, Permission: harness.Deny, EndTurn: true},
			harness.Reply{Permission: harness.Deny, PermissionReason: render.StopLine(*stop), Stop: true, StopReason: render.StopWho(*stop)}},
		{"a stop before a tool the turn goes on past", harness.Answer{Stop: stop, Permission: harness.Deny},
			harness.Reply{Permission: harness.Deny, PermissionReason: render.StopLine(*stop)}},
		{"a stop", harness.Answer{Stop: stop, EndTurn: true},
			harness.Reply{Stop: true, StopReason: render.StopLine(*stop)}},
		{"the guard asks", harness.Answer{Guard: ask, Permission: harness.Ask},
			harness.Reply{Permission: harness.Ask, PermissionReason: render.GuardReason(ask)}},
		{"the guard asks where the harness cannot", harness.Answer{Guard: ask, Permission: harness.Deny},
			harness.Reply{Permission: harness.Deny, PermissionReason: render.GuardAskElsewhere(render.GuardReason(ask))}},
		{"the guard's note, late", harness.Answer{Guard: &state.Verdict{Decision: state.GuardNote, Kind: "checkout", Move: "git pull"}, Intro: &harness.Intro{Chat: "c_1", How: harness.IntroLinked, Env: "QWEN_CODE_SESSION_ID"}},
			harness.Reply{Context: render.IntroduceLinked("c_1", "QWEN_CODE_SESSION_ID") + "\n\n" + strings.TrimSpace(render.Prompt) + "\n\n" + render.GuardReason(&state.Verdict{Decision: state.GuardNote, Kind: "checkout", Move: "git pull"})}},
		{"a session's start", harness.Answer{Intro: &harness.Intro{Chat: "c_1", How: harness.IntroExported}, Notes: notes, NotesRoom: 4000},
			harness.Reply{Context: intro + "\n\n" + strings.TrimSpace(render.Prompt) + "\n\n" + notesText}},
		{"the turn goes on", harness.Answer{Continue: true, Notes: notes, NotesRoom: 4000},
			harness.Reply{Continue: true, Prompt: notesText}},
		{"the turn goes on with nothing to say", harness.Answer{Continue: true}, harness.Reply{Continue: true}},
	} {
		if got := reply(c.ans); got != c.want {
			t.Errorf("%s: reply = %+v\nwant %+v", c.name, got, c.want)
		}
	}
	if got, want := (&hookWording{}).Size(harness.Answer{Continue: true, Notes: notes, NotesRoom: 4000}), len(notesText); got != want {
		t.Errorf("Size of a prompt = %d, want %d", got, want)
	}
	if _, size := (&hookWording{}).Fit(&state.Notes{}, 100); size != 0 {
		t.Errorf("Fit of no notes says %d bytes", size)
	}
	// The notes Fit put in words are said as reply says them, not
	// rendered a second time.
	w := &hookWording{}
	w.Fit(notes, 4000)
	ans := harness.Answer{Continue: true, Notes: notes, NotesRoom: 4000}
	if got, want := w.reply(ans), reply(ans); got != want {
		t.Errorf("a reply after Fit = %+v\nwant %+v", got, want)
	}
}
