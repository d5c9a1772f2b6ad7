package robots

import (
	"bytes"
	"slices"
	"strings"
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
type matcher struct {
	trie  // node values index infos
	infos []nodeRules
	wilds []wildRule
	grams []gramIndex
}

// nodeRules are the rules whose literal prefix ends at one trie node.
type nodeRules struct {
	prefix        *Rule // best plain rule
	exact         *Rule // best "$"-anchored rule without wildcards
	wildLo, wildN int32 // wilds[wildLo : wildLo+wildN], best first
	gram          int32 // index into grams when the wilds are indexed, else -1
}

// A node with many wildcard rules indexes them by trigram. A rule can only
// match a path that contains each of its segments, so it can only match
// one that contains any given trigram of them; each rule is filed under
// its rarest trigram, and a lookup checks only the rules filed under the
// trigrams the path has. A bit filter answers "no rule has this trigram"
// without touching the map.
type gramIndex struct {
	filter  []uint64
	shift   uint32     // hash >> shift is a bit of filter
	entries []gramRule // each rule under its rarest trigram, by trigram
	always  []int32    // rules without a segment of three bytes
}

type gramRule struct {
	gram uint32
	wild int32 // index into matcher.wilds
}

// minIndexedWilds is how many wildcard rules a node needs before an index
// beats trying them in order.
const minIndexedWilds = 32

func trigram(b []byte) uint32 { return uint32(b[0])<<16 | uint32(b[1])<<8 | uint32(b[2]) }

func (gi *gramIndex) bit(g uint32) (int, uint64) {
	h := (g * 0x9E3779B1) >> gi.shift
	return int(h >> 6), 1 << (h & 63)
}

// wildRule is a rule with a "*": after its literal prefix the path must
// contain segs in order; with anchored, the last one must end the path.
type wildRule struct {
	rule     *Rule
	segs     []string
	anchored bool
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

// best returns the deciding rule for the canonical path p, or nil.
func (m *matcher) best(p []byte) *Rule {
	if len(m.nodes) == 0 {
		return nil
	}
	var best *Rule
	// Wildcard tails are checked after the walk, once the plain rules have
	// set the bar they must beat; most are then skipped without a look.
	type pending struct{ info, depth int32 }
	var queue [32]pending
	nq := 0
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
			if nr.wildN > 0 {
				if nq < len(queue) {
					queue[nq] = pending{nd.val, int32(depth)}
					nq++
				} else {
					best = m.bestWild(nr, p[depth:], best)
				}
			}
		}
		n, depth = m.next(n, p, depth)
	}
	for i := 0; i < nq; i++ {
		best = m.bestWild(&m.infos[queue[i].info], p[queue[i].depth:], best)
	}
	return best
}

func (m *matcher) bestWild(nr *nodeRules, tail []byte, best *Rule) *Rule {
	if nr.gram >= 0 {
		gi := &m.grams[nr.gram]
		for _, i := range gi.always {
			best = m.tryWild(i, tail, best)
		}
		for j := 0; j+3 <= len(tail); j++ {
			g := trigram(tail[j:])
			if w, b := gi.bit(g); gi.filter[w]&b == 0 {
				continue
			}
			k, _ := slices.BinarySearchFunc(gi.entries, g, func(e gramRule, g uint32) int { return cmpUint32(e.gram, g) })
			for ; k < len(gi.entries) && gi.entries[k].gram == g; k++ {
				best = m.tryWild(gi.entries[k].wild, tail, best)
			}
		}
		return best
	}
	for i := nr.wildLo; i < nr.wildLo+nr.wildN; i++ {
		w := &m.wilds[i]
		if !better(w.rule, best) {
			if best != nil && w.rule.priority < best.priority {
				break // sorted by priority: nothing further can win
			}
			continue
		}
		if w.match(tail) {
			best = w.rule
		}
	}
	return best
}

func (m *matcher) tryWild(i int32, tail []byte, best *Rule) *Rule {
	if w := &m.wilds[i]; better(w.rule, best) && w.match(tail) {
		return w.rule
	}
	return best
}

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

// indexWilds builds the trigram index of the wildcard rules ws, which
// start at wilds[lo], using counts as scratch space.
func indexWilds(ws []wildRule, lo int32, counts *gramCounts) gramIndex {
	*counts = gramCounts{}
	for i := range ws {
		for _, s := range ws[i].segs {
			for j := 0; j+3 <= len(s); j++ {
				if c := &counts[gramSlot(trigram(bytesOf(s[j:])))]; *c < ^uint16(0) {
					*c++
				}
			}
		}
	}
	bits, logBits := 64, uint32(6)
	for bits < 8*len(ws) {
		bits, logBits = bits<<1, logBits+1
	}
	gi := gramIndex{filter: make([]uint64, bits/64), shift: 32 - logBits, entries: make([]gramRule, 0, len(ws))}
	for i := range ws {
		best, found := uint32(0), false
		for _, s := range ws[i].segs {
			for j := 0; j+3 <= len(s); j++ {
				if g := trigram(bytesOf(s[j:])); !found || counts[gramSlot(g)] < counts[gramSlot(best)] {
					best, found = g, true
				}
			}
		}
		if !found {
			gi.always = append(gi.always, lo+int32(i))
			continue
		}
		gi.entries = append(gi.entries, gramRule{best, lo + int32(i)})
		w, b := gi.bit(best)
		gi.filter[w] |= b
	}
	slices.SortStableFunc(gi.entries, func(a, b gramRule) int { return cmpUint32(a.gram, b.gram) })
	return gi
}

