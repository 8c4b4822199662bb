package harness

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"

	"github.com/conch-sh/conch/state"
	"github.com/conch-sh/conch/state/store"
)

// exportChat appends `export CONCH_CHAT=ID` to the file the harness
// sources into the session's shell, when it names one, and says whether
// it did. Some versions name none: the chat's id is in the context too.
func exportChat(r *run, c *state.Chat) bool {
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

// introduceLate is how a session that conch first saw after its
// SessionStart (it could not take the lock, or conch was set up
// mid-session) is introduced: nothing was exported to its shell, but a
// harness that names the session there lets its conch commands act as
// its chat.
func introduceLate(r *run, c *state.Chat) *Intro {
	if r.caps.ShellSession {
		return &Intro{Chat: c.ID, How: IntroLinked, Env: r.caps.SessionEnv}
	}
	return introduction(r, c, r.caps.ShellChat)
}

// introduction is how a session first hears of its chat: how its conch
// commands act as it, the harness's way (exported: whether conch wrote
// CONCH_CHAT to the harness's env file).
func introduction(r *run, c *state.Chat, exported bool) *Intro {
	switch {
	case exported:
		return &Intro{Chat: c.ID, How: IntroExported}
	case r.caps.RewritesShell:
		return &Intro{Chat: c.ID, How: IntroRewritten}
	case r.caps.ShellSession && len(r.caps.EnvFiles) == 0:
		return &Intro{Chat: c.ID, How: IntroLinked, Env: r.caps.SessionEnv}
	}
	return &Intro{Chat: c.ID, How: IntroNamed}
}

// keptThread says whether Codex keeps a rollout of the thread
// ($CODEX_HOME/sessions/YYYY/MM/DD/rollout-TIME-THREAD.jsonl): every
// session a person runs has one by the end of its first turn; the
// harness's hidden threads are ephemeral and have none.
func keptThread(r *run, thread string) bool {
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

// SessionChat is the chat the harness session a command runs in is linked
// to, or "": the session its shell's variable names (SessionEnv), read in
// the home's records without the lock. It wins over CONCH_CHAT: a shell's
// CONCH_CHAT can be stale (Codex's TUI daemon keeps the environment of the
// terminal that started it, for every session it serves later), the
// session's own link is not. A variable whose session is linked to no
// chat yet (a harness started inside another's shell, at its first hook)
// gives way to the next: the outer session's chat is then the one acting,
// and the new session becomes its child, never a fresh chat of the
// person's. A hook passes over its own harness's variable (but): it is its
// own session, and only a session of another harness, whose shell started
// it, can be the chat it was started in.
func SessionChat(records store.Store, getenv func(string) string, but string) string {
	for _, k := range Adapters {
		if k.Name == but || k.Caps.SessionEnv == "" {
			continue
		}
		if id := getenv(k.Caps.SessionEnv); id != "" {
			agent := ""
			if k.Caps.AgentEnv != "" {
				agent = getenv(k.Caps.AgentEnv) // a subagent's command acts as its chat
			}
			if c := state.LinkedAgentChat(records, k.Name, id, agent); c != "" {
				return c
			}
		}
	}
	return ""
}

// ShellChat is the chat a conch command acts as that names chat (--chat or
// CONCH_CHAT) from inside a harness session's shell whose harness names
// the session in every command (ShellSession): a subagent shares its
// session's shell and so its CONCH_CHAT, and when the conch command
// running there now is a subagent's, it acts as the subagent's own chat.
func ShellChat(home *state.Home, getenv func(string) string, chat string) string {
	for _, k := range Adapters {
		if !k.Caps.ShellSession {
			continue
		}
		if session := getenv(k.Caps.SessionEnv); session != "" {
			return home.ShellChat(k.Name, session, chat)
		}
	}
	return chat
}

// SessionVars are the variables a harness sets in its shell to name its
// session, or a subagent of it: the ones a process that acts as one chat
// whatever runs it (conch mcp, once it has worked its chat out) hides.
func SessionVars() []string {
	var vars []string
	for _, k := range Adapters {
		for _, v := range []string{k.Caps.SessionEnv, k.Caps.AgentEnv} {
			if v != "" && !slices.Contains(vars, v) {
				vars = append(vars, v)
			}
		}
	}
	return vars
}

// UnlinkedSession is the harness whose variable (SessionEnv) names a
// session that no hook of it has linked to a chat: its hooks are not
// reporting to conch (Codex's, until the person trusts them). All ""
// when every session named is linked, or none is named.
func UnlinkedSession(records store.Store, getenv func(string) string) (harness, variable, session string) {
	for _, k := range Adapters {
		if k.Caps.SessionEnv == "" {
			continue
		}
		if id := getenv(k.Caps.SessionEnv); id != "" && state.LinkedChat(records, k.Name, id) == "" {
			return k.Name, k.Caps.SessionEnv, id
		}
	}
	return "", "", ""
}
