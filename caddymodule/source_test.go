package caddymodule

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/caddyserver/caddy/v2"
	"github.com/caddyserver/caddy/v2/modules/caddyhttp"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"
	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"

	"github.com/robotsguard/caddy-robots-txt/config"
	"github.com/robotsguard/caddy-robots-txt/internal/testfixtures"
	"github.com/robotsguard/caddy-robots-txt/robots"
)

// bump gives path a new modification time, as an edit seconds later would.
func bump(t *testing.T, path string, d time.Duration) {
	t.Helper()
	mt := time.Now().Add(d)
	if err := os.Chtimes(path, mt, mt); err != nil {
		t.Fatal(err)
	}
}

func TestRefresh(t *testing.T) {
	path := writeRobots(t, "User-agent: *\nDisallow: /a\n")
	h, logs := newTestHandler(t, config.Config{File: path, DisableReload: true, Grace: noGrace})
	blocked := func(p string) bool {
		_, err := serve(h, newRequest("GET", p, testfixtures.UACurl))
		return err != nil
	}
	if !blocked("/a") || blocked("/b") {
		t.Fatal("initial rules not in force")
	}

	// A changed file takes effect.
	os.WriteFile(path, []byte("User-agent: *\nDisallow: /b\n"), 0o644)
	bump(t, path, time.Second)
	h.fixed.refresh()
	if blocked("/a") || !blocked("/b") {
		t.Fatal("edited rules not in force")
	}

	// An HTML page where robots.txt was keeps the rules in force.
	os.WriteFile(path, []byte("<html><body>oops</body></html>"), 0o644)
	bump(t, path, 2*time.Second)
	h.fixed.refresh()
	if !blocked("/b") || logs.FilterMessageSnippet("could not be reloaded").Len() != 1 {
		t.Fatalf("a broken update must keep the old rules and say so: blocked=%v logs=%v", blocked("/b"), logs.All())
	}
	// It is reported once, not on every check.
	h.fixed.refresh()
	if n := logs.FilterMessageSnippet("could not be reloaded").Len(); n != 1 {
		t.Errorf("the failure was logged %d times", n)
	}

	// A directory in its place keeps them too, and failing another way
	// is logged again, once.
	os.Remove(path)
	os.Mkdir(path, 0o755)
	h.fixed.refresh()
	h.fixed.refresh()
	if !blocked("/b") {
		t.Fatal("a directory must keep the old rules")
	}
	if n := logs.FilterMessageSnippet("could not be reloaded").Len(); n != 2 {
		t.Errorf("a second, different failure: the failures were logged %d times, want 2", n)
	}
	os.Remove(path)

	// A removed file allows all.
	h.fixed.refresh()
	if blocked("/b") {
		t.Fatal("a removed file must allow all")
	}

	// It comes back.
	os.WriteFile(path, []byte("User-agent: *\nDisallow: /c\n"), 0o644)
	h.fixed.refresh()
	if !blocked("/c") {
		t.Fatal("a recreated file must be loaded")
	}

	// An empty file allows all, once two checks read it: the first may
	// have caught a write in place between its truncation and its text.
	os.WriteFile(path, nil, 0o644)
	bump(t, path, 3*time.Second)
	h.fixed.refresh()
	if !blocked("/c") {
		t.Fatal("an empty file read once must not be in force yet")
	}
	h.fixed.refresh()
	if blocked("/c") {
		t.Fatal("an empty file read twice must allow all")
	}
}

// TestRefreshCountsFailuresOnce: reloads_total{result="failed"} counts a
// failed load of the file once, as the log says it, not at every check
// that finds it still broken (every reload interval: 720 an hour at 5s);
// failing another way, or again after a good load, counts anew.
func TestRefreshCountsFailuresOnce(t *testing.T) {
	const good, html = "User-agent: *\nDisallow: /a\n", "<html><body>oops</body></html>"
	const dir = "" // a directory in the file's place
	type step struct {
		text   string // the file's new content, or dir
		checks int
	}
	for _, tc := range []struct {
		name           string
		steps          []step
		failed, loaded float64 // counted
		logged         int     // "could not be reloaded" lines
	}{
		{"a broken file, checked five times", []step{{html, 5}}, 1, 0, 1},
		{"then a directory", []step{{html, 3}, {dir, 3}}, 2, 0, 2},
		{"broken, fixed, broken again", []step{{html, 2}, {good + "Disallow: /b\n", 2}, {html, 2}}, 2, 1, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := writeRobots(t, good)
			h, logs := newTestHandler(t, config.Config{File: path, DisableReload: true, Grace: noGrace})
			failed, loaded := testutil.ToFloat64(reloadsTotal.WithLabelValues("failed")), testutil.ToFloat64(reloadsTotal.WithLabelValues("loaded"))
			for i, st := range tc.steps {
				os.RemoveAll(path)
				if st.text == dir {
					os.Mkdir(path, 0o755)
				} else {
					os.WriteFile(path, []byte(st.text), 0o644)
					bump(t, path, time.Duration(i+1)*time.Second)
				}
				for range st.checks {
					h.fixed.refresh()
				}
			}
			if got := testutil.ToFloat64(reloadsTotal.WithLabelValues("failed")) - failed; got != tc.failed {
				t.Errorf("failed rose by %v, want %v", got, tc.failed)
			}
			if got := testutil.ToFloat64(reloadsTotal.WithLabelValues("loaded")) - loaded; got != tc.loaded {
				t.Errorf("loaded rose by %v, want %v", got, tc.loaded)
			}
			if n := logs.FilterMessageSnippet("could not be reloaded").Len(); n != tc.logged {
				t.Errorf("the failure was logged %d times, want %d", n, tc.logged)
			}
		})
	}
}

