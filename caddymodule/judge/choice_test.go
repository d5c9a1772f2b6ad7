package judge

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/robotsguard/caddy-robots-txt/caddymodule/crawlers"
	"github.com/robotsguard/caddy-robots-txt/internal/testfixtures"
	"github.com/robotsguard/caddy-robots-txt/robots"
)

func TestChoiceGroup(t *testing.T) {
	const file = `User-agent: Googlebot
Disallow: /g

User-agent: msnbot
Disallow: /m

User-agent: Yandex
Disallow: /y

User-agent: AdsBot-Google
Disallow: /ads

User-agent: *
Disallow: /star
`
	f := robots.Parse([]byte(file))
	applebot := &crawlers.Crawler{Name: "Applebot", Tokens: []string{"Applebot"}, Follows: []string{"Googlebot"}}
	adsbot := &crawlers.Crawler{Name: "AdsBot-Google-Mobile", Tokens: []string{"AdsBot-Google-Mobile"}, IgnoresStar: true}
	special := &crawlers.Crawler{Name: "Mediapartners-Google", Tokens: []string{"Mediapartners-Google"}, IgnoresStar: true}
	for _, tc := range []struct {
		name     string
		choice   Choice
		ua       string
		group    string // first agent of the chosen group; "" for none
		chosenBy string
	}{
		{"header, as Google reads it", Choice{}, "Mozilla/5.0 (compatible; Googlebot/2.1)", "Googlebot", "Googlebot"},
		{"header names nothing: the * group", Choice{}, "SomeBot/1.0", "*", ""},
		{"a followed crawler's group", ChoiceFor(applebot, true), "Mozilla/5.0 (Applebot/0.1; +http://www.apple.com/go/applebot)", "Googlebot", "Googlebot"},
		// A known crawler goes by its own names, not another word of
		// its header (audit AN-F4; it was msnbot's group here).
		{"not another crawler's name in its header", ChoiceFor(applebot, true), "Applebot/0.1 msnbot/1.0", "Googlebot", "Googlebot"},
		{"a header naming nothing else: the header's name", Choice{}, "Applebot/0.1 msnbot/1.0", "msnbot", "msnbot"},
		{"signature: the followed crawler's group", ChoiceFor(applebot, false), "", "Googlebot", "Googlebot"},
		// A token is not a prefix of a longer one (Google's reading): a
		// group for AdsBot-Google does not name AdsBot-Google-Mobile.
		{"ignores *, a longer token's group only", ChoiceFor(adsbot, false), "", "", ""},
		{"ignores *, a longer token's group only, by header", ChoiceFor(adsbot, true), "Mozilla/5.0 (compatible; AdsBot-Google-Mobile)", "", ""},
		// The crawler's own token before a longer one the header names
		// (a library it fetches with).
		{"its own token first", ChoiceFor(&crawlers.Crawler{Name: "msnbot", Tokens: []string{"msnbot"}}, true), "msnbot/2.0 AdsBot-Google/1.0", "msnbot", "msnbot"},
		{"ignores *, named nowhere", ChoiceFor(special, true), "Mediapartners-Google", "", ""},
		{"signature: the header is not read", ChoiceFor(&crawlers.Crawler{Name: "X", Tokens: []string{"X"}}, false), "Googlebot/2.1", "*", ""},
		{"held to the * group whatever it claims", ByStar, "Googlebot/2.1", "*", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g, by := tc.choice.Group(f, tc.ua)
			got := ""
			if g != nil {
				got = g.Agents[0]
			}
			if got != tc.group || by != tc.chosenBy {
				t.Errorf("group %q chosen by %q, want %q by %q", got, by, tc.group, tc.chosenBy)
			}
		})
	}
}

