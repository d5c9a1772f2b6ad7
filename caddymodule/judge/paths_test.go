package judge

import (
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/robotsguard/caddy-robots-txt/robots"
)

func TestPathsOf(t *testing.T) {
	// The spellings: primary (decoded, resolved), alt (escaped, resolved),
	// sent (escaped, unresolved), decoded (decoded, unresolved), file,
	// network (the path of a network-path reference), params (path
	// parameters dropped from all but the last segment), backslash
	// (backslashes read as slashes, as Windows servers read them).
	type sp = [8]string
	for _, tc := range []struct {
		uri  string
		want sp
	}{
		{"/private/x", sp{"/private/x"}},
		{"/%70rivate/x", sp{"/private/x"}},
		// A URL parser reads "//private/x" as the host private and the
		// path /x (Node's new URL(req.url, base), Python's urlsplit).
		{"//private/x", sp{"/private/x", "", "//private/x", "", "", "/x"}},
		{"//evil.example/private/x?y=1", sp{"/evil.example/private/x?y=1", "", "//evil.example/private/x?y=1", "", "", "/private/x?y=1"}},
		{"///evil.example/private/", sp{"/evil.example/private/", "", "///evil.example/private/", "", "", "/private/"}},
		{"//evil.example", sp{"/evil.example", "", "//evil.example", "", "", "/"}},
		{"//evil.example/a/../private/", sp{"/evil.example/private/", "", "//evil.example/a/../private/", "", "", "/private/"}},
		{"//%70rivate/x", sp{"/private/x", "", "//%70rivate/x", "", "", "/x"}},
		// Tomcat and Jetty drop path parameters before they resolve
		// dot-segments.
		{"/public/..;/private/x", sp{"/public/..;/private/x", "", "/public/..;/private/x", "", "", "", "/private/x"}},
		{"/private;x/y", sp{"/private;x/y", "", "/private;x/y", "", "", "", "/private/y"}},
		{"/a;b=1/c;d=2/e?q=1", sp{"/a;b=1/c;d=2/e?q=1", "", "/a;b=1/c;d=2/e?q=1", "", "", "", "/a/c/e?q=1"}},
		{"/private%3Bx/y", sp{"/private;x/y", "/private%3Bx/y"}}, // an escaped ";" is no parameter
		// The last segment's parameters are the link's own.
		{"/doc.pdf;jsessionid=1", sp{"/doc.pdf;jsessionid=1"}},
		{"/a;b", sp{"/a;b"}},
		// Not at the start: no authority.
		{"/a//private/x", sp{"/a/private/x", "", "/a//private/x"}},
		{"/./private/x", sp{"/private/x", "", "/./private/x"}},
		{"/public/../private/x", sp{"/private/x", "", "/public/../private/x"}},
		{"/public/%2E%2E/private/x", sp{"/private/x", "", "/public/%2E%2E/private/x", "/public/../private/x"}},
		// "%2E%2E" is a dot-segment to a parser that keeps "%2F" (WHATWG,
		// GURL): that reading is "/secret".
		{"/public%2Fx/%2E%2E/secret", sp{"/public/secret", "/secret", "/public%2Fx/%2E%2E/secret", "/public/x/../secret"}},
		// As sent, a backend that does not resolve dot-segments routes
		// it to /private/.
		{"/private/../public/", sp{"/public/", "", "/private/../public/"}},
		// Escaped slashes around the dot-segment: routers that read the
		// decoded path without resolving it see "/private/../public/".
		{"/private%2F..%2Fpublic/", sp{"/public/", "/private%2F..%2Fpublic/", "/private%2F..%2Fpublic/", "/private/../public/"}},
		{"/private%2F../public/", sp{"/public/", "/private%2F../public/", "/private%2F../public/", "/private/../public/"}},
		// Google reads the escapes as sent: "Disallow:
		// /wiki/Wikipedia%3AAfD" covers this.
		{"/wiki/Wikipedia%3AAfD/..", sp{"/wiki/", "", "/wiki/Wikipedia%3AAfD/..", "/wiki/Wikipedia:AfD/..", "/wiki"}},
		// Decoding "%2F%2F" makes a "//" the client never sent: no
		// unresolved decoded spelling for it.
		{"/share/https%3A%2F%2Fexample.org%2F", sp{"/share/https:/example.org/", "/share/https%3A%2F%2Fexample.org%2F", "/share/https%3A%2F%2Fexample.org%2F"}},
		{"/private%2Fx", sp{"/private/x", "/private%2Fx"}},
		{"/a%3Fb?c=d", sp{"/a%3Fb?c=d"}},
		{"/caf%C3%A9", sp{"/caf%C3%A9"}},
		{"/dir/", sp{"/dir/"}},
		// A final dot-segment leaves a directory (RFC 3986 §5.2.4), and
		// a file server opens the file before it.
		{"/private/.", sp{"/private/", "", "/private/.", "", "/private"}},
		{"/private/x/..", sp{"/private/", "", "/private/x/..", "", "/private"}},
		{"/private/x/%2E%2E", sp{"/private/", "", "/private/x/%2E%2E", "/private/x/..", "/private"}},
		{"/docs/a.pdf/.?x=1", sp{"/docs/a.pdf/?x=1", "", "/docs/a.pdf/.?x=1", "", "/docs/a.pdf?x=1"}},
		{"/private/..", sp{"/", "", "/private/.."}},
		{"/private/.x", sp{"/private/.x"}},
		{"/private/..x/", sp{"/private/..x/"}},
		{"/a b", sp{"/a%20b"}},
		{"/a b/../c", sp{"/c", "", "/a%20b/../c"}},
		{"/100%25", sp{"/100%25"}},
		{"/x?q=%2F", sp{"/x?q=%2F"}},
		{"/x?q=/../y", sp{"/x?q=/../y"}},
		{"/secret?", sp{"/secret?"}},
		{"/secret", sp{"/secret"}},
		// Windows servers read a backslash, raw or escaped, as a slash.
		{"/private\\x", sp{"/private\\x", "/private%5Cx", "/private\\x", "", "", "", "", "/private/x"}},
		{"/private%5Cx?q=1", sp{"/private\\x?q=1", "", "/private\\x?q=1", "", "", "", "", "/private/x?q=1"}},
		// Audit AM-F1: an escape of a reserved character Go escapes
		// too leaves RawPath empty; the path as sent is EscapedPath.
		{"/a%28b%29", sp{"/a(b)", "/a%28b%29"}},
		{"/it%27s/../x", sp{"/x", "", "/it%27s/../x", "/it's/../x"}},
		{"/a(b)", sp{"/a(b)"}},
		{"/x%5B0%5D?q", sp{"/x[0]?q", "/x%5B0%5D?q"}},
		{"/public\\..\\private\\", sp{"/public\\..\\private\\", "/public%5C..%5Cprivate%5C", "/public\\..\\private\\", "", "", "", "", "/private/"}},
	} {
		u, err := url.ParseRequestURI(tc.uri)
		if err != nil {
			t.Fatalf("%s: %v", tc.uri, err)
		}
		if got := PathsOf(u).Spellings(); got != tc.want {
			t.Errorf("%s: got %q, want %q", tc.uri, got, tc.want)
		}
	}
	// Targets that are no path are the site's root: "GET *" and
	// "CONNECT host:port" reach the backend as any other request does.
	for _, u := range []*url.URL{{Path: "*"}, {Host: "a.test:80"}, {Opaque: "x"}} {
		if got := PathsOf(u); got.Primary != "/" {
			t.Errorf("%#v: judged as %q, want /", u, got.Primary)
		}
	}
}

