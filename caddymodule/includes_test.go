package caddymodule

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/caddyserver/caddy/v2"
	"github.com/caddyserver/caddy/v2/modules/caddyhttp"
	"github.com/prometheus/client_golang/prometheus/testutil"
	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"

	"github.com/robotsguard/caddy-robots-txt/config"
	"github.com/robotsguard/caddy-robots-txt/internal/testfixtures"
	"github.com/robotsguard/caddy-robots-txt/robots"
)

// TestIncludedListFindings: the merge rewrites an included list in the
// standard spelling, so the list's own findings are logged from the list,
// naming it.
func TestIncludedListFindings(t *testing.T) {
	list := filepath.Join(t.TempDir(), "list.txt")
	os.WriteFile(list, []byte("User-agent: NewBot\nDisalow: /x\nfoo: bar\n"), 0o644)
	_, logs := newTestHandler(t, config.Config{File: writeRobots(t, "User-agent: *\nDisallow: /a\n"), Include: []string{list}, DisableReload: true})
	found := logs.FilterMessage("robots.txt included list has findings").All()
	if len(found) == 0 {
		t.Fatalf("no findings logged for the list; log: %v", logs.All())
	}
	ctx := found[0].ContextMap()
	diags := fmt.Sprint(ctx["diagnostics"])
	if ctx["list"] != list || !strings.Contains(diags, "line 2") || !strings.Contains(diags, "line 3") {
		t.Errorf("findings %v for %v; want the list named and lines 2 (disalow) and 3 (foo)", diags, ctx["list"])
	}
}

// TestIncludedListMissing: a list that cannot be read is logged once, and
// the log says what stands in for it: nothing, before any copy was read.
func TestIncludedListMissing(t *testing.T) {
	gone := filepath.Join(t.TempDir(), "gone.txt")
	_, logs := newTestHandler(t, config.Config{File: writeRobots(t, "User-agent: *\nDisallow: /a\n"), Include: []string{gone}, DisableReload: true})
	entries := logs.FilterMessageSnippet("could not be read").All()
	if len(entries) != 1 || !strings.Contains(entries[0].Message, "it adds nothing until it can be") {
		t.Errorf("logs %v, want one saying the missing list adds nothing", entries)
	}
}

// TestIncludedListFailsAnotherWay: a list that fails again the same way is
// not logged again, but one that fails another way (removed, then put
// back as an HTML page) is news the operator must hear.
func TestIncludedListFailsAnotherWay(t *testing.T) {
	list := filepath.Join(t.TempDir(), "list.txt")
	os.WriteFile(list, []byte("User-agent: NewBot\nDisallow: /\n"), 0o644)
	h, logs := newTestHandler(t, config.Config{File: writeRobots(t, "User-agent: *\nDisallow: /a\n"), Include: []string{list}, DisableReload: true})
	refresh := func() { h.fixed.includes.refreshFiles(h.fixed.logger()) }
	for _, tc := range []struct {
		name  string
		body  string // "" removes the list
		wantN int    // "could not be read" lines so far
	}{
		{"removed", "", 1},
		{"still removed", "", 1},
		{"an HTML page", "<html><body>oops</body></html>\n", 2},
		{"still an HTML page", "<html><body>oops</body></html>\n", 2},
	} {
		if tc.body == "" {
			os.Remove(list)
		} else {
			os.WriteFile(list, []byte(tc.body), 0o644)
		}
		refresh()
		if n := logs.FilterMessageSnippet("could not be read").Len(); n != tc.wantN {
			t.Errorf("%s: %d lines say the list could not be read, want %d", tc.name, n, tc.wantN)
		}
	}
}

// TestIncludedListsWithoutTheFile: with the site's own file missing, the
// included lists are still enforced, and the warning says so rather than
// that every bot is allowed everywhere.
func TestIncludedListsWithoutTheFile(t *testing.T) {
	dir := t.TempDir()
	list := filepath.Join(dir, "list.txt")
	os.WriteFile(list, []byte("User-agent: NewBot\nDisallow: /\n"), 0o644)
	h, logs := newTestHandler(t, config.Config{File: filepath.Join(dir, "robots.txt"), Include: []string{list}, DisableReload: true})
	if _, err := serve(h, newRequest("GET", "/x", "NewBot/1.0")); err == nil {
		t.Error("NewBot passed; the included list disallows everything to it")
	}
	if logs.FilterMessageSnippet("every bot is allowed everywhere").Len() != 0 || logs.FilterMessageSnippet("only the included lists apply").Len() != 1 {
		t.Errorf("want one warning that only the included lists apply, got %v", logs.All())
	}
}

