package caddymodule

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"os"
	"slices"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/caddyserver/caddy/v2"
	lru "github.com/hashicorp/golang-lru/v2"
	"go.uber.org/zap"

	"github.com/robotsguard/caddy-robots-txt/caddymodule/include"
	"github.com/robotsguard/caddy-robots-txt/caddymodule/judge"
	"github.com/robotsguard/caddy-robots-txt/caddymodule/lint"
	"github.com/robotsguard/caddy-robots-txt/caddymodule/share"
	"github.com/robotsguard/caddy-robots-txt/config"
	"github.com/robotsguard/caddy-robots-txt/robots"
)

// snapshot is one version of robots.txt as the handler serves it. It is
// immutable; a reload replaces it whole.
type snapshot struct {
	*judge.Version
	body []byte // as served and parsed: the site's file, with included lists merged
	// site is the site's own file and siteETag names it; body differs
	// from it only with included lists, whose line map origin is.
	site     []byte
	siteETag string
	origin   *include.Merged
	// unknown marks the stand-in of an upstream file not fetched yet,
	// which was never in force as a version of the file (see
	// source.standIn).
	unknown bool
	// scope is the source's scope (see sourceSettings.scope).
	scope uint64
	// from names the file (or URL) the version was read from, for logs
	// about it made after its load: with a {host} root, which tenant's.
	from string
	// kept is set once the version was served and stored (see
	// source.storeVersion).
	kept atomic.Bool
	// withTrap lists the texts served with the traps of the handlers
	// that serve the snapshot (see Handler.servedTrap), each made once:
	// with a {host} root, or two sites sharing a file, requests in turn
	// must not rebuild and parse it each.
	withTrap atomic.Pointer[servedWithTrap]
	// trapsOf, when set, is the snapshot of the same text whose withTrap
	// serves this one (see mergeMemo): a {host} root's files without text
	// share it, or each new Host would build and parse its own.
	trapsOf *snapshot
}

func newSnapshot(body []byte) *snapshot { return newSnapshotOf(body, 0) }

// newSnapshotOf is newSnapshot for the start of a file of size bytes (0:
// body is the whole file), so that the parser's finding about the size
// names the file's.
func newSnapshotOf(body []byte, size int64) *snapshot {
	f := robots.Parse(body, robots.SourceSize(size))
	if len(body) > robots.DefaultMaxSize {
		// What is served is what is judged, as for an upstream's file:
		// crawlers read no further, and a tenant's file of megabytes
		// is not kept whole (the parser reports the cut).
		body = bytes.Clone(robots.Truncate(body, robots.DefaultMaxSize))
	}
	return parsedSnapshot(body, f)
}

// parsedSnapshot is the snapshot of body, at most robots.DefaultMaxSize
// bytes, already parsed as f.
func parsedSnapshot(body []byte, f *robots.File) *snapshot {
	sum := sha256.Sum256(body)
	etag := `"` + hex.EncodeToString(sum[:12]) + `"`
	return &snapshot{
		Version: judge.NewVersion(f, etag),
		body:    body,
		site:    body, siteETag: etag,
	}
}

// withoutFile says what is enforced while the site's own robots.txt is
// missing: nothing, or, with include, the included lists alone.
func withoutFile(includes bool) string {
	if includes {
		return "only the included lists apply"
	}
	return "every bot is allowed everywhere"
}

// noRobotsTxt is what bots are judged by while a site has no robots.txt:
// a file with no groups, which allows everything.
var noRobotsTxt = &snapshot{Version: judge.NewVersion(robots.Parse(nil), "")}

// groupName renders a group of s for logs; judge.NoFile for every request
// judged while there is no robots.txt.
func (s *snapshot) groupName(g *robots.Group) string {
	if s == noRobotsTxt {
		return judge.NoFile
	}
	return s.GroupName(g)
}

// fetchedGroupName is groupName for a fetch of robots.txt: judge.NoFile
// while there is none.
func (s *snapshot) fetchedGroupName(g *robots.Group) string {
	if s.File == nil {
		return judge.NoFile
	}
	return s.groupName(g)
}

