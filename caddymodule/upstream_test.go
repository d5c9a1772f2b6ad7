package caddymodule

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/caddyserver/caddy/v2"
	"github.com/caddyserver/caddy/v2/caddyconfig"
	"github.com/prometheus/client_golang/prometheus/testutil"
	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
	"go.uber.org/zap/zaptest/observer"

	"github.com/robotsguard/caddy-robots-txt/caddymodule/fetch"
	"github.com/robotsguard/caddy-robots-txt/config"
	"github.com/robotsguard/caddy-robots-txt/internal/testfixtures"
	"github.com/robotsguard/caddy-robots-txt/robots"
)

// upstream is a real HTTP server whose answer the test sets. Its answers
// carry no Date unless the test sets one: Go's server dates each to the
// second, and the fraction of a second that makes an answer seem old
// would take as much off its freshness.
func upstream(t *testing.T, h http.HandlerFunc) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header()["Date"] = nil
		h(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv
}

// statusUpstream is an upstream that answers body() while its status is
// 200 (as it starts), and only the status otherwise.
func statusUpstream(t *testing.T, body func() string) (*atomic.Int32, *httptest.Server) {
	t.Helper()
	status := new(atomic.Int32)
	status.Store(200)
	srv := upstream(t, func(w http.ResponseWriter, r *http.Request) {
		if s := int(status.Load()); s != 200 {
			w.WriteHeader(s)
			return
		}
		fmt.Fprint(w, body())
	})
	return status, srv
}

