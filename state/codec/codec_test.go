package codec

import (
	"bytes"
	"encoding/json"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// FuzzString holds Reader.String to encoding/json: where the hand reader
// reads a string, it reads what encoding/json reads, and it reads one
// wherever the JSON holds a plain one.
func FuzzString(f *testing.F) {
	for _, s := range []string{`"c_1"`, `"a\"b"`, `"\u00e9\n"`, "\"\xff\"", `"<&>"`, `"`, `""`, ` "x" `, `"a` + "\x01" + `"`,
		`"eight by\\tes and more"`, "\"abcdefghijklmno\x1f\"", `"abcdefgh\u00e9ijklmnop"`, "\"abcdefg\u00e9hijklmnop\"", "\"0123456789abcdef\x7f\xc3\"", `"/a/long/path/of/the/kind/a/claim/holds.go"`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		r := NewReader(in)
		got, ok := r.String()
		var want string
		if strings.HasPrefix(strings.TrimSpace(in), `"`) && json.Unmarshal([]byte(in), &want) == nil {
			// in is one JSON string: the reader reads it, all of it.
			if !ok || !r.Done() || got != want {
				t.Fatalf("%q: read %q (%v), encoding/json %q", in, got, ok, want)
			}
			return
		}
		if ok {
			var part string
			if err := json.Unmarshal([]byte(in[:r.i]), &part); err != nil || part != got {
				t.Fatalf("%q: read %q from %q, encoding/json %q (%v)", in, got, in[:r.i], part, err)
			}
		}
	})
}

// FuzzWriter holds Writer to json.MarshalIndent(v, "", " ") for an
// object of a string, a list of strings, a whole number and a time, and
// Reader to reading them back.
func FuzzWriter(f *testing.F) {
	f.Add("c_1", "a|b", int64(3), int64(1_700_000_000))
	f.Add("<tag> & \u2028", "\xff\x00", int64(-1), int64(0))
	f.Fuzz(func(t *testing.T, s, item string, n, unix int64) {
		at := time.Unix(unix%(1<<40), 0).UTC()
		type doc struct {
			S    string    `json:"s"`
			L    []string  `json:"l"`
			N    int       `json:"n"`
			At   time.Time `json:"at"`
			None []string  `json:"none"`
		}
		v := doc{S: s, L: []string{item, s}, N: int(n), At: at}
		want, err := json.MarshalIndent(v, "", " ")
		if err != nil {
			t.Skip()
		}
		w := NewWriter(64)
		w.Open('{')
		w.Str("s", s)
		w.Strs("l", v.L)
		w.Int("n", v.N)
		w.Time("at", at)
		w.Strs("none", nil)
		w.Close('}')
		got, err := w.Bytes()
		if err != nil || string(got) != string(want) {
			t.Fatalf("wrote %s (%v), json.MarshalIndent %s", got, err, want)
		}
		var back doc
		r := NewReader(string(got))
		ok := r.Object(func(key string) bool {
			switch key {
			case "s":
				return r.Str(&back.S)
			case "l":
				return r.Strs(&back.L)
			case "n":
				return r.Int(&back.N)
			case "at":
				return r.Time(&back.At)
			case "none":
				return r.Strs(&back.None)
			}
			return false
		}) && r.Done()
		var slow doc
		if err := json.Unmarshal(got, &slow); err != nil {
			t.Fatal(err)
		}
		if ok && (back.S != slow.S || !slices.Equal(back.L, slow.L) || back.N != slow.N || !back.At.Equal(slow.At) || back.None != nil) {
			t.Fatalf("read back %+v, encoding/json %+v", back, slow)
		}
	})
}

// FuzzWhole holds Reader.Int to encoding/json's reading of an int.
func FuzzWhole(f *testing.F) {
	for _, s := range []string{"0", "-0", "12", "012", "1e3", "1.5", "-", "99999999999999999999", "7 ", "7x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		var got int
		r := NewReader(in)
		if !r.Int(&got) || !r.Done() {
			return
		}
		var want int
		if err := json.Unmarshal([]byte(in), &want); err != nil || got != want {
			t.Fatalf("%q: read %d, encoding/json %d (%v)", in, got, want, err)
		}
	})
}

// FuzzEscapeField: a line of escaped fields splits back into the fields.
func FuzzEscapeField(f *testing.F) {
	f.Add("a|b", `c\d`, "e\nf")
	f.Add("", "", "")
	f.Fuzz(func(t *testing.T, a, b, c string) {
		line := EscapeField(a) + "|" + EscapeField(b) + "|" + EscapeField(c)
		if got := SplitEscaped(line); !slices.Equal(got, []string{a, b, c}) {
			t.Fatalf("%q split as %q", line, got)
		}
		if strings.Contains(EscapeField(a), "\n") {
			t.Fatalf("%q escaped holds a newline", a)
		}
	})
}