// TestGoogleGroupExampleByCrawler is SPEC's example of Google's: each
// crawler obeys the group of its own token; Googlebot-Image, whose
// operator documents that it obeys a googlebot group when none names it,
// that group; any other bot the * group, even one whose token extends a
// named one.
func TestGoogleGroupExampleByCrawler(t *testing.T) {
	f := robots.Parse([]byte("user-agent: googlebot-news\ndisallow: /fish\n\nuser-agent: *\ndisallow: /carrots\n\nuser-agent: googlebot\ndisallow: /shrimp\n"))
	base := crawlers.Builtin()
	for _, tc := range []struct{ crawler, ua, group string }{
		{"Googlebot-News", "Googlebot-News", "googlebot-news"},
		{"Googlebot", "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)", "googlebot"},
		{"Googlebot-Image", "Googlebot-Image/1.0", "googlebot"},
		{"Googlebot-Video", "Googlebot-Video/1.0", "googlebot"},
		{"Storebot-Google", "Mozilla/5.0 (X11; Linux x86_64; Storebot-Google/1.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/79.0.3945.88 Safari/537.36", "*"},
		{"", "Otherbot-News/1.0", "*"},
		{"", "Googlebot-Extra/1.0", "*"},
	} {
		g, _ := ChoiceFor(base.Lookup(tc.crawler), true).Group(f, tc.ua)
		if g == nil || g.Agents[0] != tc.group {
			t.Errorf("%q: group %v, want %s", tc.ua, g, tc.group)
		}
	}
}

// TestGraceChoosesAsNow: an earlier version's group is chosen the way the
// current one's was, so a crawler that follows another's group is
// excused by that group's earlier rules, not the * group's.
func TestGraceChoosesAsNow(t *testing.T) {
	old := robots.Parse([]byte("User-agent: Googlebot\nDisallow:\n\nUser-agent: *\nDisallow: /\n"))
	applebot := &crawlers.Crawler{Name: "Applebot", Tokens: []string{"Applebot"}, Follows: []string{"Googlebot"}}
	r := &Request{UA: "Mozilla/5.0 (Applebot/0.1)", Choice: ChoiceFor(applebot, true)}
	if g := r.groupIn(old); g == nil || g.Agents[0] != "Googlebot" {
		t.Fatalf("earlier version: group %v, want Googlebot's", g)
	}
	r.Choice = Choice{}
	if g := r.groupIn(old); g == nil || g.Agents[0] != "*" {
		t.Fatalf("by header alone: group %v, want the * group", g)
	}
}

// An impostor is held to the * group and to the group its header chooses
// with the claim, in every version of the file, so that grace excuses it
// only where the version it fetched allowed the request to both.
func TestImpostorHeldToBoth(t *testing.T) {
	gptbot := &crawlers.Crawler{Name: "GPTBot", Tokens: []string{"GPTBot"}}
	for _, tc := range []struct {
		name, file, ua, path string
		also                 string // the Held groups' first agents, joined by ","; "" for none
		allowed              bool
	}{
		{"its crawler's group refuses", "User-agent: GPTBot\nDisallow: /\n\nUser-agent: *\nDisallow: /p/\n", "GPTBot/1.1", "/a", "GPTBot", false},
		{"the * group refuses", "User-agent: GPTBot\nAllow: /\n\nUser-agent: *\nDisallow: /p/\n", "GPTBot/1.1", "/p/x", "GPTBot", false},
		{"both allow", "User-agent: GPTBot\nDisallow: /g/\n\nUser-agent: *\nDisallow: /p/\n", "GPTBot/1.1", "/a", "GPTBot", true},
		{"the product it names refuses", "User-agent: AcmeBot\nDisallow: /\n\nUser-agent: *\nDisallow: /p/\n", "AcmeBot/1.0 (compatible; GPTBot/1.1)", "/a", "AcmeBot", false},
		{"no group but *: held to it alone", "User-agent: *\nDisallow: /p/\n", "GPTBot/1.1", "/a", "", true},
		// Audit AB-F1: a second name with a group of its own, which
		// allows, sheds nothing.
		{"another name's group allows", "User-agent: AcmeBot\nDisallow: /\n\nUser-agent: GPTBot\nAllow: /\n\nUser-agent: *\nDisallow: /p/\n",
			"AcmeBot/1.0 (compatible; GPTBot/1.1)", "/a", "GPTBot,AcmeBot", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := robots.Parse([]byte(tc.file))
			c := ImpostorOf(gptbot, nil)
			if got := firstAgents(c.Held(f, tc.ua)); got != tc.also {
				t.Fatalf("Held: %q, want %q", got, tc.also)
			}
			v := NewVersion(f, "e1")
			r := &Request{UA: tc.ua, Choice: c, Paths: Paths{Primary: tc.path}}
			if got := v.allows(r); got != tc.allowed {
				t.Errorf("allows %s: %v, want %v", tc.path, got, tc.allowed)
			}
		})
	}
}

