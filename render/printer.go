// Package render turns conch's domain values into words for people and
// models, tables, and JSON for programs. The exact sentences of the spec
// live here, once. It reads and writes no records.
package render

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Printer writes a command's answer: words, or JSON with --json.
type Printer struct {
	Out, Err io.Writer
	JSON     bool
	// Keep, when set, is handed the JSON that --json would print of each
	// value a command answers with words (conch mcp gives a tool's
	// caller both: the words for the model, the shape for programs).
	Keep func(json []byte)
}

// Error writes a failure: one line `conch: …`, or with --json the object
// {"error": …, "code": …}, on standard error.
func (p *Printer) Error(msg string, code int) {
	if p.JSON {
		fmt.Fprintf(p.Err, "%s\n", ErrorJSON(msg, code))
		return
	}
	fmt.Fprintf(p.Err, "conch: %s\n", Line(msg))
}

// Value writes v as JSON with --json, else the words.
func (p *Printer) Value(v any, words string) error {
	if p.JSON {
		return p.WriteJSON(v)
	}
	if p.Keep != nil {
		data, err := JSON(v)
		if err != nil {
			return err
		}
		p.Keep(data)
	}
	if words == "" {
		return nil
	}
	_, err := io.WriteString(p.Out, Terminal(words))
	return err
}

// WriteJSON writes v as indented JSON and a newline, an object stamped
// with its version: every object conch prints says "json_version" first,
// here, once, so that no shape can be printed without it.
func (p *Printer) WriteJSON(v any) error {
	data, err := JSON(v)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(p.Out, "%s\n", data)
	return err
}

// JSON is v as --json prints it: indented, its version first, no control
// character left raw.
func JSON(v any) ([]byte, error) {
	data, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return nil, err
	}
	head, rest := versionHead(data)
	out := make([]byte, 0, len(head)+len(rest))
	out = append(out, head...)
	return append(out, EscapeJSONControls(rest)...), nil
}

// ErrorJSON is a failure as --json prints it on standard error:
// {"json_version", "error", "code"}.
func ErrorJSON(msg string, code int) []byte {
	data, _ := json.Marshal(struct {
		Version int    `json:"json_version"`
		Error   string `json:"error"`
		Code    int    `json:"code"`
	}{JSONVersion, msg, code})
	return EscapeJSONControls(data)
}

// versionKey is the key Versioned puts first.
const versionKey = `"json_version"`

// Versioned puts "json_version": JSONVersion first in the JSON object data
// (compact or indented by two spaces, as encoding/json writes it), unless
// it says a version already. Anything but an object is given back as it is.
func Versioned(data []byte) []byte {
	head, rest := versionHead(data)
	if head == "" {
		return data
	}
	out := make([]byte, 0, len(head)+len(rest))
	out = append(out, head...)
	return append(out, rest...)
}

// versionHead splits data so that head+rest is Versioned(data), without
// copying it: head is "" when data is left as it is.
func versionHead(data []byte) (head string, rest []byte) {
	if len(data) < 2 || data[0] != '{' {
		return "", data
	}
	rest = data[1:]
	if bytes.HasPrefix(bytes.TrimLeft(rest, " \n"), []byte(versionKey)) {
		return "", data
	}
	v := strconv.Itoa(JSONVersion)
	switch {
	case rest[0] == '}':
		return "{" + versionKey + ":" + v, rest
	case bytes.HasPrefix(rest, []byte("\n}")):
		return "{\n  " + versionKey + ": " + v, rest
	case rest[0] == '\n':
		return "{\n  " + versionKey + ": " + v + ",", rest
	}
	return "{" + versionKey + ":" + v + ",", rest
}

// Warn writes a warning line on standard error.
func (p *Printer) Warn(format string, args ...any) {
	fmt.Fprintf(p.Err, "conch: warning: %s\n", Line(fmt.Sprintf(format, args...)))
}

// Line makes s one line that drives no terminal and reorders nothing:
// every control character (C0 with newline and ESC, DEL, C1), line or
// paragraph separator and bidi control (a U+202E in a path would show the
// rest of the line backwards) becomes a space. For conch's own lines
// (errors, warnings) that quote a value; a field a model chose is Clean'd
// as well.
func Line(s string) string { return spaced(s, lineBreaks) }

func lineBreaks(r rune) bool {
	return r < ' ' || (0x7f <= r && r <= 0x9f) || r == 0x2028 || r == 0x2029 || isBidi(r)
}

// isBidi reports the bidi controls: marks, embeddings, overrides, isolates.
func isBidi(r rune) bool {
	return r == 0x061c || r == 0x200e || r == 0x200f || (0x202a <= r && r <= 0x202e) || (0x2066 <= r && r <= 0x2069)
}

// Terminal makes text safe to write to a person's terminal, lines kept:
// every control character but newline and tab (ESC, BEL, BS, a carriage
// return, DEL, the C1 controls with CSI and OSC) becomes a space, so no
// terminal sequence gets through whatever a field held. Every answer in
// words goes through it.
func Terminal(s string) string { return spaced(s, quoteBlank) }

// spaced writes every rune of s that blank reports as a space; s itself,
// with no allocation, when there is none.
func spaced(s string, blank func(rune) bool) string {
	if !hasBlank(s, blank) {
		return s
	}
	return strings.Map(func(r rune) rune {
		if blank(r) {
			return ' '
		}
		return r
	}, s)
}

// hasBlank is strings.ContainsFunc(s, blank), a byte at a time over
// ASCII: a blank is a control (below a space, or DEL) or not ASCII, never
// a printable ASCII character (TestBlanksPrintNoASCII), so those bytes ask
// blank nothing, and only a rune that is not ASCII is decoded and asked
// (a bad byte as utf8.RuneError, as ranging over s gives it). Every answer
// in words is scanned so, a few kilobytes at every notes, with a curly
// quote in most lines.
func hasBlank(s string, blank func(rune) bool) bool {
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if (c < ' ' || c == 0x7f) && blank(rune(c)) {
				return true
			}
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if blank(r) {
			return true
		}
		i += n
	}
	return false
}

// EscapeJSONControls writes DEL and the C1 controls in JSON text as \u
// escapes, which encoding/json leaves raw: the value is the same, and a
// terminal shown the JSON sees no control sequence. (C0 controls are
// escaped by encoding/json already.)
func EscapeJSONControls(data []byte) []byte {
	if !bytes.ContainsFunc(data, func(r rune) bool { return 0x7f <= r && r <= 0x9f }) {
		return data
	}
	var b bytes.Buffer
	b.Grow(len(data) + 16)
	for _, r := range string(data) {
		if 0x7f <= r && r <= 0x9f {
			fmt.Fprintf(&b, "\\u%04x", r)
			continue
		}
		b.WriteRune(r)
	}
	return b.Bytes()
}
