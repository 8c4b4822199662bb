package harness

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/conch-sh/conch/state"
)

func recorded(t testing.TB, name string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "testdata", "hooks", name))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func TestLastAssistantText(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct{ harness, file, want string }{
		{claudeName, "claude/transcript.jsonl", "Added TestParseLastToken in src/parser_test.go; go test ./... passes."},
		{codexName, "codex/rollout.jsonl", "Rename complete and verified `cargo build` succeeds."},
		// The session's last words, not its subagent's ("sub done").
		{copilotName, "copilot/transcript.jsonl", "Main done."},
	} {
		path := filepath.Join(dir, filepath.Base(c.file))
		if err := os.WriteFile(path, recorded(t, c.file), 0o600); err != nil {
			t.Fatal(err)
		}
		if got := LastAssistantText(c.harness, path); got != c.want {
			t.Errorf("%s: got %q, want %q", c.file, got, c.want)
		}
	}
	if got := LastAssistantText(claudeName, filepath.Join(dir, "missing.jsonl")); got != "" {
		t.Errorf("a missing transcript gave %q", got)
	}
}

// One API message split over rows that share message.id is one text; a
// tool_use-only row of it adds nothing, and an earlier message is not it.
func TestLastAssistantJoinsOneMessage(t *testing.T) {
	rows := strings.Join([]string{
		`{"type":"assistant","message":{"id":"m1","role":"assistant","content":[{"type":"text","text":"earlier"}]}}`,
		`{"type":"user","message":{"role":"user","content":"go on"}}`,
		`{"type":"assistant","message":{"id":"m2","role":"assistant","content":[{"type":"text","text":"first part"}]}}`,
		`{"type":"assistant","message":{"id":"m2","role":"assistant","content":[{"type":"tool_use","id":"t","name":"Read","input":{}}]}}`,
		`{"type":"assistant","message":{"id":"m2","role":"assistant","content":[{"type":"text","text":"second part"}]}}`,
		`{"type":"assistant","isSidechain":true,"message":{"id":"m3","role":"assistant","content":[{"type":"text","text":"a subagent"}]}}`,
		`not json at all`,
		``,
	}, "\n")
	if got := lastAssistant(claudeName, []byte(rows)); got != "first part\nsecond part" {
		t.Errorf("got %q", got)
	}
}

func TestHumanTexts(t *testing.T) {
	got := humanTexts(claudeName, recorded(t, "claude/transcript.jsonl"))
	want := []string{
		"Fix the off-by-one in src/parser.go and add a test",
		// A slash command the person typed is the person's.
		"<command-name>/compact</command-name>\n            <command-message>compact</command-message>\n            <command-args></command-args>",
		"Now add a test for the last token",
	}
	if !slices.Equal(got, want) {
		t.Errorf("claude: got %q\nwant %q", got, want)
	}
	got = humanTexts(codexName, recorded(t, "codex/rollout.jsonl"))
	if want := []string{"Rename foo to bar and update the callsites."}; !slices.Equal(got, want) {
		t.Errorf("codex: got %q, want %q", got, want)
	}
}

// A look reads whole rows only: a row still being written is left for the
// next look, from the cursor.
func TestLookAtWholeRowsOnly(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.jsonl")
	write := func(s string) {
		f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600)
		if err != nil {
			t.Fatal(err)
		}
		f.WriteString(s)
		f.Close()
	}
	write("one\ntw")
	l := LookAt(state.Adoption{File: path})
	if string(l.Data) != "one\n" || l.Next != 4 || l.Blocked {
		t.Fatalf("look 1: %+v", l)
	}
	l = LookAt(state.Adoption{File: path, Offset: l.Next})
	if len(l.Data) != 0 || l.Next != 4 || l.Blocked {
		t.Fatalf("look 2 (a row being written): %+v", l)
	}
	write("o\n")
	l = LookAt(state.Adoption{File: path, Offset: l.Next})
	if string(l.Data) != "two\n" || l.Next != 8 {
		t.Fatalf("look 3: %+v", l)
	}
	// A row longer than the cap blocks: the cursor stays.
	write(strings.Repeat("x", state.ScanCap+10) + "\nafter\n")
	l = LookAt(state.Adoption{File: path, Offset: l.Next})
	if !l.Blocked || l.Next != 8 || len(l.Data) != 0 {
		t.Fatalf("look 4: blocked %v next %d data %d", l.Blocked, l.Next, len(l.Data))
	}
	// A row of exactly the cap, its newline included, goes.
	os.WriteFile(path, []byte(strings.Repeat("y", state.ScanCap-1)+"\n"), 0o600)
	l = LookAt(state.Adoption{File: path})
	if l.Blocked || l.Next != state.ScanCap {
		t.Fatalf("look 5: blocked %v next %d", l.Blocked, l.Next)
	}
	// Shorter than the cursor: replaced, read from its start.
	os.WriteFile(path, []byte("new\n"), 0o600)
	l = LookAt(state.Adoption{File: path, Offset: state.ScanCap})
	if !l.Restarted || string(l.Data) != "new\n" || l.Next != 4 {
		t.Fatalf("look 6: %+v", l)
	}
	os.Remove(path)
	if l = LookAt(state.Adoption{File: path}); !l.Missing {
		t.Fatalf("look 7: %+v", l)
	}
}

