package state

import "github.com/conch-sh/conch/state/proc"

// The domain's one way to the processes on this computer (state/proc
// reads them): whether a reply's harness is still there, and which
// process runs a chat. Reply.Alive, Chat.Working and Summary.Working ask
// it from a record alone, so it is a function, not something a Home
// carries.

// procStart is the start time of process pid, and whether it exists.
func procStart(pid int) (uint64, bool) { return proc.Start(pid) }

// procExists says whether a process with that pid exists (one system call).
var procExists = proc.Exists

// harnessPID is the process that runs a chat, seen from a conch command
// whose parent is ppid.
func harnessPID(ppid int) int { return proc.HarnessPID(ppid) }
