// Package scrub takes secrets out of words that cross between chats (SPEC
// §8): the values of the environment variables that `[scrub] env` names,
// and anything shaped like a key: cloud and API keys and tokens, private
// key blocks, JWTs, password=… pairs.
//
// The shapes are data, rules.toml in gitleaks' rule format, turned into Go
// (rules_gen.go, kept true by TestRuleTable) so that nothing is decoded at
// run time. Scrubbing costs nothing where there is nothing to scrub: one
// pass over the text finds the rules' keywords (as gitleaks does), and only
// a rule whose keyword occurs is compiled, on its first use, and run. This
// package has no init function and no package-level regexp.MustCompile.
package scrub

import (
	"errors"
	"fmt"
	"math"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/conch-sh/conch/state/fold"
)

// Removed is what a secret is replaced with. It holds no angle bracket, so
// it is left alone by the quoting of §8.
const Removed = "[secret removed]"

// minValue is the shortest environment value that is taken out: shorter
// ones ("1", "yes", "dev") would eat ordinary words.
const minValue = 4

// Scrubber takes secrets out of text. It is safe for concurrent use; the
// zero value and a nil *Scrubber take out key shapes only.
type Scrubber struct {
	values []string // secret values, longest first
}

// New returns a Scrubber that also takes out each of envValues, the values
// of the environment variables the configuration names. Empty and very
// short values (under 4 bytes) are ignored. It compiles no rule.
func New(envValues []string) *Scrubber {
	var vs []string
	for _, v := range envValues {
		for _, w := range []string{v, strings.TrimSpace(v), fold.String(strings.TrimSpace(v))} {
			if len(w) >= minValue && !slices.Contains(vs, w) {
				vs = append(vs, w)
			}
		}
	}
	// Longest first, so that a value holding another is found whole.
	slices.SortStableFunc(vs, func(a, b string) int { return len(b) - len(a) })
	return &Scrubber{values: vs}
}

// TakeOutValues replaces each secret value in text by Removed, longest
// first, and leaves key shapes alone: it never runs a rule. Like
// Scrub, it looks in the text's fold.
func (s *Scrubber) TakeOutValues(text string) string {
	if s == nil || len(s.values) == 0 {
		return text
	}
	return s.takeOut(text, func(t string) []span { return s.valueSpans(t, nil) })
}

// Scrub returns text with every secret it finds replaced by Removed. Text
// with no secret is returned as is. A rule is compiled the first time a
// text holds one of its keywords.
//
// It looks in the text's fold (state/fold): format characters and other
// unseen runes taken out, compatibility forms and look-alikes folded, so a
// token split by a zero-width space or written in full-width letters is
// still a token; what it finds there is taken out of the text itself.
func (s *Scrubber) Scrub(text string) string {
	return s.takeOut(text, func(t string) []span { return builtin.find(t, s.valueSpans(t, nil)) })
}

// takeOut replaces what find finds in text's fold, in the text.
func (s *Scrubber) takeOut(text string, find func(string) []span) string {
	if fold.ASCII(text) {
		spans := find(text)
		if len(spans) == 0 {
			return text
		}
		return replace(text, spans)
	}
	m := fold.Map(text)
	spans := find(m.Folded)
	if len(spans) == 0 {
		return text
	}
	for i, sp := range spans {
		spans[i].a, spans[i].b = m.Span(sp.a, sp.b)
	}
	return replace(text, spans)
}

// valueSpans appends where the secret values are in text.
func (s *Scrubber) valueSpans(text string, spans []span) []span {
	if s == nil {
		return spans
	}
	for _, v := range s.values {
		for at := 0; ; {
			i := strings.Index(text[at:], v)
			if i < 0 {
				break
			}
			spans = append(spans, span{at + i, at + i + len(v)})
			at += i + len(v)
		}
	}
	return spans
}

// Check compiles every rule and reports any that could not be used (a
// regex Go cannot compile). Scrub works without calling it; the tests do.
func Check() error {
	return builtin.check()
}

// span is a byte range [a, b) of the text that holds a secret.
type span struct{ a, b int }

