package robots

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// Helpers in this file are prefixed "hs" so that they cannot collide with
// helpers of other test files of the package.

// hsRepeatRules returns a "*" group of n copies of one rule line.
func hsRepeatRules(n int, rule string) string {
	var b strings.Builder
	b.WriteString("User-agent: *\n")
	for i := 0; i < n; i++ {
		b.WriteString(rule)
		b.WriteByte('\n')
	}
	return b.String()
}

// hsParamRules is a realistic file of n query-parameter rules.
func hsParamRules(n int) string {
	var b strings.Builder
	b.WriteString("User-agent: *\n")
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "Disallow: /*?param%d=\n", i)
	}
	return b.String()
}

// hsParamPath is a 16 KB path whose query names every parameter of
// hsParamRules, none of them followed by "=", so that each rule's rarest
// trigram occurs at hundreds of places and no rule matches.
func hsParamPath(size int) string {
	var b strings.Builder
	b.WriteString("/search")
	for i := 0; b.Len() < size; i++ {
		fmt.Fprintf(&b, "?param%d&", i%40)
	}
	return b.String()[:size]
}

// hsDeepNodes puts 32 wildcard rules on each of depth nodes along one
// path: "/a*aaa*xy", "/aa*aaa*xy", ..., each node big enough to be indexed.
func hsDeepNodes(depth int) string {
	var b strings.Builder
	b.WriteString("User-agent: *\n")
	for d := 1; d <= depth; d++ {
		for k := 0; k < minIndexedWilds; k++ {
			fmt.Fprintf(&b, "Disallow: /%s*aaa*xy\n", strings.Repeat("a", d))
		}
	}
	return b.String()
}

// hsTwoByteTails returns n distinct rules "/*aaa*bc", "/*aaa*bd", ...:
// their only trigram is "aaa", so the index cannot tell them apart.
func hsTwoByteTails(n int) string {
	var b strings.Builder
	b.WriteString("User-agent: *\n")
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "Disallow: /*aaa*%c%c\n", 'b'+i/20, 'b'+i%20)
	}
	return b.String()
}

var hsLongA = "/" + strings.Repeat("a", 16*1024-1)

// hsWildcardCases are hostile wildcard inputs: a 16 KB path against rules
// whose text occurs all along it but which never match.
var hsWildcardCases = []struct {
	name string
	body func() string
	path string
}{
	{"aaa-xy/40", func() string { return hsRepeatRules(40, "Disallow: /*aaa*xy") }, hsLongA},
	{"aaa-xy/200", func() string { return hsRepeatRules(200, "Disallow: /*aaa*xy") }, hsLongA},
	{"aaa-2byte/200", func() string { return hsTwoByteTails(200) }, hsLongA},
	{"param/40", func() string { return hsParamRules(40) }, hsParamPath(16 * 1024)},
	{"deep-nodes/50x32", func() string { return hsDeepNodes(50) }, hsLongA},
}

func BenchmarkDecideHostileWildcard(b *testing.B) {
	for _, tc := range hsWildcardCases {
		b.Run(tc.name, func(b *testing.B) {
			g := Parse([]byte(tc.body())).GroupFor("x")
			b.ReportAllocs()
			for b.Loop() {
				bnSinkVerdict = g.Decide(tc.path)
			}
		})
	}
}

