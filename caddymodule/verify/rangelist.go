package verify

import (
	"context"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"mime"
	"net/http"
	"net/netip"
	"os"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

// Storage keeps the last good copy of each fetched list, so a restart does
// not refetch and a source that is down at start-up still has a list. It is
// the subset of certmagic.Storage that this package needs, so Caddy's
// ctx.Storage() can be passed as it is. Load returns an error wrapping
// fs.ErrNotExist for a missing key.
type Storage interface {
	Load(ctx context.Context, key string) ([]byte, error)
	Store(ctx context.Context, key string, value []byte) error
}

// Defaults for RangeOptions.
const (
	DefaultRefresh    = 24 * time.Hour
	DefaultFileCheck  = 5 * time.Second
	DefaultTimeout    = 30 * time.Second
	DefaultMaxSize    = 2 << 20
	DefaultMinRetry   = time.Minute
	DefaultMaxRetry   = time.Hour
	DefaultStorageKey = "robots_txt/ranges"
)

// RangeOptions configures a RangeList. The zero value is usable.
type RangeOptions struct {
	// Client fetches URLs; nil means a client of its own. Each fetch is
	// bounded by Timeout whatever the client's own timeout.
	Client *http.Client
	// Refresh is how often a good list is fetched again (24 h by default).
	Refresh time.Duration
	// FileCheck is how often a file source is checked for changes (5 s):
	// it is read again when its size, modification time or identity
	// changed, and at Refresh whatever stat says. A
	// file is the operator's own list, and an address taken out of it
	// must stop verifying soon, not at the next daily refresh.
	FileCheck time.Duration
	// Timeout bounds one fetch, body included (30 s).
	Timeout time.Duration
	// MaxSize is the largest body accepted (2 MiB); a larger one is a
	// failed fetch, not a truncated list.
	MaxSize int64
	// MinRetry and MaxRetry bound the exponential backoff after a failed
	// fetch (1 min to 1 h, never beyond Refresh) of a source that has no
	// copy yet. A source with a good copy keeps using it and is retried
	// after MaxRetry: JAFAR asks consumers not to poll more than hourly.
	MinRetry, MaxRetry time.Duration
	// Storage, if set, keeps the last good body of each URL under
	// StorageKey/<hash>.
	Storage    Storage
	StorageKey string
	// Snapshots are lists to use for a URL that has no stored copy, named as
	// described in snapshots/README.md. Nil means the embedded ones.
	Snapshots fs.FS
	// Logger receives fetch failures and recoveries. Nil discards them.
	Logger *slog.Logger
}

func (o *RangeOptions) setDefaults() {
	if o.Client == nil {
		o.Client = &http.Client{}
	}
	setDefault(&o.Refresh, DefaultRefresh)
	setDefault(&o.FileCheck, DefaultFileCheck)
	setDefault(&o.Timeout, DefaultTimeout)
	setDefault(&o.MaxSize, DefaultMaxSize)
	setDefault(&o.MinRetry, DefaultMinRetry)
	setDefault(&o.MaxRetry, DefaultMaxRetry)
	o.MaxRetry = min(o.MaxRetry, o.Refresh)
	o.MinRetry = min(o.MinRetry, o.MaxRetry)
	if o.StorageKey == "" {
		o.StorageKey = DefaultStorageKey
	}
	if o.Snapshots == nil {
		o.Snapshots = embeddedSnapshots
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
}

//go:embed snapshots
var snapshotDir embed.FS

var embeddedSnapshots, _ = fs.Sub(snapshotDir, "snapshots")

// RangeList is the current set of addresses from a list of sources: literal
// CIDRs, files and https URLs. The set sits behind an atomic pointer, so
// Contains never waits for a refresh; a refresh that fails for any reason
// (network, status, timeout, size, garbage) keeps the source's last good
// copy and retries with backoff, the way RFC 9309 treats an unreachable
// robots.txt. It is safe for concurrent use.
type RangeList struct {
	opts    RangeOptions
	static  []netip.Prefix
	sources []*rangeSource
	set     atomic.Pointer[Set]
	status  atomic.Pointer[[]SourceStatus]
	// crawlers are the names of the crawlers the list verifies, for the
	// warning of a broad copy; set by NewVerifier before Start.
	crawlers []string

	mu     sync.Mutex // serialises refreshes and guards sources' state; held during fetches
	loaded bool
	// settled is set once Load has installed the first copies: what
	// Load finds broad is the caller's to say at its load (Status tells
	// it), what comes after is the list's own to warn of.
	settled bool
	running bool
	stop    chan struct{}
	done    chan struct{}
}

// rangeSource is one file or URL and its last good copy.
type rangeSource struct {
	name     string
	url      bool
	prefixes []netip.Prefix
	broad    bool      // prefixes take in a large part of the Internet (Broad)
	fetched  time.Time // when the copy in use was obtained
	origin   string    // "fetch", "file", "storage" or "snapshot"
	failures int
	next     time.Time
	lastErr  error
	// The body and validators of the copy in use, for conditional
	// requests and for storing again after a 304.
	body               string
	etag, lastModified string
	// stamp is what a file source's stat said when it was last read;
	// stamped tells whether it was read at all. due is when it is read
	// again even so: at the refresh, or the retry of one that failed.
	stamp   fileStamp
	stamped bool
	due     time.Time
	// settling is a file's text read cut mid-line, which replaces the
	// copy in use only if the next check reads it again.
	settling string
}

// fileStamp is what stat says of a file: an unchanged stamp means the
// file need not be read again.
type fileStamp struct {
	fi   fs.FileInfo // nil when stat failed
	mod  time.Time
	size int64
	err  string
}

func statFile(name string) fileStamp {
	fi, err := os.Stat(name)
	if err != nil {
		return fileStamp{err: err.Error()}
	}
	return fileStamp{fi: fi, mod: fi.ModTime(), size: fi.Size()}
}

// same reports whether a and b can be taken for one unchanged file. A
// file renamed into place is another file, whatever its size and time
// (rsync -t, tar and reproducible builds keep them); an edit in place
// that sets the time back is seen at the next refresh only.
func (a fileStamp) same(b fileStamp) bool {
	return a.mod.Equal(b.mod) && a.size == b.size && a.err == b.err &&
		(a.fi == nil) == (b.fi == nil) && (a.fi == nil || os.SameFile(a.fi, b.fi))
}

// SourceStatus describes one file or URL source of a RangeList.
type SourceStatus struct {
	Source   string
	Prefixes int       // in the copy in use; 0 if none
	Origin   string    // where that copy came from: fetch, file, storage, snapshot, or "" for none
	Fetched  time.Time // when it was obtained
	Failures int       // consecutive failed refreshes
	Next     time.Time // when the next refresh is due
	Err      error     // the last failure, if the last attempt failed
	// Broad says the copy in use takes in a large part of the Internet
	// (see Broad): anyone there who claims the list's crawler passes as
	// it.
	Broad bool
}

// NewRangeList returns a list over entries, each a CIDR or bare address, an
// https URL, or a file path. Literal CIDRs count at once; files and URLs
// once Load, Refresh or Start has read them.
func NewRangeList(entries []string, opts RangeOptions) (*RangeList, error) {
	opts.setDefaults()
	l := &RangeList{opts: opts}
	seen := map[string]bool{}
	for _, e := range entries {
		e = strings.TrimSpace(e)
		if e == "" || seen[e] {
			continue
		}
		seen[e] = true
		switch {
		case strings.HasPrefix(e, "https://"):
			l.sources = append(l.sources, &rangeSource{name: e, url: true})
		case strings.Contains(e, "://"):
			return nil, fmt.Errorf("range source %q: only https URLs are fetched", e)
		default:
			if p, err := parseCIDR(e); err == nil {
				l.static = append(l.static, p)
				continue
			}
			if LooksLikeAddress(e) {
				return nil, fmt.Errorf("range source %q is not a valid CIDR", e)
			}
			l.sources = append(l.sources, &rangeSource{name: e})
		}
	}
	l.rebuild()
	return l, nil
}

// Contains reports whether addr is in the current set. It does not allocate
// or wait.
func (l *RangeList) Contains(addr netip.Addr) bool { return l.set.Load().Contains(addr) }

// Len is the number of prefixes in the current set.
func (l *RangeList) Len() int { return l.set.Load().Len() }

// Ready reports whether the set holds any prefix. A list that is not ready
// cannot confirm anyone.
func (l *RangeList) Ready() bool { return l.Len() > 0 }

// Status describes every file and URL source as of the last refresh. It
// does not wait for a refresh in progress.
func (l *RangeList) Status() []SourceStatus {
	if st := l.status.Load(); st != nil {
		return slices.Clone(*st)
	}
	return nil
}

// Load reads what is available without the network: files, the stored
// copies of URLs, and embedded snapshots for URLs with no stored copy. It
// schedules each URL's first fetch (at once unless its stored copy is
// younger than Refresh). Start calls it; calling it again does nothing.
func (l *RangeList) Load(ctx context.Context) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.loaded {
		return
	}
	l.loaded = true
	now := time.Now()
	for _, s := range l.sources {
		if !s.url {
			l.refreshSource(ctx, s, now, false)
			continue
		}
		s.next = now
		if l.loadStored(ctx, s) {
			if due := s.fetched.Add(l.opts.Refresh); due.After(now) {
				s.next = due
			}
			continue
		}
		l.loadSnapshot(s)
	}
	l.settled = true
	l.rebuild()
}

// Refresh fetches or reads every file and URL source now, whatever its
// schedule, and returns the failures joined. Sources that fail keep their
// last good copy.
func (l *RangeList) Refresh(ctx context.Context) error {
	l.Load(ctx)
	l.mu.Lock()
	defer l.mu.Unlock()
	var errs []error
	now := time.Now()
	for _, s := range l.sources {
		if err := l.refreshSource(ctx, s, now, true); err != nil {
			errs = append(errs, err)
		}
	}
	l.rebuild()
	return errors.Join(errs...)
}

// Start loads what is available offline and refreshes the sources in the
// background, each on its own schedule, until Stop.
func (l *RangeList) Start() {
	l.Load(context.Background())
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.running || len(l.sources) == 0 {
		return
	}
	l.running = true
	l.stop = make(chan struct{})
	l.done = make(chan struct{})
	go l.run(l.stop, l.done)
}

// Stop ends background refreshing and waits for a refresh in progress to
// end (it is cancelled).
func (l *RangeList) Stop() {
	l.mu.Lock()
	if !l.running {
		l.mu.Unlock()
		return
	}
	l.running = false
	stop, done := l.stop, l.done
	l.mu.Unlock()
	close(stop)
	<-done
}

func (l *RangeList) run(stop, done chan struct{}) {
	defer close(done)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		<-stop
		cancel()
	}()
	for {
		l.mu.Lock()
		next := l.sources[0].next
		for _, s := range l.sources[1:] {
			if s.next.Before(next) {
				next = s.next
			}
		}
		l.mu.Unlock()
		t := time.NewTimer(time.Until(next))
		select {
		case <-stop:
			t.Stop()
			return
		case <-t.C:
		}
		l.mu.Lock()
		now := time.Now()
		for _, s := range l.sources {
			if !s.next.After(now) {
				l.refreshSource(ctx, s, now, false)
			}
		}
		l.rebuild()
		l.mu.Unlock()
	}
}

