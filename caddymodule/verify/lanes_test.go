package verify

import (
	"context"
	"fmt"
	"net/netip"
	"strings"
	"testing"
	"time"
)

// TestRDNSLanes floods the checker with claims and checks that a crawler's
// own requests are still confirmed: a flood from one network may use only
// its share of the budget, and a network where a crawler has confirmed has
// a budget of its own.
func TestRDNSLanes(t *testing.T) {
	opts := RDNSOptions{Wait: time.Second, Rate: 0.001, Burst: 8, NetRate: 0.001, NetBurst: 2, Suffixes: googleSuffixes}
	tests := []struct {
		name string
		// seen and also are crawlers' addresses confirmed before the
		// flood.
		seen, also string
		// flood returns the i-th address of the flood.
		flood func(i int) string
		// crawler is a crawler's address that asks during the flood.
		crawler string
		want    Status
	}{
		{
			name:    "one IPv6 host rotating its addresses leaves the rest to others",
			flood:   func(i int) string { return fmt.Sprintf("2001:db8:1:%x::%x", i%3, i+1) },
			crawler: "2001:db8:2::5",
			want:    StatusConfirmed,
		},
		{
			name:    "one IPv4 network leaves the rest to others",
			flood:   func(i int) string { return fmt.Sprintf("127.0.1.%d", i+1) },
			crawler: "127.0.2.5",
			want:    StatusConfirmed,
		},
		{
			name:    "a crawler's network keeps a budget against a flood from many networks",
			seen:    "127.0.3.1",
			flood:   func(i int) string { return fmt.Sprintf("127.1.%d.1", i+1) },
			crawler: "127.0.3.2",
			want:    StatusConfirmed,
		},
		{
			// Tenants of a cloud /24 a crawler also uses: their flood
			// spends their network's share, not the crawler lane of
			// every other crawler's network.
			name:    "a flood from one crawler's network leaves the other crawlers' networks their lane",
			seen:    "127.0.3.1",
			also:    "127.0.6.1",
			flood:   func(i int) string { return fmt.Sprintf("127.0.3.%d", i+10) },
			crawler: "127.0.6.2",
			want:    StatusConfirmed,
		},
		{
			// The limit of the scheme: a crawler in a network never
			// seen competes with the flood for the global budget.
			name:    "a crawler in a network not seen before waits out a flood from many networks",
			flood:   func(i int) string { return fmt.Sprintf("127.1.%d.1", i+1) },
			crawler: "127.0.4.2",
			want:    StatusUnknown,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := startDNS(t)
			for _, a := range []string{tt.seen, tt.also, tt.crawler} {
				if a != "" {
					d.host(a, "crawl-x.googlebot.com", a)
				}
			}
			r := newTestChecker(t, d, opts)
			ctx := context.Background()
			for _, a := range []string{tt.seen, tt.also} {
				if a == "" {
					continue
				}
				if got := r.Check(ctx, netip.MustParseAddr(a), googleSuffixes); got != StatusConfirmed {
					t.Fatalf("Check(%s) before the flood = %v, want confirmed", a, got)
				}
			}
			for i := range 100 {
				r.Check(ctx, netip.MustParseAddr(tt.flood(i)), googleSuffixes)
			}
			if _, refused := r.Stats(); refused == 0 {
				t.Fatal("the flood was not refused any lookup; the test measures nothing")
			}
			if got := r.Check(ctx, netip.MustParseAddr(tt.crawler), googleSuffixes); got != tt.want {
				t.Errorf("Check(%s) during the flood = %v, want %v", tt.crawler, got, tt.want)
			}
		})
	}
}

