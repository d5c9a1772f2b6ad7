package integration

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"image"
	"image/png"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/robotsguard/caddy-robots-txt/internal/testfixtures"
)

// These tests run `caddy robots`, the command line of package
// caddymodule/cli, from the binary TestMain builds.

// runCaddyStdin is runCaddyCmd (in the repository root) with stdin as the
// command's standard input.
func runCaddyStdin(t testing.TB, stdin []byte, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, caddyBin, args...)
	cmd.Dir = repoRoot
	cmd.Env = caddyEnv(t.TempDir(), freePort(t))
	cmd.Stdin = bytes.NewReader(stdin)
	var so, se bytes.Buffer
	cmd.Stdout, cmd.Stderr = &so, &se
	err := cmd.Run()
	var ee *exec.ExitError
	switch {
	case ctx.Err() != nil:
		t.Fatalf("caddy %v did not finish in 30s\nstderr:\n%s", args, se.String())
	case err == nil:
	case errors.As(err, &ee):
		code = ee.ExitCode()
	default:
		t.Fatalf("caddy %v: %v", args, err)
	}
	return code, so.String(), se.String()
}

func TestCLICheck(t *testing.T) {
	t.Parallel()
	site := writeTestSite(t, t.TempDir(), true)
	robotsPath := filepath.Join(site, "robots.txt")

	tests := []struct {
		name     string
		agent    string
		paths    []string
		wantCode int
		want     []string
	}{
		{"GPTBot disallowed", testfixtures.UAGPTBot, []string{"/about.html"}, 1, []string{
			"/about.html: disallowed", "group: GPTBot", "agent: GPTBot",
			fmt.Sprintf("rule:  %s (line %d)", ruleGPTBotAll.rule, ruleGPTBotAll.line),
		}},
		{"Googlebot drafts", testfixtures.UAGooglebotMobile, []string{"/drafts/d.html", "/private/x.html"}, 1, []string{
			"/drafts/d.html: disallowed", fmt.Sprintf("%s (line %d)", ruleGooglebotDraf.rule, ruleGooglebotDraf.line),
			"/private/x.html: allowed", "no rule matched",
		}},
		{"catch-all group", testfixtures.UAPythonRequests, []string{"http://example.com/private/ok.html", "/public/p.html"}, 0, []string{
			"http://example.com/private/ok.html (judged as /private/ok.html): allowed", "group: *", "agent: none",
			fmt.Sprintf("%s (line %d)", ruleStarAllowOK.rule, ruleStarAllowOK.line),
			"/public/p.html: allowed",
		}},
		{"dot-segments", testfixtures.UACurl, []string{"/public/../private/x.html"}, 1, []string{
			"(judged as /private/x.html): disallowed", fmt.Sprintf("%s (line %d)", ruleStarPrivate.rule, ruleStarPrivate.line),
		}},
		// A person is not held to robots.txt: check says so, and exits 0.
		{"browser", testfixtures.UAChrome, []string{"/private/x.html"}, 0, []string{"/private/x.html: not held to robots.txt (a bot would be disallowed)", "looks like a person's browser"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			args := append([]string{"robots", "check", "--file", robotsPath, "--agent", tc.agent}, tc.paths...)
			code, out, errOut := runCaddyCmd(t, "", args...)
			if code != tc.wantCode {
				t.Errorf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", code, tc.wantCode, out, errOut)
			}
			for _, w := range tc.want {
				if !strings.Contains(out, w) {
					t.Errorf("output lacks %q:\n%s", w, out)
				}
			}
		})
	}

	t.Run("json from stdin", func(t *testing.T) {
		t.Parallel()
		code, out, errOut := runCaddyStdin(t, []byte(testfixtures.RobotsTxt), "robots", "check", "--json", "--file", "-", "--agent", "GPTBot", "/x", "/robots.txt")
		if code != 1 {
			t.Errorf("exit %d, want 1\n%s", code, errOut)
		}
		var got struct {
			File    string
			Results []struct {
				Path    string
				Allowed bool
				Group   []string
				Agent   string
				Rule    string
				Line    int
			}
		}
		if err := json.Unmarshal([]byte(out), &got); err != nil {
			t.Fatalf("not JSON: %v\n%s", err, out)
		}
		if got.File != "<stdin>" {
			t.Errorf("file %q, want <stdin>", got.File)
		}
		if len(got.Results) != 2 {
			t.Fatalf("%d results, want 2: %+v", len(got.Results), got.Results)
		}
		r := got.Results[0]
		if r.Allowed {
			t.Error("/x: allowed, want disallowed")
		}
		if r.Agent != "GPTBot" {
			t.Errorf("/x: agent %q, want GPTBot", r.Agent)
		}
		if r.Rule != ruleGPTBotAll.rule || r.Line != ruleGPTBotAll.line {
			t.Errorf("/x: rule %q on line %d, want %q on line %d", r.Rule, r.Line, ruleGPTBotAll.rule, ruleGPTBotAll.line)
		}
		r = got.Results[1]
		if !r.Allowed {
			t.Error("/robots.txt: disallowed, want allowed")
		}
		if r.Rule != "" || r.Line != 0 {
			t.Errorf("/robots.txt: rule %q on line %d, want none", r.Rule, r.Line)
		}
	})

	t.Run("usage errors", func(t *testing.T) {
		t.Parallel()
		for _, args := range [][]string{
			{"robots", "check", "--agent", "GPTBot", "/"},
			{"robots", "check", "--file", robotsPath, "/"},
			{"robots", "check", "--file", robotsPath, "--agent", "GPTBot"},
			{"robots", "check", "--file", robotsPath, "--agent", "GPTBot", "--frobnicate", "/"},
			{"robots", "check", "--file", filepath.Join(site, "missing.txt"), "--agent", "GPTBot", "/"},
			{"robots", "frobnicate"},
		} {
			code, out, errOut := runCaddyCmd(t, "", args...)
			if code != 2 {
				t.Errorf("%v: exit %d, want 2\nstdout:\n%s\nstderr:\n%s", args[1:], code, out, errOut)
			}
			if strings.TrimSpace(errOut) == "" {
				t.Errorf("%v: nothing on stderr", args[1:])
			}
		}
	})
}