// refreshSource reads one source and schedules its next refresh. A file
// whose stat is unchanged since it was last read is not read again
// unless force is set. l.mu is held.
func (l *RangeList) refreshSource(ctx context.Context, s *rangeSource, now time.Time, force bool) error {
	var body []byte
	var err error
	var fetched fetchResult
	if s.url {
		fetched, err = l.fetch(ctx, s)
		body = fetched.body
		if err == nil && fetched.notModified {
			if len(s.prefixes) == 0 {
				err = errors.New("304 Not Modified, but there is no copy to keep")
			} else {
				s.fetched, s.failures, s.lastErr, s.origin = now, 0, nil, "fetch"
				s.next = now.Add(l.opts.Refresh)
				l.store(ctx, s, []byte(s.body))
				return nil
			}
		}
	} else {
		st := statFile(s.name)
		if !force && s.stamped && st.same(s.stamp) && now.Before(s.due) {
			s.next = minTime(s.due, now.Add(l.opts.FileCheck))
			return s.lastErr
		}
		s.stamp, s.stamped = st, true
		body, err = readFile(s.name, l.opts.MaxSize)
		if err == nil && len(s.prefixes) > 0 && len(body) > 0 && body[len(body)-1] != '\n' && string(body) != s.settling {
			// Perhaps caught while written in place: a prefix cut
			// short is a wider one ("203.0.113.0/2" is a quarter of
			// IPv4), which would verify anyone in it as the crawler.
			// The copy in use stays until the next check reads the
			// same text.
			s.settling, s.stamped = string(body), false
			s.next = now.Add(l.opts.FileCheck)
			return nil
		}
		s.settling = ""
	}
	var prefixes []netip.Prefix
	if err == nil {
		prefixes, err = ParseRanges(body)
	}
	if err != nil {
		err = fmt.Errorf("range source %s: %w", s.name, err)
		s.failures++
		s.lastErr = err
		backoff := l.opts.MinRetry << min(s.failures-1, 20)
		if len(s.prefixes) > 0 {
			backoff = l.opts.MaxRetry
		}
		s.next = now.Add(min(backoff, l.opts.MaxRetry))
		if !s.url {
			// Read again once it changes, which the stamp tells, or
			// at the retry: a change stat does not see (a chmod
			// that makes it readable) is one too.
			s.due = s.next
			s.next = minTime(s.due, now.Add(l.opts.FileCheck))
		}
		msg := "IP range list not updated; keeping the last good copy"
		if len(s.prefixes) == 0 {
			msg = "IP range list could not be fetched; nothing is verified by it until it is"
		}
		l.opts.Logger.Warn(msg,
			"source", s.name, "error", err, "failures", s.failures,
			"prefixes_in_use", len(s.prefixes), "retry_at", s.next)
		return err
	}
	if s.failures > 0 {
		l.opts.Logger.Info("IP range list recovered", "source", s.name, "after_failures", s.failures)
	}
	if s.use(prefixes) && l.settled {
		l.warnBroad(s)
	}
	s.fetched, s.failures, s.lastErr = now, 0, nil
	s.origin = "file"
	s.due = now.Add(l.opts.Refresh)
	s.next = minTime(s.due, now.Add(l.opts.FileCheck))
	if s.url {
		s.next = now.Add(l.opts.Refresh)
		s.origin = "fetch"
		s.etag, s.lastModified, s.body = fetched.etag, fetched.lastModified, string(body)
		l.store(ctx, s, body)
	}
	return nil
}

