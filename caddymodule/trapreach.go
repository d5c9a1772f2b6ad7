package caddymodule

import (
	"context"
	"fmt"
	"net/http"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/caddyserver/caddy/v2"
	"github.com/caddyserver/caddy/v2/modules/caddyhttp"
	"github.com/caddyserver/caddy/v2/modules/caddyhttp/fileserver"
	"github.com/caddyserver/caddy/v2/modules/caddyhttp/rewrite"
	"go.uber.org/zap"

	"github.com/robotsguard/caddy-robots-txt/caddymodule/internal/pathmatch"
)

// The trap works only where this handler serves /robots.txt: the trap's
// Disallow line is in the robots.txt it serves and nowhere else. Under a
// route whose matcher does not take /robots.txt, clients read another
// robots.txt, without the line, and those that obey it are trapped. The
// Caddyfile refuses the directive's own matcher at its line
// (trapOutsideMatcher); the routes around it (a JSON route's match, a
// handle block) the handler can see only once Caddy has provisioned them
// all, which is after its own Provision: it checks them when Caddy says the
// configuration started, or at its first request, whichever comes first.

// maxRouteDepth bounds the subroutes followed to find the handler.
const maxRouteDepth = 32

// trapReach is what the handler knows of whether its trap can work where
// its routes put it; once runs the checks of its routes (checkRoutes).
type trapReach struct {
	once sync.Once
	// srv is the handler's server, checked at Cleanup under caddy
	// validate, which starts nothing (checkRoutesValidated).
	srv *caddyhttp.Server
	// off is set when /robots.txt does not reach the handler: the trap
	// then springs on nobody.
	off atomic.Bool
}

// onStarted is an events handler that runs f.
type onStarted func()

func (f onStarted) Handle(context.Context, caddy.Event) error {
	f()
	return nil
}

// watchRoutes sets up the checks of the handler's routes (checkRoutes): at
// Caddy's started event when the handler is in a server of a
// configuration with an events app, and otherwise (or should the event
// not come first) at the handler's first request.
func (h *Handler) watchRoutes(ctx caddy.Context) {
	h.reach = new(trapReach)
	srv, ok := ctx.Value(caddyhttp.ServerCtxKey).(*caddyhttp.Server)
	if !ok {
		return
	}
	h.reach.srv = srv
	if h.events == nil {
		return
	}
	// Subscribing fails only once the events app has started, which it
	// has not while the configuration's modules are provisioned; the
	// first request checks then. At the event no request says the host:
	// a host matcher is taken to match.
	_ = h.events.On("started", onStarted(func() {
		h.reach.once.Do(func() { h.checkRoutes(srv, "") })
	}))
}

// trapOn reports whether the trap springs: it is set, and its routes do
// not keep /robots.txt from the handler.
func (h *Handler) trapOn() bool {
	return h.Trap != "" && (h.reach == nil || !h.reach.off.Load())
}

// checkRoutesAt checks the handler's routes at its first request, unless
// Caddy's started event came first.
func (h *Handler) checkRoutesAt(r *http.Request) {
	if h.reach == nil {
		return
	}
	h.reach.once.Do(func() {
		srv, _ := r.Context().Value(caddyhttp.ServerCtxKey).(*caddyhttp.Server)
		h.checkRoutes(srv, r.Host)
	})
}

// validationDone is the cause with which caddy.Validate (caddy validate,
// caddy adapt --validate) ends the configuration it provisioned, never
// started and now cleans up.
const validationDone = "validation complete"

// checkRoutesValidated checks the handler's routes when Caddy cleans up a
// configuration it only validated: no started event and no request come
// then, and an operator running caddy validate is to see the warnings a
// run would log.
func (h *Handler) checkRoutesValidated() {
	if h.reach == nil || h.reach.srv == nil {
		return
	}
	if cause := context.Cause(h.ctx); cause == nil || cause.Error() != validationDone {
		return
	}
	h.reach.once.Do(func() { h.checkRoutes(h.reach.srv, "") })
}

// checkRoutes checks, once the routes are provisioned, that /robots.txt
// and the trap reach the handler where they put it (checkReach), and
// warns of a path matcher they test after a rewrite and of root
// directives that make the file enforced another than the one served
// (checkRoots).
func (h *Handler) checkRoutes(srv *caddyhttp.Server, host string) {
	if srv == nil {
		return
	}
	h.checkReach(srv, host)
	h.checkMatchAfterRewrite(srv)
	h.checkRoots(srv)
}