// TestRefreshWaitsOutWritesInPlace: a text that may be a file caught
// while written in place (empty, or cut mid-line, after a file with
// rules) is loaded only if the next check reads it again; the rest of
// the write, arriving before that check, is loaded then, and the rules
// are never off in between.
func TestRefreshWaitsOutWritesInPlace(t *testing.T) {
	const before, after = "User-agent: *\nDisallow: /a\n", "User-agent: *\nDisallow: /a\nDisallow: /b\n"
	for _, tc := range []struct {
		name    string
		caught  string // what the first check reads
		settled bool   // it is loaded at that check
	}{
		{"truncated", "", false},
		{"cut mid-line", "User-agent: *\nDisal", false},
		{"cut at a line end", "User-agent: *\n", true},
		// Before, a file with CR line ends was taken for one cut
		// mid-line, and loaded an interval late.
		{"whole, with CR line ends", "User-agent: *\rDisallow: /c\r", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := writeRobots(t, before)
			h, _ := newTestHandler(t, config.Config{File: path, DisableReload: true, Grace: noGrace})
			blocked := func(p string) bool {
				_, err := serve(h, newRequest("GET", p, testfixtures.UACurl))
				return err != nil
			}
			os.WriteFile(path, []byte(tc.caught), 0o644)
			bump(t, path, time.Second)
			h.fixed.refresh()
			if got := !blocked("/a"); got != tc.settled {
				t.Fatalf("after the first check: /a allowed %v, want %v", got, tc.settled)
			}
			os.WriteFile(path, []byte(after), 0o644)
			bump(t, path, 2*time.Second)
			h.fixed.refresh()
			if !blocked("/a") || !blocked("/b") {
				t.Fatalf("the finished write is not in force: /a blocked %v, /b blocked %v", blocked("/a"), blocked("/b"))
			}
		})
	}
}

func TestWatchReloads(t *testing.T) {
	path := writeRobots(t, "User-agent: *\nDisallow: /a\n")
	h, _ := newTestHandler(t, config.Config{File: path, Reload: config.MinInterval, Grace: noGrace})
	os.WriteFile(path, []byte("User-agent: *\nDisallow: /b\n"), 0o644)
	bump(t, path, time.Second)
	deadline := time.Now().Add(5 * time.Second)
	for time.Now().Before(deadline) {
		if _, err := serve(h, newRequest("GET", "/b", testfixtures.UACurl)); err != nil {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatal("the watcher did not pick up the edit within 5s")
}

func TestDynamicRoot(t *testing.T) {
	dirA, dirB := t.TempDir(), t.TempDir()
	os.WriteFile(filepath.Join(dirA, "robots.txt"), []byte("User-agent: *\nDisallow: /a\n"), 0o644)
	os.WriteFile(filepath.Join(dirB, "robots.txt"), []byte("User-agent: *\nDisallow: /b\n"), 0o644)
	h, _ := newTestHandler(t, config.Config{DisableReload: true})
	blocked := func(root, p string) bool {
		r := newRequest("GET", p, testfixtures.UACurl)
		r.Context().Value(caddyhttpVarsKey()).(map[string]any)["root"] = root
		_, err := serve(h, r)
		return err != nil
	}
	// Each root's robots.txt applies to its requests.
	for _, c := range []struct {
		root, path string
		want       bool
	}{
		{dirA, "/a", true},
		{dirA, "/b", false},
		{dirB, "/b", true},
		{dirB, "/a", false},
	} {
		if got := blocked(c.root, c.path); got != c.want {
			name := map[string]string{dirA: "root A", dirB: "root B"}[c.root]
			t.Errorf("%s %s: blocked = %v, want %v", name, c.path, got, c.want)
		}
	}
	if got := len(h.dynamic.sources.Values()); got != 2 {
		t.Errorf("want 2 sources, got %d", got)
	}
}

func TestProvisionErrors(t *testing.T) {
	for _, tc := range []struct {
		name string
		cfg  config.Config
		want string
	}{
		{"a directory as file", config.Config{File: t.TempDir()}, "directory"},
		// It was read as an inline text: "robots.txt inline does not
		// exist" under strict, every bot allowed without.
		{"a placeholder that is empty", config.Config{File: "{env.ROBOTS_TXT_TEST_NOT_SET}"}, "empty path once its placeholders are replaced"},
		// Caddy sends an unknown placeholder as written.
		{"a body with a misspelled placeholder", config.Config{Inline: "User-agent: *\nDisallow: /\n", Body: "refused: {http.robots_txt.bott}"},
			"{http.robots_txt.bott} is not a placeholder of robots_txt"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := &Handler{Config: tc.cfg}
			ctx, cancel := newContext()
			defer cancel()
			if err := h.Provision(ctx); err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Provision: %v, want an error saying %q", err, tc.want)
			}
		})
	}
}

// TestRefreshKeptTimes: a deploy may keep the old file's size and
// modification time (rsync -t, cp -p, tar) for an edit of the same length;
// the new rules must still take effect.
func TestRefreshKeptTimes(t *testing.T) {
	path := writeRobots(t, "User-agent: *\nDisallow: /a\n")
	kept := time.Date(2001, 1, 1, 0, 0, 0, 0, time.UTC)
	os.Chtimes(path, kept, kept)
	h, _ := newTestHandler(t, config.Config{File: path, DisableReload: true, Grace: noGrace})
	blocked := func(p string) bool {
		_, err := serve(h, newRequest("GET", p, testfixtures.UACurl))
		return err != nil
	}
	// A new file put in place by a rename, same size and time.
	tmp := path + ".new"
	os.WriteFile(tmp, []byte("User-agent: *\nDisallow: /b\n"), 0o644)
	os.Chtimes(tmp, kept, kept)
	if err := os.Rename(tmp, path); err != nil {
		t.Fatal(err)
	}
	h.fixed.refresh()
	if blocked("/a") || !blocked("/b") {
		t.Fatal("a file renamed into place with the old size and time was not loaded")
	}
	// Checks of an unchanged file keep the rules (and do not reload).
	h.fixed.refresh()
	if !blocked("/b") {
		t.Fatal("rules lost on an idle check")
	}
}

