package pace

import (
	"fmt"
	"math"
	"net/netip"
	"testing"
	"time"
)

func TestRate(t *testing.T) {
	l := New(10)
	t0 := time.Unix(1_700_000_000, 0)
	const delay = 10 * time.Second
	for _, step := range []struct {
		at    time.Duration
		ok    bool
		retry time.Duration
	}{
		// A burst of Burst requests at once is admitted...
		{0, true, 0}, {0, true, 0}, {0, true, 0},
		// ...the next must wait a whole delay...
		{0, false, delay},
		{4 * time.Second, false, 6 * time.Second},
		// ...and then one request per delay.
		{10 * time.Second, true, 0},
		{11 * time.Second, false, 9 * time.Second},
		{20 * time.Second, true, 0},
		// A crawler that keeps to the delay is never refused.
		{30 * time.Second, true, 0}, {40 * time.Second, true, 0}, {50 * time.Second, true, 0},
		// After a long pause the burst is back, but no more than it.
		{200 * time.Second, true, 0}, {200 * time.Second, true, 0}, {200 * time.Second, true, 0},
		{200 * time.Second, false, delay},
	} {
		ok, retry := l.Named(1, "Bingbot", delay, t0, t0.Add(step.at))
		if ok != step.ok {
			t.Errorf("at %v: admitted %v, want %v", step.at, ok, step.ok)
		}
		if retry != step.retry {
			t.Errorf("at %v: retry after %v, want %v", step.at, retry, step.retry)
		}
	}
	// Other crawlers and addresses have schedules of their own.
	if ok, _ := l.Named(1, "YandexBot", delay, t0, t0); !ok {
		t.Error("another crawler was refused")
	}
	if ok, _ := l.Addr(1, netip.MustParseAddr("192.0.2.1"), 0, delay, t0, t0); !ok {
		t.Error("an address was refused")
	}
}

// TestSubscribers: an IPv6 client is paced by its /64, which it holds
// whole, so rotating addresses inside it buys no fresh schedule; an
// IPv4-mapped address is its IPv4 address.
func TestSubscribers(t *testing.T) {
	l := New(100)
	t0 := time.Unix(1_700_000_000, 0)
	for i, a := range []string{"2001:db8:1:1::1", "2001:db8:1:1::2", "2001:db8:1:1:ffff::9", "2001:db8:1:1::3"} {
		ok, _ := l.Addr(1, netip.MustParseAddr(a), 0, 10*time.Second, t0, t0)
		if ok != (i < Burst) {
			t.Errorf("request %d from %s in one /64: admitted %v, want %v", i, a, ok, i < Burst)
		}
	}
	if ok, _ := l.Addr(1, netip.MustParseAddr("2001:db8:1:2::1"), 0, 10*time.Second, t0, t0); !ok {
		t.Error("another /64 was refused")
	}
	for range Burst {
		l.Addr(1, netip.MustParseAddr("198.51.100.9"), 0, 10*time.Second, t0, t0)
	}
	if ok, _ := l.Addr(1, netip.MustParseAddr("::ffff:198.51.100.9"), 0, 10*time.Second, t0, t0); ok {
		t.Error("the IPv4-mapped spelling of a paced address got a schedule of its own")
	}
}

func TestAddrsBounded(t *testing.T) {
	l := New(100)
	now := time.Now()
	for i := range 10_000 {
		l.Addr(1, netip.AddrFrom4([4]byte{10, 0, byte(i / 256), byte(i % 256)}), 0, time.Second, now, now)
	}
	if n := l.addrs.Len(); n != 100 {
		t.Errorf("%d addresses remembered, want the cap 100", n)
	}
}

func TestClamp(t *testing.T) {
	for in, want := range map[time.Duration]time.Duration{
		0:                      0,
		-time.Second:           0,
		10 * time.Millisecond:  MinDelay,
		500 * time.Millisecond: 500 * time.Millisecond,
		5 * time.Second:        5 * time.Second,
		time.Hour:              MaxDelay,
	} {
		if got := Clamp(in); got != want {
			t.Errorf("Clamp(%v) = %v, want %v", in, got, want)
		}
	}
}

func BenchmarkNamed(b *testing.B) {
	l := New(1000)
	now := time.Now()
	b.ReportAllocs()
	for b.Loop() {
		l.Named(1, "Bingbot", time.Millisecond, now, now)
	}
}