type fetchResult struct {
	body               []byte
	notModified        bool
	etag, lastModified string
}

// fetch GETs one URL: status 200 (or 304 to a conditional request) only,
// within Timeout and MaxSize.
func (l *RangeList) fetch(ctx context.Context, s *rangeSource) (fetchResult, error) {
	ctx, cancel := context.WithTimeout(ctx, l.opts.Timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, s.name, nil)
	if err != nil {
		return fetchResult{}, err
	}
	req.Header.Set("User-Agent", "caddy-robots-txt (IP range list)")
	req.Header.Set("Accept", "application/jafar+json, application/json, text/plain;q=0.9")
	// JAFAR requires consumers to honour the publisher's validators.
	if len(s.prefixes) > 0 {
		if s.etag != "" {
			req.Header.Set("If-None-Match", s.etag)
		}
		if s.lastModified != "" {
			req.Header.Set("If-Modified-Since", s.lastModified)
		}
	}
	resp, err := l.opts.Client.Do(req)
	if err != nil {
		return fetchResult{}, err
	}
	defer resp.Body.Close()
	res := fetchResult{etag: resp.Header.Get("ETag"), lastModified: resp.Header.Get("Last-Modified")}
	switch resp.StatusCode {
	case http.StatusOK:
	case http.StatusNotModified:
		res.notModified = true
		return res, nil
	default:
		// Drain a little so the connection can be reused.
		_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 4096))
		return res, fmt.Errorf("status %d", resp.StatusCode)
	}
	if err := checkJAFARVersion(resp.Header.Get("Content-Type")); err != nil {
		return res, err
	}
	if resp.ContentLength > l.opts.MaxSize {
		return res, fmt.Errorf("body of %d bytes exceeds the %d-byte limit", resp.ContentLength, l.opts.MaxSize)
	}
	res.body, err = readCapped(resp.Body, l.opts.MaxSize)
	return res, err
}

