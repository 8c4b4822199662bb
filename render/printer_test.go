package render

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"
)

// TestTerminalSafe: no control sequence gets through conch's own output,
// in words, in an error line or in JSON (rule 10 of issue 12).
func TestTerminalSafe(t *testing.T) {
	in := "a\x1b[31mb\x07c\x08d\x7fe\u009bf\u009dg\r\nh\ti"
	if got, want := Terminal(in), "a [31mb c d e f g \nh\ti"; got != want {
		t.Errorf("Terminal = %q, want %q", got, want)
	}
	if got, want := Line(in), "a [31mb c d e f g  h i"; got != want {
		t.Errorf("Line = %q, want %q", got, want)
	}
	data, _ := json.Marshal(map[string]string{"v": in})
	out := string(EscapeJSONControls(data))
	if strings.ContainsFunc(out, isTerminalControl) {
		t.Errorf("JSON keeps a control: %q", out)
	}
	var back map[string]string
	if err := json.Unmarshal([]byte(out), &back); err != nil || back["v"] != in {
		t.Errorf("JSON changed the value: %q (%v)", back["v"], err)
	}
	if s := "plain\ntext"; Terminal(s) != s || string(EscapeJSONControls([]byte(s))) != s {
		t.Error("plain text changed")
	}
}

// FuzzLine: an error or warning line holds no control character, no line
// break and no bidi control, whatever it quotes; a line with none of them
// is left as it is.
func FuzzLine(f *testing.F) {
	for _, s := range []string{"claim x\u202egpj.exe", "a\x1b[31mb\nc", "plain words", "\u2066iso\u2069 \u200f", "\u0085next"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got := Line(s)
		dirty := false
		for _, r := range got {
			if lineBreaks(r) {
				t.Fatalf("Line(%q) = %q keeps %U", s, got, r)
			}
		}
		for _, r := range s {
			dirty = dirty || lineBreaks(r)
		}
		if !dirty && got != s && utf8.ValidString(s) {
			t.Fatalf("Line(%q) = %q: changed a clean line", s, got)
		}
	})
}

// TestBlanksPrintNoASCII: no blank of spaced's takes a printable ASCII
// character, which hasBlank passes over without asking.
func TestBlanksPrintNoASCII(t *testing.T) {
	for c := rune(' '); c < 0x7f; c++ {
		if lineBreaks(c) || quoteBlank(c) {
			t.Errorf("%q is a blank: hasBlank would miss it", c)
		}
	}
}

// FuzzSpaced: Line and Terminal give what a rune-by-rune map of the
// text gives (hasBlank's ASCII pass is only quicker).
func FuzzSpaced(f *testing.F) {
	for _, s := range []string{"plain words\nand a tab\t", "a\x1b[31mb", "\x7f", "caf\u00e9\x07", "\u0085", "x\u202ey", "\xff\x1b", "\u201cquoted\u201d and then \x1b[2J", "\u201c\xffok\u0085", "\u201cno blank\u201d"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, blank := range []func(rune) bool{lineBreaks, quoteBlank} {
			want := strings.Map(func(r rune) rune {
				if blank(r) {
					return ' '
				}
				return r
			}, s)
			if !strings.ContainsFunc(s, blank) {
				want = s
			}
			if got := spaced(s, blank); got != want {
				t.Fatalf("spaced(%q) = %q, want %q", s, got, want)
			}
		}
	})
}