func TestFetchUpstream(t *testing.T) {
	const body = "User-agent: *\nDisallow: /private/\n"
	mux := http.NewServeMux()
	mux.HandleFunc("/ok", func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("User-Agent") != fetch.UserAgent {
			w.WriteHeader(400)
			return
		}
		w.Header().Set("Cache-Control", "public, max-age=3600")
		w.Header().Set("Last-Modified", "Mon, 02 Jan 2006 15:04:05 GMT")
		fmt.Fprint(w, body)
	})
	mux.HandleFunc("/hop/{n}", func(w http.ResponseWriter, r *http.Request) {
		var n int
		fmt.Sscan(r.PathValue("n"), &n)
		if n == 0 {
			http.Redirect(w, r, "/ok", http.StatusMovedPermanently)
			return
		}
		http.Redirect(w, r, fmt.Sprintf("/hop/%d", n-1), http.StatusFound)
	})
	mux.HandleFunc("/missing", http.NotFound)
	mux.HandleFunc("/forbidden", func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(403) })
	mux.HandleFunc("/broken", func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(503) })
	mux.HandleFunc("/busy", func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusTooManyRequests) })
	mux.HandleFunc("/slow", func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-time.After(5 * time.Second):
		case <-r.Context().Done():
		}
	})
	mux.HandleFunc("/truncated", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Length", "1000")
		fmt.Fprint(w, "User-agent: *\nDisallow: /")
		conn, _, _ := w.(http.Hijacker).Hijack()
		conn.Close()
	})
	mux.HandleFunc("/huge", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, "User-agent: *\nDisallow: /a\n")
		fmt.Fprint(w, strings.Repeat("# padding\n", 60000))
		fmt.Fprint(w, "Disallow: /b\n")
	})
	// The limit falls inside "Disallow: /private", after its "/".
	mux.HandleFunc("/cutrule", func(w http.ResponseWriter, r *http.Request) {
		head := "User-agent: foobot\n"
		fmt.Fprint(w, head+strings.Repeat("#", robots.DefaultMaxSize-len(head)-len("Disallow: /")-1)+"\n")
		fmt.Fprint(w, "Disallow: /private\n")
	})
	mux.HandleFunc("/html", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprint(w, "<!DOCTYPE html>\n<html><body>\n<h1>Welcome</h1>\n</body></html>\n")
	})
	mux.HandleFunc("/empty", func(w http.ResponseWriter, r *http.Request) {})
	mux.HandleFunc("/notmodified", func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusNotModified) })
	mux.HandleFunc("/nolocation", func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusFound) })
	mux.HandleFunc("/expires", func(w http.ResponseWriter, r *http.Request) {
		// The server's clock is an hour ahead: its answer is no
		// older for that, whenever the test runs.
		date := time.Now().Add(time.Hour)
		w.Header().Set("Date", date.UTC().Format(http.TimeFormat))
		w.Header().Set("Expires", date.Add(2*time.Hour).UTC().Format(http.TimeFormat))
		fmt.Fprint(w, body)
	})
	mux.HandleFunc("/aged", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "max-age=3600")
		w.Header().Set("Age", "600") // a CDN's copy, 10 minutes old
		fmt.Fprint(w, body)
	})
	mux.HandleFunc("/expired", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Expires", "0")
		http.NotFound(w, r)
	})
	srv := upstream(t, mux.ServeHTTP)
	client := newUpstreamClient()
	client.Timeout = 300 * time.Millisecond

	for _, tc := range []struct {
		path, result string
		disallowed   string // a path the fetched rules disallow; "" when none
		refresh      time.Duration
	}{
		{"/ok", "loaded", "/private/x", time.Hour},
		{"/hop/4", "loaded", "/private/x", time.Hour}, // 5 redirects
		{"/hop/5", "unreachable", "", refreshDefault}, // 6 redirects
		{"/missing", "unreachable", "", refreshDefault},
		{"/forbidden", "unreachable", "", refreshDefault},
		{"/broken", "failed", "", retryFirst},
		// 429 says the server is busy, not that there is no file: a
		// bot flood tripping the backend's rate limit must not turn
		// the rules off (Google reads 429 as a server error too).
		{"/busy", "failed", "", retryFirst},
		{"/slow", "failed", "", retryFirst},
		{"/truncated", "failed", "", retryFirst},
		{"/huge", "loaded", "/a", refreshDefault},
		// A 200 that is no robots.txt (an SPA's catch-all page) is a
		// failure: the last good copy stays.
		{"/html", "failed", "", retryFirst},
		// An empty robots.txt is a robots.txt: it allows everything.
		{"/empty", "loaded", "", refreshDefault},
		// A 304 to a request with no validators (a cache or proxy
		// that answers so) says nothing of the file: the copy in
		// force stays, as after a server error, not "no robots.txt".
		{"/notmodified", "failed", "", retryFirst},
		// A redirect with nowhere to go is read as "not found".
		{"/nolocation", "unreachable", "", refreshDefault},
		// Without max-age, Expires says how long either answer keeps.
		{"/expires", "loaded", "/private/x", 2 * time.Hour},
		{"/expired", "unreachable", "", refreshMin},
		// A copy a cache held for 10 minutes of an hour has 50 left.
		{"/aged", "loaded", "/private/x", 50 * time.Minute},
	} {
		res := fetchUpstream(context.Background(), client, srv.URL+tc.path)
		if res.result != tc.result || res.refresh != tc.refresh {
			t.Errorf("%s: result %q refresh %v (err %v), want %q %v", tc.path, res.result, res.refresh, res.err, tc.result, tc.refresh)
			continue
		}
		if tc.result == "failed" {
			if res.snap != nil || res.err == nil {
				t.Errorf("%s: a failure must keep the version in force and say why", tc.path)
			}
			continue
		}
		g, _ := res.snap.File.GroupForUserAgent("curl/8")
		if tc.disallowed != "" && g.Decide(tc.disallowed).Allowed {
			t.Errorf("%s: %s should be disallowed", tc.path, tc.disallowed)
		}
		if tc.disallowed == "" && (res.snap.File != nil && res.snap.File.Fields() > 0) {
			t.Errorf("%s: want no rules (allow all)", tc.path)
		}
	}
	// Cut at the end of the last whole line the limit leaves.
	if res := fetchUpstream(context.Background(), client, srv.URL+"/huge"); len(res.snap.body) > robots.DefaultMaxSize || len(res.snap.body) <= robots.DefaultMaxSize-len("# padding\n") || res.err == nil {
		t.Errorf("a body over 500 KiB is cut to its whole lines within %d bytes and reported; got %d bytes, err %v", robots.DefaultMaxSize, len(res.snap.body), res.err)
	}
	res := fetchUpstream(context.Background(), client, srv.URL+"/cutrule")
	if g, _ := res.snap.File.GroupForUserAgent("foobot/1.0"); g != nil && !g.Decide("/a").Allowed {
		t.Errorf("the rule the limit cuts (\"Disallow: /private\" after its \"/\") is read as \"Disallow: /\"")
	}
	if bytes.Contains(res.snap.body, []byte("Disallow: /")) {
		t.Errorf("the line the limit cuts is served: %q", res.snap.body[len(res.snap.body)-20:])
	}
}

