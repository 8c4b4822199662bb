package harness

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/conch-sh/conch/state"
)

// exportChat appends `export CONCH_CHAT=ID` to the file the harness
// sources into the session's shell, when it names one, and says whether
// it did. Some versions name none: the chat's id is in the context too.
func (r *run) exportChat(c *state.Chat) bool {
	var path string
	for _, v := range r.caps.EnvFiles {
		if path = r.env.Getenv(v); path != "" {
			break
		}
	}
	if path == "" {
		return false
	}
	f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600)
	if err == nil {
		_, err = fmt.Fprintf(f, "export CONCH_CHAT=%s\n", c.ID)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
	}
	if err != nil {
		r.env.Warn(err.Error())
		return false
	}
	return true
}

// introduce is what a session hears first: which chat it is in conch, and
// how its own conch commands act as it.
func introduce(c *state.Chat, envFile bool) string {
	how := "add --chat " + c.ID + " to conch commands run from this session (or set CONCH_CHAT=" + c.ID + ")"
	if envFile {
		how = "conch commands run from this session's shell act as it (CONCH_CHAT=" + c.ID + " is set there; where it is not, add --chat " + c.ID + ")"
	}
	return "conch: this session is chat " + c.ID + " among the person's chats; " + how + "."
}

// introduceLinked is what a session hears first when its harness names the
// session in its shell (variable env) but conch could not export
// CONCH_CHAT there: its conch commands act as it all the same.
func introduceLinked(c *state.Chat, env string) string {
	return "conch: this session is chat " + c.ID + " among the person's chats; conch commands run from this session's shell act as it (" + env + " names the session there; elsewhere, add --chat " + c.ID + ")."
}

// introduceLate is what a session hears that conch first saw after its
// SessionStart (it could not take the lock, or conch was set up
// mid-session): nothing was exported to its shell, but a harness that
// names the session there lets its conch commands act as its chat.
func (r *run) introduceLate(c *state.Chat) string {
	if env := r.caps.ShellSession; env != "" {
		return introduceLinked(c, env)
	}
	return introduce(c, false)
}

// keptThread says whether Codex keeps a rollout of the thread
// ($CODEX_HOME/sessions/YYYY/MM/DD/rollout-TIME-THREAD.jsonl): every
// session a person runs has one by the end of its first turn; the
// harness's hidden threads are ephemeral and have none.
func (r *run) keptThread(thread string) bool {
	for _, c := range thread {
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '-') {
			return false // no rollout is named so
		}
	}
	dir := r.env.Getenv("CODEX_HOME")
	if dir == "" {
		dir = filepath.Join(r.env.UserHome, ".codex")
	}
	found, _ := filepath.Glob(filepath.Join(dir, "sessions", "*", "*", "*", "rollout-*-"+thread+".jsonl"))
	return len(found) > 0
}
