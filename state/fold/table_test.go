package fold

import (
	"bytes"
	"flag"
	"fmt"
	"go/format"
	"os"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/mtibben/confusables"
	"golang.org/x/text/unicode/norm"
)

var updateFold = flag.Bool("update-fold", false, "rewrite state/fold/table.go from golang.org/x/text and the UTS #39 confusables")

// TestFoldTable holds table.go to what it is made from: Unicode
// compatibility folding (NFKD, from golang.org/x/text/unicode/norm), with
// default-ignorable code points and combining marks taken out, then the
// UTS #39 confusables mapping (Unicode's confusables.txt, as
// github.com/mtibben/confusables carries it) and the same again. The table
// is computed here, in a test, so that conch's binary links neither
// package and builds nothing at start-up: it only searches a sorted string.
// go test ./state/fold -run TestFoldTable -update-fold rewrites it.
func TestFoldTable(t *testing.T) {
	src, folds := foldTableSource(t)
	if *updateFold {
		if err := os.WriteFile("table.go", src, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	have, err := os.ReadFile("table.go")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(have, src) {
		t.Fatal("table.go is not what golang.org/x/text and the confusables make: go test ./state/fold -run TestFoldTable -update-fold")
	}
	// The lookup reads back what the generator computed, for every rune.
	for r := rune(0x80); r <= unicode.MaxRune; r++ {
		if 0xd800 <= r && r <= 0xdfff {
			continue
		}
		want, ok := folds[r]
		if !ok {
			want = string(r)
		}
		if got := Rune(r); got != want {
			t.Fatalf("Rune(%U) = %q, want %q", r, got, want)
		}
	}
}

// genFold is a rune's fold as the table holds it.
func genFold(r rune) string {
	if defaultIgnorable(r) {
		return ""
	}
	if hangul(r) {
		// Syllables decompose into jamo that the confusables map to
		// strokes and ideographs: Korean is left as it is.
		return string(r)
	}
	if f, ok := extraLike(r); ok {
		return f
	}
	// Compatibility folding first, then the confusables map, which works
	// on NFD text one rune at a time (UTS #39 §4: skeleton =
	// NFD(map(NFD(s)))).
	s := stripMarks(norm.NFKD.String(string(r)))
	var b strings.Builder
	for _, c := range s {
		if c < utf8.RuneSelf {
			// ASCII is its own fold: full-width ｍ, Ｉ, ０ are m, I, 0 (as
			// in a token), not the rn, l, O the confusables make of them.
			b.WriteRune(c)
			continue
		}
		b.WriteString(confusables.Skeleton(string(c)))
	}
	s = stripMarks(norm.NFKD.String(b.String()))
	// A rune that compatibility folding makes something else (ϲ becomes ς,
	// Telugu's spacing ం a mark, ´ a space and a mark) but that looks like
	// one ASCII character is that character: c, o, '.
	if !hasVisibleASCII(s) {
		if t := stripMarks(norm.NFKD.String(confusables.Skeleton(string(r)))); len(t) == 1 && hasVisibleASCII(t) {
			s = t
		}
	}
	// Recomposed, so that text with nothing to fold (Hangul syllables,
	// precomposed letters with no mark left) is its own fold.
	return norm.NFC.String(s)
}

// extraLike are look-alikes no table folds: brackets that read as '[' or
// ']' (a line opening with one reads as conch's own) and small capitals.
func extraLike(r rune) (string, bool) {
	switch r {
	case 'ɴ':
		return "n", true
	case 'ʜ':
		return "h", true
	case '⟦', '⁅', '【', '〚', '⦋', '⦍', '⦏', '〖', '〘', '⟬', '⸢', '⸤', '⦗', '⌈', '⌊', '⎡', '⎣', '⁌':
		return "[", true
	case '⟧', '⁆', '】', '〛', '⦌', '⦎', '⦐', '〗', '〙', '⟭', '⸣', '⸥', '⦘', '⌉', '⌋', '⎤', '⎦', '⁍':
		return "]", true
	}
	return "", false
}

func hasVisibleASCII(s string) bool {
	return strings.ContainsFunc(s, func(r rune) bool { return ' ' < r && r < 0x7f })
}

func hangul(r rune) bool {
	return 0xac00 <= r && r <= 0xd7a3 || 0x1100 <= r && r <= 0x11ff ||
		0x3130 <= r && r <= 0x318f || 0xa960 <= r && r <= 0xa97f || 0xd7b0 <= r && r <= 0xd7ff
}

func stripMarks(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.In(r, unicode.Mn, unicode.Mc, unicode.Me) || defaultIgnorable(r) {
			return -1
		}
		return r
	}, s)
}

