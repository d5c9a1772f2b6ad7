package caddymodule

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/caddyserver/caddy/v2"
	"github.com/caddyserver/caddy/v2/modules/caddyhttp"
	"go.uber.org/zap"

	"github.com/robotsguard/caddy-robots-txt/caddymodule/pace"
	"github.com/robotsguard/caddy-robots-txt/config"
	"github.com/robotsguard/caddy-robots-txt/internal/testfixtures"
)

// TestCrawlDelay: a group's Crawl-delay is a rate — per crawler when the
// group names a crawler verified as itself, per address for bots held to
// the * group and for claims nobody verified (anyone can send a name).
func TestCrawlDelay(t *testing.T) {
	const robotsTxt = "User-agent: SlowBot\nCrawl-delay: 10\nDisallow: /private/\n\nUser-agent: *\nCrawl-delay: 10\n"
	type step struct {
		ua, ip, path string
		verdict      string
		status       int // of the refusal; 0: passed
	}
	for _, tc := range []struct {
		name   string
		policy string
		steps  []step
	}{
		{"enforce", "", []step{
			// A burst of three, then one per 10 s.
			{"SlowBot/1.0", "192.0.2.1", "/a", "allowed", 0},
			{"SlowBot/1.0", "192.0.2.2", "/b", "allowed", 0},
			{"SlowBot/1.0", "192.0.2.3", "/c", "allowed", 0},
			// Counted across addresses: SlowBot, verified by its
			// ranges, is one crawler.
			{"SlowBot/1.0", "192.0.2.4", "/d", "too-fast", http.StatusTooManyRequests},
			// A disallowed path is a disallow violation, not a rate one.
			{"SlowBot/1.0", "192.0.2.4", "/private/x", "disallowed", http.StatusForbidden},
			// A claim from outside its ranges does not use up its
			// schedule, nor share one with other claims.
			{"SlowBot/1.0", "203.0.113.9", "/e", "allowed", 0},
			{"SlowBot/1.0", "203.0.113.10", "/e", "allowed", 0},
			// Unnamed bots are counted per address.
			{"curl/8", "198.51.100.1", "/a", "allowed", 0},
			{"curl/8", "198.51.100.1", "/a", "allowed", 0},
			{"curl/8", "198.51.100.1", "/a", "allowed", 0},
			{"curl/8", "198.51.100.1", "/a", "too-fast", http.StatusTooManyRequests},
			{"curl/8", "198.51.100.2", "/a", "allowed", 0},
			// An IPv6 client is counted by its /64: rotating addresses
			// inside it buys no fresh schedule.
			{"curl/8", "2001:db8:7:7::1", "/a", "allowed", 0},
			{"curl/8", "2001:db8:7:7::2", "/a", "allowed", 0},
			{"curl/8", "2001:db8:7:7::3", "/a", "allowed", 0},
			{"curl/8", "2001:db8:7:7::4", "/a", "too-fast", http.StatusTooManyRequests},
			{"curl/8", "2001:db8:7:8::1", "/a", "allowed", 0},
		}},
		{"monitor", config.ModeMonitor, []step{
			{"SlowBot/1.0", "192.0.2.1", "/a", "allowed", 0},
			{"SlowBot/1.0", "192.0.2.1", "/a", "allowed", 0},
			{"SlowBot/1.0", "192.0.2.1", "/a", "allowed", 0},
			{"SlowBot/1.0", "192.0.2.1", "/a", "too-fast", 0},
		}},
		{"off", config.CrawlDelayOff, []step{
			{"SlowBot/1.0", "192.0.2.1", "/a", "allowed", 0},
			{"SlowBot/1.0", "192.0.2.1", "/a", "allowed", 0},
			{"SlowBot/1.0", "192.0.2.1", "/a", "allowed", 0},
			{"SlowBot/1.0", "192.0.2.1", "/a", "allowed", 0},
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h, logs := newTestHandler(t, config.Config{Inline: robotsTxt, CrawlDelay: tc.policy,
				Crawlers: []config.Crawler{{Token: "SlowBot", Ranges: []string{"192.0.2.0/24"}}}})
			for i, s := range tc.steps {
				r := withIP(newRequest("GET", s.path, s.ua), s.ip)
				w, err := serve(h, r)
				repl := r.Context().Value(caddy.ReplacerCtxKey).(*caddy.Replacer)
				verdict, _ := repl.GetString("http.robots_txt.verdict")
				if verdict != s.verdict {
					t.Errorf("step %d (%s %s from %s): verdict %q, want %q", i, s.ua, s.path, s.ip, verdict, s.verdict)
				}
				status := 0
				if he, ok := err.(caddyhttp.HandlerError); ok {
					status = he.StatusCode
				}
				if status != s.status {
					t.Errorf("step %d: refused with %d, want %d", i, status, s.status)
				}
				if s.status == http.StatusTooManyRequests && w.Header().Get("Retry-After") != "10" {
					t.Errorf("step %d: Retry-After %q, want 10", i, w.Header().Get("Retry-After"))
				}
			}
			if tc.name == "monitor" && logs.FilterMessage("robots.txt crawl-delay violation").Len() != 1 {
				t.Errorf("want one crawl-delay violation logged, got %v", logs.All())
			}
		})
	}
}

