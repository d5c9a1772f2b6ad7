package integration

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"

	"github.com/robotsguard/caddy-robots-txt/internal/testfixtures"
)

// monSite is the site of the metrics and stats tests: requests with the
// header "X-Mode: monitor" go to a robots_txt in monitor mode with an
// inline robots.txt (monInline); all others to one in enforce mode with
// the test site's robots.txt (testfixtures.RobotsTxt), checked every 200 ms.
const monSite = `http://127.0.0.1:{{port}} {
	root * {{dir}}/site
	@monitor header X-Mode monitor
	handle @monitor {
		robots_txt {
			` + verifiedHere + `
			mode monitor
			inline <<TXT
				User-agent: GPTBot
				Disallow: /
				User-agent: *
				Disallow: /private/
				TXT
		}
		file_server
	}
	handle {
		robots_txt {
			` + verifiedHere + `
			file {{dir}}/site/robots.txt
			reload 200ms
			grace off
		}
		file_server
	}
}
`

// monMonitor is the extra header that sends a request of monSite to the
// monitor-mode handler.
const monMonitor = "X-Mode: monitor"

// monStartWithGlobals is startCaddy with extra global options (inside the
// global block of globalOptions).
func monStartWithGlobals(t testing.TB, extra, sites string, setup ...func(inst *instance)) *instance {
	t.Helper()
	inst := newInstance(t)
	for _, f := range setup {
		f(inst)
	}
	i := strings.LastIndex(globalOptions, "}")
	global := globalOptions[:i] + extra + "\n" + globalOptions[i:]
	path := filepath.Join(inst.dir, "Caddyfile")
	write := func() string {
		writeFile(t, path, inst.expand(global+sites))
		return path
	}
	inst.launchRetry(write(), "caddyfile", "", write)
	return inst
}

// monAdminURL is the URL of path on the instance's admin endpoint.
func monAdminURL(inst *instance, path string) string {
	return fmt.Sprintf("http://127.0.0.1:%d%s", inst.adminPort, path)
}

