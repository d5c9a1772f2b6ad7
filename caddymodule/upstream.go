package caddymodule

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"go.uber.org/zap"

	"github.com/robotsguard/caddy-robots-txt/caddymodule/fetch"
	"github.com/robotsguard/caddy-robots-txt/robots"
)

// How robots.txt is fetched from the upstream (RFC 9309, section 2.3).
const (
	refreshDefault = 24 * time.Hour
	refreshMin     = time.Minute // what is left of max-age, or Expires, is held within these
	refreshMax     = 24 * time.Hour
	retryFirst     = time.Minute // after a failure; doubles up to retryMax
	retryMax       = time.Hour
)

// fetchResult is what one fetch of the upstream robots.txt concluded.
type fetchResult struct {
	snap    *snapshot     // the version to put in force; nil keeps the current one
	refresh time.Duration // when to fetch again
	result  string        // reloads_total label: loaded, unreachable, failed
	status  int
	err     error
}

// newUpstreamClient is the client of every fetch (see fetch.NewClient).
func newUpstreamClient() *http.Client { return fetch.NewClient() }

// retryAfter is when to ask again after n failures in a row before this
// one: retryFirst, doubling up to retryMax.
func retryAfter(n int) time.Duration { return min(retryFirst<<min(n, 6), retryMax) }

// fetchUpstream fetches url once, read as fetch.Get reads it: 2xx rules
// apply; 4xx (and a redirect chain longer than five hops) mean there is
// no robots.txt, so every bot may fetch everything; 429, 5xx, timeouts,
// network errors and truncated bodies are temporary, and the version in
// force stays.
//
// A crawler treats a server error as "disallow everything" until it can
// read the file again. An enforcer must not: it would refuse every bot for
// as long as the backend is down and call each request a violation of a
// file no crawler could have read. Keeping the last good copy, and allowing
// all when there has never been one, judges bots only by rules they could
// have seen.
func fetchUpstream(ctx context.Context, client *http.Client, url string) fetchResult {
	res := fetch.Get(ctx, client, url)
	fresh := freshness(res.CacheControl, res.Expires, res.Date, res.Age, time.Now())
	out := fetchResult{status: res.Status, err: res.Err}
	switch res.Outcome {
	case fetch.Loaded:
		out.snap, out.refresh, out.result = parsedSnapshot(res.Body, res.File), fresh, "loaded"
		if res.Cut {
			out.err = fmt.Errorf("longer than %d bytes; the rest is ignored, and so is the line the limit cuts", robots.DefaultMaxSize)
		}
	case fetch.NoFile:
		out.snap, out.result = newEmptySnapshot(), "unreachable"
		out.refresh = fresh
		if res.Status == 0 {
			out.refresh = refreshDefault // too many redirects: no answer to say how long
		}
	default:
		out.refresh, out.result = retryFirst, "failed"
	}
	return out
}

// freshness is how long an answer received at now stays fresh (RFC
// 9111, section 4.2, for a private cache): its freshness lifetime,
// Cache-Control's max-age or else Expires minus the answer's Date (now
// without one), less its current age, the larger of its Age and the time
// since its Date, held within refreshMin and refreshMax; without max-age
// or Expires, refreshDefault. A CDN's copy of a max-age of 100 s that it
// held for 30 s (Age: 30) is stale 70 s after it came, not 100. An
// Expires that is no date ("0" is common) means already expired (section
// 5.3): the shortest refresh, not the default day. no-cache and no-store
// ask that no copy be used unchecked: the shortest refresh, whatever
// max-age or Expires says (a day would keep a file its server said not
// to trust for a second).
func freshness(cc, expires, date, age string, now time.Time) time.Duration {
	lifetime, found, valid := time.Duration(0), false, false
	for _, dir := range strings.Split(cc, ",") {
		name, val, qualified := strings.Cut(strings.TrimSpace(dir), "=")
		switch {
		// A qualified no-cache="Set-Cookie" forbids reusing those
		// header fields only, not the body (RFC 9111, section
		// 5.2.2.4).
		case strings.EqualFold(name, "no-cache") && !qualified || strings.EqualFold(name, "no-store"):
			return refreshMin
		case found || !strings.EqualFold(name, "max-age"):
			continue
		}
		found = true
		lifetime, valid = deltaSeconds(strings.Trim(val, `"`))
	}
	// A Date that is no date is replaced by the time the answer came
	// (RFC 9110, section 6.6.1).
	dated, err := http.ParseTime(date)
	if err != nil {
		dated = now
	}
	if !valid {
		if expires == "" {
			return refreshDefault
		}
		exp, err := http.ParseTime(expires)
		if err != nil {
			return refreshMin
		}
		lifetime = exp.Sub(dated)
	}
	// A Date ahead of the clock makes no age: the server's clock is
	// ahead, and Age, if any, says how old the copy is.
	current := max(now.Sub(dated), 0)
	if a, ok := deltaSeconds(age); ok {
		current = max(current, a)
	}
	if current >= lifetime {
		return refreshMin
	}
	return min(max(lifetime-current, refreshMin), refreshMax)
}