// firstAgents joins the first agent of each group with ",".
func firstAgents(groups []*robots.Group) string {
	var names []string
	for _, g := range groups {
		names = append(names, g.Agents[0])
	}
	return strings.Join(names, ",")
}

// TestUnprovenHeldToEveryGroupItNames: a bot nothing proved is held to
// the group of every name its header gives as its own (the first of the
// file's names it gives, its first product, the item after "compatible;")
// or that is a known crawler's, not only to the longest name's (audits
// AB-F1, AD-F2): "GPTBot/1.1 Googlebot/2.1" must not escape "User-agent:
// GPTBot" for Googlebot's Allow, nor "AcmeBot/1.0 LongerFooBot/1.0"
// AcmeBot's group, after a browser's header too. A library named after
// its own product is no identity (audit AE-F1), a name in words ("like
// GPTBot") names nothing, and a crawler proven by its address is held to
// its own group alone.
func TestUnprovenHeldToEveryGroupItNames(t *testing.T) {
	const file = "User-agent: GPTBot\nUser-agent: AcmeBot\nDisallow: /\n\n" +
		"User-agent: Googlebot\nUser-agent: LongerFooBot\nUser-agent: ExampleBot\nAllow: /\n\n" +
		"User-agent: facebookexternalhit\nAllow: /\n\n" +
		"User-agent: okhttp\nDisallow: /\n\n" +
		"User-agent: python-requests\nDisallow: /\n\n" +
		"User-agent: W3C-checklink\nDisallow:\n\nUser-agent: libwww-perl\nDisallow: /\n\n" +
		"User-agent: *\nDisallow: /private/\n"
	f := robots.Parse([]byte(file))
	base := crawlers.Builtin()
	google, fb := base.Lookup("Googlebot"), base.Lookup("facebookexternalhit")
	for _, tc := range []struct {
		name    string
		c       Choice
		ua      string
		held    string
		path    string
		allowed bool
	}{
		{"a claim nobody can check", UnprovenFor(fb, base), "GPTBot/1.1 facebookexternalhit/1.1", "GPTBot", "/page", false},
		{"names nobody knows", UnprovenFor(nil, base), "AcmeBot/1.0 LongerFooBot/1.0", "GPTBot", "/page", false},
		{"the longer name first", UnprovenFor(nil, base), "LongerFooBot/1.0 (compatible; AcmeBot/1.0)", "GPTBot", "/page", false},
		{"one name: its group alone", UnprovenFor(nil, base), "AcmeBot/1.0", "", "/page", false},
		{"an unproven Googlebot claim", UnprovenFor(google, base), "GPTBot/1.1 Googlebot/2.1", "GPTBot", "/page", false},
		{"the impostor", ImpostorOf(google, base), "GPTBot/1.1 Googlebot/2.1", "Googlebot,GPTBot", "/page", false},
		{"proven by its address", ChoiceFor(google, true), "GPTBot/1.1 Googlebot/2.1", "", "/page", true},
		{"every group allows", UnprovenFor(fb, base), "facebookexternalhit/1.1 Googlebot/2.1", "", "/page", true},
		{"a name in an address names nothing", UnprovenFor(fb, base), "facebookexternalhit/1.1 (+https://example.com/GPTBot)", "", "/page", true},
		{"after a browser's header", UnprovenFor(nil, base), "Mozilla/5.0 (X11; Linux) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36 AcmeBot/1.0 LongerFooBot/1.0", "GPTBot", "/page", false},
		{"a known crawler's name added", UnprovenFor(nil, base), "Mozilla/5.0 (X11; Linux) Safari/537.36 AcmeBot/1.0 facebookexternalhit/1.1", "GPTBot", "/page", false},
		{"a comment's item", UnprovenFor(nil, base), "Mozilla/5.0 (X11; AcmeBot/1.0) LongerFooBot/1.0", "GPTBot", "/page", false},
		// Audit AE-F1: a library a crawler names after its own product
		// is how it fetches; W3C's link checker obeys its own group.
		{"a library it names", UnprovenFor(nil, base), "ExampleBot/1.0 (X11; Linux) okhttp/4.9", "", "/page", true},
		// Audit AI-F1: a library's name chooses no group after the
		// client's own, however long, nor where the file names only it.
		{"a longer library's name after its own", UnprovenFor(nil, base), "ExampleBot/1.0 python-requests/2.31.0", "", "/page", true},
		{"a library the file names, after a name it does not", UnprovenFor(nil, base), "chklinks/3.09 python-requests/2.31.0", "", "/page", true},
		{"a library first", UnprovenFor(nil, base), "okhttp/4.9 ExampleBot/1.0", "okhttp", "/page", false},
		// Audit AE-F2: a name that is no library's is held wherever
		// the header gives it.
		{"its name after a longer one", UnprovenFor(nil, base), "LongerFooBot/1.0 AcmeBot/1.0", "GPTBot", "/page", false},
		{"its name after a crawler's", UnprovenFor(nil, base), "ExampleBot/1.0 facebookexternalhit/1.1 AcmeBot/1.0", "GPTBot", "/page", false},
		{"its name after a crawler's, after a browser's header", UnprovenFor(fb, base), "Mozilla/5.0 (X11; Linux) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36 facebookexternalhit/1.1 AcmeBot/1.0", "GPTBot", "/page", false},
		{"W3C's link checker", UnprovenFor(nil, base), "W3C-checklink/4.81 libwww-perl/6.72", "", "/page", true},
		{"a known crawler's name after others", UnprovenFor(nil, base), "LongerFooBot/1.0 Mozilla/5.0 ExampleBot/2.0 GPTBot/1.1", "GPTBot", "/page", false},
		{"a name in a description", UnprovenFor(nil, base), "ExampleBot/1.0 (like GPTBot)", "", "/page", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := firstAgents(tc.c.Held(f, tc.ua)); got != tc.held {
				t.Errorf("Held: %q, want %q", got, tc.held)
			}
			r := &Request{UA: tc.ua, Choice: tc.c, Paths: Paths{Primary: tc.path}}
			if got := NewVersion(f, "e1").allows(r); got != tc.allowed {
				t.Errorf("allows %s: %v, want %v", tc.path, got, tc.allowed)
			}
		})
	}
}

