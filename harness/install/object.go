package install

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// object is a JSON object that keeps its keys in order. A value is the
// bytes it was read as (json.RawMessage), a changed *object, or a changed
// list ([]any of either), so a person's file comes back as they wrote it
// but for what conch changed.
type object struct {
	keys []string
	vals map[string]any
}

// parseObject reads a JSON object; an empty file is an empty object.
func parseObject(data []byte) (*object, error) {
	o := &object{vals: map[string]any{}}
	if len(bytes.TrimSpace(data)) == 0 {
		return o, nil
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	tok, err := dec.Token()
	if err != nil {
		return nil, fmt.Errorf("not JSON: %v", err)
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return nil, errors.New("not a JSON object")
	}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, fmt.Errorf("not JSON: %v", err)
		}
		key, _ := tok.(string)
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, fmt.Errorf("not JSON: %v", err)
		}
		o.set(key, v)
	}
	if _, err := dec.Token(); err != nil {
		return nil, fmt.Errorf("not JSON: %v", err)
	}
	if _, err := dec.Token(); err == nil {
		return nil, errors.New("not JSON: more after the object")
	}
	return o, nil
}

// raw is a value as it was read.
func (o *object) raw(k string) (json.RawMessage, bool) {
	v, ok := o.vals[k].(json.RawMessage)
	return v, ok
}

func (o *object) set(k string, v any) {
	if o.vals == nil {
		o.vals = map[string]any{}
	}
	if _, ok := o.vals[k]; !ok {
		o.keys = append(o.keys, k)
	}
	o.vals[k] = v
}

func (o *object) del(k string) {
	if _, ok := o.vals[k]; !ok {
		return
	}
	delete(o.vals, k)
	for i, x := range o.keys {
		if x == k {
			o.keys = append(o.keys[:i], o.keys[i+1:]...)
			break
		}
	}
}

// pretty writes v indented two spaces a level, at depth; a value read
// from the file is written as it was read.
func pretty(b *bytes.Buffer, v any, depth int) error {
	pad := func(d int) string { return strings.Repeat("  ", d) }
	switch v := v.(type) {
	case json.RawMessage:
		b.Write(bytes.TrimSpace(v))
	case *object:
		if len(v.keys) == 0 {
			b.WriteString("{}")
			return nil
		}
		b.WriteString("{\n")
		for i, k := range v.keys {
			kb, err := json.Marshal(k)
			if err != nil {
				return err
			}
			b.WriteString(pad(depth + 1))
			b.Write(kb)
			b.WriteString(": ")
			if err := pretty(b, v.vals[k], depth+1); err != nil {
				return err
			}
			if i < len(v.keys)-1 {
				b.WriteByte(',')
			}
			b.WriteByte('\n')
		}
		b.WriteString(pad(depth) + "}")
	case []any:
		if len(v) == 0 {
			b.WriteString("[]")
			return nil
		}
		b.WriteString("[\n")
		for i, x := range v {
			b.WriteString(pad(depth + 1))
			if err := pretty(b, x, depth+1); err != nil {
				return err
			}
			if i < len(v)-1 {
				b.WriteByte(',')
			}
			b.WriteByte('\n')
		}
		b.WriteString(pad(depth) + "]")
	default:
		return fmt.Errorf("cannot write %T", v)
	}
	return nil
}