// TestFreshness: an answer is fresh for Cache-Control's max-age, or else
// for Expires minus its Date (RFC 9111, section 4.2.1), within refreshMin
// and refreshMax.
func TestFreshness(t *testing.T) {
	now := time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)
	at := func(d time.Duration) string { return now.Add(d).Format(http.TimeFormat) }
	for _, tc := range []struct {
		cc, expires, date string
		want              time.Duration
	}{
		{"", "", "", refreshDefault},
		{"max-age=600", "", "", 10 * time.Minute},
		{"public, max-age=7200", "", "", 2 * time.Hour},
		{"max-age=5", "", "", refreshMin},
		{"max-age=999999999", "", "", refreshMax},
		{"max-age=99999999999999999999", "", "", refreshMax}, // 2^31 s, as RFC 9111 reads one too long to hold
		{"no-cache", "", "", refreshMin},
		{"no-store", "", "", refreshMin},
		{"max-age=7200, no-cache", "", "", refreshMin},
		{`NO-CACHE="Set-Cookie"`, "", "", refreshDefault}, // the qualified form: those fields only
		{`max-age=3600, no-cache="Set-Cookie, Vary"`, "", "", time.Hour},
		{"private, max-age=600", "", "", 10 * time.Minute},
		{"max-age=abc", "", "", refreshDefault},
		{`MAX-AGE="120"`, "", "", 2 * time.Minute},
		{"s-maxage=10, max-age=", "", "", refreshDefault},

		// The audit's case: 15 s, held to the shortest refresh, not
		// the default day.
		{"", at(15 * time.Second), at(0), refreshMin},
		{"", at(2 * time.Hour), at(0), 2 * time.Hour},
		{"", at(2 * time.Hour), "", 2 * time.Hour}, // no Date: when it came
		{"", at(48 * time.Hour), at(0), refreshMax},
		// Expires minus Date, not minus now: the server's clock is
		// half an hour ahead of ours.
		{"", at(150 * time.Minute), at(30 * time.Minute), 2 * time.Hour},
		{"", at(2 * time.Hour), "yesterday", 2 * time.Hour},
		// RFC 850 and asctime dates are dates too.
		{"", "Thursday, 02-Jan-25 05:04:05 GMT", at(0), 2 * time.Hour},
		{"", "Thu Jan  2 05:04:05 2025", at(0), 2 * time.Hour},
		// Expired, or no date at all, which means expired.
		{"", at(-time.Hour), at(0), refreshMin},
		{"", "0", at(0), refreshMin},
		{"", "-1", "", refreshMin},
		{"", "soon", "", refreshMin},
		{"", at(2*time.Hour) + "," + at(3*time.Hour), at(0), refreshMin}, // two fields
		// max-age wins over Expires, whichever is longer; no-cache
		// over both; s-maxage is a shared cache's, and an invalid
		// max-age is none.
		{"max-age=600", at(2 * time.Hour), at(0), 10 * time.Minute},
		{"max-age=7200", "0", at(0), 2 * time.Hour},
		{"no-cache", at(2 * time.Hour), at(0), refreshMin},
		{"s-maxage=600", at(2 * time.Hour), at(0), 2 * time.Hour},
		{"max-age=abc", at(2 * time.Hour), at(0), 2 * time.Hour},
	} {
		if got := freshness(tc.cc, tc.expires, tc.date, "", now); got != tc.want {
			t.Errorf("freshness(%q, Expires %q, Date %q) = %v, want %v", tc.cc, tc.expires, tc.date, got, tc.want)
		}
	}
}

// TestFreshnessLessAge: what an answer has of its freshness lifetime is
// what is left after its current age (RFC 9111, section 4.2.3): the
// larger of its Age and the time since its Date, ignoring an Age that is
// no number of seconds. A CDN's copy of a max-age of 100 s held 30 s was
// refetched after 100 s, and an Expires 65 s ahead of an answer dated a
// minute ago after 125.
func TestFreshnessLessAge(t *testing.T) {
	now := time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)
	at := func(d time.Duration) string { return now.Add(d).Format(http.TimeFormat) }
	for _, tc := range []struct {
		name                   string
		cc, expires, date, age string
		want                   time.Duration
	}{
		{"max-age with Age", "max-age=100", "", "", "30", 70 * time.Second},
		{"max-age with Age, no Date", "max-age=600", "", "", "120", 8 * time.Minute},
		{"max-age with a past Date", "max-age=600", "", at(-2 * time.Minute), "", 8 * time.Minute},
		{"Age older than the Date", "max-age=600", "", at(-time.Minute), "300", 5 * time.Minute},
		{"the Date older than Age", "max-age=600", "", at(-5 * time.Minute), "60", 5 * time.Minute},
		{"Expires with a past Date", "", at(65 * time.Second), at(-time.Minute), "", 65 * time.Second},
		{"Expires with a past Date and Age", "", at(2 * time.Hour), at(-time.Minute), "1800", 91 * time.Minute},
		{"Expires with Age, no Date", "", at(2 * time.Hour), "", "600", 110 * time.Minute},
		{"a Date that is no date, with Age", "max-age=600", "", "yesterday", "60", 9 * time.Minute},
		// The server's clock is ahead of ours: no age from the Date.
		{"a Date ahead", "max-age=600", "", at(30 * time.Minute), "", 10 * time.Minute},
		{"a Date ahead, with Age", "max-age=600", "", at(30 * time.Minute), "120", 8 * time.Minute},
		// Past the lifetime: stale, the shortest refresh.
		{"Age larger than max-age", "max-age=600", "", "", "900", refreshMin},
		{"Age as large as max-age", "max-age=600", "", "", "600", refreshMin},
		{"less than refreshMin left", "max-age=600", "", "", "570", refreshMin},
		{"an answer a day old", "max-age=3600", "", at(-24 * time.Hour), "", refreshMin},
		{"Age past Expires", "", at(time.Hour), at(0), "7200", refreshMin},
		{"an Age too long to hold", "max-age=600", "", "", "99999999999999999999", refreshMin},
		// The age comes off the whole lifetime, then refreshMax holds.
		{"a lifetime over refreshMax, with Age", "max-age=90000", "", "", "7200", 23 * time.Hour},
		{"a lifetime far over refreshMax, with Age", "max-age=172800", "", "", "3600", refreshMax},
		// An Age that is no delta-seconds is none.
		{"an Age that is no number", "max-age=600", "", "", "abc", 10 * time.Minute},
		{"a negative Age", "max-age=600", "", "", "-300", 10 * time.Minute},
		{"a fractional Age", "max-age=600", "", "", "1.5", 10 * time.Minute},
		{"two Age fields", "max-age=600", "", "", "300,400", 10 * time.Minute},
		{"an empty Age", "max-age=600", "", "", "", 10 * time.Minute},
		// Age shortens no heuristic day, nor lengthens no-cache.
		{"no max-age or Expires", "", "", at(-time.Hour), "3600", refreshDefault},
		{"no-cache with Age", "no-cache, max-age=600", "", "", "30", refreshMin},
	} {
		if got := freshness(tc.cc, tc.expires, tc.date, tc.age, now); got != tc.want {
			t.Errorf("%s: freshness(%q, Expires %q, Date %q, Age %q) = %v, want %v", tc.name, tc.cc, tc.expires, tc.date, tc.age, got, tc.want)
		}
	}
}

