package integration

import (
	"net/http"
	"strings"
	"testing"

	"github.com/robotsguard/caddy-robots-txt/internal/testfixtures"
)

// placeholderBody is what the test site responds with: every robots_txt
// placeholder, labelled.
const placeholderBody = `verdict={http.robots_txt.verdict}|rule={http.robots_txt.rule}|line={http.robots_txt.line}|group={http.robots_txt.group}|bot={http.robots_txt.bot}|mode={http.robots_txt.mode}|action={http.robots_txt.action}`

func TestPlaceholders(t *testing.T) {
	t.Parallel()
	inst := newInstance(t)
	writeTestSite(t, inst.dir, true)
	inst.start(`http://127.0.0.1:{{port}} {
	root * {{dir}}/site
	robots_txt {
		` + verifiedHere + `
		mode monitor
	}
	header >X-Robots-Verdict "{http.robots_txt.verdict} {http.robots_txt.rule}"
	header >X-Robots-Action "{http.robots_txt.bot} {http.robots_txt.action}"
	respond "` + placeholderBody + `"
}
`)
	cases := []struct {
		name, path, ua string
		want           string // the response body
		wantHeader     string // X-Robots-Verdict
	}{
		{"GPTBot disallowed", "/about.html", testfixtures.UAGPTBot,
			"verdict=disallowed|rule=disallow: /|line=6|group=GPTBot|bot=GPTBot|mode=monitor|action=logged",
			"disallowed disallow: /"},
		{"generic bot disallowed", "/private/x.html", testfixtures.UAPythonRequests,
			"verdict=disallowed|rule=disallow: /private/|line=2|group=*|bot=python-requests|mode=monitor|action=logged",
			"disallowed disallow: /private/"},
		{"generic bot allowed by an allow rule", "/private/ok.html", testfixtures.UAPythonRequests,
			"verdict=allowed|rule=allow: /private/ok.html|line=3|group=*|bot=python-requests|mode=monitor|action=passed",
			"allowed allow: /private/ok.html"},
		{"Googlebot allowed, no rule", "/about.html", testfixtures.UAGooglebot,
			"verdict=allowed|rule=|line=|group=Googlebot|bot=Googlebot|mode=monitor|action=passed",
			"allowed"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			resp := inst.get(t, c.path, c.ua)
			if resp.status != http.StatusOK {
				t.Errorf("status %d, want 200", resp.status)
			}
			if resp.body != c.want {
				t.Errorf("GET %s (UA %q):\n got body %q\nwant body %q", c.path, c.ua, resp.body, c.want)
			}
			if got := strings.TrimSpace(resp.header.Get("X-Robots-Verdict")); got != c.wantHeader {
				t.Errorf("X-Robots-Verdict %q, want %q", got, c.wantHeader)
			}
		})
	}
	// A bot's fetch of robots.txt, answered by the handler itself, is a
	// bot request: a deferred header reads its placeholders too, on a
	// 200 and on a 304.
	t.Run("robots.txt fetch", func(t *testing.T) {
		resp := inst.get(t, "/robots.txt", testfixtures.UAGPTBot)
		if got := strings.TrimSpace(resp.header.Get("X-Robots-Action")); resp.status != http.StatusOK || got != "GPTBot served" {
			t.Fatalf("GET /robots.txt: status %d, X-Robots-Action %q; want 200, \"GPTBot served\"", resp.status, got)
		}
		again := inst.get(t, "/robots.txt", testfixtures.UAGPTBot, "If-None-Match: "+resp.header.Get("ETag"))
		if got := strings.TrimSpace(again.header.Get("X-Robots-Action")); again.status != http.StatusNotModified || got != "GPTBot served" {
			t.Errorf("conditional GET /robots.txt: status %d, X-Robots-Action %q; want 304, \"GPTBot served\"", again.status, got)
		}
	})
	t.Run("browser has no verdict", func(t *testing.T) {
		resp := inst.get(t, "/private/x.html", testfixtures.UAFirefox)
		for _, v := range []string{"verdict=allowed", "verdict=disallowed"} {
			if strings.Contains(resp.body, v) {
				t.Errorf("browser request got robots_txt placeholder value %s: %q", v, resp.body)
			}
		}
		if strings.Contains(resp.body, "action=") && !strings.Contains(resp.body, "action={") {
			t.Errorf("browser request got a robots_txt action placeholder value: %q", resp.body)
		}
		if v := strings.TrimSpace(resp.header.Get("X-Robots-Verdict")); strings.Contains(v, "allowed") {
			t.Errorf("browser request got X-Robots-Verdict %q", v)
		}
	})
}

func TestHandleErrors(t *testing.T) {
	t.Parallel()
	t.Run("custom error page", func(t *testing.T) {
		t.Parallel()
		inst := startCaddy(t, `http://127.0.0.1:{{port}} {
	root * {{dir}}/site
	robots_txt {
		`+verifiedHere+`
	}
	file_server
	handle_errors {
		respond "Custom refusal {err.status_code}: {http.robots_txt.rule} (line {http.robots_txt.line})"
	}
}
`, withTestSite)
		resp := inst.get(t, "/private/x.html", testfixtures.UAPythonRequests)
		if resp.status != http.StatusForbidden {
			t.Errorf("status %d, want 403", resp.status)
		}
		if want := "Custom refusal 403: disallow: /private/ (line 2)"; resp.body != want {
			t.Errorf("body %q, want %q", resp.body, want)
		}
		if resp := inst.get(t, "/private/x.html", testfixtures.UAFirefox); resp.status != http.StatusOK || !strings.Contains(resp.body, "private x") {
			t.Errorf("browser: status %d body %q, want 200 and the page", resp.status, resp.body)
		}
	})
	t.Run("status and body", func(t *testing.T) {
		t.Parallel()
		inst := startCaddy(t, `http://127.0.0.1:{{port}} {
	root * {{dir}}/site
	robots_txt {
		`+verifiedHere+`
		status 451
		body "No bots here"
	}
	file_server
}
`, withTestSite)
		resp := inst.get(t, "/about.html", testfixtures.UAGPTBot)
		if resp.status != 451 {
			t.Errorf("status %d, want 451", resp.status)
		}
		if resp.body != "No bots here" {
			t.Errorf("body %q, want %q", resp.body, "No bots here")
		}
		if ct := resp.header.Get("Content-Type"); ct != "text/plain; charset=utf-8" {
			t.Errorf("Content-Type %q, want text/plain; charset=utf-8", ct)
		}
		if resp := inst.get(t, "/about.html", testfixtures.UAPythonRequests); resp.status != http.StatusOK {
			t.Errorf("python-requests /about.html: status %d, want 200", resp.status)
		}
	})
	t.Run("status with handle_errors", func(t *testing.T) {
		t.Parallel()
		inst := startCaddy(t, `http://127.0.0.1:{{port}} {
	root * {{dir}}/site
	robots_txt {
		`+verifiedHere+`
		status 451
	}
	file_server
	handle_errors 451 {
		respond "Unavailable for legal reasons: {err.status_code}"
	}
}
`, withTestSite)
		resp := inst.get(t, "/", testfixtures.UAGPTBot)
		if resp.status != 451 || resp.body != "Unavailable for legal reasons: 451" {
			t.Errorf("status %d body %q, want 451 %q", resp.status, resp.body, "Unavailable for legal reasons: 451")
		}
	})
}
