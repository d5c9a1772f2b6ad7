package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/caddyserver/caddy/v2"
	"github.com/caddyserver/caddy/v2/caddyconfig"
	"github.com/caddyserver/caddy/v2/modules/caddyhttp"
	"golang.org/x/net/idna"

	"github.com/robotsguard/caddy-robots-txt/caddymodule/fetch"
	"github.com/robotsguard/caddy-robots-txt/caddymodule/include"
	"github.com/robotsguard/caddy-robots-txt/caddymodule/internal/pathmatch"
	"github.com/robotsguard/caddy-robots-txt/caddymodule/internal/text"
	"github.com/robotsguard/caddy-robots-txt/config"
	"github.com/robotsguard/caddy-robots-txt/robots"
)

// siteHandler is one robots_txt handler of a Caddy config, with the hosts
// of the routes it sits in ("" for none: every host).
type siteHandler struct {
	hosts []string
	ports []string // the ports its server listens on
	root  string   // the site root set before it, if static
	// match describes the matchers, other than host, of the routes it
	// sits in ("path /blog/*"); none: every request of its hosts.
	match []string
	// site is the host --site named, as requests name it (see
	// asRequested); "" when none was given.
	site string
	// inErrors is whether it sits in a subroute's error routes, which
	// only requests that failed reach.
	inErrors bool
	// srv is its server and node the handler in it, to follow requests
	// to it (see notReached).
	srv  *server
	node *handlerNode
	cfg  config.Config
	// answered names a handler that answers every request the handler
	// would see before it does ("static_response"): it then judges
	// nothing. "" when none does.
	answered string
}

// loadSiteConfig reads a Caddy config (a Caddyfile, adapted as Caddy
// would, or JSON) and returns the robots_txt handler of site; site may be
// "" when the config has one.
func loadSiteConfig(path, site string) (siteHandler, error) {
	body, err := os.ReadFile(path)
	if err != nil {
		return siteHandler{}, err
	}
	if !isJSONConfig(path, body) {
		adapter := caddyconfig.GetAdapter("caddyfile")
		if adapter == nil {
			return siteHandler{}, errors.New("the Caddyfile adapter is not in this build")
		}
		body, _, err = adapter.Adapt(body, map[string]any{"filename": path})
		if err != nil {
			return siteHandler{}, fmt.Errorf("adapting %s: %v", path, err)
		}
	}
	// As Caddy does before any module decodes: "@id" may stand in any
	// object.
	body = caddy.RemoveMetaFields(body)
	var cfg struct {
		Apps struct {
			HTTP struct {
				Servers map[string]struct {
					Listen      []string                   `json:"listen"`
					Routes      []json.RawMessage          `json:"routes"`
					NamedRoutes map[string]json.RawMessage `json:"named_routes"`
					Errors      *struct {
						Routes []json.RawMessage `json:"routes"`
					} `json:"errors"`
				} `json:"servers"`
			} `json:"http"`
		} `json:"apps"`
	}
	if err := json.Unmarshal(body, &cfg); err != nil {
		return siteHandler{}, fmt.Errorf("reading %s: %v", path, err)
	}
	var found []siteHandler
	// In the order of the servers' names, so that the same config always
	// gives the same answer.
	for _, name := range slices.Sorted(maps.Keys(cfg.Apps.HTTP.Servers)) {
		srv := cfg.Apps.HTTP.Servers[name]
		from := len(found)
		tree, err := parseServer(srv.Routes, srv.NamedRoutes)
		if err != nil {
			return siteHandler{}, fmt.Errorf("reading %s: %v", path, err)
		}
		answered := ""
		w := walker{srv: tree, found: &found}
		if err := w.walk(tree.routes, nil, nil, "", &answered); err != nil {
			return siteHandler{}, fmt.Errorf("reading %s: %v", path, err)
		}
		if srv.Errors != nil { // handle_errors
			errRoutes, err := parseRoutes(srv.Errors.Routes)
			if err == nil {
				err = w.walkErrors(errRoutes, nil, nil, "")
			}
			if err != nil {
				return siteHandler{}, fmt.Errorf("reading %s: %v", path, err)
			}
		}
		var ports []string
		for _, l := range srv.Listen {
			if i := strings.LastIndexByte(l, ':'); i >= 0 {
				ports = append(ports, l[i+1:])
			}
		}
		for i := from; i < len(found); i++ {
			found[i].ports = ports
		}
	}
	sh, err := pickSite(found, path, site)
	if err != nil {
		return siteHandler{}, err
	}
	if site != "" {
		host, _ := splitSite(site)
		sh.site = asRequested(host)
	}
	return sh, nil
}

