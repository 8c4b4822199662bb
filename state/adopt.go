package state

// Adopted sessions (SPEC §7): a chat linked to an outside agent's own
// session file, which `conch scan` reads as it grows, to learn when a
// person typed into that session directly. One link per chat,
// CONCH_HOME/adopted/CHAT.json, holding the scan's cursor: every byte of
// the file before it has been read and judged, none after it.

import (
	"encoding/hex"
	"errors"
	"path/filepath"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/conch-sh/conch/state/digest"
)

// ScanCap is how much of one session file a look reads at most.
const ScanCap = 1 << 20

// MissedLooks is how many looks in a row must find the file gone before
// the link is dropped.
const MissedLooks = 3

// EchoWindow is how many of the last messages conch sent to a chat (and
// prompts its hooks reported) a typed row is compared with.
const EchoWindow = 50

// Adoption is a chat's link to an outside session file.
type Adoption struct {
	Chat     string    `json:"chat"`
	Harness  string    `json:"harness"`
	File     string    `json:"file"`
	Offset   int64     `json:"offset"` // the cursor
	Missed   int       `json:"missed"` // looks in a row that found no file
	Adopted  time.Time `json:"adopted"`
	LastLook time.Time `json:"last_look,omitempty"`
	// Hooked are the prompts the harness's own hooks reported for this
	// chat (the last 50, as hashes of their normalized words: the person's
	// words are not kept): they were recorded then, so a look that finds
	// them in the file does not record them twice.
	Hooked []string `json:"hooked,omitempty"`
}

func adoptionRel(chat string) string { return "adopted/" + chat + ".json" }

// Adopt links the acting chat to an outside session file. The scan starts
// at the file's end: what was there before is not news. Adopting the same
// file again keeps the cursor; another file replaces the link. isFile
// asks this computer whether the file is one a session writes, and its
// size (harness.SessionFile): the harness's file, not conch's.
func (s SessionsTx) Adopt(a Actor, harness, title, file string, isFile func(string) (size int64, err error)) (*Adoption, error) {
	tx := s.tx
	if a.Person() {
		return nil, usagef("adopt links a chat: give --chat ID")
	}
	if !ValidHarness(harness) {
		return nil, usagef("harness %q: not a harness's name", harness)
	}
	if err := validText("file", file); err != nil {
		return nil, err
	}
	if !filepath.IsAbs(file) {
		return nil, usagef("file %s: want an absolute path", file)
	}
	file = filepath.Clean(file)
	size, err := isFile(file)
	if err != nil {
		return nil, usagef("session file %s", err)
	}
	c, err := tx.Chats().Get(a.ID)
	if err != nil {
		return nil, err
	}
	if c.IsTask() {
		return nil, refusedf("a task cannot adopt a session: only a chat")
	}
	if !c.yours() {
		// What a person types there would be recorded as the person's
		// words, in a chat that is not the person's.
		return nil, refusedf("chat %s cannot adopt a session: it is not one of the person's chats", c.ID)
	}
	all, err := tx.Sessions().Adoptions()
	if err != nil {
		return nil, err
	}
	for _, ad := range all {
		if ad.File != file || ad.Chat == c.ID {
			continue
		}
		// A chat that is not (or no longer) the person's cannot hold a
		// file against the person's own: it loses the link.
		holder, err := tx.Chats().Get(ad.Chat)
		if err != nil && !errors.Is(err, ErrNoChat) {
			return nil, err
		}
		if holder != nil && holder.yours() {
			return nil, refusedf("session file %s is adopted by another chat already", file)
		}
		tx.remove(adoptionRel(ad.Chat))
	}
	rel := adoptionRel(c.ID)
	ad, err := load[Adoption](tx, rel)
	if err != nil {
		return nil, err
	}
	if ad != nil && ad.File == file && ad.Harness == harness {
		return ad, nil
	}
	ad = &Adoption{Chat: c.ID, Harness: harness, File: file, Offset: size, Adopted: tx.Now()}
	tx.put(rel, ad, true)
	kind, chat := actorOf(a)
	tx.Log().Record(c, kindAdopted, kind, chat, "adopted the "+title+" session "+filepath.Base(file), "")
	return ad, nil
}

// Adoptions are every chat's links, in the order of their chats' ids.
func (s SessionsView) Adoptions() ([]*Adoption, error) {
	tx := s.v
	ids, err := tx.recordIDs("adopted", ValidID)
	if err != nil {
		return nil, err
	}
	var out []*Adoption
	for _, id := range ids {
		ad, err := load[Adoption](tx, adoptionRel(id))
		if err != nil {
			return nil, err
		}
		if ad != nil {
			out = append(out, ad)
		}
	}
	slices.SortFunc(out, func(x, y *Adoption) int { return idOrder(x.Chat, y.Chat) })
	return out, nil
}

func idOrder(a, b string) int {
	if len(a) != len(b) {
		return len(a) - len(b)
	}
	return strings.Compare(a, b)
}

// HookedPrompt remembers a prompt that a harness's hook reported for a
// chat that also has an adopted session of that harness.
func (s SessionsTx) HookedPrompt(chat, harness, prompt string) error {
	tx := s.tx
	rel := adoptionRel(chat)
	ad, err := load[Adoption](tx, rel)
	if err != nil || ad == nil || ad.Harness != harness {
		return err
	}
	ad.Hooked = append(ad.Hooked, typedHash(prompt))
	if len(ad.Hooked) > EchoWindow {
		ad.Hooked = ad.Hooked[len(ad.Hooked)-EchoWindow:]
	}
	tx.put(rel, ad, true)
	return nil
}

