package robots

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"runtime"
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
	{"500KB-no-trigram", func() string {
		return hsFill(func(i int) string { return fmt.Sprintf("allow:/*%c*%c%c\n", 'a'+i%26, 'A'+i/26%26, 'a'+i/676%26) })
	}, hsLongA},
	{"500KB-out-of-order", func() string {
		// Every "/*X*Y*Z" with X after Y in the alphabet: 8,450 distinct
		// rules, none matching, repeated to fill the file.
		var rules []string
		for x := 'a'; x <= 'z'; x++ {
			for y := 'a'; y < x; y++ {
				for z := 'a'; z <= 'z'; z++ {
					rules = append(rules, fmt.Sprintf("disallow:/*%c*%c*%c\n", x, y, z))
				}
			}
		}
		return hsFill(func(i int) string { return rules[i%len(rules)] })
	}, hsAlphabetPath},
}

// hsFill returns a "*" group of as many lines line(0), line(1), ... as
// fit in Parse's size limit.
func hsFill(line func(i int) string) string {
	var b strings.Builder
	b.WriteString("user-agent:*\n")
	for i := 0; ; i++ {
		l := line(i)
		if b.Len()+len(l) > DefaultMaxSize {
			return b.String()
		}
		b.WriteString(l)
	}
}

// hsAlphabetPath is 16 KB of "a"s, then "b"s, up to "z"s: every byte the
// out-of-order rules name is there, but mostly in the wrong order, so no
// filter helps and each distinct rule costs a pass over the path.
var hsAlphabetPath = func() string {
	var b strings.Builder
	b.WriteByte('/')
	for c := byte('a'); c <= 'z'; c++ {
		for i := 0; i < 630; i++ {
			b.WriteByte(c)
		}
	}
	return b.String()
}()

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
		if g.matcher().grams == nil {
			t.Fatalf("%s: not indexed", tc.name)
		}
		if n := testing.AllocsPerRun(100, func() { g.Decide(tc.path) }); n != 0 {
			t.Errorf("%s: Decide allocates %v times", tc.name, n)
		}
	}
}

// hsShapes are 500 KB files of shapes that stress what a parsed File
// keeps: merges, rules, agents, diagnostics.
var hsShapes = []struct {
	name string
	body func() []byte
}{
	{"hostile merge", func() []byte { return hsMergeFile(20, 900, 1400) }},
	{"generated 500KiB", func() []byte { return bnGenerated(DefaultMaxSize) }},
	{"tiny rules", func() []byte {
		return []byte(hsRepeatRules(DefaultMaxSize/9-2, "allow:/a"))
	}},
	{"tiny wildcard rules", func() []byte {
		var b strings.Builder
		b.WriteString("user-agent:*\n")
		for i := 0; b.Len() < DefaultMaxSize-20; i++ {
			fmt.Fprintf(&b, "allow:/*%c%c\n", 'a'+i%26, 'a'+i/26%26)
		}
		return []byte(b.String())
	}},
	{"tiny agents", func() []byte {
		var b strings.Builder
		for i := 0; b.Len() < DefaultMaxSize-20; i++ {
			fmt.Fprintf(&b, "user-agent:%c%c%c\n", 'a'+i%26, 'a'+i/26%26, 'a'+i/676%26)
			if i%2 == 0 {
				b.WriteString("allow:/\n")
			}
		}
		return []byte(b.String())
	}},
	{"tiny content-usage lines", func() []byte {
		var b strings.Builder
		b.WriteString("user-agent:*\n")
		for i := 0; b.Len() < DefaultMaxSize-30; i++ {
			if i%2 == 0 {
				fmt.Fprintf(&b, "content-usage:/%c%c%c x\n", 'a'+i%26, 'a'+i/26%26, 'a'+i/676%26)
			} else {
				fmt.Fprintf(&b, "content-usage:/*%c%c x\n", 'a'+i%26, 'a'+i/26%26)
			}
		}
		return []byte(b.String())
	}},
	{"agents cut short by crawl-delays, then rules", func() []byte {
		// Each agent gets a group of its own that borrows the rules
		// ending the run: one compiled matcher for all of them.
		var b strings.Builder
		for i := 0; b.Len() < DefaultMaxSize/2; i++ {
			fmt.Fprintf(&b, "user-agent:%c%c%c\ncrawl-delay:1\n", 'a'+i%26, 'a'+i/26%26, 'a'+i/676%26)
		}
		for i := 0; b.Len() < DefaultMaxSize-20; i++ {
			fmt.Fprintf(&b, "disallow:/*%c%c\n", 'a'+i%26, 'a'+i/26%26)
		}
		return []byte(b.String())
	}},
	{"tiny groups", hsTinyGroups},
	{"one diagnostic per line", func() []byte {
		return []byte(strings.Repeat("x:\n", DefaultMaxSize/3))
	}},
}

