package robots

import (
	"bytes"
	"encoding/binary"
	"math/bits"
	"slices"
	"strings"
	"sync"
)

// A matcher answers "which rule of this group decides this path" without
// scanning every rule. Each rule's canonical pattern splits into a literal
// prefix (everything before the first "*") and a tail. Literal prefixes live
// in a radix tree, so one walk down it along the path visits exactly the
// rules whose prefix the path starts with:
//
//   - plain rules ("/private/") match wherever their trie node is reached;
//   - exact rules ("/index$") match when the walk ends at their node;
//   - wildcard rules ("/*.php$") hang off the node of their prefix and have
//     their tail checked only when the walk reaches that node, highest
//     priority first, and only while they could still beat the best match.
//
// Whatever the file, one Decide tries each wildcard rule at most once. A
// try is one greedy left-to-right pass over the path (see wildRule.match)
// until the tries have scanned several times the path, and then a few
// lookups in an index of the path (see wildTry, which gives the worst
// case that remains).
type matcher struct {
	trie  // node values index infos
	infos []nodeRules
	wilds []wildRule
	grams []gramIndex // the trigram index, when a node is indexed; at most one
	// segIDs numbers the distinct segments of a matcher of many wildcard
	// rules, for the memo of pathIndex.find: wilds[i].segs[k] is segment
	// segIDs[wilds[i].idLo+k]. nil for a small matcher.
	segIDs []int32
	nseg   int
	// nshared is how many segment ids belong to more than one rule: they
	// are numbered first, and matchIndexed checks them before a rule's
	// own segments (see matchIndexed).
	nshared int32
	// wildAllow is the highest priority of a wildcard allow rule, -1
	// when there is none: a capped Decide's disallow is certain only
	// above it (see DecideWithin).
	wildAllow int
	// lonePercent is set when a disallow pattern holds a "%" that
	// starts no escape (see Group.ReadsSent).
	lonePercent bool
}

// nodeRules are the rules whose literal prefix ends at one trie node.
type nodeRules struct {
	prefix        *Rule // best plain rule
	exact         *Rule // best "$"-anchored rule without wildcards
	wildLo, wildN int32 // wilds[wildLo : wildLo+wildN], best first
	// indexed is set when the node's wilds are filed in the matcher's
	// trigram index; alwaysLo and alwaysN then give its rules without a
	// trigram, in gramIndex.always.
	indexed           bool
	alwaysLo, alwaysN int32
	// wildDisallow is set when a wildcard rule of the node disallows:
	// the walk of plainWalk cannot say the path is allowed past it.
	wildDisallow bool
}

// Nodes with many wildcard rules file them in one trigram index for the
// whole matcher. A rule can only match a path that contains each of its
// segments, so it can only match one that contains any given trigram of
// them; each rule is filed under its rarest trigram. A lookup scans the
// path once: a bit filter answers "no rule has this trigram" without a
// search, each distinct trigram's rules are tried the first time the
// trigram is seen and never again (the set of seen trigrams is Decide's
// scratch, see bestIndexed), and a rule is tried only when the walk reached
// its node. One index for all nodes keeps a path with many indexed nodes
// along it to one scan, not one per node.
type gramIndex struct {
	filter []uint64
	shift  uint32   // hash >> shift is a bit of filter
	grams  []uint32 // distinct trigrams, sorted
	lo     []int32  // rules of grams[k] are wildOf[lo[k]:lo[k+1]]
	// tab finds k from grams[k] by open addressing: a slot holds
	// grams[k]+1 and k, or 0 when empty; it has at least twice as many
	// slots as grams, so a probe is short.
	tab      []gramSlotEntry
	tabShift uint32
	wildOf   []int32 // indices into matcher.wilds
	always   []int32 // rules without a segment of three bytes, by node
	// maxPriority is the highest priority of a rule filed under a trigram.
	maxPriority int
}

// minIndexedWilds is how many wildcard rules a node needs before an index
// beats trying them in order.
const minIndexedWilds = 32

// trigram packs b[:3] in little-endian order, so that a scan can read it
// with one load of four bytes.
func trigram(b []byte) uint32 { return uint32(b[0]) | uint32(b[1])<<8 | uint32(b[2])<<16 }

// skip returns the first j' >= j at which a trigram of p that may be filed
// starts, and that trigram; j' is len(p) when there is none. Nearly every
// position fails the filter, so this loop is kept small and out of line
// (inlined, its state would be spilled to the stack at every byte), and
// each position's trigram is one load, not a function of the last one, so
// that positions do not wait on each other.
//
//go:noinline
func (gi *gramIndex) skip(p []byte, j int) (int, uint32) {
	filter, shift := gi.filter, gi.shift
	for ; j+4 <= len(p); j++ {
		g := binary.LittleEndian.Uint32(p[j:j+4:j+4]) & 0xFFFFFF
		if w, b := filterBit(g, shift); filter[w]&b != 0 {
			return j, g
		}
	}
	if j+3 == len(p) {
		g := trigram(p[j:])
		if w, b := filterBit(g, shift); filter[w]&b != 0 {
			return j, g
		}
	}
	return len(p), 0
}

