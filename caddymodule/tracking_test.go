package caddymodule

import (
	"encoding/json"
	"net/http/httptest"
	"testing"

	"github.com/caddyserver/caddy/v2"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"
	"go.uber.org/zap"

	"github.com/robotsguard/caddy-robots-txt/config"
	"github.com/robotsguard/caddy-robots-txt/internal/testfixtures"
)

// placeholders runs one request and returns its robots_txt placeholders
// (nil when none were set: a person's request).
func placeholders(t *testing.T, h *Handler, path, ua, ip string) map[string]any {
	t.Helper()
	r := withIP(newRequest("GET", path, ua), ip)
	serve(h, r)
	repl := r.Context().Value(caddy.ReplacerCtxKey).(*caddy.Replacer)
	if _, ok := repl.Get("http.robots_txt.bot"); !ok {
		return nil
	}
	m := map[string]any{}
	for _, k := range []string{"bot", "verdict", "action", "fetched", "fetched_ago"} {
		if v, ok := repl.Get("http.robots_txt." + k); ok {
			m[k] = v
		}
	}
	return m
}

func TestFetchTracking(t *testing.T) {
	path := writeRobots(t, testfixtures.RobotsTxt)
	h, _ := newTestHandler(t, config.Config{File: path})
	if f := placeholders(t, h, "/private/x", testfixtures.UAAhrefs, "203.0.113.9"); f["fetched"] != false || f["fetched_ago"] != nil {
		t.Errorf("before any fetch: %v", f)
	}
	if f := placeholders(t, h, "/robots.txt", testfixtures.UAAhrefs, "203.0.113.9"); f["action"] != "served" {
		t.Errorf("the fetch itself: %v", f)
	}
	f := placeholders(t, h, "/private/x", testfixtures.UAAhrefs, "203.0.113.9")
	if f["fetched"] != true || f["fetched_ago"] != int64(0) {
		t.Errorf("after a fetch: %v", f)
	}
	if f := placeholders(t, h, "/private/x", testfixtures.UAAhrefs, "203.0.113.10"); f["fetched"] != false {
		t.Errorf("another address did not fetch: %v", f)
	}
	if f := placeholders(t, h, "/private/x", testfixtures.UAChrome, "203.0.113.9"); f != nil {
		t.Errorf("people get no robots_txt fields: %v", f)
	}

	// A new config for the same file (a reload) keeps what was learned.
	h2, _ := newTestHandler(t, config.Config{File: path})
	h.Cleanup()
	if f := placeholders(t, h2, "/private/x", testfixtures.UAAhrefs, "203.0.113.9"); f["fetched"] != true {
		t.Errorf("after a config reload the fetch is still known: %v", f)
	}
}

func TestMetricsAndStats(t *testing.T) {
	ctx, cancel := newContext()
	defer cancel()
	h := &Handler{Config: config.Config{Inline: "User-agent: *\nDisallow: /private/\n", Mode: "monitor"}, logger: zap.NewNop()}
	if err := h.Provision(ctx); err != nil {
		t.Fatal(err)
	}
	defer h.Cleanup()
	reg := ctx.GetMetricsRegistry()
	const bot = "python-requests"
	before := testutil.ToFloat64(requestsTotal.WithLabelValues("", bot, "unverified", "disallowed", "logged"))
	beforeFetch := testutil.ToFloat64(fetchesTotal.WithLabelValues("", bot))
	ua := testfixtures.UAPythonRequests
	serve(h, newRequest("GET", "/private/a", ua))
	serve(h, newRequest("GET", "/private/b", ua))
	serve(h, newRequest("GET", "/public", ua))
	serve(h, newRequest("GET", "/robots.txt", ua))
	serve(h, newRequest("GET", "/private/a", testfixtures.UAChrome))
	if got := testutil.ToFloat64(requestsTotal.WithLabelValues("", bot, "unverified", "disallowed", "logged")) - before; got != 2 {
		t.Errorf("disallowed/logged count rose by %v, want 2", got)
	}
	if got := testutil.ToFloat64(fetchesTotal.WithLabelValues("", bot)) - beforeFetch; got != 1 {
		t.Errorf("fetches rose by %v, want 1", got)
	}
	if n, err := testutil.GatherAndCount(reg, "caddy_robots_txt_requests_total", "caddy_robots_txt_rules"); err != nil || n == 0 {
		t.Errorf("collectors not registered in the config's registry: %d series, %v", n, err)
	}
	// Registering again, as the next config load does, is fine.
	if err := registerMetrics(reg); err != nil {
		t.Errorf("second registration: %v", err)
	}
	if err := registerMetrics(prometheus.NewRegistry()); err != nil {
		t.Errorf("registration in a new registry: %v", err)
	}

	// The admin API reports the same counts.
	w := httptest.NewRecorder()
	if err := serveStats(w, httptest.NewRequest("GET", "/robots_txt/stats", nil)); err != nil {
		t.Fatal(err)
	}
	var rep statsReport
	if err := json.Unmarshal(w.Body.Bytes(), &rep); err != nil {
		t.Fatal(err)
	}
	var got *botStats
	for i := range rep.Bots {
		if rep.Bots[i].Bot == bot {
			got = &rep.Bots[i]
		}
	}
	if got == nil {
		t.Errorf("no stats for %s", bot)
	} else {
		for _, c := range []struct {
			name     string
			got, min uint64
		}{
			{"requests", got.Requests, 3},
			{"violations", got.Violations, 2},
			{"logged", got.Logged, 2},
			{"robots.txt fetches", got.Fetches, 1},
		} {
			if c.got < c.min {
				t.Errorf("stats for %s: %s = %d, want at least %d", bot, c.name, c.got, c.min)
			}
		}
		if got.LastFetch == nil {
			t.Errorf("stats for %s: no last fetch", bot)
		}
		if got.FirstSeen == nil {
			t.Errorf("stats for %s: no first seen", bot)
		}
	}
	if err := serveStats(httptest.NewRecorder(), httptest.NewRequest("POST", "/robots_txt/stats", nil)); err == nil {
		t.Error("POST should be refused")
	}
	_ = caddy.Duration(0)
}
