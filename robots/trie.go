package robots

import "sort"

// trie is a byte trie flattened into two arrays, so that a lookup touches
// few cache lines and allocates nothing. Each node carries one int32 value
// whose meaning is the user's (an index into a side table, or -1).
type trie struct {
	nodes []trieNode
	edges []trieEdge
}

type trieNode struct {
	edgeLo, edgeN int32 // children are edges[edgeLo : edgeLo+edgeN], by label
	val           int32
}

type trieEdge struct {
	label byte
	child int32
}

// child returns the node reached from node n by byte c, or -1.
func (t *trie) child(n int32, c byte) int32 {
	nd := &t.nodes[n]
	edges := t.edges[nd.edgeLo : nd.edgeLo+nd.edgeN]
	if len(edges) <= 8 {
		for i := range edges {
			if edges[i].label == c {
				return edges[i].child
			}
		}
		return -1
	}
	lo, hi := 0, len(edges)
	for lo < hi {
		mid := int(uint(lo+hi) >> 1)
		if edges[mid].label < c {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	if lo < len(edges) && edges[lo].label == c {
		return edges[lo].child
	}
	return -1
}

// buildNode is the mutable form of a trie node, used while building.
type buildNode struct {
	children map[byte]*buildNode
	val      int32
}

func newBuildNode() *buildNode { return &buildNode{val: -1} }

// walk returns the node for key, creating the nodes on the way.
func (b *buildNode) walk(key string) *buildNode {
	n := b
	for i := 0; i < len(key); i++ {
		if n.children == nil {
			n.children = make(map[byte]*buildNode)
		}
		c, ok := n.children[key[i]]
		if !ok {
			c = newBuildNode()
			n.children[key[i]] = c
		}
		n = c
	}
	return n
}

// flatten lays the trie out breadth-first, so that each node's children sit
// side by side and are sorted by label.
func (b *buildNode) flatten() trie {
	var t trie
	queue := []*buildNode{b}
	t.nodes = append(t.nodes, trieNode{val: b.val})
	for qi := 0; qi < len(queue); qi++ {
		bn := queue[qi]
		labels := make([]int, 0, len(bn.children))
		for c := range bn.children {
			labels = append(labels, int(c))
		}
		sort.Ints(labels)
		t.nodes[qi].edgeLo, t.nodes[qi].edgeN = int32(len(t.edges)), int32(len(labels))
		for _, c := range labels {
			cn := bn.children[byte(c)]
			t.edges = append(t.edges, trieEdge{label: byte(c), child: int32(len(t.nodes))})
			t.nodes = append(t.nodes, trieNode{val: cn.val})
			queue = append(queue, cn)
		}
	}
	return t
}