// replace writes text with each span, merged with any it overlaps, replaced
// by Removed.
func replace(text string, spans []span) string {
	slices.SortFunc(spans, func(x, y span) int {
		if x.a != y.a {
			return x.a - y.a
		}
		return x.b - y.b
	})
	var b strings.Builder
	b.Grow(len(text))
	last := 0 // end of what has been written or removed
	for i := 0; i < len(spans); {
		a, end := spans[i].a, spans[i].b
		for i++; i < len(spans) && spans[i].a < end; i++ {
			end = max(end, spans[i].b)
		}
		if a < last {
			a = last
		}
		b.WriteString(text[last:a])
		b.WriteString(Removed)
		last = end
	}
	b.WriteString(text[last:])
	return b.String()
}

// ruleSpec is a rule as rules.toml says it, in Go (rules_gen.go).
type ruleSpec struct {
	id          string
	regex       string
	secretGroup int
	entropy     float64
	keywords    []string // lower case, ASCII
	needs       string   // bytes one of which every match holds; "" for none known
	allow       []allowSpec
}

// allowSpec is an allowlist as rules.toml says it.
type allowSpec struct {
	target    string // "secret" (the default), "match" or "line"
	regexes   []string
	stopwords []string // lower case
}

// keywordSpec is one keyword and the rules (indexes into the set's specs)
// that it wakes.
type keywordSpec struct {
	word  string
	rules []uint8
}

// set is a rule set: its specs, the keyword index over them, and each rule
// compiled the first time it is wanted.
type set struct {
	specs  []ruleSpec
	global []allowSpec
	// keywords sorted; those starting with byte b are
	// keywords[keywordAt[b]:keywordAt[b+1]].
	keywords  []keywordSpec
	keywordAt *[257]uint16

	compiled     []compiled // one per spec
	globalOnce   sync.Once
	globalAllow  []*allowlist
	globalErrors error
}

// builtin is conch's own rule set, generated from rules.toml: static data,
// so that nothing is built before the first rule is wanted.
var builtin = set{
	specs: ruleTable[:], global: globalAllowTable, keywords: keywordTable[:], keywordAt: &keywordIndex,
	compiled: builtinCompiled[:],
}

var builtinCompiled [ruleCount]compiled

// compiled is one rule, compiled on its first use.
type compiled struct {
	once  sync.Once
	re    *regexp.Regexp
	allow []*allowlist
	err   error
}

type allowlist struct {
	target    string
	regexes   []*regexp.Regexp
	stopwords []string
}

// rule returns rule i compiled, or nil if its regex does not compile.
func (rs *set) rule(i int) *compiled {
	c := &rs.compiled[i]
	c.once.Do(func() {
		sp := &rs.specs[i]
		re, err := regexp.Compile(sp.regex)
		if err != nil {
			c.err = fmt.Errorf("scrub rule %s: %w", sp.id, err)
			return
		}
		var errs []error
		c.re, c.allow = re, compileAllowlists(sp.allow, sp.id, &errs)
		c.err = errors.Join(errs...)
	})
	if c.re == nil {
		return nil
	}
	return c
}

// globals returns the set's own allowlists, compiled on first use.
func (rs *set) globals() []*allowlist {
	rs.globalOnce.Do(func() {
		var errs []error
		rs.globalAllow = compileAllowlists(rs.global, "global", &errs)
		rs.globalErrors = errors.Join(errs...)
	})
	return rs.globalAllow
}

// check compiles every rule and says which could not be.
func (rs *set) check() error {
	rs.globals()
	errs := []error{rs.globalErrors}
	for i := range rs.specs {
		rs.rule(i)
		errs = append(errs, rs.compiled[i].err)
	}
	return errors.Join(errs...)
}

func compileAllowlists(specs []allowSpec, owner string, errs *[]error) []*allowlist {
	var out []*allowlist
	for _, sp := range specs {
		al := &allowlist{target: sp.target, stopwords: sp.stopwords}
		for _, x := range sp.regexes {
			re, err := regexp.Compile(x)
			if err != nil {
				*errs = append(*errs, fmt.Errorf("scrub allowlist of %s: %w", owner, err))
				continue
			}
			al.regexes = append(al.regexes, re)
		}
		if len(al.regexes) > 0 || len(al.stopwords) > 0 {
			out = append(out, al)
		}
	}
	return out
}

// maxRules is how many rules a set holds at most: the keyword index names
// a rule by a byte.
const maxRules = 256

