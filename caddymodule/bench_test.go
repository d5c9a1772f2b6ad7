package caddymodule

import (
	"net/http"
	"strconv"
	"testing"

	"github.com/robotsguard/caddy-robots-txt/config"
)

// BenchmarkHandler measures what the handler adds to a request, with the
// next handler doing nothing. Requests carry the context Caddy's server
// gives them (replacer, log fields, vars).
func BenchmarkHandler(b *testing.B) {
	h, _ := newTestHandler(b, config.Config{File: writeRobots(b, testRobots), Mode: "enforce", DisableReload: true})
	w := &discardWriter{h: http.Header{}}
	for _, bc := range []struct {
		name, ua, path string
	}{
		{"human", uaChrome, "/private/x"},
		{"bot-allowed", uaAhrefs, "/blog/2024/post.html"},
		{"bot-blocked", uaAhrefs, "/private/x"},
		{"bot-named-blocked", uaGPTBot, "/blog/2024/post.html"},
		{"bot-normalized", uaAhrefs, "/blog/%70ost/../../private/x"},
	} {
		b.Run(bc.name+"/cache-hit", func(b *testing.B) {
			r := newRequest("GET", bc.path, bc.ua)
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
			reqs[i] = newRequest("GET", "/blog/x", uaChrome+" Build/"+strconv.Itoa(i))
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
	h, _ := newTestHandler(b, config.Config{File: writeRobots(b, testRobots), DisableReload: true})
	snap := h.fixed.current()
	b.Run("cache-hit", func(b *testing.B) {
		h.identify(uaChrome, snap)
		b.ReportAllocs()
		for b.Loop() {
			h.identify(uaChrome, snap)
		}
	})
	b.Run("uncached", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			h.classify(uaChrome, snap)
		}
	})
}