// filterBit returns the word and bit of the filter of an index with the
// given shift that stand for g. Masking the shift, which is below 32
// anyway, spares the scan the code Go adds for longer shifts.
func filterBit(g, shift uint32) (uint32, uint64) {
	h := (g * 0x9E3779B1) >> (shift & 31)
	return h >> 6, 1 << (h & 63)
}

type gramSlotEntry struct {
	gram1 uint32 // trigram + 1; 0 for an empty slot
	k     int32
}

// find returns the index of g in gi.grams, or -1.
func (gi *gramIndex) find(g uint32) int {
	mask := uint32(len(gi.tab) - 1)
	for h := (g * 0x9E3779B1) >> gi.tabShift; ; h = (h + 1) & mask {
		switch e := gi.tab[h]; e.gram1 {
		case g + 1:
			return int(e.k)
		case 0:
			return -1
		}
	}
}

// wildRule is a rule with a "*": after its literal prefix lit the path
// must contain segs in order; with anchored, the last one must end the
// path.
type wildRule struct {
	rule     *Rule
	lit      string
	segs     []string
	anchored bool
	idLo     int32  // where the ids of segs start in matcher.segIDs
	sig      uint64 // byteSig of the segments
}

// byteSig sets bit c&63 for each byte c of s. A rule can match only a path
// whose signature has every bit of the rule's: a test of one AND that
// skips, without a look at the path, most rules needing a byte the path
// lacks.
func byteSig(sig uint64, s []byte) uint64 {
	for _, c := range s {
		sig |= 1 << (c & 63)
	}
	return sig
}

// better reports whether rule a takes precedence over rule b (nil loses to
// everything): the higher priority wins, allow wins a tie, and between two
// equal rules the earlier line is the one reported, as google/robotstxt does.
func better(a, b *Rule) bool {
	if b == nil {
		return true
	}
	if a.priority != b.priority {
		return a.priority > b.priority
	}
	if a.Directive != b.Directive {
		return a.Directive == Allow
	}
	return a.Line < b.Line
}

// cmpRank orders rules by precedence, ignoring the line: higher priority
// first, then allow before disallow.
func cmpRank(a, b *Rule) int {
	if a.priority != b.priority {
		return b.priority - a.priority
	}
	return int(b.Directive) - int(a.Directive)
}

// sameWild reports whether a and b are one rule written twice: they match
// the same paths and rank the same, so only the earlier line can decide.
func sameWild(a, b *wildRule) bool {
	return cmpRank(a.rule, b.rule) == 0 && a.anchored == b.anchored && slices.Equal(a.segs, b.segs)
}

// match reports whether the tail t (the path after the rule's literal
// prefix) matches. With only "*" between the segments, taking the first
// occurrence of each segment in turn is right: an earlier end leaves more
// room for the rest, so if any placement works the greedy one does. No
// backtracking, so one pass over t.
func (w *wildRule) match(t []byte) bool {
	segs := w.segs
	if w.anchored {
		last := segs[len(segs)-1]
		if !bytes.HasSuffix(t, bytesOf(last)) {
			return false
		}
		t = t[:len(t)-len(last)]
		segs = segs[:len(segs)-1]
	}
	for _, s := range segs {
		i := bytes.Index(t, bytesOf(s))
		if i < 0 {
			return false
		}
		t = t[i+len(s):]
	}
	return true
}

// matchIndexed is match for the path p (the tail is p[len(w.lit):]), with
// each segment found by ix, which remembers what it found for the next
// rule with the same segment.
//
// A segment that other rules share and the path lacks rules them all out:
// "/*<t>*zzzq" written for thousands of t, against a path holding every t
// but not "zzzq", would otherwise cost a search for each t. So a shared
// segment after the first is looked for from the tail's start before the
// greedy pass, once per Decide: when the memo already says whether it is
// there, the look costs nothing, and when the memo has moved on past the
// tail's start, it is left to the greedy pass, so that rules do not take
// turns sending the memo back and forth.
func (w *wildRule) matchIndexed(p []byte, ix *pathIndex, ids []int32, nshared int32) bool {
	segs, end := w.segs, len(p)
	if w.anchored {
		last := segs[len(segs)-1]
		if !bytes.HasSuffix(p[len(w.lit):], bytesOf(last)) {
			return false
		}
		end -= len(last)
		segs = segs[:len(segs)-1]
	}
	x := len(w.lit)
	if ids != nil {
		for k := 1; k < len(segs); k++ {
			id := ids[int(w.idLo)+k]
			if id >= nshared {
				continue
			}
			if ix.absent(segs[k], id, x, end) {
				return false
			}
		}
	}
	for k, s := range segs {
		id := int32(-1)
		if ids != nil {
			id = ids[int(w.idLo)+k]
		}
		// The first occurrence from x is the earliest to end: if it
		// runs into the anchored segment, so does every later one.
		i := ix.find(s, id, x)
		if i < 0 || i+len(s) > end {
			return false
		}
		x = i + len(s)
	}
	return true
}