// defaultIgnorable is Unicode's Default_Ignorable_Code_Point property
// (DerivedCoreProperties.txt): code points a reader does not see.
func defaultIgnorable(r rune) bool {
	switch {
	case r == 0x00ad, r == 0x034f, r == 0x061c, r == 0x115f, r == 0x1160,
		r == 0x17b4, r == 0x17b5, 0x180b <= r && r <= 0x180f,
		0x200b <= r && r <= 0x200f, 0x202a <= r && r <= 0x202e,
		0x2060 <= r && r <= 0x206f, r == 0x3164, 0xfe00 <= r && r <= 0xfe0f,
		r == 0xfeff, r == 0xffa0, 0xfff0 <= r && r <= 0xfff8,
		0x1bca0 <= r && r <= 0x1bca3, 0x1d173 <= r && r <= 0x1d17a,
		0xe0000 <= r && r <= 0xe0fff:
		return true
	}
	return false
}

func foldTableSource(t *testing.T) ([]byte, map[rune]string) {
	folds := map[rune]string{}
	var keys, idx, vals bytes.Buffer
	n := 0
	for r := rune(0x80); r <= unicode.MaxRune; r++ {
		if 0xd800 <= r && r <= 0xdfff {
			continue
		}
		f := genFold(r)
		if f == string(r) {
			continue
		}
		if len(f) > 255 || vals.Len()+len(f) > 0xffff {
			t.Fatalf("fold of %U (%q) does not fit the table's shape", r, f)
		}
		keys.Write([]byte{byte(r >> 16), byte(r >> 8), byte(r)})
		off := vals.Len()
		idx.Write([]byte{byte(off >> 8), byte(off), byte(len(f))})
		vals.WriteString(f)
		folds[r] = f
		n++
	}
	// ASCII runes the confusables map to something else ('0' to 'O',
	// 'm' to "rn", ...) are left to the checks' own ASCII rules: folding
	// them would make ordinary words look alike.
	var b bytes.Buffer
	fmt.Fprintf(&b, "// Code generated by TestFoldTable (go test ./state/fold -run TestFoldTable -update-fold); DO NOT EDIT.\n\n")
	fmt.Fprintf(&b, "package fold\n\n")
	fmt.Fprintf(&b, "// The fold of every non-ASCII rune that is not its own fold (%d runes):\n", n)
	fmt.Fprintf(&b, "// NFKD (Unicode %s, golang.org/x/text), default-ignorable code points and\n", norm.Version)
	fmt.Fprintf(&b, "// combining marks taken out, the UTS #39 confusables (Unicode 13.0.0) mapped.\n")
	fmt.Fprintf(&b, "// foldKeys holds the runes, 3 bytes each, big-endian, ascending; foldIdx\n")
	fmt.Fprintf(&b, "// the offset (2 bytes) and length (1 byte) of each fold in foldVals.\n")
	fmt.Fprintf(&b, "// Constants: they cost nothing until a lookup reads them.\n")
	writeConst(&b, "foldKeys", keys.Bytes())
	writeConst(&b, "foldIdx", idx.Bytes())
	writeConst(&b, "foldVals", vals.Bytes())
	out, err := format.Source(b.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	return out, folds
}

func writeConst(b *bytes.Buffer, name string, data []byte) {
	fmt.Fprintf(b, "\nconst %s = \"\" +\n", name)
	for len(data) > 0 {
		n := min(len(data), 32)
		b.WriteString("\t\"")
		for _, c := range data[:n] {
			fmt.Fprintf(b, "\\x%02x", c)
		}
		data = data[n:]
		if len(data) > 0 {
			b.WriteString("\" +\n")
		} else {
			b.WriteString("\"\n")
		}
	}
}
