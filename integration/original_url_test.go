package integration

import (
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/robotsguard/caddy-robots-txt/internal/testfixtures"
)

// TestJudgesTheClientsURL: robots.txt rules are about the URL the crawler
// asked for, so rewrites that run before the handler (uri, try_files,
// rewrite) change what the backend serves but not what is judged.
func TestJudgesTheClientsURL(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name   string
		robots string
		block  string // directives before robots_txt in the site block
		checks []struct {
			path   string
			status int
		}
	}{
		{
			name:   "uri strip_prefix",
			robots: "User-agent: *\nDisallow: /api/\n",
			block:  "uri strip_prefix /api",
			checks: []struct {
				path   string
				status int
			}{{"/api/users", http.StatusForbidden}, {"/users", http.StatusOK}},
		},
		{
			name:   "single-page app, try_files",
			robots: "User-agent: *\nDisallow: /private/\n",
			block:  "try_files {path} /index.html",
			checks: []struct {
				path   string
				status int
			}{{"/private/", http.StatusForbidden}, {"/app/route", http.StatusOK}},
		},
		{
			name:   "try_files and an anchored rule",
			robots: "User-agent: *\nDisallow: /*.html$\n",
			block:  "try_files {path} /index.html",
			checks: []struct {
				path   string
				status int
			}{{"/", http.StatusOK}, {"/blog/x", http.StatusOK}, {"/pretty-url", http.StatusOK}, {"/index.html", http.StatusForbidden}},
		},
		{
			name:   "rewrite inside a route",
			robots: "User-agent: *\nDisallow: /old/\n",
			block:  "route {\n\t\trewrite /old/* /index.html\n\t}",
			checks: []struct {
				path   string
				status int
			}{{"/old/page", http.StatusForbidden}, {"/index.html", http.StatusOK}},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			inst := startCaddy(t, `http://127.0.0.1:{{port}} {
	root * {{dir}}/site
	`+c.block+`
	robots_txt
	file_server
}
`, func(inst *instance) {
				writeFile(t, filepath.Join(inst.dir, "site", "index.html"), "<h1>app</h1>")
				writeFile(t, filepath.Join(inst.dir, "site", "users"), "users")
				writeFile(t, filepath.Join(inst.dir, "site", "robots.txt"), c.robots)
			})
			refused := 0
			for _, ch := range c.checks {
				if got := inst.get(t, ch.path, testfixtures.UACurl); got.status != ch.status {
					t.Errorf("GET %s as curl: %d, want %d", ch.path, got.status, ch.status)
				}
				if ch.status == http.StatusForbidden {
					refused++
				}
			}
			if w := matchAfterRewriteLogs(inst); len(w) > 0 {
				t.Errorf("warned of a path matcher after a rewrite, with none: %v", w)
			}
			// The handler's line names the URL judged, not the one
			// the rewrite made (audit AB-F3: "/private/x" logged as
			// "/index.html" beside the rule that refused it).
			entries := inst.waitModuleLogs(t, "robots.txt violation blocked", refused, 10*time.Second)
			for i, ch := range c.checks {
				if ch.status != http.StatusForbidden {
					continue
				}
				found := false
				for _, e := range entries {
					// The host too (audit AD-F3: Caddy's copy
					// of the request has none).
					found = found || e.str("uri") == ch.path && e.str("host") == inst.host
				}
				if !found {
					t.Errorf("no violation line has uri %q (check %d): %v", ch.path, i, entries)
				}
			}
		})
	}
}

