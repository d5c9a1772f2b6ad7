package caddymodule

import (
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"

	"github.com/robotsguard/caddy-robots-txt/caddymodule/judge"
	"github.com/robotsguard/caddy-robots-txt/caddymodule/verify"
	"github.com/robotsguard/caddy-robots-txt/config"
	"github.com/robotsguard/caddy-robots-txt/internal/testfixtures"
	"github.com/robotsguard/caddy-robots-txt/robots"
)

// BenchmarkHandler measures what the handler adds to a request, with the
// next handler doing nothing. Requests carry the context Caddy's server
// gives them (replacer, log fields, vars).
func BenchmarkHandler(b *testing.B) {
	// The crawlers' claims are checked as in production (impostors judge);
	// their requests come from the ranges the site gives them, so every
	// bot request pays for the IP check.
	h, _ := newTestHandler(b, config.Config{
		File: writeRobots(b, testfixtures.RobotsTxt), Mode: "enforce", DisableReload: true, Impostors: config.ImpostorsJudge,
		Crawlers: []config.Crawler{{Token: "AhrefsBot", Ranges: []string{"203.0.113.0/24"}}, {Token: "GPTBot", Ranges: []string{"203.0.113.0/24"}}},
	})
	// Violations are logged as in production: JSON, to a writer.
	h.logger = zap.New(zapcore.NewCore(zapcore.NewJSONEncoder(zap.NewProductionEncoderConfig()), zapcore.AddSync(io.Discard), zapcore.InfoLevel))
	w := &discardWriter{h: http.Header{}}
	for _, bc := range []struct {
		name, ua, path string
	}{
		{"human", testfixtures.UAChrome, "/private/x"},
		{"bot-allowed", testfixtures.UAAhrefs, "/blog/2024/post.html"},
		{"bot-blocked", testfixtures.UAAhrefs, "/private/x"},
		{"bot-named-blocked", testfixtures.UAGPTBot, "/blog/2024/post.html"},
		{"bot-normalized", testfixtures.UAAhrefs, "/blog/%70ost/../../private/x"},
		{"bot-unnamed-allowed", "Quillfetch/1.0 (+https://quill.example/bot)", "/blog/2024/post.html"},
	} {
		b.Run(bc.name+"/cache-hit", func(b *testing.B) {
			r := withIP(newRequest("GET", bc.path, bc.ua), "203.0.113.5")
			b.ReportAllocs()
			for b.Loop() {
				_ = h.ServeHTTP(w, r, nextNoop)
			}
		})
	}
	// Distinct headers, more than the cache holds: every lookup misses.
	b.Run("cache-miss", func(b *testing.B) {
		const n = 1 << 15
		reqs := make([]*http.Request, n)
		for i := range reqs {
			reqs[i] = newRequest("GET", "/blog/x", testfixtures.UAChrome+" Build/"+strconv.Itoa(i))
		}
		h.idents.Purge()
		b.ReportAllocs()
		i := 0
		for b.Loop() {
			_ = h.ServeHTTP(w, reqs[i%n], nextNoop)
			i++
		}
	})
}

// BenchmarkIdentify measures client identification alone.
func BenchmarkIdentify(b *testing.B) {
	h, _ := newTestHandler(b, config.Config{File: writeRobots(b, testfixtures.RobotsTxt), DisableReload: true})
	snap := h.fixed.current()
	b.Run("cache-hit", func(b *testing.B) {
		h.identify(testfixtures.UAChrome, snap)
		b.ReportAllocs()
		for b.Loop() {
			h.identify(testfixtures.UAChrome, snap)
		}
	})
	b.Run("uncached", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			judge.Identify(h.classifier, snap.File, testfixtures.UAChrome)
		}
	})
}

// BenchmarkMonitoring measures what compliance monitoring adds to a bot
// request: the client address, the fetch-tracker lookup, the per-bot
// counters (Prometheus and admin stats) and, for a disallowed request,
// the grace check against one earlier version. People's requests never
// reach this code (see BenchmarkHandler/human).
func BenchmarkMonitoring(b *testing.B) {
	h, _ := newTestHandler(b, config.Config{File: writeRobots(b, testfixtures.RobotsTxt), DisableReload: true})
	r := withIP(newRequest("GET", "/private/x", testfixtures.UAAhrefs), "203.0.113.5")
	h.tracker.record(fetchKey{bot: "AhrefsBot", ip: clientAddr(r), site: siteOf(r)}, judge.Fetch{At: time.Now(), ETag: "\"v1\""})
	c := countersFor("", "AhrefsBot", true, false)
	old := judge.NewVersion(robots.Parse([]byte("User-agent: *\nDisallow: /old/\n")), "\"v0\"")
	old.Follow(nil, time.Now(), time.Hour)
	cur := newSnapshot([]byte(testfixtures.RobotsTxt))
	cur.Follow(old, time.Now(), time.Hour)
	b.Run("allowed", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			fetch, ok := h.tracker.last(fetchKey{bot: "AhrefsBot", ip: clientAddr(r), site: siteOf(r)})
			_, _ = fetch, ok
			c.request(verify.Unverified, judge.Allowed, judge.Passed, 1)
		}
	})
	b.Run("disallowed-with-grace-check", func(b *testing.B) {
		b.ReportAllocs()
		now := time.Now()
		for b.Loop() {
			// The client's fetch is unknown: the worst case, every
			// version in the window is judged.
			h.tracker.last(fetchKey{bot: "AhrefsBot", ip: clientAddr(r), site: siteOf(r)})
			cur.GraceAllows(&judge.Request{UA: testfixtures.UAAhrefs, Paths: judge.Paths{Primary: "/private/x"}, Now: now}, time.Hour)
			c.request(verify.Unverified, judge.Grace, judge.Passed, 1)
		}
	})
}

