// Package share keeps what one Caddy instance learns about bots — which
// bot fetched which version of robots.txt from where, the addresses the
// trap caught, and how fast each crawler asks — in a storage that several instances (and a restarted one) read.
// It imports no Caddy package: the Storage interface is the part of
// certmagic.Storage (Caddy's storage modules) it needs.
//
// Nothing here runs on the request path. Record* calls append to bounded
// buffers; Run writes this instance's state as one blob per interval (so a
// flood of a million fetches is one write per interval, its newest
// records kept), and reads the other instances' blobs, handing what is
// new to the callbacks.
package share

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io/fs"
	"net/netip"
	"path"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/robotsguard/caddy-robots-txt/caddymodule/internal/quota"
)

// Storage is what share needs of a storage: certmagic.Storage has it,
// but for Stat's result, which is certmagic.KeyInfo there.
type Storage interface {
	Store(ctx context.Context, key string, value []byte) error
	Load(ctx context.Context, key string) ([]byte, error)
	Delete(ctx context.Context, key string) error
	List(ctx context.Context, path string, recursive bool) ([]string, error)
	Stat(ctx context.Context, key string) (Info, error)
}

// Info is what a storage tells of a key without reading its value.
type Info struct {
	Modified time.Time
	Size     int64
}

// Limits that bound a blob, whatever the traffic. A client (an address,
// an IPv6 /64) and an IPv6 /48 hold at most their quota of each, as in
// the trackers' memory (see package quota): one that fetches robots.txt
// under as many User-Agents, or springs the trap under as many Hosts, as
// it likes replaces its own records beyond its quota, not the others'.
// It takes MaxFetches/quota.FetchesPerClient addresses (40; 20 while
// verified crawlers' fetches hold their most, see crawlerFetches), or
// MaxTrapped/quota.TrapSitesPerClient (157), to push out another's.
const (
	// MaxFetches is how many fetch records a blob holds: the newest.
	MaxFetches = 10_000
	// MaxTrapped is how many trapped addresses a blob holds.
	MaxTrapped = 10_000
)

// crawlerFetches bounds the fetches of verified crawlers (kept under no
// address) a blob holds among its MaxFetches: they are kept apart from
// everyone else's, so that no client, however many addresses it has, can
// push them out (only a crawler that proved who it is adds to them), and
// they leave the others room for at least as many.
const crawlerFetches = MaxFetches / 2

// How long blobs live. A live instance that holds records writes its
// blob at least every Refresh, changed or not, so a blob not written for
// Expire belongs to an instance that is gone (a replaced container, a
// renamed host); it is no longer read, and the first instance to find it
// deletes it, unless an address it trapped is still held. Without this,
// every instance that ever ran would be read every interval, for ever.
const (
	Refresh = time.Hour
	Expire  = 7 * 24 * time.Hour
)

// pacedFresh is how old a blob's pacing counts may be and still be
// charged (see apply), when twice the sharer's interval is less: the
// instance that wrote them may write at a longer interval than this one
// reads.
const pacedFresh = 10 * time.Second

// Fetch is one bot's fetch of robots.txt from one address.
type Fetch struct {
	Bot  string `json:"bot"`
	Addr string `json:"addr"`
	// Site is the host the robots.txt was fetched from, hashed: a
	// robots.txt speaks for the host that served it.
	Site uint64 `json:"site,omitempty"`
	// Scope names which of a handler's robots.txt files was fetched when
	// its path depends on the request ({host} in the root), hashed; 0
	// when the handler has one.
	Scope uint64 `json:"scope,omitempty"`
	// Agent tells apart bots that nothing names (a hash of the
	// User-Agent header); 0 for named bots.
	Agent uint64 `json:"agent,omitempty"`
	At    int64  `json:"at"` // unix nanoseconds
	ETag  string `json:"etag"`
}

// Trap is an address the trap of a site (a hashed host) caught, until a
// time.
type Trap struct {
	Addr  string `json:"addr"`
	Site  uint64 `json:"site,omitempty"`
	Until int64  `json:"until"`
}

