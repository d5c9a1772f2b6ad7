package verify

import (
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"net/netip"
	"strings"
	"testing"
)

func mustPrefixes(ss ...string) []netip.Prefix {
	var out []netip.Prefix
	for _, s := range ss {
		out = append(out, netip.MustParsePrefix(s))
	}
	return out
}

func TestSetContains(t *testing.T) {
	s := NewSet(mustPrefixes(
		"66.249.64.0/27", "66.249.64.32/27", // adjacent: merged
		"192.0.2.0/24", "192.0.2.128/25", // nested
		"10.0.0.1/32",
		"255.255.255.0/24", // top of the space
		"2001:4860:4801:10::/64",
		"2001:db8::/127",
		"::ffff:198.51.100.0/120", // IPv4-mapped: counts as 198.51.100.0/24
		"ffff::/16",
	))
	tests := []struct {
		addr string
		want bool
	}{
		{"66.249.64.0", true},
		{"66.249.64.31", true},
		{"66.249.64.32", true},
		{"66.249.64.63", true},
		{"66.249.64.64", false},
		{"66.249.63.255", false},
		{"192.0.2.200", true},
		{"192.0.3.0", false},
		{"10.0.0.1", true},
		{"10.0.0.2", false},
		{"10.0.0.0", false},
		{"255.255.255.255", true},
		{"0.0.0.0", false},
		{"::ffff:66.249.64.5", true}, // a mapped address is the IPv4 one
		{"198.51.100.7", true},
		{"2001:4860:4801:10::1", true},
		{"2001:4860:4801:10:ffff:ffff:ffff:ffff", true},
		{"2001:4860:4801:11::", false},
		{"2001:4860:4801:f::ffff", false},
		{"2001:db8::1", true},
		{"2001:db8::2", false},
		{"ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff", true},
		{"::", false},
		{"fe80::1%eth0", false},
	}
	for _, tt := range tests {
		if got := s.Contains(netip.MustParseAddr(tt.addr)); got != tt.want {
			t.Errorf("Contains(%s) = %v, want %v", tt.addr, got, tt.want)
		}
	}
	if len(s.v4) != 5 {
		t.Errorf("v4 spans %v: adjacent and nested prefixes not merged", s.v4)
	}
	var nilSet *Set
	if nilSet.Contains(netip.MustParseAddr("1.2.3.4")) || nilSet.Len() != 0 {
		t.Error("nil set is not empty")
	}
	if NewSet(nil).Contains(netip.Addr{}) {
		t.Error("zero address contained")
	}
}

func TestSetWholeSpace(t *testing.T) {
	s := NewSet(mustPrefixes("0.0.0.0/0", "::/0"))
	for _, a := range []string{"0.0.0.0", "255.255.255.255", "::", "ffff::1"} {
		if !s.Contains(netip.MustParseAddr(a)) {
			t.Errorf("/0 does not contain %s", a)
		}
	}
}

// TestSetAgainstLinearScan checks the binary search against the obvious
// answer on random prefixes and addresses.
func TestSetAgainstLinearScan(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	prefixes := randomPrefixes(rng, 500)
	s := NewSet(prefixes)
	for range 20000 {
		a := randomAddr(rng, prefixes)
		want := false
		for _, p := range prefixes {
			if p.Contains(a) {
				want = true
				break
			}
		}
		if got := s.Contains(a); got != want {
			t.Fatalf("Contains(%s) = %v, want %v", a, got, want)
		}
	}
}

func randomPrefixes(rng *rand.Rand, n int) []netip.Prefix {
	var out []netip.Prefix
	for i := range n {
		if i%2 == 0 {
			var b [4]byte
			binary.BigEndian.PutUint32(b[:], rng.Uint32())
			out = append(out, netip.PrefixFrom(netip.AddrFrom4(b), 16+rng.IntN(17)).Masked())
		} else {
			var b [16]byte
			binary.BigEndian.PutUint64(b[:8], 0x2001_0db8_0000_0000|rng.Uint64()&0xffff_ffff)
			binary.BigEndian.PutUint64(b[8:], rng.Uint64())
			out = append(out, netip.PrefixFrom(netip.AddrFrom16(b), 48+rng.IntN(81)).Masked())
		}
	}
	return out
}

// randomAddr returns an address near one of prefixes (inside, or just
// outside an edge) or anywhere.
func randomAddr(rng *rand.Rand, prefixes []netip.Prefix) netip.Addr {
	p := prefixes[rng.IntN(len(prefixes))]
	a := p.Addr()
	switch rng.IntN(4) {
	case 0:
		return a.Prev()
	case 1:
		for range rng.IntN(1000) {
			a = a.Next()
		}
		return a
	case 2:
		last := a
		for b := 0; b < a.BitLen()-p.Bits() && b < 12; b++ {
			last = last.Next()
		}
		return last
	}
	if a.Is4() {
		var b [4]byte
		binary.BigEndian.PutUint32(b[:], rng.Uint32())
		return netip.AddrFrom4(b)
	}
	var b [16]byte
	binary.BigEndian.PutUint64(b[:8], 0x2001_0db8_0000_0000|rng.Uint64()&0xffff_ffff)
	binary.BigEndian.PutUint64(b[8:], rng.Uint64())
	return netip.AddrFrom16(b)
}