func BenchmarkAddr(b *testing.B) {
	l := New(1000)
	now := time.Now()
	addr := netip.MustParseAddr("203.0.113.7")
	l.Addr(1, addr, 0, time.Millisecond, now, now)
	b.ReportAllocs()
	for b.Loop() {
		l.Addr(1, addr, 0, time.Millisecond, now, now)
	}
}

// TestCharge: requests another instance admitted count here too.
func TestCharge(t *testing.T) {
	l := New(10)
	t0 := time.Unix(1_700_000_000, 0)
	if ok, _ := l.Named(1, "Bingbot", 10*time.Second, t0, t0); !ok {
		t.Fatal("the first request is refused")
	}
	l.Charge(1, "Bingbot", 2, t0, t0) // the other instance admitted two
	if ok, retry := l.Named(1, "Bingbot", 10*time.Second, t0, t0); ok || retry != 10*time.Second {
		t.Errorf("after two requests elsewhere: admitted %v, retry %v; want refused, 10s", ok, retry)
	}
	// Requests made elsewhere take their place from when they were
	// made, not from when they are read: four a second apart, read 5 s
	// later, leave a crawler that keeps to its delay admitted here
	// (audit AL-F2: it was refused, the four charged from the reading).
	l.Named(1, "Apart", time.Second, t0, t0)
	l.Charge(1, "Apart", 4, t0.Add(time.Second), t0.Add(5*time.Second))
	if ok, retry := l.Named(1, "Apart", time.Second, t0, t0.Add(5200*time.Millisecond)); !ok {
		t.Errorf("after four requests elsewhere a second apart, read 5 s later: refused, retry %v", retry)
	}
	// A crawler not seen here yet: the count is owed, and charged
	// when it is first seen (audit AH-F4), from when it was told.
	l.Charge(1, "Unknown", 3, t0, t0) // it used its burst elsewhere
	if ok, retry := l.Named(1, "Unknown", 10*time.Second, t0, t0.Add(time.Second)); ok || retry != 9*time.Second {
		t.Errorf("a crawler that used its burst elsewhere, first seen here: admitted %v, retry %v; want refused, 9s", ok, retry)
	}
	l.Charge(1, "Later", 3, t0, t0)
	if ok, _ := l.Named(1, "Later", 10*time.Second, t0, t0.Add(20*time.Second)); !ok {
		t.Error("a crawler first seen here two delays after its burst elsewhere is refused")
	}
	// A crawler that kept to its delay elsewhere, one request every
	// 12 s for a long crawl, is admitted here at once: its charges are
	// replayed at the delay, not piled up (audit AK-F3).
	for i := range 35 {
		at := t0.Add(time.Duration(i) * 12 * time.Second)
		l.Charge(1, "Steady", 1, at, at)
	}
	last := t0.Add(34 * 12 * time.Second)
	if ok, retry := l.Named(1, "Steady", 10*time.Second, t0, last.Add(time.Second)); !ok {
		t.Errorf("a crawler that kept to its delay elsewhere for 35 requests: refused, retry %v", retry)
	}
	// Owed counts have a place of their own: a flood of names does not
	// push out a crawler's schedule.
	for i := range 2 * maxNamed {
		l.Charge(2, fmt.Sprint("flood", i), 1, t0, t0)
	}
	if l.named.Len() > 10 || l.owed.Len() > maxOwed {
		t.Errorf("after a flood of charges for unknown names: %d schedules, %d owed; want at most 10 and %d", l.named.Len(), l.owed.Len(), maxOwed)
	}
	if ok, _ := l.Named(1, "Bingbot", 10*time.Second, t0, t0); ok {
		t.Error("Bingbot's schedule was pushed out by a flood of charges for other names")
	}
}