// wildTry tries the wildcard rules of one Decide. It tries them as match
// does until they have scanned several times the path's length, then
// with a pathIndex of the path: a few tries, the usual case, cost nothing
// more, and thousands of tries of rules whose text a long path holds
// (which made one Decide of a 16 KB path cost 50 ms) cost a radix sort of
// the path and a few binary searches each.
//
// What remains: with the index, a try costs a binary search per segment
// of up to 3 bytes, and for a longer segment, the checks of the places
// its rarest sampled trigram (8-gram from 8 bytes on) occurs at from x.
// The memo makes that once per distinct segment in the usual order of
// tries, so the worst case is a file of thousands of distinct segments of
// 4 to 7 bytes, none in the path, each of whose trigrams the path holds
// many times: about rules × path/(alphabet³) checks. 27,000 such
// segments over four letters against 16 KB of them are some 7 million
// checks, 7 ms (14 ms without the index; see
// BenchmarkDecideIndexWorstCase), linear in the path's length for a
// given file. Building the index costs a Decide that would have found
// its answer quickly by scanning, such as a path of one repeated byte,
// up to about 5 ns a byte of the path.
//
// The path is not kept in a wildTry but passed to each try: a wildTry
// leaks its fields to the pool, and the path is often a buffer on
// Decide's stack.
//
// One wildTry serves every matcher a Decide asks (the parts of a group
// merged from more groups than it compiles, see Group.parts; the usage
// matchers of Signals): the bytes plain tries scan and the index are the
// Decide's, not each matcher's, so a group of ten thousand parts costs
// what one matcher of their rules would, not ten thousand scans of the
// path.
type wildTry struct {
	m      *matcher
	work   int // bytes plain tries may still scan
	ix     *pathIndex
	budget *Budget // what indexed tries may spend; nil for no limit
}

// plainTryBytes is how many bytes plain tries may scan beyond eight times
// the path's length; tests lower it to check the index on short paths.
var plainTryBytes = 8192

func newWildTry(p []byte, b *Budget) wildTry {
	return wildTry{work: 8*len(p) + plainTryBytes, budget: b}
}

// use makes m the matcher whose rules c tries next. The index of the path
// stays; its memo of segments, numbered by each matcher, starts anew.
func (c *wildTry) use(m *matcher) {
	if c.m == m {
		return
	}
	c.m = m
	if c.ix != nil {
		c.ix.renew(m.nseg)
	}
}

// index returns the index of the path p, building it the first time.
func (c *wildTry) index(p []byte) *pathIndex {
	if c.ix == nil {
		c.ix = getPathIndex(p, c.m.nseg)
	}
	return c.ix
}

// match tries w on the path p.
func (c *wildTry) match(w *wildRule, p []byte) bool {
	if c.ix == nil {
		tail := p[len(w.lit):]
		if c.work -= len(tail); c.work >= 0 {
			return w.match(tail)
		}
	}
	c.index(p)
	if c.budget == nil {
		return w.matchIndexed(p, c.ix, c.m.segIDs, c.m.nshared)
	}
	if !c.budget.spend(1) {
		return false
	}
	before := c.ix.work
	ok := w.matchIndexed(p, c.ix, c.m.segIDs, c.m.nshared)
	c.budget.charge(c.ix.work - before)
	return ok
}

// done releases what c took from pools.
func (c *wildTry) done() {
	if c.ix != nil {
		putPathIndex(c.ix)
		c.ix = nil
	}
}

// plainWalk walks m's radix tree along the canonical path p without
// trying a wildcard rule. It returns the best of best and the plain and
// exact rules that match p, and whether a wildcard disallow rule hangs
// off a node the walk reached: one that might match p. Its work is the
// walk's, at most the length of m's longest literal prefix, however long
// p is.
func (m *matcher) plainWalk(p []byte, best *Rule) (*Rule, bool) {
	wild := false
	if len(m.nodes) == 0 {
		return best, false
	}
	n, depth := int32(0), 0
	for n >= 0 {
		if nd := &m.nodes[n]; nd.val >= 0 {
			nr := &m.infos[nd.val]
			if nr.prefix != nil && better(nr.prefix, best) {
				best = nr.prefix
			}
			if nr.exact != nil && depth == len(p) && better(nr.exact, best) {
				best = nr.exact
			}
			wild = wild || nr.wildDisallow
		}
		n, depth = m.next(n, p, depth)
	}
	return best, wild
}

// best returns the deciding rule for the canonical path p, or nil.
func (m *matcher) best(p []byte) *Rule { return m.bestWithin(p, nil) }

// bestWithin is best with the work of indexed tries taken from b (nil for
// no limit): once b runs out, the rules not yet tried are not, and the
// rule returned is the best of those that were (see DecideWithin).
func (m *matcher) bestWithin(p []byte, b *Budget) *Rule {
	try := newWildTry(p, b)
	best := m.bestWith(p, &try, nil)
	try.done()
	return best
}