// monAdmin sends a request to the admin endpoint and returns the response.
func monAdmin(t testing.TB, inst *instance, method, path, contentType string, body []byte, headers ...string) response {
	t.Helper()
	req, err := http.NewRequest(method, monAdminURL(inst, path), bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	setHeaders(req, headers)
	resp, err := sendRetry(inst.client, req)
	if err != nil {
		t.Fatalf("%s admin %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	var b bytes.Buffer
	if _, err := b.ReadFrom(resp.Body); err != nil {
		t.Fatalf("%s admin %s: reading body: %v", method, path, err)
	}
	return response{status: resp.StatusCode, header: resp.Header, body: b.String()}
}

// monReloadConfig posts the instance's Caddyfile, unchanged, to the admin
// endpoint's /load, forcing Caddy to load it again (it skips an unchanged
// config otherwise), and checks that a new config was loaded.
func monReloadConfig(t testing.TB, inst *instance) {
	t.Helper()
	body, err := os.ReadFile(filepath.Join(inst.dir, "Caddyfile"))
	if err != nil {
		t.Fatal(err)
	}
	loads := func() int {
		n := 0
		for _, e := range inst.logs() {
			if e.str("msg") == "load complete" {
				n++
			}
		}
		return n
	}
	before := loads()
	resp := monAdmin(t, inst, http.MethodPost, "/load", "text/caddyfile", body, "Cache-Control: must-revalidate")
	if resp.status != http.StatusOK {
		t.Fatalf("POST /load: status %d, body %q\nstderr:\n%s", resp.status, resp.body, inst.stderr.String())
	}
	eventually(t, 30*time.Second, "Caddy to log a completed config load", func() bool { return loads() > before })
	// The old server closes its keep-alive connections as it shuts
	// down; one the client picks up as it does is reset under it.
	inst.client.CloseIdleConnections()
}

func monKey(name string, labels map[string]string) string {
	var b strings.Builder
	b.WriteString(name)
	b.WriteByte('{')
	for i, k := range slices.Sorted(maps.Keys(labels)) {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, "%s=%q", k, labels[k])
	}
	b.WriteByte('}')
	return b.String()
}

// monScrape fetches the admin endpoint's /metrics and returns the
// caddy_robots_txt_ samples by key (see monSample.key), failing on a
// series that appears twice.
func monScrape(t testing.TB, inst *instance) map[string]float64 {
	t.Helper()
	resp := monAdmin(t, inst, http.MethodGet, "/metrics", "", nil)
	if resp.status != http.StatusOK {
		t.Fatalf("GET admin /metrics: status %d, body %q", resp.status, resp.body)
	}
	parser := expfmt.NewTextParser(model.UTF8Validation)
	families, err := parser.TextToMetricFamilies(strings.NewReader(resp.body))
	if err != nil {
		t.Fatalf("GET admin /metrics: not the Prometheus text format: %v", err)
	}
	out := map[string]float64{}
	for name, fam := range families {
		if !strings.HasPrefix(name, "caddy_robots_txt_") {
			continue
		}
		for _, m := range fam.GetMetric() {
			labels := map[string]string{}
			for _, l := range m.GetLabel() {
				labels[l.GetName()] = l.GetValue()
			}
			v := m.GetCounter().GetValue() + m.GetGauge().GetValue()
			k := monKey(name, labels)
			if _, dup := out[k]; dup {
				t.Errorf("metrics: series %s appears twice", k)
			}
			out[k] = v
		}
	}
	return out
}

// monFamily returns the series of one metric name from a scrape.
func monFamily(all map[string]float64, name string) map[string]float64 {
	out := map[string]float64{}
	for k, v := range all {
		if strings.HasPrefix(k, name+"{") {
			out[k] = v
		}
	}
	return out
}

func monReqKey(bot, verdict, action string) string {
	identity := "unverified"
	if bot == "GPTBot" || bot == "Googlebot" || bot == "AhrefsBot" {
		identity = "verified" // by verifiedHere
	}
	return monKey("caddy_robots_txt_requests_total", map[string]string{"server": "srv0", "bot": bot, "identity": identity, "verdict": verdict, "action": action})
}

func monFetchKey(bot string) string {
	return monKey("caddy_robots_txt_fetches_total", map[string]string{"server": "srv0", "bot": bot})
}

func monSourceKey(name, source string) string {
	return monKey("caddy_robots_txt_"+name, map[string]string{"source": source})
}

// monDiff lists the differences between two metric families; a series
// at 0 may be missing from want.
func monDiff(want, got map[string]float64) []string {
	var out []string
	for _, k := range slices.Sorted(maps.Keys(want)) {
		if g, ok := got[k]; !ok {
			out = append(out, fmt.Sprintf("missing %s (want %g)", k, want[k]))
		} else if g != want[k] {
			out = append(out, fmt.Sprintf("%s = %g, want %g", k, g, want[k]))
		}
	}
	for _, k := range slices.Sorted(maps.Keys(got)) {
		// A series at 0 reads as no series (the fetch counter of a bot
		// exists from its first request on).
		if _, ok := want[k]; !ok && got[k] != 0 {
			out = append(out, fmt.Sprintf("unexpected %s = %g", k, got[k]))
		}
	}
	return out
}

// monRequest is one request of a scripted sequence.
type monRequest struct {
	ua, path string
	monitor  bool
	status   int
	n        int // times to send it; 0 means once
}

func monSend(t testing.TB, inst *instance, reqs []monRequest) {
	t.Helper()
	for _, r := range reqs {
		var headers []string
		if r.monitor {
			headers = append(headers, monMonitor)
		}
		for range max(r.n, 1) {
			if got := inst.get(t, r.path, r.ua, headers...); got.status != r.status {
				t.Errorf("GET %s (UA %q, monitor %v): status %d, want %d", r.path, r.ua, r.monitor, got.status, r.status)
			}
		}
	}
}

func TestMetrics(t *testing.T) {
	t.Parallel()
	// No metrics option is needed: Caddy's admin endpoint serves /metrics
	// from the config's registry, where the handler registers its
	// collectors.
	inst := startCaddy(t, monSite, withTestSite)
	robotsPath := filepath.Join(inst.dir, "site", "robots.txt")

	monSend(t, inst, []monRequest{
		{ua: testfixtures.UAGPTBot, path: "/about.html", status: 403, n: 2},
		{ua: testfixtures.UAGPTBot, path: "/about.html", monitor: true, status: 200},
		{ua: testfixtures.UAGooglebot, path: "/about.html", status: 200, n: 3},
		{ua: testfixtures.UAGooglebot, path: "/drafts/d.html", status: 403},
		{ua: testfixtures.UAGooglebot, path: "/private/x.html", monitor: true, status: 200},
		{ua: testfixtures.UAPythonRequests, path: "/private/x.html", status: 403},
		{ua: testfixtures.UAPythonRequests, path: "/private/ok.html", status: 200},
		{ua: testfixtures.UAGPTBot, path: "/robots.txt", status: 200, n: 2},
		{ua: testfixtures.UAGPTBot, path: "/robots.txt", monitor: true, status: 200},
		{ua: testfixtures.UAPythonRequests, path: "/robots.txt", status: 200},
		// Browsers are not counted.
		{ua: testfixtures.UAFirefox, path: "/private/x.html", status: 200},
		{ua: testfixtures.UAChrome, path: "/about.html", monitor: true, status: 200},
		{ua: testfixtures.UASafari, path: "/robots.txt", status: 200},
	})
	// 50 distinct bots the classifier knows only as bots: one label.
	for i := range 50 {
		path, status := "/about.html", 200
		if i%5 == 0 {
			path, status = "/private/x.html", 403
		}
		monSend(t, inst, []monRequest{{ua: fmt.Sprintf("RandomCrawler%d/1.0", i), path: path, status: status}})
	}

	wantRequests := map[string]float64{
		monReqKey("GPTBot", "disallowed", "blocked"):          2,
		monReqKey("GPTBot", "disallowed", "logged"):           1,
		monReqKey("Googlebot", "allowed", "passed"):           3,
		monReqKey("Googlebot", "disallowed", "blocked"):       1,
		monReqKey("Googlebot", "disallowed", "logged"):        1,
		monReqKey("python-requests", "disallowed", "blocked"): 1,
		monReqKey("python-requests", "allowed", "passed"):     1,
		monReqKey("generic", "allowed", "passed"):             40,
		monReqKey("generic", "disallowed", "blocked"):         10,
	}
	wantFetches := map[string]float64{
		monFetchKey("GPTBot"):          3,
		monFetchKey("python-requests"): 1,
	}
	wantGauges := map[string]float64{
		monSourceKey("groups", robotsPath): 3,
		monSourceKey("rules", robotsPath):  4,
		monSourceKey("groups", "inline"):   2,
		monSourceKey("rules", "inline"):    2,
	}
	check := func(stage string, m map[string]float64) {
		t.Helper()
		for _, fam := range []struct {
			name string
			want map[string]float64
		}{
			{"caddy_robots_txt_requests_total", wantRequests},
			{"caddy_robots_txt_fetches_total", wantFetches},
			{"caddy_robots_txt_groups", monFamily(wantGauges, "caddy_robots_txt_groups")},
			{"caddy_robots_txt_rules", monFamily(wantGauges, "caddy_robots_txt_rules")},
		} {
			if d := monDiff(fam.want, monFamily(m, fam.name)); len(d) > 0 {
				t.Errorf("%s: %s:\n\t%s", stage, fam.name, strings.Join(d, "\n\t"))
			}
		}
		// Labels are bounded: no label holds a raw User-Agent header.
		for k := range m {
			for _, bad := range []string{"RandomCrawler", "Mozilla", "/1.0", "python-requests/"} {
				if strings.Contains(k, bad) {
					t.Errorf("%s: series %s has a raw User-Agent in a label", stage, k)
				}
			}
		}
	}

	m := monScrape(t, inst)
	check("before the config reload", m)
	// Every result is exported at 0 before the first reload, so that
	// increase() sees the first one.
	if got := monFamily(m, "caddy_robots_txt_reloads_total"); len(got) != 4 || slices.ContainsFunc(slices.Collect(maps.Values(got)), func(v float64) bool { return v != 0 }) {
		t.Errorf("before any file edit: reloads_total = %v, want loaded, removed, unreachable and failed at 0", got)
	}

	// A config reload keeps the counts: the collectors are process-wide
	// and registered with the new config's registry.
	monReloadConfig(t, inst)
	check("after the config reload", monScrape(t, inst))
	monSend(t, inst, []monRequest{
		{ua: testfixtures.UAGPTBot, path: "/about.html", status: 403},
		{ua: testfixtures.UAPythonRequests, path: "/robots.txt", status: 200},
		{ua: "RandomCrawler99/1.0", path: "/about.html", status: 200},
	})
	wantRequests[monReqKey("GPTBot", "disallowed", "blocked")]++
	wantRequests[monReqKey("generic", "allowed", "passed")]++
	wantFetches[monFetchKey("python-requests")]++
	check("after requests following the config reload", monScrape(t, inst))

	// An edit of the file is a reload of robots.txt (not a config load).
	time.Sleep(300 * time.Millisecond) // let the old config's watcher stop
	replaceFile(t, robotsPath, testfixtures.RobotsTxt+"\nUser-agent: AhrefsBot\nDisallow: /\n", 0o644)
	loaded := monKey("caddy_robots_txt_reloads_total", map[string]string{"result": "loaded"})
	eventually(t, reloadDeadline, "reloads_total{result=loaded} after a file edit", func() bool {
		return monScrape(t, inst)[loaded] >= 1
	})
	time.Sleep(500 * time.Millisecond) // a few more reload ticks: no more loads
	m = monScrape(t, inst)
	if d := monDiff(map[string]float64{loaded: 1}, monFamily(m, "caddy_robots_txt_reloads_total")); len(d) > 0 {
		t.Errorf("after one file edit: reloads_total:\n\t%s", strings.Join(d, "\n\t"))
	}
	wantGauges[monSourceKey("groups", robotsPath)] = 4
	wantGauges[monSourceKey("rules", robotsPath)] = 5
	check("after the file edit", m)
	if got := inst.get(t, "/about.html", testfixtures.UAAhrefs); got.status != http.StatusForbidden {
		t.Errorf("AhrefsBot /about.html after the edit: %d, want 403", got.status)
	}
}

// monStats is the JSON of the admin endpoint's /robots_txt/stats.
type monStats struct {
	Since time.Time `json:"since"`
	Bots  []struct {
		Bot        string     `json:"bot"`
		Requests   uint64     `json:"requests"`
		Allowed    uint64     `json:"allowed"`
		Violations uint64     `json:"violations"`
		Grace      uint64     `json:"grace"`
		Blocked    uint64     `json:"blocked"`
		Logged     uint64     `json:"logged"`
		Fetches    uint64     `json:"robots_txt_fetches"`
		Category   string     `json:"category"`
		FirstSeen  *time.Time `json:"first_seen"`
		LastSeen   *time.Time `json:"last_seen"`
		LastFetch  *time.Time `json:"last_fetch"`
	} `json:"bots"`
}

// monGetStats reads /robots_txt/stats, and the keys of each bot's object.
func monGetStats(t testing.TB, inst *instance) (monStats, [][]string) {
	t.Helper()
	resp := monAdmin(t, inst, http.MethodGet, "/robots_txt/stats", "", nil)
	if resp.status != http.StatusOK {
		t.Fatalf("GET /robots_txt/stats: status %d, body %q", resp.status, resp.body)
	}
	if ct := resp.header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
		t.Errorf("GET /robots_txt/stats: Content-Type %q, want application/json", ct)
	}
	var st monStats
	if err := json.Unmarshal([]byte(resp.body), &st); err != nil {
		t.Fatalf("GET /robots_txt/stats: %v\nbody: %s", err, resp.body)
	}
	var raw struct {
		Bots []map[string]json.RawMessage `json:"bots"`
	}
	if err := json.Unmarshal([]byte(resp.body), &raw); err != nil {
		t.Fatal(err)
	}
	keys := make([][]string, len(raw.Bots))
	for i, b := range raw.Bots {
		keys[i] = slices.Sorted(maps.Keys(b))
	}
	return st, keys
}

func TestAdminStats(t *testing.T) {
	t.Parallel()
	start := time.Now()
	inst := startCaddy(t, monSite, withTestSite)

	monSend(t, inst, []monRequest{
		{ua: testfixtures.UAGPTBot, path: "/robots.txt", status: 200},
		{ua: testfixtures.UAGPTBot, path: "/about.html", status: 403, n: 3},
		{ua: testfixtures.UAGPTBot, path: "/about.html", monitor: true, status: 200, n: 2},
		{ua: testfixtures.UAPythonRequests, path: "/private/x.html", status: 403},
		{ua: testfixtures.UAPythonRequests, path: "/private/ok.html", status: 200, n: 2},
		{ua: testfixtures.UAGooglebot, path: "/about.html", status: 200, n: 4},
		{ua: testfixtures.UAGooglebot, path: "/robots.txt", status: 200, n: 2},
		{ua: testfixtures.UAAhrefs, path: "/robots.txt", status: 200},
		{ua: testfixtures.UAFirefox, path: "/private/x.html", status: 200},
		{ua: testfixtures.UAChrome, path: "/robots.txt", status: 200},
		{ua: testfixtures.UASafari, path: "/about.html", monitor: true, status: 200},
	})
	end := time.Now()

	type counts struct {
		bot                                                          string
		requests, allowed, violations, grace, blocked, logged, fetch uint64
	}
	// Most violations first, then most requests.
	want := []counts{
		{"GPTBot", 5, 0, 5, 0, 3, 2, 1},
		{"python-requests", 3, 2, 1, 0, 1, 0, 0},
		{"Googlebot", 4, 4, 0, 0, 0, 0, 2},
		{"AhrefsBot", 0, 0, 0, 0, 0, 0, 1},
	}
	st, keys := monGetStats(t, inst)
	var got []counts
	for _, b := range st.Bots {
		got = append(got, counts{b.Bot, b.Requests, b.Allowed, b.Violations, b.Grace, b.Blocked, b.Logged, b.Fetches})
	}
	if !slices.Equal(got, want) {
		t.Errorf("stats bots:\n got  %+v\n want %+v", got, want)
	}

	const slack = time.Second // JSON times are UTC; clocks are the same
	if st.Since.Before(start.Add(-slack)) || st.Since.After(end) {
		t.Errorf("since = %s, want the process start, between %s and %s", st.Since, start, end)
	}
	for i, b := range st.Bots {
		wantKeys := []string{"allowed", "blocked", "bot", "first_seen", "grace", "last_fetch", "last_seen", "logged", "requests", "robots_txt_fetches", "server", "too_fast", "violations"}
		if b.Fetches == 0 {
			// Never fetched: no last_fetch.
			wantKeys = slices.DeleteFunc(wantKeys, func(k string) bool { return k == "last_fetch" })
		}
		if category := map[string]string{"GPTBot": "ai-training", "Googlebot": "search", "AhrefsBot": "seo"}[b.Bot]; category != "" {
			// A known crawler's category, from the knowledge base.
			wantKeys = append(wantKeys, "category")
			slices.Sort(wantKeys)
			if b.Category != category {
				t.Errorf("stats bot %s: category %q, want %q", b.Bot, b.Category, category)
			}
		}
		if i < len(keys) && !slices.Equal(keys[i], wantKeys) {
			t.Errorf("stats bot %s: keys %v, want %v", b.Bot, keys[i], wantKeys)
		}
		if b.FirstSeen == nil || b.LastSeen == nil {
			t.Errorf("stats bot %s: first_seen %v last_seen %v, want both", b.Bot, b.FirstSeen, b.LastSeen)
			continue
		}
		// since <= first_seen <= last_seen <= end (give or take slack)
		if b.FirstSeen.Before(st.Since) {
			t.Errorf("stats bot %s: first_seen %s before since %s", b.Bot, b.FirstSeen, st.Since)
		}
		if b.LastSeen.Before(*b.FirstSeen) {
			t.Errorf("stats bot %s: last_seen %s before first_seen %s", b.Bot, b.LastSeen, b.FirstSeen)
		}
		if b.LastSeen.After(end.Add(slack)) {
			t.Errorf("stats bot %s: last_seen %s after the last request, %s", b.Bot, b.LastSeen, end)
		}
		if b.LastFetch != nil && (b.LastFetch.Before(*b.FirstSeen) || b.LastFetch.After(*b.LastSeen)) {
			t.Errorf("stats bot %s: last_fetch %s outside first_seen %s .. last_seen %s", b.Bot, b.LastFetch, b.FirstSeen, b.LastSeen)
		}
	}

	// Only GET.
	for _, method := range []string{http.MethodPost, http.MethodDelete} {
		resp := monAdmin(t, inst, method, "/robots_txt/stats", "application/json", []byte("{}"))
		if resp.status != http.StatusMethodNotAllowed {
			t.Errorf("%s /robots_txt/stats: status %d, body %q, want 405", method, resp.status, resp.body)
		}
		var e struct {
			Error string `json:"error"`
		}
		if err := json.Unmarshal([]byte(resp.body), &e); err != nil || !strings.Contains(e.Error, "use GET") {
			t.Errorf("%s /robots_txt/stats: body %q, want a JSON error saying to use GET", method, resp.body)
		}
	}

	// The counts survive a config reload, and keep counting.
	monReloadConfig(t, inst)
	monSend(t, inst, []monRequest{{ua: testfixtures.UAGooglebot, path: "/drafts/d.html", status: 403}})
	st2, _ := monGetStats(t, inst)
	if !st2.Since.Equal(st.Since) {
		t.Errorf("since after the config reload = %s, want unchanged %s", st2.Since, st.Since)
	}
	got = got[:0]
	for _, b := range st2.Bots {
		got = append(got, counts{b.Bot, b.Requests, b.Allowed, b.Violations, b.Grace, b.Blocked, b.Logged, b.Fetches})
	}
	want = []counts{
		{"GPTBot", 5, 0, 5, 0, 3, 2, 1},
		{"Googlebot", 5, 4, 1, 0, 1, 0, 2},
		{"python-requests", 3, 2, 1, 0, 1, 0, 0},
		{"AhrefsBot", 0, 0, 0, 0, 0, 0, 1},
	}
	if !slices.Equal(got, want) {
		t.Errorf("stats bots after the config reload:\n got  %+v\n want %+v", got, want)
	}
}

// monTrackingSite is the test site behind a trusted proxy (so that
// X-Forwarded-For sets Caddy's client_ip), with a JSON access log.
var monTrackingSite = fmt.Sprintf(loggedSite, verifiedHere)

const monTrustProxies = `	servers {
		trusted_proxies static private_ranges
	}`

// monAccess returns the access-log entry n (0-based, readiness probes
// skipped), waiting for it, and checks its URI, User-Agent and client_ip.
func monAccess(t testing.TB, inst *instance, n int, uri, ua, clientIP string) logEntry {
	t.Helper()
	entries := waitAccessLog(t, filepath.Join(inst.dir, "access.log"), n+1, 10*time.Second)
	e := entries[n]
	gotURI, gotUA := accessURI(e)
	req, _ := e.obj("request")
	ok := true
	if gotURI != uri {
		t.Errorf("access log entry %d: uri %q, want %q", n, gotURI, uri)
		ok = false
	}
	if gotUA != ua {
		t.Errorf("access log entry %d: UA %q, want %q", n, gotUA, ua)
		ok = false
	}
	if got := req.str("client_ip"); got != clientIP {
		t.Errorf("access log entry %d: client_ip %q, want %q", n, got, clientIP)
		ok = false
	}
	if !ok {
		t.FailNow()
	}
	return e
}

// monCheckFetched checks robots_txt.fetched (and fetched_ago) of an entry:
// want < 0 means not fetched (no fetched_ago); otherwise fetched, with
// fetched_ago an integer number of seconds from want to want+maxExtra.
func monCheckFetched(t testing.TB, what string, e logEntry, want, maxExtra int) {
	t.Helper()
	rt, ok := e.obj("robots_txt")
	if !ok {
		t.Errorf("%s: no robots_txt object in %v", what, e)
		return
	}
	fetched, isBool := rt["fetched"].(bool)
	if !isBool {
		t.Errorf("%s: robots_txt.fetched = %v, want a boolean", what, rt["fetched"])
		return
	}
	ago, hasAgo := rt["fetched_ago"]
	if want < 0 {
		if fetched {
			t.Errorf("%s: robots_txt.fetched = true, want false (in %v)", what, rt)
		}
		if hasAgo {
			t.Errorf("%s: robots_txt.fetched_ago = %v, want none (in %v)", what, ago, rt)
		}
		return
	}
	if !fetched {
		t.Errorf("%s: robots_txt.fetched = false, want true (in %v)", what, rt)
	}
	f, isNum := ago.(float64)
	switch {
	case !isNum:
		t.Errorf("%s: robots_txt.fetched_ago = %v, want a number of seconds in [%d, %d] (in %v)", what, ago, want, want+maxExtra, rt)
	case f != math.Trunc(f):
		t.Errorf("%s: robots_txt.fetched_ago = %v, want an integer (in %v)", what, f, rt)
	case int(f) < want || int(f) > want+maxExtra:
		t.Errorf("%s: robots_txt.fetched_ago = %v, want it in [%d, %d] (in %v)", what, f, want, want+maxExtra, rt)
	}
}

func TestFetchTracking(t *testing.T) {
	t.Parallel()
	inst := monStartWithGlobals(t, monTrustProxies, monTrackingSite, withTestSite)
	const ipA, ipB = "10.1.2.3", "10.9.8.7"
	xff := func(ip string) string { return "X-Forwarded-For: " + ip }

	n := 0
	step := func(path, ua, ip string, status int) logEntry {
		t.Helper()
		if got := inst.get(t, path, ua, xff(ip)); got.status != status {
			t.Errorf("GET %s (UA %q, %s): status %d, want %d", path, ua, ip, got.status, status)
		}
		e := monAccess(t, inst, n, path, ua, ip)
		n++
		return e
	}

	e := step("/about.html", testfixtures.UAGooglebot, ipA, 200)
	monCheckFetched(t, "Googlebot before any fetch", e, -1, 0)
	e = step("/drafts/d.html", testfixtures.UAGooglebot, ipA, 403)
	monCheckFetched(t, "Googlebot (blocked) before any fetch", e, -1, 0)

	e = step("/robots.txt", testfixtures.UAGooglebot, ipA, 200)
	rt, _ := e.obj("robots_txt")
	if a := rt.str("action"); a != "served" {
		t.Errorf("the fetch of /robots.txt: action %q, want served (in %v)", a, rt)
	}
	for _, k := range []string{"fetched", "fetched_ago"} {
		if rt[k] != nil {
			t.Errorf("the fetch of /robots.txt: %s = %v, want none (in %v)", k, rt[k], rt)
		}
	}

	e = step("/index.html", testfixtures.UAGooglebot, ipA, 200)
	monCheckFetched(t, "Googlebot after its fetch", e, 0, 2)
	e = step("/drafts/d.html", testfixtures.UAGooglebot, ipA, 403)
	monCheckFetched(t, "Googlebot (blocked) after its fetch", e, 0, 2)

	// A verified crawler fetches robots.txt from one address and crawls
	// from many with its copy: its fetch counts at every address.
	// Another bot at the same address has not fetched robots.txt.
	e = step("/about.html", testfixtures.UAGooglebot, ipB, 200)
	monCheckFetched(t, "verified Googlebot from another address", e, 0, 2)
	e = step("/about.html", testfixtures.UAPythonRequests, ipA, 200)
	monCheckFetched(t, "another bot from the same address", e, -1, 0)

	// A bot nobody verified is tracked per address: anyone may send its
	// name.
	step("/robots.txt", testfixtures.UAPythonRequests, ipA, 200)
	e = step("/about.html", testfixtures.UAPythonRequests, ipB, 200)
	monCheckFetched(t, "python-requests from another address", e, -1, 0)
	e = step("/about.html", testfixtures.UAPythonRequests, ipA, 200)
	monCheckFetched(t, "python-requests from the address that fetched", e, 0, 2)

	// The tracking survives a config reload; fetched_ago counts seconds.
	monReloadConfig(t, inst)
	time.Sleep(1100 * time.Millisecond)
	e = step("/about.html", testfixtures.UAGooglebot, ipA, 200)
	monCheckFetched(t, "Googlebot after a config reload", e, 1, 3)
	e = step("/about.html", testfixtures.UAGooglebot, ipB, 200)
	monCheckFetched(t, "verified Googlebot from another address after a config reload", e, 1, 3)

	// A fetch from the second address is the crawler's latest.
	step("/robots.txt", testfixtures.UAGooglebot, ipB, 200)
	e = step("/about.html", testfixtures.UAGooglebot, ipA, 200)
	monCheckFetched(t, "Googlebot after a fetch from its other address", e, 0, 2)
}

// monGraceSite has /old/ and /new/ pages, a robots.txt checked every 200 ms,
// and a JSON access log; %s is an extra robots_txt subdirective.
const monGraceSite = `http://127.0.0.1:{{port}} {
	root * {{dir}}/site
	robots_txt {
		` + verifiedHere + `
		reload 200ms
		%s
	}
	file_server
	log {
		output file {{dir}}/access.log
		format json
	}
}
`

const (
	graceV1 = "User-agent: *\nDisallow: /old\n"
	graceV2 = "# v2\nUser-agent: *\nDisallow: /new\n"
)

func monWithGraceSite(inst *instance) {
	site := writeTestSite(inst.t, inst.dir, false)
	writeFile(inst.t, filepath.Join(site, "old", "x.html"), "old")
	writeFile(inst.t, filepath.Join(site, "new", "x.html"), "new")
	writeFile(inst.t, filepath.Join(site, "robots.txt"), graceV1)
}

// monAccessFor returns the last access-log entry of uri and ua, waiting for
// it.
func monAccessFor(t testing.TB, inst *instance, uri, ua string) logEntry {
	t.Helper()
	var found logEntry
	eventually(t, 30*time.Second, "access log entry of "+uri+" by "+ua, func() bool {
		for _, e := range readAccessLog(t, filepath.Join(inst.dir, "access.log")) {
			if u, a := accessURI(e); u == uri && a == ua {
				found = e
			}
		}
		return found != nil
	})
	return found
}

func monCheckVerdict(t testing.TB, what string, e logEntry, verdict, action string) {
	t.Helper()
	rt, _ := e.obj("robots_txt")
	if rt.str("verdict") != verdict || rt.str("action") != action {
		t.Errorf("%s: robots_txt %v, want verdict %q and action %q", what, rt, verdict, action)
	}
}

func TestGrace(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, extra string
		grace       bool
	}{
		{"default", "", true},
		{"off", "grace off", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			inst := startCaddy(t, fmt.Sprintf(monGraceSite, tc.extra), monWithGraceSite)
			robotsPath := filepath.Join(inst.dir, "site", "robots.txt")

			// Bot A reads v1; /new is allowed, /old is not.
			if got := inst.get(t, "/robots.txt", testfixtures.UAGooglebot); got.body != graceV1 {
				t.Fatalf("/robots.txt: %q, want v1 %q", got.body, graceV1)
			}
			if got := inst.get(t, "/old/x.html", testfixtures.UAGooglebot); got.status != http.StatusForbidden {
				t.Fatalf("v1: Googlebot /old/x.html = %d, want 403", got.status)
			}

			// v2 comes into force; a fresh bot's fetch shows it.
			replaceFile(t, robotsPath, graceV2, 0o644)
			eventually(t, reloadDeadline, "v2 to be served", func() bool {
				return inst.get(t, "/robots.txt", testfixtures.UACurl).body == graceV2
			})

			// Bot A still obeys v1, which allows /new.
			gotA := inst.get(t, "/new/x.html", testfixtures.UAGooglebot)
			eA := monAccessFor(t, inst, "/new/x.html", testfixtures.UAGooglebot)
			if tc.grace {
				if gotA.status != http.StatusOK {
					t.Errorf("bot A (read v1) /new/x.html = %d, want 200 (grace)", gotA.status)
				}
				monCheckVerdict(t, "bot A /new/x.html", eA, "grace", "passed")
				var graceLogs []logEntry
				eventually(t, 30*time.Second, `the "robots.txt grace" log entry`, func() bool {
					graceLogs = nil
					for _, e := range inst.logs() {
						if e.str("logger") == "http.handlers.robots_txt" && strings.HasPrefix(e.str("msg"), "robots.txt grace") {
							graceLogs = append(graceLogs, e)
						}
					}
					return len(graceLogs) > 0
				})
				if len(graceLogs) != 1 {
					t.Errorf("grace log entries %v, want one at level info for bot A's /new/x.html", graceLogs)
				} else {
					for _, c := range []struct{ key, want string }{
						{"uri", "/new/x.html"},
						{"user_agent", testfixtures.UAGooglebot},
						{"level", "info"},
					} {
						if got := graceLogs[0].str(c.key); got != c.want {
							t.Errorf("grace log entry: %s %q, want %q (in %v)", c.key, got, c.want, graceLogs[0])
						}
					}
				}
			} else {
				if gotA.status != http.StatusForbidden {
					t.Errorf("grace off: bot A (read v1) /new/x.html = %d, want 403", gotA.status)
				}
				monCheckVerdict(t, "grace off: bot A /new/x.html", eA, "disallowed", "blocked")
			}
			// v2 allows /old for everyone.
			if got := inst.get(t, "/old/x.html", testfixtures.UAGooglebot); got.status != http.StatusOK {
				t.Errorf("v2: Googlebot /old/x.html = %d, want 200", got.status)
			}

			// Bot C reads v2: /new is a violation.
			if got := inst.get(t, "/robots.txt", testfixtures.UAPythonRequests); got.body != graceV2 {
				t.Errorf("bot C /robots.txt: %q, want v2", got.body)
			}
			if got := inst.get(t, "/new/x.html", testfixtures.UAPythonRequests); got.status != http.StatusForbidden {
				t.Errorf("bot C (read v2) /new/x.html = %d, want 403", got.status)
			}
			monCheckVerdict(t, "bot C /new/x.html", monAccessFor(t, inst, "/new/x.html", testfixtures.UAPythonRequests), "disallowed", "blocked")

			if !tc.grace {
				return
			}
			// A bot never seen fetching robots.txt has earned no grace:
			// the change applies to it at once.
			if got := inst.get(t, "/new/x.html", testfixtures.UAAhrefs); got.status != http.StatusForbidden {
				t.Errorf("bot without a known fetch /new/x.html = %d, want 403 (no grace without a fetch)", got.status)
			}
			eNone := monAccessFor(t, inst, "/new/x.html", testfixtures.UAAhrefs)
			monCheckVerdict(t, "bot without a known fetch /new/x.html", eNone, "disallowed", "blocked")
			if rt, _ := eNone.obj("robots_txt"); rt["fetched"] != false {
				t.Errorf("bot without a known fetch: fetched = %v, want false", rt["fetched"])
			}

			// Grace is counted apart from violations.
			st, _ := monGetStats(t, inst)
			for _, b := range st.Bots {
				if b.Bot == "Googlebot" && (b.Grace != 1 || b.Violations != 1) {
					t.Errorf("stats Googlebot: grace %d violations %d, want 1 and 1 (/new in grace, /old under v1)", b.Grace, b.Violations)
				}
			}
		})
	}
}

