package verify

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"net"
	"net/netip"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/miekg/dns"
)

var googleSuffixes = []string{"googlebot.com", "google.com"}

func newTestChecker(t testing.TB, d *testDNS, opts RDNSOptions) *RDNSChecker {
	opts.Servers = []string{d.addr}
	r := NewRDNSChecker(opts)
	t.Cleanup(r.Close)
	return r
}

func TestRDNSCheck(t *testing.T) {
	d := startDNS(t)
	d.host("127.0.0.2", "crawl-127-0-0-2.googlebot.com", "127.0.0.2")
	d.host("127.0.0.3", "crawl-127-0-0-3.googlebot.com", "127.0.0.99") // spoof: PTR lies
	d.host("127.0.0.4", "crawl.evilgooglebot.com", "127.0.0.4")        // lookalike suffix
	d.host("127.0.0.8", "CRAWL-127-0-0-8.GoogleBot.COM", "127.0.0.8")  // case
	d.host("127.0.0.9", "rate-limited-proxy-127-0-0-9.google.com", "127.0.0.10", "127.0.0.9")
	d.host("127.0.0.11", "googlebot.com.attacker.example", "127.0.0.11")
	d.host("2001:db8::5", "crawl-2001-db8--5.googlebot.com", "2001:db8::5")
	d.host("2001:db8::6", "crawl-2001-db8--6.googlebot.com", "127.0.0.6") // A, not AAAA
	d.servfail("127.0.0.12")
	r := newTestChecker(t, d, RDNSOptions{Wait: 2 * time.Second})

	tests := []struct {
		name string
		addr string
		want Status
	}{
		{"genuine", "127.0.0.2", StatusConfirmed},
		{"ptr spoof", "127.0.0.3", StatusRefuted},
		{"lookalike suffix", "127.0.0.4", StatusRefuted},
		{"no ptr", "127.0.0.5", StatusRefuted},
		{"case and trailing dot", "127.0.0.8", StatusConfirmed},
		{"one of several addresses", "127.0.0.9", StatusConfirmed},
		{"suffix in the middle", "127.0.0.11", StatusRefuted},
		{"servfail", "127.0.0.12", StatusUnknown},
		{"ipv6", "2001:db8::5", StatusConfirmed},
		{"ipv6 name with only an A record", "2001:db8::6", StatusRefuted},
		{"ipv4-mapped", "::ffff:127.0.0.2", StatusConfirmed},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := r.Check(context.Background(), netip.MustParseAddr(tt.addr), googleSuffixes)
			if got != tt.want {
				t.Errorf("Check(%s) = %v, want %v", tt.addr, got, tt.want)
			}
		})
	}
	// The spoofed PTR name was looked up forward exactly once: its A record
	// is what exposes it.
	if n := d.count("A", "crawl-127-0-0-3.googlebot.com"); n != 1 {
		t.Errorf("spoofed name resolved forward %d times, want 1", n)
	}
}

func TestRDNSSuffixesLimitForwardQueries(t *testing.T) {
	d := startDNS(t)
	d.host("127.0.0.4", "crawl.evilgooglebot.com", "127.0.0.4")
	r := newTestChecker(t, d, RDNSOptions{Wait: 2 * time.Second, Suffixes: googleSuffixes})
	if got := r.Check(context.Background(), netip.MustParseAddr("127.0.0.4"), googleSuffixes); got != StatusRefuted {
		t.Fatalf("got %v", got)
	}
	if n := d.total("A"); n != 0 {
		t.Errorf("%d forward queries for a PTR under no wanted suffix", n)
	}
}