// TestMatcherAndBodyPlaceholders: the directive takes any matcher token,
// as handler directives do, and the refusal body expands placeholders.
func TestMatcherAndBodyPlaceholders(t *testing.T) {
	t.Parallel()
	inst := startCaddy(t, `http://127.0.0.1:{{port}} {
	root * {{dir}}/site
	robots_txt /private/* {
		`+verifiedHere+`
		body "no, {http.robots_txt.bot}: {http.robots_txt.rule} (line {http.robots_txt.line})"
	}
	file_server
}
`, withTestSite)
	got := inst.get(t, "/private/x.html", testfixtures.UAGPTBot)
	if want := "no, GPTBot: disallow: / (line 6)"; got.status != http.StatusForbidden || got.body != want {
		t.Errorf("GPTBot on /private/x.html: %d %q, want 403 %q", got.status, got.body, want)
	}
	// Outside the matcher the handler does not run: GPTBot may fetch
	// /about.html though its group disallows everything.
	if got := inst.get(t, "/about.html", testfixtures.UAGPTBot); got.status != http.StatusOK {
		t.Errorf("GPTBot on /about.html, outside the matcher: %d, want 200", got.status)
	}
}

// TestTemplateIncludesAreNotJudged: a page built by templates pulls its
// parts in with httpInclude, requests Caddy makes itself. Only the URL the
// bot asked for is judged: a part under a disallowed path, or one more
// request than Crawl-delay's burst, must not fail the page (templates
// answer 500 when an include fails) nor be logged as the bot's.
func TestTemplateIncludesAreNotJudged(t *testing.T) {
	t.Parallel()
	inst := startCaddy(t, `http://127.0.0.1:{{port}} {
	root * {{dir}}/tpl
	robots_txt
	templates
	file_server
}
`, func(inst *instance) {
		dir := filepath.Join(inst.dir, "tpl")
		writeFile(t, filepath.Join(dir, "robots.txt"), "User-agent: *\nDisallow: /partials/\nCrawl-delay: 30\n")
		writeFile(t, filepath.Join(dir, "partials", "h.html"), "header")
		writeFile(t, filepath.Join(dir, "page.html"), `{{httpInclude "/partials/h.html"}} {{httpInclude "/partials/h.html"}} {{httpInclude "/partials/h.html"}} body`)
	})
	if resp := inst.get(t, "/page.html", testfixtures.UAPythonRequests); resp.status != http.StatusOK || resp.body != "header header header body" {
		t.Errorf("a bot's GET /page.html: status %d body %q, want 200 and the page with its parts", resp.status, resp.body)
	}
	// The bot's own request for a part is judged as ever.
	if resp := inst.get(t, "/partials/h.html", testfixtures.UAPythonRequests); resp.status != http.StatusForbidden {
		t.Errorf("a bot's GET /partials/h.html: status %d, want 403", resp.status)
	}
	logs := inst.waitModuleLogs(t, "robots.txt violation blocked", 1, 30*time.Second)
	time.Sleep(200 * time.Millisecond)
	for _, e := range inst.moduleLogs("robots.txt violation blocked") {
		if e.str("uri") != "/partials/h.html" {
			t.Errorf("violation logged for %q, which the bot did not ask for: %v", e.str("uri"), e)
		}
	}
	if len(logs) == 0 {
		t.Error("the bot's own request for /partials/h.html logged no violation")
	}
}

// matchAfterRewriteLogs returns the module's warnings of a path matcher
// Caddy tests after a rewrite.
func matchAfterRewriteLogs(inst *instance) []logEntry {
	var out []logEntry
	for _, e := range inst.logs() {
		if e.str("logger") == "http.handlers.robots_txt" && strings.HasPrefix(e.str("msg"), "robots_txt runs under a route that matches the path after a rewrite") {
			out = append(out, e)
		}
	}
	return out
}

