package caddymodule

import (
	"net/netip"
	"sync"
	"testing"
	"time"

	"github.com/robotsguard/caddy-robots-txt/config"
	"github.com/robotsguard/caddy-robots-txt/internal/testfixtures"
)

// TestTrapNetwork: the subscribers of one IPv6 /48 that spring the trap
// take the /48 with them once there are trapNetAfter of them: a client
// rotating its /64s is held wherever it goes in its /48, and fills no
// more of the trap's memory.
func TestTrapNetwork(t *testing.T) {
	h, _ := newTestHandler(t, config.Config{Inline: "User-agent: *\nDisallow: /private/\n", Trap: "/trap/"})
	refused := func(ip string) bool {
		_, err := serve(h, withIP(newRequest("GET", "/private/x", testfixtures.UAChrome), ip))
		return err != nil
	}
	for i := range trapNetAfter - 1 {
		serve(h, withIP(newRequest("GET", "/trap/", testfixtures.UAChrome), netip.AddrFrom16([16]byte{0x20, 0x01, 0x0d, 0xb8, 0, 1, 0, byte(i), 15: 1}).String()))
	}
	if refused("2001:db8:1:ff::1") {
		t.Fatalf("a /64 that sprang nothing is held after %d others of its /48 did", trapNetAfter-1)
	}
	if !refused("2001:db8:1:0::2") {
		t.Fatal("a /64 that sprang the trap is not held")
	}
	serve(h, withIP(newRequest("GET", "/trap/", testfixtures.UAChrome), "2001:db8:1:ee::1"))
	if !refused("2001:db8:1:ff::1") {
		t.Errorf("after %d /64s of its /48 sprang the trap, another /64 of it is not held", trapNetAfter)
	}
	if refused("2001:db8:2::1") {
		t.Error("another /48 is held")
	}
	for i := range 100 {
		serve(h, withIP(newRequest("GET", "/trap/", testfixtures.UAChrome), netip.AddrFrom16([16]byte{0x20, 0x01, 0x0d, 0xb8, 0, 1, 1, byte(i), 15: 1}).String()))
	}
	if n := h.tracker.trapped.keys.Len(); n > trapNetAfter+1 {
		t.Errorf("%d keys remembered for one /48, want at most %d", n, trapNetAfter+1)
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
	if n := s.keys.Len(); n > 1+2*trapNetAfter {
		t.Errorf("%d keys remembered for one address and two /48s", n)
	}
}

// TestTrapKeyShared: what an instance shares of a trapped key reads back
// as that key; a network of another size is not one.
func TestTrapKeyShared(t *testing.T) {
	for _, k := range []trapKey{
		{site: 7, ip: netip.MustParseAddr("192.0.2.1")},
		{site: 7, ip: netip.MustParseAddr("2001:db8:1:2::")},
		{site: 7, ip: netip.MustParseAddr("2001:db8:1::"), bits: trapNetBits},
	} {
		if got, ok := parseTrapKey(7, k.String()); !ok || got != k {
			t.Errorf("%v shared as %q reads back as %v, %v", k, k.String(), got, ok)
		}
	}
	for _, s := range []string{"2001:db8::/32", "192.0.2.0/24", "nonsense"} {
		if _, ok := parseTrapKey(7, s); ok {
			t.Errorf("%q read as a trapped key", s)
		}
	}
}

// TestTrapNetworkCountsTheTrappedNow: a network is taken whole by
// trapNetAfter subscribers trapped at once, not by the same few springing
// the trap again and again over days, nor by one counted twice because
// its requests came together.
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
			t.Fatalf("after %d springs by two /64s taking turns, the /48 is held", i+1)
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
	for i := range trapNetAfter - 2 {
		s.add(trapKey{site: 1, ip: netip.AddrFrom16([16]byte{0x20, 0x01, 0x0d, 0xb8, 0, 5, 0, byte(100 + i)})}, now.Add(time.Hour), now)
	}
	if s.holds(other, now) {
		t.Errorf("%d subscribers trapped, one of them by 32 requests at once, took the /48", trapNetAfter-1)
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
		{"an address", func(int) netip.Addr { return netip.MustParseAddr("198.51.100.7") }, trapSitesPerClient},
		{"a /64", func(i int) netip.Addr {
			return netip.AddrFrom16([16]byte{0x20, 0x01, 0x0d, 0xb8, 0, 9, 0, 1, 8: byte(i >> 8), 9: byte(i), 15: 1})
		}, trapSitesPerClient},
		{"a /48, a /64 for each site", func(i int) netip.Addr {
			return netip.AddrFrom16([16]byte{0x20, 0x01, 0x0d, 0xb8, 0, 9, byte(i >> 8), byte(i), 15: 1})
		}, trapSitesPerNetwork},
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