// checkJAFARVersion refuses a JAFAR file of a major version other than 1,
// which JAFAR forbids a consumer to parse.
func checkJAFARVersion(contentType string) error {
	mt, params, err := mime.ParseMediaType(contentType)
	if err != nil || mt != "application/jafar+json" {
		return nil
	}
	v, ok := params["version"]
	if !ok {
		return nil
	}
	if major, _, _ := strings.Cut(v, "."); major != "1" {
		return fmt.Errorf("JAFAR version %s is not supported", v)
	}
	return nil
}

// readFile reads a list file of at most maxSize bytes. It opens it without
// blocking, and reads only a regular file: a named pipe put in its place
// would hang the refresh for ever, a device never end.
func readFile(name string, maxSize int64) ([]byte, error) {
	f, err := os.OpenFile(name, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !info.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is not a regular file", name)
	}
	return readCapped(f, maxSize)
}

func readCapped(r io.Reader, maxSize int64) ([]byte, error) {
	body, err := io.ReadAll(io.LimitReader(r, maxSize+1))
	if err != nil {
		return nil, err
	}
	if int64(len(body)) > maxSize {
		return nil, fmt.Errorf("body exceeds the %d-byte limit", maxSize)
	}
	return body, nil
}

// stored is what Storage keeps for a URL: the body as published and when
// it was fetched, so a restart knows whether it is due.
type stored struct {
	Source       string    `json:"source"`
	Fetched      time.Time `json:"fetched"`
	ETag         string    `json:"etag,omitempty"`
	LastModified string    `json:"last_modified,omitempty"`
	Body         string    `json:"body"`
}