func TestUnixNano(t *testing.T) {
	at := time.Date(2026, 12, 2, 5, 0, 0, 123, time.UTC)
	for _, tm := range []time.Time{{}, at} {
		got, err := ParseUnixNano(UnixNano(tm))
		if err != nil || !got.Equal(tm) {
			t.Errorf("%v came back %v (%v)", tm, got, err)
		}
	}
	if _, err := ParseUnixNano("x"); err == nil || !strings.Contains(err.Error(), `"x"`) {
		t.Errorf("a bad time: %v", err)
	}
}

// BenchmarkStrings reads a thousand index lines, as every chats list does.
func BenchmarkStrings(b *testing.B) {
	lines := make([]string, 1000)
	for i := range lines {
		lines[i] = "c_" + strconv.Itoa(i) + "|a title|routine||idle|op|/home/me/src|laptop|1764650000000000000"
	}
	data, _ := json.Marshal(lines)
	b.ReportAllocs()
	for b.Loop() {
		r := NewReader(string(data))
		if got, ok := r.Strings(); !ok || len(got) != 1000 {
			b.Fatal("not read")
		}
	}
}

// BenchmarkWriter writes an object of the shape of a chat's record.
func BenchmarkWriter(b *testing.B) {
	at := time.Date(2026, 12, 2, 5, 0, 0, 0, time.UTC)
	files := []string{"/home/me/src/a.go", "/home/me/src/b.go"}
	b.ReportAllocs()
	for b.Loop() {
		w := NewWriter(1024)
		w.Open('{')
		for range 10 {
			w.Str("id", "c_12")
			w.StrOmit("reach", "")
			w.Time("created", at)
			w.Strs("files", files)
			w.Bool("archived", false)
		}
		w.Close('}')
		if _, err := w.Bytes(); err != nil {
			b.Fatal(err)
		}
	}
}

// TestPlainString holds plainString's word-at-a-time pass to a byte at a
// time: every byte value, at every place of a string long enough for two
// words and a tail, beside ASCII and beside a byte above it.
func TestPlainString(t *testing.T) {
	for _, fill := range []byte{'a', 0x7f, 0xe9} {
		for n := 0; n <= 19; n++ {
			for at := 0; at < n; at++ {
				for c := 0; c < 256; c++ {
					b := bytes.Repeat([]byte{fill}, n)
					b[at] = byte(c)
					wantPlain, wantASCII := true, true
					for _, x := range b {
						if x < 0x20 || x == '\\' {
							wantPlain = false
						}
						if x >= 0x80 {
							wantASCII = false
						}
					}
					if !wantPlain {
						wantASCII = false
					}
					plain, ascii := plainString(string(b))
					if plain != wantPlain || ascii != wantASCII {
						t.Fatalf("plainString(%q) = %v, %v; want %v, %v", b, plain, ascii, wantPlain, wantASCII)
					}
				}
			}
		}
	}
}

// FuzzTime holds utcTime to time.Time's own reading: where utcTime reads
// a time, time.Time reads the same one, location and all, and every time
// encoding/json writes in UTC utcTime reads.
func FuzzTime(f *testing.F) {
	for _, s := range []string{"2026-12-02T20:14:43.206596865Z", "2026-12-02T20:14:43Z", "0001-01-01T00:00:00Z", "2024-02-29T23:59:59.5Z",
		"2023-02-29T00:00:00Z", "2026-04-31T00:00:00Z", "2026-12-02T24:00:00Z", "2026-12-02T20:14:60Z", "2026-12-02T20:14:43.Z",
		"2026-12-02T20:14:43.1234567891Z", "2026-12-02T20:14:43+01:00", "2026-12-02t20:14:43Z", "+026-12-02T20:14:43Z", "2026-12-02T20:14:43,5Z"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, ok := utcTime(s)
		var want time.Time
		err := want.UnmarshalJSON([]byte(`"` + s + `"`))
		if ok && (err != nil || got != want) {
			t.Fatalf("utcTime(%q) = %v; time.Time reads %v (%v)", s, got, want, err)
		}
		if err == nil && want.Location() == time.UTC {
			b, _ := want.UTC().MarshalJSON()
			if again, ok := utcTime(string(b[1 : len(b)-1])); !ok || again != want.UTC() {
				t.Fatalf("utcTime(%s) = %v, %v: not what encoding/json wrote", b, again, ok)
			}
		}
	})
}

// TestDaysIn: every month of a leap year and of years that are not.
func TestDaysIn(t *testing.T) {
	for _, year := range []int{1900, 2000, 2023, 2024} {
		for m := 1; m <= 12; m++ {
			if got, want := daysIn(m, year), time.Date(year, time.Month(m)+1, 0, 0, 0, 0, 0, time.UTC).Day(); got != want {
				t.Errorf("daysIn(%d, %d) = %d, want %d", m, year, got, want)
			}
		}
	}
}
