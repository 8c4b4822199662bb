package render

import "github.com/conch-sh/conch/state"

// WaitBlock is how a wait that ended is said to the waiting chat (SPEC §6).
func WaitBlock(w state.EndedWait) string { return "" }
