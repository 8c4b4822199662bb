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
