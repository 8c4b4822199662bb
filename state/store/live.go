package store

import (
	"encoding/binary"
	"errors"
	"io/fs"
	"path/filepath"
	"strings"
)

// A step changes one record's live state, at every tool call of every
// chat. Replacing the record's file for it (a temporary file made, then
// renamed over the record) costs a file system two changes of a folder,
// which on a journaling one costs more than the rest of the command. So a
// live write of a record that is there goes into the record's overlay
// instead: a file beside it (".c_1.json.live") of two slots, written in
// place with one pwrite, no file made, no rename.
//
// A slot holds a whole record, with a sequence number, the checksum of
// the record file it stands over, and its own checksum. A reader reads the
// record file, then the overlay, and takes the newest slot whose own
// checksum holds and which stands over the record file as it is now; else
// the record file. A writer (under the lock) writes the older slot, so the
// newest stays whole while it writes: a reader never sees half a record
// (a torn slot fails its checksum and the other slot serves), a writer
// killed before its pwrite changed nothing, and a record replaced by any
// other write (a durable one, the journal's) outdates its overlay at once,
// since the slots no longer stand over it. Live state need not survive a
// power cut; what it loses there is the newest step.

// LiveSuffix ends the name of a record's overlay: ".c_1.json.live".
const LiveSuffix = ".live"

// liveSlot is how many bytes of record a slot holds; a live record larger
// than it is written whole, as any other.
const liveSlot = 16 << 10

// liveHeader is a slot's header: magic, sequence, length, the record
// file's checksum, the slot's checksum (of the header before it and the
// data).
const liveHeader = 4 + 8 + 4 + 8 + 8

const liveMagic = 0x636e6c76 // "cnlv"

// sum is FNV-1a (64 bits) of b, from h: a checksum that needs no table
// built at start-up (a CRC's costs a fresh process more than a step), and
// catches a torn write as surely.
func sum(h uint64, b []byte) uint64 {
	for _, c := range b {
		h ^= uint64(c)
		h *= 1099511628211
	}
	return h
}

const sumStart = 14695981039346656037

// livePath is the overlay of the record file at p.
func livePath(p string) string {
	dir, name := filepath.Split(p)
	return dir + "." + name + LiveSuffix
}

// IsLive says whether a file's name is a record's overlay, and of which
// record ("c_1.json").
func IsLive(name string) (record string, ok bool) {
	if !strings.HasPrefix(name, ".") || !strings.HasSuffix(name, ".json"+LiveSuffix) {
		return "", false
	}
	return strings.TrimSuffix(name[1:], LiveSuffix), true
}

type slot struct {
	seq  uint64
	base uint64 // the checksum of the record file it stands over
	data []byte
}

// slots reads the two slots of an overlay's bytes; a slot that is not
// whole (never written, torn, damaged) is left zero.
func slots(b []byte) (s [2]slot) {
	for i := range s {
		off := i * (liveHeader + liveSlot)
		if len(b) > off {
			s[i] = slotOf(b[off:])
		}
	}
	return s
}

// slotOf reads the slot whose bytes (header, then record) b begins with;
// zero when it is not whole.
func slotOf(b []byte) slot {
	n, ok := slotLen(b)
	if !ok || len(b) < liveHeader+n {
		return slot{}
	}
	h, data := b[:liveHeader], b[liveHeader:liveHeader+n]
	if sum(sum(sumStart, h[:24]), data) != binary.LittleEndian.Uint64(h[24:]) {
		return slot{}
	}
	return slot{seq: binary.LittleEndian.Uint64(h[4:]), base: binary.LittleEndian.Uint64(h[16:]), data: data}
}

// slotLen is the length of the record in the slot whose header b begins
// with; ok false for a header that is not a slot's.
func slotLen(b []byte) (n int, ok bool) {
	if len(b) < liveHeader || binary.LittleEndian.Uint32(b[0:]) != liveMagic {
		return 0, false
	}
	n = int(binary.LittleEndian.Uint32(b[12:]))
	return n, n <= liveSlot
}

// slotRead is how much of each slot the first read of an overlay takes:
// its header and the start of its record, which for most live records (a
// chat's) is all of it. A slot is 16 KiB, and reading the file whole read
// the first slot's unused room too, for every chat's record at every step
// and notes (issue 25); a longer record's rest is read after.
const slotRead = 4 << 10

