package state

import "time"

// The signal log (SPEC §7). Owner: the signal-log capability.

func (tx *Tx) logSpawn(a Actor, parent, child *Chat)  {}
func (tx *Tx) logGoal(a Actor, c *Chat)               {}
func (tx *Tx) logHuman(c *Chat)                       {}
func (tx *Tx) logReplyEnd(a Actor, c *Chat, r *Reply) {}
func (tx *Tx) logTaskEnd(a Actor, t *Chat)            {}
func (tx *Tx) logOnDelete(c *Chat) error              { return nil }

// Head is a chat's log head, CONCH_HOME/log/ID/head.json: the largest
// sequence ever recorded (its state_version, which never goes back) and
// the pruned watermark (every sequence up to it is gone).
type Head struct {
	StateVersion int64     `json:"state_version"`
	Pruned       int64     `json:"pruned"`
	Touched      time.Time `json:"touched"`
}

func headRel(id string) string { return "log/" + id + "/head.json" }

// head reads a chat's log head (a zero head if it has no log yet).
func (tx *Tx) head(id string) (*Head, error) {
	h, err := load[Head](tx, headRel(id))
	if err != nil {
		return nil, err
	}
	if h == nil {
		h = &Head{}
	}
	return h, nil
}

// StateVersion is the largest sequence in the chat's log.
func (tx *Tx) StateVersion(id string) (int64, error) {
	h, err := tx.head(id)
	if err != nil {
		return 0, err
	}
	return h.StateVersion, nil
}

// Notice is a pending notice that a watched chat changed.
type Notice struct {
	Target string `json:"target"`
	Since  int64  `json:"since"`
}

func (tx *Tx) pendingNotices(me *Chat) ([]Notice, error) { return []Notice{}, nil }
func (tx *Tx) drainNotices(me *Chat, ns []Notice) error  { return nil }