// FuzzHumanTexts: reading a session file in pieces, at any row boundaries
// (as looks do), finds the same rows as reading it whole; and no input
// makes it panic.
func FuzzHumanTexts(f *testing.F) {
	f.Add([]byte(recorded(f, "claude/transcript.jsonl")), uint(3), true)
	f.Add([]byte(recorded(f, "codex/rollout.jsonl")), uint(5), false)
	f.Add([]byte(recorded(f, "codex/rollout_0169.jsonl")), uint(4), false)
	f.Add([]byte(`{"type":"user","message":{"role":"user","content":[{"type":"text","text":"a"},{"type":"tool_result"}]}}`+"\n"), uint(1), true)
	f.Fuzz(func(t *testing.T, data []byte, cut uint, claude bool) {
		harness := codexName
		if claude {
			harness = claudeName
		}
		whole := humanTexts(harness, data)
		lines := bytes.SplitAfter(data, []byte{'\n'})
		k := int(cut % uint(len(lines)+1))
		a := bytes.Join(lines[:k], nil)
		b := bytes.Join(lines[k:], nil)
		pieces := append(humanTexts(harness, a), humanTexts(harness, b)...)
		if !slices.Equal(whole, pieces) {
			t.Fatalf("whole %q, in pieces %q", whole, pieces)
		}
		_ = lastAssistant(harness, data)
	})
}

// Copilot's last words are the turn's own: a turn that said nothing after
// the person's prompt has none (not an earlier turn's), and a subagent's
// rows are not the session's.
func TestCopilotLastWords(t *testing.T) {
	rows := func(lines ...string) string { return strings.Join(lines, "\n") + "\n" }
	prompt := `{"type":"user.message","data":{"content":"next"}}`
	said := `{"type":"assistant.message","data":{"content":"First."}}`
	sub := `{"type":"assistant.message","data":{"content":"sub words","parentToolCallId":"c6"}}`
	task := `{"type":"user.message","data":{"content":"SUBTASK","source":"agent-S"}}`
	for _, c := range []struct{ data, want string }{
		{rows(said), "First."},
		{rows(said, prompt), ""},
		{rows(said, task, sub), "First."},
	} {
		if got := lastAssistant(copilotName, []byte(c.data)); got != c.want {
			t.Errorf("%q: got %q, want %q", c.data, got, c.want)
		}
	}
}

// copilotStopWritten finds the start of the agentStop hook fired at its
// time, and no other: an earlier turn's (ended or not) is not it.
func TestCopilotStopWritten(t *testing.T) {
	path := filepath.Join(t.TempDir(), "events.jsonl")
	if err := os.WriteFile(path, recorded(t, "copilot/transcript.jsonl"), 0o600); err != nil {
		t.Fatal(err)
	}
	if !copilotStopWritten(path, 1761991200000) {
		t.Error("the recorded Stop's hook start was not found")
	}
	if copilotStopWritten(path, 1761991200001) {
		t.Error("another time's Stop was found")
	}
	if copilotStopWritten(filepath.Join(t.TempDir(), "none.jsonl"), 1) {
		t.Error("a missing file holds a Stop")
	}
}

// lastAssistant is what the adapter of the harness named reads as the
// last assistant words of a session file's data.
func lastAssistant(harness string, data []byte) string {
	ad := Of(harness)
	if ad == nil || ad.LastWords == nil {
		return ""
	}
	return ad.LastWords(rows(data))
}
