// Package codec is the hand JSON reader and writer of conch's hot records
// (a chat's record, the index, a message, claims.json, a session's link):
// state's codecs say which field is which; this package reads and writes
// the JSON. It reads only what encoding/json reads the same way, and
// writes byte for byte what json.MarshalIndent(v, "", " ") writes; where
// it is not sure, it gives up and the caller asks encoding/json, which
// stays the judge. It knows nothing of conch's records, and imports no
// package of conch.
package codec

import (
	"encoding/json"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// NewReader reads s. A record's strings are substrings of s: give it a
// copy of a buffer another may reuse.
func NewReader(s string) *Reader { return &Reader{s: s} }

// Done reads any white space left and says whether s is all read.
func (r *Reader) Done() bool {
	r.Space()
	return r.i == len(r.s)
}

// Reader reads the few JSON forms conch's own files are made of: the
// index, and a chat's record (decodeChat). It accepts only JSON that
// encoding/json accepts, and where it reads a value, it reads what
// encoding/json would; anything else it turns away, and the caller decodes
// with encoding/json, which says what is wrong.
type Reader struct {
	s string
	i int
}

func (r *Reader) Space() {
	for r.i < len(r.s) && (r.s[r.i] == ' ' || r.s[r.i] == '\n' || r.s[r.i] == '\t' || r.s[r.i] == '\r') {
		r.i++
	}
}

// Byte reads c after any white space.
func (r *Reader) Byte(c byte) bool {
	r.Space()
	if r.i < len(r.s) && r.s[r.i] == c {
		r.i++
		return true
	}
	return false
}

// Literal reads lit (a number, true, false or null) after any white
// space; when it is not there, it reads nothing.
func (r *Reader) Literal(lit string) bool {
	r.Space()
	end := r.i + len(lit)
	if strings.HasPrefix(r.s[r.i:], lit) && (end == len(r.s) || strings.IndexByte(" \n\t\r,}]", r.s[end]) >= 0) {
		r.i = end
		return true
	}
	return false
}

// Key reads "name":.
func (r *Reader) Key(name string) bool {
	s, ok := r.String()
	return ok && s == name && r.Byte(':')
}

// String reads one JSON string. The closing quote is found by
// strings.IndexByte, and the bytes before it are checked in one tight loop:
// a thousand summaries are read at every chats list.
func (r *Reader) String() (string, bool) {
	if !r.Byte('"') {
		return "", false
	}
	start := r.i
	end := strings.IndexByte(r.s[start:], '"')
	if end < 0 {
		return "", false
	}
	str := r.s[start : start+end]
	plain, ascii := plainString(str)
	if !plain {
		return r.escapedString(start)
	}
	if !ascii && !utf8.ValidString(str) {
		// encoding/json puts U+FFFD for each bad byte: let it.
		return r.escapedString(start)
	}
	r.i = start + end + 1
	return str, true
}

// Masks of plainString's word-at-a-time pass: a byte's low bit, its high
// bit, and a backslash in every byte.
const (
	lowBits   = 0x0101010101010101
	highBits  = 0x8080808080808080
	backslash = '\\' * lowBits
)

// plainString says whether str (a JSON string's bytes, between its quotes)
// has no control and no backslash, so that it is its own value, and
// whether it is all ASCII. It looks at eight bytes at a time: a word has
// a byte below 0x20 when (w - 0x20…) & ^w & 0x80… is not zero, and a
// backslash when w ^ 0x5c… has a zero byte; either, anywhere, is exact
// about the word, though not about which byte (FuzzString holds it to
// encoding/json).
func plainString(str string) (plain, ascii bool) {
	var high uint64
	i := 0
	for ; i+8 <= len(str); i += 8 {
		w := uint64(str[i]) | uint64(str[i+1])<<8 | uint64(str[i+2])<<16 | uint64(str[i+3])<<24 |
			uint64(str[i+4])<<32 | uint64(str[i+5])<<40 | uint64(str[i+6])<<48 | uint64(str[i+7])<<56
		b := w ^ backslash
		if ((w-0x20*lowBits)&^w|(b-lowBits)&^b)&highBits != 0 {
			return false, false
		}
		high |= w
	}
	for ; i < len(str); i++ {
		c := str[i]
		if c < 0x20 || c == '\\' {
			return false, false
		}
		high |= uint64(c)
	}
	return true, high&highBits == 0
}

// escapedString reads the string that begins at start (after its quote),
// one with an escape or a byte that is not UTF-8 in it, through
// encoding/json.
func (r *Reader) escapedString(start int) (string, bool) {
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

// Objects reads null (the slice is then nil) or an array, each element
// read into a new T by read.
func Objects[T any](r *Reader, p *[]T, read func(*T) bool) bool {
	if r.Literal("null") {
		*p = nil
		return true
	}
	if !r.Byte('[') {
		return false
	}
	out := []T{}
	for first := true; !r.Byte(']'); first = false {
		if !first && !r.Byte(',') {
			return false
		}
		var v T
		if !read(&v) {
			return false
		}
		out = append(out, v)
	}
	*p = out
	return true
}

// NullOr reads null (the pointer is then nil) or an object, into a new T.
func NullOr[T any](r *Reader, p **T, read func(*T) bool) bool {
	if r.Literal("null") {
		*p = nil
		return true
	}
	*p = new(T)
	return read(*p)
}

// Object reads an object, handing each key to field, which reads its value
// (false: a key it does not know, or a value it could not read). A key said
// twice is turned away: encoding/json would merge the two values.
func (r *Reader) Object(field func(key string) bool) bool {
	if !r.Byte('{') {
		return false
	}
	if r.Byte('}') {
		return true
	}
	var keys [16]string // on the stack: a record's objects have fewer keys
	seen := keys[:0]
	for {
		key, ok := r.String()
		if !ok || !r.Byte(':') {
			return false
		}
		if slices.Contains(seen, key) {
			return false
		}
		seen = append(seen, key)
		if !field(key) {
			return false
		}
		if r.Byte('}') {
			return true
		}
		if !r.Byte(',') {
			return false
		}
	}
}

func (r *Reader) Str(p *string) bool {
	s, ok := r.String()
	*p = s
	return ok
}

// Strs reads null (nil) or an array of strings.
func (r *Reader) Strs(p *[]string) bool {
	if r.Literal("null") {
		*p = nil
		return true
	}
	s, ok := r.Strings()
	*p = s
	return ok
}

func (r *Reader) Bool(p *bool) bool {
	switch {
	case r.Literal("true"):
		*p = true
	case r.Literal("false"):
		*p = false
	default:
		return false
	}
	return true
}

// Time reads a time as encoding/json has time.Time read itself: from the
// quoted string, quotes and all.
func (r *Reader) Time(p *time.Time) bool {
	r.Space()
	start := r.i
	if _, ok := r.String(); !ok {
		return false
	}
	// time.Time reads the bytes between the quotes as they are, escapes
	// and all: so does utcTime.
	if t, ok := utcTime(r.s[start+1 : r.i-1]); ok {
		*p = t
		return true
	}
	return p.UnmarshalJSON([]byte(r.s[start:r.i])) == nil
}

// utcTime reads a UTC time in the one form encoding/json writes one,
// RFC 3339 with Z and up to nine digits of the second's fraction
// ("2006-01-02T15:04:05.999999999Z"); ok false for any other form, which
// time's own parser reads or turns away. A record's times are all so, and
// the parser costs a chat's or a claim's reading a third of its time.
// Where utcTime reads a time, time.Time reads the same one (FuzzTime).
func utcTime(s string) (t time.Time, ok bool) {
	if len(s) < len("2006-01-02T15:04:05Z") || len(s) > len("2006-01-02T15:04:05.999999999Z") ||
		s[4] != '-' || s[7] != '-' || s[10] != 'T' || s[13] != ':' || s[16] != ':' || s[len(s)-1] != 'Z' {
		return t, false
	}
	digits := func(from, to int) (n int, ok bool) {
		for i := from; i < to; i++ {
			c := s[i]
			if c < '0' || c > '9' {
				return 0, false
			}
			n = n*10 + int(c-'0')
		}
		return n, true
	}
	year, ok1 := digits(0, 4)
	month, ok2 := digits(5, 7)
	day, ok3 := digits(8, 10)
	hour, ok4 := digits(11, 13)
	minute, ok5 := digits(14, 16)
	sec, ok6 := digits(17, 19)
	if !ok1 || !ok2 || !ok3 || !ok4 || !ok5 || !ok6 ||
		month < 1 || month > 12 || day < 1 || day > daysIn(month, year) || hour > 23 || minute > 59 || sec > 59 {
		return t, false
	}
	ns := 0
	if frac := s[19 : len(s)-1]; frac != "" {
		if frac[0] != '.' || len(frac) == 1 {
			return t, false
		}
		n, ok := digits(20, len(s)-1)
		if !ok {
			return t, false
		}
		for range 10 - len(frac) {
			n *= 10
		}
		ns = n
	}
	return time.Date(year, time.Month(month), day, hour, minute, sec, ns, time.UTC), true
}

// daysIn is the number of days of month in year.
func daysIn(month, year int) int {
	if month == 2 {
		if year%4 == 0 && (year%100 != 0 || year%400 == 0) {
			return 29
		}
		return 28
	}
	return 30 + (month+month/8)%2
}

// whole reads a whole number as JSON writes one: an optional minus, then 0
// or digits not starting with 0, then a delimiter. Fractions and exponents
// are left to encoding/json.
func (r *Reader) whole() (string, bool) {
	r.Space()
	start, i := r.i, r.i
	if i < len(r.s) && r.s[i] == '-' {
		i++
	}
	digits := i
	for i < len(r.s) && r.s[i] >= '0' && r.s[i] <= '9' {
		i++
	}
	n := r.s[start:i]
	switch {
	case i == digits, r.s[digits] == '0' && i > digits+1:
		return "", false
	case i < len(r.s) && r.s[i] != ',' && r.s[i] != '}' && r.s[i] != ']' && r.s[i] != ' ' && r.s[i] != '\n' && r.s[i] != '\t' && r.s[i] != '\r':
		return "", false
	}
	r.i = i
	return n, true
}

func (r *Reader) Int(p *int) bool {
	n, ok := r.whole()
	if !ok {
		return false
	}
	v, err := strconv.Atoi(n)
	*p = v
	return err == nil
}

func (r *Reader) Uint64(p *uint64) bool {
	n, ok := r.whole()
	if !ok || n[0] == '-' {
		return false
	}
	v, err := strconv.ParseUint(n, 10, 64)
	*p = v
	return err == nil
}

// Strings reads an array of strings.
func (r *Reader) Strings() ([]string, bool) {
	if !r.Byte('[') {
		return nil, false
	}
	out := []string{}
	if r.Byte(']') {
		return out, true
	}
	for {
		s, ok := r.String()
		if !ok {
			return nil, false
		}
		out = append(out, s)
		if r.Byte(']') {
			return out, true
		}
		if !r.Byte(',') {
			return nil, false
		}
	}
}

// StrMap reads null (nil) or an object into a map, each value by read. A
// null value is handed on to encoding/json, which has its own way with it.
func StrMap[V any](r *Reader, p *map[string]V, read func(*V) bool) bool {
	if r.Literal("null") {
		*p = nil
		return true
	}
	m := map[string]V{}
	*p = m
	return r.Object(func(key string) bool {
		r.Space()
		if r.i < len(r.s) && r.s[r.i] == 'n' {
			return false
		}
		var v V
		if !read(&v) {
			return false
		}
		m[key] = v
		return true
	})
}
