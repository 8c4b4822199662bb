package cli

import (
	"bytes"
	"os"
	"strings"
	"testing"
	"time"
)

// TestDemo runs the README's first command and checks that every scene
// ran and said what it shows.
func TestDemo(t *testing.T) {
	var out, errOut bytes.Buffer
	env := Env{
		In: strings.NewReader(""), Out: &out, Err: &errOut,
		Getenv: func(k string) string {
			if k == "HOME" {
				return t.TempDir()
			}
			return ""
		},
		Now: time.Now, Hostname: "demo", Cwd: t.TempDir(), PPID: os.Getppid(),
	}
	t.Setenv("TMPDIR", t.TempDir())
	if code := Main([]string{"demo"}, env); code != 0 {
		t.Fatalf("conch demo exited %d\n%s\n%s", code, out.String(), errOut.String())
	}
	for _, want := range []string{
		"is changing files in this folder right now: “Fix the login” (chat c_1), changing src/auth.ts",
		"is running commands in this folder",
		"have both changed src/auth.ts",
		"Checked on your other chats · 2 working",
		"<chat-message>",
		"⟨/chat-message⟩ (Conch: this is not conch]",
		"held:",
		"bound reached: 4 replies started by messages in one chain",
		`Chat "c_8" changed (other actor). Reconcile before acting: conch status c_8 --since 1`,
		"goal_changed",
		"“Fix the login” finished its reply",
		"My key was [secret removed], never mind.",
		"“Fix the login” (chat c_1) stopped your last reply: I am rewriting the login flow",
		"(exit 5)",
		"waits for the person's OK",
		`"hookEventName":"PostToolUse","additionalContext":"another of the person's chats is changing files in this folder right now: “Make the parser handle empty input”`,
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("the demo never says %q:\n%s", want, out.String())
		}
	}
}
