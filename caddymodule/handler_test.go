package caddymodule

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/caddyserver/caddy/v2"
	"github.com/caddyserver/caddy/v2/modules/caddyhttp"
	"go.uber.org/zap/zapcore"

	"github.com/robotsguard/caddy-robots-txt/caddymodule/judge"
	"github.com/robotsguard/caddy-robots-txt/config"
	"github.com/robotsguard/caddy-robots-txt/internal/testfixtures"
)

func TestServeHTTPVerdicts(t *testing.T) {
	path := writeRobots(t, testfixtures.RobotsTxt)
	enforce, _ := newTestHandler(t, config.Config{File: path})
	monitor, _ := newTestHandler(t, config.Config{File: path, Mode: "monitor"})
	for _, tc := range []struct {
		ua, path string
		allowed  bool
		bot      string // "" for a human
		rule     string
	}{
		{testfixtures.UAGPTBot, "/", false, "GPTBot", "disallow: /"},
		{testfixtures.UAGPTBot, "/public", false, "GPTBot", "disallow: /"},
		{testfixtures.UAGooglebot, "/private/x", true, "Googlebot", ""},
		{testfixtures.UAGooglebot, "/drafts/x", false, "Googlebot", "disallow: /drafts/"},
		{testfixtures.UAAhrefs, "/private/x", false, "AhrefsBot", "disallow: /private/"},
		{testfixtures.UAAhrefs, "/private/ok.html", true, "AhrefsBot", "allow: /private/ok.html"},
		{testfixtures.UAAhrefs, "/public", true, "AhrefsBot", ""},
		{testfixtures.UAPythonRequests, "/private/x", false, "python-requests", "disallow: /private/"},
		{"", "/private/x", false, "generic", "disallow: /private/"},
		{testfixtures.UAChrome, "/private/x", true, "", ""},
		{testfixtures.UAFirefox, "/drafts/x", true, "", ""},
		{testfixtures.UAChrome, "/", true, "", ""},
	} {
		for _, h := range []*Handler{enforce, monitor} {
			r := newRequest("GET", tc.path, tc.ua)
			w, err := serve(h, r)
			wantBlocked := !tc.allowed && !h.Monitor()
			if wantBlocked {
				var he caddyhttp.HandlerError
				if !errors.As(err, &he) || he.StatusCode != 403 {
					t.Errorf("%s %q %s: want a 403 HandlerError, got %v", h.Mode, tc.ua, tc.path, err)
				}
			} else {
				if err != nil {
					t.Errorf("%s %q %s: want passed on, got error %v", h.Mode, tc.ua, tc.path, err)
				}
				if w.Code != 200 {
					t.Errorf("%s %q %s: want passed on, got status %d", h.Mode, tc.ua, tc.path, w.Code)
				}
				if got := w.Body.String(); got != "next" {
					t.Errorf("%s %q %s: want passed on, got body %q", h.Mode, tc.ua, tc.path, got)
				}
			}
			repl := r.Context().Value(caddy.ReplacerCtxKey).(*caddy.Replacer)
			bot, _ := repl.GetString("http.robots_txt.bot")
			rule, _ := repl.GetString("http.robots_txt.rule")
			if bot != tc.bot {
				t.Errorf("%s %q %s: placeholder bot=%q, want %q", h.Mode, tc.ua, tc.path, bot, tc.bot)
			}
			if rule != tc.rule {
				t.Errorf("%s %q %s: placeholder rule=%q, want %q", h.Mode, tc.ua, tc.path, rule, tc.rule)
			}
		}
	}
}

func TestMonitorLogsViolation(t *testing.T) {
	h, logs := newTestHandler(t, config.Config{File: writeRobots(t, testfixtures.RobotsTxt), Mode: "monitor"})
	r := newRequest("GET", "/private/a?b=c", testfixtures.UAAhrefs)
	if _, err := serve(h, r); err != nil {
		t.Fatal(err)
	}
	entries := logs.FilterMessage("robots.txt violation").All()
	if len(entries) != 1 {
		t.Fatalf("want one violation log line, got %d", len(entries))
	}
	f := entries[0].ContextMap()
	if lvl := entries[0].Level.String(); lvl != "warn" {
		t.Errorf("violation log entry: level %s, want warn", lvl)
	}
	for _, c := range []struct {
		key  string
		want any
	}{
		{"uri", "/private/a?b=c"},
		{"client_ip", "192.0.2.7"},
		{"rule", "disallow: /private/"},
		{"line", int64(2)},
		{"bot", "AhrefsBot"},
		{"group", "*"},
	} {
		if f[c.key] != c.want {
			t.Errorf("violation log entry: %s = %#v, want %#v", c.key, f[c.key], c.want)
		}
	}
	// What the request does not have is left out, as the access log
	// leaves it out: no signal decided, and no included list.
	for _, key := range []string{"signal", "rule_source"} {
		if v, has := f[key]; has {
			t.Errorf("violation log entry: %s = %#v, want none", key, v)
		}
	}
	if repl := r.Context().Value(caddy.ReplacerCtxKey).(*caddy.Replacer); repl.ReplaceAll("{http.robots_txt.action}/{http.robots_txt.verdict}/{http.robots_txt.line}", "") != "logged/disallowed/2" {
		t.Errorf("placeholders: %s", repl.ReplaceAll("{http.robots_txt.action}/{http.robots_txt.verdict}/{http.robots_txt.line}", ""))
	}
}

func TestRefusalBody(t *testing.T) {
	h, logs := newTestHandler(t, config.Config{File: writeRobots(t, testfixtures.RobotsTxt), Status: 451, Body: "No bots here"})
	w, err := serve(h, newRequest("GET", "/private/x", testfixtures.UAAhrefs))
	if err != nil {
		t.Errorf("error %v, want the refusal written", err)
	}
	if w.Code != 451 {
		t.Errorf("status %d, want 451", w.Code)
	}
	if got := w.Body.String(); got != "No bots here" {
		t.Errorf("body %q, want %q", got, "No bots here")
	}
	if ct := w.Header().Get("Content-Type"); !strings.HasPrefix(ct, "text/plain") {
		t.Errorf("Content-Type %q, want text/plain", ct)
	}
	if n := logs.FilterMessage("robots.txt violation blocked").Len(); n != 1 {
		t.Errorf("want one blocked log line, got %d", n)
	}
}

// TestRefusalBodyAbsentFields: a body (or a header, or respond) that names
// a field the request lacks, such as fetched_ago for a bot never seen
// fetching robots.txt, shows it empty, as it does line: the replacer leaves
// an unknown placeholder as written, and a client must not get
// "{http.robots_txt.fetched_ago}".
func TestRefusalBodyAbsentFields(t *testing.T) {
	h, _ := newTestHandler(t, config.Config{File: writeRobots(t, testfixtures.RobotsTxt),
		Body: "[{http.robots_txt.fetched}|{http.robots_txt.fetched_ago}|{http.robots_txt.rule_source}]"})
	w, _ := serve(h, newRequest("GET", "/private/x", testfixtures.UAAhrefs))
	if got, want := w.Body.String(), "[false||]"; got != want {
		t.Errorf("body %q, want %q", got, want)
	}
}

