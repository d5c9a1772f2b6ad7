package integration

import (
	"fmt"
	"net/http"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/robotsguard/caddy-robots-txt/internal/testfixtures"
)

// botClient is a client of the bot matrix and the group of testfixtures.RobotsTxt
// it must obey ("" for a browser, which obeys nothing).
type botClient struct {
	name  string
	ua    string
	group string
}

var matrixClients = []botClient{
	{"GPTBot (named in the file)", testfixtures.UAGPTBot, "GPTBot"},
	{"Googlebot (named in the file)", testfixtures.UAGooglebot, "Googlebot"},
	{"Googlebot smartphone (named in the file)", testfixtures.UAGooglebotMobile, "Googlebot"},
	{"Googlebot-Image (obeys the Googlebot group, as Google says)", "Googlebot-Image/1.0", "Googlebot"},
	{"gptbot in lower case (named in the file)", "gptbot/1.2", "GPTBot"},
	{"bingbot (known crawler, not in the file)", "Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)", "*"},
	{"AhrefsBot (known crawler, not in the file)", testfixtures.UAAhrefs, "*"},
	{"python-requests (generic bot)", testfixtures.UAPythonRequests, "*"},
	{"curl (generic bot)", testfixtures.UACurl, "*"},
	{"empty User-Agent (generic bot)", uaEmpty, "*"},
	{"Chrome", testfixtures.UAChrome, ""},
	{"Chrome on Android", testfixtures.UAChromeAndroid, ""},
	{"Firefox", testfixtures.UAFirefox, ""},
	{"Safari", testfixtures.UASafari, ""},
	{"Safari on iPhone", testfixtures.UASafariIPhone, ""},
}

var matrixPaths = []string{
	"/",
	"/about.html",
	"/private/x.html",
	"/private/ok.html",
	"/private/deep/y.js",
	"/drafts/d.html",
	"/public/p.html",
	"/robots.txt",
}

// expectedRule returns the rule of testfixtures.RobotsTxt that disallows path for
// group, or ok=false when path is allowed.
func expectedRule(group, path string) (ruleAt, bool) {
	if path == "/robots.txt" {
		return ruleAt{}, false // always served
	}
	switch group {
	case "GPTBot":
		return ruleGPTBotAll, true
	case "Googlebot":
		if strings.HasPrefix(path, "/drafts/") {
			return ruleGooglebotDraf, true
		}
	case "*":
		if strings.HasPrefix(path, "/private/") && path != "/private/ok.html" {
			return ruleStarPrivate, true
		}
	}
	return ruleAt{}, false
}

// violationKey identifies a violation log entry.
type violationKey struct {
	uri, ua, group, rule string
	line                 int
}

func TestBotMatrix(t *testing.T) {
	t.Parallel()
	for _, mode := range []string{"enforce", "monitor"} {
		t.Run(mode, func(t *testing.T) {
			t.Parallel()
			inst := newInstance(t)
			writeTestSite(t, inst.dir, true)
			inst.start(fmt.Sprintf(`http://127.0.0.1:{{port}} {
	root * {{dir}}/site
	robots_txt {
		`+verifiedHere+`
		mode %s
	}
	file_server
}
`, mode))

			want := map[violationKey]bool{}
			for _, c := range matrixClients {
				for _, path := range matrixPaths {
					rule, disallowed := expectedRule(c.group, path)
					wantStatus := http.StatusOK
					if disallowed && mode == "enforce" {
						wantStatus = http.StatusForbidden
					}
					if disallowed {
						want[violationKey{path, c.ua, c.group, rule.rule, rule.line}] = true
					}
					t.Run(c.name+" "+path, func(t *testing.T) {
						resp := inst.get(t, path, c.ua)
						if resp.status != wantStatus {
							t.Errorf("GET %s as %s (%s mode): status %d, want %d (body %q)",
								path, c.name, mode, resp.status, wantStatus, resp.body)
						}
						if path == "/robots.txt" && resp.body != testfixtures.RobotsTxt {
							t.Errorf("GET /robots.txt as %s: body %q, want the file", c.name, resp.body)
						}
					})
				}
			}

			// Caddy's log has exactly one violation entry per disallowed
			// request, naming the rule and its line.
			msg := "robots.txt violation"
			if mode == "enforce" {
				msg = "robots.txt violation blocked"
			}
			entries := inst.waitModuleLogs(t, msg, len(want), 30*time.Second)
			time.Sleep(100 * time.Millisecond) // let any stray entry arrive
			entries = inst.moduleLogs(msg)
			got := map[violationKey]bool{}
			for _, e := range entries {
				line, _ := e.num("line")
				k := violationKey{e.str("uri"), e.str("user_agent"), e.str("group"), e.str("rule"), line}
				if got[k] {
					t.Errorf("duplicate violation log entry %+v", k)
				}
				got[k] = true
				if mode == "monitor" && e.str("level") != "warn" {
					t.Errorf("violation entry %+v has level %q, want warn", k, e.str("level"))
				}
			}
			for _, d := range diffKeys(want, got) {
				t.Error(d)
			}
		})
	}
}

// diffKeys describes the keys in exactly one of want and got.
func diffKeys(want, got map[violationKey]bool) []string {
	var out []string
	for k := range want {
		if !got[k] {
			out = append(out, fmt.Sprintf("missing violation log entry: %+v", k))
		}
	}
	for k := range got {
		if !want[k] {
			out = append(out, fmt.Sprintf("unexpected violation log entry: %+v", k))
		}
	}
	sort.Strings(out)
	return out
}