func TestLoadUpstreamKeepsLastGoodCopy(t *testing.T) {
	var body atomic.Value
	body.Store("User-agent: *\nDisallow: /v1\n")
	status, srv := statusUpstream(t, func() string { return body.Load().(string) })
	initMetrics()
	s := newUpstreamSource(srv.URL, &sourceSettings{logger: zap.NewNop(), grace: time.Hour})
	blocked := func(p string) bool {
		g, _ := s.current().File.GroupForUserAgent("curl/8")
		return !g.Decide(p).Allowed
	}

	status.Store(500) // down at the first load: allow all, retry soon
	wait, ok := s.loadUpstream(context.Background(), 0)
	failed := false
	if ok {
		t.Error("first load failing: ok = true, want false")
		failed = true
	}
	if wait != retryFirst {
		t.Errorf("first load failing: wait %v, want %v", wait, retryFirst)
		failed = true
	}
	if s.current().File != nil {
		t.Error("first load failing: a file is in force, want none (allow all)")
		failed = true
	}
	if failed {
		t.FailNow()
	}
	status.Store(200)
	if _, ok := s.loadUpstream(context.Background(), 1); !ok || !blocked("/v1") {
		t.Fatal("the recovered upstream's rules should be in force")
	}
	status.Store(502) // down later: the last good copy stays
	wait, ok = s.loadUpstream(context.Background(), 3)
	if ok {
		t.Error("a failure later: ok = true, want false")
		failed = true
	}
	if wait != retryFirst<<3 {
		t.Errorf("a failure later: wait %v, want %v", wait, retryFirst<<3)
		failed = true
	}
	if !blocked("/v1") {
		t.Error("a failure must keep the rules: /v1 is no longer disallowed")
		failed = true
	}
	if failed {
		t.FailNow()
	}
	if wait, _ := s.loadUpstream(context.Background(), 20); wait != retryMax {
		t.Errorf("retries back off to at most %v, got %v", retryMax, wait)
	}
	status.Store(404) // gone: allow all, and asked again soon
	wait, ok = s.loadUpstream(context.Background(), 0)
	if s.current().File != nil {
		t.Fatal("a 404 means no robots.txt")
	}
	if ok || wait != retryFirst {
		t.Errorf("a 404: wait %v ok %v; want %v, false (asked again like a failure)", wait, ok, retryFirst)
	}
	if wait, _ := s.loadUpstream(context.Background(), 2); wait != retryFirst<<2 {
		t.Errorf("a third 404 in a row: wait %v, want %v", wait, retryFirst<<2)
	}
	// A 404 after a run of failures is news: the site is open, and is
	// asked again after a minute, not after the failures' back-off; and
	// the other way round.
	status.Store(503)
	s.loadUpstream(context.Background(), 0)
	if wait, _ := s.loadUpstream(context.Background(), 5); wait != retryFirst<<5 {
		t.Fatalf("a sixth failure in a row: wait %v, want %v", wait, retryFirst<<5)
	}
	status.Store(404)
	if wait, _ := s.loadUpstream(context.Background(), 6); wait != retryFirst {
		t.Errorf("a 404 after six failures: wait %v, want %v", wait, retryFirst)
	}
	status.Store(503)
	if wait, _ := s.loadUpstream(context.Background(), 4); wait != retryFirst {
		t.Errorf("a failure after four 404s: wait %v, want %v", wait, retryFirst)
	}
}