func TestParseRanges(t *testing.T) {
	tests := []struct {
		name    string
		body    string
		want    []string
		wantErr string
	}{
		{"google json",
			`{"creationTime": "2026-09-25T15:46:03.000000", "prefixes": [{"ipv6Prefix": "2001:4860:4801:10::/64"}, {"ipv4Prefix": "66.249.64.0/27"}]}`,
			[]string{"2001:4860:4801:10::/64", "66.249.64.0/27"}, ""},
		{"aws spelling", `{"prefixes": [{"ip_prefix": "192.0.2.0/24"}]}`, []string{"192.0.2.0/24"}, ""},
		{"unmasked prefix", `{"prefixes": [{"ipv4Prefix": "192.0.2.7/24"}]}`, []string{"192.0.2.0/24"}, ""},
		{"bom and space", "\ufeff  \n" + `{"prefixes": [{"ipv4Prefix": "192.0.2.0/24"}]}`, []string{"192.0.2.0/24"}, ""},
		{"text", "# UptimeRobot\n192.0.2.1\r\n198.51.100.0/24 # office\n\n2001:db8::/32\n", []string{"192.0.2.1/32", "198.51.100.0/24", "2001:db8::/32"}, ""},
		{"empty", "", nil, "empty"},
		{"only comments", "# nothing\n", nil, "no prefixes"},
		{"moved notice", `{"Action needed": "update the location you're fetching from"}`, nil, "no \"prefixes\""},
		{"empty prefixes", `{"creationTime": "x", "prefixes": []}`, nil, "no prefixes"},
		{"unknown key", `{"prefixes": [{"cidr": "192.0.2.0/24"}]}`, nil, "no prefixes"},
		{"jafar: both or neither ignored, unknown fields ignored",
			`{"creationTime": "2025-08-15T14:30:00Z", "synctoken": "1", "prefixes": [{"ipv4Prefix": "192.0.2.0/24", "ipv6Prefix": "2001:db8::/32"}, {"services": ["X"]}, {"ipv6Prefix": "2001:db8:abc::/48", "services": ["TechCo-C-Ads"], "weight": 3}]}`,
			[]string{"2001:db8:abc::/48"}, ""},
		{"wrong family", `{"prefixes": [{"ipv4Prefix": "2001:db8::/32"}]}`, nil, "wrong family"},
		{"bad cidr json", `{"prefixes": [{"ipv4Prefix": "192.0.2.0/33"}]}`, nil, "prefix 0"},
		{"broken json", `{"prefixes": [`, nil, "IP list"},
		{"html", "<!DOCTYPE html><html><body>Service Unavailable</body></html>", nil, "line 1"},
		{"garbage line", "192.0.2.0/24\nnot-an-address\n", nil, "line 2"},
		{"zone", "fe80::1%eth0\n", nil, "zoned"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseRanges([]byte(tt.body))
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want one containing %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if fmt.Sprint(got) != fmt.Sprint(mustPrefixes(tt.want...)) {
				t.Errorf("got %v, want %v", got, tt.want)
			}
		})
	}
}

// benchSet is a realistic-size set: a few thousand prefixes of both
// families, like Google's and OpenAI's lists together.
func benchSet() (*Set, []netip.Prefix) {
	rng := rand.New(rand.NewPCG(3, 4))
	prefixes := randomPrefixes(rng, 4000)
	return NewSet(prefixes), prefixes
}

func BenchmarkContains(b *testing.B) {
	s, prefixes := benchSet()
	var v4, v6 netip.Prefix
	for _, p := range prefixes {
		if p.Addr().Is4() && !v4.IsValid() {
			v4 = p
		}
		if p.Addr().Is6() && !v6.IsValid() {
			v6 = p
		}
	}
	cases := []struct {
		name string
		addr netip.Addr
		want bool
	}{
		{"v4-hit", v4.Addr().Next(), true},
		{"v4-miss", netip.MustParseAddr("203.0.113.77"), false},
		{"v6-hit", v6.Addr(), true},
		{"v6-miss", netip.MustParseAddr("2a00:1450:4001::1"), false},
	}
	for _, c := range cases {
		if got := s.Contains(c.addr); got != c.want {
			// A random v4 prefix may cover the miss address; rare, and the
			// benchmark still measures a lookup.
			b.Logf("%s: Contains(%s) = %v", c.name, c.addr, got)
		}
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				s.Contains(c.addr)
			}
		})
	}
}
