package integration

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path"
	"strings"
	"testing"

	"github.com/robotsguard/caddy-robots-txt/internal/testfixtures"
)

// TestNormalizationBypasses sends request targets exactly as written (over
// raw TCP, so no client cleans them) that file_server resolves to a file
// under /private/, which robots.txt disallows for every bot. Each must be
// refused to a bot in enforce mode, while a browser gets the private file
// through the same spelling (which proves the spelling reaches it).
func TestNormalizationBypasses(t *testing.T) {
	t.Parallel()
	inst := startCaddy(t, `http://127.0.0.1:{{port}} {
	root * {{dir}}/site
	robots_txt {
		`+verifiedHere+`
	}
	file_server
}
`, withTestSite)
	const privateBody = "<h1>private x</h1>"
	bypasses := []string{
		"/private/x.html",
		"/%70rivate/x.html",
		"/%70%72%69%76%61%74%65/x.html",
		"/priv%61te/x.html",
		"//private/x.html",
		"///private//x.html",
		"/./private/x.html",
		"/public/../private/x.html",
		"/public/%2e%2e/private/x.html",
		"/%2e/private/x.html",
		"/private%2Fx.html",
		"/private%2fx.html",
		"/private/x.html?utm=1",
	}
	for _, target := range bypasses {
		t.Run(target, func(t *testing.T) {
			browser := inst.rawGet(t, target, testfixtures.UAFirefox)
			if browser.status != http.StatusOK || !strings.Contains(browser.body, privateBody) {
				t.Fatalf("browser GET %s: status %d body %q; want 200 and the private file (else the case proves nothing)",
					target, browser.status, browser.body)
			}
			for _, ua := range []string{testfixtures.UAPythonRequests, testfixtures.UAGPTBot, testfixtures.UAAhrefs} {
				resp := inst.rawGet(t, target, ua)
				if resp.status != http.StatusForbidden {
					t.Errorf("bot %q GET %s: status %d body %q, want 403 (the path is /private/x.html)",
						ua, target, resp.status, truncate(resp.body))
				}
			}
		})
	}

	// Matching is case-sensitive: /PRIVATE/ is another path, which the
	// rules do not cover.
	t.Run("/PRIVATE/x.html", func(t *testing.T) {
		resp := inst.rawGet(t, "/PRIVATE/x.html", testfixtures.UAPythonRequests)
		if resp.status != http.StatusOK || !strings.Contains(resp.body, "upper-case PRIVATE") {
			t.Errorf("bot GET /PRIVATE/x.html: status %d body %q, want 200 (rules are case-sensitive)", resp.status, truncate(resp.body))
		}
		if resp := inst.rawGet(t, "/PRIVATE/x.html", testfixtures.UAGPTBot); resp.status != http.StatusForbidden {
			t.Errorf("GPTBot GET /PRIVATE/x.html: status %d, want 403 (disallow: /)", resp.status)
		}
	})
	// An allowed path stays allowed under the same transformations.
	for _, target := range []string{"/%70rivate/ok.html", "/public/../private/ok.html", "//private/ok.html"} {
		t.Run(target, func(t *testing.T) {
			resp := inst.rawGet(t, target, testfixtures.UAPythonRequests)
			if resp.status != http.StatusOK || !strings.Contains(resp.body, "private ok") {
				t.Errorf("bot GET %s: status %d body %q, want 200 (allow: /private/ok.html)", target, resp.status, truncate(resp.body))
			}
		})
	}
}

func truncate(s string) string {
	if len(s) > 200 {
		return s[:200] + "..."
	}
	return s
}

// TestNormalizationNonASCII checks percent-encoding equivalence for
// non-ASCII paths: a rule written encoded matches a request sent raw and
// in either hex case, and a rule written raw matches an encoded request.
func TestNormalizationNonASCII(t *testing.T) {
	t.Parallel()
	inst := newInstance(t)
	writeFile(t, inst.dir+"/site/café/x.html", "cafe")
	writeFile(t, inst.dir+"/site/naïve/x.html", "naive")
	writeFile(t, inst.dir+"/site/ok/x.html", "ok")
	writeFile(t, inst.dir+"/site/robots.txt", "User-agent: *\nDisallow: /caf%C3%A9/\nDisallow: /naïve/\n")
	inst.start(`http://127.0.0.1:{{port}} {
	root * {{dir}}/site
	robots_txt {
		` + verifiedHere + `
	}
	file_server
}
`)
	for _, target := range []string{
		"/caf%C3%A9/x.html", "/caf%c3%a9/x.html", "/café/x.html", "/%63af%C3%A9/x.html",
		"/na%C3%AFve/x.html", "/na%c3%afve/x.html", "/naïve/x.html",
	} {
		t.Run(target, func(t *testing.T) {
			if resp := inst.rawGet(t, target, testfixtures.UAFirefox); resp.status != http.StatusOK {
				t.Fatalf("browser GET %s: status %d, want 200 (else the case proves nothing)", target, resp.status)
			}
			if resp := inst.rawGet(t, target, testfixtures.UAPythonRequests); resp.status != http.StatusForbidden {
				t.Errorf("bot GET %s: status %d, want 403", target, resp.status)
			}
		})
	}
	if resp := inst.rawGet(t, "/ok/x.html", testfixtures.UAPythonRequests); resp.status != http.StatusOK {
		t.Errorf("bot GET /ok/x.html: status %d, want 200", resp.status)
	}
}

