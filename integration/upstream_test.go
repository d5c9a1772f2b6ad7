package integration

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/robotsguard/caddy-robots-txt/internal/testfixtures"
)

// upServer is a real upstream for `robots_txt { url ... }`: an HTTP server
// on a free loopback port whose answer the test sets, and switches, at run
// time.
type upServer struct {
	srv  *httptest.Server
	done chan struct{} // closed when the test ends, to release hung handlers

	mu      sync.Mutex
	handler http.HandlerFunc
	uas     []string // User-Agent of each request

	hits     atomic.Int64
	inFlight atomic.Int64 // requests not answered yet
}

func newUpServer(t testing.TB, h http.HandlerFunc) *upServer {
	t.Helper()
	u := &upServer{done: make(chan struct{}), handler: h}
	u.srv = httptest.NewServer(http.HandlerFunc(u.serve))
	// Cleanups run last first: release hung handlers, then close.
	t.Cleanup(u.srv.Close)
	t.Cleanup(func() { close(u.done) })
	return u
}

func (u *upServer) serve(w http.ResponseWriter, r *http.Request) {
	u.hits.Add(1)
	u.inFlight.Add(1)
	defer u.inFlight.Add(-1)
	u.mu.Lock()
	h := u.handler
	u.uas = append(u.uas, r.Header.Get("User-Agent"))
	u.mu.Unlock()
	h(w, r)
}

// set switches the upstream's answer.
func (u *upServer) set(h http.HandlerFunc) {
	u.mu.Lock()
	defer u.mu.Unlock()
	u.handler = h
}

func (u *upServer) userAgents() []string {
	u.mu.Lock()
	defer u.mu.Unlock()
	return append([]string(nil), u.uas...)
}

func (u *upServer) url(path string) string { return u.srv.URL + path }

// upRobots is the upstream's robots.txt.
const upRobots = "User-agent: *\nDisallow: /private/\n\nUser-agent: GPTBot\nDisallow: /\n"

// upDiskRobots is the site's robots.txt on disk: file_server, the next
// handler, serves it when robots_txt passes /robots.txt on. The handler
// must never read it: it would block every bot everywhere.
const upDiskRobots = "# on disk, not the upstream's\nUser-agent: *\nDisallow: /\n"

// upFile answers 200 with body and headers ("Name: value").
func upFile(body string, headers ...string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		for _, h := range headers {
			k, v, _ := strings.Cut(h, ":")
			w.Header().Set(strings.TrimSpace(k), strings.TrimSpace(v))
		}
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		io.WriteString(w, body)
	}
}

// upStatus answers with a status and a body that would read as rules
// ("Disallow: /") if the status were ignored.
func upStatus(code int) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		w.WriteHeader(code)
		io.WriteString(w, "User-agent: *\nDisallow: /\n")
	}
}

// upRedirects answers /hop/N with a redirect to /hop/N-1, and /hop/0 with
// upRobots.
func upRedirects(w http.ResponseWriter, r *http.Request) {
	n, err := strconv.Atoi(strings.TrimPrefix(r.URL.Path, "/hop/"))
	if err != nil || n <= 0 {
		upFile(upRobots)(w, r)
		return
	}
	http.Redirect(w, r, fmt.Sprintf("/hop/%d", n-1), http.StatusFound)
}

// upHang accepts the request and never answers.
func (u *upServer) upHang(w http.ResponseWriter, r *http.Request) {
	select {
	case <-r.Context().Done():
	case <-u.done:
	}
}

// upTruncated promises more body than it sends, then closes the connection.
func upTruncated(w http.ResponseWriter, r *http.Request) {
	conn, buf, err := http.NewResponseController(w).Hijack()
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	defer conn.Close()
	fmt.Fprintf(buf, "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: %d\r\n\r\n%s", len(upRobots)+1000, upRobots)
	buf.Flush()
}

// upSite puts robots_txt with the upstream url in front of the test site.
// The root directive comes after robots_txt in the block (the order of the
// handlers is the same either way): an earlier root is a bug of its own,
// see the subtest "url with root before it".
const upSite = `http://127.0.0.1:{{port}} {
	robots_txt {
		` + verifiedHere + `
		url %s
	}
	root * {{dir}}/site
	file_server
}
`

// upSiteRootFirst is upSite as most sites write it, root first.
const upSiteRootFirst = `http://127.0.0.1:{{port}} {
	root * {{dir}}/site
	robots_txt {
		` + verifiedHere + `
		url %s
	}
	file_server
}
`

// upStart starts Caddy in front of url.
func upStart(t testing.TB, url string) *instance {
	t.Helper()
	return upStartSite(t, upSite, url)
}

