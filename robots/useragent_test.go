package robots

import (
	"reflect"
	"slices"
	"strings"
	"testing"
)

const crawlerFile = `# A file naming the crawlers a site cares about.
User-agent: Googlebot
Disallow: /nogoogle/

User-agent: Googlebot-News
Disallow: /nonews/

User-agent: bingbot
Disallow: /nobing/

User-agent: GPTBot
User-agent: ClaudeBot
User-agent: CCBot
User-agent: PerplexityBot
Disallow: /

User-agent: Applebot
Disallow: /noapple/

User-agent: facebookexternalhit
Allow: /

User-agent: *
Disallow: /private/
`

func TestGroupForUserAgent(t *testing.T) {
	f := Parse([]byte(crawlerFile))
	for _, tc := range []struct {
		header string
		name   string // "" means the * group
	}{
		{"Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)", "Googlebot"},
		{"Mozilla/5.0 (Linux; Android 6.0.1; Nexus 5X Build/MMB29P) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.6778.139 Mobile Safari/537.36 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)", "Googlebot"},
		// A token is the whole product's: Googlebot is not
		// Googlebot-Image (which obeys a googlebot group by its
		// operator's word, known to the handler, not to the file).
		{"Googlebot-Image/1.0", ""},
		{"Googlebot-News", "Googlebot-News"},
		{"Googlebot-Video/1.0", ""},
		{"ChatGPT-User/1.0", ""},
		{"Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)", "bingbot"},
		{"Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm) Chrome/116.0.1938.76 Safari/537.36", "bingbot"},
		{"Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.1; +https://openai.com/gptbot)", "GPTBot"},
		{"Mozilla/5.0 (compatible; GPTBot/1.1; +https://openai.com/gptbot)", "GPTBot"},
		{"Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; ClaudeBot/1.0; +claudebot@anthropic.com)", "ClaudeBot"},
		{"CCBot/2.0 (https://commoncrawl.org/faq/)", "CCBot"},
		{"Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/13.1.1 Safari/605.1.15 (Applebot/0.1; +http://www.apple.com/go/applebot)", "Applebot"},
		{"Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; PerplexityBot/1.0; +https://perplexity.ai/perplexitybot)", "PerplexityBot"},
		{"facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)", "facebookexternalhit"},
		{"GPTBOT", "GPTBot"},
		// Not a crawler the file names.
		{"Mozilla/5.0 (compatible; YandexBot/3.0; +http://yandex.com/bots)", ""},
		{"Mozilla/5.0 (compatible; AhrefsBot/7.0; +http://ahrefs.com/robot/)", ""},
		{"NotGPTBot/1.0", ""},
		{"GPTBotX/1.0", ""},
		{"Mozilla/5.0 (compatible; Googlebot2/1.0)", ""},
		{"", ""},
		// Browsers name no group.
		{"Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36", ""},
		{"Mozilla/5.0 (Macintosh; Intel Mac OS X 14_7_1) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15", ""},
		{"Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0", ""},
		{"Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1", ""},
		{"Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36 EdgA/131.0.0.0", ""},
	} {
		checkGroupForUserAgent(t, f, tc.header, tc.name)
	}
	// Longest name wins wherever it stands.
	f = Parse([]byte("user-agent: bot\ndisallow: /a\nuser-agent: superbot\ndisallow: /b\n"))
	if _, name := f.GroupForUserAgent("bot/1 superbot/2"); name != "superbot" {
		t.Errorf("longest match: got %q", name)
	}
	// No match and no * group: nothing applies.
	f = Parse([]byte("user-agent: GPTBot\ndisallow: /\n"))
	if g, name := f.GroupForUserAgent("Mozilla/5.0 Firefox/133.0"); g != nil || name != "" {
		t.Errorf("no group should apply, got %v %q", g, name)
	}
}

