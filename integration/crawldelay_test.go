package integration

import (
	"fmt"
	"net/http"
	"path/filepath"
	"testing"
	"time"

	"github.com/robotsguard/caddy-robots-txt/internal/testfixtures"
)

// TestCrawlDelay sends requests faster and slower than a group's
// Crawl-delay: faster gets 429 with Retry-After, slower never does, and
// /robots.txt is never limited.
func TestCrawlDelay(t *testing.T) {
	t.Parallel()
	inst := startCaddy(t, fmt.Sprintf(loggedSite, verifiedHere),
		withRobotsTxt("User-agent: GPTBot\nCrawl-delay: 1\nDisallow: /private/\n\nUser-agent: *\nDisallow: /private/\n"))
	// Faster: a burst of three passes, the fourth is refused.
	for i := range 3 {
		if got := inst.get(t, "/about.html", testfixtures.UAGPTBot); got.status != http.StatusOK {
			t.Fatalf("request %d of the burst: %d, want 200", i+1, got.status)
		}
	}
	got := inst.get(t, "/about.html", testfixtures.UAGPTBot)
	if got.status != http.StatusTooManyRequests || got.header.Get("Retry-After") != "1" {
		t.Errorf("fourth request at once: %d, Retry-After %q; want 429 and 1", got.status, got.header.Get("Retry-After"))
	}
	// /robots.txt is never limited.
	if got := inst.get(t, "/robots.txt", testfixtures.UAGPTBot); got.status != http.StatusOK {
		t.Errorf("/robots.txt while too fast: %d, want 200", got.status)
	}
	// Slower: one request per delay is never refused.
	for i := range 3 {
		time.Sleep(1100 * time.Millisecond)
		if got := inst.get(t, "/index.html", testfixtures.UAGPTBot); got.status != http.StatusOK {
			t.Errorf("request %d at the delay: %d, want 200", i+1, got.status)
		}
	}
	// People are never held to it.
	for range 5 {
		if got := inst.get(t, "/about.html", testfixtures.UAFirefox); got.status != http.StatusOK {
			t.Fatalf("a browser: %d, want 200", got.status)
		}
	}
	entries := readAccessLog(t, filepath.Join(inst.dir, "access.log"))
	var tooFast int
	for _, e := range entries {
		if rt, ok := e.obj("robots_txt"); ok && rt.str("verdict") == "too-fast" {
			tooFast++
			if rt.str("violation") != "crawl-delay" || rt.str("action") != "blocked" {
				t.Errorf("too-fast entry %v, want violation crawl-delay and action blocked", rt)
			}
		}
	}
	if tooFast != 1 {
		t.Errorf("%d too-fast entries in the access log, want 1", tooFast)
	}
}
