package caddymodule

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
	"time"

	"go.uber.org/zap"

	"github.com/robotsguard/caddy-robots-txt/caddymodule/include"
	"github.com/robotsguard/caddy-robots-txt/robots"
)

// How robots.txt is fetched from the upstream (RFC 9309, section 2.3).
const (
	upstreamTimeout = 10 * time.Second
	refreshDefault  = 24 * time.Hour
	refreshMin      = time.Minute // Cache-Control max-age is held within these
	refreshMax      = 24 * time.Hour
	retryFirst      = time.Minute // after a failure; doubles up to retryMax
	retryMax        = time.Hour
)

// The user agent of the fetcher, so that the backend's logs say who asks.
const upstreamUserAgent = include.FetchUserAgent

var errTooManyRedirects = errors.New("too many redirects")

// fetchResult is what one fetch of the upstream robots.txt concluded.
type fetchResult struct {
	snap    *snapshot     // the version to put in force; nil keeps the current one
	refresh time.Duration // when to fetch again
	result  string        // reloads_total label: loaded, unreachable, failed
	status  int
	err     error
}

func newUpstreamClient() *http.Client {
	return &http.Client{
		Timeout: upstreamTimeout,
		CheckRedirect: func(req *http.Request, via []*http.Request) error {
			if len(via) > robots.MaxRedirects {
				return errTooManyRedirects
			}
			if redirectsInward(via[0].URL, req.URL) {
				return fmt.Errorf("a redirect to %s, this machine's or its link's address, is not followed", req.URL.Host)
			}
			return nil
		},
	}
}

// retryAfter is when to ask again after n failures in a row before this
// one: retryFirst, doubling up to retryMax.
func retryAfter(n int) time.Duration { return min(retryFirst<<min(n, 6), retryMax) }

// redirectsInward reports whether a redirect from the URL configured,
// from, to to leads from another host to this machine or its link: a
// loopback, link-local or unspecified address, or localhost. Whoever
// answers for the upstream (a tenant's app) must not make the fetcher
// call the admin endpoint or a cloud's metadata service; a redirect
// within the host, or to one the operator named, is followed.
func redirectsInward(from, to *url.URL) bool {
	if strings.EqualFold(strings.TrimSuffix(to.Hostname(), "."), strings.TrimSuffix(from.Hostname(), ".")) || inward(from.Hostname()) {
		return false
	}
	return inward(to.Hostname())
}

// inward reports whether host names this machine or its link.
func inward(host string) bool {
	host = strings.ToLower(strings.TrimSuffix(host, "."))
	if host == "localhost" || strings.HasSuffix(host, ".localhost") {
		return true
	}
	a, err := netip.ParseAddr(host)
	if err != nil {
		return false
	}
	a = a.Unmap()
	return a.IsLoopback() || a.IsLinkLocalUnicast() || a.IsUnspecified()
}