func TestServeRobotsTxt(t *testing.T) {
	h, _ := newTestHandler(t, config.Config{File: writeRobots(t, testfixtures.RobotsTxt)})
	w, err := serve(h, newRequest("GET", "/robots.txt", testfixtures.UAGPTBot))
	ok := true
	if err != nil {
		t.Errorf("GET /robots.txt: error %v", err)
		ok = false
	}
	if w.Code != 200 {
		t.Errorf("GET /robots.txt: status %d, want 200", w.Code)
		ok = false
	}
	if got := w.Body.String(); got != testfixtures.RobotsTxt {
		t.Errorf("GET /robots.txt: body %q, want the file", got)
		ok = false
	}
	if !ok {
		t.FailNow()
	}
	etag := w.Header().Get("ETag")
	if ct := w.Header().Get("Content-Type"); ct != "text/plain; charset=utf-8" {
		t.Errorf("Content-Type %q, want %q", ct, "text/plain; charset=utf-8")
	}
	if etag == "" {
		t.Errorf("no ETag; headers: %v", w.Header())
	}
	if w.Header().Get("Last-Modified") == "" {
		t.Errorf("no Last-Modified; headers: %v", w.Header())
	}
	r := newRequest("GET", "/robots.txt", testfixtures.UAGPTBot)
	r.Header.Set("If-None-Match", etag)
	if w, _ := serve(h, r); w.Code != http.StatusNotModified {
		t.Errorf("If-None-Match: got %d, want 304", w.Code)
	}
	if w, _ := serve(h, newRequest("HEAD", "/robots.txt", "")); w.Code != 200 || w.Body.Len() != 0 {
		t.Errorf("HEAD: got %d with %d bytes", w.Code, w.Body.Len())
	}
	if w, _ := serve(h, newRequest("POST", "/robots.txt", "")); w.Body.String() != "next" {
		t.Errorf("POST /robots.txt should pass on, got %q", w.Body.String())
	}
	// Passed on, never refused, and still a bot's request: logged and
	// counted as one, not as a person's.
	for _, method := range []string{"POST", "PUT", "DELETE", "PROPFIND"} {
		r := newRequest(method, "/robots.txt", "BadBot/1.0")
		w, err := serve(h, r)
		repl := r.Context().Value(caddy.ReplacerCtxKey).(*caddy.Replacer)
		bot, _ := repl.GetString("http.robots_txt.bot")
		verdict, _ := repl.GetString("http.robots_txt.verdict")
		action, _ := repl.GetString("http.robots_txt.action")
		if err != nil || w.Body.String() != "next" || bot != "generic" || verdict != "allowed" || action != "passed" {
			t.Errorf("%s /robots.txt by BadBot: %v %q, bot %q verdict %q action %q; want passed on, logged as a generic bot's, allowed, passed",
				method, err, w.Body.String(), bot, verdict, action)
		}
	}
	off := false
	h2, _ := newTestHandler(t, config.Config{File: writeRobots(t, testfixtures.RobotsTxt), Serve: &off})
	if w, _ := serve(h2, newRequest("GET", "/robots.txt", testfixtures.UAGPTBot)); w.Code != 200 || w.Body.String() != "next" {
		t.Errorf("serve off: got %d %q, want the next handler", w.Code, w.Body.String())
	}
}

// TestGroupWithoutRobotsTxt: a request made while the site has no
// robots.txt is logged as such, not as the group of a bot the file names
// no group for ("") nor as the * group.
func TestGroupWithoutRobotsTxt(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "robots.txt")
	for _, tc := range []struct {
		name string
		cfg  config.Config
		ua   string
		want string
	}{
		{"no file, unnamed bot", config.Config{File: missing, DisableReload: true}, testfixtures.UACurl, judge.NoFile},
		{"no file, a crawler", config.Config{File: missing, DisableReload: true}, testfixtures.UAGooglebot, judge.NoFile},
		{"no group for the bot", config.Config{Inline: "User-agent: GPTBot\nDisallow: /\n"}, testfixtures.UACurl, ""},
		{"the * group", config.Config{Inline: "User-agent: *\nDisallow: /private/\n"}, testfixtures.UACurl, "*"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h, _ := newTestHandler(t, tc.cfg)
			r := newRequest("GET", "/x", tc.ua)
			if _, err := serve(h, r); err != nil {
				t.Fatal(err)
			}
			got, ok := r.Context().Value(caddy.ReplacerCtxKey).(*caddy.Replacer).GetString("http.robots_txt.group")
			if !ok || got != tc.want {
				t.Errorf("group %q (set: %v), want %q", got, ok, tc.want)
			}
		})
	}
}

func TestMissingFileAllowsAll(t *testing.T) {
	h, logs := newTestHandler(t, config.Config{File: t.TempDir() + "/nope/robots.txt"})
	_ = logs
	r := newRequest("GET", "/private/x", testfixtures.UAGPTBot)
	if w, err := serve(h, r); err != nil || w.Body.String() != "next" {
		t.Errorf("no file: got %d %v", w.Code, err)
	}
	// The bot is still named and counted, for the access log and metrics.
	repl := r.Context().Value(caddy.ReplacerCtxKey).(*caddy.Replacer)
	if bot, _ := repl.GetString("http.robots_txt.bot"); bot != "GPTBot" {
		t.Errorf("no file: bot placeholder %q, want GPTBot", bot)
	}
	if v, _ := repl.GetString("http.robots_txt.verdict"); v != "allowed" {
		t.Errorf("no file: verdict placeholder %q, want allowed", v)
	}
	r = newRequest("GET", "/robots.txt", testfixtures.UAGPTBot)
	if w, _ := serve(h, r); w.Body.String() != "next" {
		t.Errorf("no file: /robots.txt should pass on")
	}
	// A bot's fetch of the missing file is a bot request of the access
	// log like any other, and a fetch: what it learnt is that everything
	// is allowed.
	repl = r.Context().Value(caddy.ReplacerCtxKey).(*caddy.Replacer)
	bot, _ := repl.GetString("http.robots_txt.bot")
	group, _ := repl.GetString("http.robots_txt.group")
	action, _ := repl.GetString("http.robots_txt.action")
	if bot != "GPTBot" || group != judge.NoFile || action != "served" {
		t.Errorf("no file, a fetch of /robots.txt: bot %q group %q action %q; want GPTBot, %q, served", bot, group, action, judge.NoFile)
	}
	r = newRequest("GET", "/x", testfixtures.UAGPTBot)
	serve(h, r)
	if f, _ := r.Context().Value(caddy.ReplacerCtxKey).(*caddy.Replacer).GetString("http.robots_txt.fetched"); f != "true" {
		t.Errorf("no file: after its fetch, fetched = %q, want true", f)
	}
	// With impostors block, a failed claim is still allowed everywhere
	// while there is no file, as every bot is.
	hb, _ := newTestHandler(t, config.Config{File: t.TempDir() + "/nope/robots.txt", Impostors: config.ImpostorsBlock,
		Crawlers: []config.Crawler{{Token: "GPTBot", Ranges: []string{"203.0.113.0/24"}}}})
	r = newRequest("GET", "/private/x", testfixtures.UAGPTBot) // from 192.0.2.7: an impostor
	if w, err := serve(hb, r); err != nil || w.Body.String() != "next" {
		t.Errorf("no file, impostors block: %d %v, want passed", w.Code, err)
	}
	if id, _ := r.Context().Value(caddy.ReplacerCtxKey).(*caddy.Replacer).GetString("http.robots_txt.identity"); id != "impostor" {
		t.Errorf("no file, impostors block: identity %q, want impostor (still named)", id)
	}
}

