package caddymodule

import (
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/caddyserver/caddy/v2"
	"go.uber.org/zap/zapcore"
	"go.uber.org/zap/zaptest/observer"

	"github.com/robotsguard/caddy-robots-txt/config"
	"github.com/robotsguard/caddy-robots-txt/internal/testfixtures"
	"github.com/robotsguard/caddy-robots-txt/robots"
)

// TestTrapMonitorLogs: in mode monitor the trap's own request is a
// violation logged, not one counted as refused: the 404 of the trap's
// path refuses no page of the site.
func TestTrapMonitorLogs(t *testing.T) {
	const trap = "/.well-known/robots-trap/"
	for _, tc := range []struct {
		mode, want string
	}{
		{config.ModeMonitor, "logged"},
		{config.ModeEnforce, "blocked"},
	} {
		h, _ := newTestHandler(t, config.Config{Inline: "User-agent: *\nDisallow: /private/\n", Trap: trap, Mode: tc.mode,
			Crawlers: []config.Crawler{{Token: "GPTBot", Ranges: []string{"192.0.2.0/24"}}}})
		for _, c := range []struct{ ua, ip string }{{"BadBot/1.0", "198.51.100.7"}, {"GPTBot/1.1", "192.0.2.7"}} {
			r := withIP(newRequest("GET", trap, c.ua), c.ip)
			w, _ := serve(h, r)
			action, _ := r.Context().Value(caddy.ReplacerCtxKey).(*caddy.Replacer).GetString("http.robots_txt.action")
			if w.Code != http.StatusNotFound || action != tc.want {
				t.Errorf("mode %q, %s on the trap: %d, action %q; want 404, %q", tc.mode, c.ua, w.Code, action, tc.want)
			}
		}
	}
}

