package robots

import (
	"encoding/binary"
	"math/rand/v2"
	"slices"
	"sync"
)

// A pathIndex answers "where is the first occurrence of this segment at or
// after x" for one path without scanning the path: a Decide builds one
// only once its wildcard tries have scanned several times the path's
// length (see wildTry), which takes a file of thousands of wildcard rules
// and a long path holding their text.
//
// For q of 1, 2 and 3 it keeps the path's positions sorted by the q bytes
// there, then by position, so that one binary search finds the first
// occurrence of a segment of q bytes at or after x. A longer segment is
// looked for at the occurrences of the rarest of a few of its trigrams,
// or of its 8-grams for a segment of 8 bytes or more, each checked in
// full. 8-grams are sorted by a hash under a seed of the process, so that
// a path cannot be built to crowd one 8-gram's list with others: a
// collision only costs a check.
//
// A segment is often shared by many rules ("/*a*.php", "/*b*.php"), so
// what was found of each distinct segment is kept for the rest of the
// Decide (see find).
type pathIndex struct {
	p     []byte
	grams [4][]uint64 // [q] for q of 1 to 3, [0] for 8-grams: key<<32 | position
	built uint8       // bit q when grams[q] is built
	tmp   []uint64

	// The memo of find, for segment ids below len(lo): for the id's
	// segment, the first occurrence at or after lo[id] is at[id] (-1 for
	// none), if the id is stamped in this use.
	stampSet
	lo, at []int32

	// work counts what the index has cost so far, in Budget units: a
	// binary search or a place checked is one, a sort n/8 for n places.
	work int
}

// gramSeed keys the hash of 8-grams.
var gramSeed = rand.Uint64() | 1

var pathIndexPool = sync.Pool{New: func() any { return new(pathIndex) }}

// getPathIndex returns an index of p with a memo for nseg segment ids. It
// keeps a copy of p: p is often a buffer on Decide's stack, which would
// escape to the heap at every call if the pooled index kept it.
func getPathIndex(p []byte, nseg int) *pathIndex {
	ix := pathIndexPool.Get().(*pathIndex)
	ix.p, ix.built = append(ix.p[:0], p...), 0
	ix.renew(nseg)
	return ix
}

// renew starts the memo of find anew, for nseg segment ids: the path and
// what is built of its index stay.
func (ix *pathIndex) renew(nseg int) {
	if ix.next(nseg) {
		ix.lo = make([]int32, nseg)
		ix.at = make([]int32, nseg)
	}
}

// putPathIndex returns ix to the pool. An index grown for a huge path is
// dropped, not kept for every later one.
func putPathIndex(ix *pathIndex) {
	if cap(ix.p) > 1<<16 {
		*ix = pathIndex{}
	}
	pathIndexPool.Put(ix)
}

// gramKey returns the key of the q bytes at b[i:]: the bytes themselves
// for q up to 3, a seeded hash of them for 8.
func gramKey(b []byte, i, q int) uint32 {
	switch q {
	case 1:
		return uint32(b[i])
	case 2:
		return uint32(b[i])<<8 | uint32(b[i+1])
	case 3:
		return uint32(b[i])<<16 | uint32(b[i+1])<<8 | uint32(b[i+2])
	}
	h := (binary.LittleEndian.Uint64(b[i:]) ^ gramSeed) * 0xBF58476D1CE4E5B9
	h ^= h >> 31
	h *= 0x94D049BB133111EB
	return uint32(h >> 32)
}

// sorted returns the path's positions sorted by the key of the q bytes
// there, then by position, building them the first time: a radix sort,
// one counting pass per byte of the key, stable, from the positions in
// order. The counts of every pass are taken in the sweep that makes the
// keys, and a pass whose byte is the same everywhere is skipped, as it
// would not move anything: a path of one byte repeated costs one sweep.
func (ix *pathIndex) sorted(q int) []uint64 {
	slot, keyBytes := q, q
	if q == 8 {
		slot, keyBytes = 0, 4
	}
	if ix.built&(1<<slot) != 0 {
		return ix.grams[slot]
	}
	n := max(len(ix.p)-q+1, 0)
	ix.work += n / 8
	a := slices.Grow(ix.grams[slot][:0], n)[:n]
	// Runs of one key are counted as runs: a count bumped at every byte
	// of a run waits on its last bump each time.
	var count [4][256]int32
	tally := func(k uint32, run int32) {
		for b := range keyBytes {
			count[b][uint8(k>>(8*b))] += run
		}
	}
	var prev uint32
	run := int32(0)
	for i := range a {
		k := gramKey(ix.p, i, q)
		a[i] = uint64(k)<<32 | uint64(i)
		if k == prev {
			run++
			continue
		}
		tally(prev, run)
		prev, run = k, 1
	}
	tally(prev, run)
	tmp := slices.Grow(ix.tmp[:0], n)[:n]
	for b := range keyBytes {
		c := &count[b]
		if n == 0 || c[uint8(a[0]>>(32+8*b))] == int32(n) {
			continue
		}
		var at [256]int32
		for v := 1; v < 256; v++ {
			at[v] = at[v-1] + c[v-1]
		}
		shift := 32 + 8*b
		for _, e := range a {
			v := uint8(e >> shift)
			tmp[at[v]] = e
			at[v]++
		}
		a, tmp = tmp, a
	}
	ix.grams[slot], ix.tmp = a, tmp
	ix.built |= 1 << slot
	return a
}

