// Package pathmatch tells, from a config alone, whether Caddy's route
// matchers take a request: the Caddyfile adapter and `caddy robots check`
// need to know whether /robots.txt, the trap and the paths checked reach a
// robots_txt handler, and the handler itself, of its provisioned routes,
// whether its trap can work (Provisioned). The matchers a request's path, host and method
// decide (path, path_regexp, host, method, and not of those) are run with
// Caddy's own code; the answer of any other depends on the request.
package pathmatch

import (
	"bytes"
	"context"
	"encoding/json"
	"iter"
	"maps"
	"net/http"
	"net/url"
	"slices"
	"strings"

	"github.com/caddyserver/caddy/v2"
	"github.com/caddyserver/caddy/v2/modules/caddyhttp"
)

// Request is what is known of a request before it is made: a GET, until
// a rewrite changes its method.
type Request struct {
	// Path is the path as the routes see it (after any rewrite), in
	// its escaped form; it is not known when PathUnknown is set.
	Path        string
	PathUnknown bool
	// Host is the request's host, in ASCII; "" when it is not known.
	Host string
	// Method is "" for GET; it is not known when MethodUnknown is set.
	Method        string
	MethodUnknown bool
}

// method is r's method, when known.
func (r Request) method() string {
	if r.Method == "" {
		return http.MethodGet
	}
	return r.Method
}

// Set reports whether a matcher set (the matchers of one set must all
// match) takes r. known is false when a matcher of the set cannot be
// evaluated and the others take r: then the request decides. A matcher
// that does not take r decides alone, whatever else the set holds.
func Set(set map[string]json.RawMessage, r Request) (takes, known bool) {
	return allOf(maps.All(set), func(name string, raw json.RawMessage) (bool, bool) { return matcher(name, raw, r) })
}

// Sets reports whether a route's matcher sets (any one set may match;
// none at all matches every request) take r, as Set does for one.
func Sets(sets []map[string]json.RawMessage, r Request) (takes, known bool) {
	return anyOf(sets, func(set map[string]json.RawMessage) (bool, bool) { return Set(set, r) })
}

// allOf is Set's rule over the matchers of one set, each evaluated by
// eval, for a config's sets and provisioned ones alike.
func allOf[K, V any](set iter.Seq2[K, V], eval func(K, V) (takes, known bool)) (takes, known bool) {
	known = true
	for k, v := range set {
		switch t, kn := eval(k, v); {
		case !kn:
			known = false
		case !t:
			return false, true
		}
	}
	return true, known
}

// anyOf is Sets' rule over a route's sets, each evaluated by eval: none at
// all matches every request; one that takes r decides; else a set whose
// answer is not known makes the whole unknown.
func anyOf[S any](sets []S, eval func(S) (takes, known bool)) (takes, known bool) {
	if len(sets) == 0 {
		return true, true
	}
	unknown := false
	for _, set := range sets {
		t, k := eval(set)
		if t && k {
			return true, true
		}
		unknown = unknown || t
	}
	if unknown {
		return true, false
	}
	return false, true
}

// matcher evaluates one matcher of a set.
func matcher(name string, raw json.RawMessage, r Request) (takes, known bool) {
	switch name {
	case "path":
		var m caddyhttp.MatchPath
		if r.PathUnknown || json.Unmarshal(raw, &m) != nil {
			return true, false
		}
		return pathTakes(m, r.Path)
	case "path_regexp":
		// The pattern is a regular expression as written: Caddy
		// replaces no placeholders in it.
		var m caddyhttp.MatchPathRE
		if r.PathUnknown || json.Unmarshal(raw, &m) != nil {
			return true, false
		}
		return provisioned(&m, r)
	case "host":
		var patterns []string
		if json.Unmarshal(raw, &patterns) != nil {
			return true, false
		}
		return Host(patterns, r.Host)
	case "method":
		var m caddyhttp.MatchMethod
		if r.MethodUnknown || json.Unmarshal(raw, &m) != nil {
			return true, false
		}
		return provisioned(&m, r)
	case "not":
		var sets []map[string]json.RawMessage
		if json.Unmarshal(raw, &sets) != nil {
			return true, false
		}
		if len(sets) == 0 {
			return true, true // none of no sets matches: Caddy's not takes every request
		}
		t, k := Sets(sets, r)
		if !k {
			return true, false
		}
		return !t, true
	}
	return true, false
}