func TestPathsOfTarget(t *testing.T) {
	for _, tc := range []struct {
		target string
		want   [8]string
	}{
		{"https://example.com/%70rivate/x?y=1#frag", [8]string{"/private/x?y=1"}},
		{"/a/../b", [8]string{"/b", "", "/a/../b"}},
		{"example.com", [8]string{"/"}},
		// A path as a request line carries it, not a URL of host "private".
		{"//private/", [8]string{"/private/", "", "//private/", "", "", "/"}},
		{"//robots.txt", [8]string{"/robots.txt", "", "//robots.txt", "", "", "/"}},
	} {
		if got := PathsOfTarget(tc.target).Spellings(); got != tc.want {
			t.Errorf("%s: got %q, want %q", tc.target, got, tc.want)
		}
	}
}

// TestPathsOfRaw: a target that holds raw a byte a URL carries escaped
// keeps a spelling with it raw, which a disallow pattern holding it raw
// matches, as Google's reading does; the same target sent escaped has
// none, and passes that pattern as it passes Google's.
func TestPathsOfRaw(t *testing.T) {
	g := robots.Parse([]byte("User-agent: *\nDisallow: /a|b\nDisallow: /*?q=x|y\nDisallow: /sch/*%7C\n")).GroupFor("*")
	for _, tc := range []struct {
		target, raw string
		allowed     bool
		by          string // the spelling that refused
	}{
		{"/a|b", "/a|b", false, "/a|b"},
		{"/a|b?z=1", "/a|b?z=1", false, "/a|b?z=1"},
		{"/x/../a|b", "/a|b", false, "/a|b"},
		{"/a%7Cb", "", true, ""},
		{"/a%7cb", "", true, ""},
		{"/s?q=x|y", "/s?q=x|y", false, "/s?q=x|y"},
		{"/s?q=x%7Cy", "", true, ""},
		{"/sch/a|b", "/sch/a|b", false, "/sch/a|b"},
		{"/plain/x", "", true, ""},
	} {
		u, err := url.ParseRequestURI(tc.target)
		if err != nil {
			t.Fatal(err)
		}
		p := PathsOf(u)
		if p.Raw != tc.raw {
			t.Errorf("%s: raw spelling %q, want %q", tc.target, p.Raw, tc.raw)
		}
		v, by, _ := p.DecideCapped(g)
		if v.Allowed != tc.allowed || !v.Allowed && by != tc.by {
			t.Errorf("%s: allowed %v by %q, want %v by %q", tc.target, v.Allowed, by, tc.allowed, tc.by)
		}
		if p.Decide(g).Allowed != tc.allowed {
			t.Errorf("%s: Decide disagrees with DecideCapped", tc.target)
		}
	}
}