func TestInline(t *testing.T) {
	h, _ := newTestHandler(t, config.Config{Inline: "User-agent: *\nDisallow: /x\n"})
	if _, err := serve(h, newRequest("GET", "/x", testfixtures.UACurl)); err == nil {
		t.Error("inline rules should block curl on /x")
	}
	if w, _ := serve(h, newRequest("GET", "/robots.txt", "")); w.Body.String() != "User-agent: *\nDisallow: /x\n" {
		t.Errorf("inline served as %q", w.Body.String())
	}
}

func TestExemptAndExtraBots(t *testing.T) {
	h, _ := newTestHandler(t, config.Config{
		File:   writeRobots(t, testfixtures.RobotsTxt),
		Bots:   []string{"MyCrawler"},
		Humans: []string{"UptimeRobot", "GPTBot-Verified"},
	})
	for _, tc := range []struct {
		ua      string
		blocked bool
	}{
		{"Mozilla/5.0 (compatible; UptimeRobot/2.0; http://www.uptimerobot.com/)", false},
		{"Mozilla/5.0 (compatible; GPTBot/1.1; GPTBot-Verified)", false},
		{testfixtures.UAChrome + " MyCrawler/1.0", true},
	} {
		_, err := serve(h, newRequest("GET", "/private/x", tc.ua))
		if (err != nil) != tc.blocked {
			t.Errorf("%q: blocked=%v, want %v", tc.ua, err != nil, tc.blocked)
		}
	}
}

// TestUserAgentsFromTheEnvironment: a humans or bots entry from
// {env.*} is matched as the variable says, as file, url and include
// read theirs; it was matched as written, so the monitor meant got 403
// and a header holding "{env.MONITOR_UA}" was exempt. One the
// environment leaves blank, which every header contains, is refused.
func TestUserAgentsFromTheEnvironment(t *testing.T) {
	t.Setenv("ROBOTS_TXT_TEST_MONITOR", "MyMonitor")
	t.Setenv("ROBOTS_TXT_TEST_CRAWLER", "MyCrawler")
	h, _ := newTestHandler(t, config.Config{
		File:   writeRobots(t, testfixtures.RobotsTxt),
		Bots:   []string{"{env.ROBOTS_TXT_TEST_CRAWLER}"},
		Humans: []string{"{env.ROBOTS_TXT_TEST_MONITOR}"},
	})
	for _, tc := range []struct {
		ua      string
		blocked bool
	}{
		{"MyMonitor/1.0", false},
		{"{env.ROBOTS_TXT_TEST_MONITOR}", true},
		{testfixtures.UAChrome + " MyCrawler/1.0", true},
	} {
		_, err := serve(h, newRequest("GET", "/private/x", tc.ua))
		if (err != nil) != tc.blocked {
			t.Errorf("%q: blocked=%v, want %v", tc.ua, err != nil, tc.blocked)
		}
	}

	unset := &Handler{Config: config.Config{Inline: "User-agent: *\nDisallow: /\n", Humans: []string{"{env.ROBOTS_TXT_TEST_UNSET}"}}, verifyOptions: offlineVerify}
	ctx, cancel := caddy.NewContext(caddy.Context{Context: t.Context()})
	defer cancel()
	err := unset.Provision(ctx)
	_ = unset.Cleanup()
	if want := `humans[0]: "{env.ROBOTS_TXT_TEST_UNSET}" is "" once its placeholders are replaced`; err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("humans from an unset variable: %v, want an error saying %q", err, want)
	}
}

func TestHumanPathDoesNotAllocate(t *testing.T) {
	// Path-scoped Content-Usage lines, matched with the query for the
	// header, cost nothing more.
	h, _ := newTestHandler(t, config.Config{File: writeRobots(t, "User-agent: *\nContent-Usage: /*.pdf$ train-ai=n\n\n"+testfixtures.RobotsTxt)})
	// With a query or an escape: the spellings a bot's request is judged
	// in are not made for a person's. (A dot-segment costs the resolving
	// path.Clean two allocations, for anyone.)
	for _, target := range []string{"/private/x", "/search?q=x", "/a%2Fb?q=1", "/a.pdf?q=1"} {
		r := newRequest("GET", target, testfixtures.UAChrome)
		w := &discardWriter{h: http.Header{}}
		// A fresh header each time: one set already is left as it is.
		n := testing.AllocsPerRun(200, func() { clear(w.h); _ = h.ServeHTTP(w, r, nextNoop) })
		if n != 0 {
			t.Errorf("human request for %s allocates %v times", target, n)
		}
	}
}

type discardWriter struct{ h http.Header }

func (d *discardWriter) Header() http.Header         { return d.h }
func (d *discardWriter) Write(b []byte) (int, error) { return len(b), nil }
func (d *discardWriter) WriteHeader(int)             {}

var nextNoop = caddyhttp.HandlerFunc(func(http.ResponseWriter, *http.Request) error { return nil })

// TestCacheIsBounded: however many distinct User-Agents arrive, the
// classification cache holds at most cache entries, and very long headers
// are not kept at all.
func TestCacheIsBounded(t *testing.T) {
	h, _ := newTestHandler(t, config.Config{File: writeRobots(t, testfixtures.RobotsTxt), Cache: 1000})
	for i := 0; i < 20000; i++ {
		ua := testfixtures.UAChrome + " Build/" + strconv.Itoa(i)
		if i%2 == 0 {
			ua = "python-requests/2." + strconv.Itoa(i)
		}
		serve(h, newRequest("GET", "/private/x", ua))
	}
	if n := h.idents.Len(); n != 1000 {
		t.Errorf("cache holds %d entries, want 1000", n)
	}
	h.idents.Purge()
	serve(h, newRequest("GET", "/x", strings.Repeat("x", maxCachedUserAgent+1)))
	if n := h.idents.Len(); n != 0 {
		t.Errorf("a %d-byte header was cached", maxCachedUserAgent+1)
	}
}

// TestBroadHumansWarn: a humans entry that exempts well-known bots says so
// when the configuration loads, and so does a bots entry that every
// browser matches (it holds people to robots.txt); a narrow one says
// nothing.
func TestBroadHumansWarn(t *testing.T) {
	const humans, bots = "humans entry matches", "bots entry matches"
	for _, tc := range []struct {
		list, entry string // the warning's snippet, and the entry
		warn        bool
	}{
		{humans, "/", true},
		{humans, "Mozilla", true},
		{humans, "GPTBot", true},
		// Crawlers of the knowledge base, whatever the sample headers.
		{humans, "PerplexityBot", true},
		{humans, "bytespider", true},
		{humans, "AcmeUptime", false},
		// Audit AO-F10: headless browsers, crawler frameworks, libraries.
		{humans, "HeadlessChrome", true},
		{humans, "Scrapy", true},
		{humans, "HTTrack", true},
		{humans, "okhttp", true},
		{humans, "Java", true},
		{humans, "libwww-perl", true},
		{humans, "Apache-HttpClient", true},
		// A monitor of the knowledge base named exactly: the use the
		// README documents; part of its name exempts more than it.
		{humans, "UptimeRobot", false},
		{humans, "uptimerobot", false},
		{humans, "Uptime", true},
		{bots, "Mozilla", true},
		{bots, "Safari", true},
		{bots, "AcmeCrawler", false},
	} {
		cfg := config.Config{Inline: "User-agent: *\nDisallow: /x\n"}
		if tc.list == humans {
			cfg.Humans = []string{tc.entry}
		} else {
			cfg.Bots = []string{tc.entry}
		}
		_, logs := newTestHandler(t, cfg)
		if got := logs.FilterMessageSnippet(tc.list).Len() > 0; got != tc.warn {
			t.Errorf("%s %q: warned %v, want %v", tc.list, tc.entry, got, tc.warn)
		}
	}
}

