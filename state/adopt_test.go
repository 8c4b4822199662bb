package state

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/conch-sh/conch/state/store"
)

func TestIsEcho(t *testing.T) {
	sent := []string{normalizeTyped("Please rebase onto main before the release"), normalizeTyped("ok")}
	for _, c := range []struct {
		typed string
		echo  bool
	}{
		{"Please rebase onto main before the release", true},
		{"please  REBASE onto main\nbefore the release", true},
		{"Stop hook feedback:\nPlease rebase onto main before the release", true},
		{"ok", true},
		{"ok, now fix the lexer", false}, // a short one must match whole
		{"Please rebase onto main", false},
	} {
		if got := isEcho(c.typed, sent); got != c.echo {
			t.Errorf("isEcho(%q) = %v, want %v", c.typed, got, c.echo)
		}
	}
}

// LinkedChat reads a session's link without the lock: the chat's id, or
// "" for no link, a link that is not JSON, or one that names no chat.
func TestLinkedChat(t *testing.T) {
	dir := t.TempDir()
	write := func(session, body string) {
		p := filepath.Join(dir, filepath.FromSlash(sessionRel("codex", session)))
		if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write("S1", `{"harness":"codex","session":"S1","chat":"c_7"}`)
	write("S2", `not json`)
	write("S3", `{"chat":"../../etc"}`)
	write("a/../b", `{"chat":"c_9"}`) // a session id that is not a plain name is hashed
	for _, c := range []struct{ session, want string }{
		{"S1", "c_7"}, {"S2", ""}, {"S3", ""}, {"S4", ""}, {"", ""}, {"a/../b", "c_9"},
	} {
		if got := LinkedChat(store.NewFiles(dir, nil, 0), "codex", c.session); got != c.want {
			t.Errorf("LinkedChat(%q) = %q, want %q", c.session, got, c.want)
		}
	}
}