// hsHeapAfterParse returns how much more heap is in use while the File
// parsed from body is alive than before Parse.
func hsHeapAfterParse(body []byte) (f *File, grew uint64) {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	f = Parse(body)
	runtime.GC()
	runtime.ReadMemStats(&after)
	runtime.KeepAlive(body) // else it may be freed in between, and not counted in before
	if after.HeapAlloc < before.HeapAlloc {
		return f, 0
	}
	return f, after.HeapAlloc - before.HeapAlloc
}

// TestParseMemoryBound checks that a parsed File holds no more than a
// small multiple of its file's size, whatever the file's shape.
func TestParseMemoryBound(t *testing.T) {
	const maxRatio, maxUsedRatio = 20, 32
	for _, tc := range hsShapes {
		t.Run(tc.name, func(t *testing.T) {
			body := tc.body()
			if len(body) > DefaultMaxSize {
				t.Fatalf("file is %d bytes, more than Parse reads", len(body))
			}
			f, grew := hsHeapAfterParse(body)
			ratio := float64(grew) / float64(len(body))
			t.Logf("%d bytes, %d groups: File holds %d bytes, %.1f× the file", len(body), len(f.Groups()), grew, ratio)
			if ratio > maxRatio {
				t.Errorf("a File of a %d-byte file holds %d bytes, %.1f× its size; want at most %d×", len(body), grew, ratio, maxRatio)
			}
			// Groups compile their rules when they first decide: with
			// every group used, as by a client trying each agent of
			// the file in turn, a File holds more.
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			for _, g := range f.Groups() {
				g.Decide("/")
			}
			runtime.GC() // twice: the first only moves pooled scratch to the victim cache
			runtime.GC()
			runtime.ReadMemStats(&after)
			used := float64(grew+after.HeapAlloc-min(before.HeapAlloc, after.HeapAlloc)) / float64(len(body))
			t.Logf("with every group used: %.1f× the file", used)
			if used > maxUsedRatio {
				t.Errorf("with every group used, a File of a %d-byte file holds %.1f× its size; want at most %d×", len(body), used, maxUsedRatio)
			}
			runtime.KeepAlive(f)
		})
	}
}

// TestMergedGroupsShareRules checks what merged groups share: agents
// named by the same groups get one Group, a Group of one written group
// uses that group's matcher, and past the compile budget a merge asks the
// matchers of its parts, with the verdicts of the reference matcher.
func TestMergedGroupsShareRules(t *testing.T) {
	body := string(hsMergeFile(6, 12, 20))
	f := Parse([]byte(body))
	parts, own := 0, 0
	for _, g := range f.Groups() {
		if g.matcher() == nil {
			parts++
			if len(g.parts) != 3 {
				t.Errorf("group %v asks %d matchers, want 3", g.Agents, len(g.parts))
			}
		} else {
			own++
		}
		if len(g.Rules()) != 3*12 {
			t.Errorf("group %v has %d rules, want %d", g.Agents, len(g.Rules()), 3*12)
		}
	}
	if parts == 0 || own == 0 {
		t.Fatalf("%d groups with a matcher of their own, %d asking their parts; the test wants both", own, parts)
	}
	rng := rand.New(rand.NewPCG(1, 1))
	for k := 0; k < 300; k++ {
		path := fmt.Sprintf("/%c%c%c", 'a'+rng.IntN(7), 'a'+rng.IntN(26), 'a'+rng.IntN(26))
		if k%3 == 0 {
			path += fmt.Sprintf("/x.%c%c", 'a'+rng.IntN(7), 'a'+rng.IntN(26))
		}
		fzCheckDecide(t, f, body, path)
	}

	f = Parse([]byte("user-agent: a\nuser-agent: b\ndisallow: /x\nuser-agent: c\ndisallow: /y\nuser-agent: a\nuser-agent: b\nallow: /x/z\n"))
	a, b, c := f.GroupFor("a"), f.GroupFor("b"), f.GroupFor("c")
	if a != b || a == c || len(f.Groups()) != 2 {
		t.Errorf("a and b are named by the same groups and should share one Group, c not: %v", agentsOf(f))
	}
	if !reflect.DeepEqual(a.Agents, []string{"a", "b"}) || !reflect.DeepEqual(c.Agents, []string{"c"}) {
		t.Errorf("agents = %v, want [[a b] [c]]", agentsOf(f))
	}
	if &c.Rules()[0] != &c.src[0].rules[0] {
		t.Error("a group of one written group should share its rules, not copy them")
	}
}

