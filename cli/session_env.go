package cli

import (
	"os"
	"path/filepath"

	"github.com/conch-sh/conch/harness"
	"github.com/conch-sh/conch/state"
	"github.com/conch-sh/conch/state/store"
)

// sessionChat is the chat the harness session this command runs in is
// linked to, or "" (harness.SessionChat): it wins over CONCH_CHAT.
func (a *app) sessionChat() string { return a.sessionChatBut("") }

// sessionChatBut is sessionChat passing over the variable of one harness:
// a hook of that harness is its own session.
func (a *app) sessionChatBut(name string) string {
	records := a.records()
	if records == nil {
		return ""
	}
	return harness.SessionChat(records, a.env.Getenv, name)
}

// records is where the session links are read: the home's store, opened
// now when it is on a backend (and kept: the command uses it next), else
// the local files; nil when there is none to read.
func (a *app) records() store.Store {
	if a.home != nil {
		return a.home.Store()
	}
	if !a.noHome && a.env.OpenBackend != nil && a.backendURL() != "" {
		h, err := a.openHome()
		if err != nil {
			return nil // opening the home again says what is wrong
		}
		a.home = h
		return h.Store()
	}
	dir := a.homeDir()
	if dir == "" {
		return nil
	}
	return state.LocalStore(dir, nil)
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