// TestLoadUpstreamLogsNoRobotsTxt: each time the upstream comes to answer
// "no robots.txt", the load log says so at WARN; after a failed fetch too,
// when the site was already allowing every bot (it logged nothing then).
func TestLoadUpstreamLogsNoRobotsTxt(t *testing.T) {
	const msg = "the upstream has no robots.txt; every bot is allowed everywhere"
	for _, tc := range []struct {
		name     string
		statuses []int
		want     int // warnings with msg over the whole sequence
	}{
		{"404 at the first fetch", []int{404}, 1},
		{"404 again", []int{404, 404}, 1},
		{"404 after a good copy", []int{200, 404}, 1},
		{"404 after the first fetch failed", []int{500, 404}, 1},
		{"404 after the first fetch failed, then again", []int{500, 404, 404}, 1},
		{"404, a failure, 404", []int{404, 503, 404}, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			logs := fetchStatuses(t, zap.InfoLevel, tc.statuses)
			got := logs.FilterMessage(msg)
			if got.Len() != tc.want {
				t.Errorf("%d warnings %q, want %d; the log:\n%v", got.Len(), msg, tc.want, logs.All())
			}
			for _, e := range got.All() {
				if e.Level != zap.WarnLevel {
					t.Errorf("%q at %v, want WARN", msg, e.Level)
				}
			}
		})
	}
}

// TestLoadUpstreamFailureSaysWhatIsInForce: each failed fetch says what
// the site is held to meanwhile: the rules of the last good copy, or,
// while there is none (the upstream failing from the start, or after "no
// robots.txt"), no rules at all, at every retry and not only the first.
func TestLoadUpstreamFailureSaysWhatIsInForce(t *testing.T) {
	const (
		allowed = "robots.txt could not be fetched from the upstream; every bot is allowed until it can be"
		stay    = "robots.txt could not be fetched from the upstream; the rules in force stay"
	)
	for _, tc := range []struct {
		name     string
		statuses []int
		want     []string // the ERROR of each failed fetch, in order
	}{
		{"failing from the start", []int{503, 503, 503}, []string{allowed, allowed, allowed}},
		{"failing after a good copy", []int{200, 503, 500}, []string{stay, stay}},
		{"failing from the start, then after a good copy", []int{503, 503, 200, 503}, []string{allowed, allowed, stay}},
		{"failing after no robots.txt", []int{404, 503, 503}, []string{allowed, allowed}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			logs := fetchStatuses(t, zap.ErrorLevel, tc.statuses)
			var got []string
			for _, e := range logs.All() {
				got = append(got, e.Message)
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("errors logged:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
			}
		})
	}
}

// fetchStatuses loads an upstream robots.txt once for each status the
// upstream answers in turn, and returns what was logged at level or above.
func fetchStatuses(t *testing.T, level zapcore.Level, statuses []int) *observer.ObservedLogs {
	t.Helper()
	status, srv := statusUpstream(t, func() string { return "User-agent: *\nDisallow: /v1\n" })
	initMetrics()
	core, logs := observer.New(level)
	s := newUpstreamSource(srv.URL, &sourceSettings{logger: zap.New(core), grace: time.Hour})
	for i, st := range statuses {
		status.Store(int32(st))
		s.loadUpstream(context.Background(), i)
	}
	return logs
}

func TestRedactURL(t *testing.T) {
	for raw, want := range map[string]string{
		"http://app:8080/robots.txt":           "http://app:8080/robots.txt",
		"https://user:secret@app/robots.txt":   "https://REDACTED@app/robots.txt",
		"https://app/robots.txt?token=abc#x":   "https://app/robots.txt?REDACTED",
		"https://u:p@app:8443/r.txt?k=v&sig=1": "https://REDACTED@app:8443/r.txt?REDACTED",
		"https://app/robots.txt?":              "https://app/robots.txt?",
	} {
		got := redactURL(raw)
		if got != want {
			t.Errorf("redactURL(%q) = %q, want %q", raw, got, want)
		}
		if strings.Contains(got, "secret") || strings.Contains(got, "token") {
			t.Errorf("redactURL(%q) leaks a secret: %q", raw, got)
		}
	}
}

