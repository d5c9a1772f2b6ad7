package caddymodule

import (
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/caddyserver/caddy/v2"

	"github.com/robotsguard/caddy-robots-txt/config"
	"github.com/robotsguard/caddy-robots-txt/internal/testfixtures"
)

// verdictOf runs one request and returns its verdict placeholder.
func verdictOf(t *testing.T, h *Handler, path, ua, ip string) (string, error) {
	t.Helper()
	r := newRequest("GET", path, ua)
	if ip != "" {
		setClientIP(r, ip)
	}
	_, err := serve(h, r)
	repl := r.Context().Value(caddy.ReplacerCtxKey).(*caddy.Replacer)
	v, _ := repl.GetString("http.robots_txt.verdict")
	return v, err
}

func TestGrace(t *testing.T) {
	path := writeRobots(t, "User-agent: *\nDisallow: /old\n")
	h, logs := newTestHandler(t, config.Config{File: path, DisableReload: true})
	edit := func(body string, d time.Duration) {
		os.WriteFile(path, []byte(body), 0o644)
		bump(t, path, d)
		h.fixed.refresh()
	}

	// Bot A reads version 1.
	serve(h, withIP(newRequest("GET", "/robots.txt", testfixtures.UAAhrefs), "198.51.100.1"))
	edit("User-agent: *\nDisallow: /new\n", time.Second)

	for _, tc := range []struct {
		name, ip, path, verdict string
		blocked                 bool
	}{
		// A read version 1, which allows /new: grace, not a violation.
		{"fetched old version", "198.51.100.1", "/new", "grace", false},
		// /old was disallowed by version 1, which A obeys; the current
		// version allows it: allowed.
		{"allowed now", "198.51.100.1", "/old", "allowed", false},
		// B was never seen fetching robots.txt: no version can excuse
		// it, so the change applies to it at once.
		{"never fetched", "198.51.100.2", "/new", "disallowed", true},
		// A from another address is another client.
		{"same bot, other address", "198.51.100.9", "/new", "disallowed", true},
	} {
		v, err := verdictOf(t, h, tc.path, testfixtures.UAAhrefs, tc.ip)
		if v != tc.verdict || (err != nil) != tc.blocked {
			t.Errorf("%s: verdict %q blocked %v, want %q %v", tc.name, v, err != nil, tc.verdict, tc.blocked)
		}
	}
	if n := logs.FilterMessageSnippet("robots.txt grace").Len(); n != 1 {
		t.Errorf("want one grace log line, got %d", n)
	}

	// C fetches the current version: no grace for it.
	serve(h, withIP(newRequest("GET", "/robots.txt", testfixtures.UAAhrefs), "198.51.100.3"))
	if v, err := verdictOf(t, h, "/new", testfixtures.UAAhrefs, "198.51.100.3"); v != "disallowed" || err == nil {
		t.Errorf("bot that read the current version: verdict %q, blocked %v; want disallowed, blocked", v, err != nil)
	}

	// A third version that disallows both: A still gets grace for /new
	// (its version 1 allows it), but /old is disallowed by version 1 too.
	edit("User-agent: *\nDisallow: /new\nDisallow: /old\n", 2*time.Second)
	if v, _ := verdictOf(t, h, "/new", testfixtures.UAAhrefs, "198.51.100.1"); v != "grace" {
		t.Errorf("A on /new after the third version: %q, want grace", v)
	}
	if v, _ := verdictOf(t, h, "/old", testfixtures.UAAhrefs, "198.51.100.1"); v != "disallowed" {
		t.Errorf("A on /old: %q, want disallowed (its version disallows it too)", v)
	}
	if got := len(h.fixed.current().Earlier); got != 2 {
		t.Errorf("history holds %d versions, want 2", got)
	}
}