// isJSONConfig tells a JSON config from a Caddyfile, as caddy run does:
// by the name, and else by the first byte.
func isJSONConfig(path string, body []byte) bool {
	if strings.HasSuffix(path, ".json") {
		return true
	}
	if strings.HasPrefix(filepath.Base(path), "Caddyfile") || strings.HasSuffix(path, ".caddyfile") || strings.HasSuffix(path, ".Caddyfile") {
		return false
	}
	trimmed := strings.TrimSpace(string(body))
	return strings.HasPrefix(trimmed, "{") && json.Valid(body)
}

// parseServer reads a server's routes and named routes.
func parseServer(routes []json.RawMessage, named map[string]json.RawMessage) (*server, error) {
	rs, err := parseRoutes(routes)
	if err != nil {
		return nil, err
	}
	srv := &server{routes: rs, named: make(map[string]*route, len(named))}
	for name, raw := range named {
		r, err := parseRoute(raw)
		if err != nil {
			return nil, fmt.Errorf("named route %q: %v", name, err)
		}
		srv.named[name] = r
	}
	return srv, nil
}

// walker collects the robots_txt handlers of a server.
type walker struct {
	srv      *server
	found    *[]siteHandler
	invoking []string // the named routes being walked, innermost last
	// groups are the route groups met so far: a route of a group met
	// before runs only for requests no earlier route of it took.
	groups map[string]bool
	// inErrors counts the subroute error routes being walked.
	inErrors int
}

// walk collects the robots_txt handlers of routes, with the hosts and
// other matchers of their enclosing routes, the root a vars handler set
// before them, and the handler that answers every request before they see
// it, if one does. *answered is that handler as the routes are entered,
// and, on return, as they leave it: a route with no matchers whose chain
// answers stops every route after it.
func (w *walker) walk(routes []*route, hosts, match []string, root string, answered *string) error {
	for _, r := range routes {
		// The route limits the hosts only when every one of its
		// matcher sets names some: a set without one takes any host.
		rh, limits := hosts, len(r.match) > 0
		var hs []string
		for _, m := range r.match {
			h, ok := m["host"]
			if !ok {
				limits = false
				continue
			}
			var more []string
			if err := json.Unmarshal(h, &more); err != nil {
				return err
			}
			hs = append(hs, more...)
		}
		if limits {
			rh = append(slices.Clone(rh), hs...)
		}
		rm := match
		if d := pathmatch.Describe(r.match, false); d != "" {
			rm = append(slices.Clone(rm), d)
		}
		// What answers before the next handler of this route's chain.
		chain := *answered
		for _, h := range r.handle {
			var sub []*route
			switch h.name {
			case "vars":
				var v struct {
					Root string `json:"root"`
				}
				if err := json.Unmarshal(h.raw, &v); err != nil {
					return err
				}
				if v.Root != "" {
					root = v.Root
				}
			case "subroute":
				sub = h.routes
			case "invoke":
				if nr := w.srv.named[h.invoke]; nr != nil && !slices.Contains(w.invoking, h.invoke) {
					sub = []*route{nr}
				}
			case "robots_txt":
				var c config.Config
				if err := json.Unmarshal(h.raw, &c); err != nil {
					return fmt.Errorf("robots_txt handler: %v", err)
				}
				// A named route invoked twice in one site holds
				// one handler.
				if !slices.ContainsFunc(*w.found, func(f siteHandler) bool { return f.node == h && slices.Equal(f.hosts, rh) }) {
					*w.found = append(*w.found, siteHandler{hosts: rh, root: root, match: rm, srv: w.srv, node: h, cfg: c, answered: chain, inErrors: w.inErrors > 0})
				}
			}
			if sub != nil {
				s := chain
				if h.name == "invoke" {
					w.invoking = append(w.invoking, h.invoke)
				}
				err := w.walk(sub, rh, rm, root, &s)
				if h.name == "invoke" {
					w.invoking = w.invoking[:len(w.invoking)-1]
				}
				if err != nil {
					return err
				}
				if len(h.errRoutes) == 0 { // else its error routes may go on with the chain
					chain = s
				}
			}
			if err := w.walkErrors(h.errRoutes, rh, rm, root); err != nil {
				return err
			}
			if chain == "" && h.answers {
				chain = h.name
			}
		}
		// A route with no matchers runs for every request, unless an
		// earlier route of its group took some.
		if len(r.match) == 0 && !w.groups[r.group] {
			*answered = chain
		}
		if r.group != "" {
			if w.groups == nil {
				w.groups = make(map[string]bool)
			}
			w.groups[r.group] = true
		}
	}
	return nil
}

