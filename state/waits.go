package state

// Waits (SPEC §6). Owner: the waits capability.

func (tx *Tx) endWaitsOn(c *Chat)          {}
func (tx *Tx) waitsOnDelete(c *Chat) error { return nil }

// EndedWait is a wait that ended while the chat had let go of its reply.
type EndedWait struct {
	Target string `json:"target"`
	Title  string `json:"title"`
}

func (tx *Tx) endedWaits(me *Chat) ([]EndedWait, error) { return []EndedWait{}, nil }
func (tx *Tx) markWaits(me *Chat, ws []EndedWait) error { return nil }
