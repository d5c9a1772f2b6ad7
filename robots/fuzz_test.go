package robots

import (
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"strings"
	"testing"
)

// Helpers in this file are prefixed "fz" so that they cannot collide with
// helpers of other test files of the package.

// fzSeedFiles are realistic robots.txt bodies used as seeds by both fuzz
// targets.
var fzSeedFiles = []string{
	// Content signals and aipref usage preferences, some malformed.
	"User-agent: *\nContent-Signal: search=yes, ai-train=no, use=reference\nContent-Usage: /docs/ train-ai=y;p=\"x\", search=n\nContent-Usage: train-genai=n\nAllow: /\n\nUser-agent: GPTBot\nContent-Usage: /*.pdf$ Train-AI=?1,\nContent-Signal: ai-input\nDisallow: /private/\n",
	"content-signal: ai-train=no\r\nUser-agent: a\r\nContent-Usage: /a%7e/\t:aGk=:, b=@1, c=%\"%c3\"\r\nUser-agent: b\r\nUser-agent: a\r\nContent-Signal: search=no\r\nDisallow: /x\r\n",
	// Plain, LF.
	"User-agent: *\nDisallow: /private/\nAllow: /private/public.html\nSitemap: https://example.com/sitemap.xml\n",
	// BOM, CRLF, comments, several groups.
	"\xEF\xBB\xBF# robots.txt for example.com\r\nUser-agent: Googlebot\r\nUser-agent: Googlebot-News # news too\r\nDisallow: /search\r\nAllow: /search/about\r\n\r\nUser-agent: *\r\nDisallow: /cgi-bin/\r\nCrawl-delay: 10\r\n",
	// Old Mac CR line ends, partial BOM.
	"\xEF\xBBUser-agent: bingbot\rDisallow: /tmp\rAllow: /tmp/ok\r\rUser-agent: *\rDisallow:\r",
	// Misspellings and colon-less lines.
	"useragent: foo\ndisalow: /a\ndissallow: /b\nuser agent: bar\nallow /c\nsite-map: http://x.test/s.xml\nhost: example.com\nclean-param: ref /x\nnoindex: /y\n",
	// Wildcards, anchors, index.html.
	"User-agent: *\nDisallow: /*.php$\nDisallow: /*?sessionid=\nAllow: /fish*\nDisallow: /fish*.php\nAllow: /$\nDisallow: /\nAllow: /dir/index.html\nDisallow: /a$b\nDisallow: *.gif$\n",
	// Non-ASCII raw and percent-encoded.
	"User-agent: *\nDisallow: /ü/\nAllow: /%C3%BC/frei\nDisallow: /日本語/*\nAllow: /caf%c3%a9\nDisallow: /%7Euser/\nDisallow: /100%\n",
	// NUL byte, invalid UTF-8, junk.
	"User-agent: *\nDisallow: /a\x00/b\nDisallow: /\xff\xfe\n<html><body>not robots</body></html>\n:\n: value\nkey:\n",
	// Rules before any user-agent, empty agents, global group merges.
	"Disallow: /orphan\nUser-agent: */1.0\nUser-agent: * \nDisallow: /x\nUser-agent: a\nDisallow: /y\nUser-agent: *\nAllow: /x/y\nUser-agent: A\nCrawl-delay: 2.5\n",
	// Very long line.
	"User-agent: *\nDisallow: /" + strings.Repeat("long/", 4000) + "\nAllow: /ok\n",
	// Google's example groups.
	"user-agent: googlebot-news\ndisallow: /news-only\n\nuser-agent: *\ndisallow: /all\n\nuser-agent: googlebot\ndisallow: /web\n",
	"",
	"\n\n\n",
	"User-agent: GPTBot\nDisallow: /\n\nUser-agent: CCBot\nDisallow: /\n\nUser-agent: *\nAllow: /\n",
}