// TestDynamicRootHostCase: Caddy serves a site whatever the case of the
// Host header; the robots.txt of a {host} root must not depend on it.
func TestDynamicRootHostCase(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "example.test"), 0o755)
	os.WriteFile(filepath.Join(dir, "example.test", "robots.txt"), []byte("User-agent: *\nDisallow: /private/\n"), 0o644)
	h, logs := newTestHandler(t, config.Config{DisableReload: true})
	// A trailing dot names the same host (a fully qualified name), and
	// backends serve it as that host.
	for _, host := range []string{"example.test", "EXAMPLE.test", "Example.Test:8080", "example.test.", "EXAMPLE.TEST.:8080"} {
		r := httptest.NewRequest("GET", "/private/x", nil)
		r.Host = host
		r.Header.Set("User-Agent", testfixtures.UACurl)
		repl := caddyhttp.NewTestReplacer(r)
		ctx := context.WithValue(r.Context(), caddy.ReplacerCtxKey, repl)
		ctx = context.WithValue(ctx, caddyhttp.ExtraLogFieldsCtxKey, new(caddyhttp.ExtraLogFields))
		for _, root := range []string{
			filepath.Join(dir, "{http.request.host}"),
			// Caddy's root directive expands placeholders before
			// this handler reads the variable.
			filepath.Join(dir, repl.ReplaceAll("{http.request.host}", "")),
		} {
			ctx := context.WithValue(ctx, caddyhttp.VarsCtxKey, map[string]any{
				caddyhttp.ClientIPVarKey: "192.0.2.7",
				"root":                   root,
			})
			if _, err := serve(h, r.WithContext(ctx)); err == nil {
				t.Errorf("Host %q, root %q: /private/x allowed; want the robots.txt of example.test to refuse it", host, root)
			}
		}
	}

	// A file named per host, as "robots_txt * /srv/{host}.txt" names it.
	os.WriteFile(filepath.Join(dir, "example.test.txt"), []byte("User-agent: *\nDisallow: /private/\n"), 0o644)
	hf, _ := newTestHandler(t, config.Config{File: filepath.Join(dir, "{http.request.host}.txt"), DisableReload: true})
	for _, host := range []string{"example.test", "EXAMPLE.test", "example.test.", "Example.Test.:8080"} {
		r := httptest.NewRequest("GET", "/private/x", nil)
		r.Host = host
		r.Header.Set("User-Agent", testfixtures.UACurl)
		ctx := context.WithValue(r.Context(), caddy.ReplacerCtxKey, caddyhttp.NewTestReplacer(r))
		ctx = context.WithValue(ctx, caddyhttp.ExtraLogFieldsCtxKey, new(caddyhttp.ExtraLogFields))
		ctx = context.WithValue(ctx, caddyhttp.VarsCtxKey, map[string]any{caddyhttp.ClientIPVarKey: "192.0.2.7"})
		if _, err := serve(hf, r.WithContext(ctx)); err == nil {
			t.Errorf("Host %q, file .../{http.request.host}.txt: /private/x allowed; want example.test.txt to refuse it", host)
		}
	}

	// The file as named is missing for every upper-case Host; that is no
	// news when the lower-cased host's file is there.
	if n := logs.FilterMessageSnippet("not found").Len(); n > 0 {
		t.Errorf("%d warnings that robots.txt was not found; the lower-cased host's file was found and used", n)
	}

	// A directory whose name has capitals, named as it is, is read as it
	// is, whatever the Host.
	os.MkdirAll(filepath.Join(dir, "Caps.test"), 0o755)
	os.WriteFile(filepath.Join(dir, "Caps.test", "robots.txt"), []byte("User-agent: *\nDisallow: /caps/\n"), 0o644)
	for _, host := range []string{"Caps.test", "caps.test", "CAPS.TEST"} {
		r := withIP(newRequest("GET", "/caps/x", testfixtures.UACurl), "192.0.2.7")
		r.Host = host
		caddyhttp.SetVar(r.Context(), "root", filepath.Join(dir, "Caps.test"))
		if _, err := serve(h, r); err == nil {
			t.Errorf("Host %q, root .../Caps.test: /caps/x allowed; want its robots.txt to refuse it", host)
		}
	}
}

// hostRootRequest is a request by ExampleBot as Caddy hands it over after
// "root * <dir>/{host}": the root variable expanded with the Host as sent.
func hostRootRequest(dir, host, path string) *http.Request {
	r := httptest.NewRequest("GET", path, nil)
	r.Host = host
	r.Header.Set("User-Agent", "ExampleBot/1.0")
	repl := caddyhttp.NewTestReplacer(r)
	ctx := context.WithValue(r.Context(), caddy.ReplacerCtxKey, repl)
	ctx = context.WithValue(ctx, caddyhttp.ExtraLogFieldsCtxKey, new(caddyhttp.ExtraLogFields))
	ctx = context.WithValue(ctx, caddyhttp.VarsCtxKey, map[string]any{
		caddyhttp.ClientIPVarKey: "192.0.2.7",
		"root":                   filepath.Join(dir, repl.ReplaceAll("{http.request.host}", "")),
	})
	return r.WithContext(ctx)
}

