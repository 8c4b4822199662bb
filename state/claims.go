package state

import (
	"encoding/json"
	"errors"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/conch-sh/conch/state/place"
	"github.com/conch-sh/conch/state/store"
)

// Claims (issue 18): a chat says which files it is about to change, and the
// person's other chats keep off them. They live in one small durable
// record, CONCH_HOME/claims.json, that is there only while a claim is: a
// step, notes or hook in a home with none looks for it and reads nothing.

const (
	// ClaimDefault is how long a claim lasts when --for is not given.
	ClaimDefault = 30 * time.Minute
	// ClaimShortest and ClaimLongest are the shortest and the longest a
	// claim may last.
	ClaimShortest = time.Minute
	ClaimLongest  = 2 * time.Hour
	// MaxClaims is how many live claims one chat may hold, its children
	// (subagents, the chats and tasks it made) with it: a chat cannot
	// spread its claims over children to hold more.
	MaxClaims = 50
	// MaxClaimsAll is how many live claims the home holds in all, and
	// MaxClaimsBytes how large claims.json may grow: every edit step of
	// every chat reads it.
	MaxClaimsAll   = 500
	MaxClaimsBytes = 512 << 10
	// MaxClaimReason is the longest reason, in characters.
	MaxClaimReason = 300
)

const claimsRel = "claims.json"

// Claim is one claimed path or glob.
type Claim struct {
	Chat    string    `json:"chat"`
	Pattern string    `json:"pattern"` // absolute, cleaned
	Glob    bool      `json:"glob"`
	Reason  string    `json:"reason,omitempty"`
	Since   time.Time `json:"since"`
	Until   time.Time `json:"until"`
	// The claimant's harness process when it claimed: a claim ends with it.
	PID      int    `json:"pid,omitempty"`
	PIDStart uint64 `json:"pid_start,omitempty"`
	Computer string `json:"computer"`
}

// claimsFile is CONCH_HOME/claims.json.
type claimsFile struct {
	Claims []Claim `json:"claims"`
}

// covers says whether the claim covers file (absolute, cleaned).
func (cl *Claim) covers(file string) bool {
	if !cl.Glob {
		return within(file, cl.Pattern)
	}
	return globCovers(cl.Pattern, file)
}

// overlaps says whether some file is covered by both claims.
func (cl *Claim) overlaps(o *Claim) bool {
	if !cl.Glob && !o.Glob {
		return within(cl.Pattern, o.Pattern) || within(o.Pattern, cl.Pattern)
	}
	return globsOverlap(globOf(cl), globOf(o))
}