// TestPathsOfEscapesAsSent: a target that escapes an unreserved
// character keeps its spelling as sent, which a disallow pattern's lone
// "%" matches, as in Google's reading; a group without such a pattern
// judges it canonically, so that "/%7Ejoe/" is "/~joe/" to it.
func TestPathsOfEscapesAsSent(t *testing.T) {
	lone := robots.Parse([]byte("User-agent: *\nDisallow: /*%\n")).GroupFor("*")
	plain := robots.Parse([]byte("User-agent: *\nDisallow: /\nAllow: /~joe/\n")).GroupFor("*")
	for _, tc := range []struct {
		target, raw string // raw: the spelling as sent, which refuses
		g           *robots.Group
		allowed     bool
	}{
		{"/%7Ejoe/", "/%7Ejoe/", lone, false},
		{"/x/../%7Ejoe/", "/%7Ejoe/", lone, false},
		{"/a?q=%41", "/a?q=%41", lone, false},
		{"/~joe/", "", lone, true},
		{"/%7Ejoe/", "/%7Ejoe/", plain, true},
		{"/~joe/", "", plain, true},
	} {
		u, err := url.ParseRequestURI(tc.target)
		if err != nil {
			t.Fatal(err)
		}
		p := PathsOf(u)
		if v := p.Decide(tc.g); v.Allowed != tc.allowed {
			t.Errorf("%s: allowed %v, want %v", tc.target, v.Allowed, tc.allowed)
		}
		if v, by, _ := p.DecideCapped(tc.g); !v.Allowed && by != tc.raw {
			t.Errorf("%s: refused by the spelling %q, want %q", tc.target, by, tc.raw)
		}
	}
}