// TestGraceFollowsAVerifiedCrawler: a verified crawler fetches robots.txt
// from one address and crawls from many with the copy it got, so its
// grace follows the crawler; a claim nobody verified gets grace only at
// the address that fetched.
func TestGraceFollowsAVerifiedCrawler(t *testing.T) {
	path := writeRobots(t, "User-agent: *\nDisallow: /old\n")
	h, _ := newTestHandler(t, config.Config{File: path, DisableReload: true,
		Crawlers: []config.Crawler{{Token: "SlowBot", Ranges: []string{"192.0.2.0/24"}}}})
	serve(h, withIP(newRequest("GET", "/robots.txt", "SlowBot/1.0"), "192.0.2.1"))
	serve(h, withIP(newRequest("GET", "/robots.txt", "SlowBot/1.0"), "203.0.113.1"))
	os.WriteFile(path, []byte("User-agent: *\nDisallow: /new\n"), 0o644)
	bump(t, path, time.Second)
	h.fixed.refresh()
	for _, tc := range []struct {
		name, ip, verdict string
	}{
		{"verified, the address that fetched", "192.0.2.1", "grace"},
		{"verified, another of its addresses", "192.0.2.77", "grace"},
		{"a claim outside its ranges, the address that fetched", "203.0.113.1", "grace"},
		{"a claim outside its ranges, another address", "203.0.113.2", "disallowed"},
	} {
		if v, _ := verdictOf(t, h, "/new", "SlowBot/1.0", tc.ip); v != tc.verdict {
			t.Errorf("%s: verdict %q, want %q", tc.name, v, tc.verdict)
		}
	}
}

// TestGraceIgnoresUnservedVersions: a file that was in force for a moment
// but that no client fetched (an editor's empty save, a half-written
// deploy) gives no grace, even to a bot that fetched before it.
func TestGraceIgnoresUnservedVersions(t *testing.T) {
	path := writeRobots(t, "User-agent: *\nDisallow: /private/\n")
	h, _ := newTestHandler(t, config.Config{File: path, DisableReload: true})
	edit := func(body string, d time.Duration) {
		os.WriteFile(path, []byte(body), 0o644)
		bump(t, path, d)
		h.fixed.refresh()
	}
	serve(h, withIP(newRequest("GET", "/robots.txt", testfixtures.UAAhrefs), "198.51.100.1"))
	edit("", time.Second) // empty for a moment: allows all, fetched by nobody
	h.fixed.refresh()     // read twice, so in force (see mayBeMidWrite)
	edit("User-agent: *\nDisallow: /private/\nDisallow: /new\n", 2*time.Second)
	if v, err := verdictOf(t, h, "/private/x", testfixtures.UAAhrefs, "198.51.100.1"); v != "disallowed" || err == nil {
		t.Errorf("/private/x: verdict %q, blocked %v; want disallowed and blocked (no version the bot read allows it)", v, err != nil)
	}
	if v, _ := verdictOf(t, h, "/new", testfixtures.UAAhrefs, "198.51.100.1"); v != "grace" {
		t.Errorf("/new: verdict %q, want grace (the version the bot read allows it)", v)
	}
	if got := len(h.fixed.current().Earlier); got != 2 {
		t.Errorf("history holds %d versions, want 2", got)
	}
}

