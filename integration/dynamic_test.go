package integration

import (
	"fmt"
	"net/http"
	"path/filepath"
	"testing"
	"time"

	"github.com/robotsguard/caddy-robots-txt/internal/testfixtures"
)

// TestDynamicRoot covers robots.txt files found per request: a root with
// {host} in it (one robots.txt per host, each reloaded on its own), and
// robots_txt written before root in the site block.
func TestDynamicRoot(t *testing.T) {
	t.Parallel()
	inst := newInstance(t)
	for _, host := range []string{"a.test", "b.test"} {
		writeFile(t, filepath.Join(inst.dir, "hosts", host, "private", "x.html"), host+" private")
		writeFile(t, filepath.Join(inst.dir, "hosts", host, "pub.html"), host+" public")
	}
	writeFile(t, filepath.Join(inst.dir, "hosts", "a.test", "robots.txt"), "User-agent: *\nDisallow: /private/\n")
	writeFile(t, filepath.Join(inst.dir, "hosts", "b.test", "robots.txt"), "User-agent: *\nDisallow: /\n")
	writeTestSite(t, inst.dir, true)
	inst.start(`http://a.test:{{port}}, http://b.test:{{port}} {
	root * {{dir}}/hosts/{host}
	robots_txt {
		` + verifiedHere + `
		reload 200ms
		grace off # these tests are about reloading; grace has its own
	}
	file_server
}

http://127.0.0.1:{{port}} {
	robots_txt {
		` + verifiedHere + `
	}
	root * {{dir}}/site
	file_server
}
`)
	get := func(host, path string) response {
		t.Helper()
		old := inst.host
		defer func() { inst.host = old }()
		inst.host = fmt.Sprintf("%s:%d", host, inst.port)
		return inst.get(t, path, testfixtures.UAPythonRequests)
	}
	cases := []struct {
		host, path string
		status     int
		body       string
	}{
		{"a.test", "/private/x.html", 403, ""},
		{"a.test", "/pub.html", 200, "a.test public"},
		{"a.test", "/robots.txt", 200, "User-agent: *\nDisallow: /private/\n"},
		{"b.test", "/pub.html", 403, ""},
		{"b.test", "/robots.txt", 200, "User-agent: *\nDisallow: /\n"},
		{"127.0.0.1", "/private/x.html", 403, ""},
		{"127.0.0.1", "/about.html", 200, "<h1>about</h1>"},
		{"127.0.0.1", "/robots.txt", 200, testfixtures.RobotsTxt},
	}
	for _, c := range cases {
		resp := get(c.host, c.path)
		if resp.status != c.status || (c.body != "" && resp.body != c.body) {
			t.Errorf("Host %s GET %s: status %d body %q, want %d %q", c.host, c.path, resp.status, resp.body, c.status, c.body)
		}
	}

	// Each host's file reloads on its own.
	replaceFile(t, filepath.Join(inst.dir, "hosts", "b.test", "robots.txt"), "User-agent: *\nDisallow: /private/\n", 0o644)
	eventually(t, reloadDeadline, "b.test's new robots.txt", func() bool { return get("b.test", "/pub.html").status == http.StatusOK })
	if resp := get("b.test", "/private/x.html"); resp.status != http.StatusForbidden {
		t.Errorf("b.test /private/x.html after reload: status %d, want 403", resp.status)
	}
	time.Sleep(300 * time.Millisecond)
	if resp := get("a.test", "/pub.html"); resp.status != http.StatusOK {
		t.Errorf("a.test /pub.html: status %d, want 200 (unchanged)", resp.status)
	}
}
