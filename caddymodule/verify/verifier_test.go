package verify

import (
	"context"
	"net/netip"
	"testing"
	"time"

	"github.com/robotsguard/caddy-robots-txt/caddymodule/crawlers"
)

// testVerifier verifies against the built-in knowledge base, with Googlebot's
// and GPTBot's lists served locally and reverse DNS from a local server.
func testVerifier(t testing.TB) (*Verifier, *crawlers.Base, *testDNS) {
	t.Helper()
	d := startDNS(t)
	d.host("127.0.0.2", "crawl-127-0-0-2.googlebot.com", "127.0.0.2")
	d.host("127.0.0.3", "crawl-127-0-0-3.googlebot.com", "127.0.0.99")
	d.host("127.0.0.4", "crawl.evilgooglebot.com", "127.0.0.4")
	d.host("127.0.0.6", "crawl-127-0-0-6.googlebot.com", "127.0.0.6")
	d.slow("127.0.0.6", time.Second)
	srv := startListServer(t)
	base, err := crawlers.Builtin().With(
		crawlers.Crawler{Name: "Googlebot", Ranges: []string{srv.URL + "/common-crawlers.json"}},
		crawlers.Crawler{Name: "GPTBot", Ranges: []string{srv.URL + "/gptbot.json", "192.0.2.0/24"}},
	)
	if err != nil {
		t.Fatal(err)
	}
	opts := Options{
		Ranges: srv.opts(),
		RDNS:   RDNSOptions{Servers: []string{d.addr}, Wait: 100 * time.Millisecond},
	}
	v, err := NewVerifier(base, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(v.Stop)
	// Only the local lists: the others name the operators' real URLs, and
	// tests do not touch the network.
	for _, name := range []string{"Googlebot", "GPTBot"} {
		for _, l := range v.Lists(name) {
			if err := l.Refresh(context.Background()); err != nil {
				t.Fatal(err)
			}
		}
	}
	return v, base, d
}

func TestVerify(t *testing.T) {
	v, base, d := testVerifier(t)
	tests := []struct {
		name    string
		crawler string
		addr    string
		want    Result
	}{
		{"no method", "Bytespider", "127.0.0.2", Result{Unverified, None}},
		{"token only", "Google-Extended", "66.249.64.5", Result{Unverified, None}},
		{"in range", "Googlebot", "66.249.64.5", Result{Verified, IP}},
		{"in range v6", "Googlebot", "2001:4860:4801:10::1", Result{Verified, IP}},
		{"literal CIDR", "GPTBot", "192.0.2.7", Result{Verified, IP}},
		{"rdns", "Googlebot", "127.0.0.2", Result{Verified, RDNS}},
		{"rdns spoof", "Googlebot", "127.0.0.3", Result{Impostor, None}},
		{"rdns lookalike", "Googlebot", "127.0.0.4", Result{Impostor, None}},
		{"no ptr", "Googlebot", "127.0.0.5", Result{Impostor, None}},
		{"ranges only, not in them", "GPTBot", "127.0.0.2", Result{Impostor, None}},
		{"another crawler's suffix", "bingbot", "127.0.0.2", Result{Impostor, None}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := base.Lookup(tt.crawler)
			got := v.Verify(context.Background(), c, netip.MustParseAddr(tt.addr))
			if got != tt.want {
				t.Errorf("Verify(%s, %s) = %v/%v, want %v/%v", tt.crawler, tt.addr, got.Outcome, got.By, tt.want.Outcome, tt.want.By)
			}
		})
	}
	if got := v.Verify(context.Background(), nil, googlebotAddr); got != (Result{}) {
		t.Errorf("nil crawler: %+v", got)
	}
	if n := d.count("PTR", "66.249.64.5"); n != 0 {
		t.Errorf("a range hit cost %d PTR queries", n)
	}
}

// TestVerifySlowLookup: a lookup beyond the wait makes the claim an
// impostor for now, and the next request gets the real answer.
func TestVerifySlowLookup(t *testing.T) {
	v, base, d := testVerifier(t)
	g := base.Lookup("Googlebot")
	addr := netip.MustParseAddr("127.0.0.6")
	if got := v.Verify(context.Background(), g, addr); got.Outcome != Impostor {
		t.Fatalf("slow lookup: %v", got.Outcome)
	}
	deadline := time.Now().Add(5 * time.Second)
	for v.Verify(context.Background(), g, addr) != (Result{Verified, RDNS}) {
		if time.Now().After(deadline) {
			t.Fatal("never verified after the lookup completed")
		}
		time.Sleep(20 * time.Millisecond)
	}
	if n := d.count("PTR", "127.0.0.6"); n != 1 {
		t.Errorf("%d PTR queries, want 1", n)
	}
}