// TestGraceKeepsHostsApart: with a robots.txt per host (a {host} root),
// a bot's fetch of one host's file gives it no grace on another, even
// when that host's earlier version was the same text.
func TestGraceKeepsHostsApart(t *testing.T) {
	dirA, dirB := t.TempDir(), t.TempDir()
	const old = "User-agent: *\nDisallow: /a\n"
	pathB := filepath.Join(dirB, "robots.txt")
	os.WriteFile(filepath.Join(dirA, "robots.txt"), []byte(old), 0o644)
	os.WriteFile(pathB, []byte(old), 0o644)
	h, _ := newTestHandler(t, config.Config{DisableReload: true})
	at := func(root, path, ip string) *http.Request {
		r := withIP(newRequest("GET", path, testfixtures.UAAhrefs), ip)
		r.Context().Value(caddyhttpVarsKey()).(map[string]any)["root"] = root
		return r
	}

	serve(h, at(dirA, "/robots.txt", "198.51.100.1")) // read host A's file only
	serve(h, at(dirB, "/robots.txt", "198.51.100.2")) // read host B's old file
	os.WriteFile(pathB, []byte("User-agent: *\nDisallow: /x\n"), 0o644)
	bump(t, pathB, time.Second)
	srcB, ok := h.dynamic.sources.Get(pathB)
	if !ok {
		t.Fatal("host B's robots.txt was not loaded")
	}
	srcB.refresh()

	for _, tc := range []struct {
		name, ip, verdict string
	}{
		{"fetched host A's file, which was the same text", "198.51.100.1", "disallowed"},
		{"fetched host B's old file", "198.51.100.2", "grace"},
	} {
		r := at(dirB, "/x", tc.ip)
		serve(h, r)
		v, _ := r.Context().Value(caddy.ReplacerCtxKey).(*caddy.Replacer).GetString("http.robots_txt.verdict")
		if v != tc.verdict {
			t.Errorf("%s: verdict on host B %q, want %q", tc.name, v, tc.verdict)
		}
	}
}

// TestGraceKeepsUnnamedBotsApart: bots that nothing names share a name;
// one's fetch of robots.txt earns no grace for another at its address.
func TestGraceKeepsUnnamedBotsApart(t *testing.T) {
	path := writeRobots(t, "User-agent: *\nDisallow: /old\n")
	h, _ := newTestHandler(t, config.Config{File: path, DisableReload: true})
	const reader, other = "Quillfetch/1.0 (+https://quill.example/bot)", "Brambleread/2.0 (+https://bramble.example/bot)"
	serve(h, withIP(newRequest("GET", "/robots.txt", reader), "198.51.100.1"))
	os.WriteFile(path, []byte("User-agent: *\nDisallow: /new\n"), 0o644)
	bump(t, path, time.Second)
	h.fixed.refresh()
	for _, tc := range []struct{ ua, verdict string }{
		{reader, "grace"},
		{other, "disallowed"},
	} {
		if v, _ := verdictOf(t, h, "/new", tc.ua, "198.51.100.1"); v != tc.verdict {
			t.Errorf("%s on /new: verdict %q, want %q", tc.ua, v, tc.verdict)
		}
	}
}

// TestGraceAfterNamingABot: the usual way to block a new bot is to name it
// in robots.txt. Its fetch from before, as an unnamed bot, is still its
// fetch, and earns it grace for what the version it read allowed; another
// header from the same address earns none.
func TestGraceAfterNamingABot(t *testing.T) {
	path := writeRobots(t, "User-agent: *\nDisallow: /old\n")
	h, _ := newTestHandler(t, config.Config{File: path, DisableReload: true})
	const bot = "ThirdCrawler/1.0"
	serve(h, withIP(newRequest("GET", "/robots.txt", bot), "198.51.100.3"))
	os.WriteFile(path, []byte("User-agent: *\nDisallow: /old\n\nUser-agent: ThirdCrawler\nDisallow: /z\n"), 0o644)
	bump(t, path, time.Second)
	h.fixed.refresh()
	for _, tc := range []struct{ ua, verdict string }{
		{bot, "grace"},
		{"ThirdCrawler/2.0", "disallowed"},
	} {
		if v, _ := verdictOf(t, h, "/z", tc.ua, "198.51.100.3"); v != tc.verdict {
			t.Errorf("%s on /z: verdict %q, want %q", tc.ua, v, tc.verdict)
		}
	}
}

