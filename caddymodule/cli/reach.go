package cli

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/caddyserver/caddy/v2"
	"github.com/caddyserver/caddy/v2/modules/caddyhttp/rewrite"

	"github.com/robotsguard/caddy-robots-txt/caddymodule/internal/pathmatch"
)

// route is a route of a Caddy config, read once, so that finding the
// robots_txt handlers and following a request through the routes see the
// same handler nodes.
type route struct {
	match    []map[string]json.RawMessage
	group    string
	terminal bool
	handle   []*handlerNode
}

// handlerNode is one handler of a route.
type handlerNode struct {
	name   string
	raw    json.RawMessage
	routes []*route // a subroute's
	// errRoutes are a subroute's error routes: Caddy runs them, with
	// the rest of the chain after them, when its routes fail.
	errRoutes []*route
	invoke    string // the named route an invoke handler runs
	// answers is whether it answers every request it gets (see answers).
	answers bool
}

// server is a server's routes and its named routes (invoke's).
type server struct {
	routes []*route
	named  map[string]*route
}

type routeJSON struct {
	Match    []map[string]json.RawMessage `json:"match"`
	Group    string                       `json:"group"`
	Terminal bool                         `json:"terminal"`
	Handle   []json.RawMessage            `json:"handle"`
}

// parseRoutes reads a list of routes, subroutes included.
func parseRoutes(raws []json.RawMessage) ([]*route, error) {
	routes := make([]*route, 0, len(raws))
	for _, raw := range raws {
		r, err := parseRoute(raw)
		if err != nil {
			return nil, err
		}
		routes = append(routes, r)
	}
	return routes, nil
}

func parseRoute(raw json.RawMessage) (*route, error) {
	var rj routeJSON
	if err := json.Unmarshal(raw, &rj); err != nil {
		return nil, err
	}
	r := &route{match: rj.Match, group: rj.Group, terminal: rj.Terminal}
	for _, hraw := range rj.Handle {
		var h struct {
			Handler string            `json:"handler"`
			Routes  []json.RawMessage `json:"routes"`
			Name    string            `json:"name"`
			Errors  *struct {
				Routes []json.RawMessage `json:"routes"`
			} `json:"errors"`
		}
		if err := json.Unmarshal(hraw, &h); err != nil {
			return nil, err
		}
		n := &handlerNode{name: h.Handler, raw: hraw}
		switch h.Handler {
		case "subroute":
			sub, err := parseRoutes(h.Routes)
			if err != nil {
				return nil, err
			}
			n.routes = sub
			if h.Errors != nil {
				if n.errRoutes, err = parseRoutes(h.Errors.Routes); err != nil {
					return nil, err
				}
			}
		case "invoke":
			n.invoke = h.Name
		}
		n.answers = answers(h.Handler, hraw)
		r.handle = append(r.handle, n)
	}
	return r, nil
}

// state is what check knows of a request on one way through the routes:
// the request as the routes see it now, and the route groups a route has
// been taken in (Caddy runs only the first route of a group that
// matches; the groups are the request's, across subroutes).
type state struct {
	req pathmatch.Request
	won map[string]bool
}

// taking is st once a route of group is taken.
func (st state) taking(group string) state {
	if group == "" {
		return st
	}
	won := maps.Clone(st.won)
	if won == nil {
		won = make(map[string]bool, 1)
	}
	won[group] = true
	return state{st.req, won}
}

// key tells states apart: two ways through the routes that leave the
// request the same go on the same way, and are followed once.
func (st state) key() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%t %q %q %t %q", st.req.PathUnknown, st.req.Path, st.req.Host, st.req.MethodUnknown, st.req.Method)
	for _, g := range slices.Sorted(maps.Keys(st.won)) {
		fmt.Fprintf(&b, " %q", g)
	}
	return b.String()
}

// outcome is one way a request can go through a list of routes.
type outcome struct {
	kind outcomeKind
	by   string // what answered it (kindAnswered)
	st   state  // the request as it leaves the list (kindNext)
}

type outcomeKind int

const (
	kindReached  outcomeKind = iota // the handler got it
	kindAnswered                    // a handler before it answered
	kindEnded                       // a terminal route before it ended it
	kindNext                        // the list passed it on, unanswered
)

const (
	// maxSteps bounds the work of following one request; a config that
	// needs more is answered "it depends".
	maxSteps = 10000
	// maxDepth bounds nested subroutes and invokes: a named route that
	// invokes itself would never end.
	maxDepth = 32
)

// follower follows requests through one server's routes to target.
type follower struct {
	srv    *server
	target *handlerNode
	steps  int
	depth  int
	// gaveUp is set when the answer depends on more than check can
	// follow: too many ways, too deep, or a subroute's error routes.
	gaveUp bool
	// passedBy is set when a route that holds target did not take the
	// request: what answers it then answers instead, not first.
	passedBy bool
}

// holds reports whether target is among handlers, or in a subroute of
// theirs.
func (f *follower) holds(handlers []*handlerNode, depth int) bool {
	if depth > maxDepth {
		return false
	}
	for _, h := range handlers {
		if h == f.target {
			return true
		}
		for _, r := range h.routes {
			if f.holds(r.handle, depth+1) {
				return true
			}
		}
	}
	return false
}