// fzPathsFor returns paths derived from a file body: every rule pattern and
// variations of it, plus a few fixed ones.
func fzPathsFor(f *File, body string) []string {
	paths := []string{"", "/", "/robots.txt", "/robots.txt?x=1", "/index.html", "/a/b?c=d"}
	for _, g := range f.Groups() {
		for i, r := range g.Rules() {
			if i >= 16 {
				break
			}
			p := r.Pattern
			paths = append(paths, p,
				strings.ReplaceAll(strings.TrimSuffix(p, "$"), "*", "x"),
				strings.ReplaceAll(p, "*", "")+"/tail?q=1")
		}
	}
	if len(body) > 80 {
		body = body[:80]
	}
	paths = append(paths, body, "/"+body)
	return paths
}

func FuzzParse(f *testing.F) {
	for _, s := range fzSeedFiles {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		file := Parse(body)
		if file == nil {
			t.Fatal("Parse returned nil")
		}
		prev := 0
		for _, d := range file.Diagnostics() {
			if d.Line < 1 {
				t.Fatalf("diagnostic with line %d < 1: %v", d.Line, d)
			}
			if d.Line < prev {
				t.Fatalf("diagnostics not in line order: line %d after line %d", d.Line, prev)
			}
			prev = d.Line
			_ = d.String()
		}
		_ = file.HasErrors()
		_ = file.Sitemaps()
		nGroups, nRules := file.Counts()
		if nGroups < 0 || nRules < 0 {
			t.Fatalf("Counts() = %d, %d", nGroups, nRules)
		}
		for _, g := range file.Groups() {
			for _, r := range g.Rules() {
				if r.Line < 1 {
					t.Fatalf("rule %q has line %d", r, r.Line)
				}
				if r.Pattern == "" {
					t.Fatalf("rule with an empty pattern at line %d", r.Line)
				}
			}
			for _, p := range fzPathsFor(file, string(body)) {
				_ = g.Decide(p)
				s := g.Signals(p)
				if s.Search > No || s.AIInput > No || s.AITrain > No {
					t.Fatalf("Signals(%q) = %+v", p, s)
				}
				_ = s.ContentUsage()
			}
		}
		for _, name := range file.Agents() {
			g := file.GroupFor(name)
			if g == nil {
				t.Fatalf("GroupFor(%q) = nil for an agent the file names", name)
			}
			found := false
			for _, a := range g.Agents {
				if strings.EqualFold(a, name) {
					found = true
				}
			}
			if !found {
				t.Fatalf("GroupFor(%q) returned a group for %q", name, g.Agents)
			}
			if BrowserToken(name) {
				// No client's header names a browser's token.
				if _, un := file.GroupForUserAgent(name); strings.EqualFold(un, name) {
					t.Fatalf("GroupForUserAgent(%q) chose the browser token %q", name, un)
				}
				continue
			}
			if ug, un := file.GroupForUserAgent(name); ug != g || !strings.EqualFold(un, name) {
				t.Fatalf("GroupForUserAgent(%q) = (%v, %q), GroupFor gives %v", name, ug.Agents, un, g.Agents)
			}
		}
		_ = file.GroupFor(string(body))
		_ = file.GroupFor("*")
		_, _ = file.GroupForUserAgent(string(body))
		_ = file.Allowed("googlebot", string(body))
	})
}

// fzRefRule is a rule as the reference matcher sees it.
type fzRefRule struct {
	directive Directive
	line      int
	canon     string // canonical pattern, "$" still at the end if anchored
	priority  int
}

// fzRefRules lists the rules of g the way the specification reads them,
// including the rule "allow: /dir/index.html" implies for "/dir/".
func fzRefRules(g *Group) []fzRefRule {
	var out []fzRefRule
	for _, r := range g.Rules() {
		out = append(out, fzRefRule{r.Directive, r.Line, canonicalPattern(r.Pattern, r.Directive == Disallow), priority(r.Pattern, r.Directive)})
		if r.Directive != Allow {
			continue
		}
		slash := strings.LastIndex(r.Pattern, "/")
		if slash >= 0 && strings.HasPrefix(r.Pattern[slash:], "/index.htm") {
			dir := r.Pattern[:slash+1]
			out = append(out, fzRefRule{Allow, r.Line, canonicalPattern(dir, false) + "$", priority(dir, Allow) + 1})
		}
	}
	return out
}

