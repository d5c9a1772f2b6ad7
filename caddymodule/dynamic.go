package caddymodule

import (
	"context"
	"errors"
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
)

// maxEvicted bounds the files remembered after they left the cache (a
// path and an ETag each, about 150 bytes).
const maxEvicted = 4096

// maxAbsentSources bounds the files kept that were not there when last
// looked for. Each costs a few hundred bytes: the included lists' merge,
// their only rules, is shared (see mergeMemo).
const maxAbsentSources = 1024

// maxWarnedTenants bounds the tenants' missing files remembered as
// warned about (a path each). One pushed out is warned about again at
// its next read: tenants' directories are few, and no client makes one.
const maxWarnedTenants = 4096

// dynamicSources resolves a request's robots.txt path (default: robots.txt
// in the site root) and keeps the files it found.
type dynamicSources struct {
	pattern string // File with placeholders; "" means the site root's robots.txt
	set     *sourceSettings

	// last is the most recent (root, source) pair, so that the common case,
	// one root for every request, resolves without allocating.
	last atomic.Pointer[lastSource]
	// sources are the files found, file_cache of them at most, so that
	// requests cannot make the handler hold an unbounded number.
	sources *lru.Cache[string, *source]
	// absent are the sources of files that were not there when last
	// checked, kept apart: any Host a client makes up names one, and
	// must not push a tenant's parsed file out of sources, to be read
	// and parsed again at its next request.
	absent *lru.Cache[string, *source]
	// evicted names the text each file had when it left sources: read
	// again unchanged, it is no news, and the log says it at DEBUG, not
	// once more at INFO for each time a busy host's file is pushed out.
	evicted *lru.Cache[string, string]

	// mu guards loading. It is never held across file I/O: a slow file
	// (or a named pipe) must hold up only the requests that need it.
	mu      sync.Mutex
	loading map[string]*pendingSource

	// missing limits the warnings for files whose directory is not
	// there either, such as any Host a client makes up: one a minute.
	missing logLimiter
	// warned are the files missing from a tenant's directory that were
	// warned about. They have a record of their own, not a place in
	// missing: a client sending a new Host each minute would take every
	// place there, and a tenant whose rules are not enforced, its file
	// missing, would never be named.
	warned *lru.Cache[string, struct{}]
}

type lastSource struct {
	key string
	src *source
}

// pendingSource is a file being read for the first time; requests that
// need it wait for done.
type pendingSource struct {
	done chan struct{}
	src  *source
}

func newDynamicSources(pattern string, size int, set *sourceSettings) *dynamicSources {
	evicted, _ := lru.New[string, string](maxEvicted)
	c, _ := lru.NewWithEvict(size, func(path string, s *source) {
		if cur := s.current(); cur != nil && len(cur.site) > 0 {
			evicted.Add(path, cur.siteETag)
		}
	})
	absent, _ := lru.New[string, *source](maxAbsentSources)
	warned, _ := lru.New[string, struct{}](maxWarnedTenants)
	if len(set.includes) > 0 {
		// The lists are the same for every request: read once for
		// all the files, and merged once while a file has no text.
		shared := *set
		shared.lists = newIncludeSet(set.includes)
		shared.lists.refreshFiles(set.logger)
		shared.memo = new(mergeMemo)
		set = &shared
	}
	return &dynamicSources{pattern: pattern, set: set, sources: c, absent: absent, evicted: evicted, warned: warned, loading: map[string]*pendingSource{}}
}

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
			// No root before this handler: a root set inside handle
			// blocks is set after it runs. Caddy's working directory,
			// as file_server would use, named in full in the logs.
			root = workingDir()
		}
		path = filepath.Join(root, "robots.txt")
	} else {
		path = d.pattern
		if repl != nil {
			path = repl.ReplaceAll(path, "")
		}
	}
	lowered := lowerHost(path, r.Host)
	switch {
	case lowered == path:
		src := d.get(path)
		if d.pattern == "" && !strings.Contains(key, "{") {
			// Only here does the root alone name the file: below,
			// the Host's spelling decides too.
			d.last.Store(&lastSource{key: key, src: src})
		}
		return src
	case strings.Contains(key, "{") || !namesOtherFile(path, lowered):
		return d.get(lowered)
	}
	return d.get(path)
}

