package caddymodule

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/caddyserver/caddy/v2"
	"github.com/caddyserver/caddy/v2/modules/caddyhttp"
	"github.com/caddyserver/caddy/v2/modules/caddyhttp/rewrite"
	_ "github.com/caddyserver/caddy/v2/modules/filestorage"
	"go.uber.org/zap/zapcore"

	"github.com/robotsguard/caddy-robots-txt/caddymodule/webbotauth"
	"github.com/robotsguard/caddy-robots-txt/config"
	"github.com/robotsguard/caddy-robots-txt/internal/testfixtures"
)

// trapTestRobots is the robots.txt of the trap's reach tests.
const trapTestRobots = "User-agent: *\nDisallow: /private/\n"

// TestTrapReach: a handler whose routes keep GET /robots.txt from it
// turns its trap off, with one ERROR naming the trap and the matcher,
// since the robots.txt clients get does not disallow the trap: a browser
// that requests the trap is not held afterwards. Routes that take
// /robots.txt, or whose matchers depend on what the check cannot know
// (a header, a path after a rewrite), leave the trap on; routes that do not
// take the trap path leave it on but say it never springs.
func TestTrapReach(t *testing.T) {
	path := func(p ...string) any { m := caddyhttp.MatchPath(p); return &m }
	method := func(m ...string) any { mm := caddyhttp.MatchMethod(m); return &mm }
	host := func(hs ...string) any {
		m := caddyhttp.MatchHost(hs)
		if err := m.Provision(caddy.Context{}); err != nil {
			t.Fatal(err)
		}
		return &m
	}
	header := &caddyhttp.MatchHeader{"X-A": []string{"1"}}
	not := func(sets ...caddyhttp.MatcherSet) any { return &caddyhttp.MatchNot{MatcherSets: sets} }
	route := func(h caddyhttp.MiddlewareHandler, sets ...caddyhttp.MatcherSet) caddyhttp.Route {
		return caddyhttp.Route{MatcherSets: sets, Handlers: []caddyhttp.MiddlewareHandler{h}}
	}
	sub := func(routes ...caddyhttp.Route) *caddyhttp.Subroute { return &caddyhttp.Subroute{Routes: routes} }
	rw := &rewrite.Rewrite{URI: "/app{path}"}

	for _, tc := range []struct {
		name   string
		routes func(h *Handler) caddyhttp.RouteList
		off    bool   // the trap is turned off
		log    string // the ERROR logged; "" for none
	}{
		{"no matcher", func(h *Handler) caddyhttp.RouteList {
			return caddyhttp.RouteList{route(h)}
		}, false, ""},
		{"a path matcher that takes neither", func(h *Handler) caddyhttp.RouteList {
			return caddyhttp.RouteList{route(h, caddyhttp.MatcherSet{path("/blog/*")})}
		}, true, "trap off: requests for /robots.txt do not reach this handler"},
		{"a path matcher that takes both", func(h *Handler) caddyhttp.RouteList {
			return caddyhttp.RouteList{route(h, caddyhttp.MatcherSet{path("/robots.txt", "/blog/*")})}
		}, false, ""},
		{"a method that a GET is not", func(h *Handler) caddyhttp.RouteList {
			return caddyhttp.RouteList{route(h, caddyhttp.MatcherSet{method("POST")})}
		}, true, "trap off"},
		{"not /robots.txt", func(h *Handler) caddyhttp.RouteList {
			return caddyhttp.RouteList{route(h, caddyhttp.MatcherSet{not(caddyhttp.MatcherSet{path("/robots.txt")})})}
		}, true, "trap off"},
		{"a subroute under a path matcher", func(h *Handler) caddyhttp.RouteList {
			return caddyhttp.RouteList{route(sub(route(h)), caddyhttp.MatcherSet{path("/blog/*")})}
		}, true, "trap off"},
		{"a path matcher after a rewrite", func(h *Handler) caddyhttp.RouteList {
			return caddyhttp.RouteList{route(rw), route(sub(route(h, caddyhttp.MatcherSet{path("/app/*")})))}
		}, false, ""},
		{"a path matcher in a subroute after no rewrite", func(h *Handler) caddyhttp.RouteList {
			return caddyhttp.RouteList{route(sub(route(h, caddyhttp.MatcherSet{path("/blog/*")})))}
		}, true, "trap off"},
		{"a header matcher", func(h *Handler) caddyhttp.RouteList {
			return caddyhttp.RouteList{route(h, caddyhttp.MatcherSet{header})}
		}, false, ""},
		{"a header matcher and a path that takes neither", func(h *Handler) caddyhttp.RouteList {
			return caddyhttp.RouteList{route(h, caddyhttp.MatcherSet{header, path("/blog/*")})}
		}, true, "trap off"},
		{"the request's host, or a path", func(h *Handler) caddyhttp.RouteList {
			return caddyhttp.RouteList{route(h, caddyhttp.MatcherSet{host("a.example")}, caddyhttp.MatcherSet{path("/blog/*")})}
		}, false, ""},
		{"another host, or a path", func(h *Handler) caddyhttp.RouteList {
			return caddyhttp.RouteList{route(h, caddyhttp.MatcherSet{host("b.example")}, caddyhttp.MatcherSet{path("/blog/*")})}
		}, true, "trap off"},
		{"a path matcher that takes /robots.txt only", func(h *Handler) caddyhttp.RouteList {
			return caddyhttp.RouteList{route(h, caddyhttp.MatcherSet{path("/robots.txt", "/other/*")})}
		}, false, "trap never springs: requests for the trap path do not reach this handler"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h, logs := newTestHandler(t, config.Config{Inline: trapTestRobots, Trap: "/blog/trap/", TrapAction: config.TrapBlock, Share: "off"})
			srv := &caddyhttp.Server{Routes: tc.routes(h)}
			get := func(p string) int {
				r := withIP(newRequest("GET", "http://a.example"+p, testfixtures.UAFirefox), "198.51.100.9")
				r = r.WithContext(context.WithValue(r.Context(), caddyhttp.ServerCtxKey, srv))
				w, err := serve(h, r)
				if err != nil {
					return http.StatusForbidden
				}
				return w.Code
			}
			trapStatus, after := get("/blog/trap/"), get("/blog/post")
			wantTrap, wantAfter := http.StatusNotFound, http.StatusForbidden
			if tc.off {
				wantTrap, wantAfter = http.StatusOK, http.StatusOK
			}
			if trapStatus != wantTrap || after != wantAfter {
				t.Errorf("a browser on the trap, then on a page: %d, %d; want %d, %d", trapStatus, after, wantTrap, wantAfter)
			}
			errs := logs.FilterLevelExact(zapcore.ErrorLevel).All()
			switch {
			case tc.log == "" && len(errs) > 0:
				t.Errorf("ERROR logged: %q", errs[0].Message)
			case tc.log != "" && len(errs) != 1:
				t.Errorf("%d ERRORs logged, want one saying %q", len(errs), tc.log)
			case tc.log != "":
				fields := errs[0].ContextMap()
				if !strings.HasPrefix(errs[0].Message, tc.log) || fields["trap"] != "/blog/trap/" || fields["not_taken_by"] == "" {
					t.Errorf("ERROR %q %v; want one saying %q, with the trap and the matcher", errs[0].Message, fields, tc.log)
				}
			}
		})
	}
}

