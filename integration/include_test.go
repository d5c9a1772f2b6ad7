package integration

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/robotsguard/caddy-robots-txt/internal/testfixtures"
)

// TestInclude: community lists included beside the site's own file are
// served (each under a comment naming it) and enforced, and the site's
// own groups win over them.
func TestInclude(t *testing.T) {
	t.Parallel()
	list := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, "# a community list\nUser-agent: ListedBot\nUser-agent: OtherListedBot\nDisallow: /\n")
	}))
	defer list.Close()
	inst := startCaddy(t, `http://127.0.0.1:{{port}} {
	root * {{dir}}/site
	robots_txt {
		`+verifiedHere+`
		include {{dir}}/ai-list.txt `+list.URL+`/robots.txt
	}
	file_server
	log {
		output file {{dir}}/access.log
		format json
	}
}
`, func(inst *instance) {
		writeTestSite(t, inst.dir, true)
		// GPTBot is named by the site (Disallow: /) and by the list
		// (Allow: /): the site wins.
		writeFile(t, filepath.Join(inst.dir, "ai-list.txt"), "User-agent: GPTBot\nAllow: /\n\nUser-agent: ExampleAIBot\nDisallow: /\n")
	})
	served := inst.get(t, "/robots.txt", testfixtures.UAChrome)
	for _, want := range []string{
		testfixtures.RobotsTxt,
		"# included from " + filepath.Join(inst.dir, "ai-list.txt") + "\nUser-agent: ExampleAIBot\nDisallow: /\n",
		"# included from " + list.URL + "/robots.txt\nUser-agent: ListedBot\nUser-agent: OtherListedBot\nDisallow: /\n",
	} {
		if !strings.Contains(served.body, want) {
			t.Errorf("served robots.txt lacks %q:\n%s", want, served.body)
		}
	}
	if strings.Contains(served.body, "Allow: /\n\nUser-agent: ExampleAIBot") || strings.Count(served.body, "User-agent: GPTBot") != 1 {
		t.Errorf("the list's GPTBot group was served beside the site's:\n%s", served.body)
	}
	for _, c := range []struct {
		ua, path string
		status   int
	}{
		{"ExampleAIBot/1.0", "/about.html", http.StatusForbidden},
		{"ListedBot/2.0 (+https://listed.example/bot)", "/about.html", http.StatusForbidden},
		{testfixtures.UAGPTBot, "/about.html", http.StatusForbidden}, // the site's Disallow: / wins
		{testfixtures.UACurl, "/about.html", http.StatusOK},
	} {
		if got := inst.get(t, c.path, c.ua); got.status != c.status {
			t.Errorf("%s as %q: %d, want %d", c.path, c.ua, got.status, c.status)
		}
	}
	// The violation names the list its rule came from.
	entries := waitAccessLog(t, filepath.Join(inst.dir, "access.log"), 5, 10*time.Second)
	var found bool
	for _, e := range entries {
		if rt, ok := e.obj("robots_txt"); ok && rt.str("bot") == "ExampleAIBot" {
			found = true
			if want := filepath.Join(inst.dir, "ai-list.txt") + ":5"; rt.str("rule_source") != want {
				t.Errorf("ExampleAIBot's violation: rule_source %q, want %q", rt.str("rule_source"), want)
			}
		}
	}
	if !found {
		t.Error("no access-log entry for ExampleAIBot")
	}
}