// TestSitesApart: Crawl-delay applies to the host robots.txt was served
// from; a crawler paced on one site is not held back on another.
func TestSitesApart(t *testing.T) {
	l := New(16)
	t0 := time.Unix(1_700_000_000, 0)
	for range 4 { // the burst, then one too many
		l.Named(siteA, "Bingbot", 10*time.Second, t0, t0)
		l.Addr(siteA, netip.MustParseAddr("192.0.2.1"), 0, 10*time.Second, t0, t0)
	}
	if ok, _ := l.Named(siteA, "Bingbot", 10*time.Second, t0, t0); ok {
		t.Fatal("Bingbot not held back on a.example")
	}
	if ok, _ := l.Named(siteB, "Bingbot", 10*time.Second, t0, t0); !ok {
		t.Error("Bingbot held back on b.example by its requests to a.example")
	}
	if ok, _ := l.Addr(siteB, netip.MustParseAddr("192.0.2.1"), 0, 10*time.Second, t0, t0); !ok {
		t.Error("an address held back on b.example by its requests to a.example")
	}
}

// TestNamedBounded: a flood of new (site, crawler) pairs, as Host headers
// on a catch-all site make, stays within maxNamed and keeps the schedule
// of a crawler that is still asking.
func TestNamedBounded(t *testing.T) {
	l := New(16)
	t0 := time.Unix(1_700_000_000, 0)
	for range 4 {
		l.Named(siteA, "Bingbot", 10*time.Second, t0, t0)
	}
	for i := range 3 * maxNamed {
		l.Named(uint64(100+i), "Bingbot", 10*time.Second, t0, t0)
		if i%1000 == 0 {
			l.named.Get(key{siteA, "Bingbot"}) // Bingbot keeps asking a.example
		}
	}
	if n := l.named.Len(); n > maxNamed {
		t.Errorf("%d named schedules, want at most %d", n, maxNamed)
	}
	if ok, _ := l.Named(siteA, "Bingbot", 10*time.Second, t0, t0); ok {
		t.Error("Bingbot's schedule on a.example was reset by the flood")
	}
}

// siteA and siteB stand for two sites' hashes.
const siteA, siteB uint64 = 0xa, 0xb

// TestChargeBounded: a count no instance could have admitted (a damaged
// or planted blob) puts the schedule at most MaxAhead ahead, without
// overflowing: the crawler is told to wait about an hour at most.
func TestChargeBounded(t *testing.T) {
	t0 := time.Unix(1_700_000_000, 0)
	for _, n := range []int64{1_000_000_000, math.MaxInt64 / 2, math.MaxInt64} {
		l := New(10)
		l.Named(1, "Bingbot", 5*time.Second, t0, t0)
		l.Charge(1, "Bingbot", n, t0, t0)
		ok, retry := l.Named(1, "Bingbot", 5*time.Second, t0, t0)
		if ok || retry <= 0 || retry > MaxAhead {
			t.Errorf("after a charge of %d: admitted %v, retry after %v; want refused, for at most %v", n, ok, retry, MaxAhead)
		}
		// Charges add up to no more either.
		l.Charge(1, "Bingbot", n, t0, t0)
		if _, retry := l.Named(1, "Bingbot", 5*time.Second, t0, t0); retry <= 0 || retry > MaxAhead {
			t.Errorf("after two charges of %d: retry after %v, want at most %v", n, retry, MaxAhead)
		}
	}
}

// TestDelayChanged: a schedule kept across an edit of robots.txt that
// changes the delay holds what it held, counted in requests: a crawler
// that used its burst under a delay of a minute waits one new delay, not
// the three minutes the old burst put it ahead, when the delay is
// lowered to a second (nor is it told Retry-After: 178); raised, the
// burst it used is not forgotten.
func TestDelayChanged(t *testing.T) {
	t0 := time.Unix(1_700_000_000, 0)
	for _, tc := range []struct {
		from, to time.Duration
	}{
		{time.Minute, time.Second},
		{time.Second, time.Minute},
	} {
		l := New(10)
		for range Burst {
			l.Named(1, "Bingbot", tc.from, t0, t0)
		}
		ok, retry := l.Named(1, "Bingbot", tc.to, t0, t0)
		if ok || retry != tc.to {
			t.Errorf("a burst used at a delay of %v, then one at %v: admitted %v, retry after %v; want refused, retry after %v",
				tc.from, tc.to, ok, retry, tc.to)
		}
		if ok, _ := l.Named(1, "Bingbot", tc.to, t0, t0.Add(tc.to)); !ok {
			t.Errorf("a burst used at a delay of %v, then one at %v, %v later: refused", tc.from, tc.to, tc.to)
		}
	}
}

