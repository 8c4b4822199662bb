package store

import (
	"bytes"
	"errors"
	"hash/crc32"
	"math/rand/v2"
	"reflect"
	"testing"
)

func sampleJournal() *journal {
	return &journal{durable: true, entries: []journalEntry{
		{rel: "messages/m_1.json", data: []byte("{\n \"id\": \"m_1\"\n}\n"), durable: true},
		{rel: "chats/c_1.json", data: []byte("{}\n")},
		{rel: "index.json", data: []byte{}, durable: true},
		{rel: "log/c_2", remove: true},
	}}
}

// A journal reads back as it was written, and any journal cut short, or
// with a byte changed, is torn: nothing was committed.
func TestJournalTorn(t *testing.T) {
	j := sampleJournal()
	data := j.encode()
	got, err := decodeJournal(data)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, j) {
		t.Fatalf("read back %+v, want %+v", got, j)
	}
	for n := 0; n < len(data); n++ {
		if _, err := decodeJournal(data[:n]); !errors.Is(err, errTorn) {
			t.Fatalf("cut at byte %d of %d: %v, want torn", n, len(data), err)
		}
	}
	for i := range data {
		bad := bytes.Clone(data)
		bad[i] ^= 0x20
		if _, err := decodeJournal(bad); !errors.Is(err, errTorn) {
			t.Fatalf("byte %d changed: %v, want torn", i, err)
		}
	}
	for _, rel := range []string{"/etc/passwd", "../x", "a/../../x", "", ".", "a//b", "a/./b"} {
		j := &journal{entries: []journalEntry{{rel: rel, data: []byte("x")}}}
		if _, err := decodeJournal(j.encode()); !errors.Is(err, errTorn) {
			t.Errorf("a journal naming %q: %v, want refused as torn", rel, err)
		}
	}
}

func FuzzJournal(f *testing.F) {
	f.Add(sampleJournal().encode())
	f.Add([]byte(journalHead + "end 0 00000000\n"))
	f.Add([]byte(journalHead + "write 1 99999999999 x\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		j, err := decodeJournal(data)
		if err != nil {
			if !errors.Is(err, errTorn) {
				t.Fatalf("an error that is not torn: %v", err)
			}
			return
		}
		again, err := decodeJournal(j.encode())
		if err != nil || !reflect.DeepEqual(again, j) {
			t.Fatalf("a journal read, written and read again changed: %+v, %+v, %v", j, again, err)
		}
		for _, e := range j.entries {
			if !journalPath(e.rel) {
				t.Fatalf("a journal naming %q was read", e.rel)
			}
		}
	})
}

// TestChecksumIEEE: the journal's checksum is hash/crc32's IEEE checksum,
// so a journal an older conch wrote still reads.
func TestChecksumIEEE(t *testing.T) {
	rnd := rand.New(rand.NewPCG(3, 4))
	for n := 0; n < 300; n++ {
		b := make([]byte, n*7)
		for i := range b {
			b[i] = byte(rnd.Uint32())
		}
		if got, want := checksumIEEE(b), crc32.ChecksumIEEE(b); got != want {
			t.Fatalf("%d bytes: %08x, hash/crc32 says %08x", len(b), got, want)
		}
	}
}
