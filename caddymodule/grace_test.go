package caddymodule

import (
	"os"
	"testing"
	"time"

	"github.com/caddyserver/caddy/v2"

	"github.com/robotsguard/caddy-robots-txt/config"
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
		h.refresh(h.fixed)
	}

	// Bot A reads version 1.
	serve(h, withIP(newRequest("GET", "/robots.txt", uaAhrefs), "198.51.100.1"))
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
		// B never fetched robots.txt: any version within the window
		// counts, and version 1 allows /new.
		{"unknown fetch", "198.51.100.2", "/new", "grace", false},
	} {
		v, err := verdictOf(t, h, tc.path, uaAhrefs, tc.ip)
		if v != tc.verdict || (err != nil) != tc.blocked {
			t.Errorf("%s: verdict %q blocked %v, want %q %v", tc.name, v, err != nil, tc.verdict, tc.blocked)
		}
	}
	if logs.FilterMessageSnippet("robots.txt grace").Len() != 2 {
		t.Errorf("want two grace log lines, got %d", logs.FilterMessageSnippet("robots.txt grace").Len())
	}

	// C fetches the current version: no grace for it.
	serve(h, withIP(newRequest("GET", "/robots.txt", uaAhrefs), "198.51.100.3"))
	if v, err := verdictOf(t, h, "/new", uaAhrefs, "198.51.100.3"); v != "disallowed" || err == nil {
		t.Errorf("bot that read the current version: verdict %q, blocked %v; want disallowed, blocked", v, err != nil)
	}

	// A third version that disallows both: A still gets grace for /new
	// (its version 1 allows it), but /old is disallowed by version 1 too.
	edit("User-agent: *\nDisallow: /new\nDisallow: /old\n", 2*time.Second)
	if v, _ := verdictOf(t, h, "/new", uaAhrefs, "198.51.100.1"); v != "grace" {
		t.Errorf("A on /new after the third version: %q, want grace", v)
	}
	if v, _ := verdictOf(t, h, "/old", uaAhrefs, "198.51.100.1"); v != "disallowed" {
		t.Errorf("A on /old: %q, want disallowed (its version disallows it too)", v)
	}
	if got := len(h.fixed.current().history); got != 2 {
		t.Errorf("history holds %d versions, want 2", got)
	}
}

func TestGraceWindowAndOff(t *testing.T) {
	snapV1 := newSnapshot([]byte("User-agent: *\nDisallow: /a\n"), time.Now())
	snapV2 := newSnapshot([]byte("User-agent: *\nDisallow: /b\n"), time.Now())
	s := &source{}
	s.publish(snapV1, time.Hour)
	s.publish(snapV2, time.Hour)
	cur := s.current()
	now := time.Now()
	if !graceAllows(cur, "curl/8", "/b", "", fetchRecord{}, false, time.Hour, now) {
		t.Error("within the window, version 1 allows /b")
	}
	if graceAllows(cur, "curl/8", "/b", "", fetchRecord{}, false, time.Hour, now.Add(2*time.Hour)) {
		t.Error("two hours later, version 1 is out of the window")
	}
	if graceAllows(cur, "curl/8", "/b", "", fetchRecord{}, false, 0, now) {
		t.Error("grace 0 is off")
	}
	if graceAllows(cur, "curl/8", "/b", "", fetchRecord{at: now.Add(-2 * time.Hour), etag: snapV1.etag}, true, time.Hour, now) {
		t.Error("a copy fetched before the window is stale: no grace")
	}
	s2 := &source{}
	s2.publish(newSnapshot([]byte("x"), now), 0)
	s2.publish(newSnapshot([]byte("y"), now), 0)
	if len(s2.current().history) != 0 {
		t.Error("with grace off no history is kept")
	}
	s3 := &source{}
	for i := 0; i < 3*maxVersions; i++ {
		s3.publish(newSnapshot([]byte{byte(i)}, now), time.Hour)
	}
	if n := len(s3.current().history); n != maxVersions {
		t.Errorf("history of %d versions, want the cap %d", n, maxVersions)
	}
}
