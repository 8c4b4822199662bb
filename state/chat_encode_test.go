package state

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"reflect"
	"testing"
	"time"
)

// sameAsMarshalIndent fails the test unless the hand writer writes c byte
// for byte as json.MarshalIndent does, or fails as it does.
func sameAsMarshalIndent(t *testing.T, c *Chat) {
	t.Helper()
	want, wantErr := json.MarshalIndent(c, "", " ")
	got, err := encodeChat(c)
	if (err == nil) != (wantErr == nil) || (err != nil && err.Error() != wantErr.Error()) {
		t.Fatalf("the hand writer said %v, encoding/json %v", err, wantErr)
	}
	if err == nil && !bytes.Equal(got, want) {
		t.Fatalf("the hand writer wrote\n%s\nencoding/json wrote\n%s", got, want)
	}
}

// TestEncodeChatIsMarshalIndent: records with every field set, and with
// some nil, empty or zero, are written as encoding/json writes them. A
// field added to the record without a line in encodeChat fails here.
func TestEncodeChatIsMarshalIndent(t *testing.T) {
	rnd := rand.New(rand.NewPCG(7, 8))
	for i := 0; i < 300; i++ {
		var c Chat
		fillRandom(reflect.ValueOf(&c).Elem(), rnd, i%3 == 0)
		sameAsMarshalIndent(t, &c)
	}
	sameAsMarshalIndent(t, &Chat{})
	sameAsMarshalIndent(t, &Chat{Reply: &Reply{Files: []string{}}, Inbox: []string{}, Recent: []RecentSend{}})
	// A year no RFC 3339 time can say: the same error.
	sameAsMarshalIndent(t, &Chat{Created: time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC)})
	// What must be escaped, and what must not.
	for _, s := range []string{"<a&b>", "\u2028\u2029", "bad \xff byte", "\x00\x1f\b\f\n\r\t", "\ufffd ok", "ünï 語", `"\`} {
		sameAsMarshalIndent(t, &Chat{Title: s, Reply: &Reply{Files: []string{s}}})
	}
}

// FuzzEncodeChat: any record encoding/json reads, with any string put in
// its fields, is written by hand as encoding/json writes it.
func FuzzEncodeChat(f *testing.F) {
	f.Add([]byte(`{"id":"c_1","reply":{"id":"c_1.1","files":["/a"]},"recent":[{"to":"c_2"}]}`), "Fix <it> & \u2028")
	f.Add([]byte(`{"task":{"state":"running"},"wake":{"reason":"message"},"stopped":{"by":"c_2"}}`), "bad \xff")
	f.Fuzz(func(t *testing.T, data []byte, s string) {
		var c Chat
		if json.Unmarshal(data, &c) != nil {
			c = Chat{}
		}
		sameAsMarshalIndent(t, &c)
		c.Title, c.Goal = s, s
		if c.Reply == nil {
			c.Reply = &Reply{}
		}
		c.Reply.Text, c.Reply.Files = s, append(c.Reply.Files, s)
		c.Watchers = append(c.Watchers, s)
		sameAsMarshalIndent(t, &c)
	})
}

// BenchmarkEncodeChat: a busy chat's record, by hand and by encoding/json.
func BenchmarkEncodeChat(b *testing.B) {
	var c Chat
	if !decodeChat(benchRecord(b), &c) {
		b.Fatal("handed on")
	}
	b.Run("hand", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			if _, err := encodeChat(&c); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("encoding-json", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			if _, err := json.MarshalIndent(&c, "", " "); err != nil {
				b.Fatal(err)
			}
		}
	})
}