// TestDynamicMadeUpHostsKeepTenants: with a {host} root, a client that
// sends made-up Host values, each naming a file that is not there, must
// not push the tenants' files out of the cache: each of their requests
// would read and parse the file again (a 500 KiB file: 5-10 ms, and a log
// line). A file that appears, or goes, changes places at the next check.
func TestDynamicMadeUpHostsKeepTenants(t *testing.T) {
	for _, tc := range []struct {
		name    string
		include bool
	}{
		{"without include", false},
		{"with include", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			tenant := filepath.Join(dir, "a.test", "robots.txt")
			os.MkdirAll(filepath.Dir(tenant), 0o755)
			os.WriteFile(tenant, []byte("User-agent: *\nDisallow: /members/\n"), 0o644)
			cfg := config.Config{DisableReload: true, FileCache: 8}
			if tc.include {
				list := filepath.Join(dir, "list.txt")
				os.WriteFile(list, []byte("User-agent: ListBot\nDisallow: /\n"), 0o644)
				cfg.Include = []string{list}
			}
			h, logs := newTestHandler(t, cfg)
			refused := func(host string) bool {
				_, err := serve(h, hostRootRequest(dir, host, "/members/x"))
				return err != nil
			}
			// Loaded at INFO, or again unchanged at DEBUG: each is a parse.
			loads := func() int {
				return logs.FilterMessageSnippet("robots.txt loaded").FilterField(zap.String("file", tenant)).Len()
			}
			if !refused("a.test") {
				t.Fatal("a.test: /members/ allowed; its robots.txt disallows it")
			}
			for i := range 4 * cfg.FileCache {
				if refused(fmt.Sprintf("x%d.test", i)) {
					t.Fatalf("made-up host %d: /members/ refused; it has no robots.txt", i)
				}
			}
			if !refused("a.test") {
				t.Error("a.test after the made-up hosts: /members/ allowed")
			}
			if n := loads(); n != 1 {
				t.Errorf("a.test's robots.txt loaded %d times, want once: the made-up hosts pushed it out", n)
			}
			if n := h.dynamic.sources.Len(); n != 1 {
				t.Errorf("%d files kept as present, want a.test's alone", n)
			}

			// A made-up host's file appears, and the tenant's goes.
			made := filepath.Join(dir, "x5.test", "robots.txt")
			os.MkdirAll(filepath.Dir(made), 0o755)
			os.WriteFile(made, []byte("User-agent: *\nDisallow: /members/\n"), 0o644)
			os.Remove(tenant)
			h.dynamic.check()
			if !refused("x5.test") || refused("a.test") {
				t.Error("after a check: x5.test's new file not in force, or a.test's removed one still is")
			}
			if _, ok := h.dynamic.sources.Peek(made); !ok {
				t.Error("x5.test's file, there now, is not kept as present")
			}
			if _, ok := h.dynamic.absent.Peek(tenant); !ok {
				t.Error("a.test's file, gone now, is not kept as absent")
			}
		})
	}
}

// TestDynamicEvictedFileReloadQuiet: a host with more busy sites than
// file_cache reads a file again each time it was pushed out. The file is
// the same: logging it as loaded, at INFO, at each of its requests is
// noise (a line per request for a client that goes through the sites in
// turn). A file that changed while it was out is news again.
func TestDynamicEvictedFileReloadQuiet(t *testing.T) {
	dir := t.TempDir()
	hosts := []string{"t0.test", "t1.test", "t2.test"}
	for _, host := range hosts {
		os.MkdirAll(filepath.Join(dir, host), 0o755)
		os.WriteFile(filepath.Join(dir, host, "robots.txt"), []byte("User-agent: *\nDisallow: /members/\n"), 0o644)
	}
	h, logs := newTestHandler(t, config.Config{DisableReload: true, FileCache: 2})
	round := func() {
		t.Helper()
		for _, host := range hosts {
			if _, err := serve(h, hostRootRequest(dir, host, "/members/x")); err == nil {
				t.Errorf("%s: /members/ allowed; its robots.txt disallows it", host)
			}
		}
	}
	loud := func() int { return logs.FilterMessage("robots.txt loaded").Len() }
	quiet := func() int {
		return logs.FilterMessageSnippet("loaded again, unchanged").FilterLevelExact(zapcore.DebugLevel).Len()
	}
	round()
	round()
	if l, q := loud(), quiet(); l != 3 || q != 3 {
		t.Errorf("three files, read twice each (the cache holds two): %d loads logged at INFO, %d at DEBUG; want 3 and 3", l, q)
	}
	loaded, removed := testutil.ToFloat64(reloadsTotal.WithLabelValues("loaded")), testutil.ToFloat64(reloadsTotal.WithLabelValues("removed"))
	os.WriteFile(filepath.Join(dir, "t0.test", "robots.txt"), []byte("User-agent: *\nDisallow: /members/\nDisallow: /drafts/\n"), 0o644)
	round()
	if l := loud(); l != 4 {
		t.Errorf("t0.test changed while out of the cache: %d loads logged at INFO, want 4 (its new text is news)", l)
	}
	// Counted as the watcher counts a reload, and a removal zeroes the
	// gauges of a file out of the cache (audit AG-F5).
	if n := testutil.ToFloat64(reloadsTotal.WithLabelValues("loaded")) - loaded; n != 1 {
		t.Errorf("t0.test changed while out of the cache: %v reloads counted, want 1", n)
	}
	gone := filepath.Join(dir, "t1.test", "robots.txt")
	if testutil.ToFloat64(rulesInForce.WithLabelValues(gone)) != 1 {
		t.Fatalf("t1.test's rules gauge %v, want 1", testutil.ToFloat64(rulesInForce.WithLabelValues(gone)))
	}
	os.Remove(gone)
	serve(h, hostRootRequest(dir, "t0.test", "/x"))
	serve(h, hostRootRequest(dir, "t2.test", "/x")) // t1.test leaves the cache, if it had not
	if _, err := serve(h, hostRootRequest(dir, "t1.test", "/members/x")); err != nil {
		t.Errorf("t1.test, its robots.txt removed: /members/ refused: %v", err)
	}
	if g, r := testutil.ToFloat64(groupsInForce.WithLabelValues(gone)), testutil.ToFloat64(rulesInForce.WithLabelValues(gone)); g != 0 || r != 0 {
		t.Errorf("t1.test's robots.txt removed while out of the cache: gauges %v groups, %v rules; want 0, 0", g, r)
	}
	if n := testutil.ToFloat64(reloadsTotal.WithLabelValues("removed")) - removed; n != 1 {
		t.Errorf("t1.test's robots.txt removed while out of the cache: %v removals counted, want 1", n)
	}
}