// TestTrap: a client that requests the trap path — a browser's
// User-Agent included — is held to robots.txt afterwards; a verified
// crawler that does is logged as its own violation.
func TestTrap(t *testing.T) {
	const robotsTxt = "User-agent: *\nDisallow: /private/\n\nUser-agent: GPTBot\nAllow: /\n"
	const trap = "/.well-known/robots-trap/"
	status := func(h *Handler, path, ua, ip string) (int, string) {
		r := withIP(newRequest("GET", path, ua), ip)
		w, err := serve(h, r)
		repl := r.Context().Value(caddy.ReplacerCtxKey).(*caddy.Replacer)
		bot, _ := repl.GetString("http.robots_txt.bot")
		if err != nil {
			return 403, bot
		}
		if w.Code == 0 {
			return 200, bot
		}
		return w.Code, bot
	}
	t.Run("hold", func(t *testing.T) {
		h, logs := newTestHandler(t, config.Config{Inline: robotsTxt, Trap: trap})
		if c, _ := status(h, "/private/x", testfixtures.UAChrome, "192.0.2.1"); c != 200 {
			t.Fatalf("a browser before the trap: %d, want 200", c)
		}
		if c, bot := status(h, trap+"page", testfixtures.UAChrome, "192.0.2.1"); c != http.StatusNotFound || bot != "trapped" {
			t.Fatalf("the trap: %d %q, want 404 trapped", c, bot)
		}
		if c, bot := status(h, "/private/x", testfixtures.UAChrome, "192.0.2.1"); c != 403 || bot != "trapped" {
			t.Errorf("the trapped browser on /private/x: %d %q, want 403 as trapped", c, bot)
		}
		if c, _ := status(h, "/public", testfixtures.UAChrome, "192.0.2.1"); c != 200 {
			t.Errorf("the trapped browser on /public (the * group allows it): %d, want 200", c)
		}
		if c, _ := status(h, "/private/x", testfixtures.UAChrome, "192.0.2.2"); c != 200 {
			t.Errorf("another address: %d, want 200", c)
		}
		if logs.FilterMessageSnippet("trap sprung").Len() != 1 {
			t.Errorf("want one 'trap sprung' log entry, got %v", logs.All())
		}
		// The trap's rule is no line of the file: no "line 0".
		for _, e := range logs.FilterMessageSnippet("trap sprung").All() {
			f := e.ContextMap()
			if _, has := f["line"]; has || f["rule_source"] != "trap" {
				t.Errorf("the trap's log entry has line %v, rule_source %q; want no line, \"trap\"", f["line"], f["rule_source"])
			}
		}
		// The served robots.txt keeps every group out of the trap.
		r := newRequest("GET", "/robots.txt", testfixtures.UAChrome)
		w, _ := serve(h, r)
		if strings.Count(w.Body.String(), "Disallow: "+trap) != 2 || !strings.Contains(w.Body.String(), "User-agent: *\nDisallow: "+trap) {
			t.Errorf("served robots.txt:\n%s", w.Body.String())
		}
	})
	t.Run("people behind a trapped address", func(t *testing.T) {
		// The address may be a NAT's: its browsers are held to what
		// robots.txt disallows, but not paced by the * group's
		// Crawl-delay (a page's assets come faster); a bot from it is.
		h, _ := newTestHandler(t, config.Config{Inline: "User-agent: *\nDisallow: /private/\nCrawl-delay: 5\n", Trap: trap})
		status(h, trap, testfixtures.UAChrome, "192.0.2.90")
		for i := range 8 {
			if c, _ := status(h, "/asset"+strconv.Itoa(i), testfixtures.UAChrome, "192.0.2.90"); c != 200 {
				t.Fatalf("request %d of a page from the trapped address: %d, want 200", i, c)
			}
		}
		if c, _ := status(h, "/private/x", testfixtures.UAChrome, "192.0.2.90"); c != 403 {
			t.Errorf("the trapped browser on /private/x: %d, want 403", c)
		}
		codes := []int{}
		for range 4 {
			c, _ := status(h, "/a", testfixtures.UACurl, "192.0.2.90")
			codes = append(codes, c)
		}
		if codes[3] != 403 { // status reports any refusal as 403
			t.Errorf("a bot from the trapped address, four requests in a row: %v, want the fourth refused (too fast)", codes)
		}
	})
	t.Run("humans entries are never trapped", func(t *testing.T) {
		h, _ := newTestHandler(t, config.Config{Inline: robotsTxt, Trap: trap, Humans: []string{"ExampleMonitor"}})
		const monitor = "Mozilla/5.0 (compatible; ExampleMonitor/2.0; +https://monitor.example)"
		if c, bot := status(h, trap, monitor, "192.0.2.95"); c != http.StatusNotFound || bot != "" {
			t.Errorf("the trap for a humans entry: %d %q, want 404 and not trapped", c, bot)
		}
		if c, _ := status(h, "/private/x", monitor, "192.0.2.95"); c != 200 {
			t.Errorf("the humans entry on /private/x after the trap: %d, want 200", c)
		}
		// Nor held when its address was trapped by another client.
		status(h, trap, testfixtures.UAChrome, "192.0.2.96")
		if c, _ := status(h, "/private/x", monitor, "192.0.2.96"); c != 200 {
			t.Errorf("the humans entry from a trapped address: %d, want 200", c)
		}
	})
	t.Run("a bot stays itself", func(t *testing.T) {
		// Springing the trap must not loosen a bot's rules: a bot its
		// own group refuses stays refused, and one its own group
		// lets in is held to the * group too.
		h, _ := newTestHandler(t, config.Config{Inline: robotsTxt + "\nUser-agent: ExampleScraper\nDisallow: /\n", Trap: trap})
		const scraper = "ExampleScraper/1.0 (+https://scraper.example)"
		if c, _ := status(h, "/public", scraper, "192.0.2.80"); c != 403 {
			t.Fatalf("ExampleScraper on /public before the trap: %d, want 403", c)
		}
		status(h, trap, scraper, "192.0.2.80")
		if c, bot := status(h, "/public", scraper, "192.0.2.80"); c != 403 || bot != "ExampleScraper" {
			t.Errorf("ExampleScraper on /public after the trap: %d %q, want 403 as ExampleScraper", c, bot)
		}
		if c, _ := status(h, "/private/x", testfixtures.UAGPTBot, "192.0.2.81"); c != 200 {
			t.Fatalf("GPTBot (its group allows everything) before the trap: %d, want 200", c)
		}
		r := withIP(newRequest("GET", trap, testfixtures.UAGPTBot), "192.0.2.81")
		serve(h, r)
		if c, _ := r.Context().Value(caddy.ReplacerCtxKey).(*caddy.Replacer).GetString("http.robots_txt.category"); c != "" {
			t.Errorf("the trap sprung by a GPTBot claim is logged with category %q, want none: it is a trapped client now", c)
		}
		if c, bot := status(h, "/private/x", testfixtures.UAGPTBot, "192.0.2.81"); c != 403 || bot != "trapped" {
			t.Errorf("GPTBot on /private/x after the trap: %d %q, want 403 as trapped, by the * group", c, bot)
		}
		if c, _ := status(h, "/public", testfixtures.UAGPTBot, "192.0.2.81"); c != 200 {
			t.Errorf("GPTBot on /public after the trap: %d, want 200", c)
		}
	})
	t.Run("a trapped client fetches robots.txt", func(t *testing.T) {
		// Its requests are a trapped bot's from the trap on, its fetch
		// of robots.txt too: logged as such (the report counts it a
		// bot's, not a person's), and its later requests say it
		// fetched the file.
		h, _ := newTestHandler(t, config.Config{Inline: robotsTxt, Trap: trap})
		for _, tc := range []struct{ name, ua, ip string }{
			{"a browser's header", testfixtures.UAChrome, "192.0.2.60"},
			{"a bot's header", testfixtures.UACurl, "192.0.2.61"},
		} {
			status(h, trap, tc.ua, tc.ip)
			r := withIP(newRequest("GET", "/robots.txt", tc.ua), tc.ip)
			serve(h, r)
			repl := r.Context().Value(caddy.ReplacerCtxKey).(*caddy.Replacer)
			if bot, _ := repl.GetString("http.robots_txt.bot"); bot != "trapped" {
				t.Errorf("%s: its robots.txt fetch is logged as bot %q, want trapped", tc.name, bot)
			}
			if id, _ := repl.GetString("http.robots_txt.identity"); id != "trapped" {
				t.Errorf("%s: its robots.txt fetch has identity %q, want trapped", tc.name, id)
			}
			r = withIP(newRequest("GET", "/public", tc.ua), tc.ip)
			serve(h, r)
			repl = r.Context().Value(caddy.ReplacerCtxKey).(*caddy.Replacer)
			bot, _ := repl.GetString("http.robots_txt.bot")
			fetched, _ := repl.Get("http.robots_txt.fetched")
			if bot != "trapped" || fetched != true {
				t.Errorf("%s: its next request: bot %q, fetched %v; want trapped, true", tc.name, bot, fetched)
			}
		}
	})
	t.Run("served past the size crawlers read", func(t *testing.T) {
		// A file just under 500 KiB of many small groups grows past it
		// with the trap's lines: the operator hears of it.
		var b strings.Builder
		for i := 0; b.Len() < robots.DefaultMaxSize-64; i++ {
			fmt.Fprintf(&b, "User-agent: bot%d\nDisallow: /p%d\n", i, i)
		}
		if n := len(servedLogs(t, config.Config{Inline: b.String(), Trap: trap}, "longer than crawlers read")); n != 1 {
			t.Errorf("%d warnings that the served file outgrew 500 KiB, want 1", n)
		}
		if n := len(servedLogs(t, config.Config{Inline: robotsTxt, Trap: trap}, "longer than crawlers read")); n != 0 {
			t.Errorf("a small file: %d warnings", n)
		}
	})
	t.Run("no grace once trapped", func(t *testing.T) {
		// A bot that fetched robots.txt and then sprang the trap gets
		// no grace after an edit: neither for the * group's rules it is
		// held to, nor for its own.
		path := writeRobots(t, robotsTxt+"\nUser-agent: FooBot\nDisallow: /foo/\n")
		h, _ := newTestHandler(t, config.Config{File: path, Trap: trap, DisableReload: true})
		const foo = "FooBot/1.0"
		status(h, "/robots.txt", foo, "192.0.2.85")
		os.WriteFile(path, []byte("User-agent: *\nDisallow: /private/\nDisallow: /new/\n\nUser-agent: FooBot\nDisallow: /foo/\nDisallow: /foo2/\n"), 0o644)
		bump(t, path, time.Second)
		h.fixed.refresh()
		if v, _ := verdictOf(t, h, "/foo2/x", foo, "192.0.2.85"); v != "grace" {
			t.Fatalf("FooBot on /foo2/x before the trap: %q, want grace", v)
		}
		status(h, trap, foo, "192.0.2.85")
		for _, tc := range []struct{ path, bot string }{
			{"/foo2/x", "FooBot"},     // its own group's new rule
			{"/private/x", "trapped"}, // the * group's, in both versions
			{"/new/x", "trapped"},     // the * group's new rule
		} {
			if c, bot := status(h, tc.path, foo, "192.0.2.85"); c != 403 || bot != tc.bot {
				t.Errorf("trapped FooBot on %s: %d %q, want 403 as %s", tc.path, c, bot, tc.bot)
			}
		}
	})
	t.Run("no grace for a fetch made trapped", func(t *testing.T) {
		// A client that springs the trap and then reads robots.txt
		// has a fetch on record as the trapped client it is; an edit
		// after it still buys it no grace.
		path := writeRobots(t, robotsTxt)
		h, _ := newTestHandler(t, config.Config{File: path, Trap: trap, DisableReload: true})
		const ip = "192.0.2.86"
		for _, ua := range []string{testfixtures.UAChrome, "FooBot/1.0"} {
			status(h, trap, ua, ip)
			status(h, "/robots.txt", ua, ip)
		}
		os.WriteFile(path, []byte("User-agent: *\nDisallow: /private/\nDisallow: /new/\n"), 0o644)
		bump(t, path, time.Second)
		h.fixed.refresh()
		for _, ua := range []string{testfixtures.UAChrome, "FooBot/1.0"} {
			if v, err := verdictOf(t, h, "/new/x", ua, ip); v != "disallowed" || err == nil {
				t.Errorf("%s, trapped, on /new/x after an edit: verdict %q, blocked %v; want disallowed, blocked", ua, v, err != nil)
			}
		}
	})
	t.Run("allowed by a group", func(t *testing.T) {
		// An Allow rule as long as the added Disallow wins the tie: the
		// operator hears that the trap is open to that group.
		warned := servedLogs(t, config.Config{Inline: robotsTxt + "\nUser-agent: Bingbot\nAllow: " + trap + "\n", Trap: trap}, "allows the trap path")
		if len(warned) != 1 || !strings.Contains(fmt.Sprint(warned[0].ContextMap()["agents"]), "Bingbot") {
			t.Errorf("want one warning naming Bingbot, got %v", warned)
		}
		if n := len(servedLogs(t, config.Config{Inline: robotsTxt, Trap: trap}, "allows the trap path")); n != 0 {
			t.Errorf("a file that leaves the trap closed: %d warnings", n)
		}
	})
	t.Run("prefetch", func(t *testing.T) {
		// A browser's speculative fetch of the link springs nothing.
		h, _ := newTestHandler(t, config.Config{Inline: robotsTxt, Trap: trap})
		for i, hdr := range [][2]string{{"Sec-Purpose", "prefetch"}, {"Sec-Purpose", "prefetch;prerender"}, {"Purpose", "prefetch"}, {"X-Moz", "prefetch"}} {
			ip := fmt.Sprintf("192.0.2.%d", 40+i)
			r := withIP(newRequest("GET", trap, testfixtures.UAChrome), ip)
			r.Header.Set(hdr[0], hdr[1])
			if w, _ := serve(h, r); w.Code != http.StatusNotFound {
				t.Errorf("%s: %s: status %d, want 404", hdr[0], hdr[1], w.Code)
			}
			if c, bot := status(h, "/private/x", testfixtures.UAChrome, ip); c != 200 || bot != "" {
				t.Errorf("after a prefetch (%s: %s): %d %q, want 200, not trapped", hdr[0], hdr[1], c, bot)
			}
		}
	})
	t.Run("not the site's own link followed unseen", func(t *testing.T) {
		// Another site's page that embeds or links the trap, or a mail
		// that links it, makes people's browsers fetch it: that traps
		// nobody, nor does a person who clicks the link where another
		// user posted it (Sec-Fetch-User: ?1). Following a link of the
		// site's own page unclicked does. Over
		// HTTPS browsers say which in their fetch metadata; over plain
		// HTTP they send none, and a Referer of another host, or an
		// Accept for an image or a style sheet, says it instead.
		meta := func(site, dest string) map[string]string {
			mode := "no-cors"
			if dest == "document" {
				mode = "navigate"
			}
			return map[string]string{"Sec-Fetch-Site": site, "Sec-Fetch-Mode": mode, "Sec-Fetch-Dest": dest}
		}
		with := func(m map[string]string, k, v string) map[string]string {
			m[k] = v
			return m
		}
		const page = "text/html,application/xhtml+xml,*/*;q=0.8"
		h, _ := newTestHandler(t, config.Config{Inline: robotsTxt, Trap: trap})
		for i, tc := range []struct {
			name    string
			headers map[string]string
			springs bool
			method  string // GET when empty
		}{
			{"cross-site image", meta("cross-site", "image"), false, ""},
			{"cross-site link", meta("cross-site", "document"), false, ""},
			{"same-site link", meta("same-site", "document"), false, ""},
			{"same-origin image", meta("same-origin", "image"), false, ""},
			{"same-origin script", meta("same-origin", "script"), false, ""},
			{"same-origin fetch()", meta("same-origin", "empty"), false, ""},
			{"typed, bookmarked or mailed", meta("none", "document"), false, ""},
			{"same-origin link", meta("same-origin", "document"), true, ""},
			{"same-origin link a person clicked", with(meta("same-origin", "document"), "Sec-Fetch-User", "?1"), false, ""},
			{"same-origin link, Sec-Fetch-User not ?1", with(meta("same-origin", "document"), "Sec-Fetch-User", "?0"), true, ""},
			{"Sec-Fetch-User alone", map[string]string{"Sec-Fetch-User": "?1"}, true, ""},
			{"Sec-Fetch-User without Sec-Fetch-Mode", map[string]string{"Sec-Fetch-Site": "same-origin", "Sec-Fetch-Dest": "document", "Sec-Fetch-User": "?1"}, true, ""},
			{"no headers", nil, true, ""},
			{"a destination browsers would not spell", meta("cross-site", "Image-1"), true, ""},
			{"a destination newer than this list", meta("cross-site", "speculationrules"), false, ""},
			{"a site outside the vocabulary", meta("elsewhere", "image"), true, ""},
			{"HTTP, another host's Referer", map[string]string{"Referer": "http://elsewhere.test/page"}, false, ""},
			{"HTTP, another host's Referer, a page", map[string]string{"Referer": "http://elsewhere.test/page", "Accept": page}, false, ""},
			{"HTTP, an image", map[string]string{"Accept": "image/avif,image/webp,image/apng,*/*;q=0.8"}, false, ""},
			{"HTTP, a style sheet", map[string]string{"Accept": "text/css,*/*;q=0.1"}, false, ""},
			{"HTTP, this host's Referer, a page", map[string]string{"Referer": "http://example.com/page", "Accept": page}, true, ""},
			{"HTTP, anything", map[string]string{"Accept": "*/*"}, true, ""},
			// Over plain HTTP a page's script still shows itself: by
			// its method, or by the Origin a cross-origin fetch() sends
			// with its Referer withheld. A HEAD may be a link checker's.
			{"HTTP, a CORS preflight", map[string]string{"Origin": "http://elsewhere.test", "Access-Control-Request-Method": "PUT"}, false, "OPTIONS"},
			{"HTTP, a POST", map[string]string{"Accept": "*/*"}, false, "POST"},
			{"HTTP, another origin's fetch() without Referer", map[string]string{"Origin": "http://elsewhere.test", "Accept": "*/*"}, false, ""},
			{"HTTP, a null origin", map[string]string{"Origin": "null", "Accept": "*/*"}, false, ""},
			{"HTTP, this origin's fetch()", map[string]string{"Origin": "http://example.com", "Accept": "*/*"}, true, ""},
			{"HTTP, a HEAD", map[string]string{"Accept": "*/*"}, true, "HEAD"},
		} {
			ip := fmt.Sprintf("192.0.2.%d", 90+i)
			method := tc.method
			if method == "" {
				method = "GET"
			}
			r := withIP(newRequest(method, trap, testfixtures.UAChrome), ip)
			for k, v := range tc.headers {
				r.Header.Set(k, v)
			}
			serve(h, r)
			c, bot := status(h, "/private/x", testfixtures.UAChrome, ip)
			if trapped := c == 403 && bot == "trapped"; trapped != tc.springs {
				t.Errorf("%s: /private/x afterwards %d %q; want trapped %v", tc.name, c, bot, tc.springs)
			}
		}
	})
	t.Run("prefetch excuses no bot", func(t *testing.T) {
		h, _ := newTestHandler(t, config.Config{Inline: robotsTxt, Trap: trap})
		for i, tc := range []struct {
			ua, name, value string
			springs         bool
		}{
			{testfixtures.UACurl, "X-Moz", "prefetch", true},
			{testfixtures.UAChrome, "Sec-Purpose", "prefetchjunk", true},
			{testfixtures.UAChrome, "Sec-Purpose", "prefetch; anonymous-client-ip", false},
		} {
			ip := fmt.Sprintf("192.0.2.%d", 130+i)
			r := withIP(newRequest("GET", trap, tc.ua), ip)
			r.Header.Set(tc.name, tc.value)
			serve(h, r)
			_, bot := status(h, "/public", tc.ua, ip)
			if trapped := bot == "trapped"; trapped != tc.springs {
				t.Errorf("%s with %s: %s: afterwards %q; want trapped %v", tc.ua, tc.name, tc.value, bot, tc.springs)
			}
		}
	})
	t.Run("an IPv6 client's /64", func(t *testing.T) {
		h, _ := newTestHandler(t, config.Config{Inline: robotsTxt, Trap: trap})
		status(h, trap, testfixtures.UAChrome, "2001:db8:1:2::1")
		if c, bot := status(h, "/private/x", testfixtures.UAChrome, "2001:db8:1:2::abcd"); c != 403 || bot != "trapped" {
			t.Errorf("another address of the trapped /64: %d %q, want 403 trapped", c, bot)
		}
		if c, _ := status(h, "/private/x", testfixtures.UAChrome, "2001:db8:1:3::1"); c != 200 {
			t.Errorf("another /64: %d, want 200", c)
		}
	})
	// A * group that refuses AI training, and a crawler with a long
	// Crawl-delay of its own.
	const signalsAndDelay = "User-agent: *\nContent-Signal: ai-train=no\nDisallow: /private/\n\nUser-agent: SlowBot\nCrawl-delay: 10\n"
	t.Run("the trap keeps a bot's signals and Crawl-delay", func(t *testing.T) {
		// Judged as trapped by the * group, a bot keeps what its own
		// identity holds it to: the usage preferences for its category,
		// and its group's longer Crawl-delay. mode monitor only logs
		// what the path rules (and a trap block) disallow; signals
		// enforce is a setting of its own and still refuses, trapped or
		// not. A request logged as disallowed is that violation, not
		// also a rate one.
		for i, tc := range []struct {
			name              string
			cfg               config.Config
			gptPath, slowPath string
			slow              string // SlowBot's four verdicts after the trap
		}{
			{"hold", config.Config{Signals: config.ModeEnforce}, "/article", "/a", "allowed allowed allowed too-fast "},
			{"block, mode monitor", config.Config{TrapAction: config.TrapBlock, Mode: config.ModeMonitor, Signals: config.ModeEnforce, CrawlDelay: config.ModeEnforce},
				"/public", "/public", "disallowed disallowed disallowed disallowed "},
		} {
			tc.cfg.Inline, tc.cfg.Trap = signalsAndDelay, trap
			h, _ := newTestHandler(t, tc.cfg)
			gpt, slow := fmt.Sprintf("192.0.2.%d", 140+2*i), fmt.Sprintf("192.0.2.%d", 141+2*i)
			if c, _ := status(h, "/private/x", testfixtures.UAGPTBot, gpt); c != 403 {
				t.Errorf("%s: GPTBot on a disallowed path, ai-train=no: %d, want 403", tc.name, c)
			}
			status(h, trap, testfixtures.UAGPTBot, gpt)
			if c, _ := status(h, tc.gptPath, testfixtures.UAGPTBot, gpt); c != 403 {
				t.Errorf("%s: GPTBot after the trap, where ai-train=no: %d, want 403 (signals enforce)", tc.name, c)
			}
			status(h, trap, "SlowBot/1.0", slow)
			if got := verdictsOf(t, h, 4, tc.slowPath, "SlowBot/1.0", slow); got != tc.slow {
				t.Errorf("%s: SlowBot after the trap, four requests: %s; want %s", tc.name, got, tc.slow)
			}
		}
	})
	t.Run("signals monitor refuses nothing", func(t *testing.T) {
		// So it does not make a trapped client that sends an AI
		// crawler's name that crawler, judged by its own group.
		hm, _ := newTestHandler(t, config.Config{Inline: signalsAndDelay, Trap: trap, TrapAction: config.TrapBlock, Signals: config.ModeMonitor})
		status(hm, trap, testfixtures.UAChrome, "192.0.2.152")
		if c, bot := status(hm, "/public", testfixtures.UAGPTBot, "192.0.2.152"); c != 403 || bot != "trapped" {
			t.Errorf("a GPTBot claim from a trapped address, signals monitor, trap block: %d %q, want 403 as trapped", c, bot)
		}
	})
	t.Run("fetch metadata excuses no bot", func(t *testing.T) {
		// A bot by its own header that says its fetch was cross-site
		// springs the trap all the same; metadata without Sec-Fetch-Mode
		// is no browser's.
		h, _ := newTestHandler(t, config.Config{Inline: robotsTxt, Trap: trap})
		r := withIP(newRequest("GET", trap, testfixtures.UACurl), "192.0.2.110")
		r.Header.Set("Sec-Fetch-Site", "cross-site")
		r.Header.Set("Sec-Fetch-Mode", "no-cors")
		r.Header.Set("Sec-Fetch-Dest", "image")
		serve(h, r)
		if c, bot := status(h, "/public", testfixtures.UACurl, "192.0.2.110"); c != 200 || bot != "trapped" {
			t.Errorf("curl with cross-site metadata, after the trap: %d %q, want held as trapped", c, bot)
		}
		// Nor by saying a person clicked the link.
		r = withIP(newRequest("GET", trap, testfixtures.UACurl), "192.0.2.112")
		for k, v := range map[string]string{"Sec-Fetch-Site": "same-origin", "Sec-Fetch-Mode": "navigate", "Sec-Fetch-Dest": "document", "Sec-Fetch-User": "?1"} {
			r.Header.Set(k, v)
		}
		serve(h, r)
		if c, bot := status(h, "/public", testfixtures.UACurl, "192.0.2.112"); c != 200 || bot != "trapped" {
			t.Errorf("curl saying a person clicked the link, after the trap: %d %q, want held as trapped", c, bot)
		}
		r = withIP(newRequest("GET", trap, testfixtures.UAChrome), "192.0.2.111")
		r.Header.Set("Sec-Fetch-Site", "cross-site")
		r.Header.Set("Sec-Fetch-Dest", "image")
		serve(h, r)
		if c, bot := status(h, "/private/x", testfixtures.UAChrome, "192.0.2.111"); c != 403 || bot != "trapped" {
			t.Errorf("metadata without Sec-Fetch-Mode: %d %q, want trapped", c, bot)
		}
	})
	t.Run("spellings", func(t *testing.T) {
		// Every spelling a server reads as the trap path springs it.
		h, _ := newTestHandler(t, config.Config{Inline: robotsTxt, Trap: trap})
		for i, p := range []string{"/" + trap, "/x/.." + trap, "/.well-known//robots-trap/a", "/.well-known/./robots-trap/"} {
			ip := fmt.Sprintf("192.0.2.%d", 20+i)
			if c, bot := status(h, p, testfixtures.UAChrome, ip); c != http.StatusNotFound || bot != "trapped" {
				t.Errorf("%s: %d %q, want 404 trapped", p, c, bot)
			}
		}
	})
	t.Run("no robots.txt", func(t *testing.T) {
		// No file is served, so nothing disallows the trap: following
		// the link breaks no rule, and block refuses nobody.
		path := filepath.Join(t.TempDir(), "robots.txt")
		h, _ := newTestHandler(t, config.Config{File: path, Trap: trap, TrapAction: config.TrapBlock, DisableReload: true})
		if c, bot := status(h, trap, testfixtures.UACurl, "192.0.2.70"); c != http.StatusNotFound || bot != "" {
			t.Errorf("the trap without robots.txt: %d %q, want 404, nobody trapped", c, bot)
		}
		if c, _ := status(h, "/page", testfixtures.UACurl, "192.0.2.70"); c != 200 {
			t.Errorf("after it: %d, want 200", c)
		}
		// Caught while there was a file; the file is gone: not held.
		os.WriteFile(path, []byte(robotsTxt), 0o644)
		h.fixed.refresh()
		status(h, trap, testfixtures.UACurl, "192.0.2.71")
		os.Remove(path)
		h.fixed.refresh()
		if c, bot := status(h, "/page", testfixtures.UACurl, "192.0.2.71"); c != 200 || bot == "trapped" {
			t.Errorf("trapped, then the file removed: %d %q, want 200 and not held as trapped", c, bot)
		}
	})
	t.Run("non-ASCII path", func(t *testing.T) {
		// The trap path as configured, raw UTF-8, and a request for it,
		// which arrives percent-encoded.
		h, _ := newTestHandler(t, config.Config{Inline: robotsTxt, Trap: "/piège/"})
		if c, bot := status(h, "/pi%C3%A8ge/x", testfixtures.UAChrome, "192.0.2.60"); c != http.StatusNotFound || bot != "trapped" {
			t.Errorf("/pi%%C3%%A8ge/x: %d %q, want 404 trapped", c, bot)
		}
	})
	t.Run("block", func(t *testing.T) {
		h, _ := newTestHandler(t, config.Config{Inline: robotsTxt, Trap: trap, TrapAction: config.TrapBlock})
		status(h, trap, testfixtures.UACurl, "192.0.2.1")
		if c, _ := status(h, "/public", testfixtures.UAChrome, "192.0.2.1"); c != 403 {
			t.Errorf("a blocked address on /public: %d, want 403", c)
		}
		// Every spelling a server reads as /robots.txt is served too.
		for _, p := range []string{"/robots.txt", "//robots.txt", "/./robots.txt", "/x/../robots.txt", "/%72obots.txt"} {
			r := withIP(newRequest("GET", p, testfixtures.UAChrome), "192.0.2.1")
			w, err := serve(h, r)
			if err != nil || !strings.Contains(w.Body.String(), "Disallow: /private/") {
				t.Errorf("a blocked address on %s: error %v, body %q; want robots.txt served", p, err, w.Body.String())
			}
		}
		if c, _ := status(h, "/robots.txt/", testfixtures.UAChrome, "192.0.2.1"); c != 403 {
			t.Errorf("a blocked address on /robots.txt/, another resource: %d, want 403", c)
		}
	})
	t.Run("trap_ttl bounds", func(t *testing.T) {
		// now + trap_ttl is kept in Unix nanoseconds: past 2262 it
		// overflowed into the past, and the address logged as held was
		// let go at once. Such a trap_ttl is refused; a year holds.
		for _, tc := range []struct {
			name    string
			ttl     caddy.Duration
			wantErr string
		}{
			{"a year", caddy.Duration(365 * 24 * time.Hour), ""},
			{"past 2262", caddy.Duration(2500000 * time.Hour), "trap_ttl: 2500000h0m0s is not allowed; use a duration from 1s to 8760h"},
		} {
			t.Run(tc.name, func(t *testing.T) {
				cfg := config.Config{Inline: robotsTxt, Trap: trap, TrapAction: config.TrapBlock, TrapTTL: tc.ttl}
				if tc.wantErr != "" {
					h := &Handler{Config: cfg, verifyOptions: offlineVerify}
					ctx, cancel := caddy.NewContext(caddy.Context{Context: t.Context()})
					defer cancel()
					err := h.Provision(ctx)
					_ = h.Cleanup()
					if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
						t.Fatalf("provision: %v, want an error saying %q", err, tc.wantErr)
					}
					return
				}
				h, _ := newTestHandler(t, cfg)
				status(h, trap, testfixtures.UACurl, "192.0.2.80")
				if c, bot := status(h, "/public", testfixtures.UAChrome, "192.0.2.80"); c != 403 || bot != "trapped" {
					t.Errorf("an address trapped for %v, then on /public: %d %q, want 403 trapped", time.Duration(tc.ttl), c, bot)
				}
			})
		}
	})
	t.Run("a link preview holds no address", func(t *testing.T) {
		// Chat apps make previews from the sharer's device: a person
		// who pastes the trap's URL must not be held for it.
		h, logs := newTestHandler(t, config.Config{Inline: robotsTxt, Trap: trap})
		for i, ua := range []string{
			"WhatsApp/2.23.20.0 A",
			"Mozilla/5.0 (Macintosh; Intel Mac OS X 10_11_1) AppleWebKit/601.2.4 (KHTML, like Gecko) Version/9.0.1 Safari/601.2.4 facebookexternalhit/1.1 Facebot Twitterbot/1.0",
		} {
			ip := fmt.Sprintf("192.0.2.%d", 150+i)
			if c, bot := status(h, trap, ua, ip); c != http.StatusNotFound || bot == "" || bot == "trapped" {
				t.Errorf("%s in the trap: %d %q, want 404 under its own name", ua, c, bot)
			}
			if c, bot := status(h, "/private/x", testfixtures.UAChrome, ip); c != 200 || bot != "" {
				t.Errorf("a browser at the address of %s's preview: %d %q, want 200, not trapped", ua, c, bot)
			}
		}
		if n := logs.FilterMessageSnippet("a link preview requested the trap").Len(); n != 2 {
			t.Errorf("%d link-preview violations logged, want 2: %v", n, logs.All())
		}
		if n := logs.FilterMessageSnippet("trap sprung").Len(); n != 0 {
			t.Errorf("a preview sprang the trap: %v", logs.All())
		}
		// A bot of another kind still holds its address.
		if c, bot := status(h, trap, testfixtures.UACurl, "192.0.2.160"); c != http.StatusNotFound || bot != "trapped" {
			t.Errorf("curl in the trap: %d %q, want 404 trapped", c, bot)
		}
	})
	t.Run("verified crawler", func(t *testing.T) {
		h, logs := newTestHandler(t, config.Config{Inline: robotsTxt, Trap: trap, Impostors: config.ImpostorsJudge,
			Crawlers: []config.Crawler{{Token: "GPTBot", Ranges: []string{"192.0.2.0/24"}}}})
		if c, bot := status(h, trap, testfixtures.UAGPTBot, "192.0.2.9"); c != http.StatusNotFound || bot != "GPTBot" {
			t.Errorf("GPTBot in the trap: %d %q, want 404 named GPTBot", c, bot)
		}
		if logs.FilterMessageSnippet("a verified crawler requested the trap").Len() != 1 {
			t.Errorf("the crawler's violation is not logged: %v", logs.All())
		}
		// Its address is not trapped: crawlers share addresses.
		if c, bot := status(h, "/private/x", testfixtures.UAGPTBot, "192.0.2.9"); c != 200 || bot != "GPTBot" {
			t.Errorf("GPTBot afterwards: %d %q, want 200 as GPTBot", c, bot)
		}
		// An address a browser trapped, which the crawler shares: the
		// crawler is still judged as itself, the browser as trapped.
		status(h, trap, testfixtures.UAChrome, "192.0.2.10")
		if c, bot := status(h, "/private/x", testfixtures.UAGPTBot, "192.0.2.10"); c != 200 || bot != "GPTBot" {
			t.Errorf("GPTBot from a trapped address: %d %q, want 200 as GPTBot", c, bot)
		}
		if c, bot := status(h, "/private/x", testfixtures.UAChrome, "192.0.2.10"); c != 403 || bot != "trapped" {
			t.Errorf("the browser that sprang it: %d %q, want 403 as trapped", c, bot)
		}
		// A client that only claims to be GPTBot, from a trapped address
		// outside its ranges, stays the impostor it is, held to * as
		// impostors are (and as the trapped address is).
		status(h, trap, testfixtures.UAChrome, "198.51.100.3")
		if c, bot := status(h, "/private/x", testfixtures.UAGPTBot, "198.51.100.3"); c != 403 || bot != "impostor:GPTBot" {
			t.Errorf("a GPTBot impostor from a trapped address: %d %q, want 403 as impostor:GPTBot", c, bot)
		}
	})
}

