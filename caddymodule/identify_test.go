package caddymodule

import (
	"testing"

	"github.com/robotsguard/caddy-robots-txt/config"
	"github.com/robotsguard/caddy-robots-txt/internal/testfixtures"
)

// TestFileNamesDoNotMakeBrowsersBots: a robots.txt whose group names a word
// browsers send must not refuse people.
func TestFileNamesDoNotMakeBrowsersBots(t *testing.T) {
	h, _ := newTestHandler(t, configWithInline("User-agent: Intel\nUser-agent: Mozilla\nUser-agent: U\nUser-agent: Google\nDisallow: /\n"))
	for _, ua := range []string{
		"Mozilla/5.0 (Macintosh; Intel Mac OS X 14_7_1) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15",
		"Mozilla/5.0 (X11; U; Linux i686; en-US; rv:1.9.0.5) Gecko/2008121621 Firefox/3.0.5",
		testfixtures.UAChrome,
		// Instagram's in-app browser on a Pixel: "Google/google" is the
		// phone's manufacturer and brand.
		"Mozilla/5.0 (Linux; Android 14; Pixel 8 Build/AP2A.240905.003; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/129.0.6668.100 Mobile Safari/537.36 Instagram 352.0.0.38.100 Android (34/14; 420dpi; 1080x2400; Google/google; Pixel 8; shiba; shiba; en_US; 650165467)",
	} {
		if _, err := serve(h, newRequest("GET", "/page", ua)); err != nil {
			t.Errorf("%q was refused: %v", ua, err)
		}
	}
	if _, err := serve(h, newRequest("GET", "/page", "Mozilla/5.0 (compatible; Intel/1.0)")); err == nil {
		t.Error("a client whose product is Intel/1.0 obeys the Intel group")
	}
}

// TestIgnoresStar: Google's special-case crawlers obey only groups that
// name them; where none does, they have no rules, and a request the *
// group disallows is no violation of theirs.
func TestIgnoresStar(t *testing.T) {
	const adsBot = "AdsBot-Google (+http://www.google.com/adsbot.html)"
	for _, tc := range []struct {
		name, robotsTxt, ua, path string
		refused                   bool
	}{
		{"no group names it", "User-agent: *\nDisallow: /private/\n", adsBot, "/private/x", false},
		{"its own group", "User-agent: *\nDisallow: /private/\n\nUser-agent: AdsBot-Google\nDisallow: /ads/\n", adsBot, "/ads/x", true},
		{"its own group, not the * group's rules", "User-agent: *\nDisallow: /private/\n\nUser-agent: AdsBot-Google\nDisallow: /ads/\n", adsBot, "/private/x", false},
		{"named in the * group", "User-agent: *\nUser-agent: AdsBot-Google\nDisallow: /private/\n", adsBot, "/private/x", true},
		{"a crawler that obeys *", "User-agent: *\nDisallow: /private/\n", testfixtures.UAGooglebot, "/private/x", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h, _ := newTestHandler(t, config.Config{Inline: tc.robotsTxt})
			_, err := serve(h, withIP(newRequest("GET", tc.path, tc.ua), "192.0.2.5"))
			if refused := err != nil; refused != tc.refused {
				t.Errorf("%s: refused %v, want %v", tc.path, refused, tc.refused)
			}
		})
	}
}

