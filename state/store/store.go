// Package store is conch's storage seam: records by key, a commit of
// several records at once, all or nothing, and a change feed that waits
// and the live view use. It knows nothing of chats and their rules: a
// record is bytes under a key like "chats/c_1.json", and the domain (the
// state package above it) says what the bytes mean.
//
// Files is the local implementation on a CONCH_HOME folder (files, the
// lock, the commit journal, file-system notification); Mem keeps the
// records in memory, for unit tests. A second backend (SPEC §12) is one
// more implementation of Store, checked by the same suite
// (store/storetest).
//
// Everything that depends on one machine's storage lives here: paths,
// atomic writes, syncs, the lock, notification. The domain never touches
// the file system.
package store

import (
	"context"
	"errors"
	"io/fs"
	"time"
)

// Store is one home's records.
//
// Reads (Get, List) take no lock and see each record whole, old or new.
// Writes happen only through Commit, between Lock and its unlock.
type Store interface {
	// Get returns the record at key, or an error wrapping ErrNotFound.
	Get(key string) ([]byte, error)
	// List returns the names directly under the folder dir ("chats",
	// "log/c_1"): a record's name as it is ("c_1.json"), a folder's
	// with a "/" at its end ("c_1/"). A folder that is not there lists
	// nothing; one that cannot be read is an error.
	List(dir string) ([]string, error)
	// Exists says whether the home has been made. A command that would
	// make it first runs dry, so that bad input makes nothing.
	Exists() (bool, error)
	// Lock takes the home's write lock, waiting at most wait for it (0:
	// the store's own default), making the home if it is not there, and
	// finishes what a commit cut short left (rolls it forward, or drops
	// it when it never reached its commit point). unlock lets it go.
	// Commit is called only while the lock is held.
	Lock(wait time.Duration) (unlock func(), err error)
	// Commit writes ws, all or nothing. Records are written in the order
	// given (a lock-free reader of a commit half applied sees the first
	// ones new), deletions after them; events (class Event) are written
	// first, before the commit point, each a new record no reader reads
	// until a record written at the commit names it. An error means
	// nothing was committed (events written for it may remain, unnamed);
	// what fails after the commit point is a warning, and the change
	// stands.
	Commit(ws []Write) (warnings []string, err error)
	// Watch sends on the channel, without blocking and coalescing, when
	// a record at one of keys may have changed, until ctx is done. A key
	// ending in "/" stands for every record in that folder. It is a hint,
	// not a promise: a caller looks again on a timer too.
	Watch(ctx context.Context, keys ...string) (<-chan struct{}, error)
	// Where names the record at key for a person reading an error: a
	// path, for files.
	Where(key string) string
}

// ReadAhead is a Store that may read records beside taking its lock (a
// backend, where every read is a round trip). ReadAhead names the keys
// the next Lock's holder reads first; a read of one under that lock is
// answered from there, as it would have been read then, until the
// holder commits or lets go. It changes no answer, only when it is read.
type ReadAhead interface {
	ReadAhead(keys ...string)
}

// Prefetch is a Store that may read several records side by side (a
// backend, where one read after another is a round trip each): Prefetch
// starts reading keys, and the next Get of each, before the lock is taken
// or let go or a commit is made, is answered from its read. It changes no
// answer, only when it is read.
type Prefetch interface {
	Prefetch(keys ...string)
}

// Mender is what conch doctor and its repair need of a store whose
// records are files: to look at them as files, independently of the code
// that writes them, and to mend what it finds. Files is one; a store that
// is not (a backend) has its server keep its records whole, and doctor
// says so.
type Mender interface {
	// Inspect says what is wrong with the home's files as files, and
	// which are records for the domain to judge; expect says what
	// belongs where.
	Inspect(now time.Time, expect func(key string) Expect) (*Inspection, error)
	// SetMode gives the folder or file at key conch's own mode.
	SetMode(key string, folder bool) (fs.FileMode, error)
	// Quarantine moves what is at key aside, where no reader looks, and
	// says where to.
	Quarantine(key string, now time.Time) (string, error)
	// RemoveLeftover removes what a writer that stopped left at key.
	RemoveLeftover(key string) error
}

// Journaled is a store whose commits go through a journal of its own on
// this computer.
type Journaled interface {
	// CutShort says whether a commit cut short after its commit point
	// stands unfinished (a lock-free reader of several records then
	// could see them disagree); the next writer finishes it.
	CutShort() (bool, error)
	// OldMark says whether an older conch's commit was cut short here,
	// which leaves the records whole and what is derived from them (the
	// index) to rebuild; ClearOldMark takes the mark away once it is.
	OldMark() (bool, error)
	ClearOldMark() error
}

var (
	_ Mender    = (*Files)(nil)
	_ Journaled = (*Files)(nil)
)

// Class is how a written record must last.
type Class uint8

const (
	// Live state (a step) need not survive a power cut.
	Live Class = iota
	// Durable records are synced before the commit answers.
	Durable
	// Event records are durable, new and never replaced: a log's entries,
	// written before the commit point.
	Event
)

// Write is one record to write, or to delete with everything under it.
type Write struct {
	Key    string
	Data   []byte // nil for a deletion
	Delete bool
	Class  Class
}

// MaxRecord bounds what conch reads and writes as one record: a record,
// the index, the config. No record conch writes comes near it (the index
// of a thousand chats is about 400 KB), and a record larger than it,
// whatever put it there, is an error that names it, not a read that takes
// the memory of every command that opens it.
const MaxRecord = 4 << 20

var (
	// ErrNotFound is a record that is not there. It is fs.ErrNotExist,
	// so that a file's absence is one.
	ErrNotFound = fs.ErrNotExist
	// ErrTooLarge is a record larger than MaxRecord.
	ErrTooLarge = errors.New("larger than the largest record conch writes (4 MiB)")
)
