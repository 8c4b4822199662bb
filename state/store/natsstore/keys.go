package natsstore

import (
	"encoding/json"
	"fmt"
	"strings"
)

// A record's key ("chats/c_1.json", "log/c_1/000000000001.json") becomes a
// NATS KV key by a mapping that is one to one and keeps folders as
// subject tokens, so that a folder is a subject wildcard ("r.log.c_1.>"):
//
//   - every record key starts with "r." (the store's own keys, the lock
//     and the journal, start with "m.", so no record can be one);
//   - each "/" becomes ".", the token separator;
//   - every byte of a name that is not a letter, a digit, "_" or "-" is
//     written "=XX" (its two upper-case hex digits): "c_1.json" is
//     "c_1=2Ejson". NATS allows "=" in a key, and the result holds only
//     the characters NATS allows ([-/_=.a-zA-Z0-9]), never an empty
//     token, and never "*" or ">".
//
// An empty name (a key ending in "/", or "//" in one) is written "=".

const (
	recordPrefix = "r."
	lockKey      = "m.lock"
	journalKey   = "m.journal"
)

const hexDigits = "0123456789ABCDEF"

// encodeName writes one name of a key (the part between slashes).
func encodeName(b *strings.Builder, name string) {
	if name == "" {
		b.WriteByte('=')
		return
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-' {
			b.WriteByte(c)
			continue
		}
		b.WriteByte('=')
		b.WriteByte(hexDigits[c>>4])
		b.WriteByte(hexDigits[c&15])
	}
}

// encodeKey is the KV key of the record at key.
func encodeKey(key string) string {
	var b strings.Builder
	b.Grow(len(recordPrefix) + len(key) + 8)
	b.WriteString(recordPrefix)
	for i, name := range strings.Split(key, "/") {
		if i > 0 {
			b.WriteByte('.')
		}
		encodeName(&b, name)
	}
	return b.String()
}

// folderFilter is the KV key filter of every record under the folder dir
// ("" for the whole home).
func folderFilter(dir string) string {
	dir = strings.TrimSuffix(dir, "/")
	if dir == "" {
		return recordPrefix + ">"
	}
	return encodeKey(dir) + ".>"
}

// decodeKey is the record key of a KV key, and false for one that is not
// a record's (the store's own, or one no conch wrote). A key from the
// server is input: only one that is exactly what encodeKey writes for
// what it decodes to is a record's (no "=2F" for a slash inside a name,
// no lower-case hex, no raw byte that conch escapes).
func decodeKey(k string) (string, bool) {
	key, ok := decodeAny(k)
	if !ok || encodeKey(key) != k {
		return "", false
	}
	return key, true
}

func decodeAny(k string) (string, bool) {
	rest, ok := strings.CutPrefix(k, recordPrefix)
	if !ok || rest == "" {
		return "", false
	}
	var b strings.Builder
	b.Grow(len(rest))
	for i := 0; i < len(rest); i++ {
		c := rest[i]
		switch {
		case c == '.':
			b.WriteByte('/')
		case c == '=':
			if i+1 == len(rest) || rest[i+1] == '.' {
				continue // an empty name
			}
			if i+2 >= len(rest) {
				return "", false
			}
			hi, lo := unhex(rest[i+1]), unhex(rest[i+2])
			if hi < 0 || lo < 0 {
				return "", false
			}
			b.WriteByte(byte(hi<<4 | lo))
			i += 2
		default:
			b.WriteByte(c)
		}
	}
	return b.String(), true
}

func unhex(c byte) int {
	switch {
	case c >= '0' && c <= '9':
		return int(c - '0')
	case c >= 'A' && c <= 'F':
		return int(c-'A') + 10
	}
	return -1
}

// listNames are the names directly under the folder dir (store.List's
// answer) among the KV keys ks the server gave: each a record key of that
// folder, a folder's name with a "/" at its end; none empty, none "." or
// "..", none twice, whatever the server sent.
func listNames(dir string, ks []string) []string {
	prefix := strings.TrimSuffix(dir, "/") + "/"
	if prefix == "/" {
		prefix = ""
	}
	seen := map[string]bool{}
	var names []string
	for _, k := range ks {
		key, ok := decodeKey(k)
		if !ok {
			continue
		}
		rest, ok := strings.CutPrefix(key, prefix)
		if !ok || rest == "" {
			continue
		}
		if i := strings.IndexByte(rest, '/'); i >= 0 {
			rest = rest[:i+1]
		}
		if n := strings.TrimSuffix(rest, "/"); n == "" || n == "." || n == ".." {
			continue
		}
		if !seen[rest] {
			seen[rest] = true
			names = append(names, rest)
		}
	}
	return names
}

// under says whether the KV key k is the record key's own or one in the
// folder it names: what a deletion of key may delete, whatever the
// server listed.
func under(k, key string) bool {
	e := encodeKey(key)
	if k == e {
		return true
	}
	_, ok := decodeKey(k)
	return ok && strings.HasPrefix(k, e+".")
}

// maxJournal bounds the deletions a journal names.
const maxJournal = 1 << 20

// parseJournal reads the journal of a commit cut short: the KV keys of
// the records it deletes, each a record's (a journal the server changed
// to name the lock, another stream's subject or a wildcard is refused,
// and nothing is deleted).
func parseJournal(data []byte) ([]string, error) {
	var gone []string
	if err := json.Unmarshal(data, &gone); err != nil {
		return nil, err
	}
	if len(gone) > maxJournal {
		return nil, fmt.Errorf("it names %d deletions, more than %d", len(gone), maxJournal)
	}
	for _, k := range gone {
		if _, ok := decodeKey(k); !ok {
			return nil, fmt.Errorf("it names %q, not a record's key", k)
		}
	}
	return gone, nil
}
