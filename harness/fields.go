package harness

import (
	"encoding/json"
	"strings"
)

// Fields is a JSON object a harness hands conch (an event, a tool's input
// or response), read leniently: unknown fields are ignored, a missing one
// reads as empty, and one of an unexpected type reads as missing, so a
// field that changed shape between versions costs that field, not the
// event.
type Fields map[string]json.RawMessage

// Str is a string field, cleaned of what conch refuses in text (NUL
// bytes); a number reads as its digits (Codex's turn-id is either).
func (p Fields) Str(key string) string {
	raw, ok := p[key]
	if !ok {
		return ""
	}
	if s, ok := plainString(raw); ok {
		return s // no NUL: a raw control byte is not JSON
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return strings.ReplaceAll(strings.ToValidUTF8(s, "\uFFFD"), "\x00", " ")
	}
	var n json.Number
	if json.Unmarshal(raw, &n) == nil {
		return n.String()
	}
	return ""
}

// Flag is a boolean field, false when missing.
func (p Fields) Flag(key string) bool {
	switch raw := string(p[key]); raw {
	case "true":
		return true
	case "false", "":
		return false
	}
	var b bool
	_ = json.Unmarshal(p[key], &b)
	return b
}

// Obj is an object field, nil when missing.
func (p Fields) Obj(key string) Fields { return Obj(p[key]) }

// Has says whether the field is there and not null.
func (p Fields) Has(key string) bool {
	raw, ok := p[key]
	return ok && string(raw) != "null"
}

// Obj is a JSON object, nil when raw is not one.
func Obj(raw json.RawMessage) Fields {
	if o, ok := splitObject(raw); ok {
		return o
	}
	var o Fields
	if json.Unmarshal(raw, &o) != nil {
		return nil
	}
	return o
}

// ParseObject reads data, a JSON object, into its fields; an error says
// what is wrong with data. (JSON's null reads as nil, no error.)
func ParseObject(data []byte) (Fields, error) {
	if o, ok := splitObject(data); ok {
		return o, nil
	}
	var o Fields
	err := json.Unmarshal(data, &o)
	return o, err
}