// TestRDNSLanesPending fills the lookups in progress with slow ones from
// elsewhere: a crawler's network still has room to start its own.
func TestRDNSLanesPending(t *testing.T) {
	d := startDNS(t)
	d.host("127.0.5.1", "crawl-x.googlebot.com", "127.0.5.1")
	d.host("127.0.5.2", "crawl-y.googlebot.com", "127.0.5.2")
	for i := 1; i <= 4; i++ {
		d.slow(fmt.Sprintf("127.2.%d.1", i), 2*time.Second)
	}
	r := newTestChecker(t, d, RDNSOptions{Wait: time.Second, MaxPending: 4, Suffixes: googleSuffixes})
	ctx := context.Background()
	if got := r.Check(ctx, netip.MustParseAddr("127.0.5.1"), googleSuffixes); got != StatusConfirmed {
		t.Fatalf("Check(127.0.5.1) = %v, want confirmed", got)
	}
	short, cancel := context.WithTimeout(ctx, 10*time.Millisecond)
	defer cancel()
	for i := 1; i <= 4; i++ {
		r.Check(short, netip.MustParseAddr(fmt.Sprintf("127.2.%d.1", i)), googleSuffixes)
	}
	if got := r.Check(ctx, netip.MustParseAddr("127.2.9.1"), googleSuffixes); got != StatusUnknown {
		t.Fatalf("a fifth slow lookup from elsewhere = %v, want unknown (MaxPending 4)", got)
	}
	if got := r.Check(ctx, netip.MustParseAddr("127.0.5.2"), googleSuffixes); got != StatusConfirmed {
		t.Errorf("Check(127.0.5.2) with the lookups in progress full = %v, want confirmed", got)
	}
}

// BenchmarkRDNSFloodRefused is the cost of a claim in a flood from a new
// address in a new network each time, once the budget is spent: the
// worst case for the lanes' memory (bounded by maxLaneNets) and time.
func BenchmarkRDNSFloodRefused(b *testing.B) {
	d := startDNS(b)
	r := newTestChecker(b, d, RDNSOptions{Rate: 0.001, Burst: 1, Suffixes: googleSuffixes})
	ctx := context.Background()
	r.Check(ctx, netip.MustParseAddr("127.0.0.1"), googleSuffixes)
	b.ReportAllocs()
	i := uint32(0)
	for b.Loop() {
		i++
		addr := netip.AddrFrom4([4]byte{10, byte(i >> 16), byte(i >> 8), byte(i)})
		if r.Check(ctx, addr, googleSuffixes) != StatusUnknown {
			b.Fatal("a lookup started over the budget")
		}
	}
}

// TestRDNSLanesCrawlerFleet: once an address of a network confirms as a
// crawler, a fleet of its new addresses at once is confirmed too, with the
// default options: a crawler's network has a larger share than a
// stranger's.
func TestRDNSLanesCrawlerFleet(t *testing.T) {
	d := startDNS(t)
	const fleet = 40
	for i := 1; i <= fleet+1; i++ {
		a := fmt.Sprintf("127.0.7.%d", i)
		d.host(a, fmt.Sprintf("crawl-%d.googlebot.com", i), a)
	}
	r := newTestChecker(t, d, RDNSOptions{Wait: time.Second, Suffixes: googleSuffixes})
	ctx := context.Background()
	if got := r.Check(ctx, netip.MustParseAddr("127.0.7.1"), googleSuffixes); got != StatusConfirmed {
		t.Fatalf("first address = %v, want confirmed", got)
	}
	confirmed := 0
	for i := 2; i <= fleet+1; i++ {
		if r.Check(ctx, netip.MustParseAddr(fmt.Sprintf("127.0.7.%d", i)), googleSuffixes) == StatusConfirmed {
			confirmed++
		}
	}
	if confirmed != fleet {
		t.Errorf("%d of %d new addresses of the crawler's network confirmed, want all", confirmed, fleet)
	}
}