// TestGroupForUserAgentProductPlace: a name selects its group only where
// it can be the client's own product token, which is what the crawler
// reads the file by; a word of a description, a version or another
// product's slash part is not (Google's reading of the crawler's token
// gives the * group).
func TestGroupForUserAgentProductPlace(t *testing.T) {
	f := Parse([]byte("User-agent: *\nDisallow: /trap/\n\n" +
		"User-agent: fast\nUser-agent: Microsoft.URL.Control\nUser-agent: Java\nUser-agent: Mail.RU_Bot\n" +
		"User-agent: MSIE\nUser-agent: crawler\nUser-agent: Screaming Frog SEO Spider\nUser-agent: Prerender\nDisallow: /\n"))
	for _, tc := range []struct {
		header string
		name   string // "" means the * group
	}{
		// Not in a product's place.
		{"Mozilla/5.0 (compatible; Linux x86_64; Mail.RU_Bot/Fast/2.0; +http://go.mail.ru/help/robots)", ""},
		{"RssReader/1.0.88.0 (http://www.rssreader.com) Microsoft Windows NT 5.1.2600.0", ""},
		{"yacybot (/global; amd64 Linux 3.16.0-4-amd64; java 1.7.0_75; Europe/en) http://yacy.net/bot.html", ""},
		{"FAST-WebCrawler/3.7 (atw-crawler at fast dot no; http://fast.no/support/crawler.asp)", ""},
		{"Mozilla/5.0 (compatible; Example 2.0; MSIE 8.0; Windows NT 6.3)", ""},
		{"HubSpot Links Crawler 2.0 http://www.hubspot.com/", ""},
		{"Example/1.0 (fast.example)", ""},
		// In one.
		{"Fast/2.0", "fast"},
		{"Mozilla/5.0 (compatible; fast; +http://example.com)", "fast"},
		{"Mozilla/5.0 (compatible; Java)", "Java"},
		{"Java/1.8.0_151", "Java"},
		{"Microsoft URL Control - 6.00.8862", "Microsoft"},
		{"Mozilla/4.0 (compatible; MSIE 6.0; Windows NT 5.1) Crawler", "crawler"},
		{"Mozilla/5.0 Chrome/71.0.3578.98 Safari/537.36 Prerender (+https://github.com/prerender/prerender)", "Prerender"},
		{"Screaming Frog SEO Spider/21.0", "Screaming"},
		{"  fast spider thing", "fast"},
		{"Mozilla/5.0+(compatible;+fast/1.0)", "fast"},
		{"Mail/1.0 [en]", "Mail"},
		// The item after "compatible;" is the crawler's name, its
		// version after a space or not.
		{"Mozilla/4.5 (compatible; fast 3.0x; Windows 98)", "fast"},
		{"Mozilla/5.0 (compatible; Java PyExalead/3.0; +http://example.com/robot)", "Java"},
		{"Mozilla/5.0 (compatible;Java 1.0)", "Java"},
		{"Mozilla/5.0 (compatible; MSIE 8.0; Windows NT 6.3; www.alertra.com)", "MSIE"},
		{"Example/1.0 Mail [en]", "Mail"},
	} {
		checkGroupForUserAgent(t, f, tc.header, tc.name)
	}
}