// TestIncludedListsWithoutTheUpstream: an upstream that has no
// robots.txt (404) at the first fetch leaves the included lists in force,
// as the log says.
func TestIncludedListsWithoutTheUpstream(t *testing.T) {
	srv := httptest.NewServer(http.NotFoundHandler())
	t.Cleanup(srv.Close)
	list := filepath.Join(t.TempDir(), "list.txt")
	os.WriteFile(list, []byte("User-agent: NewBot\nDisallow: /\n"), 0o644)
	h, logs := newTestHandler(t, config.Config{URL: srv.URL + "/robots.txt", Include: []string{list}})
	if _, err := serve(h, newRequest("GET", "/x", "NewBot/1.0")); err == nil {
		t.Error("NewBot passed; the included list disallows everything to it")
	}
	if logs.FilterMessageSnippet("only the included lists apply").Len() != 1 {
		t.Errorf("want one warning that only the included lists apply, got %v", logs.All())
	}
	if w, _ := serve(h, newRequest("GET", "/robots.txt", "NewBot/1.0")); !strings.Contains(w.Body.String(), "User-agent: NewBot") {
		t.Errorf("/robots.txt does not serve the included list: %q", w.Body.String())
	}
}

// TestIncludedListsWhileTheUpstreamFails: an upstream that fails (5xx)
// at the first fetch leaves no file of the site's in force, but the
// included lists are the operator's own and apply all the same, as they
// do when it has no robots.txt. /robots.txt is not answered with the
// lists alone, which a crawler would cache as the site's file; once the
// upstream answers, its file and the lists are served and enforced.
func TestIncludedListsWhileTheUpstreamFails(t *testing.T) {
	var up atomic.Bool
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !up.Load() {
			http.Error(w, "down", http.StatusServiceUnavailable)
			return
		}
		fmt.Fprint(w, "User-agent: *\nDisallow: /own/\n")
	}))
	t.Cleanup(srv.Close)
	list := filepath.Join(t.TempDir(), "list.txt")
	os.WriteFile(list, []byte("User-agent: ListBot\nDisallow: /\n"), 0o644)
	h, logs := newTestHandler(t, config.Config{URL: srv.URL + "/robots.txt", Include: []string{list}})
	if _, err := serve(h, newRequest("GET", "/x", "ListBot/1.0")); err == nil {
		t.Error("ListBot passed while the upstream fails; the included list disallows everything to it")
	}
	if _, err := serve(h, newRequest("GET", "/own/x", "OtherBot/1.0")); err != nil {
		t.Errorf("OtherBot refused by a rule of an upstream file never fetched: %v", err)
	}
	if w, _ := serve(h, newRequest("GET", "/robots.txt", "ListBot/1.0")); w.Body.String() != "next" {
		t.Errorf("/robots.txt answered %q while the upstream's file is not known; want it passed on", w.Body.String())
	}
	if logs.FilterMessageSnippet("only the included lists apply until it can be").Len() != 1 || logs.FilterMessageSnippet("every bot is allowed").Len() != 0 {
		t.Errorf("want one error saying the included lists apply, got %v", logs.All())
	}
	up.Store(true)
	h.fixed.refetch(time.Minute)
	if _, err := serve(h, newRequest("GET", "/own/x", "OtherBot/1.0")); err == nil {
		t.Error("OtherBot passed /own/ once the upstream answered")
	}
	if _, err := serve(h, newRequest("GET", "/x", "ListBot/1.0")); err == nil {
		t.Error("ListBot passed once the upstream answered")
	}
	w, _ := serve(h, newRequest("GET", "/robots.txt", "ListBot/1.0"))
	if body := w.Body.String(); !strings.Contains(body, "Disallow: /own/") || !strings.Contains(body, "User-agent: ListBot") {
		t.Errorf("/robots.txt once the upstream answered: %q, want its file and the list", body)
	}
}