// notReached follows a request for path, to each of hosts (none: the
// host is not known), through srv's routes, and says why it never gets to
// target, with true; false when it may.
func (srv *server) notReached(target *handlerNode, hosts []string, path string) (string, bool) {
	if len(hosts) == 0 {
		hosts = []string{""}
	}
	why := ""
	for _, h := range hosts {
		f := &follower{srv: srv, target: target}
		outs := f.list(srv.routes, state{req: pathmatch.Request{Path: path, Host: h}})
		if f.gaveUp || len(outs) == 0 || slices.ContainsFunc(outs, func(o outcome) bool { return o.kind == kindReached }) {
			return "", false
		}
		if why == "" {
			why = outs[0].describe()
			if f.passedBy && outs[0].kind == kindAnswered {
				// "Answers it first" would blame what comes after
				// the handler for what the handler's own matcher
				// leaves.
				why = "the handler's route does not match it; " + outs[0].by + " answers it"
			}
		}
	}
	return why, true
}

// describe says why o is not the handler's; "" for a request that no
// route takes to it.
func (o outcome) describe() string {
	switch o.kind {
	case kindAnswered:
		return o.by + " answers it first"
	case kindEnded:
		return "a terminal route before the handler ends it, unanswered"
	}
	return ""
}

// list follows st through routes. A matcher check cannot evaluate splits
// the way in two: the route taken, and not.
func (f *follower) list(routes []*route, st state) []outcome {
	live := []state{st}
	var outs []outcome
	for _, r := range routes {
		var next []state
		seen := make(map[string]bool)
		goOn := func(st state) {
			if k := st.key(); !seen[k] {
				seen[k] = true
				next = append(next, st)
			}
		}
		for _, st := range live {
			if f.steps++; f.steps > maxSteps {
				f.gaveUp = true
				return nil
			}
			if r.group != "" && st.won[r.group] {
				goOn(st)
				continue
			}
			takes, known := pathmatch.Sets(r.match, st.req)
			if !takes || !known {
				goOn(st) // not taken
			}
			if !takes {
				if known && f.holds(r.handle, 0) {
					f.passedBy = true
				}
				continue
			}
			for _, o := range f.chain(r.handle, st.taking(r.group)) {
				switch {
				case o.kind != kindNext:
					outs = append(outs, o)
				case r.terminal:
					// Caddy ends the request there, even in a
					// subroute: nothing after it runs.
					outs = append(outs, outcome{kind: kindEnded})
				default:
					goOn(o.st)
				}
			}
		}
		live = next
	}
	for _, st := range live {
		outs = append(outs, outcome{kind: kindNext, st: st})
	}
	return outs
}

// chain follows st through a route's handlers. A subroute or an invoked
// route runs with the rest of the chain after it, as Caddy compiles them.
func (f *follower) chain(handlers []*handlerNode, st state) []outcome {
	for i, h := range handlers {
		if h == f.target {
			return []outcome{{kind: kindReached}}
		}
		var sub []*route
		switch {
		case h.name == "subroute":
			sub = h.routes
		case h.name == "invoke":
			r := f.srv.named[h.invoke]
			if r == nil {
				return []outcome{{kind: kindAnswered, by: "invoke (of a named route the config lacks: an error)"}}
			}
			sub = []*route{r}
		case h.name == "rewrite":
			st.req = rewritten(h.raw, st.req)
			continue
		case h.answers:
			return []outcome{{kind: kindAnswered, by: h.name}}
		default:
			continue
		}
		if f.depth >= maxDepth {
			f.gaveUp = true
			return nil
		}
		f.depth++
		outs := f.list(sub, st)
		f.depth--
		var ways []outcome
		for _, o := range outs {
			switch {
			case o.kind == kindAnswered && len(h.errRoutes) > 0:
				// What answered may have failed, and the
				// error routes go on with the chain.
				f.gaveUp = true
			case o.kind != kindNext:
				ways = append(ways, o)
			default:
				ways = append(ways, f.chain(handlers[i+1:], o.st)...)
			}
		}
		return ways
	}
	return []outcome{{kind: kindNext, st: st}}
}

// rewritten is req after a rewrite handler, run with Caddy's own code. Its
// path (or method) is not known after a rewrite that depends on the
// request, until one that sets a path of its own.
func rewritten(raw json.RawMessage, req pathmatch.Request) pathmatch.Request {
	var rw rewrite.Rewrite
	if json.Unmarshal(raw, &rw) != nil {
		return pathmatch.Request{PathUnknown: true, MethodUnknown: true, Host: req.Host}
	}
	repl := caddy.NewReplacer()
	known := func(s string) bool { return !strings.Contains(repl.ReplaceKnown(s, ""), "{") }
	if rw.Method != "" {
		if known(rw.Method) {
			req.Method, req.MethodUnknown = strings.ToUpper(repl.ReplaceKnown(rw.Method, "")), false
		} else {
			req.MethodUnknown = true
		}
		rw.Method = ""
	}
	uriPath, _, _ := strings.Cut(rw.URI, "?")
	staticURI := uriPath != "" && known(uriPath) && strings.HasPrefix(uriPath, "/")
	if req.PathUnknown && !staticURI {
		return req
	}
	unknown := req
	unknown.PathUnknown, unknown.Path = true, ""
	for _, s := range []string{uriPath, rw.StripPathPrefix, rw.StripPathSuffix} {
		if !known(s) {
			return unknown
		}
	}
	for _, sub := range rw.URISubstring {
		if strings.Contains(sub.Find+sub.Replace, "{") {
			return unknown
		}
	}
	for _, sub := range rw.PathRegexp {
		if strings.Contains(sub.Find+sub.Replace, "{") {
			return unknown
		}
	}
	if err := rw.Provision(caddy.Context{}); err != nil {
		return unknown
	}
	from := req
	if from.PathUnknown {
		from.Path, from.PathUnknown = "/", false // the URI replaces it whole
	}
	r, err := pathmatch.NewRequest(from, repl)
	if err != nil {
		return unknown
	}
	rw.Rewrite(r, repl)
	req.Path, req.PathUnknown = r.URL.EscapedPath(), false
	return req
}