// globOf is a claim's pattern as a glob: a path's special characters
// escaped.
func globOf(cl *Claim) string {
	if cl.Glob {
		return cl.Pattern
	}
	var b strings.Builder
	for _, r := range cl.Pattern {
		if strings.ContainsRune(`*?[\`, r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// LiveClaim is a live claim with its claimant, as conch says it.
type LiveClaim struct {
	Claim
	Title string `json:"title"`
	// Outside: the claimant read something from outside; its claim is a
	// note, never a denial.
	Outside bool `json:"outside"`
	// Parent is the claimant's parent chat (a subagent's session).
	Parent string `json:"-"`
}

// ownClaim says whether the claim is the chat's own or its family's: its
// own, its parent's or one of its children's (a session and its
// subagents work as one, and keep no claim from each other).
func (l *LiveClaim) ownClaim(me *Chat) bool {
	return l.Chat == me.ID || (me.Parent != "" && l.Chat == me.Parent) || l.Parent == me.ID
}

// read reads the claims record; nil when there is none (the hot
// path's one look at the disk for claims).
func (dom ClaimsView) read() (*claimsFile, error) {
	tx := dom.v
	return load[claimsFile](tx, claimsRel)
}

// live are the claims still in force, each with its claimant: not
// past its time, its chat still there, the person's own, neither stopped
// nor archived, and its harness process still running.
func (dom ClaimsView) live() ([]LiveClaim, error) {
	tx := dom.v
	return tx.Claims().liveOf(nil)
}

// liveOf is liveClaims of the claims keep keeps (nil: every one): a
// claim it leaves out costs no look at its claimant, so the hot path's
// claims that could not concern it open no record.
func (dom ClaimsView) liveOf(keep func(*Claim) bool) ([]LiveClaim, error) {
	tx := dom.v
	var out []LiveClaim
	err := tx.Claims().eachLive(keep, func(l LiveClaim) bool {
		out = append(out, l)
		return true
	})
	return out, err
}

// eachLive hands the live claims keep keeps to yield, in claims.json's
// order, until yield says false: a reader with its lines full looks at
// the claimant of no claim more.
func (dom ClaimsView) eachLive(keep func(*Claim) bool, yield func(LiveClaim) bool) error {
	tx := dom.v
	now := tx.Now()
	type proc struct {
		pid   int
		start uint64
	}
	var procs map[proc]bool
	var failed error
	err := tx.Claims().each(func(cl *Claim) bool {
		if !now.Before(cl.Until) || keep != nil && !keep(cl) {
			return true
		}
		s, err := tx.Claims().claimant(cl.Chat)
		if errors.Is(err, ErrNoChat) {
			return true
		}
		if err != nil {
			failed = err
			return false
		}
		if !s.offersTogether() || s.Status == StatusStopped || s.Archived {
			return true
		}
		if cl.PID != 0 {
			k := proc{cl.PID, cl.PIDStart}
			up, ok := procs[k]
			if !ok {
				up = alive(cl.PID, cl.PIDStart)
				if procs == nil {
					procs = map[proc]bool{}
				}
				procs[k] = up
			}
			if !up {
				return true
			}
		}
		return yield(LiveClaim{Claim: *cl, Title: s.Title, Outside: s.Outside, Parent: s.Parent})
	})
	if failed != nil {
		return failed
	}
	return err
}

// each hands the claims of claims.json to yield, in its order, until
// yield says false. A lock-free reader that has not read the record
// decodes them one at a time as it goes: notes, whose lines fill after a
// few, decodes no more (issue 25). Else, and for a record not as conch
// writes it, the record as load has it (past the claims already handed
// over).
func (dom ClaimsView) each(yield func(*Claim) bool) error {
	tx := dom.v
	handed := 0
	if _, read := tx.read[claimsRel]; !read && !tx.inTx() {
		data, err := tx.h.store.Get(claimsRel)
		if errors.Is(err, store.ErrNotFound) {
			return nil
		}
		if err != nil {
			return readError(tx.h.where(claimsRel), err)
		}
		stopped, ok := scanClaims(data, func(cl *Claim) bool {
			handed++
			return yield(cl)
		})
		if stopped || ok {
			return nil
		}
	}
	f, err := tx.Claims().read()
	if err != nil || f == nil {
		return err
	}
	for i := handed; i < len(f.Claims); i++ {
		if !yield(&f.Claims[i]) {
			return nil
		}
	}
	return nil
}

// claimant is what liveClaims needs of a claim's chat: its summary in the
// index when this transaction has read the index and not the record (the
// index is true of every committed record), else the record's.
func (dom ClaimsView) claimant(id string) (*Summary, error) {
	tx := dom.v
	if _, read := tx.cached(chatRel(id)); !read && tx.index != nil {
		if s := tx.index.Chats[id]; s != nil {
			return s, nil
		}
	}
	c, err := tx.Chats().Get(id)
	if err != nil {
		return nil, err
	}
	return summarize(c), nil
}

// claimHolds says whether a chat's claims still hold: it is the person's
// own, and it is neither stopped nor archived (liveClaims asks the same of
// a summary).
func claimHolds(c *Chat) bool {
	return c.offersTogether() && c.Status != StatusStopped && !c.Archived
}

// ClaimIn is what `conch claim` asks for.
type ClaimIn struct {
	Patterns []string // absolute, cleaned
	For      time.Duration
	Reason   string
	PPID     int // for the harness process, when the chat runs no reply
}

// ClaimConflict is ErrRefused for a claim another chat holds.
type ClaimConflict struct {
	Pattern string
	Holder  LiveClaim
}

func (e *ClaimConflict) Error() string {
	return e.Pattern + " is claimed by another chat"
}
func (e *ClaimConflict) Unwrap() error { return ErrRefused }

// Take makes the acting chat's claims, all or none. A pattern it holds
// already is held again, until the new time.
func (dom ClaimsTx) Take(a Actor, in ClaimIn) ([]Claim, error) {
	tx := dom.tx
	if a.Person() {
		return nil, needsChat("claim")
	}
	if len(in.Patterns) == 0 {
		return nil, usagef("claim takes at least one path or glob")
	}
	if in.For == 0 {
		in.For = ClaimDefault
	}
	if in.For < ClaimShortest || in.For > ClaimLongest {
		return nil, usagef("--for %s: a claim lasts from %s to %s", in.For, flagDuration(ClaimShortest), flagDuration(ClaimLongest))
	}
	if err := validText("reason", in.Reason); err != nil {
		return nil, err
	}
	if n := utf8.RuneCountInString(in.Reason); n > MaxClaimReason {
		return nil, usagef("reason is %d characters; at most %d", n, MaxClaimReason)
	}
	me, err := tx.Chats().Get(a.ID)
	if err != nil {
		return nil, err
	}
	// The reason crosses to the other chats: secrets taken out.
	in.Reason = tx.Messages().scrubField(in.Reason)
	if !me.offersTogether() {
		return nil, refusedf("claims are not offered to chat %s", me.ID)
	}
	if !claimHolds(me) {
		return nil, refusedf("chat %s is stopped or archived: it holds no claims", me.ID)
	}
	// A claim reaches only inside the chat's place, its links resolved:
	// never the whole of it, and nothing at all from a place that is the
	// whole computer.
	reach := me.reach()
	if reach == string(filepath.Separator) {
		return nil, refusedf("chat %s works in / (the whole computer): it may claim nothing there", me.ID)
	}
	pid, start := 0, uint64(0)
	if r := me.Reply; r != nil && r.Alive() {
		pid, start = r.PID, r.PIDStart
	} else if pid = harnessPID(in.PPID); pid != 0 {
		start, _ = procStart(pid)
	}
	now := tx.Now()
	var made []Claim
	for _, p := range in.Patterns {
		if err := validText("path", p); err != nil {
			return nil, err
		}
		if err := maxBytes("a path", p, MaxFile); err != nil {
			return nil, err
		}
		// A claimed path crosses to the other chats as it is (it must
		// match files): one that holds a secret is refused, said scrubbed.
		if clean := tx.Messages().scrubField(p); clean != p {
			return nil, usagef("the path %s holds a secret; a claim's path is shown to the other chats", clean)
		}
		glob := isGlob(p)
		if glob {
			if err := validGlob(filepath.Clean(p)); err != nil {
				return nil, usagef("%s is not a glob conch reads (*, ?, [a-z], \\ escapes)", p)
			}
		}
		cl := Claim{Chat: me.ID, Pattern: resolvePattern(filepath.Clean(p), glob), Glob: glob, Reason: in.Reason,
			Since: now, Until: now.Add(in.For), PID: pid, PIDStart: start, Computer: tx.h.Computer}
		if lit := cl.literal(); !within(lit, reach) {
			return nil, refusedf("%s is outside the place of chat %s (%s): a claim reaches only inside it", p, me.ID, reach)
		}
		if holdsWhole(&cl, reach) {
			return nil, usagef("%s holds the whole of the chat's place (%s): claim the files in it (a glob like %s)", p, reach, filepath.Join(reach, "src", "*.go"))
		}
		if !slices.ContainsFunc(made, func(m Claim) bool { return m.Pattern == cl.Pattern }) {
			made = append(made, cl)
		}
	}
	live, err := tx.Claims().live()
	if err != nil {
		return nil, err
	}
	mine, family, all := 0, 0, len(made)
	root := me.ID // the family the bound counts: the chat's parent's, for a child
	if me.Parent != "" {
		root = me.Parent
	}
	for _, l := range live {
		again := l.Chat == me.ID && slices.ContainsFunc(made, func(m Claim) bool { return m.Pattern == l.Pattern })
		if !again {
			all++
			if l.Chat == root || l.Parent == root || l.Chat == me.ID || l.Parent == me.ID {
				family++
			}
		}
		if l.Chat == me.ID {
			if !again {
				mine++
			}
			continue
		}
		if l.Outside || l.Computer != tx.h.Computer || l.ownClaim(me) {
			// A claim from a chat that read something from outside never
			// holds another off; nor does one from another computer.
			continue
		}
		for i := range made {
			if made[i].overlaps(&l.Claim) {
				return nil, &ClaimConflict{Pattern: made[i].Pattern, Holder: l}
			}
		}
	}
	if mine+len(made) > MaxClaims {
		return nil, refusedf("chat %s would hold %d claims: a chat holds at most %d (conch release some)", me.ID, mine+len(made), MaxClaims)
	}
	if family+len(made) > MaxClaims {
		return nil, refusedf("chat %s and the chats of its family would hold %d claims: together they hold at most %d (conch release some)", me.ID, family+len(made), MaxClaims)
	}
	if all > MaxClaimsAll {
		return nil, refusedf("the home would hold %d live claims: it holds at most %d in all (the person may conch release some)", all, MaxClaimsAll)
	}
	keep := tx.Claims().kept(live, func(cl *Claim) bool {
		return cl.Chat == me.ID && slices.ContainsFunc(made, func(m Claim) bool { return m.Pattern == cl.Pattern })
	})
	keep = append(keep, made...)
	if data, err := json.Marshal(&claimsFile{Claims: keep}); err == nil && len(data) > MaxClaimsBytes {
		return nil, refusedf("claims.json would be %d bytes: it is at most %d (the person may conch release some)", len(data), MaxClaimsBytes)
	}
	tx.Claims().save(keep)
	return made, nil
}

// resolvePattern is a claim's pattern with its links resolved: a path's
// whole, a glob's folder before its first special character (place.Path).
// Every file a glob so resolved matches lies, as written, inside that
// folder; the guard resolves the file it judges likewise.
func resolvePattern(p string, glob bool) string {
	if !glob {
		return place.Path(p)
	}
	lit := literalDir(p)
	return filepath.Join(place.Path(lit), strings.TrimPrefix(p, lit))
}

// literal is the folder or file a claim names before any glob.
func (cl *Claim) literal() string {
	if cl.Glob {
		return literalDir(cl.Pattern)
	}
	return cl.Pattern
}

// holdsWhole says whether a claim holds the whole of dir, or more: it
// names dir or a folder above it, or it is a glob that matches dir, or
// every name inside dir (each of its segments past dir is only * and ?).
func holdsWhole(cl *Claim, dir string) bool {
	if !cl.Glob {
		return within(dir, cl.Pattern)
	}
	if globCovers(cl.Pattern, dir) {
		return true
	}
	if !within(cl.Pattern, dir) {
		return false
	}
	rest := strings.TrimPrefix(strings.TrimPrefix(cl.Pattern, dir), "/")
	for _, seg := range strings.Split(rest, "/") {
		toks, err := globTokens(seg)
		if err != nil || len(toks) == 0 {
			return false
		}
		for _, t := range toks {
			if t.kind != '*' && t.kind != '?' {
				return false
			}
		}
	}
	return true
}

// literalDir is the folder of a glob before its first special character.
func literalDir(p string) string {
	i := strings.IndexAny(p, `*?[\`)
	if i < 0 {
		return p
	}
	return filepath.Dir(p[:i] + "x")
}

// kept are the live claims less those drop says go.
func (dom ClaimsView) kept(live []LiveClaim, drop func(*Claim) bool) []Claim {
	out := []Claim{}
	for i := range live {
		if !drop(&live[i].Claim) {
			out = append(out, live[i].Claim)
		}
	}
	return out
}

// save writes the claims, durably; with none left the record goes,
// so that the hot path finds nothing to read.
func (dom ClaimsTx) save(claims []Claim) {
	tx := dom.tx
	if len(claims) == 0 {
		if f, _ := tx.Claims().read(); f != nil {
			tx.remove(claimsRel)
		}
		return
	}
	sort.SliceStable(claims, func(i, j int) bool { return claims[i].Since.Before(claims[j].Since) })
	tx.put(claimsRel, &claimsFile{Claims: claims}, true)
}

// Release ends claims: the acting chat's that the patterns name (all of
// them when none are named), or, for the person, anyone's. A path named
// releases the claims on it and inside it.
func (dom ClaimsTx) Release(a Actor, patterns []string) ([]Claim, error) {
	tx := dom.tx
	me, err := tx.Chats().acting(a)
	if err != nil {
		return nil, err
	}
	if me == nil && len(patterns) == 0 {
		return nil, usagef("release, as the person, takes the paths or globs to release")
	}
	resolved := make([]string, len(patterns))
	for i, p := range patterns {
		if err := validText("path", p); err != nil {
			return nil, err
		}
		resolved[i] = resolvePattern(filepath.Clean(p), isGlob(p))
	}
	live, err := tx.Claims().live()
	if err != nil {
		return nil, err
	}
	var gone []Claim
	keep := tx.Claims().kept(live, func(cl *Claim) bool {
		if me != nil && cl.Chat != me.ID {
			return false
		}
		named := len(patterns) == 0
		for _, p := range resolved {
			if cl.Pattern == p || (!cl.Glob && (&Claim{Pattern: p, Glob: isGlob(p)}).covers(cl.Pattern)) {
				named = true
			}
		}
		if named {
			gone = append(gone, *cl)
		}
		return named
	})
	f, err := tx.Claims().read()
	if err != nil {
		return nil, err
	}
	if len(gone) > 0 || (f != nil && len(f.Claims) != len(keep)) {
		tx.Claims().save(keep)
	}
	return gone, nil
}

// List are the live claims the actor may see: the person sees all; a
// chat of the person's own sees those of the person's chats; any other
// chat, none.
func (dom ClaimsView) List(a Actor) ([]LiveClaim, error) {
	tx := dom.v
	me, err := tx.Chats().acting(a)
	if err != nil {
		return nil, err
	}
	out := []LiveClaim{}
	if me != nil && !me.trusted() {
		return out, nil
	}
	live, err := tx.Claims().live()
	if err != nil {
		return nil, err
	}
	return append(out, live...), nil
}

// claimsOf are the live claims of one chat (for the chat list).
func claimsOf(live []LiveClaim, id string) []LiveClaim {
	var out []LiveClaim
	for _, l := range live {
		if l.Chat == id {
			out = append(out, l)
		}
	}
	return out
}

// endClaims, at a commit, drops the claims of every chat the transaction
// stopped, archived, deleted or made not the person's: a claim ends with
// them, and does not come back when the chat does.
func (dom ClaimsTx) end() error {
	tx := dom.tx
	var ended []string
	for rel := range tx.recs.dirty {
		id, ok := chatIDOf(rel)
		if !ok {
			continue
		}
		if c, _ := tx.recs.have[rel].(*Chat); c != nil && !c.IsTask() && !claimHolds(c) {
			ended = append(ended, id)
		}
	}
	for rel := range tx.recs.gone {
		if id, ok := chatIDOf(rel); ok {
			ended = append(ended, id)
		}
	}
	if len(ended) == 0 {
		return nil
	}
	f, err := tx.Claims().read()
	if errors.Is(err, store.ErrNotFound) || f == nil {
		return nil
	}
	if err != nil {
		return err
	}
	keep := slices.DeleteFunc(slices.Clone(f.Claims), func(cl Claim) bool { return slices.Contains(ended, cl.Chat) })
	if len(keep) != len(f.Claims) {
		tx.Claims().save(keep)
	}
	return nil
}

// flagDuration is a whole number of minutes or hours as a flag takes it:
// 1m, 2h.
func flagDuration(d time.Duration) string {
	return strings.TrimSuffix(strings.TrimSuffix(d.String(), "0s"), "0m")
}