// TestIncludedFilesReadAgain: an included file is checked at the reload
// interval whatever the site's robots.txt is (a file, inline text, an
// upstream's), and read again at a configuration load, which with reload
// off is the only time it is.
func TestIncludedFilesReadAgain(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, "User-agent: *\nDisallow: /own/\n")
	}))
	t.Cleanup(srv.Close)
	for _, tc := range []struct {
		name string
		cfg  config.Config
		// reload provisions a second handler on the same source, as
		// a configuration load does, instead of waiting for a check.
		reload bool
	}{
		{"inline", config.Config{Inline: "User-agent: *\nDisallow: /own/\n", Reload: config.MinInterval}, false},
		{"inline, the default interval", config.Config{Inline: "User-agent: *\nDisallow: /own/\n"}, false},
		{"url", config.Config{URL: srv.URL + "/robots.txt", Reload: config.MinInterval}, false},
		{"file", config.Config{File: writeRobots(t, "User-agent: *\nDisallow: /own/\n"), Reload: config.MinInterval}, false},
		{"inline, reload off", config.Config{Inline: "User-agent: *\nDisallow: /own/\n", DisableReload: true}, true},
		{"url, reload off", config.Config{URL: srv.URL + "/robots.txt", DisableReload: true}, true},
		{"file, reload off", config.Config{File: writeRobots(t, "User-agent: *\nDisallow: /own/\n"), DisableReload: true}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			list := filepath.Join(t.TempDir(), "list.txt")
			os.WriteFile(list, []byte("User-agent: ListBot\nDisallow: /l1/\n"), 0o644)
			tc.cfg.Include = []string{list}
			h, _ := newTestHandler(t, tc.cfg)
			if _, err := serve(h, newRequest("GET", "/l1/x", "ListBot/1.0")); err == nil {
				t.Fatal("ListBot passed /l1/, which the list disallows")
			}
			os.WriteFile(list, []byte("User-agent: ListBot\nDisallow: /l2/\n"), 0o644)
			if tc.reload {
				h, _ = newTestHandler(t, tc.cfg)
			}
			refused := func(p string) bool {
				_, err := serve(h, newRequest("GET", p, "ListBot/1.0"))
				return err != nil
			}
			for deadline := time.Now().Add(30 * time.Second); !refused("/l2/x"); time.Sleep(20 * time.Millisecond) {
				if tc.reload || time.Now().After(deadline) {
					t.Fatal("the edit of the included list is not in force")
				}
			}
			if refused("/l1/x") {
				t.Error("/l1/ is still refused after the list's edit")
			}
			w, _ := serve(h, newRequest("GET", "/robots.txt", "ListBot/1.0"))
			if body := w.Body.String(); !strings.Contains(body, "Disallow: /l2/") || strings.Contains(body, "Disallow: /l1/") {
				t.Errorf("served %q, want the edited list", body)
			}
		})
	}
}

// TestIncludedURLFirstLoadLoggedOnce: a site whose robots.txt includes a
// URL logs its first load once, with the list, and counts no reload: the
// list's first fetch is part of the first load, not a change after it.
func TestIncludedURLFirstLoadLoggedOnce(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/robots.txt":
			fmt.Fprint(w, "User-agent: *\nDisallow: /own/\n")
		default:
			fmt.Fprint(w, "User-agent: ListBot\nDisallow: /\n")
		}
	}))
	t.Cleanup(srv.Close)
	initMetrics()
	for _, tc := range []struct {
		name string
		cfg  config.Config
	}{
		{"file", config.Config{File: writeRobots(t, "User-agent: *\nDisallow: /own/\n")}},
		{"inline", config.Config{Inline: "User-agent: *\nDisallow: /own/\n"}},
		{"url", config.Config{URL: srv.URL + "/robots.txt"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.cfg.Include = []string{srv.URL + "/list.txt"}
			before := testutil.ToFloat64(reloadsTotal.WithLabelValues("loaded"))
			_, logs := newTestHandler(t, tc.cfg)
			loaded := logs.FilterMessage("robots.txt loaded").All()
			if len(loaded) != 1 || loaded[0].ContextMap()["groups"] != int64(2) {
				t.Errorf("loads logged: %v; want one, of 2 groups (the site's and the list's)", loaded)
			}
			if n := testutil.ToFloat64(reloadsTotal.WithLabelValues("loaded")) - before; n != 0 {
				t.Errorf("the first load counted %v reloads, want none", n)
			}
		})
	}
}

