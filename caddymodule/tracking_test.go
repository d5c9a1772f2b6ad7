package caddymodule

import (
	"encoding/json"
	"net/http/httptest"
	"net/netip"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/caddyserver/caddy/v2"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"
	"go.uber.org/zap"

	"github.com/robotsguard/caddy-robots-txt/caddymodule/internal/quota"
	"github.com/robotsguard/caddy-robots-txt/caddymodule/judge"
	"github.com/robotsguard/caddy-robots-txt/caddymodule/share"
	"github.com/robotsguard/caddy-robots-txt/caddymodule/verify"
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
	for _, k := range []string{"bot", "verdict", "action", "fetched", "fetched_ago", "capped"} {
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

// TestCappedSpellings: a request crafted against a file of thousands of
// wildcard rules passes, judged in full as sent and marked capped; one
// whose Tomcat spelling a plain rule refuses is refused all the same; an
// ordinary request is not capped.
func TestCappedSpellings(t *testing.T) {
	body, target := testfixtures.WildcardFlood(16 << 10)
	body = strings.Replace(body, "User-agent: *\n", "User-agent: *\nDisallow: /private/\n", 1)
	h, _ := newTestHandler(t, config.Config{File: writeRobots(t, body)})
	for _, tc := range []struct {
		target  string
		verdict string
		capped  any // nil: either
	}{
		{target, "allowed", true},
		{"/private;x/y/" + strings.TrimPrefix(target, "//x;p/"), "disallowed", nil},
		{"/public;x/y/z", "allowed", false},
	} {
		f := placeholders(t, h, tc.target, testfixtures.UAAhrefs, "203.0.113.9")
		if f["verdict"] != tc.verdict || tc.capped != nil && f["capped"] != tc.capped {
			t.Errorf("%.40q…: %v; want verdict %s, capped %v", tc.target, f, tc.verdict, tc.capped)
		}
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
	rep := readStats(t)
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

// TestDisableMetricsKeepsCountsOut: the collectors are process-wide, so a
// handler with disable_metrics must not touch them, or another handler
// that registers them exports its counts anyway. The admin stats still
// count its bots.
func TestDisableMetricsKeepsCountsOut(t *testing.T) {
	const quiet, loud = "QuietProbeBot", "LoudProbeBot"
	robotsTxt := "User-agent: *\nDisallow: /private/\n"
	exporting, _ := newTestHandler(t, config.Config{Inline: robotsTxt, Bots: []string{loud}})
	silent, _ := newTestHandler(t, config.Config{Inline: robotsTxt, Bots: []string{quiet}, DisableMetrics: true})
	serve(exporting, newRequest("GET", "/private/a", loud+"/1.0"))
	serve(silent, newRequest("GET", "/private/a", quiet+"/1.0"))
	serve(silent, newRequest("GET", "/robots.txt", quiet+"/1.0"))

	seen := exportedLabels(t, "bot")
	if !seen[loud+" in caddy_robots_txt_requests_total"] {
		t.Errorf("no requests_total series for %s, from the handler that exports metrics", loud)
	}
	for k := range seen {
		if strings.HasPrefix(k, quiet+" ") {
			t.Errorf("series %s, from the handler with disable_metrics", k)
		}
	}
	c := countersFor("", quiet, false, false)
	if c.requests.Load() != 1 || c.fetchCount.Load() != 1 {
		t.Errorf("admin stats of %s: %d requests, %d fetches, want 1 and 1", quiet, c.requests.Load(), c.fetchCount.Load())
	}
}

// TestGaugesFollowARemovedFile: the groups and rules "in force" drop to
// none when the file is removed, as the log says; they kept the last
// file's.
func TestGaugesFollowARemovedFile(t *testing.T) {
	path := writeRobots(t, "User-agent: *\nDisallow: /a\n\nUser-agent: b\nDisallow: /b\nDisallow: /c\n")
	h, _ := newTestHandler(t, config.Config{File: path, DisableReload: true})
	name := h.fixed.name()
	if g, r := testutil.ToFloat64(groupsInForce.WithLabelValues(name)), testutil.ToFloat64(rulesInForce.WithLabelValues(name)); g != 2 || r != 3 {
		t.Fatalf("loaded: groups %v rules %v, want 2 and 3", g, r)
	}
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	h.fixed.refresh()
	if g, r := testutil.ToFloat64(groupsInForce.WithLabelValues(name)), testutil.ToFloat64(rulesInForce.WithLabelValues(name)); g != 0 || r != 0 {
		t.Errorf("removed: groups %v rules %v, want 0 and 0", g, r)
	}
}

// TestFetchFlood: a client that fetches robots.txt under more User-Agent
// headers than the tracker remembers, here or on another instance that
// shares them, pushes out no other bot's fetch, only its own; and no
// client at all pushes out a verified crawler's, kept under no address.
func TestFetchFlood(t *testing.T) {
	at := judge.Fetch{At: time.Now(), ETag: `"v1"`}
	victims := []fetchKey{
		{bot: judge.Generic, ip: netip.MustParseAddr("203.0.113.5"), site: 1, agent: 42},
		{bot: "AhrefsBot", ip: netip.MustParseAddr("2001:db8:7:1::1"), site: 1},
		{bot: "GPTBot", site: 1}, // verified: for all its addresses
	}
	for _, tc := range []struct {
		name   string
		ip     func(i int) netip.Addr
		shared bool // read from another instance
		quota  int
	}{
		{"an address", func(int) netip.Addr { return netip.MustParseAddr("198.51.100.7") }, false, quota.FetchesPerClient},
		{"an address, shared", func(int) netip.Addr { return netip.MustParseAddr("198.51.100.7") }, true, quota.FetchesPerClient},
		{"a /64", func(i int) netip.Addr {
			return netip.AddrFrom16([16]byte{0x20, 0x01, 0x0d, 0xb8, 0, 9, 0, 1, 8: byte(i >> 8), 9: byte(i), 15: 1})
		}, false, quota.FetchesPerClient},
		{"a /48, a /64 for each", func(i int) netip.Addr {
			return netip.AddrFrom16([16]byte{0x20, 0x01, 0x0d, 0xb8, 0, 9, byte(i >> 8), byte(i), 15: 1})
		}, false, quota.FetchesPerNetwork},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h, _ := newTestHandler(t, config.Config{Inline: "# TestFetchFlood " + tc.name + "\nUser-agent: *\nDisallow: /private/\n"})
			for _, v := range victims {
				h.tracker.record(v, at)
			}
			for i := range trackedClients + 10_000 {
				k := fetchKey{bot: judge.Generic, ip: tc.ip(i), site: 1, agent: uint64(1000 + i)}
				if tc.shared {
					h.tracker.addShared(share.Fetch{Bot: k.bot, Addr: k.ip.String(), Site: k.site, Agent: k.agent, At: at.At.UnixNano(), ETag: at.ETag})
				} else {
					h.tracker.record(k, at)
				}
			}
			for _, v := range victims {
				if _, ok := h.tracker.last(v); !ok {
					t.Errorf("the fetch of %s at %v is forgotten", v.bot, v.ip)
				}
			}
			if n := h.tracker.recent.byClient.Len(); n != 2+tc.quota {
				t.Errorf("%d fetches remembered by client, want the victims' 2 and the flood's quota %d", n, tc.quota)
			}
		})
	}
}

// TestReloadResultsExportedFromStart: every result of reloads_total is a
// series before any reload, so an alert on increase() sees the first.
func TestReloadResultsExportedFromStart(t *testing.T) {
	seen := exportedLabels(t, "result")
	for _, result := range []string{"loaded", "removed", "unreachable", "failed"} {
		if !seen[result+" in caddy_robots_txt_reloads_total"] {
			t.Errorf("reloads_total{result=%q} is not exported before a reload", result)
		}
	}
}

// exportedLabels registers the collectors in a new registry and returns
// the values of the label name it exports, as "<value> in <family>".
func exportedLabels(t *testing.T, name string) map[string]bool {
	t.Helper()
	reg := prometheus.NewRegistry()
	if err := registerMetrics(reg); err != nil {
		t.Fatal(err)
	}
	families, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, f := range families {
		for _, m := range f.GetMetric() {
			for _, l := range m.GetLabel() {
				if l.GetName() == name {
					seen[l.GetValue()+" in "+f.GetName()] = true
				}
			}
		}
	}
	return seen
}

// TestStatsLastFetchOnlyWithRules: the admin stats' last_fetch is a
// fetch by the access log's rule, one that gave the rules: a HEAD, a 304
// to If-None-Match: * and a 206 are counted as requests for /robots.txt,
// but fetched nothing (audit AG-F1).
func TestStatsLastFetchOnlyWithRules(t *testing.T) {
	h, _ := newTestHandler(t, config.Config{Inline: "User-agent: NoRulesBot\nUser-agent: RulesBot\nDisallow: /x\n"})
	for _, tc := range []struct {
		bot     string
		method  string
		header  [2]string
		fetched bool
	}{
		{"NoRulesBot", "HEAD", [2]string{}, false},
		{"NoRulesBot", "GET", [2]string{"If-None-Match", "*"}, false},
		{"NoRulesBot", "GET", [2]string{"Range", "bytes=0-3"}, false},
		{"RulesBot", "GET", [2]string{}, true},
	} {
		r := newRequest(tc.method, "/robots.txt", tc.bot+"/1.0")
		if tc.header[0] != "" {
			r.Header.Set(tc.header[0], tc.header[1])
		}
		serve(h, r)
	}
	rep := readStats(t)
	want := map[string]struct {
		fetches uint64
		last    bool
	}{"NoRulesBot": {3, false}, "RulesBot": {1, true}}
	for _, b := range rep.Bots {
		if wb, ok := want[b.Bot]; ok {
			if b.Fetches != wb.fetches || (b.LastFetch != nil) != wb.last {
				t.Errorf("%s: %d requests for robots.txt, last fetch %v; want %d, a last fetch %v", b.Bot, b.Fetches, b.LastFetch, wb.fetches, wb.last)
			}
			delete(want, b.Bot)
		}
	}
	if len(want) > 0 {
		t.Errorf("no stats for %v", want)
	}
}

// TestStatsOneEntryPerBot: handlers of one server that differ in
// disable_metrics count a bot apart; the admin stats give one entry for
// it, the sum (audit AG-F8: two entries nothing told apart).
func TestStatsOneEntryPerBot(t *testing.T) {
	now := time.Now()
	for i, export := range []bool{true, false} {
		c := countersFor("srv-ag-f8", "DupBot", export, false)
		for range i + 1 {
			c.request(verify.Unverified, judge.Disallowed, judge.Blocked, now.Add(time.Duration(i)*time.Second).UnixNano())
		}
	}
	var found []botStats
	for _, b := range snapshotStats().Bots {
		if b.Server == "srv-ag-f8" && b.Bot == "DupBot" {
			found = append(found, b)
		}
	}
	if len(found) != 1 || found[0].Requests != 3 || found[0].Violations != 3 || found[0].Blocked != 3 ||
		found[0].FirstSeen == nil || found[0].LastSeen == nil || !found[0].LastSeen.After(*found[0].FirstSeen) {
		t.Errorf("stats %+v, want one entry of 3 requests, seen over a second", found)
	}
}

// readStats is what the admin API's stats endpoint answers.
func readStats(t *testing.T) statsReport {
	t.Helper()
	w := httptest.NewRecorder()
	if err := serveStats(w, httptest.NewRequest("GET", "/robots_txt/stats", nil)); err != nil {
		t.Fatal(err)
	}
	var rep statsReport
	if err := json.Unmarshal(w.Body.Bytes(), &rep); err != nil {
		t.Fatal(err)
	}
	return rep
}