// newEmptySnapshot stands for a missing robots.txt: every bot may fetch
// everything, and /robots.txt is left to the next handler.
func newEmptySnapshot() *snapshot {
	return &snapshot{Version: judge.NewVersion(nil, "")}
}

// sourceSettings are what a source takes from the configuration that
// uses it; the newest configuration's win.
type sourceSettings struct {
	logger *zap.Logger
	grace  time.Duration
	reload time.Duration // how often a file is checked; 0: never
	// includes are robots.txt lists (files or URLs) merged after the
	// site's file; they are part of the source's key, so a source keeps
	// the ones it was made with.
	includes []string
	// share says where versions are kept for other instances and
	// restarts; its store is nil when they are not.
	share versionShare
	// scope tells apart the files of one handler whose path depends on
	// the request (a root with {host} in it): a fetch of one host's
	// robots.txt says nothing about another's: a hash of the file's
	// path, 0 for a handler's only source.
	scope uint64
	// lists, for the files of a root with placeholders, are the
	// included lists they share, read once and checked by the handler's
	// watch, not each file's copy read anew; nil for other sources.
	lists *includeSet
	// memo, for the files of a root with placeholders, is the merge of
	// the included lists they share while they have no text (see
	// mergeMemo); nil for other sources.
	memo *mergeMemo
	// state names the robots.txt a source serves across config reloads
	// (see Handler.versionsKey); "" for the files of a root with
	// placeholders, which are not remembered in inForce.
	state string
}

// inForce remembers, per state name, the version in force last, so that
// a source made by a config reload that changed how the file is checked
// (another reload setting) continues its history: bots that read the
// version before keep their grace, without waiting on storage (which is
// off, or written in the background). Names come from configurations only
// (not from requests), and a long-lived process sees many: an LRU.
var inForce, _ = lru.New[string, *judge.Version](256)

// versionShare is where a source keeps its versions.
type versionShare struct {
	store share.Storage
	site  string
}

// source is one robots.txt file (or inline text, or upstream URL) and its
// current snapshot. Sources of fixed files, inline text and upstream URLs
// live in a UsagePool keyed by where they read from, so that a config
// reload hands the new handler the same source: the version history that
// grace needs and the last good copy of an upstream file survive it. A
// source keeps itself up to date (a goroutine polls the file or the
// upstream) until the last configuration that uses it is unloaded.
type source struct {
	path   string       // "" for inline text and upstream URLs
	url    string       // the upstream's robots.txt, fetched over HTTP
	client *http.Client // fetches url

	cur      atomic.Pointer[snapshot]
	settings atomic.Pointer[sourceSettings]
	kick     chan struct{} // wakes the poller when settings change
	// stored is the read of the versions kept in storage for the first
	// version, when it started one; set before that version is published.
	stored *storedRead
	// holders are the settings of the configurations that use the
	// source, oldest first; the newest is in force. A configuration that
	// fails to start is unloaded with its settings, and the one that
	// serves on gets its own back, as Caddy keeps the old configuration
	// whole when a reload fails.
	holdersMu sync.Mutex
	holders   []*sourceSettings
	stop      context.CancelFunc
	// fetchNow asks the upstream poller to fetch at once; it closes the
	// channel it receives when the fetch ends.
	fetchNow chan chan struct{}
	// includes are the lists merged after the site's file; nil for none.
	// includesFetched is closed when the first fetch of every included
	// URL has ended.
	includes        *includeSet
	includesFetched chan struct{}

	mu sync.Mutex // serializes checks; only the poller and tests take it
	// What the file looked like at the last check; guarded by mu.
	seen       fs.FileInfo
	exists     bool
	failing    bool   // the last check (or upstream fetch) failed; log only on a change
	failedWith string // how the last check of a file failed
	// settling names a text read that may be a write in progress (see
	// mayBeMidWrite), loaded only if the next check reads it again.
	settling   string
	lastResult string // of the last upstream fetch: loaded, unreachable, failed
	// notRobots is why the upstream's last 2xx answer was refused (an
	// HTML page, say), for strict; nil otherwise. Guarded by mu.
	notRobots error
	// assembling is set while the first version is put together from
	// the site's file and the first fetches of included URLs: it is
	// logged once, by assembled, not once without the lists and again
	// with them; pendingLog says a load is to be logged then. Guarded
	// by mu.
	assembling, pendingLog bool

	served *servedDates // Last-Modified of what was served (see lastModified)
	// clock is when a version comes into force; nil is time.Now. Tests
	// set it to load versions seconds apart without waiting.
	clock func() time.Time
}