// TestIncludedListGone: an included URL that answers 4xx after a good
// fetch drops the list's rules, which the log says at WARN naming the
// list, and is asked again within a minute, not a day.
func TestIncludedListGone(t *testing.T) {
	var gone atomic.Bool
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if gone.Load() {
			http.NotFound(w, r)
			return
		}
		fmt.Fprint(w, "User-agent: EvilBot\nDisallow: /\n")
	}))
	t.Cleanup(srv.Close)
	h, logs := newTestHandler(t, config.Config{Inline: "User-agent: *\nDisallow: /a\n", Include: []string{srv.URL + "/list.txt"}})
	if _, err := serve(h, newRequest("GET", "/x", "EvilBot/1.0")); err == nil {
		t.Fatal("EvilBot passed; the list disallows everything to it")
	}
	gone.Store(true)
	set := h.fixed.includes
	changed, wait := set.fetchURL(context.Background(), h.fixed.client, h.fixed.logger, set.entries[0])
	if !changed || wait > retryFirst {
		t.Errorf("the list answered 404: changed %v, asked again in %v; want changed, within %v", changed, wait, retryFirst)
	}
	if n := logs.FilterMessageSnippet("included list's URL has no list").FilterLevelExact(zapcore.WarnLevel).Len(); n != 1 {
		t.Errorf("%d warnings that the list is gone, want 1: %v", n, logs.All())
	}
	if _, wait := set.fetchURL(context.Background(), h.fixed.client, h.fixed.logger, set.entries[0]); wait != 2*retryFirst {
		t.Errorf("asked again in %v after a second 404, want %v", wait, 2*retryFirst)
	}
	if n := logs.FilterMessageSnippet("included list's URL has no list").Len(); n != 1 {
		t.Errorf("the same 404 warned of %d times, want once", n)
	}
}

// TestIncludedListFailingBacksOff: an included URL that fails (5xx) is
// asked again after a minute, doubling up to an hour, as the site's
// upstream is, and each failure is logged with when it is retried.
func TestIncludedListFailingBacksOff(t *testing.T) {
	var down atomic.Bool
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if down.Load() {
			http.Error(w, "down", http.StatusServiceUnavailable)
			return
		}
		fmt.Fprint(w, "User-agent: EvilBot\nDisallow: /\n")
	}))
	t.Cleanup(srv.Close)
	h, logs := newTestHandler(t, config.Config{Inline: "User-agent: *\nDisallow: /a\n", Include: []string{srv.URL + "/list.txt"}})
	down.Store(true)
	set, e := h.fixed.includes, h.fixed.includes.entries[0]
	for i, want := range []time.Duration{retryFirst, 2 * retryFirst, 4 * retryFirst} {
		if changed, wait := set.fetchURL(context.Background(), h.fixed.client, h.fixed.logger, e); changed || wait != want {
			t.Errorf("failure %d: changed %v, asked again in %v; want unchanged, in %v", i+1, changed, wait, want)
		}
	}
	failed := logs.FilterMessageSnippet("included robots.txt could not be fetched").All()
	if len(failed) != 3 || failed[2].ContextMap()["retry_in"] != 4*retryFirst {
		t.Errorf("logged %v; want each of 3 failures, the last with retry_in %v", failed, 4*retryFirst)
	}
	if _, err := serve(h, newRequest("GET", "/x", "EvilBot/1.0")); err == nil {
		t.Error("EvilBot passed; the list's last good copy disallows everything to it")
	}
	down.Store(false)
	if _, wait := set.fetchURL(context.Background(), h.fixed.client, h.fixed.logger, e); wait != refreshDefault {
		t.Errorf("asked again in %v after a good answer, want %v", wait, refreshDefault)
	}
	down.Store(true)
	if _, wait := set.fetchURL(context.Background(), h.fixed.client, h.fixed.logger, e); wait != retryFirst {
		t.Errorf("the first failure after a good answer is asked again in %v, want %v", wait, retryFirst)
	}
}