// TestGroupForUserAgentDescribed: a name after another word of a
// comment's item describes the client ("like ExampleBot") and is not its
// product: Google's parser, given the client's own token, reads
// OtherBot's group or the * group, never ExampleBot's.
func TestGroupForUserAgentDescribed(t *testing.T) {
	f := Parse([]byte("User-agent: *\nDisallow: /y\n\nUser-agent: OtherBot\nDisallow: /z\n\n" +
		"User-agent: ExampleBot\nUser-agent: Slurp\nUser-agent: Crawler\nDisallow: /x\n"))
	for _, tc := range []struct {
		header string
		name   string // "" means the * group
	}{
		{"OtherBot/1.0 (like ExampleBot)", "OtherBot"},
		{"OtherBot/1.0 (compatible with ExampleBot; +https://example.com)", "OtherBot"},
		{"Unknown/1.0 (like ExampleBot)", ""},
		{"Mozilla/5.0 (compatible; Seekport Crawler; http://seekport.com/)", ""},
		// Still a product's place.
		{"Mozilla/5.0 (compatible; Yahoo! Slurp; http://help.yahoo.com/help/us/ysearch/slurp)", "Slurp"},
		{"Mozilla/5.0 (X11; Linux x86_64) Chrome/120.0 Safari/537.36 (ExampleBot/1.0)", "ExampleBot"},
		{"Mozilla/5.0 (Windows NT 10.0; rv:121.0; ExampleBot)", "ExampleBot"},
		{"Mozilla/5.0 (compatible; Example/1.0 ExampleBot/2.0)", "ExampleBot"},
		{"Mozilla/5.0 Chrome/120.0 ExampleBot/1.0", "ExampleBot"},
	} {
		checkGroupForUserAgent(t, f, tc.header, tc.name)
	}
}

// checkGroupForUserAgent checks that header selects the group of the
// file's agent name ("" for the * group).
func checkGroupForUserAgent(t *testing.T, f *File, header, name string) {
	t.Helper()
	g, got := f.GroupForUserAgent(header)
	if got != name {
		t.Errorf("%q: name = %q, want %q", header, got, name)
	}
	want := f.GroupFor(name)
	if name == "" {
		want = f.GroupFor("*")
	}
	if g != want {
		t.Errorf("%q: group %v, want %v", header, g.Agents, want.Agents)
	}
}

func TestNamedGroupFor(t *testing.T) {
	f := Parse([]byte(crawlerFile))
	for _, tc := range []struct {
		agent string
		want  string // the first agent of the group; "" means nil
	}{
		{"Googlebot", "Googlebot"},
		{"googlebot-image", ""}, // extends googlebot, and is not it
		{"Googlebot-News", "Googlebot-News"},
		{"CCBot", "GPTBot"}, // shares GPTBot's group
		{"*", "*"},
		{"YandexBot", ""},
		{"Googlebotx", ""},
		{"Apple", ""}, // a prefix of a name is not that name
		{"", ""},
	} {
		g := f.NamedGroupFor(tc.agent)
		got := ""
		if g != nil {
			got = g.Agents[0]
		}
		if got != tc.want {
			t.Errorf("NamedGroupFor(%q) = %q, want %q", tc.agent, got, tc.want)
		}
		// GroupFor is the same, falling back to the * group.
		want := g
		if want == nil {
			want = f.NamedGroupFor("*")
		}
		if gf := f.GroupFor(tc.agent); gf != want {
			t.Errorf("GroupFor(%q) is not NamedGroupFor's group or the * group", tc.agent)
		}
	}
	var none *File
	if none.NamedGroupFor("Googlebot") != nil || none.GroupFor("Googlebot") != nil {
		t.Error("a nil file has no groups")
	}
	if g := Parse([]byte("user-agent: *\ndisallow: /x\n")).NamedGroupFor("GPTBot"); g != nil {
		t.Errorf("a file of only * names no GPTBot group, got %v", g.Agents)
	}
}

func TestGroupForUserAgentDoesNotAllocate(t *testing.T) {
	f := Parse([]byte(crawlerFile))
	for _, h := range []string{
		"Mozilla/5.0 (compatible; GPTBot/1.1; +https://openai.com/gptbot)",
		"Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
	} {
		if n := testing.AllocsPerRun(100, func() { f.GroupForUserAgent(h) }); n != 0 {
			t.Errorf("GroupForUserAgent(%q) allocates %v times", h, n)
		}
	}
}

