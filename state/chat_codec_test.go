package state

import (
	"encoding/json"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

// fillRandom sets every field of v (a struct, walked deep) to a random
// value, none of them zero when full: so a record made from it names every
// field its type has. Strings mix plain words with what JSON must escape
// and with text beyond ASCII.
func fillRandom(v reflect.Value, rnd *rand.Rand, full bool) {
	words := []string{"c_1", "/work/a b", "Fix the bug", "say \"hi\"", "tab\there", "ünï 語", "<&>", "back\\slash", "\u2028", ""}
	switch v.Kind() {
	case reflect.String:
		v.SetString(words[rnd.IntN(len(words)-1)] + strings.Repeat("x", rnd.IntN(3)))
		if !full && rnd.IntN(3) == 0 {
			v.SetString("")
		}
	case reflect.Bool:
		v.SetBool(full || rnd.IntN(2) == 0)
	case reflect.Int:
		v.SetInt(int64(rnd.IntN(1<<20)) - 1000)
		if full && v.Int() == 0 {
			v.SetInt(7)
		}
	case reflect.Uint64:
		v.SetUint(rnd.Uint64() | 1)
	case reflect.Slice:
		n := rnd.IntN(4)
		if full {
			n = 1 + rnd.IntN(3)
		} else if rnd.IntN(4) == 0 {
			return // nil
		}
		s := reflect.MakeSlice(v.Type(), n, n)
		for i := 0; i < n; i++ {
			fillRandom(s.Index(i), rnd, full)
		}
		v.Set(s)
	case reflect.Pointer:
		if !full && rnd.IntN(3) == 0 {
			return // nil
		}
		p := reflect.New(v.Type().Elem())
		fillRandom(p.Elem(), rnd, full)
		v.Set(p)
	case reflect.Struct:
		if v.Type() == reflect.TypeFor[time.Time]() {
			t := time.Unix(1700000000+rnd.Int64N(1e8), rnd.Int64N(1e9)).UTC()
			if rnd.IntN(4) == 0 {
				t = t.In(time.FixedZone("", 3600))
			}
			v.Set(reflect.ValueOf(t))
			return
		}
		for i := 0; i < v.NumField(); i++ {
			if v.Type().Field(i).IsExported() { // the rest is never written
				fillRandom(v.Field(i), rnd, full)
			}
		}
	case reflect.Map:
		n := rnd.IntN(4)
		if full {
			n = 1 + rnd.IntN(3)
		} else if rnd.IntN(4) == 0 {
			return // nil
		}
		m := reflect.MakeMapWithSize(v.Type(), n)
		for i := 0; i < n; i++ {
			k, e := reflect.New(v.Type().Key()).Elem(), reflect.New(v.Type().Elem()).Elem()
			fillRandom(k, rnd, full)
			fillRandom(e, rnd, true) // a map's value is never null
			m.SetMapIndex(k, e)
		}
		v.Set(m)
	default:
		panic("fillRandom: a field of kind " + v.Kind().String())
	}
}

// sameAsJSON fails the test unless the hand reader, when it takes data,
// reads what encoding/json reads.
func sameAsJSON(t *testing.T, data []byte) (took bool) {
	t.Helper()
	return sameAsJSONBy(t, data, decodeChat)
}

// TestDecodeChatReadsWhatConchWrites: a record conch writes (every field
// set, or some nil and empty) is read by hand, not handed on, and read as
// encoding/json reads it. A field added to the record without a word in
// decodeChat fails here.
func TestDecodeChatReadsWhatConchWrites(t *testing.T) {
	rnd := rand.New(rand.NewPCG(3, 4))
	for i := 0; i < 300; i++ {
		var c Chat
		fillRandom(reflect.ValueOf(&c).Elem(), rnd, i%3 == 0)
		data, err := json.MarshalIndent(&c, "", " ")
		if err != nil {
			t.Fatal(err)
		}
		if !sameAsJSON(t, data) {
			t.Fatalf("the hand reader turned away a record conch writes:\n%s", data)
		}
		compact, _ := json.Marshal(&c)
		if !sameAsJSON(t, compact) {
			t.Fatalf("the hand reader turned away a compact record:\n%s", compact)
		}
	}
}

// TestDecodeChatHandsOn: what encoding/json would read another way, or not
// at all, is handed on to it; strings with escapes or bytes that are not
// UTF-8 are read through encoding/json, and the record by hand.
func TestDecodeChatHandsOn(t *testing.T) {
	for _, data := range []string{
		`{"id":"c_1","id":"c_2"}`,                // said twice: json keeps the last
		`{"reply":{"pid":1},"reply":{"id":"x"}}`, // twice: json merges
		`{"ID":"c_1"}`,                           // json matches keys without case
		`{"id":null}`,                            // json leaves it as it was
		`{"replies":1.0}`, `{"replies":1e2}`,     // not a whole number as written
		`{"replies":01}`, `{"replies":-}`, // not JSON
		`{"reply":{"pid_start":-1}}`,       // not a uint
		`{"replies":99999999999999999999}`, // too big
		"{\"title\":\"a\tb\"}",             // a raw control byte: not JSON
		`{"created":"yesterday"}`,          // not a time
		`{"id":"c_1"} {}`, `{"id":"c_1"`, `null`, ``, `{"unknown":1}`,
		`{"archived":tru}`, `{"archived":nullx}`, `{"replies":null5}`,
		`{"recent":[{"to":"c_2"},]}`, `{"inbox":["m_1",]}`,
	} {
		if sameAsJSON(t, []byte(data)) {
			t.Errorf("the hand reader took %s, which it should hand on", data)
		}
	}
	for _, data := range []string{
		`{"title":"\u00e9"}`, `{"title":"a\"b","reply":null,"recent":[]}`,
		"{\"title\":\"bad \xff byte\"}", // encoding/json puts U+FFFD
		`{"replies":-0,"taint":{},"inbox":[]}`,
	} {
		if !sameAsJSON(t, []byte(data)) {
			t.Errorf("the hand reader handed on %s", data)
		}
	}
}

// FuzzDecodeChat: whatever the bytes, the hand reader either hands them on
// or reads exactly what encoding/json reads. Seeds: testdata/fuzz/
// FuzzDecodeChat (records of the bench's home, escapes, forms to hand on),
// and every record of the fault walk's home.
func FuzzDecodeChat(f *testing.F) {
	dir := fuzzTemplate(f)
	for _, sub := range []string{"chats", "tasks"} {
		paths, _ := filepath.Glob(filepath.Join(dir, sub, "*.json"))
		for _, p := range paths {
			data, err := os.ReadFile(p)
			if err != nil {
				f.Fatal(err)
			}
			f.Add(data)
		}
	}
	f.Add([]byte(`{"reply":{"pid":1},"reply":{"id":"x"}}`))
	f.Add([]byte(`{"recent":[{"to":"c_2","sum":"s","at":"2026-11-29T10:00:00Z"}],"replies":-0}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		sameAsJSON(t, data)
	})
}

// BenchmarkDecodeChat: a busy chat's record, by hand and by encoding/json.
// (In a fresh process encoding/json also pays, once, for learning the
// record's types: see testdata/bench/run for whole commands.)
func BenchmarkDecodeChat(b *testing.B) {
	data := benchRecord(b)
	b.Run("hand", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			var c Chat
			if !decodeChat(data, &c) {
				b.Fatal("handed on")
			}
		}
	})
	b.Run("encoding-json", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			var c Chat
			if err := json.Unmarshal(data, &c); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// benchRecord is a busy chat's record as conch writes it.
func benchRecord(b *testing.B) []byte {
	now := time.Now().UTC()
	c := Chat{
		ID: "c_12", Title: "Fix the login bug", Folder: "/home/ann/src/app", Computer: "laptop",
		Status: StatusIdle, Mode: ModeAsk, Inbound: InboundAccept, Created: now, LastActive: now,
		Replies: 3, Chain: "ch_4", Cards: []string{"m_1", "m_2"},
		Reply: &Reply{ID: "c_12.3", Started: now, Person: true, Chain: "ch_4", Folder: "/home/ann/src/app",
			Computer: "laptop", Place: "/home/ann/src/app", Family: "edit", StepSince: now,
			Files: []string{"/home/ann/src/app/auth.go", "/home/ann/src/app/login.go"}, PID: 4242, PIDStart: 99, Steps: 7},
	}
	data, err := json.MarshalIndent(&c, "", " ")
	if err != nil {
		b.Fatal(err)
	}
	return data
}