// TestHeldBounded: a header naming more groups than MaxNamed as its own
// is held to the first MaxNamed of them besides its group, each once.
func TestHeldBounded(t *testing.T) {
	var file, ua strings.Builder
	for i := range MaxNamed + 2*MaxHeld {
		fmt.Fprintf(&file, "User-agent: Bot%03d\nDisallow: /%03d/\n\n", i, i)
		fmt.Fprintf(&ua, "(compatible; Bot%03d/1.0) (compatible; Bot%03d/1.0) ", i, i)
	}
	f := robots.Parse([]byte(file.String()))
	held := UnprovenFor(nil, nil).Held(f, ua.String())
	if len(held) != MaxNamed {
		t.Fatalf("held to %d groups, want %d", len(held), MaxNamed)
	}
	own, _ := UnprovenFor(nil, nil).Group(f, ua.String())
	for i, g := range held {
		if g == own || slices.Contains(held[:i], g) {
			t.Errorf("group %v held twice", g.Agents)
		}
	}
}

// TestHeldNotPushedOut: names put before a group's cannot push it out of
// the groups held (audits AD-F1, AE-F2): groups that disallow nothing
// are not counted, groups whose rules surely allow the path cost no place
// among those judged in full, and of more refusing groups than MaxNamed,
// those that disallow the whole site are kept first.
func TestHeldNotPushedOut(t *testing.T) {
	for _, tc := range []struct {
		name, target, decoy string
		decoys              int
		ua, path            string
	}{
		{"allowing decoys before GPTBot", "User-agent: GPTBot\nDisallow: /\n", "Allow: /", 8 * MaxNamed, "%sGPTBot/1.1 LongestDecoyName/1.0", "/page"},
		{"refusing decoys before GPTBot", "User-agent: GPTBot\nDisallow: /\n", "Disallow: /decoy/", 2 * MaxNamed, "%sGPTBot/1.1 LongestDecoyName/1.0", "/page"},
		// Audit AE-F2: a bot the knowledge base does not know, named
		// by the file, after 17 groups restricting other paths.
		{"a section's group after decoys", "User-agent: AcmeBot\nDisallow: /secret/\n", "Disallow: /cgi-bin/", MaxHeld + 1, "%sAcmeBot/1.0", "/secret/f"},
		{"a section's group after more decoys than MaxNamed", "User-agent: AcmeBot\nDisallow: /\n", "Disallow: /cgi-bin/", 2 * MaxNamed, "%sAcmeBot/1.0", "/secret/f"},
		{"decoys that allow the section", "User-agent: AcmeBot\nDisallow: /\n", "Disallow: /\nAllow: /articles/", MaxHeld + 1, "%sAcmeBot/1.0", "/articles/b"},
		{"decoys with an escape", "User-agent: AcmeBot\nDisallow: /secret/\n", "Disallow: /cgi-bin/", MaxHeld + 1, "%sAcmeBot/1.0", "/%73ecret/./f"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var file, names strings.Builder
			file.WriteString(tc.target + "\nUser-agent: *\nDisallow: /private/\n\n")
			for i := range tc.decoys {
				fmt.Fprintf(&file, "User-agent: Decoy%03d\n%s\n\n", i, tc.decoy)
				fmt.Fprintf(&names, "Decoy%03d/1.0 ", i)
			}
			f := robots.Parse([]byte(file.String()))
			ua := fmt.Sprintf(tc.ua, names.String())
			r := &Request{UA: ua, Choice: UnprovenFor(nil, crawlers.Builtin()), Paths: pathsOfURI(t, tc.path)}
			if NewVersion(f, "e1").allows(r) {
				t.Errorf("%s after %d decoy names is allowed %s, want disallowed by its own group", ua[len(names.String()):], tc.decoys, tc.path)
			}
		})
	}
}