// TestRawBytesAsGoogleReads: "Disallow: /a|b" holds "|" raw. Google's
// parser compares it with the URL byte for byte, so it refuses a bot that
// sends "/a|b" raw, as browsers and crawlers send "|", and not one that
// sends "/a%7Cb". The escaped rule refuses both spellings. A "%" that
// starts no escape ("Disallow: /t/*%") matches the "%" of any escape as
// sent, "/t/%7Ejoe/" too, though a server reads it as "/t/~joe/".
func TestRawBytesAsGoogleReads(t *testing.T) {
	t.Parallel()
	inst := newInstance(t)
	writeFile(t, inst.dir+"/site/robots.txt", "User-agent: *\nDisallow: /a|b\nDisallow: /*?q=x|y\nDisallow: /c%7Cd\nDisallow: /t/*%\nAllow: /t/%7Eann/\n")
	inst.start(`http://127.0.0.1:{{port}} {
	root * {{dir}}/site
	robots_txt {
		` + verifiedHere + `
	}
	respond "ok {path}"
}
`)
	for _, tc := range []struct {
		target string
		status int
	}{
		{"/a|b", http.StatusForbidden},
		{"/a|b/x", http.StatusForbidden},
		{"/s?q=x|y", http.StatusForbidden},
		{"/a%7Cb", http.StatusOK},
		{"/a%7cb", http.StatusOK},
		{"/s?q=x%7Cy", http.StatusOK},
		{"/c|d", http.StatusForbidden},
		{"/c%7Cd", http.StatusForbidden},
		{"/t/%7Ejoe/", http.StatusForbidden},
		{"/t/%7ejoe/", http.StatusForbidden},
		{"/t/~joe/", http.StatusOK},
		{"/t/%7Eann/", http.StatusOK},
	} {
		if resp := inst.rawGet(t, tc.target, testfixtures.UAFirefox); resp.status != http.StatusOK {
			t.Fatalf("browser GET %s: status %d, want 200 (else the case proves nothing)", tc.target, resp.status)
		}
		if resp := inst.rawGet(t, tc.target, testfixtures.UAPythonRequests); resp.status != tc.status {
			t.Errorf("bot GET %s: status %d, want %d", tc.target, resp.status, tc.status)
		}
	}
}

// TestFinalDotSegments: a target ending in "." or ".." names the directory
// above it (RFC 3986 §5.2.4), and a backend that resolves it so (nginx,
// Apache, an application) serves /private/ for "/private/." and
// "/private/x/..". Behind reverse_proxy the module must judge it as that
// directory, or a bot reads what "Disallow: /private/" refuses.
func TestFinalDotSegments(t *testing.T) {
	t.Parallel()
	backend := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, "backend %s", r.RequestURI)
	}))
	t.Cleanup(backend.Close)
	inst := startCaddy(t, `http://127.0.0.1:{{port}} {
	root * {{dir}}/site
	robots_txt
	handle `+readyPath+` {
		respond "ready"
	}
	reverse_proxy `+strings.TrimPrefix(backend.URL, "http://")+`
}
`, withTestSite)
	for _, target := range []string{"/private/.", "/private/x/..", "/private/x/%2e%2e", "/.well-known/../private/."} {
		t.Run(target, func(t *testing.T) {
			browser := inst.rawGet(t, target, testfixtures.UAFirefox)
			if browser.status != http.StatusOK || !strings.HasPrefix(browser.body, "backend ") {
				t.Fatalf("browser GET %s: status %d body %q; want the backend's answer (else the case proves nothing)", target, browser.status, browser.body)
			}
			for _, ua := range []string{testfixtures.UAPythonRequests, testfixtures.UAGPTBot} {
				if resp := inst.rawGet(t, target, ua); resp.status != http.StatusForbidden {
					t.Errorf("bot %q GET %s: status %d body %q, want 403 (the target is /private/)", ua, target, resp.status, truncate(resp.body))
				}
			}
		})
	}
}

