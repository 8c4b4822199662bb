// Package natsstore is a home on NATS JetStream (SPEC §12, issue 15): the
// records of one home in one key-value bucket, shared by every computer
// that names the same server and home. Persistence, replication,
// compare-and-set, atomic commits and watches are JetStream's; this
// package only maps conch's store onto them:
//
//   - a record is a KV entry (keys.go says how its key is written);
//   - the write lock is the KV key "m.lock", taken by create (which fails
//     when it is there), with a time to live that its holder renews, so a
//     killed holder frees it within lockTTL;
//   - a commit is one JetStream atomic batch (ADR-50): every record, every
//     deletion and, last, a renewal of the lock that expects the lock's
//     revision the holder took, so a holder whose lock ran out commits
//     nothing (it is fenced);
//   - a deletion of more records than one batch holds is written as a
//     journal record in the batch and applied after it, by the commit or,
//     when the committer was killed, by the next Lock;
//   - a watch is a KV watch (an ordered consumer pushed by the server);
//   - on a cluster (Options.Replicas 3), a read under the lock goes to the
//     stream's leader, never to a replica that may lag, and what finds no
//     answer while a node is lost (no responder, an election) is asked
//     again within the timeout;
//   - whatever the server answers is input (keys.go: keys only as conch
//     writes them; a journal only of records' keys; a get's answer
//     checked): a server that lies, or another client with the
//     credentials, cannot make this package panic or delete beyond what
//     a commit names.
//
// The bucket uses file storage. It is made by the first Lock, like a
// home's folder.
package natsstore

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"github.com/nats-io/nuid"

	"github.com/conch-sh/conch/lock"
	"github.com/conch-sh/conch/state/store"
	"github.com/conch-sh/conch/state/store/natsstore/join"
)

const (
	// DefaultHome is the bucket a config that names none uses.
	DefaultHome = "conch"
	// lockTTL is how long the lock outlives a holder that stopped
	// renewing it (a killed command); the holder renews it every third.
	lockTTL = 3 * time.Second
	// markerTTL is how long the mark of a lock that ran out stays.
	markerTTL = 10 * time.Second
	// leaseMargin is how long before its time to live runs out a holder
	// stops trusting its lock: a pause of the holder, a clock's drift.
	leaseMargin = time.Second
	// maxBatch is JetStream's default bound on an atomic batch's
	// messages.
	maxBatch = 1000
)

// Options say which server and home.
type Options struct {
	URL   string // nats://host:4222, or several separated by commas
	Home  string // the bucket; "": DefaultHome
	Creds string // a NATS credentials file (a user JWT and seed, or an nkey seed), or ""
	TLSCA string // a CA file for the server's certificate, or ""
	// Replicas is how many copies of the home the bucket keeps (1 or 3,
	// on a cluster); 0: 1. It applies when the bucket is made.
	Replicas int
	// Timeout bounds the connection and each request; 0: 5 s.
	Timeout  time.Duration
	LockWait time.Duration // 0: lock.DefaultWait
	Holder   string        // who holds the lock, for a person reading it
}

// Store is one home on a JetStream server.
type Store struct {
	url, bucket string
	replicas    int
	creds       bool // the link authenticates with credentials
	timeout     time.Duration
	lockWait    time.Duration
	holder      []byte
	nc          *nats.Conn
	js          jetstream.JetStream
	kvMu        sync.Mutex
	kvHandle    jetstream.KeyValue // bound when a watch or a list needs it
	made        bool               // the bucket is there (known)
	// first is the read of the lock's key Open starts (firstIn is closed
	// once it is in, at firstAt): Exists asks by it, the first Lock takes
	// the lock from it (firstUsed), and the lock-free reads made after
	// it, while it says the lock is free, are kept for that Lock (kept).
	first     entry
	firstIn   chan struct{}
	firstAt   time.Time
	firstUsed bool
	kept      map[string]entry

	mu      sync.Mutex // the lock's revision, between renewal and commit
	lockRev uint64
	// leased is until when the lock is surely this holder's: its last
	// taking or renewal, plus its time to live, less a margin.
	leased time.Time
	stop   chan struct{} // ends the renewal
	// released is the answer to this store's last unlock, which is not
	// waited for (the command goes on, or exits, with its deletion on its
	// way; Close sends it): the next Lock takes from it the revision the
	// lock was freed at, in place of reading the lock.
	released jetstream.PubAckFuture
	// ahead are the keys the next Lock reads beside taking the lock
	// (ReadAhead), and aheadRead their reads once it is taken, each
	// answering the holder's first Get of its key before it commits.
	ahead     []string
	aheadRead map[string]<-chan entry
	// fetched are the reads Prefetch started, each answering the next
	// Get of its key made in the same stretch (gen: the lock taken or
	// let go, a commit, a roll forward each start a new one).
	fetched map[string]fetch
	gen     uint64
}

// fetch is one read Prefetch started: its entry comes on read; keep says
// it was sent where a lock-free read is kept for the first Lock.
type fetch struct {
	read <-chan entry
	gen  uint64
	keep bool
}

// ValidHome says whether name can be a home on a server: a bucket's name.
func ValidHome(name string) bool {
	if name == "" || len(name) > 64 {
		return false
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-') {
			return false
		}
	}
	return true
}