func TestDiagnosticsCapped(t *testing.T) {
	body := strings.Repeat("x:\n", 3*maxDiagnostics) + "user-agent: *\ndisallow: nowhere\n"
	f := Parse([]byte(body))
	d := f.Diagnostics()
	if len(d) != maxDiagnostics+1 {
		t.Fatalf("%d diagnostics, want %d and a summary", len(d), maxDiagnostics)
	}
	last := d[len(d)-1]
	if last.Kind != KindTooMany || last.Severity != Error || last.Line != 3*maxDiagnostics+2 {
		t.Errorf("summary = %+v; want kind %s, severity error, line %d", last, KindTooMany, 3*maxDiagnostics+2)
	}
	if !f.HasErrors() {
		t.Error("an error past the cap still counts")
	}
	f = Parse([]byte(body + strings.Repeat("#", DefaultMaxSize)))
	if d := f.Diagnostics(); d[len(d)-1].Kind != KindSizeLimit {
		t.Errorf("the size limit should be reported past the cap too; last diagnostic is %v", d[len(d)-1])
	}
}

// TestRepeatedWildcardRulesKeptOnce checks that copies of one wildcard
// rule are tried once, and that the copy that decides is the one Google
// reports: the allow of equal priority, then the earliest line.
func TestRepeatedWildcardRulesKeptOnce(t *testing.T) {
	g := Parse([]byte(hsRepeatRules(200, "Disallow: /*aaa*xy"))).GroupFor("x")
	if len(g.matcher().wilds) != 1 || len(g.Rules()) != 200 {
		t.Errorf("%d wildcard rules kept of %d written, want 1", len(g.matcher().wilds), len(g.Rules()))
	}
	if v := g.Decide("/aaaxy"); v.Allowed || v.Rule.Line != 2 {
		t.Errorf("Decide = %+v, want the first copy (line 2)", v)
	}
	// "/*%61*b" matches what "/*a*b" matches, and ranks as it does: one
	// more copy, not a longer rule that outranks the allows (Google
	// ranks it longer but matches it only where a URL spells "%61").
	g = Parse([]byte("user-agent: *\ndisallow: /*a*b\nallow: /*a*b$\ndisallow: /*a*b\nallow: /*a*b\nallow: /*a*b\ndisallow: /*%61*b\n")).GroupFor("x")
	for _, tc := range []struct {
		path    string
		line    int
		allowed bool
	}{{"/ab", 3, true}, {"/abc", 5, true}, {"/a", 0, true}} {
		if v := g.Decide(tc.path); v.Allowed != tc.allowed || ruleLineOf(v) != tc.line {
			t.Errorf("Decide(%q) = %v line %d, want %v line %d", tc.path, v.Allowed, ruleLineOf(v), tc.allowed, tc.line)
		}
	}
	// Without the longer spelling, the allows of equal priority win, and
	// the earliest of them is reported.
	g = Parse([]byte("user-agent: *\ndisallow: /*a*b\nallow: /*a*b$\ndisallow: /*a*b\nallow: /*a*b\nallow: /*a*b\n")).GroupFor("x")
	if v := g.Decide("/abc"); !v.Allowed || ruleLineOf(v) != 5 {
		t.Errorf("Decide(/abc) = %v line %d, want allowed by line 5", v.Allowed, ruleLineOf(v))
	}
	if v := g.Decide("/ab"); !v.Allowed || ruleLineOf(v) != 3 {
		t.Errorf("Decide(/ab) = %v line %d, want allowed by line 3 (one longer, with its $)", v.Allowed, ruleLineOf(v))
	}
}

