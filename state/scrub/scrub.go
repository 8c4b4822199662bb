// Package scrub takes secrets out of words that cross between chats (SPEC
// §8): the values of the environment variables that `[scrub] env` names,
// and anything shaped like a key: cloud and API keys and tokens, private
// key blocks, JWTs, password=… pairs.
//
// The shapes are data, rules.toml in gitleaks' rule format, embedded in the
// binary and parsed and compiled on the first Scrub, never before: a
// command that does not scrub must not pay for the rules, so this package
// has no init function and no package-level regexp.MustCompile.
package scrub

import (
	_ "embed"
	"errors"
	"fmt"
	"math"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/BurntSushi/toml"

	"github.com/conch-sh/conch/state/fold"
)

// Removed is what a secret is replaced with. It holds no angle bracket, so
// it is left alone by the quoting of §8.
const Removed = "[secret removed]"

// minValue is the shortest environment value that is taken out: shorter
// ones ("1", "yes", "dev") would eat ordinary words.
const minValue = 4

//go:embed rules.toml
var rulesTOML string

// Scrubber takes secrets out of text. It is safe for concurrent use; the
// zero value and a nil *Scrubber take out key shapes only.
type Scrubber struct {
	values []string // secret values, longest first
}

// New returns a Scrubber that also takes out each of envValues, the values
// of the environment variables the configuration names. Empty and very
// short values (under 4 bytes) are ignored. It does not load the rules.
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
// first, and leaves key shapes alone: it never loads the rules. Like
// Scrub, it looks in the text's fold.
func (s *Scrubber) TakeOutValues(text string) string {
	if s == nil || len(s.values) == 0 {
		return text
	}
	return s.takeOut(text, func(t string) []span { return s.valueSpans(t, nil) })
}