// Open connects to the server and finds the home's bucket (a home not
// made yet has none). A server that cannot be reached is an error that
// names its URL.
func Open(o Options) (*Store, error) {
	if o.Home == "" {
		o.Home = DefaultHome
	}
	if !ValidHome(o.Home) {
		return nil, fmt.Errorf("backend home %q: a name of letters, digits, - and _", o.Home)
	}
	if o.Timeout == 0 {
		o.Timeout = 5 * time.Second
	}
	if o.LockWait == 0 {
		o.LockWait = lock.DefaultWait
	}
	if o.Holder == "" {
		host, _ := os.Hostname()
		o.Holder = host + " pid " + strconv.Itoa(os.Getpid())
	}
	switch o.Replicas {
	case 0:
		o.Replicas = 1
	case 1, 3:
	default:
		return nil, fmt.Errorf("backend replicas %d: 1, or 3 on a cluster of three nodes", o.Replicas)
	}
	if err := join.Refusal(join.Link{URL: o.URL, Creds: o.Creds, TLSCA: o.TLSCA}); err != nil {
		return nil, err
	}
	connect := o.Timeout
	if len(join.Split(o.URL)) > 1 {
		// Several nodes: one that does not answer (frozen) is passed
		// over for the next, not waited on for the whole timeout.
		connect = min(connect, time.Second)
	}
	opts := []nats.Option{nats.Name("conch"), nats.Timeout(connect), nats.MaxReconnects(-1), nats.ReconnectWait(100 * time.Millisecond)}
	if o.Creds != "" {
		opt, err := credentials(expand(o.Creds))
		if err != nil {
			return nil, err
		}
		opts = append(opts, opt)
	}
	if o.TLSCA != "" {
		opts = append(opts, nats.RootCAs(expand(o.TLSCA)))
	}
	nc, err := nats.Connect(o.URL, opts...)
	if err != nil {
		return nil, fmt.Errorf("backend %s cannot be reached: %v", o.URL, err)
	}
	js, err := jetstream.New(nc)
	if err != nil {
		nc.Close()
		return nil, fmt.Errorf("backend %s: %v", o.URL, err)
	}
	s := &Store{url: o.URL, bucket: o.Home, replicas: o.Replicas, creds: o.Creds != "", timeout: o.Timeout, lockWait: o.LockWait, holder: []byte(o.Holder), nc: nc, js: js, firstIn: make(chan struct{})}
	go func() {
		e := s.read(lockKey)
		s.kvMu.Lock()
		s.first, s.firstAt = e, time.Now()
		s.kvMu.Unlock()
		close(s.firstIn)
	}()
	return s, nil
}

// credentials is the NATS option of a credentials file: a user's JWT and
// seed (decentralised auth, nsc's), or a user's nkey seed alone (what
// conch backend join writes from conch-hub's token).
func credentials(p string) (nats.Option, error) {
	data, err := os.ReadFile(p)
	if err != nil {
		return nil, fmt.Errorf("backend creds: %v", err)
	}
	if strings.Contains(string(data), "BEGIN NATS USER JWT") {
		return nats.UserCredentials(p), nil
	}
	opt, err := nats.NkeyOptionFromSeed(p)
	if err != nil {
		return nil, fmt.Errorf("backend creds %s: neither a user's JWT and seed nor a user's nkey seed: %v", p, err)
	}
	return opt, nil
}

func expand(p string) string {
	if p == "~" || strings.HasPrefix(p, "~/") {
		if home, err := os.UserHomeDir(); err == nil {
			return home + p[1:]
		}
	}
	return p
}

// Close lets go of the connection, sending what is still to go: the last
// unlock's deletion (a store never closed leaves the lock to run out).
func (s *Store) Close() { s.nc.Close() }

// URL is the server's address, as configured.
func (s *Store) URL() string { return s.url }

// Bucket is the home's bucket.
func (s *Store) Bucket() string { return s.bucket }

// kv is the bucket, bound on first use (binding asks the server for the
// stream's whole state: a step, which needs no watch and no list, does
// without), or nil before it is made. A server that cannot answer now (a
// node of a cluster lost, its stream electing a leader) is asked again
// within the timeout; then it is an error, never a nil taken for "not
// made".
func (s *Store) kv() (jetstream.KeyValue, error) {
	s.kvMu.Lock()
	defer s.kvMu.Unlock()
	if s.kvHandle != nil {
		return s.kvHandle, nil
	}
	ctx, cancel := s.ctx()
	defer cancel()
	for {
		kv, err := s.js.KeyValue(ctx, s.bucket)
		switch {
		case err == nil:
			s.kvHandle, s.made = kv, true
			return kv, nil
		case errors.Is(err, jetstream.ErrBucketNotFound):
			return nil, nil
		case !transient(err) || !pause(ctx):
			return nil, err
		}
	}
}

// transient says whether err is a server that cannot answer now but may
// in a moment: no responder (a stream without a leader, a node lost), a
// JetStream cluster electing.
func transient(err error) bool {
	var ae *jetstream.APIError
	return errors.Is(err, nats.ErrNoResponders) || errors.Is(err, jetstream.ErrNoStreamResponse) ||
		errors.As(err, &ae) && (ae.ErrorCode == errClusterNotAvail || ae.Code == 503)
}

// pause waits a moment before asking again, and says false when ctx is
// done first.
func pause(ctx context.Context) bool {
	select {
	case <-ctx.Done():
		return false
	case <-time.After(100 * time.Millisecond):
		return true
	}
}

// errNoBucket is a direct get in a home not made yet.
var errNoBucket = errors.New("no bucket")

