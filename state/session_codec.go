package state

import "github.com/conch-sh/conch/state/codec"

// decodeSession decodes a session's link (sessions/HARNESS/ID.json) into l,
// a zero SessionLink, by hand: every hook event reads one, and learning its
// types cost encoding/json a fifth of a PreToolUse hook's own work.
func decodeSession(data []byte, l *SessionLink) bool {
	r := codec.NewReader(string(data))
	ok := r.Object(func(key string) bool {
		switch key {
		case "harness":
			return r.Str(&l.Harness)
		case "session":
			return r.Str(&l.Session)
		case "chat":
			return r.Str(&l.Chat)
		case "agents":
			return codec.StrMap(r, &l.Agents, r.Str)
		case "transcript":
			return r.Str(&l.Transcript)
		case "created":
			return r.Time(&l.Created)
		case "last_turn":
			return r.Str(&l.LastTurn)
		case "deleted":
			return codec.StrMap(r, &l.Deleted, func(p **tombstone) bool {
				t := new(tombstone)
				*p = t
				return r.Object(func(key string) bool {
					switch key {
					case "origin":
						return r.Str(&t.Origin)
					case "parent":
						return r.Str(&t.Parent)
					case "mode":
						return r.Str(&t.Mode)
					case "taint":
						return readTaint(r, &t.Taint)
					}
					return false
				})
			})
		case "mode_cap":
			return r.Str(&l.ModeCap)
		case "shells":
			return codec.StrMap(r, &l.Shells, r.Str)
		}
		return false
	})
	if ok {
		ok = r.Done()
	}
	return ok
}

// readTaint reads a chat's taint: its two lists.
func readTaint(r *codec.Reader, t *Taint) bool {
	return r.Object(func(key string) bool {
		switch key {
		case "outside":
			return r.Strs(&t.Outside)
		case "person":
			return r.Strs(&t.Person)
		}
		return false
	})
}