// lowerHost writes the request's host in its canonical form, lower case
// and without a trailing dot, where it was written into path. Caddy picks
// the site whatever the case of the Host header, a catch-all site answers
// "example.com." too (the fully qualified name, which backends serve as
// example.com), and {host} gives it as sent: without this, "Host:
// EXAMPLE.com" or "Host: example.com." would look for a robots.txt that
// is not there and let every bot through.
func lowerHost(path, hostport string) string {
	host := hostOf(hostport)
	canon := strings.TrimSuffix(host, ".")
	if !hasUpper(host) && canon == host || canon == "" {
		return path
	}
	return strings.ReplaceAll(path, host, strings.ToLower(canon))
}

// namesOtherFile reports whether path, a file under a root that Caddy's
// root directive expanded before this handler ran, is a file of its own
// rather than a spelling of lowered, the file under the host's canonical
// form. A root written "/srv/{host}" arrives as "/srv/EXAMPLE.test" and
// cannot be told from a directory named so: only a file that exists there,
// and is not lowered's (a case-insensitive file system finds lowered under
// any spelling), is read as named. Anything else, a missing file above
// all, is the host's: it was taken for the site's file when included lists
// gave it rules, and the site's own were skipped. A stat per request, only
// for a Host spelled otherwise than its canonical form, and never a slot
// in the cache for a spelling.
func namesOtherFile(path, lowered string) bool {
	info, err := os.Stat(path)
	if err != nil {
		return false
	}
	canon, err := os.Stat(lowered)
	return err != nil || !os.SameFile(info, canon)
}

func hasUpper(s string) bool {
	for i := 0; i < len(s); i++ {
		if 'A' <= s[i] && s[i] <= 'Z' {
			return true
		}
	}
	return false
}

// get returns the source of the file at path, opening it the first time
// (see open).
func (d *dynamicSources) get(path string) *source {
	if s, ok := d.lookup(path); ok {
		return s
	}
	d.mu.Lock()
	if s, ok := d.lookup(path); ok {
		d.mu.Unlock()
		return s
	}
	if p, ok := d.loading[path]; ok {
		d.mu.Unlock()
		<-p.done
		return p.src
	}
	p := &pendingSource{done: make(chan struct{})}
	d.loading[path] = p
	d.mu.Unlock()

	p.src = d.open(path)

	d.mu.Lock()
	if p.src.missing() {
		d.absent.Add(path, p.src)
	} else {
		d.sources.Add(path, p.src)
	}
	delete(d.loading, path)
	d.mu.Unlock()
	close(p.done)
	return p.src
}

// lookup returns the source kept for path, if any.
func (d *dynamicSources) lookup(path string) (*source, bool) {
	if s, ok := d.sources.Get(path); ok {
		return s, true
	}
	return d.absent.Get(path)
}

// open reads a file for the first time. Whatever goes wrong, the request
// gets a source: one that allows all until the watcher can read the file.
func (d *dynamicSources) open(path string) *source {
	// Each file is its own robots.txt: fetches of it, and its versions
	// kept in storage, are apart from the other files'.
	set := *d.set
	set.scope = fnv1a(path, false)
	set.share.site += "\x00" + path
	// Not remembered in process beyond the source's life: a tenant's
	// file, and hosts come and go; storage keeps their versions.
	set.state = ""
	s, loaded, err := loadFileSource(path, &set)
	switch {
	case loaded != nil:
		if etag, ok := d.evicted.Get(path); ok {
			if etag == loaded.siteETag {
				s.setGauges(s.current())
				d.set.logger.Debug("robots.txt loaded again, unchanged since it left the cache (see file_cache)",
					zap.String("file", path), zap.String("etag", loaded.ETag))
				break
			}
			// Changed since it left the cache: a reload, as the
			// watcher would have counted it (audit AG-F5).
			reloadsTotal.WithLabelValues("loaded").Inc()
		}
		s.logLoad()
	case errors.Is(err, fs.ErrNotExist):
		if _, ok := d.evicted.Get(path); ok {
			// There when it left the cache, gone now: removed, as the
			// watcher would have said, and its gauges no longer
			// those of rules in force (audit AG-F5).
			d.evicted.Remove(path)
			s.setGauges(s.current())
			reloadsTotal.WithLabelValues("removed").Inc()
			d.set.logger.Warn("robots.txt removed; "+withoutFile(len(d.set.includes) > 0)+" until it reappears", zap.String("file", path))
			break
		}
		d.warnMissing(path, dirExists(path))
	case err != nil:
		d.set.logger.Error("robots.txt could not be read; "+withoutFile(len(d.set.includes) > 0)+" until it can be",
			zap.String("file", path), zap.Error(err))
		s = newSource(path, "", &set)
		s.failing = true
		s.publish(newEmptySnapshot())
	}
	return s
}

