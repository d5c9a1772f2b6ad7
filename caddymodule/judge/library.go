package judge

import (
	"strings"

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
		if i > 0 && !robots.OpensProduct(ua[i-1]) {
			continue
		}
		j := i
		for j < len(ua) && isTokenByte(ua[j]) {
			j++
		}
		if j > i && j < len(ua) && ua[j] == '/' && namesClient(ua, i, j) {
			return i
		}
		i = max(i, j-1)
	}
	return len(ua)
}

// namesClient reports whether the token ua[i:j], followed by a "/",
// may name a client: not one every browser sends, nor a library's, nor
// people's software or platform's ("Ubuntu/22.04", "OPR/106.0"), nor a
// URL's scheme ("http://") or host ("+example.com/bot", "www.example.com/")
// (audit AL-F1: those made a library after them the client's tool, and
// python-requests escaped its group).
func namesClient(ua string, i, j int) bool {
	tok := ua[i:j]
	if j+1 < len(ua) && ua[j+1] == '/' || i > 0 && ua[i-1] == '+' || hostLike(tok) {
		return false
	}
	return !robots.BrowserToken(tok) && !botdetect.ClientName(tok) && !botdetect.PeopleName(tok)
}

// hostLike reports whether tok reads as a host name: dotted, its last
// label letters only ("example.com", "www.bing.com").
func hostLike(tok string) bool {
	dot := strings.LastIndexByte(tok, '.')
	if dot <= 0 || len(tok)-dot-1 < 2 {
		return false
	}
	for _, c := range tok[dot+1:] {
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z') {
			return false
		}
	}
	return true
}

// isTokenByte reports whether c may be part of a product's token.
func isTokenByte(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-' || c == '_' || c == '.' || c == ':' || c == '!'
}
