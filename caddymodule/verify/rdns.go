package verify

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net"
	"net/netip"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Resolver is what forward-confirmed reverse DNS needs from a resolver.
// *net.Resolver satisfies it.
type Resolver interface {
	LookupAddr(ctx context.Context, addr string) ([]string, error)
	LookupNetIP(ctx context.Context, network, host string) ([]netip.Addr, error)
}

// NewResolver returns a resolver that asks the given DNS servers
// ("host:port", tried in turn) with Go's own resolver, or the system's
// resolver if servers is empty.
//
// Go's resolver waits out each try for resolv.conf's timeout (5 s by
// default), the whole of a lookup's budget: a listed server that drops
// packets would then fail every lookup it is asked, though the others
// answer. So each try here gets an equal share of the budget
// (DefaultLookupTimeout over the number of servers: a recursive resolver
// may need seconds for a cold reverse zone, so one server keeps it all),
// the retry goes to another server, and a server that let a try time out
// is passed over for downFor while another is left.
func NewResolver(servers []string) *net.Resolver { return newResolver(servers, nil) }

// newResolver is NewResolver that calls onDown with a server that cannot
// be reached (refused, unreachable), once each time it is found so after
// answering. A try that times out passes the server over too, but says
// nothing: a client's own reverse zone can make any server slow to answer
// (see RDNSChecker.failed).
func newResolver(servers []string, onDown func(server string)) *net.Resolver {
	if len(servers) == 0 {
		return net.DefaultResolver
	}
	pool := &serverPool{servers: append([]string(nil), servers...), downUntil: make([]atomic.Int64, len(servers)), onDown: onDown}
	tryTimeout := DefaultLookupTimeout / time.Duration(len(servers))
	return &net.Resolver{
		PreferGo: true,
		Dial: func(ctx context.Context, network, _ string) (net.Conn, error) {
			i := pool.pick(time.Now())
			var d net.Dialer
			c, err := d.DialContext(ctx, network, pool.servers[i])
			if err != nil {
				pool.down(i, time.Now(), true)
				return nil, err
			}
			limit := time.Now().Add(tryTimeout)
			if err := c.SetDeadline(limit); err != nil {
				c.Close()
				return nil, err
			}
			if u, ok := c.(*net.UDPConn); ok {
				// Go's resolver frames a query by whether the
				// connection is a PacketConn: keep it one.
				return &udpTry{UDPConn: u, try: try{limit: limit, pool: pool, i: i}}, nil
			}
			return &streamTry{Conn: c, try: try{limit: limit, pool: pool, i: i}}, nil
		},
	}
}

// downFor is how long a server that let a try time out is passed over.
const downFor = 30 * time.Second

// serverPool is NewResolver's servers, and until when each is taken for
// down (Unix nanoseconds; 0: up).
type serverPool struct {
	servers   []string
	next      atomic.Uint32
	downUntil []atomic.Int64
	onDown    func(server string)
}

// pick returns the next server in turn that is not down, or the next in
// turn when all are.
func (p *serverPool) pick(now time.Time) int {
	n := len(p.servers)
	start := int(p.next.Add(1)-1) % n
	for k := range n {
		if i := (start + k) % n; p.downUntil[i].Load() <= now.UnixNano() {
			return i
		}
	}
	return start
}

func (p *serverPool) down(i int, now time.Time, unreachable bool) {
	if was := p.downUntil[i].Swap(now.Add(downFor).UnixNano()); was == 0 && unreachable && p.onDown != nil {
		p.onDown(p.servers[i])
	}
}
func (p *serverPool) up(i int) { p.downUntil[i].Store(0) }

// try is one try's connection to server i of pool: its deadlines never
// pass limit, and how its read ends says whether the server is up.
type try struct {
	limit time.Time
	pool  *serverPool
	i     int
}

func (t try) deadline(d time.Time) time.Time {
	if d.IsZero() || d.After(t.limit) {
		return t.limit
	}
	return d
}

func (t try) read(n int, err error) (int, error) {
	var ne net.Error
	switch {
	case err == nil:
		t.pool.up(t.i)
	case errors.As(err, &ne) && ne.Timeout():
		t.pool.down(t.i, time.Now(), false)
	case !errors.Is(err, io.EOF):
		// Refused: nothing listens there.
		t.pool.down(t.i, time.Now(), true)
	}
	return n, err
}

