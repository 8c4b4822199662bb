package state

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"unsafe"

	"github.com/conch-sh/conch/state/codec"
)

// The index is read by every chats list and by notes at each step, so its
// form is chosen for reading fast: still JSON (any JSON tool reads it, and
// doctor checks it like every record), but each chat's summary is one
// string of fields, which conch splits by hand. Decoding
// a thousand chats this way costs a fraction of decoding a thousand
// objects. Fields are separated by '|' (a character JSON writes as it is,
// so a line needs no unquoting). indexVersion names the form; the fields
// are, in order:
var indexFields = []string{
	"id", "title", "origin", "parent", "status", "flags", "folder", "computer",
	"last_active", "task_state", "reply_started", "reply_place", "reply_computer",
	"reply_pid", "reply_pid_start",
}

const indexVersion = 1

// flags: one letter each for the booleans of a summary.
const (
	flagArchived = 'a'
	flagBrowser  = 'b'
	flagOutside  = 'o'
	flagPerson   = 'p'
	flagWaits    = 'w'
	flagIncoming = 'i'
	flagRecovery = 'r'
	flagMCPOnly  = 'm'
)

type indexFile struct {
	Version int      `json:"version"`
	Fields  []string `json:"fields"`
	Chats   []string `json:"chats"`
}

// MarshalJSON writes the index in its fast form, ordered by id.
func (ix Index) MarshalJSON() ([]byte, error) {
	f := indexFile{Version: indexVersion, Fields: indexFields, Chats: make([]string, 0, len(ix.Chats))}
	for _, id := range slices.Sorted(maps.Keys(ix.Chats)) {
		f.Chats = append(f.Chats, ix.Chats[id].line())
	}
	return json.Marshal(f)
}

// UnmarshalJSON reads the index's fast form.
func (ix *Index) UnmarshalJSON(data []byte) error {
	lines, err := indexLines(data)
	if err != nil {
		return err
	}
	ix.Chats = make(map[string]*Summary, len(lines))
	// One block for every summary: a list of a thousand chats must not
	// touch a thousand fresh allocations (each page is a fault in a new
	// process).
	block := make([]Summary, len(lines))
	for i, line := range lines {
		s := &block[i]
		if err := parseSummaryInto(s, line); err != nil {
			return fmt.Errorf("index entry %d: %w", i+1, err)
		}
		if _, dup := ix.Chats[s.ID]; dup {
			return fmt.Errorf("index entry %d: %s twice", i+1, s.ID)
		}
		ix.Chats[s.ID] = s
	}
	return nil
}

func (s *Summary) line() string {
	var flags []byte
	for _, f := range []struct {
		on bool
		c  byte
	}{{s.Archived, flagArchived}, {s.Browser, flagBrowser}, {s.Outside, flagOutside}, {s.Person, flagPerson}, {s.Waits, flagWaits}, {s.Incoming, flagIncoming}, {s.Recovery, flagRecovery}, {s.MCPOnly, flagMCPOnly}} {
		if f.on {
			flags = append(flags, f.c)
		}
	}
	fields := []string{
		s.ID, s.Title, s.Origin, s.Parent, s.Status, string(flags), s.Folder, s.Computer,
		codec.UnixNano(s.LastActive), s.TaskState, codec.UnixNano(s.ReplyStarted), s.ReplyPlace, s.ReplyComputer,
		strconv.Itoa(s.ReplyPID), strconv.FormatUint(s.ReplyPIDStart, 10),
	}
	for i, f := range fields {
		fields[i] = codec.EscapeField(f)
	}
	return strings.Join(fields, "|")
}

func parseSummary(line string) (*Summary, error) {
	s := &Summary{}
	return s, parseSummaryInto(s, line)
}

func parseSummaryInto(s *Summary, line string) error {
	var fields []string
	var fixed [15]string
	if strings.IndexByte(line, '\\') < 0 {
		n := 0
		for n < len(fixed) {
			i := strings.IndexByte(line, '|')
			if i < 0 {
				fixed[n] = line
				n++
				line = ""
				break
			}
			fixed[n] = line[:i]
			line = line[i+1:]
			n++
		}
		if line != "" || n != len(fixed) {
			return fmt.Errorf("not %d fields", len(indexFields))
		}
		fields = fixed[:]
	} else {
		fields = codec.SplitEscaped(line)
	}
	if len(fields) != len(indexFields) {
		return fmt.Errorf("%d fields, want %d", len(fields), len(indexFields))
	}
	*s = Summary{
		ID: fields[0], Title: fields[1], Origin: fields[2], Parent: fields[3], Status: fields[4],
		Folder: fields[6], Computer: fields[7], TaskState: fields[9], ReplyPlace: fields[11], ReplyComputer: fields[12],
	}
	if !ValidID(s.ID) {
		return fmt.Errorf("id %q is not a chat id", s.ID)
	}
	for _, c := range []byte(fields[5]) {
		switch c {
		case flagArchived:
			s.Archived = true
		case flagBrowser:
			s.Browser = true
		case flagOutside:
			s.Outside = true
		case flagPerson:
			s.Person = true
		case flagWaits:
			s.Waits = true
		case flagIncoming:
			s.Incoming = true
		case flagRecovery:
			s.Recovery = true
		case flagMCPOnly:
			s.MCPOnly = true
		default:
			return fmt.Errorf("unknown flag %q", c)
		}
	}
	var err error
	if s.LastActive, err = codec.ParseUnixNano(fields[8]); err != nil {
		return err
	}
	if s.ReplyStarted, err = codec.ParseUnixNano(fields[10]); err != nil {
		return err
	}
	if s.ReplyPID, err = strconv.Atoi(fields[13]); err != nil {
		return fmt.Errorf("reply_pid: %w", err)
	}
	if s.ReplyPIDStart, err = strconv.ParseUint(fields[14], 10, 64); err != nil {
		return fmt.Errorf("reply_pid_start: %w", err)
	}
	return nil
}

// indexLines finds the summaries' lines in the index file. The file conch
// writes is read by hand, without decoding it twice over; anything else
// (written by hand, or another version) goes through encoding/json.
func indexLines(data []byte) ([]string, error) {
	if lines, ok := fastIndexLines(data); ok {
		return lines, nil
	}
	var f indexFile
	if err := json.Unmarshal(data, &f); err != nil {
		return nil, err
	}
	if f.Version != indexVersion {
		return nil, fmt.Errorf("index version %d, want %d", f.Version, indexVersion)
	}
	return f.Chats, nil
}

// fastIndexLines reads exactly `{"version": 1, "fields": [ strings ],
// "chats": [ strings ]}`, in that order, with any white space, as conch
// writes it. A string with an escape in it is decoded by encoding/json. It
// says false for anything else (the caller then decodes the whole with
// encoding/json, which says what is wrong).
func fastIndexLines(data []byte) ([]string, bool) {
	if len(data) == 0 {
		return nil, false
	}
	// The lines are substrings of the file's bytes, which nothing changes
	// after: no second copy of the file.
	r := codec.NewReader(unsafe.String(&data[0], len(data)))
	ok := r.Byte('{') && r.Key("version") && r.Literal(strconv.Itoa(indexVersion)) && r.Byte(',') &&
		r.Key("fields")
	if !ok {
		return nil, false
	}
	if _, ok := r.Strings(); !ok {
		return nil, false
	}
	if !r.Byte(',') || !r.Key("chats") {
		return nil, false
	}
	lines, ok := r.Strings()
	if !ok || !r.Byte('}') {
		return nil, false
	}
	return lines, r.Done()
}
