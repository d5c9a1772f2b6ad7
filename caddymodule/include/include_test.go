package include

import (
	"bytes"
	"os"
	"strings"
	"testing"

	"github.com/robotsguard/caddy-robots-txt/robots"
)

func sample(t testing.TB) Source {
	t.Helper()
	b, err := os.ReadFile("testdata/ai-crawlers-sample.txt")
	if err != nil {
		t.Fatal(err)
	}
	return Source{Name: "testdata/ai-crawlers-sample.txt", Body: b}
}

// lineOf returns the 1-based line of Body holding exactly text, or 0.
func lineOf(body []byte, text string) int {
	for i, l := range strings.Split(string(body), "\n") {
		if l == text {
			return i + 1
		}
	}
	return 0
}

func TestMergeAICrawlerList(t *testing.T) {
	site := Source{Name: "/srv/www/robots.txt", Body: []byte(
		"User-agent: *\nDisallow: /private/\n\n" +
			"# we let OpenAI in\nUser-agent: gptbot\nAllow: /\nDisallow: /drafts/\n\n" +
			"Sitemap: https://www.example.com/sitemap.xml\n")}
	list := sample(t)
	m := Merge(site, list)
	if len(m.Warnings) != 0 {
		t.Fatalf("warnings: %q", m.Warnings)
	}
	if !bytes.HasPrefix(m.Body, site.Body) {
		t.Fatalf("site's file is not first, verbatim:\n%s", m.Body)
	}
	if bytes.Contains(m.Body, []byte("lists.example.org")) {
		t.Errorf("an included sitemap was copied:\n%s", m.Body)
	}
	if bytes.Contains(m.Body, []byte("User-agent: GPTBot")) {
		t.Errorf("the site's own agent was copied from the list:\n%s", m.Body)
	}
	f := robots.Parse(m.Body)
	if n := len(f.Diagnostics()); n != 0 {
		t.Errorf("merged file has diagnostics: %v", f.Diagnostics())
	}
	for _, c := range []struct {
		agent, path string
		allowed     bool
	}{
		{"GPTBot", "/", true},
		{"GPTBot", "/private/x", true},
		{"GPTBot", "/drafts/x", false},
		{"ClaudeBot", "/", false},
		{"claudebot", "/anything", false},
		{"CCBot", "/index.html", false},
		{"Google-Extended", "/", false},
		{"SomeBrowser", "/", true},
		{"SomeBrowser", "/private/x", false},
	} {
		if got := f.Allowed(c.agent, c.path); got != c.allowed {
			t.Errorf("%s %s: allowed=%v, want %v", c.agent, c.path, got, c.allowed)
		}
	}
	if got := f.Sitemaps(); len(got) != 1 || got[0] != "https://www.example.com/sitemap.xml" {
		t.Errorf("sitemaps = %q", got)
	}

	// Origin: the site's lines are themselves; copied lines point into
	// the list; the comment is line 0 of the list.
	if src, n := m.Origin(5); src != site.Name || n != 5 {
		t.Errorf("Origin(5) = %q, %d", src, n)
	}
	hdr := lineOf(m.Body, "# included from testdata/ai-crawlers-sample.txt")
	if src, n := m.Origin(hdr); hdr == 0 || src != list.Name || n != 0 {
		t.Errorf("header at %d: Origin = %q, %d", hdr, src, n)
	}
	for text, want := range map[string]int{"User-agent: ClaudeBot": 10, "User-agent: Amazonbot": 5, "Disallow: /": 15} {
		l := lineOf(m.Body, text)
		if l <= lineOf(m.Body, "# included from testdata/ai-crawlers-sample.txt") {
			t.Errorf("%q not after the header", text)
			continue
		}
		if src, n := m.Origin(l); src != list.Name || n != want {
			t.Errorf("Origin of %q (line %d) = %q, %d; want %q, %d", text, l, src, n, list.Name, want)
		}
	}
	if src, n := m.Origin(0); src != "" || n != 0 {
		t.Errorf("Origin(0) = %q, %d", src, n)
	}
	if src, n := m.Origin(10000); src != "" || n != 0 {
		t.Errorf("Origin(10000) = %q, %d", src, n)
	}
}