// TestWideOpenSettingsWarn: a grace longer than RFC 9309's 24 hours, and
// crawler ranges that take in a large part of the Internet (any client
// there passes as the crawler), are said at load; the usual values are
// not.
func TestWideOpenSettingsWarn(t *testing.T) {
	day, week := caddy.Duration(24*time.Hour), caddy.Duration(7*24*time.Hour)
	everyAddress := writeRobots(t, "0.0.0.0/0\n::/0\n")
	ipv4AsHalves := writeRobots(t, "0.0.0.0/1\n128.0.0.0/1\n")
	providers := writeRobots(t, "10.0.0.0/8\n2001:db8::/32\n")
	for _, tc := range []struct {
		name    string
		cfg     config.Config
		snippet string
		warn    bool
	}{
		{"grace of a week", config.Config{Grace: &week}, "grace is longer than the 24 hours", true},
		{"grace of a day", config.Config{Grace: &day}, "grace is longer than the 24 hours", false},
		{"every IPv4 address", config.Config{Crawlers: []config.Crawler{{Token: "Googlebot", Ranges: []string{"0.0.0.0/0"}}}}, "ranges cover a large part", true},
		{"every IPv6 address", config.Config{Crawlers: []config.Crawler{{Token: "MyMon", Ranges: []string{"192.0.2.0/24", "::/0"}}}}, "ranges cover a large part", true},
		{"a provider's block", config.Config{Crawlers: []config.Crawler{{Token: "MyMon", Ranges: []string{"10.0.0.0/8", "2001:db8::/32"}}}}, "ranges cover a large part", false},
		{"every IPv4 address, IPv4-mapped", config.Config{Crawlers: []config.Crawler{{Token: "MyMon", Ranges: []string{"::ffff:0:0/96"}}}}, "ranges cover a large part", true},
		{"a /4 of IPv4, IPv4-mapped", config.Config{Crawlers: []config.Crawler{{Token: "MyMon", Ranges: []string{"::ffff:0.0.0.0/100"}}}}, "ranges cover a large part", true},
		{"a provider's IPv4 block, IPv4-mapped", config.Config{Crawlers: []config.Crawler{{Token: "MyMon", Ranges: []string{"::ffff:10.0.0.0/104"}}}}, "ranges cover a large part", false},
		{"all of IPv4 as two /1s", config.Config{Crawlers: []config.Crawler{{Token: "MyMon", Ranges: []string{"0.0.0.0/1", "128.0.0.0/1"}}}}, "ranges cover a large part", true},
		{"two /8s together", config.Config{Crawlers: []config.Crawler{{Token: "MyMon", Ranges: []string{"10.0.0.0/8", "192.0.2.0/24", "11.0.0.0/8"}}}}, "ranges cover a large part", true},
		// Audit AH-F1: a file says so as plainly as the Caddyfile.
		{"a file of every address", config.Config{Crawlers: []config.Crawler{{Token: "MyMon", Ranges: []string{everyAddress}}}}, "ranges cover a large part", true},
		{"a file of IPv4's two halves", config.Config{Crawlers: []config.Crawler{{Token: "MyMon", Ranges: []string{"192.0.2.0/24", ipv4AsHalves}}}}, "ranges cover a large part", true},
		{"a file of a provider's blocks", config.Config{Crawlers: []config.Crawler{{Token: "MyMon", Ranges: []string{providers}}}}, "ranges cover a large part", false},
		{"rdns of a country's public suffix", config.Config{Crawlers: []config.Crawler{{Token: "Googlebot", RDNS: []string{"co.uk"}}}}, "rdns suffix is a public suffix", true},
		{"rdns of a hosting public suffix", config.Config{Crawlers: []config.Crawler{{Token: "MyMon", RDNS: []string{"github.io"}}}}, "rdns suffix is a public suffix", true},
		{"rdns over a cloud's customer names", config.Config{Crawlers: []config.Crawler{{Token: "MyMon", RDNS: []string{"compute-1.amazonaws.com"}}}}, "rdns suffix holds public suffixes", true},
		{"rdns of an operator's domain", config.Config{Crawlers: []config.Crawler{{Token: "MyMon", RDNS: []string{"monitor.example.co.uk", "googlebot.com"}}}}, "rdns suffix", false},
	} {
		tc.cfg.Inline = "User-agent: *\nDisallow: /x\n"
		_, logs := newTestHandler(t, tc.cfg)
		if got := logs.FilterMessageSnippet(tc.snippet).Len() > 0; got != tc.warn {
			t.Errorf("%s: warned %v, want %v", tc.name, got, tc.warn)
		}
	}
}

// TestBroadRangesFileNamed: the warning of a broad ranges file names the
// crawler and the file, as the one of broad CIDRs names the crawler and
// them, at every load of the configuration (audit AH-F1).
func TestBroadRangesFileNamed(t *testing.T) {
	file := writeRobots(t, "0.0.0.0/0\n")
	for _, tc := range []struct {
		name   string
		ranges []string
		want   map[string]any
	}{
		{"file", []string{file}, map[string]any{"crawler": "MyMon", "source": file}},
		{"CIDRs", []string{"0.0.0.0/1", "128.0.0.0/1"}, map[string]any{"crawler": "MyMon", "ranges": []any{"0.0.0.0/1", "128.0.0.0/1"}}},
	} {
		cfg := config.Config{Inline: "User-agent: *\nDisallow: /x\n", Crawlers: []config.Crawler{{Token: "MyMon", Ranges: tc.ranges}}}
		for load := range 2 {
			_, logs := newTestHandler(t, cfg)
			warned := logs.FilterMessageSnippet("ranges cover a large part").All()
			if len(warned) != 1 {
				t.Fatalf("%s, load %d: %d warnings, want 1", tc.name, load, len(warned))
			}
			if warned[0].Level != zapcore.WarnLevel {
				t.Errorf("%s: said at %v, want WARN", tc.name, warned[0].Level)
			}
			got := warned[0].ContextMap()
			for k, v := range tc.want {
				if fmt.Sprint(got[k]) != fmt.Sprint(v) {
					t.Errorf("%s: %s = %v, want %v", tc.name, k, got[k], v)
				}
			}
		}
	}
}

