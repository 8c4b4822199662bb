package state

import (
	"encoding/json"
	"errors"
	"slices"
	"strings"

	"github.com/conch-sh/conch/state/store"
)

// What runs a program on a computer (a chat's wake_cmd and stop_cmd, the
// environment and the folder they run in) is that computer's own (issue
// 27): on a home whose records are shared with other computers (a
// backend), it is kept in this computer's CONCH_HOME, commands/ID.json,
// never in the chat's record, and set only here, by the harness of this
// computer. A chat record read from the shared store has none: whatever a
// server (or another client with its credentials) put there is dropped as
// it is read, and this computer's own are put in its place. On a local
// home the records are this computer's files already, and they stay in
// the chat's record as before.

// Commands is what commands/ID.json keeps.
type Commands struct {
	WakeCmd string   `json:"wake_cmd,omitempty"`
	StopCmd string   `json:"stop_cmd,omitempty"`
	CmdEnv  []string `json:"cmd_env,omitempty"`
	// Folder is the chat's folder when they were set: they run there, not
	// in a folder a shared record names.
	Folder string `json:"folder,omitempty"`
}

func commandsRel(id string) string { return "commands/" + id + ".json" }

// ownCommands puts this computer's own commands on c, read from the shared
// store, in place of whatever the record carried.
func (h *Home) ownCommands(c *Chat) error {
	c.WakeCmd, c.StopCmd, c.CmdEnv = "", "", nil
	c.cmdFolder = ""
	if elsewhere(c.Computer, h.Computer) || !ValidID(c.ID) {
		return nil
	}
	data, err := h.local.Get(commandsRel(c.ID))
	if errors.Is(err, store.ErrNotFound) {
		return nil
	}
	if err != nil {
		return readError(h.local.Where(commandsRel(c.ID)), err)
	}
	var k Commands
	if err := json.Unmarshal(data, &k); err != nil {
		return &CorruptError{Path: h.local.Where(commandsRel(c.ID)), Err: err}
	}
	if err := boundedCommands(k.WakeCmd, k.StopCmd, ""); err != nil {
		return &CorruptError{Path: h.local.Where(commandsRel(c.ID)), Err: err}
	}
	c.WakeCmd, c.StopCmd, c.CmdEnv, c.cmdFolder = k.WakeCmd, k.StopCmd, k.CmdEnv, k.Folder
	return nil
}

// sharedCopy is the chat as the shared store gets it: without what runs
// a program.
func sharedCopy(c *Chat) *Chat {
	if c.WakeCmd == "" && c.StopCmd == "" && c.CmdEnv == nil {
		return c
	}
	cp := *c
	cp.WakeCmd, cp.StopCmd, cp.CmdEnv = "", "", nil
	return &cp
}

// commandsSet notes that the transaction set c's commands, to keep here.
func (dom ChatsTx) commandsSet(c *Chat) {
	tx := dom.tx
	if tx.h.shared {
		c.cmdFolder = c.Folder
		tx.ownCmds = append(tx.ownCmds, c.ID)
	}
}

// keepCommands writes the commands the transaction set, and removes those
// of the chats it deleted, in this computer's own files, once the shared
// commit is done: a commit that failed leaves none here for an id another
// chat may get. What cannot be written is a warning (the chat then has no
// command here: what would wake it stays due, as for a chat with none).
func (dom ChatsTx) keepCommands() {
	tx := dom.tx
	var ws []store.Write
	for _, id := range tx.ownCmds {
		v, _ := tx.cached(chatRel(id))
		c, ok := v.(*Chat)
		if !ok || c == nil {
			continue
		}
		if c.WakeCmd == "" && c.StopCmd == "" {
			ws = append(ws, store.Write{Key: commandsRel(id), Delete: true})
			continue
		}
		data, err := json.MarshalIndent(Commands{WakeCmd: c.WakeCmd, StopCmd: c.StopCmd, CmdEnv: c.CmdEnv, Folder: c.cmdFolder}, "", " ")
		if err != nil {
			tx.warn("chat %s's commands were not kept on this computer: %v", id, err)
			continue
		}
		ws = append(ws, store.Write{Key: commandsRel(id), Data: append(data, '\n'), Class: store.Durable})
	}
	for rel := range tx.recs.gone {
		if id, ok := chatOfRel(rel); ok && !slices.Contains(tx.ownCmds, id) {
			if _, err := tx.h.local.Get(commandsRel(id)); err == nil {
				ws = append(ws, store.Write{Key: commandsRel(id), Delete: true})
			}
		}
	}
	if len(ws) == 0 {
		return
	}
	unlock, err := tx.h.local.Lock(tx.h.LockWait)
	if err != nil {
		tx.warn("the chats' commands were not kept on this computer: %v", err)
		return
	}
	defer unlock()
	if w, err := tx.h.local.Commit(ws); err != nil {
		tx.warn("the chats' commands were not kept on this computer: %v", err)
	} else {
		tx.warnings = append(tx.warnings, w...)
	}
}

// chatOfRel is the id of a chat's or a task's record path.
func chatOfRel(rel string) (string, bool) {
	for _, dir := range []string{"chats/", "tasks/"} {
		if rest, ok := strings.CutPrefix(rel, dir); ok {
			id, ok := strings.CutSuffix(rest, ".json")
			return id, ok && ValidID(id)
		}
	}
	return "", false
}