// bestWith returns the deciding rule for p among m's rules and best, a
// rule already found (nil for none), trying wildcard rules with try:
// those that cannot beat best are not tried.
func (m *matcher) bestWith(p []byte, try *wildTry, best *Rule) *Rule {
	if len(m.nodes) == 0 {
		return best
	}
	try.use(m)
	// Wildcard tails are checked after the walk, once the plain rules have
	// set the bar they must beat; most are then skipped without a look.
	type pending struct{ info, depth int32 }
	var queue [32]pending
	nq := 0
	scanFrom := -1 // depth of the first indexed node reached
	// sig is the byteSig of p[scanFrom:], worked out only once a rule is
	// about to be tried: most paths pass no indexed rule's trigram.
	var sig uint64
	n, depth := int32(0), 0
	for n >= 0 {
		nd := &m.nodes[n]
		if nd.val >= 0 {
			nr := &m.infos[nd.val]
			if nr.prefix != nil && better(nr.prefix, best) {
				best = nr.prefix
			}
			if nr.exact != nil && depth == len(p) && better(nr.exact, best) {
				best = nr.exact
			}
			switch {
			case nr.indexed:
				if scanFrom < 0 {
					scanFrom = depth
				}
				if nr.alwaysN > 0 {
					if nq < len(queue) {
						queue[nq] = pending{nd.val, int32(depth)}
						nq++
					} else {
						best = m.bestAlways(nr, p, try, pathSig(&sig, p[scanFrom:]), best)
					}
				}
			case nr.wildN > 0:
				if nq < len(queue) {
					queue[nq] = pending{nd.val, int32(depth)}
					nq++
				} else {
					best = m.bestWild(nr, p, try, best)
				}
			}
		}
		n, depth = m.next(n, p, depth)
	}
	for i := 0; i < nq; i++ {
		nr := &m.infos[queue[i].info]
		if nr.indexed {
			best = m.bestAlways(nr, p, try, pathSig(&sig, p[scanFrom:]), best)
		} else {
			best = m.bestWild(nr, p, try, best)
		}
	}
	if scanFrom >= 0 {
		best = m.bestIndexed(p, scanFrom, &sig, try, best)
	}
	return best
}

// pathSig returns *sig, first setting it to the byteSig of p if it is
// still 0. A p whose byteSig is 0 is empty, so working it out again costs
// nothing.
func pathSig(sig *uint64, p []byte) uint64 {
	if *sig == 0 {
		*sig = byteSig(0, p)
	}
	return *sig
}

// bestWild tries the wildcard rules of a node that is not indexed, best
// first, each once.
func (m *matcher) bestWild(nr *nodeRules, p []byte, try *wildTry, best *Rule) *Rule {
	for i := nr.wildLo; i < nr.wildLo+nr.wildN; i++ {
		w := &m.wilds[i]
		if !better(w.rule, best) {
			if best != nil && w.rule.priority < best.priority {
				break // sorted by priority: nothing further can win
			}
			continue
		}
		if try.match(w, p) {
			best = w.rule
		}
	}
	return best
}

// bestAlways tries the rules of an indexed node that have no trigram,
// except those needing a byte missing from sig, the path's byteSig.
func (m *matcher) bestAlways(nr *nodeRules, p []byte, try *wildTry, sig uint64, best *Rule) *Rule {
	for _, i := range m.grams[0].always[nr.alwaysLo : nr.alwaysLo+nr.alwaysN] {
		if w := &m.wilds[i]; w.sig&^sig == 0 && better(w.rule, best) && try.match(w, p) {
			best = w.rule
		}
	}
	return best
}

// bestIndexed tries the rules filed under each trigram of p from the
// first indexed node the walk reached, each distinct trigram once. A rule
// whose node the walk did not reach does not have its prefix at the start
// of p and is skipped, and so is one needing a byte missing from *sig,
// the byteSig of p[from:] (see pathSig).
//
// It scans p for the trigrams while the Decide's tries may still scan
// bytes (see wildTry), or when p is shorter than 16 bytes for each of the
// index's trigrams (see scanPerGram); past that, it looks each trigram of
// the index up in the path's index. So a Decide that asks hundreds of
// indexed matchers (the parts of a group, see Group.parts) scans the path
// a few times in all, not once per matcher.
func (m *matcher) bestIndexed(p []byte, from int, sig *uint64, try *wildTry, best *Rule) *Rule {
	gi := &m.grams[0]
	if best != nil && best.priority > gi.maxPriority {
		return best // no indexed rule can beat it
	}
	if len(p)-from < 3 || len(gi.grams) == 0 {
		return best // nothing to look up
	}
	n := len(p) - from
	if try.work < n && scanPerGram*len(gi.grams) < n {
		return m.bestLookedUp(p, from, sig, try, best)
	}
	try.work -= n // charged in full: most scans run to the end
	// The set of trigrams looked up so far: a bitset on the stack for a
	// small index, else generation stamps from a pool. Two variables, not
	// one struct, so that escape analysis keeps the bitset on the stack.
	var small [8]uint64
	var bits []uint64
	var stamps *stampSet
	if len(gi.grams) <= 64*len(small) {
		bits = small[:]
	} else {
		stamps = getStamps(len(gi.grams))
		defer putStamps(stamps)
	}
	left := len(gi.grams) // distinct trigrams not yet seen
	var g uint32
	for j := from; ; j++ {
		if j, g = gi.skip(p, j); j == len(p) {
			break
		}
		k := gi.find(g)
		if k < 0 || seenBefore(bits, stamps, k) {
			continue
		}
		if best = m.tryGram(gi, k, p, from, sig, try, best); try.budget != nil && try.budget.capped {
			return best // nothing more is tried
		}
		if left--; left == 0 {
			break
		}
	}
	return best
}

