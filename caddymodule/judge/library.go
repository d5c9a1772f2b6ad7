package judge

import (
	"github.com/robotsguard/caddy-robots-txt/caddymodule/botdetect"
	"github.com/robotsguard/caddy-robots-txt/robots"
)

// libraryAfterOwn returns the test of a name the header ua gives at a
// place (robots.File.GroupForUserAgentSkipping, GroupsNamedIn): whether it
// is a library's (botdetect.ClientName) that the header names after the
// product that names its client, which is how that client fetches, not
// who it is ("chklinks/3.09 libwww-perl/6.72"). A library's name where a
// client puts its own (lead), or with no product naming a client before
// it ("Python/3.11 aiohttp/3.9.1", "LWP::Simple/6.00 libwww-perl/6.00",
// "Mozilla/5.0 (…) python-requests/2.31"), is the client's own (audit
// AK-F1). The header is scanned once, when a library's name is first
// asked about.
func libraryAfterOwn(ua string) func(name string, at int, lead bool) bool {
	own := -1
	return func(name string, at int, lead bool) bool {
		if lead || !botdetect.ClientName(name) {
			return false
		}
		if own < 0 {
			own = ownProductAt(ua)
		}
		return at > own
	}
}

// ownProductAt returns where the first product of ua that names its client
// starts ("chklinks" of "chklinks/3.09 libwww-perl/6.72", "MyCrawler" of
// "Mozilla/5.0 (compatible; MyCrawler/1.0)"): a token followed by a
// version's "/", that is neither one every browser sends
// (robots.BrowserToken) nor a library's; len(ua) when there is none. Its
// work is linear in the length of ua.
func ownProductAt(ua string) int {
	for i := 0; i < len(ua); i++ {
		if i > 0 && !opensToken(ua[i-1]) {
			continue
		}
		j := i
		for j < len(ua) && isTokenByte(ua[j]) {
			j++
		}
		if j > i && j < len(ua) && ua[j] == '/' && !robots.BrowserToken(ua[i:j]) && !botdetect.ClientName(ua[i:j]) {
			return i
		}
		i = max(i, j-1)
	}
	return len(ua)
}

// opensToken reports whether a product's token may start after c.
func opensToken(c byte) bool {
	switch c {
	case ' ', '\t', '(', ')', ';', ',', '[', '+':
		return true
	}
	return false
}

// isTokenByte reports whether c may be part of a product's token.
func isTokenByte(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-' || c == '_' || c == '.' || c == ':' || c == '!'
}
