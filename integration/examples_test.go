package integration

import (
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/robotsguard/caddy-robots-txt/internal/testfixtures"
)

// exampleConfigs lists the configs in examples/: Caddyfiles (Caddyfile,
// *.Caddyfile) and JSON files.
func exampleConfigs(t testing.TB) (caddyfiles, jsons []string) {
	t.Helper()
	entries, err := os.ReadDir(filepath.Join(repoRoot, "examples"))
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if e.IsDir() {
			continue
		}
		name := e.Name()
		rel := filepath.Join("examples", name)
		switch {
		case name == "Caddyfile" || strings.HasSuffix(name, ".Caddyfile"):
			caddyfiles = append(caddyfiles, rel)
		case strings.HasSuffix(name, ".json"):
			jsons = append(jsons, rel)
		}
	}
	return caddyfiles, jsons
}

// TestExamplesAdapt checks that every example config adapts (or, for
// JSON, validates) and configures the robots_txt handler.
func TestExamplesAdapt(t *testing.T) {
	t.Parallel()
	caddyfiles, jsons := exampleConfigs(t)
	if len(caddyfiles) < 2 || len(jsons) < 1 {
		t.Fatalf("found Caddyfiles %v and JSON configs %v in examples/, want at least 2 and 1", caddyfiles, jsons)
	}
	for _, rel := range caddyfiles {
		t.Run(rel, func(t *testing.T) {
			t.Parallel()
			code, stdout, stderr := runCaddyCmd(t, "", "adapt", "--config", rel, "--adapter", "caddyfile")
			if code != 0 {
				t.Fatalf("caddy adapt --config %s: exit %d\n%s", rel, code, stderr)
			}
			if !strings.Contains(stdout, `"handler":"robots_txt"`) {
				t.Errorf("adapted %s has no robots_txt handler:\n%s", rel, stdout)
			}
			if strings.Contains(stderr, "not formatted") {
				t.Errorf("%s is not formatted as caddy fmt would:\n%s", rel, stderr)
			}
		})
	}
	for _, rel := range jsons {
		t.Run(rel, func(t *testing.T) {
			t.Parallel()
			code, stdout, stderr := runCaddyCmd(t, "", "validate", "--config", rel)
			if code != 0 {
				t.Fatalf("caddy validate --config %s: exit %d\n%s%s", rel, code, stdout, stderr)
			}
			b, err := os.ReadFile(filepath.Join(repoRoot, rel))
			if err != nil {
				t.Fatal(err)
			}
			var v any
			if err := json.Unmarshal(b, &v); err != nil {
				t.Fatalf("%s: %v", rel, err)
			}
			compact, _ := json.Marshal(v)
			if !strings.Contains(string(compact), `"handler":"robots_txt"`) {
				t.Errorf("%s has no robots_txt handler", rel)
			}
		})
	}
}

// readExample returns the text of the file at the path elem names under
// examples/.
func readExample(t testing.TB, elem ...string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(append([]string{repoRoot, "examples"}, elem...)...))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// demoPromise is one "curl" line of an example's header comment.
type demoPromise struct {
	ua     string // "" for curl's own
	host   string // "localhost", "a.localhost"
	path   string
	status int
	line   string
}

// demoPromises reads the curl lines of an example's header comment: the
// User-Agent (-A), the host and path, and the status promised in the
// trailing comment, on the same line or the next comment line.
func demoPromises(t testing.TB, text string) []demoPromise {
	t.Helper()
	curlRe := regexp.MustCompile(`curl -i(?: -A '([^']*)')? ((?:[a-z0-9-]+\.)*localhost):\d+(\S*)`)
	statusRe := regexp.MustCompile(`#\s*(\d{3}):`)
	lines := strings.Split(text, "\n")
	var out []demoPromise
	for i, line := range lines {
		if !strings.HasPrefix(line, "#") {
			break // the header comment ends
		}
		m := curlRe.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		p := demoPromise{ua: m[1], host: m[2], path: m[3], line: strings.TrimSpace(line)}
		rest := line[strings.Index(line, m[0])+len(m[0]):]
		s := statusRe.FindStringSubmatch(rest)
		if s == nil && i+1 < len(lines) && !curlRe.MatchString(lines[i+1]) {
			s = statusRe.FindStringSubmatch(lines[i+1])
		}
		switch {
		case s != nil:
			p.status, _ = strconv.Atoi(s[1])
		case strings.Contains(rest, "served by the module"):
			p.status = http.StatusOK
		default:
			t.Fatalf("no promised status for %q", line)
		}
		out = append(out, p)
	}
	return out
}