// scanPerGram is how many bytes of the path bestIndexed would rather
// scan than look one trigram up in the path's index, once the Decide may
// scan no more; tests set it to 0 to look every trigram up.
var scanPerGram = 16

// bestLookedUp is bestIndexed looking each trigram of the index up in the
// path's index rather than scanning p for them.
func (m *matcher) bestLookedUp(p []byte, from int, sig *uint64, try *wildTry, best *Rule) *Rule {
	gi := &m.grams[0]
	ix := try.index(p)
	for k, g := range gi.grams {
		if try.budget != nil && !try.budget.spend(1) {
			return best
		}
		if !ix.holdsTrigram(g, from) {
			continue
		}
		if best = m.tryGram(gi, k, p, from, sig, try, best); try.budget != nil && try.budget.capped {
			return best
		}
	}
	return best
}

// tryGram tries the rules filed under trigram k of gi.
func (m *matcher) tryGram(gi *gramIndex, k int, p []byte, from int, sig *uint64, try *wildTry, best *Rule) *Rule {
	rules := gi.wildOf[gi.lo[k]:gi.lo[k+1]]
	if try.budget != nil && try.ix != nil {
		// Each rule looked at costs about a look into the index once
		// the index is built: thousands of rules sharing a missing
		// segment are rejected each in a few nanoseconds, but thousands
		// of them, in each spelling.
		try.budget.charge(len(rules))
	}
	for _, i := range rules {
		w := &m.wilds[i]
		if w.sig&^pathSig(sig, p[from:]) == 0 && better(w.rule, best) && len(w.lit) <= len(p) && string(p[:len(w.lit)]) == w.lit && try.match(w, p) {
			best = w.rule
		}
	}
	return best
}

// seenBefore reports whether trigram k of the index is in the set, and
// adds it: to bits when not nil, else to stamps.
func seenBefore(bits []uint64, stamps *stampSet, k int) bool {
	if bits != nil {
		w, b := k>>6, uint64(1)<<(k&63)
		if bits[w]&b != 0 {
			return true
		}
		bits[w] |= b
		return false
	}
	if stamps.stamp[k] == stamps.gen {
		return true
	}
	stamps.stamp[k] = stamps.gen
	return false
}

// stampSet marks trigram k seen in the current use when stamp[k] == gen;
// each use takes a new gen, so stamps left by earlier uses mean nothing.
type stampSet struct {
	gen   uint32
	stamp []uint32
}

var stampPool = sync.Pool{New: func() any { return new(stampSet) }}

func getStamps(n int) *stampSet {
	st := stampPool.Get().(*stampSet)
	st.next(n)
	return st
}

// next starts a new use of st for n keys, and reports whether it had to
// make room for them (every stamp then unset).
func (st *stampSet) next(n int) (grown bool) {
	if len(st.stamp) < n {
		st.stamp = make([]uint32, n)
		st.gen, grown = 0, true
	}
	st.gen++
	if st.gen == 0 { // wrapped: old stamps could equal a new gen
		clear(st.stamp)
		st.gen = 1
	}
	return grown
}

func putStamps(st *stampSet) { stampPool.Put(st) }

func cmpUint32(a, b uint32) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// gramCounts estimates how many rules have each trigram: a small table of
// counters indexed by a hash of the trigram. Collisions only make a
// trigram look commoner than it is, which can cost a lookup some extra
// candidates but never a match.
type gramCounts [1 << 12]uint16

func gramSlot(g uint32) uint32 { return (g * 0x9E3779B1) >> 20 }

