package store

import (
	"bytes"
	"errors"
	"hash/crc32"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"syscall"
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

// fullFS is a file system with room for the commit's journal and for
// nothing after it: every other write fails as a full disk, or one out of
// inodes, fails it (ENOSPC; EDQUOT is the same to conch).
type fullFS struct {
	OSFS
	full *bool
}

func (f fullFS) WriteFile(name string, data []byte, durable bool) error {
	if *f.full && filepath.Base(name) != JournalName {
		return &fs.PathError{Op: "write", Path: name, Err: syscall.ENOSPC}
	}
	return f.OSFS.WriteFile(name, data, durable)
}

// TestJournalTakenBackOnAFullDisk (issue 29): a commit whose journal was
// written but whose first record cannot be (the disk filled, the inodes
// ran out) is taken back: Commit fails, no record changed, no journal
// stands for the next command to apply.
func TestJournalTakenBackOnAFullDisk(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "home")
	full := false
	h := NewFiles(dir, fullFS{full: &full}, 0)
	commit := func(ws ...Write) error {
		unlock, err := h.Lock(0)
		if err != nil {
			t.Fatal(err)
		}
		defer unlock()
		_, err = h.Commit(ws)
		return err
	}
	if err := commit(Write{Key: "a.json", Data: []byte("1\n"), Class: Durable}, Write{Key: "b/c.json", Data: []byte("1\n"), Class: Durable}); err != nil {
		t.Fatal(err)
	}
	full = true
	err := commit(Write{Key: "a.json", Data: []byte("2\n"), Class: Durable}, Write{Key: "b/c.json", Data: []byte("2\n"), Class: Durable})
	if !errors.Is(err, syscall.ENOSPC) {
		t.Fatalf("a commit on a full disk: %v, want ENOSPC", err)
	}
	if _, err := os.Stat(filepath.Join(dir, JournalName)); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("the journal stands: %v", err)
	}
	full = false
	if err := commit(); err != nil {
		t.Fatal(err)
	}
	for _, key := range []string{"a.json", "b/c.json"} {
		if got, _ := h.Get(key); string(got) != "1\n" {
			t.Errorf("%s is %q after the failed commit and the next lock, want the old record", key, got)
		}
	}
}
