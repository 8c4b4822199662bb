package state

// Messages between chats (SPEC §5). Owner: the messages capability.

func (tx *Tx) messagesAfterReply(c *Chat)     {}
func (tx *Tx) messagesOnDelete(c *Chat) error { return nil }

// DueMessage is a message due to be read now, with its frame's facts.
type DueMessage struct {
	ID        string `json:"id"`
	From      string `json:"from"`
	FromTitle string `json:"from_title"`
	Text      string `json:"text"`
	NoReply   bool   `json:"no_reply"` // the receiver is a task: no hint to answer
}

func (tx *Tx) dueMessages(me *Chat) ([]DueMessage, error)   { return []DueMessage{}, nil }
func (tx *Tx) markMessages(me *Chat, ms []DueMessage) error { return nil }
