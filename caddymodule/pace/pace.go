// Package pace turns a robots.txt Crawl-delay into a rate: one request per
// delay, with a small burst, per crawler or per client address. It imports
// no Caddy package and allocates nothing on the request path once a key
// has been seen.
package pace

import (
	"net/netip"
	"sync/atomic"
	"time"

	lru "github.com/hashicorp/golang-lru/v2"
)

// Burst is how many requests a client may make at once before the delay
// applies between them: crawlers fetch a page and its assets together,
// and a strict one-per-delay would refuse the second of two requests sent
// a millisecond apart by a crawler that honours the delay on average.
const Burst = 3

// MinDelay and MaxDelay bound the delays enforced. A Crawl-delay under
// MinDelay (fractions such as 0.01) is read as MinDelay; one over MaxDelay
// is read as MaxDelay, since a site that asks for one request a day still
// wants to be crawled, and no crawler we know waits longer.
const (
	MinDelay = 100 * time.Millisecond
	MaxDelay = 60 * time.Second
)

// Clamp brings a Crawl-delay into [MinDelay, MaxDelay]; 0 (none) stays 0.
func Clamp(d time.Duration) time.Duration {
	switch {
	case d <= 0:
		return 0
	case d < MinDelay:
		return MinDelay
	case d > MaxDelay:
		return MaxDelay
	}
	return d
}

// slot is one key's schedule: the theoretical arrival time of its next
// request, in unix nanoseconds (the generic cell rate algorithm), the
// delay it was last taken with, and when it last admitted a request.
type slot struct {
	tat   atomic.Int64
	delay atomic.Int64
	at    atomic.Int64
}

// take admits a request at now for a rate of one per delay with Burst,
// and returns how long the client should wait when it does not. since is
// when delay came into force (see rescale).
func (s *slot) take(since, now int64, delay time.Duration) (bool, time.Duration) {
	d := int64(delay)
	if prev := s.delay.Load(); prev != d {
		s.delay.Store(d)
		if prev > 0 {
			s.rescale(since, now, prev, d)
		}
	}
	slack := int64(Burst-1) * d
	for {
		old := s.tat.Load()
		tat := max(old, now)
		if tat-now > slack {
			return false, time.Duration(tat - now - slack)
		}
		if s.tat.CompareAndSwap(old, tat+d) {
			s.at.Store(now)
			return true, 0
		}
	}
}

// rescale keeps what a schedule holds, counted in requests, when its
// delay changes from prev to d (robots.txt edited, or a trapped bot with
// a longer delay of its own sharing the slot): a crawler that used its
// burst under a delay of a minute is a burst ahead under a delay of a
// second too, not three minutes, which it would be told to wait
// (Retry-After) though the file asks for a second; raised, the burst it
// used stays used.
//
// Lowered, the schedule is converted as it stood at since, when the new
// delay came into force, not at the first request to see it: a crawler
// that used its burst under a delay of 30 s and waits 8 s after an edit
// to 1 s owes nothing, though 8 s at the old delay would leave it most
// of its burst ahead. That is so only if the slot admitted nothing after
// since: such a request was held to prev (a trapped bot's own delay, a
// request judged by the version before), and so is the time after it.
// Raised, the conversion is at now: a crawler learns of the edit when it
// reads the file again, and owes for the time before no more than the
// old delay asked. Either way the schedule ends no further ahead than
// converting at now puts it, so charges from other instances, counted at
// prev, weigh no more than they did.
func (s *slot) rescale(since, now, prev, d int64) {
	from := now
	if d < prev && since < now && s.at.Load() <= since {
		from = since
	}
	for {
		old := s.tat.Load()
		if old <= from {
			return
		}
		ahead := min(float64(old-from)/float64(prev)*float64(d), float64(MaxAhead))
		if s.tat.CompareAndSwap(old, from+int64(ahead)) {
			return
		}
	}
}

// Limiter keeps the schedules, per site (the host a request is for:
// Crawl-delay, like the rest of robots.txt, applies to the host it was
// served from). Named crawlers (a group's agent name, a known crawler)
// have one schedule each on a site, whatever address they come from,
// since crawlers spread over many; clients judged by the * group have one
// per address, in an LRU of fixed size.
type Limiter struct {
	named *lru.Cache[key, *slot] // at most maxNamed
	addrs *lru.Cache[addrKey, *slot]
	// owed are the charges for crawlers not seen here yet (see Charge),
	// kept apart: names come from a shared storage anyone may write to,
	// and must not push out the schedules of crawlers seen here.
	owed *lru.Cache[key, owing]
}

// owing is the last charges of requests other instances admitted before
// this one knew the crawler's delay: n requests told at at (unix
// nanoseconds), oldest first. They are replayed at the delay once it is
// known (see tat), so that a crawler that kept to the delay elsewhere is
// not charged its whole crawl at once (audit AK-F3); older ones than
// these have run out by then.
type owing struct {
	n, at [8]int64
	len   int
}

// add notes n requests told at at, dropping the oldest when full.
func (o *owing) add(n, at int64) {
	if o.len == len(o.n) {
		copy(o.n[:], o.n[1:])
		copy(o.at[:], o.at[1:])
		o.len--
	}
	o.n[o.len], o.at[o.len] = n, at
	o.len++
}

// tat is the schedule the charges make at delay d: each admitted after
// the one before it, or when it was told, whichever is later; no further
// ahead of now than MaxAhead.
func (o *owing) tat(d, now int64) int64 {
	var tat int64
	for i := range o.len {
		tat = max(tat, o.at[i]) + min(o.n[i], int64(MaxAhead)/d)*d
	}
	return min(tat, now+int64(MaxAhead))
}

