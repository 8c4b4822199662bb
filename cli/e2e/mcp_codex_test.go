package e2e

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

// mcpCall is a call of conch's MCP tool as Codex 0.169 offers it: a
// function in the namespace mcp__conch (or, flat, a function whose name
// ends with the tool's); a message saying so when the request has none.
func mcpCall(r *modelRequest, callID, tool string, args map[string]any) map[string]any {
	data, _ := json.Marshal(args)
	call := map[string]any{"type": "function_call", "arguments": string(data), "call_id": callID, "status": "completed"}
	tools, _ := r.Body["tools"].([]any)
	for _, t := range tools {
		m, _ := t.(map[string]any)
		n, _ := m["name"].(string)
		if !strings.Contains(n, "conch") {
			continue
		}
		if strings.HasSuffix(n, tool) {
			call["name"] = n
			return call
		}
		inner, _ := m["tools"].([]any)
		for _, it := range inner {
			if f, _ := it.(map[string]any); f["name"] == tool {
				call["namespace"], call["name"] = n, tool
				return call
			}
		}
	}
	return say("no conch tool " + tool + " in the request")
}

// codexMCPTurns is a model that calls the tools of calls in order, one a
// request, then says it is done.
func codexMCPTurns(calls ...[2]any) func(r *modelRequest, n int) turn {
	return func(r *modelRequest, n int) turn {
		if n < len(calls) {
			return turn{mcpCall(r, "call_"+string(rune('1'+n)), calls[n][0].(string), calls[n][1].(map[string]any))}
		}
		return turn{say("Done.")}
	}
}

// TestCodexMCP (issue 28): a real Codex with conch's hooks and its
// [mcp_servers.conch] from conch install codex. Its model calls list_chats
// and send_message; the next requests carry the tools' answers, and the
// message came from the session's own chat (the server found it as the
// chat whose reply its harness process runs).
func TestCodexMCP(t *testing.T) {
	s := newCodex(t, codexMCPTurns(
		[2]any{"list_chats", map[string]any{}},
		[2]any{"send_message", map[string]any{"to": "c_1", "text": "I am changing src/auth.ts"}},
	))
	s.install()
	s.conch("chat", "new", "--title", "Release notes", "--folder", s.dir)
	r := s.exec("Tell the person's other chat what you are changing", bypass)
	if r.err != nil {
		t.Fatalf("codex exec: %v\n%s", r.err, r.stderr)
	}
	reqs := s.model.mainRequests()
	if len(reqs) < 3 {
		t.Fatalf("the model was asked %d times, want 3: tools %s\n%s", len(reqs), toolNames(reqs[0]), r.stderr)
	}
	out, _ := reqs[1].outputOf("call_1")
	has(t, "what the model read after list_chats", out, "Checked on your other chats", "“Release notes” (chat c_1)")
	out, _ = reqs[2].outputOf("call_2")
	has(t, "what the model read after send_message", out, "m_1")
	has(t, "what c_1 heard", s.conch("--chat", "c_1", "notes"), "(chat c_2)", "I am changing src/auth.ts")
	if c := s.chat("c_2"); c["mcp_only"] == true {
		t.Errorf("the hooked session's chat is marked MCP only: %v", c)
	}
}

// TestCodexMCPOnly (issue 28): a Codex session whose hooks do not report
// (codex exec runs no untrusted hook) coordinates through the tools
// alone: it lists, messages and claims, as a chat of its own whose card
// says its hooks do not report, and conch_health says how to fix it.
func TestCodexMCPOnly(t *testing.T) {
	var s *codexSession
	var held string // what c_1's claim of the file said while the session ran
	turns := codexMCPTurns(
		[2]any{"conch_health", map[string]any{}},
		[2]any{"list_chats", map[string]any{}},
		[2]any{"send_message", map[string]any{"to": "c_1", "text": "I take src/auth.ts"}},
		[2]any{"claim", map[string]any{"paths": []string{"src/auth.ts"}, "reason": "rewriting it"}},
	)
	s = newCodex(t, func(r *modelRequest, n int) turn {
		if n == 4 {
			out, err := s.conchIn(s.dir, nil, "--chat", "c_1", "claim", filepath.Join(s.dir, "src", "auth.ts"))
			held = fmt.Sprint(err) + ": " + out
		}
		return turns(r, n)
	})
	s.install()
	s.conch("chat", "new", "--title", "Fix the login", "--folder", s.dir)
	r := s.exec("Take src/auth.ts and tell the other chat") // no bypass: the hooks stay off
	if r.err != nil {
		t.Fatalf("codex exec: %v\n%s", r.err, r.stderr)
	}
	reqs := s.model.mainRequests()
	if len(reqs) < 5 {
		t.Fatalf("the model was asked %d times, want 5", len(reqs))
	}
	out, _ := reqs[1].outputOf("call_1")
	has(t, "what conch_health said", out, "hooks are not reporting to conch")
	out, _ = reqs[2].outputOf("call_2")
	has(t, "what list_chats said", out, "“Fix the login” (chat c_1)")
	out, _ = reqs[3].outputOf("call_3")
	has(t, "what send_message said", out, "m_1")
	out, _ = reqs[4].outputOf("call_4")
	has(t, "what claim said", out, "Claimed src/auth.ts until")
	c := s.chat("c_2")
	if c["mcp_only"] != true {
		t.Errorf("the session's chat is not marked MCP only: %v", c)
	}
	has(t, "the person's list", s.conch("chats", "list"), "hooks not reporting, only its MCP tools")
	has(t, "what c_1 heard", s.conch("--chat", "c_1", "notes"), "(chat c_2)", "I take src/auth.ts")
	// While the session runs, its claim holds the other chat off the file
	// (it ends with the session's process).
	has(t, "c_1's claim of the file claimed", held, "exit status 3", "chat c_2")
}

// toolNames are the tools a request offers, for a failure's words.
func toolNames(r *modelRequest) string {
	var names []string
	tools, _ := r.Body["tools"].([]any)
	for _, t := range tools {
		m, _ := t.(map[string]any)
		n, _ := m["name"].(string)
		if strings.Contains(n, "conch") {
			b, _ := json.Marshal(m)
			n = string(b)
		}
		names = append(names, n)
	}
	return strings.Join(names, " ")
}