// Paced is the number of requests to a site (a hashed host) admitted for
// a named crawler in an instance's last interval.
type Paced struct {
	Site uint64 `json:"site,omitempty"`
	Name string `json:"name"`
	N    int64  `json:"n"`
}

type pacedKey struct {
	site uint64
	name string
}

// blob is one instance's state.
type blob struct {
	Instance string `json:"instance"`
	// Writer is the process that wrote it (random per process): another
	// writer under the same instance name is another process.
	Writer  string  `json:"writer,omitempty"`
	Written int64   `json:"written"`
	Fetches []Fetch `json:"fetches"`
	Trapped []Trap  `json:"trapped"`
	Paced   []Paced `json:"paced_sites,omitempty"` // in the interval before Written
	// OldPaced is how blobs written before sites were told apart
	// counted them (crawler name: requests); read, never written.
	OldPaced map[string]int64 `json:"paced,omitempty"`
}

// Callbacks receive what other instances learnt (and, at the first read,
// what this instance knew before a restart).
type Callbacks struct {
	Fetch func(Fetch)
	Trap  func(Trap)
	// Paced reports requests to a site another instance admitted for a
	// crawler in its last interval, to be charged to the local schedule.
	// at is when the interval they were counted in began, about: the
	// blob's time less this sharer's interval.
	Paced func(site uint64, name string, n int64, at int64)
	// Renamed reports that another process wrote under this instance's
	// name (processes that share Caddy's data directory share its
	// instance ID), and the name this one writes under from now on.
	Renamed func(old, name string)
	// Warn reports a failure of the storage, at most once per WarnEvery
	// for one kind and key (see Warning); nil discards them.
	Warn func(Warning)
}

// Sharer shares one site's state through a storage.
type Sharer struct {
	store    Storage
	prefix   string
	instance string
	interval time.Duration
	cb       Callbacks
	writer   string // this process, in the blobs it writes
	started  int64  // when this process started sharing, unix nanoseconds
	now      func() time.Time

	mu      sync.Mutex
	fetches fetchWindow // this instance's window: the newest records
	trapped trapWindow
	paced   map[pacedKey]int64
	dirty   bool
	written int64 // when this instance's blob was last written, unix nanoseconds
	// next is the sharer that took over from this one (see Adopt): what
	// this one is told from then on goes to it, and this one writes
	// nothing more, so that its last write cannot replace what the new
	// one wrote under the same name.
	next *Sharer
	// prev is the sharer this one took over from, while that one may
	// still be the one its process serves with: a configuration that
	// fails to start after taking over gives its records back to it
	// (see GiveBack).
	prev *Sharer

	trapTTL atomic.Int64 // see SetTrapTTL

	// Only Run's goroutine (or a test calling Flush and Sync in turn)
	// touches these.
	seen     map[string]seenBlob // other instances' blobs, by key
	plan     plan                // which of them each Sync looks at
	own      mark                // of this instance's blob, as last written or read
	warnings Warnings
	// troubles gathers the warnings about other instances' blobs while
	// gathering is set (see Sync).
	troubles  troubles
	gathering bool
	// unrestored is set while this instance's blob could not be read at
	// start: writing would replace it.
	unrestored bool
	// damaged is this instance's blob as found damaged at start, to be
	// kept under damagedCopy before it is written over.
	damaged     []byte
	damagedCopy string
}

// New returns a sharer of the site named site (any string; it is hashed
// into the storage key) for the instance named instance.
func New(store Storage, site, instance string, interval time.Duration, cb Callbacks) *Sharer {
	sum := sha256.Sum256([]byte(site))
	var w [6]byte
	rand.Read(w[:])
	return &Sharer{
		store: store, prefix: path.Join("robots_txt", "shared", hex.EncodeToString(sum[:8])),
		instance: instance, interval: interval, cb: cb,
		writer: hex.EncodeToString(w[:]), started: time.Now().UnixNano(), now: time.Now,
		fetches: newFetchWindow(), trapped: newTrapWindow(),
		paced: map[pacedKey]int64{}, seen: map[string]seenBlob{},
	}
}