// checkRoots warns of the root directives before the handler that make
// the robots.txt it enforces another than the one clients read:
//   - for a handler that reads robots.txt from the site's root, a root
//     directive with a matcher ("root /private/* /srv/other"): the root
//     differs by request, and so would the robots.txt judged, while
//     robots.txt is one per host (audit AO-F1: every bot was allowed under
//     /private/, judged by a file that did not exist there); or no root at
//     all, which reads Caddy's working directory (audit AO-F6);
//   - with serve off, a file other than the root's robots.txt, which a
//     file_server after the handler would serve: crawlers would be held to
//     rules they never read (audit AO-F7; inline and include say so at
//     load).
func (h *Handler) checkRoots(srv *caddyhttp.Server) {
	fromRoot := h.File == "" && h.Inline == "" && h.URL == ""
	unserved := !h.ServeEnabled() && h.File != "" && !strings.Contains(h.File, "{")
	if !fromRoot && !unserved {
		return
	}
	found, matched, roots := rootsBefore(srv.Routes, h, 0)
	switch {
	case !found:
	case fromRoot && len(roots) == 0 && len(matched) == 0:
		// Said at the first request too, with the path.
		h.configLog().Warn("no root is set before robots_txt (a root inside handle blocks is set after it), so robots.txt is read "+
			"from Caddy's working directory; name the file with \"file <path>\", or set root in the site block",
			zap.String("read_from", filepath.Join(workingDir(), "robots.txt")))
	case fromRoot && len(matched) > 0:
		h.configLog().Warn("a root directive with a matcher sets another root before robots_txt for some requests, and robots_txt reads "+
			"robots.txt from each request's root, so those requests are judged by another file than the one served for /robots.txt; "+
			"name the file with \"file <path>\" (robots.txt is one per host)",
			zap.Strings("roots", matched))
	case unserved && len(roots) > 0:
		root := roots[len(roots)-1]
		if served := filepath.Join(root, "robots.txt"); filepath.Clean(h.File) != served && !strings.Contains(root, "{") {
			h.configLog().Warn("serve off, and the file enforced is not the robots.txt of the site's root, which a file_server after robots_txt "+
				"would serve: crawlers may be held to rules they never read; serve the file (serve on), or enforce the one served "+
				"(said whatever answers /robots.txt after robots_txt, which the handler cannot see)",
				zap.String("root_robots_txt", served))
		}
	}
}

// rootsBefore reports whether routes hold h, the root directives with a
// matcher that run before it (each "matcher: root"), and those without
// one (each root), in order, through subroutes.
func rootsBefore(routes caddyhttp.RouteList, h *Handler, depth int) (found bool, matched, roots []string) {
	if depth > maxRouteDepth {
		return false, nil, nil
	}
	for _, r := range routes {
		for _, mh := range r.Handlers {
			if hh, ok := mh.(*Handler); ok && hh == h {
				return true, matched, roots
			}
			if sub, ok := mh.(*caddyhttp.Subroute); ok {
				if in, m, u := rootsBefore(sub.Routes, h, depth+1); in {
					return true, append(matched, m...), append(roots, u...)
				}
				continue
			}
			vars, ok := mh.(*caddyhttp.VarsMiddleware)
			if !ok {
				continue
			}
			root, ok := (*vars)["root"]
			switch {
			case !ok:
			case len(r.MatcherSets) > 0:
				matched = append(matched, fmt.Sprintf("%s: %v", pathmatch.DescribeProvisioned(r.MatcherSets), root))
			default:
				roots = append(roots, fmt.Sprint(root))
			}
		}
	}
	return false, nil, nil
}

// checkMatchAfterRewrite warns when a route on the way to the handler
// matches the request's path after a rewrite before it (uri strip_prefix,
// rewrite, try_files): Caddy's matchers read the path as rewritten, while
// the handler judges the URL the client sent, so "uri strip_prefix /blog"
// before "robots_txt /blog/*" lets every /blog/ request pass unjudged
// (audit AB-F2). Said, not changed: the matcher is Caddy's.
func (h *Handler) checkMatchAfterRewrite(srv *caddyhttp.Server) {
	chain, found := routesTo(srv.Routes, h, false, 0)
	if !found {
		return
	}
	for _, e := range chain {
		if readsPath(e.sets) && slices.ContainsFunc(e.rewrites, func(rw caddyhttp.Route) bool { return mayMoveOut(rw, e.sets) }) {
			h.configLog().Warn("robots_txt runs under a route that matches the path after a rewrite before it (uri, rewrite, try_files): "+
				"its matcher sees the path as rewritten, not the URL the client sent, which is what the handler judges, so requests the client "+
				"sent under that path may not reach it; match the rewritten path, or give robots_txt a route before the rewrite (or no path matcher)",
				zap.String("matcher", pathmatch.DescribeProvisioned(e.sets)))
			return
		}
	}
}