// TestDelayChangedSince: a delay lowered by an edit holds a crawler to
// the new delay from when the edit came into force, not from its first
// request after it; raised, the burst it used stays used. Steps are in
// order on one crawler's schedule; charge is a request another instance
// admitted, counted here.
func TestDelayChangedSince(t *testing.T) {
	t0 := time.Unix(1_700_000_000, 0)
	type step struct {
		at     time.Duration // after t0
		charge bool
		delay  time.Duration
		since  time.Duration // when delay came into force, after t0
		ok     bool
		retry  time.Duration
	}
	burst := func(at, delay time.Duration) []step {
		s := make([]step, Burst)
		for i := range s {
			s[i] = step{at: at, delay: delay, ok: true}
		}
		return s
	}
	for _, tc := range []struct {
		name  string
		steps []step
	}{
		// The audit's case: 30 s, lowered to 1 s at 1 s, when the
		// burst is 3 requests ahead, worked off at 1 s by 4 s: at 8 s
		// another burst is allowed, not a 429 for what 7 s at 30 s
		// leave owed.
		{"lowered, then idle", append(burst(0, 30*time.Second),
			step{at: 8 * time.Second, delay: time.Second, since: time.Second, ok: true},
			step{at: 8 * time.Second, delay: time.Second, since: time.Second, ok: true},
			step{at: 8 * time.Second, delay: time.Second, since: time.Second, ok: true},
			step{at: 8 * time.Second, delay: time.Second, since: time.Second, retry: time.Second},
		)},
		// At 10 s the burst at 40 s is 2.75 requests ahead: 2.75 s at
		// 1 s, of which half a second has passed.
		{"lowered just now", append(burst(0, 40*time.Second),
			step{at: 10500 * time.Millisecond, delay: time.Second, since: 10 * time.Second, retry: 250 * time.Millisecond},
		)},
		// 2.75 requests ahead at 10 s, 27.5 s at 10 s: at 12 s 25.5 s
		// ahead, 5.5 s over the burst's slack (20 s).
		{"lowered while a request is owed", append(burst(0, 40*time.Second),
			step{at: 12 * time.Second, delay: 10 * time.Second, since: 10 * time.Second, retry: 5500 * time.Millisecond},
			step{at: 17500 * time.Millisecond, delay: 10 * time.Second, since: 10 * time.Second, ok: true},
			step{at: 17500 * time.Millisecond, delay: 10 * time.Second, since: 10 * time.Second, retry: 10 * time.Second},
		)},
		// Converted when the crawler next asks: 2.5 requests ahead at
		// 0.5 s are 150 s at a minute.
		{"raised", append(burst(0, time.Second),
			step{at: 500 * time.Millisecond, delay: time.Minute, since: 250 * time.Millisecond, retry: 30 * time.Second},
			step{at: 30500 * time.Millisecond, delay: time.Minute, since: 250 * time.Millisecond, ok: true},
		)},
		// A request another instance admitted after the edit, charged
		// at the old delay, weighs a request at the new one.
		{"lowered, then charged", append(burst(0, 30*time.Second),
			step{at: 5 * time.Second, charge: true},
			step{at: 8 * time.Second, delay: time.Second, since: time.Second, ok: true},
			step{at: 8 * time.Second, delay: time.Second, since: time.Second, ok: true},
			step{at: 8 * time.Second, delay: time.Second, since: time.Second, ok: true},
			step{at: 8 * time.Second, delay: time.Second, since: time.Second, retry: time.Second},
		)},
		// A trapped bot held to a delay of its own (32 s) shares its
		// group's schedule (1 s, in force since 0): what it used after
		// 0 was at 32 s until the next request, not at 1 s.
		{"shared with a longer delay", append(burst(time.Second, 32*time.Second),
			step{at: 3 * time.Second, delay: time.Second, retry: 937500 * time.Microsecond},
		)},
	} {
		l := New(10)
		for i, s := range tc.steps {
			if s.charge {
				l.Charge(1, "Bingbot", 1, t0.Add(s.at), t0.Add(s.at))
				continue
			}
			ok, retry := l.Named(1, "Bingbot", s.delay, t0.Add(s.since), t0.Add(s.at))
			if ok != s.ok || retry != s.retry {
				t.Errorf("%s, step %d (at %v, delay %v since %v): admitted %v, retry after %v; want %v, %v",
					tc.name, i, s.at, s.delay, s.since, ok, retry, s.ok, s.retry)
			}
		}
	}
}