func (s *Sharer) key(instance string) string { return path.Join(s.prefix, instance+".json") }

// RecordFetch notes a fetch of robots.txt; the oldest records go first
// when the window is full, a client's own oldest when it is past its
// quota (see MaxFetches).
func (s *Sharer) RecordFetch(f Fetch) {
	s.mu.Lock()
	if next := s.next; next != nil {
		s.mu.Unlock()
		next.RecordFetch(f)
		return
	}
	s.fetches.add(f)
	s.dirty = true
	s.mu.Unlock()
}

// RecordTrap notes an address the trap caught.
func (s *Sharer) RecordTrap(t Trap) {
	s.mu.Lock()
	if next := s.next; next != nil {
		s.mu.Unlock()
		next.RecordTrap(t)
		return
	}
	s.trapped.add(t)
	s.dirty = true
	s.mu.Unlock()
}

// RecordPaced notes a request to site admitted for a named crawler.
func (s *Sharer) RecordPaced(site uint64, name string) {
	s.mu.Lock()
	if next := s.next; next != nil {
		s.mu.Unlock()
		next.RecordPaced(site, name)
		return
	}
	s.countPaced(pacedKey{site, name}, 1)
	s.mu.Unlock()
}

// countPaced adds n requests of k; s.mu is held.
func (s *Sharer) countPaced(k pacedKey, n int64) {
	if _, ok := s.paced[k]; ok || len(s.paced) < MaxFetches {
		s.paced[k] += n
		s.dirty = true
	}
}

// Adopt takes the records another sharer of the site in this process
// holds into this one's window, to be written at its next flush: when a
// configuration reload moves sharing to another storage or interval, the
// new sharer writes what the old one knew. It takes its name and writer
// too, and its pacing counts not yet written. The old one is retired:
// what it is told from now on (its configuration still serving requests
// while it drains) comes here, and it writes nothing more, not even as
// it stops, so that its last write cannot replace what this one wrote
// under the same name. Adopt is called before Run.
func (s *Sharer) Adopt(from *Sharer) {
	from.mu.Lock()
	fetches, trapped := from.fetches.list(), from.trapped.list()
	instance, paced := from.instance, from.paced
	from.paced, from.dirty, from.next = map[pacedKey]int64{}, false, s
	from.mu.Unlock()
	s.mu.Lock()
	defer s.mu.Unlock()
	s.instance, s.writer, s.prev = instance, from.writer, from
	s.take(fetches, trapped, paced, true)
}

// take adds to s's window the records of another sharer of the site
// (oldest first), as older than its own (asOld) or as news, and its
// pacing counts; s.mu is held.
func (s *Sharer) take(fetches []Fetch, trapped []Trap, paced map[pacedKey]int64, asOld bool) {
	if asOld {
		s.fetches.addOld(fetches)
		s.trapped.addOld(trapped)
	} else {
		for _, f := range fetches {
			s.fetches.add(f)
		}
		for _, t := range trapped {
			s.trapped.add(t)
		}
	}
	for k, n := range paced {
		s.countPaced(k, n)
	}
	s.dirty = s.dirty || len(fetches) > 0 || len(trapped) > 0
}

// Previous is the sharer s took over from, if that one has not been
// released since (see Release).
func (s *Sharer) Previous() *Sharer {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.prev
}

// GiveBack undoes Adopt when the configuration that took over is
// unloaded before the one it took over from (a reload that failed to
// start): the sharer s took over from writes again, with what s was told
// meanwhile, and s writes nothing more, not even as it stops. Call it
// before s stops.
func (s *Sharer) GiveBack() {
	s.mu.Lock()
	prev := s.prev
	if prev == nil {
		s.mu.Unlock()
		return
	}
	s.mu.Unlock()
	// prev stops forwarding before s starts, so that a record is never
	// sent back and forth between them.
	prev.mu.Lock()
	prev.next = nil
	prev.mu.Unlock()
	s.mu.Lock()
	fetches, trapped, paced := s.fetches.list(), s.trapped.list(), s.paced
	s.paced, s.dirty, s.next, s.prev = map[pacedKey]int64{}, false, prev, nil
	s.mu.Unlock()
	prev.mu.Lock()
	defer prev.mu.Unlock()
	prev.take(fetches, trapped, paced, false)
	prev.dirty = true
}

