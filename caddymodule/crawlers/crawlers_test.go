package crawlers

import (
	"net/netip"
	"net/url"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
)

func TestBuiltinParses(t *testing.T) {
	b := Builtin()
	if b.Date() == "" {
		t.Fatal("no date")
	}
	if n := len(b.All()); n < 60 {
		t.Fatalf("%d entries, want at least 60", n)
	}
	if len(b.Sources()) == 0 {
		t.Fatal("no sources")
	}
}

func TestBuiltinEntries(t *testing.T) {
	seen := map[string]string{}
	for _, c := range Builtin().All() {
		if !c.Category.Valid() {
			t.Errorf("%s: category %q", c.Name, c.Category)
		}
		for _, k := range c.keys() {
			if other, dup := seen[k]; dup {
				t.Errorf("token %q in both %s and %s", k, other, c.Name)
			}
			seen[k] = c.Name
		}
		if c.Robots != Unknown && c.RobotsSource == "" && c.Notes == "" {
			t.Errorf("%s: says %s without a source or a note", c.Name, c.Robots)
		}
		for _, r := range c.Ranges {
			if u, err := url.Parse(r); err == nil && u.Scheme == "https" {
				continue
			}
			if _, err := netip.ParsePrefix(r); err != nil {
				t.Errorf("%s: range %q is neither an https URL nor a CIDR", c.Name, r)
			}
		}
		for _, s := range c.RDNS {
			if err := CheckSuffix(s); err != nil {
				t.Errorf("%s: %v", c.Name, err)
			}
		}
		if len(c.Patterns) == 0 {
			t.Errorf("%s: no User-Agent pattern", c.Name)
		}
		// Tokens are tried in order where the header names no group: a
		// sub-crawler's token ("SemrushBot-SA") listed with its parent's
		// would hand the parent the sub-crawler's group. A sub-crawler
		// falls back to its parent's group by itself.
		for _, a := range c.Tokens {
			for _, b := range c.Tokens {
				if len(b) > len(a) && strings.EqualFold(b[:len(a)], a) && b[len(a)] == '-' {
					t.Errorf("%s: token %q is a sub-crawler of %q; give it its own entry", c.Name, b, a)
				}
			}
		}
	}
}

// TestClassifierNamesCovered keeps the classifier and the knowledge base
// spelling crawlers the same way, so logs and reports agree.
func TestClassifierNamesCovered(t *testing.T) {
	src, err := os.ReadFile("../botdetect/tables.go")
	if err != nil {
		t.Skip("botdetect tables not found:", err)
	}
	text := string(src)
	start := strings.Index(text, "var knownCrawlers = []crawler{")
	end := strings.Index(text, "var knownClients")
	if start < 0 || end < start {
		t.Fatal("cannot find knownCrawlers in tables.go")
	}
	names := regexp.MustCompile(`\{"([^"]+)", \[\]string`).FindAllStringSubmatch(text[start:end], -1)
	if len(names) < 50 {
		t.Fatalf("found only %d names in knownCrawlers", len(names))
	}
	b := Builtin()
	for _, m := range names {
		c := b.Lookup(m[1])
		if c == nil {
			t.Errorf("classifier names %q; the knowledge base has no entry", m[1])
		} else if c.Name != m[1] {
			t.Errorf("classifier spells %q, the knowledge base %q", m[1], c.Name)
		}
	}
}

func TestLookup(t *testing.T) {
	b := Builtin()
	tests := []struct {
		token, want string
	}{
		{"Googlebot", "Googlebot"},
		{"googlebot", "Googlebot"},
		{"GOOGLEBOT-IMAGE", "Googlebot-Image"},
		{"gptbot", "GPTBot"},
		{"BINGBOT", "bingbot"},
		{"GoogleOther-Video", "GoogleOther-Video"},
		{"GoogleOther-Audio", ""}, // exact: Claim strips the suffix
		{"sogou web spider", "Sogou"},
		{"Google Favicon", "Google Favicon"},
		{"", ""},
		{"nosuchbot", ""},
		{strings.Repeat("x", 200), ""},
	}
	for _, tt := range tests {
		c := b.Lookup(tt.token)
		got := ""
		if c != nil {
			got = c.Name
		}
		if got != tt.want {
			t.Errorf("Lookup(%q) = %q, want %q", tt.token, got, tt.want)
		}
	}
}

