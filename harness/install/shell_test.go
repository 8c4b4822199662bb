package install

import (
	"os/exec"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/shlex"
)

// conch knows its own handlers by their command, whatever path names the
// program, quoted as Command quotes it.
func TestIsConchCommand(t *testing.T) {
	for _, c := range []struct {
		command string
		ours    bool
	}{
		{"conch hook claude", true},
		{"/usr/local/bin/conch hook claude", true},
		{Command("/Users/me/My Tools/conch", "claude"), true},
		{Command("/opt/it's/conch", "claude"), true},
		{`"/opt/x y/conch" hook claude`, true},
		{"conch  hook\tclaude", true},
		{"conch hook codex", false},
		{"conch hook claude --debug", false},
		{"notconch hook claude", false},
		{"~/bin/guard.sh", false},
		{`"conch hook claude`, false}, // no shell could run it
		{"", false},
	} {
		if got := IsConchCommand(c.command, "claude"); got != c.ours {
			t.Errorf("IsConchCommand(%q) = %v, want %v", c.command, got, c.ours)
		}
	}
}

// Quote's word is the string itself, read back by a shell.
func TestQuote(t *testing.T) {
	for _, s := range []string{
		"conch", "/usr/local/bin/conch", "~/bin/conch", "/opt/my tools/conch",
		"/x/conch|tee", "a;b", "$(touch pwned)", "`id`", "PATH=/evil", "it's", "a\nb", "*", "",
	} {
		out, err := exec.Command("/bin/sh", "-c", "printf %s "+Quote(s)).Output()
		if err != nil {
			t.Fatalf("sh on %q: %v", Quote(s), err)
		}
		if s != "" && !strings.HasPrefix(s, "~") && string(out) != s {
			t.Errorf("Quote(%q) = %s, which the shell reads as %q", s, Quote(s), out)
		}
	}
	if got := Quote("PATH=/evil"); got != "'PATH=/evil'" {
		t.Errorf("an assignment is not quoted: %s", got)
	}
}

// Whatever the program's name, the command conch writes splits back
// into that name, hook and the harness: conch knows it again, and the
// shell runs that program and nothing else.
func FuzzQuote(f *testing.F) {
	for _, s := range []string{"conch", "/opt/my tools/conch", "it's", "a;b", "$(id)", "#x", `\`, "\"'\"", "\t"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if strings.ContainsRune(s, 0) || !utf8.ValidString(s) {
			return // not a program's name (and JSON holds no such string)
		}
		w, err := shlex.Split(Command(s, "claude"))
		if err != nil || len(w) != 3 || w[0] != s || w[1] != "hook" || w[2] != "claude" {
			t.Fatalf("Command(%q, claude) = %s, split back as %q (%v)", s, Command(s, "claude"), w, err)
		}
	})
}