// TestStrictUpstreamNotRobots: with strict, an upstream that answers 200
// with something that is no robots.txt (an HTML page) stops the load, as
// a file with errors does; a server error does not (it says nothing of
// the file).
func TestStrictUpstreamNotRobots(t *testing.T) {
	status, srv := statusUpstream(t, func() string { return "<html><body>Welcome</body></html>" })
	initMetrics()
	s := newUpstreamSource(srv.URL, &sourceSettings{logger: zap.NewNop(), grace: time.Hour})
	s.loadUpstream(context.Background(), 0)
	if err := strictCheck(s, true); err == nil || !strings.Contains(err.Error(), "not a robots.txt") {
		t.Errorf("strict, upstream answers HTML: %v, want an error saying it is not a robots.txt", err)
	}
	status.Store(503)
	s.loadUpstream(context.Background(), 0)
	if err := strictCheck(s, true); err != nil {
		t.Errorf("strict, upstream down: %v, want none", err)
	}
	// No robots.txt at all at the first fetch: strict refuses that, as
	// it refuses a file that does not exist.
	status.Store(404)
	s = newUpstreamSource(srv.URL, &sourceSettings{logger: zap.NewNop(), grace: time.Hour})
	s.loadUpstream(context.Background(), 0)
	if err := strictCheck(s, true); err == nil || !strings.Contains(err.Error(), "does not exist") {
		t.Errorf("strict, upstream answers 404: %v, want an error saying there is no robots.txt", err)
	}
}

// TestSlowUpstreamAtReload: a reload fetches the upstream's file again;
// while a slow answer is awaited, the copy fetched before stays in force,
// and the warning says so rather than that every bot is allowed.
func TestSlowUpstreamAtReload(t *testing.T) {
	var slow atomic.Bool
	release := make(chan struct{})
	srv := upstream(t, func(w http.ResponseWriter, r *http.Request) {
		if slow.Load() {
			select {
			case <-release:
			case <-r.Context().Done():
				return
			}
		}
		fmt.Fprint(w, "User-agent: *\nDisallow: /private/\n")
	})
	t.Cleanup(func() { close(release) })
	cfg := config.Config{URL: srv.URL + "/robots.txt"}
	newTestHandler(t, cfg)
	slow.Store(true)
	h, logs := newTestHandler(t, cfg)
	warned := logs.FilterMessageSnippet("still being fetched").All()
	if len(warned) != 1 || !strings.Contains(warned[0].Message, "the copy fetched before") {
		t.Errorf("warnings %v, want one saying the copy fetched before stays in force", warned)
	}
	if v, _ := verdictOf(t, h, "/private/x", testfixtures.UACurl, "198.51.100.5"); v != "disallowed" {
		t.Errorf("/private/x during the fetch: %q, want disallowed by the copy fetched before", v)
	}
}

// TestUpstreamURLPlaceholders: the upstream is asked for the URL with its
// global placeholders replaced when the configuration loads, as an
// included list is; one that depends on the request is refused, in JSON
// at load and in a Caddyfile at its line ({host}, which Caddy's adapter
// writes {http.request.host}), rather than fetched as written for a 404
// that allows every bot.
func TestUpstreamURLPlaceholders(t *testing.T) {
	srv := upstream(t, func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/shop/robots.txt" {
			http.NotFound(w, r)
			return
		}
		fmt.Fprint(w, "User-agent: *\nDisallow: /private/\n")
	})
	t.Setenv("ROBOTS_TXT_TEST_SITE", "shop")
	t.Setenv("ROBOTS_TXT_TEST_UPSTREAM", strings.TrimPrefix(srv.URL, "http://"))
	for _, url := range []string{
		srv.URL + "/{env.ROBOTS_TXT_TEST_SITE}/robots.txt",
		"http://{env.ROBOTS_TXT_TEST_UPSTREAM}/shop/robots.txt",
	} {
		t.Run(url, func(t *testing.T) {
			h, _ := newTestHandler(t, config.Config{URL: url})
			if v, _ := verdictOf(t, h, "/private/x", testfixtures.UACurl, "198.51.100.5"); v != "disallowed" {
				t.Errorf("/private/x: %q, want disallowed by the upstream's robots.txt at /shop/robots.txt", v)
			}
		})
	}

	for _, tc := range []struct{ name, caddyfile, json, want string }{
		{"the request's host in the path", "url http://127.0.0.1:9288/d/{host}/robots.txt", "http://127.0.0.1:9288/d/{http.request.host}/robots.txt",
			`url: "http://127.0.0.1:9288/d/{http.request.host}/robots.txt" depends on the request ({http.request.host} is not known when the configuration loads)`},
		{"the request's host as the host", "url http://{host}/robots.txt", "http://{http.request.host}/robots.txt",
			`url: "http://{http.request.host}/robots.txt" depends on the request`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			input := ":80 {\n\trobots_txt {\n\t\t" + tc.caddyfile + "\n\t}\n}\n"
			_, _, err := caddyconfig.GetAdapter("caddyfile").Adapt([]byte(input), nil)
			if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "Caddyfile:3") {
				t.Errorf("adapt: %v; want an error at Caddyfile:3 saying %q", err, tc.want)
			}
			h := &Handler{Config: config.Config{URL: tc.json}, verifyOptions: offlineVerify, logger: zap.NewNop()}
			ctx, cancel := newContext()
			defer cancel()
			if err := h.Provision(ctx); err == nil || !strings.Contains(err.Error(), tc.want) {
				if err == nil {
					h.Cleanup()
				}
				t.Errorf("provision: %v; want an error saying %q", err, tc.want)
			}
		})
	}
}

