package cli

import (
	"os"
	"path/filepath"

	"github.com/conch-sh/conch/state"
)

// sessionEnvs are the variables a harness sets in its shell to name the
// session the shell serves: a command run there with no chat named acts
// as the chat that session is linked to. Codex 0.169 exports no env file
// for CONCH_CHAT, but its shell has CODEX_THREAD_ID (the hooks'
// session_id). Claude Code 2.1.328 puts CLAUDE_CODE_SESSION_ID (its
// hooks' session_id) in every Bash command's environment, beside the
// CONCH_CHAT of its env file, which a SessionStart that missed the lock
// never wrote. A harness that names its session another way adds a line.
var sessionEnvs = [...]struct{ env, harness string }{
	{"CODEX_THREAD_ID", state.HarnessCodex},
	{"CLAUDE_CODE_SESSION_ID", state.HarnessClaude},
}

// sessionChat is the chat the harness session this command runs in is
// linked to, or "". It wins over CONCH_CHAT: a shell's CONCH_CHAT can be
// stale (Codex's TUI daemon keeps the environment of the terminal that
// started it, for every session it serves later), the session's own link
// is not.
func (a *app) sessionChat() string {
	for _, s := range sessionEnvs {
		if id := a.env.Getenv(s.env); id != "" {
			return state.LinkedChat(a.homeDir(), s.harness, id)
		}
	}
	return ""
}

// homeDir is the home's folder: CONCH_HOME, else ~/.conch ("" when there
// is no home folder to name).
func (a *app) homeDir() string {
	if dir := a.env.Getenv("CONCH_HOME"); dir != "" {
		return dir
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return ""
	}
	return filepath.Join(home, ".conch")
}