// TestDynamicRootHostSpellings: with a {host} root, a Host in capitals or
// with a trailing dot names the same site, and its own robots.txt applies,
// Disallow and Crawl-delay alike, with included lists or without. With
// include, the file the expanded root named ("/srv/A.test") was missing
// but had the lists merged, so it was taken for the site's file: the
// site's own rules were skipped.
func TestDynamicRootHostSpellings(t *testing.T) {
	dir := t.TempDir()
	for name, body := range map[string]string{
		"a.test":   "User-agent: *\nDisallow: /members/\n",
		"b.test":   "User-agent: *\nCrawl-delay: 10\nDisallow: /drafts/\n",
		"list.txt": "User-agent: ListBot\nDisallow: /\n",
	} {
		path := filepath.Join(dir, name, "robots.txt")
		if name == "list.txt" {
			path = filepath.Join(dir, name)
		}
		os.MkdirAll(filepath.Dir(path), 0o755)
		os.WriteFile(path, []byte(body), 0o644)
	}
	request := func(host, path string) *http.Request { return hostRootRequest(dir, host, path) }
	for _, tc := range []struct {
		name    string
		a, b    string // the spellings of a.test and b.test
		include bool
	}{
		{"lower case", "a.test", "b.test", false},
		{"lower case, include", "a.test", "b.test", true},
		{"upper case", "A.TEST", "B.TEST", false},
		{"upper case, include", "A.TEST", "B.TEST", true},
		{"mixed case", "A.test:8080", "b.Test", false},
		{"mixed case, include", "A.test:8080", "b.Test", true},
		{"trailing dot", "a.test.", "b.test.:8080", false},
		{"trailing dot, include", "a.test.", "b.test.:8080", true},
		{"upper case and trailing dot, include", "A.Test.", "B.TEST.", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := config.Config{DisableReload: true}
			if tc.include {
				cfg.Include = []string{filepath.Join(dir, "list.txt")}
			}
			h, _ := newTestHandler(t, cfg)
			if _, err := serve(h, request(tc.a, "/members/x")); err == nil {
				t.Errorf("Host %q: /members/ allowed; a.test's robots.txt disallows it", tc.a)
			}
			verdicts := make([]string, 5)
			for i := range verdicts {
				r := request(tc.b, "/x")
				serve(h, r)
				verdicts[i], _ = r.Context().Value(caddy.ReplacerCtxKey).(*caddy.Replacer).GetString("http.robots_txt.verdict")
			}
			if verdicts[4] != "too-fast" {
				t.Errorf("Host %q, five requests at once: verdicts %q; want the last too-fast by b.test's Crawl-delay", tc.b, verdicts)
			}
			// Every spelling reaches the one source of its host: its
			// grace, its fetches and the cache's room are the host's.
			var kept []string
			for _, s := range h.dynamic.sources.Values() {
				kept = append(kept, s.path)
			}
			if want := []string{filepath.Join(dir, "a.test", "robots.txt"), filepath.Join(dir, "b.test", "robots.txt")}; !slices.Equal(slices.Sorted(slices.Values(kept)), want) {
				t.Errorf("sources kept: %q, want %q", kept, want)
			}
			if tc.include {
				r := request(tc.a, "/x")
				r.Header.Set("User-Agent", "ListBot/1.0")
				if _, err := serve(h, r); err == nil {
					t.Errorf("Host %q: ListBot allowed; the included list disallows it everything", tc.a)
				}
			}
		})
	}
}

// TestNoRootSaysWhere: with no file and no root before the handler (a root
// set inside handle blocks comes after it), the working directory is used;
// the warning names it in full and says why.
func TestNoRootSaysWhere(t *testing.T) {
	h, logs := newTestHandler(t, config.Config{DisableReload: true})
	serve(h, withIP(newRequest("GET", "/private/x", testfixtures.UACurl), "192.0.2.7"))
	warned := logs.FilterMessageSnippet("not found").All()
	if len(warned) != 1 {
		t.Fatalf("%d warnings that robots.txt was not found, want 1", len(warned))
	}
	wd, _ := os.Getwd()
	fields := warned[0].ContextMap()
	if fields["file"] != filepath.Join(wd, "robots.txt") {
		t.Errorf("file %q, want %q", fields["file"], filepath.Join(wd, "robots.txt"))
	}
	if hint, _ := fields["hint"].(string); !strings.Contains(hint, "no root was set before robots_txt ran") {
		t.Errorf("hint %q, want one that says no root was set", hint)
	}
}

// TestLastModifiedFollowsWhatIsServed: a conditional request by date gets
// 304 only for the representation the client was given. A file renamed
// into place with the old one's mtime (rsync -t, cp -p), or with an older
// one (a rollback), is a new representation, and a client revalidating by
// the earlier date must get it, or it is refused for obeying a file it
// was told is current.
func TestLastModifiedFollowsWhatIsServed(t *testing.T) {
	path := writeRobots(t, "User-agent: *\nDisallow: /v1\n")
	h, _ := newTestHandler(t, config.Config{File: path, DisableReload: true})
	// Each version is served a second after the last, so that each gets
	// a date of its own (see TestLastModifiedNeverAhead for faster).
	tick := time.Now()
	h.fixed.served.clock = func() time.Time { tick = tick.Add(time.Second); return tick }
	get := func(ims string) (int, string, string) {
		t.Helper()
		r := newRequest("GET", "/robots.txt", testfixtures.UAAhrefs)
		if ims != "" {
			r.Header.Set("If-Modified-Since", ims)
		}
		w, err := serve(h, r)
		if err != nil {
			t.Fatal(err)
		}
		return w.Code, w.Body.String(), w.Header().Get("Last-Modified")
	}
	replace := func(body string, mtime time.Time) {
		t.Helper()
		tmp := path + ".new"
		if err := os.WriteFile(tmp, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(tmp, mtime, mtime); err != nil {
			t.Fatal(err)
		}
		if err := os.Rename(tmp, path); err != nil {
			t.Fatal(err)
		}
		h.fixed.refresh()
	}
	info, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	_, _, lm1 := get("")
	if code, _, _ := get(lm1); code != http.StatusNotModified {
		t.Fatalf("revalidating the current file by its date: %d, want 304", code)
	}

	for _, tc := range []struct {
		name, body string
		mtime      time.Time
	}{
		{"same mtime", "User-agent: *\nDisallow: /v2\n", info.ModTime()},
		{"older mtime", "User-agent: *\nDisallow: /v3\n", time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC)},
		{"a rollback to the first file", "User-agent: *\nDisallow: /v1\n", info.ModTime()},
	} {
		_, _, before := get("")
		replace(tc.body, tc.mtime)
		code, body, lm := get(before)
		if code != http.StatusOK || body != tc.body {
			t.Errorf("%s: If-Modified-Since %s after the file changed: %d %q, want 200 and the new file", tc.name, before, code, body)
		}
		if code, _, _ := get(lm); code != http.StatusNotModified {
			t.Errorf("%s: revalidating the new file by its own date %s: %d, want 304", tc.name, lm, code)
		}
	}
}