// udpTry is a try over UDP; streamTry one over TCP.
type udpTry struct {
	*net.UDPConn
	try
}

func (c *udpTry) SetDeadline(d time.Time) error     { return c.UDPConn.SetDeadline(c.deadline(d)) }
func (c *udpTry) SetReadDeadline(d time.Time) error { return c.UDPConn.SetReadDeadline(c.deadline(d)) }
func (c *udpTry) Read(b []byte) (int, error)        { return c.read(c.UDPConn.Read(b)) }

type streamTry struct {
	net.Conn
	try
}

func (c *streamTry) SetDeadline(d time.Time) error     { return c.Conn.SetDeadline(c.deadline(d)) }
func (c *streamTry) SetReadDeadline(d time.Time) error { return c.Conn.SetReadDeadline(c.deadline(d)) }
func (c *streamTry) Read(b []byte) (int, error)        { return c.read(c.Conn.Read(b)) }

// Status is what forward-confirmed reverse DNS says about an address.
type Status uint8

const (
	// StatusUnknown: no answer yet (the lookup is slow, was refused by the
	// rate limit, or DNS failed).
	StatusUnknown Status = iota
	// StatusConfirmed: a name of the address ends with one of the suffixes
	// and resolves back to the address.
	StatusConfirmed
	// StatusRefuted: the lookups completed and no such name exists.
	StatusRefuted
)

var statusNames = [...]string{StatusUnknown: "unknown", StatusConfirmed: "confirmed", StatusRefuted: "refuted"}

func (s Status) String() string {
	if int(s) < len(statusNames) {
		return statusNames[s]
	}
	return "invalid"
}

// Defaults for RDNSOptions.
const (
	DefaultWait          = 300 * time.Millisecond
	DefaultLookupTimeout = 5 * time.Second
	DefaultTTL           = 6 * time.Hour
	DefaultNegativeTTL   = time.Hour
	DefaultErrorTTL      = time.Minute
	DefaultStale         = 24 * time.Hour
	DefaultCacheSize     = 65536
	DefaultRate          = 50
	DefaultMaxPending    = 256
)

// RDNSOptions configures an RDNSChecker. The zero value is usable.
type RDNSOptions struct {
	// Resolver answers the queries. Nil means NewResolver(Servers).
	Resolver Resolver
	// Servers are DNS servers ("host:port") for the default resolver;
	// empty means the system's resolver.
	Servers []string
	// Wait is how long Check waits for a lookup in progress (300 ms). The
	// lookup goes on after that and fills the cache.
	Wait time.Duration
	// LookupTimeout bounds the PTR and forward queries of one address (5 s).
	LookupTimeout time.Duration
	// TTL, NegativeTTL and ErrorTTL are how long a confirmation (6 h), a
	// refutation (1 h) and a DNS failure (1 min) are remembered.
	TTL, NegativeTTL, ErrorTTL time.Duration
	// Stale is how long past its TTL a confirmation still answers while
	// it is checked again (24 h): its re-check runs in the background, and
	// one that fails for want of DNS (a timeout, SERVFAIL) keeps it, to be
	// asked again after ErrorTTL. Only an answer refutes it. Without it, a
	// crawler only reverse DNS vouches for would be an impostor for a
	// request every TTL, and for ErrorTTL at each DNS hiccup.
	Stale time.Duration
	// CacheSize is the number of addresses remembered (65536).
	CacheSize int
	// Rate and Burst limit new lookups per second across all addresses (50,
	// burst 2×Rate); MaxPending limits lookups in progress (256). Over
	// either limit a new address is StatusUnknown and nothing is queried,
	// so a flood of claims from a million addresses costs neither unbounded
	// memory nor unbounded DNS traffic.
	Rate       float64
	Burst      int
	MaxPending int
	// NetRate and NetBurst are one network's share of Rate and Burst (a
	// /24 of IPv4, a /48 of IPv6; Rate/10 and 2×NetRate), so that one
	// client rotating its addresses cannot use the whole budget. Addresses
	// in a network where a known crawler has confirmed have a budget of
	// their own (see lanes).
	NetRate  float64
	NetBurst int
	// Logger hears when lookups fail for want of DNS (a timeout, a
	// server that refuses or cannot be reached), at most once a minute,
	// and when they work again: meanwhile every crawler verified by
	// reverse DNS alone is unconfirmed, an impostor to the handler. Nil
	// discards it.
	Logger *slog.Logger
	// Suffixes restricts forward confirmation to PTR names under these
	// domains, so an impostor's PTR costs no second query. Empty means
	// every PTR name is confirmed.
	Suffixes []string
}

