package cli

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"github.com/robotsguard/caddy-robots-txt/caddymodule/fetch"
	"github.com/robotsguard/caddy-robots-txt/caddymodule/judge"
	"github.com/robotsguard/caddy-robots-txt/internal/testfixtures"
	"github.com/robotsguard/caddy-robots-txt/robots"
)

// testRobots is the robots.txt of these tests; the line numbers are part
// of the expectations. It differs from testfixtures.RobotsTxt on purpose
// (a comment line, a wildcard rule, a two-agent group and a Sitemap line,
// which the check and lint commands are tested on), so it stays here.
const testRobots = `# test robots.txt

User-agent: *
Disallow: /private/
Allow: /private/press-kit.html
Disallow: /*?sessionid=

User-agent: Googlebot
Disallow: /drafts/

User-agent: GPTBot
User-agent: ClaudeBot
Disallow: /

Sitemap: https://example.com/sitemap.xml
`

// checkResultDiffs lists, a line per field, how got differs from want.
func checkResultDiffs(got, want CheckResult) []string {
	var diffs []string
	differs := func(field string, g, w any) {
		diffs = append(diffs, fmt.Sprintf("%s = %#v, want %#v", field, g, w))
	}
	if got.Input != want.Input {
		differs("input", got.Input, want.Input)
	}
	if got.Path != want.Path {
		differs("path", got.Path, want.Path)
	}
	if got.Allowed != want.Allowed {
		differs("allowed", got.Allowed, want.Allowed)
	}
	if got.Verdict != want.Verdict {
		differs("verdict", got.Verdict, want.Verdict)
	}
	if strings.Join(got.Group, ",") != strings.Join(want.Group, ",") {
		differs("group", got.Group, want.Group)
	}
	if got.Agent != want.Agent {
		differs("agent", got.Agent, want.Agent)
	}
	if got.Rule != want.Rule {
		differs("rule", got.Rule, want.Rule)
	}
	if got.Line != want.Line {
		differs("line", got.Line, want.Line)
	}
	return diffs
}

// runCmd runs `robots args...` through the same cobra setup as `caddy
// robots`, and returns its exit status as caddycmd.Main would set it.
func runCmd(t *testing.T, stdin string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	cmd := &cobra.Command{Use: "robots"}
	setupRobots(cmd)
	var o, e bytes.Buffer
	cmd.SetArgs(args)
	cmd.SetIn(strings.NewReader(stdin))
	cmd.SetOut(&o)
	cmd.SetErr(&e)
	err := cmd.Execute()
	switch {
	case err == nil:
		code = 0
	case err == errExit1:
		code = 1
	case strings.HasPrefix(err.Error(), "exiting with status "):
		code, _ = strconv.Atoi(strings.TrimPrefix(err.Error(), "exiting with status "))
	default:
		// Any other error makes caddycmd.Main exit 1, but the commands
		// should never return one.
		t.Fatalf("robots %v: unexpected error %v\nstderr: %s", args, err, e.String())
	}
	return code, o.String(), e.String()
}

func writeTemp(t *testing.T, name, content string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestCheckOutput(t *testing.T) {
	robotsFile := writeTemp(t, "robots.txt", testRobots)
	tests := []struct {
		name     string
		agent    string
		paths    []string
		stdin    bool
		wantCode int
		want     []string // substrings of stdout, in order
		notWant  []string
	}{
		{
			name: "GPTBot header, disallowed", agent: testfixtures.UAGPTBot, paths: []string{"/about.html"}, wantCode: 1,
			want: []string{"/about.html: disallowed", "group: GPTBot, ClaudeBot", "agent: GPTBot", "rule:  disallow: / (line 13)"},
		},
		{
			name: "bare product token", agent: "claudebot", paths: []string{"/x"}, wantCode: 1,
			want: []string{"/x: disallowed", "agent: ClaudeBot", "(line 13)"},
		},
		{
			name: "Googlebot allowed, no rule", agent: testfixtures.UAGooglebot, paths: []string{"/private/x"}, wantCode: 0,
			want: []string{"/private/x: allowed", "group: Googlebot", "agent: Googlebot", "no rule matched"},
		},
		{
			name: "catch-all group, longest rule wins", agent: testfixtures.UACurl, paths: []string{"/private/press-kit.html", "/private/a"}, wantCode: 1,
			want: []string{
				"/private/press-kit.html: allowed", "group: *", "agent: none", "allow: /private/press-kit.html (line 5)",
				"/private/a: disallowed", "disallow: /private/ (line 4)",
			},
		},
		{
			name: "URLs and dot-segments", agent: testfixtures.UACurl, paths: []string{"https://example.com/public/../private/x?a=1#frag", "https://example.com/a?sessionid=3"}, wantCode: 1,
			want: []string{
				"https://example.com/public/../private/x?a=1#frag (judged as /private/x?a=1): disallowed",
				"https://example.com/a?sessionid=3 (judged as /a?sessionid=3): disallowed", "disallow: /*?sessionid= (line 6)",
			},
		},
		{
			name: "scheme in capitals", agent: testfixtures.UACurl, paths: []string{"HTTPS://Example.com/private/a"}, wantCode: 1,
			want: []string{"HTTPS://Example.com/private/a (judged as /private/a): disallowed"},
		},
		{
			name: "browser note", agent: testfixtures.UAFirefox, paths: []string{"/index.html"}, wantCode: 0,
			want: []string{"/index.html: not held to robots.txt", "looks like a person's browser"},
		},
		{
			// A person is never refused, even where a bot would be.
			name: "browser on a disallowed path", agent: testfixtures.UAFirefox, paths: []string{"/private/x"}, wantCode: 0,
			want:    []string{"/private/x: not held to robots.txt (a bot would be disallowed)", "rule:  disallow: /private/ (line 4)", "looks like a person's browser"},
			notWant: []string{": disallowed"},
		},
		{
			name: "robots.txt itself always allowed", agent: "GPTBot", paths: []string{"/robots.txt"}, wantCode: 0,
			want: []string{"/robots.txt: allowed", "no rule matched"}, notWant: []string{"browser"},
		},
		{
			name: "file from stdin", agent: "GPTBot", paths: []string{"/"}, stdin: true, wantCode: 1,
			want: []string{"/: disallowed", "(line 13)"},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			file, stdin := robotsFile, ""
			if tc.stdin {
				file, stdin = "-", testRobots
			}
			args := append([]string{"check", "--file", file, "--agent", tc.agent}, tc.paths...)
			code, out, errOut := runCmd(t, stdin, args...)
			if code != tc.wantCode {
				t.Errorf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", code, tc.wantCode, out, errOut)
			}
			rest := out
			for _, w := range tc.want {
				i := strings.Index(rest, w)
				if i < 0 {
					t.Errorf("stdout lacks %q (in order)\nstdout:\n%s", w, out)
					continue
				}
				rest = rest[i+len(w):]
			}
			for _, w := range tc.notWant {
				if strings.Contains(out, w) {
					t.Errorf("stdout has %q\nstdout:\n%s", w, out)
				}
			}
		})
	}
}

func TestCheckJSON(t *testing.T) {
	robotsFile := writeTemp(t, "robots.txt", testRobots)
	code, out, _ := runCmd(t, "", "check", "--json", "--file", robotsFile, "--agent", "curl/8", "/private/a", "/ok", "/private/press-kit.html")
	if code != 1 {
		t.Errorf("exit %d, want 1", code)
	}
	var got CheckOutput
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, out)
	}
	ok := true
	if got.File != robotsFile {
		t.Errorf("file %q, want %q", got.File, robotsFile)
		ok = false
	}
	if got.UserAgent != "curl/8" {
		t.Errorf("user agent %q, want %q", got.UserAgent, "curl/8")
		ok = false
	}
	if !got.Bot {
		t.Error("bot = false, want true")
		ok = false
	}
	if len(got.Results) != 3 {
		t.Errorf("%d results, want 3: %+v", len(got.Results), got.Results)
		ok = false
	}
	if !ok {
		t.FailNow()
	}
	want := []CheckResult{
		{Input: "/private/a", Path: "/private/a", Allowed: false, Verdict: "disallowed", Group: []string{"*"}, Rule: "disallow: /private/", Line: 4},
		{Input: "/ok", Path: "/ok", Allowed: true, Verdict: "allowed", Group: []string{"*"}},
		{Input: "/private/press-kit.html", Path: "/private/press-kit.html", Allowed: true, Verdict: "allowed", Group: []string{"*"}, Rule: "allow: /private/press-kit.html", Line: 5},
	}
	for i, w := range want {
		g := got.Results[i]
		for _, d := range checkResultDiffs(g, w) {
			t.Errorf("result %d (%s): %s", i, w.Input, d)
		}
	}
	// Every documented key is present, group null when there is no group.
	var raw map[string]any
	_ = json.Unmarshal([]byte(out), &raw)
	for _, k := range []string{"file", "user_agent", "bot", "results"} {
		if _, ok := raw[k]; !ok {
			t.Errorf("JSON lacks %q", k)
		}
	}
	res := raw["results"].([]any)[0].(map[string]any)
	for _, k := range []string{"input", "path", "allowed", "verdict", "group", "agent", "rule", "line"} {
		if _, ok := res[k]; !ok {
			t.Errorf("result lacks %q", k)
		}
	}

	noGroups := writeTemp(t, "robots.txt", "User-agent: Googlebot\nDisallow: /x\n")
	code, out, _ = runCmd(t, "", "check", "--json", "--file", noGroups, "--agent", "curl/8", "/x")
	if code != 0 {
		t.Errorf("no group for curl: exit %d, want 0", code)
	}
	if !strings.Contains(out, `"group": null`) {
		t.Errorf("no group: want \"group\": null in\n%s", out)
	}
	code, out, _ = runCmd(t, "", "check", "--file", noGroups, "--agent", "curl/8", "/x")
	if code != 0 || !strings.Contains(out, "group: none") {
		t.Errorf("no group: exit %d, output\n%s", code, out)
	}
}