func TestClaim(t *testing.T) {
	b := Builtin()
	for _, tt := range []struct {
		name, known, want string
	}{
		{"GPTBot", "", "GPTBot"},
		{"GoogleOther-Audio", "", "GoogleOther"},
		{"GoogleOther-Video", "", "GoogleOther-Video"},
		{"Googlebot-Mobile", "", "Googlebot"},
		{"msnbot-media", "", "msnbot"},
		{"generic", "GPTBot", "GPTBot"},      // the classifier's name
		{"ClaudeBot", "GPTBot", "ClaudeBot"}, // the file's name first
		{"generic", "", ""},
		{"-", "", ""},
		// A family's names: the token its crawlers follow, and names
		// that extend it, claim the family's crawler.
		{"Yandex", "", "YandexBot"},
		{"yandeximages", "", "YandexBot"},
		{"YandexMobileBot", "", "YandexBot"},
		{"GooglebotFoo", "", "Googlebot"}, // the token's own entry
		{"msnbotx", "", "msnbot"},
		{"Yand", "", ""},
	} {
		got := ""
		if c := b.Claim(tt.name, tt.known); c != nil {
			got = c.Name
		}
		if got != tt.want {
			t.Errorf("Claim(%q, %q) = %q, want %q", tt.name, tt.known, got, tt.want)
		}
	}
}

// TestFamilyIn: a header's own product named with a family's token and
// more is of the family (its first product, or the one after
// "compatible;"), as a member: it obeys the family's groups, not the
// family's crawler's own. A word elsewhere, a host name or the bare token
// is not.
func TestFamilyIn(t *testing.T) {
	b := Builtin()
	for _, tc := range []struct {
		ua, crawler, token string
	}{
		{"Mozilla/5.0 (compatible; YandexMetrika/2.0; +http://yandex.com/bots)", "YandexBot", "Yandex"},
		{"Mozilla/5.0 (compatible; YandexUserproxy; robot; +http://yandex.com/bots", "YandexBot", "Yandex"},
		{"YandexDialogs", "YandexBot", "Yandex"},
		{"Mozilla/5.0 (iPhone; CPU iPhone OS 8_1 like Mac OS X) AppleWebKit/600.1.4 (KHTML, like Gecko) Version/8.0 Mobile/12B411 Safari/600.1.4 (compatible; YandexMobileBot/3.0; +http://yandex.com/bots)", "YandexBot", "Yandex"},
		{"Yandex/1.0", "", ""},
		{"curl/8.0 (Yandex)", "", ""},
		{"python-requests/2.31 YandexFoo/1", "", ""},
		{"curl/8.0 (+http://yandex.com)", "", ""},
		{"crawler (yandex.ru)", "", ""},
		{"Yandex.Translate", "", ""},
		{"MyYandexTool/1.0", "", ""},
		{"Mozilla/5.0 (Linux; Android 10) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.6778.260 Safari/537.36 YandexSearch/7.54", "", ""},
	} {
		cr, tok := b.FamilyIn(tc.ua)
		got := ""
		if cr != nil {
			got = cr.Name
			if len(cr.Tokens) != 0 || len(cr.Follows) != 1 || cr.Follows[0] != tok || !cr.Verifiable() {
				t.Errorf("FamilyIn(%q): %+v is no member of the family %q", tc.ua, cr, tok)
			}
		}
		if got != tc.crawler || tok != tc.token {
			t.Errorf("FamilyIn(%q) = %q, %q; want %q, %q", tc.ua, got, tok, tc.crawler, tc.token)
		}
	}
}

func TestLookupAllocs(t *testing.T) {
	b := Builtin()
	for _, tok := range []string{"googlebot", "GPTBot", "NoSuchBot"} {
		if n := testing.AllocsPerRun(100, func() { b.Lookup(tok) }); n != 0 {
			t.Errorf("Lookup(%q): %v allocs", tok, n)
		}
	}
}

func TestVerifiable(t *testing.T) {
	b := Builtin()
	for name, want := range map[string]bool{
		"Googlebot": true, "GPTBot": true, "YandexBot": true, "ChatGPT-User": true,
		"Google-Extended": false, "Bytespider": false, "Twitterbot": false,
	} {
		if got := b.Lookup(name).Verifiable(); got != want {
			t.Errorf("%s.Verifiable() = %v, want %v", name, got, want)
		}
	}
	var nilCrawler *Crawler
	if nilCrawler.Verifiable() {
		t.Error("nil crawler is verifiable")
	}
}