func (l *RangeList) storageKey(url string) string {
	sum := sha256.Sum256([]byte(url))
	return l.opts.StorageKey + "/" + hex.EncodeToString(sum[:16]) + ".json"
}

func (l *RangeList) store(ctx context.Context, s *rangeSource, body []byte) {
	if l.opts.Storage == nil {
		return
	}
	data, err := json.Marshal(stored{Source: s.name, Fetched: s.fetched, ETag: s.etag, LastModified: s.lastModified, Body: string(body)})
	if err == nil {
		err = l.opts.Storage.Store(ctx, l.storageKey(s.name), data)
	}
	if err != nil {
		l.opts.Logger.Warn("cannot persist IP range list", "source", s.name, "error", err)
	}
}

// loadStored installs the stored copy of s, if there is a good one.
func (l *RangeList) loadStored(ctx context.Context, s *rangeSource) bool {
	if l.opts.Storage == nil {
		return false
	}
	data, err := l.opts.Storage.Load(ctx, l.storageKey(s.name))
	if err != nil {
		if !errors.Is(err, fs.ErrNotExist) {
			l.opts.Logger.Warn("cannot read stored IP range list", "source", s.name, "error", err)
		}
		return false
	}
	var st stored
	if err := json.Unmarshal(data, &st); err != nil || st.Source != s.name {
		l.opts.Logger.Warn("ignoring unreadable stored IP range list", "source", s.name)
		return false
	}
	prefixes, err := ParseRanges([]byte(st.Body))
	if err != nil {
		l.opts.Logger.Warn("ignoring unreadable stored IP range list", "source", s.name, "error", err)
		return false
	}
	s.use(prefixes)
	s.fetched, s.origin = st.Fetched, "storage"
	s.body, s.etag, s.lastModified = st.Body, st.ETag, st.LastModified
	return true
}

