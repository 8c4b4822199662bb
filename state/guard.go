package state

import (
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/conch-sh/conch/state/place"
)

// The guard's answers, as [guard] in config.toml names them, weakest last.
const (
	guardDeny = "deny" // the harness refuses the tool, with the reason
	GuardAsk  = "ask"  // the harness asks the person, where it can
	GuardNote = "note" // the tool runs; the chat is told
)

// guardValues are what [guard] claims and checkout may say.
var guardValues = []string{guardDeny, GuardAsk, GuardNote}

// guardClaims is [guard] claims: what an edit onto another chat's claim
// gets (default deny).
func (h *Home) guardClaims() string { return orDefault(h.Config.Guard.Claims, guardDeny) }

// guardCheckout is [guard] checkout: what a command that moves a checkout
// another chat works in gets (default ask).
func (h *Home) guardCheckout() string { return orDefault(h.Config.Guard.Checkout, GuardAsk) }

func orDefault(v, d string) string {
	if v == "" {
		return d
	}
	return v
}

func guardRank(d string) int {
	switch d {
	case guardDeny:
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
	// Named: the acting chat may hear who, what and until when (it is the
	// person's own); else the verdict holds nothing but its decision.
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
	// Worktree: a note, the same path changed or claimed in this other
	// worktree of the repository (Chat names who, Claim the claim).
	Worktree string `json:"worktree,omitempty"`
}

// Guard judges a tool call of the acting chat before it runs: an edit onto
// a file another of the person's chats claimed, or a command that moves a
// checkout another of the person's chats works in. nil: nothing to say.
// It never holds the person off (no chat acting), and a claim or a chat
// that read something from outside is only ever a note. It reads nothing
// more than claims.json for an edit in a home with no claims, and nothing
// at all for a command that moves no checkout.
func (dom ClaimsView) Guard(a Actor, in GuardIn) (*Verdict, error) {
	tx := dom.v
	if a.Person() || (len(in.Files) == 0 && in.Command == "") {
		return nil, nil
	}
	me, err := tx.Chats().Get(a.ID)
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
		var resolved []string // the files with their links followed, once
		resolve := func() []string {
			if resolved == nil {
				// A claim holds resolved paths: the file written through a
				// link is the file the link names.
				for _, f := range in.Files {
					resolved = append(resolved, place.Path(f))
				}
			}
			return resolved
		}
		// Only a claim that covers one of the files costs a look at its
		// claimant.
		live, err := tx.Claims().liveOf(func(cl *Claim) bool {
			return cl.Computer == tx.h.Computer && slices.ContainsFunc(resolve(), cl.covers)
		})
		if err != nil {
			return nil, err
		}
		for i := range live {
			l := &live[i]
			if l.ownClaim(me) {
				continue
			}
			resolve()
			for j, f := range in.Files {
				if !l.covers(resolved[j]) {
					continue
				}
				d := tx.h.guardClaims()
				if l.Outside {
					d = GuardNote
				}
				if !me.trusted() {
					// A chat that is not the person's learns nothing of the
					// person's claims: no file, no time, no note.
					if d != GuardNote {
						better(&Verdict{Decision: d, Kind: "claim"})
					}
					continue
				}
				better(&Verdict{Decision: d, Kind: "claim", Named: true, Claim: l, File: relTo(f, folder)})
			}
		}
		if best == nil {
			v, err := tx.Claims().guardWorktrees(me, in.Files)
			if err != nil {
				return nil, err
			}
			if v != nil {
				better(v)
			}
		}
	}
	if in.Command != "" {
		v, err := tx.Claims().guardCheckout(me, in)
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
func (dom ClaimsView) guardCheckout(me *Chat, in GuardIn) (*Verdict, error) {
	tx := dom.v
	computer, folder := me.Computer, me.Folder
	if r := me.Reply; r != nil {
		computer, folder = r.Computer, r.Folder
	}
	if in.Cwd != "" {
		folder = in.Cwd
	}
	move, ok := movesCheckout(in.Command, folder)
	if !ok {
		return nil, nil
	}
	dir := folder
	if move.Dir != "" {
		dir = move.Dir
	}
	where, tree := "", ""
	if r := me.Reply; r != nil && dir == r.Folder && r.Place != "" && r.Tree != "" {
		where, tree = r.Place, r.Tree // worked out when the reply started
	} else {
		where = placeOf(dir)
		tree, _ = place.Tree(where)
	}
	ix, err := tx.Chats().Index()
	if err != nil {
		return nil, err
	}
	worktrees := sync.OnceValue(tx.Chats().worktrees)
	var others []*Summary
	for _, s := range ix.Chats {
		// A session and its subagents work as one: none moves the
		// checkout under another of them.
		if s.ID == me.ID || s.ID == me.Parent || s.Parent == me.ID || !s.trusted() || s.ReplyStarted.IsZero() {
			continue
		}
		if !sameTree(computer, where, tree, s, worktrees) || !s.working() {
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
	d := tx.h.guardCheckout()
	if o.Outside {
		d = GuardNote
	}
	if !me.trusted() {
		if d == GuardNote {
			return nil, nil
		}
		return &Verdict{Decision: d, Kind: "checkout"}, nil
	}
	return &Verdict{Decision: d, Kind: "checkout", Named: true, Move: move.Words, Chat: o.ID, ChatTitle: o.Title, Tree: tree != ""}, nil
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

// sibling is another of the person's chats working in another worktree
// of the same repository: its chat and that worktree, and the roots its
// harness names its files under (the tree resolved, and as its folder
// was given).
type sibling struct {
	chat  *Chat
	tree  string
	roots []string
}

// siblings are the person's other chats working in other worktrees of the
// repository me works in (none for a chat that is not the person's, or
// out of git). It costs a look up the disk for each other chat working on
// this computer, and nothing when there is none.
func (dom ClaimsView) siblings(me *Chat) ([]sibling, error) {
	tx := dom.v
	r := me.Reply
	if r == nil || r.Repo == "" || !me.trusted() {
		return nil, nil
	}
	ix, err := tx.Chats().Index()
	if err != nil {
		return nil, err
	}
	var out []sibling
	for _, s := range ix.Chats {
		if s.ID == me.ID || s.ID == me.Parent || s.Parent == me.ID || !s.trusted() || s.ReplyStarted.IsZero() ||
			s.ReplyComputer != r.Computer || s.ReplyPlace == "" || within(s.ReplyPlace, r.Tree) || !s.working() {
			continue
		}
		tree, repo := place.Tree(s.ReplyPlace)
		if repo != r.Repo || tree == r.Tree {
			continue
		}
		o, err := tx.Chats().Get(s.ID)
		if err != nil || o.Reply == nil {
			continue
		}
		roots := []string{tree}
		if suffix := strings.TrimPrefix(o.Reply.Place, tree); strings.HasSuffix(o.Reply.Folder, suffix) {
			roots = append(roots, strings.TrimSuffix(o.Reply.Folder, suffix))
		}
		out = append(out, sibling{o, tree, roots})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].chat.ID < out[j].chat.ID })
	return out, nil
}

// inTree is p relative to tree, when inside it (and not tree itself).
func inTree(p, tree string) (string, bool) {
	if p == tree || !within(p, tree) {
		return "", false
	}
	return strings.TrimPrefix(p, tree+string(filepath.Separator)), true
}

// worktreeNote is the note of a path another chat changes or claims in a
// sibling worktree.
func worktreeNote(sib sibling, rel string, l *LiveClaim) *Verdict {
	return &Verdict{Decision: GuardNote, Kind: "worktree", Named: true, Chat: sib.chat.ID, ChatTitle: sib.chat.Title, File: rel, Claim: l, Worktree: sib.tree}
}

// guardWorktrees: an edit of a path that another of the person's chats
// changes, or holds a claim on, in another worktree of the same
// repository is a note, never a denial: their branches will meet at the
// merge.
func (dom ClaimsView) guardWorktrees(me *Chat, files []string) (*Verdict, error) {
	tx := dom.v
	sibs, err := tx.Claims().siblings(me)
	if err != nil || len(sibs) == 0 {
		return nil, err
	}
	// The siblings' claims: they name paths in their own worktrees.
	live, err := tx.Claims().liveOf(func(cl *Claim) bool {
		return cl.Computer == tx.h.Computer && slices.ContainsFunc(sibs, func(sib sibling) bool { return sib.chat.ID == cl.Chat })
	})
	if err != nil {
		return nil, err
	}
	for _, f := range files {
		rel, ok := inTree(place.Path(f), me.Reply.Tree)
		if !ok {
			continue
		}
		for _, sib := range sibs {
			for i := range live {
				if l := &live[i]; l.Chat == sib.chat.ID && l.covers(filepath.Join(sib.tree, rel)) {
					return worktreeNote(sib, rel, l), nil
				}
			}
			for _, root := range sib.roots {
				if slices.Contains(sib.chat.Reply.Files, filepath.Join(root, rel)) {
					return worktreeNote(sib, rel, nil), nil
				}
			}
		}
	}
	return nil, nil
}

// Worktrees are the notes on claims just made: a path another of the
// person's chats changes, or claims, in another worktree of the same
// repository (a note: the claims stand).
func (dom ClaimsView) Worktrees(a Actor, made []Claim) ([]Verdict, error) {
	tx := dom.v
	if a.Person() || len(made) == 0 {
		return nil, nil
	}
	me, err := tx.Chats().Get(a.ID)
	if err != nil {
		return nil, err
	}
	sibs, err := tx.Claims().siblings(me)
	if err != nil || len(sibs) == 0 {
		return nil, err
	}
	live, err := tx.Claims().live()
	if err != nil {
		return nil, err
	}
	var out []Verdict
	for _, m := range made {
		rel, ok := inTree(m.Pattern, me.Reply.Tree)
		if !ok {
			continue
		}
	sibs:
		for _, sib := range sibs {
			there := Claim{Pattern: filepath.Join(sib.tree, rel), Glob: m.Glob}
			for i := range live {
				if l := &live[i]; l.Chat == sib.chat.ID && there.overlaps(&l.Claim) {
					out = append(out, *worktreeNote(sib, rel, l))
					continue sibs
				}
			}
			for _, f := range sib.chat.Reply.Files {
				for _, root := range sib.roots {
					if frel, ok := inTree(f, root); ok && there.covers(filepath.Join(sib.tree, frel)) {
						out = append(out, *worktreeNote(sib, rel, nil))
						continue sibs
					}
				}
			}
		}
	}
	return out, nil
}
