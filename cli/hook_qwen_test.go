package cli

import (
	"strings"
	"testing"
)

// TestHookQwenTurn replays Qwen Code 0.24's events of one turn: the
// session is chat c_1, in auto mode (yolo); its first UserPromptSubmit
// (with submitted_prompt) starts the reply, the ones of the sends of the
// tools' results (no prompt) are the same reply and carry the notes (a
// message sent mid-turn); the write is the reply's file, the failed web
// fetch still taints the chat; Stop ends the reply with its words.
func TestHookQwenTurn(t *testing.T) {
	r := newReplay(t, "qwen")
	ans := r.event("session_start.json", nil)
	if ctx, _ := field(ans, "hookSpecificOutput", "additionalContext").(string); !strings.Contains(ctx, "this session is chat c_1") || !strings.Contains(ctx, "QWEN_CODE_SESSION_ID") {
		t.Errorf("SessionStart answered %v", ans)
	}
	if ans := r.event("notification_auth.json", nil); len(ans) != 0 {
		t.Errorf("auth_success answered %v", ans)
	}
	r.event("user_prompt_submit.json", nil)
	c := r.chat("c_1")
	if field(c, "mode") != "auto" || field(c, "title") != "Write the notes" || field(c, "state") != "working" {
		t.Errorf("after the prompt: mode %v, title %v, state %v", field(c, "mode"), field(c, "title"), field(c, "state"))
	}
	r.event("pre_tool_use_shell.json", nil)
	r.event("post_tool_use_shell.json", nil)
	r.event("pre_tool_use_write.json", nil)
	r.event("post_tool_use_write.json", nil)
	r.conch("chat", "new", "--title", "Docs", "--folder", "/tmp/elsewhere")
	r.conch("chat", "message", "c_1", "FYI: I am on the docs", "--chat", "c_2")
	ans = r.event("user_prompt_submit_tool_results.json", nil)
	if ctx, _ := field(ans, "hookSpecificOutput", "additionalContext").(string); !strings.Contains(ctx, "FYI: I am on the docs") {
		t.Errorf("the send of the tools' results answered %v, want the message", ans)
	}
	if got := field(r.chat("c_1"), "replies"); got != 1.0 {
		t.Errorf("%v replies, want 1", got)
	}
	r.event("pre_tool_use_web_fetch.json", nil)
	r.event("post_tool_use_failure_web_fetch.json", nil)
	r.event("user_prompt_submit_tool_results.json", nil)
	r.event("stop.json", nil)
	c = r.chat("c_1")
	if got := field(c, "last_reply", "text"); got != "All done." {
		t.Errorf("last words %v", got)
	}
	files, _ := field(c, "last_reply", "files").([]any)
	if len(files) != 1 || files[0] != "/tmp/proj/notes.md" {
		t.Errorf("files %v, want notes.md", files)
	}
	if shown := r.conch("chat", "show", "c_1"); !strings.Contains(shown, "http://127.0.0.1:9/page") {
		t.Errorf("the web fetch did not taint the chat:\n%s", shown)
	}
}

// TestHookQwenStop: a stop denies the pending tool (Qwen Code goes on past
// a denial), and the next send of the tools' results ends the turn
// ({"continue": false}); the stop is heard, and said once.
func TestHookQwenStop(t *testing.T) {
	r := newReplay(t, "qwen")
	r.event("session_start.json", nil)
	r.event("user_prompt_submit.json", nil)
	r.conch("chat", "new", "--title", "Rewrite", "--folder", "/tmp/elsewhere", "--mode", "auto")
	r.conch("chat", "stop", "c_1", "--reason", "I am rewriting this folder", "--chat", "c_2")
	ans := r.event("pre_tool_use_shell.json", nil)
	if field(ans, "hookSpecificOutput", "permissionDecision") != "deny" || field(ans, "continue") != nil {
		t.Errorf("PreToolUse answered %v, want the tool denied alone", ans)
	}
	ans = r.event("user_prompt_submit_tool_results.json", nil)
	if field(ans, "continue") != false || !strings.Contains(field(ans, "stopReason").(string), "I am rewriting this folder") {
		t.Errorf("the send of the tools' results answered %v, want continue false with the stop", ans)
	}
	r.event("user_prompt_submit.json", nil)
	ans = r.event("user_prompt_submit_tool_results.json", nil)
	if ctx, _ := field(ans, "hookSpecificOutput", "additionalContext").(string); strings.Contains(ctx, "I am rewriting this folder") {
		t.Errorf("the stop is said again at the next reply: %v", ans)
	}
}

