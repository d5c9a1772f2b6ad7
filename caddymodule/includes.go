package caddymodule

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net/http"
	"strconv"
	"sync"
	"time"

	"go.uber.org/zap"

	"github.com/robotsguard/caddy-robots-txt/caddymodule/include"
	"github.com/robotsguard/caddy-robots-txt/caddymodule/judge"
	"github.com/robotsguard/caddy-robots-txt/config"
	"github.com/robotsguard/caddy-robots-txt/robots"
)

// includeSet holds the current bodies of the robots.txt lists included
// beside a site's own file, and keeps them up to date: files are checked
// with the site's file, URLs are fetched as an upstream robots.txt is
// (redirects, size cap, last good copy, refreshed after max-age or
// Expires).
type includeSet struct {
	mu      sync.Mutex
	entries []*includeEntry
}

type includeEntry struct {
	name   string // the path or URL, as configured
	isURL  bool
	body   []byte // the last good body; nil until one is read
	failed bool   // the last read failed; logged once
	err    error  // why the last read of a file failed, for strict
	// gone counts the fetches in a row that found no list (4xx): the
	// list is asked again as after a failure, sooner than a day.
	gone int
	// failures counts the failed fetches in a row: each is retried
	// later than the one before, as the site's upstream is.
	failures int
	// refused says why a URL's last answer was no list at all (a 2xx
	// HTML page, a 4xx), for strict; nil when it was one, or when the
	// fetch failed for a while (a 5xx, a timeout).
	refused error
	// fetched is set once a URL's first fetch has ended.
	fetched bool
}

func newIncludeSet(names []string) *includeSet {
	set := &includeSet{}
	for _, n := range names {
		set.entries = append(set.entries, &includeEntry{name: n, isURL: config.IsIncludeURL(n)})
	}
	return set
}

// sources returns the included bodies, in order, for include.Merge.
func (set *includeSet) sources() []include.Source {
	set.mu.Lock()
	defer set.mu.Unlock()
	out := make([]include.Source, 0, len(set.entries))
	for _, e := range set.entries {
		out = append(out, include.Source{Name: redactURL(e.name), Body: e.body})
	}
	return out
}

// refreshFiles rereads the included files; it reports whether any body
// changed. A file that cannot be read keeps its last good body.
func (set *includeSet) refreshFiles(log *zap.Logger) bool {
	changed := false
	for _, e := range set.entries {
		if e.isURL {
			continue
		}
		body, err := readIncluded(e.name)
		set.mu.Lock()
		switch {
		case err != nil:
			// Logged once per failure, and again when it fails
			// another way (gone, then an HTML page): each is news,
			// as for the site's own file.
			if !e.failed || e.err == nil || e.err.Error() != err.Error() {
				log.Error("an included robots.txt could not be read; "+keeps(e.body), zap.String("include", e.name), zap.Error(err))
			}
			e.failed, e.err = true, err
		case !bytes.Equal(body, e.body):
			e.body, e.failed, e.err, changed = body, false, nil, true
		default:
			e.failed, e.err = false, nil
		}
		set.mu.Unlock()
	}
	return changed
}

// keeps says what stands in for an included list that could not be read:
// its last good copy, or, with none yet, nothing.
func keeps(body []byte) string {
	if body == nil {
		return "it adds nothing until it can be"
	}
	return "its last good copy stays"
}

// strictErrors is strict for the included lists: a file that could not be
// read when last checked, a URL whose last answer was no list (an HTML
// page, a 4xx; not a failure that may pass, a 5xx), and the error findings of each list as parsed on
// its own (m.Lists, in the order of the entries), named by list and line.
func (set *includeSet) strictErrors(m *include.Merged) []string {
	var errs []string
	set.mu.Lock()
	defer set.mu.Unlock()
	for i, e := range set.entries {
		if !e.isURL && e.err != nil {
			errs = append(errs, fmt.Sprintf("included %s could not be read: %v", e.name, e.err))
		}
		if e.refused != nil {
			errs = append(errs, fmt.Sprintf("included %s: %v", redactURL(e.name), withoutURL(e.refused)))
		}
		if m == nil || i >= len(m.Lists) {
			continue
		}
		for _, d := range m.Lists[i].Diagnostics() {
			if d.Severity == robots.Error {
				errs = append(errs, fmt.Sprintf("%s:%d: %s", redactURL(e.name), d.Line, d.Message))
			}
		}
	}
	return errs
}