// TestSilentlyWeakenedSettingsWarn: settings that leave a crawler held to
// rules it never read, or that exempt a group robots.txt names, are said
// at load: serve off with an included list or an inline text, a humans
// entry inside an agent name of the file, a trap the file allows to some
// agent. The usual settings are not.
func TestSilentlyWeakenedSettingsWarn(t *testing.T) {
	off := false
	list := writeRobots(t, "User-agent: EvilBot\nDisallow: /\n")
	const file = "User-agent: FooCrawler\nDisallow: /\n\nUser-agent: *\nDisallow: /x\n"
	for _, tc := range []struct {
		name    string
		cfg     config.Config
		snippet string
		warn    bool
	}{
		{"serve off with include", config.Config{File: writeRobots(t, file), Serve: &off, Include: []string{list}}, "serve off with include", true},
		{"serve on with include", config.Config{File: writeRobots(t, file), Include: []string{list}}, "serve off with include", false},
		{"serve off with inline", config.Config{Inline: file, Serve: &off}, "serve off with inline", true},
		{"serve off with a file", config.Config{File: writeRobots(t, file), Serve: &off}, "serve off with", false},
		{"humans naming a group", config.Config{Inline: file, Humans: []string{"foocrawl"}}, "matches agents robots.txt names", true},
		{"humans naming none", config.Config{Inline: file, Humans: []string{"AcmeApp"}}, "matches agents robots.txt names", false},
		{"a trap the file allows", config.Config{Inline: "User-agent: *\nAllow: /t/\n", Trap: "/t/"}, "allows the trap path", true},
		{"a trap the file does not allow", config.Config{Inline: file, Trap: "/t/"}, "allows the trap path", false},
		// Audit AO-F8: a trap with a byte URLs carry escaped is disallowed
		// as requests spell it.
		{"a trap with a raw byte", config.Config{Inline: file, Trap: "/a|b/"}, "allows the trap path", false},
		{"a trap with a backslash", config.Config{Inline: file, Trap: "/a\\b/"}, "allows the trap path", false},
		// Nothing is refused in monitor mode but by signals enforce
		// (with status) and crawl_delay enforce (a 429, with body).
		{"status in monitor mode", config.Config{Inline: file, Mode: config.ModeMonitor, Status: 404}, "status has no effect", true},
		{"body in monitor mode", config.Config{Inline: file, Mode: config.ModeMonitor, Body: "no"}, "body has no effect", true},
		{"status and body in monitor mode", config.Config{Inline: file, Mode: config.ModeMonitor, Status: 404, Body: "no"}, "status and body have no effect", true},
		{"body in monitor mode with crawl_delay enforce", config.Config{Inline: file, Mode: config.ModeMonitor, CrawlDelay: config.ModeEnforce, Body: "no"}, "no effect", false},
		// crawl_delay enforce refuses, with a 429: the message must not
		// say that nothing is refused.
		{"status in monitor mode with crawl_delay enforce", config.Config{Inline: file, Mode: config.ModeMonitor, CrawlDelay: config.ModeEnforce, Status: 404}, "refuses only faster requests than Crawl-delay (429), so status has no effect", true},
		{"status in monitor mode with crawl_delay enforce, said wrongly", config.Config{Inline: file, Mode: config.ModeMonitor, CrawlDelay: config.ModeEnforce, Status: 404}, "refuses nothing", false},
		// Nor may it suggest what is set already, and never uses status.
		{"status in monitor mode with crawl_delay enforce, the hint", config.Config{Inline: file, Mode: config.ModeMonitor, CrawlDelay: config.ModeEnforce, Status: 404}, "crawl_delay enforce)", false},
		{"status in monitor mode with signals enforce", config.Config{Inline: file, Mode: config.ModeMonitor, Signals: config.ModeEnforce, Status: 404}, "no effect", false},
		{"status in enforce mode", config.Config{Inline: file, Status: 404, Body: "no"}, "no effect", false},
	} {
		_, logs := newTestHandler(t, tc.cfg)
		if got := logs.FilterMessageSnippet(tc.snippet).Len() > 0; got != tc.warn {
			t.Errorf("%s: warned %v, want %v", tc.name, got, tc.warn)
		}
	}
}

// TestEmptyPlaceholderWarns: a file, url or include whose {env.*} is
// empty reads another path, often one that is not there, and every bot
// is allowed: the load says which placeholder was empty and what is read
// instead. The not-found warning alone gave no cause.
func TestEmptyPlaceholderWarns(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("ROBOTS_TXT_TEST_DIR", dir)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, "User-agent: *\nDisallow: /x\n")
	}))
	t.Cleanup(srv.Close)
	const unset = "{env.ROBOTS_TXT_TEST_UNSET}"
	for _, tc := range []struct {
		name  string
		cfg   config.Config
		field string
		reads string // "" when nothing is to be said
	}{
		{"file", config.Config{File: unset + "/robots.txt"}, "file", "/robots.txt"},
		{"file with the variable set", config.Config{File: "{env.ROBOTS_TXT_TEST_DIR}/robots.txt"}, "file", ""},
		{"an included file", config.Config{Inline: "User-agent: *\n", Include: []string{dir + "/" + unset + "list.txt"}}, "include", dir + "/list.txt"},
		{"url", config.Config{URL: srv.URL + "/" + unset + "robots.txt"}, "url", srv.URL + "/robots.txt"},
		// Unparsable as written, yet what the operator wrote.
		{"url with the variable in its host", config.Config{URL: "http://" + unset + strings.TrimPrefix(srv.URL, "http://") + "/robots.txt"}, "url", srv.URL + "/robots.txt"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, logs := newTestHandler(t, tc.cfg)
			warned := logs.FilterMessageSnippet(tc.field + ": " + unset + " is empty once replaced, so " + tc.reads + " is read in its place")
			if tc.reads == "" {
				if n := logs.FilterMessageSnippet("is empty once replaced").Len(); n > 0 {
					t.Errorf("%d warnings of an empty placeholder, want none", n)
				}
				return
			}
			if warned.Len() != 1 {
				t.Fatalf("no warning naming %s and %s; logged:\n%v", unset, tc.reads, logs.All())
			}
			written := tc.cfg.File + tc.cfg.URL + strings.Join(tc.cfg.Include, "")
			if f := warned.All()[0].ContextMap(); !slices.Equal(f["empty"].([]any), []any{unset}) || f["reads"] != tc.reads || f[tc.field] != written {
				t.Errorf("warning fields %v, want empty [%s], reads %q and %s %q", f, unset, tc.reads, tc.field, written)
			}
		})
	}
}

// TestAsteriskTarget: "GET *" from a bot that robots.txt keeps out of the
// whole site is refused like any path; a person's passes.
func TestAsteriskTarget(t *testing.T) {
	h, _ := newTestHandler(t, config.Config{Inline: "User-agent: *\nDisallow: /\n"})
	if _, err := serve(h, newRequest("GET", "*", testfixtures.UACurl)); err == nil {
		t.Error("GET * from curl passed; want refused as /")
	}
	if _, err := serve(h, newRequest("GET", "*", testfixtures.UAChrome)); err != nil {
		t.Errorf("GET * from a browser: %v, want passed", err)
	}
}