// TestNoGraceForATrappedNamedBot: the fallback to a fetch made unnamed is
// for a bot judged as itself; a client the trap caught gets no grace.
func TestNoGraceForATrappedNamedBot(t *testing.T) {
	path := writeRobots(t, "User-agent: *\nDisallow: /a\n")
	h, _ := newTestHandler(t, config.Config{File: path, DisableReload: true, Trap: "/trap/"})
	const bot, ip = "ThirdCrawler/1.0", "198.51.100.77"
	serve(h, withIP(newRequest("GET", "/robots.txt", bot), ip))
	os.WriteFile(path, []byte("User-agent: *\nDisallow: /a\nDisallow: /b\n\nUser-agent: ThirdCrawler\nAllow: /\n"), 0o644)
	bump(t, path, time.Second)
	h.fixed.refresh()
	serve(h, withIP(newRequest("GET", "/trap/x", bot), ip))
	if v, err := verdictOf(t, h, "/b", bot, ip); v != "disallowed" || err == nil {
		t.Errorf("the trapped bot on /b: verdict %q, blocked %v; want disallowed, blocked", v, err != nil)
	}
}

// TestGraceChoosesTheGroupAsNow: grace looks the request up in the
// version the client fetched, in the group it obeys now. An impostor and
// a trapped address are held to the * group; grace must not hand them,
// from an earlier version, the group of the crawler their header names.
func TestGraceChoosesTheGroupAsNow(t *testing.T) {
	const v1 = "User-agent: *\nDisallow: /private/\n\nUser-agent: Googlebot\nAllow: /\n"
	path := writeRobots(t, v1)
	h, _ := newTestHandler(t, config.Config{File: path, DisableReload: true, Trap: "/trap/", Impostors: config.ImpostorsJudge})
	const impostor, trapped = "127.0.0.1", "198.51.100.7"
	for _, ip := range []string{impostor, trapped} {
		serve(h, withIP(newRequest("GET", "/robots.txt", testfixtures.UAGooglebot), ip))
	}
	serve(h, withIP(newRequest("GET", "/trap/x", testfixtures.UAFirefox), trapped))
	// An edit that changes nothing for either: /private/ was disallowed
	// to * in both versions.
	os.WriteFile(path, []byte("# edited\n"+v1), 0o644)
	bump(t, path, time.Second)
	h.fixed.refresh()

	for _, tc := range []struct{ name, ip, ua string }{
		{"Googlebot impostor", impostor, testfixtures.UAGooglebot},
		{"trapped address claiming Googlebot", trapped, testfixtures.UAGooglebot},
	} {
		if v, err := verdictOf(t, h, "/private/x", tc.ua, tc.ip); v != "disallowed" || err == nil {
			t.Errorf("%s: verdict %q, blocked %v; want disallowed, blocked (its * group disallowed it in every version)", tc.name, v, err != nil)
		}
	}
}

// TestGraceAcrossAReloadSetting: a config reload that changes how often
// the file is checked makes a new source for it; the history of the
// source before goes on, so a bot that read the earlier version keeps its
// grace even with shared state off.
func TestGraceAcrossAReloadSetting(t *testing.T) {
	path := writeRobots(t, "User-agent: *\nDisallow: /old\n")
	before, _ := newTestHandler(t, config.Config{File: path, DisableReload: true})
	serve(before, withIP(newRequest("GET", "/robots.txt", testfixtures.UAAhrefs), "198.51.100.5"))
	os.WriteFile(path, []byte("User-agent: *\nDisallow: /new\n"), 0o644)
	bump(t, path, time.Second)
	before.fixed.refresh()
	after, _ := newTestHandler(t, config.Config{File: path, Reload: config.MinInterval})
	if after.fixed == before.fixed {
		t.Fatal("the two reload settings share a source; the test needs two")
	}
	if v, _ := verdictOf(t, after, "/new", testfixtures.UAAhrefs, "198.51.100.5"); v != "grace" {
		t.Errorf("the bot that read the version before, on /new under the new setting: %q, want grace", v)
	}
}

