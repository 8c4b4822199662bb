package state

import (
	"slices"
	"strconv"
	"time"
)

// A chat's record is read by every hot command, a dozen of them by a chats
// list. encoding/json spends more learning the record's types, once in each
// process, than reading a dozen records; so the record as conch writes it is
// read by hand here. Anything the hand reader does not expect (a field it
// does not know, a key said twice, a null where it wants a value, a number
// that is not whole, bytes that are not JSON) makes it give up, and the
// record is decoded again by encoding/json, which stays the judge of what a
// record says. FuzzDecodeChat holds the two to the same answer.

// decodeFast decodes data into v by hand when v is a record conch has a
// hand reader for. False: it did not (v is then half filled; start again).
func decodeFast(data []byte, v any) bool {
	switch v := v.(type) {
	case *Chat:
		return decodeChat(data, v)
	case *Message:
		return decodeMessage(data, v)
	case *ClaimsFile:
		return decodeClaims(data, v)
	case *SessionLink:
		return decodeSession(data, v)
	}
	return false
}

// decodeChat decodes a chat's record into c, a zero Chat.
func decodeChat(data []byte, c *Chat) bool {
	// A copy: the strings of the record must not share bytes with a buffer
	// another may reuse.
	r := jsonReader{s: string(data)}
	ok := r.object(func(key string) bool {
		switch key {
		case "id":
			return r.str(&c.ID)
		case "title":
			return r.str(&c.Title)
		case "origin":
			return r.str(&c.Origin)
		case "folder":
			return r.str(&c.Folder)
		case "reach":
			return r.str(&c.Reach)
		case "computer":
			return r.str(&c.Computer)
		case "status":
			return r.str(&c.Status)
		case "mode":
			return r.str(&c.Mode)
		case "inbound":
			return r.str(&c.Inbound)
		case "taint":
			return r.taint(&c.Taint)
		case "archived":
			return r.boolean(&c.Archived)
		case "goal":
			return r.str(&c.Goal)
		case "parent":
			return r.str(&c.Parent)
		case "browser":
			return r.boolean(&c.Browser)
		case "recovery":
			return r.boolean(&c.Recovery)
		case "mcp_only":
			return r.boolean(&c.MCPOnly)
		case "created":
			return r.time(&c.Created)
		case "last_active":
			return r.time(&c.LastActive)
		case "wake_cmd":
			return r.str(&c.WakeCmd)
		case "stop_cmd":
			return r.str(&c.StopCmd)
		case "cmd_env":
			return r.strs(&c.CmdEnv)
		case "task":
			return nullOr(&r, &c.Task, func(t *TaskInfo) bool {
				return r.object(func(key string) bool {
					switch key {
					case "state":
						return r.str(&t.State)
					case "result":
						return r.str(&t.Result)
					case "ended":
						return r.time(&t.Ended)
					}
					return false
				})
			})
		case "reply":
			return nullOr(&r, &c.Reply, r.reply)
		case "last_reply":
			return nullOr(&r, &c.LastReply, r.reply)
		case "replies":
			return r.int(&c.Replies)
		case "chain":
			return r.str(&c.Chain)
		case "wake":
			return nullOr(&r, &c.Wake, func(w *Wake) bool {
				return r.object(func(key string) bool {
					switch key {
					case "reason":
						return r.str(&w.Reason)
					case "message":
						return r.str(&w.Message)
					case "chain":
						return r.str(&w.Chain)
					case "at":
						return r.time(&w.At)
					case "runner":
						return r.int(&w.Runner)
					case "runner_start":
						return r.uint64(&w.RunnerStart)
					}
					return false
				})
			})
		case "stopped":
			return nullOr(&r, &c.Stopped, func(s *StopNotice) bool {
				return r.object(func(key string) bool {
					switch key {
					case "by":
						return r.str(&s.By)
					case "by_title":
						return r.str(&s.ByTitle)
					case "reason":
						return r.str(&s.Reason)
					case "at":
						return r.time(&s.At)
					case "reply":
						return r.str(&s.Reply)
					case "heard":
						return r.boolean(&s.Heard)
					}
					return false
				})
			})
		case "inbox":
			return r.strs(&c.Inbox)
		case "inbox_start":
			return r.strs(&c.InboxStart)
		case "held":
			return r.strs(&c.Held)
		case "cards":
			return r.strs(&c.Cards)
		case "recent":
			return r.recent(&c.Recent)
		case "watchers":
			return r.strs(&c.Watchers)
		case "waiters":
			return r.strs(&c.Waiters)
		case "wrote":
			return r.strs(&c.Wrote)
		case "waiting":
			return r.strs(&c.Waiting)
		}
		return false
	})
	r.space()
	return ok && r.i == len(r.s)
}

