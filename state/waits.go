package state

// Waits (SPEC §6). Owner: the waits capability.

func (tx *Tx) endWaitsOn(c *Chat)          {}
func (tx *Tx) waitsOnDelete(c *Chat) error { return nil }