// TestLanesSharedCrawlerLane drives the lanes with a clock of its own:
// the tenants of five crawlers' networks (a cloud's /24s or /48s that
// crawlers also use) claim crawlers from new addresses as fast as they
// may for 3 s, while strangers flood the global budget; a new address of
// a sixth crawler's network is still admitted. A network that confirms
// again after its entry expired has a crawler's burst again.
func TestLanesSharedCrawlerLane(t *testing.T) {
	opts := RDNSOptions{}
	opts.setDefaults()
	l := newLanes(opts)
	t0 := time.Unix(1_000_000, 0)
	later := t0.Add(24 * time.Hour).UnixNano()
	for n := 1; n <= 6; n++ {
		l.confirmed(netip.AddrFrom4([4]byte{10, byte(n), 0, 1}), later, t0)
	}
	host := 2
	var now time.Time
	for step := range 300 {
		now = t0.Add(time.Duration(step) * 10 * time.Millisecond)
		for n := 1; n <= 5; n++ {
			for range 10 {
				l.admit(netip.AddrFrom4([4]byte{10, byte(n), 0, byte(host)}), 0, now)
				host++
			}
		}
		for s := range 20 {
			l.admit(netip.AddrFrom4([4]byte{172, 16, byte(step), byte(s)}), 0, now)
		}
	}
	if !l.admit(netip.AddrFrom4([4]byte{10, 6, 0, 2}), 0, now) {
		t.Error("a sixth crawler's network was refused a lookup: five networks' tenants spent the crawler lane")
	}

	// Expired (and forgotten), then confirmed again: the crawler's burst
	// again.
	net := netip.AddrFrom4([4]byte{10, 9, 0, 1})
	l.confirmed(net, t0.Add(time.Hour).UnixNano(), t0)
	back := t0.Add(2*time.Hour + crawlerLaneMemory)
	for i := range 30 { // spend the stranger's share it has once expired
		l.admit(netip.AddrFrom4([4]byte{10, 9, 0, byte(10 + i)}), 0, back)
	}
	l.confirmed(net, back.Add(time.Hour).UnixNano(), back)
	admitted := 0
	for i := range 40 {
		if l.admit(netip.AddrFrom4([4]byte{10, 9, 0, byte(100 + i)}), 0, back.Add(time.Second)) {
			admitted++
		}
	}
	if admitted < 40 {
		t.Errorf("%d of 40 of a re-confirmed crawler network's fleet admitted, want 40", admitted)
	}
}

// TestLanesRecheckAfterExpiry: a crawler's confirmation expires with its
// cached answer, and its next request needs a lookup; under a flood that
// has spent the global budget, that re-check still takes its network's
// crawler lane.
func TestLanesRecheckAfterExpiry(t *testing.T) {
	opts := RDNSOptions{}
	opts.setDefaults()
	l := newLanes(opts)
	t0 := time.Unix(1_000_000, 0)
	crawler := netip.AddrFrom4([4]byte{10, 1, 0, 1})
	l.confirmed(crawler, t0.Add(opts.TTL).UnixNano(), t0)
	expired := t0.Add(opts.TTL + time.Second)
	for i := range 2000 { // a flood from many networks spends the global budget
		l.admit(netip.AddrFrom4([4]byte{172, byte(16 + i/250), byte(i), 1}), 0, expired)
	}
	if l.admit(netip.AddrFrom4([4]byte{172, 31, 0, 1}), 0, expired) {
		t.Fatal("the flood did not spend the global budget; the test proves nothing")
	}
	if !l.admit(crawler, 0, expired) {
		t.Error("the crawler's re-check once its confirmation expired was refused: its network is a stranger's to the flood")
	}
}

// TestRDNSRefusedAreLogged: a lookup the limits refuse leaves its claim
// an impostor's, unchecked; the log says so, once a minute at most, with
// how many were refused.
func TestRDNSRefusedAreLogged(t *testing.T) {
	d := startDNS(t)
	logger, logs := captureLog()
	r := newTestChecker(t, d, RDNSOptions{Rate: 0.001, Burst: 1, NetRate: 0.001, NetBurst: 1, Suffixes: googleSuffixes, Logger: logger})
	ctx := context.Background()
	for i := range 20 {
		r.Check(ctx, netip.AddrFrom4([4]byte{10, byte(i), 0, 1}), googleSuffixes)
	}
	out := logs.String()
	if n := strings.Count(out, "refused by the rate limit"); n != 1 {
		t.Fatalf("%d warnings of refused lookups, want 1:\n%s", n, out)
	}
	if !strings.Contains(out, "level=WARN") || !strings.Contains(out, "refused=1") {
		t.Errorf("the warning is not a WARN naming the refused lookups:\n%s", out)
	}
	if _, refused := r.Stats(); refused != 19 {
		t.Errorf("%d lookups refused, want 19", refused)
	}
}