func TestCheckUsageErrors(t *testing.T) {
	robotsFile := writeTemp(t, "robots.txt", testRobots)
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"no file", []string{"check", "--agent", "x", "/"}, "--file is required"},
		{"no agent", []string{"check", "--file", robotsFile, "/"}, "--agent is required"},
		{"no path", []string{"check", "--file", robotsFile, "--agent", "x"}, "at least one path"},
		{"unknown flag", []string{"check", "--bogus", "--file", robotsFile}, "unknown flag: --bogus"},
		{"missing file", []string{"check", "--file", filepath.Join(t.TempDir(), "nope.txt"), "--agent", "x", "/"}, "no such file"},
		{"directory", []string{"check", "--file", t.TempDir(), "--agent", "x", "/"}, "is a directory"},
		{"unknown command", []string{"frobnicate"}, `unknown command "frobnicate"`},
		// Neither a path nor a URL: read as a URL, "x" was the host x
		// and "private/page" the host private; both were judged as
		// paths nobody asked about.
		{"bare word", []string{"check", "--file", robotsFile, "--agent", "x", "x"}, `"x" is neither a path nor a URL: a path starts with "/" (/x), a URL with its scheme (https://x)`},
		{"relative path", []string{"check", "--file", robotsFile, "--agent", "x", "private/page"}, "(/private/page)"},
		{"host and path", []string{"check", "--file", robotsFile, "--agent", "x", "example.com/private/"}, "(https://example.com/private/)"},
		{"scheme without //", []string{"check", "--file", robotsFile, "--agent", "x", "localhost:8080/private/"}, "neither a path nor a URL"},
		{"another scheme", []string{"check", "--file", robotsFile, "--agent", "x", "ftp://example.com/private/"}, `"ftp://example.com/private/" is a ftp URL; the handler judges http and https requests`},
		{"no host", []string{"check", "--file", robotsFile, "--agent", "x", "http://"}, `"http://" is a URL with no host`},
		{"no host, a path", []string{"check", "--file", robotsFile, "--agent", "x", "https:///private/"}, "is a URL with no host"},
		{"one bad among good", []string{"check", "--file", robotsFile, "--agent", "x", "/ok", "private/x"}, `"private/x" is neither`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errOut := runCmd(t, "", tc.args...)
			if code != ExitUsage {
				t.Errorf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", code, ExitUsage, out, errOut)
			}
			if out != "" {
				t.Errorf("a usage error judges nothing; stdout:\n%s", out)
			}
			if !strings.Contains(errOut, tc.want) {
				t.Errorf("stderr lacks %q:\n%s", tc.want, errOut)
			}
		})
	}
	// An empty --agent is allowed: a request without a User-Agent header.
	if code, out, errOut := runCmd(t, "", "check", "--file", robotsFile, "--agent", "", "/private/x"); code != 1 {
		t.Errorf("empty agent: exit %d, want 1\n%s%s", code, out, errOut)
	}
	// No subcommand: help, exit 0.
	code, out, _ := runCmd(t, "")
	if code != 0 {
		t.Errorf("robots alone: exit %d, want 0", code)
	}
	for _, w := range []string{"check", "report"} {
		if !strings.Contains(out, w) {
			t.Errorf("robots alone: output lacks %q:\n%s", w, out)
		}
	}
}

func TestLint(t *testing.T) {
	tests := []struct {
		name     string
		body     string
		json     bool
		wantCode int
		want     []string
	}{
		{
			name: "clean file", body: testRobots, wantCode: 0,
			want: []string{
				// Googlebot's group does not inherit the * rules.
				`FILE:8: info: the group of Googlebot lacks "disallow: /private/", which the * group has (line 4)`,
				`FILE:8: info: the group of Googlebot lacks "disallow: /*?sessionid=", which the * group has (line 6); a named group does not inherit * rules, so Googlebot may fetch what /*?sessionid= matches`,
				"FILE: 3 groups, 5 rules, 1 sitemap, 3 agents named (Googlebot, GPTBot, ClaudeBot); 0 errors, 0 warnings, 2 infos",
			},
		},
		{
			name: "warnings only", body: "User-agent: *\nDisalow: /x\nFoo: bar\n", wantCode: 0,
			want: []string{"FILE:2: warning: ", "FILE:3: warning: ", "0 errors, 2 warnings"},
		},
		{
			name: "an error", body: "User-agent: *\nDisallow: private\n", wantCode: 1,
			want: []string{"FILE:2: error: ", "1 error, 0 warnings"},
		},
		{
			name: "rule outside any group", body: "Disallow: /x\nUser-agent: *\nDisallow: /y\n", wantCode: 1,
			want: []string{"FILE:1: error: ", "1 group, 1 rule"},
		},
		{
			name: "not a robots.txt", body: "<!DOCTYPE html>\n<html><body>Not found</body></html>\n", wantCode: 1,
			want: []string{"FILE:1: error: no line is a robots.txt field"},
		},
		{
			name: "empty file", body: "", wantCode: 0,
			want: []string{"FILE: 0 groups, 0 rules, 0 sitemaps, 0 agents named; 0 errors"},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			for _, viaStdin := range []bool{false, true} {
				file, stdin, display := writeTemp(t, "robots.txt", tc.body), "", ""
				display = file
				if viaStdin {
					file, stdin, display = "-", tc.body, "<stdin>"
				}
				code, out, errOut := runCmd(t, stdin, "lint", file)
				if code != tc.wantCode {
					t.Errorf("stdin=%v: exit %d, want %d\n%s%s", viaStdin, code, tc.wantCode, out, errOut)
				}
				for _, w := range tc.want {
					w = strings.ReplaceAll(w, "FILE", display)
					if !strings.Contains(out, w) {
						t.Errorf("stdin=%v: output lacks %q:\n%s", viaStdin, w, out)
					}
				}
				// Every line but the summary is file:line: severity: message.
				lines := strings.Split(strings.TrimSpace(out), "\n")
				for _, l := range lines[:len(lines)-1] {
					rest, ok := strings.CutPrefix(l, display+":")
					if !ok {
						t.Errorf("line %q does not start with the file name", l)
						continue
					}
					num, rest, _ := strings.Cut(rest, ": ")
					sev, msg, _ := strings.Cut(rest, ": ")
					if _, err := strconv.Atoi(num); err != nil {
						t.Errorf("line %q is not file:line: severity: message: line number %q", l, num)
					}
					if sev != "info" && sev != "warning" && sev != "error" {
						t.Errorf("line %q is not file:line: severity: message: severity %q", l, sev)
					}
					if msg == "" {
						t.Errorf("line %q is not file:line: severity: message: no message", l)
					}
				}
			}
		})
	}
}

func TestLintJSON(t *testing.T) {
	file := writeTemp(t, "robots.txt", "User-agent: *\nDisallow: private\nDisalow: /x\nSitemap: https://e.com/s.xml\nUser-agent: GPTBot\nDisallow: /\n")
	code, out, _ := runCmd(t, "", "lint", "--json", file)
	if code != 1 {
		t.Errorf("exit %d, want 1", code)
	}
	var got LintOutput
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, out)
	}
	if got.File != file {
		t.Errorf("file %q, want %q", got.File, file)
	}
	for _, c := range []struct {
		name      string
		got, want int
	}{
		{"groups", got.Groups, 2},
		{"rules", got.Rules, 3},
		{"errors", got.Errors, 1},
		{"warnings", got.Warnings, 1},
		{"sitemaps", len(got.Sitemaps), 1},
	} {
		if c.got != c.want {
			t.Errorf("%s = %d, want %d", c.name, c.got, c.want)
		}
	}
	if agents := strings.Join(got.Agents, ","); agents != "GPTBot" {
		t.Errorf("agents %q, want [GPTBot]", got.Agents)
	}
	if len(got.Diagnostics) != 2 {
		t.Errorf("diagnostics %+v, want 2", got.Diagnostics)
	} else {
		d0, d1 := got.Diagnostics[0], got.Diagnostics[1]
		if d0.Line != 2 {
			t.Errorf("diagnostic 0 on line %d, want 2", d0.Line)
		}
		if d0.Severity != "error" {
			t.Errorf("diagnostic 0 severity %q, want error", d0.Severity)
		}
		if d0.Kind != "relative-path" {
			t.Errorf("diagnostic 0 kind %q, want relative-path", d0.Kind)
		}
		if d1.Kind != "misspelling" {
			t.Errorf("diagnostic 1 kind %q, want misspelling", d1.Kind)
		}
	}
	var raw map[string]any
	_ = json.Unmarshal([]byte(out), &raw)
	for _, k := range []string{"file", "diagnostics", "groups", "rules", "sitemaps", "agents", "errors", "warnings", "infos"} {
		if _, ok := raw[k]; !ok {
			t.Errorf("JSON lacks %q", k)
		}
	}
}

// TestLintNamesTheRealSize: lint reads at most maxRobotsRead bytes, and
// the size-limit finding names the input's size, not what was read of it.
func TestLintNamesTheRealSize(t *testing.T) {
	robotsOfSize := func(n int) string {
		head := "User-agent: *\nDisallow: /a\n"
		pad := strings.Repeat("# padding\n", (n-len(head))/10+1)
		return (head + pad)[:n]
	}
	for _, tc := range []struct {
		name  string
		size  int
		stdin bool
		want  string
	}{
		{"a file under the read limit", 600000, false, "the file is 600000 bytes; everything past the first 512000 bytes is ignored"},
		{"a file over the read limit", 9 << 20, false, "the file is 9437184 bytes; everything past the first 512000 bytes is ignored"},
		{"stdin at the read limit", maxRobotsRead, true, "the file is 8388608 bytes; everything past"},
		{"stdin over the read limit", 9 << 20, true, "the file is more than 8388608 bytes; everything past the first 512000 bytes is ignored"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			body := robotsOfSize(tc.size)
			file, stdin := writeTemp(t, "robots.txt", body), ""
			if tc.stdin {
				file, stdin = "-", body
			}
			code, out, errOut := runCmd(t, stdin, "lint", file)
			if code != ExitLintErrors || !strings.Contains(out, tc.want) {
				t.Errorf("exit %d, want %d and output with %q:\n%s%s", code, ExitLintErrors, tc.want, out, errOut)
			}
		})
	}
}

func TestLintUsageErrors(t *testing.T) {
	for _, args := range [][]string{
		{"lint"},
		{"lint", "a", "b"},
		{"lint", filepath.Join(t.TempDir(), "missing.txt")},
		{"lint", "--nope", "x"},
	} {
		if code, out, errOut := runCmd(t, "", args...); code != ExitUsage || errOut == "" {
			t.Errorf("%v: exit %d, want %d, stderr %q\n%s", args, code, ExitUsage, errOut, out)
		}
	}
}

// TestCheckJudgesLikeTheHandler: check judges the decoded and the as-sent
// spelling of a path, as the handler does, so an encoded slash or dot
// cannot make it say "allowed" where the handler refuses.
func TestCheckJudgesLikeTheHandler(t *testing.T) {
	f := robots.Parse([]byte("User-agent: *\nDisallow: /private/\n"))
	for _, target := range []string{"/private%2Fx", "/a/%2E%2E/private/x", "/%70rivate/x", "http://example.com//private/x"} {
		var out strings.Builder
		code, err := Check(&out, Subject{File: f, Name: "robots.txt"}, testfixtures.UACurl, []string{target}, false)
		if err != nil || code != ExitDisallowed {
			t.Errorf("%s: exit %d (%v), want disallowed\n%s", target, code, err, out.String())
		}
	}
}

