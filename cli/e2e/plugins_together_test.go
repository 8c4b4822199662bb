package e2e

import (
	"testing"
	"time"
)

// TestOpenCodeAndPiTogether: an OpenCode chat and a Pi chat in one folder
// hear of each other, message each other and wait for each other, as two
// Claude Code chats do. Pi (in RPC mode) writes the lexer; OpenCode, started
// while Pi works, hears that at its start, messages Pi from its own shell
// (acting as its chat), and waits for Pi; Pi hears the message after its
// next tool, ends its reply, and OpenCode's wait wakes with Pi's last words.
func TestOpenCodeAndPiTogether(t *testing.T) {
	m := newChatModel(t)
	sent := make(chan struct{})
	m.script("PROMPT-PI",
		calls(call("write", map[string]any{"path": "lexer.md", "content": "lexer\n"})),
		chatTurn{
			calls: []chatCall{call("bash", map[string]any{"command": "echo checking"})},
			do:    func() { <-sent },
		},
		reply("Lexer done."),
	)
	m.script("PROMPT-OC",
		calls(call("bash", map[string]any{"command": "conch chat message c_1 'Leave parser.md to me'", "description": "tell Pi"})),
		chatTurn{
			calls: []chatCall{call("bash", map[string]any{"command": "conch wait chat c_1 --timeout 90s", "description": "wait for Pi"})},
			do:    func() { close(sent) },
		},
		reply("Waited for Pi."),
	)
	pi := newPluginSession(t, "pi", m)
	oc := newPluginSessionBy(t, "opencode", m, pi)
	rpc := pi.rpc()
	rpc.send(`{"type": "prompt", "message": "PROMPT-PI: write the lexer"}`)
	waitFor(t, "Pi's chat changing lexer.md", 60*time.Second, func() bool {
		return len(m.requests("PROMPT-PI")) >= 2
	})

	r := oc.run("PROMPT-OC: write the parser").ok(t)
	has(t, "opencode run's output", r.stdout, "Waited for Pi.")
	ocReqs := m.requests("PROMPT-OC")
	if len(ocReqs) != 3 {
		t.Fatalf("OpenCode asked the model %d times, want 3", len(ocReqs))
	}
	has(t, "OpenCode's first request", ocReqs[0].userText(), "“PROMPT-PI: write the lexer” (chat c_1), changing lexer.md")
	has(t, "OpenCode's wait", ocReqs[2].lastToolResult(), "Lexer done.")

	piReqs := m.requests("PROMPT-PI")
	if len(piReqs) != 3 {
		t.Fatalf("Pi asked the model %d times, want 3", len(piReqs))
	}
	has(t, "Pi's request after its tool", piReqs[2].lastToolResult(), "Leave parser.md to me", "conch chat message c_2")
	rpc.close()
	has(t, "Pi's chat", pi.conch("chat", "show", "c_1", "--json"), `"text": "Lexer done."`)
	has(t, "OpenCode's chat", pi.conch("chat", "show", "c_2", "--json"), `"text": "Waited for Pi."`, `"status": "stopped"`)
}