func (r *jsonReader) reply(p *Reply) bool {
	return r.object(func(key string) bool {
		switch key {
		case "id":
			return r.str(&p.ID)
		case "started":
			return r.time(&p.Started)
		case "person":
			return r.boolean(&p.Person)
		case "chain":
			return r.str(&p.Chain)
		case "unwatched":
			return r.boolean(&p.Unwatched)
		case "folder":
			return r.str(&p.Folder)
		case "computer":
			return r.str(&p.Computer)
		case "place":
			return r.str(&p.Place)
		case "tree":
			return r.str(&p.Tree)
		case "repo":
			return r.str(&p.Repo)
		case "family":
			return r.str(&p.Family)
		case "tool":
			return r.str(&p.Tool)
		case "step_since":
			return r.time(&p.StepSince)
		case "files":
			return r.strs(&p.Files)
		case "last_file":
			return r.str(&p.LastFile)
		case "pid":
			return r.int(&p.PID)
		case "pid_start":
			return r.uint64(&p.PIDStart)
		case "said":
			return r.strs(&p.Said)
		case "steps":
			return r.int(&p.Steps)
		case "ended":
			return r.time(&p.Ended)
		case "outcome":
			return r.str(&p.Outcome)
		case "text":
			return r.str(&p.Text)
		}
		return false
	})
}

// recent reads the chat's recent sends: null, or an array of objects.
func (r *jsonReader) recent(p *[]RecentSend) bool {
	return objects(r, p, func(s *RecentSend) bool {
		return r.object(func(key string) bool {
			switch key {
			case "to":
				return r.str(&s.To)
			case "sum":
				return r.str(&s.Sum)
			case "at":
				return r.time(&s.At)
			}
			return false
		})
	})
}

// objects reads null (the slice is then nil) or an array, each element
// read into a new T by read.
func objects[T any](r *jsonReader, p *[]T, read func(*T) bool) bool {
	if r.literal("null") {
		*p = nil
		return true
	}
	if !r.byte('[') {
		return false
	}
	out := []T{}
	for first := true; !r.byte(']'); first = false {
		if !first && !r.byte(',') {
			return false
		}
		var v T
		if !read(&v) {
			return false
		}
		out = append(out, v)
	}
	*p = out
	return true
}

// nullOr reads null (the pointer is then nil) or an object, into a new T.
func nullOr[T any](r *jsonReader, p **T, read func(*T) bool) bool {
	if r.literal("null") {
		*p = nil
		return true
	}
	*p = new(T)
	return read(*p)
}

// object reads an object, handing each key to field, which reads its value
// (false: a key it does not know, or a value it could not read). A key said
// twice is turned away: encoding/json would merge the two values.
func (r *jsonReader) object(field func(key string) bool) bool {
	if !r.byte('{') {
		return false
	}
	if r.byte('}') {
		return true
	}
	var keys [16]string // on the stack: a record's objects have fewer keys
	seen := keys[:0]
	for {
		key, ok := r.string()
		if !ok || !r.byte(':') {
			return false
		}
		if slices.Contains(seen, key) {
			return false
		}
		seen = append(seen, key)
		if !field(key) {
			return false
		}
		if r.byte('}') {
			return true
		}
		if !r.byte(',') {
			return false
		}
	}
}

func (r *jsonReader) str(p *string) bool {
	s, ok := r.string()
	*p = s
	return ok
}

// strs reads null (nil) or an array of strings.
func (r *jsonReader) strs(p *[]string) bool {
	if r.literal("null") {
		*p = nil
		return true
	}
	s, ok := r.strings()
	*p = s
	return ok
}

func (r *jsonReader) boolean(p *bool) bool {
	switch {
	case r.literal("true"):
		*p = true
	case r.literal("false"):
		*p = false
	default:
		return false
	}
	return true
}

// time reads a time as encoding/json has time.Time read itself: from the
// quoted string, quotes and all.
func (r *jsonReader) time(p *time.Time) bool {
	r.space()
	start := r.i
	if _, ok := r.string(); !ok {
		return false
	}
	return p.UnmarshalJSON([]byte(r.s[start:r.i])) == nil
}

// whole reads a whole number as JSON writes one: an optional minus, then 0
// or digits not starting with 0, then a delimiter. Fractions and exponents
// are left to encoding/json.
func (r *jsonReader) whole() (string, bool) {
	r.space()
	start, i := r.i, r.i
	if i < len(r.s) && r.s[i] == '-' {
		i++
	}
	digits := i
	for i < len(r.s) && r.s[i] >= '0' && r.s[i] <= '9' {
		i++
	}
	n := r.s[start:i]
	switch {
	case i == digits, r.s[digits] == '0' && i > digits+1:
		return "", false
	case i < len(r.s) && r.s[i] != ',' && r.s[i] != '}' && r.s[i] != ']' && r.s[i] != ' ' && r.s[i] != '\n' && r.s[i] != '\t' && r.s[i] != '\r':
		return "", false
	}
	r.i = i
	return n, true
}

func (r *jsonReader) int(p *int) bool {
	n, ok := r.whole()
	if !ok {
		return false
	}
	v, err := strconv.Atoi(n)
	*p = v
	return err == nil
}

func (r *jsonReader) uint64(p *uint64) bool {
	n, ok := r.whole()
	if !ok || n[0] == '-' {
		return false
	}
	v, err := strconv.ParseUint(n, 10, 64)
	*p = v
	return err == nil
}