// TestCheckConfigSeveralHandlers: a site with two robots_txt handlers is
// refused with both named; check used to judge by the first alone.
func TestCheckConfigSeveralHandlers(t *testing.T) {
	handler := func(match, file string) string {
		h := `{"handle": [{"handler": "robots_txt", "file": "` + file + `"}]`
		if match != "" {
			h += `, "match": [{"path": ["` + match + `"]}]`
		}
		return h + "}"
	}
	site := func(host string, handlers ...string) string {
		return `{"match": [{"host": ["` + host + `"]}], "handle": [{"handler": "subroute", "routes": [` + strings.Join(handlers, ", ") + `]}]}`
	}
	config := func(sites ...string) string {
		return `{"apps": {"http": {"servers": {"srv0": {"listen": [":80"], "routes": [` + strings.Join(sites, ", ") + `]}}}}}`
	}
	dir := t.TempDir()
	blog := writeTemp(t, "blog.txt", "User-agent: *\nDisallow: /\n")
	main := writeTemp(t, "robots.txt", "User-agent: *\nDisallow: /private/\n")
	two := config(site("a.test", handler("/blog/*", blog), handler("", main)))
	twoAndOne := config(site("a.test", handler("/blog/*", blog), handler("", main)), site("b.test", handler("", main)))
	for _, tc := range []struct {
		name, config string
		args         []string
		code         int
		want         []string // in stdout or stderr
	}{
		{"one site, no --site", two, nil, ExitUsage, []string{
			"site a.test has 2 robots_txt handlers: path /blog/* (file " + blog + "); every request (file " + main + ")", "check each file with --file"}},
		{"one site, --site", two, []string{"--site", "a.test"}, ExitUsage, []string{"site a.test has 2 robots_txt handlers", blog, main}},
		{"the other site has one", twoAndOne, []string{"--site", "b.test"}, ExitOK, []string{"/blog/x: allowed"}},
		{"the site with two", twoAndOne, []string{"--site", "a.test"}, ExitUsage, []string{"site a.test has 2 robots_txt handlers"}},
		{"several sites, no --site", twoAndOne, nil, ExitUsage, []string{"has 3 robots_txt handlers; say which site with --site (a.test, b.test)"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := filepath.Join(dir, strings.ReplaceAll(tc.name, " ", "-")+".json")
			if err := os.WriteFile(cfg, []byte(tc.config), 0o644); err != nil {
				t.Fatal(err)
			}
			args := append([]string{"check", "--config", cfg, "--agent", "curl/8"}, tc.args...)
			code, out, errOut := runCmd(t, "", append(args, "/blog/x")...)
			if code != tc.code {
				t.Errorf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", code, tc.code, out, errOut)
			}
			for _, w := range tc.want {
				if !strings.Contains(out+errOut, w) {
					t.Errorf("output lacks %q:\n%s%s", w, out, errOut)
				}
			}
			if tc.code == ExitUsage && out != "" {
				t.Errorf("a refusal judges nothing; stdout:\n%s", out)
			}
		})
	}
}

// TestSiteListPorts: sites of every host told apart by port are named by
// port, as --site takes them, not as "(every host)" twice over.
func TestSiteListPorts(t *testing.T) {
	for _, tc := range []struct {
		found []siteHandler
		want  string
	}{
		{[]siteHandler{{ports: []string{"8081"}}, {ports: []string{"8082"}}}, ":8081, :8082"},
		{[]siteHandler{{}}, "(every host)"},
		{[]siteHandler{{hosts: []string{"a.test"}}, {ports: []string{"8082"}}}, "a.test, :8082"},
	} {
		if got := siteList(tc.found); got != tc.want {
			t.Errorf("siteList(%+v) = %q, want %q", tc.found, got, tc.want)
		}
	}
}

// TestCheckFollowsLikeTheHandler: check picks a known crawler's group as
// the handler does: Applebot a Googlebot group when none names it, and a
// crawler that ignores * no rules where no group names it.
func TestCheckFollowsLikeTheHandler(t *testing.T) {
	f := robots.Parse([]byte("User-agent: Googlebot\nDisallow: /g/\n\nUser-agent: *\nDisallow: /star/\n"))
	for _, tc := range []struct {
		name, ua, target string
		code             int
		agent            string
	}{
		{"Applebot follows Googlebot", "Mozilla/5.0 (Applebot/0.1; +http://www.apple.com/go/applebot)", "/g/x", ExitDisallowed, "Googlebot"},
		{"not the * group", "Mozilla/5.0 (Applebot/0.1; +http://www.apple.com/go/applebot)", "/star/x", ExitOK, "Googlebot"},
		{"a generic bot", testfixtures.UACurl, "/star/x", ExitDisallowed, ""},
		{"AdsBot ignores *", "AdsBot-Google (+http://www.google.com/adsbot.html)", "/star/x", ExitOK, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out strings.Builder
			code, err := Check(&out, Subject{File: f, Name: "robots.txt"}, tc.ua, []string{tc.target}, true)
			if err != nil || code != tc.code {
				t.Fatalf("exit %d (%v), want %d\n%s", code, err, tc.code, out.String())
			}
			var got CheckOutput
			if err := json.Unmarshal([]byte(out.String()), &got); err != nil {
				t.Fatal(err)
			}
			if r := got.Results[0]; r.Agent != tc.agent {
				t.Errorf("agent %q, want %q", r.Agent, tc.agent)
			}
		})
	}
	var out strings.Builder
	if _, err := Check(&out, Subject{File: f, Name: "robots.txt"}, "AdsBot-Google (+http://www.google.com/adsbot.html)", []string{"/star/x"}, false); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "obeys only the groups that name it") {
		t.Errorf("the text does not say why no group applies:\n%s", out.String())
	}
}

// TestCheckSharedLikeTheHandler: check judges Googlebot's header as the
// handler judges a proven Googlebot: a path a Googlebot-News group allows
// is allowed, by that group, since Google News sends the header too
// (audit AN-F1); the impostor it may be gains nothing.
func TestCheckSharedLikeTheHandler(t *testing.T) {
	f := robots.Parse([]byte("User-agent: *\nDisallow: /search\n\nUser-agent: Googlebot-News\nDisallow: /opinion/\n"))
	for _, tc := range []struct {
		target string
		code   int
		agent  string
	}{
		{"/search?q=x", ExitOK, "Googlebot-News"},
		{"/opinion/x", ExitOK, ""},
		{"/page", ExitOK, ""},
	} {
		var out strings.Builder
		code, err := Check(&out, Subject{File: f, Name: "robots.txt"}, testfixtures.UAGooglebot, []string{tc.target}, true)
		if err != nil || code != tc.code {
			t.Fatalf("%s: exit %d (%v), want %d\n%s", tc.target, code, err, tc.code, out.String())
		}
		var got CheckOutput
		if err := json.Unmarshal([]byte(out.String()), &got); err != nil {
			t.Fatal(err)
		}
		if r := got.Results[0]; r.Agent != tc.agent || !r.Allowed {
			t.Errorf("%s: agent %q, allowed %v; want %q, allowed", tc.target, r.Agent, r.Allowed, tc.agent)
		}
		if u := got.Unverified; u == nil || u.Results[0].Allowed != (tc.target != "/search?q=x") {
			t.Errorf("%s: the impostor's verdict %+v, want it judged by * alone", tc.target, u)
		}
	}
}

// TestCheckNamesTheOperatorsCrawler: a header that names one of the
// config's crawler entries as its product is that crawler, held to
// robots.txt, as in the handler, even where the classifier would take it
// for a person's browser.
func TestCheckNamesTheOperatorsCrawler(t *testing.T) {
	file := writeTemp(t, "robots.txt", "User-agent: *\nDisallow: /private/\n")
	cfg := writeTemp(t, "caddy.json", `{"apps": {"http": {"servers": {"srv0": {"listen": [":80"], "routes": [
		{"handle": [{"handler": "robots_txt", "file": "`+file+`",
			"crawlers": [{"token": "MyMon", "ranges": ["127.0.0.0/8"], "category": "monitor"}]}]}]}}}}}`)
	for _, tc := range []struct {
		ua, name string
		code     int
	}{
		{"Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36 MyMon/2.0", "MyMon", ExitDisallowed},
		{"MyMon/1.0", "MyMon", ExitDisallowed},
		{"Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36", "", ExitOK},
	} {
		code, out, errOut := runCmd(t, "", "check", "--config", cfg, "--json", "--agent", tc.ua, "/private/x")
		if code != tc.code {
			t.Errorf("%s: exit %d, want %d\n%s%s", tc.ua, code, tc.code, out, errOut)
			continue
		}
		var got CheckOutput
		if err := json.Unmarshal([]byte(out), &got); err != nil {
			t.Fatalf("%s: %v\n%s", tc.ua, err, out)
		}
		if got.BotName != tc.name {
			t.Errorf("%s: named %q, want %q", tc.ua, got.BotName, tc.name)
		}
	}
}

