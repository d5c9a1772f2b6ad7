package caddymodule

import (
	"net/url"
	"strings"

	"github.com/caddyserver/caddy/v2/modules/caddyhttp"

	"github.com/robotsguard/caddy-robots-txt/robots"
)

// JudgedPaths returns the path (with query) of a request URL that
// robots.txt is matched against: the path the backend will serve. Dot-segments and repeated
// slashes are resolved and percent-encoding is made canonical, so
// "/%70rivate", "//private", "/./private" and "/public/../private" are all
// "/private".
//
// The primary spelling is built from the decoded path, which is what
// Caddy's file_server serves (it turns "/a%2Fb" into the file "/a/b"). When
// the request spelled its path with escapes that decoding changes, alt is
// that spelling too, cleaned the same way; a request is judged disallowed
// if either spelling is, so neither reading can be used to slip past.
//
// The caddy robots check command judges paths with it too, so that it
// agrees with the handler.
func JudgedPaths(u *url.URL) (primary, alt string) {
	query := ""
	if u.RawQuery != "" {
		query = "?" + u.RawQuery
	}
	primary = encodePath(caddyhttp.CleanPath(u.Path, true)) + query
	if u.RawPath != "" {
		alt = caddyhttp.CleanPath(u.RawPath, true) + query
		if robots.Canonical(alt) == primary {
			alt = ""
		}
	}
	return primary, alt
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