// deltaSeconds reads a delta-seconds value (RFC 9111, section 1.2.2):
// digits only, and one too large to hold read as 2^31 seconds, as the RFC
// asks, so that a max-age or Age of any length is a time.
func deltaSeconds(s string) (time.Duration, bool) {
	s = strings.TrimSpace(s)
	if s == "" {
		return 0, false
	}
	for i := range len(s) {
		if s[i] < '0' || s[i] > '9' {
			return 0, false
		}
	}
	secs, err := strconv.ParseInt(s, 10, 64)
	if err != nil || secs > 1<<31 {
		secs = 1 << 31 // digits only: err is out of range
	}
	return time.Duration(secs) * time.Second, true
}

// upstreamStartWait is how long provisioning waits for the first fetch
// of an upstream robots.txt. A slow or unreachable upstream must not hold
// up Caddy's start (or a config reload); past the wait the site starts
// with what it knows, and the fetch goes on in the background.
const upstreamStartWait = time.Second

// strictStartWait is upstreamStartWait with strict, which must see the
// upstream's answer to check it: a fetch ends within fetch.Timeout.
const strictStartWait = fetch.Timeout + time.Second

// startWait is how long a configuration load waits for the first fetches.
func (h *Handler) startWait() time.Duration {
	if h.Strict {
		return strictStartWait
	}
	return upstreamStartWait
}

// loadUpstream fetches the upstream robots.txt and puts the result in
// force; it returns when to fetch again and whether a file is in force
// (false after a failure, and after "no robots.txt", which are retried
// sooner each time they repeat).
func (s *source) loadUpstream(ctx context.Context, failures int) (time.Duration, bool) {
	res := fetchUpstream(ctx, s.client, s.url)
	if ctx.Err() != nil {
		// The source stopped (caddy validate, a config unloaded): its
		// fetch was cut, which says nothing of the upstream.
		return retryFirst, false
	}
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
		if cur := s.current(); cur.File == nil || cur.unknown {
			log.Error("robots.txt could not be fetched from the upstream; "+untilFetched(s.includes != nil), fields...)
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
		s.noteLoad()
		return res.refresh, true
	}
	// The same file again is a load all the same, as reloads_total
	// counts it: an alert on a stale last load must not fire on an
	// upstream that answers, unchanged, at every refresh.
	lastLoad.WithLabelValues(s.name()).SetToCurrentTime()
	return res.refresh, true
}

// upstreamCopy is what a source last fetched from an upstream: a file,
// or (nil body and result "unreachable") that there is none.
type upstreamCopy struct {
	site   []byte
	result string
}

// liveUpstreamCopy returns what a source of a running configuration last
// fetched from url, if one did. A configuration reload that changes a
// setting a source is made with (grace, an included list) makes a new
// source for the same url; it starts from this copy, as the one it
// replaces goes on from its own, rather than from nothing: an upstream
// that fails during the reload must not turn the rules off.
func liveUpstreamCopy(url string) (upstreamCopy, bool) {
	var c upstreamCopy
	found := false
	sources.Range(func(_, v any) bool {
		s, ok := v.(*source)
		if !ok || s.url != url {
			return true
		}
		cur := s.current()
		if cur == nil || cur.unknown {
			return true
		}
		c.result = "unreachable"
		if cur.siteETag != "" {
			c.site, c.result = cur.site, "loaded"
		}
		found = true
		return false
	})
	return c, found
}

// adopt puts c in force in a new upstream source, as the first fetch
// would have: the fetch the load makes then changes it as any refresh
// does, and a failed one keeps it.
func (s *source) adopt(c upstreamCopy) {
	s.mu.Lock()
	defer s.mu.Unlock()
	snap := newEmptySnapshot()
	if c.result == "loaded" {
		snap = parsedSnapshot(c.site, robots.Parse(c.site))
	}
	s.publish(snap)
	s.setGauges(s.current())
	s.exists, s.lastResult = true, c.result
}

// untilFetched says what is enforced while an upstream robots.txt has
// never been fetched: nothing, or the included lists alone.
func untilFetched(includes bool) string {
	if includes {
		return "only the included lists apply until it can be"
	}
	return "every bot is allowed until it can be"
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

// redactWrittenURL is redactURL for a URL as written, with its
// placeholders, which it would escape ("%7Benv.X%7D") or, in the host,
// not parse, where the operator needs to see them: a URL can hold a
// secret only in user information or a query, and is left as written
// without either.
func redactWrittenURL(raw string) string {
	if strings.ContainsAny(raw, "@?") {
		return redactURL(raw)
	}
	return raw
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