// TestCheckConfigServesAsTheHandler: with --config, check judges by the
// robots.txt the handler serves and enforces, included lists and the
// trap's line with it; reads an upstream as the handler does (no more than
// five redirects); and says when the handler's matchers limit what it
// judges. Each of these answered otherwise than the running site.
func TestCheckConfigServesAsTheHandler(t *testing.T) {
	file := writeTemp(t, "robots.txt", "User-agent: *\nDisallow: /private/\n")
	list := writeTemp(t, "list.txt", "User-agent: EvilBot\nDisallow: /\n")
	hops := 0
	agents := map[string]bool{}
	upstream := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		agents[r.Header.Get("User-Agent")] = true
		if n, err := strconv.Atoi(strings.TrimPrefix(r.URL.Path, "/hop/")); err == nil && n > 0 {
			hops++
			http.Redirect(w, r, "/hop/"+strconv.Itoa(n-1), http.StatusFound)
			return
		}
		fmt.Fprint(w, "User-agent: *\nDisallow: /\n")
	}))
	t.Cleanup(upstream.Close)
	t.Setenv("ROBOTS_TXT_TEST_LIST", list)
	handler := func(fields, match string) string {
		h := `{"handle": [{"handler": "robots_txt", ` + fields + `}]`
		if match != "" {
			h += `, "match": [{"path": ["` + match + `"]}]`
		}
		return `{"apps": {"http": {"servers": {"srv0": {"listen": [":80"], "routes": [` + h + `}]}}}}}`
	}
	for _, tc := range []struct {
		name, config, agent, target string
		code                        int
		want                        string // in the JSON output
	}{
		{"an included list", handler(`"file": "`+file+`", "include": ["`+list+`"]`, ""), "EvilBot/1.0", "/x", ExitDisallowed, list},
		// Its rule named by the list and its own line, as the access
		// log's rule_source names it.
		{"an included list's rule", handler(`"file": "`+file+`", "include": ["`+list+`"]`, ""), "EvilBot/1.0", "/x", ExitDisallowed, `"source": "` + list + `:2"`},
		// As the handler reads it: {env.*} resolved when the config loads.
		{"an included list named by {env.*}", handler(`"file": "`+file+`", "include": ["{env.ROBOTS_TXT_TEST_LIST}"]`, ""), "EvilBot/1.0", "/x", ExitDisallowed, "with " + list},
		{"the trap", handler(`"file": "`+file+`", "trap": "/.well-known/robots-trap/"`, ""), "curl/8", "/.well-known/robots-trap/x", ExitDisallowed, `"source": "trap"`},
		{"the trap spelt otherwise", handler(`"file": "`+file+`", "trap": "/.well-known/robots-trap/"`, ""), "curl/8", "//.well-known/./robots-trap/x", ExitDisallowed, `"source": "trap"`},
		// The file's lines are numbered as on disk, as the logs number
		// them, not as in the text served with the trap's lines.
		{"the line with a trap", handler(`"file": "`+file+`", "trap": "/.well-known/robots-trap/"`, ""), "curl/8", "/private/x", ExitDisallowed, `"line": 2`},
		// A rule of an included list is numbered as in the text served,
		// the trap's lines above it counted, as the logs number it.
		{"an included list's line with a trap", handler(`"file": "`+file+`", "include": ["`+list+`"], "trap": "/.well-known/robots-trap/"`, ""), "EvilBot/1.0", "/x", ExitDisallowed, `"line": 7`},
		{"five redirects", handler(`"url": "`+upstream.URL+`/hop/5"`, ""), "curl/8", "/x", ExitDisallowed, "/hop/5"},
		{"six redirects", handler(`"url": "`+upstream.URL+`/hop/6"`, ""), "curl/8", "/x", ExitOK, "more than 5 redirects"},
		{"a path matcher", handler(`"file": "`+file+`"`, "/blog/*"), "curl/8", "/blog/x", ExitOK, `"only_for": "path /blog/*"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := writeTemp(t, "caddy.json", tc.config)
			code, out, errOut := runCmd(t, "", "check", "--config", cfg, "--json", "--agent", tc.agent, tc.target)
			if code != tc.code || !strings.Contains(out, tc.want) {
				t.Errorf("exit %d, want %d; output lacks %q?\n%s%s", code, tc.code, tc.want, out, errOut)
			}
		})
	}
	// A person's browser is not held to robots.txt, but under the trap
	// the handler answers it 404 and holds its address (audit AC-F1).
	cfg := writeTemp(t, "caddy.json", handler(`"file": "`+file+`", "trap": "/.well-known/robots-trap/"`, ""))
	if code, out, errOut := runCmd(t, "", "check", "--config", cfg, "--agent", testfixtures.UAFirefox, "/.well-known/robots-trap/x", "/private/x"); code != ExitOK ||
		strings.Count(out, "trap: the path is under the trap") != 1 {
		t.Errorf("a browser under the trap: exit %d, want %d and one line saying the path is the trap's:\n%s%s", code, ExitOK, out, errOut)
	}
	if code, out, errOut := runCmd(t, "", "check", "--config", cfg, "--json", "--agent", testfixtures.UAFirefox, "/.well-known/robots-trap/x", "/private/x"); code != ExitOK ||
		!strings.Contains(out, `"allowed": false,
      "verdict": "not held"`) || strings.Count(out, `"trap": true`) != 1 {
		t.Errorf("a browser under the trap in JSON: exit %d, want %d, not allowed and one trap:\n%s%s", code, ExitOK, out, errOut)
	}
	// A humans entry is answered 404 there, and never trapped.
	cfg = writeTemp(t, "caddy.json", handler(`"file": "`+file+`", "trap": "/.well-known/robots-trap/", "humans": ["ExampleMonitor"]`, ""))
	if _, out, errOut := runCmd(t, "", "check", "--config", cfg, "--agent", "ExampleMonitor/2.0", "/.well-known/robots-trap/x"); !strings.Contains(out, "a humans entry is never trapped") || strings.Contains(out, "holds the client's address") {
		t.Errorf("a humans entry under the trap: wants 404 and never trapped:\n%s%s", out, errOut)
	}
	if hops != 5+6 {
		t.Errorf("the upstream saw %d redirects, want 11 (five, then six of which the handler follows five)", hops)
	}
	if len(agents) != 1 || !agents[fetch.UserAgent] {
		t.Errorf("the upstream was asked by %v, want the handler's User-Agent %q alone", agents, fetch.UserAgent)
	}
}

// TestCheckConfigNotReached: a handler that requests for /robots.txt
// never reach (its handle block does not take them, or a route before it
// answers them) never serves it, so the robots.txt clients read lacks the
// trap's line and obeying clients get trapped; check says so, says when
// the trap is out of reach, and marks each path checked that never
// reaches the handler. A matcher it cannot evaluate, or routes that take
// both, draw nothing. (integration's TestTrapInsideHandle shows the harm
// on a real Caddy.)
func TestCheckConfigNotReached(t *testing.T) {
	file := writeTemp(t, "robots.txt", "User-agent: *\nDisallow: /private/\n")
	t.Setenv("ROBOTS_TXT_TEST_PREFIX", "/app")
	const self = `{"handler": "robots_txt", "file": "FILE", "trap": "/app/trap/"}`
	// Routes as the Caddyfile adapter writes them: handle blocks are
	// routes of one group around a subroute.
	handle := func(match string, handlers ...string) string {
		if match != "" {
			match = `"match": [` + match + `], `
		}
		return `{"group": "g", ` + match + `"handle": [{"handler": "subroute", "routes": [{"handle": [` + strings.Join(handlers, ", ") + `]}]}]}`
	}
	config := func(routes ...string) string {
		return strings.ReplaceAll(`{"apps": {"http": {"servers": {"srv0": {"listen": [":80"], "routes": [`+strings.Join(routes, ", ")+`],
			"named_routes": {"bots": {"handle": [`+self+`]}}}}}}}`, "FILE", file)
	}
	const respond = `{"handler": "static_response", "body": "x"}`
	for _, tc := range []struct {
		name, config string
		want         []string // the JSON output's not_reached
		warn         string   // in the text output; "" for no warning
		notJudged    string   // the result's not_judged for the target
		target, site string   // "/app/x" and none unless given
	}{
		{"a handle block", config(handle(`{"path": ["/app/*"]}`, self)), []string{"/robots.txt"}, "without the trap's Disallow line", "", "", ""},
		{"a handle block, the trap outside it", config(handle(`{"path": ["/app/*"]}`, strings.Replace(self, "/app/trap/", "/trap/", 1))), []string{"/robots.txt", "/trap/"}, "nothing springs it", "", "", ""},
		{"no trap: fetches unseen", config(handle(`{"path": ["/app/*"]}`, `{"handler": "robots_txt", "file": "FILE"}`)), []string{"/robots.txt"}, "no bot's fetch of it is recorded", "", "", ""},
		{"a handle block that takes both", config(handle(`{"path": ["/robots.txt", "/app/*"]}`, self)), nil, "", "", "", ""},
		{"one of two sets takes both", config(handle(`{"path": ["/app/*"]}, {"path": ["/robots.txt"]}`, self)), nil, "", "", "", ""},
		{"a handle block without a matcher", config(handle("", self)), nil, "", "", "", ""},
		{"a matcher check cannot evaluate", config(handle(`{"header": {"X-A": ["1"]}}`, self)), nil, "", "", "", ""},
		{"a prefix from the environment", config(handle(`{"path": ["{env.ROBOTS_TXT_TEST_PREFIX}/*"]}`, self)), []string{"/robots.txt"}, "never reach", "", "", ""},
		// Caddy runs only the first handle block of a group that
		// matches: an earlier one that takes /robots.txt keeps it from
		// the handler's, and one that takes /app/* keeps those.
		{"an earlier handle block takes /robots.txt", config(handle(`{"path": ["/robots.txt"]}`, respond), handle("", self)), []string{"/robots.txt"}, "static_response answers it first", "", "", ""},
		{"an earlier handle block takes the paths checked", config(handle(`{"path": ["/app/*"]}`, `{"handler": "reverse_proxy"}`), handle("", self)), []string{"/app/trap/"}, "nothing springs it", "reverse_proxy answers it first", "", ""},
		{"an earlier route answers /robots.txt", config(`{"match": [{"path": ["/robots.txt"]}], "handle": [{"handler": "static_response", "status_code": 301, "headers": {"Location": ["/static/robots.txt"]}}]}`, `{"handle": [`+self+`]}`), []string{"/robots.txt"}, "static_response answers it first", "", "", ""},
		{"an earlier route of another group", config(`{"group": "h", "match": [{"path": ["/robots.txt"]}], "handle": [`+respond+`]}`, handle("", self)), []string{"/robots.txt"}, "never reach", "", "", ""},
		{"an earlier route for another method", config(`{"match": [{"method": ["POST"]}], "handle": [`+respond+`]}`, `{"handle": [`+self+`]}`), nil, "", "", "", ""},
		{"an earlier route for other methods, in lower case", config(`{"match": [{"not": [{"method": ["get"]}]}], "handle": [`+respond+`]}`, `{"handle": [`+self+`]}`), nil, "", "", "", ""},
		{"an earlier route for another host", config(`{"match": [{"host": ["other.example"]}], "handle": [`+respond+`]}`, `{"match": [{"host": ["site.example"]}], "handle": [`+self+`]}`), nil, "", "", "", ""},
		{"a named route invoked", config(`{"handle": [{"handler": "invoke", "name": "bots"}]}`), nil, "", "", "", ""},
		// Matchers after a rewrite see the rewritten path.
		{"a rewrite to the handler's block", config(`{"handle": [{"handler": "rewrite", "uri": "/index.php?{http.request.uri.query}"}]}`, handle(`{"path": ["/index.php"]}`, self)), nil, "", "", "", ""},
		{"a rewrite of /robots.txt away from it", config(`{"match": [{"path": ["/robots.txt"]}], "handle": [{"handler": "rewrite", "uri": "/gen-robots"}]}`, handle(`{"path": ["/gen-robots"]}`, `{"handler": "reverse_proxy"}`), handle("", self)), []string{"/robots.txt"}, "reverse_proxy answers it first", "", "", ""},
		{"a rewrite that depends on the request", config(`{"match": [{"file": {}}], "handle": [{"handler": "rewrite", "uri": "{http.matchers.file.relative}"}]}`, handle(`{"path": ["/index.php"]}`, self)), nil, "", "", "", ""},
		// "//private/x" is a path, not a host: the block for /x does
		// not take it.
		{"a path that starts with two slashes", config(handle(`{"path": ["/x*"]}`, respond), handle("", self)), nil, "", "", "//private/x", ""},
		{"an escaped question mark after a rewrite", config(`{"handle": [{"handler": "rewrite", "strip_path_prefix": "/pre"}]}`, handle(`{"path": ["/private"]}`, respond), handle("", self)), nil, "", "", "/private%3Fq", ""},
		// The handler's own block does not take the path: what answers
		// it after the block answers instead of the handler, not first.
		{"the handler's block does not take the path", config(handle(`{"path": ["/app/*", "/robots.txt"]}`, self, respond), `{"handle": [`+respond+`]}`), nil, "", "the handler's route does not match it; static_response answers it", "/private/x", ""},
		{"the handler's block does not take the path, nothing after it", config(handle(`{"path": ["/app/*", "/robots.txt"]}`, self, respond)), nil, "", "no route takes it to the handler, which sits in routes for path /app/* /robots.txt", "/private/x", ""},
		// Caddy's not with no sets takes every request.
		{"not of no sets", config(`{"match": [{"not": []}], "handle": [` + self + `]}`), nil, "", "", "", ""},
		// A terminal route ends the request, even inside a subroute.
		{"a terminal route in a subroute", config(`{"handle": [{"handler": "subroute", "routes": [{"match": [{"path": ["/app/*"]}], "handle": [{"handler": "headers"}], "terminal": true}]}, ` + self + `]}`), []string{"/app/trap/"}, "nothing springs it", "a terminal route before the handler ends it, unanswered", "", ""},
		// Route groups are the request's, across subroutes.
		{"a group taken in another subroute", config(`{"group": "g", "match": [{"path": ["/app/*"]}], "handle": [{"handler": "headers"}]}`, `{"handle": [{"handler": "subroute", "routes": [{"group": "g", "handle": [`+self+`]}]}]}`), []string{"/app/trap/"}, "nothing springs it", "no route of the site takes it to the handler", "", ""},
		// A route for one host or for a path takes any host's request
		// for that path: the site is not that host alone.
		{"a host or a path", config(`{"match": [{"host": ["site.example"], "path": ["/app/*"]}], "handle": [`+respond+`]}`, `{"match": [{"host": ["site.example"]}, {"path": ["/app/*"]}], "handle": [`+self+`]}`), nil, "", "", "", ""},
		// --site names the host: a site for it before a catch-all
		// answers first.
		{"the host --site names", config(`{"match": [{"host": ["127.0.0.1"]}], "handle": [`+respond+`], "terminal": true}`, `{"handle": [`+self+`]}`), []string{"/robots.txt", "/app/trap/"}, "static_response answers it first", "static_response answers it first", "", "127.0.0.1"},
		// From a review against Caddy's source: each of these reaches
		// the handler in a running Caddy.
		{"a method rewrite", config(`{"handle": [{"handler": "rewrite", "method": "POST"}]}`, `{"match": [{"method": ["POST"]}], "handle": [`+self+`]}`, `{"handle": [`+respond+`]}`), nil, "", "", "", ""},
		{"early hints", config(`{"handle": [{"handler": "static_response", "status_code": 103}, ` + self + `]}`), nil, "", "", "", ""},
		{"a subroute's error routes go on", config(`{"handle": [{"handler": "subroute", "routes": [{"handle": [{"handler": "error", "status_code": 404}]}], "errors": {"routes": [{"handle": [{"handler": "headers"}]}]}}, ` + self + `]}`), nil, "", "", "", ""},
		{"a site with a non-ASCII name", config(`{"match": [{"host": ["bücher.example"]}], "handle": [` + self + `]}`), nil, "", "", "", ""},
		{"a wildcard site", config(`{"match": [{"host": ["*.example.com"]}], "handle": [{"handler": "subroute", "routes": [{"match": [{"not": [{"host": ["www.example.com"]}]}], "handle": [` + respond + `]}, {"handle": [` + self + `]}]}]}`), nil, "", "", "", ""},
		{"a relative rewrite", config(`{"handle": [{"handler": "rewrite", "uri": "gen"}]}`, `{"match": [{"path": ["/gen"]}], "handle": [`+respond+`]}`, `{"handle": [`+self+`]}`), nil, "", "", "", ""},
		{"an earlier no-matcher route of a group another took", config(handle(`{"path": ["/robots.txt"]}`, `{"handler": "headers"}`), handle("", `{"handler": "reverse_proxy"}`), `{"handle": [`+self+`]}`), []string{"/app/trap/"}, "nothing springs it", "reverse_proxy answers it first", "", ""},
		{"a missing named route", config(`{"handle": [{"handler": "invoke", "name": "nosuch"}, ` + self + `]}`), []string{"/robots.txt", "/app/trap/"}, "a named route the config lacks", "invoke (of a named route the config lacks: an error) answers it first", "", ""},
		// Routes check cannot evaluate double the ways a request may
		// go; ways that leave it the same are followed once.
		{"many routes check cannot evaluate", config(strings.Repeat(`{"match": [{"header": {"X-A": ["1"]}}], "handle": [{"handler": "headers"}]}, `, 20)+`{"match": [{"path": ["/robots.txt"]}], "handle": [`+respond+`]}`, `{"handle": [`+self+`]}`), []string{"/robots.txt"}, "static_response answers it first", "", "", ""},
		{"the metrics handler", config(`{"match": [{"path": ["/metrics"]}], "handle": [{"handler": "metrics"}]}`, `{"handle": [`+self+`]}`), nil, "", "metrics answers it first", "/metrics", ""},
		{"a URL's host", config(`{"match": [{"host": ["127.0.0.1"]}], "handle": [`+respond+`], "terminal": true}`, `{"handle": [`+self+`]}`), nil, "", "static_response answers it first", "http://127.0.0.1/app/x", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := writeTemp(t, "caddy.json", tc.config)
			target := tc.target
			if target == "" {
				target = "/app/x"
			}
			args := []string{"check", "--config", cfg, "--agent", "curl/8"}
			if tc.site != "" {
				args = append(args, "--site", tc.site)
			}
			code, out, errOut := runCmd(t, "", append(args, "--json", target)...)
			var got CheckOutput
			if code == ExitUsage || json.Unmarshal([]byte(out), &got) != nil {
				t.Fatalf("exit %d:\n%s%s", code, out, errOut)
			}
			if !slices.Equal(got.NotReached, tc.want) {
				t.Errorf("not_reached %q, want %q", got.NotReached, tc.want)
			}
			if got.Results[0].NotJudged != tc.notJudged {
				t.Errorf("not_judged %q, want %q", got.Results[0].NotJudged, tc.notJudged)
			}
			_, out, _ = runCmd(t, "", append(args, target)...)
			if tc.warn != "" && !strings.Contains(out, tc.warn) || tc.warn == "" && strings.Contains(out, "warning:") {
				t.Errorf("text output, want warning %q:\n%s", tc.warn, out)
			}
		})
	}
}

// TestCheckConfigAnsweredFirstGroups: a handle block without a matcher
// answers every request only if no earlier block of its group took some:
// here /robots.txt goes to the first block, which passes it on to the
// handler, so check must not say the proxy answers every request first.
func TestCheckConfigAnsweredFirstGroups(t *testing.T) {
	file := writeTemp(t, "robots.txt", "User-agent: *\nDisallow: /private/\n")
	cfg := writeTemp(t, "caddy.json", `{"apps": {"http": {"servers": {"srv0": {"listen": [":80"], "routes": [
		{"group": "g", "match": [{"path": ["/robots.txt"]}], "handle": [{"handler": "headers"}]},
		{"group": "g", "handle": [{"handler": "reverse_proxy"}]},
		{"handle": [{"handler": "robots_txt", "file": "`+file+`"}]}]}}}}}`)
	code, out, errOut := runCmd(t, "", "check", "--config", cfg, "--json", "--agent", "curl/8", "/robots.txt", "/x")
	var got CheckOutput
	if code == ExitUsage || json.Unmarshal([]byte(out), &got) != nil {
		t.Fatalf("exit %d:\n%s%s", code, out, errOut)
	}
	if got.AnsweredBy != "" || len(got.NotReached) > 0 || got.Results[0].NotJudged != "" {
		t.Errorf("answered_first_by %q, not_reached %q, /robots.txt not_judged %q; want none", got.AnsweredBy, got.NotReached, got.Results[0].NotJudged)
	}
	if got.Results[1].NotJudged != "reverse_proxy answers it first" {
		t.Errorf("/x not_judged %q, want the proxy's", got.Results[1].NotJudged)
	}
}

// TestCheckConfigNotJudgedIsAllowed: a bot's request that never reaches
// the handler is served whatever robots.txt says, so check must not call
// it disallowed nor exit 1 for it, or a gate on the exit status reads an
// unprotected path as protected; the rule and signal the handler would
// apply stay shown. Paths the handler gets are judged as before.
func TestCheckConfigNotJudgedIsAllowed(t *testing.T) {
	file := writeTemp(t, "robots.txt", "User-agent: *\nContent-Signal: ai-train=no\nDisallow: /private/\n")
	const respond = `{"handler": "static_response", "body": "x"}`
	self := `{"handler": "robots_txt", "file": "` + file + `", "signals": "enforce", "trap": "/app/trap/"}`
	config := func(routes ...string) string {
		return `{"apps": {"http": {"servers": {"srv0": {"listen": [":80"], "routes": [` + strings.Join(routes, ", ") + `]}}}}}`
	}
	// As the Caddyfile writes "order robots_txt after respond", and a
	// handle /app/* block around the handler.
	after := config(`{"handle": [` + respond + `, ` + self + `]}`)
	inside := config(`{"group": "g", "match": [{"path": ["/app/*"]}], "handle": [{"handler": "subroute", "routes": [{"handle": [`+self+`]}]}]}`, `{"handle": [`+respond+`]}`)
	for _, tc := range []struct {
		name, config, agent string
		targets             []string
		code                int
		verdicts            []string // each target's
		allowed             []bool
		rule                string // the first target's
	}{
		{"a handler after respond", after, "TestBot", []string{"/private/"}, ExitOK, []string{"not judged"}, []bool{true}, "disallow: /private/"},
		{"a path outside the handle block", inside, "TestBot", []string{"/private/"}, ExitOK, []string{"not judged"}, []bool{true}, "disallow: /private/"},
		{"a signal outside the handle block", inside, testfixtures.UAGPTBot, []string{"/x"}, ExitOK, []string{"not judged"}, []bool{true}, ""},
		{"a path inside it", inside, "TestBot", []string{"/app/trap/"}, ExitDisallowed, []string{"disallowed"}, []bool{false}, "disallow: /app/trap/"},
		{"one of each", inside, "TestBot", []string{"/private/", "/app/trap/"}, ExitDisallowed, []string{"not judged", "disallowed"}, []bool{true, false}, "disallow: /private/"},
		// A person is not held to robots.txt anywhere; that stays
		// its verdict.
		{"a person", after, testfixtures.UAChrome, []string{"/private/"}, ExitOK, []string{"not held"}, []bool{true}, "disallow: /private/"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := writeTemp(t, "caddy.json", tc.config)
			args := append([]string{"check", "--config", cfg, "--agent", tc.agent, "--json"}, tc.targets...)
			code, out, errOut := runCmd(t, "", args...)
			var got CheckOutput
			if json.Unmarshal([]byte(out), &got) != nil || len(got.Results) != len(tc.targets) {
				t.Fatalf("exit %d:\n%s%s", code, out, errOut)
			}
			if code != tc.code {
				t.Errorf("exit %d, want %d", code, tc.code)
			}
			for i, r := range got.Results {
				if r.Verdict != tc.verdicts[i] || r.Allowed != tc.allowed[i] {
					t.Errorf("%s: verdict %q, allowed %v; want %q, %v", r.Input, r.Verdict, r.Allowed, tc.verdicts[i], tc.allowed[i])
				}
			}
			if got.Results[0].Rule != tc.rule {
				t.Errorf("rule %q, want %q", got.Results[0].Rule, tc.rule)
			}
			if tc.agent == testfixtures.UAGPTBot && got.Results[0].Signal != "ai-train=no" {
				t.Errorf("signal %q, want the one the handler would apply", got.Results[0].Signal)
			}
		})
	}
	// The text output says what the handler would do if it got it.
	cfg := writeTemp(t, "caddy.json", inside)
	code, out, _ := runCmd(t, "", "check", "--config", cfg, "--agent", "TestBot", "/private/")
	if want := "/private/: not judged (the handler would disallow it if it got it)"; code != ExitOK || !strings.Contains(out, want) {
		t.Errorf("exit %d, want %d and %q:\n%s", code, ExitOK, want, out)
	}
}

// TestCheckConfigSiteOfWildcard: --site picks a site as Caddy does (one
// that names the host before a wildcard that takes it), and fills a root
// per host ("{host}") with the host as requests name it (in ASCII, lower
// case), so each tenant of one site block can be checked with its own
// robots.txt; URLs name the host when --site does not, and a URL of
// another host than the robots.txt read is refused.
func TestCheckConfigSiteOfWildcard(t *testing.T) {
	dir := t.TempDir()
	for host, body := range map[string]string{
		"b.example":             "User-agent: *\nDisallow: /b\n",
		"xn--bcher-kva.example": "User-agent: *\nDisallow: /idn\n",
	} {
		if err := os.MkdirAll(filepath.Join(dir, host), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, host, "robots.txt"), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// The site that names a host before the wildcard, as the Caddyfile
	// adapter orders them: else a.example's requests would be the
	// wildcard's, and not judged by a.example's handler.
	cfg := writeTemp(t, "caddy.json", `{"apps": {"http": {"servers": {"srv0": {"listen": [":80"], "routes": [
		{"match": [{"host": ["a.example"]}], "handle": [{"handler": "robots_txt", "inline": "User-agent: *\nDisallow: /a\n"}], "terminal": true},
		{"match": [{"host": ["*.example"]}], "handle": [{"handler": "subroute", "routes": [
			{"handle": [{"handler": "vars", "root": "`+dir+`/{http.request.host}"}]},
			{"handle": [{"handler": "robots_txt"}]}]}], "terminal": true}]}}}}}`)
	for _, tc := range []struct {
		site, target string
		code         int
		want         string
	}{
		{"a.example", "/a", ExitDisallowed, `"file": "inline"`},
		{"b.example", "/b", ExitDisallowed, filepath.Join(dir, "b.example", "robots.txt")},
		{"B.EXAMPLE", "/b", ExitDisallowed, filepath.Join(dir, "b.example", "robots.txt")},
		{"b.example:80", "/b", ExitDisallowed, filepath.Join(dir, "b.example", "robots.txt")},
		{"bücher.example", "/idn", ExitDisallowed, "xn--bcher-kva.example"},
		{"", "http://b.example/b", ExitDisallowed, filepath.Join(dir, "b.example", "robots.txt")},
		{"b.example", "http://c.example/b", ExitUsage, "check one host at a time"},
		{"", "/b", ExitUsage, "say which site with --site"},
	} {
		args := []string{"check", "--config", cfg, "--json", "--agent", "curl/8"}
		if tc.site != "" {
			args = append(args, "--site", tc.site)
		}
		code, out, errOut := runCmd(t, "", append(args, tc.target)...)
		if code != tc.code || !strings.Contains(out+errOut, tc.want) {
			t.Errorf("--site %q %s: exit %d, want %d and %q:\n%s%s", tc.site, tc.target, code, tc.code, tc.want, out, errOut)
		}
	}
}

// TestCheckConfigNoClaim: where what reaches the handler depends on more
// than check can follow, it says nothing about reaching: a handler in a
// subroute's error routes, or in the server's (handle_errors), which only
// requests that failed reach (both are found); and a named route that
// invokes itself, which must not hang check either.
func TestCheckConfigNoClaim(t *testing.T) {
	file := writeTemp(t, "robots.txt", "User-agent: *\nDisallow: /private/\n")
	server := func(fields string) string {
		return strings.ReplaceAll(`{"apps": {"http": {"servers": {"srv0": {"listen": [":80"], `+fields+`}}}}}`, "FILE", file)
	}
	for _, tc := range []struct{ name, config string }{
		{"a subroute's error routes", server(`"routes": [{"handle": [{"handler": "subroute", "routes": [{"handle": [{"handler": "file_server", "root": "/nonexistent"}]}],
			"errors": {"routes": [{"handle": [{"handler": "robots_txt", "file": "FILE"}]}]}}]}]`)},
		{"the server's error routes", server(`"routes": [{"handle": [{"handler": "file_server", "root": "/nonexistent"}]}],
			"errors": {"routes": [{"handle": [{"handler": "robots_txt", "file": "FILE"}]}]}`)},
		{"a named route that invokes itself", server(`"routes": [{"handle": [{"handler": "invoke", "name": "loop"}, {"handler": "robots_txt", "file": "FILE"}]}],
			"named_routes": {"loop": {"handle": [{"handler": "invoke", "name": "loop"}]}}`)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := writeTemp(t, "caddy.json", tc.config)
			code, out, errOut := runCmd(t, "", "check", "--config", cfg, "--json", "--agent", "curl/8", "/private/x")
			if code != ExitDisallowed || strings.Contains(out, "not_reached") || strings.Contains(out, "not_judged") {
				t.Errorf("exit %d, want %d and no claim about reaching:\n%s%s", code, ExitDisallowed, out, errOut)
			}
		})
	}
}

// TestCheckConfigIncludesAsTheHandler: check reads the included lists as
// the handler does (config.ResolveIncludes): what the handler refuses to
// load, check refuses too, and an {env.*} entry that names a URL is
// fetched. Before, check opened each such entry as a file, could not, and
// answered without the list, "as the handler leaves it out".
func TestCheckConfigIncludesAsTheHandler(t *testing.T) {
	file := writeTemp(t, "robots.txt", "User-agent: *\nDisallow: /private/\n")
	upstream := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, "User-agent: EvilBot\nDisallow: /\n")
	}))
	t.Cleanup(upstream.Close)
	t.Setenv("ROBOTS_TXT_TEST_LIST_URL", upstream.URL+"/list.txt")
	missing := filepath.Join(t.TempDir(), "missing.txt")
	handler := func(fields string) string {
		return `{"apps": {"http": {"servers": {"srv0": {"listen": [":80"], "routes": [{"handle": [{"handler": "robots_txt", ` + fields + `}]}]}}}}}`
	}
	for _, tc := range []struct {
		name, fields string
		code         int
		want         string // in standard output or error
	}{
		{"an unset variable", `"file": "` + file + `", "include": ["{env.ROBOTS_TXT_TEST_UNSET}"]`, ExitUsage, "is empty once its placeholders are replaced"},
		{"a request placeholder", `"file": "` + file + `", "include": ["/srv/{http.request.host}/list.txt"]`, ExitUsage, "depends on the request"},
		{"a directory", `"file": "` + file + `", "include": ["` + t.TempDir() + `"]`, ExitUsage, "is a directory"},
		{"a URL from the environment", `"file": "` + file + `", "include": ["{env.ROBOTS_TXT_TEST_LIST_URL}"]`, ExitDisallowed, upstream.URL + "/list.txt"},
		{"strict, a missing list, robots.txt per request", `"strict": true, "include": ["` + missing + `"]`, ExitUsage, "strict: included list"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := writeTemp(t, "caddy.json", handler(tc.fields))
			code, out, errOut := runCmd(t, "", "check", "--config", cfg, "--json", "--agent", "EvilBot/1.0", "/x")
			if code != tc.code || !strings.Contains(out+errOut, tc.want) || strings.Contains(errOut, "as the handler leaves it out") {
				t.Errorf("exit %d, want %d and %q:\n%s%s", code, tc.code, tc.want, out, errOut)
			}
		})
	}
}

// TestCheckConfigUserAgentsAsTheHandler: check matches humans and bots
// with {env.*} replaced, as the handler does, and refuses what the
// handler refuses to load.
func TestCheckConfigUserAgentsAsTheHandler(t *testing.T) {
	file := writeTemp(t, "robots.txt", "User-agent: *\nDisallow: /private/\n")
	t.Setenv("ROBOTS_TXT_TEST_MONITOR", "MyMonitor")
	handler := func(fields string) string {
		return `{"apps": {"http": {"servers": {"srv0": {"listen": [":80"], "routes": [{"handle": [{"handler": "robots_txt", "file": "` + file + `", ` + fields + `}]}]}}}}}`
	}
	for _, tc := range []struct {
		name, fields string
		code         int
		want         string // in standard output or error
	}{
		{"a variable", `"humans": ["{env.ROBOTS_TXT_TEST_MONITOR}"]`, ExitOK, "is not held to robots.txt"},
		{"an unset variable", `"humans": ["{env.ROBOTS_TXT_TEST_UNSET}"]`, ExitUsage, `the handler refuses to load: humans[0]: "{env.ROBOTS_TXT_TEST_UNSET}" is "" once its placeholders are replaced`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := writeTemp(t, "caddy.json", handler(tc.fields))
			code, out, errOut := runCmd(t, "", "check", "--config", cfg, "--agent", "MyMonitor/1.0", "/private/x")
			if code != tc.code || !strings.Contains(out+errOut, tc.want) {
				t.Errorf("exit %d, want %d and %q:\n%s%s", code, tc.code, tc.want, out, errOut)
			}
		})
	}
}

// TestCheckConfigSignals: with signals enforce or monitor, check refuses
// an AI crawler where the usage preferences say no, as the handler does,
// and says so; before, it answered "allowed" for a path the site refused.
func TestCheckConfigSignals(t *testing.T) {
	file := writeTemp(t, "robots.txt", "User-agent: *\nContent-Signal: search=yes, ai-train=no\nDisallow: /private/\n")
	handler := func(fields string) string {
		return `{"apps": {"http": {"servers": {"srv0": {"listen": [":80"], "routes": [{"handle": [{"handler": "robots_txt", "file": "` + file + `"` + fields + `}]}]}}}}}`
	}
	for _, tc := range []struct {
		name, fields, agent, target string
		code                        int
		want                        []string // in the JSON output
		dontWant                    string
	}{
		{"a training crawler, signals enforce", `, "signals": "enforce"`, testfixtures.UAGPTBot, "/x", ExitDisallowed,
			[]string{`"signal": "ai-train=no"`, `"allowed": false`, `"verdict": "disallowed"`}, ""},
		{"a training crawler, signals monitor", `, "signals": "monitor"`, testfixtures.UAGPTBot, "/x", ExitDisallowed,
			[]string{`"signal": "ai-train=no"`, `"allowed": true`}, ""},
		{"a training crawler, signals off", ``, testfixtures.UAGPTBot, "/x", ExitOK, []string{`"allowed": true`}, `"signal"`},
		{"a search crawler, signals enforce", `, "signals": "enforce"`, testfixtures.UAGooglebot, "/x", ExitOK, []string{`"allowed": true`}, `"signal"`},
		{"robots.txt, signals enforce", `, "signals": "enforce"`, testfixtures.UAGPTBot, "/robots.txt", ExitOK, []string{`"allowed": true`}, `"signal"`},
		// What mode monitor lets through, signals enforce refuses.
		{"mode monitor, signals enforce", `, "mode": "monitor", "signals": "enforce"`, testfixtures.UAGPTBot, "/private/x", ExitDisallowed,
			[]string{`"signal": "ai-train=no"`, `"allowed": false`}, ""},
		{"mode monitor, signals monitor", `, "mode": "monitor", "signals": "monitor"`, testfixtures.UAGPTBot, "/private/x", ExitDisallowed,
			[]string{`"allowed": true`, `"rule": "disallow: /private/"`}, `"signal"`},
		// A request the rules refuse already is that violation only.
		{"a rule refuses first", `, "signals": "enforce"`, testfixtures.UAGPTBot, "/private/x", ExitDisallowed,
			[]string{`"allowed": false`, `"rule": "disallow: /private/"`}, `"signal"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := writeTemp(t, "caddy.json", handler(tc.fields))
			code, out, errOut := runCmd(t, "", "check", "--config", cfg, "--json", "--agent", tc.agent, tc.target)
			if code != tc.code {
				t.Errorf("exit %d, want %d\n%s%s", code, tc.code, out, errOut)
			}
			for _, w := range tc.want {
				if !strings.Contains(out, w) {
					t.Errorf("output lacks %q:\n%s%s", w, out, errOut)
				}
			}
			if tc.dontWant != "" && strings.Contains(out, tc.dontWant) {
				t.Errorf("output has %q:\n%s", tc.dontWant, out)
			}
		})
	}
	// The text output says which preference refused the path.
	cfg := writeTemp(t, "caddy.json", handler(`, "signals": "enforce"`))
	_, out, _ := runCmd(t, "", "check", "--config", cfg, "--agent", testfixtures.UAGPTBot, "/x")
	for _, w := range []string{"/x: disallowed by the usage preferences (signals enforce: refused)", "signal: ai-train=no"} {
		if !strings.Contains(out, w) {
			t.Errorf("text output lacks %q:\n%s", w, out)
		}
	}
}

