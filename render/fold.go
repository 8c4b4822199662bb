package render

import (
	"strings"
	"unicode/utf8"
)

// Fold is text as a reader sees it, for comparing, never for showing:
// Unicode compatibility forms folded (NFKC: full-width, circled,
// mathematical letters), default-ignorable code points (zero-width
// characters, Hangul fillers, variation selectors, tags) and combining
// marks taken out, and look-alikes folded to what they look like (the
// UTS #39 confusables: Cyrillic с, Armenian օ, Cherokee Ꮯ are c, o, C).
// Case is kept. ASCII is its own fold, so plain text costs one scan.
//
// The checks of §8 (a '[' that opens "conch", what can close a fence, the
// brackets and quotes cleaning takes out) are made on the fold.
func Fold(s string) string {
	if isASCII(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for _, r := range s {
		b.WriteString(foldRune(r))
	}
	return b.String()
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// foldRune is one rune's fold.
func foldRune(r rune) string {
	if f, ok := foldLookup(r); ok {
		return f
	}
	if r == utf8.RuneError {
		return "\ufffd"
	}
	return string(r)
}

// foldLookup is the fold of a rune that is not its own fold, and false for
// one that is (every ASCII rune among them): a binary search of
// fold_table.go. Nothing is built and nothing allocated: the table is
// constant data.
func foldLookup(r rune) (string, bool) {
	if r < utf8.RuneSelf {
		return "", false
	}
	lo, hi := 0, len(foldKeys)/3
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		k := rune(foldKeys[3*m])<<16 | rune(foldKeys[3*m+1])<<8 | rune(foldKeys[3*m+2])
		switch {
		case k < r:
			lo = m + 1
		case k > r:
			hi = m
		default:
			off := int(foldIdx[3*m])<<8 | int(foldIdx[3*m+1])
			return foldVals[off : off+int(foldIdx[3*m+2])], true
		}
	}
	return "", false
}