func TestCLILint(t *testing.T) {
	t.Parallel()
	broken := filepath.Join("integration", "testdata", "cli", "broken-robots.txt")
	code, out, errOut := runCaddyCmd(t, "", "robots", "lint", broken)
	if code != 1 {
		t.Errorf("broken robots.txt: exit %d, want 1\n%s%s", code, out, errOut)
	}
	for _, re := range []string{
		`(?m)^` + regexp.QuoteMeta(broken) + `:4: warning: .*Disalow`,
		`(?m)^` + regexp.QuoteMeta(broken) + `:5: error: .*private/`,
		`(?m)^` + regexp.QuoteMeta(broken) + `:6: warning: .*soon`,
		`(?m)^` + regexp.QuoteMeta(broken) + `:7: warning: .*sitemap`,
		`(?m)^` + regexp.QuoteMeta(broken) + `: 2 groups, 3 rules, 1 sitemap, 1 agent named \(GPTBot\); 1 error, 3 warnings`,
	} {
		if !regexp.MustCompile(re).MatchString(out) {
			t.Errorf("lint output does not match %s:\n%s", re, out)
		}
	}

	code, out, errOut = runCaddyCmd(t, "", "robots", "lint", "examples/site/robots.txt")
	if code != 0 {
		t.Errorf("demo robots.txt: exit %d, want 0\n%s%s", code, out, errOut)
	}
	for _, w := range []string{"examples/site/robots.txt: 3 groups, 5 rules, 1 sitemap, 4 agents named", "0 errors"} {
		if !strings.Contains(out, w) {
			t.Errorf("demo robots.txt: output lacks %q:\n%s", w, out)
		}
	}

	code, out, _ = runCaddyStdin(t, []byte("<html><body>404</body></html>\n"), "robots", "lint", "--json", "-")
	var got struct {
		File        string
		Errors      int
		Diagnostics []struct {
			Line     int
			Severity string
			Kind     string
		}
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("lint --json: %v\n%s", err, out)
	}
	if code != 1 {
		t.Errorf("HTML page as robots.txt: exit %d, want 1", code)
	}
	if got.File != "<stdin>" {
		t.Errorf("HTML page as robots.txt: file %q, want <stdin>", got.File)
	}
	if got.Errors < 1 {
		t.Errorf("HTML page as robots.txt: %d errors, want at least 1", got.Errors)
	}
	if len(got.Diagnostics) == 0 {
		t.Error("HTML page as robots.txt: no diagnostics")
	} else if k := got.Diagnostics[0].Kind; k != "not-robots-txt" {
		t.Errorf("HTML page as robots.txt: first diagnostic %q, want not-robots-txt", k)
	}

	if code, _, errOut := runCaddyCmd(t, "", "robots", "lint"); code != 2 || errOut == "" {
		t.Errorf("lint without a file: exit %d, want 2", code)
	}
}