// TestNothingTurnedOffQuietly: settings that let violations through, and a
// robots.txt that allows everything, are said at load, at WARN when they
// weaken what the defaults enforce.
func TestNothingTurnedOffQuietly(t *testing.T) {
	for _, tc := range []struct {
		name string
		cfg  config.Config
		want string // a snippet of the message; "" for none
		warn bool   // the message is at WARN
	}{
		{"enforce", config.Config{Inline: "User-agent: *\nDisallow: /x\n"}, "", false},
		{"monitor", config.Config{Inline: "User-agent: *\nDisallow: /x\n", Mode: config.ModeMonitor}, "disallowed paths (mode monitor)", true},
		{"crawl_delay off", config.Config{Inline: "User-agent: *\nDisallow: /x\n", CrawlDelay: config.CrawlDelayOff}, "Crawl-delay (crawl_delay off)", true},
		{"crawl_delay monitor", config.Config{Inline: "User-agent: *\nDisallow: /x\n", CrawlDelay: config.ModeMonitor}, "Crawl-delay (crawl_delay monitor)", true},
		// signals off is the default: monitor lets nothing through that
		// the default refuses.
		{"signals monitor", config.Config{Inline: "User-agent: *\nDisallow: /x\n", Signals: config.ModeMonitor}, "content signals (signals monitor)", false},
		{"signals enforce", config.Config{Inline: "User-agent: *\nDisallow: /x\n", Signals: config.ModeEnforce}, "", false},
		{"empty file", config.Config{Inline: "# nothing for bots\n"}, "no groups; every bot is allowed everywhere", true},
		{"allows everything", config.Config{Inline: "User-agent: *\nAllow: /\n"}, "no Disallow rule", true},
		{"empty disallow", config.Config{Inline: "User-agent: *\nDisallow:\n\nUser-agent: GPTBot\nAllow: /\n"}, "no Disallow rule", true},
		// What block refuses everywhere is only logged in monitor mode.
		{"monitor, impostors block", config.Config{Inline: "User-agent: *\nDisallow: /x\n", Mode: config.ModeMonitor, Impostors: config.ImpostorsBlock}, "impostors (impostors block, mode monitor)", true},
		{"monitor, trap block", config.Config{Inline: "User-agent: *\nDisallow: /x\n", Mode: config.ModeMonitor, Trap: "/trap/", TrapAction: config.TrapBlock}, "trapped clients (trap block, mode monitor)", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, logs := newTestHandler(t, tc.cfg)
			got := logs.FilterMessageSnippet("lets these violations through").Len() + logs.FilterMessageSnippet("no groups").Len() +
				logs.FilterMessageSnippet("no Disallow rule").Len()
			switch {
			case tc.want == "" && got > 0:
				t.Errorf("%d messages about enforcement turned off, want none", got)
			case tc.want != "" && logs.FilterMessageSnippet(tc.want).Len() == 0:
				t.Errorf("no message says %q", tc.want)
			case tc.want != "":
				for _, e := range logs.FilterMessageSnippet(tc.want).All() {
					if warned := e.Level >= zapcore.WarnLevel; warned != tc.warn {
						t.Errorf("%q logged at %s; want WARN: %v", e.Message, e.Level, tc.warn)
					}
				}
			}
		})
	}
}

// TestRepeatedUserAgent: a request with two User-Agent headers, a
// browser's first, is judged by both: no browser sends two, and the
// backend may read the bot's.
func TestRepeatedUserAgent(t *testing.T) {
	h, _ := newTestHandler(t, config.Config{Inline: "User-agent: *\nDisallow: /private/\n"})
	r := newRequest("GET", "/private/x", testfixtures.UAChrome)
	r.Header.Add("User-Agent", testfixtures.UACurl)
	if _, err := serve(h, r); err == nil {
		t.Error("a browser's header followed by curl's passed /private/x; want refused")
	}
	if _, err := serve(h, newRequest("GET", "/private/x", testfixtures.UAChrome)); err != nil {
		t.Errorf("a browser alone: %v, want passed", err)
	}
}

// TestTwoHandlersKeepTheGraverVerdict: a request that two robots_txt
// handlers judge (one per matcher, both matching) is logged with the
// graver verdict: a violation the first logged does not vanish behind the
// second's "allowed". Each still acts on its own.
func TestTwoHandlersKeepTheGraverVerdict(t *testing.T) {
	blog, _ := newTestHandler(t, config.Config{Inline: "User-agent: *\nDisallow: /blog/secret\n", Mode: config.ModeMonitor})
	all, _ := newTestHandler(t, config.Config{Inline: "User-agent: *\nDisallow: /admin/\n"})
	r := newRequest("GET", "/blog/secret", testfixtures.UACurl)
	if _, err := serve(blog, r); err != nil {
		t.Fatalf("monitor mode refused: %v", err)
	}
	if _, err := serve(all, r); err != nil {
		t.Fatalf("the second handler refused a path its file allows: %v", err)
	}
	repl := r.Context().Value(caddy.ReplacerCtxKey).(*caddy.Replacer)
	if v, _ := repl.GetString("http.robots_txt.verdict"); v != "disallowed" {
		t.Errorf("verdict %q after both handlers, want the first's disallowed", v)
	}
	// The other way round: the graver verdict comes second.
	r = newRequest("GET", "/admin/x", testfixtures.UACurl)
	serve(blog, r)
	if _, err := serve(all, r); err == nil {
		t.Error("the second handler let /admin/x through")
	}
	if v, _ := r.Context().Value(caddy.ReplacerCtxKey).(*caddy.Replacer).GetString("http.robots_txt.action"); v != "blocked" {
		t.Errorf("action %q, want blocked", v)
	}
	// A refusal outranks a violation only logged, whatever their kinds:
	// a too-fast refusal by the second over a disallow the first logged.
	slow, _ := newTestHandler(t, config.Config{Inline: "User-agent: *\nCrawl-delay: 30\n"})
	var err error
	for range 4 {
		r = withIP(newRequest("GET", "/blog/secret", testfixtures.UACurl), "198.51.100.9")
		serve(blog, r)
		_, err = serve(slow, r)
	}
	if err == nil {
		t.Fatal("the fourth request in a row passed the handler with Crawl-delay: 30")
	}
	repl = r.Context().Value(caddy.ReplacerCtxKey).(*caddy.Replacer)
	if v, _ := repl.GetString("http.robots_txt.action"); v != "blocked" {
		t.Errorf("a request refused as too fast is logged with action %q, want blocked", v)
	}
}

// TestStrictPerRequestSaysSo: strict fails a load on a robots.txt known
// when the configuration loads; one whose path depends on the request
// cannot be checked then, and caddy validate passes whatever it holds.
// That must not pass for a check done: the load warns.
func TestStrictPerRequestSaysSo(t *testing.T) {
	const snippet = "strict cannot check robots.txt when the configuration loads"
	for _, tc := range []struct {
		name string
		cfg  config.Config
		warn bool
	}{
		{"the root per request", config.Config{Strict: true}, true},
		{"a file named per request", config.Config{Strict: true, File: filepath.Join(t.TempDir(), "{http.request.host}", "robots.txt")}, true},
		{"a file", config.Config{Strict: true, File: writeRobots(t, "User-agent: *\nDisallow: /x\n")}, false},
		{"no strict", config.Config{}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, logs := newTestHandler(t, tc.cfg)
			got := logs.FilterMessageSnippet(snippet).FilterLevelExact(zapcore.WarnLevel).Len() > 0
			if got != tc.warn {
				t.Errorf("warned %v, want %v", got, tc.warn)
			}
		})
	}
}