// TestIncludedListExpires: an included URL is fetched again when its
// answer's Expires says, as the site's own upstream is.
func TestIncludedListExpires(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// The server's clock is an hour ahead: its answer is no
		// older for that, whenever the test runs.
		date := time.Now().Add(time.Hour)
		w.Header().Set("Date", date.UTC().Format(http.TimeFormat))
		w.Header().Set("Expires", date.Add(2*time.Hour).UTC().Format(http.TimeFormat))
		fmt.Fprint(w, "User-agent: EvilBot\nDisallow: /\n")
	}))
	t.Cleanup(srv.Close)
	h, _ := newTestHandler(t, config.Config{Inline: "User-agent: *\nDisallow: /a\n", Include: []string{srv.URL + "/list.txt"}})
	set := h.fixed.includes
	if _, wait := set.fetchURL(context.Background(), h.fixed.client, h.fixed.logger, set.entries[0]); wait != 2*time.Hour {
		t.Errorf("a list that expires 2 hours after its Date is asked again in %v", wait)
	}
}

// TestIncludedListCutAtALine: an included list over the 500 KiB a crawler
// reads is cut at the end of a line: "Disallow: /private" cut after its
// "/" is not served, nor enforced, as "Disallow: /".
func TestIncludedListCutAtALine(t *testing.T) {
	head := "User-agent: foobot\n"
	list := filepath.Join(t.TempDir(), "list.txt")
	body := head + strings.Repeat("#", robots.DefaultMaxSize-len(head)-len("Disallow: /")-1) + "\nDisallow: /private\n"
	os.WriteFile(list, []byte(body), 0o644)
	h, _ := newTestHandler(t, config.Config{File: writeRobots(t, "User-agent: *\nDisallow: /a\n"), Include: []string{list}, DisableReload: true})
	if v, _ := verdictOf(t, h, "/page", "foobot/1.0", "198.51.100.5"); v != "allowed" {
		t.Errorf("foobot on /page: %q, want allowed (the cut rule is no rule)", v)
	}
	w, _ := serve(h, newRequest("GET", "/robots.txt", "foobot/1.0"))
	if strings.Contains(w.Body.String(), "Disallow: /\n") {
		t.Errorf("the line the limit cuts is served: %q", w.Body.String()[max(0, w.Body.Len()-80):])
	}
}

// TestIncludedListPlaceholders: an included path takes the global
// placeholders a file does ({env.*}), resolved when the configuration
// loads; one that still depends on the request is refused, as nothing
// reads a list per request. Before, the path was opened as written,
// "{env.LIST}", and the list silently added nothing.
func TestIncludedListPlaceholders(t *testing.T) {
	list := filepath.Join(t.TempDir(), "list.txt")
	os.WriteFile(list, []byte("User-agent: NewBot\nDisallow: /\n"), 0o644)
	t.Setenv("ROBOTS_TXT_TEST_LIST", list)
	h, _ := newTestHandler(t, config.Config{Inline: "User-agent: *\nDisallow: /a\n", Include: []string{"{env.ROBOTS_TXT_TEST_LIST}"}})
	if _, err := serve(h, newRequest("GET", "/x", "NewBot/1.0")); err == nil {
		t.Error("NewBot passed; the list {env.ROBOTS_TXT_TEST_LIST} names disallows everything to it")
	}
	for _, tc := range []struct{ name, include, want string }{
		{"request placeholder", "/srv/{http.request.host}/list.txt", `include[0]: "/srv/{http.request.host}/list.txt" depends on the request`},
		{"unset variable", "{env.ROBOTS_TXT_TEST_UNSET}", `include[0]: "{env.ROBOTS_TXT_TEST_UNSET}" is empty once its placeholders are replaced`},
		{"directory", t.TempDir(), "is a directory"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := &Handler{Config: config.Config{Inline: "User-agent: *\nDisallow: /a\n", Include: []string{tc.include}}, verifyOptions: offlineVerify, logger: zap.NewNop()}
			ctx, cancel := newContext()
			defer cancel()
			err := h.Provision(ctx)
			if err == nil {
				h.Cleanup()
				t.Fatalf("include %q provisioned; want an error", tc.include)
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %q; want it to say %q", err, tc.want)
			}
		})
	}
}