func TestLastModifiedDates(t *testing.T) {
	s := &source{served: new(servedDates)}
	now := time.Date(2026, 11, 22, 10, 0, 0, 200e6, time.UTC)
	a := s.lastModified("", `"a"`, now)
	if want := now.Truncate(time.Second); !a.Equal(want) {
		t.Errorf("first date %v, want %v", a, want)
	}
	if again := s.lastModified("", `"a"`, now.Add(time.Hour)); !again.Equal(a) {
		t.Errorf("the same representation dated %v, then %v", a, again)
	}
	// Another representation in the same second gets no date, rather
	// than one in the future; once its second has come, it is dated,
	// later than the first.
	if b := s.lastModified("", `"b"`, now.Add(100*time.Millisecond)); !b.IsZero() {
		t.Errorf("a second representation in the same second dated %v, want none", b)
	}
	b := s.lastModified("", `"b"`, now.Add(time.Second))
	if !b.After(a) || b.After(now.Add(time.Second)) {
		t.Errorf("a second representation dated %v, want after %v and not ahead of the clock", b, a)
	}
	// A rollback to the first is a change too: later than both, so that
	// a client holding b cannot revalidate it by b's date.
	back := s.lastModified("", `"a"`, now.Add(2*time.Second))
	if !back.After(b) {
		t.Errorf("the first representation served again dated %v, not after %v", back, b)
	}
	// Two handlers serve the file with their own trap lines: each keeps
	// its date while the other serves, and no date is ahead of the
	// clock.
	withTrap := s.lastModified("/trap/", `"a+trap"`, now.Add(3*time.Second))
	for i := range 100 {
		at := now.Add(3*time.Second + time.Duration(i)*time.Millisecond)
		if got := s.lastModified("", `"a"`, at); !got.Equal(back) {
			t.Fatalf("alternating handlers: the plain file redated %v, was %v", got, back)
		}
		if got := s.lastModified("/trap/", `"a+trap"`, at); !got.Equal(withTrap) || got.After(at) {
			t.Fatalf("alternating handlers: the trap's variant dated %v, was %v, at %v", got, withTrap, at)
		}
	}
}

// TestLastModifiedNeverAhead: versions served faster than one a second
// are never dated ahead of the clock (RFC 9110, section 8.8.2.1). Before,
// each was dated a second after the last, so the dates ran ahead; after a
// restart, which dates from the clock, a changed file then answered 304 to
// a client's old date.
func TestLastModifiedNeverAhead(t *testing.T) {
	s := newSource("", "", &sourceSettings{})
	now := time.Now()
	for i := range 50 {
		at := now.Add(time.Duration(i) * 50 * time.Millisecond)
		if got := s.lastModified("", fmt.Sprintf(`"v%d"`, i), at); got.After(at) {
			t.Fatalf("version %d served at %v dated %v, ahead of the clock", i, at, got)
		}
	}
}

// TestReloadOffIsItsOwn: two handlers read one file, one with reload off.
// A shared source would check the file as often as the other asks, and
// "off reads it once" would not hold for the first.
func TestReloadOffIsItsOwn(t *testing.T) {
	path := writeRobots(t, "User-agent: *\nDisallow: /a\n")
	off, _ := newTestHandler(t, config.Config{File: path, DisableReload: true, Grace: noGrace})
	polled, _ := newTestHandler(t, config.Config{File: path, Reload: config.MinInterval, Grace: noGrace})
	os.WriteFile(path, []byte("User-agent: *\nDisallow: /b\n"), 0o644)
	bump(t, path, time.Second)
	blocked := func(h *Handler, p string) bool {
		_, err := serve(h, newRequest("GET", p, testfixtures.UACurl))
		return err != nil
	}
	deadline := time.Now().Add(5 * time.Second)
	for !blocked(polled, "/b") {
		if time.Now().After(deadline) {
			t.Fatal("the polled handler did not pick up the edit within 5s")
		}
		time.Sleep(20 * time.Millisecond)
	}
	if !blocked(off, "/a") || blocked(off, "/b") {
		t.Error("the handler with reload off picked up the edit; it reads the file once")
	}
}

// TestLastModifiedKeptByAnotherSource: a config reload that changes how
// the file is checked (reload, grace) makes a source of its own, which
// serves the same text with the same date: a crawler revalidating by date
// gets 304 for the version it has.
func TestLastModifiedKeptByAnotherSource(t *testing.T) {
	path := writeRobots(t, "User-agent: *\nDisallow: /a\n")
	get := func(h *Handler, ims string) (int, string) {
		t.Helper()
		r := newRequest("GET", "/robots.txt", testfixtures.UAAhrefs)
		if ims != "" {
			r.Header.Set("If-Modified-Since", ims)
		}
		w, _ := serve(h, r)
		return w.Code, w.Header().Get("Last-Modified")
	}
	first, _ := newTestHandler(t, config.Config{File: path})
	_, lm := get(first, "")
	if lm == "" {
		t.Fatal("no Last-Modified")
	}
	for _, cfg := range []config.Config{
		{File: path, Reload: config.MinInterval},
		{File: path, DisableReload: true, Grace: noGrace},
	} {
		h, _ := newTestHandler(t, cfg)
		if h.fixed == first.fixed {
			t.Fatal("the handlers share a source; the test needs two")
		}
		// A second later, which a new date would be.
		tick := time.Now().Add(time.Second)
		h.fixed.served.clock = func() time.Time { return tick }
		if code, _ := get(h, lm); code != http.StatusNotModified {
			t.Errorf("reload %v: If-Modified-Since %s: %d, want 304", cfg.Reload, lm, code)
		}
		if _, got := get(h, ""); got != lm {
			t.Errorf("reload %v: Last-Modified %s, want %s, the date the text was first served", cfg.Reload, got, lm)
		}
	}
}