// indexWilds builds the trigram index of the wildcard rules of the
// indexed nodes of m, using counts as scratch space.
func indexWilds(m *matcher, counts *gramCounts) gramIndex {
	*counts = gramCounts{}
	nw := 0
	for _, nr := range m.infos {
		if !nr.indexed {
			continue
		}
		nw += int(nr.wildN)
		for _, w := range m.wilds[nr.wildLo : nr.wildLo+nr.wildN] {
			for _, s := range w.segs {
				for j := 0; j+3 <= len(s); j++ {
					if c := &counts[gramSlot(trigram(bytesOf(s[j:])))]; *c < ^uint16(0) {
						*c++
					}
				}
			}
		}
	}
	bits, logBits := 64, uint32(6)
	for bits < 8*nw {
		bits, logBits = bits<<1, logBits+1
	}
	gi := gramIndex{filter: make([]uint64, bits/64), shift: 32 - logBits}
	entries := make([]gramRule, 0, nw)
	for ni := range m.infos {
		nr := &m.infos[ni]
		if !nr.indexed {
			continue
		}
		nr.alwaysLo = int32(len(gi.always))
		for i := nr.wildLo; i < nr.wildLo+nr.wildN; i++ {
			best, found := uint32(0), false
			for _, s := range m.wilds[i].segs {
				for j := 0; j+3 <= len(s); j++ {
					if g := trigram(bytesOf(s[j:])); !found || counts[gramSlot(g)] < counts[gramSlot(best)] {
						best, found = g, true
					}
				}
			}
			if !found {
				gi.always = append(gi.always, i)
				continue
			}
			entries = append(entries, gramRule{best, i})
			gi.maxPriority = max(gi.maxPriority, m.wilds[i].rule.priority)
			w, b := filterBit(best, gi.shift)
			gi.filter[w] |= b
		}
		nr.alwaysN = int32(len(gi.always)) - nr.alwaysLo
	}
	slices.SortStableFunc(entries, func(a, b gramRule) int { return cmpUint32(a.gram, b.gram) })
	gi.wildOf = make([]int32, len(entries))
	for i, e := range entries {
		if i == 0 || e.gram != entries[i-1].gram {
			gi.grams = append(gi.grams, e.gram)
			gi.lo = append(gi.lo, int32(i))
		}
		gi.wildOf[i] = e.wild
	}
	gi.lo = append(gi.lo, int32(len(entries)))
	size, logSize := 2, uint32(1)
	for size < 2*len(gi.grams) {
		size, logSize = size<<1, logSize+1
	}
	gi.tab, gi.tabShift = make([]gramSlotEntry, size), 32-logSize
	for k, g := range gi.grams {
		h := (g * 0x9E3779B1) >> gi.tabShift
		for gi.tab[h].gram1 != 0 {
			h = (h + 1) & uint32(size-1)
		}
		gi.tab[h] = gramSlotEntry{g + 1, int32(k)}
	}
	return gi
}

type gramRule struct {
	gram uint32
	wild int32 // index into matcher.wilds
}

var builderPool = sync.Pool{New: func() any { return new(groupBuilder) }}

// compileWith compiles the rules add adds, in a builder from a pool.
func compileWith(add func(*groupBuilder)) *matcher {
	gb := builderPool.Get().(*groupBuilder)
	gb.reset()
	add(gb)
	m := gb.compile()
	// The scratch space must not keep a File alive from the pool.
	clear(gb.pend[:cap(gb.pend)])
	clear(gb.segs[:cap(gb.segs)])
	clear(gb.keys[:cap(gb.keys)])
	clear(gb.wilds[:cap(gb.wilds)])
	clear(gb.trie.nodes[:cap(gb.trie.nodes)])
	clear(gb.segIndex)
	builderPool.Put(gb)
	return &m
}

// matcher returns the compiled rules of s, compiling them the first time,
// as Group.matcher does.
func (s *srcGroup) matcher() *matcher {
	if m := s.m.Load(); m != nil {
		return m
	}
	s.m.CompareAndSwap(nil, compileWith(func(gb *groupBuilder) { addRules(gb, s.rules) }))
	return s.m.Load()
}

// groupBuilder collects a group's rules before they are compiled into a
// matcher.
type groupBuilder struct {
	pend   []pendingRule
	segs   []string    // the segments of every wildcard rule, for reuse
	counts *gramCounts // scratch space of indexWilds
	// Scratch space of compile, kept from group to group: a file
	// compiles hundreds of groups.
	order    []int32
	keys     []string
	vals     []int32
	wilds    []wildRule
	trie     trie
	segIndex map[string]int32
	// lonePercent is set by a disallow pattern with a lone "%".
	lonePercent bool
}

// pendingRule is a rule split into its literal prefix and the rest.
type pendingRule struct {
	lit          string
	rule         *Rule
	segLo, segHi int32 // the rule's segments in groupBuilder.segs
	kind         uint8
	anchored     bool
}

const (
	kindPrefix uint8 = iota // matches wherever its prefix is reached
	kindExact               // matches when the path ends at its prefix
	kindWild                // has a tail to check
)

// reserve empties the builder and makes room for a group of n rules at
// once, sparing its buffers their growth a step at a time.
func (gb *groupBuilder) reserve(n int) {
	gb.pend = slices.Grow(gb.pend[:0], n)
	gb.segs = slices.Grow(gb.segs[:0], n)
}

// reset empties the builder for the next group, keeping its buffer.
func (gb *groupBuilder) reset() {
	gb.pend, gb.segs, gb.lonePercent = gb.pend[:0], gb.segs[:0], false
}