// upStartSite is upStart with a site template (%s: the url).
func upStartSite(t testing.TB, site, url string) *instance {
	t.Helper()
	inst := startCaddy(t, fmt.Sprintf(site, url), func(inst *instance) {
		site := writeTestSite(t, inst.dir, false)
		writeFile(t, filepath.Join(site, "robots.txt"), upDiskRobots)
	})
	return inst
}

// upEnforced checks that the rules of upRobots are in force, and that
// Caddy serves the upstream's robots.txt.
func upEnforced(t testing.TB, inst *instance, what string) {
	t.Helper()
	for _, c := range []struct {
		path, ua string
		status   int
	}{
		{"/private/x.html", testfixtures.UAPythonRequests, http.StatusForbidden},
		{"/about.html", testfixtures.UAPythonRequests, http.StatusOK},
		{"/about.html", testfixtures.UAGPTBot, http.StatusForbidden},
		{"/private/x.html", testfixtures.UAFirefox, http.StatusOK},
	} {
		if got := inst.get(t, c.path, c.ua); got.status != c.status {
			t.Errorf("%s: GET %s (UA %q) = %d, want %d (the upstream's rules)", what, c.path, c.ua, got.status, c.status)
		}
	}
	for _, ua := range []string{testfixtures.UAPythonRequests, testfixtures.UAFirefox} {
		got := inst.get(t, "/robots.txt", ua)
		if got.status != http.StatusOK {
			t.Errorf("%s: /robots.txt (UA %q): status %d, want 200", what, ua, got.status)
		}
		if ct := got.header.Get("Content-Type"); !strings.HasPrefix(ct, "text/plain") {
			t.Errorf("%s: /robots.txt (UA %q): Content-Type %q, want text/plain", what, ua, ct)
		}
		if got.body != upRobots {
			t.Errorf("%s: /robots.txt (UA %q): body %q, want exactly the upstream's %q", what, ua, got.body, upRobots)
		}
	}
}

// upAllowAll checks that every bot may fetch everything, and that
// /robots.txt is passed on to the next handler (file_server).
func upAllowAll(t testing.TB, inst *instance, what string) {
	t.Helper()
	for _, c := range []struct{ path, ua string }{
		{"/private/x.html", testfixtures.UAPythonRequests},
		{"/about.html", testfixtures.UAGPTBot},
		{"/drafts/d.html", testfixtures.UAGooglebot},
	} {
		if got := inst.get(t, c.path, c.ua); got.status != http.StatusOK {
			t.Errorf("%s: GET %s (UA %q) = %d, want 200 (allow all)", what, c.path, c.ua, got.status)
		}
	}
	if got := inst.get(t, "/robots.txt", testfixtures.UAPythonRequests); got.status != http.StatusOK || got.body != upDiskRobots {
		t.Errorf("%s: /robots.txt: status %d body %q, want file_server's %q (passed on)", what, got.status, got.body, upDiskRobots)
	}
}

// upLogged checks that the module logged msg at level, for url.
func upLogged(t testing.TB, inst *instance, what, msg, level, url string) logEntry {
	t.Helper()
	// A fetch gives up after 10 s: wait a little longer than that.
	entries := inst.waitModuleLogs(t, msg, 1, 15*time.Second)
	e := entries[len(entries)-1]
	if e.str("level") != level || e.str("url") != url {
		t.Errorf("%s: log entry %v, want level %s and url %s", what, e, level, url)
	}
	return e
}

const (
	upMsgLoaded   = "robots.txt loaded"
	upMsgFailed   = "robots.txt could not be fetched from the upstream; every bot is allowed until it can be"
	upMsgNoRobots = "the upstream has no robots.txt; every bot is allowed everywhere"
)