// TestStrictWaitsForTheAnswers: strict checks what the upstream and the
// included URLs answer, however slowly (within a fetch's timeout), and
// with included lists too: an HTML page or a 4xx stops the load, a server
// error does not but is said to have gone unchecked.
func TestStrictWaitsForTheAnswers(t *testing.T) {
	srv := upstream(t, func(w http.ResponseWriter, r *http.Request) {
		if strings.HasPrefix(r.URL.Path, "/slow/") {
			// Past the second a load waits without strict.
			select {
			case <-time.After(upstreamStartWait + 500*time.Millisecond):
			case <-r.Context().Done():
				return
			}
		}
		switch path.Base(r.URL.Path) {
		case "robots.txt":
			fmt.Fprint(w, "User-agent: *\nDisallow: /private/\n")
		case "list.txt":
			fmt.Fprint(w, "User-agent: ListBot\nDisallow: /\n")
		case "page.html":
			fmt.Fprint(w, "<html><body>Welcome</body></html>")
		case "down":
			http.Error(w, "down", http.StatusServiceUnavailable)
		default:
			http.NotFound(w, r)
		}
	})
	list := filepath.Join(t.TempDir(), "list.txt")
	os.WriteFile(list, []byte("User-agent: ListBot\nDisallow: /\n"), 0o644)
	missing := filepath.Join(t.TempDir(), "robots.txt")
	for _, tc := range []struct {
		name      string
		cfg       config.Config
		wantErr   string // "" for a load that succeeds
		unchecked bool   // a WARN says strict could not check the upstream
	}{
		{"slow upstream answers 404", config.Config{URL: srv.URL + "/slow/gone.txt"}, "does not exist", false},
		{"slow upstream answers HTML", config.Config{URL: srv.URL + "/slow/page.html"}, "not a robots.txt", false},
		{"slow upstream answers a robots.txt", config.Config{URL: srv.URL + "/slow/robots.txt"}, "", false},
		{"upstream 404 beside an included file", config.Config{URL: srv.URL + "/gone.txt", Include: []string{list}}, "does not exist", false},
		{"no file beside an included file", config.Config{File: missing, Include: []string{list}}, "does not exist", false},
		{"included URL answers HTML", config.Config{Inline: "User-agent: *\nDisallow: /a\n", Include: []string{srv.URL + "/slow/page.html"}}, "not a robots.txt", false},
		{"included URL answers 404", config.Config{Inline: "User-agent: *\nDisallow: /a\n", Include: []string{srv.URL + "/gone.txt"}}, "answered 404", false},
		{"included URL answers a list", config.Config{Inline: "User-agent: *\nDisallow: /a\n", Include: []string{srv.URL + "/slow/list.txt"}}, "", false},
		{"{host} root, included URL answers HTML", config.Config{File: t.TempDir() + "/{http.request.host}/robots.txt", Include: []string{srv.URL + "/page.html"}}, "not a robots.txt", false},
		{"upstream down", config.Config{URL: srv.URL + "/down"}, "", true},
		{"included URL down", config.Config{Inline: "User-agent: *\nDisallow: /a\n", Include: []string{srv.URL + "/down"}}, "", true},
		{"upstream down, included URL answers HTML", config.Config{URL: srv.URL + "/down", Include: []string{srv.URL + "/page.html"}}, "not a robots.txt", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.cfg.Strict = true
			h := &Handler{Config: tc.cfg, verifyOptions: offlineVerify}
			ctx, cancel := caddy.NewContext(caddy.Context{Context: context.Background()})
			defer cancel()
			core, logs := observer.New(zapcore.WarnLevel)
			h.logger = zap.New(core)
			err := h.Provision(ctx)
			defer h.Cleanup()
			switch {
			case tc.wantErr == "" && err != nil:
				t.Fatalf("load failed: %v", err)
			case tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr)):
				t.Fatalf("load: %v, want an error containing %q", err, tc.wantErr)
			}
			if n := logs.FilterMessageSnippet("strict could not check").Len(); (n > 0) != tc.unchecked {
				t.Errorf("%d warnings that strict could not check the upstream, want them: %v", n, tc.unchecked)
			}
		})
	}
}

