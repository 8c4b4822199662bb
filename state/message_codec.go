package state

import "github.com/conch-sh/conch/state/codec"

// decodeMessage decodes a message's record into m, a zero Message, by hand
// as decodeChat does a chat's: `conch notes` reads every message due, and
// encoding/json's first use of a type costs a fresh process more than the
// whole record. false: the record is for encoding/json to read.
func decodeMessage(data []byte, m *Message) bool {
	r := codec.NewReader(string(data))
	ok := r.Object(func(key string) bool {
		switch key {
		case "id":
			return r.Str(&m.ID)
		case "from":
			return r.Str(&m.From)
		case "from_title":
			return r.Str(&m.FromTitle)
		case "to":
			return r.Str(&m.To)
		case "to_title":
			return r.Str(&m.ToTitle)
		case "to_task":
			return r.Bool(&m.ToTask)
		case "text":
			return r.Str(&m.Text)
		case "chain":
			return r.Str(&m.Chain)
		case "sent":
			return r.Time(&m.Sent)
		case "state":
			return r.Str(&m.State)
		case "why":
			return r.Str(&m.Why)
		case "at_start":
			return r.Bool(&m.AtStart)
		case "taint":
			return r.Strs(&m.Taint)
		case "start_reply":
			return r.Bool(&m.StartReply)
		case "woke":
			return r.Bool(&m.Woke)
		case "passed":
			return r.Bool(&m.Passed)
		case "done":
			return r.Time(&m.Done)
		case "answer":
			a := &m.Answer
			return r.Object(func(key string) bool {
				switch key {
				case "state":
					return r.Str(&a.State)
				case "delivery":
					return r.Str(&a.Delivery)
				case "start_reply":
					return r.Str(&a.StartReply)
				case "via":
					return r.Str(&a.Via)
				}
				return false
			})
		case "key":
			return r.Str(&m.Key)
		case "watched":
			return codec.NullOr(r, &m.Watched, r.Bool)
		}
		return false
	})
	if ok {
		ok = r.Done()
	}
	return ok
}

// decodeClaims decodes claims.json into f, a zero ClaimsFile, by hand: the
// guard reads it at every edit.
func decodeClaims(data []byte, f *claimsFile) bool {
	r := codec.NewReader(string(data))
	ok := r.Object(func(key string) bool {
		if key != "claims" {
			return false
		}
		return codec.Objects(r, &f.Claims, func(cl *Claim) bool { return decodeClaim(r, cl) })
	})
	if ok {
		ok = r.Done()
	}
	return ok
}

// scanClaims decodes the claims of claims.json one at a time, by hand,
// handing each to yield until it says false (stopped: what follows is
// not read). ok says the whole document was read and is as conch writes
// it; a document that is not (ok and stopped false) is for encoding/json,
// which may still take it.
func scanClaims(data []byte, yield func(*Claim) bool) (stopped, ok bool) {
	r := codec.NewReader(string(data))
	seen := false
	ok = r.Object(func(key string) bool {
		if key != "claims" || seen {
			return false
		}
		seen = true
		if r.Literal("null") {
			return true
		}
		if !r.Byte('[') {
			return false
		}
		for first := true; !r.Byte(']'); first = false {
			if !first && !r.Byte(',') {
				return false
			}
			var cl Claim
			if !decodeClaim(r, &cl) {
				return false
			}
			if !yield(&cl) {
				stopped = true
				return false
			}
		}
		return true
	})
	if stopped {
		return true, false
	}
	if ok {
		ok = r.Done() && seen
	}
	return false, ok
}

// decodeClaim reads one claim of claims.json.
func decodeClaim(r *codec.Reader, cl *Claim) bool {
	return r.Object(func(key string) bool {
		switch key {
		case "chat":
			return r.Str(&cl.Chat)
		case "pattern":
			return r.Str(&cl.Pattern)
		case "glob":
			return r.Bool(&cl.Glob)
		case "reason":
			return r.Str(&cl.Reason)
		case "since":
			return r.Time(&cl.Since)
		case "until":
			return r.Time(&cl.Until)
		case "pid":
			return r.Int(&cl.PID)
		case "pid_start":
			return r.Uint64(&cl.PIDStart)
		case "computer":
			return r.Str(&cl.Computer)
		}
		return false
	})
}
