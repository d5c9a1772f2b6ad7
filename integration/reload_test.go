package integration

import (
	"net/http"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/robotsguard/caddy-robots-txt/internal/testfixtures"
)

const reloadDeadline = 10 * time.Second

func TestHotReload(t *testing.T) {
	t.Parallel()
	inst := newInstance(t)
	site := writeTestSite(t, inst.dir, false)
	robotsPath := filepath.Join(site, "robots.txt")
	writeFile(t, filepath.Join(site, "new", "x.html"), "new")
	writeFile(t, filepath.Join(site, "v3", "x.html"), "v3")

	const v1 = "User-agent: *\nDisallow: /private/\n"
	const v2 = "User-agent: *\nDisallow: /private/\nDisallow: /new/\n"
	const v3 = "User-agent: *\nDisallow: /private/\nDisallow: /new/\nDisallow: /v3/\n"
	writeFile(t, robotsPath, v1)
	// As root, run Caddy as nobody, so that a mode 000 file is unreadable.
	inst.cred = dropPrivileges(t, inst.dir)
	inst.start(`http://127.0.0.1:{{port}} {
	root * {{dir}}/site
	robots_txt {
		` + verifiedHere + `
		reload 200ms
		grace off # these tests are about reloading; grace has its own
	}
	file_server
}
`)
	status := func(path string) int { return inst.get(t, path, testfixtures.UAPythonRequests).status }
	waitStatus := func(path string, want int, why string) {
		t.Helper()
		eventually(t, reloadDeadline, why+": GET "+path+" -> "+http.StatusText(want), func() bool { return status(path) == want })
	}
	const errMsg = "robots.txt could not be reloaded; the rules in force stay"
	errCount := func() int { return len(inst.moduleLogs(errMsg)) }
	// broken puts a bad robots.txt in place and checks that the rules in
	// force stay and one ERROR is logged.
	broken := func(name string, install func()) {
		t.Helper()
		before := errCount()
		install()
		entries := inst.waitModuleLogs(t, errMsg, before+1, reloadDeadline)
		last := entries[len(entries)-1]
		if last.str("level") != "error" || last.str("file") != robotsPath {
			t.Errorf("%s: reload error entry %v, want level error and file %s", name, last, robotsPath)
		}
		time.Sleep(500 * time.Millisecond) // a few more reload ticks
		if got := status("/new/x.html"); got != http.StatusForbidden {
			t.Errorf("%s: GET /new/x.html = %d after a broken update, want 403 (old rules stay)", name, got)
		}
		if got := status("/private/x.html"); got != http.StatusForbidden {
			t.Errorf("%s: GET /private/x.html = %d after a broken update, want 403 (old rules stay)", name, got)
		}
		if got := inst.get(t, "/robots.txt", testfixtures.UAPythonRequests); got.status != http.StatusOK || (got.body != v2 && got.body != v3) {
			t.Errorf("%s: /robots.txt after a broken update: status %d body %q, want the previous file", name, got.status, got.body)
		}
		if n := errCount(); n != before+1 {
			t.Errorf("%s: %d reload errors logged, want exactly one per broken update (%d)", name, n-before, 1)
		}
	}
	// restore puts a good file back and waits until it is enforced.
	restore := func(content, path string) {
		t.Helper()
		replaceFile(t, robotsPath, content, 0o644)
		waitStatus(path, http.StatusForbidden, "restored file")
	}

	if got := status("/private/x.html"); got != http.StatusForbidden {
		t.Fatalf("v1: /private/x.html = %d, want 403", got)
	}
	if got := status("/new/x.html"); got != http.StatusOK {
		t.Fatalf("v1: /new/x.html = %d, want 200", got)
	}

	etag1 := inst.get(t, "/robots.txt", testfixtures.UAPythonRequests).header.Get("ETag")

	// An edit in place is picked up without a Caddy reload.
	writeFile(t, robotsPath, v2)
	waitStatus("/new/x.html", http.StatusForbidden, "edited robots.txt")
	if got := inst.get(t, "/robots.txt", testfixtures.UAPythonRequests); got.body != v2 {
		t.Errorf("/robots.txt after the edit: %q, want %q", got.body, v2)
	}
	// The old ETag no longer validates.
	if got := inst.get(t, "/robots.txt", testfixtures.UAPythonRequests, "If-None-Match: "+etag1); got.status != http.StatusOK || got.body != v2 {
		t.Errorf("/robots.txt with the old ETag %s after the edit: status %d body %q, want 200 and the new file", etag1, got.status, got.body)
	}
	inst.waitModuleLogs(t, "robots.txt loaded", 2, reloadDeadline)

	t.Run("HTML page keeps the old rules", func(t *testing.T) {
		broken("html", func() { replaceFile(t, robotsPath, "<html><body>oops</body></html>", 0o644) })
	})
	restore(v3, "/v3/x.html")

	t.Run("directory keeps the old rules", func(t *testing.T) {
		// The path turns into a directory. A directory cannot be renamed
		// over a file, and deleting the file first would be a (correct)
		// "removed" state in between; a symlink to a directory, renamed
		// over the file, makes the change atomic.
		dir := filepath.Join(inst.dir, "a-directory")
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		broken("directory", func() {
			link := robotsPath + ".link"
			if err := os.Symlink(dir, link); err != nil {
				t.Fatal(err)
			}
			if err := os.Rename(link, robotsPath); err != nil {
				t.Fatal(err)
			}
		})
	})
	restore(v2, "/new/x.html")
	waitStatus("/v3/x.html", http.StatusOK, "v2 restored")

	t.Run("unreadable file keeps the old rules", func(t *testing.T) {
		if os.Geteuid() == 0 && inst.cred == nil {
			t.Skip("running as root: a mode 000 file is still readable")
		}
		broken("unreadable", func() { replaceFile(t, robotsPath, v3+"Disallow: /other/\n", 0o000) })
		restore(v2+"# readable again\n", "/new/x.html")
	})

	t.Run("removed file allows all", func(t *testing.T) {
		if err := os.Remove(robotsPath); err != nil {
			t.Fatal(err)
		}
		waitStatus("/private/x.html", http.StatusOK, "removed robots.txt")
		if got := status("/new/x.html"); got != http.StatusOK {
			t.Errorf("/new/x.html = %d after removal, want 200", got)
		}
		if got := inst.get(t, "/about.html", testfixtures.UAGPTBot); got.status != http.StatusOK {
			t.Errorf("GPTBot /about.html = %d after removal, want 200", got.status)
		}
		// /robots.txt now passes to file_server, which has no such file.
		if got := inst.get(t, "/robots.txt", testfixtures.UAPythonRequests); got.status != http.StatusNotFound {
			t.Errorf("/robots.txt after removal: status %d body %q, want 404 from file_server", got.status, got.body)
		}
		inst.waitModuleLogs(t, "robots.txt removed; every bot is allowed everywhere until it reappears", 1, reloadDeadline)
	})

	t.Run("file reappears", func(t *testing.T) {
		writeFile(t, robotsPath, v2)
		waitStatus("/private/x.html", http.StatusForbidden, "robots.txt reappeared")
	})

	t.Run("empty file allows all", func(t *testing.T) {
		replaceFile(t, robotsPath, "", 0o644)
		waitStatus("/private/x.html", http.StatusOK, "empty robots.txt")
		if got := inst.get(t, "/about.html", testfixtures.UAGPTBot); got.status != http.StatusOK {
			t.Errorf("GPTBot /about.html = %d with an empty robots.txt, want 200", got.status)
		}
		if got := inst.get(t, "/robots.txt", testfixtures.UAPythonRequests); got.status != http.StatusOK || got.body != "" {
			t.Errorf("/robots.txt when empty: status %d body %q, want 200 and an empty body", got.status, got.body)
		}
	})

	// All of this happened without Caddy loading a new config.
	n := 0
	for _, e := range inst.logs() {
		if e.str("msg") == "serving initial configuration" || e.str("msg") == "load complete" {
			n++
		}
	}
	if n != 1 {
		t.Errorf("Caddy loaded its config %d times, want once", n)
	}
}