// Release takes s, gone for good (its configuration unloaded), out of
// the chain of sharers that took over from one another: the one that
// took over from s gives back, if it must, to the one s took over from.
func (s *Sharer) Release() {
	s.mu.Lock()
	next, prev := s.next, s.prev
	s.mu.Unlock()
	if next == nil {
		return
	}
	next.mu.Lock()
	if next.prev == s {
		next.prev = prev
	}
	next.mu.Unlock()
	if prev != nil {
		prev.mu.Lock()
		if prev.next == s {
			prev.next = next
		}
		prev.mu.Unlock()
	}
}

// Run shares until ctx ends: it first reads every blob (this instance's
// from before a restart included), then each interval writes this
// instance's blob when it changed and reads the others'.
func (s *Sharer) Run(ctx context.Context) {
	s.restore(ctx)
	t := time.NewTicker(s.interval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			// The last write is the one a shutdown loses without a
			// word; it is reported whatever was reported lately.
			fctx, cancel := context.WithTimeout(context.Background(), finalFlushTimeout)
			if key, err := s.flush(fctx); err != nil {
				s.report(KindStore, key, err, true)
			}
			cancel()
			return
		case <-t.C:
		}
		if s.unrestored {
			s.restoreOwn(ctx)
		}
		s.Flush(ctx)
		s.Sync(ctx)
	}
}

// finalFlushTimeout bounds the write at shutdown: a storage that hangs
// must not hold up the unloading of a configuration for ever.
const finalFlushTimeout = 30 * time.Second

// restore reads what this instance wrote before a restart, keeps it as
// its own window (see restoreOwn), and reads the others.
func (s *Sharer) restore(ctx context.Context) {
	s.restoreOwn(ctx)
	s.Sync(ctx)
}

// Flush writes this instance's blob if anything changed since the last
// write, or if it holds records and was last written Refresh ago (so that
// others do not take it for a gone instance's).
func (s *Sharer) Flush(ctx context.Context) error {
	key, err := s.flush(ctx)
	if err != nil {
		s.warn(ctx, KindStore, key, err)
	}
	return err
}

// errUnrestored says why what this instance learnt is not written.
var errUnrestored = errors.New("this instance's blob could not be read at start, and is not written over until it can be")

// flush is Flush, without the warning; it returns the key written.
func (s *Sharer) flush(ctx context.Context) (string, error) {
	s.mu.Lock()
	retired := s.next != nil
	s.mu.Unlock()
	if retired {
		return "", nil // the sharer that took over writes
	}
	if s.unrestored {
		s.mu.Lock()
		dirty := s.dirty || len(s.paced) > 0
		s.mu.Unlock()
		if dirty {
			return s.key(s.instance), errUnrestored
		}
		return s.key(s.instance), nil
	}
	if s.damaged != nil {
		if err := s.keepDamaged(ctx); err != nil {
			return s.damagedCopy, err
		}
	}
	now := s.now().UnixNano()
	s.mu.Lock()
	holds := s.fetches.len() > 0 || s.trapped.len() > 0
	if !s.dirty && !(holds && now-s.written >= int64(Refresh)) {
		key := s.key(s.instance)
		s.mu.Unlock()
		return key, nil
	}
	b := blob{
		Instance: s.instance, Writer: s.writer, Written: now,
		Fetches: s.fetches.list(), Trapped: s.trapped.list(),
	}
	for k, n := range s.paced {
		b.Paced = append(b.Paced, Paced{Site: k.site, Name: k.name, N: n})
	}
	s.paced, s.dirty = map[pacedKey]int64{}, false
	key := s.key(s.instance)
	s.mu.Unlock()
	data, err := json.Marshal(b)
	if err == nil {
		err = s.store.Store(ctx, key, data)
	}
	s.mu.Lock()
	if err != nil {
		s.dirty = true // the next interval tries again
	} else {
		s.written = now
	}
	s.mu.Unlock()
	if err == nil {
		// So that checkOwn does not read back what was just written.
		if info, err := s.store.Stat(ctx, key); err == nil {
			s.own = markOf(info)
		}
	}
	return key, err
}

