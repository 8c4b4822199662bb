package state

import "github.com/conch-sh/conch/state/codec"

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
	case *claimsFile:
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
	r := codec.NewReader(string(data))
	ok := r.Object(func(key string) bool {
		switch key {
		case "id":
			return r.Str(&c.ID)
		case "title":
			return r.Str(&c.Title)
		case "origin":
			return r.Str(&c.Origin)
		case "folder":
			return r.Str(&c.Folder)
		case "reach":
			return r.Str(&c.Reach)
		case "computer":
			return r.Str(&c.Computer)
		case "status":
			return r.Str(&c.Status)
		case "mode":
			return r.Str(&c.Mode)
		case "inbound":
			return r.Str(&c.Inbound)
		case "taint":
			return readTaint(r, &c.Taint)
		case "archived":
			return r.Bool(&c.Archived)
		case "goal":
			return r.Str(&c.Goal)
		case "parent":
			return r.Str(&c.Parent)
		case "browser":
			return r.Bool(&c.Browser)
		case "recovery":
			return r.Bool(&c.Recovery)
		case "mcp_only":
			return r.Bool(&c.MCPOnly)
		case "created":
			return r.Time(&c.Created)
		case "last_active":
			return r.Time(&c.LastActive)
		case "wake_cmd":
			return r.Str(&c.WakeCmd)
		case "stop_cmd":
			return r.Str(&c.StopCmd)
		case "cmd_env":
			return r.Strs(&c.CmdEnv)
		case "task":
			return codec.NullOr(r, &c.Task, func(t *TaskInfo) bool {
				return r.Object(func(key string) bool {
					switch key {
					case "state":
						return r.Str(&t.State)
					case "result":
						return r.Str(&t.Result)
					case "ended":
						return r.Time(&t.Ended)
					}
					return false
				})
			})
		case "reply":
			return codec.NullOr(r, &c.Reply, func(p *Reply) bool { return readReply(r, p) })
		case "last_reply":
			return codec.NullOr(r, &c.LastReply, func(p *Reply) bool { return readReply(r, p) })
		case "replies":
			return r.Int(&c.Replies)
		case "chain":
			return r.Str(&c.Chain)
		case "wake":
			return codec.NullOr(r, &c.Wake, func(w *Wake) bool {
				return r.Object(func(key string) bool {
					switch key {
					case "reason":
						return r.Str(&w.Reason)
					case "message":
						return r.Str(&w.Message)
					case "chain":
						return r.Str(&w.Chain)
					case "at":
						return r.Time(&w.At)
					case "runner":
						return r.Int(&w.Runner)
					case "runner_start":
						return r.Uint64(&w.RunnerStart)
					}
					return false
				})
			})
		case "stopped":
			return codec.NullOr(r, &c.Stopped, func(s *StopNotice) bool {
				return r.Object(func(key string) bool {
					switch key {
					case "by":
						return r.Str(&s.By)
					case "by_title":
						return r.Str(&s.ByTitle)
					case "reason":
						return r.Str(&s.Reason)
					case "at":
						return r.Time(&s.At)
					case "reply":
						return r.Str(&s.Reply)
					case "heard":
						return r.Bool(&s.Heard)
					}
					return false
				})
			})
		case "inbox":
			return r.Strs(&c.Inbox)
		case "inbox_start":
			return r.Strs(&c.InboxStart)
		case "held":
			return r.Strs(&c.Held)
		case "cards":
			return r.Strs(&c.Cards)
		case "recent":
			return readRecent(r, &c.Recent)
		case "watchers":
			return r.Strs(&c.Watchers)
		case "waiters":
			return r.Strs(&c.Waiters)
		case "wrote":
			return r.Strs(&c.Wrote)
		case "waiting":
			return r.Strs(&c.Waiting)
		}
		return false
	})
	return ok && r.Done()
}

func readReply(r *codec.Reader, p *Reply) bool {
	return r.Object(func(key string) bool {
		switch key {
		case "id":
			return r.Str(&p.ID)
		case "started":
			return r.Time(&p.Started)
		case "person":
			return r.Bool(&p.Person)
		case "chain":
			return r.Str(&p.Chain)
		case "unwatched":
			return r.Bool(&p.Unwatched)
		case "folder":
			return r.Str(&p.Folder)
		case "computer":
			return r.Str(&p.Computer)
		case "place":
			return r.Str(&p.Place)
		case "tree":
			return r.Str(&p.Tree)
		case "repo":
			return r.Str(&p.Repo)
		case "family":
			return r.Str(&p.Family)
		case "tool":
			return r.Str(&p.Tool)
		case "step_since":
			return r.Time(&p.StepSince)
		case "files":
			return r.Strs(&p.Files)
		case "last_file":
			return r.Str(&p.LastFile)
		case "pid":
			return r.Int(&p.PID)
		case "pid_start":
			return r.Uint64(&p.PIDStart)
		case "said":
			return r.Strs(&p.Said)
		case "steps":
			return r.Int(&p.Steps)
		case "ended":
			return r.Time(&p.Ended)
		case "outcome":
			return r.Str(&p.Outcome)
		case "text":
			return r.Str(&p.Text)
		}
		return false
	})
}

// readRecent reads the chat's recent sends: null, or an array of objects.
func readRecent(r *codec.Reader, p *[]RecentSend) bool {
	return codec.Objects(r, p, func(s *RecentSend) bool {
		return r.Object(func(key string) bool {
			switch key {
			case "to":
				return r.Str(&s.To)
			case "sum":
				return r.Str(&s.Sum)
			case "at":
				return r.Time(&s.At)
			}
			return false
		})
	})
}