func TestMergeExactText(t *testing.T) {
	site := Source{Name: "site", Body: []byte("User-agent: a\r\nDisallow: /a")}
	inc := Source{Name: "inc\nevil", Body: []byte("# list\nuser-agent: A\nuser-agent: b/1.0\nCrawl-delay: 5\ndisalow: /b*$ # tmp\nContent-Signal: ai-train=no\nSitemap: https://x.example/s.xml\n\nuseragent: *\nallow: /ok\n")}
	m := Merge(site, inc)
	want := "User-agent: a\r\nDisallow: /a\n" +
		"\n# included from inc?evil\n" +
		"User-agent: b/1.0\nCrawl-delay: 5\nDisallow: /b*$\nContent-Signal: ai-train=no\n" +
		"User-agent: *\nAllow: /ok\n"
	if string(m.Body) != want {
		t.Fatalf("body:\n%q\nwant\n%q", m.Body, want)
	}
	wantOrigins := []struct {
		src  string
		line int
	}{{"site", 1}, {"site", 2}, {"inc\nevil", 0}, {"inc\nevil", 0}, {"inc\nevil", 3}, {"inc\nevil", 4}, {"inc\nevil", 5}, {"inc\nevil", 6}, {"inc\nevil", 9}, {"inc\nevil", 10}}
	for i, w := range wantOrigins {
		if src, n := m.Origin(i + 1); src != w.src || n != w.line {
			t.Errorf("Origin(%d) = %q, %d; want %q, %d", i+1, src, n, w.src, w.line)
		}
	}
	f := robots.Parse(m.Body)
	if g := f.GroupFor("b"); g.CrawlDelay.Seconds() != 5 {
		t.Errorf("b's crawl-delay = %v", g.CrawlDelay)
	}
}

func TestMergeClosesOpenRuns(t *testing.T) {
	// The site ends with a user-agent line and no rule: a allows
	// everything, and must not join the included group.
	site := Source{Name: "site", Body: []byte("User-agent: *\nDisallow: /x\nUser-agent: a")}
	// The include ends the same way: c must not join the next include's
	// group either.
	inc1 := Source{Name: "one", Body: []byte("User-agent: b\nDisallow: /\nUser-agent: c\n")}
	inc2 := Source{Name: "two", Body: []byte("User-agent: d\nDisallow: /\n")}
	m := Merge(site, inc1, inc2)
	f := robots.Parse(m.Body)
	for _, c := range []struct {
		agent   string
		allowed bool
	}{{"a", true}, {"b", false}, {"c", true}, {"d", false}} {
		if got := f.Allowed(c.agent, "/page"); got != c.allowed {
			t.Errorf("%s: allowed=%v, want %v\n%s", c.agent, got, c.allowed, m.Body)
		}
	}
	if l := lineOf(m.Body, closer); l == 0 {
		t.Fatalf("no closer:\n%s", m.Body)
	} else if src, n := m.Origin(l); src != "site" || n != 0 {
		t.Errorf("closer after the site: Origin = %q, %d", src, n)
	}
}

func TestMergeFirstIncludeWins(t *testing.T) {
	site := Source{Name: "site", Body: []byte("User-agent: *\nAllow: /\n")}
	inc1 := Source{Name: "one", Body: []byte("User-agent: x\nUser-agent: y\nDisallow: /one\n\nUser-agent: X\nDisallow: /more\n")}
	inc2 := Source{Name: "two", Body: []byte("User-agent: *\nDisallow: /\n\nUser-agent: y\nUser-agent: z\nDisallow: /two\n")}
	m := Merge(site, inc1, inc2)
	f := robots.Parse(m.Body)
	for _, c := range []struct {
		agent, path string
		allowed     bool
	}{
		{"x", "/one", false}, {"x", "/more", false}, {"x", "/two", true},
		{"y", "/one", false}, {"y", "/more", true}, {"y", "/two", true},
		{"z", "/two", false}, {"z", "/one", true},
		{"other", "/", true}, // the site's "*" wins over two's
	} {
		if got := f.Allowed(c.agent, c.path); got != c.allowed {
			t.Errorf("%s %s: allowed=%v, want %v\n%s", c.agent, c.path, got, c.allowed, m.Body)
		}
	}
	if bytes.Count(m.Body, []byte("User-agent: *")) != 1 {
		t.Errorf("the include's * group was copied:\n%s", m.Body)
	}
}

func TestMergeNothingToAdd(t *testing.T) {
	m := Merge(Source{Name: "site", Body: []byte("User-agent: *\nDisallow:\n")})
	if string(m.Body) != "User-agent: *\nDisallow:\n" || len(m.Warnings) != 0 {
		t.Errorf("no includes: %q %q", m.Body, m.Warnings)
	}
	m = Merge(Source{Name: "site"}, Source{Name: "list", Body: []byte("User-agent: GPTBot\nDisallow: /\n")})
	if string(m.Body) != "\n# included from list\nUser-agent: GPTBot\nDisallow: /\n" {
		t.Errorf("empty site: %q", m.Body)
	}
	if src, n := m.Origin(3); src != "list" || n != 1 {
		t.Errorf("Origin(3) = %q, %d", src, n)
	}
}

