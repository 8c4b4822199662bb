package harness

import (
	"os"
	"strings"
	"testing"
	"time"

	"github.com/conch-sh/conch/state"
	"github.com/conch-sh/conch/state/store"
)

// session plays one harness session against a home in memory, as an
// adapter would: every event through Handle.
type session struct {
	t    *testing.T
	home *state.Home
	name string        // the harness
	id   string        // its session id
	caps *Capabilities // nil: the harness's own
}

func newHome(t *testing.T) *state.Home {
	t.Helper()
	now := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	h, err := state.Open(state.Options{Dir: "mem", Store: store.NewMem(), Now: func() time.Time { return now }, Hostname: "box"})
	if err != nil {
		t.Fatal(err)
	}
	return h
}

func (s *session) event(ev Event) Answer {
	s.t.Helper()
	ev.Harness, ev.Session = s.name, s.id
	if ev.Folder == "" {
		ev.Folder = "/work/proj"
	}
	ev.Mode = state.ModeAuto
	pid := os.Getpid() // a process that is there for as long as the test runs
	caps := CapsOf(s.name)
	if s.caps != nil {
		caps = *s.caps
	}
	ans, err := handle(s.home, ev, Env{Cwd: "/work/proj", PPID: pid, PID: func() int { return pid }, Wording: testWording{}}, caps)
	if err != nil {
		s.t.Fatalf("%v: %v", ev.Kind, err)
	}
	return ans
}

// TestHandleShapesAnswers: the same events make the same chats in every
// harness, and each answer is shaped to what its harness can carry: a
// stopped reply's pending tool is denied, and only a harness that can end
// a turn before a tool is also told to stop.
func TestHandleShapesAnswers(t *testing.T) {
	for _, tc := range []struct {
		harness string
		stop    bool
	}{{claudeName, true}, {codexName, false}} {
		t.Run(tc.harness, func(t *testing.T) {
			home := newHome(t)
			me := &session{t: t, home: home, name: tc.harness, id: "S1"}
			other := &session{t: t, home: home, name: tc.harness, id: "S2"}
			hello := me.event(Event{Kind: SessionStart, Name: "SessionStart"})
			if hello.Intro == nil || hello.Intro.Chat != "c_1" {
				t.Fatalf("SessionStart answers %+v, want the introduction", hello)
			}
			me.event(Event{Kind: PromptSubmit, Prompt: "Fix the parser"})
			other.event(Event{Kind: SessionStart})
			err := home.Update(func(tx *state.Tx) error {
				_, err := tx.Replies().Stop(state.Actor{ID: "c_2"}, state.StopIn{Target: "c_1", Reason: "the build is mine now"})
				return err
			})
			if err != nil {
				t.Fatal(err)
			}
			ans := me.event(Event{Kind: PreTool, Name: "PreToolUse", Tool: "Bash", Input: Fields{"command": []byte(`"make"`)}})
			if ans.Permission != Deny || ans.Stop == nil || ans.Stop.Reason != "the build is mine now" {
				t.Errorf("the pending tool of a stopped reply: %+v, want it denied with the notice", ans)
			}
			if ans.EndTurn != tc.stop {
				t.Errorf("stop before the tool: %v, want %v (%+v)", ans.EndTurn, tc.stop, ans)
			}
		})
	}
}