// mayMoveOut reports whether the rewrite of route rw may move a request
// that sets take out of them: unless its own matcher takes none of the
// paths sets name ("rewrite /old-page /new-page" before "/blog/*"), or it
// is a try_files whose every candidate starts with the path, which keeps
// what a path prefix matches ("try_files {path} {path}.html"). Where it
// cannot tell, it may.
func mayMoveOut(rw caddyhttp.Route, sets caddyhttp.MatcherSets) bool {
	if keepsPath(rw.MatcherSets) {
		return false
	}
	samples, ok := samplePaths(sets)
	if !ok {
		return true
	}
	for _, p := range samples {
		if takes, known := pathmatch.Provisioned(rw.MatcherSets, pathmatch.Request{Path: p}); (takes || !known) && !keepsIn(rw.Handlers, sets, p) {
			return true
		}
	}
	return false
}

// keepsIn reports whether handlers, rewriting a request for path p, leave
// it to sets for certain (audit AE-F4): each is a rewrite of the query
// alone, a strip_prefix of a prefix p lacks, or a rewrite to a path sets
// take. Anything else may move it.
func keepsIn(handlers []caddyhttp.MiddlewareHandler, sets caddyhttp.MatcherSets, p string) bool {
	for _, mh := range handlers {
		rw, ok := mh.(*rewrite.Rewrite)
		if !ok {
			if _, sub := mh.(*caddyhttp.Subroute); sub {
				return false
			}
			continue
		}
		if rw.StripPathSuffix != "" || len(rw.PathRegexp) > 0 || !replacesWithin(rw, sets) ||
			rw.StripPathPrefix != "" && strings.HasPrefix(p, rw.StripPathPrefix) {
			return false
		}
		switch uri, _, _ := strings.Cut(rw.URI, "?"); {
		case uri == "":
			// The query alone, or nothing but a strip that does not apply.
		case strings.Contains(uri, "{"):
			if !prefixedPath(uri, sets) {
				return false
			}
		default:
			if takes, known := pathmatch.Provisioned(sets, pathmatch.Request{Path: uri}); !takes || !known {
				return false
			}
		}
	}
	return true
}

// replacesWithin reports whether the substring replacements of rw (uri
// replace) leave every path that sets take by a prefix ("/private/*")
// taken: none of them may find its text starting inside the prefix, so
// the prefix stays whole (audit AF-F5).
func replacesWithin(rw *rewrite.Rewrite, sets caddyhttp.MatcherSets) bool {
	if len(rw.URISubstring) == 0 {
		return true
	}
	prefixes, ok := pathPrefixes(sets)
	if !ok {
		return false
	}
	for _, rep := range rw.URISubstring {
		if strings.Contains(rep.Find, "{") || strings.Contains(rep.Replace, "{") {
			return false
		}
		for _, l := range prefixes {
			if !keepsPrefix(l, rep.Find, rep.Replace) {
				return false
			}
		}
	}
	return true
}

// keepsPrefix reports whether replacing find with repl in a path that
// starts with prefix leaves the path starting with it: a match of find
// that starts inside the prefix ("/old/" at the last "/" of "/private/")
// must put back what it takes of it ("/new/").
func keepsPrefix(prefix, find, repl string) bool {
	if find == "" {
		return true // Caddy replaces nothing
	}
	for i := range len(prefix) {
		n := min(len(find), len(prefix)-i)
		if prefix[i:i+n] != find[:n] {
			continue
		}
		after := prefix[:i] + repl
		if n == len(find) {
			// Within the prefix: what follows the match is its rest.
			after += prefix[i+n:]
		}
		if !strings.HasPrefix(after, prefix) {
			return false
		}
	}
	return true
}