// fzGlob reports whether canonical pattern pat matches canonical path s:
// anchored at the start, "*" matches any byte sequence, a final "$" anchors
// the end, any other "$" is literal. It is a plain dynamic programme over
// (pattern prefix, path prefix).
func fzGlob(pat, s string) bool {
	anchored := strings.HasSuffix(pat, "$")
	if anchored {
		pat = pat[:len(pat)-1]
	}
	// cur[j]: pat[:i] matches s[:j] exactly.
	cur := make([]bool, len(s)+1)
	next := make([]bool, len(s)+1)
	cur[0] = true
	for i := 0; i < len(pat); i++ {
		c := pat[i]
		if c == '*' {
			seen := false
			for j := 0; j <= len(s); j++ {
				seen = seen || cur[j]
				next[j] = seen
			}
		} else {
			next[0] = false
			for j := 1; j <= len(s); j++ {
				next[j] = cur[j-1] && s[j-1] == c
			}
		}
		cur, next = next, cur
	}
	if anchored {
		return cur[len(s)]
	}
	for _, ok := range cur {
		if ok {
			return true
		}
	}
	return false
}

// fzRefVerdict is the reference outcome: allowed, and the deciding rule's
// line and directive (found false when no rule matched).
type fzRefVerdict struct {
	allowed   bool
	found     bool
	line      int
	directive Directive
}

func (v fzRefVerdict) String() string {
	if !v.found {
		return fmt.Sprintf("allowed=%v rule=nil", v.allowed)
	}
	return fmt.Sprintf("allowed=%v rule=%v@line%d", v.allowed, v.directive, v.line)
}

func fzVerdictOf(v Verdict) fzRefVerdict {
	if v.Rule == nil {
		return fzRefVerdict{allowed: v.Allowed}
	}
	return fzRefVerdict{allowed: v.Allowed, found: true, line: v.Rule.Line, directive: v.Rule.Directive}
}

// fzRefDecide is the slow, obviously correct Decide.
func fzRefDecide(rules []fzRefRule, path string) fzRefVerdict {
	if path == "" {
		path = "/"
	}
	cp := Canonical(path)
	if cp == "/robots.txt" || strings.HasPrefix(cp, "/robots.txt?") {
		return fzRefVerdict{allowed: true}
	}
	var best *fzRefRule
	for i := range rules {
		r := &rules[i]
		if !fzGlob(r.canon, cp) {
			continue
		}
		switch {
		case best == nil,
			r.priority > best.priority,
			r.priority == best.priority && r.directive == Allow && best.directive == Disallow,
			r.priority == best.priority && r.directive == best.directive && r.line < best.line:
			best = r
		}
	}
	if best == nil {
		return fzRefVerdict{allowed: true}
	}
	return fzRefVerdict{allowed: best.directive == Allow, found: true, line: best.line, directive: best.directive}
}

func fzIsHex(c byte) bool {
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F')
}

func fzIsUnreserved(c byte) bool {
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
		c == '-' || c == '.' || c == '_' || c == '~'
}

// fzMustEncode reports whether c may not stand raw in a URL (canonical form
// percent-encodes it).
func fzMustEncode(c byte) bool {
	if c >= 0x80 || c <= 0x20 || c == 0x7f {
		return true
	}
	return strings.IndexByte("\"<>\\^`{|}", c) >= 0
}

func fzHexVal(c byte) byte {
	switch {
	case c >= '0' && c <= '9':
		return c - '0'
	case c >= 'a' && c <= 'f':
		return c - 'a' + 10
	default:
		return c - 'A' + 10
	}
}

// fzEscape writes %XX for c with hex digits in random case.
func fzEscape(b *strings.Builder, c byte, r *rand.Rand) {
	const up, lo = "0123456789ABCDEF", "0123456789abcdef"
	b.WriteByte('%')
	for _, d := range []byte{c >> 4, c & 15} {
		if r.IntN(2) == 0 {
			b.WriteByte(up[d])
		} else {
			b.WriteByte(lo[d])
		}
	}
}

