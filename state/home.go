package state

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/pelletier/go-toml/v2"

	"github.com/conch-sh/conch/internal/handover"
	"github.com/conch-sh/conch/state/store"
)

// Config is CONCH_HOME/config.toml.
type Config struct {
	Preferences struct {
		Workspace string `toml:"workspace"`
		Computer  string `toml:"computer"`
	} `toml:"preferences"`
	Scrub struct {
		Env []string `toml:"env"`
	} `toml:"scrub"`
	Tasks struct {
		MaxRunning *int `toml:"max_running"`
	} `toml:"tasks"`
	Notify struct {
		// Command is run, detached, for each event that needs the person,
		// with the sentence as its last argument (notify.go).
		Command []string `toml:"command"`
		// Env is what the command's environment has beyond the fixed one
		// (noticeEnv): NAME=VALUE each, as the person set it here.
		Env []string `toml:"env"`
	} `toml:"notify"`
	// Guard is what the pre-tool hooks answer (issue 18): deny, ask or note.
	Guard struct {
		Claims   string `toml:"claims"`
		Checkout string `toml:"checkout"`
	} `toml:"guard"`
	// Backend names a shared home on a NATS server (issue 15); unset, the
	// records are local files under CONCH_HOME.
	Backend struct {
		URL   string `toml:"url"`
		Home  string `toml:"home"`
		Creds string `toml:"creds"`
		TLSCA string `toml:"tls_ca"`
		// Replicas is how many copies of the home a cluster keeps: 1 or 3.
		Replicas int `toml:"replicas"`
	} `toml:"backend"`
}

// Options are what the edge of the program passes in.
type Options struct {
	Dir      string              // CONCH_HOME
	Now      func() time.Time    // the clock; CONCH_NOW pins it
	Wall     func() time.Time    // the wall clock, which CONCH_NOW does not move; nil: time.Now
	Hostname string              // the computer's name when the config has none
	Getenv   func(string) string // for [scrub] env
	// Store holds the records; nil: files under Dir, on FS (nil: the
	// real file system).
	Store store.Store
	// Backend, when set, is asked for the store once the config is read
	// (the config is always the local CONCH_HOME/config.toml: it names
	// the backend); a nil store means the local files.
	Backend func(Config) (store.Store, error)
	// Local, with Store, is this computer's own files beside a Store
	// shared with other computers (a test's two computers over one
	// store): what runs a program is kept there (commands.go).
	Local    store.Store
	FS       store.FS
	LockWait time.Duration // 0: the store's default
	// Reach are the variables every command conch starts is given, beside
	// CONCH_HOME, to reach this same home (a backend named in the
	// environment: CONCH_BACKEND_URL, CONCH_BACKEND_HOME).
	Reach []string
	// Exe is the conch binary, for the detached work a command starts
	// (wake commands are run by the shell; gc by conch itself), asked
	// only then; nil or "": none is started.
	Exe func() string
	// Words is the sentence [notify] tells the person for a notice
	// (render's); nil says only its kind and chat.
	Words func(PersonNotice) string
	// Config is config.toml as the command read it already (nil: Open
	// reads it), for a home on its own files (Store nil).
	Config *LocalConfig
	// PID is this process's id, as its receipts name it (receipts.go);
	// 0 for a test's homes in one process (each takes the others' receipts
	// for its own).
	PID int
}

// Home is one CONCH_HOME.
type Home struct {
	Dir   string // the home's name (CONCH_HOME), for the commands it starts
	store store.Store
	// local is this computer's own files (CONCH_HOME); shared says the
	// records are not in them but shared with other computers.
	local    store.Store
	shared   bool
	Config   Config
	Computer string
	Now      func() time.Time
	Wall     func() time.Time // retention never runs later than it
	Getenv   func(string) string
	LockWait time.Duration
	Exe      func() string
	Words    func(PersonNotice) string
	reach    []string
	// pid is this process; selfProc it with its start time, once asked.
	pid      int
	selfProc *Proc
	// receipts are the receipts of marks this process committed, by key,
	// for Confirm to take away (receipts.go).
	receipts map[string]*receipt
}

// Open reads the home's config. It creates nothing.
// LiveFolders are the folders whose records take live writes (a step's
// change of a chat or a task, a session's link): only their records may
// have an overlay in a local home (store.Files.LiveIn).
var liveFolders = []string{"chats", "tasks", "sessions"}

// localFiles is the home's own files.
func localFiles(o Options) *store.Files {
	f := store.NewFiles(o.Dir, o.FS, 0)
	f.LiveIn = liveFolders
	return f
}