func TestRDNSCache(t *testing.T) {
	d := startDNS(t)
	d.host("127.0.0.2", "crawl-127-0-0-2.googlebot.com", "127.0.0.2")
	r := newTestChecker(t, d, RDNSOptions{Wait: 2 * time.Second})
	addr := netip.MustParseAddr("127.0.0.2")
	other := netip.MustParseAddr("127.0.0.5") // NXDOMAIN, cached negative
	for range 10 {
		if got := r.Check(context.Background(), addr, googleSuffixes); got != StatusConfirmed {
			t.Fatalf("got %v", got)
		}
		if got := r.Check(context.Background(), other, googleSuffixes); got != StatusRefuted {
			t.Fatalf("got %v", got)
		}
	}
	if n := d.count("PTR", "127.0.0.2"); n != 1 {
		t.Errorf("%d PTR queries for a cached positive, want 1", n)
	}
	if n := d.count("PTR", "127.0.0.5"); n != 1 {
		t.Errorf("%d PTR queries for a cached negative, want 1", n)
	}
	// The cache answers for other suffixes too, without asking again.
	if got := r.Check(context.Background(), addr, []string{"search.msn.com"}); got != StatusRefuted {
		t.Errorf("googlebot name confirmed for bingbot: %v", got)
	}
	if n := d.count("PTR", "127.0.0.2"); n != 1 {
		t.Errorf("%d PTR queries after a second suffix set", n)
	}
}

func TestRDNSCacheExpires(t *testing.T) {
	d := startDNS(t)
	d.host("127.0.0.2", "crawl-127-0-0-2.googlebot.com", "127.0.0.2")
	r := newTestChecker(t, d, RDNSOptions{Wait: 2 * time.Second, TTL: 50 * time.Millisecond})
	addr := netip.MustParseAddr("127.0.0.2")
	r.Check(context.Background(), addr, googleSuffixes)
	time.Sleep(50*time.Millisecond + 2*clockTick)
	// Past the TTL the confirmation answers while it is checked again.
	if got := r.Check(context.Background(), addr, googleSuffixes); got != StatusConfirmed {
		t.Errorf("after the TTL: %v, want the confirmation while it is checked again", got)
	}
	for deadline := time.Now().Add(2 * time.Second); d.count("PTR", "127.0.0.2") != 2; time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("%d PTR queries, want 2 after the TTL", d.count("PTR", "127.0.0.2"))
		}
	}
}

// TestRDNSStaleConfirmation: past its TTL a confirmation answers while it
// is checked again, and a check that fails for want of DNS keeps it, for
// up to Stale; an answer that refutes it ends it at once.
func TestRDNSStaleConfirmation(t *testing.T) {
	for _, tc := range []struct {
		name  string
		then  func(d *testDNS)
		stale time.Duration
		want  Status // once the re-check is done
	}{
		{"DNS fails", func(d *testDNS) { d.servfail("127.0.0.2") }, time.Hour, StatusConfirmed},
		{"the name is gone", func(d *testDNS) {
			rev, _ := dns.ReverseAddr("127.0.0.2")
			d.mu.Lock()
			d.ptr[rev] = []string{"host.example.net"}
			d.mu.Unlock()
		}, time.Hour, StatusRefuted},
		{"DNS fails past Stale", func(d *testDNS) { d.servfail("127.0.0.2") }, time.Nanosecond, StatusUnknown},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := startDNS(t)
			d.host("127.0.0.2", "crawl-127-0-0-2.googlebot.com", "127.0.0.2")
			r := newTestChecker(t, d, RDNSOptions{Wait: 2 * time.Second, TTL: 50 * time.Millisecond, Stale: tc.stale, ErrorTTL: time.Hour})
			addr := netip.MustParseAddr("127.0.0.2")
			if got := r.Check(context.Background(), addr, googleSuffixes); got != StatusConfirmed {
				t.Fatalf("first check: %v", got)
			}
			tc.then(d)
			time.Sleep(50*time.Millisecond + 2*clockTick)
			r.Check(context.Background(), addr, googleSuffixes) // starts the re-check, if stale
			var got Status
			for deadline := time.Now().Add(3 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
				// Asked of the cache once the re-check is over: while it
				// is in flight the stale confirmation answers, whatever
				// the re-check will make of it.
				r.mu.Lock()
				busy := len(r.inflight) > 0
				r.mu.Unlock()
				if busy || d.count("PTR", "127.0.0.2") < 2 {
					continue
				}
				if got = r.Check(context.Background(), addr, googleSuffixes); got == tc.want {
					break
				}
			}
			if got != tc.want {
				t.Errorf("after the re-check: %v, want %v", got, tc.want)
			}
		})
	}
}

