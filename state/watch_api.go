package state

// watch makes watcher watch target (SPEC §7), registered at the target's
// current version, and says whether it does (false where watcher may not
// watch). It is implemented by the signal log; until that lands, no watch
// is recorded and the answer is false.
func (tx *Tx) watch(watcher, target *Chat) bool { return false }
