package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestClaudeMCP (issue 28): a real Claude Code session with conch's hooks
// and conch mcp given by --mcp-config. Its model calls list_chats and
// send_message; the next requests carry the tools' answers, and the
// message reached the other chat from this session's own chat (the server
// found it through CLAUDE_CODE_SESSION_ID, which Claude Code gives it).
func TestClaudeMCP(t *testing.T) {
	m := newMessagesAPI(t)
	e := newClaudeEnv(t, m)
	e.install("--no-mcp")
	e.conchOut("chat", "new", "--title", "Release notes", "--folder", e.project)
	config := filepath.Join(t.TempDir(), "mcp.json")
	if err := os.WriteFile(config, []byte(e.conchOut("install", "mcp", "--print", "--conch", conchBin)), 0o600); err != nil {
		t.Fatal(err)
	}
	m.lane("").turns = []apiTurn{
		says(tool("mcp__conch__list_chats", map[string]any{})),
		says(tool("mcp__conch__send_message", map[string]any{"to": "c_1", "text": "I am changing src/auth.ts"})),
		says(text("Told the other chat.")),
	}
	e.run("Tell the person's other chat what you are changing", "--mcp-config", config, "--strict-mcp-config").ok(t)

	reqs := m.mainRequests()
	if len(reqs) < 3 {
		t.Fatalf("%d requests to the model, want 3", len(reqs))
	}
	has(t, "what the model read after list_chats", reqs[1].lastUserText(),
		"Checked on your other chats", "“Release notes” (chat c_1)")
	has(t, "what the model read after send_message", reqs[2].lastUserText(), "m_1")
	notes := e.conchOut("--chat", "c_1", "notes")
	has(t, "what c_1 heard", notes, "(chat c_2)", "<chat-message>\nI am changing src/auth.ts\n</chat-message>")
	if card := e.conchOut("chat", "show", "c_2"); strings.Contains(card, "not reporting") {
		t.Errorf("the hooked session's card says its hooks do not report:\n%s", card)
	}
}
