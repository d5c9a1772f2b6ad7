// Package pathmatch tells, from a config alone, whether Caddy's route
// matchers take a request for a path: the Caddyfile adapter and `caddy
// robots check` both need to know whether /robots.txt and the trap reach
// a robots_txt handler. Only the path matcher is evaluated, with Caddy's
// own code; the answer of any other matcher depends on the request.
package pathmatch

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"

	"github.com/caddyserver/caddy/v2"
	"github.com/caddyserver/caddy/v2/modules/caddyhttp"
)

// Set reports whether a matcher set (the matchers of one set must all
// match) takes a GET request for path p. known is false when the set
// holds a matcher other than path (and host, when ignoreHost) and its
// path matcher, if any, takes p: then the request decides. A path matcher
// that does not take p decides alone, whatever else the set holds.
func Set(set map[string]json.RawMessage, p string, ignoreHost bool) (takes, known bool) {
	known = true
	for name, raw := range set {
		switch {
		case name == "path":
			var m caddyhttp.MatchPath
			if err := json.Unmarshal(raw, &m); err != nil {
				known = false
				continue
			}
			switch t, k := pathTakes(m, p); {
			case !k:
				known = false
			case !t:
				return false, true
			}
		case name == "host" && ignoreHost:
		default:
			known = false
		}
	}
	return true, known
}

// Sets reports whether a route's matcher sets (any one set may match;
// none at all matches every request) take a GET request for p, as Set
// does for one.
func Sets(sets []map[string]json.RawMessage, p string, ignoreHost bool) (takes, known bool) {
	if len(sets) == 0 {
		return true, true
	}
	unknown := false
	for _, set := range sets {
		t, k := Set(set, p, ignoreHost)
		if t && k {
			return true, true
		}
		if t {
			unknown = true
		}
	}
	if unknown {
		return true, false
	}
	return false, true
}

// pathTakes runs Caddy's path matcher on p. known is false when a
// pattern has a placeholder (its value may come from the request) and
// the others do not take p, or when p is no path a request can carry.
func pathTakes(m caddyhttp.MatchPath, p string) (takes, known bool) {
	placeholders := false
	var static caddyhttp.MatchPath
	for _, pattern := range m {
		if strings.Contains(pattern, "{") {
			placeholders = true
			continue
		}
		static = append(static, pattern)
	}
	if len(static) == 0 {
		return true, false
	}
	if err := static.Provision(caddy.Context{}); err != nil {
		return true, false
	}
	ctx := context.WithValue(context.Background(), caddy.ReplacerCtxKey, caddy.NewReplacer())
	r, err := http.NewRequestWithContext(ctx, http.MethodGet, p, nil)
	if err != nil {
		return true, false
	}
	ok, err := static.MatchWithError(r)
	switch {
	case err != nil:
		return true, false
	case ok:
		return true, true
	}
	return false, !placeholders
}