// LocalStore is this computer's own files of the home in dir (CONCH_HOME)
// on fsys (nil: the real file system): what a command reads before it
// opens the home, and the records themselves unless a backend holds them.
func LocalStore(dir string, fsys store.FS) store.Store {
	return localFiles(Options{Dir: dir, FS: fsys})
}

// LocalConfig is the home's config.toml as a command read it before it
// opened the home (the config names the backend the records are on).
// Open takes it through Options.Config rather than read it again.
type LocalConfig struct {
	dir  string
	data []byte
	err  error // the read's: store.ErrNotFound when there is none
}

// ReadLocalConfig reads config.toml of the home in dir, on fsys.
func ReadLocalConfig(dir string, fsys store.FS) *LocalConfig {
	data, err := localFiles(Options{Dir: dir, FS: fsys}).Get("config.toml")
	return &LocalConfig{dir: dir, data: data, err: err}
}

// MayNameBackend says whether the config (nil: none) may name a backend,
// without decoding it (handover.MayName): false is sure.
func (c *LocalConfig) MayNameBackend() bool {
	return c != nil && c.err == nil && handover.MayName(c.data)
}

// BackendURL is the url of the backend its [backend] names, "" for none,
// or for a config that cannot be read: opening the home says what is
// wrong with that.
func (c *LocalConfig) BackendURL() string {
	if !c.MayNameBackend() {
		return "" // the local home, at the cost of one read
	}
	var cfg Config
	if err := toml.Unmarshal(c.data, &cfg); err != nil {
		return ""
	}
	return cfg.Backend.URL
}

func Open(o Options) (*Home, error) {
	h := &Home{Dir: o.Dir, store: o.Store, Now: o.Now, Wall: o.Wall, Getenv: o.Getenv, LockWait: o.LockWait, Exe: o.Exe, Words: o.Words, reach: o.Reach, pid: o.PID}
	// The config is read where the records are when a store is given (a
	// test's), else from the local files: it names the backend.
	local := h.store
	if local == nil {
		local = localFiles(o)
	}
	if h.Now == nil {
		h.Now = time.Now
	}
	if h.Wall == nil {
		h.Wall = time.Now
	}
	if h.Getenv == nil {
		h.Getenv = os.Getenv
	}
	path := local.Where("config.toml")
	var data []byte
	var err error
	if o.Config != nil && o.Store == nil && o.Config.dir == o.Dir {
		data, err = o.Config.data, o.Config.err
	} else {
		data, err = local.Get("config.toml")
	}
	switch {
	case errors.Is(err, store.ErrNotFound):
	case err != nil:
		return nil, fmt.Errorf("config %s: %w", path, err)
	default:
		if err := toml.Unmarshal(data, &h.Config); err != nil {
			var de *toml.DecodeError
			if errors.As(err, &de) {
				line, _ := de.Position()
				return nil, fmt.Errorf("config %s line %d: %s", path, line, configMistake(de))
			}
			return nil, fmt.Errorf("config %s: %v", path, err)
		}
	}
	for _, g := range []struct{ key, v string }{{"claims", h.Config.Guard.Claims}, {"checkout", h.Config.Guard.Checkout}} {
		if g.v != "" && guardRank(g.v) == 0 {
			return nil, fmt.Errorf("config %s: [guard] %s = %q: it takes deny, ask or note", path, g.key, g.v)
		}
	}
	for _, kv := range h.Config.Notify.Env {
		if k, _, ok := strings.Cut(kv, "="); !ok || k == "" || strings.ContainsAny(k, " \t\x00") || strings.ContainsRune(kv, 0) {
			return nil, fmt.Errorf("config %s: [notify] env %q: each is NAME=VALUE", path, kv)
		}
	}
	h.local = local
	if h.store == nil && o.Backend != nil {
		if h.store, err = o.Backend(h.Config); err != nil {
			return nil, err
		}
		if h.store != nil {
			h.local, h.shared = localFiles(o), true
		}
	}
	if o.Local != nil && o.Store != nil {
		h.local, h.shared = o.Local, true
	}
	if h.store == nil {
		h.store = local
	}
	h.Computer = h.Config.Preferences.Computer
	if h.Computer == "" {
		h.Computer = o.Hostname
	}
	return h, nil
}

