package judge

import (
	"fmt"
	"strings"
	"testing"

	"github.com/robotsguard/caddy-robots-txt/caddymodule/botdetect"
	"github.com/robotsguard/caddy-robots-txt/caddymodule/crawlers"
	"github.com/robotsguard/caddy-robots-txt/robots"
)

func TestNamesProduct(t *testing.T) {
	for _, tc := range []struct {
		ua, name string
		want     bool
	}{
		{"Mozilla/5.0 (compatible; GPTBot/1.1; +https://openai.com/gptbot)", "GPTBot", true},
		{"Mozilla/5.0 (Linux; Android 5.0) AppleWebKit/537.36 (KHTML, like Gecko) Mobile Safari/537.36 (compatible; Bytespider; spider-feedback@bytedance.com)", "Bytespider", true},
		{"CCBot", "ccbot", true},
		{"Googlebot-Image/1.0", "googlebot", false}, // the product is Googlebot-Image; the classifier knows it
		{"Mozilla/5.0 (Macintosh; Intel Mac OS X 14_7_1) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15", "Intel", false},
		{"Mozilla/5.0 (Macintosh; Intel Mac OS X 14_7_1) AppleWebKit/605.1.15", "Mac", false},
		{"Mozilla/5.0 (X11; U; Linux i686; en-US; rv:1.9.0.5) Gecko/2008121621 Firefox/3.0.5", "U", false},
		{"Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0", "Firefox", false},
		{"Mozilla/5.0 (Windows NT 10.0; Win64; x64) Chrome/131.0.0.0 Safari/537.36", "Safari", false},
		{"NotGPTBot/1.0", "GPTBot", false},
		// Tokens every browser of a family sends.
		{"Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/131.0.6778.73 Mobile/15E148 Safari/604.1", "CriOS", false},
		{"Mozilla/5.0 (Linux; Android 14; SM-S921B Build/UP1A.231005.007; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/131.0.0.0 Mobile Safari/537.36", "Build", false},
		{"Mozilla/5.0 (Windows NT 10.0; WOW64; Trident/7.0; rv:11.0) like Gecko", "Trident", false},
		{"Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0", "X11", false},
		// An app's marker in its in-app browser names the app, not its
		// crawler: a platform where a crawler writes its version.
		{"Mozilla/5.0 (iPhone; CPU iPhone OS 17_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 [Pinterest/iOS]", "Pinterest", false},
		{"Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36 [Pinterest/Android]", "Pinterest", false},
		{"Pinterest/0.2 (+https://www.pinterest.com/bot.html)", "Pinterest", true},
		// A version follows a crawler's token; a manufacturer's brand in
		// an app's device comment is none.
		{"Mozilla/5.0 (Linux; Android 14; Pixel 8 Build/AP2A.240905.003; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/129.0.6668.100 Mobile Safari/537.36 Instagram 352.0.0.38.100 Android (34/14; 420dpi; 1080x2400; Google/google; Pixel 8; shiba; shiba; en_US; 650165467)", "Google", false},
		{"Mozilla/5.0 (compatible; MJ12bot/v2.0.4; http://mj12bot.com/)", "MJ12bot", true},
		{"Mozilla/5.0 (X11; Linux x86_64) Chrome/131.0.0.0 Safari/537.36 ExampleCrawler/V3", "ExampleCrawler", true},
		{"Pinterest/iOSbuild", "Pinterest", false},
		{"Pinterest/", "Pinterest", false},
	} {
		if got := namesProduct(tc.ua, tc.name); got != tc.want {
			t.Errorf("namesProduct(%q, %q) = %v, want %v", tc.ua, tc.name, got, tc.want)
		}
	}
}

// TestOwn: the operator's crawler entries name a client only where neither
// the file nor the classifier did.
func TestOwn(t *testing.T) {
	own := []string{"MyMon", "Googlebot"}
	for _, tc := range []struct {
		desc string
		id   Identity
		ua   string
		want Identity
	}{
		{"a browser naming the entry", Identity{}, "Mozilla/5.0 (X11; Linux x86_64) Chrome/120.0.0.0 Safari/537.36 MyMon/2.0",
			Identity{Bot: true, Name: "MyMon"}},
		{"a generic bot naming it", Identity{Bot: true, Name: Generic}, "MyMon/1.0", Identity{Bot: true, Name: "MyMon"}},
		{"already named", Identity{Bot: true, Name: "curl"}, "curl/8.0 MyMon/1.0", Identity{Bot: true, Name: "curl"}},
		{"the word, not the product", Identity{}, "Mozilla/5.0 (X11; MyMonitor) Firefox/133.0", Identity{}},
		{"first entry first", Identity{Bot: true, Name: Generic}, "Googlebot/2.1 MyMon/1.0", Identity{Bot: true, Name: "MyMon"}},
	} {
		if got := tc.id.Own(tc.ua, own); got != tc.want {
			t.Errorf("%s: Own(%q) = %+v, want %+v", tc.desc, tc.ua, got, tc.want)
		}
	}
	if got := (Identity{}).Own("MyMon/1.0", nil); got.Bot {
		t.Errorf("no entries named %+v", got)
	}
}