func TestUpstream(t *testing.T) {
	t.Parallel()

	t.Run("200 applies", func(t *testing.T) {
		t.Parallel()
		u := newUpServer(t, upFile(upRobots, "Cache-Control: max-age=60"))
		url := u.url("/robots.txt")
		inst := upStart(t, url)
		upEnforced(t, inst, "200")
		e := inst.waitModuleLogs(t, upMsgLoaded, 1, 30*time.Second)[0]
		if g, _ := e.num("groups"); e.str("file") != url || g != 2 {
			t.Errorf("load log entry %v, want file %s and 2 groups", e, url)
		}
		// One fetch at load: max-age=60 (at least a minute in any case)
		// means no fetch per request.
		if n := u.hits.Load(); n != 1 {
			t.Errorf("the upstream got %d requests, want 1", n)
		}
		if uas := u.userAgents(); len(uas) == 0 || !strings.HasPrefix(uas[0], "caddy-robots-txt") {
			t.Errorf("the fetcher's User-Agent: %q, want caddy-robots-txt ...", uas)
		}
	})

	// The file the Caddyfile derives from an earlier root directive is no
	// source when url is set: Caddy must start and apply the upstream's
	// file.
	t.Run("url with root before it", func(t *testing.T) {
		t.Parallel()
		u := newUpServer(t, upFile(upRobots))
		inst := upStartSite(t, upSiteRootFirst, u.url("/robots.txt"))
		upEnforced(t, inst, "root before robots_txt")
	})

	for _, c := range []struct {
		hops    int
		applies bool
	}{{3, true}, {5, true}, {6, false}} {
		t.Run(fmt.Sprintf("%d redirects", c.hops), func(t *testing.T) {
			t.Parallel()
			u := newUpServer(t, upRedirects)
			url := u.url(fmt.Sprintf("/hop/%d", c.hops))
			inst := upStart(t, url)
			if c.applies {
				upEnforced(t, inst, fmt.Sprintf("%d redirects", c.hops))
				return
			}
			upAllowAll(t, inst, fmt.Sprintf("%d redirects", c.hops))
			upLogged(t, inst, "too many redirects", upMsgNoRobots, "warn", url)
		})
	}

	t.Run("404 allows all", func(t *testing.T) {
		t.Parallel()
		u := newUpServer(t, upStatus(http.StatusNotFound))
		url := u.url("/robots.txt")
		inst := upStart(t, url)
		upAllowAll(t, inst, "404")
		if e := upLogged(t, inst, "404", upMsgNoRobots, "warn", url); e["status"] != float64(404) {
			t.Errorf("404: log entry %v, want status 404", e)
		}
	})

	// Failures at start: Caddy starts, and allows all until the upstream
	// answers.
	failures := []struct {
		name    string
		handler func(u *upServer) http.HandlerFunc
		status  int  // of the log entry; 0: none
		hangs   bool // the upstream never answers
	}{
		{"500 at start", func(*upServer) http.HandlerFunc { return upStatus(http.StatusInternalServerError) }, 500, false},
		{"503 at start", func(*upServer) http.HandlerFunc { return upStatus(http.StatusServiceUnavailable) }, 503, false},
		{"truncated body", func(*upServer) http.HandlerFunc { return upTruncated }, 200, false},
		{"no answer", func(u *upServer) http.HandlerFunc { return u.upHang }, 0, true},
	}
	for _, c := range failures {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			u := newUpServer(t, nil)
			u.set(c.handler(u))
			url := u.url("/robots.txt")
			inst := upStart(t, url)
			// A slow upstream does not hold up the start: Caddy waits a
			// second for it, then fetches in the background, and the
			// fetch gives up after 10 s. So Caddy answers while the
			// hung request is still open; an order, not a time.
			if c.hangs && u.inFlight.Load() == 0 {
				t.Errorf("%s: Caddy answered only after its fetch (%d requests) had ended, want it to answer while the upstream still hangs", c.name, u.hits.Load())
			}
			upAllowAll(t, inst, c.name)
			e := upLogged(t, inst, c.name, upMsgFailed, "error", url)
			if st, _ := e.num("status"); st != c.status {
				t.Errorf("%s: log entry %v, want status %d", c.name, e, c.status)
			}
			// retry_in is the first retry's wait, a minute, in seconds.
			if retry, _ := e.num("retry_in"); e.str("error") == "" || retry != 60 {
				t.Errorf("%s: log entry %v, want the error and retry_in 60", c.name, e)
			}
		})
	}

	t.Run("nothing listening", func(t *testing.T) {
		t.Parallel()
		url := fmt.Sprintf("http://127.0.0.1:%d/robots.txt", freePort(t))
		inst := upStart(t, url)
		upAllowAll(t, inst, "nothing listening")
		upLogged(t, inst, "nothing listening", upMsgFailed, "error", url)
	})

	// A config reload fetches again: the answer at that load counts as it
	// does for a refresh.
	t.Run("config reload after 4xx allows all", func(t *testing.T) {
		t.Parallel()
		u := newUpServer(t, upFile(upRobots))
		url := u.url("/robots.txt")
		inst := upStart(t, url)
		upEnforced(t, inst, "before the reload")
		u.set(upStatus(http.StatusGone))
		monReloadConfig(t, inst)
		upAllowAll(t, inst, "410 at the config reload")
	})

	t.Run("config reload after 5xx keeps the last good copy", func(t *testing.T) {
		t.Parallel()
		u := newUpServer(t, upFile(upRobots))
		url := u.url("/robots.txt")
		inst := upStart(t, url)
		upEnforced(t, inst, "before the reload")
		u.set(upStatus(http.StatusInternalServerError))
		monReloadConfig(t, inst)
		if n := u.hits.Load(); n != 2 {
			t.Errorf("the upstream got %d requests, want 2 (one per config load)", n)
		}
		// RFC 9309 2.3.1.4 and the url documentation: a 5xx keeps the
		// last good copy; a config reload is no reason to drop it.
		upEnforced(t, inst, "500 at the config reload")
	})
}
