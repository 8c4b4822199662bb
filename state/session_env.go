package state

import (
	"encoding/json"

	"github.com/conch-sh/conch/state/store"
)

// LinkedChat is the chat a harness session is linked to, read from the
// session's link in the store without the lock (a link is written
// whole, by rename), or "" when the session has none. It is what a
// command run from inside a harness's shell acts as when the shell names
// its session (Codex's CODEX_THREAD_ID) but no chat: one small file read,
// so it can run at every command the model runs.
func LinkedChat(records store.Store, harness, session string) string {
	return LinkedAgentChat(records, harness, session, "")
}

// LinkedAgentChat is LinkedChat for a subagent of the session (agent, its
// id; "" for the session itself): its child chat, else the session's.
// Qwen Code names the subagent whose command runs in its shell
// (QWEN_CODE_AGENT_ID).
func LinkedAgentChat(records store.Store, harness, session, agent string) string {
	if session == "" || len(session) > 256 {
		return ""
	}
	data, err := records.Get(sessionRel(harness, session))
	if err != nil {
		return ""
	}
	var link struct {
		Chat   string            `json:"chat"`
		Agents map[string]string `json:"agents"`
	}
	if json.Unmarshal(data, &link) != nil || !ValidID(link.Chat) {
		return ""
	}
	if id := link.Agents[agent]; agent != "" && ValidID(id) {
		return id
	}
	return link.Chat
}
