package include

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/robotsguard/caddy-robots-txt/robots"
)

var (
	genAgentKeys = []string{"User-agent", "user-agent", "USERAGENT", "User agent", "user-agents"}
	genAgents    = []string{"a", "A", "b", "b/1.0", "c-d", "C-D", "e_f", "*", "* x", "*bot", "", "a b", "/x"}
	genRuleKeys  = []string{"Allow", "allow", "Disallow", "disallow", "disalow", "Dissallow", "allowed"}
	genPatterns  = []string{"", "/", "/a", "/a*", "/a$", "/b/", "*.gif$", "/a/index.html", "x", "/%61", "/ü", "/c?d"}
	genOther     = []string{"", "# comment", "Sitemap: https://x.example/s.xml", "Crawl-delay: 1", "crawl-delay: 2.5",
		"Crawl-delay: soon", "Content-Signal: search=yes", "Foo: bar", "Host: x", "three word line", "disallow /c",
		"user-agent q", "Disallow: /n\x00ul", "Allow: /k # trailing", ":novalue", "   "}
	genEnds  = []string{"\n", "\r\n", "\r"}
	genPaths = []string{"/", "/a", "/a/", "/a/index.html", "/ab", "/b/", "/b/x.gif", "/c", "/c?d", "/%61", "/ü", "/k", "/n", "/x", "/robots.txt"}
	// The product tokens the generator can write, and "*".
	genTokens = []string{"a", "b", "c-d", "e_f", "q", "*"}
)

func genFile(r *rand.Rand) []byte {
	var b strings.Builder
	n := r.IntN(14)
	end := genEnds[r.IntN(len(genEnds))]
	for i := 0; i < n; i++ {
		switch r.IntN(10) {
		case 0, 1, 2, 3:
			fmt.Fprintf(&b, "%s: %s", genAgentKeys[r.IntN(len(genAgentKeys))], genAgents[r.IntN(len(genAgents))])
		case 4, 5, 6:
			fmt.Fprintf(&b, "%s: %s", genRuleKeys[r.IntN(len(genRuleKeys))], genPatterns[r.IntN(len(genPatterns))])
		default:
			b.WriteString(genOther[r.IntN(len(genOther))])
		}
		if i < n-1 || r.IntN(2) == 0 {
			if r.IntN(8) == 0 {
				b.WriteString(genEnds[r.IntN(len(genEnds))])
			} else {
				b.WriteString(end)
			}
		}
	}
	return []byte(b.String())
}

// names reports whether f names token (or has a "*" group).
func names(f *robots.File, token string) bool {
	if token == "*" {
		return hasGlobal(f)
	}
	for _, a := range f.Agents() {
		if strings.EqualFold(a, token) {
			return true
		}
	}
	return false
}

// TestMergeProperty checks, over random small files, that the merged file
// gives every agent the group of the first source naming it (the site
// first), that the site's part is verbatim, and that Origin leads each
// rule of the merged file back to the rule it copies.
func TestMergeProperty(t *testing.T) {
	seed, iters := uint64(1), 5000
	if v := os.Getenv("INCLUDE_PROPERTY_SEED"); v != "" {
		seed, _ = strconv.ParseUint(v, 10, 64)
		iters = 100000
	}
	r := rand.New(rand.NewPCG(seed, 2))
	for iter := 0; iter < iters; iter++ {
		srcs := make([]Source, 1+r.IntN(4))
		files := make([]*robots.File, len(srcs))
		for i := range srcs {
			srcs[i] = Source{Name: fmt.Sprintf("src%d", i), Body: genFile(r)}
			files[i] = robots.Parse(srcs[i].Body)
		}
		m := Merge(srcs[0], srcs[1:]...)
		fail := func(format string, args ...any) {
			t.Helper()
			var d strings.Builder
			for _, s := range srcs {
				fmt.Fprintf(&d, "--- %s\n%q\n", s.Name, s.Body)
			}
			t.Fatalf("iteration %d: %s\n%s--- merged\n%s", iter, fmt.Sprintf(format, args...), d.String(), m.Body)
		}
		if len(m.Warnings) != 0 {
			fail("warnings: %q", m.Warnings)
		}
		if !bytes.HasPrefix(m.Body, srcs[0].Body) {
			fail("the site's file is not a prefix")
		}
		mf := robots.Parse(m.Body)
		if !slices.Equal(mf.Sitemaps(), files[0].Sitemaps()) {
			fail("sitemaps %q, want the site's %q", mf.Sitemaps(), files[0].Sitemaps())
		}
		for _, tok := range genTokens {
			owner := -1
			for i, f := range files {
				if names(f, tok) {
					owner = i
					break
				}
			}
			if owner < 0 {
				if names(mf, tok) {
					fail("%s is named by no source but by the merged file", tok)
				}
				continue
			}
			if !names(mf, tok) {
				fail("%s is not named by the merged file", tok)
			}
			want, got := files[owner].GroupFor(tok), mf.GroupFor(tok)
			if want.CrawlDelay != got.CrawlDelay {
				fail("%s: crawl-delay %v, want %v", tok, got.CrawlDelay, want.CrawlDelay)
			}
			wr, gr := want.Rules(), got.Rules()
			if len(wr) != len(gr) {
				fail("%s: %d rules, want %d (%v vs %v)", tok, len(gr), len(wr), gr, wr)
			}
			for k := range wr {
				if wr[k].Directive != gr[k].Directive || wr[k].Pattern != gr[k].Pattern {
					fail("%s: rule %d is %v, want %v", tok, k, gr[k], wr[k])
				}
				src, line := m.Origin(gr[k].Line)
				if src != srcs[owner].Name || line != wr[k].Line {
					fail("%s: rule %v at merged line %d comes from %s:%d, want %s:%d", tok, gr[k], gr[k].Line, src, line, srcs[owner].Name, wr[k].Line)
				}
			}
			for _, p := range genPaths {
				wv, gv := want.Decide(p), got.Decide(p)
				if wv.Allowed != gv.Allowed || (wv.Rule == nil) != (gv.Rule == nil) ||
					(wv.Rule != nil && wv.Rule.String() != gv.Rule.String()) {
					fail("%s %s: verdict %+v, want %+v", tok, p, gv, wv)
				}
			}
		}
		// Every line of the body has an origin, and lines Merge wrote
		// itself are blank, comments or the closer.
		lines := countLines(m.Body) + 1
		for l := 1; l <= lines; l++ {
			src, _ := m.Origin(l)
			if src == "" && l < lines {
				fail("line %d has no origin", l)
			}
		}
	}
}