// TestGraceOfEachHandler: two handlers on one file with different grace
// each keep their own: the short one's must not drop the version a bot
// read under the other's default grace (audit O-F1), and a config whose
// grace differs, loaded and then dropped as a rejected reload is, leaves
// the running one's alone (O-F2).
func TestGraceOfEachHandler(t *testing.T) {
	path := writeRobots(t, "User-agent: *\nDisallow: /v1/\n")
	long, _ := newTestHandler(t, config.Config{File: path, DisableReload: true})
	serve(long, withIP(newRequest("GET", "/robots.txt", testfixtures.UAAhrefs), "198.51.100.6"))
	short := time.Duration(config.MinGrace)
	g := caddy.Duration(short)
	other, _ := newTestHandler(t, config.Config{File: path, DisableReload: true, Grace: &g})
	if other.fixed == long.fixed {
		t.Error("two grace settings share a source: the last one configured sets both")
	}
	for i, text := range []string{"User-agent: *\nDisallow: /v2/\n", "User-agent: *\nDisallow: /v2/\nDisallow: /x/\n"} {
		os.WriteFile(path, []byte(text), 0o644)
		bump(t, path, time.Duration(i+1)*time.Second)
		long.fixed.refresh()
		other.fixed.refresh()
		time.Sleep(short + short/4)
	}
	if v, _ := verdictOf(t, long, "/x/y", testfixtures.UAAhrefs, "198.51.100.6"); v != "grace" {
		t.Errorf("the bot that read v1 under the default grace, on /x/y: %q, want grace", v)
	}
}

// TestSameFileKeepsItsDate: a new source of the same file, unchanged (a
// reload setting changed), goes on from when the file came into force,
// not from now: the versions before it stay in force no longer than they
// were.
func TestSameFileKeepsItsDate(t *testing.T) {
	path := writeRobots(t, "User-agent: *\nDisallow: /x\n")
	before, _ := newTestHandler(t, config.Config{File: path, DisableReload: true})
	since := before.fixed.current().Since
	time.Sleep(10 * time.Millisecond)
	after, _ := newTestHandler(t, config.Config{File: path, Reload: config.MinInterval})
	if after.fixed == before.fixed {
		t.Fatal("the two reload settings share a source; the test needs two")
	}
	if got := after.fixed.current().Since; !got.Equal(since) {
		t.Errorf("the same file read anew is in force since %v, want %v", got, since)
	}
}

// TestGraceAcrossAMissingFile: a bot that fetched a version, then asked
// for robots.txt while the file was gone for a moment (a deploy), keeps
// the grace of the version it fetched: to Google's reading the missing
// file allowed everything, so it is no violator of the version after.
func TestGraceAcrossAMissingFile(t *testing.T) {
	path := writeRobots(t, "User-agent: *\nDisallow: /old\n")
	h, _ := newTestHandler(t, config.Config{File: path, DisableReload: true})
	const ip = "198.51.100.1"
	serve(h, withIP(newRequest("GET", "/robots.txt", testfixtures.UAAhrefs), ip))
	os.Remove(path)
	h.fixed.refresh()
	serve(h, withIP(newRequest("GET", "/robots.txt", testfixtures.UAAhrefs), ip))
	os.WriteFile(path, []byte("User-agent: *\nDisallow: /new\n"), 0o644)
	bump(t, path, 2*time.Second)
	h.fixed.refresh()
	if v, _ := verdictOf(t, h, "/new", testfixtures.UAAhrefs, ip); v != "grace" {
		t.Errorf("/new after the file came back: %q, want grace (the bot fetched the version before)", v)
	}
}

// TestGraceAfterNoFile: a site's first robots.txt is a change like any
// other to a bot that fetched the 404 before it: to Google's reading
// that 404 allowed everything, and the bot may keep it for a while. A bot
// not seen fetching it has no grace.
func TestGraceAfterNoFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "robots.txt")
	h, _ := newTestHandler(t, config.Config{File: path, DisableReload: true})
	serve(h, withIP(newRequest("GET", "/robots.txt", testfixtures.UAAhrefs), "198.51.100.5"))
	os.WriteFile(path, []byte("User-agent: *\nDisallow: /new\n"), 0o644)
	bump(t, path, time.Second)
	h.fixed.refresh()
	if v, _ := verdictOf(t, h, "/new", testfixtures.UAAhrefs, "198.51.100.5"); v != "grace" {
		t.Errorf("the bot that fetched the 404: %q, want grace", v)
	}
	if v, _ := verdictOf(t, h, "/new", testfixtures.UAAhrefs, "198.51.100.6"); v != "disallowed" {
		t.Errorf("a bot never seen fetching: %q, want disallowed", v)
	}
}