func ruleLineOf(v Verdict) int {
	if v.Rule == nil {
		return 0
	}
	return v.Rule.Line
}

// BenchmarkDecideHostileMerge decides for agents of the hostile merge
// file, most of whose groups ask the matchers of their ten parts.
func BenchmarkDecideHostileMerge(b *testing.B) {
	f := Parse(hsMergeFile(20, 900, 1400))
	groups := f.Groups()
	paths := []string{"/", "/aab", "/cba/x", "/tzz", "/x/y.ab", "/index.html?q=1"}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		bnSinkVerdict = groups[i%len(groups)].Decide(paths[i%len(paths)])
		i++
	}
}

// BenchmarkGroupForUserAgentHostile: a header of names the file knows,
// inside one long address (each found once, the address read once) or in
// words of their own, costs time linear in its length: the 20 KB header
// within a small factor of 100 times the 200-byte one.
func BenchmarkGroupForUserAgentHostile(b *testing.B) {
	f := Parse([]byte("User-agent: a\nDisallow: /a\n\nUser-agent: ab\nDisallow: /b\n"))
	for _, bc := range []struct {
		name string
		unit string
	}{
		{"address", "/a/ab"},
		{"words", " a;ab"},
	} {
		for _, size := range []int{200, 20000} {
			h := strings.Repeat(bc.unit, size/len(bc.unit))
			if bc.name == "address" {
				h = "http://x" + h
			}
			b.Run(fmt.Sprintf("%s/%d", bc.name, size), func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					bnSinkGroup, _ = f.GroupForUserAgent(h)
				}
			})
		}
	}
}

// hsDigitNames is a group of n user-agent lines that all read as the
// token "MJ", each naming a crawler of its own with digits ("MJ17bot").
func hsDigitNames(n int) []byte {
	var b strings.Builder
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "User-agent: MJ%dbot\n", i)
	}
	b.WriteString("Disallow: /\n")
	return []byte(b.String())
}

// TestManyNamesWithDigits: a group of 20,000 names with digits holds each of
// its crawlers to it, and looking a header up in it allocates nothing.
// Its cost against 2,000 such names is BenchmarkNamesWithDigits's to
// show: a file of them was once parsed in quadratic time (about a second
// at 500 KiB), and a header of words that are none of them compared each
// word with each name.
func TestManyNamesWithDigits(t *testing.T) {
	fb := Parse(hsDigitNames(20000))
	for _, ua := range []string{"Mozilla/5.0 (compatible; mj19999BOT/1.0)", "MJ0bot/2", "Mozilla/5.0 (compatible; MJ12345bot; +http://x)"} {
		if g, _ := fb.GroupForUserAgent(ua); g == nil || g.Decide("/x").Allowed {
			t.Errorf("%q is not held to its group", ua)
		}
	}
	if g, _ := fb.GroupForUserAgent("Mozilla/5.0 (compatible; MJ20000bot/1.0)"); g != nil {
		t.Errorf("MJ20000bot, which the file does not name, is held to a group")
	}
	h := strings.Repeat("MJ9999999x ", 8192/11)
	if n := testing.AllocsPerRun(100, func() { bnSinkGroup, _ = fb.GroupForUserAgent(h) }); n != 0 {
		t.Errorf("GroupForUserAgent allocates %v times", n)
	}
}

// BenchmarkNamesWithDigits parses a group of 2,000 and of 20,000 names
// with digits, and looks an 8 KB header of words that are none of them
// up in each: both should grow with the file, not with its square, and
// the lookup not with the names' number times the header's length.
func BenchmarkNamesWithDigits(b *testing.B) {
	h := strings.Repeat("MJ9999999x ", 8192/11)
	for _, n := range []int{2000, 20000} {
		body := hsDigitNames(n)
		b.Run(fmt.Sprintf("parse/%d", n), func(b *testing.B) {
			b.SetBytes(int64(len(body)))
			b.ReportAllocs()
			for b.Loop() {
				Parse(body)
			}
		})
		f := Parse(body)
		b.Run(fmt.Sprintf("8KB-header/%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				bnSinkGroup, _ = f.GroupForUserAgent(h)
			}
		})
	}
}