// TestGroupForUserAgentOwnProductOnly: only what can be the client's own
// product token chooses a group, as Google's parser compares each
// user-agent line with the crawler's token and nothing else: not a word of
// its info URL or e-mail address, not a token every browser sends.
func TestGroupForUserAgentOwnProductOnly(t *testing.T) {
	const (
		googlebot = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"
		bingbot   = "Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)"
		gptbot    = "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.1; +https://openai.com/gptbot)"
		claudebot = "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; ClaudeBot/1.0; +claudebot@anthropic.com)"
	)
	for _, tc := range []struct {
		name, file, header string
		want               string // the chosen agent; "" for the * group
	}{
		{"a host in the info URL", "User-agent: Google\nDisallow: /\n", googlebot, ""},
		{"a file name in the info URL", "User-agent: bot\nDisallow: /\n", googlebot, ""},
		{"www in the info URL", "User-agent: www\nDisallow: /\n", googlebot, ""},
		{"a URL's host", "User-agent: openai\nDisallow: /\n", gptbot, ""},
		{"an e-mail address's domain", "User-agent: anthropic\nDisallow: /\n", claudebot, ""},
		{"an e-mail address's name", "User-agent: crawler\nDisallow: /\n", "FooBot/1.0 (crawler@example.com)", ""},
		{"a bare host name", "User-agent: example\nDisallow: /\n", "FooBot/1.0 (+www.example.com)", ""},
		{"a URL without a scheme's separator of its own", "User-agent: yandex\nDisallow: /\n", "Mozilla/5.0 (compatible; YandexBot/3.0; +http://yandex.com/bots)", ""},
		{"compatible", "User-agent: compatible\nDisallow: /\n", googlebot, ""},
		{"AppleWebKit", "User-agent: AppleWebKit\nDisallow: /\n", claudebot, ""},
		// A whole header pasted after "User-agent:" names Mozilla,
		// which must not beat bingbot's own group of equal length.
		{"a pasted header", "User-agent: Mozilla/5.0 (compatible; BadBot/1.0)\nDisallow: /\n\nUser-agent: bingbot\nAllow: /\n", bingbot, "bingbot"},
		{"a pasted header, no group of its own", "User-agent: Mozilla/5.0 (compatible; BadBot/1.0)\nDisallow: /\n", googlebot, ""},
		// A product token holds "_": Foo_Bar is not Foo.
		{"an underscore", "User-agent: Foo\nDisallow: /\n", "Foo_Bar/1.0", ""},
		// The crawler's own token still chooses.
		{"the token beside its URL", "User-agent: examplebot\nDisallow: /\n", "Mozilla/5.0 (compatible; ExampleBot/1.0; +http://www.example.com/examplebot.html)", "examplebot"},
		{"the token before an e-mail address", "User-agent: foobot\nDisallow: /\n", "FooBot/1.0 (crawler@example.com)", "foobot"},
		{"a token with a suffix", "User-agent: foo\nDisallow: /\n", "Foo-Bar/1.0", ""},
		// ai.robots.txt's "ChatGPT Agent" line names ChatGPT, which
		// ChatGPT-User is not.
		{"a longer token than the file's", "User-agent: ChatGPT Agent\nDisallow: /\n", "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; ChatGPT-User/1.0; +https://openai.com/bot", ""},
		{"a token with an underscore", "User-agent: foo_bar\nDisallow: /\n", "Foo_Bar/1.0", "foo_bar"},
		{"a token right after a URL", "User-agent: foobot\nDisallow: /\n", "(+http://example.com/) FooBot/1.0", "foobot"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := Parse([]byte(tc.file + "\nUser-agent: *\nAllow: /\n"))
			g, name := f.GroupForUserAgent(tc.header)
			if name != tc.want {
				t.Errorf("%q chose %q, want %q", tc.header, name, tc.want)
			}
			want := f.GroupFor("*")
			if tc.want != "" {
				want = f.GroupFor(tc.want)
			}
			if g != want {
				t.Errorf("%q: group %v, want %v", tc.header, g.Agents, want.Agents)
			}
		})
	}
}