// walkErrors collects the robots_txt handlers of error routes (a
// subroute's, or the server's handle_errors). Such a handler judges only
// requests that failed, which check cannot follow (see notReached), and
// what answers in them answers no request of the routes around them.
func (w *walker) walkErrors(routes []*route, hosts, match []string, root string) error {
	w.inErrors++
	defer func() { w.inErrors-- }()
	return w.walk(routes, hosts, match, root, new(string))
}

// answers reports whether a handler answers every request it gets
// without passing it on, so that no handler after it in the chain runs.
func answers(name string, raw json.RawMessage) bool {
	switch name {
	case "static_response":
		// Early hints (103) are not the response: Caddy goes on with
		// the chain after them; a status from a placeholder may be.
		var sr struct {
			StatusCode json.RawMessage `json:"status_code"`
		}
		_ = json.Unmarshal(raw, &sr)
		code := strings.Trim(string(sr.StatusCode), `"`)
		return code != "103" && !strings.Contains(code, "{")
	case "error", "copy_response", "metrics":
		return true
	case "reverse_proxy":
		// handle_response runs its routes for a response it matches,
		// compiled with the next handler: they pass the request on
		// unless they answer it (forward_auth's pass a 2xx on; respond
		// "down" 503 answers). The proxy answers every request only if
		// every handle_response answers whatever it matches.
		var rp struct {
			HandleResponse []struct {
				StatusCode json.RawMessage   `json:"status_code"`
				Routes     []json.RawMessage `json:"routes"`
			} `json:"handle_response"`
		}
		_ = json.Unmarshal(raw, &rp)
		for _, hr := range rp.HandleResponse {
			if len(hr.Routes) == 0 {
				if len(hr.StatusCode) == 0 {
					return false // passes the request on
				}
				continue
			}
			routes, err := parseRoutes(hr.Routes)
			if err != nil {
				return false
			}
			answered := ""
			var ignored []siteHandler
			w := walker{srv: &server{}, found: &ignored}
			if err := w.walk(routes, nil, nil, "", &answered); err != nil || answered == "" {
				return false
			}
		}
		return true
	case "file_server":
		var fs struct {
			PassThru bool `json:"pass_thru"`
		}
		_ = json.Unmarshal(raw, &fs)
		return !fs.PassThru
	}
	return false
}

// notReached says why a GET request for path, to any host of the
// handler's site, never reaches the handler; "" when it does, or when the
// request decides (a matcher check cannot evaluate).
func (s siteHandler) notReached(path string) string {
	return s.notReachedFrom(s.requestHosts(), path)
}

// requestHosts are the hosts a request to the site may name: the one
// --site names, else the handler's.
func (s siteHandler) requestHosts() []string {
	if s.site != "" {
		return []string{s.site}
	}
	return s.hosts
}

// asRequested is a host as a request names it: in ASCII (Caddy's host
// matcher turns the config's names to ASCII, and clients send them so),
// lower-case; "" (not known) for a pattern, a wildcard or a placeholder,
// which no request names as written.
func asRequested(host string) string {
	if strings.ContainsAny(host, "*{") {
		return ""
	}
	ascii, err := idna.ToASCII(host)
	if err != nil {
		return ""
	}
	return strings.ToLower(ascii)
}

func (s siteHandler) notReachedFrom(hosts []string, path string) string {
	if s.srv == nil || s.inErrors {
		return ""
	}
	as := make([]string, 0, len(hosts))
	for _, h := range hosts {
		if a := asRequested(h); !slices.Contains(as, a) {
			as = append(as, a)
		}
	}
	why, no := s.srv.notReached(s.node, as, path)
	switch {
	case !no:
		return ""
	case why != "":
		return why
	case len(s.match) > 0:
		return "no route takes it to the handler, which sits in routes for " + strings.Join(s.match, " and ")
	}
	return "no route of the site takes it to the handler"
}