// FuzzPathsOf: a request target is the client's to write. Whatever it is,
// the spellings are paths, at most three times the target's length (an
// escape per byte), and a request is refused when any of them is.
func FuzzPathsOf(f *testing.F) {
	for _, s := range []string{
		"/private/x", "//private/x", "/public/../private/x", "/private%2F..%2Fpublic/", "/public%2Fx/%2E%2E/secret",
		"/docs/a.pdf/.?x=1", "/a b/../c", "/%ff%00/..", "/wiki/Wikipedia%3AAfD/..", "/x?q=/../y", "*", "/robots.txt/.", "//evil.example/private/x", "/public/..;/private/x",
		"/a|b", "/x/../a|b", "/s?q=x|y", "/a%7Cb",
	} {
		f.Add(s)
	}
	g := robots.Parse([]byte("User-agent: *\nDisallow: /private/\nDisallow: /*.pdf$\nAllow: /private/ok\nDisallow: /*//\nDisallow: /a|b\nDisallow: /*?q=x|y\n")).GroupFor("*")
	f.Fuzz(func(t *testing.T, target string) {
		u, err := url.ParseRequestURI(target)
		if err != nil {
			return
		}
		p := PathsOf(u)
		if !strings.HasPrefix(p.Primary, "/") {
			t.Fatalf("%q: primary spelling %q is no path", target, p.Primary)
		}
		disallowed := false
		for _, s := range p.Spellings() {
			if len(s) > 3*len(target)+2 {
				t.Fatalf("%q: spelling %q is longer than three times the target", target, s)
			}
			if s != "" && !g.Decide(s).Allowed {
				disallowed = true
			}
		}
		if len(p.Raw) > len(target)+2 {
			t.Fatalf("%q: raw spelling %q is longer than the target", target, p.Raw)
		}
		if p.Raw != "" && !g.DecideSent(p.Raw).Allowed {
			disallowed = true
		}
		v, by, _ := p.DecideCapped(g)
		if v.Allowed == disallowed {
			t.Fatalf("%q: decided allowed=%v, but a spelling disallowed=%v", target, v.Allowed, disallowed)
		}
		all := p.Spellings()
		if !slices.Contains(all[:], by) && by != p.Raw && (p.unresolved == nil || by != p.unresolved.rawParams()) {
			t.Fatalf("%q: decided by %q, which is none of its spellings", target, by)
		}
		if p.Decide(g).Allowed != v.Allowed {
			t.Fatalf("%q: Decide and DecideCapped disagree", target)
		}
	})
}

// An Allow rule written with a reserved character's escape allows the
// path sent with it, as Google's reading of the URL as sent does, though
// the decoded spelling is disallowed; never where decoding moves a
// segment boundary or resolves a dot-segment.
func TestEscapedAllow(t *testing.T) {
	f := robots.Parse([]byte("User-agent: *\nDisallow: /wiki/\nAllow: /wiki/Special%3ARandom\nAllow: /wiki/a%2Fb\nAllow: /wiki/Talk%3A\nAllow: /wiki/plain\n"))
	g := f.GroupFor("*")
	for _, tc := range []struct {
		target  string
		allowed bool
	}{
		{"/wiki/Special%3ARandom", true},
		{"/wiki/Special%3aRandom", true},
		{"/wiki/Talk%3AX", true},
		{"/wiki/Talk%3AX?a=1", true},
		{"/wiki/Special:Random", false},
		{"/wiki/Other%3AX", false},
		{"/wiki/plain%3AX", true}, // the decoded spelling is allowed too
		// Decoding makes another path: the rule named only the escape.
		{"/wiki/a%2Fb", false},
		{"/wiki/Talk%3A%2F..%2F..%2Fprivate", false},
		{"/wiki/Talk%3A/../x", false},
		{"/wiki/Talk%3A%5Cx", false},
	} {
		v, _, _ := PathsOfTarget(tc.target).DecideCapped(g)
		if v.Allowed != tc.allowed {
			t.Errorf("%s: allowed %v (rule %v), want %v", tc.target, v.Allowed, v.Rule, tc.allowed)
		}
		if d := PathsOfTarget(tc.target).Decide(g); d.Allowed != tc.allowed {
			t.Errorf("%s: Decide allowed %v, want %v", tc.target, d.Allowed, tc.allowed)
		}
	}
}

