package caddymodule

import (
	"context"
	"net/http"
	"net/netip"
	"strings"
	"sync/atomic"
	"time"

	"github.com/caddyserver/caddy/v2"
	lru "github.com/hashicorp/golang-lru/v2"
	"go.uber.org/zap"

	"github.com/robotsguard/caddy-robots-txt/caddymodule/internal/quota"
	"github.com/robotsguard/caddy-robots-txt/caddymodule/judge"
	"github.com/robotsguard/caddy-robots-txt/caddymodule/pace"
	"github.com/robotsguard/caddy-robots-txt/caddymodule/share"
	"github.com/robotsguard/caddy-robots-txt/caddymodule/verify"
)

// trackedClients bounds how many (bot, address) pairs are remembered. A
// client holds at most quota.FetchesPerClient of them, an IPv6 /48
// quota.FetchesPerNetwork (see there why): it takes
// trackedClients/quota.FetchesPerClient addresses (391), or
// trackedClients/quota.FetchesPerNetwork /48s (25), to push out another's.
const trackedClients = 100_000

// crawlerFetches bounds the fetches of verified crawlers, which are kept
// under no address (see fetchAddr) and apart from everyone else's, so that
// no client, however many addresses it has, can push them out: only a
// crawler that proved who it is, or another instance, adds to them. A few
// dozen crawlers on a few hundred sites each fit.
const crawlerFetches = 10_000

// fetchRecords are the fetches the tracker remembers: a verified
// crawler's apart, everyone else's by client, each with its quota.
type fetchRecords struct {
	byClient *quota.LRU[fetchKey, judge.Fetch]
	crawlers *lru.Cache[fetchKey, judge.Fetch]
}

func newFetchRecords() (*fetchRecords, error) {
	crawlers, err := lru.New[fetchKey, judge.Fetch](crawlerFetches)
	if err != nil {
		return nil, err
	}
	byClient := quota.New[fetchKey, judge.Fetch](trackedClients, quota.FetchesPerClient, quota.FetchesPerNetwork,
		func(k fetchKey) (netip.Prefix, netip.Prefix) { return quota.ClientOf(k.ip) })
	return &fetchRecords{byClient: byClient, crawlers: crawlers}, nil
}

// Get returns the fetch under k, and marks it used.
func (f *fetchRecords) Get(k fetchKey) (judge.Fetch, bool) {
	if !k.ip.IsValid() {
		return f.crawlers.Get(k)
	}
	return f.byClient.Get(k)
}

// Peek returns the fetch under k.
func (f *fetchRecords) Peek(k fetchKey) (judge.Fetch, bool) {
	if !k.ip.IsValid() {
		return f.crawlers.Peek(k)
	}
	return f.byClient.Peek(k)
}

// Add records fetch under k.
func (f *fetchRecords) Add(k fetchKey, fetch judge.Fetch) {
	if !k.ip.IsValid() {
		f.crawlers.Add(k, fetch)
		return
	}
	f.byClient.Add(k, fetch)
}

// fetchKey is one crawler at one address, fetching one robots.txt (scope,
// see sourceSettings). Bots that nothing names share the name
// judge.Generic, so agent, a hash of their User-Agent header, tells them
// apart: one scraper's fetch is no other's.
type fetchKey struct {
	bot   string
	ip    netip.Addr
	site  uint64 // the host the robots.txt was served from (see siteOf)
	scope uint64
	agent uint64
}

// agentOf is the agent part of a fetch key for a bot named name that sent
// the User-Agent header ua: 0 for a named bot, else the header's FNV-1a
// hash (stable across instances, which share fetch records).
func agentOf(name, ua string) uint64 {
	if name != judge.Generic {
		return 0
	}
	return fnv1a(ua, false)
}

// fetchAddr is the address a bot's fetch of robots.txt is remembered
// under: none for a verified crawler, which fetches robots.txt from one
// address and crawls from many with the copy it got (so grace follows the
// crawler); the client's for anyone else, whose name anyone may send.
func fetchAddr(r *http.Request, outcome verify.Outcome) netip.Addr {
	if outcome == verify.Verified {
		return netip.Addr{}
	}
	return clientAddr(r)
}

// fnv1a is the FNV-1a hash of s, of its ASCII lower case with lower. Keys
// made from what a client sends (a Host header, a User-Agent) are hashed,
// so that a cache bounded by entries is bounded in bytes too: a Host header
// may be 20 KB.
func fnv1a(s string, lower bool) uint64 {
	h := uint64(14695981039346656037)
	for i := 0; i < len(s); i++ {
		c := s[i]
		if lower && 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		h ^= uint64(c)
		h *= 1099511628211
	}
	return h
}

