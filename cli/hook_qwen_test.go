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