// makeAccessLog runs Caddy on the test site in enforce mode with a JSON
// access log, sends bot and browser requests, and returns the log's path
// once every request is in it.
func makeAccessLog(t *testing.T) string {
	t.Helper()
	inst := startCaddy(t, `http://127.0.0.1:{{port}} {
	root * {{dir}}/site
	robots_txt {
		`+verifiedHere+`
	}
	file_server
	log {
		output file {{dir}}/access.log
		format json
	}
}
`, withTestSite)
	requests := []struct{ path, ua string }{
		{"/robots.txt", testfixtures.UAGPTBot},
		{"/about.html", testfixtures.UAGPTBot},
		{"/index.html", testfixtures.UAGPTBot},
		{"/drafts/d.html", testfixtures.UAGooglebot},
		{"/drafts/d.html", testfixtures.UAGooglebotMobile},
		{"/index.html", testfixtures.UAGooglebot},
		{"/private/x.html", testfixtures.UAPythonRequests},
		{"/private/deep/y.js", testfixtures.UAPythonRequests},
		{"/private/ok.html", testfixtures.UAPythonRequests},
		{"/about.html", testfixtures.UAAhrefs},
		{"/private/x.html", testfixtures.UAChrome},
		{"/about.html", testfixtures.UAFirefox},
		{"/robots.txt", testfixtures.UASafari},
	}
	for _, r := range requests {
		inst.get(t, r.path, r.ua)
	}
	path := filepath.Join(inst.dir, "access.log")
	waitAccessLog(t, path, len(requests), 10*time.Second)
	return path
}

// reportJSON is the part of the report's JSON these tests look at.
type reportJSON struct {
	Schema        string `json:"schema"`
	Requests      int    `json:"requests"`
	HumanRequests int    `json:"human_requests"`
	BotRequests   int    `json:"bot_requests"`
	Violations    int    `json:"violations"`
	Blocked       int    `json:"blocked"`
	Skipped       struct {
		Malformed int `json:"malformed"`
	} `json:"skipped"`
	Bots []struct {
		Bot              string   `json:"bot"`
		Requests         int      `json:"requests"`
		Violations       int      `json:"violations"`
		Blocked          int      `json:"blocked"`
		RobotsTxtFetches int      `json:"robots_txt_fetches"`
		FetchedRobotsTxt bool     `json:"fetched_robots_txt"`
		AfterFetch       *float64 `json:"after_fetch_fraction"`
		TopRules         []struct {
			Rule  string `json:"rule"`
			Line  int    `json:"line"`
			Count int    `json:"count"`
		} `json:"top_rules"`
		ClientIPs int `json:"client_ips"`
	} `json:"bots"`
	Timeline struct {
		Buckets int `json:"buckets"`
		Series  []struct {
			Bot        string  `json:"bot"`
			Requests   []int64 `json:"requests"`
			Violations []int64 `json:"violations"`
		} `json:"series"`
	} `json:"timeline"`
}