// TestLastModifiedOfTwoTraps: two handlers that read one file and add
// their own trap lines serve two representations from one source;
// alternating between them must not run Last-Modified ahead of the clock
// (a later source, dating from the clock, would then answer 304 to a date
// it never gave for a changed file).
func TestLastModifiedOfTwoTraps(t *testing.T) {
	path := writeRobots(t, "User-agent: *\nDisallow: /private/\n")
	a, _ := newTestHandler(t, config.Config{File: path, DisableReload: true, Trap: "/a/"})
	b, _ := newTestHandler(t, config.Config{File: path, DisableReload: true, Trap: "/b/"})
	if a.fixed != b.fixed {
		t.Fatal("the two handlers do not share a source; the test needs one")
	}
	// Served a second after the source began, and then 100 times in
	// turn within the next second.
	start := time.Now().Add(time.Second)
	for i := range 100 {
		now := start.Add(time.Duration(i) * 5 * time.Millisecond)
		a.fixed.served.clock = func() time.Time { return now }
		for _, h := range []*Handler{a, b} {
			w, _ := serve(h, newRequest("GET", "/robots.txt", testfixtures.UAChrome))
			lm := w.Header().Get("Last-Modified")
			if lm == "" {
				continue
			}
			at, err := http.ParseTime(lm)
			if err != nil {
				t.Fatal(err)
			}
			if at.After(now) {
				t.Fatalf("alternation %d: Last-Modified %v is ahead of the clock, %v", i, at, now)
			}
		}
	}
}

// TestFirstReadNotRobotsTxt: a file that is no robots.txt at all when it
// is first read (an HTML page, a log, a symlink to /proc/self/environ in
// a tenant's directory) is neither served nor enforced, as a reload
// refuses it: /robots.txt is a 404, every bot is allowed, and the log
// says so at ERROR. Once the file is a robots.txt, it is both. Before,
// /robots.txt went to the next handler, and a file_server served the file.
func TestFirstReadNotRobotsTxt(t *testing.T) {
	const secret = "HOME=/root\nAWS_SECRET_ACCESS_KEY=abc123\nPATH=/usr/bin\n"
	path := writeRobots(t, secret)
	h, logs := newTestHandler(t, config.Config{File: path, DisableReload: true})
	// Nor does the next handler serve it: a file_server would, from
	// the same root. The handler answers 404, no robots.txt, which is
	// what it enforces.
	w, _ := serve(h, newRequest("GET", "/robots.txt", testfixtures.UAChrome))
	if strings.Contains(w.Body.String(), "AWS_SECRET") || w.Code != http.StatusNotFound || w.Body.String() != "no robots.txt\n" || w.Header().Get("Cache-Control") != "no-store" {
		t.Fatalf("GET /robots.txt: %d %q (Cache-Control %q), want 404 \"no robots.txt\", not stored", w.Code, w.Body.String(), w.Header().Get("Cache-Control"))
	}
	if _, err := serve(h, withIP(newRequest("GET", "/x", testfixtures.UACurl), "192.0.2.7")); err != nil {
		t.Errorf("a bot was refused by a file that is no robots.txt: %v", err)
	}
	if logs.FilterLevelExact(zapcore.ErrorLevel).FilterMessageSnippet("no robots.txt").Len() != 1 {
		t.Errorf("want one ERROR that the file is no robots.txt, got %v", logs.All())
	}
	os.WriteFile(path, []byte("User-agent: *\nDisallow: /x\n"), 0o644)
	bump(t, path, time.Second)
	h.fixed.refresh()
	if _, err := serve(h, withIP(newRequest("GET", "/x", testfixtures.UACurl), "192.0.2.7")); err == nil {
		t.Error("the file became a robots.txt, and its rule is not enforced")
	}
	if w, _ := serve(h, newRequest("GET", "/robots.txt", testfixtures.UAChrome)); !strings.Contains(w.Body.String(), "Disallow: /x") {
		t.Errorf("the file became a robots.txt and is not served: %q", w.Body.String())
	}
}

// TestStrictFileNotRobotsTxt: with strict, a file that is no robots.txt
// is a configuration error that says so.
func TestStrictFileNotRobotsTxt(t *testing.T) {
	h := &Handler{Config: config.Config{Strict: true, File: writeRobots(t, "<html><body>Not found</body></html>\n")}, verifyOptions: offlineVerify, logger: zap.NewNop()}
	ctx, cancel := newContext()
	defer cancel()
	err := h.Provision(ctx)
	if err == nil {
		h.Cleanup()
		t.Fatal("strict provisioned a file that is no robots.txt")
	}
	if !strings.Contains(err.Error(), "is no robots.txt") {
		t.Errorf("error %q; want it to say the file is no robots.txt", err)
	}
}

// TestLongFileServedAsJudged: a file longer than crawlers read (500 KiB)
// is served cut where it is judged cut, at the end of a line, and the
// load says so; of a file of any size only its first 500 KiB are read.
func TestLongFileServedAsJudged(t *testing.T) {
	var b strings.Builder
	b.WriteString("User-agent: *\nDisallow: /a\n")
	for b.Len() < robots.DefaultMaxSize+100_000 {
		b.WriteString("# padding padding padding\n")
	}
	b.WriteString("Disallow: /b\n")
	h, logs := newTestHandler(t, config.Config{File: writeRobots(t, b.String()), DisableReload: true})
	w, _ := serve(h, newRequest("GET", "/robots.txt", testfixtures.UAChrome))
	if n := w.Body.Len(); n > robots.DefaultMaxSize || !strings.HasSuffix(w.Body.String(), "\n") || strings.Contains(w.Body.String(), "Disallow: /b") {
		t.Errorf("served %d bytes ending %q; want at most %d, cut at a line, without what is not judged", n, w.Body.String()[max(0, n-20):], robots.DefaultMaxSize)
	}
	if _, err := serve(h, withIP(newRequest("GET", "/b", testfixtures.UACurl), "192.0.2.7")); err != nil {
		t.Error("a rule past 500 KiB is enforced")
	}
	if logs.FilterMessageSnippet("robots.txt loaded").Len() == 0 || !strings.Contains(fmt.Sprint(logs.All()), "everything past the first") {
		t.Errorf("the load does not report the size limit: %v", logs.All())
	}

	// Of a file of any size, only what crawlers read is read and
	// enforced, as of an upstream's; the finding names the file's size.
	// Before, a file over 8 MiB was refused: Caddy would not start, or
	// kept the old rules, while crawlers obeyed its first 500 KiB.
	big := filepath.Join(t.TempDir(), "robots.txt")
	f, err := os.Create(big)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("User-agent: *\nDisallow: /big\n")
	f.Truncate(1 << 30) // sparse: NUL bytes past the rules
	f.Close()
	snap, _, err := readSnapshot(big)
	if err != nil {
		t.Fatalf("a 1 GiB file: %v", err)
	}
	if len(snap.body) > robots.DefaultMaxSize || snap.File.GroupFor("*").Decide("/big").Allowed {
		t.Errorf("a 1 GiB file: %d bytes kept, /big allowed; want at most %d, disallowed", len(snap.body), robots.DefaultMaxSize)
	}
	if d := fmt.Sprint(snap.File.Diagnostics()); !strings.Contains(d, "the file is 1073741824 bytes") {
		t.Errorf("findings %s; want the size of the file named", d)
	}
}