// TestHeldCapped: of more groups than MaxHeld that may refuse a path
// (their wildcard rules say nothing before they are tried), the first
// MaxHeld are judged in full, and the judgment says it was capped.
func TestHeldCapped(t *testing.T) {
	var file, ua strings.Builder
	file.WriteString("User-agent: AcmeBot\nDisallow: /secret/\n\nUser-agent: LongestName\nAllow: /\n\n")
	for i := range MaxHeld + 1 {
		fmt.Fprintf(&file, "User-agent: D%02d\nDisallow: /*.php$\n\n", i)
		fmt.Fprintf(&ua, "D%02d/1.0 ", i)
	}
	ua.WriteString("AcmeBot/1.0 LongestName/1.0")
	f := robots.Parse([]byte(file.String()))
	c := UnprovenFor(nil, nil)
	g, _ := c.Group(f, ua.String())
	held := c.Held(f, ua.String())
	for _, tc := range []struct {
		held   []*robots.Group
		capped bool
	}{
		{held[len(held)-MaxHeld:], false},
		{held, true},
	} {
		v, _, capped := pathsOfURI(t, "/secret/f").DecideHeld(g, tc.held)
		if capped != tc.capped || v.Allowed != tc.capped {
			t.Errorf("held to %d groups: allowed %v, capped %v; want %v, %v", len(tc.held), v.Allowed, capped, tc.capped, tc.capped)
		}
	}
}

// TestShared: a request from Googlebot's addresses with Googlebot's header
// may be Google News's, which sends that header and obeys a
// Googlebot-News group: a path that group allows is no violation, for a
// proven Googlebot only (audit AN-F1). A client nothing proved, or an
// impostor, gains nothing from it.
func TestShared(t *testing.T) {
	f := robots.Parse([]byte("User-agent: *\nDisallow: /search\n\n" +
		"User-agent: Googlebot\nDisallow: /archive/\nDisallow: /private/\n\n" +
		"User-agent: Googlebot-News\nDisallow: /opinion/\nDisallow: /private/\n"))
	base := crawlers.Builtin()
	gb := base.Lookup("Googlebot")
	ua := testfixtures.UAGooglebot
	for _, tc := range []struct {
		name    string
		c       Choice
		path    string
		allowed bool
	}{
		{"proven: Googlebot-News's group allows", ChoiceFor(gb, true), "/archive/x", true},
		{"proven: Googlebot's group allows", ChoiceFor(gb, true), "/opinion/x", true},
		{"proven: both refuse", ChoiceFor(gb, true), "/private/x", false},
		{"signed: Googlebot-News's group allows", ChoiceFor(gb, false), "/archive/x", true},
		{"unproven", UnprovenFor(gb, base), "/archive/x", false},
		{"impostor, held to Googlebot's group", ImpostorOf(gb, base), "/archive/x", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g, _ := tc.c.Group(f, ua)
			if tc.c.Claimed != nil {
				g = f.GroupFor("*")
			}
			v, by, _ := PathsOfTarget(tc.path).DecideShared(g, tc.c.Held(f, ua), tc.c.Shared(f, g))
			if v.Allowed != tc.allowed {
				t.Errorf("%s: allowed %v (by %v), want %v", tc.path, v.Allowed, by.Agents, tc.allowed)
			}
		})
	}
	// Where the file names no Googlebot-News group, Google News obeys
	// Googlebot's: nothing more.
	plain := robots.Parse([]byte("User-agent: Googlebot\nDisallow: /archive/\n"))
	g, _ := ChoiceFor(gb, true).Group(plain, ua)
	if s := ChoiceFor(gb, true).Shared(plain, g); len(s) != 0 {
		t.Errorf("no Googlebot-News group: shared %v, want none", s)
	}
	if s := ChoiceFor(base.Lookup("bingbot"), true).Shared(f, nil); len(s) != 0 {
		t.Errorf("bingbot: shared %v, want none", s)
	}
}