// TestCrawlDelayGoogleIgnores: Google's crawlers do not read Crawl-delay,
// so one verified as itself is not paced, whether the * group or its own
// gives the delay; a claim from outside its addresses is, as is any
// crawler that reads the delay.
func TestCrawlDelayGoogleIgnores(t *testing.T) {
	const googlebot = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"
	for _, robotsTxt := range []string{
		"User-agent: *\nCrawl-delay: 10\nDisallow: /private/\n",
		"User-agent: Googlebot\nUser-agent: GPTBot\nCrawl-delay: 10\nDisallow: /private/\n",
	} {
		h, _ := newTestHandler(t, config.Config{Inline: robotsTxt, Crawlers: []config.Crawler{
			{Token: "Googlebot", Ranges: []string{"192.0.2.0/25"}}, {Token: "GPTBot", Ranges: []string{"192.0.2.128/25"}}}})
		verdicts := func(ua, ip, path string, n int) []string {
			var got []string
			for range n {
				r := withIP(newRequest("GET", path, ua), ip)
				serve(h, r)
				v, _ := r.Context().Value(caddy.ReplacerCtxKey).(*caddy.Replacer).GetString("http.robots_txt.verdict")
				got = append(got, v)
			}
			return strings.Fields(strings.Join(got, " "))
		}
		for _, tc := range []struct {
			who, ua, ip string
			want        string
		}{
			{"verified Googlebot", googlebot, "192.0.2.5", "allowed allowed allowed allowed allowed"},
			{"a Googlebot claim from elsewhere", googlebot, "203.0.113.9", "allowed allowed allowed too-fast too-fast"},
			{"verified GPTBot", "GPTBot/1.1", "192.0.2.200", "allowed allowed allowed too-fast too-fast"},
		} {
			if got := strings.Join(verdicts(tc.ua, tc.ip, "/a", 5), " "); got != tc.want {
				t.Errorf("%q, %s: verdicts %s, want %s", robotsTxt, tc.who, got, tc.want)
			}
		}
		// Its rules still hold it.
		if got := verdicts(googlebot, "192.0.2.6", "/private/x", 1); got[0] != "disallowed" {
			t.Errorf("%q, verified Googlebot on /private/x: verdict %s, want disallowed", robotsTxt, got[0])
		}
	}
}