func (s *source) now() time.Time {
	if s.clock != nil {
		return s.clock()
	}
	return time.Now()
}

// servedOf keeps, per state name (see sourceSettings.state), the dates of
// what was served, as inForce keeps the version: a source made by a
// config reload that changed how the file is checked (another reload or
// grace) serves the same text, and must date it as before, or a crawler
// revalidating by date would get the whole file again for the version it
// has.
var servedOf, _ = lru.New[string, *servedDates](256)

// datesOf returns the served dates of state, new for "" (a {host} root's
// file, not remembered beyond its source).
func datesOf(state string) *servedDates {
	if state == "" {
		return new(servedDates)
	}
	if d, ok := servedOf.Get(state); ok {
		return d
	}
	d := new(servedDates)
	if prev, found, _ := servedOf.PeekOrAdd(state, d); found {
		return prev
	}
	return d
}

// servedDates dates what a source serves; it has its own lock, since
// serving takes it, not the poller.
type servedDates struct {
	mu sync.Mutex
	// variants are what each way of serving the file (the handlers that
	// share the source add their own trap line) served last, and its
	// date; at most maxVariants, from configurations.
	variants map[string]servedDate
	latest   time.Time // the latest date handed out
	// clock is the time a representation is served at; nil is
	// time.Now. Tests set it to serve versions seconds apart.
	clock func() time.Time
}

func (d *servedDates) now() time.Time {
	if d.clock != nil {
		return d.clock()
	}
	return time.Now()
}

type servedDate struct {
	etag string
	at   time.Time
}

// maxVariants bounds servedDates.variants: variants come from the traps
// of the handlers that share a source, a few.
const maxVariants = 64

// lastModified is the Last-Modified date of the representation etag names,
// served as variant (the trap line a handler adds, "" for none): the
// second it came to be served that way, later than every date handed out
// before, each time it changes (a rollback is a change too); the zero
// time, no date, while that second would be in the future. So a client's
// If-Modified-Since matches only the representation it was given. Handlers
// that serve one file with different traps each keep their date while the
// other serves, rather than redating at every switch (which would run the
// dates ahead of the clock). The file's mtime cannot promise this: a file
// renamed into place keeps its own (rsync -t, cp -p, a rollback to an
// older one), and included lists and the trap change what is served
// without touching it. A restart dates what it serves afresh, which costs
// each client one full fetch; since no date is ahead of the clock, a date
// given before it is earlier than any given after it, but in the very
// second it ended.
func (s *source) lastModified(variant, etag string, now time.Time) time.Time {
	d := s.served
	d.mu.Lock()
	defer d.mu.Unlock()
	if v, ok := d.variants[variant]; ok && v.etag == etag {
		return v.at
	}
	at := now.Truncate(time.Second)
	if !at.After(d.latest) {
		// A later date would be in the future, which RFC 9110 (section
		// 8.8.2.1) forbids and a restart, dating from the clock, would
		// undo, answering 304 to a date it never gave. Undated, it is
		// revalidated by its ETag; it is dated once its second has come.
		return time.Time{}
	}
	if d.variants == nil || len(d.variants) >= maxVariants {
		d.variants = make(map[string]servedDate)
	}
	d.variants[variant] = servedDate{etag, at}
	d.latest = at
	return at
}

func newSource(path, url string, set *sourceSettings) *source {
	s := &source{path: path, url: url, kick: make(chan struct{}, 1), served: datesOf(set.state), holders: []*sourceSettings{set}}
	s.settings.Store(set)
	switch {
	case set.lists != nil:
		s.includes = set.lists
	case len(set.includes) > 0:
		// Included files are read now, so that the first version in
		// force has them; included URLs are fetched once the source
		// starts.
		s.includes = newIncludeSet(set.includes)
		s.includes.refreshFiles(set.logger)
		s.includesFetched = make(chan struct{})
		s.assembling = s.includes.hasURLs()
	}
	return s
}

