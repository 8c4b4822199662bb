package state

import "github.com/conch-sh/conch/state/place"

// A chat's reach (issue 24) is where its claims may lie: the work tree
// holding its folder, as the harness or the person gave the folder. It is
// worked out when the chat is made and when a reply the harness or the
// person started moves it, so that a chat's model, which can run conch
// reply start --folder / in its shell, cannot widen what it may claim.

// reachOf is the reach of a chat working in folder: the work tree holding
// it (place.Tree), else the folder itself, resolved.
func reachOf(folder string) string {
	p := placeOf(folder)
	if tree, _ := place.Tree(p); tree != "" {
		return tree
	}
	return p
}

// reach is the chat's reach: a record made before reaches were kept has
// its folder's.
func (c *Chat) reach() string {
	if c.Reach != "" {
		return c.Reach
	}
	return reachOf(c.Folder)
}

// narrowReach keeps a chat made from another (its maker, its parent)
// inside the other's reach.
func narrowReach(c, from *Chat) {
	if from == nil {
		return
	}
	if fr := from.reach(); c.Reach == "" || !within(c.Reach, fr) {
		c.Reach = fr
	}
}

// moveReach is a reply the harness or the person started in folder: the
// chat's reach is where it works now, no further than its parent's.
func (dom ChatsTx) moveReach(c *Chat, folder string) {
	tx := dom.tx
	if folder == "" {
		folder = c.Folder
	}
	c.Reach = reachOf(folder)
	if c.Parent == "" {
		return
	}
	if p, err := tx.Chats().Get(c.Parent); err == nil {
		narrowReach(c, p) // a parent gone bounds nothing more than the folder does
	}
}