func TestExampleCaddyfile(t *testing.T) {
	t.Parallel()
	src := readExample(t, "Caddyfile")
	promises := demoPromises(t, src)
	// The header comment promises these; check the parse found them all.
	want := map[string]int{
		"GPTBot/1.1 /about.html":              403,
		" /private/":                          403,
		" /private/press-kit.html":            200,
		testfixtures.UAFirefox + " /private/": 200,
		" /robots.txt":                        200,
		"Googlebot/2.1 /private/":             403,
	}
	if len(promises) != len(want) {
		t.Errorf("read %d promises from the header comment, want %d: %+v", len(promises), len(want), promises)
	}
	for _, p := range promises {
		if w, ok := want[p.ua+" "+p.path]; !ok || w != p.status {
			t.Errorf("unexpected promise %+v (check the header comment or this table)", p)
		}
	}

	inst := newInstance(t)
	inst.host = fmt.Sprintf("localhost:%d", inst.port)
	if !strings.Contains(src, "http://localhost:8080 {") || !strings.Contains(src, "root * examples/site") {
		t.Fatalf("examples/Caddyfile no longer has the site address or root this test rewrites")
	}
	cfg := strings.ReplaceAll(src, "localhost:8080", inst.host)
	path := filepath.Join(inst.dir, "Caddyfile")
	writeFile(t, path, cfg)
	inst.launch(path, "caddyfile", repoRoot) // root is relative to the repository

	robotsTxt := readExample(t, "site", "robots.txt")
	for _, p := range promises {
		ua := p.ua
		if ua == "" {
			ua = testfixtures.UACurl
		}
		resp := inst.get(t, p.path, ua)
		if resp.status != p.status {
			t.Errorf("%s\n  GET %s (UA %q): status %d, want %d", p.line, p.path, ua, resp.status, p.status)
		}
		if p.path == "/robots.txt" {
			if resp.body != robotsTxt {
				t.Errorf("/robots.txt body %q, want examples/site/robots.txt", resp.body)
			}
			if resp.header.Get("ETag") == "" || resp.header.Get("Last-Modified") == "" {
				t.Errorf("/robots.txt without ETag or Last-Modified: %v", resp.header)
			}
		}
	}

	// "Every bot request's entry carries a robots_txt object: bot, group,
	// verdict, rule, line, mode and action." The access log is stdout.
	var botEntries int
	eventually(t, 30*time.Second, "access log entries on stdout", func() bool {
		botEntries = 0
		for _, e := range parseJSONLines(inst.stdout.String()) {
			if _, ok := e.obj("robots_txt"); ok {
				botEntries++
			}
		}
		return botEntries >= len(promises)-1
	})
	for _, e := range parseJSONLines(inst.stdout.String()) {
		uri, ua := accessURI(e)
		rt, ok := e.obj("robots_txt")
		if ua == testfixtures.UAFirefox || uri == readyPath {
			if ok {
				t.Errorf("browser entry %s has robots_txt %v", uri, rt)
			}
			continue
		}
		if !ok {
			t.Errorf("bot entry %s (UA %q) has no robots_txt object", uri, ua)
			continue
		}
		for _, k := range []string{"bot", "group", "verdict", "mode", "action"} {
			if rt.str(k) == "" {
				t.Errorf("bot entry %s: robots_txt.%s missing: %v", uri, k, rt)
			}
		}
		if rt.str("verdict") == "disallowed" && (rt.str("rule") == "" || rt["line"] == nil) {
			t.Errorf("disallowed entry %s without rule and line: %v", uri, rt)
		}
	}
}