// fetchUpstream fetches url once and reads the answer as RFC 9309 says a
// crawler must: 2xx rules apply; 4xx (and a redirect chain longer than five
// hops) mean there is no robots.txt, so every bot may fetch everything;
// 429, 5xx, timeouts, network errors and truncated bodies are temporary,
// and the version in force stays.
//
// A crawler treats a server error as "disallow everything" until it can
// read the file again. An enforcer must not: it would refuse every bot for
// as long as the backend is down and call each request a violation of a
// file no crawler could have read. Keeping the last good copy, and allowing
// all when there has never been one, judges bots only by rules they could
// have seen.
func fetchUpstream(ctx context.Context, client *http.Client, url string) fetchResult {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return fetchResult{result: "failed", refresh: retryFirst, err: err}
	}
	req.Header.Set("User-Agent", upstreamUserAgent)
	req.Header.Set("Accept", include.FetchAccept)
	resp, err := client.Do(req)
	if errors.Is(err, errTooManyRedirects) {
		return fetchResult{snap: newEmptySnapshot(), refresh: refreshDefault, result: "unreachable",
			err: fmt.Errorf("more than %d redirects; read as no robots.txt", robots.MaxRedirects)}
	}
	if err != nil {
		return fetchResult{result: "failed", refresh: retryFirst, err: err}
	}
	defer resp.Body.Close()
	refresh := maxAge(strings.Join(resp.Header.Values("Cache-Control"), ","))
	switch {
	case resp.StatusCode >= 200 && resp.StatusCode < 300:
		body, err := io.ReadAll(io.LimitReader(resp.Body, robots.DefaultMaxSize+1))
		if err != nil {
			return fetchResult{result: "failed", refresh: retryFirst, status: resp.StatusCode,
				err: fmt.Errorf("reading the body: %v", err)}
		}
		var truncErr error
		if len(body) > robots.DefaultMaxSize {
			// Parse would cut it so too, but what is served and
			// merged with included lists must be what is judged.
			body = robots.Truncate(body, robots.DefaultMaxSize)
			truncErr = fmt.Errorf("longer than %d bytes; the rest is ignored, and so is the line the limit cuts", robots.DefaultMaxSize)
		}
		snap := newSnapshot(body)
		if !snap.File.LooksLikeRobotsTxt() {
			// An error page or a catch-all route answering 200: reading
			// it as "no rules" would let every bot in and serve the page
			// as /robots.txt. It is a failure, like a 5xx.
			return fetchResult{result: "failed", refresh: retryFirst, status: resp.StatusCode,
				err: errors.New("the answer is not a robots.txt (no line is a robots.txt field; an HTML page?)")}
		}
		return fetchResult{snap: snap, refresh: refresh, result: "loaded", status: resp.StatusCode, err: truncErr}
	case resp.StatusCode == http.StatusNotModified:
		// The request carried no validators, so a 304 (a cache or a
		// proxy in front of the upstream answering as if it had)
		// says nothing about the file: reading it as a redirect that
		// leads nowhere, "no robots.txt", would drop the copy in
		// force and let every bot in. It is a failure.
	case resp.StatusCode == http.StatusTooManyRequests:
		// Busy, not gone: a server error, as Google reads it. Behind
		// reverse_proxy the backend sees Caddy's address for the bots'
		// requests and this fetch alike, so a flood that trips its
		// rate limit would otherwise turn the rules off.
	case resp.StatusCode >= 300 && resp.StatusCode < 500:
		// A redirect the client did not follow (no Location) is read as
		// "not found", like a chain that is too long.
		return fetchResult{snap: newEmptySnapshot(), refresh: refresh, result: "unreachable", status: resp.StatusCode}
	}
	return fetchResult{result: "failed", refresh: retryFirst, status: resp.StatusCode,
		err: fmt.Errorf("upstream answered %s", resp.Status)}
}

// maxAge reads Cache-Control's max-age, held within refreshMin and
// refreshMax; without one, refreshDefault. no-cache and no-store ask that
// no copy be used unchecked: the shortest refresh, whatever max-age says
// (a day would keep a file its server said not to trust for a second).
func maxAge(cc string) time.Duration {
	age, found := refreshDefault, false
	for _, dir := range strings.Split(cc, ",") {
		name, val, _ := strings.Cut(strings.TrimSpace(dir), "=")
		switch {
		case strings.EqualFold(name, "no-cache") || strings.EqualFold(name, "no-store"):
			return refreshMin
		case found || !strings.EqualFold(name, "max-age"):
			continue
		}
		found = true
		secs, err := strconv.ParseInt(strings.Trim(val, `"`), 10, 64)
		if err != nil || secs < 0 {
			continue
		}
		age = refreshMax
		if secs < int64(refreshMax/time.Second) {
			age = max(time.Duration(secs)*time.Second, refreshMin)
		}
	}
	return age
}

// upstreamStartWait is how long provisioning waits for the first fetch
// of an upstream robots.txt. A slow or unreachable upstream must not hold
// up Caddy's start (or a config reload); past the wait the site starts
// with what it knows, and the fetch goes on in the background.
const upstreamStartWait = time.Second

