package render

// Words that cross between chats (SPEC §8): cleaning for what goes inside
// conch's own line, quoting for what goes inside a <chat-message> or
// <chat-reply> fence. Both are pure functions of their input; the fuzz
// targets in words_test.go hold them to the properties the spec states.

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/conch-sh/conch/state/fold"
)

// Clean makes a title, a file name or anything else a model chose safe to
// put inside conch's own line or before a person's terminal: the brackets,
// quotes and angle brackets of §8 and the backtick are taken out, and so is
// every rune that folds to one of them (full-width ［, ＂, the look-alike
// ᐸ: fold.String); control characters (C0, DEL, C1, ESC with them, so no
// terminal sequence survives), line or paragraph separators and bidi
// controls become spaces; unseen runes (zero-width spaces, joiners, soft
// hyphens, Hangul fillers) go; white space is folded to one space and
// trimmed. Invalid UTF-8 becomes U+FFFD. The result holds no newline and
// nothing that folds to a bracket, so it can neither close conch's line
// nor open one that looks like conch's own.
func Clean(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	pending := false // a space is owed before the next kept rune
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		i += n // an invalid byte decodes as utf8.RuneError, U+FFFD, size 1
		switch {
		case cleanRemoves(r) || isTag(r) || unseen(r):
			continue
		case isBreak(r):
			pending = true
			continue
		}
		if pending && b.Len() > 0 {
			b.WriteByte(' ')
		}
		pending = false
		b.WriteRune(r)
	}
	return b.String()
}

// CutTitle cleans s and cuts it to at most max runes, for a title conch
// makes itself from a first prompt. The cut is at a rune boundary and no
// space is left at the end.
func CutTitle(s string, max int) string {
	c := Clean(s)
	if max <= 0 {
		return ""
	}
	if utf8.RuneCountInString(c) <= max {
		return c
	}
	n := 0
	for i := range c {
		if n == max {
			return strings.TrimRight(c[:i], " ")
		}
		n++
	}
	return c
}

// The runes Quote writes in place of what could close a fence or open a
// line of conch's: none of them folds to '<', '>' or '['.
const (
	quotedLess    = '⟨' // for '<' and what folds to it (‹, ＜, ᐸ...)
	quotedGreater = '⟩' // for '>' and what folds to it
	quotedBracket = '(' // for a '[' (or what folds to it) that opens "conch"
)

// Quote writes text for the inside of a <chat-message> or <chat-reply>
// fence: '<' and '>', and every rune whose fold holds one (‹ › ＜ ＞ ᐸ ≮...),
// become '⟨' and '⟩'; a '[' (or ［, ⟦...) that opens "conch" in any case,
// in look-alike letters or split by invisible characters or combining
// marks, becomes '('; control characters other than newline and tab (NUL,
// ESC, BEL, BS, DEL, C1: what could drive a terminal) become spaces, a
// carriage return before a newline goes; invalid UTF-8 becomes U+FFFD, and
// invisible Unicode tag characters (which can smuggle text a model reads
// but a person does not see) are dropped. Nothing in the result can close
// the fence or speak as conch: its fold (fold.String) holds no '<', no '>'
// and no "[conch" under case folding.
//
// One pass is enough: no replacement writes a '[', a letter or anything
// that folds to one, so it cannot make a new "[conch", and the look-ahead
// skips exactly the runes a reader does not see, so what it judges is what
// the reader will see.
func Quote(s string) string {
	if quoteIsIdentity(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		i += n
		switch {
		case r == '\r' && i < len(s) && s[i] == '\n':
			// dropped: the newline ends the line
		case quoteBlank(r):
			b.WriteByte(' ')
		case isTag(r):
			// dropped
		case r == utf8.RuneError && n == 1:
			b.WriteRune(utf8.RuneError)
		default:
			switch quoteAs(r, s[i:]) {
			case '<':
				b.WriteRune(quotedLess)
			case '>':
				b.WriteRune(quotedGreater)
			case '[':
				b.WriteRune(quotedBracket)
			default:
				b.WriteRune(r)
			}
		}
	}
	return b.String()
}

