package harness

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

// sameFields fails the test unless splitObject, when it takes data, splits
// it as encoding/json does, and a string field reads as encoding/json
// reads it.
func sameFields(t *testing.T, data []byte) (took bool) {
	t.Helper()
	fast, ok := splitObject(data)
	if !ok {
		return false
	}
	var slow Fields
	if err := json.Unmarshal(data, &slow); err != nil {
		t.Fatalf("splitObject took what encoding/json turns away (%v):\n%q", err, data)
	}
	if !reflect.DeepEqual(fast, slow) {
		t.Fatalf("splitObject split\n%q\nencoding/json\n%q\nfrom\n%q", fast, slow, data)
	}
	for key, raw := range fast {
		if s, ok := plainString(raw); ok {
			var want string
			if err := json.Unmarshal(raw, &want); err != nil || s != want {
				t.Fatalf("field %q: plainString read %q, encoding/json %q (%v)", key, s, want, err)
			}
		}
	}
	return true
}

// TestSplitObject: the events harnesses send are split by hand, as
// encoding/json splits them; what the scanner does not take is left to
// encoding/json, and what is not JSON is never taken.
func TestSplitObject(t *testing.T) {
	for _, data := range []string{
		`{}`,
		` {"a":1} `,
		`{"session_id":"s","tool_input":{"file_path":"/w/a.go","old_string":"a\nb","n":[1,-2.5e+3,true,false,null,{}]},"x":"é\u00e9\"\\\/\b\f\n\r\t"}`,
		`{"a":1,"a":2}`,
		"{\"a\":\"\xff\"}",
		"{\t\"a\"\r\n:\n[ ]\n}",
	} {
		if !sameFields(t, []byte(data)) {
			t.Errorf("splitObject left %q to encoding/json", data)
		}
	}
	for _, data := range []string{
		``, `null`, `[]`, `{`, `{"a"}`, `{"a":}`, `{"a":1,}`, `{"a":1}x`, `{"a":01}`, `{"a":1.}`, `{"a":.5}`,
		`{"a":-}`, `{"a":1e}`, `{"a":tru}`, `{"a":"\x01"}`, `{"a":"\q"}`, `{"a":"\u12g4"}`, `{"a":[1 2]}`,
		`{"a":{"b" 1}}`, `{"a":{1:2}}`, `{"é":1}`, `{"a\"b":1}`, `{"a":"unterminated}`,
		`{"a":` + strings.Repeat("[", maxDepth+2) + strings.Repeat("]", maxDepth+2) + `}`,
	} {
		if sameFields(t, []byte(data)) {
			t.Errorf("splitObject took %q", data)
		}
	}
}

// TestParseObject: an event the scanner leaves to encoding/json still
// reads, and one that is not JSON says why.
func TestParseObject(t *testing.T) {
	f, err := ParseObject([]byte(`{"\u0061":"b","é":{"c":1}}`))
	if err != nil || f.Str("a") != "b" || f.Obj("é") == nil {
		t.Fatalf("an object with escaped and non-ASCII keys: %v %v", f, err)
	}
	if _, err := ParseObject([]byte(`{"a":1,}`)); err == nil {
		t.Fatal("not JSON, and no error")
	}
	if f := (Fields{"t": json.RawMessage(`true`), "f": json.RawMessage(` false`), "s": json.RawMessage(`"true"`)}); !f.Flag("t") || f.Flag("f") || f.Flag("s") || f.Flag("none") {
		t.Fatal("Flag reads a field other than as encoding/json does")
	}
}

// FuzzSplitObject: the hand splitter of events hands on, or splits as
// encoding/json does.
func FuzzSplitObject(f *testing.F) {
	f.Add([]byte(`{"session_id":"BENCH","cwd":"/w","hook_event_name":"PreToolUse","tool_name":"Edit","tool_input":{"file_path":"/w/a.go","old_string":"a","new_string":"b"},"tool_use_id":"t1"}`))
	f.Add([]byte(`{"a":[1,-0.5E-7,{"b":null}],"c":"\u00e9\n"}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		sameFields(t, data)
		if f, ok := splitObject(data); ok {
			for key := range f {
				if got := f.Flag(key); got != (bytes.Equal(f[key], []byte("true"))) {
					t.Fatalf("Flag(%q) = %v of %q", key, got, f[key])
				}
			}
		}
	})
}
