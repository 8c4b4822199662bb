package render

import "github.com/conch-sh/conch/state"

// MessageBlock is a message as its receiver reads it: conch's frame, then
// the words, fenced and quoted (SPEC §5).
func MessageBlock(m state.DueMessage) string { return "" }
