package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// replay is a home that recorded harness events are played into, in
// order, through conch hook HARNESS (testdata/hooks/HARNESS/FILE), and
// conch commands run against.
type replay struct {
	t       *testing.T
	home    string
	harness string
}

func newReplay(t *testing.T, harness string) *replay {
	return &replay{t: t, home: filepath.Join(t.TempDir(), "home"), harness: harness}
}

// event plays one recorded event, its fields changed by edit (when not
// nil), and returns the answer, decoded ({} for none). A hook that warns
// fails the test.
func (r *replay) event(file string, edit func(p map[string]any)) map[string]any {
	r.t.Helper()
	data, err := os.ReadFile(filepath.Join("../testdata/hooks", r.harness, file))
	if err != nil {
		r.t.Fatal(err)
	}
	if edit != nil {
		var p map[string]any
		if err := json.Unmarshal(data, &p); err != nil {
			r.t.Fatal(err)
		}
		edit(p)
		data, _ = json.Marshal(p)
	}
	env, out, errs := hookEnv(r.t, r.home, string(data))
	if code := Main([]string{"hook", r.harness}, env); code != 0 || errs.Len() > 0 {
		r.t.Fatalf("%s: exit %d: %s", file, code, errs)
	}
	ans := map[string]any{}
	if out.Len() > 0 {
		if err := json.Unmarshal(out.Bytes(), &ans); err != nil || strings.Count(out.String(), "\n") != 1 {
			r.t.Fatalf("%s: the answer is not one JSON object: %q", file, out)
		}
	}
	return ans
}

// conch runs a conch command against the home and returns its output.
func (r *replay) conch(args ...string) string {
	r.t.Helper()
	env, out, errs := hookEnv(r.t, r.home, "")
	if code := Main(args, env); code != 0 {
		r.t.Fatalf("conch %v: exit %d: %s", args, code, errs)
	}
	return out.String()
}

// chat is conch chat show ID --json.
func (r *replay) chat(id string) map[string]any {
	r.t.Helper()
	var c map[string]any
	if err := json.Unmarshal([]byte(r.conch("chat", "show", id, "--json")), &c); err != nil {
		r.t.Fatal(err)
	}
	return c
}

// field reads a field of decoded JSON by its path.
func field(m map[string]any, path ...string) any {
	var v any = m
	for _, k := range path {
		o, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		v = o[k]
	}
	return v
}

// TestHookGeminiTurn replays Gemini CLI 0.61's events of one turn: the
// session is chat c_1 (told so in its context), the reply's title is the
// person's prompt (not the context SessionStart put before it, as gemini
// -p does), the shell step is a step, AfterAgent ends the reply with its
// words, SessionEnd stops the chat.
func TestHookGeminiTurn(t *testing.T) {
	r := newReplay(t, "gemini")
	ans := r.event("session_start.json", nil)
	if ctx, _ := field(ans, "hookSpecificOutput", "additionalContext").(string); !strings.Contains(ctx, "this session is chat c_1") {
		t.Errorf("SessionStart answered %v", ans)
	}
	r.event("before_agent.json", nil)
	c := r.chat("c_1")
	if got := field(c, "title"); got != "Work on the parser" {
		t.Errorf("the chat's title %v, want the person's prompt", got)
	}
	if got := field(c, "state"); got != "working" {
		t.Errorf("state %v, want working", got)
	}
	r.event("before_tool_shell.json", nil)
	if got := field(r.chat("c_1"), "reply", "family"); got != "run" {
		t.Errorf("the shell step's family %v, want run", got)
	}
	r.event("after_tool_shell.json", nil)
	if ans := r.event("after_agent.json", nil); len(ans) != 0 {
		t.Errorf("AfterAgent answered %v, want nothing", ans)
	}
	c = r.chat("c_1")
	if got := field(c, "last_reply", "text"); got != "Parser done." {
		t.Errorf("last words %v", got)
	}
	r.event("session_end.json", nil)
	if got := field(r.chat("c_1"), "state"); got != "stopped" {
		t.Errorf("after SessionEnd the chat is %v, want stopped", got)
	}
}

// TestHookGeminiStartReply replays a turn's end with a --start-reply
// message waiting: AfterAgent blocks with the message (Gemini CLI sends
// the reason as a new prompt), the BeforeAgent of that prompt is the
// message's reply going on, not the person's, and the second AfterAgent
// (stop_hook_active, prompt_response the whole turn's words) ends it with
// its own words.
func TestHookGeminiStartReply(t *testing.T) {
	r := newReplay(t, "gemini")
	r.event("session_start.json", nil)
	r.event("before_agent.json", nil)
	r.event("before_tool_shell.json", nil)
	r.event("after_tool_shell.json", nil)
	r.conch("chat", "new", "--title", "Docs", "--folder", "/tmp/proj")
	r.conch("chat", "message", "c_1", "--start-reply", "Please also update the README", "--chat", "c_2")
	ans := r.event("after_agent.json", nil)
	if field(ans, "decision") != "block" || !strings.Contains(field(ans, "reason").(string), "Please also update the README") {
		t.Fatalf("AfterAgent answered %v, want a block with the message", ans)
	}
	r.event("before_agent_continued.json", nil)
	c := r.chat("c_1")
	if got := field(c, "reply", "person"); got != false {
		t.Errorf("the message's reply has person %v: the harness's prompt was taken for the person's", got)
	}
	if got := field(c, "replies"); got != 2.0 {
		t.Errorf("%v replies, want 2 (the person's, the message's)", got)
	}
	r.event("after_agent_continued.json", nil)
	c = r.chat("c_1")
	if got := field(c, "last_reply", "text"); got != "README updated." {
		t.Errorf("the message's reply ended with %q, want its own words", got)
	}
}