// add adds one rule, with its pattern already in canonical form.
func (gb *groupBuilder) add(r *Rule, canon string) {
	body, anchored := canon, false
	if strings.HasSuffix(body, "$") {
		body, anchored = body[:len(body)-1], true
	}
	star := strings.IndexByte(body, '*')
	if star < 0 {
		kind := kindPrefix
		if anchored {
			kind = kindExact
		}
		gb.pend = append(gb.pend, pendingRule{lit: body, rule: r, kind: kind})
		return
	}
	lit, tail := body[:star], body[star:]
	if strings.HasSuffix(tail, "*") {
		anchored = false // a trailing "*" absorbs whatever "$" would anchor
	}
	lo := len(gb.segs)
	gb.segs = appendSegments(gb.segs, tail)
	if len(gb.segs) == lo {
		// "/fish*" and "/fish*$" match what "/fish" matches.
		gb.pend = append(gb.pend, pendingRule{lit: lit, rule: r, kind: kindPrefix})
		return
	}
	// segs is filled in by compile, when gb.segs has stopped growing.
	gb.pend = append(gb.pend, pendingRule{lit: lit, rule: r, kind: kindWild, segLo: int32(lo), segHi: int32(len(gb.segs)),
		anchored: anchored})
}

// appendSegments appends the non-empty runs between the "*"s of tail.
func appendSegments(segs []string, tail string) []string {
	start := -1
	for i := 0; i <= len(tail); i++ {
		if i == len(tail) || tail[i] == '*' {
			if start >= 0 {
				segs = append(segs, tail[start:i])
				start = -1
			}
		} else if start < 0 {
			start = i
		}
	}
	return segs
}

// sortByLit sorts order, indices into pend whose prefixes agree on their
// first depth bytes, by prefix and then by index. It is a three-way radix
// quicksort: each pass splits on one byte, so that no comparison rereads
// the bytes the prefixes share, which a comparison sort does at every
// step (a group's prefixes often share most of their bytes, or are a few
// bytes long, where the call to compare costs more than the compare).
// A part split budget times at one byte or another falls back to a
// comparison sort, so that no file can make it quadratic; going on to the
// next byte costs nothing, as it happens at most once per byte of a
// prefix.
func sortByLit(order []int32, pend []pendingRule, depth, budget int) {
	// at is the byte of rule i's prefix at depth, or -1 past its end.
	at := func(i int32) int {
		if l := pend[i].lit; depth < len(l) {
			return int(l[depth])
		}
		return -1
	}
	for len(order) > 16 {
		if budget < 0 {
			slices.SortFunc(order, func(a, b int32) int {
				if c := strings.Compare(pend[a].lit[depth:], pend[b].lit[depth:]); c != 0 {
					return c
				}
				return int(a - b)
			})
			return
		}
		// The median of three bytes splits better than any one of them.
		x, y, z := at(order[0]), at(order[len(order)/2]), at(order[len(order)-1])
		pivot := max(min(x, y), min(max(x, y), z))
		lt, gt := 0, len(order)
		for i := 0; i < gt; {
			switch c := at(order[i]); {
			case c < pivot:
				order[lt], order[i] = order[i], order[lt]
				lt++
				i++
			case c > pivot:
				gt--
				order[i], order[gt] = order[gt], order[i]
			default:
				i++
			}
		}
		sortByLit(order[:lt], pend, depth, budget-1)
		sortByLit(order[gt:], pend, depth, budget-1)
		if pivot < 0 {
			// Equal prefixes: back to index order, which the swaps
			// disturbed.
			slices.Sort(order[lt:gt])
			return
		}
		order, depth = order[lt:gt], depth+1
	}
	for i := 1; i < len(order); i++ {
		for j := i; j > 0; j-- {
			a, b := order[j-1], order[j]
			if c := strings.Compare(pend[a].lit[depth:], pend[b].lit[depth:]); c < 0 || c == 0 && a < b {
				break
			}
			order[j-1], order[j] = b, a
		}
	}
}

