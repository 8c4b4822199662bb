package cli

import "testing"

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