// TestStoppedFetchSaysNothing: a fetch cut because its source stopped
// (caddy validate cleans up right after the load) is no failure of the
// upstream: nothing is logged, counted or put in force.
func TestStoppedFetchSaysNothing(t *testing.T) {
	srv := upstream(t, func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, "User-agent: *\nDisallow: /private/\n")
	})
	initMetrics()
	core, logs := observer.New(zapcore.DebugLevel)
	s := newUpstreamSource(srv.URL, &sourceSettings{logger: zap.New(core), grace: time.Hour})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	failed := testutil.ToFloat64(reloadsTotal.WithLabelValues("failed"))
	s.loadUpstream(ctx, 0)
	if logs.Len() != 0 || !s.current().unknown || s.lastFetch() != "" || testutil.ToFloat64(reloadsTotal.WithLabelValues("failed")) != failed {
		t.Errorf("a cut fetch logged %v, left unknown %v, last fetch %q", logs.All(), s.current().unknown, s.lastFetch())
	}
}

// TestUnchangedFetchIsALoad: a refresh that fetches the same file again
// counts as a load in reloads_total, and so moves the last load's time:
// the two metrics must not contradict each other, and an alert on a stale
// last load must not fire on an upstream that answers unchanged.
func TestUnchangedFetchIsALoad(t *testing.T) {
	srv := upstream(t, func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, "User-agent: *\nDisallow: /private/\n")
	})
	initMetrics()
	s := newUpstreamSource(srv.URL, &sourceSettings{logger: zap.NewNop(), grace: time.Hour})
	s.loadUpstream(context.Background(), 0)
	lastLoad.WithLabelValues(s.name()).Set(0)
	loaded := testutil.ToFloat64(reloadsTotal.WithLabelValues("loaded"))
	s.loadUpstream(context.Background(), 0)
	if n := testutil.ToFloat64(reloadsTotal.WithLabelValues("loaded")) - loaded; n != 1 {
		t.Errorf("the refetch counted %v loads, want 1", n)
	}
	if at := testutil.ToFloat64(lastLoad.WithLabelValues(s.name())); at == 0 {
		t.Error("the refetch of the same file did not move the last load's time")
	}
}

// TestReloadKeepsTheUpstreamCopy: a configuration reload that changes a
// setting its source is made with (grace) makes a new source for the same
// url, which starts from the copy the running one fetched: an upstream
// that fails during the reload keeps the rules in force and served.
func TestReloadKeepsTheUpstreamCopy(t *testing.T) {
	status, srv := statusUpstream(t, func() string { return "User-agent: *\nDisallow: /up/\n" })
	old, _ := newTestHandler(t, config.Config{URL: srv.URL + "/robots.txt"})
	if _, err := serve(old, newRequest("GET", "/up/x", testfixtures.UACurl)); err == nil {
		t.Fatal("/up/x passed before the reload")
	}
	status.Store(503)
	h, logs := newTestHandler(t, config.Config{URL: srv.URL + "/robots.txt", Grace: noGrace})
	if h.fixed == old.fixed {
		t.Fatal("the handlers share a source; the test needs two")
	}
	old.Cleanup()
	if _, err := serve(h, newRequest("GET", "/up/x", testfixtures.UACurl)); err == nil {
		t.Error("/up/x passed after a reload while the upstream is down; the copy fetched before disallows it")
	}
	if w, _ := serve(h, newRequest("GET", "/robots.txt", testfixtures.UACurl)); !strings.Contains(w.Body.String(), "Disallow: /up/") {
		t.Errorf("/robots.txt after the reload: %q, want the copy fetched before", w.Body.String())
	}
	if logs.FilterMessageSnippet("every bot is allowed").Len() != 0 || logs.FilterMessageSnippet("the rules in force stay").Len() == 0 {
		t.Errorf("the log does not say the rules in force stay: %v", logs.All())
	}
}

// TestStrictReloadNoRobotsTxt: strict refuses an upstream's "no
// robots.txt" at the first fetch only. At a reload it is what the running
// configuration has in force once fetched; refusing the reload would not
// undo that.
func TestStrictReloadNoRobotsTxt(t *testing.T) {
	status, srv := statusUpstream(t, func() string { return "User-agent: *\nDisallow: /up/\n" })
	cfg := config.Config{URL: srv.URL + "/robots.txt", Strict: true}
	newTestHandler(t, cfg)
	status.Store(404)
	newTestHandler(t, cfg)         // the same source
	cfg.Grace = noGrace            // a source of its own, from the copy before
	h, _ := newTestHandler(t, cfg) // fails the test if refused
	if _, err := serve(h, newRequest("GET", "/up/x", testfixtures.UACurl)); err != nil {
		t.Errorf("/up/x refused, though the upstream now has no robots.txt: %v", err)
	}
}