// TestCheckConfigHostileUpstream: check reads an upstream's robots.txt as
// the handler does, says why it has no rules, and lets no byte of the
// upstream's status line reach the terminal raw.
func TestCheckConfigHostileUpstream(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	big := strings.Repeat("# padding\n", robots.DefaultMaxSize/10) + "User-agent: GPTBot\nDisallow: /\n"
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				req, err := http.ReadRequest(bufio.NewReader(c))
				if err != nil {
					return
				}
				switch req.URL.Path {
				case "/esc500":
					io.WriteString(c, "HTTP/1.1 500 \x1b[2J\x1b[31mFORGED\x1b[0m\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
				case "/nolocation":
					io.WriteString(c, "HTTP/1.1 301 Moved\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
				case "/gone":
					io.WriteString(c, "HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
				case "/big":
					fmt.Fprintf(c, "HTTP/1.1 200 OK\r\nContent-Length: %d\r\nConnection: close\r\n\r\n%s", len(big), big)
				case "/busy":
					io.WriteString(c, "HTTP/1.1 429 Too Many Requests\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
				case "/notmodified":
					io.WriteString(c, "HTTP/1.1 304 Not Modified\r\nConnection: close\r\n\r\n")
				case "/page":
					page := "<!doctype html><html><body>Not here</body></html>\n"
					fmt.Fprintf(c, "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: %d\r\nConnection: close\r\n\r\n%s", len(page), page)
				}
			}()
		}
	}()
	base := "http://" + ln.Addr().String()
	for _, tc := range []struct {
		name, path string
		json       bool
		code       int
		want       string
	}{
		{"a status line with escape sequences", "/esc500", false, ExitUsage, `\x1b[2J`},
		{"a redirect with nowhere to go, read as the handler reads it", "/nolocation", false, ExitOK, "301 Moved, a redirect not followed: no robots.txt, every bot allowed) has no groups"},
		{"a 404, said where the group is", "/gone", false, ExitOK, "404 Not Found: no robots.txt, every bot allowed) has no groups"},
		{"a file over 500 KiB, cut as the handler cuts it", "/big", true, ExitOK, "cut at 512,000 bytes"},
		// What the handler reads as a failure is one to check too, not
		// "no robots.txt" (before: 429 and 304) or "no groups" (an HTML
		// page, which the handler neither serves nor enforces).
		{"a 429, a failure as to the handler", "/busy", false, ExitUsage, "429 Too Many Requests: the handler reads this as a failure"},
		{"a 304, a failure as to the handler", "/notmodified", false, ExitUsage, "304 Not Modified: the handler reads this as a failure"},
		{"an HTML page, no robots.txt to the handler", "/page", false, ExitUsage, "the upstream answered 200, but the answer is not a robots.txt"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := writeTemp(t, "caddy.json", `{"apps": {"http": {"servers": {"srv0": {"listen": [":80"], "routes": [{"handle": [{"handler": "robots_txt", "url": "`+base+tc.path+`"}]}]}}}}}`)
			args := []string{"check", "--config", cfg, "--agent", "GPTBot/1.2", "/x"}
			if tc.json {
				args = append(args, "--json")
			}
			code, out, errOut := runCmd(t, "", args...)
			if code != tc.code || !strings.Contains(out+errOut, tc.want) {
				t.Errorf("exit %d, want %d; output lacks %q:\n%s%s", code, tc.code, tc.want, out, errOut)
			}
			if strings.ContainsRune(out+errOut, 0x1b) {
				t.Errorf("output holds a raw ESC:\n%q", out+errOut)
			}
		})
	}
}

