package integration

import (
	"context"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"
)

// wgetPath finds wget; without it the test is skipped locally and fails
// in CI (CI=true), where it must run.
func wgetPath(t *testing.T) string {
	t.Helper()
	p, err := exec.LookPath("wget")
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("wget is not installed, and CI=true: install it (apt-get install -y wget)")
		}
		t.Skip("wget is not installed (apt-get install -y wget)")
	}
	return p
}

// copyDir copies the regular files of src into dst.
func copyDir(t testing.TB, src, dst string) {
	t.Helper()
	err := filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, path)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// violation is what a crawl's violation log says about one request.
type violation struct {
	uri, rule string
	line      int
}

// TestWgetCrawl lets a real crawler, wget, crawl a copy of the demo site
// served in monitor mode: once obeying robots.txt, once ignoring it.
func TestWgetCrawl(t *testing.T) {
	t.Parallel()
	wget := wgetPath(t)
	inst := newInstance(t)
	site := filepath.Join(inst.dir, "site")
	copyDir(t, filepath.Join(repoRoot, "examples", "site"), site)
	robotsTxt, err := os.ReadFile(filepath.Join(site, "robots.txt"))
	if err != nil {
		t.Fatal(err)
	}
	inst.start(`http://127.0.0.1:{{port}} {
	root * {{dir}}/site
	robots_txt {
		` + verifiedHere + `
		mode monitor
	}
	file_server
	log {
		output file {{dir}}/access.log
		format json
	}
}
`)
	accessLog := filepath.Join(inst.dir, "access.log")

	// crawl runs wget and returns the access log entries and violation
	// log lines it caused.
	crawl := func(t *testing.T, name string, extra ...string) (entries []logEntry, violations []violation) {
		t.Helper()
		logsBefore := len(inst.moduleLogs("robots.txt violation"))
		accessBefore := len(readAccessLog(t, accessLog))
		args := append([]string{
			"--recursive", "--level=5", "--no-parent", "--no-host-directories",
			"--directory-prefix=" + filepath.Join(inst.dir, "download-"+name),
			"--tries=1", "--timeout=10", "--no-verbose",
		}, extra...)
		args = append(args, inst.url("/"))
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		defer cancel()
		cmd := exec.CommandContext(ctx, wget, args...)
		wgetrc := filepath.Join(inst.dir, "wgetrc")
		writeFile(t, wgetrc, "")
		cmd.Env = append(os.Environ(), "HOME="+inst.dir, "WGETRC="+wgetrc, "http_proxy=", "no_proxy=*")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("wget %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		t.Logf("wget (%s) %s:\n%s", name, strings.Join(extra, " "), out)
		// The access log may lag behind wget: wait until it has grown and
		// then stayed the same for a few polls.
		last, same := -1, 0
		eventually(t, 30*time.Second, "the access log to settle", func() bool {
			n := len(readAccessLog(t, accessLog))
			if n == last {
				same++
			} else {
				last, same = n, 0
			}
			return n > accessBefore && same >= 8
		})
		entries = readAccessLog(t, accessLog)[accessBefore:]
		for _, e := range inst.moduleLogs("robots.txt violation")[logsBefore:] {
			line, _ := e.num("line")
			violations = append(violations, violation{e.str("uri"), e.str("rule"), line})
		}
		return entries, violations
	}

	// Every request wget makes is a bot request (Wget/1.x obeys "*").
	checkBot := func(t *testing.T, entries []logEntry) {
		t.Helper()
		for _, e := range entries {
			uri, ua := accessURI(e)
			rt, ok := e.obj("robots_txt")
			if !strings.HasPrefix(ua, "Wget/") {
				t.Errorf("%s: User-Agent %q, want wget's default", uri, ua)
			}
			if !ok {
				t.Errorf("%s: wget's request has no robots_txt object", uri)
				continue
			}
			if rt.str("group") != "*" || rt.str("mode") != "monitor" {
				t.Errorf("%s: robots_txt %v, want group * and mode monitor", uri, rt)
			}
		}
	}

	t.Run("obeying robots.txt", func(t *testing.T) {
		entries, violations := crawl(t, "polite")
		checkBot(t, entries)
		fetchedRobots := false
		for _, e := range entries {
			uri, _ := accessURI(e)
			if uri == "/robots.txt" {
				fetchedRobots = true
				if rt, _ := e.obj("robots_txt"); rt.str("action") != "served" {
					t.Errorf("/robots.txt entry: robots_txt %v, want action served", rt)
				}
			}
		}
		if !fetchedRobots {
			t.Error("wget did not fetch /robots.txt")
		}
		// The demo's one wildcard rule (/*?sessionid=) is linked from no
		// page: wget 1.21 implements the original robots.txt (prefix
		// rules only), so a linked wildcard-only URL would be a real
		// violation by wget, not a polite crawl.
		for _, v := range violations {
			t.Errorf("polite wget reported as violating %+v", v)
		}
		for _, e := range entries {
			uri, _ := accessURI(e)
			if rt, _ := e.obj("robots_txt"); rt.str("verdict") != "allowed" {
				t.Errorf("polite wget's request %s has verdict %q: %v", uri, rt.str("verdict"), rt)
			}
		}
		if len(entries) < 5 {
			t.Errorf("wget made %d requests; the crawl did not get far", len(entries))
		}
	})

	t.Run("ignoring robots.txt", func(t *testing.T) {
		entries, violations := crawl(t, "rude", "-e", "robots=off")
		checkBot(t, entries)

		// What the demo's robots.txt says about the pages of the demo
		// site, for the "*" group (wget's); lines are looked up in the
		// file itself.
		disallowedBy := map[string]string{
			"/private/":               "disallow: /private/",
			"/private/index.html":     "disallow: /private/",
			"/private/secret.html":    "disallow: /private/",
			"/":                       "",
			"/index.html":             "",
			"/robots.txt":             "",
			"/about.html":             "",
			"/blog/":                  "",
			"/blog/index.html":        "",
			"/blog/first-post.html":   "",
			"/private/press-kit.html": "", // allow: /private/press-kit.html, the longer match
			"/drafts/next-post.html":  "", // disallowed for Googlebot only
		}
		reached := map[string]bool{}
		for _, e := range entries {
			uri, _ := accessURI(e)
			reached[uri] = true
		}
		var want []violation
		for uri := range reached {
			rule, known := disallowedBy[uri]
			if !known {
				t.Errorf("wget reached %s, which this test does not know; add it to the table", uri)
				continue
			}
			if rule != "" {
				want = append(want, violation{uri, rule, ruleLine(t, string(robotsTxt), "*", rule)})
			}
		}
		for _, must := range []string{"/private/", "/private/secret.html", "/private/press-kit.html"} {
			if !reached[must] {
				t.Errorf("wget -e robots=off did not reach %s", must)
			}
		}
		sortViolations(want)
		sortViolations(violations)
		if strings.Join(fmtViolations(want), "\n") != strings.Join(fmtViolations(violations), "\n") {
			t.Errorf("violations logged:\n  %s\nwant (from robots.txt):\n  %s",
				strings.Join(fmtViolations(violations), "\n  "), strings.Join(fmtViolations(want), "\n  "))
		}
		// The access log agrees with the violation log.
		for _, e := range entries {
			uri, _ := accessURI(e)
			rt, _ := e.obj("robots_txt")
			wantRule := disallowedBy[uri]
			if wantRule == "" {
				if rt.str("verdict") != "allowed" || (rt.str("action") != "passed" && rt.str("action") != "served") {
					t.Errorf("%s: robots_txt %v, want allowed and passed/served", uri, rt)
				}
				continue
			}
			line, _ := rt.num("line")
			if v := rt.str("verdict"); v != "disallowed" {
				t.Errorf("%s: verdict %q, want disallowed (in %v)", uri, v, rt)
			}
			if a := rt.str("action"); a != "logged" {
				t.Errorf("%s: action %q, want logged (in %v)", uri, a, rt)
			}
			if r := rt.str("rule"); r != wantRule {
				t.Errorf("%s: rule %q, want %q (in %v)", uri, r, wantRule, rt)
			}
			if wantLine := ruleLine(t, string(robotsTxt), "*", wantRule); line != wantLine {
				t.Errorf("%s: line %v, want %v, the line of %q (in %v)", uri, line, wantLine, wantRule, rt)
			}
		}
	})
}

func sortViolations(v []violation) {
	sort.Slice(v, func(i, j int) bool { return v[i].uri < v[j].uri })
}

func fmtViolations(v []violation) []string {
	out := make([]string, len(v))
	for i, x := range v {
		out[i] = x.uri + " " + x.rule + " line " + strconv.Itoa(x.line)
	}
	return out
}