func TestRDNSBoundedWait(t *testing.T) {
	d := startDNS(t)
	d.host("127.0.0.6", "crawl-127-0-0-6.googlebot.com", "127.0.0.6")
	d.slow("127.0.0.6", 1500*time.Millisecond)
	r := newTestChecker(t, d, RDNSOptions{Wait: 50 * time.Millisecond})
	addr := netip.MustParseAddr("127.0.0.6")
	// A Check that waited for the slow answer would know it: unknown is
	// what only the 50 ms bound gives.
	if got := r.Check(context.Background(), addr, googleSuffixes); got != StatusUnknown {
		t.Fatalf("slow lookup: got %v, want unknown", got)
	}
	// The lookup finishes in the background and fills the cache.
	deadline := time.Now().Add(30 * time.Second)
	for {
		if _, ok := r.cache.get(addr); ok {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("background lookup never filled the cache")
		}
		time.Sleep(20 * time.Millisecond)
	}
	if got := r.Check(context.Background(), addr, googleSuffixes); got != StatusConfirmed {
		t.Errorf("after the background lookup: got %v", got)
	}
	if n := d.count("PTR", "127.0.0.6"); n != 1 {
		t.Errorf("%d PTR queries, want 1", n)
	}
}

func TestRDNSContextCancel(t *testing.T) {
	d := startDNS(t)
	d.host("127.0.0.6", "crawl-127-0-0-6.googlebot.com", "127.0.0.6")
	d.slow("127.0.0.6", 300*time.Millisecond)
	r := newTestChecker(t, d, RDNSOptions{Wait: 5 * time.Second})
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Millisecond)
	defer cancel()
	if got := r.Check(ctx, netip.MustParseAddr("127.0.0.6"), googleSuffixes); got != StatusUnknown {
		t.Errorf("got %v after the request's context ended", got)
	}
}

func TestRDNSDeduplicates(t *testing.T) {
	d := startDNS(t)
	d.host("127.0.0.7", "crawl-127-0-0-7.googlebot.com", "127.0.0.7")
	d.slow("127.0.0.7", 200*time.Millisecond)
	r := newTestChecker(t, d, RDNSOptions{Wait: 2 * time.Second})
	addr := netip.MustParseAddr("127.0.0.7")
	var wg sync.WaitGroup
	results := make([]Status, 50)
	for i := range results {
		wg.Go(func() { results[i] = r.Check(context.Background(), addr, googleSuffixes) })
	}
	wg.Wait()
	for i, s := range results {
		if s != StatusConfirmed {
			t.Errorf("check %d: %v", i, s)
		}
	}
	if n := d.count("PTR", "127.0.0.7"); n != 1 {
		t.Errorf("%d PTR queries for 50 concurrent checks, want 1", n)
	}
	if n := d.count("A", "crawl-127-0-0-7.googlebot.com"); n != 1 {
		t.Errorf("%d A queries for 50 concurrent checks, want 1", n)
	}
}

// TestRDNSFlood claims Googlebot from many addresses: the rate limit bounds
// the queries sent, and the cache bounds the memory kept.
func TestRDNSFlood(t *testing.T) {
	d := startDNS(t)
	r := newTestChecker(t, d, RDNSOptions{Wait: time.Second, Rate: 1, Burst: 5, CacheSize: 3})
	unknown := 0
	for i := range 200 {
		addr := netip.AddrFrom4([4]byte{127, 0, byte(2 + i/250), byte(i%250 + 1)})
		if r.Check(context.Background(), addr, googleSuffixes) == StatusUnknown {
			unknown++
		}
	}
	if n := d.total("PTR"); n > 6 {
		t.Errorf("%d PTR queries for 200 addresses with burst 5", n)
	}
	lookups, refused := r.Stats()
	if lookups > 6 || refused < 194 {
		t.Errorf("lookups %d, refused %d", lookups, refused)
	}
	if unknown < 194 {
		t.Errorf("%d unknown answers, want the refused ones", unknown)
	}
	if n := r.cache.len(); n > 3 {
		t.Errorf("cache holds %d entries, bound 3", n)
	}
}