// TestHandleLessCapable: a harness that can refuse no tool has a stopped
// reply's tool run, and hears the stop at the next event that can say it;
// one whose answers after a tool never reach the model is told nothing
// there, and the message stays due for the next prompt; one that cannot
// keep a turn going ends it, and the --start-reply message waits.
func TestHandleLessCapable(t *testing.T) {
	caps := CapsOf(claudeName)
	caps.Deny, caps.KeepGoing = false, false
	caps.Context = KindsOf(SessionStart, PromptSubmit)
	home := newHome(t)
	me := &session{t: t, home: home, name: claudeName, id: "S1", caps: &caps}
	other := &session{t: t, home: home, name: claudeName, id: "S2"}
	me.event(Event{Kind: SessionStart})
	me.event(Event{Kind: PromptSubmit, Prompt: "Fix the parser"})
	other.event(Event{Kind: SessionStart})
	send := func(text string, start bool) {
		t.Helper()
		err := home.Update(func(tx *state.Tx) error {
			_, err := tx.Messages().Send(state.Actor{ID: "c_2"}, state.SendIn{To: "c_1", Text: text, StartReply: start})
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	send("the lexer is yours", false)
	if ans := me.event(Event{Kind: PostTool, Tool: "Read", Input: Fields{"file_path": []byte(`"a.go"`)}}); !ans.IsZero() {
		t.Errorf("PostTool answers %+v where nothing reaches the model", ans)
	}
	if ans := me.event(Event{Kind: PromptSubmit, Prompt: "go on"}); ans.Notes == nil || len(ans.Notes.Messages) != 1 || ans.Notes.Messages[0].Text != "the lexer is yours" {
		t.Errorf("the next prompt answers %+v, want the message still due", ans)
	}
	send("review this next", true)
	if ans := me.event(Event{Kind: TurnEnd, LastWords: "Done.", HasLastWords: true}); !ans.IsZero() {
		t.Errorf("TurnEnd answers %+v from a harness that cannot keep a turn going", ans)
	}
	me.event(Event{Kind: PromptSubmit, Prompt: "one more"})
	err := home.Update(func(tx *state.Tx) error {
		_, err := tx.Replies().Stop(state.Actor{ID: "c_2"}, state.StopIn{Target: "c_1", Reason: "the build is mine now"})
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if ans := me.event(Event{Kind: PreTool, Tool: "Bash", Input: Fields{"command": []byte(`"make"`)}}); !ans.IsZero() {
		t.Errorf("PreTool answers %+v from a harness that can refuse no tool", ans)
	}
	if ans := me.event(Event{Kind: PromptSubmit, Prompt: "and?"}); ans.Notes == nil || ans.Notes.Stop == nil || ans.Notes.Stop.Reason != "the build is mine now" {
		t.Errorf("the next event that can say it answers %+v, want the stop", ans)
	}
}

// testWording stands in for render's wording (cli's): it cleans by
// folding white space, and says every note in one byte.
type testWording struct{}

func (testWording) Clean(s string) string { return strings.Join(strings.Fields(s), " ") }

func (w testWording) CutTitle(s string, max int) string {
	if s = w.Clean(s); len(s) > max {
		s = s[:max]
	}
	return s
}

func (testWording) Fit(n *state.Notes, room int) (*state.Notes, int) {
	if n.Empty() {
		return n, 0
	}
	return n, 1
}

func (testWording) Size(Answer) int { return 0 }

// TestFamily: each harness's tools, in the families of steps, with the
// files they work on: Claude Code's words, and the others' said in them
// (their adapters' Tools); a name one harness has is nothing to another.
func TestFamily(t *testing.T) {
	for _, c := range []struct {
		harness, tool, input, family string
		files                        []string
	}{
		{claudeName, "Edit", `{"file_path":"a.go"}`, "edit", []string{"a.go"}},
		{claudeName, "NotebookEdit", `{"notebook_path":"n.ipynb"}`, "edit", []string{"n.ipynb"}},
		{claudeName, "Read", `{"file_path":"/x/b.go"}`, "read", []string{"/x/b.go"}},
		{claudeName, "Grep", `{"pattern":"x"}`, "read", nil},
		{claudeName, "WebSearch", `{"query":"q"}`, "browse", nil},
		{claudeName, "Bash", `{"command":"go test ./..."}`, "run", nil},
		{claudeName, "Bash", `{"command":"git -C repo commit -m x"}`, "edit", nil},
		{codexName, "exec_command", `{"command":"conch wait chat c_2"}`, "wait", nil},
		{codexName, "apply_patch", `{"input":"*** Begin Patch\n*** Update File: a.go\n*** Move to: b.go\n*** End Patch"}`, "edit", []string{"a.go", "b.go"}},
		{geminiName, "replace", `{"file_path":"a.go"}`, "edit", []string{"a.go"}},
		{geminiName, "run_shell_command", `{"command":"make"}`, "run", nil},
		{qwenName, "write_file", `{"file_path":"a.go"}`, "edit", []string{"a.go"}},
		{qwenName, "notebook_edit", `{"notebook_path":"n.ipynb"}`, "edit", []string{"n.ipynb"}},
		{claudeName, "write_file", `{"file_path":"a.go"}`, "other", nil},
		{claudeName, "mcp__thing", `{}`, "other", nil},
	} {
		family, files := Family(toolWord(c.harness, c.tool), Obj([]byte(c.input)))
		if family != c.family || strings.Join(files, ",") != strings.Join(c.files, ",") {
			t.Errorf("%s's %s(%s) = %s %q, want %s %q", c.harness, c.tool, c.input, family, files, c.family, c.files)
		}
	}
}