func TestExampleMonitorReverseProxy(t *testing.T) {
	t.Parallel()
	src := readExample(t, "monitor-reverse-proxy.Caddyfile")
	inst := newInstance(t)
	backend := freePort(t)
	inst.host = fmt.Sprintf("localhost:%d", inst.port)
	for _, s := range []string{"localhost:8081", "localhost:9081"} {
		if !strings.Contains(src, s) {
			t.Fatalf("examples/monitor-reverse-proxy.Caddyfile no longer mentions %s, which this test rewrites", s)
		}
	}
	cfg := strings.NewReplacer(
		"localhost:8081", inst.host,
		"localhost:9081", fmt.Sprintf("localhost:%d", backend),
	).Replace(src)
	path := filepath.Join(inst.dir, "monitor.Caddyfile")
	writeFile(t, path, cfg)
	inst.launch(path, "caddyfile", repoRoot)

	shop := readExample(t, "shop-robots.txt")
	const uaGPTBotShort = "Mozilla/5.0 (compatible; GPTBot/1.1; +https://openai.com/gptbot)" // the header comment's
	const uaUptimeRobot = "Mozilla/5.0+(compatible; UptimeRobot/2.0; http://www.uptimerobot.com/)"
	type req struct {
		ua, path string
		rule     string // "" when no violation is expected
	}
	reqs := []req{
		// GPTBot claimed from this machine is an impostor: held to the
		// * group first, and to GPTBot's "Disallow: /" where that
		// allows.
		{uaGPTBotShort, "/account/settings", "disallow: /account/"},
		{testfixtures.UAGPTBot, "/products/1", "disallow: /"},
		{testfixtures.UAPythonRequests, "/account/settings", "disallow: /account/"},
		{testfixtures.UAPythonRequests, "/cart", "disallow: /cart"},
		{testfixtures.UAPythonRequests, "/cart/add?item=3", "disallow: /cart"},
		{testfixtures.UAPythonRequests, "/products/1?sessionid=abc", "disallow: /*?sessionid="},
		{testfixtures.UAPythonRequests, "/products/1", ""},
		{testfixtures.UAAhrefs, "/", ""},
		{uaUptimeRobot, "/account/settings", ""}, // humans UptimeRobot
		{testfixtures.UAFirefox, "/account/settings", ""},
		{testfixtures.UAChrome, "/cart", ""},
	}
	want := map[violationKey]bool{}
	for _, r := range reqs {
		resp := inst.get(t, r.path, r.ua)
		wantBody := "Hello from the application: " + strings.SplitN(r.path, "?", 2)[0]
		if resp.status != http.StatusOK || resp.body != wantBody {
			t.Errorf("GET %s (UA %q) in monitor mode: status %d body %q, want 200 %q", r.path, r.ua, resp.status, resp.body, wantBody)
		}
		if r.rule != "" {
			// Only GPTBot's group disallows everything.
			group := "*"
			if r.rule == "disallow: /" {
				group = "GPTBot"
			}
			want[violationKey{r.path, r.ua, group, r.rule, ruleLine(t, shop, group, r.rule)}] = true
		}
	}
	if resp := inst.get(t, "/robots.txt", testfixtures.UAGPTBot); resp.status != http.StatusOK || resp.body != shop {
		t.Errorf("/robots.txt: status %d body %q, want 200 and examples/shop-robots.txt", resp.status, resp.body)
	}
	inst.waitModuleLogs(t, "robots.txt violation", len(want), 30*time.Second)
	time.Sleep(100 * time.Millisecond)
	got := map[violationKey]bool{}
	for _, e := range inst.moduleLogs("robots.txt violation") {
		line, _ := e.num("line")
		got[violationKey{e.str("uri"), e.str("user_agent"), e.str("group"), e.str("rule"), line}] = true
		if e.str("level") != "warn" {
			t.Errorf("violation logged at level %q, want warn: %v", e.str("level"), e)
		}
	}
	for _, d := range diffKeys(want, got) {
		t.Error(d)
	}
	// "action "logged" in the access log"
	eventually(t, 30*time.Second, "logged actions in the access log", func() bool {
		n := 0
		for _, e := range parseJSONLines(inst.stdout.String()) {
			if rt, ok := e.obj("robots_txt"); ok && rt.str("action") == "logged" {
				n++
			}
		}
		return n == len(want)
	})
}