// TestCheckConfigRefusesWhatValidateRefuses: check judges by a config only
// if the server would load it, and says when the file is missing.
func TestCheckConfigRefusesWhatValidateRefuses(t *testing.T) {
	dir := t.TempDir()
	missing := filepath.Join(dir, "missing.txt")
	handler := func(fields string) string {
		return `{"apps": {"http": {"servers": {"srv0": {"listen": [":80"], "routes": [{"handle": [{"handler": "robots_txt", ` + fields + `}]}]}}}}}`
	}
	for _, tc := range []struct {
		name, config string
		code         int
		want         string
	}{
		{"a mode in capitals", handler(`"inline": "User-agent: *\nDisallow: /\n", "mode": "MONITOR"`), ExitUsage, `the handler's config is not valid: mode: "MONITOR" is not allowed`},
		{"a status that is no refusal", handler(`"inline": "User-agent: *\nDisallow: /\n", "status": 200`), ExitUsage, "the handler's config is not valid: status"},
		{"a missing file", handler(`"file": "` + missing + `"`), ExitOK, "missing.txt (does not exist: every bot is allowed until it appears) has no groups"},
		{"a missing file under strict", handler(`"file": "` + missing + `", "strict": true`), ExitUsage, "strict: robots.txt " + missing + " does not exist"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := writeTemp(t, "caddy.json", tc.config)
			code, out, errOut := runCmd(t, "", "check", "--config", cfg, "--agent", "GPTBot/1.2", "/x")
			if code != tc.code || !strings.Contains(out+errOut, tc.want) {
				t.Errorf("exit %d, want %d; output lacks %q:\n%s%s", code, tc.code, tc.want, out, errOut)
			}
		})
	}
}