// noteLoad logs the version now in force, or leaves it to assembled while
// the first version is put together. s.mu is held, or s not shared yet.
func (s *source) noteLoad() {
	if s.assembling {
		s.pendingLog = true
		return
	}
	s.logLoad()
}

// assembled ends the putting together of the first version (the included
// URLs' first fetches ended, or were waited for long enough), and logs
// the version in force if a load was left to it.
func (s *source) assembled() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.assembling {
		return
	}
	s.assembling = false
	if s.pendingLog && !s.current().unknown {
		s.logLoad()
	}
	s.pendingLog = false
}

func (s *source) current() *snapshot { return s.cur.Load() }

// missing reports whether the file was not there at the last check (not
// one that could not be read).
func (s *source) missing() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.path != "" && !s.exists && !s.failing
}

func (s *source) logger() *zap.Logger { return s.settings.Load().logger }

// configure hands the source the settings of a configuration that uses
// it, and wakes the poller so a changed interval applies at once.
func (s *source) configure(set *sourceSettings) {
	s.holdersMu.Lock()
	s.holders = append(s.holders, set)
	s.settings.Store(set)
	s.holdersMu.Unlock()
	s.wake()
}

// release takes back the settings of a configuration being unloaded. If
// they were in force, the newest of those still loaded take over: after a
// reload that succeeded they are the new configuration's already, after
// one that failed the old configuration's again.
func (s *source) release(set *sourceSettings) {
	s.holdersMu.Lock()
	defer s.holdersMu.Unlock()
	i := slices.Index(s.holders, set)
	if i < 0 {
		return
	}
	s.holders = slices.Delete(s.holders, i, i+1)
	if len(s.holders) > 0 && s.settings.Load() == set {
		s.settings.Store(s.holders[len(s.holders)-1])
		s.wake()
	}
}

// wake wakes the poller, so that a changed interval applies at once.
func (s *source) wake() {
	select {
	case s.kick <- struct{}{}:
	default:
	}
}

// Destruct implements caddy.Destructor: the last configuration that used
// the source is gone, so it stops polling.
func (s *source) Destruct() error {
	if s.stop != nil {
		s.stop()
	}
	s.dropGauges()
	return nil
}

// dropGauges removes the gauges of what s had in force, unless another
// source of a running configuration reads from the same place: a site
// removed, or its url changed, must not leave a series that says rules
// are in force, or a last load that a staleness alert fires on forever.
func (s *source) dropGauges() {
	name := s.name()
	shared := false
	sources.Range(func(_, v any) bool {
		o, ok := v.(*source)
		shared = ok && o != s && o.name() == name
		return !shared
	})
	if !shared {
		groupsInForce.DeleteLabelValues(name)
		rulesInForce.DeleteLabelValues(name)
		lastLoad.DeleteLabelValues(name)
	}
}

// sources holds the fixed sources, keyed by where they read from.
var sources = caddy.NewUsagePool()

// name is how logs and metrics call the source.
func (s *source) name() string {
	switch {
	case s.url != "":
		return redactURL(s.url)
	case s.path == "":
		return "inline"
	}
	return s.path
}

// publish makes next, with the included lists merged, the version in
// force.
func (s *source) publish(next *snapshot) { s.publishMerged(s.merged(next)) }

// publishMerged makes next the version in force, keeping the versions
// before it that were in force within the grace window.
func (s *source) publishMerged(next *snapshot) {
	var prev *judge.Version
	old := s.cur.Load()
	if old != nil && !old.unknown {
		prev = old.Version
	}
	set := s.settings.Load()
	now := s.now()
	next.scope = set.scope
	next.from = s.name()
	next.Follow(prev, now, set.grace)
	if prev == nil && next.File != nil {
		before, ok := inForce.Get(set.state)
		switch {
		case ok && set.state != "" && before.ETag == next.ETag:
			// The same file, read anew by a source of another
			// configuration: its history goes on, from when it came
			// into force. A text served before is served still:
			// grace keeps it past the unserved ones.
			next.Resume(before)
		case ok && set.state != "":
			next.Follow(before, now, set.grace)
		case set.share.store != nil && set.grace > 0:
			// The first version this process has: the versions in
			// force before it, kept in storage, are what bots may
			// still obey. They are read now, in the background, and
			// parsed when a request needs them.
			rd := readStoredLater(set, next.Version, now)
			s.stored = rd
			next.LoadStored(rd.earlier)
		}
	}
	if set.state != "" && next.File != nil {
		inForce.Add(set.state, next.Version)
	}
	s.cur.Store(next)
}