func TestCLIReport(t *testing.T) {
	t.Parallel()
	logPath := makeAccessLog(t)

	t.Run("json", func(t *testing.T) {
		code, out, errOut := runCaddyCmd(t, "", "robots", "report", "--format", "json", logPath)
		if code != 0 {
			t.Fatalf("exit %d\n%s", code, errOut)
		}
		var r reportJSON
		if err := json.Unmarshal([]byte(out), &r); err != nil {
			t.Fatalf("not JSON: %v\n%s", err, out)
		}
		if r.Schema != "caddy-robots-txt/report/v1" {
			t.Errorf("schema %q, want caddy-robots-txt/report/v1", r.Schema)
		}
		for _, c := range []struct {
			name      string
			got, want int
		}{
			{"bot requests", r.BotRequests, 10},
			{"violations", r.Violations, 6},
			{"blocked", r.Blocked, 6},
			{"malformed lines", r.Skipped.Malformed, 0},
		} {
			if c.got != c.want {
				t.Errorf("totals: %s = %d, want %d", c.name, c.got, c.want)
			}
		}
		if r.HumanRequests < 3 {
			t.Errorf("totals: human requests = %d, want at least 3", r.HumanRequests)
		}
		bots := map[string]int{}
		for i, b := range r.Bots {
			bots[b.Bot] = i
		}
		gpt, ok := bots["GPTBot"]
		if !ok {
			t.Fatalf("no GPTBot in %+v", r.Bots)
		}
		b := r.Bots[gpt]
		for _, c := range []struct {
			name      string
			got, want int
		}{
			{"requests", b.Requests, 3},
			{"violations", b.Violations, 2},
			{"blocked", b.Blocked, 2},
			{"robots.txt fetches", b.RobotsTxtFetches, 1},
			{"client IPs", b.ClientIPs, 1},
		} {
			if c.got != c.want {
				t.Errorf("GPTBot: %s = %d, want %d", c.name, c.got, c.want)
			}
		}
		if !b.FetchedRobotsTxt {
			t.Error("GPTBot: fetched robots.txt = false, want true")
		}
		if len(b.TopRules) != 1 {
			t.Errorf("GPTBot: top rules %+v, want one", b.TopRules)
		} else {
			tr := b.TopRules[0]
			if tr.Rule != ruleGPTBotAll.rule {
				t.Errorf("GPTBot: top rule %q, want %q", tr.Rule, ruleGPTBotAll.rule)
			}
			if tr.Line != ruleGPTBotAll.line {
				t.Errorf("GPTBot: top rule on line %d, want %d", tr.Line, ruleGPTBotAll.line)
			}
			if tr.Count != 2 {
				t.Errorf("GPTBot: top rule broken %d times, want 2", tr.Count)
			}
		}
		gb, ok := bots["Googlebot"]
		if !ok {
			t.Fatalf("no Googlebot in %+v", r.Bots)
		}
		b = r.Bots[gb]
		if b.Requests != 3 {
			t.Errorf("Googlebot: requests = %d, want 3", b.Requests)
		}
		if b.Violations != 2 {
			t.Errorf("Googlebot: violations = %d, want 2", b.Violations)
		}
		if b.FetchedRobotsTxt {
			t.Error("Googlebot: fetched robots.txt = true, want false")
		}
		if len(b.TopRules) != 1 {
			t.Errorf("Googlebot: top rules %+v, want one", b.TopRules)
		} else if l := b.TopRules[0].Line; l != ruleGooglebotDraf.line {
			t.Errorf("Googlebot: top rule on line %d, want %d", l, ruleGooglebotDraf.line)
		}
		// When the log says whether a client had fetched robots.txt
		// (the optional "fetched" field), GPTBot had and Googlebot had not.
		if f := r.Bots[gpt].AfterFetch; f != nil && *f != 1 {
			t.Errorf("GPTBot: after_fetch_fraction %v, want 1", *f)
		}
		if f := r.Bots[gb].AfterFetch; f != nil && *f != 0 {
			t.Errorf("Googlebot: after_fetch_fraction %v, want 0", *f)
		}
		// Sorted by violations, then requests.
		for i := 1; i < len(r.Bots); i++ {
			a, b := r.Bots[i-1], r.Bots[i]
			if a.Violations < b.Violations || (a.Violations == b.Violations && a.Requests < b.Requests) {
				t.Errorf("bots out of order: %s (%d, %d) before %s (%d, %d)", a.Bot, a.Violations, a.Requests, b.Bot, b.Violations, b.Requests)
			}
		}
	})

	t.Run("table", func(t *testing.T) {
		code, out, errOut := runCaddyCmd(t, "", "robots", "report", logPath)
		if code != 0 {
			t.Fatalf("exit %d\n%s", code, errOut)
		}
		for _, re := range []string{
			`(?m)^BOT +REQS +VIOL +BLOCK +GRACE +FETCH +LAST FETCH +AFTER +IPS +LAST SEEN$`,
			// AFTER is "-" when the log has no "fetched" fields.
			`(?m)^GPTBot +3 +2 +2 +0 +1 +\S+ +(100%|-) +1 +\S+$`,
			`(?m)^Googlebot +3 +2 +2 +0 +0 +never +(0%|-) +1 +\S+$`,
			`(?m)^  2  ` + regexp.QuoteMeta(fmt.Sprintf("%s (line %d)", ruleGPTBotAll.rule, ruleGPTBotAll.line)) + `$`,
			`requests: 10 from \d+ bots, \d+ from people; 6 violations \(6 blocked\)`,
		} {
			if !regexp.MustCompile(re).MatchString(out) {
				t.Errorf("table does not match %s:\n%s", re, out)
			}
		}
		for _, l := range strings.Split(out, "\n") {
			if n := len([]rune(l)); n > 100 {
				t.Errorf("line of %d columns: %q", n, l)
			}
		}
	})

	t.Run("gzip on stdin", func(t *testing.T) {
		raw, err := os.ReadFile(logPath)
		if err != nil {
			t.Fatal(err)
		}
		var z bytes.Buffer
		zw := gzip.NewWriter(&z)
		zw.Write(raw)
		zw.Write([]byte("this line is not JSON\n"))
		zw.Close()
		code, out, errOut := runCaddyStdin(t, z.Bytes(), "robots", "report", "--format", "json", "--since", "1h")
		if code != 0 {
			t.Fatalf("exit %d\n%s", code, errOut)
		}
		var r reportJSON
		if err := json.Unmarshal([]byte(out), &r); err != nil {
			t.Fatalf("not JSON: %v\n%s", err, out)
		}
		if r.BotRequests != 10 || r.Skipped.Malformed != 1 {
			t.Errorf("bot requests %d, malformed %d; want 10, 1", r.BotRequests, r.Skipped.Malformed)
		}
		if !strings.Contains(errOut, "skipped 1 malformed line") {
			t.Errorf("stderr does not count the malformed line: %q", errOut)
		}
	})

	t.Run("html", func(t *testing.T) {
		out := filepath.Join(t.TempDir(), "report.html")
		code, stdout, errOut := runCaddyCmd(t, "", "robots", "report", "--format", "html", "-o", out, logPath)
		if code != 0 || stdout != "" {
			t.Fatalf("exit %d, stdout %q\n%s", code, stdout, errOut)
		}
		page, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		for _, w := range []string{"<!DOCTYPE html>", `id="report-data"`, `<svg id="chart"`, "GPTBot", ruleGPTBotAll.rule} {
			if !bytes.Contains(page, []byte(w)) {
				t.Errorf("page lacks %q", w)
			}
		}
		for _, bad := range []string{`src="http`, `href="http`, "<link", "@import", "url("} {
			if bytes.Contains(page, []byte(bad)) {
				t.Errorf("page refers to something outside itself: %q", bad)
			}
		}
	})

	t.Run("usage errors", func(t *testing.T) {
		for _, args := range [][]string{
			{"robots", "report", "--format", "pdf", logPath},
			{"robots", "report", "--since", "last tuesday", logPath},
			{"robots", "report", logPath + ".missing"},
		} {
			if code, _, errOut := runCaddyCmd(t, "", args...); code != 2 || errOut == "" {
				t.Errorf("%v: exit %d, want 2", args[1:], code)
			}
		}
	})
}