// TestCrawlDelayYandexMax: Yandex reads no Crawl-delay longer than 2 s, so
// YandexBot verified as itself is paced at 2 s where the file asks for 10;
// a claim from elsewhere is paced at the file's 10 s (audit AN's notes).
func TestCrawlDelayYandexMax(t *testing.T) {
	const yandex = "Mozilla/5.0 (compatible; YandexBot/3.0; +http://yandex.com/bots)"
	h, logs := newTestHandler(t, config.Config{Inline: "User-agent: Yandex\nCrawl-delay: 10\n\nUser-agent: *\nDisallow: /private/\n",
		Impostors: config.ImpostorsJudge, Crawlers: []config.Crawler{{Token: "YandexBot", Ranges: []string{"192.0.2.0/24"}}}})
	for _, tc := range []struct {
		who, ip, retry string
	}{
		{"verified", "192.0.2.5", "2"},
		{"a claim from elsewhere", "203.0.113.9", "10"},
	} {
		var (
			w   *httptest.ResponseRecorder
			err error
		)
		for range 4 {
			w, err = serve(h, withIP(newRequest("GET", "/a", yandex), tc.ip))
		}
		if he, ok := err.(caddyhttp.HandlerError); !ok || he.StatusCode != http.StatusTooManyRequests || w.Header().Get("Retry-After") != tc.retry {
			t.Errorf("%s: fourth request in a row: %v, Retry-After %q; want 429 after %s s", tc.who, err, w.Header().Get("Retry-After"), tc.retry)
		}
		// The log says the delay it was held to (audit AP-F4).
		all := logs.FilterMessageSnippet("crawl-delay violation").All()
		if len(all) == 0 {
			t.Fatalf("%s: no crawl-delay violation logged", tc.who)
		}
		if got := fmt.Sprint(all[len(all)-1].ContextMap()["crawl_delay"]); got != tc.retry+"s" {
			t.Errorf("%s: logged crawl_delay %s, want %ss", tc.who, got, tc.retry)
		}
	}
}

// TestCrawlDelayOfItsOwnAgents: in "User-agent: Bingbot / Crawl-delay: 10 /
// User-agent: * / ...", Google's grouping keeps both agents in one group
// for the rules, but the delay is Bingbot's: other bots are paced by the
// * group's own Crawl-delay, not at Bingbot's rate.
func TestCrawlDelayOfItsOwnAgents(t *testing.T) {
	const robotsTxt = "User-agent: Bingbot\nCrawl-delay: 10\n\nUser-agent: *\nDisallow: /private/\nCrawl-delay: 2\n"
	h, _ := newTestHandler(t, config.Config{Inline: robotsTxt})
	var (
		w   *httptest.ResponseRecorder
		err error
	)
	for range 4 {
		w, err = serve(h, withIP(newRequest("GET", "/a", testfixtures.UACurl), "198.51.100.7"))
	}
	if he, ok := err.(caddyhttp.HandlerError); !ok || he.StatusCode != http.StatusTooManyRequests || w.Header().Get("Retry-After") != "2" {
		t.Errorf("fourth request in a row: %v, Retry-After %q; want 429 after 2 s, the * group's delay", err, w.Header().Get("Retry-After"))
	}
	// The rules that end the run are still Bingbot's, as Google reads them.
	if _, err := serve(h, withIP(newRequest("GET", "/private/x", "Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)"), "198.51.100.8")); err == nil {
		t.Error("bingbot allowed /private/x, which the rules after its run disallow")
	}
}

