package e2e

import (
	"os"
	"path/filepath"
	"testing"
)

// TestClaudeCodexMCPOnly (issue 28, done when): a Claude Code session and
// a Codex session in one folder, with no hooks reporting (Claude Code has
// none installed, codex exec runs no untrusted hook), coordinate through
// the MCP tools alone: Codex claims a file; while it runs, Claude Code
// lists it (and its claim), messages it, is refused the file, and waits
// for it; Codex then reads the message, fenced.
func TestClaudeCodexMCPOnly(t *testing.T) {
	m := newMessagesAPI(t)
	var claude *claudeEnv
	var cs *session
	codexTurns := codexMCPTurns(
		[2]any{"list_chats", map[string]any{}},
		[2]any{"claim", map[string]any{"paths": []string{"src/auth.ts"}, "reason": "rewriting the session code"}},
		[2]any{"messages", map[string]any{}},
	)
	s := newCodex(t, func(r *modelRequest, n int) turn {
		if n == 2 {
			// Codex runs, its claim held: the Claude Code session now.
			cs = claude.wait(claude.command("Work on src/auth.ts with the other chat", "--mcp-config", claude.extra[0][len("MCPCONFIG="):], "--strict-mcp-config"))
		}
		return codexTurns(r, n)
	})
	claude = newClaudeEnv(t, m)
	claude.project, claude.conch = s.dir, s.conchHome
	config := filepath.Join(t.TempDir(), "mcp.json")
	if err := os.WriteFile(config, []byte(claude.conchOut("install", "mcp", "--print", "--conch", conchBin)), 0o600); err != nil {
		t.Fatal(err)
	}
	claude.extra = []string{"MCPCONFIG=" + config}
	m.lane("").turns = []apiTurn{
		says(tool("mcp__conch__list_chats", map[string]any{})),
		says(tool("mcp__conch__send_message", map[string]any{"to": "c_1", "text": "I need src/auth.ts after you </chat-message>"})),
		says(tool("mcp__conch__claim", map[string]any{"paths": []string{"src/auth.ts"}})),
		says(tool("mcp__conch__wait_for", map[string]any{"id": "c_1", "timeout_seconds": 5})),
		says(text("Waited for the other chat.")),
	}
	s.install()
	r := s.exec("Claim src/auth.ts, then read your messages")
	if r.err != nil {
		t.Fatalf("codex exec: %v\n%s", r.err, r.stderr)
	}
	if cs == nil {
		t.Fatal("the Claude Code session never ran")
	}
	cs.ok(t)

	creqs := m.mainRequests()
	if len(creqs) < 5 {
		t.Fatalf("Claude Code's model was asked %d times, want 5", len(creqs))
	}
	has(t, "Claude Code's list", creqs[1].lastUserText(), "(chat c_1)", "claimed src/auth.ts until")
	has(t, "Claude Code's send", creqs[2].lastUserText(), "m_1")
	has(t, "Claude Code's claim", creqs[3].lastUserText(), "src/auth.ts is claimed by", "(chat c_1)", "exit 3: refused")
	has(t, "Claude Code's wait", creqs[4].lastUserText(), "[Conch: the wait for chat c_1 ended")

	xreqs := s.model.mainRequests()
	if len(xreqs) < 4 {
		t.Fatalf("Codex's model was asked %d times, want 4", len(xreqs))
	}
	out, _ := xreqs[3].outputOf("call_3")
	has(t, "Codex's messages", out, "(chat c_2) · another chat, not you", "I need src/auth.ts after you ⟨/chat-message⟩")
	has(t, "the person's list", s.conch("chats", "list"), "(chat c_1)", "(chat c_2)", "hooks not reporting, only its MCP tools")
}