// TestFollows: a crawler obeys the groups its operator documents when
// the header names none of the file's: Applebot a Googlebot group,
// bingbot an msnbot group, YandexBot a Yandex group; its own group comes
// first, and a claim that fails verification is held to the * group.
func TestFollows(t *testing.T) {
	const (
		applebot = "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/13.1.1 Safari/605.1.15 (Applebot/0.1; +http://www.apple.com/go/applebot)"
		bingbot  = "Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)"
		yandex   = "Mozilla/5.0 (compatible; YandexBot/3.0; +http://yandex.com/bots)"
		others   = "User-agent: Googlebot\nDisallow: /g/\n\nUser-agent: msnbot\nDisallow: /m/\n\nUser-agent: Yandex\nDisallow: /y/\n\nUser-agent: *\nDisallow: /star/\n"
	)
	for _, tc := range []struct {
		name, robotsTxt, ua, path string
		impostors                 string
		refused                   bool
	}{
		{"Applebot: Googlebot's rules", others, applebot, "/g/x", "", true},
		{"Applebot: not the * group's", others, applebot, "/star/x", "", false},
		{"Applebot: its own group first", "User-agent: Applebot\nDisallow: /a/\n\n" + others, applebot, "/g/x", "", false},
		{"Applebot: its own group's rules", "User-agent: Applebot\nDisallow: /a/\n\n" + others, applebot, "/a/x", "", true},
		{"Applebot: * when no group it follows", "User-agent: *\nDisallow: /star/\n", applebot, "/star/x", "", true},
		{"bingbot: msnbot's rules", others, bingbot, "/m/x", "", true},
		{"YandexBot: Yandex's rules", others, yandex, "/y/x", "", true},
		// Its usual header names Yandex in its URL; this one does not.
		{"YandexBot without its URL: Yandex's rules", others, "YandexBot/3.0", "/y/x", "", true},
		{"YandexBot: not the * group's", others, yandex, "/star/x", "", false},
		{"a generic bot: the * group", others, testfixtures.UACurl, "/star/x", "", true},
		{"a generic bot: not Googlebot's", others, testfixtures.UACurl, "/g/x", "", false},
		{"an unverified Applebot is an impostor, held to *", others, applebot, "/star/x", config.ImpostorsJudge, true},
		// A claim nobody verified buys no group's permissions, and sheds
		// none of its restrictions: an impostor is held to the * group
		// and to the group its header chooses, whichever refuses.
		{"an impostor gets nothing from Googlebot's group", "User-agent: Googlebot\nAllow: /\n\nUser-agent: *\nDisallow: /star/\n", applebot, "/star/x", config.ImpostorsJudge, true},
		{"an impostor is still held to the group its claim follows", others, applebot, "/g/x", config.ImpostorsJudge, true},
		{"an impostor is held to its crawler's group", "User-agent: GPTBot\nDisallow: /\n\nUser-agent: *\nDisallow: /star/\n", "GPTBot/1.1", "/page", config.ImpostorsJudge, true},
		{"an impostor is held to the group of the product it names", "User-agent: AcmeBot\nDisallow: /\n\nUser-agent: *\nDisallow: /star/\n",
			"AcmeBot/1.0 (compatible; ClaudeBot/1.0)", "/page", config.ImpostorsJudge, true},
		{"an impostor: what both groups allow", "User-agent: AcmeBot\nDisallow: /a/\n\nUser-agent: *\nDisallow: /star/\n",
			"AcmeBot/1.0 (compatible; ClaudeBot/1.0)", "/page", config.ImpostorsJudge, false},
		// Google says Googlebot-Image obeys a googlebot group when none
		// names it; a token that merely extends a named one does not.
		{"Googlebot-Image: Googlebot's rules", others, "Googlebot-Image/1.0", "/g/x", "", true},
		{"Googlebot-Image: not the * group's", others, "Googlebot-Image/1.0", "/star/x", "", false},
		// GoogleOther-Image and -Video go by GoogleOther's token too.
		{"GoogleOther-Image: GoogleOther's rules", "User-agent: GoogleOther\nDisallow: /o/\n\nUser-agent: *\nDisallow: /star/\n", "GoogleOther-Image/1.0", "/o/x", "", true},
		{"GoogleOther-Video: not the * group's", "User-agent: GoogleOther\nDisallow: /o/\n\nUser-agent: *\nDisallow: /star/\n", "GoogleOther-Video/1.0", "/star/x", "", false},
		{"ChatGPT-User: not a ChatGPT group's", "User-agent: ChatGPT Agent\nDisallow: /\n\nUser-agent: *\nAllow: /\n",
			"Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; ChatGPT-User/1.0; +https://openai.com/bot", "/article", "", false},
		{"Foo-Bar: not Foo's rules", "User-agent: Foo\nDisallow: /f/\n\nUser-agent: *\nDisallow: /star/\n", "Foo-Bar/1.0", "/f/x", "", false},
		{"Foo-Bar: the * group's", "User-agent: Foo\nDisallow: /f/\n\nUser-agent: *\nDisallow: /star/\n", "Foo-Bar/1.0", "/star/x", "", true},
		// A name the classifier knows by a prefix is not that crawler's
		// token: Googlebot-Extra, Slackbot-LinkExpanding and DuckDuckBot-Https
		// obey their own group or *.
		{"Googlebot-Extra: not Googlebot's rules", others, "Googlebot-Extra/1.0", "/g/x", "", false},
		{"Googlebot-Extra: the * group's", others, "Googlebot-Extra/1.0", "/star/x", "", true},
		{"Slackbot-LinkExpanding: not Slackbot's rules", "User-agent: Slackbot\nDisallow: /s/\n\nUser-agent: *\nDisallow: /star/\n",
			"Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)", "/s/x", "", false},
		// A Yandex robot obeys its own group where the file has one,
		// not YandexBot's, whose family it claims.
		{"YandexImages: its own group", "User-agent: YandexImages\nDisallow: /img/\n\nUser-agent: YandexBot\nDisallow: /bot/\n\nUser-agent: *\nDisallow: /star/\n",
			"Mozilla/5.0 (compatible; YandexImages/3.0; +http://yandex.com/bots)", "/img/x", "", true},
		{"YandexImages: not YandexBot's", "User-agent: YandexImages\nDisallow: /img/\n\nUser-agent: YandexBot\nDisallow: /bot/\n\nUser-agent: *\nDisallow: /star/\n",
			"Mozilla/5.0 (compatible; YandexImages/3.0; +http://yandex.com/bots)", "/bot/x", "", false},
		// LinkedIn's header names the library it fetches with, a longer
		// token: the crawler's own group is its.
		{"LinkedInBot: its own group, not its library's", "User-agent: LinkedInBot\nAllow: /\n\nUser-agent: Apache-HttpClient\nDisallow: /\n",
			"LinkedInBot/1.0 (compatible; Mozilla/5.0; Apache-HttpClient +http://www.linkedin.com)", "/article", "", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h, _ := newTestHandler(t, config.Config{Inline: tc.robotsTxt, Impostors: tc.impostors})
			_, err := serve(h, withIP(newRequest("GET", tc.path, tc.ua), "192.0.2.5"))
			if refused := err != nil; refused != tc.refused {
				t.Errorf("%s: refused %v, want %v", tc.path, refused, tc.refused)
			}
		})
	}
}