// TestIncludedListResolved: an included entry is a URL or a file once its
// placeholders are replaced, whatever case its scheme has, and strict
// checks the lists when the robots.txt itself is named per request.
func TestIncludedListResolved(t *testing.T) {
	upstream := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, "User-agent: EvilBot\nDisallow: /\n")
	}))
	t.Cleanup(upstream.Close)
	t.Setenv("ROBOTS_TXT_TEST_LIST_URL", upstream.URL+"/list.txt")
	for _, inc := range []string{"{env.ROBOTS_TXT_TEST_LIST_URL}", "HTTP://" + strings.TrimPrefix(upstream.URL, "http://") + "/list.txt"} {
		t.Run(inc, func(t *testing.T) {
			h, _ := newTestHandler(t, config.Config{Inline: "User-agent: *\nDisallow: /a\n", Include: []string{inc}})
			if _, err := serve(h, newRequest("GET", "/x", "EvilBot/1.0")); err == nil {
				t.Errorf("EvilBot passed; the list at %s disallows everything to it", inc)
			}
		})
	}
	t.Run("strict with a per-request robots.txt", func(t *testing.T) {
		missing := filepath.Join(t.TempDir(), "missing.txt")
		h := &Handler{Config: config.Config{Strict: true, Include: []string{missing}}, verifyOptions: offlineVerify, logger: zap.NewNop()}
		ctx, cancel := newContext()
		defer cancel()
		err := h.Provision(ctx)
		if err == nil {
			h.Cleanup()
			t.Fatal("provisioned with strict and a missing included list")
		}
		if want := "strict: included list " + strconv.Quote(missing) + " does not exist"; !strings.Contains(err.Error(), want) {
			t.Errorf("error %q; want it to say %q", err, want)
		}
	})
}

// TestIncludedRuleLineWithTrap: the line of a rule of an included list is
// its line in the robots.txt served, as README says, the trap's lines
// above it counted: the log, the placeholder and the violation line name
// the line the bot read it on. A rule of the site's own file keeps its
// line on disk.
func TestIncludedRuleLineWithTrap(t *testing.T) {
	list := filepath.Join(t.TempDir(), "list.txt")
	os.WriteFile(list, []byte("User-agent: CCBot\nDisallow: /\n"), 0o644)
	site := "User-agent: *\nDisallow: /private/\n\nUser-agent: ExampleBot\nDisallow: /eb/\n"
	h, logs := newTestHandler(t, config.Config{File: writeRobots(t, site), Include: []string{list}, Trap: "/trap/", DisableReload: true})
	w, _ := serve(h, newRequest("GET", "/robots.txt", ""))
	served := strings.Split(w.Body.String(), "\n")
	for _, tc := range []struct {
		ua, path, rule string
		want           func(int) bool
	}{
		{"CCBot/2.0", "/x", "Disallow: /", func(l int) bool { return l <= len(served) && served[l-1] == "Disallow: /" }},
		{"ExampleBot/1.0", "/eb/x", "Disallow: /eb/", func(l int) bool { return l == 5 }},
	} {
		r := newRequest("GET", tc.path, tc.ua)
		if _, err := serve(h, r); err == nil {
			t.Fatalf("%s %s: not refused", tc.ua, tc.path)
		}
		got, _ := r.Context().Value(caddy.ReplacerCtxKey).(*caddy.Replacer).GetString("http.robots_txt.line")
		l, _ := strconv.Atoi(got)
		if !tc.want(l) {
			t.Errorf("%s: %q is logged at line %s; served:\n%s", tc.ua, tc.rule, got, w.Body)
		}
	}
	for _, e := range logs.FilterMessage("robots.txt violation blocked").All() {
		if e.ContextMap()["user_agent"] == "CCBot/2.0" {
			if l, _ := e.ContextMap()["line"].(int64); l < 1 || int(l) > len(served) || served[l-1] != "Disallow: /" {
				t.Errorf("the violation is logged at line %d; served:\n%s", l, w.Body)
			}
		}
	}
}