// TestEscapedReserved: a rule that spells the escape of a reserved
// character Go escapes too ("%27", "%28", "%5B") is matched against the
// path as sent, which Go keeps in no RawPath (audit AM-F1: such a
// Disallow refused nothing, not even the spelling it names; AM-F2: such
// an Allow under a Disallow allowed nothing).
func TestEscapedReserved(t *testing.T) {
	f := robots.Parse([]byte("User-agent: *\n" +
		"Disallow: /wiki/Python_%28programming_language%29\n" +
		"Disallow: /files/report%20%281%29.pdf\n" +
		"Disallow: /*%21\n" +
		"Disallow: /star%2A/\n\n" +
		"User-agent: lone\nDisallow: /*%\n\n" +
		"User-agent: lonely\nDisallow: /*%\nAllow: /wiki/It%27s\n\n" +
		"User-agent: Googlebot\nDisallow: /wiki/\nAllow: /wiki/Administrators%27_noticeboard\n"))
	for _, tc := range []struct {
		agent, target string
		allowed       bool
	}{
		{"*", "/wiki/Python_%28programming_language%29", false},
		{"*", "/wiki/Python_%28programming_language%29/", false},
		{"*", "/files/report%20%281%29.pdf", false},
		{"*", "/wow%21/", false},
		{"*", "/star%2A/x", false},
		{"*", "/star%2a/x", false},
		// The decoded spelling is another one to Google: as before.
		{"*", "/wiki/Python_(programming_language)", true},
		{"lone", "/x%5B0%5D", false},
		{"lone", "/wiki/a%3Ab", false},
		{"lone", "/x[0]", true},
		{"Googlebot", "/wiki/Administrators%27_noticeboard", true},
		{"Googlebot", "/wiki/Administrators'_noticeboard", false},
		{"Googlebot", "/wiki/Other%27s", false},
		// Audit AP-F6: a query's unreserved escape, read as sent by the
		// lone "%", leaves the path as sent too.
		{"lonely", "/wiki/It%27s?x=%7E", true},
		{"lonely", "/wiki/Other?x=%7E", false},
	} {
		g := f.GroupFor(tc.agent)
		if v, _, _ := PathsOfTarget(tc.target).DecideCapped(g); v.Allowed != tc.allowed {
			t.Errorf("%s on %s: allowed %v (rule %v), want %v", tc.agent, tc.target, v.Allowed, v.Rule, tc.allowed)
		}
		if d := PathsOfTarget(tc.target).Decide(g); d.Allowed != tc.allowed {
			t.Errorf("%s on %s: Decide allowed %v, want %v", tc.agent, tc.target, d.Allowed, tc.allowed)
		}
	}
}

// TestRawByteRuleUnresolved: a rule that writes a byte raw ("Disallow:
// /a|b/") refuses the spellings of it that a backend routing without
// resolving dot-segments or dropping path parameters reads as its
// section, as a rule written escaped does (audit AM-F3).
func TestRawByteRuleUnresolved(t *testing.T) {
	f := robots.Parse([]byte("User-agent: *\nDisallow: /a|b/\nDisallow: /c%7Cd/\n"))
	g := f.GroupFor("*")
	for _, tc := range []struct {
		target  string
		allowed bool
	}{
		{"/a|b/x", false},
		{"/a|b/../public/", false},
		{"/a|b;x/y", false},
		{"/a|b/../public/?q=1", false},
		{"/c|d/../public/", false},
		{"/c%7Cd/../public/", false},
		{"/public/", true},
		{"/x/../public/", true},
		{"/a%7Cb/x", true}, // Google: the raw rule names the raw spelling only
	} {
		p := PathsOfTarget(tc.target)
		if v, by, _ := p.DecideCapped(g); v.Allowed != tc.allowed {
			t.Errorf("%s: allowed %v (rule %v, by %q), want %v", tc.target, v.Allowed, v.Rule, by, tc.allowed)
		}
		if d := p.Decide(g); d.Allowed != tc.allowed {
			t.Errorf("%s: Decide allowed %v, want %v", tc.target, d.Allowed, tc.allowed)
		}
	}
}