// warnMissing says that the file at path is not there. With a {host}
// root, any Host a client makes up names a file that is not there: those
// are said at most once a minute. A file missing from a directory that
// is there is a tenant's, whose rules are not enforced: said once, made-up
// hosts or not. inDir tells that the file's directory exists.
func (d *dynamicSources) warnMissing(path string, inDir bool) {
	fields := []zap.Field{zap.String("file", path), zap.Bool("directory_exists", inDir)}
	if inDir && d.namesDir() {
		if known, _ := d.warned.ContainsOrAdd(path, struct{}{}); known {
			return
		}
	} else {
		n, ok := d.missing.allow(time.Now())
		if !ok {
			return
		}
		fields = append(fields, zap.Int("similar_suppressed", n))
	}
	if d.pattern == "" && filepath.Dir(path) == workingDir() {
		fields = append(fields, zap.String("hint", "no root was set before robots_txt ran (a root inside handle blocks is set after it), so Caddy's working directory was used; name the file with \"file\", or set root in the site block"))
	}
	d.set.logger.Warn("robots.txt not found; "+withoutFile(len(d.set.includes) > 0)+" until it appears", fields...)
}

// dirExists reports whether the directory of the file at path exists.
func dirExists(path string) bool {
	info, err := os.Stat(filepath.Dir(path))
	return err == nil && info.IsDir()
}

// namesDir reports whether the request picks the file's directory, so
// that one that exists is a tenant's. With placeholders in the file's name
// alone ("/srv/robots/{host}.txt") the directory is there for any Host.
func (d *dynamicSources) namesDir() bool {
	return d.pattern == "" || strings.Contains(filepath.Dir(d.pattern), "{")
}

// watch re-checks the files every reload interval until ctx ends.
func (d *dynamicSources) watch(ctx context.Context) {
	t := time.NewTicker(d.set.reload)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		d.check()
	}
}

// fetchLists fetches the included URLs the files share, once for all of
// them, until ctx ends, and merges every file again when one changes. It
// returns a channel closed when every first fetch has ended; nil when no
// list is a URL.
func (d *dynamicSources) fetchLists(ctx context.Context) <-chan struct{} {
	if d.set.lists == nil || !d.set.lists.hasURLs() {
		return nil
	}
	first := make(chan struct{})
	go d.set.lists.pollURLs(ctx, newUpstreamClient(), func() *zap.Logger { return d.set.logger }, d.remerge, first)
	return first
}

// remerge merges every file kept with the included lists again, after a
// list changed.
func (d *dynamicSources) remerge() {
	for _, s := range append(d.sources.Values(), d.absent.Values()...) {
		s.remerge()
	}
}

// check re-checks the files, and the included lists they share.
func (d *dynamicSources) check() {
	changed := d.set.lists != nil && d.set.lists.refreshFiles(d.set.logger)
	present, absent := d.sources.Values(), d.absent.Values()
	for _, s := range append(present, absent...) {
		s.refresh()
		if changed {
			s.remerge()
		}
	}
	// A file that came or went changes caches, added to the one before
	// it leaves the other, so that get finds it in either meanwhile.
	for _, s := range present {
		if s.missing() {
			d.absent.Add(s.path, s)
			d.sources.Remove(s.path)
		}
	}
	tenants := d.namesDir()
	for _, s := range absent {
		switch {
		case !s.missing():
			d.sources.Add(s.path, s)
			d.absent.Remove(s.path)
		case tenants && !d.warned.Contains(s.path) && dirExists(s.path):
			// A tenant's directory made after its host was first
			// asked for (a name known before the deploy): its missing
			// file was said, if at all, as a made-up host's.
			d.warnMissing(s.path, true)
		}
	}
}

// logLimiter lets one message through per interval and counts the rest.
type logLimiter struct {
	mu         sync.Mutex
	last       time.Time
	suppressed int
}

// logEvery is how often a rate-limited message may be logged.
const logEvery = time.Minute

// allow reports whether to log now, and how many were suppressed since
// the last time it did.
func (l *logLimiter) allow(now time.Time) (int, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if !l.last.IsZero() && now.Sub(l.last) < logEvery {
		l.suppressed++
		return 0, false
	}
	n := l.suppressed
	l.last, l.suppressed = now, 0
	return n, true
}

// workingDir is Caddy's working directory, where a robots.txt with no
// root is looked for; "." if it cannot be told.
var workingDir = sync.OnceValue(func() string {
	if wd, err := os.Getwd(); err == nil {
		return wd
	}
	return "."
})