// servedLogs serves /robots.txt once from a handler of cfg and returns the
// log entries whose message contains snippet.
func servedLogs(t *testing.T, cfg config.Config, snippet string) []observer.LoggedEntry {
	t.Helper()
	h, logs := newTestHandler(t, cfg)
	serve(h, newRequest("GET", "/robots.txt", testfixtures.UAChrome))
	return logs.FilterMessageSnippet(snippet).All()
}

// verdictsOf sends n requests for path as ua from ip and returns their
// verdicts, each followed by a space.
func verdictsOf(t *testing.T, h *Handler, n int, path, ua, ip string) string {
	t.Helper()
	var b strings.Builder
	for range n {
		v, _ := verdictOf(t, h, path, ua, ip)
		b.WriteString(v + " ")
	}
	return b.String()
}

// TestTrapJudgedAsServed: a bot's request for the trap is a violation only
// where the robots.txt served (the file with the trap's Disallow added to
// the groups that allowed the trap) disallows it to that bot, and the
// rule logged is the one that decides there. A group whose Allow is as
// long as the trap's Disallow keeps the path allowed (the load warns of
// it); its bot follows the file, and is neither called a violator nor
// trapped.
func TestTrapJudgedAsServed(t *testing.T) {
	const trap = "/.well-known/robots-trap/"
	const robotsTxt = "User-agent: *\nDisallow: /private/\n\n" +
		"User-agent: GPTBot\nDisallow: /\n\n" +
		"User-agent: ClaudeBot\nAllow: " + trap + "\nDisallow: /private/\n\n" +
		"User-agent: MyCrawler\nAllow: " + trap + "\n"
	for _, tc := range []struct {
		name, ua, ip string
		status       int
		verdict      string
		rule, line   string
		source       string
		trapped      bool // its address is held afterwards
	}{
		{"verified, its group disallowed the trap already", testfixtures.UAGPTBot, "192.0.2.9", 404, "disallowed", "disallow: /", "5", "", false},
		{"verified, its group allows the trap", "ClaudeBot/1.0", "192.0.2.9", 200, "allowed", "allow: " + trap, "8", "", false},
		{"unverified, its group allows the trap", "MyCrawler/1.0", "198.51.100.7", 200, "allowed", "allow: " + trap, "12", "", false},
		// No group names it, and it obeys no * group: no trap line
		// is for it in the file served.
		{"verified, obeys only the groups naming it", "AdsBot-Google (+http://www.google.com/adsbot.html)", "192.0.2.9", 200, "allowed", "", "", "", false},
		{"an unnamed bot", testfixtures.UACurl, "198.51.100.8", 404, "disallowed", "disallow: " + trap, "", "trap", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h, _ := newTestHandler(t, config.Config{Inline: robotsTxt, Trap: trap, Crawlers: []config.Crawler{
				{Token: "GPTBot", Ranges: []string{"192.0.2.0/24"}}, {Token: "ClaudeBot", Ranges: []string{"192.0.2.0/24"}},
				{Token: "AdsBot-Google", Ranges: []string{"192.0.2.0/24"}}}})
			r := withIP(newRequest("GET", trap, tc.ua), tc.ip)
			w, err := serve(h, r)
			code := w.Code
			if err != nil {
				code = 403
			}
			repl := r.Context().Value(caddy.ReplacerCtxKey).(*caddy.Replacer)
			get := func(name string) string { s, _ := repl.GetString("http.robots_txt." + name); return s }
			if code != tc.status || get("verdict") != tc.verdict || get("rule") != tc.rule || get("line") != tc.line || get("rule_source") != tc.source {
				t.Errorf("got %d, verdict %q by %q (line %q, source %q); want %d, %q by %q (line %q, source %q)",
					code, get("verdict"), get("rule"), get("line"), get("rule_source"), tc.status, tc.verdict, tc.rule, tc.line, tc.source)
			}
			r = withIP(newRequest("GET", "/", testfixtures.UAChrome), tc.ip)
			serve(h, r)
			if bot, _ := r.Context().Value(caddy.ReplacerCtxKey).(*caddy.Replacer).GetString("http.robots_txt.bot"); (bot == "trapped") != tc.trapped {
				t.Errorf("a browser at its address afterwards is %q; trapped: want %v", bot, tc.trapped)
			}
		})
	}
}

