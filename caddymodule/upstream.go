package caddymodule

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"

	"go.uber.org/zap"

	"github.com/robotsguard/caddy-robots-txt/robots"
)

// How robots.txt is fetched from the upstream (RFC 9309, section 2.3).
const (
	upstreamTimeout   = 10 * time.Second
	upstreamRedirects = 5 // hops followed; more is read as "not found"
	refreshDefault    = 24 * time.Hour
	refreshMin        = time.Minute // Cache-Control max-age is held within these
	refreshMax        = 24 * time.Hour
	retryFirst        = time.Minute // after a failure; doubles up to retryMax
	retryMax          = time.Hour
)

// The user agent of the fetcher, so that the backend's logs say who asks.
const upstreamUserAgent = "caddy-robots-txt (+https://github.com/robotsguard/caddy-robots-txt)"

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
			if len(via) > upstreamRedirects {
				return errTooManyRedirects
			}
			return nil
		},
	}
}

// fetchUpstream fetches url once and reads the answer as RFC 9309 says a
// crawler must: 2xx rules apply; 4xx (and a redirect chain longer than five
// hops) mean there is no robots.txt, so every bot may fetch everything;
// 5xx, timeouts, network errors and truncated bodies are temporary, and the
// version in force stays.
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
	req.Header.Set("Accept", "text/plain, */*;q=0.5")
	resp, err := client.Do(req)
	if errors.Is(err, errTooManyRedirects) {
		return fetchResult{snap: newEmptySnapshot(), refresh: refreshDefault, result: "unreachable",
			err: fmt.Errorf("more than %d redirects; read as no robots.txt", upstreamRedirects)}
	}
	if err != nil {
		return fetchResult{result: "failed", refresh: retryFirst, err: err}
	}
	defer resp.Body.Close()
	refresh := maxAge(resp.Header.Get("Cache-Control"))
	switch {
	case resp.StatusCode >= 200 && resp.StatusCode < 300:
		body, err := io.ReadAll(io.LimitReader(resp.Body, robots.DefaultMaxSize+1))
		if err != nil {
			return fetchResult{result: "failed", refresh: retryFirst, status: resp.StatusCode,
				err: fmt.Errorf("reading the body: %v", err)}
		}
		var truncErr error
		if len(body) > robots.DefaultMaxSize {
			body = body[:robots.DefaultMaxSize]
			truncErr = fmt.Errorf("longer than %d bytes; the rest is ignored", robots.DefaultMaxSize)
		}
		modTime := time.Now()
		if lm, err := http.ParseTime(resp.Header.Get("Last-Modified")); err == nil {
			modTime = lm
		}
		return fetchResult{snap: newSnapshot(body, modTime.Truncate(time.Second)), refresh: refresh,
			result: "loaded", status: resp.StatusCode, err: truncErr}
	case resp.StatusCode >= 300 && resp.StatusCode < 500:
		// A redirect the client did not follow (no Location) is read as
		// "not found", like a chain that is too long.
		return fetchResult{snap: newEmptySnapshot(), refresh: refresh, result: "unreachable", status: resp.StatusCode}
	}
	return fetchResult{result: "failed", refresh: retryFirst, status: resp.StatusCode,
		err: fmt.Errorf("upstream answered %s", resp.Status)}
}

// maxAge reads Cache-Control's max-age, held within refreshMin and
// refreshMax; without one, refreshDefault.
func maxAge(cc string) time.Duration {
	for _, dir := range strings.Split(cc, ",") {
		name, val, _ := strings.Cut(strings.TrimSpace(dir), "=")
		if !strings.EqualFold(name, "max-age") {
			continue
		}
		secs, err := strconv.ParseInt(strings.Trim(val, `"`), 10, 64)
		if err != nil || secs < 0 {
			break
		}
		d := time.Duration(secs) * time.Second
		if secs > int64(refreshMax/time.Second) {
			d = refreshMax
		}
		return max(d, refreshMin)
	}
	return refreshDefault
}

// loadUpstream fetches the upstream robots.txt and puts the result in
// force; it returns when to fetch again.
func (h *Handler) loadUpstream(ctx context.Context, s *source, failures int) (time.Duration, bool) {
	res := fetchUpstream(ctx, h.client, s.url)
	s.mu.Lock()
	defer s.mu.Unlock()
	fields := []zap.Field{zap.String("url", s.url), zap.Int("status", res.status)}
	if res.err != nil {
		fields = append(fields, zap.Error(res.err))
	}
	first := s.current() == nil
	if !first {
		reloadsTotal.WithLabelValues(res.result).Inc()
	}
	switch res.result {
	case "failed":
		wait := min(retryFirst<<min(failures, 6), retryMax)
		fields = append(fields, zap.Duration("retry_in", wait))
		if first {
			s.publish(newEmptySnapshot(), 0)
			h.logger.Error("robots.txt could not be fetched from the upstream; every bot is allowed until it can be", fields...)
		} else {
			h.logger.Error("robots.txt could not be fetched from the upstream; the rules in force stay", fields...)
		}
		return wait, false
	case "unreachable":
		if old := s.current(); old == nil || old.file != nil {
			s.publish(res.snap, h.GraceWindow())
			h.logger.Warn("the upstream has no robots.txt; every bot is allowed everywhere", fields...)
		}
		return res.refresh, true
	}
	if old := s.current(); old == nil || old.etag != res.snap.etag {
		s.publish(res.snap, h.GraceWindow())
		if res.err != nil {
			h.logger.Warn("robots.txt from the upstream was cut", fields...)
		}
		h.logLoad(s, res.snap)
	}
	return res.refresh, true
}

// pollUpstream refetches the upstream robots.txt when its copy expires.
func (h *Handler) pollUpstream(ctx context.Context, s *source, wait time.Duration, ok bool) {
	failures := 0
	if !ok {
		failures = 1
	}
	t := time.NewTimer(wait)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		wait, ok = h.loadUpstream(ctx, s, failures)
		if ok {
			failures = 0
		} else {
			failures++
		}
		t.Reset(wait)
	}
}