// pathTakes runs Caddy's path matcher on p. A pattern's placeholders of
// the environment and the system are replaced as Caddy would; known is
// false when a pattern has another (its value may come from the request)
// and the others do not take p.
func pathTakes(m caddyhttp.MatchPath, p string) (takes, known bool) {
	if len(m) == 0 {
		return false, true // Caddy's path matcher of no paths takes none
	}
	repl := caddy.NewReplacer()
	placeholders := false
	var static caddyhttp.MatchPath
	for _, pattern := range m {
		pattern = repl.ReplaceKnown(pattern, "")
		if hasPlaceholder(pattern) {
			placeholders = true
			continue
		}
		static = append(static, pattern)
	}
	if len(static) == 0 {
		return true, false
	}
	t, k := provisioned(&static, Request{Path: p})
	if k && !t && placeholders {
		return true, false
	}
	return t, k
}

// Host reports whether Caddy's host matcher of patterns takes a request
// for host (in ASCII; "" when not known).
func Host(patterns []string, host string) (takes, known bool) {
	if len(patterns) == 0 {
		return false, true // Caddy's host matcher of no hosts takes none
	}
	if host == "" {
		return true, false
	}
	for _, h := range patterns {
		if hasPlaceholder(h) {
			return true, false
		}
	}
	// Provision rewrites the patterns in place.
	m := caddyhttp.MatchHost(slices.Clone(patterns))
	return provisioned(&m, Request{Path: "/", Host: host})
}

// provisionable is a Caddy request matcher that needs provisioning.
type provisionable interface {
	Provision(caddy.Context) error
	MatchWithError(*http.Request) (bool, error)
}

// provisioned provisions m, as Caddy does at load, and runs it on the
// request r.
func provisioned(m provisionable, r Request) (takes, known bool) {
	if m.Provision(caddy.Context{}) != nil {
		return true, false
	}
	return run(m, r)
}

// NewRequest makes the request r with repl in its context, as Caddy's
// matchers and handlers expect. Its path is set as given, not parsed from
// a URL: "//private/x" is a path, not a host, and a rewrite to "gen" makes
// a path without its slash, as in Caddy.
func NewRequest(r Request, repl *caddy.Replacer) (*http.Request, error) {
	path, err := url.PathUnescape(r.Path)
	if err != nil {
		return nil, err
	}
	ctx := context.WithValue(context.Background(), caddy.ReplacerCtxKey, repl)
	req, err := http.NewRequestWithContext(ctx, r.method(), "http://check.invalid/", nil)
	if err != nil {
		return nil, err
	}
	req.URL.Path, req.URL.RawPath = path, r.Path
	req.Host = r.Host
	req.RequestURI = r.Path
	return req, nil
}

// Describe describes matcher sets as people read them: "path /blog/*",
// "method [\"POST\"]", sets joined by "or", matchers of a set by "and";
// host matchers only when withHost. "" when there are none.
func Describe(sets []map[string]json.RawMessage, withHost bool) string {
	var alts []string
	for _, set := range sets {
		var parts []string
		for _, name := range slices.Sorted(maps.Keys(set)) {
			if name == "host" && !withHost {
				continue
			}
			var list []string
			if (name == "path" || name == "host") && json.Unmarshal(set[name], &list) == nil {
				parts = append(parts, name+" "+strings.Join(list, " "))
				continue
			}
			var compact bytes.Buffer
			if json.Compact(&compact, set[name]) != nil {
				compact.Reset()
				compact.Write(set[name])
			}
			parts = append(parts, name+" "+compact.String())
		}
		if len(parts) > 0 {
			alts = append(alts, strings.Join(parts, " and "))
		}
	}
	return strings.Join(alts, " or ")
}

// hasPlaceholder reports whether s still holds a placeholder.
func hasPlaceholder(s string) bool { return strings.Contains(s, "{") }