func TestVerifierSharesLists(t *testing.T) {
	v, _, _ := testVerifier(t)
	img, bot := v.Lists("Googlebot-Image"), v.Lists("Googlebot-News")
	if len(img) != 1 || len(bot) != 1 || img[0] != bot[0] {
		t.Error("crawlers naming the same list do not share one RangeList")
	}
}

func TestVerifyAllocs(t *testing.T) {
	v, base, _ := testVerifier(t)
	g := base.Lookup("Googlebot")
	ctx := context.Background()
	rdnsAddr := netip.MustParseAddr("127.0.0.2")
	v.Verify(ctx, g, rdnsAddr) // fill the cache
	for name, addr := range map[string]netip.Addr{"ip": googlebotAddr, "cached rdns": rdnsAddr} {
		if n := testing.AllocsPerRun(100, func() { v.Verify(ctx, g, addr) }); n != 0 {
			t.Errorf("%s: %v allocs per Verify", name, n)
		}
	}
}

func TestSignedBy(t *testing.T) {
	base := crawlers.Builtin()
	chat := base.Lookup("ChatGPT-User")
	tests := []struct {
		c     *crawlers.Crawler
		agent string
		want  Result
	}{
		{chat, "https://chatgpt.com", Result{Verified, Signature}},
		{chat, `"https://chatgpt.com/"`, Result{Verified, Signature}},
		{chat, "https://ChatGPT.com", Result{Verified, Signature}},
		{chat, "https://chatgpt.com.evil", Result{}},
		{chat, "", Result{}},
		{base.Lookup("Googlebot"), "https://chatgpt.com", Result{}},
		{nil, "https://chatgpt.com", Result{}},
	}
	for _, tt := range tests {
		if got := SignedBy(tt.c, tt.agent); got != tt.want {
			t.Errorf("SignedBy(%v, %q) = %+v, want %+v", tt.c != nil, tt.agent, got, tt.want)
		}
	}
}

func TestStrings(t *testing.T) {
	for v, want := range map[string]string{
		Unverified.String(): "unverified", Verified.String(): "verified", Impostor.String(): "impostor",
		Outcome(9).String(): "unknown",
		None.String():       "", IP.String(): "ip", RDNS.String(): "rdns", Signature.String(): "signature",
		StatusConfirmed.String(): "confirmed",
	} {
		if v != want {
			t.Errorf("got %q, want %q", v, want)
		}
	}
}

func BenchmarkVerify(b *testing.B) {
	v, base, _ := testVerifier(b)
	g := base.Lookup("Googlebot")
	ctx := context.Background()
	cases := map[string]netip.Addr{
		"ip":          googlebotAddr,
		"cached-rdns": netip.MustParseAddr("127.0.0.2"),
		"cached-miss": netip.MustParseAddr("127.0.0.3"),
	}
	for _, addr := range cases {
		v.Verify(ctx, g, addr)
	}
	for name, addr := range cases {
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				v.Verify(ctx, g, addr)
			}
		})
	}
}

// TestVerifyRateLimited: over the lookup limit a claim cannot be confirmed,
// so it is not trusted, and nothing is asked of DNS.
func TestVerifyRateLimited(t *testing.T) {
	d := startDNS(t)
	v, err := NewVerifier(crawlers.Builtin(), Options{RDNS: RDNSOptions{
		Servers: []string{d.addr}, Wait: time.Second, Rate: 0.001, Burst: 1,
	}})
	if err != nil {
		t.Fatal(err)
	}
	defer v.Stop()
	y := crawlers.Builtin().Lookup("YandexBot")
	v.Verify(context.Background(), y, netip.MustParseAddr("127.0.5.1")) // spends the burst
	for i := 2; i < 50; i++ {
		if got := v.Verify(context.Background(), y, netip.AddrFrom4([4]byte{127, 0, 5, byte(i)})); got != (Result{Impostor, None}) {
			t.Fatalf("over the limit: %+v", got)
		}
	}
	if n := d.total("PTR"); n != 1 {
		t.Errorf("%d PTR queries, want 1", n)
	}
}