// chromiumPath finds a Chromium; without one the browser test is skipped
// locally and fails in CI (CI=true), where it must run.
func chromiumPath(t *testing.T) string {
	t.Helper()
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv("CI") == "true" {
		t.Fatal("chromium is not installed, and CI=true: install it (apt-get install -y chromium)")
	}
	t.Skip("chromium is not installed (apt-get install -y chromium)")
	return ""
}

// runChromium runs headless Chromium with args in its own process group,
// bounded by timeout, and kills the whole group (renderer and GPU
// processes too) when it is done.
func runChromium(t *testing.T, bin string, timeout time.Duration, args ...string) (stdout, stderr string) {
	t.Helper()
	home := t.TempDir()
	base := []string{
		"--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
		"--disable-component-update", "--disable-sync", "--no-first-run", "--no-default-browser-check",
		"--disable-extensions", "--user-data-dir=" + filepath.Join(home, "profile"),
		"--enable-logging=stderr", "--v=0",
	}
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, append(base, args...)...)
	cmd.Env = append(os.Environ(), "HOME="+home, "XDG_CONFIG_HOME="+filepath.Join(home, "config"), "XDG_CACHE_HOME="+filepath.Join(home, "cache"))
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 5 * time.Second
	var so, se bytes.Buffer
	cmd.Stdout, cmd.Stderr = &so, &se
	err := cmd.Start()
	if err != nil {
		t.Fatalf("start chromium: %v", err)
	}
	pgid := cmd.Process.Pid
	defer func() { _ = syscall.Kill(-pgid, syscall.SIGKILL) }() // leftovers of the group, if any
	err = cmd.Wait()
	if ctx.Err() != nil {
		t.Fatalf("chromium %v did not finish within %v\nstderr:\n%s", args, timeout, se.String())
	}
	if err != nil {
		t.Fatalf("chromium %v: %v\nstderr:\n%s", args, err, se.String())
	}
	return so.String(), se.String()
}

// consoleProblems returns the lines of Chromium's log that report a
// console message or an uncaught error. The page logs nothing, so any
// console message (this Chromium logs every level as INFO:CONSOLE) is
// a problem: a script error, or a blocked load.
func consoleProblems(stderr string) []string {
	var out []string
	for _, l := range strings.Split(stderr, "\n") {
		if strings.Contains(l, "CONSOLE") || strings.Contains(l, "Uncaught") {
			out = append(out, l)
		}
	}
	return out
}

