package codec

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// The index's lines: fields separated by '|', escaped so that a field
// stays whole on its line, and times as nanoseconds since 1970.

// UnixNano writes a time as nanoseconds since 1970, "" for no time.
func UnixNano(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return strconv.FormatInt(t.UnixNano(), 10)
}

func ParseUnixNano(s string) (time.Time, error) {
	if s == "" {
		return time.Time{}, nil
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return time.Time{}, fmt.Errorf("time %q: %w", s, err)
	}
	return time.Unix(0, n).UTC(), nil
}

// EscapeField keeps a field whole on its line: a backslash, a '|' and a
// newline are written \\, \| and \n.
func EscapeField(s string) string {
	if !strings.ContainsAny(s, "\\|\n") {
		return s
	}
	return strings.NewReplacer(`\`, `\\`, "|", `\|`, "\n", `\n`).Replace(s)
}

// SplitEscaped splits a line that holds escapes, and unescapes its fields.
func SplitEscaped(line string) []string {
	var fields []string
	var b strings.Builder
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case c == '|':
			fields = append(fields, b.String())
			b.Reset()
		case c == '\\' && i+1 < len(line):
			i++
			if line[i] == 'n' {
				b.WriteByte('\n')
			} else {
				b.WriteByte(line[i])
			}
		default:
			b.WriteByte(c)
		}
	}
	return append(fields, b.String())
}