// prefixedPath reports whether uri, a rewrite's target of the form
// A{path}B ("/blog{path}.html"), gives every path that sets take by a
// prefix one they take too: A followed by the prefix starts with a
// prefix of sets ("/blog" + "/blog/" starts with "/blog/").
func prefixedPath(uri string, sets caddyhttp.MatcherSets) bool {
	prefixes, ok := pathPrefixes(sets)
	if !ok {
		return false
	}
	var a, b string
	for _, ph := range []string{"{path}", "{http.request.uri.path}"} {
		if x, y, found := strings.Cut(uri, ph); found {
			a, b, ok = x, y, true
			break
		}
		ok = false
	}
	if !ok || strings.Contains(a, "{") || strings.Contains(b, "{") {
		return false
	}
	for _, l := range prefixes {
		if !slices.ContainsFunc(prefixes, func(l2 string) bool { return strings.HasPrefix(a+l, l2) }) {
			return false
		}
	}
	return true
}

// pathPrefixes returns the literal prefix of each path pattern of sets
// ("/blog/*" gives "/blog/"); ok is false unless there is one and every
// pattern is such a prefix: no other "*", no placeholder, and no path
// matcher of another kind.
func pathPrefixes(sets caddyhttp.MatcherSets) (prefixes []string, ok bool) {
	for _, set := range sets {
		for _, m := range set {
			switch m := m.(type) {
			case *caddyhttp.MatchPath:
				for _, p := range *m {
					l, star := strings.CutSuffix(p, "*")
					if !star || l == "" || strings.ContainsAny(l, "*{") {
						return nil, false
					}
					prefixes = append(prefixes, l)
				}
			case *caddyhttp.MatchPathRE, *caddyhttp.MatchNot:
				return nil, false
			}
		}
	}
	return prefixes, len(prefixes) > 0
}

// keepsPath reports whether sets are a try_files matcher whose every
// candidate starts with the request's path, or answers with a status
// ("=404") rather than rewriting.
func keepsPath(sets caddyhttp.MatcherSets) bool {
	for _, set := range sets {
		for _, m := range set {
			if f, ok := m.(*fileserver.MatchFile); ok && len(f.TryFiles) > 0 &&
				!slices.ContainsFunc(f.TryFiles, func(c string) bool {
					return !strings.HasPrefix(c, "{path}") && !strings.HasPrefix(c, "{http.request.uri.path}") && !strings.HasPrefix(c, "=")
				}) {
				return true
			}
		}
	}
	return false
}

// samplePaths returns a path each path pattern of sets takes ("/blog/*"
// takes "/blog/x"); ok is false when a matcher reads the path otherwise (a
// regular expression), or a pattern has a placeholder.
func samplePaths(sets caddyhttp.MatcherSets) (paths []string, ok bool) {
	for _, set := range sets {
		for _, m := range set {
			switch m := m.(type) {
			case *caddyhttp.MatchPath:
				for _, p := range *m {
					if strings.Contains(p, "{") {
						return nil, false
					}
					paths = append(paths, strings.ReplaceAll(p, "*", "x"))
				}
			case *caddyhttp.MatchPathRE:
				return nil, false
			}
		}
	}
	return paths, true
}

// readsPath reports whether any matcher of sets reads the request's path.
func readsPath(sets caddyhttp.MatcherSets) bool {
	for _, set := range sets {
		for _, m := range set {
			switch m := m.(type) {
			case *caddyhttp.MatchPath, *caddyhttp.MatchPathRE:
				return true
			case *caddyhttp.MatchNot:
				if readsPath(m.MatcherSets) {
					return true
				}
			}
		}
	}
	return false
}

