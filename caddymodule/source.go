package caddymodule

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/caddyserver/caddy/v2"
	"github.com/caddyserver/caddy/v2/modules/caddyhttp"
	lru "github.com/hashicorp/golang-lru/v2"
	"go.uber.org/zap"

	"github.com/robotsguard/caddy-robots-txt/robots"
)

// maxFileBytes bounds what is read from disk. Crawlers read 500 KiB; a file
// far larger than that is a mistake (a log written to the wrong path), not
// a robots.txt, and is refused rather than held in memory.
const maxFileBytes = 8 << 20

// snapshot is one version of robots.txt, compiled. It is immutable; a
// reload replaces it whole.
type snapshot struct {
	file    *robots.File // nil when there is no robots.txt: all allowed
	body    []byte
	etag    string
	modTime time.Time
	// groupNames renders each group's user-agent names for logs.
	groupNames map[*robots.Group]string

	// since is when this version came into force; history holds the
	// versions before it that were in force within the grace period,
	// newest first. Both are set before the snapshot is published.
	since   time.Time
	history []*snapshot
}

func newSnapshot(body []byte, modTime time.Time) *snapshot {
	sum := sha256.Sum256(body)
	s := &snapshot{
		file:       robots.Parse(body),
		body:       body,
		etag:       `"` + hex.EncodeToString(sum[:12]) + `"`,
		modTime:    modTime,
		groupNames: map[*robots.Group]string{},
	}
	for _, g := range s.file.Groups() {
		s.groupNames[g] = strings.Join(g.Agents, ", ")
	}
	return s
}

// newEmptySnapshot stands for a missing robots.txt: every bot may fetch
// everything, and /robots.txt is left to the next handler.
func newEmptySnapshot() *snapshot {
	return &snapshot{groupNames: map[*robots.Group]string{}}
}

// maxVersions bounds the history kept for grace, whatever the window.
const maxVersions = 32

// broken reports whether a body that parsed to s is not a robots.txt at all
// (an HTML error page, a binary), so that a reload should keep the rules it
// had rather than drop them.
func (s *snapshot) broken() bool {
	if s.file == nil || s.file.Fields() > 0 {
		return false
	}
	for _, d := range s.file.Diagnostics() {
		switch d.Kind {
		case robots.KindNoSeparator, robots.KindUnknownField, robots.KindNUL, robots.KindInvalidUTF8:
			return true
		}
	}
	return false
}

// source is one robots.txt file (or inline text, or upstream URL) and its
// current snapshot. Sources live in a UsagePool keyed by where they read
// from, so that a config reload hands the new handler the same source: the
// version history that grace needs and the last good copy of an upstream
// file survive it.
type source struct {
	mu   sync.Mutex // serializes checks; handlers of two configs may overlap
	path string     // "" for inline text and upstream URLs
	url  string     // the upstream's robots.txt, fetched over HTTP
	cur  atomic.Pointer[snapshot]

	// What the file looked like at the last check; guarded by mu.
	modTime time.Time
	size    int64
	exists  bool
	failing bool // the last check failed; log only on a change
}

func (s *source) current() *snapshot { return s.cur.Load() }

// Destruct implements caddy.Destructor.
func (*source) Destruct() error { return nil }

var sources = caddy.NewUsagePool()

// name is how logs and metrics call the source.
func (s *source) name() string {
	switch {
	case s.url != "":
		return s.url
	case s.path == "":
		return "inline"
	}
	return s.path
}

// publish makes next the version in force, keeping the versions before it
// that were in force within grace.
func (s *source) publish(next *snapshot, grace time.Duration) {
	now := time.Now()
	next.since = now
	if prev := s.cur.Load(); prev != nil && grace > 0 {
		cutoff := now.Add(-grace)
		next.history = append(next.history, prev)
		for i, old := range prev.history {
			// old was in force until the version after it came in.
			until := prev.since
			if i > 0 {
				until = prev.history[i-1].since
			}
			if until.Before(cutoff) || len(next.history) == maxVersions {
				break
			}
			next.history = append(next.history, old)
		}
	}
	s.cur.Store(next)
}

func newInlineSource(text string) *source {
	s := &source{}
	s.publish(newSnapshot([]byte(text), time.Now().Truncate(time.Second)), 0)
	return s
}

// openSource loads path for the first time. A missing file is not an
// error (the site then allows all); an unreadable one is.
func (h *Handler) openSource(path string) (*source, error) {
	s := &source{path: path}
	snap, info, err := readSnapshot(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		s.publish(newEmptySnapshot(), 0)
		h.logger.Warn("robots.txt not found; every bot is allowed everywhere until it appears", zap.String("file", path))
		return s, nil
	case err != nil:
		return nil, err
	}
	s.modTime, s.size, s.exists = info.ModTime(), info.Size(), true
	s.publish(snap, 0)
	if snap.broken() {
		h.logger.Warn("robots.txt has no robots.txt field; read as allowing everything", zap.String("file", path))
	}
	h.logLoad(s, snap)
	return s, nil
}

func readSnapshot(path string) (*snapshot, fs.FileInfo, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, nil, err
	}
	if info.IsDir() {
		return nil, nil, fmt.Errorf("file %q is a directory; give the path of a robots.txt file", path)
	}
	body, err := io.ReadAll(io.LimitReader(f, maxFileBytes+1))
	if err != nil {
		return nil, nil, fmt.Errorf("reading %q: %v", path, err)
	}
	if len(body) > maxFileBytes {
		return nil, nil, fmt.Errorf("file %q is larger than %d bytes; that is not a robots.txt", path, maxFileBytes)
	}
	return newSnapshot(body, info.ModTime()), info, nil
}

