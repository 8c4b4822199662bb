package state

// decodeMessage decodes a message's record into m, a zero Message, by hand
// as decodeChat does a chat's: `conch notes` reads every message due, and
// encoding/json's first use of a type costs a fresh process more than the
// whole record. false: the record is for encoding/json to read.
func decodeMessage(data []byte, m *Message) bool {
	r := jsonReader{s: string(data)}
	ok := r.object(func(key string) bool {
		switch key {
		case "id":
			return r.str(&m.ID)
		case "from":
			return r.str(&m.From)
		case "from_title":
			return r.str(&m.FromTitle)
		case "to":
			return r.str(&m.To)
		case "to_title":
			return r.str(&m.ToTitle)
		case "to_task":
			return r.boolean(&m.ToTask)
		case "text":
			return r.str(&m.Text)
		case "chain":
			return r.str(&m.Chain)
		case "sent":
			return r.time(&m.Sent)
		case "state":
			return r.str(&m.State)
		case "why":
			return r.str(&m.Why)
		case "at_start":
			return r.boolean(&m.AtStart)
		case "taint":
			return r.strs(&m.Taint)
		case "start_reply":
			return r.boolean(&m.StartReply)
		case "woke":
			return r.boolean(&m.Woke)
		case "passed":
			return r.boolean(&m.Passed)
		case "done":
			return r.time(&m.Done)
		case "answer":
			a := &m.Answer
			return r.object(func(key string) bool {
				switch key {
				case "state":
					return r.str(&a.State)
				case "delivery":
					return r.str(&a.Delivery)
				case "start_reply":
					return r.str(&a.StartReply)
				case "via":
					return r.str(&a.Via)
				}
				return false
			})
		case "key":
			return r.str(&m.Key)
		case "watched":
			return nullOr(&r, &m.Watched, r.boolean)
		}
		return false
	})
	if ok {
		r.space()
		ok = r.i == len(r.s)
	}
	return ok
}

// decodeClaims decodes claims.json into f, a zero ClaimsFile, by hand: the
// guard reads it at every edit.
func decodeClaims(data []byte, f *ClaimsFile) bool {
	r := jsonReader{s: string(data)}
	ok := r.object(func(key string) bool {
		if key != "claims" {
			return false
		}
		return objects(&r, &f.Claims, func(cl *Claim) bool { return decodeClaim(&r, cl) })
	})
	if ok {
		r.space()
		ok = r.i == len(r.s)
	}
	return ok
}

// scanClaims decodes the claims of claims.json one at a time, by hand,
// handing each to yield until it says false (stopped: what follows is
// not read). ok says the whole document was read and is as conch writes
// it; a document that is not (ok and stopped false) is for encoding/json,
// which may still take it.
func scanClaims(data []byte, yield func(*Claim) bool) (stopped, ok bool) {
	r := jsonReader{s: string(data)}
	seen := false
	ok = r.object(func(key string) bool {
		if key != "claims" || seen {
			return false
		}
		seen = true
		if r.literal("null") {
			return true
		}
		if !r.byte('[') {
			return false
		}
		for first := true; !r.byte(']'); first = false {
			if !first && !r.byte(',') {
				return false
			}
			var cl Claim
			if !decodeClaim(&r, &cl) {
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
		r.space()
		ok = r.i == len(r.s) && seen
	}
	return false, ok
}

// decodeClaim reads one claim of claims.json.
func decodeClaim(r *jsonReader, cl *Claim) bool {
	return r.object(func(key string) bool {
		switch key {
		case "chat":
			return r.str(&cl.Chat)
		case "pattern":
			return r.str(&cl.Pattern)
		case "glob":
			return r.boolean(&cl.Glob)
		case "reason":
			return r.str(&cl.Reason)
		case "since":
			return r.time(&cl.Since)
		case "until":
			return r.time(&cl.Until)
		case "pid":
			return r.int(&cl.PID)
		case "pid_start":
			return r.uint64(&cl.PIDStart)
		case "computer":
			return r.str(&cl.Computer)
		}
		return false
	})
}