func newUpstreamSource(url string, set *sourceSettings) *source {
	s := newSource("", url, set)
	s.client = newUpstreamClient()
	s.fetchNow = make(chan chan struct{})
	s.cur.Store(s.standIn())
	return s
}

// standIn is what an upstream source judges by until its first fetch
// answers (or while every fetch fails and none ever did): no file of the
// site's, which allows everything, but the included lists, which are the
// operator's own rules and apply whatever the upstream does, as they do
// when it has no robots.txt. It is not served: the site's robots.txt is
// not known, and a crawler that cached the lists alone as the site's
// file would crawl what the file may disallow.
func (s *source) standIn() *snapshot {
	return s.merge(&snapshot{Version: judge.NewVersion(nil, ""), unknown: true}, false)
}

func newInlineSource(text string, set *sourceSettings) *source {
	s := newSource("", "", set)
	s.publish(newSnapshot([]byte(text)))
	return s
}

// openFileSource loads path for the first time. A missing file gives a
// source that allows all, with an error that matches fs.ErrNotExist for
// the caller to report as it sees fit; an unreadable one gives no source.
func openFileSource(path string, set *sourceSettings) (*source, error) {
	s, loaded, err := loadFileSource(path, set)
	if loaded != nil {
		s.noteLoad()
	}
	return s, err
}

// loadFileSource is openFileSource without the log of the load: it
// returns the file's snapshot when it was loaded, for the caller to log.
func loadFileSource(path string, set *sourceSettings) (*source, *snapshot, error) {
	s := newSource(path, "", set)
	snap, info, err := readSnapshot(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		s.publish(newEmptySnapshot())
		return s, nil, err
	case err != nil:
		return nil, nil, err
	}
	s.seen, s.exists = info, true
	if !snap.File.LooksLikeRobotsTxt() {
		// Refused as a reload refuses it, with no rules to keep: an
		// HTML page, a log, or what a tenant's symlink points at
		// (/proc/self/environ) must not be served as robots.txt.
		s.failing, s.failedWith = true, errNotRobotsTxt.Error()
		s.publish(newEmptySnapshot())
		reloadsTotal.WithLabelValues("failed").Inc()
		set.logger.Error("robots.txt is no robots.txt (no field robots.txt knows: an HTML page, a binary?); it is neither served nor enforced, and every bot is allowed everywhere until it is one",
			zap.String("file", path))
		return s, nil, nil
	}
	s.publish(snap)
	return s, snap, nil
}

// withheld reports whether the file on disk is in force as no robots.txt
// because it is none at all (errNotRobotsTxt) and nothing was in force
// before it: the handler then answers /robots.txt itself, since the next
// handler (a file_server) would serve that file.
func (s *source) withheld() bool {
	if s == nil || s.path == "" || s.url != "" {
		return false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.failing && s.failedWith == errNotRobotsTxt.Error() && s.current().File == nil
}

// errNotRobotsTxt is why a file with text but no robots.txt field is not
// loaded.
var errNotRobotsTxt = errors.New("the new content has no robots.txt field (is it an HTML page or a binary?)")

// openRegular opens path for reading only if it is a regular file. The
// open does not block: a named pipe or a device put where robots.txt
// should be would otherwise hang whoever opens it.
func openRegular(path string) (*os.File, fs.FileInfo, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, nil, err
	}
	info, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	if info.IsDir() {
		f.Close()
		return nil, nil, fmt.Errorf("file %q is a directory; give the path of a robots.txt file", path)
	}
	if !info.Mode().IsRegular() {
		f.Close()
		return nil, nil, fmt.Errorf("file %q is %s, not a regular file; give the path of a robots.txt file", path, config.FileKind(info.Mode()))
	}
	return f, info, nil
}