func TestBrowserAgentFinding(t *testing.T) {
	f := Parse([]byte("User-agent: Mozilla/5.0 (compatible; BadBot/1.0)\nDisallow: /\n\nUser-agent: BadBot\nDisallow: /\n"))
	var got []Diagnostic
	for _, d := range f.Diagnostics() {
		if d.Kind == KindBrowserAgent {
			got = append(got, d)
		}
	}
	if len(got) != 1 || got[0].Line != 1 || got[0].Severity != Warning {
		t.Errorf("findings %v, want one browser-agent warning on line 1", got)
	}
}

func TestBrowserToken(t *testing.T) {
	for tok, want := range map[string]bool{
		"Mozilla": true, "MOZILLA": true, "applewebkit": true, "compatible": true, "Chrome": true,
		"Googlebot": false, "": false, "mozillax": false, "AppleWebKitX": false,
		"x64": true, "Win32": true, "x86_64": true, "MJ12bot": false,
	} {
		if got := BrowserToken(tok); got != want {
			t.Errorf("BrowserToken(%q) = %v, want %v", tok, got, want)
		}
	}
}

// TestNamesWithDigits: "User-agent: MJ12bot" is read as "MJ", as Google's
// parser reads it, whose crawlers have no digits in their tokens; but the
// line names the crawler MJ12bot, which obeys it, and that crawler is held
// to the group, by its name in full and by its header, under that name.
// Another name the token starts ("MJ99bot", "AI3Bot"), or the token alone
// with a digit after it, is not that crawler, and a name may start with
// digits ("360Spider", "008" of 80legs) if it is no version number.
func TestNamesWithDigits(t *testing.T) {
	f := Parse([]byte("User-agent: MJ12bot\nDisallow: /mj\n\nUser-agent: img2dataset\nUser-agent: AI2Bot\nDisallow: /ai\n\nUser-agent: AI3Bot\nDisallow: /three\n\nUser-agent: 360Spider\nUser-agent: 008\nUser-agent: 12\nDisallow: /cn\n\nUser-agent: *\nDisallow: /all\n"))
	for _, tc := range []struct {
		agent string // for NamedGroupFor
		want  string // the first agent of the group; "" means nil
	}{
		{"MJ12bot", "MJ12bot"},
		{"mj12BOT", "MJ12bot"},
		{"MJ", "MJ12bot"}, // the token as Google reads the line
		{"MJ99bot", ""},
		{"MJ12", ""},
		{"img2dataset", "img2dataset"},
		{"AI2Bot", "img2dataset"},
		{"AI3Bot", "AI3Bot"},
		{"360spider", "360Spider"},
		{"008", "360Spider"},
		{"12", ""}, // too short to be a name: every version has one
	} {
		got := ""
		if g := f.NamedGroupFor(tc.agent); g != nil {
			got = g.Agents[0]
		}
		if got != tc.want {
			t.Errorf("NamedGroupFor(%q) = %q, want %q", tc.agent, got, tc.want)
		}
	}
	if got, want := f.Agents(), []string{"MJ12bot", "img2dataset", "AI2Bot", "AI3Bot", "360Spider", "008"}; !reflect.DeepEqual(got, want) {
		t.Errorf("Agents() = %q, want %q", got, want)
	}
	// "AI", as Google reads both AI2Bot's line and AI3Bot's, obeys both
	// groups: that merge has no written name but its own.
	if g := f.NamedGroupFor("AI"); g == nil || !reflect.DeepEqual(g.Agents, []string{"AI"}) || g.Decide("/three").Allowed || g.Decide("/ai").Allowed {
		t.Errorf("NamedGroupFor(\"AI\") = %v, want the merge of AI2Bot's and AI3Bot's groups, named AI", g)
	}
	for _, tc := range []struct {
		header, path string
		allowed      bool
	}{
		{"MJ12bot/v1.4.8 (http://mj12bot.com/)", "/mj", false},
		{"Mozilla/5.0 (compatible; MJ12bot/v1.4.8; http://mj12bot.com/)", "/mj", false},
		{"Mozilla/5.0 (compatible; AI2Bot; +https://www.allenai.org/crawler)", "/ai", false},
		{"img2dataset/1.45", "/ai", false},
		{"MJ99bot/1.0", "/mj", true},   // another crawler: the * group
		{"MJ99bot/1.0", "/all", false}, // which it obeys
		{"MJ12botx/1.0", "/mj", true},
		{"Mozilla/5.0 (compatible; AI2Bot; +https://www.allenai.org/crawler)", "/three", true}, // AI3Bot's
		{"AI3Bot/1.0", "/three", false},
		{"AI3Bot/1.0", "/ai", true},
		{"Mozilla/5.0 (compatible; 360Spider)", "/cn", false},
		{"Mozilla/5.0 (compatible; 008/0.83; http://www.80legs.com/webcrawler.html) Gecko/2008032620", "/cn", false},
		{"FooBot/008 (compatible)", "/cn", true}, // a version, not 80legs
		{"FooBot/1.0 (+http://example.com/008)", "/cn", true},
		{"Mozilla/5.0 (compatible; SomeBot/1.0; +http://mj12bot.example/MJ12bot)", "/mj", true}, // in an address
	} {
		g, _ := f.GroupForUserAgent(tc.header)
		if got := g.Decide(tc.path).Allowed; got != tc.allowed {
			t.Errorf("%q %s: allowed %v, want %v", tc.header, tc.path, got, tc.allowed)
		}
	}
}

