package e2e

// Chats of two brands in one folder: a Claude Code session and a Gemini
// CLI session, each with conch's hooks, hear of each other, message each
// other and wait for each other exactly as two Claude Code sessions do.

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestClaudeAndGeminiInOneFolder: A is Claude Code, B is Gemini CLI, in
// the same folder with the same conch home.
//
//   - B, starting while A works, hears of A (its conch chats list names A,
//     working), and messages it; A hears the message mid-turn, in its next
//     tool's result.
//   - B waits for A; the wait wakes with A's last words when A's turn ends.
//   - A, back in its session (claude -p --resume), messages B, which hears
//     it mid-turn (after its next tool), and waits for B; the wait wakes
//     with B's last words.
func TestClaudeAndGeminiInOneFolder(t *testing.T) {
	m := newMessagesAPI(t)
	m.conversation("PROMPT-A",
		says(tool("Write", map[string]any{"file_path": "src/parser.go", "content": "package src\n"})),
		says(tool("Bash", map[string]any{"command": "true", "description": "check"})),
		says(text("Parser fixed.")),
		says(tool("Bash", map[string]any{"command": "conch chat message c_2 'Parser fixed: the docs can say so'", "description": "tell B"})),
		says(tool("Bash", map[string]any{"command": "conch wait chat c_2 --timeout 90s", "description": "wait for B"})),
		says(text("Docs checked.")),
	)
	holdA := m.holdTurn("PROMPT-A", 1)
	defer holdA()
	e := newClaudeEnv(t, m)
	e.install()
	if err := os.MkdirAll(filepath.Join(e.project, "src"), 0o755); err != nil {
		t.Fatal(err)
	}

	bMessaged, aWaits := make(chan struct{}), make(chan struct{})
	b := newGemini(t, func(r *geminiRequest, n int) gturn {
		switch n {
		case 0:
			return gturn{gshell("conch chats list")}
		case 1:
			return gturn{gshell("conch chat message c_1 'I am on the docs: leave docs/ to me'")}
		case 2:
			close(bMessaged)
			return gturn{gshell("conch wait chat c_1 --timeout 90s")}
		case 3:
			<-aWaits // A messaged B and waits for it: B's next tool brings the message
			return gturn{gshell("true")}
		}
		return gturn{gsay("Docs done.")}
	})
	b.dir, b.conchHome = e.project, e.conch
	b.install()

	a := e.start("PROMPT-A: fix the parser")
	m.reach("PROMPT-A", 1)
	runB := b.start("Write the docs")
	<-bMessaged
	holdA()
	first := a.wait(t).ok(t)
	again := e.start("Go on", "--resume", first.id)
	waitFor(t, "A's wait on B", 90*time.Second, func() bool {
		out, _ := b.conchIn(b.dir, nil, "wait", "list", "--chat", "c_1")
		return strings.Contains(out, "c_2")
	})
	close(aWaits)
	doneRun(t, "gemini", runB)
	again.wait(t).ok(t)

	breqs := b.model.mainRequests()
	if len(breqs) != 5 {
		t.Fatalf("B made %d model requests, want 5", len(breqs))
	}
	areqs := m.laneRequests("PROMPT-A")
	if len(areqs) != 6 {
		t.Fatalf("A made %d model requests, want 6", len(areqs))
	}
	// B heard of A, working in its folder; A heard B's message mid-turn.
	heard, _ := breqs[1].responseOf("run_shell_command")
	if !strings.Contains(heard, "PROMPT-A") || !strings.Contains(heard, "working") {
		t.Errorf("B did not hear of A working in its folder:\n%s", heard)
	}
	has(t, "A's request after its step", areqs[2].lastUserText(), "I am on the docs: leave docs/ to me", "(chat c_2)")
	// B's wait woke with A's last words.
	woke, _ := breqs[3].responseOf("run_shell_command")
	if !strings.Contains(woke, "finished its reply") || !strings.Contains(woke, "Parser fixed.") {
		t.Errorf("B's wait did not wake with A's last words:\n%s", woke)
	}
	// A's message reached B mid-turn, after its next tool.
	if got, _ := breqs[4].responseOf("run_shell_command"); !strings.Contains(got, "Parser fixed: the docs can say so") || !strings.Contains(got, "(chat c_1)") {
		t.Errorf("A's message did not reach B after its tool:\n%s", got)
	}
	// A's wait woke with B's last words.
	has(t, "A's wait on B", areqs[5].lastUserText(), "finished its reply", "Docs done.")
	for _, id := range []string{"c_1", "c_2"} {
		if got := get(b.chat(id), "state"); got != "stopped" {
			t.Errorf("%s at the end: %v, want stopped", id, got)
		}
	}
}