// notJudged is notReached for a target of check: a path, or a URL, whose
// host is then the request's.
func (s siteHandler) notJudged(target string) string {
	host, path, ok := targetParts(target)
	if !ok {
		return ""
	}
	hosts := s.requestHosts()
	if host != "" {
		hosts = []string{host}
	}
	return s.notReachedFrom(hosts, path)
}

// targetParts splits a target of check into the host a URL names, as
// requests name it ("" for a path), and its escaped path without the
// query; ok is false for a URL that does not parse.
func targetParts(target string) (host, path string, ok bool) {
	if hasScheme(target) {
		u, err := url.Parse(target)
		if err != nil {
			return "", "", false
		}
		return asRequested(u.Hostname()), u.EscapedPath(), true
	}
	path, _, _ = strings.Cut(target, "?")
	return "", path, true
}

// String names the handler by the requests it takes and the robots.txt
// it reads, as a message that lists several handlers must.
func (s siteHandler) String() string {
	where := "every request"
	if len(s.match) > 0 {
		where = strings.Join(s.match, " and ")
	}
	c := s.cfg
	what := "robots.txt in the site root"
	switch {
	case c.Inline != "":
		what = "inline text"
	case c.URL != "":
		what = "url " + c.URL
	case c.File != "":
		what = "file " + c.File
	}
	return where + " (" + what + ")"
}

func pickSite(found []siteHandler, path, site string) (siteHandler, error) {
	if len(found) == 0 {
		return siteHandler{}, fmt.Errorf("%s has no robots_txt handler", path)
	}
	if site == "" {
		switch {
		case len(found) == 1:
			return found[0], nil
		case slices.ContainsFunc(found[1:], func(f siteHandler) bool { return !sameSite(f, found[0]) }):
			return siteHandler{}, fmt.Errorf("%s has %d robots_txt handlers; say which site with --site (%s)", path, len(found), siteList(found))
		}
		return siteHandler{}, severalHandlers(path, found)
	}
	// --site is a host, with a port if the config's sites differ by it
	// ("localhost:8081"). A handler of every host (no host matcher) takes
	// it only when its server listens on that port, or no port is given;
	// one that names the host comes first.
	host, port := splitSite(site)
	onPort := func(f siteHandler) bool { return port == "" || len(f.ports) == 0 || slices.Contains(f.ports, port) }
	// As Caddy orders sites: one that names the host, then one whose
	// wildcard takes it, then one of every host.
	named := func(f siteHandler) bool {
		return onPort(f) && slices.ContainsFunc(f.hosts, func(h string) bool { return strings.EqualFold(h, host) || strings.EqualFold(h, site) })
	}
	wildcard := func(f siteHandler) bool { return onPort(f) && servesHost(f.hosts, host) }
	everyHost := func(f siteHandler) bool { return len(f.hosts) == 0 && onPort(f) }
	for _, of := range []func(siteHandler) bool{named, wildcard, everyHost} {
		var hs []siteHandler
		others := false
		for _, f := range found {
			switch {
			case !of(f):
			case len(hs) == 0 || sameSite(f, hs[0]):
				hs = append(hs, f)
			default:
				others = true
			}
		}
		switch {
		case others:
			// Sites told apart by port (":8081", ":8082") both take a
			// host with no port: answering for the first would be a
			// guess at which one the operator meant.
			return siteHandler{}, fmt.Errorf("%s: more than one site answers %q; name the port too, as in --site %s (its sites: %s)",
				path, site, net.JoinHostPort(host, "PORT"), siteList(found))
		case len(hs) == 1:
			return hs[0], nil
		case len(hs) > 1:
			return siteHandler{}, severalHandlers(path, hs)
		}
	}
	return siteHandler{}, fmt.Errorf("%s has no robots_txt handler for site %q; its sites: %s", path, site, siteList(found))
}

// splitSite splits --site into its host and its port, "" when it names
// none.
func splitSite(site string) (host, port string) {
	if h, p, err := net.SplitHostPort(site); err == nil {
		return h, p
	}
	return site, ""
}

// hostPlaceholder is a placeholder of the request's host or its labels.
var hostPlaceholder = regexp.MustCompile(`^\{http\.request\.host(\.labels\.\d+)?\}$`)