// direct reads the last entry of a key with one JetStream direct get
// (ADR-31), which the bucket allows: the entry's data, whether it is
// there (a deletion, a purge or the marker of a time run out is not) and
// its revision (0 for a key never written).
//
// Under the lock, on a replicated bucket, the entry is read from the
// stream's leader instead (leaderGet): a replica may lag behind, and a
// transaction must read what the commits before it wrote.
func (s *Store) direct(k string) (data []byte, there bool, rev uint64, err error) {
	if s.replicas > 1 && s.locked() {
		return s.leaderGet(k)
	}
	deadline := time.Now().Add(s.timeout)
	for {
		var m *nats.Msg
		m, err = s.nc.Request("$JS.API.DIRECT.GET.KV_"+s.bucket+".$KV."+s.bucket+"."+k, nil, time.Until(deadline))
		if errors.Is(err, nats.ErrNoResponders) {
			// No bucket, or none of its replicas answers now (a node
			// lost, a leader elected): the server says which.
			if made, merr := s.streamThere(); merr == nil && !made {
				return nil, false, 0, errNoBucket
			}
			if time.Until(deadline) > 100*time.Millisecond {
				time.Sleep(100 * time.Millisecond)
				continue
			}
		}
		if err != nil {
			return nil, false, 0, err
		}
		data, there, rev, err = parseDirect(m.Header.Get("Status"), m.Header.Get("Description"), m.Header.Get(jetstream.SequenceHeader),
			m.Header.Get("KV-Operation"), m.Header.Get("Nats-Marker-Reason"), m.Data)
		if err != nil {
			return nil, false, 0, err
		}
		s.kvMu.Lock()
		s.made = true
		s.kvMu.Unlock()
		return data, there, rev, nil
	}
}

// locked says whether this store holds the lock now.
func (s *Store) locked() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.stop != nil
}

// streamThere asks the server whether the bucket's stream is there (known
// made: yes, without asking).
func (s *Store) streamThere() (bool, error) {
	s.kvMu.Lock()
	made := s.made
	s.kvMu.Unlock()
	if made {
		return true, nil
	}
	ctx, cancel := s.ctx()
	defer cancel()
	_, err := s.js.Stream(ctx, "KV_"+s.bucket)
	if errors.Is(err, jetstream.ErrStreamNotFound) {
		return false, nil
	}
	return err == nil, err
}

// msgGet is JetStream's answer to a get of a stream's message.
type msgGet struct {
	Message *struct {
		Seq  uint64 `json:"seq"`
		Hdrs []byte `json:"hdrs"`
		Data []byte `json:"data"`
	} `json:"message"`
	Error *struct {
		Code        int    `json:"code"`
		ErrCode     int    `json:"err_code"`
		Description string `json:"description"`
	} `json:"error"`
}