// TestPassedRobotsTxtReportsFetch: a bot's request for /robots.txt by a
// method the handler passes on is no fetch, but it reports whether the
// bot fetched robots.txt before, as every other request of the bot does:
// "fetched": false there would say, against the log's own earlier line,
// that the bot never read the file.
func TestPassedRobotsTxtReportsFetch(t *testing.T) {
	h, _ := newTestHandler(t, config.Config{Inline: "User-agent: *\nDisallow: /private/\n"})
	fetched := func(method, path, ua string) (string, string) {
		t.Helper()
		r := newRequest(method, path, ua)
		if _, err := serve(h, r); err != nil {
			t.Fatal(err)
		}
		repl := r.Context().Value(caddy.ReplacerCtxKey).(*caddy.Replacer)
		f, _ := repl.GetString("http.robots_txt.fetched")
		ago, _ := repl.GetString("http.robots_txt.fetched_ago")
		return f, ago
	}
	for _, tc := range []struct {
		name, ua  string
		fetch     bool
		want, ago string
	}{
		{"a bot that fetched it", "BadBot/1.0", true, "true", "0"},
		{"a bot that did not", "OtherBot/2.0", false, "false", ""},
		{"a named crawler that fetched it", testfixtures.UACurl, true, "true", "0"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.fetch {
				fetched("GET", "/robots.txt", tc.ua)
			}
			if f, ago := fetched("GET", "/x", tc.ua); f != tc.want || ago != tc.ago {
				t.Fatalf("GET /x: fetched %q ago %q, want %q %q", f, ago, tc.want, tc.ago)
			}
			for _, method := range []string{"POST", "OPTIONS"} {
				if f, ago := fetched(method, "/robots.txt", tc.ua); f != tc.want || ago != tc.ago {
					t.Errorf("%s /robots.txt: fetched %q ago %q, want %q %q, as GET /x reports", method, f, ago, tc.want, tc.ago)
				}
			}
		})
	}
}

// TestRefusalsAreNotStored: a refusal depends on the client (its
// User-Agent, its address, its pace), not only on the URL, and the trap's
// 404 must reach the handler to catch anyone. A shared cache must store
// neither, even where an earlier header directive gave every response of
// the site a Cache-Control: a CDN would answer people with a bot's 403
// (no Vary can name the address), or the trap would go unseen.
func TestRefusalsAreNotStored(t *testing.T) {
	const robotsTxt = "User-agent: *\nDisallow: /private/\nCrawl-delay: 60\n"
	for _, tc := range []struct {
		name   string
		cfg    config.Config
		target string
		n      int // requests sent; the last is checked
		status int
	}{
		{"disallowed", config.Config{Inline: robotsTxt}, "/private/x", 1, 403},
		{"disallowed with body", config.Config{Inline: robotsTxt, Status: 503, Body: "no"}, "/private/x", 1, 503},
		{"too fast", config.Config{Inline: robotsTxt}, "/public", 4, 429},
		{"trap", config.Config{Inline: robotsTxt, Trap: "/trap/"}, "/trap/", 1, 404},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h, _ := newTestHandler(t, tc.cfg)
			var w *httptest.ResponseRecorder
			var err error
			for range tc.n {
				w = httptest.NewRecorder()
				w.Header().Set("Cache-Control", "public, max-age=3600") // header Cache-Control …
				w.Header().Set("CDN-Cache-Control", "max-age=3600")     // RFC 9213, which CDNs read first
				w.Header().Set("Surrogate-Control", "max-age=3600")
				err = h.ServeHTTP(w, newRequest("GET", tc.target, testfixtures.UAPythonRequests), nextOK)
			}
			status := w.Code
			var he caddyhttp.HandlerError
			if errors.As(err, &he) {
				status = he.StatusCode
			}
			if status != tc.status {
				t.Fatalf("status %d (error %v), want %d", status, err, tc.status)
			}
			if got := w.Header().Get("Cache-Control"); got != "no-store" {
				t.Errorf("Cache-Control %q, want no-store", got)
			}
			for _, k := range []string{"CDN-Cache-Control", "Surrogate-Control"} {
				if got := w.Header().Get(k); got != "" {
					t.Errorf("%s %q kept on the refusal: a CDN obeys it before Cache-Control", k, got)
				}
			}
		})
	}
	// What the next handler answers is the site's business.
	h, _ := newTestHandler(t, config.Config{Inline: robotsTxt})
	w := httptest.NewRecorder()
	w.Header().Set("Cache-Control", "public, max-age=3600")
	if err := h.ServeHTTP(w, newRequest("GET", "/public", testfixtures.UAPythonRequests), nextOK); err != nil {
		t.Fatal(err)
	}
	if got := w.Header().Get("Cache-Control"); got != "public, max-age=3600" {
		t.Errorf("allowed request: Cache-Control %q, want the site's", got)
	}
}

// TestLoadWarningsNameTheirFile: what a handler says of its configuration
// at load names the robots.txt it enforces, as the "robots.txt loaded"
// line does: with a handler per site, a warning that names nothing cannot
// be told apart from another site's.
func TestLoadWarningsNameTheirFile(t *testing.T) {
	path := writeRobots(t, "User-agent: *\nDisallow: /x\n\nUser-agent: MyCorpBot\nDisallow: /\n")
	grace := caddy.Duration(48 * time.Hour)
	for _, tc := range []struct {
		name string
		cfg  config.Config
		want string // the file field
		msg  string // a snippet of the warning
	}{
		{"monitor", config.Config{File: path, Mode: config.ModeMonitor}, path, "lets these violations through"},
		{"monitor, status", config.Config{Inline: "User-agent: *\nDisallow: /x\n", Mode: config.ModeMonitor, Status: 418}, "inline", "status has no effect"},
		// Audit AC-F4: crawl_delay enforce answers 429 whatever status
		// says, so it is not offered as the fix for status.
		{"monitor, status: the fix offered", config.Config{Inline: "User-agent: *\nDisallow: /x\n", Mode: config.ModeMonitor, Status: 418}, "inline", "status has no effect; use mode enforce (or signals enforce) for refusals"},
		{"monitor, body: the fix offered", config.Config{Inline: "User-agent: *\nDisallow: /x\n", Mode: config.ModeMonitor, Body: "no"}, "inline", "body has no effect; use mode enforce (or signals enforce, crawl_delay enforce) for refusals"},
		{"impostors trust", config.Config{File: path, Impostors: config.ImpostorsTrust}, path, "impostors trust"},
		{"grace", config.Config{File: path, Grace: &grace}, path, "grace is longer"},
		{"serve off", config.Config{Inline: "User-agent: *\nDisallow: /x\n", Serve: new(false)}, "inline", "serve off with inline"},
		{"humans naming a bot", config.Config{File: path, Humans: []string{"Googlebot"}}, path, "matches the headers of well-known bots"},
		{"humans naming a group", config.Config{File: path, Humans: []string{"corp"}}, path, "matches agents robots.txt names"},
		{"bots naming browsers", config.Config{File: path, Bots: []string{"Mozilla"}}, path, "matches the headers of people's browsers"},
		// Audit AC-F8: a setting with no effect is said.
		{"file_cache with one file", config.Config{File: path, FileCache: 5}, path, "file_cache does nothing here"},
		// Audit AC-F2: the trap is for crawlers sending a browser's
		// header, which such an entry exempts.
		{"humans naming browsers, with a trap", config.Config{File: path, Humans: []string{"Firefox"}, Trap: "/trap/"}, path, "the trap never springs"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, logs := newTestHandler(t, tc.cfg)
			entries := logs.FilterMessageSnippet(tc.msg).All()
			if len(entries) == 0 {
				t.Fatalf("no message says %q", tc.msg)
			}
			for _, e := range entries {
				if got := e.ContextMap()["file"]; got != tc.want {
					t.Errorf("%q: file = %v, want %q", e.Message, got, tc.want)
				}
			}
		})
	}
}