// Scrub returns text with every secret it finds replaced by Removed. Text
// with no secret is returned as is. The first call parses and compiles the
// rule set.
//
// It looks in the text's fold (state/fold): format characters and other
// unseen runes taken out, compatibility forms and look-alikes folded, so a
// token split by a zero-width space or written in full-width letters is
// still a token; what it finds there is taken out of the text itself.
func (s *Scrubber) Scrub(text string) string {
	return s.takeOut(text, func(t string) []span { return ruleSet().find(t, s.valueSpans(t, nil)) })
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

// Check loads the rule set and reports any rule that could not be used
// (a regex Go cannot compile), or a rule file that cannot be read. Scrub
// works without calling it; `conch doctor` and the tests do.
func Check() error {
	return ruleSet().err
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

var (
	loadOnce sync.Once
	loaded   *rules // nil until the first Scrub or Check
)

func ruleSet() *rules {
	loadOnce.Do(func() { loaded = load(rulesTOML) })
	return loaded
}

// rules is the compiled rule set.
type rules struct {
	list  []*rule
	allow []*allowlist // the file's global allowlists
	err   error        // rules that were dropped, or why the file could not be read
}

type rule struct {
	id          string
	re          *regexp.Regexp
	secretGroup int
	entropy     float64
	keywords    []string // lower case
	allow       []*allowlist
}

type allowlist struct {
	target    string // "secret" (the default), "match" or "line"
	regexes   []*regexp.Regexp
	stopwords []string // lower case
}

// The file's shape: gitleaks' configuration format, of which scrub uses
// what makes sense without files and commits.
type fileConfig struct {
	Rules      []fileRule      `toml:"rules"`
	Allowlist  *fileAllowlist  `toml:"allowlist"`
	Allowlists []fileAllowlist `toml:"allowlists"`
}

type fileRule struct {
	ID          string          `toml:"id"`
	Regex       string          `toml:"regex"`
	Path        string          `toml:"path"`
	SecretGroup int             `toml:"secretGroup"`
	Entropy     float64         `toml:"entropy"`
	Keywords    []string        `toml:"keywords"`
	Allowlist   *fileAllowlist  `toml:"allowlist"`
	Allowlists  []fileAllowlist `toml:"allowlists"`
}

type fileAllowlist struct {
	Condition   string   `toml:"condition"`
	RegexTarget string   `toml:"regexTarget"`
	Regexes     []string `toml:"regexes"`
	Stopwords   []string `toml:"stopwords"`
	Paths       []string `toml:"paths"`
	Commits     []string `toml:"commits"`
}

// load parses and compiles a rule file. A rule whose regex does not compile
// is dropped and named in err; the others still work.
func load(data string) *rules {
	var fc fileConfig
	if _, err := toml.Decode(data, &fc); err != nil {
		return &rules{err: fmt.Errorf("scrub rules: %w", err)}
	}
	rs := &rules{}
	var errs []error
	rs.allow = compileAllowlists(fc.Allowlist, fc.Allowlists, "global", &errs)
	for _, fr := range fc.Rules {
		if fr.Regex == "" || fr.Path != "" {
			continue // a rule about file names; there are none here
		}
		re, err := regexp.Compile(fr.Regex)
		if err != nil {
			errs = append(errs, fmt.Errorf("scrub rule %s: %w", fr.ID, err))
			continue
		}
		r := &rule{id: fr.ID, re: re, secretGroup: fr.SecretGroup, entropy: fr.Entropy}
		for _, k := range fr.Keywords {
			r.keywords = append(r.keywords, strings.ToLower(k))
		}
		r.allow = compileAllowlists(fr.Allowlist, fr.Allowlists, fr.ID, &errs)
		rs.list = append(rs.list, r)
	}
	rs.err = errors.Join(errs...)
	return rs
}

func compileAllowlists(one *fileAllowlist, many []fileAllowlist, owner string, errs *[]error) []*allowlist {
	if one != nil {
		many = append([]fileAllowlist{*one}, many...)
	}
	var out []*allowlist
	for _, fa := range many {
		// Paths and commits never match text, so an allowlist that needs
		// them as well as its regexes never applies.
		if strings.EqualFold(fa.Condition, "AND") && (len(fa.Paths) > 0 || len(fa.Commits) > 0) {
			continue
		}
		al := &allowlist{target: strings.ToLower(fa.RegexTarget)}
		for _, x := range fa.Regexes {
			re, err := regexp.Compile(x)
			if err != nil {
				*errs = append(*errs, fmt.Errorf("scrub allowlist of %s: %w", owner, err))
				continue
			}
			al.regexes = append(al.regexes, re)
		}
		for _, w := range fa.Stopwords {
			al.stopwords = append(al.stopwords, strings.ToLower(w))
		}
		if len(al.regexes) > 0 || len(al.stopwords) > 0 {
			out = append(out, al)
		}
	}
	return out
}

// find appends to spans the secrets the rules find in text.
func (rs *rules) find(text string, spans []span) []span {
	if len(rs.list) == 0 || text == "" {
		return spans
	}
	lower := strings.ToLower(text)
	for _, r := range rs.list {
		if !r.wanted(lower) {
			continue
		}
		for _, m := range r.re.FindAllStringSubmatchIndex(text, -1) {
			a, b := r.secret(m)
			if a < 0 || a == b {
				continue
			}
			secret := text[a:b]
			if r.entropy != 0 && entropy(secret) <= r.entropy {
				continue
			}
			if allowed(r.allow, text, m, secret) || allowed(rs.allow, text, m, secret) {
				continue
			}
			spans = append(spans, span{a, b})
		}
	}
	return spans
}

// wanted reports whether one of the rule's keywords is in the lower-cased
// text: a substring search is far cheaper than the regex, which runs only
// on a hit. A rule without keywords always runs.
func (r *rule) wanted(lower string) bool {
	if len(r.keywords) == 0 {
		return true
	}
	for _, k := range r.keywords {
		if strings.Contains(lower, k) {
			return true
		}
	}
	return false
}

// secret returns the byte range of the secret in a match: the rule's
// secretGroup, else the first non-empty group, else the whole match (as
// gitleaks does).
func (r *rule) secret(m []int) (int, int) {
	if g := r.secretGroup; g > 0 {
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