// capturedLog holds what Caddy's default log writes in TestTrapReachLoaded.
var capturedLog struct {
	sync.Mutex
	strings.Builder
}

// logCapture is a Caddy log writer into capturedLog.
type logCapture struct{}

func (logCapture) CaddyModule() caddy.ModuleInfo {
	return caddy.ModuleInfo{
		ID:  "caddy.logging.writers.robots_txt_test_capture",
		New: func() caddy.Module { return new(logCapture) },
	}
}

func (logCapture) String() string                      { return "robots_txt test capture" }
func (logCapture) WriterKey() string                   { return "robots_txt_test_capture" }
func (logCapture) OpenWriter() (io.WriteCloser, error) { return logCapture{}, nil }
func (logCapture) Close() error                        { return nil }

func (logCapture) Write(p []byte) (int, error) {
	capturedLog.Lock()
	defer capturedLog.Unlock()
	return capturedLog.WriteString(string(p))
}

func init() { caddy.RegisterModule(logCapture{}) }

// TestTrapReachLoaded: the audit's JSON config (U-F2), loaded by Caddy:
// the trap of a handler under a path matcher that does not take
// /robots.txt is turned off when the configuration starts, with one ERROR,
// before any request, so that a browser that requests it is not blocked
// afterwards; the same handler on a route without a matcher traps it.
func TestTrapReachLoaded(t *testing.T) {
	// Crawler verification stays offline: the handlers take the checker
	// their settings share, made here (see loadChecker).
	if _, _, err := checkers.LoadOrNew(checkerKey(config.Config{}), func() (caddy.Destructor, error) {
		return newChecker(config.Config{}, *offlineVerify, webbotauth.Options{})
	}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _, _ = checkers.Delete(checkerKey(config.Config{})) })
	capturedLog.Lock()
	capturedLog.Reset()
	capturedLog.Unlock()

	// Two addresses: Caddy refuses one listener address for two servers.
	server := func(addr, match, inline string) string {
		return fmt.Sprintf(`{
			"listen": [%q],
			"automatic_https": {"disable": true},
			"routes": [
				{%s"handle": [{"handler": "robots_txt", "inline": %q, "trap": "/blog/trap/", "trap_action": "block", "share": "off"}]},
				{"handle": [{"handler": "static_response", "body": "page {http.request.uri.path}"}]}
			]
		}`, addr, match, inline)
	}
	cfg := fmt.Sprintf(`{
		"admin": {"disabled": true, "config": {"persist": false}},
		"storage": {"module": "file_system", "root": %q},
		"logging": {"logs": {"default": {"writer": {"output": "robots_txt_test_capture"}, "level": "INFO"}}},
		"apps": {"http": {"servers": {"under_blog": %s, "everywhere": %s}}}
	}`, t.TempDir(), server("127.0.0.1:0", `"match": [{"path": ["/blog/*"]}], `, trapTestRobots),
		server("127.0.0.2:0", "", trapTestRobots+"Disallow: /x/\n"))
	if err := caddy.Load([]byte(cfg), true); err != nil {
		t.Fatalf("load: %v", err)
	}
	t.Cleanup(func() {
		if err := caddy.Stop(); err != nil {
			t.Errorf("stop: %v", err)
		}
		// Caddy's default log stays where the last configuration put it:
		// a configuration without logging puts it back on stderr.
		if err := caddy.Load([]byte(`{"admin": {"disabled": true, "config": {"persist": false}}}`), true); err != nil {
			t.Errorf("load an empty configuration: %v", err)
		}
		if err := caddy.Stop(); err != nil {
			t.Errorf("stop: %v", err)
		}
	})

	// Said at load, before any request.
	var errs []map[string]any
	capturedLog.Lock()
	for line := range strings.Lines(capturedLog.String()) {
		var e map[string]any
		if json.Unmarshal([]byte(line), &e) == nil && e["level"] == "error" {
			errs = append(errs, e)
		}
	}
	capturedLog.Unlock()
	if len(errs) != 1 || !strings.HasPrefix(fmt.Sprint(errs[0]["msg"]), "trap off: requests for /robots.txt do not reach this handler") ||
		errs[0]["trap"] != "/blog/trap/" || errs[0]["not_taken_by"] != "path /blog/*" {
		t.Errorf("ERRORs at load: %v; want one turning the trap off, naming the trap and path /blog/*", errs)
	}

	app, err := caddy.ActiveContext().App("http")
	if err != nil {
		t.Fatal(err)
	}
	client := &http.Client{Timeout: 10 * time.Second}
	t.Cleanup(client.CloseIdleConnections)
	for _, tc := range []struct {
		server          string
		trap, afterTrap int
	}{
		{"under_blog", http.StatusOK, http.StatusOK},
		{"everywhere", http.StatusNotFound, http.StatusForbidden},
	} {
		t.Run(tc.server, func(t *testing.T) {
			addr := app.(*caddyhttp.App).Servers[tc.server].Listeners()[0].Addr().String()
			get := func(p string) int {
				req, err := http.NewRequest(http.MethodGet, "http://"+addr+p, nil)
				if err != nil {
					t.Fatal(err)
				}
				req.Header.Set("User-Agent", testfixtures.UAFirefox)
				resp, err := client.Do(req)
				if err != nil {
					t.Fatal(err)
				}
				resp.Body.Close()
				return resp.StatusCode
			}
			if got, after := get("/blog/trap/"), get("/blog/post"); got != tc.trap || after != tc.afterTrap {
				t.Errorf("a browser on the trap, then on a page: %d, %d; want %d, %d", got, after, tc.trap, tc.afterTrap)
			}
		})
	}
}