// TestDynamicMissingFilesShareTheMerge: with a {host} root, any Host a
// client makes up names a file that is not there, and its robots.txt is
// the included lists alone. Merging and parsing them anew for each such
// Host made every request with a new Host cost three parses of the lists
// (20 ms and megabytes each for a list of 270 KB: 51 requests a second,
// 1.2 GB resident): hosts without a file share one merge.
func TestDynamicMissingFilesShareTheMerge(t *testing.T) {
	dir := t.TempDir()
	list := filepath.Join(dir, "list.txt")
	os.WriteFile(list, []byte("User-agent: ListBot\nDisallow: /\n\nUser-agent: *\nDisallow: /listed/\nfoo: bar\n"), 0o644)
	h, logs := newTestHandler(t, config.Config{File: filepath.Join(dir, "{http.request.host}.txt"), Include: []string{list}, DisableReload: true})
	var files []*robots.File
	for i := range 3 {
		src := h.dynamic.get(filepath.Join(dir, fmt.Sprintf("made-up-%d.test.txt", i)))
		snap := src.current()
		if snap.File == nil || len(snap.File.Groups()) != 2 {
			t.Fatalf("host %d: %v, want the included list's two groups in force", i, snap.File)
		}
		files = append(files, snap.File)
	}
	if files[0] != files[1] || files[1] != files[2] {
		t.Error("each Host without a file parsed the included lists anew; want one merge shared")
	}
	if n := logs.FilterMessage("robots.txt included list has findings").Len(); n != 1 {
		t.Errorf("the list's findings logged %d times for three Hosts, want once", n)
	}
	if a, b := h.dynamic.get(filepath.Join(dir, "made-up-0.test.txt")), h.dynamic.get(filepath.Join(dir, "made-up-1.test.txt")); a.includes != b.includes {
		t.Error("each Host read the included lists anew; want them read once for all")
	}
	// A Host with a file of its own gets its own merge.
	os.WriteFile(filepath.Join(dir, "real.test.txt"), []byte("User-agent: *\nDisallow: /own/\n"), 0o644)
	own := h.dynamic.get(filepath.Join(dir, "real.test.txt")).current()
	if own.File == files[0] || own.File.Allowed("curl", "/own/x") || own.File.Allowed("ListBot", "/x") {
		t.Error("a Host with its own file shares the lists-only merge, or has not the lists")
	}
	// A change of a list reaches every file at the next check.
	os.WriteFile(list, []byte("User-agent: ListBot\nDisallow: /relisted/\n"), 0o644)
	h.dynamic.check()
	for _, name := range []string{"made-up-0.test.txt", "real.test.txt"} {
		if f := h.dynamic.get(filepath.Join(dir, name)).current().File; f.Allowed("ListBot", "/relisted/x") || !f.Allowed("ListBot", "/x") {
			t.Errorf("%s: the changed list is not in force after a check", name)
		}
	}
}

// TestDynamicMissingFilesShareTheTrap: the text served with the trap is
// built and parsed once for the Hosts without a file, not per Host (each
// new Host's GET /robots.txt cost a parse of the lists and a log line).
func TestDynamicMissingFilesShareTheTrap(t *testing.T) {
	dir := t.TempDir()
	list := filepath.Join(dir, "list.txt")
	os.WriteFile(list, []byte("User-agent: ListBot\nDisallow: /\n"), 0o644)
	h, logs := newTestHandler(t, config.Config{File: filepath.Join(dir, "{http.request.host}.txt"), Include: []string{list}, Trap: "/.well-known/trap/", DisableReload: true})
	a := h.servedTrap(h.dynamic.get(filepath.Join(dir, "a.test.txt")).current())
	b := h.servedTrap(h.dynamic.get(filepath.Join(dir, "b.test.txt")).current())
	if a != b {
		t.Error("each Host without a file built its own text with the trap; want one shared")
	}
	if n := logs.FilterMessageSnippet("served with the trap").Len(); n != 1 {
		t.Errorf("%d lines that robots.txt is served with the trap for two Hosts, want 1", n)
	}
}