// leaderGet reads the last entry of a key from the stream's leader (the
// JetStream API's message get, which only the leader answers), asking
// again while the stream has no leader, within the timeout.
func (s *Store) leaderGet(k string) ([]byte, bool, uint64, error) {
	req, err := json.Marshal(map[string]string{"last_by_subj": "$KV." + s.bucket + "." + k})
	if err != nil {
		return nil, false, 0, err
	}
	deadline := time.Now().Add(s.timeout)
	for {
		m, err := s.nc.Request("$JS.API.STREAM.MSG.GET.KV_"+s.bucket, req, time.Until(deadline))
		if err == nil {
			data, there, rev, err := parseMsgGet(m.Data)
			if err == nil || !errors.Is(err, errNoLeader) {
				return data, there, rev, err
			}
		} else if !errors.Is(err, nats.ErrNoResponders) {
			return nil, false, 0, err
		}
		if time.Until(deadline) < 100*time.Millisecond {
			return nil, false, 0, fmt.Errorf("the home's stream has no leader now: %w", nats.ErrTimeout)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

var errNoLeader = errors.New("no leader")

// parseMsgGet reads a message get's answer as input.
func parseMsgGet(body []byte) ([]byte, bool, uint64, error) {
	var r msgGet
	if err := json.Unmarshal(body, &r); err != nil {
		return nil, false, 0, fmt.Errorf("a message get's answer: %v", err)
	}
	switch {
	case r.Error != nil && r.Error.ErrCode == errNoMessage:
		return nil, false, 0, nil
	case r.Error != nil && r.Error.ErrCode == errNoStream:
		return nil, false, 0, errNoBucket
	case r.Error != nil && (r.Error.ErrCode == errClusterNotAvail || r.Error.Code == 503):
		return nil, false, 0, errNoLeader
	case r.Error != nil:
		return nil, false, 0, fmt.Errorf("message get: %.200q", r.Error.Description)
	case r.Message == nil:
		return nil, false, 0, errors.New("a message get's answer holds no message")
	}
	var op, marker string
	if len(r.Message.Hdrs) > 0 {
		h, err := nats.DecodeHeadersMsg(r.Message.Hdrs)
		if err != nil {
			return nil, false, 0, fmt.Errorf("a message get's headers: %v", err)
		}
		op, marker = h.Get("KV-Operation"), h.Get("Nats-Marker-Reason")
	}
	return parseDirect("", "", strconv.FormatUint(r.Message.Seq, 10), op, marker, r.Message.Data)
}

// parseDirect reads a direct get's answer, its headers and data, as input:
// a server's status, the entry's sequence (a number), its operation.
func parseDirect(status, desc, seq, op, marker string, data []byte) ([]byte, bool, uint64, error) {
	switch status {
	case "":
	case "404":
		return nil, false, 0, nil
	default:
		return nil, false, 0, fmt.Errorf("direct get: %.40q %.200q", status, desc)
	}
	rev, err := strconv.ParseUint(seq, 10, 64)
	if err != nil || rev == 0 {
		return nil, false, 0, fmt.Errorf("direct get: an entry whose sequence is %.40q", seq)
	}
	if op == "DEL" || op == "PURGE" || marker != "" {
		return nil, false, rev, nil
	}
	return data, true, rev, nil
}

// exists says whether the bucket is there, asking once: by the read of
// the lock's key Open started.
func (s *Store) exists() (bool, error) {
	s.kvMu.Lock()
	made := s.made
	s.kvMu.Unlock()
	if made {
		return true, nil
	}
	<-s.firstIn
	e := s.first
	if e.err == nil {
		return true, nil
	}
	e = s.read(lockKey) // once more: that read may have been cut short
	if errors.Is(e.err, errNoBucket) {
		return false, nil
	}
	if e.err != nil {
		return false, s.fail("", e.err)
	}
	return true, nil
}

// seenLock is the read of the lock's key Open started, for the first Lock
// only, if it is recent and read (nil: none). Even recent it may be old:
// it only says which revision the lock's publish expects, and a lock
// changed since fails that publish, which then waits for the lock as if
// it had been read held. So an old read costs a wait, never the lock;
// one older than seenFresh is not used.
func (s *Store) seenLock() *entry {
	<-s.firstIn
	s.kvMu.Lock()
	defer s.kvMu.Unlock()
	used := s.firstUsed
	s.firstUsed = true
	if used || s.first.err != nil || time.Since(s.firstAt) > seenFresh {
		return nil
	}
	e := s.first
	return &e
}

// keeping says whether a lock-free read sent now is kept for the first
// Lock: Open's read of the lock is in and found it free, and no Lock has
// taken it (on a bucket of one replica, where every read is the leader's).
func (s *Store) keeping() bool {
	if s.replicas != 1 {
		return false
	}
	select {
	case <-s.firstIn:
	default:
		return false
	}
	s.kvMu.Lock()
	defer s.kvMu.Unlock()
	return !s.firstUsed && s.first.err == nil && !(s.first.there && len(s.first.data) > 0) && len(s.kept) < maxKept
}

// maxKept bounds the reads kept for the first Lock (chats list reads a
// thousand records, and takes no lock).
const maxKept = 64

// keep keeps e, the read of key k, for the first Lock.
func (s *Store) keep(k string, e entry) {
	if e.err != nil {
		return
	}
	s.kvMu.Lock()
	defer s.kvMu.Unlock()
	if s.firstUsed {
		return
	}
	if s.kept == nil {
		s.kept = make(map[string]entry)
	}
	s.kept[k] = e
}

// takeKept gives the reads kept for the first Lock, once: nothing is kept
// after it.
func (s *Store) takeKept() map[string]entry {
	s.kvMu.Lock()
	defer s.kvMu.Unlock()
	kept := s.kept
	s.kept = nil
	return kept
}

// seenFresh is how long exists' read of the lock serves the next Lock.
const seenFresh = time.Second

// entry is one read of a key: its data, whether it is there, its
// revision; err when it could not be read.
type entry struct {
	data  []byte
	there bool
	rev   uint64
	err   error
}

// read is direct's answer for key k as one entry.
func (s *Store) read(k string) entry {
	var e entry
	e.data, e.there, e.rev, e.err = s.direct(k)
	return e
}

func (s *Store) ctx() (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.Background(), s.timeout)
}

// fail names the server, the home and the record in an error.
func (s *Store) fail(key string, err error) error {
	if errors.Is(err, nats.ErrNoServers) || errors.Is(err, nats.ErrConnectionClosed) || errors.Is(err, nats.ErrTimeout) || errors.Is(err, context.DeadlineExceeded) {
		return fmt.Errorf("backend %s cannot be reached: %v", s.url, err)
	}
	return fmt.Errorf("%s: %w", s.Where(key), err)
}

// Where names a record: the server, the home and the key.
func (s *Store) Where(key string) string {
	if key == "" {
		return s.url + " home " + s.bucket
	}
	return s.url + " home " + s.bucket + ": " + key
}

func (s *Store) Get(key string) ([]byte, error) {
	k := encodeKey(key)
	e, ok := s.readAhead(k)
	if !ok {
		var f fetch
		if f, ok = s.fetchedRead(k); ok {
			e = <-f.read
		} else {
			f.keep = !s.locked() && s.keeping()
			e = s.read(k)
		}
		if f.keep {
			s.keep(k, e)
		}
	}
	data, there, err := e.data, e.there, e.err
	switch {
	case errors.Is(err, errNoBucket), err == nil && !there:
		return nil, fmt.Errorf("%s: %w", s.Where(key), store.ErrNotFound)
	case err != nil:
		return nil, s.fail(key, err)
	case len(data) > store.MaxRecord:
		return nil, fmt.Errorf("%s: %w", s.Where(key), store.ErrTooLarge)
	}
	return data, nil
}

// Prefetch reads keys now, side by side (store.Prefetch): the next Get of
// each, made before a lock is taken or let go, or a commit, is answered
// from its read. A key read already, or being read, is not read again.
func (s *Store) Prefetch(keys ...string) {
	keep := !s.locked() && s.keeping()
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, key := range keys {
		k := encodeKey(key)
		if f, ok := s.fetched[k]; ok && f.gen == s.gen {
			continue
		}
		if s.fetched == nil {
			s.fetched = make(map[string]fetch, len(keys))
		}
		s.fetched[k] = fetch{read: s.readBeside(k), gen: s.gen, keep: keep}
	}
}

// fetchedRead is the read Prefetch started of key k, once, if it was
// started in this stretch.
func (s *Store) fetchedRead(k string) (fetch, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	f, ok := s.fetched[k]
	delete(s.fetched, k)
	return f, ok && f.gen == s.gen
}

// keys lists the KV keys of the records under filters.
func (s *Store) keys(filters ...string) ([]string, error) {
	kv, err := s.kv()
	if kv == nil || err != nil {
		return nil, err
	}
	ctx, cancel := s.ctx()
	defer cancel()
	l, err := kv.ListKeysFiltered(ctx, filters...)
	if err != nil {
		return nil, err
	}
	defer l.Stop()
	var out []string
	for k := range l.Keys() {
		out = append(out, k)
	}
	if ctx.Err() != nil {
		return nil, ctx.Err() // cut short: a list that may miss some
	}
	return out, nil
}

func (s *Store) List(dir string) ([]string, error) {
	ks, err := s.keys(folderFilter(dir))
	if err != nil {
		return nil, s.fail(dir, err)
	}
	return listNames(dir, ks), nil
}

func (s *Store) Exists() (bool, error) { return s.exists() }

// make makes the bucket: file storage, one revision a key, markers for
// keys whose time ran out (the lock's), atomic batches allowed.
func (s *Store) make() error {
	if made, err := s.exists(); err != nil || made {
		// Made: a bucket whose atomic batches are off is told by the
		// first commit (publishBatch), not asked at every lock.
		return err
	}
	s.kvMu.Lock()
	defer s.kvMu.Unlock()
	ctx, cancel := s.ctx()
	defer cancel()
	cfg := jetstream.KeyValueConfig{
		Bucket:         s.bucket,
		Description:    "conch home",
		History:        1,
		Storage:        jetstream.FileStorage,
		Replicas:       s.replicas,
		LimitMarkerTTL: markerTTL,
		MaxValueSize:   store.MaxRecord,
	}
	kv, err := s.js.CreateKeyValue(ctx, cfg)
	for transient(err) && pause(ctx) {
		kv, err = s.js.CreateKeyValue(ctx, cfg) // a cluster electing its leader
	}
	if errors.Is(err, jetstream.ErrBucketExists) {
		kv, err = s.js.KeyValue(ctx, s.bucket) // made by another, just now
	}
	if err != nil {
		return s.fail("", err)
	}
	if err := s.allowAtomic(ctx); err != nil {
		return err
	}
	s.kvHandle, s.made = kv, true
	return nil
}

// allowAtomic turns on atomic batches on the bucket's stream (a KV
// bucket's own settings do not have it).
func (s *Store) allowAtomic(ctx context.Context) error {
	st, err := s.js.Stream(ctx, "KV_"+s.bucket)
	if err != nil {
		return s.fail("", err)
	}
	cfg := st.CachedInfo().Config
	if cfg.AllowAtomicPublish {
		return nil
	}
	cfg.AllowAtomicPublish = true
	if _, err := s.js.UpdateStream(ctx, cfg); err != nil {
		return fmt.Errorf("%s: this server cannot commit atomically (JetStream atomic batches, nats-server 2.12 or later): %v", s.Where(""), err)
	}
	return nil
}

// Lock takes the key m.lock by create, waiting on a watch of it while
// another holds it (and looking again each second, should the watch's
// node be lost), at most wait.
func (s *Store) Lock(wait time.Duration) (func(), error) {
	if wait == 0 {
		wait = s.lockWait
	}
	start := time.Now()
	if err := s.make(); err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(context.Background(), wait)
	defer cancel()
	timeout := func() error {
		return &lock.TimeoutError{Path: s.Where("lock"), Waited: time.Since(start)}
	}
	seen := s.seenLock()
	first := seen
	if freed := s.freed(ctx); freed != nil {
		seen, first = freed, nil
	}
	s.mu.Lock()
	keys := s.ahead
	s.ahead = nil
	s.mu.Unlock()
	rev, journal, ahead, err := s.take(ctx, seen, keys)
	if errors.Is(err, errHeld) {
		rev, journal, err = s.awaitLock(ctx)
		ahead, first = nil, nil
	}
	// The lock-free reads kept since Open's read found the lock free at
	// first.rev are what reads under the lock would be when the lock was
	// taken at the next revision: nothing was written between.
	kept := s.takeKept()
	if err == nil && first != nil && rev == first.rev+1 && len(kept) > 0 {
		if ahead == nil {
			ahead = make(map[string]<-chan entry, len(kept))
		}
		for k, e := range kept {
			if _, ok := ahead[k]; !ok {
				read := make(chan entry, 1)
				read <- e
				ahead[k] = read
			}
		}
	}
	if err != nil {
		if ctx.Err() != nil {
			return nil, timeout()
		}
		return nil, s.fail("lock", err)
	}
	s.mu.Lock()
	s.lockRev = rev
	s.leased = start.Add(lockTTL - leaseMargin)
	s.stop = make(chan struct{})
	s.aheadRead = ahead
	s.gen++
	s.mu.Unlock()
	go s.renew(s.stop)
	if err := s.rollForward(journal); err != nil {
		s.unlock()
		return nil, err
	}
	return s.unlock, nil
}

var errHeld = errors.New("held")

// freed is the lock as this store's last unlock left it, once that
// deletion's answer is in: free, at the deletion's revision. It is nil
// when there was none, or it failed (a lock that ran out and was taken
// by another), or no answer came within ctx: the lock is read then.
func (s *Store) freed(ctx context.Context) *entry {
	s.mu.Lock()
	f := s.released
	s.released = nil
	s.mu.Unlock()
	if f == nil {
		return nil
	}
	select {
	case ack := <-f.Ok():
		return &entry{rev: ack.Sequence}
	case <-f.Err():
	case <-ctx.Done():
	}
	return nil
}

// take takes the lock if it is free: one read of its key (seen, when
// the caller has just read it, or when this store's own unlock freed it;
// else read now), one publish that expects the revision read (so of two
// takers one wins).
//
// On a bucket of one replica the journal, and the keys read ahead, are
// read beside the publish, not after its answer (journal, which
// rollForward takes, and ahead, by key): a round trip less for each at
// every lock. What they read is what a read under the lock would: they
// are sent once the lock was known free at rev, and the publish succeeds
// only if the lock is still at rev, so no holder came between to write
// anything.
func (s *Store) take(ctx context.Context, seen *entry, keys []string) (rev uint64, journal <-chan entry, ahead map[string]<-chan entry, err error) {
	if seen == nil {
		e := s.read(lockKey)
		seen = &e
	}
	if seen.err != nil {
		return 0, nil, nil, seen.err
	}
	if seen.there && len(seen.data) > 0 {
		return 0, nil, nil, errHeld
	}
	if s.replicas == 1 {
		journal = s.readBeside(journalKey)
		for _, k := range keys {
			if ahead == nil {
				ahead = make(map[string]<-chan entry, len(keys))
			}
			ahead[k] = s.readBeside(k)
		}
	}
	rev, err = s.takeAt(ctx, seen.rev)
	if err != nil {
		return 0, nil, nil, err
	}
	return rev, journal, ahead, nil
}

// readBeside reads key k in its own goroutine: its entry comes on the
// channel, which never blocks, taken or not.
func (s *Store) readBeside(k string) <-chan entry {
	read := make(chan entry, 1)
	go func() { read <- s.read(k) }()
	return read
}

// ReadAhead names the keys the next Lock reads beside taking the lock
// (store.ReadAhead).
func (s *Store) ReadAhead(keys ...string) {
	enc := make([]string, len(keys))
	for i, k := range keys {
		enc[i] = encodeKey(k)
	}
	s.mu.Lock()
	s.ahead = enc
	s.mu.Unlock()
}

// readAhead is the entry of key k the Lock read ahead, once (ok false:
// none, or no longer: the holder committed, or let go).
func (s *Store) readAhead(k string) (e entry, ok bool) {
	s.mu.Lock()
	read, ok := s.aheadRead[k]
	delete(s.aheadRead, k)
	s.mu.Unlock()
	if !ok {
		return entry{}, false
	}
	return <-read, true
}

// takeAt publishes the lock expecting its key's last revision to be rev.
func (s *Store) takeAt(ctx context.Context, rev uint64) (uint64, error) {
	m := nats.NewMsg("$KV." + s.bucket + "." + lockKey)
	m.Data = s.holder
	m.Header.Set(jetstream.MsgTTLHeader, lockTTL.String())
	m.Header.Set(jetstream.ExpectedLastSubjSeqHeader, strconv.FormatUint(rev, 10))
	ack, err := s.js.PublishMsg(ctx, m, s.retries()...)
	if err == nil {
		return ack.Sequence, nil
	}
	var ae *jetstream.APIError
	if errors.As(err, &ae) && (ae.ErrorCode == jetstream.JSErrCodeStreamWrongLastSequence || ae.ErrorCode == jetstream.JSErrCodeStreamWrongLastSequenceConstant) {
		return 0, errHeld // another took it first
	}
	return 0, err
}

// awaitLock waits for the lock on a watch of its key, which gives its
// last entry and then each change: when the holder lets go (a deletion)
// or its time runs out (the server's marker), the lock is taken with one
// publish that expects that revision, so of all the waiters one gets it.
func (s *Store) awaitLock(ctx context.Context) (uint64, <-chan entry, error) {
	kv, err := s.kv()
	if err != nil {
		return 0, nil, err
	}
	if kv == nil {
		return 0, nil, errors.New("the home's bucket is not there")
	}
	w, err := kv.Watch(ctx, lockKey)
	if err != nil {
		return 0, nil, err
	}
	defer func() { _ = w.Stop() }()
	// The watch is pushed by the node this connection is on; when that
	// node is lost, the watch stalls until it is made again on another,
	// so the lock is looked at on a timer too (a third of its time to
	// live: a holder killed with the node frees it within its time).
	look := time.NewTicker(lockTTL / 3)
	defer look.Stop()
	for {
		var e jetstream.KeyValueEntry
		select {
		case e = <-w.Updates():
		case <-look.C:
			rev, journal, _, err := s.take(ctx, nil, nil)
			if errors.Is(err, errHeld) || err != nil && ctx.Err() == nil && transient(err) {
				continue
			}
			return rev, journal, err
		case <-ctx.Done():
			return 0, nil, ctx.Err()
		}
		if e == nil || e.Operation() == jetstream.KeyValuePut && len(e.Value()) > 0 {
			continue // held (a holder's value is never empty)
		}
		rev, err := s.takeAt(ctx, e.Revision())
		if errors.Is(err, errHeld) {
			continue
		}
		return rev, nil, err
	}
}

// retries let a publish that finds no responder (a stream electing its
// leader after a node is lost) be sent again, within the timeout.
func (s *Store) retries() []jetstream.PublishOpt {
	return []jetstream.PublishOpt{jetstream.WithRetryWait(100 * time.Millisecond), jetstream.WithRetryAttempts(int(s.timeout / (100 * time.Millisecond)))}
}

// lockMsg is the renewal of the lock: its holder, a new time to live, and
// the revision it must still have.
func (s *Store) lockMsg() *nats.Msg {
	m := nats.NewMsg("$KV." + s.bucket + "." + lockKey)
	m.Data = s.holder
	m.Header.Set(jetstream.MsgTTLHeader, lockTTL.String())
	m.Header.Set(jetstream.ExpectedLastSubjSeqHeader, strconv.FormatUint(s.lockRev, 10))
	return m
}

// renew keeps the lock alive while its holder works.
func (s *Store) renew(stop chan struct{}) {
	t := time.NewTicker(lockTTL / 3)
	defer t.Stop()
	for {
		select {
		case <-stop:
			return
		case <-t.C:
		}
		s.mu.Lock()
		if s.stop != stop {
			s.mu.Unlock()
			return
		}
		ctx, cancel := s.ctx()
		sent := time.Now()
		ack, err := s.js.PublishMsg(ctx, s.lockMsg())
		cancel()
		if err == nil {
			s.lockRev = ack.Sequence
			s.leased = sent.Add(lockTTL - leaseMargin)
		}
		s.mu.Unlock()
	}
}

func (s *Store) unlock() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.stop == nil {
		return
	}
	close(s.stop)
	s.stop = nil
	s.aheadRead = nil
	s.gen++
	// Expecting the revision: a lock that ran out and was taken by
	// another is not this holder's to let go. Its answer is not waited
	// for (a round trip of every command that writes): whether it came
	// to nothing (that lock was not this holder's any more) changes
	// nothing here, and the next Lock of this store reads it (freed).
	m := nats.NewMsg("$KV." + s.bucket + "." + lockKey)
	m.Header.Set("KV-Operation", "DEL")
	m.Header.Set(jetstream.ExpectedLastSubjSeqHeader, strconv.FormatUint(s.lockRev, 10))
	if f, err := s.js.PublishMsgAsync(m); err == nil {
		s.released = f
	}
}

// batchMsg is one message of a commit.
type batchMsg struct {
	key  string // the KV key
	data []byte
	del  bool
}

// Commit writes ws as one atomic batch (see the package comment).
func (s *Store) Commit(ws []store.Write) ([]string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.stop == nil {
		return nil, errors.New("commit without the lock")
	}
	s.aheadRead = nil // read before what this commit writes
	s.gen++
	msgs := make([]batchMsg, 0, len(ws))
	for _, class := range []bool{true, false} { // events first
		for _, w := range ws {
			if !w.Delete && (w.Class == store.Event) == class {
				msgs = append(msgs, batchMsg{key: encodeKey(w.Key), data: w.Data})
			}
		}
	}
	var gone []string
	for _, w := range ws {
		if !w.Delete {
			continue
		}
		k := encodeKey(w.Key)
		ks, err := s.keys(k, k+".>")
		if err != nil {
			return nil, s.fail(w.Key, err)
		}
		for _, g := range ks {
			if under(g, w.Key) { // what the server listed beyond it is not this deletion's
				gone = append(gone, g)
			}
		}
	}
	if len(msgs)+1 > maxBatch {
		return nil, fmt.Errorf("%s: a commit of %d records is more than one batch (%d)", s.Where(""), len(msgs), maxBatch-1)
	}
	if len(msgs) == 1 && len(gone) == 0 {
		return nil, s.publishOne(msgs[0])
	}
	if len(msgs)+len(gone)+1 <= maxBatch {
		for _, k := range gone {
			msgs = append(msgs, batchMsg{key: k, del: true})
		}
		return nil, s.publishBatch(msgs)
	}
	// Too many deletions for one batch: the batch names them in the
	// journal, and they follow it.
	j, err := json.Marshal(gone)
	if err != nil {
		return nil, err
	}
	msgs = append(msgs, batchMsg{key: journalKey, data: j})
	if err := s.publishBatch(msgs); err != nil {
		return nil, err
	}
	if err := s.applyJournal(gone); err != nil {
		return []string{fmt.Sprintf("the change is committed, but its deletions are not all done (the next command finishes them): %v", err)}, nil
	}
	return nil, nil
}

// rollForward finishes the deletions of a commit cut short (Lock, with
// the lock held), reading the journal from read when take read it beside
// taking the lock, else now.
func (s *Store) rollForward(read <-chan entry) error {
	var e entry
	if read != nil {
		e = <-read
	} else {
		e = s.read(journalKey)
	}
	if e.err != nil {
		return s.fail("journal", e.err)
	}
	if !e.there {
		return nil
	}
	gone, err := parseJournal(e.data)
	if err != nil {
		return fmt.Errorf("%s: %v", s.Where("journal"), err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.applyJournal(gone)
}

// applyJournal deletes gone in batches, then the journal, with s.mu held.
func (s *Store) applyJournal(gone []string) error {
	s.aheadRead = nil // read before these deletions
	s.gen++
	for len(gone) > 0 {
		n := min(len(gone), maxBatch-2)
		msgs := make([]batchMsg, 0, n+1)
		for _, k := range gone[:n] {
			msgs = append(msgs, batchMsg{key: k, del: true})
		}
		gone = gone[n:]
		if len(gone) == 0 {
			msgs = append(msgs, batchMsg{key: journalKey, del: true})
		}
		if err := s.publishBatch(msgs); err != nil {
			return err
		}
	}
	return nil
}

// publishOne commits one record by one publish: an atomic batch costs the
// server a staging store of its own (on file storage, tens of
// milliseconds), which a step, the hot path, cannot pay. Its fence is the
// lease: a holder whose lock may have run out commits nothing. With s.mu
// held.
func (s *Store) publishOne(b batchMsg) error {
	if time.Now().After(s.leased) {
		return fmt.Errorf("%s: the lock ran out before the commit (another command may have it now): nothing was written", s.Where(""))
	}
	ctx, cancel := s.ctx()
	defer cancel()
	if _, err := s.js.Publish(ctx, "$KV."+s.bucket+"."+b.key, b.data, s.retries()...); err != nil {
		return s.fail("", err)
	}
	return nil
}

// pubAck is JetStream's answer to a batch's commit.
type pubAck struct {
	Seq   uint64 `json:"seq"`
	Count int    `json:"count"`
	Error *struct {
		Code        int    `json:"code"`
		ErrCode     int    `json:"err_code"`
		Description string `json:"description"`
	} `json:"error"`
}

// JetStream's error codes met here.
const (
	errClusterNotAvail = 10008 // JetStream system temporarily unavailable
	errNoMessage       = 10037 // no message found
	errNoStream        = 10059 // stream not found
	errAtomicDisabled  = 10174 // atomic publish is disabled on the stream
	errWrongLastSeq    = 10071 // an expected last sequence was not
)

// publishBatch publishes msgs and the lock's renewal as one atomic batch
// (ADR-50): each message carries the batch's id and its place in it, the
// last one the commit; the server stores all of them or none. With s.mu
// held.
func (s *Store) publishBatch(msgs []batchMsg) error {
	err := s.tryBatch(msgs)
	for deadline := time.Now().Add(s.timeout); errors.Is(err, nats.ErrNoResponders) && time.Until(deadline) > 100*time.Millisecond; {
		// No leader to take it (a node lost): none of it was stored.
		time.Sleep(100 * time.Millisecond)
		err = s.tryBatch(msgs)
	}
	var ae *batchError
	if errors.As(err, &ae) && ae.code == errAtomicDisabled {
		ctx, cancel := s.ctx()
		err = s.allowAtomic(ctx)
		cancel()
		if err == nil {
			err = s.tryBatch(msgs)
		}
	}
	return err
}

type batchError struct {
	code int
	msg  string
}

func (e *batchError) Error() string { return e.msg }

func (s *Store) tryBatch(msgs []batchMsg) error {
	id := nuid.Next()
	prefix := "$KV." + s.bucket + "."
	for i, b := range msgs {
		m := nats.NewMsg(prefix + b.key)
		m.Data = b.data
		if b.del {
			m.Header.Set("KV-Operation", "DEL")
		}
		m.Header.Set("Nats-Batch-Id", id)
		m.Header.Set("Nats-Batch-Sequence", strconv.Itoa(i+1))
		if err := s.nc.PublishMsg(m); err != nil {
			return s.fail("", err)
		}
	}
	last := s.lockMsg()
	last.Header.Set("Nats-Batch-Id", id)
	last.Header.Set("Nats-Batch-Sequence", strconv.Itoa(len(msgs)+1))
	last.Header.Set("Nats-Batch-Commit", "1")
	sent := time.Now()
	reply, err := s.nc.RequestMsg(last, s.timeout)
	if err != nil {
		return s.fail("", err)
	}
	var ack pubAck
	if err := json.Unmarshal(reply.Data, &ack); err != nil {
		return fmt.Errorf("%s: the commit's answer: %v", s.Where(""), err)
	}
	if ack.Error != nil {
		msg := ack.Error.Description
		if ack.Error.ErrCode == errWrongLastSeq {
			msg = "the lock ran out before the commit (another command has it now): nothing was written"
		}
		return &batchError{code: ack.Error.ErrCode, msg: fmt.Sprintf("%s: commit: %s", s.Where(""), msg)}
	}
	s.lockRev = ack.Seq
	s.leased = sent.Add(lockTTL - leaseMargin)
	return nil
}

// Watch watches the keys through one KV watch: the server pushes each
// change.
func (s *Store) Watch(ctx context.Context, keys ...string) (<-chan struct{}, error) {
	kv, err := s.kv()
	if err != nil {
		return nil, s.fail("", err)
	}
	if kv == nil {
		// A watch makes nothing: the caller's timer looks instead.
		return nil, fmt.Errorf("%s: %w", s.Where(""), store.ErrNotFound)
	}
	filters := make([]string, 0, len(keys))
	for _, k := range keys {
		if k == "" || strings.HasSuffix(k, "/") {
			filters = append(filters, folderFilter(k))
		} else {
			filters = append(filters, encodeKey(k))
		}
	}
	w, err := kv.WatchFiltered(ctx, filters, jetstream.UpdatesOnly(), jetstream.MetaOnly())
	if err != nil {
		return nil, s.fail("", err)
	}
	ch := make(chan struct{}, 1)
	go func() {
		defer func() { _ = w.Stop() }()
		for {
			select {
			case <-ctx.Done():
				return
			case e, ok := <-w.Updates():
				if !ok {
					return
				}
				if e == nil {
					continue
				}
				select {
				case ch <- struct{}{}:
				default:
				}
			}
		}
	}()
	return ch, nil
}

// Health is what conch doctor says of the backend.
type Health struct {
	RTT      time.Duration // one round trip to the server
	Summary  string        // the bucket, as conch needs it
	Problems []string      // what is not as conch needs it
	// Authenticated: the server took this computer's credentials (it
	// asks for them); Encrypted: the link is TLS.
	Authenticated, Encrypted bool
}

// Health reaches the server, measures a round trip and checks the home's
// stream: file storage, atomic batches, markers for the lock's time.
func (s *Store) Health() (Health, error) {
	var h Health
	rtt, err := s.nc.RTT()
	if err != nil {
		return h, s.fail("", err)
	}
	h.RTT = rtt
	_, tlsErr := s.nc.TLSConnectionState()
	h.Encrypted = tlsErr == nil
	h.Authenticated = s.creds && s.nc.AuthRequired()
	if kv, err := s.kv(); err != nil {
		return h, s.fail("", err)
	} else if kv == nil {
		h.Summary = "the home is not made yet (the first command that writes makes it)"
		return h, nil
	}
	ctx, cancel := s.ctx()
	defer cancel()
	st, err := s.js.Stream(ctx, "KV_"+s.bucket)
	if err != nil {
		return h, s.fail("", err)
	}
	info := st.CachedInfo()
	cfg := info.Config
	if cfg.Storage != jetstream.FileStorage {
		h.Problems = append(h.Problems, "its stream keeps records in memory, not in files: a server restart loses them")
	}
	if !cfg.AllowAtomicPublish {
		h.Problems = append(h.Problems, "atomic batches are off on its stream (the next commit turns them on)")
	}
	if !cfg.AllowMsgTTL || cfg.SubjectDeleteMarkerTTL == 0 {
		h.Problems = append(h.Problems, "its stream has no time to live for keys: a killed command's lock would never come free")
	}
	keys, err := s.keys(recordPrefix + ">")
	if err != nil {
		return h, s.fail("", err)
	}
	switch r := max(cfg.Replicas, 1); {
	case r < s.replicas:
		h.Problems = append(h.Problems, fmt.Sprintf("its stream keeps %d replica(s), and [backend] replicas asks for %d (the bucket was made before)", r, s.replicas))
	case r > s.replicas:
		h.Problems = append(h.Problems, fmt.Sprintf("its stream keeps %d replicas, and [backend] replicas says %d: set replicas = %d, so that a command reads from the leader what the others wrote", r, s.replicas, r))
	}
	h.Summary = fmt.Sprintf("%d records, %d bytes in stream %s (file storage, %d replica(s))", len(keys), info.State.Bytes, cfg.Name, max(cfg.Replicas, 1))
	return h, nil
}