// BenchmarkFlood measures the worst a single client can make of the
// trap's and the fetch tracker's memory: springing the trap under ever
// new Host values, and fetching robots.txt under ever new User-Agent
// headers, many more than either memory holds. The cost of a request
// must stay what it is when memory is empty.
func BenchmarkFlood(b *testing.B) {
	const n = 1 << 18 // more than trappedClients and trackedClients
	hosts, agents := make([]string, n), make([][]string, n)
	for i := range n {
		hosts[i] = "h" + strconv.Itoa(i) + ".example"
		agents[i] = []string{"Scraper/" + strconv.Itoa(i)}
	}
	for _, bc := range []struct {
		name string
		path string
		ua   string
		vary func(r *http.Request, i int)
		warm int // requests made before timing
	}{
		{"trap-hosts", "/trap/", testfixtures.UAChrome, func(r *http.Request, i int) { r.Host = hosts[i%n] }, 0},
		{"trap-hosts/full", "/trap/", testfixtures.UAChrome, func(r *http.Request, i int) { r.Host = hosts[i%n] }, n},
		{"fetch-agents", "/robots.txt", "", func(r *http.Request, i int) { r.Header["User-Agent"] = agents[i%n] }, 0},
		{"fetch-agents/full", "/robots.txt", "", func(r *http.Request, i int) { r.Header["User-Agent"] = agents[i%n] }, n},
	} {
		b.Run(bc.name, func(b *testing.B) {
			h, _ := newTestHandler(b, config.Config{Inline: "User-agent: *\nDisallow: /private/\n", Trap: "/trap/"})
			h.logger = zap.New(zapcore.NewCore(zapcore.NewJSONEncoder(zap.NewProductionEncoderConfig()), zapcore.AddSync(io.Discard), zapcore.InfoLevel))
			w := &discardWriter{h: http.Header{}}
			r := withIP(newRequest("GET", bc.path, bc.ua), "203.0.113.5")
			i := 0
			for ; i < bc.warm; i++ {
				bc.vary(r, i)
				_ = h.ServeHTTP(w, r, nextNoop)
			}
			b.ReportAllocs()
			for b.Loop() {
				bc.vary(r, i)
				_ = h.ServeHTTP(w, r, nextNoop)
				i++
			}
		})
	}
}

// BenchmarkHostRoot measures a {host} root's worst cases: clients that go
// through more sites than file_cache holds, each request then reading and
// parsing its site's file again, and made-up Host values, each naming a
// file that is not there, between the requests to sites the cache holds.
// Each site's robots.txt is 500 KiB, the most that is read.
func BenchmarkHostRoot(b *testing.B) {
	const cached = 16
	var big strings.Builder
	big.WriteString("User-agent: *\n")
	for i := 0; big.Len() < 500_000; i++ {
		fmt.Fprintf(&big, "Disallow: /section%d/*?param%d=\n", i, i)
	}
	dir := b.TempDir()
	tenants := make([]string, cached+1)
	for i := range tenants {
		tenants[i] = "t" + strconv.Itoa(i) + ".example"
		os.MkdirAll(filepath.Join(dir, tenants[i]), 0o755)
		if err := os.WriteFile(filepath.Join(dir, tenants[i], "robots.txt"), []byte(big.String()), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	requests := func(hosts []string) []*http.Request {
		reqs := make([]*http.Request, len(hosts))
		for i, host := range hosts {
			reqs[i] = hostRootRequest(dir, host, "/x")
		}
		return reqs
	}
	madeUp := make([]string, 1<<14) // more than the files kept apart
	for i := range madeUp {
		madeUp[i] = "x" + strconv.Itoa(i) + ".example"
	}
	for _, bc := range []struct {
		name   string
		cycle  []*http.Request // requests made in turn, one per iteration
		madeUp []*http.Request // each made before a request of cycle
	}{
		{"sites-within-cache", requests(tenants[:cached]), nil},
		{"sites-beyond-cache", requests(tenants), nil},
		{"made-up-hosts-between-sites", requests(tenants[:cached]), requests(madeUp)},
	} {
		b.Run(bc.name, func(b *testing.B) {
			h, _ := newTestHandler(b, config.Config{DisableReload: true, FileCache: cached})
			h.logger = zap.New(zapcore.NewCore(zapcore.NewJSONEncoder(zap.NewProductionEncoderConfig()), zapcore.AddSync(io.Discard), zapcore.InfoLevel))
			h.dynamic.set.logger = h.logger
			w := &discardWriter{h: http.Header{}}
			for _, r := range bc.cycle {
				_ = h.ServeHTTP(w, r, nextNoop)
			}
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				if bc.madeUp != nil {
					_ = h.ServeHTTP(w, bc.madeUp[i%len(bc.madeUp)], nextNoop)
				}
				_ = h.ServeHTTP(w, bc.cycle[i%len(bc.cycle)], nextNoop)
				i++
			}
		})
	}
}