// maxOwed bounds the charges kept for crawlers not seen here yet.
const maxOwed = 1024

// key is a crawler's name on a site (a hash of its host, so that a long
// Host header costs no memory here).
type key struct {
	site uint64
	who  string
}

// addrKey is a client's address on a site, and the group whose schedule
// it keeps there.
type addrKey struct {
	site  uint64
	addr  netip.Addr
	group uint32
}

// New returns a limiter remembering up to addrs client addresses.
func New(addrs int) *Limiter {
	c, _ := lru.New[addrKey, *slot](max(addrs, 1))
	n, _ := lru.New[key, *slot](maxNamed)
	o, _ := lru.New[key, owing](maxOwed)
	return &Limiter{named: n, addrs: c, owed: o}
}

// maxNamed bounds the named schedules, least recently used first out:
// names come from robots.txt (a file from an upstream is not trusted) and
// the knowledge base, sites from the Host header (any, on a catch-all
// site), so a flood of new ones evicts the schedules that went quiet, not
// every crawler's.
const maxNamed = 10_000

// Named admits a request to site from the crawler called name. since is
// when delay came into force (the load of the first robots.txt version
// in a row that set it, judge.Version.DelaySince; zero when not known).
func (l *Limiter) Named(site uint64, name string, delay time.Duration, since, now time.Time) (bool, time.Duration) {
	k := key{site, name}
	s, ok := l.named.Get(k)
	if !ok {
		s = new(slot)
		if o, owed := l.owed.Peek(k); owed && delay > 0 {
			// What other instances admitted before this one first
			// saw the crawler, from when they said so.
			s.delay.Store(int64(delay))
			s.tat.Store(o.tat(int64(delay), now.UnixNano()))
		}
		if prev, found, _ := l.named.PeekOrAdd(k, s); found {
			s = prev
		} else {
			l.owed.Remove(k)
		}
	}
	return s.take(unixNano(since, now), now.UnixNano(), delay)
}

// Addr admits a request to site from the client at addr held to group
// (any number that tells the groups of the site's file apart), as Named
// does. An IPv6
// client is counted by its /64, which one subscriber or host holds whole
// (else it would have a fresh schedule for each of its 2^64 addresses),
// and an IPv4-mapped one as the IPv4 address it is.
//
// Each group has a schedule of its own at an address: bots of several
// groups behind one address (a cloud NAT, a hosting provider's) each obey
// their own group's delay, and one group's long delay must not refuse a
// bot of another that keeps to its own. Bots of one group at one address
// share its schedule: an address is the client as far as a server can
// tell, and a client could name itself afresh with every request.
func (l *Limiter) Addr(site uint64, addr netip.Addr, group uint32, delay time.Duration, since, now time.Time) (bool, time.Duration) {
	k := addrKey{site, Subscriber(addr), group}
	s, ok := l.addrs.Get(k)
	if !ok {
		s = new(slot)
		if prev, found, _ := l.addrs.PeekOrAdd(k, s); found {
			s = prev
		}
	}
	return s.take(unixNano(since, now), now.UnixNano(), delay)
}

// unixNano is since in unix nanoseconds, or now's when since is zero
// (not known, and out of int64's range): no time before the request is
// then counted at a new delay.
func unixNano(since, now time.Time) int64 {
	if since.IsZero() {
		return now.UnixNano()
	}
	return since.UnixNano()
}

// Subscriber is the address a client is remembered by: an IPv6 address's
// /64, an IPv4-mapped address unmapped, any other as it is.
func Subscriber(a netip.Addr) netip.Addr {
	a = a.Unmap()
	if a.Is6() {
		if p, err := a.Prefix(64); err == nil {
			return p.Addr()
		}
	}
	return a
}

// MaxAhead is the furthest charges from other instances put a schedule
// ahead of now, and so about the longest a crawler is told to wait
// (Retry-After): counts read from a shared storage are not to be trusted
// with more, and n requests times a delay must not overflow.
const MaxAhead = time.Hour

// Charge counts n requests to site another instance admitted for the
// crawler called name against its schedule here, so that instances
// sharing a site hold a crawler to one rate between them, up to MaxAhead.
// A crawler not seen here yet has no delay to charge with: the count is
// owed, and charged when it is first seen (audit AH-F4: a crawler that
// had used its burst on one instance got a fresh one on the next).
//
// at is when the requests were made, as early as the other instance may
// have admitted them (the start of the interval it counted them in):
// they take their place in the schedule from then, not from now, when
// they are read, which would push the schedule ahead by what their
// delays have already run out, and refuse a crawler that keeps to its
// delay across instances (audit AL-F2). at is never taken later than now.
func (l *Limiter) Charge(site uint64, name string, n int64, at, now time.Time) {
	if n <= 0 {
		return
	}
	if at.After(now) {
		at = now
	}
	k := key{site, name}
	s, ok := l.named.Peek(k)
	if !ok {
		o, _ := l.owed.Peek(k)
		o.add(n, at.UnixNano())
		l.owed.Add(k, o)
		return
	}
	d := s.delay.Load()
	if d <= 0 {
		return
	}
	limit := now.UnixNano() + int64(MaxAhead)
	for {
		old := s.tat.Load()
		from := max(old, at.UnixNano())
		if from >= limit {
			return
		}
		tat := limit
		if n < (limit-from)/d {
			tat = from + n*d
		}
		if s.tat.CompareAndSwap(old, tat) {
			return
		}
	}
}