// TestGraceOutlastsUnservedRewrites: a file rewritten more often than
// bots read it (a generator that stamps the time in a comment) makes a
// version at each check; the versions nobody fetched must not push out
// of the history the one a bot read, which is what grace is for.
func TestGraceOutlastsUnservedRewrites(t *testing.T) {
	path := writeRobots(t, "User-agent: *\nDisallow: /old\n")
	h, _ := newTestHandler(t, config.Config{File: path, DisableReload: true})
	serve(h, withIP(newRequest("GET", "/robots.txt", testfixtures.UAAhrefs), "198.51.100.1"))
	for i := range 40 {
		os.WriteFile(path, []byte("# generated "+strconv.Itoa(i)+"\nUser-agent: *\nDisallow: /new\n"), 0o644)
		bump(t, path, time.Duration(i+1)*time.Second)
		h.fixed.refresh()
	}
	if v, err := verdictOf(t, h, "/new", testfixtures.UAAhrefs, "198.51.100.1"); v != "grace" || err != nil {
		t.Errorf("/new after 40 unserved rewrites: verdict %q, blocked %v; want grace, passed", v, err != nil)
	}
}

// TestGraceOnlyForAValidatedCopy: a 304 is a fetch only when the
// request's validators named the version served. If-None-Match: * and an
// If-Modified-Since in the future get a 304 too, from a client that may
// never have read the file; before, such a client was logged as having
// fetched it, and was excused by grace for rules it never saw.
func TestGraceOnlyForAValidatedCopy(t *testing.T) {
	path := writeRobots(t, "User-agent: *\nDisallow: /old\n")
	h, _ := newTestHandler(t, config.Config{File: path, DisableReload: true})
	tick := time.Now()
	h.fixed.served.clock = func() time.Time { tick = tick.Add(time.Second); return tick }
	w, _ := serve(h, newRequest("GET", "/robots.txt", testfixtures.UAChrome))
	etag, lm := w.Header().Get("ETag"), w.Header().Get("Last-Modified")
	cases := []struct {
		name, header, value string
		fetched             bool
	}{
		{"its entity-tag", "If-None-Match", etag, true},
		{"its weak entity-tag, in a list", "If-None-Match", `"other", W/` + etag, true},
		{"its date", "If-Modified-Since", lm, true},
		{"any entity-tag", "If-None-Match", "*", false},
		{"a date in the future", "If-Modified-Since", "Fri, 01 Jan 2100 00:00:00 GMT", false},
	}
	ipOf := func(i int) string { return "198.51.100." + strconv.Itoa(10+i) }
	for i, tc := range cases {
		r := withIP(newRequest("GET", "/robots.txt", testfixtures.UAAhrefs), ipOf(i))
		r.Header.Set(tc.header, tc.value)
		if w, _ := serve(h, r); w.Code != http.StatusNotModified {
			t.Fatalf("%s: %d, want 304", tc.name, w.Code)
		}
	}
	os.WriteFile(path, []byte("User-agent: *\nDisallow: /new\n"), 0o644)
	bump(t, path, time.Second)
	h.fixed.refresh()
	// Only a client that had version 1 is excused for /new, which it
	// allowed.
	for i, tc := range cases {
		want := map[bool]string{true: "grace", false: "disallowed"}[tc.fetched]
		if v, _ := verdictOf(t, h, "/new", testfixtures.UAAhrefs, ipOf(i)); v != want {
			t.Errorf("after a 304 to %s: /new %q, want %q", tc.name, v, want)
		}
	}
}
