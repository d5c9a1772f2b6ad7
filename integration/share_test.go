package integration

import (
	"fmt"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/robotsguard/caddy-robots-txt/internal/testfixtures"
)

// TestSharedState starts two Caddy processes that share one storage
// directory and one robots.txt: what one learns about a bot, the other
// knows, a restart forgets nothing, and a crawler's Crawl-delay holds for
// the two together.
func TestSharedState(t *testing.T) {
	t.Parallel()
	shared := t.TempDir()
	site := writeTestSite(t, shared, false)
	robotsPath := filepath.Join(site, "robots.txt")
	writeFile(t, robotsPath, "User-agent: AhrefsBot\nCrawl-delay: 2\nDisallow: /private/\n\nUser-agent: *\nDisallow: /private/\n")

	// Both serve one site, as replicas behind a load balancer do: the
	// same Host, whichever instance answers (a robots.txt, and so what is
	// shared about it, is per host).
	const sites = `http://shared.test:{{port}} {
	root * %s
	robots_txt {
		` + verifiedHere + `
		reload 100ms
		share_interval 100ms
	}
	file_server
	log {
		output file {{dir}}/access.log
		format json
	}
}
`
	start := func() *instance {
		inst := newInstance(t)
		cfg := globalOptions[:strings.LastIndex(globalOptions, "}")] + "\tstorage file_system " + filepath.Join(shared, "storage") + "\n}\n\n" + fmt.Sprintf(sites, site)
		path := filepath.Join(inst.dir, "Caddyfile")
		write := func() string {
			writeFile(t, path, inst.expand(cfg))
			return path
		}
		inst.host = "shared.test"
		inst.launchRetry(write(), "caddyfile", "", write)
		return inst
	}
	a, b := start(), start()
	lastEntry := func(inst *instance, n int) logEntry {
		return waitAccessLog(t, filepath.Join(inst.dir, "access.log"), n, 10*time.Second)[n-1]
	}
	count := func(inst *instance) int { return len(readAccessLog(t, filepath.Join(inst.dir, "access.log"))) }

	// The bot reads robots.txt from A; B learns of it.
	if got := a.get(t, "/robots.txt", testfixtures.UAAhrefs); got.status != http.StatusOK {
		t.Fatalf("/robots.txt from A: %d", got.status)
	}
	eventually(t, 30*time.Second, "B to learn of the fetch from A", func() bool {
		n := count(b)
		b.get(t, "/about.html", testfixtures.UAAhrefs)
		rt, _ := lastEntry(b, n+1).obj("robots_txt")
		time.Sleep(150 * time.Millisecond) // one request per Crawl-delay burst slot
		return rt["fetched"] == true
	})

	// A change: the version the bot read from A excuses it on B.
	writeFile(t, robotsPath, "User-agent: AhrefsBot\nCrawl-delay: 2\nDisallow: /private/\nDisallow: /drafts/\n\nUser-agent: *\nDisallow: /private/\n")
	eventually(t, 30*time.Second, "B to load the change", func() bool {
		return strings.Contains(b.get(t, "/robots.txt", testfixtures.UAChrome).body, "/drafts/")
	})
	time.Sleep(2 * time.Second) // let the Crawl-delay schedule refill
	n := count(b)
	got := b.get(t, "/drafts/d.html", testfixtures.UAAhrefs)
	if rt, _ := lastEntry(b, n+1).obj("robots_txt"); got.status != http.StatusOK || rt.str("verdict") != "grace" {
		t.Errorf("B on a path the change disallows, for a bot that read the old version from A: %d %v, want 200 grace", got.status, rt)
	}

	// B restarts and still knows.
	b.stop()
	b.launch(filepath.Join(b.dir, "Caddyfile"), "caddyfile", "")
	time.Sleep(2 * time.Second)
	n = count(b)
	b.get(t, "/about.html", testfixtures.UAAhrefs)
	if rt, _ := lastEntry(b, n+1).obj("robots_txt"); rt["fetched"] != true {
		t.Errorf("after B restarted: fetched %v, want true", rt["fetched"])
	}
	// ...and the version the bot read, kept in storage, still excuses it.
	time.Sleep(2 * time.Second)
	n = count(b)
	got = b.get(t, "/drafts/d.html", testfixtures.UAAhrefs)
	if rt, _ := lastEntry(b, n+1).obj("robots_txt"); got.status != http.StatusOK || rt.str("verdict") != "grace" {
		t.Errorf("after B restarted, the path the change disallows: %d %v, want 200 grace", got.status, rt)
	}

	// Requests alternated between A and B hit the Crawl-delay as one
	// site would: a burst of 3, then one per 2 s, across both.
	time.Sleep(2*time.Second + 500*time.Millisecond) // the schedule refills
	var refused int
	for i := range 8 {
		inst := a
		if i%2 == 1 {
			inst = b
		}
		if got := inst.get(t, "/about.html", testfixtures.UAAhrefs); got.status == http.StatusTooManyRequests {
			refused++
		}
		time.Sleep(250 * time.Millisecond)
	}
	// Alone, each instance sees 4 requests in 2 s: at most one refusal
	// each. Together they see 8, of which at least 4 are too fast.
	if refused < 3 {
		t.Errorf("%d of 8 alternated requests refused, want the two instances to hold one rate (at least 3)", refused)
	}
}