func TestRDNSMaxPending(t *testing.T) {
	d := startDNS(t)
	for i := 1; i <= 5; i++ {
		d.slow(fmt.Sprintf("127.0.4.%d", i), 300*time.Millisecond)
	}
	r := newTestChecker(t, d, RDNSOptions{Wait: 10 * time.Millisecond, MaxPending: 2})
	for i := 1; i <= 5; i++ {
		r.Check(context.Background(), netip.MustParseAddr(fmt.Sprintf("127.0.4.%d", i)), googleSuffixes)
	}
	if lookups, refused := r.Stats(); lookups != 2 || refused != 3 {
		t.Errorf("lookups %d, refused %d; want 2 and 3 with MaxPending 2", lookups, refused)
	}
}

func TestUnderSuffix(t *testing.T) {
	tests := []struct {
		name, suffix string
		want         bool
	}{
		{"crawl-1.googlebot.com", "googlebot.com", true},
		{"googlebot.com", "googlebot.com", true},
		{"crawl-1.googlebot.com", "googlebot.com.", true},
		{"crawl-1.googlebot.com", "GoogleBot.com", true},
		{"evilgooglebot.com", "googlebot.com", false},
		{"googlebot.com.evil.net", "googlebot.com", false},
		{"com", "googlebot.com", false},
		{"crawl-1.googlebot.com", "", false},
	}
	for _, tt := range tests {
		if got := underSuffix(tt.name, tt.suffix); got != tt.want {
			t.Errorf("underSuffix(%q, %q) = %v", tt.name, tt.suffix, got)
		}
	}
}

func BenchmarkRDNSCached(b *testing.B) {
	d := startDNS(b)
	d.host("127.0.0.2", "crawl-127-0-0-2.googlebot.com", "127.0.0.2")
	r := newTestChecker(b, d, RDNSOptions{Wait: 2 * time.Second})
	addr := netip.MustParseAddr("127.0.0.2")
	ctx := context.Background()
	if r.Check(ctx, addr, googleSuffixes) != StatusConfirmed {
		b.Fatal("not confirmed")
	}
	b.ReportAllocs()
	for b.Loop() {
		r.Check(ctx, addr, googleSuffixes)
	}
}

func TestAddrCacheEvictsUnused(t *testing.T) {
	c := newAddrCache(3)
	a := func(i byte) netip.Addr { return netip.AddrFrom4([4]byte{192, 0, 2, i}) }
	for i := byte(1); i <= 3; i++ {
		c.add(a(i), &rdnsEntry{})
	}
	c.get(a(1)) // used: spared by the next eviction
	c.add(a(4), &rdnsEntry{})
	if _, ok := c.get(a(1)); !ok {
		t.Error("recently used entry evicted")
	}
	if _, ok := c.get(a(2)); ok {
		t.Error("least recently used entry kept")
	}
	for i := byte(5); i < 100; i++ {
		c.add(a(i), &rdnsEntry{})
	}
	if c.len() != 3 {
		t.Errorf("len %d, bound 3", c.len())
	}
	e := &rdnsEntry{names: []string{"x"}}
	c.add(a(99), e)
	if got, _ := c.get(a(99)); got != e || c.len() != 3 {
		t.Error("replacing an entry failed")
	}
}