// TestServedTrapMadeOncePerFile: with a robots.txt per host, the text
// served with the trap is made once for each file, not again each time
// requests for the hosts take turns: a client alternating Hosts would
// otherwise have each request rebuild, hash and parse a file of up to
// 500 KiB, and log it.
func TestServedTrapMadeOncePerFile(t *testing.T) {
	dirA, dirB := t.TempDir(), t.TempDir()
	os.WriteFile(filepath.Join(dirA, "robots.txt"), []byte("User-agent: *\nDisallow: /a\n"), 0o644)
	os.WriteFile(filepath.Join(dirB, "robots.txt"), []byte("User-agent: *\nDisallow: /b\n"), 0o644)
	h, logs := newTestHandler(t, config.Config{DisableReload: true, Trap: "/trap/"})
	at := func(root string) *http.Request {
		r := newRequest("GET", "/robots.txt", testfixtures.UACurl)
		r.Context().Value(caddyhttpVarsKey()).(map[string]any)["root"] = root
		return r
	}
	for range 5 {
		for _, root := range []string{dirA, dirB} {
			w, err := serve(h, at(root))
			if err != nil || !strings.Contains(w.Body.String(), "Disallow: /trap/") {
				t.Fatalf("robots.txt of %s: %v, body %q", root, err, w.Body.String())
			}
		}
	}
	if n := logs.FilterMessageSnippet("served with the trap disallowed").Len(); n != 2 {
		t.Errorf("the text served with the trap was made %d times for 2 files, want 2", n)
	}
}