// TestCheckRobotsTxtSpellings: check answers for /robots.txt as the
// handler does: never refused under a spelling the handler answers itself;
// with serve off, judged unless it is /robots.txt as sent.
func TestCheckRobotsTxtSpellings(t *testing.T) {
	file := writeTemp(t, "robots.txt", "User-agent: BadBot\nDisallow: /\n")
	targets := []string{"//robots.txt", "/x/../robots.txt", "/robots.txt/.", "/robots.txt?x=1"}
	code, out, errOut := runCmd(t, "", append([]string{"check", "--file", file, "--agent", "BadBot/1.0"}, targets...)...)
	if code != ExitOK || strings.Contains(out, "disallowed") {
		t.Errorf("served by the handler: exit %d, want %d and nothing disallowed:\n%s%s", code, ExitOK, out, errOut)
	}
	cfg := writeTemp(t, "caddy.json", `{"apps": {"http": {"servers": {"srv0": {"listen": [":80"], "routes": [{"handle": [{"handler": "robots_txt", "file": "`+file+`", "serve": false}]}]}}}}}`)
	for _, tc := range []struct {
		target string
		code   int
	}{
		{"/robots.txt", ExitOK},
		{"/%72obots.txt", ExitOK},
		{"/x/../robots.txt", ExitDisallowed},
	} {
		code, out, errOut := runCmd(t, "", "check", "--config", cfg, "--agent", "BadBot/1.0", tc.target)
		if code != tc.code {
			t.Errorf("serve off, %s: exit %d, want %d:\n%s%s", tc.target, code, tc.code, out, errOut)
		}
	}
}

// TestCheckConfigWithIDs: "@id" may stand in any object of a Caddy config,
// nested ones included; check reads such a config as Caddy does.
func TestCheckConfigWithIDs(t *testing.T) {
	cfg := writeTemp(t, "caddy.json", `{"apps": {"http": {"servers": {"srv0": {"listen": [":80"], "routes": [{"handle": [
		{"handler": "robots_txt", "@id": "rb", "inline": "User-agent: *\nDisallow: /private\n",
		 "crawlers": [{"@id": "gpt", "token": "GPTBot", "ranges": ["127.0.0.1/32"]}]}]}]}}}}}`)
	code, out, errOut := runCmd(t, "", "check", "--config", cfg, "--agent", "curl/8", "/private")
	if code != ExitDisallowed || !strings.Contains(out, "/private: disallowed") {
		t.Errorf("exit %d, want %d and /private disallowed:\n%s%s", code, ExitDisallowed, out, errOut)
	}
}

