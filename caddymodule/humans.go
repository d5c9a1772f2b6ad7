package caddymodule

import (
	"slices"
	"strings"

	"go.uber.org/zap"

	"github.com/robotsguard/caddy-robots-txt/caddymodule/crawlers"
	"github.com/robotsguard/caddy-robots-txt/robots"
)

// sampleHeader is a client's header, as its maker documents it.
type sampleHeader struct{ name, ua string }

// matching names the samples whose header contains entry, ignoring case.
func matching(entry string, samples []sampleHeader) []string {
	var hit []string
	for _, b := range samples {
		if strings.Contains(strings.ToLower(b.ua), strings.ToLower(entry)) {
			hit = append(hit, b.name)
		}
	}
	return hit
}

// wellKnownBots are the headers of widely seen crawlers and clients, as
// their operators document them. A humans entry that matches one exempts
// that bot from robots.txt, which is seldom what "humans" was written for
// ("humans /", "humans Mozilla"), so Provision says so.
var wellKnownBots = []sampleHeader{
	{"Googlebot", "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"},
	{"Googlebot (smartphone)", "Mozilla/5.0 (Linux; Android 6.0.1; Nexus 5X Build/MMB29P) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.6778.69 Mobile Safari/537.36 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"},
	{"bingbot", "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm) Chrome/131.0.0.0 Safari/537.36"},
	{"GPTBot", "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.1; +https://openai.com/gptbot)"},
	{"ClaudeBot", "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; ClaudeBot/1.0; +claudebot@anthropic.com)"},
	{"CCBot", "CCBot/2.0 (https://commoncrawl.org/faq/)"},
	{"Applebot", "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/13.1.1 Safari/605.1.15 (Applebot/0.1; +http://www.apple.com/go/applebot)"},
	{"AhrefsBot", "Mozilla/5.0 (compatible; AhrefsBot/7.0; +http://ahrefs.com/robot/)"},
	{"curl", "curl/8.5.0"},
	{"python-requests", "python-requests/2.31.0"},
	{"Go-http-client", "Go-http-client/1.1"},
	{"Wget", "Wget/1.21.4"},
	// Headless browsers, site copiers, crawler frameworks and HTTP
	// libraries the classifier holds to robots.txt (audit AO-F10: a
	// humans entry exempting them drew no warning).
	{"HeadlessChrome", "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/131.0.0.0 Safari/537.36"},
	{"PhantomJS", "Mozilla/5.0 (Unknown; Linux x86_64) AppleWebKit/538.1 (KHTML, like Gecko) PhantomJS/2.1.1 Safari/538.1"},
	{"Scrapy", "Scrapy/2.11.2 (+https://scrapy.org)"},
	{"HTTrack", "Mozilla/4.5 (compatible; HTTrack 3.0x; Windows 98)"},
	{"Nutch", "Apache Nutch/1.20"},
	{"okhttp", "okhttp/4.12.0"},
	{"Java", "Java/17.0.9"},
	{"Apache-HttpClient", "Apache-HttpClient/4.5.14 (Java/17.0.9)"},
	{"libwww-perl", "libwww-perl/6.72"},
	{"aiohttp", "Python/3.11 aiohttp/3.9.1"},
	{"Python-urllib", "Python-urllib/3.11"},
	{"axios", "axios/1.6.2"},
	{"node-fetch", "node-fetch/1.0 (+https://github.com/bitinn/node-fetch)"},
}

// wellKnownBrowsers are people's browsers' headers. A bots entry that
// matches one holds everyone using that browser to robots.txt.
var wellKnownBrowsers = []sampleHeader{
	{"Chrome", "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36"},
	{"Chrome (Android)", "Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36"},
	{"Firefox", "Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0"},
	{"Safari", "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15"},
	{"Safari (iPhone)", "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1"},
	{"Edge", "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0"},
}

// warnBroadHumans logs, for each humans entry that matches the header of a
// well-known bot or names a crawler of the knowledge base, which bots it
// exempts; and for each bots entry that matches a browser's header, which
// browsers it holds to robots.txt. Either turns the rules on or off for
// clients the operator did not mean, and must not go unnoticed.
func (h *Handler) warnBroadHumans() {
	for _, m := range h.Humans {
		lm := strings.ToLower(m)
		hit := matching(m, wellKnownBots)
		// A crawler's header carries its token, so an entry inside a
		// token exempts it ("humans PerplexityBot").
		if h.checker != nil {
			for _, cr := range h.checker.base.All() {
				for _, tok := range cr.Tokens {
					if cr.Category == crawlers.Monitor && strings.EqualFold(tok, m) {
						// "humans UptimeRobot": the documented use,
						// a monitor the operator trusts, named exactly.
						break
					}
					if strings.Contains(strings.ToLower(tok), lm) && !slices.Contains(hit, cr.Name) {
						hit = append(hit, cr.Name)
						break
					}
				}
			}
		}
		if len(hit) > 0 {
			h.configLog().Warn("a humans entry matches the headers of well-known bots; they are never held to robots.txt",
				zap.String("humans", m), zap.Int("bots", len(hit)), zap.Strings("examples", hit[:min(len(hit), 12)]))
		}
	}
	if h.Trap != "" {
		// The trap is for crawlers that send a browser's header: a
		// humans entry in every such header exempts them all.
		for _, m := range h.Humans {
			if hit := matching(m, wellKnownBrowsers); len(hit) > 0 {
				h.configLog().Warn("a humans entry matches the headers of people's browsers; the trap never springs on a client that sends one, crawlers that hide behind a browser's header included",
					zap.String("humans", m), zap.String("trap", h.Trap), zap.Strings("browsers", hit))
			}
		}
	}
	for _, m := range h.Bots {
		if hit := matching(m, wellKnownBrowsers); len(hit) > 0 {
			h.configLog().Warn("a bots entry matches the headers of people's browsers; everyone using them is held to robots.txt",
				zap.String("bots", m), zap.Strings("browsers", hit))
		}
	}
}

// warnHumansNamingGroups warns when a humans entry matches an agent that
// robots.txt names: a client that names itself so is a person's, and the
// group is never enforced on it.
func (h *Handler) warnHumansNamingGroups(f *robots.File) {
	for _, m := range h.Humans {
		lm := strings.ToLower(m)
		var named []string
		for _, a := range f.Agents() {
			if strings.Contains(strings.ToLower(a), lm) {
				named = append(named, a)
			}
		}
		if len(named) > 0 {
			h.configLog().Warn("a humans entry matches agents robots.txt names; a client naming them counts as a person and is never held to their groups",
				zap.String("humans", m), zap.Strings("agents", named[:min(len(named), 12)]))
		}
	}
}