// TestServedTrapMadeOncePerTrap: two handlers that serve one file with
// traps of their own (two sites, one robots.txt) share its snapshot; each
// one's text served with the trap is made once, not again each time
// requests for the two sites take turns, which would rebuild, hash and
// parse the file, and log it, at each request for robots.txt or a trap.
func TestServedTrapMadeOncePerTrap(t *testing.T) {
	path := writeRobots(t, "User-agent: *\nDisallow: /private/\n")
	ha, logsA := newTestHandler(t, config.Config{File: path, Trap: "/trap-a/"})
	hb, logsB := newTestHandler(t, config.Config{File: path, Trap: "/trap-b/"})
	if ha.fixed != hb.fixed {
		t.Fatal("the two handlers do not share the file's source")
	}
	for range 5 {
		for _, h := range []*Handler{ha, hb} {
			w, err := serve(h, newRequest("GET", "/robots.txt", testfixtures.UACurl))
			if err != nil || !strings.Contains(w.Body.String(), "Disallow: "+h.Trap) {
				t.Fatalf("robots.txt with %s: %v, body %q", h.Trap, err, w.Body.String())
			}
		}
	}
	for _, logs := range []*observer.ObservedLogs{logsA, logsB} {
		if n := logs.FilterMessageSnippet("served with the trap disallowed").Len(); n != 1 {
			t.Errorf("the text served with a trap was made %d times for one file, want 1", n)
		}
	}
}