// TestCheckConfigStrictPerRequest: with strict and no file, the handler
// learns its robots.txt per request (the root variable), so strict fails
// no load: a missing file allows every bot, as check must answer, not
// that the handler refuses to load.
func TestCheckConfigStrictPerRequest(t *testing.T) {
	root := t.TempDir()
	cfg := writeTemp(t, "caddy.json", `{"apps": {"http": {"servers": {"srv0": {"listen": [":80"], "routes": [{"handle": [`+
		`{"handler": "vars", "root": "`+root+`"}, {"handler": "robots_txt", "strict": true}]}]}}}}}`)
	code, out, errOut := runCmd(t, "", "check", "--config", cfg, "--agent", "curl/8", "/x")
	if code != ExitOK || strings.Contains(errOut, "refuses to load") || !strings.Contains(out, "every bot is allowed") {
		t.Errorf("exit %d, want %d, every bot allowed:\n%s%s", code, ExitOK, out, errOut)
	}
}

// TestCheckTrapAsServed: check judges a bot's request for the trap as the
// handler does, by the robots.txt served with the trap's lines: a group
// that disallowed the trap already decides by its own rule (with its line
// on disk), and one whose Allow is as long as the trap's Disallow allows
// it. Before, every bot was disallowed there by "the trap's" rule, which
// the first group's served text does not hold and the second's loses.
func TestCheckTrapAsServed(t *testing.T) {
	const trap = "/.well-known/robots-trap/"
	file := writeTemp(t, "robots.txt", "User-agent: *\nDisallow: /private/\n\n"+
		"User-agent: GPTBot\nDisallow: /\n\n"+
		"User-agent: MyCrawler\nAllow: "+trap+"\n")
	cfg := writeTemp(t, "caddy.json", `{"apps": {"http": {"servers": {"srv0": {"listen": [":80"], "routes": [{"handle": [{"handler": "robots_txt", "file": "`+file+`", "trap": "`+trap+`"}]}]}}}}}`)
	for _, tc := range []struct {
		agent string
		code  int
		want  []string // in the JSON output
	}{
		{"GPTBot/1.1", ExitDisallowed, []string{`"rule": "disallow: /"`, `"line": 5`}},
		{"MyCrawler/1.0", ExitOK, []string{`"verdict": "allowed"`, `"rule": "allow: ` + trap + `"`, `"line": 8`}},
		{"curl/8", ExitDisallowed, []string{`"rule": "disallow: ` + trap + `"`, `"source": "trap"`}},
	} {
		code, out, errOut := runCmd(t, "", "check", "--config", cfg, "--json", "--agent", tc.agent, trap+"x")
		if code != tc.code {
			t.Errorf("%s: exit %d, want %d\n%s%s", tc.agent, code, tc.code, out, errOut)
		}
		for _, w := range tc.want {
			if !strings.Contains(out, w) {
				t.Errorf("%s: output lacks %s:\n%s", tc.agent, w, out)
			}
		}
		var got CheckOutput
		if err := json.Unmarshal([]byte(out), &got); err != nil || len(got.Results) != 1 {
			t.Fatalf("%s: %v, %d results:\n%s", tc.agent, err, len(got.Results), out)
		}
		// The handler answers every client 404 under the trap,
		// whatever the verdict (audits AF-F4, AG-F4).
		if r := got.Results[0]; r.Allowed || !r.Trap {
			t.Errorf("%s: allowed %v, trap %v; want not allowed, under the trap", tc.agent, r.Allowed, r.Trap)
		}
		// An impostor's verdict (if_unverified) may be the trap's: it
		// is held to the * group, which the trap's rule is added to.
		if tc.code == ExitDisallowed && tc.want[1] != `"source": "trap"` && got.Results[0].Source == judge.TrapSource {
			t.Errorf("%s: the trap's rule is no rule of its group:\n%s", tc.agent, out)
		}
	}
}

// TestCheckConfigUnverified: a claim to a crawler that publishes how to
// verify it gets its group in the handler only when the request passes the
// check, which check cannot make. Its output says so, and how the handler
// judges the claim that fails: as an impostor, by the * group (impostors
// judge) or refused everywhere but /robots.txt (impostors block). Before,
// check said "allowed" for a path the running site refused the header.
func TestCheckConfigUnverified(t *testing.T) {
	file := writeTemp(t, "robots.txt", "User-agent: Googlebot\nAllow: /\n\nUser-agent: *\nDisallow: /private/\n")
	handler := func(fields string) string {
		return `{"apps": {"http": {"servers": {"srv0": {"listen": [":80"], "routes": [{"handle": [{"handler": "robots_txt", "file": "` + file + `"` + fields + `}]}]}}}}}`
	}
	type verdict struct {
		allowed bool
		policy  string
	}
	for _, tc := range []struct {
		name, fields, agent string
		want                map[string]verdict // nil: no if_unverified
		impostors           string
	}{
		{"impostors judge (the default)", ``, testfixtures.UAGooglebot,
			map[string]verdict{"/private/x": {false, ""}, "/x": {true, ""}, "/robots.txt": {true, ""}}, "judge"},
		{"impostors block", `, "impostors": "block"`, testfixtures.UAGooglebot,
			map[string]verdict{"/private/x": {false, ""}, "/x": {false, "impostors block"}, "/robots.txt": {true, ""}}, "block"},
		{"impostors trust", `, "impostors": "trust"`, testfixtures.UAGooglebot, nil, ""},
		{"a crawler with no way to verify it", ``, "SomeNewCrawler/1.0", nil, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := writeTemp(t, "caddy.json", handler(tc.fields))
			code, out, errOut := runCmd(t, "", "check", "--config", cfg, "--json", "--agent", tc.agent, "/private/x", "/x", "/robots.txt")
			var got CheckOutput
			if err := json.Unmarshal([]byte(out), &got); err != nil {
				t.Fatalf("exit %d, %v:\n%s%s", code, err, out, errOut)
			}
			if tc.want == nil {
				if got.Unverified != nil {
					t.Errorf("if_unverified = %+v, want none", got.Unverified)
				}
				return
			}
			// The verdicts for the crawler itself are unchanged: its
			// own group allows everything.
			for _, r := range got.Results {
				if !r.Allowed {
					t.Errorf("%s: not allowed for the crawler itself: %+v", r.Input, r)
				}
			}
			if code != ExitOK {
				t.Errorf("exit %d, want %d: the exit status is the crawler's own", code, ExitOK)
			}
			u := got.Unverified
			if u == nil {
				t.Fatalf("no if_unverified:\n%s", out)
			}
			if u.BotName != "impostor:Googlebot" || u.Impostors != tc.impostors || len(u.Group) != 1 || u.Group[0] != "*" {
				t.Errorf("if_unverified = %q, %q, %v; want impostor:Googlebot, %q, [*]", u.BotName, u.Impostors, u.Group, tc.impostors)
			}
			if len(u.Results) != len(tc.want) {
				t.Fatalf("%d unverified results, want %d", len(u.Results), len(tc.want))
			}
			for _, r := range u.Results {
				if w := tc.want[r.Input]; r.Allowed != w.allowed || r.Policy != w.policy {
					t.Errorf("%s unverified: allowed %v, policy %q; want %v, %q", r.Input, r.Allowed, r.Policy, w.allowed, w.policy)
				}
			}
		})
	}
	// The text output names the impostor and its verdicts.
	cfg := writeTemp(t, "caddy.json", handler(``))
	_, out, _ := runCmd(t, "", "check", "--config", cfg, "--agent", testfixtures.UAGooglebot, "/private/x")
	for _, w := range []string{`is logged as "impostor:Googlebot" and held to the * group (*), and to the groups its header names (Googlebot) where they refuse more:`, "/private/x: disallowed (disallow: /private/, line 5)"} {
		if !strings.Contains(out, w) {
			t.Errorf("text output lacks %q:\n%s", w, out)
		}
	}
}

// TestCheckHeldRuleBeforeSignal: as in the handler, a rule of a group the
// client is held to refuses before the usage preferences do: an impostor
// GPTBot on a path its own group's Disallow: / refuses, and the * group's
// ai-train=no as well, is refused by that rule, which check names as the
// handler logs it (audit AG-F3).
func TestCheckHeldRuleBeforeSignal(t *testing.T) {
	file := writeTemp(t, "robots.txt", "User-agent: *\nContent-Signal: ai-train=no\nDisallow: /private/\n\n"+
		"User-agent: GPTBot\nUser-agent: ClaudeBot\nDisallow: /\n")
	cfg := writeTemp(t, "caddy.json", `{"apps": {"http": {"servers": {"srv0": {"listen": [":80"], "routes": [{"handle": [`+
		`{"handler": "robots_txt", "file": "`+file+`", "signals": "enforce"}]}]}}}}}`)
	_, out, errOut := runCmd(t, "", "check", "--config", cfg, "--json", "--agent", "GPTBot/1.1", "/pub")
	var got CheckOutput
	if err := json.Unmarshal([]byte(out), &got); err != nil || got.Unverified == nil || len(got.Unverified.Results) != 1 {
		t.Fatalf("%v, no if_unverified result:\n%s%s", err, out, errOut)
	}
	r := got.Unverified.Results[0]
	if r.Allowed || r.Rule != "disallow: /" || r.Line != 7 || r.Signal != "" || len(r.Group) == 0 || r.Group[0] != "GPTBot" {
		t.Errorf("impostor on /pub: %+v; want refused by GPTBot's disallow: / (line 7), no signal", r)
	}
}

// TestCheckHeldCappedAsTheHandler: check judges the groups a client is
// held to as the handler does: those whose rules surely allow the path
// left out, and past judge.MaxHeld of the others the result is capped
// (audit AI-F3: check refused what the handler let through capped).
func TestCheckHeldCappedAsTheHandler(t *testing.T) {
	var body, ua strings.Builder
	body.WriteString("User-agent: AcmeBot\nDisallow: /secret/\n\n")
	for i := range judge.MaxHeld + 2 {
		fmt.Fprintf(&body, "User-agent: Decoy%02d\nDisallow: /*?\n\n", i)
		fmt.Fprintf(&ua, "Decoy%02d/1.0 ", i)
	}
	ua.WriteString("AcmeBot/1.0")
	file := writeTemp(t, "robots.txt", body.String())
	code, out, errOut := runCmd(t, "", "check", "--file", file, "--json", "--agent", ua.String(), "/secret/c")
	var got CheckOutput
	if err := json.Unmarshal([]byte(out), &got); err != nil || len(got.Results) != 1 {
		t.Fatalf("%v:\n%s%s", err, out, errOut)
	}
	if r := got.Results[0]; code != ExitOK || !r.Allowed || !r.Capped {
		t.Errorf("exit %d, %+v; want allowed and capped, as the handler judges it", code, r)
	}
	// Decoys whose rules surely allow the path are no decoys.
	file = writeTemp(t, "robots.txt", strings.ReplaceAll(body.String(), "Disallow: /*?", "Disallow: /cgi-bin/"))
	if code, out, errOut := runCmd(t, "", "check", "--file", file, "--agent", ua.String(), "/secret/c"); code != ExitDisallowed {
		t.Errorf("exit %d, want %d: AcmeBot's group refuses /secret/c\n%s%s", code, ExitDisallowed, out, errOut)
	}
}
