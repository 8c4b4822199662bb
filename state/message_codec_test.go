package state

import (
	"encoding/json"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// sameAsJSONBy fails the test unless decode, when it takes data, reads
// what encoding/json reads.
func sameAsJSONBy[T any](t *testing.T, data []byte, decode func([]byte, *T) bool) (took bool) {
	t.Helper()
	var fast T
	if !decode(data, &fast) {
		return false
	}
	var slow T
	if err := json.Unmarshal(data, &slow); err != nil {
		t.Fatalf("the hand reader took what encoding/json turns away (%v):\n%s", err, data)
	}
	if !reflect.DeepEqual(fast, slow) {
		t.Fatalf("the hand reader read\n%+v\nencoding/json read\n%+v\nfrom\n%s", fast, slow, data)
	}
	return true
}

// sameMessageAsJSON: decodeMessage reads what encoding/json reads.
func sameMessageAsJSON(t *testing.T, data []byte) bool {
	t.Helper()
	return sameAsJSONBy(t, data, decodeMessage)
}

// TestDecodeMessageReadsWhatConchWrites: a message record conch writes is
// read by hand, as encoding/json reads it. A field added to Message
// without a word in decodeMessage fails here.
func TestDecodeMessageReadsWhatConchWrites(t *testing.T) {
	rnd := rand.New(rand.NewPCG(5, 6))
	for i := 0; i < 300; i++ {
		var m Message
		fillRandom(reflect.ValueOf(&m).Elem(), rnd, i%3 == 0)
		for _, indent := range []bool{true, false} {
			data, err := json.Marshal(&m)
			if indent {
				data, err = json.MarshalIndent(&m, "", " ")
			}
			if err != nil {
				t.Fatal(err)
			}
			if !sameMessageAsJSON(t, data) {
				t.Fatalf("the hand reader turned away a message conch writes:\n%s", data)
			}
		}
	}
}

// TestDecodeMessageHandsOn: what encoding/json would read another way is
// handed on to it.
func TestDecodeMessageHandsOn(t *testing.T) {
	for _, data := range []string{
		`{"id":"m_1","id":"m_2"}`, `{"ID":"m_1"}`, `{"text":null}`, `{"sent":"yesterday"}`,
		`{"answer":{"state":"a"},"answer":{"delivery":"b"}}`, `{"watched":nul}`, `{"taint":["a",]}`,
		`{"id":"m_1"} {}`, `null`, ``, `{"unknown":1}`,
	} {
		if sameMessageAsJSON(t, []byte(data)) {
			t.Errorf("the hand reader took %s, which it should hand on", data)
		}
	}
	for _, data := range []string{`{"watched":null}`, `{"watched":true,"taint":[]}`, `{"text":"\u00e9 \"q\""}`} {
		if !sameMessageAsJSON(t, []byte(data)) {
			t.Errorf("the hand reader handed on %s", data)
		}
	}
}

// FuzzDecodeMessage: whatever the bytes, the hand reader either hands them
// on or reads exactly what encoding/json reads. Seeds: every message of the
// fault walk's home.
func FuzzDecodeMessage(f *testing.F) {
	paths, _ := filepath.Glob(filepath.Join(fuzzTemplate(f), "messages", "*.json"))
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Add([]byte(`{"id":"m_1","answer":{"state":"waiting"},"watched":false,"taint":["page"]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		sameMessageAsJSON(t, data)
	})
}

// TestDecodeClaimsReadsWhatConchWrites: claims.json as conch writes it is
// read by hand, as encoding/json reads it; a field added to Claim without a
// word in decodeClaims fails here.
func TestDecodeClaimsReadsWhatConchWrites(t *testing.T) {
	rnd := rand.New(rand.NewPCG(7, 8))
	for i := 0; i < 300; i++ {
		var f claimsFile
		fillRandom(reflect.ValueOf(&f).Elem(), rnd, i%3 == 0)
		data, err := json.MarshalIndent(&f, "", " ")
		if err != nil {
			t.Fatal(err)
		}
		if !sameAsJSONBy(t, data, decodeClaims) {
			t.Fatalf("the hand reader turned away claims conch writes:\n%s", data)
		}
	}
	for _, data := range []string{`{"claims":[{"pid":1.5}]}`, `{"claims":[{"chat":"c_1"},]}`, `{"claims":{}}`, `{"Claims":[]}`} {
		if sameAsJSONBy(t, []byte(data), decodeClaims) {
			t.Errorf("the hand reader took %s, which it should hand on", data)
		}
	}
}

// FuzzDecodeClaims: the hand reader of claims.json hands on, or reads what
// encoding/json reads.
func FuzzDecodeClaims(f *testing.F) {
	f.Add([]byte(`{"claims":[{"chat":"c_1","pattern":"/w/a.go","glob":false,"since":"2026-11-29T12:00:00Z","until":"2026-11-29T14:00:00Z","pid":1,"pid_start":18,"computer":"vm"}]}`))
	f.Add([]byte(`{"claims":null}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		sameAsJSONBy(t, data, decodeClaims)
	})
}

// TestDecodeSessionReadsWhatConchWrites: a session's link as conch writes
// it is read by hand, as encoding/json reads it; a field added to
// SessionLink or Tombstone without a word in decodeSession fails here.
func TestDecodeSessionReadsWhatConchWrites(t *testing.T) {
	rnd := rand.New(rand.NewPCG(9, 10))
	for i := 0; i < 300; i++ {
		var l SessionLink
		fillRandom(reflect.ValueOf(&l).Elem(), rnd, i%3 == 0)
		data, err := json.MarshalIndent(&l, "", " ")
		if err != nil {
			t.Fatal(err)
		}
		if !sameAsJSONBy(t, data, decodeSession) {
			t.Fatalf("the hand reader turned away a link conch writes:\n%s", data)
		}
	}
	for _, data := range []string{`{"agents":{"a":null}}`, `{"deleted":{"c_1":null}}`, `{"agents":{"a":"c_2","a":"c_3"}}`, `{"Chat":"c_1"}`, `{"shells":[]}`} {
		if sameAsJSONBy(t, []byte(data), decodeSession) {
			t.Errorf("the hand reader took %s, which it should hand on", data)
		}
	}
}

// FuzzDecodeSession: the hand reader of a session's link hands on, or
// reads what encoding/json reads.
func FuzzDecodeSession(f *testing.F) {
	f.Add([]byte(`{"harness":"claude","session":"s1","chat":"c_1","agents":{"a1":"c_2"},"created":"2026-11-29T12:00:00Z","deleted":{"c_3":{"origin":"yours","mode":"ask","taint":{"outside":["web"]}}},"shells":{"t1":""}}`))
	f.Add([]byte(`{"agents":null,"deleted":{},"shells":{"t1":"a\u00e9"}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		sameAsJSONBy(t, data, decodeSession)
	})
}

// scanAll is what scanClaims hands over, stopping after stop claims (0:
// never).
func scanAll(data []byte, stop int) (got []Claim, stopped, ok bool) {
	stopped, ok = scanClaims(data, func(cl *Claim) bool {
		got = append(got, *cl)
		return stop == 0 || len(got) < stop
	})
	return got, stopped, ok
}

// TestScanClaimsStopsWhereAsked: claims are handed over one at a time, and
// a reader that has enough reads no further: what lies past it, even bytes
// that are no JSON, costs it nothing.
func TestScanClaimsStopsWhereAsked(t *testing.T) {
	claim := func(chat string) string {
		return `{"chat":"` + chat + `","pattern":"/w/a.go","glob":false,"since":"2026-11-29T12:00:00Z","until":"2026-11-29T14:00:00Z","computer":"vm"}`
	}
	whole := `{"claims":[` + claim("c_1") + `,` + claim("c_2") + `,` + claim("c_3") + `]}`
	got, stopped, ok := scanAll([]byte(whole), 0)
	if !ok || stopped || len(got) != 3 || got[2].Chat != "c_3" {
		t.Fatalf("the whole document: %d claims, stopped %v, ok %v", len(got), stopped, ok)
	}
	torn := `{"claims":[` + claim("c_1") + `,` + claim("c_2") + `,{"chat":` // cut short after two
	got, stopped, _ = scanAll([]byte(torn), 2)
	if !stopped || len(got) != 2 || got[1].Chat != "c_2" {
		t.Fatalf("stopped after two: %d claims, stopped %v", len(got), stopped)
	}
	if _, stopped, ok := scanAll([]byte(torn), 0); stopped || ok {
		t.Fatal("a document cut short was read as whole")
	}
	if got, _, ok := scanAll([]byte(`{"claims":null}`), 0); !ok || len(got) != 0 {
		t.Fatalf("no claims: %v %v", got, ok)
	}
	for _, data := range []string{`{"claims":[],"claims":[]}`, `{}`, `{"claims":[]} x`} {
		if _, _, ok := scanAll([]byte(data), 0); ok {
			t.Errorf("%s was taken as conch writes claims.json", data)
		}
	}
}

// FuzzScanClaims: what scanClaims hands over is what decodeClaims reads,
// claim for claim, and stopping after k hands over the first k.
func FuzzScanClaims(f *testing.F) {
	f.Add([]byte(`{"claims":[{"chat":"c_1","pattern":"/w/a.go","glob":false,"since":"2026-11-29T12:00:00Z","until":"2026-11-29T14:00:00Z","pid":1,"pid_start":18,"computer":"vm"},{"chat":"c_2"}]}`), uint8(1))
	f.Add([]byte(`{"claims":null}`), uint8(0))
	f.Fuzz(func(t *testing.T, data []byte, stop uint8) {
		var f claimsFile
		whole := decodeClaims(data, &f)
		got, stopped, ok := scanAll(data, 0)
		var keys map[string]json.RawMessage
		if whole && !ok && json.Unmarshal(data, &keys) == nil && keys["claims"] == nil {
			return // no claims key: not as conch writes it (TestScanClaimsStopsWhereAsked)
		}
		if ok != whole {
			t.Fatalf("scanClaims ok %v, decodeClaims %v", ok, whole)
		}
		if !whole {
			return
		}
		if stopped || len(got) != len(f.Claims) || len(got) > 0 && !reflect.DeepEqual(got, f.Claims) {
			t.Fatalf("scanClaims handed over %v, decodeClaims read %v", got, f.Claims)
		}
		if k := int(stop); k > 0 && k <= len(f.Claims) {
			part, stopped, _ := scanAll(data, k)
			if !stopped && k < len(f.Claims) || len(part) != k || !reflect.DeepEqual(part, f.Claims[:k]) {
				t.Fatalf("stopped after %d: %v (stopped %v)", k, part, stopped)
			}
		}
	})
}