// TestGoogleNewsSharesGooglebot: Google News crawls with Googlebot's
// header and obeys a Googlebot-News group; a request proven to come from
// Googlebot that the Googlebot-News group allows is passed and logged as
// allowed by that group, whatever Googlebot's and the * group say, while
// an impostor from another address gains nothing by it (audit AN-F1).
func TestGoogleNewsSharesGooglebot(t *testing.T) {
	const robotsTxt = "User-agent: *\nDisallow: /search\nDisallow: /*?*smid=\n\nUser-agent: Googlebot-News\nDisallow: /opinion/\n"
	h, _ := newTestHandler(t, config.Config{Inline: robotsTxt, Impostors: config.ImpostorsJudge,
		Crawlers: []config.Crawler{{Token: "Googlebot", Ranges: []string{"192.0.2.0/24"}}}})
	for _, tc := range []struct {
		ip, path string
		refused  bool
		group    string
	}{
		{"192.0.2.5", "/2024/story.html?smid=tw-share", false, "Googlebot-News"},
		{"192.0.2.5", "/search?q=x", false, "Googlebot-News"},
		{"192.0.2.5", "/opinion/x", false, "*"},
		{"198.51.100.7", "/search?q=x", true, "*"},
	} {
		r := withIP(newRequest("GET", tc.path, testfixtures.UAGooglebot), tc.ip)
		_, err := serve(h, r)
		if refused := err != nil; refused != tc.refused {
			t.Errorf("%s from %s: refused %v, want %v", tc.path, tc.ip, refused, tc.refused)
		}
		if j := judgmentOf(r); j.Group != tc.group {
			t.Errorf("%s from %s: group %q, want %q", tc.path, tc.ip, j.Group, tc.group)
		}
	}
}