// onlyHostPlaceholders reports whether every placeholder left in path is
// one of the request's host.
func onlyHostPlaceholders(path string) bool {
	for rest := path; ; {
		i := strings.IndexByte(rest, '{')
		if i < 0 {
			return true
		}
		j := strings.IndexByte(rest[i:], '}')
		if j < 0 || !hostPlaceholder.MatchString(rest[i:i+j+1]) {
			return false
		}
		rest = rest[i+j+1:]
	}
}

// servesHost reports whether a request for host is one the host patterns
// take, as Caddy's host matcher decides ("a.localhost" for
// "*.localhost").
func servesHost(patterns []string, host string) bool {
	h := asRequested(host)
	if len(patterns) == 0 || h == "" {
		return false
	}
	takes, known := pathmatch.Host(patterns, h)
	return takes && known
}

// sameSite tells whether two handlers are of one site: the same hosts on
// the same ports.
func sameSite(a, b siteHandler) bool {
	return slices.Equal(a.hosts, b.hosts) && slices.Equal(a.ports, b.ports)
}

// severalHandlers refuses a site with more than one robots_txt handler (a
// matcher each, say). A request may pass through several of them, and
// check, which judges by one robots.txt and evaluates no matcher, would
// answer for the first alone.
func severalHandlers(path string, hs []siteHandler) error {
	names := make([]string, len(hs))
	for i, h := range hs {
		names[i] = h.String()
	}
	return fmt.Errorf("%s: site %s has %d robots_txt handlers: %s; check judges by one robots.txt: check each file with --file",
		path, siteList(hs[:1]), len(hs), strings.Join(names, "; "))
}

// siteList names the sites of found, each once.
func siteList(found []siteHandler) string {
	var names []string
	add := func(n string) {
		if !slices.Contains(names, n) {
			names = append(names, n)
		}
	}
	for _, f := range found {
		if len(f.hosts) == 0 {
			// Sites of every host told apart by port: --site :8081.
			for _, p := range f.ports {
				add(":" + p)
			}
			if len(f.ports) == 0 {
				add("(every host)")
			}
		}
		for _, h := range f.hosts {
			add(h)
		}
	}
	return strings.Join(names, ", ")
}

// robotsPath is the path of the robots.txt file the handler reads, its
// placeholders of the environment filled in; those of the request left.
func (s siteHandler) robotsPath() string {
	path := s.cfg.File
	if path == "" {
		root := s.root
		if root == "" {
			root = "."
		}
		path = filepath.Join(root, "robots.txt")
	}
	return caddy.NewReplacer().ReplaceKnown(path, "")
}

// perHost reports whether the handler reads a robots.txt of each host
// ("/srv/{host}/robots.txt"), which check reads for the host --site names.
func (s siteHandler) perHost() bool {
	if s.cfg.Inline != "" || s.cfg.URL != "" {
		return false
	}
	path := s.robotsPath()
	return strings.Contains(path, "{") && onlyHostPlaceholders(path)
}

// robotsBody returns the robots.txt the handler would load, and how to
// name it: the file, the inline text, or the upstream's answer.
func (s siteHandler) robotsBody() ([]byte, string, error) {
	c := s.cfg
	switch {
	case c.Inline != "":
		return []byte(c.Inline), "inline", nil
	case c.URL != "":
		u, err := config.ResolveURL(c.URL)
		if err != nil {
			return nil, c.URL, fmt.Errorf("the handler refuses to load: %v", err)
		}
		return fetchRobots(u)
	}
	path := s.robotsPath()
	if s.site != "" && onlyHostPlaceholders(path) {
		// A root per host ("/srv/{host}"): --site names the host,
		// and the handler reads this file for its requests.
		if r, err := http.NewRequest(http.MethodGet, "http://"+s.site+"/robots.txt", nil); err == nil {
			path = caddyhttp.NewTestReplacer(r).ReplaceKnown(path, "")
		}
	}
	if strings.Contains(path, "{") {
		return nil, path, fmt.Errorf("the robots.txt path %s depends on the request; give the file with --file, or the site's host with --site", path)
	}
	body, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		// Without file, the handler learns the root per request, and
		// strict can fail no load for it.
		if c.Strict && c.File != "" {
			return nil, path, fmt.Errorf("strict: robots.txt %s does not exist; the handler refuses to load", path)
		}
		// The handler allows every bot everywhere until it appears.
		return nil, path + " (does not exist: every bot is allowed until it appears)", nil
	}
	return body, path, err
}