func TestWith(t *testing.T) {
	b := Builtin()
	nb, err := b.With(
		Crawler{Name: "googlebot", Ranges: []string{"192.0.2.0/24", "/etc/caddy/googlebot.txt"}},
		Crawler{Name: "InternalBot", Tokens: []string{"InternalBot", "internal-crawler"}, RDNS: []string{"Crawl.Example.COM."}},
		Crawler{Name: "YandexBot", Category: Search, Robots: Ignores},
	)
	if err != nil {
		t.Fatal(err)
	}
	g := nb.Lookup("Googlebot")
	if g.Name != "Googlebot" {
		t.Errorf("override renamed the entry to %q", g.Name)
	}
	if !slices.Equal(g.Ranges, []string{"192.0.2.0/24", "/etc/caddy/googlebot.txt"}) {
		t.Errorf("ranges = %v", g.Ranges)
	}
	if !slices.Equal(g.RDNS, b.Lookup("Googlebot").RDNS) {
		t.Errorf("rdns changed to %v; the override did not set it", g.RDNS)
	}
	if b.Lookup("Googlebot").Ranges[0] == "192.0.2.0/24" {
		t.Error("With modified the original base")
	}
	in := nb.Lookup("internal-crawler")
	if in == nil || in.Name != "InternalBot" || in.Category != Other || in.Robots != Unknown {
		t.Fatalf("new entry = %+v", in)
	}
	if !slices.Equal(in.RDNS, []string{"crawl.example.com"}) {
		t.Errorf("rdns not normalised: %v", in.RDNS)
	}
	if y := nb.Lookup("yandexbot"); y.Robots != Ignores {
		t.Errorf("YandexBot robots = %q", y.Robots)
	}
	if len(nb.All()) != len(b.All())+1 {
		t.Errorf("%d entries, want %d", len(nb.All()), len(b.All())+1)
	}
}

func TestWithRejects(t *testing.T) {
	b := Builtin()
	tests := []struct {
		name string
		o    Crawler
	}{
		{"bad category", Crawler{Name: "X", Category: "crawler"}},
		{"bad robots", Crawler{Name: "X", Robots: "maybe"}},
		{"http list", Crawler{Name: "X", Ranges: []string{"http://example.com/ips.json"}}},
		{"bad suffix", Crawler{Name: "X", RDNS: []string{"exa mple.com"}}},
		{"bare suffix", Crawler{Name: "X", RDNS: []string{"com"}}},
		{"bad pattern", Crawler{Name: "X", Patterns: []string{"XBot"}}},
		{"empty name", Crawler{Name: ""}},
		{"signature not https", Crawler{Name: "X", SignatureAgents: []string{"chatgpt.com"}}},
	}
	for _, tt := range tests {
		if _, err := b.With(tt.o); err == nil {
			t.Errorf("%s: With accepted %+v", tt.name, tt.o)
		}
	}
}

func TestParseRejects(t *testing.T) {
	tests := map[string]string{
		"not json":                   `nope`,
		"no date":                    `{"sources":[],"entries":[]}`,
		"unknown field":              `{"date":"2026-01-01","entries":[{"name":"A","tokens":["A"],"category":"search","robots":"obeys","rnds":["a.com"]}]}`,
		"duplicate":                  `{"date":"2026-01-01","entries":[{"name":"A","tokens":["A"],"category":"search","robots":"obeys"},{"name":"B","tokens":["a"],"category":"search","robots":"obeys"}]}`,
		"file path list":             `{"date":"2026-01-01","entries":[{"name":"A","tokens":["A"],"category":"search","robots":"obeys","ranges":["/tmp/a"]}]}`,
		"no tokens":                  `{"date":"2026-01-01","entries":[{"name":"A","category":"search","robots":"obeys"}]}`,
		"follows itself":             `{"date":"2026-01-01","entries":[{"name":"A","tokens":["A"],"follows":["a"],"rdns":["a.example.com"],"category":"search","robots":"obeys"}]}`,
		"follows *":                  `{"date":"2026-01-01","entries":[{"name":"A","tokens":["A"],"follows":["*"],"rdns":["a.example.com"],"category":"search","robots":"obeys"}]}`,
		"follows blank":              `{"date":"2026-01-01","entries":[{"name":"A","tokens":["A"],"follows":[""],"rdns":["a.example.com"],"category":"search","robots":"obeys"}]}`,
		"follows, unverifiable":      `{"date":"2026-01-01","entries":[{"name":"A","tokens":["A"],"follows":["B"],"category":"search","robots":"obeys"}]}`,
		"ignores_star, unverifiable": `{"date":"2026-01-01","entries":[{"name":"A","tokens":["A"],"ignores_star":true,"category":"search","robots":"obeys"}]}`,
	}
	for name, data := range tests {
		if _, err := Parse([]byte(data)); err == nil {
			t.Errorf("%s: Parse accepted it", name)
		}
	}
}

