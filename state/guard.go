package state

import (
	"sort"
	"sync"

	"github.com/conch-sh/conch/state/place"
)

// The guard's answers, as [guard] in config.toml names them, weakest last.
const (
	GuardDeny = "deny" // the harness refuses the tool, with the reason
	GuardAsk  = "ask"  // the harness asks the person, where it can
	GuardNote = "note" // the tool runs; the chat is told
)

// GuardValues are what [guard] claims and checkout may say.
var GuardValues = []string{GuardDeny, GuardAsk, GuardNote}

// GuardClaims is [guard] claims: what an edit onto another chat's claim
// gets (default deny).
func (h *Home) GuardClaims() string { return orDefault(h.Config.Guard.Claims, GuardDeny) }

// GuardCheckout is [guard] checkout: what a command that moves a checkout
// another chat works in gets (default ask).
func (h *Home) GuardCheckout() string { return orDefault(h.Config.Guard.Checkout, GuardAsk) }

func orDefault(v, d string) string {
	if v == "" {
		return d
	}
	return v
}

func guardRank(d string) int {
	switch d {
	case GuardDeny:
		return 3
	case GuardAsk:
		return 2
	case GuardNote:
		return 1
	}
	return 0
}

// GuardIn is a tool call about to run, as the guard reads it.
type GuardIn struct {
	Files   []string // the files an edit changes: absolute, cleaned
	Command string   // a shell command line
	Cwd     string   // where the command runs ("" for the chat's folder)
}

// Verdict is the guard's answer to one tool call.
type Verdict struct {
	Decision string `json:"decision"` // deny, ask, note
	Kind     string `json:"kind"`     // claim, checkout
	// Named: the acting chat may hear who (it is the person's own); else
	// the reason names nobody.
	Named bool `json:"named"`
	// A claim: whose, on what file (relative to the chat's folder when
	// inside it), until when, why.
	Claim *LiveClaim `json:"claim,omitempty"`
	File  string     `json:"file,omitempty"`
	// A checkout: what moves it, and the chat working there.
	Move      string `json:"move,omitempty"`
	Chat      string `json:"chat,omitempty"`
	ChatTitle string `json:"chat_title,omitempty"`
	// Tree: the chat works in the same git work tree (else the same
	// folder, out of git).
	Tree bool `json:"tree,omitempty"`
}

// Guard judges a tool call of the acting chat before it runs: an edit onto
// a file another of the person's chats claimed, or a command that moves a
// checkout another of the person's chats works in. nil: nothing to say.
// It never holds the person off (no chat acting), and a claim or a chat
// that read something from outside is only ever a note. It reads nothing
// more than claims.json for an edit in a home with no claims, and nothing
// at all for a command that moves no checkout.
func (tx *View) Guard(a Actor, in GuardIn) (*Verdict, error) {
	if a.Person() || (len(in.Files) == 0 && in.Command == "") {
		return nil, nil
	}
	me, err := tx.Chat(a.ID)
	if err != nil {
		return nil, err
	}
	var best *Verdict
	better := func(v *Verdict) {
		if best == nil || guardRank(v.Decision) > guardRank(best.Decision) {
			best = v
		}
	}
	folder := me.Folder
	if me.Reply != nil {
		folder = me.Reply.Folder
	}
	if len(in.Files) > 0 {
		live, err := tx.liveClaims()
		if err != nil {
			return nil, err
		}
		var resolved []string // the files with their links followed, once
		for i := range live {
			l := &live[i]
			if l.ownClaim(me) || l.Computer != tx.h.Computer {
				continue
			}
			if resolved == nil {
				// A claim holds resolved paths: the file written through a
				// link is the file the link names.
				for _, f := range in.Files {
					resolved = append(resolved, place.Path(f))
				}
			}
			for j, f := range in.Files {
				if !l.Covers(resolved[j]) {
					continue
				}
				d := tx.h.GuardClaims()
				if l.Outside {
					d = GuardNote
				}
				better(&Verdict{Decision: d, Kind: "claim", Named: me.Trusted(), Claim: l, File: relTo(f, folder)})
			}
		}
	}
	if in.Command != "" {
		v, err := tx.guardCheckout(me, in)
		if err != nil {
			return nil, err
		}
		if v != nil {
			better(v)
		}
	}
	return best, nil
}

// guardCheckout judges a command that may move the checkout another of
// the person's chats works in: the same work tree (place.Tree, worktrees
// apart), or, out of git, the same place. The trees are looked up only
// for a command that moves one.
func (tx *View) guardCheckout(me *Chat, in GuardIn) (*Verdict, error) {
	computer, folder := me.Computer, me.Folder
	if r := me.Reply; r != nil {
		computer, folder = r.Computer, r.Folder
	}
	if in.Cwd != "" {
		folder = in.Cwd
	}
	move, ok := MovesCheckout(in.Command, folder)
	if !ok {
		return nil, nil
	}
	dir := folder
	if move.Dir != "" {
		dir = move.Dir
	}
	where := placeOf(dir)
	tree, _ := place.Tree(where)
	ix, err := tx.ReadIndex()
	if err != nil {
		return nil, err
	}
	worktrees := sync.OnceValue(tx.Worktrees)
	var others []*Summary
	for _, s := range ix.Chats {
		// A session and its subagents work as one: none moves the
		// checkout under another of them.
		if s.ID == me.ID || s.ID == me.Parent || s.Parent == me.ID || !s.Trusted() || s.ReplyStarted.IsZero() {
			continue
		}
		if !sameTree(computer, where, tree, s, worktrees) || !s.Working() {
			continue
		}
		others = append(others, s)
	}
	if len(others) == 0 {
		return nil, nil
	}
	// The one to name: a chat free of outside words first, then by id.
	sort.Slice(others, func(i, j int) bool {
		if others[i].Outside != others[j].Outside {
			return !others[i].Outside
		}
		return others[i].ID < others[j].ID
	})
	o := others[0]
	d := tx.h.GuardCheckout()
	if o.Outside {
		d = GuardNote
	}
	return &Verdict{Decision: d, Kind: "checkout", Named: me.Trusted(), Move: move.Words, Chat: o.ID, ChatTitle: o.Title, Tree: tree != ""}, nil
}

// sameTree says whether another chat's reply works in the work tree a
// command moves (tree, "" out of git), or, both out of git, in the same
// place. A command out of git moves nothing of a chat in a work tree.
func sameTree(computer, where, tree string, s *Summary, worktrees func() string) bool {
	if computer != s.ReplyComputer || s.ReplyPlace == "" {
		return false
	}
	if tree != "" && !within(s.ReplyPlace, tree) {
		return false
	}
	other, _ := place.Tree(s.ReplyPlace)
	if tree == "" && other == "" {
		// Out of git on both sides (or in a repository conch does not
		// find on the disk): the same place, one folder in the other.
		return sharePlace(computer, where, s.ReplyComputer, s.ReplyPlace, worktrees)
	}
	return other == tree
}