// TestRewriteKeepsPrefix: a substring replacement, or a rewrite to
// A{path}B, keeps a path a prefix matcher takes under it only where it
// cannot touch the prefix, or puts it back (audit AF-F5).
func TestRewriteKeepsPrefix(t *testing.T) {
	for _, tc := range []struct {
		prefix, find, repl string
		keeps              bool
	}{
		{"/private/", "/old/", "/new/", true},
		{"/private/", "/old/", "", false},
		{"/private/", "/private/", "/public/", false},
		{"/private/", "vate", "vate", true},
		{"/private/", "e/", "e/", true},
		{"/private/", "e/", "x/", false},
		{"/private/", "", "x", true},
		{"/blog/", ".html", "", true},
	} {
		if got := keepsPrefix(tc.prefix, tc.find, tc.repl); got != tc.keeps {
			t.Errorf("keepsPrefix(%q, %q, %q) = %v, want %v", tc.prefix, tc.find, tc.repl, got, tc.keeps)
		}
	}
	sets := caddyhttp.MatcherSets{{&caddyhttp.MatchPath{"/blog/*"}}}
	for _, tc := range []struct {
		uri   string
		keeps bool
	}{
		{"/blog{path}.html", true},
		{"{path}.html", true},
		{"/archive{path}", false},
		{"/blog{path}{query}", false},
		{"/b{path}", false},
		{"/blog{http.request.uri.path}", true},
		{"/blog/{file}", false},
	} {
		if got := prefixedPath(tc.uri, sets); got != tc.keeps {
			t.Errorf("prefixedPath(%q) = %v, want %v", tc.uri, got, tc.keeps)
		}
	}
	if _, ok := pathPrefixes(caddyhttp.MatcherSets{{&caddyhttp.MatchPath{"/blog/*.html"}}}); ok {
		t.Error("a pattern with a wildcard past its prefix read as a prefix")
	}
}

