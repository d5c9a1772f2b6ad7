// Package fetch fetches a robots.txt, or an included list, over HTTP and
// reads the answer as RFC 9309 (section 2.3) says a crawler must, for the
// robots_txt handler and for caddy robots check alike, so that the two
// never read one upstream two ways. It knows nothing of Caddy.
package fetch

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/robotsguard/caddy-robots-txt/robots"
)

// UserAgent is the User-Agent of every fetch, so that the server's logs
// say who asks.
const UserAgent = "caddy-robots-txt (+https://github.com/robotsguard/caddy-robots-txt)"

// Accept is the Accept header of every fetch.
const Accept = "text/plain, */*;q=0.5"

// Timeout bounds one fetch, redirects and body included.
const Timeout = 10 * time.Second

// Outcome is what one fetch concluded.
type Outcome uint8

const (
	// Loaded: a 2xx answer that reads as a robots.txt; Result.Body
	// holds it.
	Loaded Outcome = iota
	// NoFile: a 4xx answer other than 429, a redirect not followed, or
	// more than robots.MaxRedirects redirects. There is no robots.txt,
	// and every bot may fetch everything.
	NoFile
	// Failed: 429, 5xx, 304 (the fetch sends no validators), a network
	// error, a timeout, a body cut short, a redirect the guard refuses,
	// or a 2xx answer that is no robots.txt at all (an HTML page). It
	// says nothing about the file.
	Failed
)

// Result is what one fetch concluded.
type Result struct {
	Outcome Outcome
	// Body is the text of a Loaded answer, cut at the last whole line
	// within robots.DefaultMaxSize bytes, as crawlers read it.
	Body []byte
	// File is Body parsed, which Get does to tell a robots.txt from
	// a page, so that the caller need not parse it again.
	File *robots.File
	// Cut is set when the answer was longer than that.
	Cut bool
	// Status is the status code of the last answer; 0 without one.
	// StatusLine is its status as the server wrote it ("404 Not Found"),
	// which is the server's to choose: clean it before a terminal.
	Status     int
	StatusLine string
	// CacheControl is the answer's Cache-Control, its fields joined;
	// Expires, Date and Age are its Expires, Date and Age so (two fields
	// of one make no date, nor a number of seconds: RFC 9111 reads such
	// an answer as stale, and such an Age is ignored).
	CacheControl string
	Expires      string
	Date         string
	Age          string
	// Err says why a fetch Failed, and why one found NoFile when no
	// status says so (too many redirects).
	Err error
}

// ErrNotRobotsTxt is the Err of a 2xx answer that is no robots.txt.
var ErrNotRobotsTxt = errors.New("the answer is not a robots.txt (no line is a robots.txt field; an HTML page?)")

var errTooManyRedirects = errors.New("too many redirects")

// Get fetches url once with client (see NewClient).
func Get(ctx context.Context, client *http.Client, url string) Result {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return Result{Outcome: Failed, Err: err}
	}
	req = req.WithContext(context.WithValue(ctx, originKey{}, req.URL.Hostname()))
	req.Header.Set("User-Agent", UserAgent)
	req.Header.Set("Accept", Accept)
	resp, err := client.Do(req)
	if errors.Is(err, errTooManyRedirects) {
		return Result{Outcome: NoFile, Err: fmt.Errorf("more than %d redirects; read as no robots.txt", robots.MaxRedirects)}
	}
	if err != nil {
		return Result{Outcome: Failed, Err: err}
	}
	defer resp.Body.Close()
	res := Result{
		Outcome: Failed, Status: resp.StatusCode, StatusLine: resp.Status,
		CacheControl: strings.Join(resp.Header.Values("Cache-Control"), ","),
		Expires:      strings.Join(resp.Header.Values("Expires"), ","),
		Date:         strings.Join(resp.Header.Values("Date"), ","),
		Age:          strings.Join(resp.Header.Values("Age"), ","),
	}
	switch {
	case resp.StatusCode >= 200 && resp.StatusCode < 300:
		body, err := io.ReadAll(io.LimitReader(resp.Body, robots.DefaultMaxSize+1))
		if err != nil {
			res.Err = fmt.Errorf("reading the body: %v", err)
			return res
		}
		if len(body) > robots.DefaultMaxSize {
			// Parse would cut it so too, but what is served and
			// merged with included lists must be what is judged.
			body, res.Cut = robots.Truncate(body, robots.DefaultMaxSize), true
		}
		f := robots.Parse(body)
		if !f.LooksLikeRobotsTxt() {
			// An error page or a catch-all route answering 200:
			// reading it as "no rules" would let every bot in and
			// serve the page as /robots.txt.
			res.Err = ErrNotRobotsTxt
			return res
		}
		res.Outcome, res.Body, res.File = Loaded, body, f
		return res
	case resp.StatusCode == http.StatusNotModified:
		// The request carried no validators, so a 304 (a cache or a
		// proxy in front of the upstream answering as if it had)
		// says nothing about the file: reading it as a redirect that
		// leads nowhere, "no robots.txt", would drop the copy in
		// force and let every bot in.
	case resp.StatusCode == http.StatusTooManyRequests:
		// Busy, not gone: a server error, as Google reads it. Behind
		// reverse_proxy the backend sees Caddy's address for the bots'
		// requests and this fetch alike, so a flood that trips its
		// rate limit would otherwise turn the rules off.
	case resp.StatusCode >= 300 && resp.StatusCode < 500:
		// A redirect the client did not follow (no Location) is read as
		// "not found", like a chain that is too long.
		res.Outcome = NoFile
		return res
	}
	res.Err = fmt.Errorf("upstream answered %s", resp.Status)
	return res
}
