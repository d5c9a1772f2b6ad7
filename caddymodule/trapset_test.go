package caddymodule

import (
	"net/netip"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/robotsguard/caddy-robots-txt/caddymodule/internal/quota"
	"github.com/robotsguard/caddy-robots-txt/caddymodule/pace"
	"github.com/robotsguard/caddy-robots-txt/config"
	"github.com/robotsguard/caddy-robots-txt/internal/testfixtures"
)

// TestTrapNetwork: the subscribers (/64s) of one IPv6 network that
// spring the trap in numbers take it with them, a level at a time: more
// than trapSubnetAfter of a /56 take the /56, so a /60 customer (16 /64s)
// takes nothing of its neighbours'; trapNetAfter /56s of a /48 with
// trapped subscribers take the /48, which one /56 customer cannot, and a
// client rotating through its /48's /64s does. A network held whole
// fills no more of the trap's memory.
func TestTrapNetwork(t *testing.T) {
	// sub is the /64 2001:db8:1:<subnet><n>::/64, of the /56
	// 2001:db8:1:<subnet>00::/56 of the /48 2001:db8:1::/48.
	sub := func(subnet, n int) netip.Addr {
		return netip.AddrFrom16([16]byte{0x20, 0x01, 0x0d, 0xb8, 0, 1, byte(subnet), byte(n)})
	}
	var slash60, slash56, random []netip.Addr
	for n := range 16 {
		slash60 = append(slash60, sub(0, 0x10+n)) // 2001:db8:1:10::/60
	}
	for n := range 256 {
		slash56 = append(slash56, sub(0, n))
		random = append(random, sub(n*37%256, n*101%256)) // a new /56 each
	}
	for _, tc := range []struct {
		name       string
		springs    []netip.Addr
		held, free []netip.Addr
		maxKeys    int
	}{
		{"a /60 customer", slash60, slash60, []netip.Addr{sub(0, 0xff), sub(1, 0)}, 16},
		{"a /60 customer and one more /64 of its /56", append(slices.Clone(slash60), sub(0, 0xff)),
			[]netip.Addr{sub(0, 0), sub(0, 0x20)}, []netip.Addr{sub(1, 0)}, 17},
		{"a /56 customer", slash56, []netip.Addr{sub(0, 0x77)}, []netip.Addr{sub(1, 0), sub(0xff, 0xff)}, 17},
		{"trapNetAfter-1 /56s", random[:trapNetAfter-1], random[:trapNetAfter-1], []netip.Addr{sub(0xff, 0xff)}, trapNetAfter - 1},
		{"trapNetAfter /56s", random[:trapNetAfter], []netip.Addr{sub(0xff, 0xff)}, nil, trapNetAfter},
		{"a /48 rotating its /64s", random, []netip.Addr{sub(0xff, 0xff)}, nil, trapNetAfter},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, err := newTrapSet(trappedClients)
			if err != nil {
				t.Fatal(err)
			}
			now := time.Now()
			for _, ip := range tc.springs {
				s.add(trapKey{site: 1, ip: ip}, now.Add(time.Hour), now)
			}
			for _, ip := range tc.held {
				if !s.holds(trapKey{site: 1, ip: ip}, now) {
					t.Errorf("%v is not held", ip)
				}
			}
			for _, ip := range append(tc.free, netip.MustParseAddr("2001:db8:2::")) {
				if s.holds(trapKey{site: 1, ip: ip}, now) {
					t.Errorf("%v is held", ip)
				}
			}
			if s.holds(trapKey{site: 2, ip: tc.springs[0]}, now) {
				t.Error("held on another site")
			}
			if n := s.keys.Len(); n > tc.maxKeys {
				t.Errorf("%d keys remembered, want at most %d", n, tc.maxKeys)
			}
		})
	}
}