// setDefault sets *p to def when it is not positive: the zero value of
// an option means its default.
func setDefault[T int | int64 | float64 | time.Duration](p *T, def T) {
	if *p <= 0 {
		*p = def
	}
}

func (o *RDNSOptions) setDefaults() {
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	if o.Resolver == nil {
		logger := o.Logger
		o.Resolver = newResolver(o.Servers, func(server string) {
			// The others answer meanwhile: crawlers are still
			// verified, but the operator should know one of the
			// servers listed is of no use.
			logger.Warn("a DNS server of resolvers cannot be reached; the others are asked first for the next 30 seconds", "server", server)
		})
	}
	setDefault(&o.Wait, DefaultWait)
	setDefault(&o.LookupTimeout, DefaultLookupTimeout)
	setDefault(&o.TTL, DefaultTTL)
	setDefault(&o.NegativeTTL, DefaultNegativeTTL)
	setDefault(&o.ErrorTTL, DefaultErrorTTL)
	setDefault(&o.Stale, DefaultStale)
	setDefault(&o.CacheSize, DefaultCacheSize)
	setDefault(&o.Rate, DefaultRate)
	setDefault(&o.Burst, max(1, int(2*o.Rate)))
	setDefault(&o.MaxPending, DefaultMaxPending)
	setDefault(&o.NetRate, o.Rate/10)
	setDefault(&o.NetBurst, max(1, int(2*o.NetRate)))
}

// RDNSChecker checks addresses by forward-confirmed reverse DNS: the PTR
// names of the address, those under a wanted suffix, and the A or AAAA
// records of each name, which must include the address. It caches answers
// per address, runs one lookup per address at a time, and limits the rate
// of new lookups. It is safe for concurrent use.
type RDNSChecker struct {
	opts     RDNSOptions
	suffixes []string
	cache    *addrCache

	mu       sync.Mutex
	inflight map[netip.Addr]*rdnsCall
	lanes    *lanes

	lookups, refused atomic.Uint64
	// When refused lookups were last warned of, and how many had been
	// refused by then (see refusedNow).
	refusedWarnedAt atomic.Int64
	refusedWarned   atomic.Uint64

	// Resolver failures since the last warning, when that was, and
	// whether one was given since lookups last succeeded (see failed
	// and answered).
	failures atomic.Uint64
	warnedAt atomic.Int64
	warned   atomic.Bool
	// zoneMu guards the networks whose lookups answered "server
	// misbehaving" since one last succeeded (see failed).
	zoneMu   sync.Mutex
	zoneNets [zoneFailuresSpread]netip.Prefix
	zoneN    int

	// now is a coarse clock for the hit path, where time.Now would be
	// the largest cost of a cached answer (it is a system call in some
	// sandboxes). It lags by at most clockTick, so an answer may outlive
	// its TTL by that much.
	clock *coarseClock
}

// coarseClock is apart from RDNSChecker so that its ticker does not keep
// the checker reachable.
type coarseClock struct {
	now  atomic.Int64
	stop chan struct{}
	once sync.Once
}

func (c *coarseClock) close() { c.once.Do(func() { close(c.stop) }) }

// clockTick is the resolution of RDNSChecker's coarse clock.
const clockTick = 250 * time.Millisecond

// rdnsEntry is the answer for one address: the names that forward-confirm,
// or none.
type rdnsEntry struct {
	names   []string // lowercase, without the trailing dot
	failed  bool     // DNS failed; the answer is unknown
	expires int64    // unix nanoseconds
	// confirmed is when names were last confirmed by an answer (unix
	// nanoseconds); a confirmation kept through DNS failures keeps it.
	confirmed int64
}

