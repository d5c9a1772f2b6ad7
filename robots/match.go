package robots

import (
	"bytes"
	"sort"
	"strings"
)

// A matcher answers "which rule of this group decides this path" without
// scanning every rule. Each rule's canonical pattern splits into a literal
// prefix (everything before the first "*") and a tail. Literal prefixes live
// in a byte trie, so one walk down the trie along the path visits exactly the
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
}

// nodeRules are the rules whose literal prefix ends at one trie node.
type nodeRules struct {
	prefix        *Rule // best plain rule
	exact         *Rule // best "$"-anchored rule without wildcards
	wildLo, wildN int32 // wilds[wildLo : wildLo+wildN], best first
}

// wildRule is a rule with a "*": after its literal prefix the path must
// contain segs in order; with anchored, the last one must end the path.
type wildRule struct {
	rule     *Rule
	segs     [][]byte
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
		if !bytes.HasSuffix(t, last) {
			return false
		}
		t = t[:len(t)-len(last)]
		segs = segs[:len(segs)-1]
	}
	for _, s := range segs {
		i := bytes.Index(t, s)
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
	n := int32(0)
	for depth := 0; ; depth++ {
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
		if depth == len(p) {
			break
		}
		if n = m.child(n, p[depth]); n < 0 {
			break
		}
	}
	for i := 0; i < nq; i++ {
		best = m.bestWild(&m.infos[queue[i].info], p[queue[i].depth:], best)
	}
	return best
}

func (m *matcher) bestWild(nr *nodeRules, tail []byte, best *Rule) *Rule {
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

// groupBuilder collects a group's rules before they are flattened into a
// matcher.
type groupBuilder struct {
	root  *buildNode
	rules []nodeRules // wildLo/wildN unused while building
	wilds [][]wildRule
}

func newGroupBuilder() *groupBuilder { return &groupBuilder{root: newBuildNode()} }

// add adds one rule, with its pattern already in canonical form.
func (gb *groupBuilder) add(r *Rule, canon string) {
	body, anchored := canon, false
	if strings.HasSuffix(body, "$") {
		body, anchored = body[:len(body)-1], true
	}
	star := strings.IndexByte(body, '*')
	if star < 0 {
		nr := gb.at(body)
		if anchored {
			if better(r, nr.exact) {
				nr.exact = r
			}
		} else if better(r, nr.prefix) {
			nr.prefix = r
		}
		return
	}
	lit, tail := body[:star], body[star:]
	if strings.HasSuffix(tail, "*") {
		anchored = false // a trailing "*" absorbs whatever "$" would anchor
	}
	var segs [][]byte
	for _, s := range strings.Split(tail, "*") {
		if s != "" {
			segs = append(segs, []byte(s))
		}
	}
	nr := gb.at(lit)
	if len(segs) == 0 {
		// "/fish*" and "/fish*$" match what "/fish" matches.
		if better(r, nr.prefix) {
			nr.prefix = r
		}
		return
	}
	i := gb.root.walk(lit).val
	gb.wilds[i] = append(gb.wilds[i], wildRule{rule: r, segs: segs, anchored: anchored})
}

// at returns the rules of the node for literal prefix lit, creating both.
func (gb *groupBuilder) at(lit string) *nodeRules {
	n := gb.root.walk(lit)
	if n.val < 0 {
		n.val = int32(len(gb.rules))
		gb.rules = append(gb.rules, nodeRules{})
		gb.wilds = append(gb.wilds, nil)
	}
	return &gb.rules[n.val]
}

func (gb *groupBuilder) compile() matcher {
	var m matcher
	if len(gb.rules) == 0 {
		return m
	}
	m.trie = gb.root.flatten()
	m.infos = gb.rules
	for i := range m.infos {
		ws := gb.wilds[i]
		sort.SliceStable(ws, func(a, b int) bool { return better(ws[a].rule, ws[b].rule) })
		m.infos[i].wildLo, m.infos[i].wildN = int32(len(m.wilds)), int32(len(ws))
		m.wilds = append(m.wilds, ws...)
	}
	return m
}