func TestMergeSizeLimit(t *testing.T) {
	// Agent "a" is named by the first and the last group: when the last
	// does not fit, a is left out entirely.
	var b strings.Builder
	b.WriteString("User-agent: a\nUser-agent: first\nDisallow: /first\n")
	for i := 0; b.Len() < 480000; i++ {
		b.WriteString("User-agent: bot")
		for n := i; ; n /= 26 {
			b.WriteByte(byte('a' + n%26))
			if n < 26 {
				break
			}
		}
		b.WriteString("\nDisallow: /some/long/path/to/make/the/list/grow/quickly/\n")
	}
	b.WriteString("User-agent: a\nDisallow: /last\n")
	big := Source{Name: "big", Body: []byte(b.String())}
	after := Source{Name: "after", Body: []byte("User-agent: later\nDisallow: /\n")}
	site := Source{Name: "site", Body: []byte("User-agent: *\nDisallow: /tmp/\n" + strings.Repeat("# a long comment\n", 3000))}
	m := Merge(site, big, after)
	if len(m.Body) > robots.DefaultMaxSize {
		t.Fatalf("merged body is %d bytes", len(m.Body))
	}
	if len(m.Warnings) != 2 {
		t.Fatalf("warnings: %q", m.Warnings)
	}
	f := robots.Parse(m.Body)
	if f.HasErrors() {
		t.Errorf("merged file has errors: %v", f.Diagnostics()[:1])
	}
	if !f.Allowed("first", "/x") || f.Allowed("first", "/first") {
		t.Errorf("first's group was not kept")
	}
	if f.GroupFor("a") != f.GroupFor("*") {
		t.Errorf("a, named in a group cut off, still has rules")
	}
	if f.GroupFor("later") != f.GroupFor("*") {
		t.Errorf("an include after the limit was added")
	}
	if !f.Allowed("botaa", "/x") == f.Allowed("botaa", "/some/long/path/to/make/the/list/grow/quickly/") {
		t.Errorf("botaa's group was not kept")
	}

	// A site that fills the limit by itself takes nothing.
	huge := Source{Name: "huge", Body: bytes.Repeat([]byte("# filler\n"), robots.DefaultMaxSize/9+1)}
	m = Merge(huge, after)
	if !bytes.Equal(m.Body, huge.Body) || len(m.Warnings) != 1 {
		t.Errorf("huge site: %d bytes, warnings %q", len(m.Body), m.Warnings)
	}
}

// TestMergeKeepsListsParsed: every include is parsed once, merged or not,
// and the caller reads each list's findings from it.
func TestMergeKeepsListsParsed(t *testing.T) {
	lists := []Source{{Name: "a", Body: []byte("User-agent: A\nDisalow: /a\n")}, {Name: "b", Body: []byte("User-agent: B\nDisallow: /b\n")}}
	for _, site := range [][]byte{[]byte("User-agent: *\nDisallow: /x\n"), []byte(strings.Repeat("#", robots.DefaultMaxSize))} {
		m := Merge(Source{Name: "site", Body: site}, lists...)
		if len(m.Lists) != 2 || m.Lists[0] == nil || m.Lists[1] == nil {
			t.Fatalf("site of %d bytes: Lists = %v, want both includes parsed", len(site), m.Lists)
		}
		if len(m.Lists[0].Diagnostics()) == 0 || len(m.Lists[1].Diagnostics()) != 0 {
			t.Errorf("site of %d bytes: findings %v / %v, want the misspelling in a only", len(site), m.Lists[0].Diagnostics(), m.Lists[1].Diagnostics())
		}
	}
}

// TestMergeNamesWithDigits: a crawler the site names with digits owns its
// whole name only: the list's other crawlers whose names start with the
// same letters ("Ai2Bot-Dolma" beside the site's "AI2Bot") are added.
func TestMergeNamesWithDigits(t *testing.T) {
	site := Source{Name: "site", Body: []byte("User-agent: AI2Bot\nAllow: /\n")}
	list := Source{Name: "list", Body: []byte("User-agent: AI2Bot\nUser-agent: Ai2Bot-Dolma\nUser-agent: MJ12bot\nDisallow: /\n")}
	m := Merge(site, list)
	f := robots.Parse(m.Body)
	for _, c := range []struct {
		agent   string
		allowed bool
	}{
		{"AI2Bot", true}, // the site's
		{"Ai2Bot-Dolma", false},
		{"MJ12bot", false},
	} {
		if f.NamedGroupFor(c.agent) == nil {
			t.Errorf("%s: no group names it\n%s", c.agent, m.Body)
		} else if got := f.Allowed(c.agent, "/x"); got != c.allowed {
			t.Errorf("%s: allowed=%v, want %v\n%s", c.agent, got, c.allowed, m.Body)
		}
	}
}