// TestRouteChecksAtValidate: caddy validate, which provisions a
// configuration and cleans it up without starting it, logs what the checks
// of the handler's routes find, as a run does at its start: a trap under a
// route that keeps /robots.txt from the handler.
func TestRouteChecksAtValidate(t *testing.T) {
	if _, _, err := checkers.LoadOrNew(checkerKey(config.Config{}), func() (caddy.Destructor, error) {
		return newChecker(config.Config{}, *offlineVerify, webbotauth.Options{})
	}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _, _ = checkers.Delete(checkerKey(config.Config{})) })
	for _, tc := range []struct {
		name, match string
		want        bool // the trap is said to be off
	}{
		{"under a path matcher that does not take /robots.txt", `"match": [{"path": ["/blog/*"]}], `, true},
		{"on every path", "", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			capturedLog.Lock()
			capturedLog.Reset()
			capturedLog.Unlock()
			raw := fmt.Sprintf(`{
				"admin": {"disabled": true, "config": {"persist": false}},
				"storage": {"module": "file_system", "root": %q},
				"logging": {"logs": {"default": {"writer": {"output": "robots_txt_test_capture"}, "level": "INFO"}}},
				"apps": {"http": {"servers": {"site": {
					"listen": ["127.0.0.1:0"],
					"automatic_https": {"disable": true},
					"routes": [
						{%s"handle": [{"handler": "robots_txt", "inline": %q, "trap": "/blog/trap/", "trap_action": "block", "share": "off"}]},
						{"handle": [{"handler": "static_response", "body": "page"}]}
					]
				}}}}
			}`, t.TempDir(), tc.match, trapTestRobots)
			var cfg caddy.Config
			if err := json.Unmarshal([]byte(raw), &cfg); err != nil {
				t.Fatal(err)
			}
			if err := caddy.Validate(&cfg); err != nil {
				t.Fatalf("validate: %v", err)
			}
			capturedLog.Lock()
			logged := capturedLog.String()
			capturedLog.Unlock()
			if got := strings.Contains(logged, "trap off: requests for /robots.txt do not reach this handler"); got != tc.want {
				t.Errorf("validate logged the trap off: %v, want %v; log:\n%s", got, tc.want, logged)
			}
		})
	}
}

