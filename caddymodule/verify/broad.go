package verify

import (
	"math/bits"
	"net/netip"
)

// A set takes in a large part of the Internet when it holds as many IPv4
// addresses as a /7 or more, or as many IPv6 addresses as a /15: the
// single prefixes the handler has always warned of (shorter than a /8, a
// /16), now counted over a list's union, so that all of IPv4 written as
// two /1s, or as 256 /8s, is as broad as 0.0.0.0/0.
const (
	broad4 = uint64(1) << (32 - 7)
	broad6 = 128 - 15 // log2 of the IPv6 addresses of a /15
)

// Broad reports whether prefixes take in a large part of the Internet
// (see Set.Broad), as a crawler's ranges: anyone there who claims the
// crawler passes as it. It costs a sort of the prefixes, as NewSet does.
func Broad(prefixes []netip.Prefix) bool {
	return NewSet(prefixes).Broad()
}

// Broad reports whether s takes in a large part of the Internet: as
// many IPv4 addresses as a /7 or more (IPv4-mapped prefixes counted as
// IPv4, as Contains matches them), or as many IPv6 addresses as a /15.
// Its spans are merged, so an address is counted once however many
// prefixes hold it; it is linear in their number.
func (s *Set) Broad() bool {
	if s == nil {
		return false
	}
	var n4 uint64
	for _, r := range s.v4 {
		n4 += uint64(r.hi-r.lo) + 1
	}
	if n4 >= broad4 {
		return true
	}
	limit := u128{hi: 1 << (broad6 - 64)}
	var n6 u128
	for _, r := range s.v6 {
		// size-1 always fits, ::/0's size does not.
		d := r.hi.sub(r.lo)
		if !d.less(limit.sub(u128{lo: 1})) {
			return true
		}
		// Each size is below the limit and so is the sum so far: no
		// overflow.
		n6 = n6.add(d.add(u128{lo: 1}))
		if !n6.less(limit) {
			return true
		}
	}
	return false
}

func (a u128) add(b u128) u128 {
	lo, carry := bits.Add64(a.lo, b.lo, 0)
	hi, _ := bits.Add64(a.hi, b.hi, carry)
	return u128{hi, lo}
}

func (a u128) sub(b u128) u128 {
	lo, borrow := bits.Sub64(a.lo, b.lo, 0)
	hi, _ := bits.Sub64(a.hi, b.hi, borrow)
	return u128{hi, lo}
}