// TestNameWithDigitsLongestAnyOrder: a name with digits counts by its
// whole length wherever it stands in the header, as the comment at
// GroupForUserAgent's bestLen says; the group chosen does not depend on
// which of two names comes first.
func TestNameWithDigitsLongestAnyOrder(t *testing.T) {
	f := Parse([]byte("User-agent: MJ12bot\nDisallow: /mj\n\nUser-agent: foobar\nDisallow: /fb\n"))
	for _, h := range []string{"MJ12bot/1.0 foobar/2.0", "foobar/2.0 MJ12bot/1.0"} {
		if _, name := f.GroupForUserAgent(h); name != "MJ12bot" {
			t.Errorf("%q selects %q, want the longer MJ12bot's group", h, name)
		}
	}
}

// TestGroupsNamedIn: every group a header names as a product that
// restricts a client, each once, in the header's order, but the ones excepted; the longest name's group
// is one of them, found as GroupForUserAgent finds it.
func TestGroupsNamedIn(t *testing.T) {
	const file = "User-agent: GPTBot\nDisallow: /\n\nUser-agent: Googlebot\nDisallow: /g\n\n" +
		"User-agent: AcmeBot\nDisallow: /a\n\nUser-agent: libfoo\nDisallow: /l\n\nUser-agent: *\nDisallow: /p\n\n" +
		"User-agent: OpenBot\nAllow: /\n\nUser-agent: SlowBot\nCrawl-delay: 5\nDisallow:\n\nUser-agent: EmptyBot\n"
	f := Parse([]byte(file))
	for _, tc := range []struct {
		header string
		want   []string // the first agent of each group, in order
	}{
		{"GPTBot/1.1 Googlebot/2.1", []string{"GPTBot", "Googlebot"}},
		{"  GPTBot/1.1 GPTBot/1.2 Googlebot/2.1", []string{"GPTBot", "Googlebot"}},
		{"Mozilla/5.0 (compatible; GPTBot/1.3; +https://openai.com/gptbot) Googlebot/2.1", []string{"GPTBot", "Googlebot"}},
		{"Mozilla/5.0 (X11; AcmeBot/1.0) Safari/537.36 libfoo/2.0", []string{"AcmeBot", "libfoo"}},
		{"AcmeBot/1.0 (+https://example.com/GPTBot; like Googlebot)", []string{"AcmeBot"}},
		{"Mozilla/5.0 (X11; Linux) Firefox/120.0", nil},
		// Groups that disallow nothing and ask no delay restrict
		// nothing: left out; a Crawl-delay alone restricts.
		{"OpenBot/1.0 EmptyBot/1.0 AcmeBot/1.0 SlowBot/1.0", []string{"AcmeBot", "SlowBot"}},
	} {
		var got []string
		all := f.GroupsNamedIn(tc.header, 10, keepAll)
		for _, g := range all {
			got = append(got, g.Agents[0])
		}
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("GroupsNamedIn(%q) named %q, want %q", tc.header, got, tc.want)
		}
		if g, name := f.GroupForUserAgent(tc.header); name != "" && g.Restricts() {
			if !slices.Contains(all, g) {
				t.Errorf("GroupsNamedIn(%q) lacks the group of %q, GroupForUserAgent's", tc.header, name)
			}
			if slices.Contains(f.GroupsNamedIn(tc.header, 10, keepAll, g), g) {
				t.Errorf("GroupsNamedIn(%q) kept the group excepted", tc.header)
			}
		}
		if only := f.GroupsNamedIn(tc.header, 1, keepAll); len(only) > 1 {
			t.Errorf("GroupsNamedIn(%q) with limit 1: %d groups", tc.header, len(only))
		}
	}
}

