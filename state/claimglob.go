package state

import (
	"errors"
	"path/filepath"
	"strings"
	"unicode/utf8"
)

// A claim's pattern is an absolute, cleaned path or glob (filepath.Match's
// syntax: *, ?, [class], \ escapes; no **). A pattern covers a file when
// the file, or a folder holding it, matches: claiming a folder, or a glob
// that matches one, claims everything in it.

// errBadGlob is a pattern filepath.Match would refuse.
var errBadGlob = errors.New("not a valid glob")

// isGlob says whether p holds any of the glob's special characters.
func isGlob(p string) bool { return strings.ContainsAny(p, `*?[\`) }

// globCovers says whether the claim's pattern covers file (absolute,
// cleaned): the file or one of its folders matches it, segment by segment.
func globCovers(pattern, file string) bool {
	ps, fs := segments(pattern), segments(file)
	if len(ps) > len(fs) {
		return false
	}
	for i, p := range ps {
		if ok, err := filepath.Match(p, fs[i]); err != nil || !ok {
			return false
		}
	}
	return true
}

// globsOverlap says whether some file is covered by both patterns: each
// of the segments they both have can be matched by one name. Where that
// cannot be told exactly (two classes one of which is negated), they are
// taken to overlap: a claim refused is better than two claims on one file.
func globsOverlap(a, b string) bool {
	as, bs := segments(a), segments(b)
	n := min(len(as), len(bs))
	for i := 0; i < n; i++ {
		ta, err := globTokens(as[i])
		if err != nil {
			return true
		}
		tb, err := globTokens(bs[i])
		if err != nil {
			return true
		}
		if !tokensMeet(ta, tb) {
			return false
		}
	}
	return true
}

// segments are a path's names, / first as "".
func segments(p string) []string {
	if p == "/" {
		return []string{""}
	}
	return strings.Split(p, "/")
}

// validGlob says whether every segment of p is a pattern filepath.Match
// takes.
func validGlob(p string) error {
	for _, s := range segments(p) {
		if _, err := globTokens(s); err != nil {
			return err
		}
	}
	return nil
}

// A glob token is one character of a name (a literal, ? or a class) or *.
type globToken struct {
	kind   byte // 'c' literal, '?' any, '[' class, '*' star
	r      rune
	neg    bool
	ranges []runeRange
}

type runeRange struct{ lo, hi rune }

// globTokens reads one segment of a pattern, as filepath.Match reads it on
// a system whose separator is /.
func globTokens(seg string) ([]globToken, error) {
	var out []globToken
	for i := 0; i < len(seg); {
		switch c := seg[i]; c {
		case '*':
			i++
			if len(out) == 0 || out[len(out)-1].kind != '*' {
				out = append(out, globToken{kind: '*'})
			}
		case '?':
			i++
			out = append(out, globToken{kind: '?'})
		case '[':
			t, n, err := globClass(seg[i+1:])
			if err != nil {
				return nil, err
			}
			i += 1 + n
			out = append(out, t)
		case '\\':
			if i+1 >= len(seg) {
				return nil, errBadGlob
			}
			r, n := utf8.DecodeRuneInString(seg[i+1:])
			i += 1 + n
			out = append(out, globToken{kind: 'c', r: r})
		default:
			r, n := utf8.DecodeRuneInString(seg[i:])
			i += n
			out = append(out, globToken{kind: 'c', r: r})
		}
	}
	return out, nil
}

// globClass reads a class after its [, up to and with its ], and says how
// many bytes it took.
func globClass(s string) (globToken, int, error) {
	t := globToken{kind: '['}
	i := 0
	if i < len(s) && s[i] == '^' {
		t.neg = true
		i++
	}
	one := func() (rune, error) {
		if i >= len(s) {
			return 0, errBadGlob
		}
		switch s[i] {
		case '-', ']':
			return 0, errBadGlob
		case '\\':
			i++
			if i >= len(s) {
				return 0, errBadGlob
			}
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n == 1 {
			// filepath.Match refuses a byte that is not UTF-8 in a class.
			return 0, errBadGlob
		}
		i += n
		return r, nil
	}
	for {
		if i < len(s) && s[i] == ']' && len(t.ranges) > 0 {
			return t, i + 1, nil
		}
		lo, err := one()
		if err != nil {
			return t, 0, err
		}
		hi := lo
		if i < len(s) && s[i] == '-' {
			i++
			if hi, err = one(); err != nil {
				return t, 0, err
			}
		}
		t.ranges = append(t.ranges, runeRange{lo, hi})
	}
}

func (t globToken) takes(r rune) bool {
	switch t.kind {
	case 'c':
		return t.r == r
	case '?':
		return true
	case '[':
		in := false
		for _, g := range t.ranges {
			if g.lo <= r && r <= g.hi {
				in = true
			}
		}
		return in != t.neg
	}
	return true
}

// charsMeet says whether one character can match both tokens (neither a
// star).
func charsMeet(a, b globToken) bool {
	switch {
	case a.kind == '?' || b.kind == '?':
		return true
	case a.kind == 'c':
		return b.takes(a.r)
	case b.kind == 'c':
		return a.takes(b.r)
	case a.neg || b.neg:
		return true // not told exactly: taken to meet
	}
	for _, x := range a.ranges {
		for _, y := range b.ranges {
			if x.lo <= y.hi && y.lo <= x.hi {
				return true
			}
		}
	}
	return false
}

// tokensMeet says whether one name matches both token lists.
func tokensMeet(a, b []globToken) bool {
	// seen[i][j]: (i, j) was tried and led nowhere.
	seen := make([]bool, (len(a)+1)*(len(b)+1))
	var meet func(i, j int) bool
	meet = func(i, j int) bool {
		if i == len(a) && j == len(b) {
			return true
		}
		k := i*(len(b)+1) + j
		if seen[k] {
			return false
		}
		seen[k] = true
		switch {
		case i < len(a) && a[i].kind == '*':
			if meet(i+1, j) || (j < len(b) && meet(i, j+1)) {
				return true
			}
		case j < len(b) && b[j].kind == '*':
			if meet(i, j+1) || (i < len(a) && meet(i+1, j)) {
				return true
			}
		case i < len(a) && j < len(b):
			if charsMeet(a[i], b[j]) && meet(i+1, j+1) {
				return true
			}
		}
		return false
	}
	return meet(0, 0)
}