// TestTrapNetworkAcrossInstances: the members of a network trapped on
// other instances (heard) count with those trapped here: 9 /64s of a /56
// on each of two instances take the /56 on both, and 8 /56s of a /48 on
// each take the /48, as the same numbers on one instance do; fewer take
// nothing (audit AH-F2).
func TestTrapNetworkAcrossInstances(t *testing.T) {
	sub := func(subnet, n int) netip.Addr {
		return netip.AddrFrom16([16]byte{0x20, 0x01, 0x0d, 0xb8, 0, 1, byte(subnet), byte(n)})
	}
	for _, tc := range []struct {
		name       string
		here, away []netip.Addr
		held, free netip.Addr
	}{
		{"a /56 across two", []netip.Addr{sub(0, 1), sub(0, 2), sub(0, 3), sub(0, 4), sub(0, 5), sub(0, 6), sub(0, 7), sub(0, 8), sub(0, 9)},
			[]netip.Addr{sub(0, 11), sub(0, 12), sub(0, 13), sub(0, 14), sub(0, 15), sub(0, 16), sub(0, 17), sub(0, 18), sub(0, 19)},
			sub(0, 0xee), sub(1, 0)},
		{"a /48 across two", []netip.Addr{sub(1, 1), sub(2, 1), sub(3, 1), sub(4, 1), sub(5, 1), sub(6, 1), sub(7, 1), sub(8, 1)},
			[]netip.Addr{sub(9, 1), sub(10, 1), sub(11, 1), sub(12, 1), sub(13, 1), sub(14, 1), sub(15, 1), sub(16, 1)},
			sub(0xee, 0xee), netip.MustParseAddr("2001:db8:2::")},
		{"16 /64s across two", []netip.Addr{sub(0, 1), sub(0, 2), sub(0, 3), sub(0, 4), sub(0, 5), sub(0, 6), sub(0, 7), sub(0, 8)},
			[]netip.Addr{sub(0, 11), sub(0, 12), sub(0, 13), sub(0, 14), sub(0, 15), sub(0, 16), sub(0, 17), sub(0, 18)},
			sub(0, 1), sub(0, 0xee)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			own, err1 := newTrapSet(trappedClients)
			heard, err2 := newTrapSet(trappedClients)
			if err1 != nil || err2 != nil {
				t.Fatal(err1, err2)
			}
			now := time.Now()
			for _, ip := range tc.here {
				own.add(trapKey{site: 1, ip: ip}, now.Add(time.Hour), now)
			}
			for _, ip := range tc.away {
				hear(own, heard, trapKey{site: 1, ip: ip}, now.Add(time.Hour).UnixNano(), now)
			}
			holds := func(ip netip.Addr) bool {
				k := trapKey{site: 1, ip: ip}
				return own.holds(k, now) || heard.holds(k, now)
			}
			if !holds(tc.held) {
				t.Errorf("%v is not held", tc.held)
			}
			if holds(tc.free) {
				t.Errorf("%v is held", tc.free)
			}
		})
	}
}

// TestTrapNetworkByHandler: a /60 customer that springs the trap from all
// its /64s leaves the rest of its /56 alone, as served.
func TestTrapNetworkByHandler(t *testing.T) {
	h, logs := newTestHandler(t, config.Config{Inline: "User-agent: *\nDisallow: /private/\n", Trap: "/trap/"})
	refused := func(ip string) bool {
		_, err := serve(h, withIP(newRequest("GET", "/private/x", testfixtures.UAChrome), ip))
		return err != nil
	}
	for i := range 16 {
		serve(h, withIP(newRequest("GET", "/trap/", testfixtures.UAChrome), netip.AddrFrom16([16]byte{0x20, 0x01, 0x0d, 0xb8, 0, 1, 0, byte(0x10 + i), 15: 1}).String()))
	}
	if !refused("2001:db8:1:1f::2") {
		t.Error("a /64 that sprang the trap is not held")
	}
	if refused("2001:db8:1:ff::1") {
		t.Error("a /64 of another customer of the /56 is held")
	}
	if n := logs.FilterMessageSnippet("this network is now held").Len(); n != 0 {
		t.Errorf("16 /64s logged a network held: %v", logs.All())
	}
	// The 17th holds the /56, and the log says so, naming it.
	serve(h, withIP(newRequest("GET", "/trap/", testfixtures.UAChrome), "2001:db8:1:20::1"))
	if !refused("2001:db8:1:ff::1") {
		t.Error("after 17 /64s, another /64 of the /56 is not held")
	}
	held := logs.FilterMessageSnippet("trap sprung: this network is now held to robots.txt").All()
	if len(held) != 1 || held[0].ContextMap()["held"] != "2001:db8:1::/56" {
		t.Errorf("the spring that held the /56 logged %v; want one entry naming 2001:db8:1::/56", held)
	}
	for _, e := range logs.FilterMessageSnippet("this address is now held").All() {
		if _, ok := e.ContextMap()["held"]; !ok {
			t.Errorf("a spring logged no held field: %v", e.ContextMap())
		}
	}
}