// checkReach follows the routes of srv to the handler and says when a
// route on the way does not take a GET /robots.txt to host ("" when not
// known): clients then read a robots.txt other than the one it enforces,
// or none, and no bot's fetch of it is recorded, so none gets grace (a
// WARN; audit AO-F2). With a trap it turns the trap off, with an ERROR,
// and says at ERROR too when a route does not take the trap, which then
// springs on nobody. A handler the routes do not hold directly or through
// subroutes (an error route, a named route) is not checked.
func (h *Handler) checkReach(srv *caddyhttp.Server, host string) {
	chain, found := routesTo(srv.Routes, h, false, 0)
	if !found {
		return
	}
	if by := notTaken(chain, host, "/robots.txt"); by != "" {
		if h.Trap == "" {
			h.configLog().Warn("requests for /robots.txt do not reach this handler: clients read a robots.txt other than the one it enforces, "+
				"or none, and no bot's fetch of it is recorded, so none gets grace; add /robots.txt to its routes' matchers, "+
				"or give robots_txt a route that takes every request",
				zap.String("not_taken_by", by))
			return
		}
		h.reach.off.Store(true)
		h.configLog().Error("trap off: requests for /robots.txt do not reach this handler, so the robots.txt clients are served "+
			"does not disallow the trap, and a client that obeys it would be trapped; give the trap to a robots_txt whose routes "+
			"take every request, or add /robots.txt and the trap to their matchers",
			zap.String("trap", h.Trap), zap.String("not_taken_by", by))
		return
	}
	if h.Trap == "" {
		return
	}
	if by := notTaken(chain, host, h.Trap); by != "" {
		h.configLog().Error("trap never springs: requests for the trap path do not reach this handler; "+
			"add the trap to its routes' matchers, or give it to a robots_txt whose routes take every request",
			zap.String("trap", h.Trap), zap.String("not_taken_by", by))
	}
}

// enclosing is a route on the way to the handler.
type enclosing struct {
	sets caddyhttp.MatcherSets
	// rewritten says a rewrite may have run before these matchers: the
	// path and method they see may not be the client's.
	rewritten bool
	// rewrites are the routes before these matchers whose rewrites may
	// run for a request that reaches them: not one of their own group,
	// which runs only for requests that do not (see mayMoveOut).
	rewrites []caddyhttp.Route
}

// routesTo returns the routes that hold h, directly or through
// subroutes, outermost first; found is false when none does.
func routesTo(routes caddyhttp.RouteList, h *Handler, rewritten bool, depth int) (chain []enclosing, found bool) {
	return routesToAfter(routes, h, rewritten, nil, depth)
}

// routesToAfter is routesTo, with before the rewriting routes of the
// levels around routes.
func routesToAfter(routes caddyhttp.RouteList, h *Handler, rewritten bool, before []caddyhttp.Route, depth int) (chain []enclosing, found bool) {
	if depth > maxRouteDepth {
		return nil, false
	}
	for i, r := range routes {
		here := enclosing{r.MatcherSets, rewritten, slices.Clip(before)}
		for _, e := range routes[:i] {
			if rewrites(e.Handlers, depth) && (e.Group == "" || e.Group != r.Group) {
				here.rewrites = append(here.rewrites, e)
			}
		}
		for j, mh := range r.Handlers {
			if hh, ok := mh.(*Handler); ok && hh == h {
				return []enclosing{here}, true
			}
			if sub, ok := mh.(*caddyhttp.Subroute); ok {
				inside := here.rewrites
				if rewrites(r.Handlers[:j], depth) {
					// They run for every request this route takes.
					inside = append(slices.Clip(inside), caddyhttp.Route{Handlers: r.Handlers[:j]})
				}
				if inner, ok := routesToAfter(sub.Routes, h, rewritten || rewrites(r.Handlers[:j], depth), inside, depth+1); ok {
					return append([]enclosing{here}, inner...), true
				}
			}
		}
		rewritten = rewritten || rewrites(r.Handlers, depth)
	}
	return nil, false
}

// rewrites reports whether any of handlers, or of their subroutes, may
// rewrite the request for what comes after it.
func rewrites(handlers []caddyhttp.MiddlewareHandler, depth int) bool {
	for _, mh := range handlers {
		switch mh := mh.(type) {
		case *rewrite.Rewrite:
			return true
		case *caddyhttp.Subroute:
			if depth > maxRouteDepth {
				return true
			}
			for _, r := range mh.Routes {
				if rewrites(r.Handlers, depth+1) {
					return true
				}
			}
		}
	}
	return false
}

// notTaken describes the matcher of the first route in chain that does
// not take a GET for path to host ("" when not known), by Caddy's own
// matchers; "" when each takes it, or may: a matcher of the request's
// headers, address, query, ..., or of its path or method after a rewrite,
// is taken to match, so that the trap is turned off only where it
// certainly cannot work.
func notTaken(chain []enclosing, host, path string) string {
	for _, e := range chain {
		r := pathmatch.Request{Path: path, Host: host, PathUnknown: e.rewritten, MethodUnknown: e.rewritten}
		if takes, known := pathmatch.Provisioned(e.sets, r); known && !takes {
			return pathmatch.DescribeProvisioned(e.sets)
		}
	}
	return ""
}