// TestCrawlDelayGroupsApartAtOneAddress: bots of several groups behind one
// address (a cloud NAT) each keep to their own group's delay; one group's
// long delay does not refuse, nor make wait, a bot of another. Bots of one
// group at an address share its schedule.
func TestCrawlDelayGroupsApartAtOneAddress(t *testing.T) {
	const robotsTxt = "User-agent: BigBot\nCrawl-delay: 60\n\nUser-agent: SlowBot\nCrawl-delay: 5\n\nUser-agent: *\nCrawl-delay: 2\n"
	h, _ := newTestHandler(t, config.Config{Inline: robotsTxt})
	const ip = "198.51.100.20"
	for _, s := range []struct {
		ua         string
		status     int
		retryAfter string
	}{
		{"BigBot/1.0", 0, ""},
		{"BigBot/1.0", 0, ""},
		{"BigBot/1.0", 0, ""},
		{"BigBot/1.0", http.StatusTooManyRequests, "60"},
		// Not BigBot's schedule: a first request, and a burst of its own.
		{"SlowBot/1.0", 0, ""},
		{"SlowBot/1.0", 0, ""},
		{"SlowBot/1.0", 0, ""},
		{"SlowBot/1.0", http.StatusTooManyRequests, "5"},
		{testfixtures.UACurl, 0, ""},
		// Bots held to the * group share its schedule at the address.
		{"python-requests/2.31", 0, ""},
		{testfixtures.UACurl, 0, ""},
		{"python-requests/2.31", http.StatusTooManyRequests, "2"},
	} {
		w, err := serve(h, withIP(newRequest("GET", "/a", s.ua), ip))
		status := 0
		if he, ok := err.(caddyhttp.HandlerError); ok {
			status = he.StatusCode
		}
		if status != s.status || w.Header().Get("Retry-After") != s.retryAfter {
			t.Errorf("%s: status %d, Retry-After %q; want %d, %q", s.ua, status, w.Header().Get("Retry-After"), s.status, s.retryAfter)
		}
	}
}

// TestSitesApart: a robots.txt speaks for the host it was served from.
// With one file behind several hosts (one handler, or site blocks that
// name the same file), a crawler's pace, its fetches and a trapped address
// on one host do not carry to another.
func TestSitesApart(t *testing.T) {
	const robotsTxt = "User-agent: SlowBot\nCrawl-delay: 10\n\nUser-agent: *\nCrawl-delay: 10\nDisallow: /private/\n"
	h, _ := newTestHandler(t, config.Config{Inline: robotsTxt, Trap: "/trap/"})
	at := func(host, path, ua, ip string) string {
		r := withIP(newRequest("GET", path, ua), ip)
		r.Host = host
		serve(h, r)
		v, _ := r.Context().Value(caddy.ReplacerCtxKey).(*caddy.Replacer).GetString("http.robots_txt.verdict")
		return v
	}
	for range 3 {
		at("a.test", "/x", "SlowBot/1.0", "192.0.2.1")
	}
	if v := at("a.test", "/x", "SlowBot/1.0", "192.0.2.1"); v != "too-fast" {
		t.Fatalf("SlowBot's fourth request to a.test: %q, want too-fast", v)
	}
	if v := at("b.test", "/x", "SlowBot/1.0", "192.0.2.1"); v != "allowed" {
		t.Errorf("SlowBot's first request to b.test: %q, want allowed", v)
	}
	if v := at("B.TEST", "/y", "SlowBot/1.0", "192.0.2.1"); v != "allowed" {
		t.Errorf("SlowBot's second request to b.test, Host in capitals: %q, want allowed", v)
	}
	// A browser caught by a.test's trap is held there, not on b.test.
	at("a.test", "/trap/x", testfixtures.UAChrome, "198.51.100.7")
	if v := at("a.test", "/private/x", testfixtures.UAChrome, "198.51.100.7"); v != "disallowed" {
		t.Errorf("trapped browser on a.test: %q, want disallowed", v)
	}
	if v := at("b.test", "/private/x", testfixtures.UAChrome, "198.51.100.7"); v != "" {
		t.Errorf("trapped browser on b.test: verdict %q, want none (not judged)", v)
	}
}