// TestHookQwenSubagent replays a subagent Qwen Code ran (its agent tool,
// in the foreground): SubagentStart makes the child chat of the session's
// and begins its reply; its tool calls (agent_id) are the child's steps; a
// conch command in its shell (QWEN_CODE_SESSION_ID and QWEN_CODE_AGENT_ID)
// acts as the child chat, one in the session's own as the session's; at
// SubagentStop the child's reply ends with its words and it is archived.
func TestHookQwenSubagent(t *testing.T) {
	r := newReplay(t, "qwen")
	r.event("session_start.json", nil)
	r.event("user_prompt_submit.json", nil)
	r.event("pre_tool_use_agent.json", nil)
	r.event("subagent_start.json", nil)
	child := r.chat("c_2")
	if field(child, "parent") != "c_1" || field(child, "state") != "working" {
		t.Errorf("the subagent's chat: parent %v, state %v", field(child, "parent"), field(child, "state"))
	}
	r.event("subagent_pre_tool_use_shell.json", nil)
	if field(r.chat("c_2"), "reply", "family") != "run" {
		t.Errorf("the subagent's shell is not its own step")
	}
	as := func(agent string) string {
		t.Helper()
		env, out, errs := hookEnv(t, r.home, "")
		env.Getenv = func(k string) string {
			switch k {
			case "CONCH_HOME":
				return r.home
			case "QWEN_CODE_SESSION_ID":
				return "SESSION-A"
			case "QWEN_CODE_AGENT_ID":
				return agent
			}
			return ""
		}
		if code := Main([]string{"chat", "show", "--json"}, env); code != 0 {
			t.Fatalf("conch chat show: exit %d: %s", code, errs)
		}
		return out.String()
	}
	if out := as("general-purpose-m1"); !strings.Contains(out, `"id": "c_2"`) {
		t.Errorf("a conch command in the subagent's shell does not act as its chat:\n%s", out)
	}
	if out := as(""); !strings.Contains(out, `"id": "c_1"`) {
		t.Errorf("a conch command in the session's shell does not act as its chat:\n%s", out)
	}
	r.event("subagent_post_tool_use_shell.json", nil)
	r.event("subagent_stop.json", nil)
	child = r.chat("c_2")
	if field(child, "last_reply", "text") != "Three files." || field(child, "archived") != true {
		t.Errorf("the subagent's chat at its end: words %v, archived %v", field(child, "last_reply", "text"), field(child, "archived"))
	}
	r.event("post_tool_use_agent.json", nil)
	if field(r.chat("c_1"), "state") != "working" {
		t.Errorf("the session's reply ended with its subagent's")
	}
}

// TestHookQwenStartReply: Stop's block with a --start-reply message;
// Qwen Code sends the block's reason as the next prompt (no
// submitted_prompt), which is the message's reply going on, not the
// person's; the next Stop (stop_hook_active) ends it with its words.
func TestHookQwenStartReply(t *testing.T) {
	r := newReplay(t, "qwen")
	r.event("session_start.json", nil)
	r.event("user_prompt_submit.json", nil)
	r.conch("chat", "new", "--title", "Docs", "--folder", "/tmp/elsewhere")
	r.conch("chat", "message", "c_1", "--start-reply", "Please also update the README", "--chat", "c_2")
	ans := r.event("stop.json", nil)
	if field(ans, "decision") != "block" || !strings.Contains(field(ans, "reason").(string), "Please also update the README") {
		t.Fatalf("Stop answered %v, want a block with the message", ans)
	}
	r.event("user_prompt_submit_continued.json", nil)
	if got := field(r.chat("c_1"), "replies"); got != 2.0 {
		t.Errorf("%v replies, want 2: the harness's prompt was taken for the person's", got)
	}
	r.event("stop_continued.json", nil)
	if got := field(r.chat("c_1"), "last_reply", "text"); got != "README updated." {
		t.Errorf("the message's reply ended with %v", got)
	}
}