// hsTrigramFlood returns the audit's wildcard file: a "*" group of 24,380
// rules "/*<t>*zzzq", each t a different three-byte string over [a-z0-9]
// in shuffled order, and the trigrams in file order, so that a path can
// hold many of them.
func hsTrigramFlood() (body string, grams []string) {
	const alnum = "abcdefghijklmnopqrstuvwxyz0123456789"
	for _, a := range alnum {
		for _, b := range alnum {
			for _, c := range alnum {
				grams = append(grams, string([]rune{a, b, c}))
			}
		}
	}
	rng := rand.New(rand.NewPCG(29, 31))
	rng.Shuffle(len(grams), func(i, j int) { grams[i], grams[j] = grams[j], grams[i] })
	grams = grams[:24380]
	var b strings.Builder
	b.WriteString("User-agent: *\n")
	for _, g := range grams {
		fmt.Fprintf(&b, "Disallow: /*%s*zzzq\n", g)
	}
	return b.String(), grams
}

// hsTrigramFloodPath is a path of size bytes holding the flood's trigrams
// one after another, and the bytes z and q, but never "zzzq": every rule
// whose trigram it holds is tried, and none matches.
func hsTrigramFloodPath(grams []string, size int) string {
	return "/" + strings.Join(grams, "")[:size-3] + "zq"
}

// BenchmarkDecideTrigramFlood: one Decide on the flood, for paths of 2 to
// 16 KB, to show how its cost grows with the path's length.
func BenchmarkDecideTrigramFlood(b *testing.B) {
	body, grams := hsTrigramFlood()
	g := Parse([]byte(body)).GroupFor("x")
	for _, kb := range []int{2, 4, 8, 16} {
		path := hsTrigramFloodPath(grams, kb*1024)
		b.Run(fmt.Sprintf("%dKB", kb), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				bnSinkVerdict = g.Decide(path)
			}
		})
	}
}

// hsTinyGroups is a 500 KiB file of as many groups as fit, each naming
// one agent and allowing "/": the most groups per byte of text.
func hsTinyGroups() []byte {
	var b strings.Builder
	for i := 0; ; i++ {
		l := fmt.Sprintf("user-agent:b%d\nallow:/\n", i)
		if b.Len()+len(l) > DefaultMaxSize {
			return []byte(b.String())
		}
		b.WriteString(l)
	}
}

// BenchmarkParseTinyGroups reports the heap a File of hsTinyGroups holds,
// per byte of its text.
func BenchmarkParseTinyGroups(b *testing.B) {
	body := hsTinyGroups()
	_, grew := hsHeapAfterParse(body)
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for b.Loop() {
		bnSinkFile = Parse(body)
	}
	b.ReportMetric(float64(grew)/float64(len(body)), "heap/byte")
}