// checkOwn reads the blob under this instance's name. One that another
// process wrote since this one started means two processes share the
// name, and each write of one erases the other's: this one takes a name of
// its own, writes its whole window there at the next flush, and applies
// the other's records like any other instance's.
func (s *Sharer) checkOwn(ctx context.Context) {
	own := s.key(s.instance)
	info, err := s.store.Stat(ctx, own)
	if errors.Is(err, fs.ErrNotExist) {
		// Gone (a storage wiped or cleaned up, a blob deleted by
		// mistake): what this instance holds is written again at the
		// next flush, not at the next Refresh, an hour away, when a
		// restart or an instance that starts meanwhile would miss it.
		s.mu.Lock()
		s.dirty = s.dirty || s.fetches.len() > 0 || s.trapped.len() > 0
		s.mu.Unlock()
		s.own = mark{}
		return
	}
	if err != nil {
		s.warn(ctx, KindRead, own, err)
		return
	}
	m := markOf(info)
	if m.known() && m == s.own {
		return
	}
	b, err := s.readBlob(ctx, own, info.Size)
	if err == nil || errors.Is(err, errBadBlob) {
		s.own = m
	}
	if err != nil || b.Writer == "" || b.Writer == s.writer || b.Written < s.started {
		return
	}
	s.mu.Lock()
	old := s.instance
	s.instance += "-" + s.writer
	s.dirty = true
	s.mu.Unlock()
	s.seen[own] = seenBlob{mark: m, written: b.Written, held: b.heldUntil()}
	s.apply(b, true)
	if s.cb.Renamed != nil {
		s.cb.Renamed(old, s.instance)
	}
}

// Sync reads the blobs of the other instances that changed since the
// last read, and hands what they hold to the callbacks. It looks at
// MaxBlobsPerSync of them at most, in turn (see plan), and lists the
// storage again when it has looked at as many as the last listing held.
func (s *Sharer) Sync(ctx context.Context) error {
	if s.plan.skip > 0 {
		s.plan.skip--
		s.checkOwn(ctx)
	} else {
		keys, err := s.store.List(ctx, s.prefix, false)
		if errors.Is(err, fs.ErrNotExist) {
			// No blob at all, this instance's neither: the file
			// system storage lists a directory removed whole (a
			// storage wiped) so, and what this instance holds is to
			// be written again.
			s.checkOwn(ctx)
			s.plan.replan(nil, "", nil) // what was read stays known, as it was
			return nil
		}
		if err != nil {
			s.warn(ctx, KindRead, s.prefix, err)
			return err
		}
		s.checkOwn(ctx)
		s.plan.replan(keys, s.key(s.instance), s.seen)
	}
	own := s.key(s.instance)
	now := s.now().UnixNano()
	s.gathering = true
	defer func() {
		s.gathering = false
		s.troubles.report(s.now(), s.cb.Warn)
	}()
	for _, k := range s.plan.next() {
		if k == own { // should checkOwn have moved this instance to a listed name
			continue
		}
		b, fresh := s.readChanged(ctx, k)
		if e := s.seen[k]; e.written != 0 && now-e.written > int64(Expire) && e.held <= now {
			// A gone instance's: what it knew is older than anything
			// grace or a trap still needs.
			if err := s.store.Delete(ctx, k); err != nil && !errors.Is(err, fs.ErrNotExist) {
				s.warn(ctx, KindDelete, k, err)
			}
			delete(s.seen, k)
			continue
		}
		if fresh {
			s.apply(b, true)
		}
	}
	return nil
}

