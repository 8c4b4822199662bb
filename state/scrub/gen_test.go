package scrub

import (
	_ "embed"
	"errors"
	"flag"
	"fmt"
	"go/format"
	"os"
	"regexp"
	"regexp/syntax"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode"

	"github.com/pelletier/go-toml/v2"
)

// rules.toml is the source of rules_gen.go: TestRuleTable makes the Go from
// it and fails while the two disagree.
//
//	go test ./state/scrub -run TestRuleTable -update-rules

//go:embed rules.toml
var rulesTOML string

var updateRules = flag.Bool("update-rules", false, "write rules_gen.go from rules.toml")

func TestRuleTable(t *testing.T) {
	specs, global, err := parseRules(rulesTOML)
	if err != nil {
		t.Fatal(err)
	}
	src, err := generate(specs, global)
	if err != nil {
		t.Fatal(err)
	}
	if *updateRules {
		if err := os.WriteFile("rules_gen.go", src, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	have, err := os.ReadFile("rules_gen.go")
	if err != nil {
		t.Fatal(err)
	}
	if string(have) != string(src) {
		t.Fatal("rules_gen.go is not what rules.toml says: go test ./state/scrub -run TestRuleTable -update-rules")
	}
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

// parseRules reads a rule file in gitleaks' format. A rule about file names
// is left out; a rule or allowlist whose regex Go cannot compile is named
// in the error.
func parseRules(data string) ([]ruleSpec, []allowSpec, error) {
	var fc fileConfig
	if err := toml.Unmarshal([]byte(data), &fc); err != nil {
		return nil, nil, fmt.Errorf("scrub rules: %w", err)
	}
	var errs []error
	global := allowSpecs(fc.Allowlist, fc.Allowlists, "global", &errs)
	var specs []ruleSpec
	for _, fr := range fc.Rules {
		if fr.Regex == "" || fr.Path != "" {
			continue // a rule about file names; there are none here
		}
		if _, err := regexp.Compile(fr.Regex); err != nil {
			errs = append(errs, fmt.Errorf("scrub rule %s: %w", fr.ID, err))
			continue
		}
		sp := ruleSpec{id: fr.ID, regex: fr.Regex, secretGroup: fr.SecretGroup, entropy: fr.Entropy, needs: needsOf(fr.Regex)}
		for _, k := range fr.Keywords {
			k = strings.ToLower(k)
			if k == "" || !isASCII(k) {
				errs = append(errs, fmt.Errorf("scrub rule %s: keyword %q is not ASCII", fr.ID, k))
				continue
			}
			if !slices.Contains(sp.keywords, k) {
				sp.keywords = append(sp.keywords, k)
			}
		}
		sp.allow = allowSpecs(fr.Allowlist, fr.Allowlists, fr.ID, &errs)
		specs = append(specs, sp)
	}
	if len(specs) > maxRules {
		errs = append(errs, fmt.Errorf("scrub rules: %d rules, at most %d", len(specs), maxRules))
	}
	return specs, global, errors.Join(errs...)
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

func allowSpecs(one *fileAllowlist, many []fileAllowlist, owner string, errs *[]error) []allowSpec {
	if one != nil {
		many = append([]fileAllowlist{*one}, many...)
	}
	var out []allowSpec
	for _, fa := range many {
		// Paths and commits never match text, so an allowlist that needs
		// them as well as its regexes never applies.
		if strings.EqualFold(fa.Condition, "AND") && (len(fa.Paths) > 0 || len(fa.Commits) > 0) {
			continue
		}
		al := allowSpec{target: strings.ToLower(fa.RegexTarget)}
		for _, x := range fa.Regexes {
			if _, err := regexp.Compile(x); err != nil {
				*errs = append(*errs, fmt.Errorf("scrub allowlist of %s: %w", owner, err))
				continue
			}
			al.regexes = append(al.regexes, x)
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

// index sorts the keywords of specs and says where each first byte's begin.
func index(specs []ruleSpec) ([]keywordSpec, *[257]uint16) {
	var kws []keywordSpec
	for i, sp := range specs {
		for _, k := range sp.keywords {
			j := slices.IndexFunc(kws, func(kw keywordSpec) bool { return kw.word == k })
			if j < 0 {
				kws = append(kws, keywordSpec{word: k})
				j = len(kws) - 1
			}
			kws[j].rules = append(kws[j].rules, uint8(i))
		}
	}
	slices.SortFunc(kws, func(a, b keywordSpec) int { return strings.Compare(a.word, b.word) })
	var at [257]uint16
	for b := 0; b <= 256; b++ {
		at[b] = uint16(slices.IndexFunc(kws, func(kw keywordSpec) bool { return int(kw.word[0]) >= b }))
		if b == 256 || at[b] == 0xffff {
			at[b] = uint16(len(kws))
		}
	}
	return kws, &at
}

// newSet is a rule set of specs, as builtin is of rules_gen.go.
func newSet(specs []ruleSpec, global []allowSpec) *set {
	kws, at := index(specs)
	return &set{specs: specs, global: global, keywords: kws, keywordAt: at, compiled: make([]compiled, len(specs))}
}

// loadSet parses a rule file into a set; for the tests of the format.
func loadSet(data string) (*set, error) {
	specs, global, err := parseRules(data)
	return newSet(specs, global), err
}

// generate writes rules_gen.go's source.
func generate(specs []ruleSpec, global []allowSpec) ([]byte, error) {
	var b strings.Builder
	b.WriteString("// Code generated by TestRuleTable (go test ./state/scrub -run TestRuleTable -update-rules); DO NOT EDIT.\n\n")
	b.WriteString("package scrub\n\n")
	b.WriteString("// ruleTable is rules.toml in Go: nothing is decoded at run time, and a\n")
	b.WriteString("// rule is compiled only when a text holds one of its keywords.\n")
	fmt.Fprintf(&b, "// ruleCount is how many rules there are.\nconst ruleCount = %d\n\n", len(specs))
	b.WriteString("var ruleTable = [ruleCount]ruleSpec{\n")
	for _, sp := range specs {
		fmt.Fprintf(&b, "{id: %s, regex: %s", strconv.Quote(sp.id), quote(sp.regex))
		if sp.secretGroup != 0 {
			fmt.Fprintf(&b, ", secretGroup: %d", sp.secretGroup)
		}
		if sp.entropy != 0 {
			fmt.Fprintf(&b, ", entropy: %s", strconv.FormatFloat(sp.entropy, 'g', -1, 64))
		}
		if len(sp.keywords) > 0 {
			fmt.Fprintf(&b, ", keywords: %s", quoteAll(sp.keywords)[0])
		}
		if sp.needs != "" {
			fmt.Fprintf(&b, ", needs: %s", strconv.Quote(sp.needs))
		}
		if len(sp.allow) > 0 {
			fmt.Fprintf(&b, ", allow: %s", allowSource(sp.allow))
		}
		b.WriteString("},\n")
	}
	b.WriteString("}\n\n")
	if len(global) == 0 {
		b.WriteString("var globalAllowTable []allowSpec\n\n")
	} else {
		fmt.Fprintf(&b, "var globalAllowTable = %s\n\n", allowSource(global))
	}
	kws, at := index(specs)
	b.WriteString("// keywordTable is every rule's keywords, sorted, with the rules each wakes.\n")
	fmt.Fprintf(&b, "var keywordTable = [%d]keywordSpec{\n", len(kws))
	for _, k := range kws {
		var rs []string
		for _, r := range k.rules {
			rs = append(rs, strconv.Itoa(int(r)))
		}
		fmt.Fprintf(&b, "{%s, []uint8{%s}},\n", strconv.Quote(k.word), strings.Join(rs, ", "))
	}
	b.WriteString("}\n\n")
	b.WriteString("// keywordIndex: the keywords starting with byte c are keywordTable[keywordIndex[c]:keywordIndex[c+1]].\n")
	b.WriteString("var keywordIndex = [257]uint16{")
	for i, n := range at {
		if i%16 == 0 {
			b.WriteString("\n")
		}
		fmt.Fprintf(&b, "%d, ", n)
	}
	b.WriteString("\n}\n")
	return format.Source([]byte(b.String()))
}

// quote writes s as a raw string where it can be one.
func quote(s string) string {
	if !strings.Contains(s, "`") && !strings.ContainsAny(s, "\r") && strconv.CanBackquote(s) {
		return "`" + s + "`"
	}
	return strconv.Quote(s)
}

func quoteAll(list []string) []string {
	out := make([]string, len(list))
	for i, s := range list {
		out[i] = strconv.Quote(s)
	}
	return []string{"[]string{" + strings.Join(out, ", ") + "}"}
}

func allowSource(list []allowSpec) string {
	if len(list) == 0 {
		return "[]allowSpec(nil)"
	}
	var b strings.Builder
	b.WriteString("[]allowSpec{")
	for _, al := range list {
		b.WriteString("{")
		var parts []string
		if al.target != "" {
			parts = append(parts, "target: "+strconv.Quote(al.target))
		}
		if len(al.regexes) > 0 {
			var rs []string
			for _, r := range al.regexes {
				rs = append(rs, quote(r))
			}
			parts = append(parts, "regexes: []string{"+strings.Join(rs, ", ")+"}")
		}
		if len(al.stopwords) > 0 {
			parts = append(parts, "stopwords: "+quoteAll(al.stopwords)[0])
		}
		b.WriteString(strings.Join(parts, ", "))
		b.WriteString("}, ")
	}
	b.WriteString("}")
	return b.String()
}

// needsOf is a few bytes of which every match of the regex holds one, read
// from its syntax tree; "" when there is no such small set. A rule is not
// compiled for a text that holds none of them.
func needsOf(regex string) string {
	re, err := syntax.Parse(regex, syntax.Perl)
	if err != nil {
		return ""
	}
	set, ok := needs(re.Simplify())
	if !ok {
		return ""
	}
	var b []byte
	for c := range 256 {
		if set[c] {
			b = append(b, byte(c))
		}
	}
	return string(b)
}

// maxNeeds is the largest set of bytes worth checking for.
const maxNeeds = 12

type byteSet [256]bool

func (s *byteSet) size() int {
	n := 0
	for _, b := range s {
		if b {
			n++
		}
	}
	return n
}

// cost is how often a text holds one of the set's bytes, roughly: letters,
// digits and a path's punctuation are everywhere, an = or a : is rare in
// a title or a file name. The cheapest set is the one worth checking.
func (s *byteSet) cost() int {
	n := 0
	for c, b := range s {
		switch {
		case !b:
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
			n += 10
		case strings.IndexByte("./-_ ", byte(c)) >= 0:
			n += 8
		default:
			n++
		}
	}
	return n
}

// needs returns a set of bytes one of which every match of re holds.
func needs(re *syntax.Regexp) (byteSet, bool) {
	var set byteSet
	switch re.Op {
	case syntax.OpLiteral:
		best, found := byteSet{}, false
		for _, r := range re.Rune {
			one, ok := runeBytes(r, r, re.Flags&syntax.FoldCase != 0)
			if ok && (!found || one.cost() < best.cost()) {
				best, found = one, true
			}
		}
		return best, found
	case syntax.OpCharClass:
		for i := 0; i+1 < len(re.Rune); i += 2 {
			one, ok := runeBytes(re.Rune[i], re.Rune[i+1], false)
			if !ok {
				return set, false
			}
			for c, b := range one {
				set[c] = set[c] || b
			}
		}
		return set, set.size() > 0 && set.size() <= maxNeeds
	case syntax.OpCapture, syntax.OpPlus:
		return needs(re.Sub[0])
	case syntax.OpRepeat:
		if re.Min >= 1 {
			return needs(re.Sub[0])
		}
	case syntax.OpConcat:
		found := false
		for _, sub := range re.Sub {
			if one, ok := needs(sub); ok && (!found || one.cost() < set.cost()) {
				set, found = one, true
			}
		}
		return set, found
	case syntax.OpAlternate:
		for _, sub := range re.Sub {
			one, ok := needs(sub)
			if !ok {
				return set, false
			}
			for c, b := range one {
				set[c] = set[c] || b
			}
		}
		return set, set.size() <= maxNeeds
	}
	return set, false
}

// runeBytes is the bytes the runes lo to hi (ASCII only) are, with their
// other case when fold is set.
func runeBytes(lo, hi rune, fold bool) (byteSet, bool) {
	var set byteSet
	if lo < 0 || hi >= 0x80 || hi-lo >= maxNeeds {
		return set, false
	}
	for r := lo; r <= hi; r++ {
		set[r] = true
		if fold {
			for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
				if f >= 0x80 {
					return set, false // K's fold, the Kelvin sign, is not a byte
				}
				set[f] = true
			}
		}
	}
	return set, true
}