func keepAll(string, int, bool) bool { return true }

// TestGroupsNamedInLead: keep is told which names stand where a client
// puts its own: its first product, the item after "compatible;".
func TestGroupsNamedInLead(t *testing.T) {
	f := Parse([]byte("User-agent: A1\nDisallow: /a\n\nUser-agent: B2\nDisallow: /b\n\nUser-agent: C3\nDisallow: /c\n"))
	for _, tc := range []struct {
		header string
		lead   []string
	}{
		{"A1/1.0 B2/1.0 C3/1.0", []string{"A1"}},
		{"Mozilla/5.0 (X11) Safari/537.36 B2/1.0 C3/1.0", nil},
		{"X/1.0 A1/1.0 (compatible; C3/1.0) B2/1.0", []string{"C3"}},
	} {
		var lead []string
		f.GroupsNamedIn(tc.header, 10, func(name string, _ int, isLead bool) bool {
			if isLead {
				lead = append(lead, name)
			}
			return true
		})
		if !reflect.DeepEqual(lead, tc.lead) {
			t.Errorf("%q: lead names %q, want %q", tc.header, lead, tc.lead)
		}
	}
}

// TestGroupForUserAgentSkipping: a name skip reports (a library) chooses
// no group unless the header gives it where a client puts its own, however
// long it is; the longest other name does, else the * group (audit
// AI-F1).
func TestGroupForUserAgentSkipping(t *testing.T) {
	f := Parse([]byte("User-agent: *\nDisallow: /p/\n\nUser-agent: libwww-perl\nDisallow: /\n\nUser-agent: chklinks\nDisallow:\n"))
	lib := func(name string, _ int, lead bool) bool { return !lead && strings.EqualFold(name, "libwww-perl") }
	for _, tc := range []struct {
		header, want string // want: the agent chosen, "" for *
	}{
		{"chklinks/3.09 libwww-perl/6.72", "chklinks"},
		{"W3C-checklink/4.81 libwww-perl/6.72", ""},
		{"libwww-perl/6.72", "libwww-perl"},
		{"Mozilla/5.0 (compatible; libwww-perl/6.72)", "libwww-perl"},
		{"libwww-perl/6.72 chklinks/3.09", "libwww-perl"},
	} {
		g, name := f.GroupForUserAgentSkipping(tc.header, lib)
		if name != tc.want || g == nil || name == "" && g != f.GroupFor("*") {
			t.Errorf("%q: agent %q, want %q", tc.header, name, tc.want)
		}
	}
	if g, name := f.GroupForUserAgentSkipping("chklinks/3.09 libwww-perl/6.72", nil); name != "libwww-perl" || g == nil {
		t.Errorf("nothing skipped: agent %q, want the longest, libwww-perl", name)
	}
}