// readOwn reads this instance's blob.
func (s *Sharer) readOwn(ctx context.Context) (blob, error) {
	key := s.key(s.instance)
	info, err := s.store.Stat(ctx, key)
	if err != nil {
		if !errors.Is(err, fs.ErrNotExist) {
			s.warn(ctx, KindRead, key, err)
		}
		return blob{}, err
	}
	b, err := s.readBlob(ctx, key, info.Size)
	if err == nil {
		s.own = markOf(info)
	}
	return b, err
}

// warn reports trouble with the storage through the Warn callback, at
// most once per WarnEvery for one kind and key (for one kind, about
// other instances' blobs, see troubles), unless ctx, under which
// the storage was asked, was cancelled: the sharer is stopping (its
// configuration unloaded, or only provisioned by caddy validate, which
// cleans up at once), and the storage did nothing wrong. A deadline that
// passed is a storage too slow, and is reported.
func (s *Sharer) warn(ctx context.Context, kind, key string, err error) {
	if errors.Is(ctx.Err(), context.Canceled) {
		return
	}
	s.report(kind, key, err, false)
}

// report is warn; with force it is not held back.
func (s *Sharer) report(kind, key string, err error, force bool) {
	if s.cb.Warn == nil {
		return
	}
	if s.gathering {
		s.troubles.add(kind, key, err)
		return
	}
	if n, ok := s.warnings.allow(kind, key, s.now(), force); ok {
		s.cb.Warn(Warning{Kind: kind, Key: key, Err: err, Suppressed: n})
	}
}

func (s *Sharer) apply(b blob, paced bool) {
	// Pacing counts are requests of the interval before b was written:
	// charged now only while they are news. A blob read late (by a
	// sharer new after a reload, or an instance just started) would
	// charge requests long past, and a crawler that kept to its delay
	// would get a 429 (audit AH-F5).
	for _, f := range b.Fetches {
		if s.cb.Fetch != nil {
			s.cb.Fetch(f)
		}
	}
	for _, t := range b.Trapped {
		if s.cb.Trap != nil {
			s.cb.Trap(t)
		}
	}
	if paced && s.cb.Paced != nil && s.now().UnixNano()-b.Written <= int64(max(2*s.interval, pacedFresh)) {
		for _, p := range b.Paced {
			s.cb.Paced(p.Site, p.Name, p.N, b.Written-int64(s.interval))
		}
		for name, n := range b.OldPaced {
			s.cb.Paced(0, name, n, b.Written-int64(s.interval))
		}
	}
}

// trapWindow keeps the trapped addresses of the newest keys added, one
// per key, in constant time per record: a key added again is the newest,
// with its new record, so one client repeating itself (a flood of trap
// hits from one address) rewrites its own record, and a record refreshed
// a moment ago is not the first to go. A client whose new keys are beyond
// its quota replaces its own oldest (see MaxTrapped).
type trapWindow struct {
	lru *quota.LRU[trapID, Trap]
}

func newTrapWindow() trapWindow {
	return trapWindow{quota.New[trapID, Trap](MaxTrapped, quota.TrapSitesPerClient, quota.TrapSitesPerNetwork, trapID.owner)}
}

func (w *trapWindow) add(t Trap) { w.lru.Add(t.id(), t) }

// addOld adds records read back from storage, oldest first, as older
// than those kept: each unless a newer one of its key is kept, or there
// is no room for it but that of newer ones.
func (w *trapWindow) addOld(ts []Trap) {
	for _, t := range slices.Backward(ts) {
		w.lru.AddOldest(t.id(), t)
	}
}

func (w *trapWindow) len() int { return w.lru.Len() }

// list returns the records oldest first.
func (w *trapWindow) list() []Trap { return w.lru.Values() }

// fetchWindow keeps fetch records as trapWindow keeps trapped addresses,
// a verified crawler's (no address) apart from everyone else's, as the
// tracker keeps them (see crawlerFetches); the two share MaxFetches.
type fetchWindow struct {
	byClient, crawlers *quota.LRU[fetchID, stamped]
	// newest and oldest are the stamps last given to a record added as
	// news and to one added as old, so that list can tell which of a
	// crawler's record and another's is the older.
	newest, oldest int64
	// crawled is how many records crawlers holds: while it holds none
	// (most of the time on most sites), a record of another's costs
	// no look at it.
	crawled int
}

