package harness

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// Codex 0.169's rollout (recorded from the real binary): the prompt is an
// event_msg item_completed UserMessage, the last words an AgentMessage,
// and a hosted web search an item_completed WebSearch of its turn.
func TestCodexRollout0169(t *testing.T) {
	data := recorded(t, "codex/rollout_0169.jsonl")
	if got, want := humanTexts(codexName, data), []string{"Rename `foo` to `bar` and update the callsites."}; !slices.Equal(got, want) {
		t.Errorf("prompts %q, want %q (the injected <environment_context> is none)", got, want)
	}
	if got := lastAssistant(codexName, data); got != "Done here." {
		t.Errorf("last words %q", got)
	}
	path := filepath.Join(t.TempDir(), "rollout.jsonl")
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	if got := WebSearches(path, "turn-1"); !slices.Equal(got, []string{"golang flock"}) {
		t.Errorf("web searches of turn-1: %q", got)
	}
	if got := WebSearches(path, "turn-2"); len(got) != 0 {
		t.Errorf("another turn's searches: %q", got)
	}
	if got := WebSearches(filepath.Join(t.TempDir(), "missing"), "turn-1"); len(got) != 0 {
		t.Errorf("a missing rollout: %q", got)
	}
}

// FuzzWebSearches: no rollout makes the web-search reader panic, and every
// query it finds is of the turn asked for.
func FuzzWebSearches(f *testing.F) {
	f.Add(recorded(f, "codex/rollout_0169.jsonl"), "turn-1")
	f.Add([]byte(`{"type":"event_msg","payload":{"type":"item_completed","turn_id":"t","item":{"type":"WebSearch","query":"q"}}}`), "t")
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, data []byte, turn string) {
		path := filepath.Join(dir, "rollout.jsonl")
		if err := os.WriteFile(path, data, 0o600); err != nil {
			t.Fatal(err)
		}
		all := WebSearches(path, "")
		if mine := WebSearches(path, turn); len(mine) > len(all) {
			t.Fatalf("turn %q has %d searches, the file %d", turn, len(mine), len(all))
		}
	})
}