// BenchmarkNamesProductHostile: a crafted header against a crafted
// agent name costs time linear in the header, not header × name.
func BenchmarkNamesProductHostile(b *testing.B) {
	name := strings.Repeat("a", 8000) + "b"
	for _, n := range []int{200, 20000} {
		ua := strings.Repeat("a", n)
		spaced := strings.Repeat("a ", n/2)
		b.Run(fmt.Sprintf("run-%d", n), func(b *testing.B) {
			for b.Loop() {
				namesProduct(ua, name)
			}
		})
		b.Run(fmt.Sprintf("words-%d", n), func(b *testing.B) {
			for b.Loop() {
				namesProduct(spaced, name[:len(name)/4])
			}
		})
	}
}

// TestIdentifyNamesWithDigits: a name with digits names its crawler by the
// whole name ("MJ12bot", not "MJ"), and a line naming a platform or a
// version number browsers write ("x64", "Win32", "537") holds no person.
func TestIdentifyNamesWithDigits(t *testing.T) {
	c := botdetect.New(nil, nil)
	f := robots.Parse([]byte("User-agent: MJ12bot\nUser-agent: 360Spider\nDisallow: /mj\n\nUser-agent: x64\nUser-agent: Win32\nUser-agent: i686\nUser-agent: x86_64\nUser-agent: 537\nUser-agent: 131\nUser-agent: 605\nDisallow: /\n"))
	for _, tc := range []struct {
		ua, name string // name "" for a person
	}{
		{"Mozilla/5.0 (compatible; MJ12bot/v1.4.8; http://mj12bot.com/)", "MJ12bot"},
		{"Mozilla/5.0 (compatible; 360Spider)", "360Spider"},
		{"Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36", ""},
		{"Mozilla/5.0 (Windows; U; Win32; en-US) AppleWebKit/531.21.8 (KHTML, like Gecko) Version/4.0.4 Safari/531.21.10", ""},
		{"Mozilla/5.0 (X11; Linux i686; rv:109.0) Gecko/20100101 Firefox/115.0", ""},
		{"Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36", ""},
		{"Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15", ""},
	} {
		checkIdentify(t, c, f, tc.ua, tc.name)
	}
}

// TestIdentifyPlatformItem: a group named like an item of a person's
// platform comment holds no browser that writes it there (audit Z-F2);
// the name with a version, or a bot's header naming it, still counts.
func TestIdentifyPlatformItem(t *testing.T) {
	c := botdetect.New(nil, nil)
	f := robots.Parse([]byte("User-agent: Ubuntu\nUser-agent: Xbox\nUser-agent: PlayStation\nUser-agent: Tablet\nUser-agent: Fedora\nDisallow: /\n"))
	for _, tc := range []struct {
		ua, name string // name "" for a person
	}{
		{"Mozilla/5.0 (X11; Ubuntu; Linux x86_64; rv:121.0) Gecko/20100101 Firefox/121.0", ""},
		{"Mozilla/5.0 (X11; Fedora; Linux x86_64; rv:121.0) Gecko/20100101 Firefox/121.0", ""},
		{"Mozilla/5.0 (Windows NT 10.0; Win64; x64; Xbox; Xbox One) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36 Edge/44.18363.8131", ""},
		{"Mozilla/5.0 (PlayStation; PlayStation 5/2.26) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/13.0 Safari/605.1.15", ""},
		{"Mozilla/5.0 (Android 14; Tablet; rv:121.0) Gecko/121.0 Firefox/121.0", ""},
		// Named as a product: the file speaks to it.
		{"Ubuntu/1.0", "Ubuntu"},
		{"Mozilla/5.0 (X11; Linux x86_64) Chrome/120.0 Safari/537.36 Xbox", "Xbox"},
		{"Mozilla/5.0 (compatible; Tablet/2.1; +https://example.com/bot)", "Tablet"},
	} {
		checkIdentify(t, c, f, tc.ua, tc.name)
	}
}