// quoteAs says what Quote must write otherwise about r, followed by rest:
// '<' or '>' when r folds to one, '[' when its fold holds a '[' that
// opens "conch", else 0.
func quoteAs(r rune, rest string) byte {
	if r < utf8.RuneSelf {
		switch r {
		case '<', '>':
			return byte(r)
		case '[':
			if opensConch("", rest) {
				return '['
			}
		}
		return 0
	}
	f, ok := fold.Lookup(r)
	if !ok {
		return 0
	}
	if i := strings.IndexAny(f, "<>"); i >= 0 {
		return f[i]
	}
	for j := 0; j < len(f); j++ {
		if f[j] == '[' && opensConch(f[j+1:], rest) {
			return '['
		}
	}
	return 0
}

// quoteBlank reports the controls Quote writes as a space: every C0
// control but newline and tab, DEL and the C1 controls.
func quoteBlank(r rune) bool {
	return (r < ' ' && r != '\n' && r != '\t') || (0x7f <= r && r <= 0x9f)
}

// quoteIsIdentity reports whether Quote would return s unchanged, so the
// common case costs one scan and no allocation.
func quoteIsIdentity(s string) bool {
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if quoteBlank(rune(c)) || quoteAs(rune(c), s[i+1:]) != 0 {
				return false
			}
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		i += n
		if (r == utf8.RuneError && n == 1) || isTag(r) || quoteBlank(r) || quoteAs(r, s[i:]) != 0 {
			return false
		}
	}
	return true
}

// opensConch reports whether the text after a '[' (folded, the rest of
// the rune that held it; then raw) starts with "conch" as a reader would
// see it: compared on its fold (full-width, mathematical, Cyrillic,
// Armenian, Cherokee look-alikes; combining marks, zero-width characters
// and Hangul fillers unseen), in any case, with blanks allowed before the
// word.
func opensConch(folded, rest string) bool {
	const word = "conch"
	k := 0 // letters of word matched
	// next gives the folded runes: those of folded, then those of each
	// rune of rest; false at the end or at a byte that is not UTF-8.
	cur, i := folded, 0
	next := func() (rune, bool) {
		for cur == "" {
			if i >= len(rest) {
				return 0, false
			}
			r, n := utf8.DecodeRuneInString(rest[i:])
			i += n
			if r == utf8.RuneError && n == 1 {
				return 0, false
			}
			switch f, ok := fold.Lookup(r); {
			case quoteBlank(r):
				return ' ', true // as Quote writes it
			case ok:
				cur = f
				continue
			default:
				return r, true
			}
		}
		r, n := utf8.DecodeRuneInString(cur)
		cur = cur[n:]
		return r, true
	}
	for k < len(word) {
		r, ok := next()
		if !ok {
			return false
		}
		switch {
		case ignorable(r):
			continue
		case k == 0 && (r == ' ' || r == '\t' || unicode.Is(unicode.Zs, r) || r == 0x2800):
			continue // "[ Conch:" still reads as conch's own line (U+2800: a blank Braille cell)
		case asciiLetter(r) != word[k]:
			return false
		}
		k++
	}
	return true
}

// cleanRemoves reports the runes §8 takes out of cleaned text: the
// brackets, quotes and angle brackets, and every rune whose fold holds one.
func cleanRemoves(r rune) bool {
	if removedRune(r) {
		return true
	}
	if r < utf8.RuneSelf {
		return false
	}
	f, _ := fold.Lookup(r)
	return strings.ContainsFunc(f, removedRune)
}

func removedRune(r rune) bool {
	switch r {
	case '[', ']', '{', '}', '(', ')', '<', '>', '«', '»', '‹', '›',
		'"', '\'', '“', '”', '‘', '’', '`':
		return true
	}
	return false
}