// TestExampleHosting runs examples/hosting.Caddyfile and keeps the
// promises of its header comment, in their order, since the trap and
// Crawl-delay remember what came before: each site's own robots.txt, the
// included list, impostors refused, Crawl-delay's burst and its 429, and
// the trap, which holds an address on its own site only.
func TestExampleHosting(t *testing.T) {
	t.Parallel()
	src := readExample(t, "hosting.Caddyfile")
	promises := demoPromises(t, src)
	// What the header comment shows; check the parse found it all.
	const (
		uaExample    = "ExampleBot/1.0"
		uaBytespider = "Mozilla/5.0 (compatible; Bytespider; spider-feedback@bytedance.com)"
		uaGooglebot  = "Googlebot/2.1 (+http://www.google.com/bot.html)"
		uaFirefox    = testfixtures.UAFirefox
	)
	want := []demoPromise{
		{ua: uaExample, host: "a.localhost", path: "/members/", status: 403},
		{ua: uaExample, host: "b.localhost", path: "/members/", status: 200},
		{ua: uaExample, host: "b.localhost", path: "/", status: 200},
		{ua: uaExample, host: "b.localhost", path: "/", status: 200},
		{ua: uaExample, host: "b.localhost", path: "/", status: 429},
		{ua: uaBytespider, host: "b.localhost", path: "/", status: 403},
		{ua: uaGooglebot, host: "b.localhost", path: "/", status: 403},
		{host: "b.localhost", path: "/robots.txt", status: 200},
		{ua: uaFirefox, host: "a.localhost", path: "/members/", status: 200},
		{ua: uaFirefox, host: "a.localhost", path: "/.well-known/robots-trap/", status: 404},
		{ua: uaFirefox, host: "a.localhost", path: "/members/", status: 403},
		{ua: uaFirefox, host: "b.localhost", path: "/drafts/", status: 200},
	}
	if len(promises) != len(want) {
		t.Fatalf("read %d promises from the header comment, want %d: %+v", len(promises), len(want), promises)
	}
	for i, p := range promises {
		p.line = ""
		if p != want[i] {
			t.Fatalf("promise %d is %+v, want %+v (check the header comment or this table)", i+1, p, want[i])
		}
	}

	inst := newInstance(t)
	if !strings.Contains(src, "http://*.localhost:8083 {") || !strings.Contains(src, "root * examples/hosting/sites/{host}") {
		t.Fatalf("examples/hosting.Caddyfile no longer has the site address or root this test rewrites")
	}
	port := fmt.Sprintf(":%d", inst.port)
	path := filepath.Join(inst.dir, "hosting.Caddyfile")
	writeFile(t, path, strings.ReplaceAll(src, ":8083", port))
	inst.host = "a.localhost" + port
	inst.launch(path, "caddyfile", repoRoot) // roots are relative to the repository

	siteB := readExample(t, "hosting", "sites", "b.localhost", "robots.txt")
	for _, p := range promises {
		ua := p.ua
		if ua == "" {
			ua = testfixtures.UACurl
		}
		inst.host = p.host + port
		resp := inst.get(t, p.path, ua)
		if resp.status != p.status {
			t.Errorf("%s\n  GET %s (Host %s, UA %q): status %d, want %d", p.line, p.path, p.host, ua, resp.status, p.status)
		}
		switch {
		case p.status == http.StatusTooManyRequests:
			if s, err := strconv.Atoi(resp.header.Get("Retry-After")); err != nil || s < 1 || s > 10 {
				t.Errorf("the 429 has Retry-After %q, want 1 to 10 seconds", resp.header.Get("Retry-After"))
			}
		case p.path == "/robots.txt":
			// The site's own lines, then the list; the trap's
			// Disallow goes into every group that lacks one.
			parts := append(strings.Split(strings.TrimSpace(siteB), "\n"),
				"# included from examples/hosting/ai-crawlers.txt", "User-agent: Bytespider", "Disallow: /.well-known/robots-trap/")
			for _, part := range parts {
				if !strings.Contains(resp.body, part) {
					t.Errorf("b.localhost's /robots.txt lacks %q:\n%s", part, resp.body)
				}
			}
		}
	}

	// The check command of the header comment answers for a.localhost
	// from its own robots.txt, as the server did.
	checkLine := regexp.MustCompile(`(?m)^#\s+go run \./cmd/caddy (robots check .*)$`).FindStringSubmatch(src)
	if checkLine == nil {
		t.Fatal("the header comment has no robots check command")
	}
	code, out, errOut := runCaddyCmd(t, "", strings.Fields(checkLine[1])...)
	if code != 1 || !strings.Contains(out, "/members/: disallowed") || !strings.Contains(out, "disallow: /members/") || !strings.Contains(out, "/drafts/: allowed") {
		t.Errorf("%s: exit %d, want 1, /members/ disallowed by a.localhost's rule and /drafts/ allowed:\n%s%s", checkLine[1], code, out, errOut)
	}

	// The access log says who each refused bot was taken for.
	wantBots := map[string]string{
		uaBytespider + " /":      "Bytespider",
		uaGooglebot + " /":       "impostor:Googlebot",
		uaFirefox + " /members/": "trapped",
	}
	seen := map[string]string{}
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("refusals in the access log, by request: %v", seen)
		}
	})
	eventually(t, 30*time.Second, "the refusals in the access log", func() bool {
		for _, e := range parseJSONLines(inst.stdout.String()) {
			uri, ua := accessURI(e)
			if rt, ok := e.obj("robots_txt"); ok && rt.str("action") == "blocked" {
				seen[ua+" "+uri] = rt.str("bot")
			}
		}
		for k, bot := range wantBots {
			if seen[k] != bot {
				return false
			}
		}
		return true
	})
}

