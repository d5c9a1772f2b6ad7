package integration

import (
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/robotsguard/caddy-robots-txt/internal/testfixtures"
)

// TestTrap: a client with a browser's User-Agent that requests the trap
// path is held to robots.txt from then on; others are not.
func TestTrap(t *testing.T) {
	t.Parallel()
	const trap = "/.well-known/robots-trap/"
	inst := monStartWithGlobals(t, monTrustProxies, `http://127.0.0.1:{{port}} {
	root * {{dir}}/site
	robots_txt {
		trap `+trap+`
		trap_ttl 1h
	}
	file_server
	log {
		output file {{dir}}/access.log
		format json
	}
}
`, withTestSite)
	xff := func(ip string) string { return "X-Forwarded-For: " + ip }
	served := inst.get(t, "/robots.txt", testfixtures.UAChrome)
	if n := strings.Count(served.body, "Disallow: "+trap); n != 2 { // GPTBot's "Disallow: /" covers it already
		t.Errorf("served robots.txt disallows the trap in %d groups, want 2:\n%s", n, served.body)
	}
	if got := inst.get(t, "/private/x.html", testfixtures.UAChrome, xff("192.0.2.50")); got.status != http.StatusOK {
		t.Fatalf("a browser before the trap: %d, want 200", got.status)
	}
	if got := inst.get(t, trap, testfixtures.UAChrome, xff("192.0.2.50")); got.status != http.StatusNotFound {
		t.Errorf("the trap: %d, want 404", got.status)
	}
	if got := inst.get(t, "/private/x.html", testfixtures.UAChrome, xff("192.0.2.50")); got.status != http.StatusForbidden {
		t.Errorf("the trapped browser on /private/x.html: %d, want 403", got.status)
	}
	if got := inst.get(t, "/private/x.html", testfixtures.UAChrome, xff("192.0.2.51")); got.status != http.StatusOK {
		t.Errorf("another address: %d, want 200", got.status)
	}
	entries := waitAccessLog(t, filepath.Join(inst.dir, "access.log"), 5, 10*time.Second)
	var trapped int
	for _, e := range entries {
		if rt, ok := e.obj("robots_txt"); ok && rt.str("identity") == "trapped" {
			trapped++
			if rt.str("bot") != "trapped" {
				t.Errorf("trapped entry %v, want bot trapped", rt)
			}
		}
	}
	if trapped != 2 {
		t.Errorf("%d access-log entries with identity trapped, want 2 (the trap, then the refusal)", trapped)
	}
	inst.waitModuleLogs(t, "robots.txt trap sprung: this address is now held to robots.txt", 1, 30*time.Second)
}
