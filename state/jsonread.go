package state

import (
	"encoding/json"
	"strings"
	"unicode/utf8"
)

// jsonReader reads the few JSON forms conch's own files are made of: the
// index, and a chat's record (decodeChat). It accepts only JSON that
// encoding/json accepts, and where it reads a value, it reads what
// encoding/json would; anything else it turns away, and the caller decodes
// with encoding/json, which says what is wrong.
type jsonReader struct {
	s string
	i int
}

func (r *jsonReader) space() {
	for r.i < len(r.s) && (r.s[r.i] == ' ' || r.s[r.i] == '\n' || r.s[r.i] == '\t' || r.s[r.i] == '\r') {
		r.i++
	}
}

// byte reads c after any white space.
func (r *jsonReader) byte(c byte) bool {
	r.space()
	if r.i < len(r.s) && r.s[r.i] == c {
		r.i++
		return true
	}
	return false
}

// literal reads lit (a number, true, false or null) after any white
// space; when it is not there, it reads nothing.
func (r *jsonReader) literal(lit string) bool {
	r.space()
	end := r.i + len(lit)
	if strings.HasPrefix(r.s[r.i:], lit) && (end == len(r.s) || strings.IndexByte(" \n\t\r,}]", r.s[end]) >= 0) {
		r.i = end
		return true
	}
	return false
}

// key reads "name":.
func (r *jsonReader) key(name string) bool {
	s, ok := r.string()
	return ok && s == name && r.byte(':')
}

// string reads one JSON string. The closing quote is found by
// strings.IndexByte, and the bytes before it are checked in one tight loop:
// a thousand summaries are read at every chats list.
func (r *jsonReader) string() (string, bool) {
	if !r.byte('"') {
		return "", false
	}
	start := r.i
	end := strings.IndexByte(r.s[start:], '"')
	if end < 0 {
		return "", false
	}
	str := r.s[start : start+end]
	ascii := true
	for i := 0; i < len(str); i++ {
		switch c := str[i]; {
		case c < 0x20 || c == '\\':
			return r.escapedString(start)
		case c >= 0x80:
			ascii = false
		}
	}
	if !ascii && !utf8.ValidString(str) {
		// encoding/json puts U+FFFD for each bad byte: let it.
		return r.escapedString(start)
	}
	r.i = start + end + 1
	return str, true
}

// escapedString reads the string that begins at start (after its quote),
// one with an escape or a byte that is not UTF-8 in it, through
// encoding/json.
func (r *jsonReader) escapedString(start int) (string, bool) {
	i := start
	for i < len(r.s) && r.s[i] != '"' {
		switch c := r.s[i]; {
		case c == '\\':
			i += 2
			continue
		case c < 0x20:
			return "", false
		}
		i++
	}
	if i >= len(r.s) {
		return "", false
	}
	r.i = i + 1
	var str string
	if err := json.Unmarshal([]byte(r.s[start-1:r.i]), &str); err != nil {
		return "", false
	}
	return str, true
}
