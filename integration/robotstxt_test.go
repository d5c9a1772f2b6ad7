package integration

import (
	"net/http"
	"testing"
	"time"

	"github.com/robotsguard/caddy-robots-txt/internal/testfixtures"
)

func TestRobotsTxtServed(t *testing.T) {
	t.Parallel()
	inst := startCaddy(t, `http://127.0.0.1:{{port}} {
	root * {{dir}}/site
	robots_txt {
		`+verifiedHere+`
	}
	file_server
}
`, withTestSite)

	first := inst.get(t, "/robots.txt", testfixtures.UAGooglebot)
	etag := first.header.Get("ETag")
	lastMod := first.header.Get("Last-Modified")

	t.Run("GET", func(t *testing.T) {
		if first.status != http.StatusOK {
			t.Fatalf("status %d, want 200", first.status)
		}
		if ct := first.header.Get("Content-Type"); ct != "text/plain; charset=utf-8" {
			t.Errorf("Content-Type %q, want %q", ct, "text/plain; charset=utf-8")
		}
		if etag == "" {
			t.Error("no ETag")
		}
		if lastMod == "" {
			t.Error("no Last-Modified")
		} else if _, err := http.ParseTime(lastMod); err != nil {
			t.Errorf("Last-Modified %q: %v", lastMod, err)
		}
		if first.body != testfixtures.RobotsTxt {
			t.Errorf("body %q, want the file %q", first.body, testfixtures.RobotsTxt)
		}
	})

	t.Run("If-None-Match", func(t *testing.T) {
		resp := inst.get(t, "/robots.txt", testfixtures.UAGooglebot, "If-None-Match: "+etag)
		if resp.status != http.StatusNotModified {
			t.Errorf("status %d, want 304", resp.status)
		}
		if resp.body != "" {
			t.Errorf("304 with body %q", resp.body)
		}
		other := inst.get(t, "/robots.txt", testfixtures.UAGooglebot, `If-None-Match: "something-else"`)
		if other.status != http.StatusOK || other.body != testfixtures.RobotsTxt {
			t.Errorf("other ETag: status %d body %q, want 200 and the file", other.status, other.body)
		}
	})

	t.Run("If-Modified-Since", func(t *testing.T) {
		resp := inst.get(t, "/robots.txt", testfixtures.UAGooglebot, "If-Modified-Since: "+lastMod)
		if resp.status != http.StatusNotModified {
			t.Errorf("If-Modified-Since %s: status %d, want 304", lastMod, resp.status)
		}
		later := time.Now().Add(time.Hour).UTC().Format(http.TimeFormat)
		resp = inst.get(t, "/robots.txt", testfixtures.UAGooglebot, "If-Modified-Since: "+later)
		if resp.status != http.StatusNotModified {
			t.Errorf("If-Modified-Since %s: status %d, want 304", later, resp.status)
		}
		earlier := time.Now().Add(-48 * time.Hour).UTC().Format(http.TimeFormat)
		resp = inst.get(t, "/robots.txt", testfixtures.UAGooglebot, "If-Modified-Since: "+earlier)
		if resp.status != http.StatusOK || resp.body != testfixtures.RobotsTxt {
			t.Errorf("If-Modified-Since %s: status %d body %q, want 200 and the file", earlier, resp.status, resp.body)
		}
	})

	t.Run("HEAD", func(t *testing.T) {
		resp := inst.do(t, http.MethodHead, "/robots.txt", testfixtures.UAGooglebot)
		if resp.status != http.StatusOK {
			t.Errorf("status %d, want 200", resp.status)
		}
		if resp.body != "" {
			t.Errorf("HEAD with body %q", resp.body)
		}
		if resp.header.Get("ETag") != etag {
			t.Errorf("HEAD ETag %q, GET ETag %q", resp.header.Get("ETag"), etag)
		}
	})

	t.Run("every client gets it", func(t *testing.T) {
		for _, c := range matrixClients {
			resp := inst.get(t, "/robots.txt", c.ua)
			if resp.status != http.StatusOK || resp.body != testfixtures.RobotsTxt {
				t.Errorf("%s: status %d body %q, want 200 and the file", c.name, resp.status, resp.body)
			}
		}
		// GPTBot may fetch nothing else.
		if resp := inst.get(t, "/index.html", testfixtures.UAGPTBot); resp.status != http.StatusForbidden {
			t.Errorf("GPTBot /index.html: status %d, want 403", resp.status)
		}
	})
}

func TestRobotsTxtServeOff(t *testing.T) {
	t.Parallel()
	inst := startCaddy(t, `http://127.0.0.1:{{port}} {
	root * {{dir}}/site
	robots_txt {
		`+verifiedHere+`
		serve off
	}
	respond "backend {http.request.uri.path}"
}
`, withTestSite)
	for _, ua := range []string{testfixtures.UAGPTBot, testfixtures.UAPythonRequests, testfixtures.UAFirefox} {
		resp := inst.get(t, "/robots.txt", ua)
		if resp.status != http.StatusOK || resp.body != "backend /robots.txt" {
			t.Errorf("GET /robots.txt (UA %q) with serve off: status %d body %q, want 200 %q",
				ua, resp.status, resp.body, "backend /robots.txt")
		}
	}
	// The file is still enforced.
	if resp := inst.get(t, "/about.html", testfixtures.UAGPTBot); resp.status != http.StatusForbidden {
		t.Errorf("GPTBot /about.html with serve off: status %d, want 403", resp.status)
	}
	if resp := inst.get(t, "/private/x.html", testfixtures.UAPythonRequests); resp.status != http.StatusForbidden {
		t.Errorf("python-requests /private/x.html with serve off: status %d, want 403", resp.status)
	}
}

func TestRobotsTxtMissing(t *testing.T) {
	t.Parallel()
	inst := newInstance(t)
	writeTestSite(t, inst.dir, false) // no robots.txt
	inst.start(`http://127.0.0.1:{{port}} {
	root * {{dir}}/site
	robots_txt {
		` + verifiedHere + `
	}
	respond "backend {http.request.uri.path}"
}
`)
	for _, c := range matrixClients {
		for _, path := range []string{"/robots.txt", "/", "/private/x.html", "/drafts/d.html"} {
			resp := inst.get(t, path, c.ua)
			if resp.status != http.StatusOK || resp.body != "backend "+path {
				t.Errorf("%s GET %s without robots.txt: status %d body %q, want 200 %q",
					c.name, path, resp.status, resp.body, "backend "+path)
			}
		}
	}
	inst.waitModuleLogs(t, "robots.txt not found; every bot is allowed everywhere until it appears", 1, 30*time.Second)
	if n := len(inst.moduleLogs("robots.txt violation blocked")); n != 0 {
		t.Errorf("%d violations logged without a robots.txt", n)
	}
}