// ruleLine returns the line of robots.txt text where rule (as the module
// prints it, "disallow: /x") is written in the group for agent.
func ruleLine(t testing.TB, text, agent, rule string) int {
	t.Helper()
	field, value, _ := strings.Cut(rule, ": ")
	inGroup, prevAgent := false, false
	for i, raw := range strings.Split(text, "\n") {
		line := strings.TrimSpace(raw)
		if j := strings.Index(line, "#"); j >= 0 {
			line = strings.TrimSpace(line[:j])
		}
		k, v, ok := strings.Cut(line, ":")
		if !ok {
			continue
		}
		k, v = strings.ToLower(strings.TrimSpace(k)), strings.TrimSpace(v)
		if k == "user-agent" {
			if !prevAgent {
				inGroup = false
			}
			if strings.EqualFold(v, agent) {
				inGroup = true
			}
			prevAgent = true
			continue
		}
		prevAgent = false
		if inGroup && k == field && v == value {
			return i + 1
		}
	}
	t.Fatalf("rule %q of group %q not found in robots.txt:\n%s", rule, agent, text)
	return 0
}

func TestExampleCaddyJSON(t *testing.T) {
	t.Parallel()
	src := readExample(t, "caddy.json")
	if !strings.Contains(src, `":8082"`) {
		t.Fatal(`examples/caddy.json no longer listens on ":8082", which this test rewrites`)
	}
	inst := newInstance(t)
	cfg := strings.ReplaceAll(src, `":8082"`, fmt.Sprintf(`"127.0.0.1:%d"`, inst.port))
	path := filepath.Join(inst.dir, "caddy.json")
	writeFile(t, path, cfg)
	inst.launch(path, "", repoRoot) // admin address from CADDY_ADMIN

	const refusal = "This path is disallowed for crawlers by /robots.txt.\n"
	const uaUptimeRobot = "Mozilla/5.0+(compatible; UptimeRobot/2.0; http://www.uptimerobot.com/)"
	cases := []struct {
		ua, path string
		status   int
	}{
		// GPTBot claimed from this machine is an impostor, held to the
		// * group and to GPTBot's (the example keeps the default,
		// impostors judge): GPTBot's "Disallow: /" refuses it.
		{testfixtures.UAGPTBot, "/", 403},
		{testfixtures.UAGPTBot, "/admin/users", 403},
		{testfixtures.UAPythonRequests, "/admin/users", 403},
		{testfixtures.UAPythonRequests, "/blog/post", 200},
		{"MyInternalCrawler/2.0", "/admin/", 403}, // bots: MyInternalCrawler
		{"MyInternalCrawler/2.0", "/blog/", 200},
		{uaUptimeRobot, "/admin/", 200}, // humans: UptimeRobot
		{testfixtures.UAFirefox, "/admin/", 200},
		{testfixtures.UASafari, "/", 200},
	}
	for _, c := range cases {
		resp := inst.get(t, c.path, c.ua)
		wantBody := refusal
		if c.status == 200 {
			wantBody = "Hello from " + c.path + "\n"
		}
		if resp.status != c.status || resp.body != wantBody {
			t.Errorf("GET %s (UA %q): status %d body %q, want %d %q", c.path, c.ua, resp.status, resp.body, c.status, wantBody)
		}
	}
	resp := inst.get(t, "/robots.txt", testfixtures.UAGPTBot)
	if want := "User-agent: *\nDisallow: /admin/\n\nUser-agent: GPTBot\nDisallow: /\n"; resp.status != 200 || resp.body != want {
		t.Errorf("/robots.txt: status %d body %q, want 200 %q (the inline text)", resp.status, resp.body, want)
	}
}

