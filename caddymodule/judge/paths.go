package judge

import (
	"net/url"
	"path"
	"strings"

	"github.com/robotsguard/caddy-robots-txt/robots"
)

// Paths are the spellings of one request's path (with query) that
// robots.txt is matched against; see PathsOf.
type Paths struct {
	// Primary is built from the decoded path, the one a file server
	// serves.
	Primary string
	// Alt is the path as the client escaped it, when decoding changes
	// its meaning ("/a%2Fb"); "" otherwise.
	Alt string
	// Raw is the decoded path with its dot-segments and repeated slashes
	// unresolved, when it has any; "" otherwise. reverse_proxy passes
	// the path on as sent, and a backend that routes on the decoded path
	// without resolving them (Flask sends "/private/../public/", or
	// "/private%2F..%2Fpublic/", to its /private/ handler) serves what
	// Google's matcher reads in it.
	Raw string
	// File is Primary without the trailing slash that a final
	// dot-segment leaves, when the path ends in one; "" otherwise.
	// "/docs/a.pdf/." is the directory "/docs/a.pdf/" to RFC 3986, but
	// Caddy's file server opens the file "/docs/a.pdf" for it.
	File string
}

// PathsOf returns the spellings of a request URL that robots.txt is
// matched against. Dot-segments and repeated slashes are resolved and
// percent-encoding is made canonical, so "/%70rivate", "//private",
// "/./private" and "/public/../private" are all "/private".
//
// The primary spelling is built from the decoded path, which is what a
// file server serves (Caddy's turns "/a%2Fb" into the file "/a/b"). When
// the request spelled its path with escapes that decoding changes, Alt is
// that spelling too, cleaned the same way; a request is disallowed if
// either spelling is, so neither reading can be used to slip past.
func PathsOf(u *url.URL) Paths { return PathsOfServed(ServedPath(u.Path), u) }

// PathsOfServed is PathsOf for a caller that has ServedPath(u.Path)
// already, as the handler has for every request.
func PathsOfServed(served string, u *url.URL) Paths {
	query := ""
	if u.RawQuery != "" || u.ForceQuery {
		// "/secret?" is not "/secret": Google matches the "?" too, so
		// "Disallow: /secret$" does not match it and "Disallow: /*?"
		// does.
		query = "?" + u.RawQuery
	}
	p := Paths{Primary: served + query}
	if u.RawPath != "" {
		p.Alt = cleanPath(u.RawPath) + query
		if robots.Canonical(p.Alt) == p.Primary {
			p.Alt = ""
		}
	}
	if Unresolved(u.Path) {
		// Decoded, as routers read it (Flask, Go's r.URL.Path): an
		// escaped "/private%2F..%2Fpublic/" is "/private/../public/"
		// to them. The escaped spelling resolved is Alt.
		p.Raw = encodePath(u.Path) + query
		p.File = FileOf(served, u.Path)
		if p.File != "" {
			p.File += query
		}
	}
	return p
}

// Unresolved reports whether the decoded path p has a dot-segment or a
// repeated slash, which servers resolve and robots.txt rules do not.
func Unresolved(p string) bool {
	for i := 0; i < len(p); i++ {
		if p[i] != '/' {
			continue
		}
		rest := p[i+1:]
		if rest == "" {
			return false
		}
		if rest[0] == '/' || rest[0] == '.' && (len(rest) == 1 || rest[1] == '/' ||
			rest[1] == '.' && (len(rest) == 2 || rest[2] == '/')) {
			return true
		}
	}
	return false
}

// FileOf is the file a file server opens for the decoded request path p
// that ServedPath made served: served without its trailing slash when p
// ends in a dot-segment ("/docs/a.pdf/." opens "/docs/a.pdf"), "" when
// that is served itself.
func FileOf(served, p string) string {
	if served == "/" || !(strings.HasSuffix(p, "/.") || strings.HasSuffix(p, "/..")) {
		return ""
	}
	return strings.TrimSuffix(served, "/")
}

