package codec

import (
	"encoding/json"
	"reflect"
	"strconv"
	"time"
	"unicode/utf8"
)

// NewWriter is a Writer with room for size bytes.
func NewWriter(size int) Writer { return Writer{b: make([]byte, 0, size)} }

// Bytes is what was written, or the first error met (a time it could not
// write).
func (w *Writer) Bytes() ([]byte, error) { return w.b, w.err }

// Null writes null, the value of the key just written.
func (w *Writer) Null() { w.b = append(w.b, "null"...) }

// Uint writes a whole number that is not negative.
func (w *Writer) Uint(key string, v uint64) {
	w.Key(key)
	w.b = strconv.AppendUint(w.b, v, 10)
}

// Writer writes JSON indented as json.MarshalIndent(v, "", " ") does.
type Writer struct {
	b     []byte
	count []int // members written so far, per object or array open
	err   error
}

func (w *Writer) Open(c byte) {
	w.b = append(w.b, c)
	w.count = append(w.count, 0)
}

func (w *Writer) Close(c byte) {
	n := w.count[len(w.count)-1]
	w.count = w.count[:len(w.count)-1]
	if n > 0 {
		w.newline()
	}
	w.b = append(w.b, c)
}

func (w *Writer) newline() {
	w.b = append(w.b, '\n')
	for range w.count {
		w.b = append(w.b, ' ')
	}
}

// Member begins a member of the object or array open.
func (w *Writer) Member() {
	if w.count[len(w.count)-1] > 0 {
		w.b = append(w.b, ',')
	}
	w.count[len(w.count)-1]++
	w.newline()
}

func (w *Writer) Key(k string) {
	w.Member()
	w.b = append(w.b, '"')
	w.b = append(w.b, k...)
	w.b = append(w.b, `": `...)
}

func (w *Writer) Str(key, s string) {
	w.Key(key)
	w.quote(s)
}

func (w *Writer) StrOmit(key, s string) {
	if s != "" {
		w.Str(key, s)
	}
}

func (w *Writer) Strs(key string, list []string) {
	w.Key(key)
	if list == nil {
		w.b = append(w.b, "null"...)
		return
	}
	w.Open('[')
	for _, s := range list {
		w.Member()
		w.quote(s)
	}
	w.Close(']')
}

func (w *Writer) StrsOmit(key string, list []string) {
	if len(list) > 0 {
		w.Strs(key, list)
	}
}

func (w *Writer) Bool(key string, v bool) {
	w.Key(key)
	w.b = strconv.AppendBool(w.b, v)
}

func (w *Writer) Int(key string, v int) {
	w.Key(key)
	w.b = strconv.AppendInt(w.b, int64(v), 10)
}

// Time writes what time.Time's own MarshalJSON writes, as encoding/json
// has it; a year it cannot write is the same error.
func (w *Writer) Time(key string, t time.Time) {
	w.Key(key)
	b, err := t.MarshalJSON()
	if err != nil && w.err == nil {
		w.err = &json.MarshalerError{Type: reflect.TypeFor[time.Time](), Err: err}
	}
	w.b = append(w.b, b...)
}

// quote writes s as a JSON string. A string with nothing to escape (the
// common case: ids, paths, words) is copied; any other is quoted by
// encoding/json, whose escapes (HTML characters, U+2028, bytes that are not
// UTF-8) stay the rule.
func (w *Writer) quote(s string) {
	ascii := true
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c < 0x20, c == '"', c == '\\', c == '<', c == '>', c == '&':
			w.quoteSlow(s)
			return
		case c >= 0x80:
			ascii = false
		}
	}
	if !ascii {
		for _, r := range s {
			if r == utf8.RuneError || r == '\u2028' || r == '\u2029' {
				w.quoteSlow(s)
				return
			}
		}
	}
	w.b = append(w.b, '"')
	w.b = append(w.b, s...)
	w.b = append(w.b, '"')
}

func (w *Writer) quoteSlow(s string) {
	b, _ := json.Marshal(s) // a string always marshals
	w.b = append(w.b, b...)
}