// isBreak reports the runes cleaning turns into a space: white space,
// control characters, line and paragraph separators, bidi controls (they
// can reorder how the rest of conch's line is shown) and the zero-width
// space and byte-order mark.
func isBreak(r rune) bool {
	if r < utf8.RuneSelf {
		return r <= ' ' || r == 0x7f
	}
	switch {
	case unicode.IsSpace(r), unicode.IsControl(r):
		return true
	case r == 0x2028, r == 0x2029: // line and paragraph separators
		return true
	case isBidi(r):
		return true
	}
	return false
}

// unseen reports invisible runes that cleaning drops rather than turning
// into a space: a zero-width space, word joiners, the byte-order mark, the
// soft hyphen and Hangul fillers. A space would split a word (a token the
// scrubber must see whole, or "Con ch") where a reader sees none.
func unseen(r rune) bool {
	switch {
	case r < 0xad:
		return false
	case r == 0x00ad, r == 0x115f, r == 0x1160, r == 0x180e, r == 0x200b,
		0x2060 <= r && r <= 0x2064, r == 0x3164, r == 0xfeff, r == 0xffa0:
		return true
	}
	return false
}

// isTag reports the Unicode tag characters U+E0000–U+E007F: invisible
// copies of ASCII that some models read.
func isTag(r rune) bool { return 0xe0000 <= r && r <= 0xe007f }

// ignorable reports runes a reader does not see between letters: format
// characters (zero-width joiners, bidi controls, tags, soft hyphen...),
// variation selectors and the combining grapheme joiner.
func ignorable(r rune) bool {
	if r < utf8.RuneSelf {
		return false
	}
	return unicode.Is(unicode.Cf, r) ||
		(0xfe00 <= r && r <= 0xfe0f) || (0xe0100 <= r && r <= 0xe01ef) ||
		r == 0x034f
}

// letterRanges are blocks of 26 consecutive code points that read as the
// Latin letters a–z: full-width, circled, parenthesised and squared forms.
var letterRanges = [...]struct{ lo rune }{
	{0xff21}, {0xff41}, // full-width A–Z, a–z
	{0x24b6}, {0x24d0}, // circled
	{0x249c},  // parenthesised small
	{0x1f110}, // parenthesised capital
	{0x1f130}, // squared
	{0x1f150}, // negative circled
	{0x1f170}, // negative squared
	{0x1f1e6}, // regional indicators
}

// lookalike returns the ASCII letter a single look-alike rune passes for
// (only the letters of "conch" matter), or 0. A switch, not a map, so that
// importing the package does no work.
func lookalike(r rune) byte {
	switch r {
	case 'с', 'С', 'ϲ', 'Ϲ', 'ⅽ', 'Ⅽ', 'ᴄ', 'ⲥ', 'ℂ', 'ℭ':
		return 'c'
	case 'о', 'О', 'ο', 'Ο', 'ᴏ', 'օ', 'ⲟ', 'ℴ':
		return 'o'
	case 'ɴ', 'Ν', 'ℕ':
		return 'n'
	case 'һ', 'Һ', 'Н', 'Η', 'ʜ', 'ℎ', 'ℋ', 'ℌ', 'ℍ':
		return 'h'
	}
	return 0
}

// asciiLetter returns the lower-case ASCII letter r reads as, or 0.
func asciiLetter(r rune) byte {
	switch {
	case 'a' <= r && r <= 'z':
		return byte(r)
	case 'A' <= r && r <= 'Z':
		return byte(r - 'A' + 'a')
	case r < utf8.RuneSelf:
		if r == '0' {
			return 'o'
		}
		return 0
	case 0x1d400 <= r && r <= 0x1d6a3:
		// Mathematical alphanumeric letters: 13 styles of A–Z then a–z.
		k := (r - 0x1d400) % 52
		return byte('a' + k%26)
	}
	for _, lr := range letterRanges {
		if lr.lo <= r && r < lr.lo+26 {
			return byte('a' + r - lr.lo)
		}
	}
	if unicode.SimpleFold(r) != r {
		// Other case-folding runes whose orbit reaches ASCII, e.g. the
		// Kelvin sign K and long s ſ.
		for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
			if f < utf8.RuneSelf {
				return asciiLetter(f)
			}
		}
	}
	return lookalike(r)
}
