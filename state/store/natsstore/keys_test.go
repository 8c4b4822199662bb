package natsstore

import (
	"regexp"
	"strings"
	"testing"
)

// natsKey is what NATS takes as a KV key.
var natsKey = regexp.MustCompile(`^[-/_=.a-zA-Z0-9]+$`)

func TestKeyMapping(t *testing.T) {
	for key, want := range map[string]string{
		"chats/c_1.json":            "r.chats.c_1=2Ejson",
		"log/c_1/000000000001.json": "r.log.c_1.000000000001=2Ejson",
		"config.toml":               "r.config=2Etoml",
		"a b/*>":                    "r.a=20b.=2A=3E",
	} {
		if got := encodeKey(key); got != want {
			t.Errorf("encodeKey(%q) = %q, want %q", key, got, want)
		}
	}
	if got := folderFilter("log/c_1/"); got != "r.log.c_1.>" {
		t.Errorf("folderFilter: %q", got)
	}
}

// FuzzKeyMapping: every key maps to a key NATS takes, with no empty token
// and no wildcard, and back to itself.
func FuzzKeyMapping(f *testing.F) {
	for _, s := range []string{"chats/c_1.json", "", "/", "a//b", "sessions/claude/ab-12.json", "x=41", "é/\x00"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, key string) {
		k := encodeKey(key)
		if !natsKey.MatchString(k) || strings.Contains(k, "..") || strings.HasSuffix(k, ".") {
			t.Fatalf("encodeKey(%q) = %q: not a NATS key", key, k)
		}
		back, ok := decodeKey(k)
		if !ok || back != key {
			t.Fatalf("decodeKey(encodeKey(%q)) = %q %v", key, back, ok)
		}
	})
}

// FuzzServerAnswers: what a server (or another client with the
// credentials) puts in the bucket is input. Whatever keys it lists, a
// folder's names are names (none empty, ".", ".." or twice, a folder's
// with one "/" at its end); a deletion deletes only under its key; a
// journal names only records' keys; a direct get's answer is a record,
// a miss or an error, and never a panic.
func FuzzServerAnswers(f *testing.F) {
	f.Add("r.chats.c_1=2Ejson\nr.chats.=2E=2E\nr.chats.a=2Fb\nr.log.c_1.000000000001=2Ejson\nm.lock", "chats", []byte(`["r.chats.c_1=2Ejson"]`), "", "7", "")
	f.Add("r.=\nr.a.=\nr.chats.c_1=2ejson\nr.chats", "", []byte(`["m.lock","$JS.API.>"]`), "404", "x", "DEL")
	f.Add("r.chats.c_1=2Ejson.x", "chats/c_1.json", []byte(`null`), "503", "", "PURGE")
	f.Fuzz(func(t *testing.T, keys, dir string, journal []byte, status, seq, op string) {
		ks := strings.Split(keys, "\n")
		seen := map[string]bool{}
		for _, n := range listNames(dir, ks) {
			base := strings.TrimSuffix(n, "/")
			if base == "" || base == "." || base == ".." || strings.Contains(base, "/") || seen[n] {
				t.Fatalf("List(%q) of %q gave the name %q", dir, ks, n)
			}
			seen[n] = true
		}
		for _, k := range ks {
			if under(k, dir) && k != encodeKey(dir) && !strings.HasPrefix(k, encodeKey(dir)+".") {
				t.Fatalf("a deletion of %q would delete %q", dir, k)
			}
			if key, ok := decodeKey(k); ok && encodeKey(key) != k {
				t.Fatalf("decodeKey took %q, which conch writes %q", k, encodeKey(key))
			}
		}
		if gone, err := parseJournal(journal); err == nil {
			for _, k := range gone {
				if !natsKey.MatchString(k) || !strings.HasPrefix(k, recordPrefix) {
					t.Fatalf("the journal names %q", k)
				}
			}
		}
		data, there, rev, err := parseDirect(status, "", seq, op, "", journal)
		if err == nil && there && (rev == 0 || string(data) != string(journal)) {
			t.Fatalf("a direct get's answer (%q %q %q) read as %q rev %d", status, seq, op, data, rev)
		}
	})
}