// readSlots reads the two slots of the overlay at lp, as slots does its
// bytes, reading only what the slots hold.
func readSlots(fsys FS, lp string) (s [2]slot, err error) {
	offs := []int64{0, liveHeader + liveSlot}
	bufs, err := fsys.ReadAt(lp, offs, []int{slotRead, slotRead})
	if err != nil {
		return s, err
	}
	var rest []int // the slots whose record goes on past the first read
	var restOffs []int64
	var restSizes []int
	for i, b := range bufs {
		if n, ok := slotLen(b); ok && liveHeader+n > len(b) && len(b) == slotRead {
			rest = append(rest, i)
			restOffs = append(restOffs, offs[i]+slotRead)
			restSizes = append(restSizes, liveHeader+n-slotRead)
		}
	}
	if len(rest) > 0 {
		more, err := fsys.ReadAt(lp, restOffs, restSizes)
		if errors.Is(err, fs.ErrNotExist) {
			return [2]slot{}, nil // gone since the first read: nothing stands over the record
		}
		if err != nil {
			return s, err
		}
		for j, i := range rest {
			// A short rest is a slot not whole: its checksum fails.
			bufs[i] = append(bufs[i][:slotRead:slotRead], more[j]...)
		}
	}
	for i := range bufs {
		s[i] = slotOf(bufs[i])
	}
	return s, nil
}

// liveState is what a live write needs of a record and its overlay: the
// record file's checksum and the slots' sequence numbers.
type liveState struct {
	base uint64
	seqs [2]uint64
}

// remember keeps, while the lock is held, what was read of the record at
// p and its overlay.
func (h *Files) remember(p string, st liveState) {
	h.mu.Lock()
	if h.held != nil {
		h.held[p] = st
	}
	h.mu.Unlock()
}

// holding says whether the lock is held, so that what is read is
// remembered.
func (h *Files) holding() bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.held != nil
}

// recall is what the lock's holder read of the record at p since it took
// the lock and has not changed since, if it did.
func (h *Files) recall(p string) (liveState, bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	st, ok := h.held[p]
	return st, ok
}

// forget drops what was read of the record at p: it is being replaced.
func (h *Files) forget(p string) {
	h.mu.Lock()
	delete(h.held, p)
	h.mu.Unlock()
}

// overlaid is the record whose file holds base: the newest whole slot of
// its overlay that stands over base, else base itself.
func (h *Files) overlaid(p string, base []byte) ([]byte, error) {
	s, err := readSlots(h.FS, livePath(p))
	if errors.Is(err, fs.ErrNotExist) {
		// The record's checksum is for a live write under the lock only:
		// a reader with no overlay to match takes no sum.
		if h.holding() {
			h.remember(p, liveState{base: sum(sumStart, base)})
		}
		return base, nil
	}
	if err != nil {
		return nil, err
	}
	over := sum(sumStart, base)
	var best *slot
	h.remember(p, liveState{base: over, seqs: [2]uint64{s[0].seq, s[1].seq}})
	for i := range s {
		if s[i].seq != 0 && s[i].base == over && (best == nil || s[i].seq > best.seq) {
			best = &s[i]
		}
	}
	if best == nil {
		return base, nil
	}
	return best.data, nil
}

// writeLive writes data as the live state of the record file at p, in
// its overlay, when the record is there and data fits a slot; ok false:
// it wrote nothing, and the record is to be replaced as any other.
func (h *Files) writeLive(p string, data []byte) (ok bool, err error) {
	if len(data) > liveSlot {
		return false, nil
	}
	lp := livePath(p)
	st, ok := h.recall(p)
	if !ok {
		base, err := h.FS.ReadFile(p)
		if errors.Is(err, fs.ErrNotExist) {
			return false, nil
		}
		if err != nil {
			return false, err
		}
		s, err := readSlots(h.FS, lp)
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return false, err
		}
		st = liveState{base: sum(sumStart, base), seqs: [2]uint64{s[0].seq, s[1].seq}}
	}
	i := 0 // the older slot, or one never written
	if st.seqs[1] < st.seqs[0] {
		i = 1
	}
	seq := max(st.seqs[0], st.seqs[1]) + 1
	buf := make([]byte, liveHeader+len(data))
	binary.LittleEndian.PutUint32(buf[0:], liveMagic)
	binary.LittleEndian.PutUint64(buf[4:], seq)
	binary.LittleEndian.PutUint32(buf[12:], uint32(len(data)))
	binary.LittleEndian.PutUint64(buf[16:], st.base)
	copy(buf[liveHeader:], data)
	binary.LittleEndian.PutUint64(buf[24:], sum(sum(sumStart, buf[:24]), data))
	h.forget(p) // a write that fails leaves the slot unknown
	if err := h.FS.WriteAt(lp, buf, int64(i*(liveHeader+liveSlot))); err != nil {
		return false, err
	}
	st.seqs[i] = seq
	h.remember(p, st)
	return true, nil
}