// TestDotSegmentSpellings: a path with dot-segments is judged in every
// spelling a server may read it in: as sent (a backend that routes
// without resolving them, as Flask does, sends "/private/../public/" to
// its /private/ handler), resolved (RFC 3986), and the file a final
// dot-segment leaves to a file server (Caddy's opens "docs/file.pdf" for
// "/docs/file.pdf/."). robots.txt is never refused where the handler
// answers it; a request it passes on is judged unless its path is
// /robots.txt as sent.
func TestDotSegmentSpellings(t *testing.T) {
	t.Parallel()
	backend := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// Routed on the decoded path, unresolved, as Flask and Go's
		// r.URL.Path routers do.
		area := "public"
		if strings.HasPrefix(r.URL.Path, "/private/") {
			area = "private"
		}
		// Routed on the request URI read as a URL, as Node's new
		// URL(req.url, base) and Python's urlsplit do: "//host/path"
		// is a host and a path.
		urlArea := "public"
		if u, err := url.Parse(r.RequestURI); err == nil && strings.HasPrefix(u.Path, "/private/") {
			urlArea = "private"
		}
		// Routed as Tomcat and Jetty route: path parameters dropped
		// from every segment, then dot-segments resolved.
		segs := strings.Split(strings.SplitN(r.RequestURI, "?", 2)[0], "/")
		for i, seg := range segs {
			segs[i], _, _ = strings.Cut(seg, ";")
		}
		javaArea := "public"
		if strings.HasPrefix(path.Clean(strings.Join(segs, "/"))+"/", "/private/") {
			javaArea = "private"
		}
		// Routed as a Windows server routes: a backslash, raw or
		// escaped, is a slash.
		winArea := "public"
		if strings.HasPrefix(path.Clean(strings.ReplaceAll(r.URL.Path, "\\", "/"))+"/", "/private/") {
			winArea = "private"
		}
		fmt.Fprintf(w, "backend %s area %s url-area %s java-area %s win-area %s", r.RequestURI, area, urlArea, javaArea, winArea)
	}))
	t.Cleanup(backend.Close)
	const robotsTxt = "User-agent: *\nDisallow: /*.pdf$\nDisallow: /private/\nDisallow: /wiki/Wikipedia%3AAfD\nDisallow: /share/*//\n" +
		"Content-Usage: train-ai=y\nContent-Usage: /*.pdf$ train-ai=n\n\nUser-agent: BadBot\nDisallow: /\n\n" +
		"User-agent: GPTBot\nContent-Usage: /*.pdf$ train-ai=n\nContent-Usage: /signals/ train-ai=n\n"
	const badBot = "BadBot/1.0"
	site := func(options string) string {
		return `http://127.0.0.1:{{port}} {
	root * {{dir}}/site
	robots_txt {
		` + options + `
	}
	handle /docs/* {
		file_server
	}
	handle ` + readyPath + ` {
		respond "ready"
	}
	handle {
		reverse_proxy ` + strings.TrimPrefix(backend.URL, "http://") + `
	}
}
`
	}
	start := func(options string) *instance {
		inst := newInstance(t)
		writeFile(t, inst.dir+"/site/docs/file.pdf", "%PDF-1.4 the file")
		writeFile(t, inst.dir+"/site/robots.txt", robotsTxt)
		inst.start(site(options))
		return inst
	}
	served, passed := start(""), start("serve off")
	signals := start(verifiedHere + "\n\t\tsignals enforce")

	type request struct {
		method, target, ua string
		// browser is what a browser gets through the same spelling, to
		// show that it reaches what the rules protect.
		browser string
		want    int
	}
	for _, tc := range []struct {
		name string
		inst *instance
		reqs []request
	}{
		{"a final dot-segment after a file", served, []request{
			{"GET", "/docs/file.pdf", testfixtures.UAPythonRequests, "%PDF", http.StatusForbidden},
			{"GET", "/docs/file.pdf/.", testfixtures.UAPythonRequests, "%PDF", http.StatusForbidden},
			{"GET", "/docs/file.pdf/x/..", testfixtures.UAPythonRequests, "%PDF", http.StatusForbidden},
			{"GET", "/docs/file.pdf/%2e", testfixtures.UAPythonRequests, "%PDF", http.StatusForbidden},
		}},
		{"dot-segments a backend does not resolve", served, []request{
			{"GET", "/private/../public/", testfixtures.UAPythonRequests, "area private", http.StatusForbidden},
			{"GET", "/private/./../x", testfixtures.UAPythonRequests, "area private", http.StatusForbidden},
			{"GET", "/public/./x", testfixtures.UAPythonRequests, "area public", http.StatusOK},
			{"GET", "/private%2F..%2Fpublic/", testfixtures.UAPythonRequests, "area private", http.StatusForbidden},
			{"GET", "/private%2F../public/", testfixtures.UAPythonRequests, "area private", http.StatusForbidden},
			// "%2E%2E" is a dot-segment to a parser that keeps "%2F"
			// (WHATWG, GURL): "/private/y" to Node and Envoy.
			{"GET", "/public%2Fx/%2E%2E/private/y", testfixtures.UAPythonRequests, "backend /public%2Fx/%2E%2E/private/y", http.StatusForbidden},
			// Google reads the URL as sent: the rule covers it.
			{"GET", "/wiki/Wikipedia%3AAfD/..", testfixtures.UAPythonRequests, "backend /wiki/Wikipedia%3AAfD/..", http.StatusForbidden},
			// Decoding "%2F%2F" makes a "//" the client never sent;
			// Google's reading allows it.
			{"GET", "/share/https%3A%2F%2Fexample.org%2F", testfixtures.UAPythonRequests, "backend /share/https%3A%2F%2Fexample.org%2F", http.StatusOK},
		}},
		{"path parameters a Java server drops", served, []request{
			{"GET", "/public/..;/private/y", testfixtures.UAPythonRequests, "java-area private", http.StatusForbidden},
			{"GET", "/private;x/y", testfixtures.UAPythonRequests, "java-area private", http.StatusForbidden},
			{"GET", "/public;x/y", testfixtures.UAPythonRequests, "java-area public", http.StatusOK},
		}},
		{"backslashes a Windows server reads as slashes", served, []request{
			{"GET", "/private\\y", testfixtures.UAPythonRequests, "win-area private", http.StatusForbidden},
			{"GET", "/private%5Cy", testfixtures.UAPythonRequests, "win-area private", http.StatusForbidden},
			{"GET", "/public\\..\\private\\y", testfixtures.UAPythonRequests, "win-area private", http.StatusForbidden},
			{"GET", "/public\\y", testfixtures.UAPythonRequests, "win-area public", http.StatusOK},
		}},
		{"a leading // read as a host", served, []request{
			{"GET", "//evil.example/private/y", testfixtures.UAPythonRequests, "url-area private", http.StatusForbidden},
			{"GET", "//evil.example/public/y", testfixtures.UAPythonRequests, "url-area public", http.StatusOK},
		}},
		{"usage preferences in every spelling", signals, []request{
			{"GET", "/docs/file.pdf", testfixtures.UAGPTBot, "%PDF", http.StatusForbidden},
			{"GET", "/docs/file.pdf/.", testfixtures.UAGPTBot, "%PDF", http.StatusForbidden},
			{"GET", "/signals/../public/", testfixtures.UAGPTBot, "backend /signals/../public/", http.StatusForbidden},
		}},
		{"robots.txt answered by the handler under any spelling", served, []request{
			{"GET", "/robots.txt/.", badBot, "", http.StatusOK},
			{"GET", "/x/../robots.txt", badBot, "", http.StatusOK},
			{"GET", "//robots.txt", badBot, "", http.StatusOK},
		}},
		{"robots.txt passed on by another method", served, []request{
			{"POST", "/private/x/../../robots.txt", testfixtures.UAPythonRequests, "area private", http.StatusForbidden},
			{"POST", "/private/%2e%2e/robots.txt", testfixtures.UAPythonRequests, "area private", http.StatusForbidden},
		}},
		{"robots.txt passed on with serve off", passed, []request{
			{"GET", "/robots.txt", badBot, "backend /robots.txt", http.StatusOK},
			{"GET", "/private/x/../../robots.txt", testfixtures.UAPythonRequests, "area private", http.StatusForbidden},
			{"GET", "/private/x.html%2f..%2f..%2frobots.txt", testfixtures.UAPythonRequests, "area private", http.StatusForbidden},
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, r := range tc.reqs {
				if r.browser != "" {
					if b := tc.inst.rawRequest(t, r.method, r.target, testfixtures.UAFirefox); !strings.Contains(b.body, r.browser) {
						t.Fatalf("browser %s %s: status %d body %q, want %q in it (else the case proves nothing)", r.method, r.target, b.status, truncate(b.body), r.browser)
					}
				}
				if resp := tc.inst.rawRequest(t, r.method, r.target, r.ua); resp.status != r.want {
					t.Errorf("%q %s %s: status %d body %q, want %d", r.ua, r.method, r.target, resp.status, truncate(resp.body), r.want)
				}
			}
		})
	}
	// The Content-Usage header is the file server's file's, whatever the
	// spelling: the PDF's, not the site's.
	for _, target := range []string{"/docs/file.pdf", "/docs/file.pdf/.", "/docs/x/../file.pdf"} {
		if resp := served.rawGet(t, target, testfixtures.UAFirefox); resp.header.Get("Content-Usage") != "train-ai=n" {
			t.Errorf("browser GET %s: status %d, Content-Usage %q, want the PDF's train-ai=n", target, resp.status, resp.header.Get("Content-Usage"))
		}
	}
}
