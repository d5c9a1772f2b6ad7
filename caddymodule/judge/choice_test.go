package judge

import (
	"testing"

	"github.com/robotsguard/caddy-robots-txt/caddymodule/crawlers"
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
		{"the header still comes first", ChoiceFor(applebot, true), "Applebot/0.1 msnbot/1.0", "msnbot", "msnbot"},
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
		also                 string // the Also group's first agent; "" for none
		allowed              bool
	}{
		{"its crawler's group refuses", "User-agent: GPTBot\nDisallow: /\n\nUser-agent: *\nDisallow: /p/\n", "GPTBot/1.1", "/a", "GPTBot", false},
		{"the * group refuses", "User-agent: GPTBot\nAllow: /\n\nUser-agent: *\nDisallow: /p/\n", "GPTBot/1.1", "/p/x", "GPTBot", false},
		{"both allow", "User-agent: GPTBot\nDisallow: /g/\n\nUser-agent: *\nDisallow: /p/\n", "GPTBot/1.1", "/a", "GPTBot", true},
		{"the product it names refuses", "User-agent: AcmeBot\nDisallow: /\n\nUser-agent: *\nDisallow: /p/\n", "AcmeBot/1.0 (compatible; GPTBot/1.1)", "/a", "AcmeBot", false},
		{"no group but *: held to it alone", "User-agent: *\nDisallow: /p/\n", "GPTBot/1.1", "/a", "", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := robots.Parse([]byte(tc.file))
			c := ImpostorOf(gptbot)
			also := c.Also(f, tc.ua)
			if got := ""; also != nil || tc.also != "" {
				if also != nil {
					got = also.Agents[0]
				}
				if got != tc.also {
					t.Fatalf("Also: %q, want %q", got, tc.also)
				}
			}
			v := NewVersion(f, "e1")
			r := &Request{UA: tc.ua, Choice: c, Paths: Paths{Primary: tc.path}}
			if got := v.allows(r); got != tc.allowed {
				t.Errorf("allows %s: %v, want %v", tc.path, got, tc.allowed)
			}
		})
	}
}