func readIncluded(path string) ([]byte, error) {
	f, _, err := openRegular(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return include.ReadList(f)
}

// fetchURL fetches one included URL; it reports whether the body changed,
// and when to fetch again.
func (set *includeSet) fetchURL(ctx context.Context, client *http.Client, logger func() *zap.Logger, e *includeEntry) (bool, time.Duration) {
	res := fetchUpstream(ctx, client, e.name)
	if ctx.Err() != nil {
		// The source stopped (caddy validate, a config unloaded):
		// its fetch was cut, which says nothing of the list.
		return false, retryFirst
	}
	set.mu.Lock()
	defer set.mu.Unlock()
	e.refused, e.fetched = nil, true
	switch res.result {
	case "loaded":
		changed := !bytes.Equal(res.snap.body, e.body)
		e.body, e.failed, e.gone, e.failures = res.snap.body, false, 0, 0
		return changed, res.refresh
	case "unreachable": // 4xx: the list is gone, and adds nothing
		changed := e.body != nil
		// Asked again as the site's own upstream is after "no
		// robots.txt": a 404 of a deploy in progress must not drop
		// the list's rules for a day.
		wait := min(res.refresh, retryAfter(e.gone))
		if changed || e.gone == 0 {
			logger().Warn("an included list's URL has no list (4xx); its rules are not in force until it has one",
				zap.String("include", redactURL(e.name)), zap.Int("status", res.status), zap.Duration("retry_in", wait))
		}
		e.body, e.failed, e.failures = nil, false, 0
		e.gone++
		e.refused = fmt.Errorf("answered %d: no list there", res.status)
		return changed, wait
	}
	if res.status >= 200 && res.status < 300 {
		e.refused = res.err // an HTML page, say
	}
	// Each failure is logged, as the site's upstream's are: with the
	// retries backing off, the log grows by a line an hour at most.
	wait := retryAfter(e.failures)
	logger().Error("an included robots.txt could not be fetched; "+keeps(e.body),
		zap.String("include", redactURL(e.name)), zap.Int("status", res.status), zap.Error(withoutURL(res.err)), zap.Duration("retry_in", wait))
	e.failed, e.gone = true, 0
	e.failures++
	return false, wait
}

// pollURLs fetches each included URL at once, closes first (if any) when
// every first fetch has ended, and then fetches each again when its copy
// expires, calling changed (which merges the robots.txt again) whenever a
// list changed.
func (set *includeSet) pollURLs(ctx context.Context, client *http.Client, logger func() *zap.Logger, changed func(), first chan<- struct{}) {
	var wg sync.WaitGroup
	for _, e := range set.entries {
		if !e.isURL {
			continue
		}
		wg.Add(1)
		go func() {
			news, wait := set.fetchURL(ctx, client, logger, e)
			if news {
				// Merged before first closes: the handler that
				// waits for it must not judge without the list.
				changed()
			}
			wg.Done()
			for {
				t := time.NewTimer(wait)
				select {
				case <-ctx.Done():
					t.Stop()
					return
				case <-t.C:
				}
				if news, wait = set.fetchURL(ctx, client, logger, e); news {
					changed()
				}
			}
		}()
	}
	wg.Wait()
	if first != nil {
		close(first)
	}
}

// pending names the included URLs whose first fetch has not ended.
func (set *includeSet) pending() []string {
	return set.urlsWhere(func(e *includeEntry) bool { return !e.fetched })
}

// unchecked names the included URLs strict could not check: their last
// fetch failed for a while (a 5xx, a timeout), or has not ended.
func (set *includeSet) unchecked() []string {
	return set.urlsWhere(func(e *includeEntry) bool { return !e.fetched || e.failed && e.refused == nil })
}

// urlsWhere names, redacted, the included URLs whose entry is so.
func (set *includeSet) urlsWhere(is func(*includeEntry) bool) []string {
	if set == nil {
		return nil
	}
	set.mu.Lock()
	defer set.mu.Unlock()
	var names []string
	for _, e := range set.entries {
		if e.isURL && is(e) {
			names = append(names, redactURL(e.name))
		}
	}
	return names
}

// hasFiles reports whether some included list is a file.
func (set *includeSet) hasFiles() bool {
	for _, e := range set.entries {
		if !e.isURL {
			return true
		}
	}
	return false
}

// hasURLs reports whether some included list is fetched over HTTP.
func (set *includeSet) hasURLs() bool {
	for _, e := range set.entries {
		if e.isURL {
			return true
		}
	}
	return false
}

// merged returns snap with the included lists merged after the site's
// own rules: what is served, parsed and judged. Its line map tells
// diagnostics and violations which source a line came from.
func (s *source) merged(snap *snapshot) *snapshot { return s.merge(snap, true) }

// merge is merged; findings says whether the lists' findings are logged,
// which a stand-in for an upstream file not fetched yet leaves to the
// version that replaces it.
func (s *source) merge(snap *snapshot, findings bool) *snapshot {
	if s.includes == nil {
		return snap
	}
	name := s.name()
	lists := s.includes.sources()
	// Only a file without text has the lists' merge alone.
	memo := s.settings.Load().memo
	if len(snap.site) > 0 {
		memo = nil
	}
	if memo != nil {
		if first, ok := memo.get(lists); ok {
			return &snapshot{Version: judge.NewVersion(first.File, first.ETag), body: first.body, site: snap.site, siteETag: snap.siteETag, origin: first.origin, trapsOf: first}
		}
	}
	m := include.Merge(include.Source{Name: name, Body: snap.site}, lists...)
	sum := sha256.Sum256(m.Body)
	out := &snapshot{
		Version: judge.NewVersion(robots.Parse(m.Body), `"`+hex.EncodeToString(sum[:12])+`"`),
		body:    m.Body, site: snap.site, siteETag: snap.siteETag, origin: m,
		unknown: snap.unknown,
	}
	if memo != nil {
		memo.put(lists, out)
	}
	if !findings {
		return out
	}
	for _, w := range m.Warnings {
		s.logger().Warn("robots.txt includes: "+w, zap.String("file", name))
	}
	// The list's own findings (a misspelt key, an unknown field), which
	// the merged text no longer shows.
	for i, l := range lists {
		diags := m.Lists[i].Diagnostics()
		if len(diags) == 0 {
			continue
		}
		lines := make([]string, len(diags))
		for j, d := range diags {
			lines[j] = d.String()
		}
		s.logger().Warn("robots.txt included list has findings", zap.String("file", name), zap.String("list", l.Name), zap.Strings("diagnostics", lines))
	}
	return out
}

// mergeMemo keeps the merge of the included lists with no site text, for
// the files of a root with placeholders ({host}): any Host a client makes
// up names a file that is not there, whose robots.txt is the lists alone.
// Merged and parsed anew for each, the lists would cost every request
// with a new Host three parses (20 ms for lists of 270 KB) and each of
// the sources kept a copy of megabytes; the findings of the lists would be
// logged again each time. One merge, shared, is made once per text of the
// lists (which the sources share too: sourceSettings.lists).
type mergeMemo struct {
	mu    sync.Mutex
	lists [][]byte
	first *snapshot // the merge, as the first file without text got it
}

// get returns the first snapshot merged from lists with no site text, if
// it is the one kept: its parsed file, text and served texts with a trap
// are the others' too.
func (mm *mergeMemo) get(lists []include.Source) (*snapshot, bool) {
	mm.mu.Lock()
	defer mm.mu.Unlock()
	if mm.first == nil || len(mm.lists) != len(lists) {
		return nil, false
	}
	for i, l := range lists {
		if !bytes.Equal(l.Body, mm.lists[i]) {
			return nil, false
		}
	}
	return mm.first, true
}

// put keeps first, merged from lists with no site text, in place of the
// one kept: the lists changed.
func (mm *mergeMemo) put(lists []include.Source, first *snapshot) {
	bodies := make([][]byte, len(lists))
	for i, l := range lists {
		bodies[i] = l.Body
	}
	mm.mu.Lock()
	defer mm.mu.Unlock()
	mm.lists, mm.first = bodies, first
}

// remerge merges the current site file with the included lists again,
// after a list changed.
func (s *source) remerge() {
	s.mu.Lock()
	defer s.mu.Unlock()
	cur := s.current()
	if cur == nil {
		return
	}
	if cur.unknown {
		// The upstream's file is not known yet: the lists apply
		// alone, and the version that replaces the stand-in logs what
		// is in force.
		s.cur.Store(s.standIn())
		return
	}
	next := s.merged(&snapshot{Version: judge.NewVersion(nil, ""), site: cur.site, siteETag: cur.siteETag})
	if next.ETag == cur.ETag {
		return
	}
	s.publishMerged(next)
	if !s.assembling { // else part of the first load, which is not counted
		reloadsTotal.WithLabelValues("loaded").Inc()
	}
	s.noteLoad()
}

// servedLine is the line of the served robots.txt that line of snap's
// text is, for a rule of an included list, when it differs: the trap's
// lines push the lists down. The site's own rules keep their line on
// disk, as documented (and 0 is returned for them).
func (h *Handler) servedLine(snap *snapshot, line int) int {
	if h.Trap == "" || !snap.origin.Included(line) {
		return 0
	}
	return h.servedTrap(snap).lines.Line(line)
}

// sourceLine names where line of the served robots.txt came from, for
// diagnostics and violations: "path:line" of the site's file or of an
// included list.
func (snap *snapshot) sourceLine(line int) string {
	if snap.origin == nil || line <= 0 {
		return ""
	}
	name, l := snap.origin.Origin(line)
	return name + ":" + strconv.Itoa(l)
}