// TestKnownCrawlerGoesByItsNames: a known crawler obeys the group of its
// own token (of several words, the first word's, as Google's parser reads
// "User-agent: Sogou web spider"), of a longer name starting with one, or
// of a token it follows, else the * group, never that of another word of
// its header, as Google's reading of its token does (audit AN-F4).
func TestKnownCrawlerGoesByItsNames(t *testing.T) {
	base := crawlers.Builtin()
	for _, tc := range []struct {
		name, file, crawler, ua, group string
	}{
		{"a token of several words", "User-agent: Sogou\nAllow: /\n\nUser-agent: spider\nDisallow: /\n", "Sogou",
			"Sogou web spider/4.0(+http://www.sogou.com/docs/help/webmasters.htm#07)", "Sogou"},
		{"no group of its own: not a word of its header", "User-agent: spider\nDisallow: /\n\nUser-agent: *\nAllow: /\n", "Sogou",
			"Sogou web spider/4.0(+http://www.sogou.com/docs/help/webmasters.htm#07)", "*"},
		{"Baidu's mobile header", "User-agent: zh-cn\nUser-agent: u\nDisallow: /\n\nUser-agent: *\nAllow: /\n", "Baiduspider",
			"Mozilla/5.0 (Linux;u;Android 4.2.2;zh-cn;) AppleWebKit/534.46 (KHTML,like Gecko) Version/5.1 Mobile Safari/10600.6.3 (compatible; Baiduspider/2.0; +http://www.baidu.com/search/spider.html)", "*"},
		{"a longer name it sends", "User-agent: YandexImages\nDisallow: /i/\n\nUser-agent: Yandex\nDisallow: /y/\n", "YandexBot",
			"Mozilla/5.0 (compatible; YandexImages/3.0; +http://yandex.com/bots)", "YandexImages"},
		// Audit AP-F2: the product after "compatible;" chooses, whatever
		// the crawler its URL made it claimed for.
		{"its product after compatible;", "User-agent: GoogleAgent-Mariner\nDisallow: /\n\nUser-agent: *\nDisallow: /private/\n", "Google-Agent",
			"Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko; compatible; GoogleAgent-Mariner; +https://developers.google.com/search/docs/crawling-indexing/google-agent-mariner) Chrome/135.0.0.0 Safari/537.36", "GoogleAgent-Mariner"},
		// Audit AP-F7: a vendor's word of a token of several words is no
		// name of the crawler's.
		{"not a vendor's word", "User-agent: Google\nDisallow: /\n\nUser-agent: *\nDisallow: /private/\n", "Google Favicon",
			"Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/49.0.2623.75 Safari/537.36 Google Favicon", "*"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cr := base.Lookup(tc.crawler)
			if cr == nil {
				t.Fatalf("%s: not in the knowledge base", tc.crawler)
			}
			g, _ := ChoiceFor(cr, true).Group(robots.Parse([]byte(tc.file)), tc.ua)
			if got := g.Agents[0]; got != tc.group {
				t.Errorf("group %q, want %q", got, tc.group)
			}
		})
	}
}