// stale reports whether e is a confirmation past its expiry that may
// still answer while it is checked again: one confirmed within TTL+Stale.
func (r *RDNSChecker) stale(e *rdnsEntry) bool {
	return len(e.names) > 0 && r.clock.now.Load() < e.confirmed+int64(r.opts.TTL+r.opts.Stale)
}

type rdnsCall struct {
	done chan struct{}
	res  *rdnsEntry
}

// NewRDNSChecker returns a checker with opts.
func NewRDNSChecker(opts RDNSOptions) *RDNSChecker {
	opts.setDefaults()
	r := &RDNSChecker{
		opts:     opts,
		cache:    newAddrCache(opts.CacheSize),
		lanes:    newLanes(opts),
		inflight: map[netip.Addr]*rdnsCall{},
		clock:    &coarseClock{stop: make(chan struct{})},
	}
	r.clock.now.Store(time.Now().UnixNano())
	go r.clock.run()
	// The ticker holds only the clock, so a checker nobody closes can still
	// be collected, and the cleanup stops its ticker.
	runtime.AddCleanup(r, (*coarseClock).close, r.clock)
	for _, s := range opts.Suffixes {
		r.suffixes = append(r.suffixes, normalizeName(s))
	}
	return r
}

func (c *coarseClock) run() {
	t := time.NewTicker(clockTick)
	defer t.Stop()
	for {
		select {
		case <-c.stop:
			return
		case at := <-t.C:
			c.now.Store(at.UnixNano())
		}
	}
}

// Close stops the checker's clock. Lookups in progress finish on their own.
func (r *RDNSChecker) Close() {
	r.clock.close()
}

// Check reports whether addr has a forward-confirmed name under one of
// suffixes. A cached answer costs no query. Otherwise Check starts a lookup
// (or joins the one in progress) and waits up to Wait or until ctx ends;
// if the answer is not in by then it returns StatusUnknown, and the lookup
// completes in the background for the next request. An invalid addr (a
// request with no client address, such as one on a unix socket) is
// StatusUnknown, with no query.
func (r *RDNSChecker) Check(ctx context.Context, addr netip.Addr, suffixes []string) Status {
	if !addr.IsValid() {
		// Nothing to look up: the resolver's "unrecognized address"
		// would be logged as its failure, and spend the rate limit.
		return StatusUnknown
	}
	addr = addr.Unmap().WithZone("")
	e, ok := r.cache.get(addr)
	if ok && r.clock.now.Load() < e.expires {
		return e.status(suffixes)
	}
	if ok && r.stale(e) {
		// Checked again in the background; until the answer, the
		// confirmation stands (see RDNSOptions.Stale).
		r.start(addr)
		return e.status(suffixes)
	}
	c := r.start(addr)
	if c == nil {
		return StatusUnknown
	}
	t := time.NewTimer(r.opts.Wait)
	defer t.Stop()
	select {
	case <-c.done:
		return c.res.status(suffixes)
	case <-t.C:
	case <-ctx.Done():
	}
	return StatusUnknown
}

// Stats reports the lookups started and the ones refused by the limits.
func (r *RDNSChecker) Stats() (lookups, refused uint64) {
	return r.lookups.Load(), r.refused.Load()
}

// start returns the lookup in progress for addr, a new one, or nil if the
// limits refuse a new one.
func (r *RDNSChecker) start(addr netip.Addr) *rdnsCall {
	r.mu.Lock()
	defer r.mu.Unlock()
	if c, ok := r.inflight[addr]; ok {
		return c
	}
	now := time.Now()
	if !r.lanes.admit(addr, len(r.inflight), now) {
		r.refusedNow(now)
		return nil
	}
	r.lookups.Add(1)
	c := &rdnsCall{done: make(chan struct{})}
	r.inflight[addr] = c
	go func() {
		// Detached from the request: the answer is worth having even if
		// the request that asked has gone.
		ctx, cancel := context.WithTimeout(context.Background(), r.opts.LookupTimeout)
		e := r.lookup(ctx, addr)
		cancel()
		if prev, ok := r.cache.get(addr); ok && e.failed && len(e.names) == 0 && r.stale(prev) {
			// DNS failed, which refutes nothing: the confirmation
			// stands, and is asked again after ErrorTTL.
			e = &rdnsEntry{names: prev.names, expires: e.expires, confirmed: prev.confirmed}
		}
		// Cache before leaving inflight, so no Check falls between the two
		// and starts a second lookup.
		r.cache.add(addr, e)
		r.mu.Lock()
		delete(r.inflight, addr)
		if len(e.names) > 0 && len(r.suffixes) > 0 {
			r.lanes.confirmed(addr, e.expires, time.Now())
		}
		r.mu.Unlock()
		c.res = e
		close(c.done)
	}()
	return c
}