// servedBody returns the robots.txt the handler would enforce: the site's
// file with its included lists merged, how to name it, where each of its
// lines comes from (nil without lists), and what was left out along the
// way. The trap's lines, which the handler adds to what it
// serves, are not in it, so that line numbers are those the logs give;
// the trap is judged apart (Subject.Trap), as the handler judges it.
func (s siteHandler) servedBody() (body []byte, name string, origin *include.Merged, warnings []string, err error) {
	body, name, err = s.robotsBody()
	if err != nil {
		return nil, name, nil, nil, err
	}
	// The lists as the handler reads them: a config it refuses to load
	// is no answer.
	incs, err := config.ResolveIncludes(s.cfg.Include)
	if err == nil && s.cfg.Strict {
		err = config.StrictIncludes(incs)
	}
	if err != nil {
		return nil, name, nil, nil, fmt.Errorf("the handler refuses to load: %v", err)
	}
	if len(incs) > 0 {
		var lists []include.Source
		for _, inc := range incs {
			b, err := readInclude(inc)
			if err != nil {
				// As the handler does: a list it cannot read is left out.
				warnings = append(warnings, fmt.Sprintf("include %s: %v; left out, as the handler leaves it out", inc, err))
				continue
			}
			lists = append(lists, include.Source{Name: inc, Body: b})
		}
		m := include.Merge(include.Source{Name: name, Body: body}, lists...)
		body, origin, warnings = m.Body, m, append(warnings, m.Warnings...)
		name += " with " + strings.Join(incs, ", ")
	}
	if s.cfg.Trap != "" && body != nil {
		name += " and the trap " + s.cfg.Trap
	}
	return body, name, origin, warnings, nil
}

// readInclude reads an included list, a file or an http(s) URL resolved
// by config.ResolveIncludes, as the handler would.
func readInclude(inc string) ([]byte, error) {
	if config.IsIncludeURL(inc) {
		b, _, err := fetchRobots(inc)
		if err != nil {
			return nil, err
		}
		return include.ReadList(bytes.NewReader(b))
	}
	f, err := os.Open(inc)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return include.ReadList(f)
}

// fetchRobots fetches an upstream's robots.txt once, as the handler's
// first load would (fetch.Get): its text, the name to show for it (with
// what the answer means when it is no robots.txt), or, for an answer the
// handler reads as a failure, an error.
func fetchRobots(url string) ([]byte, string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), fetch.Timeout)
	defer cancel()
	res := fetch.Get(ctx, fetch.NewClient(), url)
	switch res.Outcome {
	case fetch.Loaded:
		if res.Cut {
			// As the handler (and Google) read it: the first 500 KiB.
			return res.Body, url + fmt.Sprintf(" (cut at %s bytes, as the handler reads it)", text.Group3(robots.DefaultMaxSize)), nil
		}
		return res.Body, url, nil
	case fetch.NoFile:
		if res.Status == 0 {
			return nil, url + fmt.Sprintf(" (more than %d redirects: no robots.txt, every bot allowed)", robots.MaxRedirects), nil
		}
		// The status line is the upstream's to write: no control
		// character of it reaches the terminal.
		status := text.Clean(res.StatusLine)
		if res.Status < 400 {
			// A redirect not followed (no Location, or 300, 305, which
			// Go's client does not follow).
			return nil, url + " (" + status + ", a redirect not followed: no robots.txt, every bot allowed)", nil
		}
		return nil, url + " (" + status + ": no robots.txt, every bot allowed)", nil
	}
	// What the handler reads as a failure (5xx, 429, 304, a page that
	// is no robots.txt, a redirect to this machine) keeps the rules in
	// force, and allows every bot while there are none: check cannot
	// tell which, so it says what failed.
	if res.Status >= 200 && res.Status < 300 {
		return nil, url, fmt.Errorf("the upstream answered %d, but %v: the handler neither serves nor enforces it", res.Status, res.Err)
	}
	return nil, url, fmt.Errorf("%s: the handler reads this as a failure, keeping the rules it had and allowing every bot while it has none", text.Clean(res.Err.Error()))
}