// TestPathIndexFind checks pathIndex.search and find against
// strings.Index: segments of each length the index treats apart (1 to 3
// bytes exactly, 4 to 7 by trigrams, 8 and more by hashed 8-grams),
// present, absent, and present only before the query, and queries of one
// segment in any order, which the memo of find must survive.
func TestPathIndexFind(t *testing.T) {
	naive := func(p, s string, x, lim int) int {
		if x > len(p) {
			return -1
		}
		if i := strings.Index(p[x:], s); i >= 0 && x+i < lim {
			return x + i
		}
		return -1
	}
	for _, tc := range []struct {
		name, path string
		segs       []string
	}{
		{"short path", "/ab", []string{"a", "ab", "abc", "abcd", "abcdefgh", "/"}},
		{"periodic", "/" + strings.Repeat("ab", 300), []string{"a", "ba", "bab", "abab", "ababa", "abababab", "ababababb", "aa", "aab"}},
		{"absent after", "/" + strings.Repeat("xyz", 50) + strings.Repeat("q", 200), []string{"x", "yz", "xyz", "zxyz", "xyzxyzxy", "xyzq", "qqqqqqqqq", "zq"}},
		{"all bytes", func() string {
			var b strings.Builder
			for i := 0; i < 3; i++ {
				for c := 0; c < 256; c++ {
					b.WriteByte(byte(c))
				}
			}
			return b.String()
		}(), []string{"\x00", "\xff\x00", "\xfe\xff\x00", "\xfd\xfe\xff\x00\x01", "abcdefghij", "\x00\x00"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(5, uint64(len(tc.path))))
			for _, s := range tc.segs {
				for k := 0; k < 50; k++ {
					x, lim := rng.IntN(len(tc.path)+2), rng.IntN(len(tc.path)+2)
					ix := getPathIndex([]byte(tc.path), 0)
					if got, want := ix.search(s, x, lim), naive(tc.path, s, x, lim); got != want {
						t.Errorf("search(%q, %d, %d) = %d, want %d", s, x, lim, got, want)
					}
					putPathIndex(ix)
				}
			}
			// One index, one id per segment: every query after the
			// first meets the memo.
			ix := getPathIndex([]byte(tc.path), len(tc.segs))
			defer putPathIndex(ix)
			for k := 0; k < 2000; k++ {
				id := rng.IntN(len(tc.segs))
				s, x := tc.segs[id], rng.IntN(len(tc.path)+2)
				if got, want := ix.find(s, int32(id), x), naive(tc.path, s, x, len(tc.path)+1); got != want {
					t.Fatalf("query %d: find(%q, %d) = %d, want %d", k, s, x, got, want)
				}
			}
		})
	}
}

// hsIndexWorstCase is the worst case known for the path index (see
// wildTry): rules "/*<s>", s each string of 5 to 7 bytes over "abcd"
// that a 16 KB random path over the same letters lacks, against that
// path. Each such s costs a check at every place its rarest trigram
// occurs, about 16 KB / 64.
func hsIndexWorstCase() (body, path string) {
	rng := rand.New(rand.NewPCG(37, 41))
	path = hsRandomPath(rng, "abcd")
	var segs []string
	var gen func(prefix string, n int)
	gen = func(prefix string, n int) {
		if n == 0 {
			if !strings.Contains(path, prefix) {
				segs = append(segs, prefix)
			}
			return
		}
		for _, c := range "abcd" {
			gen(prefix+string(c), n-1)
		}
	}
	for n := 5; n <= 7; n++ {
		gen("", n)
	}
	rng.Shuffle(len(segs), func(i, j int) { segs[i], segs[j] = segs[j], segs[i] })
	return hsFill(func(i int) string { return "disallow:/*" + segs[i%len(segs)] + "\n" }), path
}

// hsRandomPath is "/" and 16 KB of letters drawn at random.
func hsRandomPath(rng *rand.Rand, letters string) string {
	var pb strings.Builder
	pb.WriteByte('/')
	for pb.Len() < 16*1024 {
		pb.WriteByte(letters[rng.IntN(len(letters))])
	}
	return pb.String()
}

// hsIndexWorstCaseLong is hsIndexWorstCase for segments of 8 bytes and
// more, which the index finds by their rarest 8-gram: random 12- to 14-byte
// strings over "ab" that a random 16 KB path over "ab" does not hold,
// though it holds each of their 8-grams about 64 times.
func hsIndexWorstCaseLong() (body, path string) {
	rng := rand.New(rand.NewPCG(43, 47))
	path = hsRandomPath(rng, "ab")
	seg := func() string {
		for {
			b := make([]byte, 12+rng.IntN(3))
			for i := range b {
				b[i] = "ab"[rng.IntN(2)]
			}
			if !strings.Contains(path, string(b)) {
				return string(b)
			}
		}
	}
	return hsFill(func(int) string { return "disallow:/*" + seg() + "\n" }), path
}

func BenchmarkDecideIndexWorstCase(b *testing.B) {
	for _, c := range []struct {
		name string
		make func() (string, string)
	}{
		{"5-7-bytes", hsIndexWorstCase},
		{"12-14-bytes", hsIndexWorstCaseLong},
	} {
		body, path := c.make()
		g := Parse([]byte(body)).GroupFor("x")
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				bnSinkVerdict = g.Decide(path)
			}
		})
	}
}