// trackerState is what the handlers of one robots.txt learn about its
// bots: fetches, Crawl-delay schedules and trapped addresses. It lives in
// a UsagePool, so a config reload hands it to the new handlers instead of
// forgetting, whatever they change in how it is shared.
type trackerState struct {
	recent  *fetchRecords
	pace    *pace.Limiter
	trapped *trapSet
	// heard are the traps other instances share, kept apart: a blob is
	// anyone's who can write to the storage, and a flood of addresses in
	// blobs must not push out a trap sprung here.
	heard *trapSet

	// newest is the newest sharer of this state: one started for
	// settings that share otherwise takes over the records it was to
	// write.
	newest atomic.Pointer[share.Sharer]
}

// Destruct implements caddy.Destructor.
func (*trackerState) Destruct() error { return nil }

var trackerStates = caddy.NewUsagePool()

// fetchTracker is a trackerState as shared under one configuration's
// settings: the handlers of successive configurations that share alike
// get the same one, and a configuration that turns sharing off, or moves
// it to another storage or interval, gets its own, so that the sharer of
// the old settings stops when the old configuration is unloaded.
type fetchTracker struct {
	*trackerState
	stateKey string

	// sharer, when storage is shared, keeps all of this in the storage
	// for other instances and restarts; nil otherwise.
	sharer *share.Sharer
	stop   context.CancelFunc
	done   chan struct{} // closed when the sharer has stopped
}

// shareOptions say how a tracker shares its state.
type shareOptions struct {
	store    share.Storage // nil: no sharing
	storeID  string        // what the store is, as configured (see storageIdentity)
	instance string
	interval time.Duration
	logger   *zap.Logger
	// trapTTL is how long an address read from storage may be held
	// trapped, whatever the blob says: the site's trap_ttl.
	trapTTL time.Duration
}

// key tells apart the settings that share differently.
func (o shareOptions) key() string {
	if o.store == nil {
		return "+share:off"
	}
	return "+share:" + o.storeID + "|" + o.instance + "|" + o.interval.String()
}

// pacedClients bounds the client addresses whose Crawl-delay schedules
// are remembered.
const pacedClients = 100_000

// Destruct implements caddy.Destructor: the last configuration that used
// the tracker is gone; what it learnt since the last write is written
// before this returns, so that a configuration that follows with other
// settings finds no write of the old ones after it.
func (t *fetchTracker) Destruct() error {
	if t.stop != nil {
		// A configuration unloaded while its sharer is the newest,
		// though the one it took over from still serves (a reload
		// that failed to start), hands sharing back to that one.
		if prev := t.sharer.Previous(); prev != nil && t.newest.CompareAndSwap(t.sharer, prev) {
			t.sharer.GiveBack()
		}
		t.stop()
		<-t.done
		t.sharer.Release()
		t.newest.CompareAndSwap(t.sharer, nil)
	}
	_, err := trackerStates.Delete(t.stateKey)
	return err
}

var trackers = caddy.NewUsagePool()

// loadTracker returns the tracker of the robots.txt source names (see
// Handler.sourceKey) shared as opts say, and the key it is kept under.
func loadTracker(source string, opts shareOptions) (*fetchTracker, string, error) {
	key := source + opts.key()
	v, _, err := trackers.LoadOrNew(key, func() (caddy.Destructor, error) {
		st, _, err := trackerStates.LoadOrNew(source, func() (caddy.Destructor, error) {
			c, err := newFetchRecords()
			if err != nil {
				return nil, err
			}
			trapped, err := newTrapSet(trappedClients)
			if err != nil {
				return nil, err
			}
			heard, err := newTrapSet(trappedClients)
			if err != nil {
				return nil, err
			}
			return &trackerState{recent: c, pace: pace.New(pacedClients), trapped: trapped, heard: heard}, nil
		})
		if err != nil {
			return nil, err
		}
		t := &fetchTracker{trackerState: st.(*trackerState), stateKey: source}
		if opts.store != nil {
			t.startSharing(source, opts)
		}
		return t, nil
	})
	if err != nil {
		return nil, "", err
	}
	return v.(*fetchTracker), key, nil
}

// startSharing shares the tracker's state with the other instances that
// use the same storage for the same robots.txt (source), in the
// background.
func (t *fetchTracker) startSharing(source string, opts shareOptions) {
	t.sharer = share.New(opts.store, source, opts.instance, opts.interval, share.Callbacks{
		Fetch: t.addShared,
		Trap: func(tr share.Trap) {
			if k, ok := parseTrapKey(tr.Site, tr.Addr); ok {
				hear(t.trapped, t.heard, k, tr.Until, time.Now())
			}
		},
		Paced: func(site uint64, name string, n, at int64) {
			t.pace.Charge(site, name, n, time.Unix(0, at), time.Now())
		},
		Warn: func(w share.Warning) { logStorageWarning(opts.logger, w) },
		Renamed: func(old, name string) {
			if opts.logger != nil {
				opts.logger.Warn("another process shares this instance's name in the storage (a shared data directory?); this one now writes its robots_txt state under its own",
					zap.String("shared_name", old), zap.String("name", name))
			}
		},
	})
	t.sharer.SetTrapTTL(opts.trapTTL)
	if prev := t.newest.Swap(t.sharer); prev != nil {
		// The settings changed: what the old sharer was to write
		// goes where this one writes.
		t.sharer.Adopt(prev)
	}
	ctx, stop := context.WithCancel(context.Background())
	t.stop, t.done = stop, make(chan struct{})
	go func() {
		defer close(t.done)
		t.sharer.Run(ctx)
	}()
}