// maxNames bounds the PTR names forward-confirmed per address; a PTR set
// is the address owner's to choose, and a long one must not multiply the
// queries.
const maxNames = 4

func (r *RDNSChecker) lookup(ctx context.Context, addr netip.Addr) *rdnsEntry {
	now := time.Now()
	e := &rdnsEntry{}
	ptrs, err := r.opts.Resolver.LookupAddr(ctx, addr.String())
	if err != nil && !isNotFound(err) && len(ptrs) == 0 {
		r.failed(err, addr, now)
		e.failed = true
		e.expires = now.Add(r.opts.ErrorTTL).UnixNano()
		return e
	}
	r.answered()
	network := "ip6"
	if addr.Is4() {
		network = "ip4"
	}
	tried := 0
	for _, name := range ptrs {
		name = normalizeName(name)
		if name == "" || !r.wanted(name) {
			continue
		}
		if tried++; tried > maxNames {
			break
		}
		// Absolute, so that no search domain of resolv.conf is tried.
		ips, err := r.opts.Resolver.LookupNetIP(ctx, network, name+".")
		if err != nil && !isNotFound(err) && len(ips) == 0 {
			r.failed(err, addr, now)
			e.failed = true
			continue
		}
		for _, ip := range ips {
			if ip.Unmap().WithZone("") == addr {
				e.names = append(e.names, name)
				break
			}
		}
	}
	switch {
	case len(e.names) > 0:
		e.failed = false
		e.confirmed = now.UnixNano()
		e.expires = now.Add(r.opts.TTL).UnixNano()
	case e.failed:
		e.expires = now.Add(r.opts.ErrorTTL).UnixNano()
	default:
		e.expires = now.Add(r.opts.NegativeTTL).UnixNano()
	}
	return e
}

// refusedNow counts a lookup the limits refused, and warns at most once
// per failWarnEvery: the claim it was to check is judged an impostor's,
// and a crawler that confirms only by reverse DNS, in a network not seen
// lately, is one for as long as a flood of claims lasts. Without a word
// the log and the metrics would say a real crawler was an impostor, and a
// handler of impostor events might ban it.
func (r *RDNSChecker) refusedNow(now time.Time) {
	n := r.refused.Add(1)
	last := r.refusedWarnedAt.Load()
	if last != 0 && now.UnixNano()-last < int64(failWarnEvery) || !r.refusedWarnedAt.CompareAndSwap(last, now.UnixNano()) {
		return
	}
	since := n - r.refusedWarned.Swap(n)
	r.opts.Logger.Warn("reverse DNS lookups refused by the rate limit: claims from networks where no crawler confirmed lately are judged impostors, unchecked, until the flood of claims ends",
		"refused", since)
}

// failWarnEvery is how often failing lookups are logged.
const failWarnEvery = time.Minute