// groupBuilder collects a group's rules before they are compiled into a
// matcher.
type groupBuilder struct {
	pend   []pendingRule
	segs   []string    // the segments of every wildcard rule, for reuse
	counts *gramCounts // scratch space of indexWilds
}

// pendingRule is a rule split into its literal prefix and the rest.
type pendingRule struct {
	lit          string
	kind         uint8
	segLo, segHi int32 // the rule's segments in groupBuilder.segs
	wild         wildRule
}

const (
	kindPrefix uint8 = iota // matches wherever its prefix is reached
	kindExact               // matches when the path ends at its prefix
	kindWild                // has a tail to check
)

// reset empties the builder for the next group, keeping its buffer.
func (gb *groupBuilder) reset() { gb.pend, gb.segs = gb.pend[:0], gb.segs[:0] }

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
		gb.pend = append(gb.pend, pendingRule{lit: body, kind: kind, wild: wildRule{rule: r}})
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
		gb.pend = append(gb.pend, pendingRule{lit: lit, kind: kindPrefix, wild: wildRule{rule: r}})
		return
	}
	// segs is filled in by compile, when gb.segs has stopped growing.
	gb.pend = append(gb.pend, pendingRule{lit: lit, kind: kindWild, segLo: int32(lo), segHi: int32(len(gb.segs)),
		wild: wildRule{rule: r, anchored: anchored}})
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

func (gb *groupBuilder) compile() matcher {
	var m matcher
	if len(gb.pend) == 0 {
		return m
	}
	pend := gb.pend
	// Sort indices, not the wide pendingRules. Equal prefixes sort by
	// line, so the order is total (an implied index rule has its own
	// prefix) and the same on every run.
	order := make([]int32, len(pend))
	for i := range order {
		order[i] = int32(i)
	}
	slices.SortFunc(order, func(a, b int32) int {
		if c := strings.Compare(pend[a].lit, pend[b].lit); c != 0 {
			return c
		}
		return pend[a].wild.rule.Line - pend[b].wild.rule.Line
	})
	keys := make([]string, 0, len(pend))
	nw := 0
	for i, o := range order {
		if i == 0 || pend[o].lit != keys[len(keys)-1] {
			keys = append(keys, pend[o].lit)
		}
		if pend[o].kind == kindWild {
			nw++
		}
	}
	vals := make([]int32, len(keys))
	m.infos = make([]nodeRules, len(keys))
	m.wilds = make([]wildRule, 0, nw)
	segs := slices.Clone(gb.segs) // one copy for the whole group
	k := -1
	for i, o := range order {
		p := &pend[o]
		if i == 0 || p.lit != keys[k] {
			k++
			vals[k] = int32(k)
			m.infos[k].wildLo = int32(len(m.wilds))
			m.infos[k].gram = -1
		}
		nr := &m.infos[k]
		switch p.kind {
		case kindPrefix:
			if better(p.wild.rule, nr.prefix) {
				nr.prefix = p.wild.rule
			}
		case kindExact:
			if better(p.wild.rule, nr.exact) {
				nr.exact = p.wild.rule
			}
		default:
			w := p.wild
			w.segs = segs[p.segLo:p.segHi:p.segHi]
			m.wilds = append(m.wilds, w)
			nr.wildN++
		}
	}
	for i := range m.infos {
		ws := m.wilds[m.infos[i].wildLo : m.infos[i].wildLo+m.infos[i].wildN]
		slices.SortFunc(ws, func(a, b wildRule) int {
			if better(a.rule, b.rule) {
				return -1
			}
			if better(b.rule, a.rule) {
				return 1
			}
			return 0
		})
	}
	for i := range m.infos {
		if nr := &m.infos[i]; nr.wildN >= minIndexedWilds {
			nr.gram = int32(len(m.grams))
			if gb.counts == nil {
				gb.counts = new(gramCounts)
			}
			m.grams = append(m.grams, indexWilds(m.wilds[nr.wildLo:nr.wildLo+nr.wildN], nr.wildLo, gb.counts))
		}
	}
	m.trie = buildTrie(keys, vals)
	return m
}