// TestTrapAnswersAlike: the trap's 404 is the same whether the request
// sprang it or not (a prefetch, a humans entry, a site with no
// robots.txt): a client must not learn from the answer whether it was
// caught, nor which of its headers let it off.
func TestTrapAnswersAlike(t *testing.T) {
	const trap = "/trap/"
	h, _ := newTestHandler(t, config.Config{Inline: "User-agent: *\nDisallow: /private/\n", Trap: trap, Humans: []string{"MyMonitor"}})
	answer := func(ua, ip string, hdr ...string) string {
		r := withIP(newRequest("GET", trap, ua), ip)
		for i := 0; i+1 < len(hdr); i += 2 {
			r.Header.Set(hdr[i], hdr[i+1])
		}
		w, err := serve(h, r)
		return fmt.Sprintf("%v %d %v %q", err, w.Code, w.Header(), w.Body.String())
	}
	sprung := answer(testfixtures.UAChrome, "192.0.2.1")
	for _, tc := range []struct {
		name, got string
	}{
		{"a prefetch", answer(testfixtures.UAChrome, "192.0.2.2", "Sec-Purpose", "prefetch")},
		{"a cross-site image", answer(testfixtures.UAChrome, "192.0.2.3", "Sec-Fetch-Site", "cross-site", "Sec-Fetch-Mode", "no-cors", "Sec-Fetch-Dest", "image")},
		{"a humans entry", answer("MyMonitor/1.0", "192.0.2.4")},
	} {
		if tc.got != sprung {
			t.Errorf("%s: the trap answers %s; one that springs it, %s", tc.name, tc.got, sprung)
		}
	}
}