// SnapshotName is the file name under which a snapshot of url is looked up.
func SnapshotName(url string) string {
	name := strings.TrimPrefix(url, "https://")
	return strings.NewReplacer("/", "_", ":", "_", "?", "_").Replace(name)
}

func (l *RangeList) loadSnapshot(s *rangeSource) {
	data, err := fs.ReadFile(l.opts.Snapshots, SnapshotName(s.name))
	if err != nil {
		return
	}
	prefixes, err := ParseRanges(data)
	if err != nil {
		l.opts.Logger.Warn("ignoring broken IP range snapshot", "source", s.name, "error", err)
		return
	}
	// No validators: a snapshot is never what the server has now.
	s.use(prefixes)
	s.origin, s.body = "snapshot", string(data)
}

// rebuild publishes the union of the static prefixes and every source's
// copy in use. l.mu is held (or l is not yet shared).
func (l *RangeList) rebuild() {
	all := append([]netip.Prefix(nil), l.static...)
	for _, s := range l.sources {
		all = append(all, s.prefixes...)
	}
	l.set.Store(NewSet(all))
	st := make([]SourceStatus, len(l.sources))
	for i, s := range l.sources {
		st[i] = SourceStatus{Source: s.name, Prefixes: len(s.prefixes), Origin: s.origin,
			Fetched: s.fetched, Failures: s.failures, Next: s.next, Err: s.lastErr, Broad: s.broad}
	}
	l.status.Store(&st)
}

// use makes prefixes the copy of s in use, and reports whether it is a
// broad one (see Broad) that replaces another copy: a refresh that reads
// the same prefixes again brings nothing new into force. The copy is
// measured only when it changed.
func (s *rangeSource) use(prefixes []netip.Prefix) (newBroad bool) {
	if slices.Equal(s.prefixes, prefixes) {
		return false
	}
	s.prefixes, s.broad = prefixes, Broad(prefixes)
	return s.broad
}

// warnBroad says that a copy of s taking in a large part of the Internet
// has come into force: impostor checks for its crawlers are off there,
// which a file edited in place or a publisher's list may do at any time.
func (l *RangeList) warnBroad(s *rangeSource) {
	l.opts.Logger.Warn("a crawler's ranges cover a large part of the Internet: any client there that claims it is verified as it and gets its group",
		"crawler", strings.Join(l.crawlers, ", "), "source", s.name, "prefixes", len(s.prefixes))
}

// LooksLikeAddress tells a mistyped CIDR ("192.0.2.0/33") from a file name,
// so the typo is reported at configuration time instead of as a missing file.
func LooksLikeAddress(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' || c == '.' || c == ':' || c == '/') {
			return false
		}
	}
	return strings.ContainsAny(s, ".:")
}

func minTime(a, b time.Time) time.Time {
	if a.Before(b) {
		return a
	}
	return b
}
