package integration

import (
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/robotsguard/caddy-robots-txt/internal/testfixtures"
)

// wantAccess is the robots_txt object expected on one access-log entry;
// nil means the entry must have no robots_txt key.
type wantAccess struct {
	bot, group, verdict, rule string
	line                      int // 0: no rule, so no rule and no line keys
	action                    string
}

func TestAccessLog(t *testing.T) {
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
	log {
		output file {{dir}}/access.log
		format json
	}
}
`, mode))
			blockedAction := "blocked"
			if mode == "monitor" {
				blockedAction = "logged"
			}
			requests := []struct {
				path, ua string
				want     *wantAccess
			}{
				{"/about.html", testfixtures.UAGPTBot, &wantAccess{"GPTBot", "GPTBot", "disallowed", ruleGPTBotAll.rule, ruleGPTBotAll.line, blockedAction}},
				{"/private/x.html", testfixtures.UAPythonRequests, &wantAccess{"", "*", "disallowed", ruleStarPrivate.rule, ruleStarPrivate.line, blockedAction}},
				{"/private/ok.html", testfixtures.UAPythonRequests, &wantAccess{"", "*", "allowed", ruleStarAllowOK.rule, ruleStarAllowOK.line, "passed"}},
				{"/about.html", testfixtures.UAAhrefs, &wantAccess{"", "*", "allowed", "", 0, "passed"}},
				{"/drafts/d.html", testfixtures.UAGooglebot, &wantAccess{"Googlebot", "Googlebot", "disallowed", ruleGooglebotDraf.rule, ruleGooglebotDraf.line, blockedAction}},
				{"/private/x.html", testfixtures.UAGooglebot, &wantAccess{"Googlebot", "Googlebot", "allowed", "", 0, "passed"}},
				{"/robots.txt", testfixtures.UAGPTBot, &wantAccess{"GPTBot", "GPTBot", "allowed", "", 0, "served"}},
				{"/private/x.html", testfixtures.UAFirefox, nil},
				{"/about.html", testfixtures.UAChrome, nil},
				{"/robots.txt", testfixtures.UASafari, nil},
			}
			for _, r := range requests {
				inst.get(t, r.path, r.ua)
			}
			entries := waitAccessLog(t, filepath.Join(inst.dir, "access.log"), len(requests), 10*time.Second)
			if len(entries) != len(requests) {
				t.Fatalf("%d access log entries, want %d", len(entries), len(requests))
			}
			for _, r := range requests {
				var entry logEntry
				for _, e := range entries {
					if uri, ua := accessURI(e); uri == r.path && ua == r.ua {
						entry = e
					}
				}
				if entry == nil {
					t.Errorf("no access log entry for %s (UA %q)", r.path, r.ua)
					continue
				}
				rt, has := entry.obj("robots_txt")
				if r.want == nil {
					if _, present := entry["robots_txt"]; present {
						t.Errorf("%s (browser %q): access log entry has robots_txt %v, want none", r.path, r.ua, entry["robots_txt"])
					}
					continue
				}
				if !has {
					t.Errorf("%s (UA %q): access log entry has no robots_txt object: %v", r.path, r.ua, entry)
					continue
				}
				w := r.want
				check := func(key, want string) {
					if got := rt.str(key); got != want {
						t.Errorf("%s (UA %q): robots_txt.%s = %q, want %q (entry %v)", r.path, r.ua, key, got, want, rt)
					}
				}
				if w.bot != "" {
					check("bot", w.bot)
				} else if rt.str("bot") == "" {
					t.Errorf("%s (UA %q): robots_txt.bot is empty", r.path, r.ua)
				}
				check("group", w.group)
				check("verdict", w.verdict)
				check("mode", mode)
				check("action", w.action)
				line, hasLine := rt.num("line")
				if w.rule == "" {
					if _, ok := rt["rule"]; ok {
						t.Errorf("%s (UA %q): robots_txt.rule = %v, want no rule key", r.path, r.ua, rt["rule"])
					}
					if hasLine {
						t.Errorf("%s (UA %q): robots_txt.line = %d, want no line key", r.path, r.ua, line)
					}
				} else {
					check("rule", w.rule)
					if _, isNum := rt["line"].(float64); !isNum || line != w.line {
						t.Errorf("%s (UA %q): robots_txt.line = %v, want the number %d", r.path, r.ua, rt["line"], w.line)
					}
				}
			}
		})
	}
}