// hsMergeFile returns the hostile merge file: groups written groups of
// rules rules each, and agents agents, each named in a different half of
// the groups, so that every agent obeys its own merge of half the file.
// Agents are named with letters only, since a product token has no digits.
func hsMergeFile(groups, rules, agents int) []byte {
	rng := rand.New(rand.NewPCG(3, 5))
	name := func(i int) string {
		var s [4]byte
		for k := range s {
			s[k] = byte('a' + i%26)
			i /= 26
		}
		return string(s[:])
	}
	members := make([][]int, groups) // agents named by each group
	seen := map[uint64]bool{}
	for a := 0; a < agents; {
		perm := rng.Perm(groups)[:groups/2]
		var set uint64
		for _, g := range perm {
			set |= 1 << g
		}
		if seen[set] {
			continue
		}
		seen[set] = true
		for _, g := range perm {
			members[g] = append(members[g], a)
		}
		a++
	}
	var b strings.Builder
	for g := 0; g < groups; g++ {
		for _, a := range members[g] {
			fmt.Fprintf(&b, "User-agent:%s\n", name(a))
		}
		for r := 0; r < rules; r++ {
			if r%5 == 0 {
				fmt.Fprintf(&b, "Allow:/*.%c%c$\n", 'a'+g, 'a'+r%26)
			} else {
				fmt.Fprintf(&b, "Disallow:/%c%s\n", 'a'+g, name(r)[:2])
			}
		}
	}
	return []byte(b.String())
}

func BenchmarkParseHostileMerge(b *testing.B) {
	body := hsMergeFile(20, 900, 1400)
	if len(body) > DefaultMaxSize {
		b.Fatalf("hostile file is %d bytes, more than Parse reads", len(body))
	}
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for b.Loop() {
		bnSinkFile = Parse(body)
	}
}

// TestIndexedNodesMatchReference checks the matcher-wide trigram index
// where several nodes are indexed: nodes along the path and beside it,
// at different depths, each with enough wildcard rules to be indexed, and
// rules without a trigram among them.
func TestIndexedNodesMatchReference(t *testing.T) {
	prefixes := []string{"/", "/p", "/pa", "/pab", "/q", "/p/x"}
	pieces := []string{"/", "a", "ab", "abc", "bcd", "x", ".php", "?id=", "é", "%61", "$"}
	rng := rand.New(rand.NewPCG(13, 17))
	word := func(n int) string {
		var b strings.Builder
		for i := rng.IntN(n + 1); i > 0; i-- {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		return b.String()
	}
	for file := 0; file < 30; file++ {
		var body strings.Builder
		body.WriteString("user-agent: *\n")
		for _, pre := range prefixes {
			n := minIndexedWilds + rng.IntN(2*minIndexedWilds)
			if rng.IntN(4) == 0 {
				n = rng.IntN(minIndexedWilds) // this node is not indexed
			}
			for r := 0; r < n; r++ {
				d := "disallow"
				if rng.IntN(3) == 0 {
					d = "allow"
				}
				fmt.Fprintf(&body, "%s: %s*%s*%s\n", d, pre, word(2), word(2))
			}
			fmt.Fprintf(&body, "allow: %s%s\n", pre, word(2))
		}
		f := Parse([]byte(body.String()))
		for k := 0; k < 200; k++ {
			fzCheckDecide(t, f, body.String(), prefixes[rng.IntN(len(prefixes))]+word(8))
		}
	}
}

// TestIndexedDecideDoesNotAllocate covers both kinds of scratch of the
// trigram index: the stack bitset of a small index and the pooled stamps
// of a large one.
func TestIndexedDecideDoesNotAllocate(t *testing.T) {
	var large strings.Builder
	large.WriteString("User-agent: *\n")
	for i := 0; i < 2000; i++ {
		fmt.Fprintf(&large, "Disallow: /*x%dy*z\n", i)
	}
	for _, tc := range []struct {
		name, body, path string
	}{
		{"small index", hsParamRules(40), hsParamPath(4096)},
		{"large index", large.String(), "/a/x1y/x20y/x300y/x1999y?q=x42y"},
	} {
		g := Parse([]byte(tc.body)).GroupFor("x")
		if g.m.grams == nil {
			t.Fatalf("%s: not indexed", tc.name)
		}
		if n := testing.AllocsPerRun(100, func() { g.Decide(tc.path) }); n != 0 {
			t.Errorf("%s: Decide allocates %v times", tc.name, n)
		}
	}
}