// TestFileCacheWhereItBounds: file_cache with a root named per request
// bounds something, and draws no warning that it does nothing.
func TestFileCacheWhereItBounds(t *testing.T) {
	_, logs := newTestHandler(t, config.Config{DisableReload: true, FileCache: 5})
	if n := logs.FilterMessageSnippet("file_cache does nothing").Len(); n != 0 {
		t.Errorf("%d warnings that file_cache does nothing, with the root per request", n)
	}
}

// TestHumansNamingBrowsersWithoutTrap: without a trap, a humans entry in
// browsers' headers exempts nothing robots.txt would hold, and draws no
// warning of the trap.
func TestHumansNamingBrowsersWithoutTrap(t *testing.T) {
	_, logs := newTestHandler(t, config.Config{Inline: "User-agent: *\nDisallow: /x\n", Humans: []string{"Firefox"}})
	if n := logs.FilterMessageSnippet("the trap never springs").Len(); n != 0 {
		t.Errorf("%d warnings of the trap, with no trap", n)
	}
}

// TestHeadIsNoFetch: a HEAD of /robots.txt gets no rules, so a bot's
// later requests do not report it as a fetch of robots.txt (nor may grace
// excuse by it); a GET does.
func TestHeadIsNoFetch(t *testing.T) {
	h, _ := newTestHandler(t, config.Config{Inline: "User-agent: *\nDisallow: /private/\n"})
	fetched := func(method, path string) string {
		t.Helper()
		r := newRequest(method, path, "HeadBot/1.0")
		if _, err := serve(h, r); err != nil {
			t.Fatal(err)
		}
		f, _ := r.Context().Value(caddy.ReplacerCtxKey).(*caddy.Replacer).GetString("http.robots_txt.fetched")
		return f
	}
	for _, step := range []struct{ method, want string }{
		{"HEAD", "false"},
		{"GET", "true"},
	} {
		fetched(step.method, "/robots.txt")
		if got := fetched("GET", "/x"); got != step.want {
			t.Errorf("after %s /robots.txt: fetched %q, want %q", step.method, got, step.want)
		}
	}
}

// TestCrawlerNamedWithDigits: "User-agent: MJ12bot" holds MJ12bot, though
// the line's token is "MJ" (see robots.File.NamedGroupFor), whether the
// knowledge base knows the crawler or not.
func TestCrawlerNamedWithDigits(t *testing.T) {
	h, _ := newTestHandler(t, config.Config{Inline: "User-agent: MJ12bot\nUser-agent: img2dataset\nDisallow: /mine\n\nUser-agent: *\nDisallow: /all\n"})
	for _, tc := range []struct {
		ua, path string
		refused  bool
	}{
		{"Mozilla/5.0 (compatible; MJ12bot/v1.4.8; http://mj12bot.com/)", "/mine", true},
		{"img2dataset/1.45 (+https://github.com/rom1504/img2dataset)", "/mine", true},
		{"MJ99bot/1.0", "/mine", false},
		{"MJ99bot/1.0", "/all", true},
	} {
		if _, err := serve(h, newRequest("GET", tc.path, tc.ua)); (err != nil) != tc.refused {
			t.Errorf("%q %s: refused %v, want %v", tc.ua, tc.path, err != nil, tc.refused)
		}
	}
}

// TestPartialIsNoFetch: a GET of /robots.txt answered with part of the
// file (a Range, 206), none of it (416, or 412 to a failed If-Match) gave
// the bot no rules, as a HEAD did not: its later requests do not report it
// as fetched (nor may grace excuse by it). A 304 to the version's own
// validator says the bot has that version, and is a fetch.
func TestPartialIsNoFetch(t *testing.T) {
	h, _ := newTestHandler(t, config.Config{Inline: "User-agent: *\nDisallow: /private/\n"})
	etag := func() string {
		w, _ := serve(h, withIP(newRequest("HEAD", "/robots.txt", ""), "192.0.2.1"))
		return w.Header().Get("ETag")
	}()
	for i, tc := range []struct {
		header, value string
		code          int
		fetched       string
	}{
		{"Range", "bytes=0-0", http.StatusPartialContent, "false"},
		{"Range", "bytes=10000-20000", http.StatusRequestedRangeNotSatisfiable, "false"},
		{"If-Match", `"other"`, http.StatusPreconditionFailed, "false"},
		{"If-None-Match", etag, http.StatusNotModified, "true"},
		{"Range", "bytes=0-", http.StatusPartialContent, "false"},
		{"Accept", "*/*", http.StatusOK, "true"},
	} {
		ip := "192.0.2." + strconv.Itoa(10+i)
		r := withIP(newRequest("GET", "/robots.txt", "PartBot/1.0"), ip)
		r.Header.Set(tc.header, tc.value)
		w, err := serve(h, r)
		if err != nil || w.Code != tc.code {
			t.Fatalf("%s: %s: got %d, %v; want %d", tc.header, tc.value, w.Code, err, tc.code)
		}
		r = withIP(newRequest("GET", "/x", "PartBot/1.0"), ip)
		if _, err := serve(h, r); err != nil {
			t.Fatal(err)
		}
		if got, _ := r.Context().Value(caddy.ReplacerCtxKey).(*caddy.Replacer).GetString("http.robots_txt.fetched"); got != tc.fetched {
			t.Errorf("after %s: %s (%d): fetched %q, want %q", tc.header, tc.value, tc.code, got, tc.fetched)
		}
	}
}

// A file from an upstream or a tenant's root names whatever agents it
// likes, and a new set with each version: a label per name a header then
// names would grow the metrics and the admin stats for the life of the
// process (two series per name; 20,000 names a version). Names the
// handler knows by itself (the knowledge base's, the operator's) keep
// their label whatever the file did before.
func TestFileAgentLabelsBounded(t *testing.T) {
	var b strings.Builder
	const n = maxFileLabels + 500
	for i := range n {
		fmt.Fprintf(&b, "User-agent: tenant%c%c%c\n", 'a'+i%26, 'a'+i/26%26, 'a'+i/676%26)
	}
	b.WriteString("User-agent: GPTBot\nDisallow: /private/\n")
	h, _ := newTestHandler(t, configWithInline(b.String()))
	server := "labels-" + t.Name()
	h.server.Store(&server)
	count := func() int {
		countersMu.Lock()
		defer countersMu.Unlock()
		k := 0
		for key := range counters {
			if key.server == server {
				k++
			}
		}
		return k
	}
	for i := range n {
		ua := fmt.Sprintf("tenant%c%c%c/1.0", 'a'+i%26, 'a'+i/26%26, 'a'+i/676%26)
		if _, err := serve(h, newRequest("GET", "/x", ua)); err != nil {
			t.Fatal(err)
		}
	}
	if got := count(); got > maxFileLabels+1 {
		t.Errorf("%d bot labels after %d agent names, want at most %d", got, n, maxFileLabels+1)
	}
	if _, err := serve(h, newRequest("GET", "/x", "GPTBot/1.1")); err != nil {
		t.Fatal(err)
	}
	countersMu.Lock()
	_, ok := counters[counterKey{server, "GPTBot", true}]
	countersMu.Unlock()
	if !ok {
		t.Error("GPTBot has no label of its own once the file's names used up the bound")
	}
}
