package caddymodule

import (
	"net/netip"
	"sync"
	"sync/atomic"
	"time"

	lru "github.com/hashicorp/golang-lru/v2"

	"github.com/robotsguard/caddy-robots-txt/caddymodule/internal/quota"
)

// An IPv6 client rotating through its subscribers (/64s) could fill the
// trap's memory, and escape it, so a network whose subscribers are
// trapped in numbers is trapped whole, a level at a time, as ISPs hand
// networks out: a residential customer gets a /56 or a /60, a site or a
// company a /48. A /56 is trapped once more than trapSubnetAfter of its
// /64s are at once: a /60 customer owns 16, so it cannot take its
// neighbours' /56 with it. A /48 is trapped once trapNetAfter of its /56s
// have trapped subscribers at once: one /56 customer can never take the
// /48 its ISP shares among 256 of them, while a client that owns the /48
// and rotates through random /64s has it trapped after a few dozen
// springs. IPv4 is left alone: an address is dear there, and a /24 is
// often many customers'.
const (
	trapSubnetBits  = 56
	trapSubnetAfter = 16
	trapNetBits     = 48
	trapNetAfter    = 16
)

// trapNets bounds the networks (/56s and /48s) whose trapped members are
// counted (about 600 bytes each: 10 MB at most per robots.txt source).
const trapNets = 16_384

// trapKey is an address the trap of a site (a host) caught: a
// subscriber (bits 0; see pace.Subscriber), or an IPv6 network (bits
// trapSubnetBits or trapNetBits, ip its first address).
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

// parseTrapKey reads what String writes, and the /48s of versions that
// trapped no /56.
func parseTrapKey(site uint64, s string) (trapKey, bool) {
	if a, err := netip.ParseAddr(s); err == nil {
		return trapKey{site: site, ip: a}, true
	}
	p, err := netip.ParsePrefix(s)
	if err != nil || !p.Addr().Is6() || p.Bits() != trapSubnetBits && p.Bits() != trapNetBits {
		return trapKey{}, false
	}
	return trapKey{site: site, ip: p.Masked().Addr(), bits: uint8(p.Bits())}, true
}

// ownerOf is who holds k in the trap's memory: the client that sprang it,
// or for a network trapped whole, the network; and the /48 of either.
func (k trapKey) ownerOf() (owner, group netip.Prefix) {
	if k.bits == 0 {
		return quota.ClientOf(k.ip)
	}
	owner = netip.PrefixFrom(k.ip, int(k.bits))
	group, _ = k.ip.Prefix(trapNetBits)
	return owner, group
}

// within is the key of the network of bits bits that k is in, and
// whether there is one: only an IPv6 subscriber, or a longer network, is
// in one.
func (k trapKey) within(bits int) (trapKey, bool) {
	if !k.ip.Is6() || k.bits != 0 && int(k.bits) <= bits {
		return trapKey{}, false
	}
	p, err := k.ip.Prefix(bits)
	if err != nil {
		return trapKey{}, false
	}
	return trapKey{site: k.site, ip: p.Addr(), bits: uint8(bits)}, true
}

// trapSet is what the trap of a source remembers: trapped keys until
// when, in an LRU of fixed size in which a client holds at most its
// quota, and per network which of its members (the /64s of a /56, the
// /56s of a /48) are trapped.
type trapSet struct {
	keys *quota.LRU[trapKey, int64] // until, unix nanoseconds

	mu   sync.Mutex // orders the counting of a network's members
	nets *lru.Cache[trapKey, *netSubs]
	// netHeld is set once a network is trapped whole: until then (on
	// most sites, for good) a request looks up its own key only.
	netHeld atomic.Bool
	// everywhere is set once a client is held on every site (see put):
	// until then a request looks up its own site's keys only.
	everywhere atomic.Bool
}

// netSubs are the members of a network trapped now, each once, with when
// it is let go: a member counts once however often it springs the trap,
// and no more once its time is up, so only members trapped at once take
// the network.
type netSubs struct {
	ip    [trapSubnetAfter + 1]netip.Addr
	until [trapSubnetAfter + 1]int64
	n     int
}

// note counts ip, held until until, among the members trapped at now,
// and reports whether there are after of them (at most len(s.ip)), and
// the latest time one of them is let go.
func (s *netSubs) note(ip netip.Addr, until, now int64, after int) (bool, int64) {
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
	if !found && s.n < after {
		s.ip[s.n], s.until[s.n] = ip, until
		s.n++
	}
	return s.n >= after, latest
}

func newTrapSet(size int) (*trapSet, error) {
	keys := quota.New[trapKey, int64](size, quota.TrapSitesPerClient, quota.TrapSitesPerNetwork, trapKey.ownerOf)
	nets, err := lru.New[trapKey, *netSubs](trapNets)
	if err != nil {
		return nil, err
	}
	return &trapSet{keys: keys, nets: nets}, nil
}

