package install

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
)

// Hooks is conch's part of a JSON hooks file (Claude Code's settings.json,
// Codex's hooks.json): one handler of conch's per event, in the file's
// "hooks" object, next to every handler already there.
type Hooks struct {
	Harness string  // conch's handlers run conch hook HARNESS: that is how they are known
	Command string  // the command line conch's handlers run (Command(conch, Harness))
	Events  []Event // the events conch hooks, in the order put in
	// Flat: each event's list holds handlers themselves, not matcher
	// groups of them ({"matcher": …, "hooks": [handler, …]}).
	Flat bool
	// CommandKey is the handler's key for its command line ("" for
	// "command"); TimeoutKey its key for the timeout ("" for "timeout",
	// "-" for none).
	CommandKey, TimeoutKey string
	// Handler are the fields a new handler of conch's starts with (nil
	// for "type": "command").
	Handler []Field
	// Top are the fields a new file starts with (a format's "version").
	Top []Field
	// Own: the file is conch's by its name (Copilot's hooks/conch.json).
	// A removal that leaves nothing of anyone else's in it (only Top)
	// removes the file itself, and keeps no backup of it: it was conch's
	// alone.
	Own bool
}

// Event is one event conch hooks: its matcher ("" for none: the group
// has no matcher key) and its handler's timeout, in the harness's unit.
type Event struct {
	Name, Matcher string
	Timeout       int
}

// Field is a key and its JSON value.
type Field struct {
	Key   string
	Value json.RawMessage
}

// Names are the events' names.
func (h Hooks) Names() []string {
	names := make([]string, len(h.Events))
	for i, e := range h.Events {
		names[i] = e.Name
	}
	return names
}

func (h Hooks) commandKey() string {
	if h.CommandKey == "" {
		return "command"
	}
	return h.CommandKey
}

func (h Hooks) timeoutKey() string {
	if h.TimeoutKey == "" {
		return "timeout"
	}
	return h.TimeoutKey
}

// HookFile merges conch's hooks into (or, with r.Remove, takes them out
// of) the JSON hooks file at path: every handler already there is kept,
// conch's is put in once (a second run changes nothing), and --remove
// takes out conch's and nothing else.
func (r *Run) HookFile(path string, h Hooks) (*Result, error) {
	res := &Result{File: path, Events: h.Names()}
	if h.Own && r.Remove {
		return res, r.removeOwn(res, h)
	}
	err := r.Edit(res, func(data []byte, exists bool) ([]byte, bool, error) {
		if !exists && r.Remove {
			return nil, false, nil
		}
		return h.Merge(data, r.Remove)
	})
	if err != nil {
		return nil, err
	}
	return res, nil
}

// removeOwn takes conch's hooks out of a hooks file conch owns by its
// name: a file left with nothing of anyone else's is removed, with no
// backup; one that holds another's hook too is edited as any other.
func (r *Run) removeOwn(res *Result, h Hooks) error {
	return r.removeLeaving(res, func(data []byte) ([]byte, bool, error) { return h.Merge(data, true) }, h.bare)
}

// bare says whether a hooks file's JSON holds nothing but what a new file
// of conch's starts with (Top), as conch writes it.
func (h Hooks) bare(data []byte) bool {
	root, err := parseObject(data)
	if err != nil || len(root.keys) != len(h.Top) {
		return false
	}
	for _, f := range h.Top {
		v, ok := root.raw(f.Key)
		if !ok || !bytes.Equal(bytes.TrimSpace(v), bytes.TrimSpace(f.Value)) {
			return false
		}
	}
	return true
}

// Has says whether a hooks file holds any handler of conch's.
func (h Hooks) Has(data []byte) bool {
	_, changed, err := h.Merge(data, true)
	return err == nil && changed
}

// Merge puts conch's handlers into a hooks file's JSON, or takes them
// out, keeping everything else as it was: key order, and the very bytes
// of every value conch did not touch. It says whether anything changed.
func (h Hooks) Merge(data []byte, remove bool) ([]byte, bool, error) {
	root, err := parseObject(data)
	if err != nil {
		return nil, false, err
	}
	fresh := len(root.keys) == 0
	hooks := &object{}
	if raw, ok := root.raw("hooks"); ok {
		if hooks, err = parseObject(raw); err != nil {
			return nil, false, fmt.Errorf("its \"hooks\" is not an object")
		}
	}
	changed := false
	for _, e := range h.Events {
		var list []json.RawMessage
		if raw, ok := hooks.raw(e.Name); ok {
			if json.Unmarshal(raw, &list) != nil {
				return nil, false, fmt.Errorf("its hooks.%s is not a list", e.Name)
			}
		}
		var out []any
		var ch bool
		if h.Flat {
			out, ch = h.mergeHandlers(list, e, remove, new(bool))
		} else {
			out, ch = h.mergeGroups(list, e, remove)
		}
		if !ch {
			continue
		}
		changed = true
		if len(out) == 0 {
			hooks.del(e.Name)
		} else {
			hooks.set(e.Name, out)
		}
	}
	if !changed {
		return data, false, nil
	}
	if fresh && !remove {
		for _, f := range h.Top {
			root.set(f.Key, f.Value)
		}
	}
	if len(hooks.keys) == 0 {
		root.del("hooks")
	} else {
		root.set("hooks", hooks)
	}
	var out bytes.Buffer
	if err := pretty(&out, root, 0); err != nil {
		return nil, false, err
	}
	out.WriteByte('\n')
	if !json.Valid(out.Bytes()) {
		return nil, false, errors.New("the merged file would not be JSON")
	}
	return out.Bytes(), true, nil
}