// TestHookGeminiSubagent replays a subagent Gemini CLI ran (invoke_agent):
// the call is a child chat of the session's, its reply begun at
// BeforeTool; at AfterTool the child's reply ends with the subagent's
// report and the child is archived. The subagent's own tool call is the
// parent's step (nothing tells it apart).
func TestHookGeminiSubagent(t *testing.T) {
	r := newReplay(t, "gemini")
	r.event("session_start.json", nil)
	r.event("before_agent.json", nil)
	r.event("before_tool_invoke_agent.json", nil)
	child := r.chat("c_2")
	if field(child, "parent") != "c_1" || field(child, "state") != "working" || field(child, "title") != "generalist subagent" {
		t.Errorf("the subagent's chat: parent %v, state %v, title %v", field(child, "parent"), field(child, "state"), field(child, "title"))
	}
	r.event("before_tool_shell.json", nil)
	if field(r.chat("c_1"), "reply", "family") != "run" {
		t.Errorf("the subagent's shell is not its parent's step")
	}
	r.event("after_tool_shell.json", nil)
	r.event("after_tool_invoke_agent.json", nil)
	child = r.chat("c_2")
	if got, _ := field(child, "last_reply", "text").(string); !strings.Contains(got, "Subagent 'generalist' finished.") {
		t.Errorf("the subagent's reply ended with %q, want its report", got)
	}
	if field(child, "archived") != true {
		t.Errorf("the subagent's chat is not archived: %v", field(child, "archived"))
	}
	if field(r.chat("c_1"), "state") != "working" {
		t.Errorf("the parent's reply ended with its subagent's")
	}
}

// TestHookGeminiTools replays Gemini CLI's write_file and web_fetch: the
// write is an edit of its file; web_fetch (whose fetch Gemini CLI refused)
// taints the chat as outside with the URL its prompt names; a write onto
// a file another chat claimed is denied in Gemini CLI's terms
// ({"decision": "deny", "reason"}); a model's conch command gets
// CONCH_CHAT in the arguments Gemini CLI runs, with all the others kept,
// and reads as the model wrote it afterwards.
func TestHookGeminiTools(t *testing.T) {
	r := newReplay(t, "gemini")
	r.event("session_start.json", nil)
	r.event("before_agent.json", nil)
	r.event("before_tool_write.json", nil)
	r.event("after_tool_write.json", nil)
	if files, _ := field(r.chat("c_1"), "reply", "files").([]any); len(files) != 1 || files[0] != "/tmp/proj/notes.md" {
		t.Errorf("the reply's files %v, want notes.md", files)
	}
	r.event("before_tool_web_fetch.json", nil)
	r.event("after_tool_web_fetch.json", nil)
	if shown := r.conch("chat", "show", "c_1"); !strings.Contains(shown, "http://127.0.0.1:9/page") {
		t.Errorf("the web fetch did not taint the chat:\n%s", shown)
	}

	r.conch("chat", "new", "--title", "Docs", "--folder", "/tmp/proj")
	r.conch("claim", "/tmp/proj/notes.md", "--chat", "c_2")
	ans := r.event("before_tool_write.json", nil)
	if field(ans, "decision") != "deny" || !strings.Contains(field(ans, "reason").(string), "notes.md") || field(ans, "hookSpecificOutput") != nil {
		t.Errorf("a write onto a claimed file answered %v, want Gemini CLI's deny", ans)
	}

	ans = r.event("before_tool_shell.json", func(p map[string]any) {
		p["tool_input"] = map[string]any{"command": "conch chats list", "description": "look", "dir_path": "sub"}
	})
	args, _ := field(ans, "hookSpecificOutput", "tool_input").(map[string]any)
	if args["command"] != "export CONCH_CHAT=c_1; conch chats list" || args["description"] != "look" || args["dir_path"] != "sub" {
		t.Errorf("the model's conch command is run as %v", ans)
	}
	if field(r.chat("c_1"), "reply", "family") != "talk" {
		t.Errorf("the model's conch command is not a talk step")
	}
	ans = r.event("before_tool_shell.json", func(p map[string]any) {
		p["tool_input"] = map[string]any{"command": "echo hi"}
	})
	if len(ans) != 0 {
		t.Errorf("a command that runs no conch answered %v", ans)
	}
}

// TestHookGeminiCheckoutGuard: a shell command of Gemini CLI's that moves
// the checkout another chat works in is asked about first (the guard's
// default for a checkout), in Gemini CLI's words.
func TestHookGeminiCheckoutGuard(t *testing.T) {
	r := newReplay(t, "gemini")
	r.event("session_start.json", nil)
	r.event("before_agent.json", nil)
	r.conch("chat", "new", "--title", "Docs", "--folder", "/tmp/proj")
	r.conch("reply", "start", "--chat", "c_2")
	r.conch("step", "edit", "--file", "/tmp/proj/README", "--chat", "c_2")
	ans := r.event("before_tool_shell.json", func(p map[string]any) {
		p["tool_input"] = map[string]any{"command": "git checkout main"}
	})
	if field(ans, "decision") != "ask" || !strings.Contains(field(ans, "reason").(string), "c_2") {
		t.Errorf("moving the checkout answered %v, want Gemini CLI's ask", ans)
	}
}