// checkIdentify checks that ua is the bot the file calls name, or a person
// for name "".
func checkIdentify(t *testing.T, c *botdetect.Classifier, f *robots.File, ua, name string) {
	t.Helper()
	id := Identify(c, f, ua)
	if id.Name != name || id.Bot != (name != "") {
		t.Errorf("Identify(%q) = bot %v, name %q; want name %q", ua, id.Bot, id.Name, name)
	}
}

// TestDescribedNameClaimsNothing: a crawler's name a header only compares
// itself to ("like FeedFetcher-Google" in Feedly's comment) is no claim to
// be it: checked as one, Feedly failed Google's check and, with impostors
// block, was refused everywhere (audit AD-F7). Named as a product, in a
// comment too, it is a claim.
func TestDescribedNameClaimsNothing(t *testing.T) {
	c, base := botdetect.New(nil, nil), crawlers.Builtin()
	for _, tc := range []struct {
		name, file, ua string
		claim          string // the crawler claimed; "" for none
	}{
		{"a group of its own", "User-agent: Feedly\nAllow: /\n", "Feedly/1.0 (+http://www.feedly.com/fetcher.html; 20 subscribers; like FeedFetcher-Google)", ""},
		{"no group", "User-agent: *\nDisallow: /p/\n", "Feedly/1.0 (+http://www.feedly.com/fetcher.html; 20 subscribers; like FeedFetcher-Google)", ""},
		// Audit AE-F3: with a group of the described crawler's, too.
		{"the described crawler's group in the file", "User-agent: FeedFetcher-Google\nUser-agent: Googlebot\nDisallow: /\n\nUser-agent: Feedly\nAllow: /\n", "Feedly/1.0 (+http://www.feedly.com/fetcher.html; 20 subscribers; like FeedFetcher-Google)", ""},
		{"like Googlebot", "User-agent: Googlebot\nDisallow: /\n", "OtherBot/1.0 (like Googlebot)", ""},
		{"named as a product", "User-agent: *\nDisallow: /p/\n", "FeedFetcher-Google; (+http://www.google.com/feedfetcher.html)", "FeedFetcher-Google"},
		{"in a comment's item", "User-agent: Feedly\nAllow: /\n", "Feedly/1.0 (compatible; FeedFetcher-Google)", "FeedFetcher-Google"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := robots.Parse([]byte(tc.file))
			id := Identify(c, f, tc.ua)
			if !id.Bot {
				t.Fatalf("%q: not a bot", tc.ua)
			}
			cr, _ := ClaimOf(base, f, id, tc.ua)
			got := ""
			if cr != nil {
				got = cr.Name
			}
			if got != tc.claim {
				t.Errorf("%q (bot %q): claims %q, want %q", tc.ua, id.Name, got, tc.claim)
			}
		})
	}
}

// TestIdentifyLibraryNoOwnToken: a crawler goes by its own token where
// the file names it, however long a library's name beside it; a library
// the classifier knows is no crawler's own token, and gives way to the
// file's longest name (audits AF-F2, AG-F2: W3C's link checker was
// judged by a libwww-perl group in the handler, by its own in check).
func TestIdentifyLibraryNoOwnToken(t *testing.T) {
	f := robots.Parse([]byte("User-agent: libwww-perl\nUser-agent: LinkedInBot\nDisallow: /\n\n" +
		"User-agent: W3C-checklink\nUser-agent: Apache-HttpClient\nAllow: /\n"))
	c := botdetect.New(nil, nil)
	for _, tc := range []struct {
		ua, group string
	}{
		{"W3C-checklink/4.81 libwww-perl/6.72", "W3C-checklink"},
		{"LinkedInBot/1.0 (compatible; Mozilla/5.0; Apache-HttpClient +http://www.linkedin.com)", "libwww-perl"},
	} {
		id := Identify(c, f, tc.ua)
		if !id.Bot || id.Group == nil || id.Group.Agents[0] != tc.group {
			t.Errorf("%q: %+v, want a bot of group %s", tc.ua, id, tc.group)
		}
		if g, _ := UnprovenFor(nil, crawlers.Builtin()).Group(f, tc.ua); tc.group == "W3C-checklink" && g != id.Group {
			t.Errorf("%q: Identify's group %v, Choice's %v", tc.ua, id.Group.Agents, g.Agents)
		}
	}
}