// TestMatcherAfterRewriteWarned: the directive's own path matcher is
// Caddy's, and reads the path as rewritten before it: "uri strip_prefix
// /blog" then "robots_txt /blog/*" judges no /blog/ request. The handler
// cannot change that, but says so when the configuration starts (audit
// AB-F2), once. A rewrite that cannot move a /blog/ request out of the
// matcher draws no warning (audit AD-F4): one of another path, a
// try_files that keeps the path, one in a sibling handle block.
func TestMatcherAfterRewriteWarned(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name, block string
		warned      bool
		status      int // of a bot's GET /blog/private/x.html
	}{
		{"uri strip_prefix", "uri strip_prefix /blog\n\trobots_txt /blog/*\n\tfile_server", true, http.StatusOK},
		{"rewrite of another path", "rewrite /old-page /new-page\n\trobots_txt /blog/*\n\tfile_server", false, http.StatusForbidden},
		{"try_files keeping the path", "try_files {path} {path}.html\n\trobots_txt /blog/*\n\tfile_server", false, http.StatusForbidden},
		// Audit AE-F4: a strip of another prefix, a rewrite that stays
		// under the matcher, one of the query alone.
		{"uri strip_prefix of another prefix", "uri strip_prefix /api\n\trobots_txt /blog/*\n\tfile_server", false, http.StatusForbidden},
		{"rewrite staying under the matcher", "rewrite /blog/* /blog/private/x.html\n\trobots_txt /blog/*\n\tfile_server", false, http.StatusForbidden},
		{"rewrite of the query", "rewrite * ?{query}&from=site\n\trobots_txt /blog/*\n\tfile_server", false, http.StatusForbidden},
		{"rewrite out of the matcher", "rewrite /blog/* /index.html\n\trobots_txt /blog/*\n\tfile_server", true, http.StatusOK},
		// Audit AF-F5: a replacement that cannot touch the prefix, a
		// try_files whose last word is a status, a rewrite that puts
		// the path under the prefix again; and one that moves it out.
		{"uri replace after the prefix", "uri replace /old/ /new/\n\trobots_txt /blog/*\n\tfile_server", false, http.StatusForbidden},
		{"uri replace of the prefix", "uri replace /blog/ /b/\n\trobots_txt /blog/*\n\tfile_server", true, http.StatusNotFound},
		{"try_files ending in a status", "try_files {path} {path}/ =404\n\trobots_txt /blog/*\n\tfile_server", false, http.StatusForbidden},
		{"rewrite under the prefix again", "rewrite /blog/* /blog{path}.html\n\trobots_txt /blog/*\n\tfile_server", false, http.StatusForbidden},
		{"a sibling handle block", "handle /shop/* {\n\t\trewrite * /shop/index.html\n\t\tfile_server\n\t}\n\thandle /blog/* {\n\t\trobots_txt\n\t\tfile_server\n\t}", false, http.StatusForbidden},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			inst := startCaddy(t, `http://127.0.0.1:{{port}} {
	root * {{dir}}/site
	`+c.block+`
}
`, func(inst *instance) {
				writeFile(t, filepath.Join(inst.dir, "site", "private", "x.html"), "x")
				writeFile(t, filepath.Join(inst.dir, "site", "blog", "private", "x.html"), "x")
				writeFile(t, filepath.Join(inst.dir, "site", "index.html"), "home")
				writeFile(t, filepath.Join(inst.dir, "site", "robots.txt"), "User-agent: *\nDisallow: /blog/private/\n")
			})
			// The request makes sure the check ran (at the started
			// event, or at the first request).
			if got := inst.get(t, "/blog/private/x.html", testfixtures.UACurl); got.status != c.status {
				t.Errorf("GET /blog/private/x.html: %d, want %d", got.status, c.status)
			}
			if !c.warned {
				if w := matchAfterRewriteLogs(inst); len(w) > 0 {
					t.Errorf("warned of a matcher after a rewrite that cannot move the path out of it: %v", w)
				}
				return
			}
			var e []logEntry
			eventually(t, 10*time.Second, "the warning of a matcher after a rewrite", func() bool {
				e = matchAfterRewriteLogs(inst)
				return len(e) > 0
			})
			if e[0].str("level") != "warn" || e[0].str("matcher") != "path /blog/*" {
				t.Errorf("warning %v, want WARN naming the matcher path /blog/*", e[0])
			}
			if n := len(matchAfterRewriteLogs(inst)); n != 1 {
				t.Errorf("warned %d times, want once", n)
			}
		})
	}
}
