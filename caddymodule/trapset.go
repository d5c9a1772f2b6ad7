package caddymodule

import (
	"net/netip"
	"sync"
	"sync/atomic"
	"time"

	lru "github.com/hashicorp/golang-lru/v2"
)

// trapNetBits and trapNetAfter: once trapNetAfter subscribers (/64s) of
// one IPv6 /48 are trapped on a site, the whole /48 is. A /48 is one
// customer's (a site, a company, a tunnel broker's user), and a client
// holding one has 65,536 /64s: rotating through them it could otherwise
// fill the trap's memory and push out every address caught before it,
// its own included. IPv4 is left alone: an address is dear there, and a
// /24 is often many customers'.
const (
	trapNetBits  = 48
	trapNetAfter = 16
)

// trapNets bounds the /48s whose trapped subscribers are counted (about
// 600 bytes each: 10 MB at most per robots.txt source).
const trapNets = 16_384

// trapSitesPerClient and trapSitesPerNetwork bound what one client (an
// address, an IPv6 /64) and one IPv6 /48 hold of the trap's memory: a
// site (a Host) that answers any name lets a client spring the trap under
// as many sites as it likes, and in a plain LRU it pushed every other
// trapped address out. Beyond its quota a client's newest trap replaces
// its own oldest, so it is still held where it sprang the trap last, and
// it takes trappedClients/trapSitesPerClient addresses (1,563), or
// trappedClients/trapSitesPerNetwork /48s (98), to push out another's. 64
// sites is more than one crawler is caught on by one Caddy before its
// first traps expire; a /48 is many subscribers', so it holds more.
const (
	trapSitesPerClient  = 64
	trapSitesPerNetwork = 1_024
)

// trapKey is an address the trap of a site (a host) caught: a
// subscriber (bits 0; see pace.Subscriber), or an IPv6 network (bits
// trapNetBits, ip its first address).
type trapKey struct {
	site uint64
	ip   netip.Addr
	bits uint8
}

// String is the key's address as shared: an address, or a network in
// CIDR notation.
func (k trapKey) String() string {
	if k.bits == 0 {
		return k.ip.String()
	}
	return netip.PrefixFrom(k.ip, int(k.bits)).String()
}

// parseTrapKey reads what String writes.
func parseTrapKey(site uint64, s string) (trapKey, bool) {
	if a, err := netip.ParseAddr(s); err == nil {
		return trapKey{site: site, ip: a}, true
	}
	p, err := netip.ParsePrefix(s)
	if err != nil || !p.Addr().Is6() || p.Bits() != trapNetBits {
		return trapKey{}, false
	}
	return trapKey{site: site, ip: p.Masked().Addr(), bits: trapNetBits}, true
}

// ownerOf is who holds k in the trap's memory: the client that sprang it,
// or for a network held whole, the network; and the /48 of either.
func (k trapKey) ownerOf() (owner, group netip.Prefix) {
	if k.bits == 0 {
		return clientOf(k.ip)
	}
	owner = netip.PrefixFrom(k.ip, int(k.bits))
	group, _ = k.ip.Prefix(48)
	return owner, group
}

// netOf is the network key of a subscriber key, and whether it has one.
func (k trapKey) netOf() (trapKey, bool) {
	if k.bits != 0 || !k.ip.Is6() {
		return trapKey{}, false
	}
	p, err := k.ip.Prefix(trapNetBits)
	if err != nil {
		return trapKey{}, false
	}
	return trapKey{site: k.site, ip: p.Addr(), bits: trapNetBits}, true
}

// trapSet is what the trap of a source remembers: trapped keys until
// when, in an LRU of fixed size in which a client holds at most its
// quota, and per /48 which of its subscribers are trapped.
type trapSet struct {
	keys *quotaLRU[trapKey, int64] // until, unix nanoseconds

	mu   sync.Mutex // orders the counting of a network's subscribers
	nets *lru.Cache[trapKey, *netSubs]
	// netHeld is set once a network is trapped whole: until then (on
	// most sites, for good) a request looks up its own key only.
	netHeld atomic.Bool
}

// netSubs are the subscribers of a network trapped now, each once, with
// when it is let go: a subscriber counts once however often it springs
// the trap, and no more once its time is up, so only trapNetAfter
// subscribers trapped at once take the network.
type netSubs struct {
	ip    [trapNetAfter]netip.Addr
	until [trapNetAfter]int64
	n     int
}

// note counts ip, held until until, among the subscribers trapped at now,
// and reports whether there are trapNetAfter of them, and the latest time
// one of them is let go.
func (s *netSubs) note(ip netip.Addr, until, now int64) (bool, int64) {
	latest, found := until, false
	j := 0
	for i := range s.n {
		if s.until[i] < now {
			continue
		}
		if s.ip[i] == ip {
			s.until[i], found = max(s.until[i], until), true
		}
		latest = max(latest, s.until[i])
		s.ip[j], s.until[j] = s.ip[i], s.until[i]
		j++
	}
	s.n = j
	if !found && s.n < trapNetAfter {
		s.ip[s.n], s.until[s.n] = ip, until
		s.n++
	}
	return s.n >= trapNetAfter, latest
}

func newTrapSet(size int) (*trapSet, error) {
	keys := newQuotaLRU[trapKey, int64](size, trapSitesPerClient, trapSitesPerNetwork, trapKey.ownerOf)
	nets, err := lru.New[trapKey, *netSubs](trapNets)
	if err != nil {
		return nil, err
	}
	return &trapSet{keys: keys, nets: nets}, nil
}

// add traps k until the time given, and returns the key to share: k, or
// its network when that is now trapped whole.
func (s *trapSet) add(k trapKey, until, now time.Time) trapKey {
	net, ok := k.netOf()
	if !ok {
		s.keys.Add(k, until.UnixNano())
		return k
	}
	if s.holds(net, now) {
		// Held already as a network: a subscriber of it adds nothing,
		// so a rotating client fills no memory.
		return net
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	subs, ok := s.nets.Get(net)
	if !ok {
		subs = new(netSubs)
		s.nets.Add(net, subs)
	}
	whole, latest := subs.note(k.ip, until.UnixNano(), now.UnixNano())
	if whole {
		s.netHeld.Store(true)
		s.keys.Add(net, latest)
		return net
	}
	s.keys.Add(k, until.UnixNano())
	return k
}

// addShared records a trap another instance shares, unless one here
// holds k longer.
func (s *trapSet) addShared(k trapKey, until int64) {
	if k.bits != 0 {
		s.netHeld.Store(true)
	}
	if cur, ok := s.keys.Peek(k); !ok || cur < until {
		s.keys.Add(k, until)
	}
}

// holds tells whether k, or its network, is trapped now.
func (s *trapSet) holds(k trapKey, now time.Time) bool {
	if s.held(k, now) {
		return true
	}
	if !s.netHeld.Load() {
		return false
	}
	net, ok := k.netOf()
	return ok && s.held(net, now)
}

func (s *trapSet) held(k trapKey, now time.Time) bool {
	until, ok := s.keys.Get(k)
	if ok && until < now.UnixNano() {
		s.keys.Remove(k)
		return false
	}
	return ok
}