// add traps k until the time given, and returns the key to share: k, or
// its network when that is now trapped whole.
func (s *trapSet) add(k trapKey, until, now time.Time) trapKey {
	subnet, ok := k.within(trapSubnetBits)
	if !ok {
		return s.put(k, until.UnixNano())
	}
	net, _ := k.within(trapNetBits)
	if s.netHeld.Load() {
		// Held already as a network: a subscriber of it adds
		// nothing, so a rotating client fills no memory, but its
		// spring renews the network's hold, as another instance
		// that hears of it holds it anew.
		for _, held := range [...]trapKey{net, subnet} {
			if s.held(held, now) {
				s.extend(held, until.UnixNano())
				return held
			}
		}
	}
	if whole, latest, ok := s.count(k, until.UnixNano(), now.UnixNano()); ok {
		s.netHeld.Store(true)
		s.keys.Add(whole, latest)
		return whole
	}
	return s.put(k, until.UnixNano())
}

// count notes k, an IPv6 subscriber or a /56 trapped until the time given
// (here, or by another instance: see hear), among the trapped members of
// its networks, and returns the network that is now trapped whole, if
// one is, and until when.
func (s *trapSet) count(k trapKey, until, now int64) (whole trapKey, latest int64, ok bool) {
	net, isIn := k.within(trapNetBits)
	if !isIn {
		return trapKey{}, 0, false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	subnet, subnetWhole, subnetLatest := k, false, until
	if k.bits == 0 {
		subnet, _ = k.within(trapSubnetBits)
		subnetWhole, subnetLatest = s.members(subnet).note(k.ip, until, now, trapSubnetAfter+1)
	}
	// A /56 counts towards its /48 while any subscriber of it is trapped.
	netWhole, netLatest := s.members(net).note(subnet.ip, subnetLatest, now, trapNetAfter)
	switch {
	case netWhole:
		return net, netLatest, true
	case subnetWhole:
		return subnet, subnetLatest, true
	}
	return trapKey{}, 0, false
}

// anySite is the site of a key that holds its client on every site.
const anySite uint64 = 0

// put keeps k until the time given and returns the key to share: k, or,
// for a client that has sprung the trap on more sites than its quota,
// the key that holds it on every site. A client that chooses the site
// (a site that answers any Host) must not free itself from the trap of
// one by springing it under as many others: past its quota its traps
// become one that holds it everywhere.
func (s *trapSet) put(k trapKey, until int64) trapKey {
	if _, kept := s.keys.Peek(k); kept || s.keys.Owned(k) < quota.TrapSitesPerClient {
		s.keys.Add(k, until)
		return k
	}
	all := trapKey{site: anySite, ip: k.ip, bits: k.bits}
	s.everywhere.Store(true)
	s.extend(all, until)
	return all
}

// members returns the trapped members of network k, none if it had none
// counted; s.mu is held.
func (s *trapSet) members(k trapKey) *netSubs {
	subs, ok := s.nets.Get(k)
	if !ok {
		subs = new(netSubs)
		s.nets.Add(k, subs)
	}
	return subs
}

// addShared records a trap another instance shares, unless one here
// holds k longer.
func (s *trapSet) addShared(k trapKey, until int64) {
	if k.bits != 0 {
		s.netHeld.Store(true)
	}
	if k.site == anySite {
		s.everywhere.Store(true)
	}
	s.extend(k, until)
}

// holds tells whether k, or a network it is in, is trapped now, on k's
// site or on every site.
func (s *trapSet) holds(k trapKey, now time.Time) bool {
	if s.holdsOn(k, now) {
		return true
	}
	if !s.everywhere.Load() {
		return false
	}
	k.site = anySite
	return s.holdsOn(k, now)
}

// holdsOn tells whether k, or a network it is in, is trapped now on k's
// site.
func (s *trapSet) holdsOn(k trapKey, now time.Time) bool {
	if s.held(k, now) {
		return true
	}
	if !s.netHeld.Load() {
		return false
	}
	for _, bits := range [...]int{trapSubnetBits, trapNetBits} {
		if net, ok := k.within(bits); ok && s.held(net, now) {
			return true
		}
	}
	return false
}

func (s *trapSet) held(k trapKey, now time.Time) bool {
	until, ok := s.keys.Get(k)
	if ok && until < now.UnixNano() {
		// Only if still expired: a spring since the read holds it anew.
		s.keys.RemoveIf(k, func(u int64) bool { return u < now.UnixNano() })
		return false
	}
	return ok
}

// extend holds k until at least the time given, and marks it used.
func (s *trapSet) extend(k trapKey, until int64) {
	if cur, ok := s.keys.Peek(k); ok && cur > until {
		until = cur
	}
	s.keys.Add(k, until)
}
