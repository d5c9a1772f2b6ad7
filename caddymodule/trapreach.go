package caddymodule

import (
	"context"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/caddyserver/caddy/v2"
	"github.com/caddyserver/caddy/v2/modules/caddyhttp"
	"github.com/caddyserver/caddy/v2/modules/caddyhttp/rewrite"
	"go.uber.org/zap"
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
// its routes put it.
type trapReach struct {
	once sync.Once
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

// watchTrapReach sets up the check of the trap's routes for a handler
// with a trap: at Caddy's started event when the handler is in a server
// of a configuration with an events app, and otherwise (or should the
// event not come first) at the handler's first request.
func (h *Handler) watchTrapReach(ctx caddy.Context) {
	h.reach = new(trapReach)
	srv, ok := ctx.Value(caddyhttp.ServerCtxKey).(*caddyhttp.Server)
	if !ok || h.events == nil {
		return
	}
	// Subscribing fails only once the events app has started, which it
	// has not while the configuration's modules are provisioned; the
	// first request checks then. At the event no request says the host:
	// a host matcher is taken to match.
	_ = h.events.On("started", onStarted(func() {
		h.reach.once.Do(func() { h.checkTrapReach(srv, "") })
	}))
}

// trapOn reports whether the trap springs: it is set, and its routes do
// not keep /robots.txt from the handler.
func (h *Handler) trapOn() bool {
	return h.Trap != "" && (h.reach == nil || !h.reach.off.Load())
}

// checkTrapReachAt checks the trap's routes at the handler's first
// request, unless Caddy's started event came first.
func (h *Handler) checkTrapReachAt(r *http.Request) {
	if h.reach == nil {
		return
	}
	h.reach.once.Do(func() {
		srv, _ := r.Context().Value(caddyhttp.ServerCtxKey).(*caddyhttp.Server)
		h.checkTrapReach(srv, r.Host)
	})
}

// checkTrapReach follows the routes of srv to the handler, and turns the
// trap off, with an ERROR, when a route on the way does not take a GET
// /robots.txt to host ("" when not known); it says at ERROR too when one
// does not take the trap, which then springs on nobody. A handler the
// routes do not hold directly or through subroutes (an error route, a
// named route) is not checked.
func (h *Handler) checkTrapReach(srv *caddyhttp.Server, host string) {
	if srv == nil {
		return
	}
	chain, found := routesTo(srv.Routes, h, false, 0)
	if !found {
		return
	}
	if by := notTaken(chain, srv, host, "/robots.txt"); by != "" {
		h.reach.off.Store(true)
		h.configLog().Error("trap off: requests for /robots.txt do not reach this handler, so the robots.txt clients are served "+
			"does not disallow the trap, and a client that obeys it would be trapped; give the trap to a robots_txt whose routes "+
			"take every request, or add /robots.txt and the trap to their matchers",
			zap.String("trap", h.Trap), zap.String("not_taken_by", by))
		return
	}
	if by := notTaken(chain, srv, host, h.Trap); by != "" {
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
}

// routesTo returns the routes that hold h, directly or through
// subroutes, outermost first; found is false when none does.
func routesTo(routes caddyhttp.RouteList, h *Handler, rewritten bool, depth int) (chain []enclosing, found bool) {
	if depth > maxRouteDepth {
		return nil, false
	}
	for _, r := range routes {
		here := enclosing{r.MatcherSets, rewritten}
		for j, mh := range r.Handlers {
			if hh, ok := mh.(*Handler); ok && hh == h {
				return []enclosing{here}, true
			}
			if sub, ok := mh.(*caddyhttp.Subroute); ok {
				if inner, ok := routesTo(sub.Routes, h, rewritten || rewrites(r.Handlers[:j], depth), depth+1); ok {
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
// not take a GET for path to host, with Caddy's own matchers; "" when each
// takes it, or may (see setsTake).
func notTaken(chain []enclosing, srv *caddyhttp.Server, host, path string) string {
	req := &http.Request{
		Method: http.MethodGet, URL: &url.URL{Path: path}, Host: host,
		Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1, Header: make(http.Header),
		RemoteAddr: "192.0.2.1:0", // what no matcher evaluated here reads
	}
	req.RequestURI = req.URL.RequestURI()
	req = caddyhttp.PrepareRequest(req, caddy.NewReplacer(), discardResponse{}, srv)
	for _, e := range chain {
		if takes, known := setsTake(e.sets, req, e.rewritten); known && !takes {
			return describeSets(e.sets)
		}
	}
	return ""
}

// setsTake reports whether a route's matcher sets (any one may match;
// none at all matches every request) take req. known is false when the
// answer depends on what req does not say: a matcher of the request's
// headers, address, query, ..., or of its path or method after a rewrite.
// Such a matcher is taken to match: the trap is turned off only where it
// certainly cannot work.
func setsTake(sets caddyhttp.MatcherSets, req *http.Request, rewritten bool) (takes, known bool) {
	if len(sets) == 0 {
		return true, true
	}
	unknown := false
	for _, set := range sets {
		t, k := setTakes(set, req, rewritten)
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

// setTakes is setsTake for one set, whose matchers must all match: one
// that does not take req decides alone.
func setTakes(set caddyhttp.MatcherSet, req *http.Request, rewritten bool) (takes, known bool) {
	known = true
	for _, m := range set {
		switch t, k := matcherTakes(m, req, rewritten); {
		case !k:
			known = false
		case !t:
			return false, true
		}
	}
	return true, known
}

// matcherTakes evaluates one provisioned matcher on req, where what it
// reads is known.
func matcherTakes(m any, req *http.Request, rewritten bool) (takes, known bool) {
	var me caddyhttp.RequestMatcherWithError
	switch m := m.(type) {
	case *caddyhttp.MatchPath:
		if rewritten || slices.ContainsFunc(*m, hasBrace) {
			return true, false
		}
		me = m
	case *caddyhttp.MatchPathRE:
		if rewritten {
			return true, false
		}
		me = m
	case *caddyhttp.MatchMethod:
		if rewritten {
			return true, false
		}
		me = m
	case *caddyhttp.MatchHost:
		if req.Host == "" || slices.ContainsFunc(*m, hasBrace) {
			return true, false
		}
		me = m
	case *caddyhttp.MatchNot:
		if len(m.MatcherSets) == 0 {
			return true, true // none of no sets matches: Caddy's not takes every request
		}
		t, k := setsTake(m.MatcherSets, req, rewritten)
		if !k {
			return true, false
		}
		return !t, true
	default:
		return true, false
	}
	ok, err := me.MatchWithError(req)
	if err != nil {
		return true, false
	}
	return ok, true
}

// describeSets describes matcher sets as people read them: "path /blog/*",
// sets joined by "or", the matchers of a set by "and".
func describeSets(sets caddyhttp.MatcherSets) string {
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
		return "not (" + describeSets(m.MatcherSets) + ")"
	case caddy.Module:
		return m.CaddyModule().ID.Name()
	}
	return "a matcher"
}

func hasBrace(s string) bool { return strings.Contains(s, "{") }

// discardResponse is the response of a request no one answers: Caddy's
// replacer reads response headers through it.
type discardResponse struct{}

func (discardResponse) Header() http.Header         { return http.Header{} }
func (discardResponse) Write(b []byte) (int, error) { return len(b), nil }
func (discardResponse) WriteHeader(int)             {}