// TestCLIReportHTMLInBrowser renders the HTML report of a real access log
// in headless Chromium: the script must draw the chart, with one bar per
// (bot, time bucket) that has requests, and log no error.
func TestCLIReportHTMLInBrowser(t *testing.T) {
	t.Parallel()
	chromium := chromiumPath(t)
	logPath := makeAccessLog(t)
	dir := t.TempDir()
	page := filepath.Join(dir, "report.html")
	if code, _, errOut := runCaddyCmd(t, "", "robots", "report", "--format", "html", "-o", page, logPath); code != 0 {
		t.Fatalf("report: exit %d\n%s", code, errOut)
	}
	html, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?s)<script type="application/json" id="report-data">(.*?)</script>`).FindSubmatch(html)
	if m == nil {
		t.Fatal("no embedded report data")
	}
	var data reportJSON
	if err := json.Unmarshal(m[1], &data); err != nil {
		t.Fatal(err)
	}
	wantBars, wantDots := 0, 0
	for i := 0; i < data.Timeline.Buckets; i++ {
		viol := int64(0)
		for _, s := range data.Timeline.Series {
			if s.Requests[i] > 0 {
				wantBars++
			}
			viol += s.Violations[i]
		}
		if viol > 0 {
			wantDots++
		}
	}
	if wantBars == 0 || len(data.Timeline.Series) < 4 {
		t.Fatalf("the report has no chart data: %+v", data.Timeline)
	}

	url := "file://" + page
	start := time.Now()
	dom, stderr := runChromium(t, chromium, 30*time.Second, "--virtual-time-budget=2000", "--dump-dom", url)
	t.Logf("dump-dom took %v", time.Since(start).Round(time.Millisecond))
	if p := consoleProblems(stderr); len(p) > 0 {
		t.Errorf("console messages while rendering the report:\n%s", strings.Join(p, "\n"))
	}
	if !strings.Contains(dom, `data-chart="drawn"`) {
		t.Errorf("the chart script did not finish (no data-chart=\"drawn\" on body)")
	}
	svg := regexp.MustCompile(`(?s)<svg id="chart".*?</svg>`).FindString(dom)
	if svg == "" {
		t.Fatalf("no chart SVG in the rendered DOM:\n%s", dom)
	}
	if got := strings.Count(svg, `<rect class="bar"`); got != wantBars {
		t.Errorf("chart has %d bars, want %d (one per bot and bucket with requests)", got, wantBars)
	}
	if got := strings.Count(svg, `<circle class="viol-dot"`); got != wantDots {
		t.Errorf("chart has %d violation dots, want %d", got, wantDots)
	}
	if !strings.Contains(svg, `<path class="viol-line"`) {
		t.Error("chart has no violations line")
	}
	for _, s := range data.Timeline.Series {
		if !strings.Contains(dom, ">"+s.Bot+"<") {
			t.Errorf("legend or selector lacks %q", s.Bot)
		}
	}

	shot := filepath.Join(dir, "report.png")
	start = time.Now()
	_, stderr = runChromium(t, chromium, 30*time.Second, "--hide-scrollbars", "--window-size=1280,1024", "--screenshot="+shot, url)
	t.Logf("screenshot took %v", time.Since(start).Round(time.Millisecond))
	if p := consoleProblems(stderr); len(p) > 0 {
		t.Errorf("console messages while taking the screenshot:\n%s", strings.Join(p, "\n"))
	}
	f, err := os.Open(shot)
	if err != nil {
		t.Fatalf("no screenshot: %v", err)
	}
	defer f.Close()
	st, _ := f.Stat()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatalf("screenshot is not a PNG: %v", err)
	}
	colors := distinctColors(img, 1000)
	t.Logf("screenshot %s: %d bytes, %v, %d+ colours", shot, st.Size(), img.Bounds().Size(), colors)
	if st.Size() < 20<<10 {
		t.Errorf("screenshot looks empty: %d bytes, want at least %d", st.Size(), 20<<10)
	}
	if w := img.Bounds().Dx(); w < 1000 {
		t.Errorf("screenshot looks empty: %d pixels wide, want at least 1000", w)
	}
	if colors < 20 {
		t.Errorf("screenshot looks empty: %d colours, want at least 20", colors)
	}
}

// distinctColors counts the distinct colours of img, up to limit.
func distinctColors(img image.Image, limit int) int {
	seen := map[[4]uint32]bool{}
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y += 2 {
		for x := b.Min.X; x < b.Max.X; x += 2 {
			r, g, bl, a := img.At(x, y).RGBA()
			seen[[4]uint32{r, g, bl, a}] = true
			if len(seen) >= limit {
				return limit
			}
		}
	}
	return len(seen)
}

// TestCLICheckConfig: check --config judges with the file, the bots and
// humans entries and the mode of a site's handler, as the running site
// does; the same requests are sent to a Caddy started on that config.
func TestCLICheckConfig(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	site := writeTestSite(t, dir, true)
	port := freePort(t)
	caddyfile := filepath.Join(dir, "Caddyfile")
	writeFile(t, caddyfile, fmt.Sprintf(`{
	admin off
	auto_https off
}
http://a.test:%[1]d {
	root * %[2]s
	robots_txt {
		`+verifiedHere+`
		bots MyCrawler
		humans UptimeRobot
	}
	file_server
}
http://b.test:%[1]d {
	robots_txt {
		`+verifiedHere+`
		inline <<TXT
			User-agent: *
			Disallow: /b-only/
			TXT
		mode monitor
	}
	respond "b"
}
`, port, site))

	type want struct {
		code int
		out  []string
	}
	for _, tc := range []struct {
		name string
		args []string
		want want
	}{
		{"operator's bots entry names the bot", []string{"--site", "a.test", "--agent", "MyCrawler/2.0 (+https://example.com)", "/private/x.html"},
			want{1, []string{"/private/x.html: disallowed", "disallow: /private/ (line 2)", `bot: logged as "MyCrawler"`}}},
		{"humans entry is not held", []string{"--site", "a.test", "--agent", "UptimeRobot/2.0", "/private/x.html"},
			want{0, []string{"/private/x.html: not held to robots.txt"}}},
		{"the other site's inline file and mode", []string{"--site", "b.test", "--agent", "curl/8", "/b-only/x"},
			want{1, []string{"/b-only/x: disallowed (monitor mode: let through and logged as a violation)"}}},
		{"several sites need --site", []string{"--agent", "curl/8", "/"},
			want{2, []string{"has 2 robots_txt handlers", "a.test", "b.test"}}},
		{"an unknown site", []string{"--site", "c.test", "--agent", "curl/8", "/"},
			want{2, []string{`no robots_txt handler for site "c.test"`}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			args := append([]string{"robots", "check", "--config", caddyfile}, tc.args...)
			code, out, errOut := runCaddyCmd(t, "", args...)
			if code != tc.want.code {
				t.Errorf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", code, tc.want.code, out, errOut)
			}
			for _, w := range tc.want.out {
				if !strings.Contains(out+errOut, w) {
					t.Errorf("output lacks %q:\n%s%s", w, out, errOut)
				}
			}
		})
	}
}

// TestCLICheckConfigPorts: sites told apart only by their ports (no host
// in their addresses) are picked by the port of --site, every time.
func TestCLICheckConfigPorts(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	caddyfile := filepath.Join(dir, "Caddyfile")
	writeFile(t, caddyfile, `{
	admin off
	auto_https off
}
http://:18931 {
	robots_txt {
		`+verifiedHere+`
		inline <<TXT
			User-agent: *
			Disallow: /a/
			TXT
	}
	respond "a"
}
http://:18932 {
	robots_txt {
		`+verifiedHere+`
		inline <<TXT
			User-agent: *
			Disallow: /b/
			TXT
		mode monitor
	}
	respond "b"
}
`)
	for _, tc := range []struct {
		site string
		code int
		out  string
	}{
		{"localhost:18932", 1, "/b/x: disallowed (monitor mode"},
		{"localhost:18931", 0, "/b/x: allowed"},
		// Both sites take any host: without a port, which one is meant
		// is a guess, so it is refused, not answered for the first.
		{"localhost", 2, "name the port too"},
		{"www.example.com", 2, "name the port too"},
	} {
		for range 4 { // the servers' order in the config is a map's
			code, out, errOut := runCaddyCmd(t, "", "robots", "check", "--config", caddyfile, "--site", tc.site, "--agent", "curl/8", "/b/x")
			if code != tc.code || !strings.Contains(out+errOut, tc.out) {
				t.Fatalf("--site %s: exit %d, output %q%q; want %d and %q", tc.site, code, out, errOut, tc.code, tc.out)
			}
		}
	}
}

// TestCLICheckConfigHandlerAnsweredFirst: a robots_txt placed after a
// handler that answers every request never runs; the running Caddy shows
// it (a bot gets what robots.txt disallows), caddy validate cannot say so,
// and check --config does. The same handler placed first draws no warning.
func TestCLICheckConfigHandlerAnsweredFirst(t *testing.T) {
	t.Parallel()
	auth := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {}))
	t.Cleanup(auth.Close)
	inst := newInstance(t)
	const rules = `inline <<TXT
				User-agent: *
				Disallow: /
				TXT`
	inst.start(`http://127.0.0.1:{{port}} {
	route {
		respond "answered"
		robots_txt {
			` + rules + `
		}
	}
}
http://localhost:{{port}} {
	robots_txt {
		` + rules + `
	}
	respond "answered"
}
http://127.0.0.2:{{port}} {
	route {
		forward_auth ` + strings.TrimPrefix(auth.URL, "http://") + ` {
			uri /auth
		}
		robots_txt {
			` + rules + `
		}
		respond "app"
	}
}
http://127.0.0.3:{{port}} {
	route {
		reverse_proxy ` + strings.TrimPrefix(auth.URL, "http://") + ` {
			@down status 502 503
			handle_response @down {
				respond "down" 503
			}
		}
		robots_txt {
			` + rules + `
		}
	}
}
http://127.0.0.4:{{port}} {
	route {
		reverse_proxy ` + strings.TrimPrefix(auth.URL, "http://") + ` {
			@accel header X-Accel-Redirect *
			handle_response @accel {
				root * ` + inst.dir + `
				rewrite * {rp.header.X-Accel-Redirect}
				file_server
			}
		}
		robots_txt {
			` + rules + `
		}
	}
}
http://127.0.0.5:{{port}} {
	route {
		reverse_proxy ` + strings.TrimPrefix(auth.URL, "http://") + ` {
			@ok status 2xx
			handle_response @ok {
				@x path /x
				respond @x "hi"
			}
		}
		robots_txt {
			` + rules + `
		}
		respond "app"
	}
}
`)
	if resp := inst.rawGet(t, "/private", testfixtures.UACurl); resp.status != http.StatusOK || resp.body != "answered" {
		t.Fatalf("curl GET /private: status %d body %q; want 200 from respond (else the case proves nothing)", resp.status, resp.body)
	}
	config := filepath.Join(inst.dir, "Caddyfile")
	for _, tc := range []struct {
		site string
		warn bool
	}{
		{"127.0.0.1", true},
		{"localhost", false},
		// forward_auth passes a 2xx on: the handler runs after it.
		{"127.0.0.2", false},
		// A proxy whose handle_response answers answers every request.
		{"127.0.0.3", true},
		// X-Accel-Redirect: the response's routes end in file_server.
		{"127.0.0.4", true},
		// A response route that answers only /x passes the rest on.
		{"127.0.0.5", false},
	} {
		code, out, errOut := runCaddyCmd(t, "", "robots", "check", "--config", config, "--site", tc.site, "--agent", testfixtures.UACurl, "/private")
		const warning = "which answers every request first: it judges nothing"
		// A request the handler never gets is not disallowed: the
		// site answers it whatever robots.txt says.
		want := 1
		if tc.warn {
			want = 0
		}
		if code != want || strings.Contains(out, warning) != tc.warn || tc.warn != strings.Contains(out, "/private: not judged") {
			t.Errorf("--site %s: exit %d (want %d), warned %v (want %v):\n%s%s", tc.site, code, want, strings.Contains(out, warning), tc.warn, out, errOut)
		}
	}
}

// TestTrapInsideHandle: a robots_txt with a trap inside a handle block
// that does not take /robots.txt. The robots.txt clients get comes from
// file_server, without the trap's line, so the trap would catch clients
// that obey it: the handler turns it off when the configuration starts,
// with one ERROR naming the trap and the handle block's matcher, and a
// client that follows a link to the trap is not held (audit U-F2). caddy
// validate cannot see it, and check --config says so.
func TestTrapInsideHandle(t *testing.T) {
	t.Parallel()
	inst := newInstance(t)
	root := filepath.Join(inst.dir, "www")
	writeFile(t, filepath.Join(root, "robots.txt"), "User-agent: *\nDisallow: /app/private/\n")
	inst.start(`http://127.0.0.1:{{port}} {
	root * ` + root + `
	handle /app/* {
		robots_txt {
			file ` + filepath.Join(root, "robots.txt") + `
			trap /app/trap/ block
		}
		respond "app"
	}
	file_server
}
`)
	robotsTxt := inst.rawGet(t, "/robots.txt", testfixtures.UAChrome)
	if robotsTxt.status != http.StatusOK || strings.Contains(robotsTxt.body, "/app/trap/") {
		t.Fatalf("GET /robots.txt: %d %q; want 200 from file_server, without the trap (else the case proves nothing)", robotsTxt.status, robotsTxt.body)
	}
	var off []logEntry
	eventually(t, 5*time.Second, "the ERROR that turns the trap off", func() bool {
		off = off[:0]
		for _, e := range inst.logs() {
			if e.str("logger") == "http.handlers.robots_txt" && e.str("level") == "error" &&
				strings.HasPrefix(e.str("msg"), "trap off: requests for /robots.txt do not reach this handler") {
				off = append(off, e)
			}
		}
		return len(off) > 0
	})
	if len(off) != 1 || off[0].str("trap") != "/app/trap/" || off[0].str("not_taken_by") != "path /app/*" {
		t.Errorf("ERRORs turning the trap off: %v; want one, with trap /app/trap/ and not_taken_by path /app/*", off)
	}
	// A client that obeys that file may follow a link to the trap: it
	// is no trap now, and the handle block answers it...
	if resp := inst.rawGet(t, "/app/trap/x", testfixtures.UAChrome); resp.status != http.StatusOK || resp.body != "app" {
		t.Errorf("GET /app/trap/x: %d %q, want 200 \"app\": the trap is off", resp.status, resp.body)
	}
	// ...and the client is not refused afterwards.
	if resp := inst.rawGet(t, "/app/page", testfixtures.UAChrome); resp.status != http.StatusOK {
		t.Errorf("GET /app/page after the trap path: %d, want 200: the trap is off", resp.status)
	}
	config := filepath.Join(inst.dir, "Caddyfile")
	if code, out, errOut := runCaddyCmd(t, "", "validate", "--config", config); code != 0 {
		t.Fatalf("caddy validate: exit %d\n%s%s", code, out, errOut)
	}
	code, out, errOut := runCaddyCmd(t, "", "robots", "check", "--config", config, "--agent", testfixtures.UACurl, "/app/x")
	if code != 0 || !strings.Contains(out, "requests for /robots.txt never reach this handler") || !strings.Contains(out, "without the trap's Disallow line") {
		t.Errorf("check --config: exit %d, want 0 and the warning:\n%s%s", code, out, errOut)
	}
}