// TestRDNSCheckerCollected: a checker nobody closes does not leave its
// clock ticking forever.
func TestRDNSCheckerCollected(t *testing.T) {
	r := NewRDNSChecker(RDNSOptions{Resolver: net.DefaultResolver})
	stop := r.clock.stop
	r = nil
	deadline := time.Now().Add(5 * time.Second)
	for {
		runtime.GC()
		select {
		case <-stop:
			return
		case <-time.After(10 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			t.Fatal("clock of an unreachable checker still running")
		}
	}
}

// TestNewResolverSkipsDeadServer: with a dead server listed first, the
// rotation sends the retry to the live one, and the log names the dead.
func TestNewResolverSkipsDeadServer(t *testing.T) {
	d := startDNS(t)
	d.host("127.0.0.2", "crawl-127-0-0-2.googlebot.com", "127.0.0.2")
	dead, err := net.ListenPacket("udp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	deadAddr := dead.LocalAddr().String()
	dead.Close()
	logger, logs := captureLog()
	r := NewRDNSChecker(RDNSOptions{Servers: []string{deadAddr, d.addr}, Wait: 10 * time.Second, Logger: logger})
	defer r.Close()
	if got := r.Check(context.Background(), netip.MustParseAddr("127.0.0.2"), googleSuffixes); got != StatusConfirmed {
		t.Errorf("got %v with one dead server of two", got)
	}
	// Nothing listens there: the operator hears of it, once.
	if out := logs.String(); strings.Count(out, "cannot be reached") != 1 || !strings.Contains(out, deadAddr) {
		t.Errorf("want one warning naming %s, got:\n%s", deadAddr, out)
	}
}

// TestNewResolverSkipsSilentServer: a listed server that takes queries
// and never answers (down behind a firewall that drops packets) costs a
// try of each lookup, not the lookup: every crawler would else be an
// impostor, though another server answers. Once it has let a try time
// out, it is passed over.
func TestNewResolverSkipsSilentServer(t *testing.T) {
	d := startDNS(t)
	for _, a := range []string{"127.0.0.2", "127.0.0.3", "127.0.0.4"} {
		d.host(a, "crawl-"+strings.ReplaceAll(a, ".", "-")+".googlebot.com", a)
	}
	silent, err := net.ListenPacket("udp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { silent.Close() })
	var asked atomic.Int32 // queries the silent server got
	go func() {
		buf := make([]byte, 512)
		for {
			if _, _, err := silent.ReadFrom(buf); err != nil {
				return
			}
			asked.Add(1)
		}
	}()
	for _, servers := range [][]string{{silent.LocalAddr().String(), d.addr}, {d.addr, silent.LocalAddr().String()}} {
		asked.Store(0)
		logger, logs := captureLog()
		r := NewRDNSChecker(RDNSOptions{Servers: servers, Wait: 10 * time.Second, Logger: logger})
		for _, a := range []string{"127.0.0.2", "127.0.0.3", "127.0.0.4"} {
			if got := r.Check(context.Background(), netip.MustParseAddr(a), googleSuffixes); got != StatusConfirmed {
				t.Errorf("servers %v: %s %v, want confirmed", servers, a, got)
			}
		}
		// Each lookup asks a PTR, an A and an AAAA question: nine in
		// all. Once it let a try time out, the silent one gets none.
		if n := asked.Load(); n > 2 {
			t.Errorf("servers %v: the silent server was asked %d times; once down, it is passed over", servers, n)
		}
		// A try that times out says nothing: a client's own reverse
		// zone can make any server slow to answer.
		if out := logs.String(); out != "" {
			t.Errorf("servers %v: a silent server logged:\n%s", servers, out)
		}
		r.Close()
	}
}

// TestRDNSFailuresAreLogged: a resolver that does not answer confirms no
// crawler, which the handler then calls an impostor; the log must say the
// resolver is at fault, once a minute at most, and say when it answers
// again.
func TestRDNSFailuresAreLogged(t *testing.T) {
	d := startDNS(t)
	d.host("127.0.0.2", "crawl-127-0-0-2.googlebot.com", "127.0.0.2")
	logger, logs := captureLog()
	res := &switchResolver{r: NewResolver([]string{deadServer(t)})}
	r := NewRDNSChecker(RDNSOptions{Resolver: res, Wait: 10 * time.Second, ErrorTTL: time.Nanosecond, Logger: logger})
	defer r.Close()
	// Three networks: a resolver that is down fails for every one.
	for i := range 3 {
		addr := netip.AddrFrom4([4]byte{127, byte(10 + i), 0, 1})
		if got := r.Check(context.Background(), addr, googleSuffixes); got != StatusUnknown {
			t.Fatalf("%v with a dead resolver: got %v, want unknown", addr, got)
		}
	}
	res.set(NewResolver([]string{d.addr}))
	if got := r.Check(context.Background(), netip.MustParseAddr("127.0.0.2"), googleSuffixes); got != StatusConfirmed {
		t.Fatalf("with the resolver back: got %v", got)
	}
	out := logs.String()
	if n := strings.Count(out, "reverse DNS lookups fail"); n != 1 {
		t.Errorf("%d warnings for 3 failures within a minute, want 1:\n%s", n, out)
	}
	if !strings.Contains(out, "level=WARN") || !strings.Contains(out, "check the resolvers") {
		t.Errorf("the warning does not point at the resolvers:\n%s", out)
	}
	if n := strings.Count(out, "reverse DNS lookups succeed again"); n != 1 {
		t.Errorf("recovery logged %d times, want once:\n%s", n, out)
	}
}

// TestRDNSZoneFailuresAreNoResolverFailure: a SERVFAIL, or an answer no
// parser reads, is one reverse zone's (a client's own, which it controls), not the resolver's: it
// warns of nothing, and no recovery is logged for the lookups that
// succeed between them.
func TestRDNSZoneFailuresAreNoResolverFailure(t *testing.T) {
	d := startDNS(t)
	d.host("127.0.0.2", "crawl-127-0-0-2.googlebot.com", "127.0.0.2")
	logger, logs := captureLog()
	r := NewRDNSChecker(RDNSOptions{Servers: []string{d.addr}, Wait: 10 * time.Second, ErrorTTL: time.Nanosecond, TTL: time.Nanosecond, Logger: logger})
	defer r.Close()
	for i := range 5 {
		addr := netip.AddrFrom4([4]byte{127, 0, 1, byte(i + 1)})
		d.servfail(addr.String())
		if got := r.Check(context.Background(), addr, googleSuffixes); got != StatusUnknown {
			t.Fatalf("%v answered SERVFAIL: got %v, want unknown", addr, got)
		}
		r.Check(context.Background(), netip.MustParseAddr("127.0.0.2"), googleSuffixes)
	}
	// A name no parser reads (a label with a dot in it, which a
	// client's reverse zone may well publish) is the zone's too.
	for i := range 5 {
		addr := netip.AddrFrom4([4]byte{127, 0, 2, byte(i + 1)})
		d.host(addr.String(), `evil\.googlebot.com`)
		if got := r.Check(context.Background(), addr, googleSuffixes); got == StatusConfirmed {
			t.Fatalf("%v named evil\\.googlebot.com: confirmed", addr)
		}
		r.Check(context.Background(), netip.MustParseAddr("127.0.0.2"), googleSuffixes)
	}
	if out := logs.String(); out != "" {
		t.Errorf("SERVFAILs or unreadable answers logged:\n%s", out)
	}
}

// TestRDNSNoAddress: a request with no client address (one that came in
// on a unix socket, whose remote address is "@") has nothing to look up.
// It is unconfirmed, and neither queries the resolver, nor spends the rate
// limit, nor makes the log blame the resolvers for "unrecognized address".
func TestRDNSNoAddress(t *testing.T) {
	d := startDNS(t)
	logger, logs := captureLog()
	r := NewRDNSChecker(RDNSOptions{Servers: []string{d.addr}, Wait: 10 * time.Second, Logger: logger})
	defer r.Close()
	for range 3 {
		if got := r.Check(context.Background(), netip.Addr{}, googleSuffixes); got != StatusUnknown {
			t.Fatalf("no address: got %v, want unknown", got)
		}
	}
	if lookups, refused := r.Stats(); lookups != 0 || refused != 0 {
		t.Errorf("no address: %d lookups, %d refused; want none", lookups, refused)
	}
	if out := logs.String(); out != "" {
		t.Errorf("no address logged:\n%s", out)
	}
}

// TestRDNSSlowZoneIsNoResolverFailure: a reverse zone that answers too
// late is its owner's to make so (any client can point its own at a slow
// server), not the resolver's: timeouts in one network warn of nothing,
// as SERVFAILs do not, until several networks time out with no lookup
// answered in between.
func TestRDNSSlowZoneIsNoResolverFailure(t *testing.T) {
	d := startDNS(t)
	logger, logs := captureLog()
	r := NewRDNSChecker(RDNSOptions{Servers: []string{d.addr}, Wait: 10 * time.Second, LookupTimeout: 100 * time.Millisecond,
		ErrorTTL: time.Nanosecond, Logger: logger})
	defer r.Close()
	for i := range 4 {
		addr := netip.AddrFrom4([4]byte{127, 0, 5, byte(i + 1)})
		d.slow(addr.String(), time.Second)
		if got := r.Check(context.Background(), addr, googleSuffixes); got != StatusUnknown {
			t.Fatalf("%v answered too late: got %v, want unknown", addr, got)
		}
	}
	if out := logs.String(); out != "" {
		t.Errorf("one slow zone's timeouts logged:\n%s", out)
	}
	for i := range zoneFailuresSpread {
		addr := netip.AddrFrom4([4]byte{127, byte(20 + i), 0, 1})
		d.slow(addr.String(), time.Second)
		r.Check(context.Background(), addr, googleSuffixes)
	}
	if out := logs.String(); strings.Count(out, "check the resolvers") != 1 {
		t.Errorf("want 1 warning after %d networks timed out with no lookup answered:\n%s", zoneFailuresSpread, out)
	}
}

// deadServer is the address of a UDP port nobody listens on.
func deadServer(t *testing.T) string {
	t.Helper()
	c, err := net.ListenPacket("udp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := c.LocalAddr().String()
	c.Close()
	return addr
}

// switchResolver is a Resolver whose server can be changed mid-test.
type switchResolver struct {
	mu sync.Mutex
	r  Resolver
}

func (s *switchResolver) set(r Resolver) { s.mu.Lock(); s.r = r; s.mu.Unlock() }
func (s *switchResolver) get() Resolver  { s.mu.Lock(); defer s.mu.Unlock(); return s.r }
func (s *switchResolver) LookupAddr(ctx context.Context, addr string) ([]string, error) {
	return s.get().LookupAddr(ctx, addr)
}
func (s *switchResolver) LookupNetIP(ctx context.Context, network, host string) ([]netip.Addr, error) {
	return s.get().LookupNetIP(ctx, network, host)
}

// logCapture holds what a logger wrote, for a test to read while
// lookups may still be writing.
type logCapture struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (l *logCapture) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.Write(p)
}

func (l *logCapture) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.String()
}

// captureLog is a logger that writes text to the capture it returns.
func captureLog() (*slog.Logger, *logCapture) {
	c := new(logCapture)
	return slog.New(slog.NewTextHandler(c, nil)), c
}

// TestRDNSResolverServfailsEverything: a resolver that answers SERVFAIL
// or REFUSED to every question (its upstream down, recursion refused)
// fails in package net's words as one zone does; once several networks
// fail so with no lookup answered in between, the resolver is at fault,
// and the log says so.
func TestRDNSResolverServfailsEverything(t *testing.T) {
	d := startDNS(t)
	logger, logs := captureLog()
	r := NewRDNSChecker(RDNSOptions{Servers: []string{d.addr}, Wait: 10 * time.Second, ErrorTTL: time.Nanosecond, Logger: logger})
	defer r.Close()
	for i := range zoneFailuresSpread {
		addr := netip.AddrFrom4([4]byte{127, byte(10 + i), 0, 1})
		d.servfail(addr.String())
		r.Check(context.Background(), addr, googleSuffixes)
	}
	if out := logs.String(); strings.Count(out, "check the resolvers") != 1 {
		t.Errorf("want 1 warning after %d networks failed with no lookup answered:\n%s", zoneFailuresSpread, out)
	}
}

// recordingResolver answers every PTR with one name and records the
// names asked forward.
type recordingResolver struct {
	mu      sync.Mutex
	forward []string
}

func (f *recordingResolver) LookupAddr(context.Context, string) ([]string, error) {
	return []string{"crawl-192-0-2-1.googlebot.com."}, nil
}

func (f *recordingResolver) LookupNetIP(_ context.Context, _, host string) ([]netip.Addr, error) {
	f.mu.Lock()
	f.forward = append(f.forward, host)
	f.mu.Unlock()
	return []netip.Addr{netip.MustParseAddr("192.0.2.1")}, nil
}

// TestRDNSForwardNameIsAbsolute: the forward query names the PTR name
// with its final dot, so a resolver does not try it under the search
// domains of resolv.conf first ("crawl-….googlebot.com.corp.example").
func TestRDNSForwardNameIsAbsolute(t *testing.T) {
	res := &recordingResolver{}
	r := NewRDNSChecker(RDNSOptions{Resolver: res, Wait: 2 * time.Second})
	t.Cleanup(r.Close)
	if got := r.Check(context.Background(), netip.MustParseAddr("192.0.2.1"), googleSuffixes); got != StatusConfirmed {
		t.Fatalf("got %v", got)
	}
	res.mu.Lock()
	defer res.mu.Unlock()
	if len(res.forward) != 1 || res.forward[0] != "crawl-192-0-2-1.googlebot.com." {
		t.Errorf("forward queries %q, want the absolute name", res.forward)
	}
}
