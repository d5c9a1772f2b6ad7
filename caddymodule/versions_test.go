package caddymodule

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	"github.com/caddyserver/certmagic"
	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
	"go.uber.org/zap/zaptest/observer"

	"github.com/robotsguard/caddy-robots-txt/caddymodule/judge"
	"github.com/robotsguard/caddy-robots-txt/robots"
)

// TestStoredVersionsTroubleIsLogged: versions kept in storage that cannot
// be read, or are damaged, leave grace without them; that is said, with
// the key, once however often it is read.
func TestStoredVersionsTroubleIsLogged(t *testing.T) {
	for _, tc := range []struct {
		name  string
		plant func(path string) error
	}{
		{"damaged", func(path string) error { return os.WriteFile(path, []byte(`[{"etag":"\"v1\"","since":1,"bo`), 0o644) }},
		{"unreadable", func(path string) error { return os.Mkdir(path, 0o755) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			store := &certmagic.FileStorage{Path: t.TempDir()}
			site := "versions-test-" + tc.name
			key := versionsKey(site)
			path := store.Filename(key)
			if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := tc.plant(path); err != nil {
				t.Fatal(err)
			}
			core, logs := observer.New(zapcore.WarnLevel)
			for range 3 {
				if got, _ := readStored(zap.New(core), sharedStorage{store}, site, `"v2"`, time.Now(), time.Hour); got != nil {
					t.Errorf("versions from a %s file: %v", tc.name, got)
				}
			}
			entries := logs.All()
			if len(entries) != 1 {
				t.Fatalf("%d warnings, want 1: %v", len(entries), entries)
			}
			if f := entries[0].ContextMap(); f["key"] != key || f["error"] == nil {
				t.Errorf("warning %q %v does not name the key %s and the error", entries[0].Message, f, key)
			}
		})
	}
}

// TestStoredVersionsAreBounded: what the stored versions say is not taken
// on trust. A file far larger than an instance writes is not read (it
// would cost every instance that starts its size in memory, and the
// parsing of every body in it), and is said so; of a file with more
// versions than an instance keeps, only as many are used.
func TestStoredVersionsAreBounded(t *testing.T) {
	now := time.Now()
	body := []byte("User-agent: *\nDisallow: /old/\n")
	versions := func(n int, pad int) []storedVersion {
		vs := make([]storedVersion, n)
		for i := range vs {
			vs[i] = storedVersion{ETag: fmt.Sprintf(`"v%d"`, i), Since: now.Add(-time.Duration(i+1) * time.Second).UnixNano(),
				Body: append(bytes.Clone(body), bytes.Repeat([]byte("#\n"), pad)...)}
		}
		return vs
	}
	for _, tc := range []struct {
		name     string
		stored   []storedVersion
		known    []string
		want     int
		warnings int
	}{
		{"a few", versions(3, 0), nil, 3, 0},
		{"a few, one known", versions(3, 0), []string{`"v1"`}, 2, 0},
		{"more than an instance keeps", versions(100, 0), nil, maxStoredVersions, 0},
		// Four of 128,030 bytes are more than judge.MaxEarlierBytes.
		{"texts over grace's bound", versions(maxStoredVersions, judge.MaxEarlierBytes/8), nil, 3, 0},
		{"larger than an instance writes", versions(20, robots.DefaultMaxSize/2), nil, 0, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			store := &certmagic.FileStorage{Path: t.TempDir()}
			site := "versions-bounded-" + tc.name
			key := versionsKey(site)
			data, err := json.Marshal(tc.stored)
			if err != nil {
				t.Fatal(err)
			}
			if err := store.Store(context.Background(), key, data); err != nil {
				t.Fatal(err)
			}
			core, logs := observer.New(zapcore.WarnLevel)
			rd := &storedRead{done: make(chan struct{})}
			rd.vs, _ = readStored(zap.New(core), sharedStorage{store}, site, `"current"`, now, time.Hour)
			close(rd.done)
			got := rd.earlier(knownOnly(append(tc.known, `"current"`)...), judge.MaxEarlierBytes)
			if len(got) != tc.want {
				t.Errorf("%d earlier versions from %d stored (%d bytes), want %d", len(got), len(tc.stored), len(data), tc.want)
			}
			if n := logs.Len(); n != tc.warnings {
				t.Errorf("%d warnings, want %d: %v", n, tc.warnings, logs.All())
			}
			for _, e := range logs.All() {
				if f := e.ContextMap(); f["key"] != key || f["error"] == nil {
					t.Errorf("warning %q %v does not name the key %s and the error", e.Message, f, key)
				}
			}
		})
	}
}

// fetchedRequest is curl's request for path, from a client seen fetching
// the version etag a minute ago; never seen fetching for "".
func fetchedRequest(path, etag string) *judge.Request {
	u, _ := url.ParseRequestURI(path)
	now := time.Now()
	return &judge.Request{UA: "curl/8", Paths: judge.PathsOf(u), Now: now, Fetch: judge.Fetch{At: now.Add(-time.Minute), ETag: etag}, Fetched: etag != ""}
}

// knownOnly is a known function for storedEarlier that knows etags.
func knownOnly(etags ...string) func(string) bool {
	return func(etag string) bool { return slices.Contains(etags, etag) }
}