// TestRobotsReach: without a trap, a handler whose routes keep GET
// /robots.txt from it says so at a WARN, naming the matcher, since
// clients read another robots.txt and no fetch is recorded (audit
// AO-F2); routes that take it say nothing.
func TestRobotsReach(t *testing.T) {
	path := func(p ...string) any { m := caddyhttp.MatchPath(p); return &m }
	route := func(h caddyhttp.MiddlewareHandler, sets ...caddyhttp.MatcherSet) caddyhttp.Route {
		return caddyhttp.Route{MatcherSets: sets, Handlers: []caddyhttp.MiddlewareHandler{h}}
	}
	for _, tc := range []struct {
		name   string
		routes func(h *Handler) caddyhttp.RouteList
		warn   bool
	}{
		{"no matcher", func(h *Handler) caddyhttp.RouteList { return caddyhttp.RouteList{route(h)} }, false},
		{"a path matcher that takes /robots.txt", func(h *Handler) caddyhttp.RouteList {
			return caddyhttp.RouteList{route(h, caddyhttp.MatcherSet{path("/robots.txt", "/blog/*")})}
		}, false},
		{"a path matcher that does not", func(h *Handler) caddyhttp.RouteList {
			return caddyhttp.RouteList{route(h, caddyhttp.MatcherSet{path("/blog/*")})}
		}, true},
		{"a subroute under one", func(h *Handler) caddyhttp.RouteList {
			return caddyhttp.RouteList{route(&caddyhttp.Subroute{Routes: caddyhttp.RouteList{route(h)}}, caddyhttp.MatcherSet{path("/app/*")})}
		}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h, logs := newTestHandler(t, config.Config{Inline: trapTestRobots, Share: "off"})
			srv := &caddyhttp.Server{Routes: tc.routes(h)}
			r := newRequest("GET", "http://a.example/blog/x", testfixtures.UAFirefox)
			r = r.WithContext(context.WithValue(r.Context(), caddyhttp.ServerCtxKey, srv))
			if _, err := serve(h, r); err != nil {
				t.Fatal(err)
			}
			warns := logs.FilterMessageSnippet("requests for /robots.txt do not reach this handler").All()
			if got := len(warns) == 1; got != tc.warn || len(warns) > 1 {
				t.Fatalf("%d WARNs that /robots.txt does not reach the handler, want warned %v", len(warns), tc.warn)
			}
			if tc.warn && warns[0].ContextMap()["not_taken_by"] == "" {
				t.Errorf("the WARN does not name the matcher: %v", warns[0].ContextMap())
			}
		})
	}
}