// fzRespell returns another spelling of path that RFC 3986 calls
// equivalent: some unreserved characters percent-encoded, the hex digits of
// existing escapes in random case, bytes that may not stand raw encoded,
// escapes of such bytes decoded to the raw byte, and lone "%" written "%25".
func fzRespell(path string, r *rand.Rand) string {
	var b strings.Builder
	for i := 0; i < len(path); i++ {
		c := path[i]
		if c == '%' {
			if i+2 < len(path) && fzIsHex(path[i+1]) && fzIsHex(path[i+2]) {
				v := fzHexVal(path[i+1])<<4 | fzHexVal(path[i+2])
				if fzMustEncode(v) && r.IntN(3) == 0 {
					b.WriteByte(v) // %C3 -> raw byte, %20 -> raw space
				} else {
					fzEscape(&b, v, r)
				}
				i += 2
				continue
			}
			// A "%" that starts no escape is the character itself.
			if r.IntN(2) == 0 {
				b.WriteString("%25")
			} else {
				b.WriteByte('%')
			}
			continue
		}
		switch {
		case fzIsUnreserved(c) && r.IntN(3) == 0:
			fzEscape(&b, c, r)
		case fzMustEncode(c) && r.IntN(4) != 0:
			fzEscape(&b, c, r)
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

func fzSeed(parts ...string) uint64 {
	h := fnv.New64a()
	for _, p := range parts {
		h.Write([]byte(p))
		h.Write([]byte{0})
	}
	return h.Sum64()
}

// fzCheckDecide compares every group of f against the reference on path,
// and checks that equivalent spellings of path get the same verdict.
func fzCheckDecide(t *testing.T, f *File, body, path string) {
	t.Helper()
	for gi, g := range f.Groups() {
		rules := fzRefRules(g)
		got := g.Decide(path)
		want := fzRefDecide(rules, path)
		if fzVerdictOf(got) != want {
			t.Fatalf("group %d %q: Decide(%q) = %v (rule %q), reference says %v\nrobots.txt:\n%s",
				gi, g.Agents, path, fzVerdictOf(got), got.Rule, want, body)
		}
		if got.Rule != nil && got.Allowed != (got.Rule.Directive == Allow) {
			t.Fatalf("Decide(%q): Allowed=%v but deciding rule is %q", path, got.Allowed, got.Rule)
		}
		// The same with every wildcard try done by the path index,
		// which Decide otherwise builds only for long paths.
		if indexed := fzDecideIndexed(g, path); indexed != got {
			t.Fatalf("group %d %q: Decide(%q) = %v (rule %q), but with the path index %v (rule %q)\nrobots.txt:\n%s",
				gi, g.Agents, path, fzVerdictOf(got), got.Rule, fzVerdictOf(indexed), indexed.Rule, body)
		}
		// A budget that runs out never makes a refusal up: whatever a
		// capped Decide refuses, the full one refuses; and one that was
		// not capped decides as Decide.
		for _, units := range []int{0, 1, 3, 20, 1 << 30} {
			b := NewBudget(units)
			within := fzDecideWithin(g, path, &b)
			if !within.Allowed && got.Allowed || !b.Capped() && within != got {
				t.Fatalf("group %d %q: DecideWithin(%q, %d units) = %v (rule %q, capped %v), Decide %v (rule %q)\nrobots.txt:\n%s",
					gi, g.Agents, path, units, fzVerdictOf(within), within.Rule, b.Capped(), fzVerdictOf(got), got.Rule, body)
			}
		}
		// A walk of the rules' literal prefixes says a path is allowed
		// only when it is; of a group without wildcard rules, it says
		// so whenever it is.
		if sure := g.SurelyAllows(Canonical(path)); sure && !got.Allowed || !fzHasWildcard(rules) && sure != got.Allowed {
			t.Fatalf("group %d %q: SurelyAllows(%q) = %v, Decide %v (rule %q)\nrobots.txt:\n%s",
				gi, g.Agents, path, sure, fzVerdictOf(got), got.Rule, body)
		}
		// Read as sent, a target is refused wherever its canonical
		// spelling is, and read so only when it holds a raw byte, or
		// an escape the group's lone "%" may match.
		sent := g.DecideSent(path)
		if !got.Allowed && sent.Allowed || !g.ReadsSent(path) && sent != got {
			t.Fatalf("group %d %q: DecideSent(%q) = %v (rule %q), Decide %v (rule %q)\nrobots.txt:\n%s",
				gi, g.Agents, path, fzVerdictOf(sent), sent.Rule, fzVerdictOf(got), got.Rule, body)
		}
		if sent.Rule != nil && sent.Allowed != (sent.Rule.Directive == Allow) {
			t.Fatalf("DecideSent(%q): Allowed=%v but deciding rule is %q", path, sent.Allowed, sent.Rule)
		}

		p := path
		if !strings.HasPrefix(p, "/") {
			p = "/" + p
		}
		base := g.Decide(p)
		rng := rand.New(rand.NewPCG(fzSeed(body, path), uint64(gi)))
		for k := 0; k < 4; k++ {
			alt := fzRespell(p, rng)
			if ca, cp := Canonical(alt), Canonical(p); ca != cp {
				t.Fatalf("Canonical(%q) = %q, but Canonical(%q) = %q", alt, ca, p, cp)
			}
			if got := g.Decide(alt); fzVerdictOf(got) != fzVerdictOf(base) {
				t.Fatalf("group %q: Decide(%q) = %v, but Decide(%q) = %v\nrobots.txt:\n%s",
					g.Agents, alt, fzVerdictOf(got), p, fzVerdictOf(base), body)
			}
		}
	}
}

// fzDecideIndexed is g.Decide(path) with every wildcard try done with a
// pathIndex, from the first, and every trigram of an indexed node looked
// up in it rather than scanned for.
func fzDecideIndexed(g *Group, path string) Verdict {
	defer fzIndexEverything()()
	return g.Decide(path)
}

// fzDecideWithin is g.DecideWithin(path, b) with every wildcard try done
// with a pathIndex, from the first, so that each spends from b.
func fzDecideWithin(g *Group, path string, b *Budget) Verdict {
	defer fzIndexEverything()()
	return g.DecideWithin(path, b)
}

// fzIndexEverything makes Decides use the path's index from their first
// try on, and returns what undoes it.
func fzIndexEverything() (undo func()) {
	plain, scan := plainTryBytes, scanPerGram
	plainTryBytes, scanPerGram = -1<<40, 0
	return func() { plainTryBytes, scanPerGram = plain, scan }
}

func FuzzDecide(f *testing.F) {
	paths := []string{"/", "/private/x", "/fish.php", "/fish/salmon.php?x=1", "/dir/", "/dir/index.html",
		"/%C3%BC/frei", "/ü/", "/caf%C3%A9", "/~user/", "/100%", "/a$b", "/x.gif", "/robots.txt", "", "a", "/%7e%2f"}
	for i, s := range fzSeedFiles {
		f.Add(s, paths[i%len(paths)])
		f.Add(s, paths[(i*7+3)%len(paths)])
	}
	// More wildcard rules along one path than Decide queues (32), so some
	// wildcard tails are checked during the trie walk.
	var deep strings.Builder
	deep.WriteString("user-agent: *\n")
	for i := 1; i <= 40; i++ {
		fmt.Fprintf(&deep, "disallow: /%s*z\n", strings.Repeat("a", i))
		if i%3 == 0 {
			fmt.Fprintf(&deep, "allow: /%s*%sz$\n", strings.Repeat("a", i), strings.Repeat("a", 40-i))
		}
	}
	f.Add(deep.String(), "/"+strings.Repeat("a", 45)+"z")
	f.Add(deep.String(), "/"+strings.Repeat("a", 45)+"z?x")
	// A path whose canonical form is longer than Decide's stack buffer.
	f.Add("user-agent: *\ndisallow: /*é$\nallow: /é\n", "/"+strings.Repeat("é", 400))
	f.Fuzz(func(t *testing.T, body, path string) {
		file := Parse([]byte(body))
		if c := Canonical(path); Canonical(c) != c {
			t.Fatalf("Canonical is not idempotent: Canonical(%q) = %q, Canonical(%q) = %q", path, c, c, Canonical(c))
		}
		fzCheckDecide(t, file, body, path)
	})
}

// TestDecideMatchesReference runs the reference comparison of FuzzDecide
// over random small files built from an alphabet chosen to hit wildcards,
// anchors, escapes, non-ASCII and the index.html rule, so that CI checks
// the property without fuzzing.
func TestDecideMatchesReference(t *testing.T) {
	alphabet := []string{"/", "a", "b", "*", "$", "%", "?", "é", "%61", "index.html"}
	rng := rand.New(rand.NewPCG(1, 2))
	word := func(max int) string {
		var b strings.Builder
		n := rng.IntN(max + 1)
		for i := 0; i < n; i++ {
			b.WriteString(alphabet[rng.IntN(len(alphabet))])
		}
		return b.String()
	}
	files := 20000
	if testing.Short() {
		files = 2000
	}
	for i := 0; i < files; i++ {
		var body strings.Builder
		for g := rng.IntN(3); g >= 0; g-- {
			fmt.Fprintf(&body, "user-agent: %s\n", []string{"*", "a", "b", "A"}[rng.IntN(4)])
			for r := rng.IntN(6); r > 0; r-- {
				d := "disallow"
				if rng.IntN(2) == 0 {
					d = "allow"
				}
				pat := word(5)
				if rng.IntN(4) != 0 {
					pat = "/" + pat
				}
				fmt.Fprintf(&body, "%s: %s\n", d, pat)
			}
		}
		f := Parse([]byte(body.String()))
		for k := 0; k < 5; k++ {
			path := word(6)
			if rng.IntN(8) != 0 {
				path = "/" + path
			}
			fzCheckDecide(t, f, body.String(), path)
		}
	}
}

// TestIndexedWildcardsMatchReference checks the trigram index of nodes with
// many wildcard rules against the reference matcher: groups of 40 to 400
// wildcard rules sharing one literal prefix, over paths built from the same
// pieces, so that many trigrams are shared and many rules match.
func TestIndexedWildcardsMatchReference(t *testing.T) {
	pieces := []string{"/", "ab", "abc", "bcd", "x", ".php", "?id=", "sec", "tion", "é", "%61", "$"}
	rng := rand.New(rand.NewPCG(7, 11))
	word := func(n int) string {
		var b strings.Builder
		for i := rng.IntN(n + 1); i > 0; i-- {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		return b.String()
	}
	for file := 0; file < 40; file++ {
		var body strings.Builder
		body.WriteString("user-agent: *\n")
		n := minIndexedWilds + rng.IntN(10*minIndexedWilds)
		for r := 0; r < n; r++ {
			d := "disallow"
			if rng.IntN(3) == 0 {
				d = "allow"
			}
			pat := "/p*" + word(3)
			if rng.IntN(2) == 0 {
				pat += "*" + word(2)
			}
			fmt.Fprintf(&body, "%s: %s\n", d, pat)
		}
		f := Parse([]byte(body.String()))
		if g := f.GroupFor("x"); len(g.matcher().grams) == 0 {
			t.Fatalf("file %d: no node was indexed; the test does not test the index", file)
		}
		for k := 0; k < 200; k++ {
			fzCheckDecide(t, f, body.String(), "/p"+word(8))
		}
	}
}

// fzHasWildcard reports whether any of rules has a "*".
func fzHasWildcard(rules []fzRefRule) bool {
	for _, r := range rules {
		if strings.Contains(r.canon, "*") {
			return true
		}
	}
	return false
}