// Workspace is the folder every ordinary chat works in by default ("" when
// the config names none), with ~ expanded.
func (h *Home) Workspace() string {
	w := h.Config.Preferences.Workspace
	if w == "" {
		return ""
	}
	if w == "~" || strings.HasPrefix(w, "~/") {
		if home, err := os.UserHomeDir(); err == nil {
			w = filepath.Join(home, strings.TrimPrefix(w, "~"))
		}
	}
	return filepath.Clean(w)
}

// where names the record at rel for a person reading an error.
func (h *Home) where(rel string) string { return h.store.Where(rel) }

// Store is the store the home's records are in.
func (h *Home) Store() store.Store { return h.store }

// Close lets go of what the home's store holds open (a backend's
// connection, which sends what is still to go with it, its last unlock):
// a command closes its home before it exits.
func (h *Home) Close() {
	if c, ok := h.store.(interface{ Close() }); ok {
		c.Close()
	}
}

// Local is this computer's own files of the home (CONCH_HOME): the records
// themselves unless they are shared on a backend.
func (h *Home) Local() store.Store { return h.local }

// ReadAhead names the chat whose record the next Update reads first (a
// step's actor): a home on a backend reads it beside taking the lock
// (store.ReadAhead), a round trip less. What the Update reads is the same.
func (h *Home) ReadAhead(chat string) {
	if ra, ok := h.store.(store.ReadAhead); ok && ValidID(chat) {
		ra.ReadAhead(chatRel(chat))
	}
}

// prefetch starts reading the records at rels side by side, where the
// store can (store.Prefetch); a local home reads each when it is asked.
func (h *Home) prefetch(rels []string) {
	if p, ok := h.store.(store.Prefetch); ok && len(rels) > 1 {
		p.Prefetch(rels...)
	}
}

// Update runs fn under the home's lock and writes what it changed. If fn
// fails, nothing is written.
//
// fn may run more than once: in a home that does not exist yet, it first
// runs on a transaction that is thrown away, so that bad input creates
// nothing, not even the home; and a transaction that recorded events and
// could not be committed runs once more, recording none. It must change
// nothing but the transaction.
func (h *Home) Update(fn func(tx *Tx) error) error {
	there, err := h.store.Exists()
	if err != nil {
		return err
	}
	if !there {
		dry := newTx(h)
		if err := fn(dry); err != nil {
			return err
		}
		if dry.failed != nil {
			return dry.failed
		}
	}
	unlock, err := h.store.Lock(h.LockWait)
	if err != nil {
		return lockError(err)
	}
	defer unlock()
	if err := h.finishCutCommit(); err != nil {
		return err
	}
	tx, err := h.try(fn, nil)
	if err != nil && tx != nil && tx.logs.recorded {
		// Recording is best-effort (SPEC §7): a change that could not be
		// committed with its events is tried once more without them.
		tx, err = h.try(fn, err)
	}
	if err != nil {
		return err
	}
	for _, f := range tx.after {
		f()
	}
	return nil
}

// try runs fn on a new transaction and commits it. With unlogged set, the
// transaction records no event (each one it would have is a warning
// carrying unlogged). It returns the transaction when fn ran through.
func (h *Home) try(fn func(tx *Tx) error, unlogged error) (*Tx, error) {
	tx := newTx(h)
	tx.logs.off = unlogged
	if err := fn(tx); err != nil {
		return nil, err
	}
	if tx.failed != nil {
		return nil, tx.failed
	}
	return tx, tx.commit()
}

// View runs fn over the records as they are, without a lock. It writes
// nothing and creates nothing: a View has no method that writes, so the
// compiler, not a panic, keeps a read-only command from writing.
func (h *Home) View(fn func(v *View) error) error {
	return fn(newView(h))
}

// Tx is a transaction of Home.Update: a View of the records, and the
// changes to write. Everything that writes is reached from a Tx, through
// the domain type of what it is about (domains.go): tx.Chats().Create,
// tx.Messages().Send, tx.Replies().Step.
type Tx struct {
	View
	// recs is the record cache: what the transaction changed and removed,
	// which its View reads first, and which commit writes in order. Held
	// here, not apart: a transaction costs one allocation less.
	recs  records
	after []func()
	// ownCmds are the chats whose commands this transaction set, kept in
	// this computer's own files on a shared home (commands.go).
	ownCmds []string
}