// TestSiteSpellings: the port in a Host header is the client's to choose,
// and a.test, A.TEST., a.test:1 all reach the same site; none of them
// lets a trapped or paced client start afresh.
func TestSiteSpellings(t *testing.T) {
	const robotsTxt = "User-agent: SlowBot\nCrawl-delay: 10\n\nUser-agent: *\nDisallow: /private/\n"
	h, _ := newTestHandler(t, config.Config{Inline: robotsTxt, Trap: "/trap/"})
	at := func(host string, port int, path, ua, ip string) string {
		r := withIP(newRequest("GET", path, ua), ip)
		r.Host = host
		r = r.WithContext(context.WithValue(r.Context(), http.LocalAddrContextKey, &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: port}))
		serve(h, r)
		v, _ := r.Context().Value(caddy.ReplacerCtxKey).(*caddy.Replacer).GetString("http.robots_txt.verdict")
		return v
	}
	spellings := []string{"a.test:8080", "a.test", "A.TEST", "a.test.", "a.test:1", "a.test:08080"}
	for range 3 {
		at("a.test:8080", 8080, "/x", "SlowBot/1.0", "192.0.2.1")
	}
	at("a.test:8080", 8080, "/trap/x", testfixtures.UAChrome, "198.51.100.7")
	for _, host := range spellings {
		if v := at(host, 8080, "/x", "SlowBot/1.0", "192.0.2.1"); v != "too-fast" {
			t.Errorf("SlowBot's next request, Host %q: %q, want too-fast", host, v)
		}
		if v := at(host, 8080, "/private/x", testfixtures.UAChrome, "198.51.100.7"); v != "disallowed" {
			t.Errorf("trapped browser, Host %q: %q, want disallowed", host, v)
		}
	}
	if v := at("b.test:8080", 8080, "/x", "SlowBot/1.0", "192.0.2.1"); v != "allowed" {
		t.Errorf("SlowBot on another host: %q, want allowed", v)
	}
}

// TestCrawlDelayBody: with a body set, a 429 carries it too, with its own
// status and Retry-After.
func TestCrawlDelayBody(t *testing.T) {
	h, _ := newTestHandler(t, config.Config{Inline: "User-agent: *\nCrawl-delay: 10\n", Body: "slow down, {http.robots_txt.bot}"})
	var w *httptest.ResponseRecorder
	for range 4 {
		w, _ = serve(h, withIP(newRequest("GET", "/x", "curl/8"), "192.0.2.1"))
	}
	if w.Code != http.StatusTooManyRequests || w.Body.String() != "slow down, curl" || w.Header().Get("Retry-After") != "10" {
		t.Errorf("fourth request: %d %q Retry-After %q; want 429 %q 10", w.Code, w.Body.String(), w.Header().Get("Retry-After"), "slow down, curl")
	}
}