// TestTrapFlood: a client rotating through the /64s of a few /48s (two
// /48s hold 131,072) cannot push out of the trap's memory the addresses
// it caught before, its own included.
func TestTrapFlood(t *testing.T) {
	s, err := newTrapSet(trappedClients)
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	until := now.Add(time.Hour)
	victim := trapKey{site: 1, ip: netip.MustParseAddr("203.0.113.5")}
	s.add(victim, until, now)
	for i := range trappedClients + 500 {
		ip := netip.AddrFrom16([16]byte{0x20, 0x01, 0x0d, 0xb8, byte(i >> 16), 0, byte(i >> 8), byte(i), 15: 1})
		s.add(trapKey{site: 1, ip: ip}, until, now)
	}
	if !s.holds(victim, now) {
		t.Error("the flood pushed out an address caught before it")
	}
	// Per /48: its first trapNetAfter-1 /56s trapped whole, each with
	// the trapSubnetAfter subscribers that took it, and the /48 itself.
	if n, most := s.keys.Len(), 1+2*((trapNetAfter-1)*(trapSubnetAfter+1)+1); n > most {
		t.Errorf("%d keys remembered for one address and two /48s, want at most %d", n, most)
	}
}

// TestTrapKeyShared: what an instance shares of a trapped key reads back
// as that key, and so does the /48 older versions shared; a network of
// another size is not one.
func TestTrapKeyShared(t *testing.T) {
	for _, k := range []trapKey{
		{site: 7, ip: netip.MustParseAddr("192.0.2.1")},
		{site: 7, ip: netip.MustParseAddr("2001:db8:1:2::")},
		{site: 7, ip: netip.MustParseAddr("2001:db8:1:200::"), bits: trapSubnetBits},
		{site: 7, ip: netip.MustParseAddr("2001:db8:1::"), bits: trapNetBits},
	} {
		if got, ok := parseTrapKey(7, k.String()); !ok || got != k {
			t.Errorf("%v shared as %q reads back as %v, %v", k, k.String(), got, ok)
		}
	}
	if got, ok := parseTrapKey(7, "2001:db8:1::/48"); !ok || got != (trapKey{site: 7, ip: netip.MustParseAddr("2001:db8:1::"), bits: 48}) {
		t.Errorf("a /48 as older versions shared it reads back as %v, %v", got, ok)
	}
	for _, s := range []string{"2001:db8::/32", "2001:db8:1:2::/60", "2001:db8:1:2::/64", "192.0.2.0/24", "nonsense"} {
		if _, ok := parseTrapKey(7, s); ok {
			t.Errorf("%q read as a trapped key", s)
		}
	}
}

// TestTrapNetworkCountsTheTrappedNow: a network is taken whole by
// subscribers trapped at once, not by the same few springing the trap
// again and again over days, nor by one counted twice because its
// requests came together.
func TestTrapNetworkCountsTheTrappedNow(t *testing.T) {
	s, err := newTrapSet(trappedClients)
	if err != nil {
		t.Fatal(err)
	}
	a := trapKey{site: 1, ip: netip.MustParseAddr("2001:db8:5:1::")}
	b := trapKey{site: 1, ip: netip.MustParseAddr("2001:db8:5:2::")}
	other := trapKey{site: 1, ip: netip.MustParseAddr("2001:db8:5:ff::")}
	now := time.Now()
	for i := range 2 * trapNetAfter {
		k := a
		if i%2 == 1 {
			k = b
		}
		at := now.Add(time.Duration(i) * 20 * time.Hour)
		s.holds(k, at) // the client's other requests, which find it let go
		s.add(k, at.Add(24*time.Hour), at)
		if s.holds(other, at) {
			t.Fatalf("after %d springs by two /64s taking turns, their network is held", i+1)
		}
	}

	s, _ = newTrapSet(trappedClients)
	var wg sync.WaitGroup
	for range 32 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s.add(a, now.Add(time.Hour), now)
		}()
	}
	wg.Wait()
	for i := range trapSubnetAfter - 1 {
		s.add(trapKey{site: 1, ip: netip.AddrFrom16([16]byte{0x20, 0x01, 0x0d, 0xb8, 0, 5, 0, byte(100 + i)})}, now.Add(time.Hour), now)
	}
	if s.holds(other, now) {
		t.Errorf("%d subscribers trapped, one of them by 32 requests at once, took the /56", trapSubnetAfter)
	}
}