// TestReadmeJSON runs the complete JSON config of the README's JSON
// reference, so that the README cannot show a config Caddy refuses.
func TestReadmeJSON(t *testing.T) {
	t.Parallel()
	readme, err := os.ReadFile(filepath.Join(repoRoot, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(readme), "## JSON reference")
	if !ok {
		t.Fatal(`README.md has no "## JSON reference" section`)
	}
	_, block, ok := strings.Cut(section, "```json\n")
	if !ok {
		t.Fatal("the JSON reference has no ```json block")
	}
	block, _, _ = strings.Cut(block, "```")
	if !json.Valid([]byte(block)) {
		t.Fatalf("the README's JSON block is not valid JSON:\n%s", block)
	}
	if !strings.Contains(block, `":8082"`) {
		t.Fatal(`the README's JSON block no longer listens on ":8082", which this test rewrites`)
	}
	inst := newInstance(t)
	path := filepath.Join(inst.dir, "caddy.json")
	writeFile(t, path, strings.ReplaceAll(block, `":8082"`, fmt.Sprintf(`"127.0.0.1:%d"`, inst.port)))
	if code, out, errOut := runCaddyCmd(t, inst.dir, "validate", "--config", path); code != 0 {
		t.Fatalf("caddy validate: exit %d\n%s%s", code, out, errOut)
	}
	inst.launch(path, "", repoRoot)
	for _, c := range []struct {
		ua, path, body string
		status         int
	}{
		{testfixtures.UAGPTBot, "/", "Disallowed for GPTBot by /robots.txt\n", 403},
		{"MyInternalCrawler/2.0", "/admin/x", "Disallowed for MyInternalCrawler by /robots.txt\n", 403},
		{testfixtures.UAPythonRequests, "/blog/", "Hello from /blog/\n", 200},
		{testfixtures.UAFirefox, "/admin/x", "Hello from /admin/x\n", 200},
	} {
		if got := inst.get(t, c.path, c.ua); got.status != c.status || got.body != c.body {
			t.Errorf("GET %s (UA %q): %d %q, want %d %q", c.path, c.ua, got.status, got.body, c.status, c.body)
		}
	}
}
