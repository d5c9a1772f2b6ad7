package robots

import "slices"

// trie is a radix tree flattened into two arrays, so that a lookup touches
// few cache lines and allocates nothing. Each edge carries a run of bytes
// (the label of the node it leads to); nodes exist only where a key ends
// or keys part. Each node carries one int32 value whose meaning is the
// user's (an index into a side table, or -1).
type trie struct {
	nodes []trieNode
	edges []trieEdge
}

type trieNode struct {
	label         string // the bytes on the edge into this node
	edgeLo, edgeN int32  // children are edges[edgeLo : edgeLo+edgeN], by first byte
	val           int32
}

type trieEdge struct {
	first byte // the first byte of the child's label
	child int32
}

// child returns the child of node n whose label starts with c, or -1.
func (t *trie) child(n int32, c byte) int32 {
	nd := &t.nodes[n]
	edges := t.edges[nd.edgeLo : nd.edgeLo+nd.edgeN]
	if len(edges) <= 8 {
		for i := range edges {
			if edges[i].first == c {
				return edges[i].child
			}
		}
		return -1
	}
	lo, hi := 0, len(edges)
	for lo < hi {
		mid := int(uint(lo+hi) >> 1)
		if edges[mid].first < c {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	if lo < len(edges) && edges[lo].first == c {
		return edges[lo].child
	}
	return -1
}

// buildTrie lays out a trie of keys, which must be sorted and distinct,
// giving the node of keys[i] the value vals[i] and every other node -1. It
// works depth-first on the sorted keys, so each node's children are placed
// side by side without any intermediate tree. It builds in scratch, whose
// buffers it keeps for the next call, and returns a copy of exactly the
// size needed: the bound on the size is about twice the usual one.
func buildTrie(keys []string, vals []int32, scratch *trie) trie {
	// A radix tree of n keys has at most 2n nodes.
	t := trie{nodes: slices.Grow(scratch.nodes[:0], 2*len(keys)+1), edges: slices.Grow(scratch.edges[:0], 2*len(keys))}
	t.nodes = append(t.nodes, trieNode{val: -1})
	if len(keys) > 0 {
		t.build(0, keys, vals, 0)
	}
	*scratch = t
	return trie{nodes: slices.Clone(t.nodes), edges: slices.Clone(t.edges)}
}

// build fills node n from keys, all of which share their first depth bytes.
func (t *trie) build(n int32, keys []string, vals []int32, depth int) {
	if len(keys[0]) == depth {
		// Sorted and distinct: only the first key can end here.
		t.nodes[n].val = vals[0]
		keys, vals = keys[1:], vals[1:]
	}
	first := int32(len(t.nodes))
	t.nodes[n].edgeLo = int32(len(t.edges))
	for i := 0; i < len(keys); {
		j := groupEnd(keys, i, depth)
		// Sorted keys: what the first and last share, they all share.
		a, b := keys[i], keys[j-1]
		l := depth + 1
		for l < len(a) && l < len(b) && a[l] == b[l] {
			l++
		}
		t.edges = append(t.edges, trieEdge{first: a[depth], child: int32(len(t.nodes))})
		t.nodes = append(t.nodes, trieNode{label: a[depth:l], val: -1})
		i = j
	}
	t.nodes[n].edgeN = int32(len(t.nodes)) - first
	for i, c := 0, first; i < len(keys); c++ {
		j := groupEnd(keys, i, depth)
		t.build(c, keys[i:j], vals[i:j], depth+len(t.nodes[c].label))
		i = j
	}
}

// groupEnd returns the end of the run of keys from i with the same byte at
// depth.
func groupEnd(keys []string, i, depth int) int {
	c := keys[i][depth]
	j := i + 1
	for j < len(keys) && keys[j][depth] == c {
		j++
	}
	return j
}

// next follows from node n along p at depth: the child whose label p has
// at depth, and the depth after it; -1 when there is none.
func (t *trie) next(n int32, p []byte, depth int) (int32, int) {
	if depth >= len(p) {
		return -1, depth
	}
	c := t.child(n, p[depth])
	if c < 0 {
		return -1, depth
	}
	lab := t.nodes[c].label
	if len(p)-depth < len(lab) || string(p[depth:depth+len(lab)]) != lab {
		return -1, depth
	}
	return c, depth + len(lab)
}