// Look is what one look at an adopted file found. It is made without the
// lock (reading up to a MiB of someone else's file is no reason to hold
// up every hot command) and applied under it.
type Look struct {
	Chat      string
	File      string
	From      int64 // the cursor it looked from
	Next      int64 // the cursor past the whole rows read
	Harness   string
	Title     string   // the harness's own name (Claude Code), for the log's words
	Data      []byte   // the whole rows read
	Typed     []string // the rows of Data a person typed, as the harness keeps them
	Missing   bool     // the file is gone
	Blocked   bool     // one row is longer than ScanCap: the cursor cannot move
	Restarted bool     // the file was shorter than the cursor: replaced, read from its start
	Err       error    // it could not be read (other than gone)
}

// ScanResult is what one look did for one chat.
type ScanResult struct {
	Chat      string `json:"chat"`
	File      string `json:"file"`
	Read      int64  `json:"read"`   // bytes judged this look
	Offset    int64  `json:"offset"` // the cursor now
	Messages  int    `json:"messages"`
	Echoes    int    `json:"echoes"` // typed rows that were conch's own words
	Missing   bool   `json:"missing"`
	Missed    int    `json:"missed"`
	Dropped   bool   `json:"dropped"`
	Blocked   bool   `json:"blocked"`
	Restarted bool   `json:"restarted"`
	Skipped   bool   `json:"skipped"` // another scan moved the cursor first
	Error     string `json:"error,omitempty"`
}

// ApplyLook records what a look found: a human_direct_message for each row
// a person typed (not conch's own words come back), the cursor moved past
// the rows read; a missed look counted, and at the third in a row
// upstream_missing recorded and the link dropped.
func (s SessionsTx) ApplyLook(l Look) (ScanResult, error) {
	tx := s.tx
	res := ScanResult{Chat: l.Chat, File: l.File, Offset: l.From}
	rel := adoptionRel(l.Chat)
	ad, err := load[Adoption](tx, rel)
	if err != nil {
		return res, err
	}
	if ad == nil || ad.File != l.File || ad.Offset != l.From || ad.Harness != l.Harness {
		res.Skipped = true
		return res, nil
	}
	c, err := tx.Chats().Get(l.Chat)
	if errors.Is(err, ErrNoChat) {
		// The chat was deleted: its link goes with it.
		tx.remove(rel)
		res.Dropped = true
		return res, nil
	}
	if err != nil {
		return res, err
	}
	ad.LastLook = tx.Now()
	switch {
	case l.Err != nil:
		res.Error = l.Err.Error()
		return res, nil
	case l.Missing:
		ad.Missed++
		res.Missing, res.Missed = true, ad.Missed
		if ad.Missed >= MissedLooks {
			tx.remove(rel)
			res.Dropped = true
			tx.Log().Record(c, kindUpstreamMissing, ActorSystem, "", l.Title+" session "+filepath.Base(ad.File)+" is gone", "")
			return res, nil
		}
		tx.put(rel, ad, true)
		return res, nil
	}
	ad.Missed = 0
	res.Blocked, res.Restarted = l.Blocked, l.Restarted
	echoes, err := tx.Sessions().echoes(c)
	if err != nil {
		return res, err
	}
	for _, t := range l.Typed {
		if isEcho(t, echoes) || slices.Contains(ad.Hooked, typedHash(t)) {
			res.Echoes++
			continue
		}
		res.Messages++
		tx.Log().Record(c, kindHuman, ActorHuman, "", "the person typed in the "+l.Title+" session directly", "")
	}
	res.Read = l.Next - l.From
	if l.Restarted {
		res.Read = l.Next
	}
	ad.Offset = l.Next
	res.Offset = ad.Offset
	tx.put(rel, ad, true)
	return res, nil
}

// echoes are the words that came into the session from conch itself (the
// last messages it sent the chat, normalized).
func (s SessionsView) echoes(c *Chat) ([]string, error) {
	tx := s.v
	var out []string
	sent, err := tx.Sessions().sentTo(c, EchoWindow)
	if err != nil {
		return nil, err
	}
	for _, m := range sent {
		if n := normalizeTyped(m.Text); n != "" {
			out = append(out, n)
		}
	}
	return out, nil
}

// sentTo are the last n messages conch sent to the chat (its cards are
// every message to or from it, oldest first).
func (s SessionsView) sentTo(c *Chat, n int) ([]*Message, error) {
	tx := s.v
	var out []*Message
	for i := len(c.Cards) - 1; i >= 0 && len(out) < n; i-- {
		m, err := tx.Messages().record(c.Cards[i])
		if err != nil {
			return nil, err
		}
		if m != nil && m.To == c.ID {
			out = append(out, m)
		}
	}
	return out, nil
}

// isEcho says whether a typed row is one of the echoes: the same words, or
// words that hold a whole long one (a harness may wrap what it passes on,
// "Stop hook feedback: …"). A short one must match whole: "ok" inside a
// person's sentence is still the person's.
func isEcho(typed string, echoes []string) bool {
	t := normalizeTyped(typed)
	for _, e := range echoes {
		if e == "" {
			continue
		}
		if t == e || (utf8.RuneCountInString(e) >= 20 && strings.Contains(t, e)) {
			return true
		}
	}
	return false
}

// typedHash stands for words without keeping them.
func typedHash(s string) string {
	sum := digest.Sum256([]byte(normalizeTyped(s)))
	return hex.EncodeToString(sum[:16])
}

// normalizeTyped folds case and white space, for comparing words.
func normalizeTyped(s string) string {
	return strings.ToLower(strings.Join(strings.Fields(s), " "))
}
