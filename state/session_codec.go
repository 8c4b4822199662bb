package state

// decodeSession decodes a session's link (sessions/HARNESS/ID.json) into l,
// a zero SessionLink, by hand: every hook event reads one, and learning its
// types cost encoding/json a fifth of a PreToolUse hook's own work.
func decodeSession(data []byte, l *SessionLink) bool {
	r := jsonReader{s: string(data)}
	ok := r.object(func(key string) bool {
		switch key {
		case "harness":
			return r.str(&l.Harness)
		case "session":
			return r.str(&l.Session)
		case "chat":
			return r.str(&l.Chat)
		case "agents":
			return strMap(&r, &l.Agents, r.str)
		case "transcript":
			return r.str(&l.Transcript)
		case "created":
			return r.time(&l.Created)
		case "last_turn":
			return r.str(&l.LastTurn)
		case "deleted":
			return strMap(&r, &l.Deleted, func(p **Tombstone) bool {
				t := new(Tombstone)
				*p = t
				return r.object(func(key string) bool {
					switch key {
					case "origin":
						return r.str(&t.Origin)
					case "parent":
						return r.str(&t.Parent)
					case "mode":
						return r.str(&t.Mode)
					case "taint":
						return r.taint(&t.Taint)
					}
					return false
				})
			})
		case "mode_cap":
			return r.str(&l.ModeCap)
		case "shells":
			return strMap(&r, &l.Shells, r.str)
		}
		return false
	})
	if ok {
		r.space()
		ok = r.i == len(r.s)
	}
	return ok
}

// strMap reads null (nil) or an object into a map, each value by read. A
// null value is handed on to encoding/json, which has its own way with it.
func strMap[V any](r *jsonReader, p *map[string]V, read func(*V) bool) bool {
	if r.literal("null") {
		*p = nil
		return true
	}
	m := map[string]V{}
	*p = m
	return r.object(func(key string) bool {
		r.space()
		if r.i < len(r.s) && r.s[r.i] == 'n' {
			return false
		}
		var v V
		if !read(&v) {
			return false
		}
		m[key] = v
		return true
	})
}

// taint reads a chat's taint: its two lists.
func (r *jsonReader) taint(t *Taint) bool {
	return r.object(func(key string) bool {
		switch key {
		case "outside":
			return r.strs(&t.Outside)
		case "person":
			return r.strs(&t.Person)
		}
		return false
	})
}
