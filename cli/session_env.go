package cli

import (
	"os"
	"path/filepath"

	"github.com/conch-sh/conch/state/harness"
	"github.com/conch-sh/conch/state/store"
)

// sessionChat is the chat the harness session this command runs in is
// linked to, or "" (harness.SessionChat): it wins over CONCH_CHAT.
func (a *app) sessionChat() string { return a.sessionChatBut("") }

// sessionChatBut is sessionChat passing over the variable of one harness:
// a hook of that harness is its own session.
func (a *app) sessionChatBut(name string) string {
	dir := a.homeDir()
	if dir == "" {
		return ""
	}
	return harness.SessionChat(store.NewFiles(dir, nil, 0), a.env.Getenv, name)
}

// shellChat is the chat a command acts as that names chat from inside a
// harness session's shell: a subagent's own, when the conch command
// running there now is one (harness.ShellChat).
func (a *app) shellChat(chat string) string {
	if chat == "" || a.home == nil {
		return chat
	}
	return harness.ShellChat(a.home, a.env.Getenv, chat)
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