// View is a read of the records, lock-free (Home.View) or inside a
// transaction (Tx.View), reached the same way: v.Chats().Get(id). It only
// reads: what a transaction changed it sees through the transaction's
// record cache.
type View struct {
	h *Home
	// read is each record this View read, as it read it (nil: there is
	// none).
	read map[string]any
	// pending is the record cache of the transaction this View is of, nil
	// for a lock-free read.
	pending *records
	index   *Index
	// warnings are what went wrong without failing the command (a log
	// append that could not be written); the cli prints them.
	warnings []string
	logs     logTx
	// failed is an error met where there was none to return (a ripple
	// point): the transaction then writes nothing and Update returns it.
	failed error
	// marks is the receipt of the marks NotesTx.Mark is making; receipt and
	// receiptRel a shared home's, to write in this computer's own files
	// before the commit; undone the dead receipts undone (receipts.go).
	marks      *receipt
	receipt    *receipt
	receiptRel string
	undone     map[string]bool
}

// records is a transaction's record cache: each record it changed or
// removed as it has it now, which of them are durable, which are gone,
// and each chat's summary as it was read (so a commit that left every
// summary alone, a step, need not read the index at all).
type records struct {
	have   map[string]any
	dirty  map[string]bool // path → durable
	gone   map[string]bool // made when a record is removed: most are not
	loaded map[string]*Summary
}

// newTx is a transaction: its View, its record cache and itself in one
// allocation.
func newTx(h *Home) *Tx {
	tx := &Tx{View: View{h: h, read: map[string]any{}}, recs: records{have: map[string]any{}, dirty: map[string]bool{}, loaded: map[string]*Summary{}}}
	tx.pending = &tx.recs
	return tx
}

func newView(h *Home) *View {
	return &View{h: h, read: map[string]any{}}
}

// inTx says whether the View is a transaction's, under the home's lock.
func (tx *View) inTx() bool { return tx.pending != nil }

// cached is the record at rel as the View has it in hand: changed by its
// transaction, or read; known is false when it has not read it.
func (tx *View) cached(rel string) (v any, known bool) {
	if r := tx.pending; r != nil {
		if v, ok := r.have[rel]; ok {
			return v, true
		}
	}
	v, known = tx.read[rel]
	return v, known
}

// changed says whether the View's transaction changed the record at rel.
func (tx *View) changed(rel string) bool {
	return tx.pending != nil && tx.pending.dirty[rel]
}

// forget drops what the View holds of the record at rel: the next read
// reads it again.
func (tx *View) forget(rel string) {
	delete(tx.read, rel)
	if r := tx.pending; r != nil && !r.dirty[rel] && !r.gone[rel] {
		delete(r.have, rel)
	}
}

// reader is a View or a Tx: what reads records.
type reader interface{ reads() *View }

func (tx *View) reads() *View { return tx }

// fail makes the transaction fail with err (the first such error wins).
func (tx *View) fail(err error) {
	if tx.failed == nil {
		tx.failed = err
	}
}

// home is the home the transaction is over.
func (tx *View) home() *Home { return tx.h }

// Now is the transaction's clock.
func (tx *View) Now() time.Time { return tx.h.Now().UTC() }

// warn records something that went wrong without failing the command.
func (tx *View) warn(format string, args ...any) {
	tx.warnings = append(tx.warnings, fmt.Sprintf(format, args...))
}

// Warnings are what went wrong in the transaction without failing it.
func (tx *View) Warnings() []string { return tx.warnings }

// After runs f once the transaction's changes are written (wake commands,
// stop commands: nothing that must happen if the change does not).
func (tx *Tx) After(f func()) { tx.after = append(tx.after, f) }

// load reads the record at rel into a new T, or returns nil if there is none.
func load[T any](r reader, rel string) (*T, error) {
	tx := r.reads()
	if v, ok := tx.cached(rel); ok {
		if v == nil {
			return nil, nil
		}
		return v.(*T), nil
	}
	v, err := readRecord[T](tx, rel)
	if err != nil {
		return nil, err
	}
	if v == nil {
		tx.read[rel] = nil
		return nil, nil
	}
	tx.read[rel] = v
	return v, nil
}

// recordIDs are the ids of the records in dir (ID.json) that valid takes,
// in the folder's order; none when the folder is not there. A killed
// writer's temporary file (.ID.json123) and whatever is not conch's are
// passed over.
func (tx *View) recordIDs(dir string, valid func(id string) bool) ([]string, error) {
	names, err := tx.h.store.List(dir)
	if err != nil {
		return nil, err
	}
	var ids []string
	for _, name := range names {
		if id, ok := strings.CutSuffix(name, ".json"); ok && valid(id) {
			ids = append(ids, id)
		}
	}
	return ids, nil
}