// TestReloadKeepsServedText: a config reload that reads the same file
// again makes a new version of the text in force; that the text was
// served before stays known, so that a file rewritten often after the
// reload does not push the text a bot read out of grace's history.
func TestReloadKeepsServedText(t *testing.T) {
	const read = "User-agent: *\nDisallow: /a\n"
	set := func() *sourceSettings {
		return &sourceSettings{logger: zap.NewNop(), grace: 24 * time.Hour, state: "reload-keeps-served-" + t.Name()}
	}
	before := newInlineSource(read, set())
	fetched := before.current()
	fetched.MarkServed()
	s := newInlineSource(read, set()) // the reload
	for i := range 40 {
		s.publish(newSnapshot([]byte(fmt.Sprintf("# generated %d\nUser-agent: *\nDisallow: /b\n", i))))
	}
	if !s.current().GraceAllows(fetchedRequest("/b", fetched.ETag), 24*time.Hour) {
		t.Errorf("the text served before the reload left grace's history (%d earlier versions)", len(s.current().Earlier))
	}
}

// TestRestartKeepsServedText: the first version a process has, when the
// storage kept it (only versions served are stored), was served before
// the restart: a file rewritten often afterwards does not push the text
// a bot read before the restart out of grace's history.
func TestRestartKeepsServedText(t *testing.T) {
	const read = "User-agent: *\nDisallow: /a\n"
	store := &certmagic.FileStorage{Path: t.TempDir()}
	site := "restart-keeps-served"
	fetched := newSnapshot([]byte(read))
	data, _ := json.Marshal([]storedVersion{{ETag: fetched.ETag, Since: time.Now().Add(-time.Hour).UnixNano(), Body: []byte(read)}})
	if err := store.Store(context.Background(), versionsKey(site), data); err != nil {
		t.Fatal(err)
	}
	s := newInlineSource(read, &sourceSettings{logger: zap.NewNop(), grace: 24 * time.Hour, share: versionShare{store: sharedStorage{store}, site: site}})
	<-s.stored.done // edits come seconds apart, not at once
	if !s.current().Served() {
		t.Error("the version in force, stored before the restart, is not known as served")
	}
	for i := range 40 {
		s.publish(newSnapshot([]byte(fmt.Sprintf("# generated %d\nUser-agent: *\nDisallow: /b\n", i))))
	}
	if !s.current().GraceAllows(fetchedRequest("/b", fetched.ETag), 24*time.Hour) {
		t.Errorf("the text served before the restart left grace's history (%d earlier versions)", len(s.current().Earlier))
	}
}

// loadCounter counts the reads of a storage.
type loadCounter struct {
	sharedStorage
	loads atomic.Int32
}

func (s *loadCounter) Load(ctx context.Context, key string) ([]byte, error) {
	s.loads.Add(1)
	return s.sharedStorage.Load(ctx, key)
}

// TestStoredVersionsReadAtOpen: the versions kept in storage are read
// once, in the background, when a source opens, and never by a request:
// versions served afterwards, which the storage keeps maxStoredVersions
// of, do not push out those read, and the versions that follow keep them.
func TestStoredVersionsReadAtOpen(t *testing.T) {
	const old = "User-agent: *\nDisallow: /a\n"
	store := &loadCounter{sharedStorage: sharedStorage{&certmagic.FileStorage{Path: t.TempDir()}}}
	site := "stored-read-at-open"
	key := versionsKey(site)
	storeVersions := func(vs ...storedVersion) {
		t.Helper()
		data, _ := json.Marshal(vs)
		if err := store.Store(context.Background(), key, data); err != nil {
			t.Fatal(err)
		}
	}
	storeVersions(storedVersion{ETag: `"old"`, Since: time.Now().Add(-time.Hour).UnixNano(), Body: []byte(old)})
	s := newInlineSource("User-agent: *\nDisallow: /b\n", &sourceSettings{logger: zap.NewNop(), grace: 24 * time.Hour, share: versionShare{store: store, site: site}})
	<-s.stored.done
	// As many versions served since as the storage keeps.
	var since []storedVersion
	for i := range maxStoredVersions {
		since = append(since, storedVersion{ETag: fmt.Sprintf(`"since-%d"`, i), Since: time.Now().UnixNano(), Body: []byte("User-agent: *\nDisallow: /b\n# " + strconv.Itoa(i) + "\n")})
	}
	storeVersions(since...)
	for _, tc := range []struct {
		name  string
		r     *judge.Request
		grace bool
	}{
		{"no fetch on record", fetchedRequest("/b", ""), false},
		{"fetched the current version", fetchedRequest("/b", s.current().ETag), false},
		{"fetched the version stored before the source opened", fetchedRequest("/b", `"old"`), true},
		{"again", fetchedRequest("/b", `"old"`), true},
		{"fetched a text nobody kept", fetchedRequest("/b", `"other"`), false},
	} {
		if got := s.current().GraceAllows(tc.r, 24*time.Hour); got != tc.grace {
			t.Errorf("%s: grace %v, want %v", tc.name, got, tc.grace)
		}
	}
	s.publish(newSnapshot([]byte("User-agent: *\nDisallow: /b\nDisallow: /c\n")))
	if !s.current().GraceAllows(fetchedRequest("/b", `"old"`), 24*time.Hour) {
		t.Error("after an edit: the stored version was lost")
	}
	if n := store.loads.Load(); n != 1 {
		t.Errorf("the storage was read %d times, want once, when the source opened", n)
	}
}