// PathsOfTarget is PathsOf for a path or URL given as text, as a person
// types it on a command line.
func PathsOfTarget(target string) Paths {
	p := target
	if !strings.HasPrefix(target, "/") {
		// A URL, or a host and path ("example.com/a"). One that starts
		// with "/" is a path as a request line carries it: "//private/"
		// is the path //private/ (which a server reads as /private/),
		// not a URL of the host "private".
		p = robots.PathFromURL(target)
	}
	u, err := url.ParseRequestURI(p)
	if err != nil {
		// Not a request URI a server would accept; judge it as written.
		return Paths{Primary: p}
	}
	return PathsOf(u)
}

// Decide judges every spelling against g: disallowed if any is. A nil
// group allows everything.
func (p Paths) Decide(g *robots.Group) robots.Verdict {
	if p.Alt == "" && p.Raw == "" { // File comes with Raw
		return g.Decide(p.Primary)
	}
	v, _ := p.DecideSpelling(g)
	return v
}

// RobotsTxt reports whether the path is /robots.txt as a server reads it
// (the handler answers every such spelling itself), and whether it is so
// as sent too, with no dot-segment or repeated slash (the only spelling
// that passes unjudged when the handler passes the request on).
func (p Paths) RobotsTxt() (is, asSent bool) {
	path, _, _ := strings.Cut(p.Primary, "?")
	file, _, _ := strings.Cut(p.File, "?")
	is = path == "/robots.txt" || file == "/robots.txt"
	return is, is && p.Raw == ""
}

// Spellings returns every spelling, Primary first; those of a path
// without escapes or dot-segments are "".
func (p Paths) Spellings() [4]string { return [4]string{p.Primary, p.Alt, p.Raw, p.File} }

// DecideSpelling is Decide, also returning the spelling that decided: the
// first one disallowed, or Primary.
func (p Paths) DecideSpelling(g *robots.Group) (robots.Verdict, string) {
	v := g.Decide(p.Primary)
	if !v.Allowed {
		return v, p.Primary
	}
	for _, s := range [...]string{p.Alt, p.Raw, p.File} {
		if s == "" {
			continue
		}
		if v2 := g.Decide(s); !v2.Allowed {
			return v2, s
		}
	}
	return v, p.Primary
}

// ServedPath is the path a server serves for the decoded request path p,
// as the rules read it: dot-segments and repeated slashes resolved, bytes
// that would change its meaning percent-encoded ("/news/../secret/a" is
// "/secret/a"). A target that is no path ("*" of OPTIONS or GET *, the
// empty path of CONNECT) is judged as the site's root, "/": what
// "Disallow: /" refuses, a bot may not reach that way either. It does not
// allocate when p needs none of this.
func ServedPath(p string) string {
	if p == "" || p[0] != '/' {
		return "/"
	}
	return encodePath(cleanPath(p))
}

// cleanPath resolves dot-segments and repeated slashes, keeping a
// trailing slash, as Caddy's file server does before it serves a path. A
// final "." or ".." segment leaves a directory, as RFC 3986's
// remove_dot_segments reads it and as nginx and Apache serve it:
// "/private/." and "/private/x/.." are "/private/", which
// "Disallow: /private/" refuses.
func cleanPath(p string) string {
	cleaned := path.Clean(p)
	if cleaned != "/" && (strings.HasSuffix(p, "/") || strings.HasSuffix(p, "/.") || strings.HasSuffix(p, "/..")) {
		cleaned += "/"
	}
	return cleaned
}

// encodePath percent-encodes a decoded path where a raw byte would change
// its meaning or may not stand in a URL ("%", "?", "#", space, non-ASCII),
// leaving the rest as it is; robots.Group.Decide canonicalizes the rest.
func encodePath(p string) string {
	n := 0
	for i := 0; i < len(p); i++ {
		if needsEscape(p[i]) {
			n++
		}
	}
	if n == 0 {
		return p
	}
	const hex = "0123456789ABCDEF"
	var b strings.Builder
	b.Grow(len(p) + 2*n)
	for i := 0; i < len(p); i++ {
		c := p[i]
		if needsEscape(c) {
			b.WriteByte('%')
			b.WriteByte(hex[c>>4])
			b.WriteByte(hex[c&15])
		} else {
			b.WriteByte(c)
		}
	}
	return b.String()
}

func needsEscape(c byte) bool {
	return c == '%' || c == '?' || c == '#' || c <= ' ' || c >= 0x7f
}
