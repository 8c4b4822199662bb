package state

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"testing"
	"time"

	"github.com/conch-sh/conch/state/store"
)

func sampleIndex(n int) *Index {
	ix := &Index{Chats: map[string]*Summary{}}
	at := time.Date(2026, 11, 29, 12, 0, 0, 123456789, time.UTC)
	for i := 1; i <= n; i++ {
		id := "c_" + strconv.Itoa(i)
		s := &Summary{ID: id, Title: "Chat number " + strconv.Itoa(i), Status: StatusIdle, Folder: "/src/app", Computer: "laptop", LastActive: at}
		if i%3 == 0 {
			s.ReplyStarted, s.ReplyPlace, s.ReplyComputer, s.ReplyPID, s.ReplyPIDStart = at, "/src/app", "laptop", 4242, 99
		}
		ix.Chats[id] = s
	}
	return ix
}

func TestIndexRoundTrip(t *testing.T) {
	ix := sampleIndex(5)
	odd := ix.Chats["c_2"]
	odd.Title, odd.Folder, odd.Origin, odd.Parent = "tab\there \\ back\nline | pipe", "/dir\twith\\odd|\"q\"", "app:telegram", "c_1"
	odd.Archived, odd.Browser, odd.Outside, odd.Person, odd.Waits, odd.Incoming, odd.Recovery = true, true, true, true, true, true, true
	odd.TaskState = TaskRunning
	data, err := json.MarshalIndent(ix, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	if !json.Valid(data) {
		t.Fatal("the index is not JSON")
	}
	var got Index
	if err := json.Unmarshal(data, &got); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(ix, &got) {
		t.Errorf("round trip:\n got %+v\nwant %+v", got.Chats["c_2"], ix.Chats["c_2"])
	}
}

func TestIndexRefusesWhatItDidNotWrite(t *testing.T) {
	for _, bad := range []string{
		`{"version":2,"chats":[]}`,
		`{"version":1,"chats":["c_1|only three|fields"]}`,
		`{"version":1,"chats":["../x|t|||idle||/|l||||||0|0"]}`,
		`{"version":1,"chats":["c_1|t|||idle|Z|/|l||||||0|0"]}`,
		`{"version":1,"chats":["c_1|t|||idle||/|l|soon||||||0|0"]}`,
		`{"version":1,"chats":["c_1|t|||idle||/|l||||||0|0","c_1|t|||idle||/|l||||||0|0"]}`,
		`{"version":1,"chats":["c_1|t|||idle||/|l||||||0|0"`,
		`{"version":1,"chats":["c_1|t|||idle||/|l||||||0|0"]} trailing`,
	} {
		var ix Index
		if err := json.Unmarshal([]byte(bad), &ix); err == nil {
			t.Errorf("%s: read without an error", bad)
		}
	}
}

func FuzzIndexLine(f *testing.F) {
	f.Add("c_1", "Title", "/src", true, int64(1700000000000000000))
	f.Add("t_9", "a\tb\\c\nd|e", "/x\\\t|", false, int64(0))
	f.Fuzz(func(t *testing.T, id, title, folder string, archived bool, at int64) {
		if !ValidID(id) {
			id = "c_1"
		}
		s := &Summary{ID: id, Title: title, Folder: folder, Archived: archived}
		if at != 0 {
			s.LastActive = time.Unix(0, at).UTC()
		}
		got, err := parseSummary(s.line())
		if err != nil {
			t.Fatalf("a line conch wrote does not parse: %v", err)
		}
		if !reflect.DeepEqual(s, got) {
			t.Fatalf("round trip: got %+v, want %+v", got, s)
		}
	})
}

func BenchmarkReadIndex1000(b *testing.B) {
	dir := b.TempDir()
	data, err := json.Marshal(sampleIndex(1000))
	if err != nil {
		b.Fatal(err)
	}
	p := filepath.Join(dir, "index.json")
	if err := os.WriteFile(p, data, 0o600); err != nil {
		b.Fatal(err)
	}
	h := &Home{Dir: dir, store: store.NewFiles(dir, nil, 0)}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := newView(h).Chats().Index(); err != nil {
			b.Fatal(err)
		}
	}
}

// TestIndexFastAndSlowAgree: the hand reader and encoding/json read the
// same lines from what conch writes, indented or not.
func TestIndexFastAndSlowAgree(t *testing.T) {
	ix := sampleIndex(4)
	ix.Chats["c_1"].Title = "quote \" back \\ pipe | tab \t"
	for _, indent := range []bool{false, true} {
		var data []byte
		var err error
		if indent {
			data, err = json.MarshalIndent(ix, "", " ")
		} else {
			data, err = json.Marshal(ix)
		}
		if err != nil {
			t.Fatal(err)
		}
		fast, ok := fastIndexLines(data)
		if !ok {
			t.Fatalf("the hand reader refused what conch wrote:\n%s", data)
		}
		var f indexFile
		if err := json.Unmarshal(data, &f); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(fast, f.Chats) {
			t.Errorf("hand reader %q, encoding/json %q", fast, f.Chats)
		}
	}
}

// FuzzIndexLines: whatever the bytes, the index's hand reader either turns
// them away or finds the very lines encoding/json finds.
func FuzzIndexLines(f *testing.F) {
	f.Add([]byte(`{"version":1,"fields":["id"],"chats":["c_1|x|||idle||/w|x|1795953600000000000|||||0|0"]}`))
	f.Add([]byte("{\"version\": 1, \"fields\": [], \"chats\": [\"c_1|caf\xe9\", \"a\\\"b\", \"\\u00e9\"]}"))
	f.Add([]byte(`{"version":1,"fields":[],"chats":[]}` + "\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		fast, ok := fastIndexLines(data)
		if !ok {
			return
		}
		var slow indexFile
		if err := json.Unmarshal(data, &slow); err != nil {
			t.Fatalf("the hand reader took what encoding/json turns away (%v): %q", err, data)
		}
		if slow.Version != indexVersion || !reflect.DeepEqual(fast, slow.Chats) {
			t.Fatalf("hand reader %q, encoding/json %q (version %d), from %q", fast, slow.Chats, slow.Version, data)
		}
	})
}