// TestGraceConfigReload: a config reload (a deploy, a certificate
// change) does not end the grace period of an earlier robots.txt. The
// fetch tracking survives the reload, so the versions it points at must
// too.
func TestGraceConfigReload(t *testing.T) {
	t.Parallel()
	inst := startCaddy(t, fmt.Sprintf(monGraceSite, ""), monWithGraceSite)
	robotsPath := filepath.Join(inst.dir, "site", "robots.txt")
	if got := inst.get(t, "/robots.txt", testfixtures.UAGooglebot); got.body != graceV1 {
		t.Fatalf("/robots.txt: %q, want v1 %q", got.body, graceV1)
	}
	replaceFile(t, robotsPath, graceV2, 0o644)
	eventually(t, reloadDeadline, "v2 to be served", func() bool {
		return inst.get(t, "/robots.txt", testfixtures.UACurl).body == graceV2
	})
	if got := inst.get(t, "/new/x.html", testfixtures.UAGooglebot); got.status != http.StatusOK {
		t.Fatalf("bot A (read v1) /new/x.html before the config reload = %d, want 200 (grace)", got.status)
	}

	monReloadConfig(t, inst)
	if got := inst.get(t, "/robots.txt", testfixtures.UACurl); got.body != graceV2 {
		t.Fatalf("/robots.txt after the config reload: %q, want v2", got.body)
	}
	logPath := filepath.Join(inst.dir, "access.log")
	// The fetch records survive the config reload: Googlebot, which read
	// v1, keeps its grace; AhrefsBot, which read nothing, has none.
	for _, c := range []struct {
		ua              string
		status          int
		verdict, action string
	}{
		{testfixtures.UAGooglebot, http.StatusOK, "grace", "passed"},
		{testfixtures.UAAhrefs, http.StatusForbidden, "disallowed", "blocked"},
	} {
		got, e := inst.getLogged(t, logPath, "/new/x.html", c.ua)
		if got.status != c.status {
			rt, _ := e.obj("robots_txt")
			t.Errorf("UA %q /new/x.html after a config reload = %d (robots_txt %v), want %d", c.ua, got.status, rt, c.status)
			continue
		}
		monCheckVerdict(t, "after a config reload: "+c.ua, e, c.verdict, c.action)
	}
}
