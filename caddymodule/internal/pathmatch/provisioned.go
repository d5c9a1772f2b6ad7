package pathmatch

import (
	"slices"
	"strings"

	"github.com/caddyserver/caddy/v2"
	"github.com/caddyserver/caddy/v2/modules/caddyhttp"
)

// Provisioned is Sets for a route's matcher sets as a running Caddy holds
// them, provisioned: the handler, which sees its routes only then, asks it
// of its trap.
func Provisioned(sets caddyhttp.MatcherSets, r Request) (takes, known bool) {
	return anyOf(sets, func(set caddyhttp.MatcherSet) (bool, bool) {
		return allOf(slices.All(set), func(_ int, m any) (bool, bool) {
			return provisionedMatcher(m, r)
		})
	})
}

// provisionedMatcher evaluates one provisioned matcher on r, where what it
// reads is known; a pattern with a placeholder left in it may read the
// request.
func provisionedMatcher(m any, r Request) (takes, known bool) {
	var me caddyhttp.RequestMatcherWithError
	switch m := m.(type) {
	case *caddyhttp.MatchPath:
		if r.PathUnknown || slices.ContainsFunc(*m, hasPlaceholder) {
			return true, false
		}
		me = m
	case *caddyhttp.MatchPathRE:
		if r.PathUnknown {
			return true, false
		}
		me = m
	case *caddyhttp.MatchMethod:
		if r.MethodUnknown {
			return true, false
		}
		me = m
	case *caddyhttp.MatchHost:
		if r.Host == "" || slices.ContainsFunc(*m, hasPlaceholder) {
			return true, false
		}
		me = m
	case *caddyhttp.MatchNot:
		if len(m.MatcherSets) == 0 {
			return true, true // none of no sets matches: Caddy's not takes every request
		}
		t, k := Provisioned(m.MatcherSets, r)
		if !k {
			return true, false
		}
		return !t, true
	default:
		return true, false
	}
	return run(me, r)
}

// run runs the matcher m on the request r.
func run(m caddyhttp.RequestMatcherWithError, r Request) (takes, known bool) {
	req, err := NewRequest(r, caddy.NewReplacer())
	if err != nil {
		return true, false
	}
	ok, err := m.MatchWithError(req)
	if err != nil {
		return true, false
	}
	return ok, true
}

// DescribeProvisioned is Describe for provisioned matcher sets.
func DescribeProvisioned(sets caddyhttp.MatcherSets) string {
	alts := make([]string, 0, len(sets))
	for _, set := range sets {
		parts := make([]string, 0, len(set))
		for _, m := range set {
			parts = append(parts, describeMatcher(m))
		}
		slices.Sort(parts) // a set is read from a map: no order of its own
		alts = append(alts, strings.Join(parts, " and "))
	}
	return strings.Join(alts, " or ")
}

func describeMatcher(m any) string {
	switch m := m.(type) {
	case *caddyhttp.MatchPath:
		return "path " + strings.Join(*m, " ")
	case *caddyhttp.MatchPathRE:
		return "path_regexp " + m.Pattern
	case *caddyhttp.MatchMethod:
		return "method " + strings.Join(*m, " ")
	case *caddyhttp.MatchHost:
		return "host " + strings.Join(*m, " ")
	case *caddyhttp.MatchNot:
		return "not (" + DescribeProvisioned(m.MatcherSets) + ")"
	case caddy.Module:
		return m.CaddyModule().ID.Name()
	}
	return "a matcher"
}