// TestDynamicIncludedURL: with a root named per request ({host}), an
// included URL is fetched once for the handler and applies to every
// Host's file, with or without text of its own; a change of the list
// reaches the files already read. It was never fetched: the list's rules
// were silently off.
func TestDynamicIncludedURL(t *testing.T) {
	var list atomic.Value
	list.Store("User-agent: EvilBot\nDisallow: /\n")
	var fetches atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fetches.Add(1)
		fmt.Fprint(w, list.Load())
	}))
	t.Cleanup(srv.Close)
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "own.test.txt"), []byte("User-agent: *\nDisallow: /own/\n"), 0o644)
	h, _ := newTestHandler(t, config.Config{File: filepath.Join(dir, "{http.request.host}.txt"), Include: []string{srv.URL + "/list.txt"}, DisableReload: true})
	request := func(host, ua string) error {
		r := newRequest("GET", "/x", ua)
		r.Host = host
		ctx := context.WithValue(r.Context(), caddy.ReplacerCtxKey, caddyhttp.NewTestReplacer(r))
		_, err := serve(h, r.WithContext(ctx))
		return err
	}
	for _, host := range []string{"own.test", "made-up.test", "other.test"} {
		if err := request(host, "EvilBot/1.0"); err == nil {
			t.Errorf("Host %s: EvilBot passed; the included list disallows it everything", host)
		}
	}
	if n := fetches.Load(); n != 1 {
		t.Errorf("the list was fetched %d times for three Hosts, want once", n)
	}
	list.Store("User-agent: OtherBot\nDisallow: /\n")
	if changed, _ := h.dynamic.set.lists.fetchURL(context.Background(), newUpstreamClient(), func() *zap.Logger { return zap.NewNop() }, h.dynamic.set.lists.entries[0]); !changed {
		t.Fatal("the changed list was not seen as changed")
	}
	h.dynamic.remerge()
	for _, host := range []string{"own.test", "made-up.test"} {
		if err := request(host, "EvilBot/1.0"); err != nil {
			t.Errorf("Host %s: EvilBot refused after the list dropped it: %v", host, err)
		}
		if err := request(host, "OtherBot/1.0"); err == nil {
			t.Errorf("Host %s: OtherBot passed; the changed list disallows it everything", host)
		}
	}
}

// TestIncludedLoadLogsWhatIsInForce: the load's log line, its warning
// that nothing is disallowed, and the gauges describe the merged text
// bots are judged by, whichever file changed. Before, they described the
// site's own file: a WARN said no path was disallowed while the list's
// bot got 403, the ETag logged was not the one served, and the gauges
// went back to the site's counts after each edit of it.
func TestIncludedLoadLogsWhatIsInForce(t *testing.T) {
	list := filepath.Join(t.TempDir(), "list.txt")
	os.WriteFile(list, []byte("User-agent: ListBot\nDisallow: /\n"), 0o644)
	path := writeRobots(t, "User-agent: *\nAllow: /\n")
	h, logs := newTestHandler(t, config.Config{File: path, Include: []string{list}, Reload: config.MinInterval})
	check := func(when string) {
		t.Helper()
		loaded := logs.FilterMessage("robots.txt loaded").All()
		if len(loaded) == 0 {
			t.Fatalf("%s: no load logged: %v", when, logs.All())
		}
		ctx := loaded[len(loaded)-1].ContextMap()
		w, _ := serve(h, newRequest("GET", "/robots.txt", testfixtures.UAChrome))
		if ctx["groups"] != int64(2) || ctx["etag"] != w.Header().Get("ETag") {
			t.Errorf("%s: logged %v groups, ETag %v; want 2 and the served %s", when, ctx["groups"], ctx["etag"], w.Header().Get("ETag"))
		}
		if n := testutil.ToFloat64(groupsInForce.WithLabelValues(h.fixed.name())); n != 2 {
			t.Errorf("%s: groups gauge %v, want 2", when, n)
		}
		if logs.FilterMessageSnippet("no Disallow rule").Len() > 0 {
			t.Errorf("%s: warned that nothing is disallowed, while ListBot is refused everything", when)
		}
	}
	check("at load")
	os.WriteFile(path, []byte("User-agent: *\nAllow: /\n# edited\n"), 0o644)
	bump(t, path, time.Second)
	h.fixed.refresh()
	check("after an edit of the site's file")
}
