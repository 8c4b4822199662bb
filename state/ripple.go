package state

// The points where one change ripples into the other capabilities: the
// signal log (events.go), waits (waits.go) and messages (messages.go) each
// add their part here, so a command that changes a chat reaches them all
// through one path.

// spawned: a chat was made with a parent, or a task was started.
func (tx *Tx) spawned(a Actor, parent, child *Chat) {
	tx.logSpawn(a, parent, child)
}

// goalChanged: a chat's goal was set, changed or removed.
func (tx *Tx) goalChanged(a Actor, c *Chat) {
	tx.logGoal(a, c)
}

// humanMessage: the person's own message started a reply.
func (tx *Tx) humanMessage(c *Chat) {
	tx.logHuman(c)
}

// replyEnded: a chat's reply ended (r is now its LastReply).
func (tx *Tx) replyEnded(a Actor, c *Chat, r *Reply) {
	tx.logReplyEnd(a, c, r)
	tx.messagesAfterReply(c)
	tx.waitsAfterReply(c)
}

// taskEnded: a task reached an ended state.
func (tx *Tx) taskEnded(a Actor, t *Chat) {
	tx.logTaskEnd(a, t)
}

// stoppedWorking: a chat or task stopped working (its reply ended, it needs
// you, it was stopped, a task ended): the waits on it end.
func (tx *Tx) stoppedWorking(a Actor, c *Chat) {
	tx.endWaitsOn(a, c)
}

// mayStopWorking: something that keeps a chat counted as working changed
// (its recovery, a status set by hand): if it no longer works, the waits on
// it end.
func (tx *Tx) mayStopWorking(a Actor, c *Chat) {
	tx.endWaitsOn(a, c)
}

// deleted: a chat is being deleted.
func (tx *Tx) deleted(a Actor, c *Chat) error {
	if err := tx.messagesOnDelete(c); err != nil {
		return err
	}
	if err := tx.waitsOnDelete(c); err != nil {
		return err
	}
	if err := tx.entomb(c); err != nil {
		return err
	}
	return tx.logOnDelete(c)
}
