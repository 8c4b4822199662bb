package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestCaptureClaudePayloads records every hook payload of one scripted
// session of the real Claude Code, for testdata/hooks/claude (see its
// README): CONCH_E2E_PROBE=DIR, CONCH_E2E_SCENARIO=default|agent|fail|perm|deny,
// CONCH_E2E_PROMPT=the prompt. DIR gets events.jsonl (the payloads, in
// order), env-EVENT.txt (each hook's environment), requests.jsonl (what
// the model was sent) and out.jsonl (claude's stream-json).
func TestCaptureClaudePayloads(t *testing.T) {
	dir := os.Getenv("CONCH_E2E_PROBE")
	if dir == "" {
		t.Skip("CONCH_E2E_PROBE not set")
	}
	var m *messagesAPI
	switch os.Getenv("CONCH_E2E_SCENARIO") {
	case "agent":
		m = newMessagesAPI(t,
			says(tool("Agent", map[string]any{"description": "sub work", "prompt": "SUBTASK-1 do it", "subagent_type": "general-purpose", "run_in_background": true})),
			says(text("Started it.")),
			says(text("The agent finished.")),
		)
		m.subagent("SUBTASK-1",
			says(tool("Bash", map[string]any{"command": "echo sub; env | grep -i -E 'agent|claude'", "description": "sub env"})),
			says(text("sub done")),
		)
		release := m.holdTurn("SUBTASK-1", 1)
		go func() { time.Sleep(4 * time.Second); release() }()
	case "perm", "deny":
		m = newMessagesAPI(t,
			says(tool("Bash", map[string]any{"command": "touch made.txt", "description": "make"})),
			says(text("After the tool.")),
		)
	case "fail":
		m = newMessagesAPI(t, apiError(400, "invalid_request_error"))
	default:
		m = newMessagesAPI(t,
			says(text("Running it."), tool("Bash", map[string]any{"command": "conch chats list", "description": "List the other chats"})),
			says(tool("Bash", map[string]any{"command": "go test ./...", "description": "Run the tests"})),
			says(tool("Write", map[string]any{"file_path": "a.txt", "content": "hello\n"})),
			says(text("All done here.")),
		)
	}
	e := newClaudeEnv(t, m)
	events := []string{"SessionStart", "UserPromptSubmit", "PreToolUse", "PostToolUse", "PostToolUseFailure", "PostToolBatch", "PermissionRequest", "PermissionDenied", "Notification", "Stop", "StopFailure", "SubagentStart", "SubagentStop", "PreCompact", "SessionEnd"}
	hooks := map[string]any{}
	for _, ev := range events {
		hooks[ev] = []any{map[string]any{"matcher": "*", "hooks": []any{map[string]any{"type": "command", "command": "cat >> " + filepath.Join(dir, "events.jsonl") + "; echo >> " + filepath.Join(dir, "events.jsonl") + "; env > " + filepath.Join(dir, "env-"+ev+".txt")}}}}
	}
	data, _ := json.MarshalIndent(map[string]any{"hooks": hooks}, "", "  ")
	os.MkdirAll(filepath.Join(e.home, ".claude"), 0o755)
	os.WriteFile(filepath.Join(e.home, ".claude", "settings.json"), data, 0o644)
	if os.Getenv("CONCH_E2E_SCENARIO") == "deny" {
		hooks["PreToolUse"] = []any{map[string]any{"matcher": "*", "hooks": []any{map[string]any{"type": "command", "command": "cat >> " + filepath.Join(dir, "events.jsonl") + "; echo >> " + filepath.Join(dir, "events.jsonl") + `; echo '{"continue":false,"stopReason":"STOP-REASON","hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"DENY-REASON"}}'`}}}}
		data, _ := json.MarshalIndent(map[string]any{"hooks": hooks}, "", "  ")
		os.WriteFile(filepath.Join(e.home, ".claude", "settings.json"), data, 0o644)
	}
	if os.Getenv("CONCH_E2E_SCENARIO") == "perm" {
		e.permissionMode = "default"
	}
	s := e.run(os.Getenv("CONCH_E2E_PROMPT"))
	os.WriteFile(filepath.Join(dir, "out.jsonl"), s.out, 0o644)
	os.WriteFile(filepath.Join(dir, "stderr.txt"), []byte(s.stderr), 0o644)
	var reqs []byte
	for _, r := range m.requests() {
		reqs = append(reqs, r.Raw...)
		reqs = append(reqs, '\n')
	}
	os.WriteFile(filepath.Join(dir, "requests.jsonl"), reqs, 0o644)
	t.Logf("err %v", s.err)
}

// TestCaptureCopilotPayloads records every hook payload of one scripted
// session of the real Copilot CLI, for testdata/hooks/copilot (see its
// README): CONCH_E2E_PROBE=DIR. DIR gets events.jsonl (the payloads, in
// order, each hook named in PascalCase as conch install copilot names
// them) and the session's own events file (transcript.jsonl).
func TestCaptureCopilotPayloads(t *testing.T) {
	dir := os.Getenv("CONCH_E2E_PROBE")
	if dir == "" {
		t.Skip("CONCH_E2E_PROBE not set")
	}
	var s *copilotSession
	s = newCopilot(t, func(r *modelRequest, n int) turn {
		switch n {
		case 0:
			return turn{bash("call_1", "echo hi")}
		case 1:
			return turn{copilotTool("call_2", "create", map[string]any{"path": filepath.Join(s.dir, "a.txt"), "file_text": "hello\n"})}
		case 2:
			return turn{copilotTool("call_3", "task", map[string]any{"description": "sub work", "prompt": "SUBTASK do it", "agent_type": "general-purpose", "name": "helper"})}
		case 3:
			return turn{bash("call_4", "echo sub")}
		case 4:
			return turn{say("sub done")}
		}
		return turn{say("All done here.")}
	})
	out := filepath.Join(dir, "events.jsonl")
	hooks := map[string]any{}
	for _, ev := range []string{"SessionStart", "UserPromptSubmit", "PreToolUse", "PostToolUse", "PostToolUseFailure", "PermissionRequest", "Notification", "Stop", "SubagentStop", "ErrorOccurred", "PreCompact", "SessionEnd"} {
		hooks[ev] = []any{map[string]any{"type": "command", "bash": "cat >> " + out + "; echo >> " + out, "timeoutSec": 10}}
	}
	data, _ := json.MarshalIndent(map[string]any{"version": 1, "hooks": hooks}, "", "  ")
	os.MkdirAll(filepath.Join(s.home, ".copilot", "hooks"), 0o755)
	os.WriteFile(filepath.Join(s.home, ".copilot", "hooks", "probe.json"), data, 0o644)
	r := s.run("do the thing")
	files, _ := filepath.Glob(filepath.Join(s.home, ".copilot", "session-state", "*", "events.jsonl"))
	for _, f := range files {
		b, _ := os.ReadFile(f)
		os.WriteFile(filepath.Join(dir, "transcript.jsonl"), b, 0o644)
	}
	t.Logf("err %v", r.err)
}
