package state

// The points where one change ripples into the other capabilities: the
// signal log (events.go), waits (waits.go) and messages (messages.go) each
// add their part here, so a command that changes a chat reaches them all
// through one path.

// spawned: a chat was made with a parent, or a task was started.
func (ri rippleTx) spawned(a Actor, parent, child *Chat) {
	tx := ri.tx
	tx.Log().spawn(a, parent, child)
}

// goalChanged: a chat's goal was set, changed or removed.
func (ri rippleTx) goalChanged(a Actor, c *Chat) {
	tx := ri.tx
	tx.Log().goal(a, c)
}

// humanMessage: the person's own message started a reply.
func (ri rippleTx) humanMessage(c *Chat) {
	tx := ri.tx
	tx.Log().human(c)
}

// replyEnded: a chat's reply ended (r is now its LastReply).
func (ri rippleTx) replyEnded(a Actor, c *Chat, r *Reply) {
	tx := ri.tx
	tx.Log().replyEnd(a, c, r)
	tx.Messages().afterReply(c)
	tx.Waits().afterReply(c)
}

// taskEnded: a task reached an ended state.
func (ri rippleTx) taskEnded(a Actor, t *Chat) {
	tx := ri.tx
	tx.Log().taskEnd(a, t)
}

// stoppedWorking: a chat or task stopped working (its reply ended, it needs
// you, it was stopped, a task ended): the waits on it end.
func (ri rippleTx) stoppedWorking(a Actor, c *Chat) {
	tx := ri.tx
	tx.Waits().endWaitsOn(a, c)
}

// mayStopWorking: something that keeps a chat counted as working changed
// (its recovery, a status set by hand): if it no longer works, the waits on
// it end.
func (ri rippleTx) mayStopWorking(a Actor, c *Chat) {
	tx := ri.tx
	tx.Waits().endWaitsOn(a, c)
}

// deleted: a chat is being deleted.
func (ri rippleTx) deleted(a Actor, c *Chat) error {
	tx := ri.tx
	if err := tx.Messages().onDelete(c); err != nil {
		return err
	}
	if err := tx.Waits().onDelete(c); err != nil {
		return err
	}
	if err := tx.Sessions().entomb(c); err != nil {
		return err
	}
	return tx.Log().onDelete(c)
}