// TestLongHostsCostNoMemory: a Host header may be 20 KB, and anyone can
// send thousands of distinct ones to a catch-all site. The per-site state
// (fetches, traps, Crawl-delay schedules) is bounded by entries; its keys
// must not keep the headers, or 100,000 entries would hold 2 GB.
func TestLongHostsCostNoMemory(t *testing.T) {
	h, _ := newTestHandler(t, config.Config{Inline: "User-agent: *\nCrawl-delay: 1\nDisallow: /private/\n", Trap: "/trap/"})
	h.logger = zap.NewNop() // the test's observer keeps every entry
	const n, hostLen = 1000, 16 << 10
	pad := strings.Repeat("a", hostLen)
	send := func(i int, path, ua string) {
		r := withIP(newRequest("GET", path, ua), "192.0.2.1")
		r.Host = fmt.Sprintf("h%d.%s", i, pad)
		serve(h, r)
	}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	for i := range n {
		send(i, "/robots.txt", "curl/8") // a fetch record
		send(i, "/x", "curl/8")          // a Crawl-delay schedule
		send(i, "/trap/", "curl/8")      // a trapped address
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	if grew := int64(after.HeapInuse) - int64(before.HeapInuse); grew > n*hostLen/4 {
		t.Errorf("the heap grew by %d bytes after %d distinct %d-byte Hosts; the keys keep the headers", grew, n, hostLen)
	}
}

// TestCrawlDelayAcrossEdits: a bot's schedule at an address is its
// group's, whatever line the group starts at: an edit of robots.txt that
// moves the group (a comment, a group added above it) buys no bot a new
// burst.
func TestCrawlDelayAcrossEdits(t *testing.T) {
	const robotsTxt = "User-agent: *\nCrawl-delay: 10\n"
	path := writeRobots(t, robotsTxt)
	h, _ := newTestHandler(t, config.Config{File: path, DisableReload: true})
	const ip = "198.51.100.30"
	code := func(ua string) int {
		if _, err := serve(h, withIP(newRequest("GET", "/a", ua), ip)); err != nil {
			if he, ok := err.(caddyhttp.HandlerError); ok {
				return he.StatusCode
			}
			return -1
		}
		return 200
	}
	for range 3 {
		code(testfixtures.UACurl)
	}
	if c := code(testfixtures.UACurl); c != http.StatusTooManyRequests {
		t.Fatalf("a fourth request at once: %d, want 429", c)
	}
	os.WriteFile(path, []byte("# edited\nUser-agent: OtherBot\nDisallow: /x\n\n"+robotsTxt), 0o644)
	bump(t, path, time.Second)
	h.fixed.refresh()
	if c := code(testfixtures.UACurl); c != http.StatusTooManyRequests {
		t.Errorf("after an edit that moved the * group: %d, want 429 (the same schedule)", c)
	}
}

// TestCrawlDelayLowered: a Crawl-delay lowered by an edit holds a bot to
// the new delay from when the edit came into force, not from its first
// request after it: a bot that used its burst under 30 s and waits 7 s
// after an edit to 1 s owes nothing (the audit's case was a 429 with
// Retry-After: 1). The clock is the versions' load times, not a wait.
func TestCrawlDelayLowered(t *testing.T) {
	path := writeRobots(t, "User-agent: *\nCrawl-delay: 30\n")
	h, _ := newTestHandler(t, config.Config{File: path, DisableReload: true})
	r := withIP(newRequest("GET", "/a", testfixtures.UACurl), "198.51.100.31")
	before := h.fixed.current()
	for i := range pace.Burst {
		if ok, _ := h.pace(r, h.identify(testfixtures.UACurl, before), false, siteOf(r), before.Since); !ok {
			t.Fatalf("request %d of the burst under 30 s refused", i)
		}
	}
	os.WriteFile(path, []byte("User-agent: *\nCrawl-delay: 1\n"), 0o644)
	bump(t, path, time.Second)
	h.fixed.refresh()
	after := h.fixed.current()
	if after == before {
		t.Fatal("the edit was not loaded")
	}
	id := h.identify(testfixtures.UACurl, after)
	for i := range pace.Burst {
		if ok, wait := h.pace(r, id, false, siteOf(r), after.Since.Add(7*time.Second)); !ok {
			t.Errorf("request %d, 7 s after the delay was lowered to 1 s: refused, retry after %v", i, wait)
		}
	}
}

// TestCrawlDelayLoweredThenEdited: a version that changes no delay (a
// Disallow line added 6 s after the delay was lowered) does not date the
// lowered delay anew: the bot that used its burst under 30 s and comes
// back 1.5 s after the second edit owes nothing, as it would without
// that edit (the audit's case was 200, then 429s with Retry-After: 1,
// the 6 s between the edits counted at 30 s). An edit that changes the
// delay again dates the new delay from itself. The clock is the
// versions' load times, not a wait.
func TestCrawlDelayLoweredThenEdited(t *testing.T) {
	const lowered = "User-agent: *\nCrawl-delay: 1\n"
	for _, tc := range []struct {
		name   string
		second string // the file of the second edit, 6 s after the first
		want   []bool // admitted, 1.5 s after the second edit
	}{
		{"no delay changed", lowered + "Disallow: /private/\n", []bool{true, true, true, false}},
		{"a group without a delay added", lowered + "\nUser-agent: GPTBot\nDisallow: /\n", []bool{true, true, true, false}},
		// Converted at the second edit, when 5 s came in: 83 s at 30 s
		// are 13.8 s at 5 s, 12.3 s ahead at the bot's return, over the
		// burst's 10. Converted at the first, it would be 7.3 s ahead.
		{"the delay changed again", "User-agent: *\nCrawl-delay: 5\n", []bool{false}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := writeRobots(t, "User-agent: *\nCrawl-delay: 30\n")
			h, _ := newTestHandler(t, config.Config{File: path, DisableReload: true})
			r := withIP(newRequest("GET", "/a", testfixtures.UACurl), "198.51.100.32")
			start := h.fixed.current().Since
			tick := start
			h.fixed.clock = func() time.Time { return tick }
			load := func(body string, at time.Duration) *snapshot {
				t.Helper()
				before := h.fixed.current()
				os.WriteFile(path, []byte(body), 0o644)
				bump(t, path, at+time.Second)
				tick = start.Add(at)
				h.fixed.refresh()
				if h.fixed.current() == before {
					t.Fatalf("the edit at %v was not loaded", at)
				}
				return h.fixed.current()
			}
			for i := range pace.Burst {
				if ok, _ := h.pace(r, h.identify(testfixtures.UACurl, h.fixed.current()), false, siteOf(r), start); !ok {
					t.Fatalf("request %d of the burst under 30 s refused", i)
				}
			}
			load(lowered, time.Second)
			now := start.Add(8500 * time.Millisecond)
			id := h.identify(testfixtures.UACurl, load(tc.second, 7*time.Second))
			var got []bool
			for range tc.want {
				ok, _ := h.pace(r, id, false, siteOf(r), now)
				got = append(got, ok)
			}
			if fmt.Sprint(got) != fmt.Sprint(tc.want) {
				t.Errorf("requests 1.5 s after the second edit admitted %v, want %v", got, tc.want)
			}
		})
	}
}

