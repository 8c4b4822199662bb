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
// never wrote. Qwen Code 0.24 puts QWEN_CODE_SESSION_ID (its hooks'
// session_id) in its shell's environment; Gemini CLI 0.61 names no
// session there. A harness that names its session another way adds a line.
var sessionEnvs = [...]struct{ env, harness string }{
	{"CODEX_THREAD_ID", state.HarnessCodex},
	{"CLAUDE_CODE_SESSION_ID", state.HarnessClaude},
	{"QWEN_CODE_SESSION_ID", state.HarnessQwen},
}

// sessionChat is the chat the harness session this command runs in is
// linked to, or "". It wins over CONCH_CHAT: a shell's CONCH_CHAT can be
// stale (Codex's TUI daemon keeps the environment of the terminal that
// started it, for every session it serves later), the session's own link
// is not. A variable whose session is linked to no chat yet (a harness
// started inside another's shell, at its first hook) gives way to the
// next: the outer session's chat is then the one acting, and the new
// session becomes its child, never a fresh chat of the person's.
func (a *app) sessionChat() string { return a.sessionChatBut("") }

// sessionChatBut is sessionChat passing over the variable of one harness:
// a hook of that harness is its own session, and only a session of another
// harness, whose shell started it, can be the chat it was started in.
func (a *app) sessionChatBut(harness string) string {
	for _, s := range sessionEnvs {
		if s.harness == harness {
			continue
		}
		if id := a.env.Getenv(s.env); id != "" {
			agent := ""
			if s.harness == state.HarnessQwen {
				agent = a.env.Getenv("QWEN_CODE_AGENT_ID") // a subagent's command acts as its chat
			}
			if c := state.LinkedAgentChat(a.homeDir(), s.harness, id, agent); c != "" {
				return c
			}
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