// TestRootsWarned: a handler that reads robots.txt from the site's root
// says so at a WARN when a root directive with a matcher runs before it,
// since those requests would be judged by another file than the one
// served (audit AO-F1); one root, or a file of its own, says nothing.
func TestRootsWarned(t *testing.T) {
	path := func(p ...string) caddyhttp.MatcherSet { m := caddyhttp.MatchPath(p); return caddyhttp.MatcherSet{&m} }
	root := func(dir string, sets ...caddyhttp.MatcherSet) caddyhttp.Route {
		return caddyhttp.Route{MatcherSets: sets, Handlers: []caddyhttp.MiddlewareHandler{&caddyhttp.VarsMiddleware{"root": dir}}}
	}
	dir := t.TempDir()
	for _, tc := range []struct {
		name string
		cfg  config.Config
		pre  []caddyhttp.Route
		warn bool
	}{
		{"one root", config.Config{}, []caddyhttp.Route{root(dir)}, false},
		{"a root with a path matcher", config.Config{}, []caddyhttp.Route{root(dir), root("/srv/other", path("/private/*"))}, true},
		{"a file of its own", config.Config{File: dir + "/robots.txt"}, []caddyhttp.Route{root(dir), root("/srv/other", path("/private/*"))}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.cfg.Share = "off"
			h, logs := newTestHandler(t, tc.cfg)
			sub := &caddyhttp.Subroute{Routes: append(slices.Clone(tc.pre), caddyhttp.Route{Handlers: []caddyhttp.MiddlewareHandler{h}})}
			srv := &caddyhttp.Server{Routes: caddyhttp.RouteList{{Handlers: []caddyhttp.MiddlewareHandler{sub}}}}
			h.checkRoutes(srv, "")
			warns := logs.FilterMessageSnippet("a root directive with a matcher").All()
			if got := len(warns) > 0; got != tc.warn {
				t.Fatalf("warned %v, want %v", got, tc.warn)
			}
			if tc.warn && !strings.Contains(fmt.Sprint(warns[0].ContextMap()["roots"]), "/srv/other") {
				t.Errorf("the WARN does not name the root: %v", warns[0].ContextMap())
			}
		})
	}
}

// TestRootChecks: a handler that reads robots.txt from the root with no
// root before it says it reads Caddy's working directory (audit AO-F6);
// with serve off, a file that is not the root's robots.txt, which a
// file_server after it serves, is said to be enforced unread (AO-F7).
func TestRootChecks(t *testing.T) {
	dir := t.TempDir()
	root := caddyhttp.Route{Handlers: []caddyhttp.MiddlewareHandler{&caddyhttp.VarsMiddleware{"root": dir}}}
	off := false
	for _, tc := range []struct {
		name    string
		cfg     config.Config
		pre     []caddyhttp.Route
		snippet string
		warn    bool
	}{
		{"no root", config.Config{}, nil, "no root is set before robots_txt", true},
		{"a root", config.Config{}, []caddyhttp.Route{root}, "no root is set before robots_txt", false},
		{"serve off, another file", config.Config{File: "/etc/caddy/ai.txt", Serve: &off}, []caddyhttp.Route{root}, "serve off, and the file enforced is not", true},
		{"serve off, the root's file", config.Config{File: dir + "/robots.txt", Serve: &off}, []caddyhttp.Route{root}, "serve off, and the file enforced is not", false},
		{"serve on, another file", config.Config{File: "/etc/caddy/ai.txt"}, []caddyhttp.Route{root}, "serve off, and the file enforced is not", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.cfg.Share = "off"
			h, logs := newTestHandler(t, tc.cfg)
			sub := &caddyhttp.Subroute{Routes: append(slices.Clone(tc.pre), caddyhttp.Route{Handlers: []caddyhttp.MiddlewareHandler{h}})}
			h.checkRoutes(&caddyhttp.Server{Routes: caddyhttp.RouteList{{Handlers: []caddyhttp.MiddlewareHandler{sub}}}}, "")
			if got := logs.FilterMessageSnippet(tc.snippet).Len() > 0; got != tc.warn {
				t.Errorf("warned %v, want %v", got, tc.warn)
			}
		})
	}
}