// TestCrawlDelayDateAcrossAReloadSetting: a new source of the same file
// (a reload setting changed) goes on from when its delays came into
// force, as from when the file did: else a bot that used its burst
// before the delay was lowered owes for the time until the config reload
// at the old delay.
func TestCrawlDelayDateAcrossAReloadSetting(t *testing.T) {
	const lowered = "User-agent: *\nCrawl-delay: 1\n"
	path := writeRobots(t, "User-agent: *\nCrawl-delay: 30\n")
	before, _ := newTestHandler(t, config.Config{File: path, DisableReload: true})
	// An hour back, so that the new source's own load is later.
	start := before.fixed.current().Since.Add(-time.Hour)
	var tick time.Time
	before.fixed.clock = func() time.Time { return tick }
	for i, body := range []string{lowered, lowered + "Disallow: /private/\n"} {
		os.WriteFile(path, []byte(body), 0o644)
		bump(t, path, time.Duration(i+1)*time.Second)
		tick = start.Add(time.Duration(1+6*i) * time.Second)
		before.fixed.refresh()
	}
	want := before.fixed.current()
	if !want.DelaySince.Equal(start.Add(time.Second)) {
		t.Fatalf("delays in force since %v, want the first edit's load", want.DelaySince.Sub(start))
	}
	after, _ := newTestHandler(t, config.Config{File: path, Reload: config.MinInterval})
	if after.fixed == before.fixed {
		t.Fatal("the two reload settings share a source; the test needs two")
	}
	if got := after.fixed.current(); got.ETag != want.ETag || !got.DelaySince.Equal(want.DelaySince) {
		t.Errorf("the same file read anew: delays in force since %v, want %v", got.DelaySince.Sub(start), want.DelaySince.Sub(start))
	}
}
