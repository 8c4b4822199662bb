package install

import (
	"strings"
	"unicode"

	"github.com/pelletier/go-toml/v2"
)

// TOML is edited by lines, never decoded and encoded again: a person's
// config.toml keeps its comments, order and spacing. Each edit is checked
// by decoding what it would write.

// DecodeTOML reads a TOML document; its error is one line.
func DecodeTOML(text string) (map[string]any, error) {
	var v map[string]any
	if err := toml.Unmarshal([]byte(text), &v); err != nil {
		return nil, tomlError{err}
	}
	return v, nil
}

// CheckTOML says whether text is TOML.
func CheckTOML(text string) error {
	_, err := DecodeTOML(text)
	return err
}

// tomlError is a TOML parser's error on one line.
type tomlError struct{ err error }

func (e tomlError) Error() string {
	// One line that drives no terminal: controls and bidi marks are
	// spaces too.
	return strings.Join(strings.FieldsFunc(e.err.Error(), func(r rune) bool {
		return unicode.IsSpace(r) || unicode.IsControl(r) || unicode.Is(unicode.Bidi_Control, r)
	}), " ")
}

// DropTables takes out of a TOML document each table whose header line
// is one of headers (as written: [a."b"]), header and lines, up to the
// next header; it says how many went.
func DropTables(text string, headers []string) (string, int) {
	drop := make(map[string]bool, len(headers))
	for _, h := range headers {
		drop[h] = true
	}
	var out []string
	skipping, n := false, 0
	for _, line := range strings.SplitAfter(text, "\n") {
		t := strings.TrimSpace(line)
		if strings.HasPrefix(t, "[") {
			skipping = drop[t]
			if skipping {
				n++
			}
		}
		if !skipping {
			out = append(out, line)
		}
	}
	return strings.Join(out, ""), n
}

// DropTopKey takes a top-level assignment of key out of a TOML document:
// the line that starts it, and the lines its value (an array) runs on
// to. It says whether it found one.
func DropTopKey(text, key string) (string, bool) {
	lines := strings.SplitAfter(text, "\n")
	for i, l := range lines {
		t := strings.TrimSpace(l)
		if strings.HasPrefix(t, "[") {
			break // a table: top-level keys are all before it
		}
		if !strings.HasPrefix(t, key) || !strings.HasPrefix(strings.TrimSpace(strings.TrimPrefix(t, key)), "=") {
			continue
		}
		for j := i + 1; j <= len(lines); j++ {
			if CheckTOML(strings.Join(lines[i:j], "")) == nil {
				return strings.Join(lines[:i], "") + strings.Join(lines[j:], ""), true
			}
		}
	}
	return "", false
}