// readRecord reads the record at rel from the disk into a new T, past the
// transaction's cache; nil if there is none.
func readRecord[T any](r reader, rel string) (*T, error) {
	tx := r.reads()
	p := tx.h.where(rel)
	data, err := tx.h.store.Get(rel)
	if errors.Is(err, store.ErrNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, readError(p, err)
	}
	v := new(T)
	if !decodeFast(data, v) {
		*v = *new(T)
		if err := json.Unmarshal(data, v); err != nil {
			return nil, &CorruptError{Path: p, Err: err}
		}
	}
	if bytes.Equal(bytes.TrimSpace(data), []byte("null")) {
		// Unmarshal takes null for "leave it as it is": a record is never null.
		return nil, &CorruptError{Path: p, Err: errors.New("it holds null, not a record")}
	}
	if r, ok := any(v).(interface{ readOn(here string) }); ok {
		r.readOn(tx.h.Computer)
	}
	if c, ok := any(v).(*Chat); ok && tx.h.shared {
		if err := tx.h.ownCommands(c); err != nil {
			return nil, err
		}
	}
	return v, nil
}

// misnamed is the error for a record that holds another's id: written
// back, it would land on the other's file.
func (tx *View) misnamed(rel, got string) error {
	return &CorruptError{Path: tx.h.where(rel), Err: fmt.Errorf("it holds %q, not the record its name says", got)}
}

// put marks the record at rel to be written. durable records (messages,
// waits, cursors, events, heads, keys, counters) are synced before the
// command answers; live state need not be.
func (tx *Tx) put(rel string, v any, durable bool) { tx.recs.put(rel, v, durable) }

// remove marks the record at rel to be removed.
func (tx *Tx) remove(rel string) { tx.recs.remove(rel) }

func (r *records) put(rel string, v any, durable bool) {
	r.have[rel] = v
	delete(r.gone, rel)
	r.dirty[rel] = r.dirty[rel] || durable
}

func (r *records) remove(rel string) {
	r.have[rel] = nil
	delete(r.dirty, rel)
	if r.gone == nil {
		r.gone = map[string]bool{}
	}
	r.gone[rel] = true
}

// order is the records to write and those to remove, in the order commit
// writes them (commitRank, then by path).
func (r *records) order() (paths, gone []string) {
	paths = make([]string, 0, len(r.dirty))
	for p := range r.dirty {
		paths = append(paths, p)
	}
	sort.Slice(paths, func(i, j int) bool {
		ri, rj := commitRank(paths[i]), commitRank(paths[j])
		if ri != rj {
			return ri < rj
		}
		return paths[i] < paths[j]
	})
	gone = make([]string, 0, len(r.gone))
	for p := range r.gone {
		gone = append(gone, p)
	}
	sort.Strings(gone)
	return paths, gone
}

// commitRank orders the writes so that what a record points to is written
// before the record: events before heads, messages before the chats whose
// inboxes name them, chats before the index. A lock-free reader that
// catches a commit half applied then finds every record a record names.
func commitRank(rel string) int {
	switch {
	case rel == "counters.json" || rel == "keys.json":
		return 0
	case strings.HasPrefix(rel, "log/") && !strings.HasSuffix(rel, "/head.json"):
		return 1
	case strings.HasPrefix(rel, "log/"):
		return 2
	case strings.HasPrefix(rel, "chats/"):
		return 4
	case rel == "index.json":
		return 5
	}
	return 3
}

// finishCutCommit mends a home an older conch left with its commit cut
// short (the store rolled its own journal forward when it took the lock):
// its index is rebuilt from the records.
func (h *Home) finishCutCommit() error {
	old, ok := h.store.(store.Journaled)
	if !ok {
		return nil
	}
	if cut, err := old.OldMark(); err != nil || !cut {
		return err
	}
	tx := newTx(h)
	if _, err := tx.Chats().rebuildIndex(); err != nil {
		return err
	}
	if err := tx.commit(); err != nil {
		return err
	}
	return old.ClearOldMark()
}

