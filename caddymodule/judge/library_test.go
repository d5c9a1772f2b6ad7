package judge

import (
	"fmt"
	"strings"
	"testing"

	"github.com/robotsguard/caddy-robots-txt/caddymodule/crawlers"
	"github.com/robotsguard/caddy-robots-txt/robots"
)

// TestLibraryAfterOwn: a library's name chooses no group, nor holds the
// client, only after a product that names the client; a library after a
// runtime, another library or a browser's tokens is the client's own
// (audit AK-F1: aiohttp's own header escaped an aiohttp group).
func TestLibraryAfterOwn(t *testing.T) {
	f := robots.Parse([]byte("User-agent: *\nDisallow: /private/\n\n" +
		"User-agent: aiohttp\nUser-agent: libwww-perl\nUser-agent: python-requests\nUser-agent: Commons-HttpClient\nDisallow: /\n\n" +
		"User-agent: chklinks\nDisallow:\n"))
	base := crawlers.Builtin()
	for _, tc := range []struct {
		ua      string
		allowed bool // /page
	}{
		{"Python/3.11 aiohttp/3.9.1", false},
		{"LWP::Simple/6.00 libwww-perl/6.00", false},
		{"Mozilla/5.0 (X11; Linux x86_64) python-requests/2.31", false},
		{"python-requests/2.31.0", false},
		{"chklinks/3.09 libwww-perl/6.72", true},
		{"W3C-checklink/4.81 libwww-perl/6.72", true},
		{"Mozilla/5.0 (compatible; MyCrawler/1.0) python-requests/2.31", true},
		// Audit AL-F1: a URL, a platform or a browser's own token names
		// no client.
		{"Mozilla/5.0 (+http://example.com) python-requests/2.31", false},
		{"Mozilla/5.0 (compatible; +https://example.com/about) python-requests/2.31", false},
		{"Mozilla/5.0 (X11; Ubuntu; Linux x86_64) Ubuntu/22.04 python-requests/2.31", false},
		{"Mozilla/5.0 (Windows NT 10.0) Chrome/120.0 Safari/537.36 OPR/106.0 python-requests/2.31", false},
		{"Mozilla/5.0 (compatible; MyCrawler/1.0; +http://www.example.com/bot.html) python-requests/2.31", true},
		{"Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36 MyCrawler/1.0 aiohttp/3.9", true},
		// Audit AP-F1: a library's own default header of two words
		// ("Jakarta Commons-HttpClient/3.1") is the library's; a
		// versionless first word names no other client.
		{"Jakarta Commons-HttpClient/3.1", false},
	} {
		r := &Request{UA: tc.ua, Choice: UnprovenFor(nil, base), Paths: Paths{Primary: "/page"}}
		if got := NewVersion(f, "e1").allows(r); got != tc.allowed {
			g, name := r.Choice.Group(f, tc.ua)
			t.Errorf("%q on /page: allowed %v, want %v (group %v by %q, held to %v)", tc.ua, got, tc.allowed, g.Agents, name, firstAgents(r.Choice.Held(f, tc.ua)))
		}
	}
}

func TestOwnProductAt(t *testing.T) {
	for _, tc := range []struct {
		ua   string
		want int
	}{
		{"chklinks/3.09 libwww-perl/6.72", 0},
		{"Python/3.11 aiohttp/3.9.1", len("Python/3.11 aiohttp/3.9.1")},
		{"Mozilla/5.0 (compatible; MyCrawler/1.0)", len("Mozilla/5.0 (compatible; ")},
		{"Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36", len("Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36")},
	} {
		if got := ownProductAt(tc.ua); got != tc.want {
			t.Errorf("ownProductAt(%q) = %d, want %d", tc.ua, got, tc.want)
		}
	}
}

// BenchmarkOwnProductAtHostile: the scan for a client's own product is
// linear in the header, however many items say "compatible;" or runs of
// white space it holds.
func BenchmarkOwnProductAtHostile(b *testing.B) {
	for _, n := range []int{200, 20000} {
		for name, unit := range map[string]string{
			"compatible": "(compatible; Mozilla) ",
			"spaces":     "Ubuntu" + strings.Repeat(" ", 30),
		} {
			ua := strings.Repeat(unit, n/len(unit))
			b.Run(fmt.Sprintf("%s-%d", name, n), func(b *testing.B) {
				for b.Loop() {
					ownProductAt(ua)
				}
			})
		}
	}
}
