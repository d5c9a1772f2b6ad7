package cli

import (
	"encoding/json"
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
	invoke string   // the named route an invoke handler runs
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
		case "invoke":
			n.invoke = h.Name
		}
		n.answers = answers(h.Handler, hraw)
		r.handle = append(r.handle, n)
	}
	return r, nil
}

// reach is what becomes of a request that check follows through a
// server's routes.
type reach int

const (
	reachUnknown reach = iota // it depends on the request: matchers check cannot evaluate
	reachYes                  // every way through the routes gets to the handler
	reachNo                   // none does
)

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
	won := make(map[string]bool, len(st.won)+1)
	for g := range st.won {
		won[g] = true
	}
	won[group] = true
	return state{st.req, won}
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

// maxSteps bounds the ways check follows; a config with more is
// answered "it depends".
const maxSteps = 10000

// follower follows requests through one server's routes to target.
type follower struct {
	srv    *server
	target *handlerNode
	steps  int
	depth  int
}

// reaches follows a GET request for path, to each of hosts (none: the
// host is not known), through srv's routes, and tells whether it gets to
// target; with reachNo, why not.
func (srv *server) reaches(target *handlerNode, hosts []string, path string) (reach, string) {
	if len(hosts) == 0 {
		hosts = []string{""}
	}
	result, why := reachUnknown, ""
	for i, h := range hosts {
		f := &follower{srv: srv, target: target}
		outs := f.list(srv.routes, state{req: pathmatch.Request{Path: path, Host: h}})
		r, w := reachUnknown, ""
		switch {
		case f.steps > maxSteps:
		case all(outs, kindReached):
			r = reachYes
		case none(outs, kindReached):
			r, w = reachNo, outs[0].describe()
		}
		if i == 0 {
			result, why = r, w
		} else if r != result {
			return reachUnknown, ""
		}
	}
	return result, why
}

func all(outs []outcome, k outcomeKind) bool {
	for _, o := range outs {
		if o.kind != k {
			return false
		}
	}
	return len(outs) > 0
}

func none(outs []outcome, k outcomeKind) bool {
	for _, o := range outs {
		if o.kind == k {
			return false
		}
	}
	return len(outs) > 0
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

// list follows st through routes.
func (f *follower) list(routes []*route, st state) []outcome {
	live := []state{st}
	var outs []outcome
	for _, r := range routes {
		var next []state
		for _, st := range live {
			if f.steps++; f.steps > maxSteps {
				return outs
			}
			if r.group != "" && st.won[r.group] {
				next = append(next, st)
				continue
			}
			takes, known := pathmatch.Sets(r.match, st.req)
			if !takes || !known {
				next = append(next, st) // not taken
			}
			if !takes {
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
					next = append(next, o.st)
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

// chain follows st through a route's handlers.
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
			if r := f.srv.named[h.invoke]; r != nil {
				sub = []*route{r}
			}
		case h.name == "rewrite":
			st.req = rewritten(h.raw, st.req)
			continue
		case h.answers:
			return []outcome{{kind: kindAnswered, by: h.name}}
		default:
			continue
		}
		if f.depth > 32 {
			f.steps = maxSteps + 1 // an invoke that invokes itself
			return nil
		}
		f.depth++
		outs := f.list(sub, st)
		f.depth--
		var all []outcome
		for _, o := range outs {
			if o.kind != kindNext {
				all = append(all, o)
				continue
			}
			all = append(all, f.chain(handlers[i+1:], o.st)...)
		}
		return all
	}
	return []outcome{{kind: kindNext, st: st}}
}

// rewritten is req after a rewrite handler, run with Caddy's own code; its
// path is not known after a rewrite that depends on the request.
func rewritten(raw json.RawMessage, req pathmatch.Request) pathmatch.Request {
	if req.PathUnknown {
		return req
	}
	var rw rewrite.Rewrite
	unknown := pathmatch.Request{PathUnknown: true, Host: req.Host}
	if json.Unmarshal(raw, &rw) != nil || rw.Method != "" {
		return unknown
	}
	repl := caddy.NewReplacer()
	uriPath, _, _ := strings.Cut(rw.URI, "?")
	for _, s := range []string{uriPath, rw.StripPathPrefix, rw.StripPathSuffix} {
		if strings.Contains(repl.ReplaceKnown(s, ""), "{") {
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
	r, err := pathmatch.NewRequest(req, repl)
	if err != nil {
		return unknown
	}
	rw.Rewrite(r, repl)
	return pathmatch.Request{Path: r.URL.EscapedPath(), Host: req.Host}
}
