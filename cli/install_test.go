package cli

import (
	"os/exec"
	"strings"
	"testing"
)

// conch knows its own handlers by their command, whatever path names the
// program, quoted as hookCommand quotes it.
func TestIsConchHook(t *testing.T) {
	for _, c := range []struct {
		command string
		ours    bool
	}{
		{"conch hook claude", true},
		{"/usr/local/bin/conch hook claude", true},
		{hookCommand("/Users/me/My Tools/conch", "claude"), true},
		{hookCommand("/opt/it's/conch", "claude"), true},
		{`"/opt/x y/conch" hook claude`, true},
		{"conch hook codex", false},
		{"conch hook claude --debug", false},
		{"notconch hook claude", false},
		{"~/bin/guard.sh", false},
		{"", false},
	} {
		if got := isConchHook(c.command, "claude"); got != c.ours {
			t.Errorf("isConchHook(%q) = %v, want %v", c.command, got, c.ours)
		}
	}
}

// shellQuote's word is the string itself, read back by a shell.
func TestShellQuote(t *testing.T) {
	for _, s := range []string{
		"conch", "/usr/local/bin/conch", "~/bin/conch", "/opt/my tools/conch",
		"/x/conch|tee", "a;b", "$(touch pwned)", "`id`", "PATH=/evil", "it's", "a\nb", "*", "",
	} {
		out, err := exec.Command("/bin/sh", "-c", "printf %s "+shellQuote(s)).Output()
		if err != nil {
			t.Fatalf("sh on %q: %v", shellQuote(s), err)
		}
		if s != "" && !strings.HasPrefix(s, "~") && string(out) != s {
			t.Errorf("shellQuote(%q) = %s, which the shell reads as %q", s, shellQuote(s), out)
		}
	}
	if got := shellQuote("PATH=/evil"); got != "'PATH=/evil'" {
		t.Errorf("an assignment is not quoted: %s", got)
	}
}