// loadUpstream fetches the upstream robots.txt and puts the result in
// force; it returns when to fetch again and whether a file is in force
// (false after a failure, and after "no robots.txt", which are retried
// sooner each time they repeat).
func (s *source) loadUpstream(ctx context.Context, failures int) (time.Duration, bool) {
	res := fetchUpstream(ctx, s.client, s.url)
	s.mu.Lock()
	defer s.mu.Unlock()
	log := s.logger()
	fields := []zap.Field{zap.String("url", s.name()), zap.Int("status", res.status)}
	if res.err != nil {
		fields = append(fields, zap.Error(withoutURL(res.err)))
	}
	first := !s.exists
	s.exists = true
	wasFailing := s.failing
	s.failing = res.result == "failed"
	if prev := s.lastResult; prev != res.result && (prev == "failed" || prev == "unreachable") {
		// A failure after "no robots.txt", or "no robots.txt" after
		// failures, starts its own count: the site may be open
		// meanwhile, and is asked again after a minute, not after the
		// hour the other kind had backed off to.
		failures = 0
	}
	s.lastResult = res.result
	if !first {
		reloadsTotal.WithLabelValues(res.result).Inc()
	}
	s.notRobots = nil
	if res.result == "failed" && res.status >= 200 && res.status < 300 {
		s.notRobots = res.err
	}
	switch res.result {
	case "failed":
		wait := retryAfter(failures)
		fields = append(fields, zap.Duration("retry_in", wait))
		// Until a good copy is fetched (at the first fetch, at each
		// retry after it, after "no robots.txt") no rules are in force
		// to stay.
		if s.current().File == nil {
			log.Error("robots.txt could not be fetched from the upstream; every bot is allowed until it can be", fields...)
		} else {
			log.Error("robots.txt could not be fetched from the upstream; the rules in force stay", fields...)
		}
		return wait, false
	case "unreachable":
		// From a file in force, or from the stand-in for a first fetch
		// not yet answered: "no robots.txt" is put in force, with the
		// included lists, which apply alone now.
		cur := s.current()
		changed := cur.File != nil || cur.unknown
		if changed {
			s.publish(res.snap)
			s.setGauges(s.current())
		}
		// "No robots.txt" turns enforcement off. A crawler may cache
		// it for a day, but a 404 of a deploy in progress must not
		// leave the site open that long: it is asked again as after a
		// failure (1 minute, doubling up to an hour).
		wait := min(res.refresh, retryAfter(failures))
		// After a failure the log's last word was that the upstream
		// could not be fetched: that it now says "no robots.txt" is
		// news, even when nothing in force changes.
		if first || changed || wasFailing {
			log.Warn("the upstream has no robots.txt; "+withoutFile(s.includes != nil),
				append(fields, zap.Duration("retry_in", wait))...)
		}
		return wait, false
	}
	if old := s.current(); old.siteETag != res.snap.siteETag || old.unknown {
		s.publish(res.snap)
		if res.err != nil {
			log.Warn("robots.txt from the upstream was cut", fields...)
		}
		s.logLoad(res.snap)
	}
	return res.refresh, true
}

// lastFetch is the result of the last fetch: loaded, unreachable (no
// robots.txt) or failed; "" before the first.
func (s *source) lastFetch() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.lastResult
}

// pollUpstream fetches the upstream robots.txt each time its copy
// expires, and whenever refetch asks.
func (s *source) pollUpstream(ctx context.Context) {
	failures := 0
	t := time.NewTimer(time.Hour)
	t.Stop()
	defer t.Stop()
	for {
		var done chan struct{}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		case done = <-s.fetchNow:
		}
		was := s.lastFetch()
		wait, ok := s.loadUpstream(ctx, failures)
		switch {
		case ok:
			failures = 0
		case s.lastFetch() != was:
			failures = 1 // the first of its kind (see loadUpstream)
		default:
			failures++
		}
		if done != nil {
			close(done)
		}
		t.Reset(wait)
	}
}

// refetch has the poller fetch the upstream now, as every configuration
// load does, and waits at most wait for it; it reports whether the fetch
// ended in time. Until a source's first fetch ends nothing is known of
// the file, and every bot is allowed.
func (s *source) refetch(wait time.Duration) bool {
	timeout := time.NewTimer(wait)
	defer timeout.Stop()
	done := make(chan struct{})
	select {
	case s.fetchNow <- done:
	case <-timeout.C:
		return false
	}
	select {
	case <-done:
		return true
	case <-timeout.C:
		return false
	}
}

// redactURL is an upstream URL fit for logs and metric labels: without
// user information and query, which may hold credentials.
func redactURL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return "(unparsable URL)"
	}
	if u.User != nil {
		u.User = url.User("REDACTED")
	}
	if u.RawQuery != "" {
		u.RawQuery = "REDACTED"
	}
	u.Fragment = ""
	return u.String()
}

// withoutURL drops the URL that net/http puts in its errors (with the
// query, which may hold credentials); the log names the URL, redacted.
func withoutURL(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		return fmt.Errorf("%s: %w", ue.Op, ue.Err)
	}
	return err
}