func readSnapshot(path string) (*snapshot, fs.FileInfo, error) {
	f, info, err := openRegular(path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	// Only what crawlers read is read (RFC 9309, section 2.5), and one
	// byte more to know the file goes on: a tenant's file of a gigabyte
	// costs what one of 500 KiB does, and its start is enforced as
	// crawlers enforce it. A log written to the wrong path is no
	// robots.txt at all, which refresh tells by its lines.
	body, err := io.ReadAll(io.LimitReader(f, robots.DefaultMaxSize+1))
	if err != nil {
		return nil, nil, fmt.Errorf("reading %q: %v", path, err)
	}
	return newSnapshotOf(body, info.Size()), info, nil
}

// refresh checks the file and swaps in a new snapshot when it changed.
// A file that disappears or becomes empty allows all, as RFC 9309 says; a
// file that cannot be read, or is no robots.txt at all, keeps the rules in
// force, since a half-written or misplaced file is no reason to drop them.
func (s *source) refresh() {
	s.mu.Lock()
	defer s.mu.Unlock()
	log := s.logger()
	info, err := os.Stat(s.path)
	if errors.Is(err, fs.ErrNotExist) {
		if s.exists {
			s.exists, s.failing = false, false
			s.publish(newEmptySnapshot())
			s.setGauges(s.current())
			reloadsTotal.WithLabelValues("removed").Inc()
			log.Warn("robots.txt removed; "+withoutFile(s.includes != nil)+" until it reappears", zap.String("file", s.path))
		}
		return
	}
	if err == nil && s.exists && !s.failing && unchanged(s.seen, info) {
		return
	}
	var snap *snapshot
	if err == nil {
		snap, info, err = readSnapshot(s.path)
	}
	if err == nil && !snap.File.LooksLikeRobotsTxt() {
		err = errNotRobotsTxt
	}
	if err != nil {
		// Logged and counted once per failure, and again when it fails
		// another way (a directory, then a named pipe): each is news.
		// A check that finds the same file still broken is no new
		// failed load, or the counter would grow with time, not with
		// bad deploys.
		if !s.failing || err.Error() != s.failedWith {
			reloadsTotal.WithLabelValues("failed").Inc()
			log.Error("robots.txt could not be reloaded; the rules in force stay",
				zap.String("file", s.path), zap.Error(err))
		}
		s.failing, s.failedWith = true, err.Error()
		return
	}
	old := s.current()
	if old != nil && old.siteETag != snap.siteETag && mayBeMidWrite(old, snap) && s.settling != snap.siteETag {
		// Not s.seen: the next check reads the file again, and loads
		// this text only if it finds it unchanged.
		s.settling = snap.siteETag
		log.Info("robots.txt changed to a text that may be a write in progress (empty, or cut mid-line); it is loaded if the next check reads it again",
			zap.String("file", s.path), zap.Int("bytes", len(snap.site)))
		return
	}
	s.settling = ""
	s.seen, s.exists, s.failing = info, true, false
	if old != nil && old.siteETag == snap.siteETag {
		return // touched, not changed
	}
	s.publish(snap)
	reloadsTotal.WithLabelValues("loaded").Inc()
	s.logLoad()
}

// mayBeMidWrite reports whether next, read in place of old, may be a
// file caught while it is written in place: truncated (empty) or cut
// mid-line (no LF or CR at its end), where old had rules. Most writes in
// place truncate first (a shell's ">", cp, an editor's save), and a check
// between the two would put an empty robots.txt in force, allowing every
// bot everywhere, and excuse any bot that fetched it then. Such a text is
// loaded only once two checks read it: an edit that really empties the
// file takes one interval longer.
func mayBeMidWrite(old, next *snapshot) bool {
	if old.File == nil || len(old.File.Groups()) == 0 {
		return false
	}
	// A line ends at CR too, as the parser (and Google's) reads it: a
	// file with classic Mac line ends is whole.
	n := len(next.site)
	return n == 0 || next.site[n-1] != '\n' && next.site[n-1] != '\r'
}

// unchanged reports whether a file that looked like prev at the last
// check and like cur now can be taken as not rewritten, without reading
// it. Size and modification time alone miss a deploy that keeps them
// (cp -p, rsync -t, tar, reproducible builds) for an edit of the same
// length; a file put in place by a rename is another file, and an edit in
// place moves the change time (where the system reports it), which no
// tool sets back.
func unchanged(prev, cur fs.FileInfo) bool {
	return prev != nil && os.SameFile(prev, cur) &&
		cur.ModTime().Equal(prev.ModTime()) && cur.Size() == prev.Size() &&
		changeTime(cur).Equal(changeTime(prev))
}

// setGauges sets the metrics of what is in force: snap's groups and rules
// (none when the file is gone, or only the included lists').
func (s *source) setGauges(snap *snapshot) {
	groups, rules := snap.File.Counts()
	groupsInForce.WithLabelValues(s.name()).Set(float64(groups))
	rulesInForce.WithLabelValues(s.name()).Set(float64(rules))
}

// logLoad logs the version in force: with included lists, the merged
// text that is served and enforced, not the site's file alone, so that its
// counts, its ETag and the warning that it refuses nothing are those of
// what bots are judged by.
func (s *source) logLoad() {
	snap := s.current()
	groups, rules := snap.File.Counts()
	diags := snap.File.Diagnostics()
	lines := make([]string, len(diags))
	for i, d := range diags {
		lines[i] = d.String()
		if src := snap.sourceLine(d.Line); src != "" {
			// With included lists, a line of the merged text says
			// little: name the file or list, and its line.
			lines[i] = src + ": " + d.Severity.String() + ": " + d.Message
		}
	}
	name := s.name()
	s.setGauges(snap)
	lastLoad.WithLabelValues(name).SetToCurrentTime()
	log := s.logger().Info
	if snap.File.HasErrors() {
		// A rule that can match no URL is a mistake the operator wants
		// to hear about; with strict it would have stopped the load.
		log = s.logger().Warn
	}
	// An empty file, or groups with only Allow rules or an empty
	// Disallow, refuse no path to any bot: no less than no file, and no
	// more quietly.
	if msg := lint.AllowsEverything(snap.File); msg != "" {
		s.logger().Warn(msg, zap.String("file", s.name()), zap.Int("groups", groups))
	}
	if people := lint.PeoplesSoftware(snap.File); len(people) > 0 {
		// A header that names an agent of the file as its product is
		// held to its group: these are browsers' and apps' own, and
		// their users would be refused pages (a file from an
		// upstream or a tenant may name them).
		s.logger().Warn("robots.txt names software people use as agents; its users are held to those groups and may be refused pages",
			zap.String("file", name), zap.Strings("agents", people))
	}
	log("robots.txt loaded",
		zap.String("file", name),
		zap.Int("groups", groups),
		zap.Int("rules", rules),
		zap.Int("bytes", len(snap.body)),
		zap.String("etag", snap.ETag),
		zap.Strings("diagnostics", lines))
}

// start runs the source's pollers until Destruct.
func (s *source) start() {
	ctx, stop := context.WithCancel(context.Background())
	s.stop = stop
	if s.includes != nil {
		if s.client == nil {
			s.client = newUpstreamClient()
		}
		go s.includes.pollURLs(ctx, s.client, s.logger, s.remerge, s.includesFetched)
	}
	if s.url != "" {
		go s.pollUpstream(ctx)
	}
	// Included files are checked at the file's interval, whether the
	// site's robots.txt is a file, inline text or an upstream's: an
	// edited list must not wait for a restart.
	if s.path != "" || s.includes != nil && s.includes.hasFiles() {
		go s.watch(ctx)
	}
}

// refreshIncludes reads the included files again, and merges them anew
// when one changed.
func (s *source) refreshIncludes() {
	if s.includes != nil && s.includes.refreshFiles(s.logger()) {
		s.remerge()
	}
}

// watch re-checks the file and the included files every reload interval
// of the newest settings; with reloading off, it waits for settings that
// turn it on.
func (s *source) watch(ctx context.Context) {
	t := time.NewTimer(time.Hour)
	defer t.Stop()
	for {
		t.Stop()
		if d := s.settings.Load().reload; d > 0 {
			t.Reset(d)
		}
		select {
		case <-ctx.Done():
			return
		case <-s.kick:
			continue
		case <-t.C:
		}
		if s.path != "" {
			s.refresh()
		}
		s.refreshIncludes()
	}
}