// TestTrapSaysFetched: the request for the trap says, as every other bot
// request does, whether the client had read robots.txt, the one that
// disallows the trap: a crawler that read it and came anyway is the
// clearest violation of all, not one that "never fetched".
func TestTrapSaysFetched(t *testing.T) {
	const trap = "/trap/"
	h, _ := newTestHandler(t, config.Config{Inline: "User-agent: *\nDisallow: /private/\n", Trap: trap,
		Crawlers: []config.Crawler{{Token: "GPTBot", Ranges: []string{"192.0.2.0/24"}}}})
	for _, tc := range []struct{ name, ua, ip string }{
		{"a verified crawler", testfixtures.UAGPTBot, "192.0.2.9"},
		{"a bot by its header", testfixtures.UACurl, "198.51.100.1"},
	} {
		serve(h, withIP(newRequest("GET", "/robots.txt", tc.ua), tc.ip))
		r := withIP(newRequest("GET", trap, tc.ua), tc.ip)
		serve(h, r)
		repl := r.Context().Value(caddy.ReplacerCtxKey).(*caddy.Replacer)
		if fetched, _ := repl.Get("http.robots_txt.fetched"); fetched != true {
			t.Errorf("%s that read robots.txt, in the trap: fetched %v, want true", tc.name, fetched)
		}
	}
	// A client that never read it is fetched: false.
	r := withIP(newRequest("GET", trap, testfixtures.UAChrome), "198.51.100.2")
	serve(h, r)
	repl := r.Context().Value(caddy.ReplacerCtxKey).(*caddy.Replacer)
	if fetched, _ := repl.Get("http.robots_txt.fetched"); fetched != false {
		t.Errorf("a browser that never read robots.txt, in the trap: fetched %v, want false", fetched)
	}
	// Trapped, it reads robots.txt, and comes again.
	serve(h, withIP(newRequest("GET", "/robots.txt", testfixtures.UAChrome), "198.51.100.2"))
	r = withIP(newRequest("GET", trap, testfixtures.UAChrome), "198.51.100.2")
	serve(h, r)
	repl = r.Context().Value(caddy.ReplacerCtxKey).(*caddy.Replacer)
	if fetched, _ := repl.Get("http.robots_txt.fetched"); fetched != true {
		t.Errorf("a trapped browser that read robots.txt since, in the trap again: fetched %v, want true", fetched)
	}
}