func (gb *groupBuilder) compile() matcher {
	m := matcher{lonePercent: gb.lonePercent}
	if len(gb.pend) == 0 {
		return m
	}
	pend := gb.pend
	// Sort indices, not the wide pendingRules, by prefix and then by
	// index, which is line order (rules are added in file order): the
	// order is total and the same on every run.
	order := slices.Grow(gb.order[:0], len(pend))
	for i := range pend {
		order = append(order, int32(i))
	}
	sortByLit(order, pend, 0, 2*bits.Len(uint(len(order))))
	keys := slices.Grow(gb.keys[:0], len(pend))
	nw := 0
	for i, o := range order {
		if i == 0 || pend[o].lit != keys[len(keys)-1] {
			keys = append(keys, pend[o].lit)
		}
		if pend[o].kind == kindWild {
			nw++
		}
	}
	vals := slices.Grow(gb.vals[:0], len(keys))[:len(keys)]
	gb.order, gb.keys, gb.vals = order, keys, vals
	m.infos = make([]nodeRules, len(keys))
	// The wildcard rules by node, each node's in line order.
	wilds := slices.Grow(gb.wilds[:0], nw)
	segs := slices.Clone(gb.segs) // one copy for the whole group
	k := -1
	for i, o := range order {
		p := &pend[o]
		if i == 0 || p.lit != keys[k] {
			k++
			vals[k] = int32(k)
			m.infos[k].wildLo = int32(len(wilds))
		}
		nr := &m.infos[k]
		switch p.kind {
		case kindPrefix:
			if better(p.rule, nr.prefix) {
				nr.prefix = p.rule
			}
		case kindExact:
			if better(p.rule, nr.exact) {
				nr.exact = p.rule
			}
		default:
			w := wildRule{rule: p.rule, lit: p.lit, segs: segs[p.segLo:p.segHi:p.segHi], anchored: p.anchored, idLo: p.segLo}
			for _, sg := range w.segs {
				w.sig = byteSig(w.sig, bytesOf(sg))
			}
			wilds = append(wilds, w)
			nr.wildN++
			nr.wildDisallow = nr.wildDisallow || p.rule.Directive == Disallow
		}
	}
	// Sort each node's wildcard rules best first, except that rules of
	// equal priority and directive are ordered by their tails, so that
	// copies of one rule (same tail, priority and directive) sit together
	// and only the first, the one Google reports, is kept: a file that
	// repeats a rule thousands of times costs one try, not thousands.
	// The sort moves indices, not wildRules, and breaks the last ties by
	// index, which within a node is line order.
	gb.wilds = wilds
	m.wilds = make([]wildRule, 0, len(wilds))
	for i := range m.infos {
		nr := &m.infos[i]
		order = order[:0]
		for k := nr.wildLo; k < nr.wildLo+nr.wildN; k++ {
			order = append(order, k)
		}
		slices.SortFunc(order, func(a, b int32) int {
			x, y := &wilds[a], &wilds[b]
			if c := cmpRank(x.rule, y.rule); c != 0 {
				return c
			}
			for k := 0; k < len(x.segs) && k < len(y.segs); k++ {
				if c := strings.Compare(x.segs[k], y.segs[k]); c != 0 {
					return c
				}
			}
			if len(x.segs) != len(y.segs) {
				return len(x.segs) - len(y.segs)
			}
			if x.anchored != y.anchored {
				if x.anchored {
					return 1
				}
				return -1
			}
			return int(a - b)
		})
		lo := len(m.wilds)
		for _, k := range order {
			if len(m.wilds) > lo && sameWild(&wilds[k], &m.wilds[len(m.wilds)-1]) {
				continue
			}
			m.wilds = append(m.wilds, wilds[k])
		}
		nr.wildLo, nr.wildN = int32(lo), int32(len(m.wilds)-lo)
	}
	m.wildAllow = -1
	for i := range m.wilds {
		if r := m.wilds[i].rule; r.Directive == Allow {
			m.wildAllow = max(m.wildAllow, r.priority)
		}
	}
	if len(m.wilds) >= minIndexedWilds {
		m.segIDs, m.nseg = numberSegments(segs, &gb.segIndex)
		m.nshared = sharedFirst(m.wilds, m.segIDs, m.nseg)
	}
	indexed := false
	for i := range m.infos {
		if nr := &m.infos[i]; nr.wildN >= minIndexedWilds {
			nr.indexed, indexed = true, true
		}
	}
	if indexed {
		if gb.counts == nil {
			gb.counts = new(gramCounts)
		}
		m.grams = []gramIndex{indexWilds(&m, gb.counts)}
	}
	m.trie = buildTrie(keys, vals, &gb.trie)
	return m
}

// sharedFirst renumbers the segment ids in ids so that those of segments
// that more than one of wilds has come first, and returns how many there
// are.
func sharedFirst(wilds []wildRule, ids []int32, nseg int) int32 {
	count := make([]int32, nseg)
	for i := range wilds {
		w := &wilds[i]
		for k := range w.segs {
			count[ids[int(w.idLo)+k]]++
		}
	}
	// count becomes the new id of each old one.
	var shared int32
	for id, c := range count {
		if c > 1 {
			count[id] = shared
			shared++
		} else {
			count[id] = -1
		}
	}
	next := shared
	for id, c := range count {
		if c < 0 {
			count[id] = next
			next++
		}
	}
	for i, id := range ids {
		ids[i] = count[id]
	}
	return shared
}

// numberSegments gives each distinct segment of segs an id, using byID
// as scratch space: rules that share a segment share its id, and so what
// pathIndex.find has learnt of it.
func numberSegments(segs []string, byID *map[string]int32) ([]int32, int) {
	if *byID == nil {
		*byID = map[string]int32{}
	}
	m := *byID
	clear(m)
	ids := make([]int32, len(segs))
	for i, s := range segs {
		id, ok := m[s]
		if !ok {
			id = int32(len(m))
			m[s] = id
		}
		ids[i] = id
	}
	return ids, len(m)
}
