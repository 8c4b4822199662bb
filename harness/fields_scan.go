package harness

import (
	"encoding/json"
	"unicode/utf8"
)

// Every hook event is a JSON object conch splits into its fields, and the
// tool's input too. encoding/json does it through reflection it sets up
// afresh in each process, which cost a PreToolUse hook a tenth of its own
// work; so an object whose keys are plain ASCII is split here, by a
// scanner that checks every value as encoding/json's does. Anything else
// (a key with an escape or a byte past ASCII, nesting past maxDepth) is
// left to encoding/json, which stays the judge: FuzzSplitObject holds the
// two to the same answer.

// maxDepth is the nesting the scanner takes; deeper is encoding/json's.
const maxDepth = 100

// splitObject splits data, a JSON object and nothing else but white space,
// into its fields; false: it did not (data may still be a JSON object).
func splitObject(data []byte) (Fields, bool) {
	s := scanner{b: data}
	s.space()
	if !s.byte('{') {
		return nil, false
	}
	f := Fields{}
	s.space()
	if s.byte('}') {
		return f, s.end()
	}
	for {
		s.space()
		key, ok := s.plainKey()
		if !ok {
			return nil, false
		}
		s.space()
		if !s.byte(':') {
			return nil, false
		}
		s.space()
		start := s.i
		if !s.value(0) {
			return nil, false
		}
		f[key] = json.RawMessage(data[start:s.i:s.i]) // the last of a key said twice, as encoding/json
		s.space()
		if s.byte('}') {
			return f, s.end()
		}
		if !s.byte(',') {
			return nil, false
		}
	}
}

// plainString is the string raw holds when it is a JSON string with no
// escape, no control byte and valid UTF-8, which reads as its bytes.
func plainString(raw []byte) (string, bool) {
	if len(raw) < 2 || raw[0] != '"' || raw[len(raw)-1] != '"' {
		return "", false
	}
	in := raw[1 : len(raw)-1]
	for _, c := range in {
		if c < 0x20 || c == '"' || c == '\\' {
			return "", false
		}
	}
	if !utf8.Valid(in) {
		return "", false
	}
	return string(in), true
}

type scanner struct {
	b []byte
	i int
}

func (s *scanner) space() {
	for s.i < len(s.b) {
		switch s.b[s.i] {
		case ' ', '\t', '\n', '\r':
			s.i++
		default:
			return
		}
	}
}

func (s *scanner) byte(c byte) bool {
	if s.i < len(s.b) && s.b[s.i] == c {
		s.i++
		return true
	}
	return false
}

// end says whether only white space is left.
func (s *scanner) end() bool {
	s.space()
	return s.i == len(s.b)
}

// plainKey reads a key of printable ASCII with no escape.
func (s *scanner) plainKey() (string, bool) {
	if !s.byte('"') {
		return "", false
	}
	start := s.i
	for s.i < len(s.b) {
		c := s.b[s.i]
		switch {
		case c == '"':
			key := string(s.b[start:s.i])
			s.i++
			return key, true
		case c < 0x20 || c >= 0x80 || c == '\\':
			return "", false
		}
		s.i++
	}
	return "", false
}

// value skips one JSON value, checking it as encoding/json does.
func (s *scanner) value(depth int) bool {
	if s.i >= len(s.b) || depth > maxDepth {
		return false
	}
	switch c := s.b[s.i]; {
	case c == '"':
		return s.str()
	case c == '{':
		s.i++
		s.space()
		if s.byte('}') {
			return true
		}
		for {
			s.space()
			if !s.str() {
				return false
			}
			s.space()
			if !s.byte(':') {
				return false
			}
			s.space()
			if !s.value(depth + 1) {
				return false
			}
			s.space()
			if s.byte('}') {
				return true
			}
			if !s.byte(',') {
				return false
			}
		}
	case c == '[':
		s.i++
		s.space()
		if s.byte(']') {
			return true
		}
		for {
			s.space()
			if !s.value(depth + 1) {
				return false
			}
			s.space()
			if s.byte(']') {
				return true
			}
			if !s.byte(',') {
				return false
			}
		}
	case c == 't':
		return s.literal("true")
	case c == 'f':
		return s.literal("false")
	case c == 'n':
		return s.literal("null")
	case c == '-' || c >= '0' && c <= '9':
		return s.number()
	}
	return false
}

func (s *scanner) literal(lit string) bool {
	if len(s.b)-s.i < len(lit) || string(s.b[s.i:s.i+len(lit)]) != lit {
		return false
	}
	s.i += len(lit)
	return true
}

// str skips a string: no control byte, only JSON's escapes. (Bytes that
// are not UTF-8 are kept, as encoding/json keeps them in a raw value.)
func (s *scanner) str() bool {
	if !s.byte('"') {
		return false
	}
	for s.i < len(s.b) {
		c := s.b[s.i]
		s.i++
		switch {
		case c == '"':
			return true
		case c < 0x20:
			return false
		case c == '\\':
			if s.i >= len(s.b) {
				return false
			}
			e := s.b[s.i]
			s.i++
			switch e {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
			case 'u':
				if len(s.b)-s.i < 4 {
					return false
				}
				for _, h := range s.b[s.i : s.i+4] {
					if !(h >= '0' && h <= '9' || h >= 'a' && h <= 'f' || h >= 'A' && h <= 'F') {
						return false
					}
				}
				s.i += 4
			default:
				return false
			}
		}
	}
	return false
}

// number skips a number: -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
func (s *scanner) number() bool {
	s.byte('-')
	switch {
	case s.byte('0'):
	case s.i < len(s.b) && s.b[s.i] >= '1' && s.b[s.i] <= '9':
		s.digits()
	default:
		return false
	}
	if s.byte('.') && !s.digits() {
		return false
	}
	if s.byte('e') || s.byte('E') {
		if !s.byte('+') {
			s.byte('-')
		}
		if !s.digits() {
			return false
		}
	}
	return true
}

// digits skips one digit or more.
func (s *scanner) digits() bool {
	start := s.i
	for s.i < len(s.b) && s.b[s.i] >= '0' && s.b[s.i] <= '9' {
		s.i++
	}
	return s.i > start
}