// TestTrapLogsNameTheTenant: with a {host} root, what is logged of a
// tenant's file as served with the trap names that tenant's file. Before,
// each tenant's warning said "robots.txt in the site's root", and a host
// could not tell whose file it was about.
func TestTrapLogsNameTheTenant(t *testing.T) {
	dirA, dirB := t.TempDir(), t.TempDir()
	// A's file lets one agent fetch the trap, which is warned about.
	os.WriteFile(filepath.Join(dirA, "robots.txt"), []byte("User-agent: *\nDisallow: /a\n\nUser-agent: Friend\nAllow: /trap/\n"), 0o644)
	os.WriteFile(filepath.Join(dirB, "robots.txt"), []byte("User-agent: *\nDisallow: /b\n"), 0o644)
	h, logs := newTestHandler(t, config.Config{DisableReload: true, Trap: "/trap/"})
	for _, root := range []string{dirA, dirB} {
		r := newRequest("GET", "/robots.txt", testfixtures.UAChrome)
		r.Context().Value(caddyhttpVarsKey()).(map[string]any)["root"] = root
		serve(h, r)
	}
	served := logs.FilterMessage("robots.txt served with the trap disallowed in every group").All()
	open := logs.FilterMessageSnippet("allows the trap path to some agents").All()
	if len(served) != 2 || len(open) != 1 {
		t.Fatalf("%d served and %d allows-the-trap lines, want 2 and 1: %v", len(served), len(open), logs.All())
	}
	files := map[any]bool{}
	for _, e := range served {
		files[e.ContextMap()["file"]] = true
	}
	wantA, wantB := filepath.Join(dirA, "robots.txt"), filepath.Join(dirB, "robots.txt")
	if !files[wantA] || !files[wantB] || open[0].ContextMap()["file"] != wantA {
		t.Errorf("logged files %v and %v; want %s and %s, and %s for the open trap", files, open[0].ContextMap()["file"], wantA, wantB, wantA)
	}
}

// TestTrapWhereRealPagesAre: a trap is every path it prefixes, so one the
// site's own rules disallow by its very path (a section of the site, or
// the trap's line written into the file), or a name without a final "/",
// catches pages people browse; the load warns (audits AC-F1, AF-F3). A
// trap of its own, or inside a broader section, which catches only
// requests under it, draws neither warning, nor does a rule for the whole
// site.
func TestTrapWhereRealPagesAre(t *testing.T) {
	for _, tc := range []struct {
		file, trap       string
		exact, prefixing bool
	}{
		{"User-agent: *\nDisallow: /private/\n", "/private/", true, false},
		{"User-agent: *\nDisallow: /private\n", "/private/", true, false},
		{"User-agent: *\nDisallow: /private/\nDisallow: /trap/\n", "/trap/", true, false},
		{"User-agent: *\nDisallow: /private/\n", "/private/trap/", false, false},
		{"User-agent: *\nDisallow: /private/\n", "/t", false, true},
		{"User-agent: *\nDisallow: /private/\n", "/private/honeypot", false, true},
		{"User-agent: *\nDisallow: /private/\n\nUser-agent: GPTBot\nDisallow: /\n", "/.well-known/robots-trap/", false, false},
		{"User-agent: *\nDisallow: /private/\n", "/trap.html", false, false},
		{"User-agent: *\nDisallow: /\n", "/trap/", false, false},
		{"User-agent: *\nDisallow: *\n", "/trap/", false, false},
		{"User-agent: *\nDisallow: /*$\n", "/trap/", false, false},
		{"User-agent: *\nDisallow: /.*\n", "/.well-known/robots-trap/", false, false},
	} {
		t.Run(tc.file+" trap "+tc.trap, func(t *testing.T) {
			_, logs := newTestHandler(t, config.Config{File: writeRobots(t, tc.file), Trap: tc.trap})
			if got := logs.FilterMessageSnippet("disallows the trap path already").FilterLevelExact(zapcore.WarnLevel).Len() > 0; got != tc.exact {
				t.Errorf("warned the trap path is disallowed already: %v, want %v", got, tc.exact)
			}
			if got := logs.FilterMessageSnippet("every path that starts with it").Len() > 0; got != tc.prefixing {
				t.Errorf("warned of a trap that prefixes names: %v, want %v", got, tc.prefixing)
			}
			if n := logs.FilterLevelExact(zapcore.WarnLevel).FilterMessageSnippet("the trap").Len(); !tc.exact && !tc.prefixing && n != 0 {
				t.Errorf("%d warnings of the trap", n)
			}
		})
	}
}