// TestLazyMatchersConcurrent decides for every group of a fresh File from
// several goroutines at once, so that the race detector sees groups
// compiled on first use by concurrent Decides, and checks that they agree
// and that each group keeps one matcher.
func TestLazyMatchersConcurrent(t *testing.T) {
	body := string(hsMergeFile(6, 12, 20)) + "user-agent: solo\ndisallow: /a*b\n"
	f := Parse([]byte(body))
	groups := f.Groups()
	paths := []string{"/aab", "/ab/x", "/cba/x.cb", "/x"}
	want := make([]Verdict, len(groups)*len(paths))
	done := make(chan []Verdict)
	for range 4 {
		go func() {
			got := make([]Verdict, len(want))
			for i, g := range groups {
				for k, p := range paths {
					got[i*len(paths)+k] = g.Decide(p)
				}
			}
			done <- got
		}()
	}
	for w := range 4 {
		got := <-done
		if w == 0 {
			copy(want, got)
		} else if !reflect.DeepEqual(got, want) {
			t.Fatal("concurrent Decides disagree")
		}
	}
	for _, g := range groups {
		if m := g.matcher(); m != g.matcher() {
			t.Errorf("group %v: matcher changed between calls", g.Agents)
		}
		if g.lender != nil && g.matcher() != g.lender.matcher() {
			t.Errorf("group %v does not share its written group's matcher", g.Agents)
		}
	}
	for _, p := range paths {
		fzCheckDecide(t, f, body, p)
	}
}

// hsPartsFile is a file whose agent "victim" obeys a merge of as many
// written groups as fit in 500 KiB, more than the file compiles merged:
// "first", named in every group but the last, takes the merge budget, so
// victim's Group asks the matcher of each part. Each group holds wilds
// wildcard rules "/*z<group>-<rule>~", which a path of z bytes never
// matches but makes each part try.
func hsPartsFile(wilds int) []byte {
	var b strings.Builder
	for i := 0; b.Len() < DefaultMaxSize-4096; i++ {
		b.WriteString("user-agent:first\nuser-agent:victim\n")
		for k := 0; k < wilds; k++ {
			fmt.Fprintf(&b, "disallow:/*z%d-%d~\n", i, k)
		}
	}
	b.WriteString("user-agent:victim\ndisallow:/*zlast~\n")
	return []byte(b.String())
}

// hsUsageFile is a file of as many "*" groups as fit in 500 KiB, each with
// a Content-Usage line of its own wildcard path, which a path of z bytes
// never matches.
func hsUsageFile() []byte {
	var b strings.Builder
	for i := 0; b.Len() < DefaultMaxSize-4096; i++ {
		fmt.Fprintf(&b, "user-agent:*\ncontent-usage:/*z%d~ train-ai=n\ndisallow:/p%d/\n", i, i)
	}
	return []byte(b.String())
}