// lowerBound returns the index of the first entry of a not below key.
func lowerBound(a []uint64, key uint64) int {
	k, _ := slices.BinarySearch(a, key)
	return k
}

// holdsTrigram reports whether the trigram g (packed as trigram packs
// it) occurs in the path at or after x.
func (ix *pathIndex) holdsTrigram(g uint32, x int) bool {
	key := uint64(g&0xFF)<<16 | uint64(g>>8&0xFF)<<8 | uint64(g>>16&0xFF)
	a := ix.sorted(3)
	ix.work++
	k := lowerBound(a, key<<32|uint64(x))
	return k < len(a) && a[k]>>32 == key
}

// search returns the first i in [x, lim) at which s occurs in the path,
// or -1.
func (ix *pathIndex) search(s string, x, lim int) int {
	p := ix.p
	if x+len(s) > len(p) || x >= lim {
		return -1
	}
	ix.work++
	if len(s) <= 3 {
		a := ix.sorted(len(s))
		g := uint64(gramKey(bytesOf(s), 0, len(s)))
		if k := lowerBound(a, g<<32|uint64(x)); k < len(a) && a[k]>>32 == g {
			if i := int(uint32(a[k])); i < lim {
				return i
			}
		}
		return -1
	}
	q := 3
	if len(s) >= 8 {
		q = 8
	}
	a := ix.sorted(q)
	// The rarest of up to nine of the segment's q-grams: one of them may
	// be missing from the path, which settles it, and a rare one leaves
	// few places to check.
	span := len(s) - q
	step := max(1, (span+7)/8)
	var best uint64
	bestO, bestN := 0, -1
	for o := 0; ; o += step {
		o = min(o, span)
		g := uint64(gramKey(bytesOf(s), o, q))
		ix.work += 2
		if n := lowerBound(a, (g+1)<<32) - lowerBound(a, g<<32); bestN < 0 || n < bestN {
			best, bestO, bestN = g, o, n
			if n == 0 {
				return -1
			}
		}
		if o == span {
			break
		}
	}
	for k := lowerBound(a, best<<32|uint64(x+bestO)); k < len(a) && a[k]>>32 == best; k++ {
		i := int(uint32(a[k])) - bestO
		if i >= lim {
			break
		}
		ix.work++
		if i+len(s) <= len(p) && string(p[i:i+len(s)]) == s {
			return i
		}
	}
	return -1
}

// find returns the first i >= x at which s, the segment of the given id
// (or -1, for none), occurs in the path, or -1. What each search learns of
// a segment, "from lo the first occurrence is at", is kept, so that rules
// sharing the segment search for it again only before lo or past at: in a
// Decide, the path is searched for a segment about once, not once per
// rule.
func (ix *pathIndex) find(s string, id int32, x int) int {
	if id < 0 || int(id) >= len(ix.stamp) {
		return ix.search(s, x, len(ix.p))
	}
	if ix.stamp[id] == ix.gen {
		lo, at := int(ix.lo[id]), int(ix.at[id])
		switch {
		case x >= lo && (at < 0 || x <= at):
			return at
		case x < lo:
			// Only [x, lo) is new: from lo on, at stands.
			i := ix.search(s, x, lo)
			if i < 0 {
				i = at
			}
			ix.lo[id], ix.at[id] = int32(x), int32(i)
			return i
		}
	}
	i := ix.search(s, x, len(ix.p))
	ix.stamp[id], ix.lo[id], ix.at[id] = ix.gen, int32(x), int32(i)
	return i
}

// absent reports whether s, the segment of the given id, is known not to
// occur in [x, end) of the path: found nowhere from x on, or first found
// past end - len(s). It searches only for a segment not yet looked for in
// this Decide; otherwise it reads the memo, and says false when the memo
// does not cover x.
func (ix *pathIndex) absent(s string, id int32, x, end int) bool {
	if ix.stamp[id] != ix.gen {
		i := ix.find(s, id, x)
		return i < 0 || i+len(s) > end
	}
	lo, at := int(ix.lo[id]), int(ix.at[id])
	if x < lo || (at >= 0 && x > at) {
		return false
	}
	return at < 0 || at+len(s) > end
}