// refresh checks the file and swaps in a new snapshot when it changed.
// A file that disappears or becomes empty allows all, as RFC 9309 says; a
// file that cannot be read, or is no robots.txt at all, keeps the rules in
// force, since a half-written or misplaced file is no reason to drop them.
func (h *Handler) refresh(s *source) {
	s.mu.Lock()
	defer s.mu.Unlock()
	info, err := os.Stat(s.path)
	if errors.Is(err, fs.ErrNotExist) {
		if s.exists {
			s.exists, s.failing = false, false
			s.publish(newEmptySnapshot(), h.GraceWindow())
			reloadsTotal.WithLabelValues("removed").Inc()
			h.logger.Warn("robots.txt removed; every bot is allowed everywhere until it reappears", zap.String("file", s.path))
		}
		return
	}
	if err == nil && s.exists && !s.failing && info.ModTime().Equal(s.modTime) && info.Size() == s.size {
		return
	}
	var snap *snapshot
	if err == nil {
		snap, info, err = readSnapshot(s.path)
	}
	if err == nil && snap.broken() {
		err = errors.New("the new content has no robots.txt field (is it an HTML page or a binary?)")
	}
	if err != nil {
		reloadsTotal.WithLabelValues("failed").Inc()
		if !s.failing {
			h.logger.Error("robots.txt could not be reloaded; the rules in force stay",
				zap.String("file", s.path), zap.Error(err))
		}
		s.failing = true
		return
	}
	old := s.current()
	s.modTime, s.size, s.exists, s.failing = info.ModTime(), info.Size(), true, false
	if old != nil && old.etag == snap.etag {
		return // touched, not changed
	}
	s.publish(snap, h.GraceWindow())
	reloadsTotal.WithLabelValues("loaded").Inc()
	h.logLoad(s, snap)
}

func (h *Handler) logLoad(s *source, snap *snapshot) {
	groups, rules := snap.file.Counts()
	diags := snap.file.Diagnostics()
	lines := make([]string, len(diags))
	for i, d := range diags {
		lines[i] = d.String()
	}
	name := s.name()
	groupsInForce.WithLabelValues(name).Set(float64(groups))
	rulesInForce.WithLabelValues(name).Set(float64(rules))
	h.logger.Info("robots.txt loaded",
		zap.String("file", name),
		zap.Int("groups", groups),
		zap.Int("rules", rules),
		zap.Int("bytes", len(snap.body)),
		zap.String("etag", snap.etag),
		zap.Strings("diagnostics", lines))
}

// watch re-checks the sources every Reload interval until Cleanup.
func (h *Handler) watch(ctx context.Context) {
	t := time.NewTicker(time.Duration(h.Reload))
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		if h.fixed != nil {
			h.refresh(h.fixed)
		}
		if h.dynamic != nil {
			for _, s := range h.dynamic.all() {
				h.refresh(s)
			}
		}
	}
}

// maxDynamicSources bounds the files one handler keeps when the path
// depends on the request (a root with {host} in it, say), so that
// requests cannot make it hold an unbounded number.
const maxDynamicSources = 64

// dynamicSources resolves a request's robots.txt path (default: robots.txt
// in the site root) and keeps the files it found.
type dynamicSources struct {
	h       *Handler
	pattern string // File with placeholders; "" means the site root's robots.txt

	// last is the most recent (root, source) pair, so that the common case,
	// one root for every request, resolves without allocating.
	last    atomic.Pointer[lastSource]
	mu      sync.Mutex // serializes loads of new paths
	sources *lru.Cache[string, *source]
}

type lastSource struct {
	key string
	src *source
}

func newDynamicSources(h *Handler, pattern string) *dynamicSources {
	c, _ := lru.New[string, *source](maxDynamicSources)
	return &dynamicSources{h: h, pattern: pattern, sources: c}
}

func (d *dynamicSources) all() []*source { return d.sources.Values() }

// forRequest returns the source of the robots.txt that applies to r.
func (d *dynamicSources) forRequest(r *http.Request) *source {
	repl, _ := r.Context().Value(caddy.ReplacerCtxKey).(*caddy.Replacer)
	var key string
	if d.pattern == "" {
		root, _ := caddyhttp.GetVar(r.Context(), "root").(string)
		key = root
	} else {
		key = d.pattern
	}
	if l := d.last.Load(); l != nil && l.key == key && d.pattern == "" {
		return l.src
	}
	var path string
	if d.pattern == "" {
		root := key
		if repl != nil && strings.Contains(root, "{") {
			root = repl.ReplaceAll(root, "")
		}
		if root == "" {
			root = "."
		}
		path = filepath.Join(root, "robots.txt")
	} else {
		path = d.pattern
		if repl != nil {
			path = repl.ReplaceAll(path, "")
		}
	}
	src := d.get(path)
	if d.pattern == "" && !strings.Contains(key, "{") {
		d.last.Store(&lastSource{key: key, src: src})
	}
	return src
}

func (d *dynamicSources) get(path string) *source {
	if s, ok := d.sources.Get(path); ok {
		return s
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if s, ok := d.sources.Get(path); ok {
		return s
	}
	s, err := d.h.openSource(path)
	if err != nil {
		// Unreadable: allow all for now and let watch retry, logging once.
		d.h.logger.Error("robots.txt could not be read; every bot is allowed until it can be",
			zap.String("file", path), zap.Error(err))
		s = &source{path: path, failing: true}
		s.publish(newEmptySnapshot(), 0)
	}
	d.sources.Add(path, s)
	return s
}
