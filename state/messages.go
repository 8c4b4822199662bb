package state

// Messages between chats (SPEC §5). Owner: the messages capability.

func (tx *Tx) messagesAfterReply(c *Chat)     {}
func (tx *Tx) messagesOnDelete(c *Chat) error { return nil }
