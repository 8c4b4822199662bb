package natsstore

import (
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
// a record's (the store's own, or one no conch wrote).
func decodeKey(k string) (string, bool) {
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