// failed notes a lookup of addr that DNS could not answer, and warns at
// most once per failWarnEvery when the resolver is at fault: without a
// word, a resolver that is down or mistyped looks exactly like crawlers
// that are all impostors. Package net says "server misbehaving" for a
// SERVFAIL, which may be one zone's failure (a client's own reverse zone,
// which it controls), and for a REFUSED or a SERVFAIL to everything,
// which is the resolver's; a timeout may be a zone's too (one served by a
// slow server on purpose) or a resolver's that is down. Such failures
// count once they come from zoneFailuresSpread networks with no lookup
// answered in between; others (the resolver refusing the connection)
// at once.
func (r *RDNSChecker) failed(err error, addr netip.Addr, now time.Time) {
	var de *net.DNSError
	// What a client's own reverse zone can cause (a timeout, a SERVFAIL,
	// an answer no parser reads) is the resolver's fault only once it
	// happens across networks.
	zone := !errors.As(err, &de) || de.IsTimeout || de.Err == serverMisbehaving || de.Err == malformedAnswer
	if zone && !r.spread(addr) {
		return
	}
	n := r.failures.Add(1)
	last := r.warnedAt.Load()
	if last != 0 && now.UnixNano()-last < int64(failWarnEvery) || !r.warnedAt.CompareAndSwap(last, now.UnixNano()) {
		return
	}
	r.failures.Add(-n)
	r.warned.Store(true)
	msg := err.Error()
	if de != nil && len(r.opts.Servers) > 0 {
		// Package net names the server of resolv.conf it would have
		// asked, not the one of Servers that NewResolver asked.
		msg = "lookup " + de.Name + ": " + de.Err
	}
	args := []any{"error", msg, "failures", n}
	if len(r.opts.Servers) > 0 {
		args = append(args, "resolvers", strings.Join(r.opts.Servers, " "))
	}
	r.opts.Logger.Warn("reverse DNS lookups fail: crawlers verified by reverse DNS alone are unconfirmed, impostors, until they succeed; check the resolvers", args...)
}

// serverMisbehaving is how package net reports a SERVFAIL, a REFUSED and
// other error codes; malformedAnswer an answer it cannot parse.
const (
	serverMisbehaving = "server misbehaving"
	malformedAnswer   = "cannot unmarshal DNS message"
)

// zoneFailuresSpread is how many networks (a /24, a /48: see laneNet) must answer
// "server misbehaving", with no lookup answered in between, for the
// resolver to be at fault.
const zoneFailuresSpread = 3

// spread notes that addr's network answered "server misbehaving", and
// reports whether zoneFailuresSpread networks have since a lookup last
// succeeded.
func (r *RDNSChecker) spread(addr netip.Addr) bool {
	p := laneNet(addr)
	r.zoneMu.Lock()
	defer r.zoneMu.Unlock()
	for _, q := range r.zoneNets[:r.zoneN] {
		if q == p {
			return r.zoneN == zoneFailuresSpread
		}
	}
	if r.zoneN < zoneFailuresSpread {
		r.zoneNets[r.zoneN] = p
		r.zoneN++
	}
	return r.zoneN == zoneFailuresSpread
}

// answered notes a lookup DNS answered, and says so once after a
// warning that lookups were failing.
func (r *RDNSChecker) answered() {
	r.zoneMu.Lock()
	r.zoneN = 0
	r.zoneMu.Unlock()
	if r.warned.Load() && r.warned.CompareAndSwap(true, false) {
		r.opts.Logger.Info("reverse DNS lookups succeed again")
	}
}

// wanted reports whether name is under one of the checker's suffixes.
func (r *RDNSChecker) wanted(name string) bool {
	if len(r.suffixes) == 0 {
		return true
	}
	for _, s := range r.suffixes {
		if underSuffix(name, s) {
			return true
		}
	}
	return false
}

func (e *rdnsEntry) status(suffixes []string) Status {
	for _, n := range e.names {
		for _, s := range suffixes {
			if underSuffix(n, s) {
				return StatusConfirmed
			}
		}
	}
	if e.failed {
		return StatusUnknown
	}
	return StatusRefuted
}

// underSuffix reports whether name (lowercase, no trailing dot) is suffix
// or a subdomain of it, ignoring ASCII case and a trailing dot in suffix.
// "crawl-1.googlebot.com" is under "googlebot.com"; "evilgooglebot.com" is
// not.
func underSuffix(name, suffix string) bool {
	suffix = strings.TrimSuffix(suffix, ".")
	if suffix == "" || len(name) < len(suffix) {
		return false
	}
	tail := name[len(name)-len(suffix):]
	if !strings.EqualFold(tail, suffix) {
		return false
	}
	return len(name) == len(suffix) || name[len(name)-len(suffix)-1] == '.'
}

func normalizeName(s string) string {
	return strings.ToLower(strings.TrimSuffix(strings.TrimSpace(s), "."))
}

func isNotFound(err error) bool {
	var de *net.DNSError
	return errors.As(err, &de) && de.IsNotFound
}

// Interface guard: the standard resolver is what NewResolver hands out.
var _ Resolver = (*net.Resolver)(nil)
