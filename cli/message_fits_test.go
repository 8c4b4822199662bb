package cli

import (
	"strings"
	"testing"

	"github.com/conch-sh/conch/harness"
	"github.com/conch-sh/conch/render"
	"github.com/conch-sh/conch/state"
)

// TestEveryMessageSentFitsTheHook: the largest message chat message lets
// through (words quoted to the bound, the longest title in four-byte
// letters) fits what a hook may say, so no message sent sits due for ever
// (issue 12, rule 14).
func TestEveryMessageSentFitsTheHook(t *testing.T) {
	words := strings.Repeat("a", render.MaxQuotedMessage)
	if err := fitsContext(words); err != nil {
		t.Fatalf("fitsContext refuses words of the bound: %v", err)
	}
	if err := fitsContext(words + "<"); err == nil {
		t.Fatal("fitsContext lets past the bound")
	}
	m := state.DueMessage{Kind: state.DueMessageKind, ID: "m_99999", From: "c_99999", FromTitle: strings.Repeat("𝐀", state.MaxTitle), Text: words}
	block := render.MessageBlock(m)
	// The room sayNotes leaves, with a generous prefix beside the notes.
	if room := harness.CapsOf("claude").ContextCap - 1024 - 64; len(block) > room {
		t.Fatalf("the largest message takes %d bytes; a hook has room for %d", len(block), room)
	}
	text, shown := render.Notes(&state.Notes{Messages: []state.DueMessage{m}}, harness.CapsOf("claude").ContextCap-1024-64)
	if len(shown.Messages) != 1 || !strings.Contains(text, "</chat-message>") {
		t.Fatal("notes within a hook's room do not show the largest message")
	}
}