// commit writes the transaction's change, all or nothing. An error means
// nothing was written; whatever fails once the change is committed is a
// warning (see the package comment).
func (tx *Tx) commit() error {
	if err := tx.Claims().end(); err != nil {
		return err
	}
	if err := tx.Chats().updateIndex(); err != nil {
		return err
	}
	paths, gone := tx.recs.order()
	ws := make([]store.Write, 0, len(paths)+len(gone))
	for _, rel := range paths {
		v := tx.recs.have[rel]
		if c, ok := v.(*Chat); ok && c != nil && tx.h.shared {
			v = sharedCopy(c)
		}
		data, err := marshalRecord(v)
		if err != nil {
			return err
		}
		class := store.Live
		switch {
		case isEventRel(rel):
			class = store.Event
		case tx.recs.dirty[rel]:
			class = store.Durable
		}
		ws = append(ws, store.Write{Key: rel, Data: append(data, '\n'), Class: class})
	}
	for _, rel := range gone {
		ws = append(ws, store.Write{Key: rel, Delete: true})
	}
	if err := tx.Notes().writeLocalReceipt(); err != nil {
		return err
	}
	warnings, err := tx.h.store.Commit(ws)
	tx.warnings = append(tx.warnings, warnings...)
	if err == nil && tx.h.shared {
		tx.Chats().keepCommands()
		tx.Notes().dropUndoneLocal()
	}
	return err
}

// nextID allocates the next id with the prefix (c, t, m, r, ch). The
// counters come from counters.json, or from the records when it is gone;
// an id whose record is there already (counters.json behind the records)
// moves them past the largest in use, so an id is never given twice.
func (tx *Tx) nextID(prefix string) (string, error) {
	c, err := tx.counters()
	if err != nil {
		return "", err
	}
	for {
		if n := (*c)[prefix]; n < 0 || n >= 1e9 {
			// Ids are c_1 … c_999999999: a counter outside that was not written by conch.
			return "", &CorruptError{Path: tx.h.where("counters.json"), Err: fmt.Errorf("counter %q is %d", prefix, n)}
		}
		(*c)[prefix]++
		id := fmt.Sprintf("%s_%d", prefix, (*c)[prefix])
		taken, err := tx.taken(prefix, id)
		if err != nil {
			return "", err
		}
		if !taken {
			tx.put("counters.json", c, true)
			return id, nil
		}
		used, err := tx.usedIDs()
		if err != nil {
			return "", err
		}
		(*c)[prefix] = max((*c)[prefix], used[prefix])
	}
}

// key returns what a keyed command answered before, if it did.
func (tx *View) key(k string) (string, error) {
	keys, err := load[Keys](tx, "keys.json")
	if err != nil || keys == nil {
		return "", err
	}
	return (*keys)[k], nil
}

func (tx *Tx) setKey(k, answer string) error {
	keys, err := load[Keys](tx, "keys.json")
	if err != nil {
		return err
	}
	if keys == nil {
		keys = &Keys{}
	}
	(*keys)[k] = answer
	tx.put("keys.json", keys, true)
	return nil
}

// configMistake is what a config.toml that does not decode has wrong, in
// TOML's words: a value of the wrong type is said by its key ("[tasks]
// max_running is a string: it takes an integer"), never by the Go type
// conch reads it into.
func configMistake(de *toml.DecodeError) string {
	msg := strings.TrimPrefix(de.Error(), "toml: ")
	key := de.Key()
	rest, ok := strings.CutPrefix(msg, "cannot decode TOML ")
	if !ok || len(key) == 0 {
		return msg
	}
	got, _, _ := strings.Cut(rest, " ")
	_, goType, _ := strings.Cut(rest, " of type ")
	want, known := map[string]string{
		"string": "a string", "[]string": "an array of strings", "int": "an integer", "*int": "an integer", "bool": "true or false",
	}[goType]
	if !known {
		return msg
	}
	name := key[len(key)-1]
	if len(key) > 1 {
		name = "[" + strings.Join(key[:len(key)-1], ".") + "] " + name
	}
	return fmt.Sprintf("%s is a TOML %s: it takes %s", name, got, want)
}

// ErrLockTimeout is what a change fails with when the home's lock could
// not be had in its time (errors.Is): another command held it all along.
// Its words name the lock.
var ErrLockTimeout = errors.New("the home's lock was not had in time")

// lockTimeout is a store's lock timeout, as ErrLockTimeout.
type lockTimeout struct{ err error }

func (e lockTimeout) Error() string        { return e.err.Error() }
func (e lockTimeout) Unwrap() error        { return e.err }
func (e lockTimeout) Is(target error) bool { return target == ErrLockTimeout }

// lockError is err of taking the lock, a timeout (the store's lock says
// Timeout, as lock.TimeoutError does) as ErrLockTimeout.
func lockError(err error) error {
	var te interface{ Timeout() bool }
	if errors.As(err, &te) && te.Timeout() {
		return lockTimeout{err}
	}
	return err
}