// wanted marks, in one pass over text, each rule one of whose keywords
// occurs in it, case-insensitively. A rule without keywords is always
// wanted.
func (rs *set) wanted(text string, want *[maxRules]bool) bool {
	any := false
	for i := range rs.specs {
		if len(rs.specs[i].keywords) == 0 {
			want[i], any = true, true
		}
	}
	if !fold.ASCII(text) {
		// The keywords are ASCII; a rune whose lower case is ASCII (the
		// Kelvin sign's k) counts as that letter.
		text = strings.ToLower(text)
	}
	for i := 0; i < len(text); i++ {
		c := lowerASCII(text[i])
		ks := rs.keywords[rs.keywordAt[c]:rs.keywordAt[int(c)+1]]
		if len(ks) == 0 {
			continue
		}
		next := byte(0) // the second byte; the bucket is sorted by it
		if i+1 < len(text) {
			next = lowerASCII(text[i+1])
		}
		for _, k := range ks {
			if len(k.word) > 1 && k.word[1] != next {
				if k.word[1] > next {
					break
				}
				continue
			}
			if hasPrefixFold(text[i:], k.word) {
				for _, r := range k.rules {
					want[r] = true
				}
				any = true
			}
		}
	}
	return any
}

func lowerASCII(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// hasPrefixFold reports whether s starts with word (lower case ASCII),
// ASCII case ignored.
func hasPrefixFold(s, word string) bool {
	if len(s) < len(word) {
		return false
	}
	for j := 1; j < len(word); j++ { // byte 0 is known to match
		if lowerASCII(s[j]) != word[j] {
			return false
		}
	}
	return true
}

// find appends to spans the secrets the rules find in text.
func (rs *set) find(text string, spans []span) []span {
	if text == "" {
		return spans
	}
	var want [maxRules]bool
	if !rs.wanted(text, &want) {
		return spans
	}
	for i := range rs.specs {
		if !want[i] || !strings.ContainsAny(text, rs.specs[i].needs) && rs.specs[i].needs != "" {
			continue
		}
		r := rs.rule(i)
		if r == nil {
			continue
		}
		sp := &rs.specs[i]
		for _, m := range r.re.FindAllStringSubmatchIndex(text, -1) {
			a, b := secretOf(sp.secretGroup, m)
			if a < 0 || a == b {
				continue
			}
			secret := text[a:b]
			if sp.entropy != 0 && entropy(secret) <= sp.entropy {
				continue
			}
			if allowed(r.allow, text, m, secret) || allowed(rs.globals(), text, m, secret) {
				continue
			}
			spans = append(spans, span{a, b})
		}
	}
	return spans
}

// secretOf returns the byte range of the secret in a match: the rule's
// secretGroup, else the first non-empty group, else the whole match (as
// gitleaks does).
func secretOf(group int, m []int) (int, int) {
	if g := group; g > 0 {
		if 2*g+1 >= len(m) {
			return -1, -1
		}
		return m[2*g], m[2*g+1]
	}
	for g := 1; 2*g+1 < len(m); g++ {
		if m[2*g] >= 0 && m[2*g] < m[2*g+1] {
			return m[2*g], m[2*g+1]
		}
	}
	return m[0], m[1]
}

// allowed reports whether an allowlist marks the secret found by match m
// as harmless.
func allowed(als []*allowlist, text string, m []int, secret string) bool {
	for _, al := range als {
		target := secret
		switch al.target {
		case "match":
			target = text[m[0]:m[1]]
		case "line":
			start := strings.LastIndexByte(text[:m[0]], '\n') + 1
			end := len(text)
			if i := strings.IndexByte(text[m[1]:], '\n'); i >= 0 {
				end = m[1] + i
			}
			target = text[start:end]
		}
		for _, re := range al.regexes {
			if re.MatchString(target) {
				return true
			}
		}
		if len(al.stopwords) > 0 {
			ls := strings.ToLower(secret)
			for _, w := range al.stopwords {
				if strings.Contains(ls, w) {
					return true
				}
			}
		}
	}
	return false
}

// entropy is the Shannon entropy of s in bits per byte.
func entropy(s string) float64 {
	var counts [256]int
	for i := 0; i < len(s); i++ {
		counts[s[i]]++
	}
	n := float64(len(s))
	var h float64
	for _, c := range counts {
		if c > 0 {
			p := float64(c) / n
			h -= p * math.Log2(p)
		}
	}
	return h
}