// TestPeoplesSoftwareAgentsWarn: a file (from an upstream, a tenant)
// that names a browser's or an app's own token as an agent holds that
// software's users to its group; the load says so at WARN.
func TestPeoplesSoftwareAgentsWarn(t *testing.T) {
	_, logs := newTestHandler(t, config.Config{Inline: "User-agent: SamsungBrowser\nUser-agent: OPR\nDisallow: /\n\nUser-agent: GPTBot\nDisallow: /\n"})
	warned := logs.FilterMessageSnippet("names software people use").FilterLevelExact(zapcore.WarnLevel).All()
	if len(warned) != 1 {
		t.Fatalf("%d warnings, want 1: %v", len(warned), logs.All())
	}
	if got := fmt.Sprint(warned[0].ContextMap()["agents"]); !strings.Contains(got, "SamsungBrowser") || !strings.Contains(got, "OPR") || strings.Contains(got, "GPTBot") {
		t.Errorf("agents %s; want SamsungBrowser and OPR, not GPTBot", got)
	}
}

// TestNotRobotsTxtAfterNone: a file that appears where there was none,
// and is no robots.txt, is withheld as at the first read: /robots.txt is a
// 404, not the next handler's copy of the file.
func TestNotRobotsTxtAfterNone(t *testing.T) {
	path := filepath.Join(t.TempDir(), "robots.txt")
	h, _ := newTestHandler(t, config.Config{File: path, DisableReload: true})
	if w, _ := serve(h, newRequest("GET", "/robots.txt", testfixtures.UAChrome)); w.Body.String() != "next" {
		t.Fatalf("no file: %d %q, want it passed to the next handler", w.Code, w.Body.String())
	}
	os.WriteFile(path, []byte("2026-11-23 ERROR connect db password=hunter2\n"), 0o644)
	h.fixed.refresh()
	w, _ := serve(h, newRequest("GET", "/robots.txt", testfixtures.UAChrome))
	if w.Code != http.StatusNotFound || strings.Contains(w.Body.String(), "hunter2") {
		t.Errorf("a log where robots.txt should be: %d %q, want 404 without it", w.Code, w.Body.String())
	}
	if w, _ := serve(h, newRequest("HEAD", "/robots.txt", testfixtures.UAChrome)); w.Code != http.StatusNotFound || w.Body.Len() != 0 {
		t.Errorf("HEAD: %d with %d bytes, want 404 without a body", w.Code, w.Body.Len())
	}
	if w, _ := serve(h, newRequest("POST", "/robots.txt", testfixtures.UAChrome)); w.Body.String() != "next" {
		t.Errorf("POST: %d %q, want it passed on as before", w.Code, w.Body.String())
	}
}

// TestMissingRelativeFileSaysWhere: a relative file that is not found is
// warned about with where it was looked for, Caddy's working directory,
// whether the path was the file's or the site's root's (audit AJ-F5):
// under a service manager that directory is often /, and "robots.txt"
// alone said nothing of it.
func TestMissingRelativeFileSaysWhere(t *testing.T) {
	_, logs := newTestHandler(t, config.Config{File: "no-such-robots-for-this-test.txt", DisableReload: true})
	warned := logs.FilterMessageSnippet("robots.txt not found").All()
	wd, _ := os.Getwd()
	if len(warned) != 1 || warned[0].ContextMap()["looked_for"] != filepath.Join(wd, "no-such-robots-for-this-test.txt") ||
		!strings.Contains(warned[0].Message, "read from Caddy's working directory") {
		t.Errorf("warnings %v; want one naming %s in full and the working directory", warned, filepath.Join(wd, "no-such-robots-for-this-test.txt"))
	}
}

// TestGaugesGoWithTheSource: the gauges of what a source has in force
// are removed when the last configuration that uses it is unloaded (a
// site removed, its file changed), unless another running source reads
// the same place; otherwise they would say rules are in force, and a
// staleness alert on the last load would fire forever.
func TestGaugesGoWithTheSource(t *testing.T) {
	initMetrics()
	path := writeRobots(t, "User-agent: *\nDisallow: /a\n")
	a, _ := newTestHandler(t, config.Config{File: path})
	b, _ := newTestHandler(t, config.Config{File: path, Grace: noGrace})
	if a.fixed == b.fixed {
		t.Fatal("the handlers share a source; the test needs two")
	}
	a.Cleanup()
	if n := testutil.ToFloat64(groupsInForce.WithLabelValues(path)); n != 1 {
		t.Errorf("groups gauge %v while another source reads the file, want 1", n)
	}
	b.Cleanup()
	for name, g := range map[string]*prometheus.GaugeVec{"groups": groupsInForce, "rules": rulesInForce, "last load": lastLoad} {
		if g.DeleteLabelValues(path) {
			t.Errorf("the %s gauge of %s is left after its last source was unloaded", name, path)
		}
	}
}