// TestFollows: the crawlers whose operators document following another
// crawler's group when none names them.
func TestFollows(t *testing.T) {
	b := Builtin()
	for name, want := range map[string][]string{
		"Applebot":              {"Googlebot"},
		"bingbot":               {"msnbot"},
		"YandexBot":             {"Yandex"},
		"Google-InspectionTool": {"Googlebot"},
		"GPTBot":                nil,
	} {
		if got := b.Lookup(name).Follows; !slices.Equal(got, want) {
			t.Errorf("%s: follows %v, want %v", name, got, want)
		}
	}
}

func TestCategories(t *testing.T) {
	if len(Categories()) != 10 {
		t.Fatalf("%d categories", len(Categories()))
	}
	for _, c := range Categories() {
		if !c.Valid() {
			t.Errorf("%q invalid", c)
		}
	}
	if Category("bot").Valid() {
		t.Error(`"bot" valid`)
	}
}

func BenchmarkLookup(b *testing.B) {
	base := Builtin()
	b.ReportAllocs()
	for b.Loop() {
		base.Lookup("Googlebot-Image")
	}
}

// TestGoogleAgent: Google lists Google-Agent among its user-triggered
// fetchers (developers.google.com/crawling/docs/crawlers-fetchers/
// google-user-triggered-fetchers), with a list of its own,
// user-triggered-agents.json; like the other fetchers Google controls, it
// resolves under google.com. Its Web Bot Auth agent is an experiment and
// is not given.
func TestGoogleAgent(t *testing.T) {
	b := Builtin()
	c := b.Lookup("google-agent")
	if c == nil {
		t.Fatal("no Google-Agent entry")
	}
	if c.Name != "Google-Agent" || c.Category != AIUser || c.Robots != Ignores {
		t.Errorf("Google-Agent = %q, %q, %q", c.Name, c.Category, c.Robots)
	}
	if !slices.Contains(c.Ranges, "https://developers.google.com/static/crawling/ipranges/user-triggered-agents.json") {
		t.Errorf("ranges %v lack user-triggered-agents.json", c.Ranges)
	}
	if !slices.Equal(c.RDNS, []string{"google.com"}) {
		t.Errorf("rdns = %v, want [google.com]", c.RDNS)
	}
	if len(c.SignatureAgents) != 0 {
		t.Errorf("signature agents %v: Google's is an experiment", c.SignatureAgents)
	}
	if got := b.Claim("Google-Agent", ""); got != c {
		t.Errorf("Claim(Google-Agent) = %v", got)
	}
}

// TestNonAIUserFetchers: Google's user-triggered fetchers that serve no AI
// (feeds, site verification, read-aloud, Publisher Center, Chrome Web
// Store, favicons) are not ai-user, which `signals enforce` refuses under
// ai-input=no; its AI fetchers are (audit AN-F2: Search Console's file
// verification was refused on a site that opts out of AI answers).
func TestNonAIUserFetchers(t *testing.T) {
	kb := Builtin()
	for name, want := range map[string]Category{
		"FeedFetcher-Google":       Other,
		"Google-Read-Aloud":        Other,
		"Google-Site-Verification": Other,
		"GoogleProducer":           Other,
		"Google-CWS":               Other,
		"Google Favicon":           Other,
		"Google-Agent":             AIUser,
		"Google-GeminiNotebook":    AIUser,
		"ChatGPT-User":             AIUser,
	} {
		i := slices.IndexFunc(kb.All(), func(c *Crawler) bool { return c.Name == name })
		if i < 0 {
			t.Errorf("%s: not in the knowledge base", name)
			continue
		}
		c := kb.All()[i]
		if c.Category != want {
			t.Errorf("%s: category %s, want %s", name, c.Category, want)
		}
	}
}