// stamped is a fetch record and when it was added to the window, in the
// window's own order.
type stamped struct {
	seq int64
	Fetch
}

func newFetchWindow() fetchWindow {
	return fetchWindow{
		byClient: quota.New[fetchID, stamped](MaxFetches, quota.FetchesPerClient, quota.FetchesPerNetwork, fetchID.owner),
		crawlers: quota.New[fetchID, stamped](crawlerFetches, crawlerFetches, crawlerFetches,
			func(fetchID) (netip.Prefix, netip.Prefix) { return netip.Prefix{}, netip.Prefix{} }),
	}
}

func (w *fetchWindow) add(f Fetch) {
	w.newest++
	if f.Addr == "" {
		w.crawlers.Add(f.id(), stamped{w.newest, f})
		w.crawled = w.crawlers.Len()
	} else {
		w.byClient.Add(f.id(), stamped{w.newest, f})
	}
	// The room crawlers' records take is given back by the others'
	// oldest.
	if w.crawled > 0 && w.len() > MaxFetches {
		w.byClient.RemoveOldest()
	}
}

// addOld is trapWindow.addOld.
func (w *fetchWindow) addOld(fs []Fetch) {
	for _, f := range slices.Backward(fs) {
		if w.len() >= MaxFetches {
			return
		}
		c := w.byClient
		if f.Addr == "" {
			c = w.crawlers
		}
		if c.AddOldest(f.id(), stamped{w.oldest - 1, f}) {
			w.oldest--
			w.crawled = w.crawlers.Len()
		}
	}
}

func (w *fetchWindow) len() int { return w.byClient.Len() + w.crawled }

// list returns the records oldest first.
func (w *fetchWindow) list() []Fetch {
	clients, crawlers := w.byClient.Values(), w.crawlers.Values()
	if len(clients)+len(crawlers) == 0 {
		return nil
	}
	fs := make([]Fetch, 0, len(clients)+len(crawlers))
	for len(clients) > 0 || len(crawlers) > 0 {
		if len(crawlers) == 0 || len(clients) > 0 && clients[0].seq < crawlers[0].seq {
			fs, clients = append(fs, clients[0].Fetch), clients[1:]
		} else {
			fs, crawlers = append(fs, crawlers[0].Fetch), crawlers[1:]
		}
	}
	return fs
}

// fetchID is what makes fetch records one: a later fetch replaces an
// earlier one, as the tracker keeps only a bot's last.
type fetchID struct {
	bot, addr          string
	site, scope, agent uint64
}

func (f Fetch) id() fetchID { return fetchID{f.Bot, f.Addr, f.Site, f.Scope, f.Agent} }

// owner is the client that made a fetch, and its network.
func (k fetchID) owner() (owner, group netip.Prefix) {
	a, err := netip.ParseAddr(k.addr)
	if err != nil {
		return netip.Prefix{}, netip.Prefix{} // what a blob made up: one owner for all of it
	}
	return quota.ClientOf(a)
}

// trapID is a trapped address on a site.
type trapID struct {
	addr string
	site uint64
}

func (t Trap) id() trapID { return trapID{t.Addr, t.Site} }

// owner is who holds a trapped address, as in the trap's memory: the
// client that sprang the trap, or for a network trapped whole, the
// network; and the /48 of either.
func (k trapID) owner() (owner, group netip.Prefix) {
	if a, err := netip.ParseAddr(k.addr); err == nil {
		return quota.ClientOf(a)
	}
	p, err := netip.ParsePrefix(k.addr)
	if err != nil {
		return netip.Prefix{}, netip.Prefix{} // what a blob made up: one owner for all of it
	}
	owner, group = p.Masked(), p.Masked()
	if p.Addr().Is6() && p.Bits() > 48 {
		group, _ = p.Addr().Prefix(48)
	}
	return owner, group
}