// TestPartsShareOneTry checks a Group that asks its parts, and Signals
// over many written groups, where one wildTry, and so one index of the
// path, serves matchers that number their segments each its own way: the
// verdicts are the reference's, whether the tries scan or use the index.
func TestPartsShareOneTry(t *testing.T) {
	rng := rand.New(rand.NewPCG(41, 43))
	pieces := []string{"a", "ab", "abc", "bcd", "cab", "x", ".php", "?id=", "zz"}
	word := func(n int) string {
		var b strings.Builder
		for i := 1 + rng.IntN(n); i > 0; i-- {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		return b.String()
	}
	for file := 0; file < 12; file++ {
		var body strings.Builder
		groups := 3 + rng.IntN(4)
		for g := 0; g < groups; g++ {
			if g+1 < groups {
				body.WriteString("user-agent: first\n")
			}
			body.WriteString("user-agent: victim\n")
			// Some parts have enough wildcard rules to number their
			// segments and index them; others try theirs in order.
			n := 1 + rng.IntN(4)
			if rng.IntN(2) == 0 {
				n = minIndexedWilds + rng.IntN(minIndexedWilds)
			}
			for r := 0; r < n; r++ {
				d := "disallow"
				if rng.IntN(3) == 0 {
					d = "allow"
				}
				fmt.Fprintf(&body, "%s: /%s*%s*%s\n", d, word(1)[:1], word(2), word(2))
				fmt.Fprintf(&body, "content-usage: /*%s*%s train-ai=%c\n", word(2), word(1), "yn"[rng.IntN(2)])
			}
		}
		text := body.String()
		f := Parse([]byte(text))
		victim := f.GroupFor("victim")
		if victim.matcher() != nil || len(victim.parts) < 2 {
			t.Fatalf("victim's group has a matcher of its own (%d parts); the test wants one that asks its parts\n%s", len(victim.parts), text)
		}
		for k := 0; k < 300; k++ {
			path := "/" + word(12)
			fzCheckDecide(t, f, text, path)
			if got, want := fzVerdictOf(fzDecideIndexed(victim, path)), fzRefDecide(fzRefRules(victim), path); got != want {
				t.Fatalf("indexed Decide(%q) = %v, reference says %v\n%s", path, got, want, text)
			}
			want := victim.Signals(path)
			if got := hsSignalsIndexed(victim, path); got != want {
				t.Fatalf("indexed Signals(%q) = %+v, scanned %+v\n%s", path, got, want, text)
			}
		}
	}
}

// hsSignalsIndexed is g.Signals(path) with every wildcard try done with a
// pathIndex, from the first.
func hsSignalsIndexed(g *Group, path string) Signals {
	defer fzIndexEverything()()
	return g.Signals(path)
}

// BenchmarkDecideHostileParts: a 16 KB path of z bytes against a group
// asking the matchers of ten thousand parts, each of one wildcard rule, or
// of several hundred parts, each of enough wildcard rules to be indexed; and
// Signals against ten thousand "*" groups of a Content-Usage line each.
// Every part is asked, and each rule of it tried, or looked up, once.
func BenchmarkDecideHostileParts(b *testing.B) {
	path := "/" + strings.Repeat("z", 16000)
	for _, c := range []struct {
		name  string
		wilds int
	}{{"one-wildcard", 1}, {"indexed", minIndexedWilds}} {
		g := Parse(hsPartsFile(c.wilds)).GroupFor("victim")
		if len(g.parts) < 500 {
			b.Fatalf("victim asks %d parts, want over 500", len(g.parts))
		}
		b.Run(fmt.Sprintf("%s-%dparts", c.name, len(g.parts)), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				bnSinkVerdict = g.Decide(path)
			}
		})
	}
	g := Parse(hsUsageFile()).GroupFor("x")
	b.Run(fmt.Sprintf("signals-%dgroups", len(g.src)), func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			bnSinkSignals = g.Signals(path)
		}
	})
}

// BenchmarkGroupsNamedInHostile: a header naming thousands of a file's
// groups, each several times, costs time linear in its length, though up
// to 256 groups are kept: the 20 KB header within a small factor of 100
// times the 200-byte one.
func BenchmarkGroupsNamedInHostile(b *testing.B) {
	var file strings.Builder
	for i := range 4000 {
		fmt.Fprintf(&file, "User-agent: b%d\nDisallow: /x%d\n\n", i, i)
	}
	f := Parse([]byte(file.String()))
	for _, size := range []int{200, 20000} {
		var h strings.Builder
		for i := 0; h.Len() < size; i++ {
			fmt.Fprintf(&h, "b%d/1 b%d/1 ", i%3000, i%7)
		}
		b.Run(fmt.Sprint(size), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				bnSinkGroups = f.GroupsNamedIn(h.String(), 256, func(string, int, bool) bool { return true })
			}
		})
	}
}

var bnSinkGroups []*Group

// BenchmarkParseEscapedReserved: a file of the largest size, every line a
// disallow that escapes a reserved character in one group, costs what a
// file of plain lines does, give or take the findings: each line's
// decoded form is looked up in a set of the group's, not among its rules.
func BenchmarkParseEscapedReserved(b *testing.B) {
	for name, format := range map[string]string{"escaped": "Disallow: /p%%28%d%%29\n", "plain": "Disallow: /p(%d)\n"} {
		var sb strings.Builder
		sb.WriteString("User-agent: *\n")
		for i := 0; sb.Len() < DefaultMaxSize-64; i++ {
			fmt.Fprintf(&sb, format, i)
		}
		body := []byte(sb.String())
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				Parse(body)
			}
		})
	}
}