// TestTrapHostFlood: a client that springs the trap under more sites
// (Host values) than the trap's memory holds, as a site that answers any
// Host lets it, pushes out no other client's trap, only its own.
func TestTrapHostFlood(t *testing.T) {
	for _, tc := range []struct {
		name  string
		ip    func(i int) netip.Addr
		quota int
	}{
		{"an address", func(int) netip.Addr { return netip.MustParseAddr("198.51.100.7") }, quota.TrapSitesPerClient},
		{"a /64", func(i int) netip.Addr {
			return netip.AddrFrom16([16]byte{0x20, 0x01, 0x0d, 0xb8, 0, 9, 0, 1, 8: byte(i >> 8), 9: byte(i), 15: 1})
		}, quota.TrapSitesPerClient},
		{"a /48, a /64 for each site", func(i int) netip.Addr {
			return netip.AddrFrom16([16]byte{0x20, 0x01, 0x0d, 0xb8, 0, 9, byte(i >> 8), byte(i), 15: 1})
		}, quota.TrapSitesPerNetwork},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, err := newTrapSet(trappedClients)
			if err != nil {
				t.Fatal(err)
			}
			now := time.Now()
			until := now.Add(time.Hour)
			victims := []trapKey{
				{site: 1, ip: netip.MustParseAddr("203.0.113.5")},
				{site: 1, ip: netip.MustParseAddr("2001:db8:7:1::")},
			}
			for _, v := range victims {
				s.add(v, until, now)
			}
			for i := range trappedClients + 1000 {
				s.add(trapKey{site: uint64(100 + i), ip: tc.ip(i)}, until, now)
			}
			for _, v := range victims {
				if !s.holds(v, now) {
					t.Errorf("%v is let go", v)
				}
			}
			if n := s.keys.Len(); n != len(victims)+tc.quota {
				t.Errorf("%d keys remembered, want the victims' %d and the flood's quota %d", n, len(victims), tc.quota)
			}
			last := trappedClients + 999
			if !s.holds(trapKey{site: uint64(100 + last), ip: tc.ip(last)}, now) {
				t.Error("the flood is not held where it sprang the trap last")
			}
		})
	}
}

// TestTrapClientHeldEverywhere: a client trapped on one site that springs
// the trap under more Hosts than its quota (a site that answers any Host
// lets it) is not freed from the first: it is held on every site.
func TestTrapClientHeldEverywhere(t *testing.T) {
	for _, ip := range []netip.Addr{netip.MustParseAddr("198.51.100.7"), netip.MustParseAddr("2001:db8:9:1::1")} {
		s, err := newTrapSet(trappedClients)
		if err != nil {
			t.Fatal(err)
		}
		now := time.Now()
		first := trapKey{site: 1, ip: pace.Subscriber(ip)}
		s.add(first, now.Add(time.Hour), now)
		for i := range 3 * quota.TrapSitesPerClient {
			s.add(trapKey{site: uint64(100 + i), ip: pace.Subscriber(ip)}, now.Add(time.Hour), now.Add(time.Second))
		}
		later := now.Add(2 * time.Second)
		if !s.holds(first, later) {
			t.Errorf("%v: let go on the first site after springing the trap on %d others", ip, 3*quota.TrapSitesPerClient)
		}
		if !s.holds(trapKey{site: 99_999, ip: pace.Subscriber(ip)}, later) {
			t.Errorf("%v: not held on a site it never sprang the trap on, past its quota", ip)
		}
		if s.holds(trapKey{site: 1, ip: netip.MustParseAddr("198.51.100.8")}, later) {
			t.Error("another address is held")
		}
		if n := s.keys.Len(); n > quota.TrapSitesPerClient {
			t.Errorf("%d keys for one client, want at most its quota %d", n, quota.TrapSitesPerClient)
		}
	}
}

// TestTrapNetworkRenewed: a subscriber of a network held whole that
// springs the trap again renews the network's hold, as the instances it
// shares that spring with do.
func TestTrapNetworkRenewed(t *testing.T) {
	s, err := newTrapSet(trappedClients)
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	sub := func(i int) trapKey {
		return trapKey{site: 1, ip: pace.Subscriber(netip.AddrFrom16([16]byte{0x20, 0x01, 0x0d, 0xb8, 0, 5, 0, byte(i), 15: 1}))}
	}
	var got trapKey
	for i := range trapSubnetAfter + 1 {
		got = s.add(sub(i), now.Add(time.Hour), now)
	}
	if got.bits != trapSubnetBits {
		t.Fatalf("the /56 is not held after %d of its /64s: shared %v", trapSubnetAfter+1, got)
	}
	later := now.Add(50 * time.Minute)
	if k := s.add(sub(200), later.Add(time.Hour), later); k.bits != trapSubnetBits {
		t.Fatalf("a subscriber of the held /56 shared %v, want the /56", k)
	}
	if !s.holds(sub(201), now.Add(90*time.Minute)) {
		t.Error("the /56 was let go an hour after it was first held, though a subscriber sprang the trap 50 minutes in")
	}
}