// mergeGroups does it for one event's list of matcher groups. The groups
// it leaves alone come back as they were (json.RawMessage); the ones it
// changed or made, as fresh JSON.
func (h Hooks) mergeGroups(groups []json.RawMessage, e Event, remove bool) ([]any, bool) {
	changed, found := false, false
	var out []any
	for _, g := range groups {
		group, err := parseObject(g)
		if err != nil {
			out = append(out, g) // not a group conch knows: not its to judge
			continue
		}
		var handlers []json.RawMessage
		if raw, ok := group.raw("hooks"); ok && json.Unmarshal(raw, &handlers) != nil {
			out = append(out, g)
			continue
		}
		keep, touched := h.mergeHandlers(handlers, e, remove, &found)
		if !touched {
			out = append(out, g)
			continue
		}
		changed = true
		if len(keep) == 0 {
			continue // the group held only conch's handler: it goes with it
		}
		group.set("hooks", keep)
		out = append(out, group)
	}
	if !remove && !found {
		// Built in the order the harnesses' own documents write it.
		group := &object{}
		if e.Matcher != "" {
			m, _ := json.Marshal(e.Matcher)
			group.set("matcher", json.RawMessage(m))
		}
		group.set("hooks", []any{h.handler(e)})
		out = append(out, group)
		changed = true
	}
	return out, changed
}

// mergeHandlers does it for a list of handlers: conch's (the first one
// found, *found then set) is brought up to date, a second taken out, and
// every other kept as it was. In a flat file, where the list is the
// event's, a missing one is put at the end.
func (h Hooks) mergeHandlers(handlers []json.RawMessage, e Event, remove bool, found *bool) ([]any, bool) {
	var keep []any
	touched := false
	for _, hr := range handlers {
		o, err := parseObject(hr)
		var cmd string
		if err == nil {
			if raw, ok := o.raw(h.commandKey()); ok {
				_ = json.Unmarshal(raw, &cmd)
			}
		}
		if err != nil || !IsConchCommand(cmd, h.Harness) {
			keep = append(keep, hr)
			continue
		}
		switch {
		case remove:
			touched = true
		case *found:
			touched = true // a second of conch's: one is enough
		default:
			*found = true
			if h.current(o, cmd, e) {
				keep = append(keep, hr)
				continue
			}
			c, _ := json.Marshal(h.Command)
			o.set(h.commandKey(), json.RawMessage(c))
			if h.timeoutKey() != "-" {
				o.set(h.timeoutKey(), json.RawMessage(fmt.Sprint(e.Timeout)))
			}
			keep = append(keep, o)
			touched = true
		}
	}
	if h.Flat && !remove && !*found {
		keep = append(keep, h.handler(e))
		touched = true
	}
	return keep, touched
}

// current says whether conch's handler o (its command cmd) is as this
// install would write it.
func (h Hooks) current(o *object, cmd string, e Event) bool {
	if cmd != h.Command {
		return false
	}
	if h.timeoutKey() == "-" {
		return true
	}
	timeout, _ := o.raw(h.timeoutKey())
	return bytes.Equal(bytes.TrimSpace(timeout), []byte(fmt.Sprint(e.Timeout)))
}

// handler is a new handler of conch's for e.
func (h Hooks) handler(e Event) *object {
	o := &object{}
	fields := h.Handler
	if fields == nil {
		fields = []Field{{"type", json.RawMessage(`"command"`)}}
	}
	for _, f := range fields {
		o.set(f.Key, f.Value)
	}
	c, _ := json.Marshal(h.Command)
	o.set(h.commandKey(), json.RawMessage(c))
	if h.timeoutKey() != "-" {
		o.set(h.timeoutKey(), json.RawMessage(fmt.Sprint(e.Timeout)))
	}
	return o
}

// HookTimeout is the timeout, in seconds, conch's handlers carry: a hook
// that waits for a locked home gives up after a second, so this is only a
// backstop.
const HookTimeout = 10