// addShared records a fetch another instance shares, unless the one
// recorded here is later or the better to keep. It is bound as a fetch
// made here is: another instance's flood replaces only its client's own.
func (t *fetchTracker) addShared(f share.Fetch) {
	var addr netip.Addr // none: a verified crawler's fetch, for all its addresses
	if f.Addr != "" {
		a, err := netip.ParseAddr(f.Addr)
		if err != nil {
			return
		}
		addr = a
	}
	k := fetchKey{f.Bot, addr, f.Site, f.Scope, f.Agent}
	fetch := judge.Fetch{At: time.Unix(0, f.At), ETag: f.ETag}
	if cur, ok := t.recent.Peek(k); ok && (cur.At.UnixNano() >= f.At || !replaces(fetch, cur)) {
		return
	}
	t.recent.Add(k, fetch)
}

// setTrapTTL applies the trap_ttl of a new configuration to what is read
// from storage from now on.
func (t *fetchTracker) setTrapTTL(d time.Duration) {
	if t.sharer != nil {
		t.sharer.SetTrapTTL(d)
	}
}

func (t *fetchTracker) record(k fetchKey, f judge.Fetch) {
	t.recent.Add(k, f)
	if t.sharer != nil {
		addr := ""
		if k.ip.IsValid() {
			addr = k.ip.String()
		}
		t.sharer.RecordFetch(share.Fetch{Bot: k.bot, Addr: addr, Site: k.site, Scope: k.scope, Agent: k.agent, At: f.At.UnixNano(), ETag: f.ETag})
	}
}

// replaces reports whether fetch f, made here or by another instance,
// takes the place of cur, the record of the same bot's fetch before it.
// A fetch made while there was no file (a deploy's moment) does not
// replace a version's, which the bot may still obey and whose grace it
// keeps.
func replaces(f, cur judge.Fetch) bool { return f.ETag != "" || cur.ETag == "" }

// last is the last fetch of the bot k names.
func (t *fetchTracker) last(k fetchKey) (judge.Fetch, bool) {
	return t.recent.Get(k)
}

// hear records k, a trap another instance shares, in heard, kept apart
// from own, this instance's; but counted with own's among the trapped
// members of its networks, so that the /64s of a /56 trapped across
// instances take it as those trapped on one do (audit AH-F2: 9 on each
// of two instances held neither the /56 nor its next /64 anywhere).
func hear(own, heard *trapSet, k trapKey, until int64, now time.Time) {
	if whole, latest, ok := own.count(k, until, now.UnixNano()); ok {
		heard.addShared(whole, latest)
	}
	heard.addShared(k, until)
}

// trap remembers k's address as trapped on its site until the time given.
// An IPv6 subscriber may take its /56 or /48 with it (see trapSet.add).
func (t *fetchTracker) trap(k trapKey, until time.Time) trapKey {
	k = t.trapped.add(k, until, time.Now())
	if t.sharer != nil {
		t.sharer.RecordTrap(share.Trap{Addr: k.String(), Site: k.site, Until: until.UnixNano()})
	}
	return k
}

// isTrapped tells whether k's address, or an IPv6 network of it, is trapped on its
// site now.
func (t *fetchTracker) isTrapped(k trapKey, now time.Time) bool {
	return t.trapped.holds(k, now) || t.heard.holds(k, now)
}

// siteOf is the site a request is for, as robots.txt scopes it, hashed:
// the host it names, whatever its case, without a port or a final dot.
// The port in the Host header is the client's to choose, and Caddy routes
// a.test, a.test:1 and A.TEST. alike: keyed on the header as sent, a
// trapped or paced client would start afresh with each spelling. Nor is
// the port the request came in on a better key: replicas behind a load
// balancer may each listen on their own, and they share what they learn
// about one site. Two ports of one host that share a robots.txt share
// its state too.
func siteOf(r *http.Request) uint64 {
	return fnv1a(strings.TrimSuffix(hostOf(r.Host), "."), true)
}

// hostOf is the host of a Host header: without its port, and an IPv6
// address without its brackets, as {host} gives it. Unlike
// net.SplitHostPort it does not allocate an error for a host with no port.
func hostOf(hostport string) string {
	if strings.HasPrefix(hostport, "[") {
		if i := strings.IndexByte(hostport, ']'); i > 0 {
			return hostport[1:i]
		}
		return hostport
	}
	if i := strings.IndexByte(hostport, ':'); i >= 0 {
		return hostport[:i]
	}
	return hostport
}
