package verify

import (
	"context"
	"fmt"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"testing/fstest"
	"time"
)

// memStorage is Storage in memory, as certmagic's would be on disk.
type memStorage struct {
	mu sync.Mutex
	m  map[string][]byte
}

func (s *memStorage) Load(_ context.Context, key string) ([]byte, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	v, ok := s.m[key]
	if !ok {
		return nil, fs.ErrNotExist
	}
	return v, nil
}

func (s *memStorage) Store(_ context.Context, key string, value []byte) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.m == nil {
		s.m = map[string][]byte{}
	}
	s.m[key] = append([]byte(nil), value...)
	return nil
}

var _ Storage = (*memStorage)(nil)

const goodList = `{"creationTime": "2026-09-25T15:46:03.000000", "prefixes": [{"ipv4Prefix": "66.249.64.0/27"}, {"ipv6Prefix": "2001:4860:4801:10::/64"}]}`

// listServer serves an IP list whose behaviour the test switches.
type listServer struct {
	*httptest.Server
	mode atomic.Value // string
	body atomic.Value // string
	hits atomic.Int64
}

func startListServer(t testing.TB) *listServer {
	s := &listServer{}
	s.mode.Store("ok")
	s.body.Store(goodList)
	s.Server = httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.hits.Add(1)
		switch s.mode.Load().(string) {
		case "ok":
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprint(w, s.body.Load().(string))
		case "5xx":
			http.Error(w, "upstream down", http.StatusServiceUnavailable)
		case "404":
			http.NotFound(w, r)
		case "garbage":
			fmt.Fprint(w, "<!DOCTYPE html><html><body>Please enable JavaScript</body></html>")
		case "moved":
			fmt.Fprint(w, `{"Action needed": "update the location you're fetching from"}`)
		case "empty":
		case "slow":
			select {
			case <-time.After(5 * time.Second):
				fmt.Fprint(w, goodList)
			case <-r.Context().Done():
				// Nothing: a body written as the client gives up can
				// still reach it, and would make a good fetch of a
				// timed-out one.
			}
		case "etag":
			w.Header().Set("ETag", `"v1"`)
			if r.Header.Get("If-None-Match") == `"v1"` {
				w.WriteHeader(http.StatusNotModified)
				return
			}
			fmt.Fprint(w, goodList)
		case "jafar2":
			w.Header().Set("Content-Type", "application/jafar+json; version=2.0")
			fmt.Fprint(w, goodList)
		case "jafar1":
			w.Header().Set("Content-Type", "application/jafar+json; version=1.3")
			fmt.Fprint(w, goodList)
		case "oversize":
			w.Header().Set("Content-Length", "5000000")
			fmt.Fprint(w, strings.Repeat(" ", 4096))
		case "oversize-chunked":
			fmt.Fprint(w, `{"prefixes": [`)
			for range 100000 {
				fmt.Fprint(w, `{"ipv4Prefix": "192.0.2.0/24"},`)
			}
			fmt.Fprint(w, `{"ipv4Prefix": "192.0.2.0/24"}]}`)
		}
	}))
	t.Cleanup(s.Close)
	return s
}

func (s *listServer) opts() RangeOptions {
	// A generous timeout: TLS handshakes under -race on a loaded machine
	// are slow. The "slow" case sets its own.
	return RangeOptions{Client: s.Client(), Timeout: 10 * time.Second, MaxSize: 64 << 10,
		MinRetry: time.Minute, MaxRetry: time.Hour, Snapshots: fstest.MapFS{}}
}

var (
	googlebotAddr  = netip.MustParseAddr("66.249.64.5")
	googlebotAddr6 = netip.MustParseAddr("2001:4860:4801:10::7")
)

func TestRangeListFetch(t *testing.T) {
	srv := startListServer(t)
	l, err := NewRangeList([]string{srv.URL + "/googlebot.json"}, srv.opts())
	if err != nil {
		t.Fatal(err)
	}
	if l.Ready() || l.Contains(googlebotAddr) {
		t.Fatal("ready before any fetch")
	}
	if err := l.Refresh(context.Background()); err != nil {
		t.Fatal(err)
	}
	if !l.Contains(googlebotAddr) || !l.Contains(googlebotAddr6) || l.Contains(netip.MustParseAddr("66.249.64.32")) {
		t.Error("wrong set after fetch")
	}
	st := l.Status()[0]
	if st.Origin != "fetch" || st.Prefixes != 2 || st.Err != nil || time.Until(st.Next) < 23*time.Hour {
		t.Errorf("status %+v", st)
	}
}

func TestRangeListKeepsLastGood(t *testing.T) {
	for _, mode := range []string{"5xx", "404", "garbage", "moved", "empty", "slow", "oversize", "oversize-chunked"} {
		t.Run(mode, func(t *testing.T) {
			srv := startListServer(t)
			opts := srv.opts()
			if mode == "slow" {
				opts.Timeout = 1500 * time.Millisecond
			}
			l, err := NewRangeList([]string{srv.URL + "/list.json"}, opts)
			if err != nil {
				t.Fatal(err)
			}
			if err := l.Refresh(context.Background()); err != nil {
				t.Fatal(err)
			}
			srv.mode.Store(mode)
			// "slow" answers a good list after 5 s: only a refresh that
			// gave up at its 1.5 s timeout reports an error for it.
			err = l.Refresh(context.Background())
			if err == nil {
				t.Fatal("a failed refresh reported no error")
			}
			if !l.Contains(googlebotAddr) {
				t.Error("last good copy dropped")
			}
			st := l.Status()[0]
			if st.Failures != 1 || st.Err == nil || st.Origin != "fetch" {
				t.Errorf("status %+v", st)
			}
			// With a good copy in hand, retry no sooner than hourly.
			if d := time.Until(st.Next); d < 59*time.Minute || d > time.Hour {
				t.Errorf("retry in %v, want an hour", d)
			}
		})
	}
}

func TestRangeListBackoff(t *testing.T) {
	srv := startListServer(t)
	srv.mode.Store("5xx")
	opts := srv.opts()
	opts.MaxRetry = 3 * time.Minute
	l, _ := NewRangeList([]string{srv.URL + "/list.json"}, opts)
	want := []time.Duration{time.Minute, 2 * time.Minute, 3 * time.Minute, 3 * time.Minute}
	for i, w := range want {
		_ = l.Refresh(context.Background())
		if d := time.Until(l.Status()[0].Next); d < w-5*time.Second || d > w {
			t.Errorf("after failure %d: retry in %v, want %v", i+1, d, w)
		}
	}
	srv.mode.Store("ok")
	if err := l.Refresh(context.Background()); err != nil {
		t.Fatal(err)
	}
	if st := l.Status()[0]; st.Failures != 0 || st.Err != nil {
		t.Errorf("after recovery: %+v", st)
	}
}

func TestRangeListStorage(t *testing.T) {
	srv := startListServer(t)
	store := &memStorage{}
	url := srv.URL + "/googlebot.json"
	opts := srv.opts()
	opts.Storage = store

	first, _ := NewRangeList([]string{url}, opts)
	if err := first.Refresh(context.Background()); err != nil {
		t.Fatal(err)
	}
	if len(store.m) != 1 {
		t.Fatalf("%d stored entries, want 1", len(store.m))
	}
	hits := srv.hits.Load()

	// A restart: the stored copy is used, and being fresh it is not
	// refetched.
	srv.mode.Store("5xx")
	second, _ := NewRangeList([]string{url}, opts)
	second.Start()
	defer second.Stop()
	if !second.Contains(googlebotAddr) {
		t.Fatal("stored copy not loaded")
	}
	st := second.Status()[0]
	if st.Origin != "storage" || time.Until(st.Next) < 23*time.Hour {
		t.Errorf("status %+v", st)
	}
	time.Sleep(50 * time.Millisecond)
	if srv.hits.Load() != hits {
		t.Error("a fresh stored copy was refetched")
	}

	// A stale stored copy is used at once and refetched at once.
	opts.Refresh = time.Millisecond
	third, _ := NewRangeList([]string{url}, opts)
	third.Load(context.Background())
	if !third.Contains(googlebotAddr) || time.Until(third.Status()[0].Next) > 0 {
		t.Errorf("stale copy: contains %v, status %+v", third.Contains(googlebotAddr), third.Status()[0])
	}
}

func TestRangeListIgnoresBrokenStorage(t *testing.T) {
	srv := startListServer(t)
	url := srv.URL + "/list.json"
	opts := srv.opts()
	l0, _ := NewRangeList([]string{url}, opts)
	store := &memStorage{m: map[string][]byte{l0.storageKey(url): []byte("{not json")}}
	opts.Storage = store
	l, _ := NewRangeList([]string{url}, opts)
	l.Load(context.Background())
	if l.Ready() {
		t.Error("broken stored copy used")
	}
}

func TestRangeListSnapshot(t *testing.T) {
	srv := startListServer(t)
	srv.mode.Store("5xx")
	url := srv.URL + "/gptbot.json"
	opts := srv.opts()
	opts.Snapshots = fstest.MapFS{SnapshotName(url): {Data: []byte(goodList)}}
	l, _ := NewRangeList([]string{url}, opts)
	if err := l.Refresh(context.Background()); err == nil {
		t.Fatal("expected the fetch to fail")
	}
	if !l.Contains(googlebotAddr) {
		t.Error("snapshot not used while the source is down")
	}
	if st := l.Status()[0]; st.Origin != "snapshot" {
		t.Errorf("origin %q", st.Origin)
	}
	if got := SnapshotName("https://openai.com/gptbot.json"); got != "openai.com_gptbot.json" {
		t.Errorf("SnapshotName = %q", got)
	}
}

func TestRangeListBackground(t *testing.T) {
	srv := startListServer(t)
	opts := srv.opts()
	opts.Refresh = 30 * time.Millisecond
	l, _ := NewRangeList([]string{srv.URL + "/list.json"}, opts)
	l.Start()
	defer l.Stop()
	srv.body.Store(`{"prefixes": [{"ipv4Prefix": "203.0.113.0/24"}]}`)
	deadline := time.Now().Add(3 * time.Second)
	for !l.Contains(netip.MustParseAddr("203.0.113.9")) {
		if time.Now().After(deadline) {
			t.Fatal("background refresh never picked up the new list")
		}
		time.Sleep(10 * time.Millisecond)
	}
	if l.Contains(googlebotAddr) {
		t.Error("old prefixes kept after a good refresh")
	}
	l.Stop()
	l.Stop() // idempotent
}

func TestRangeListFileAndCIDR(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "ranges.txt")
	if err := os.WriteFile(path, []byte("# ours\n198.51.100.0/24\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	l, err := NewRangeList([]string{"192.0.2.0/24", "2001:db8::1", path}, RangeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if !l.Contains(netip.MustParseAddr("192.0.2.1")) || !l.Contains(netip.MustParseAddr("2001:db8::1")) {
		t.Error("literal CIDRs not in effect before Load")
	}
	l.Load(context.Background())
	if !l.Contains(netip.MustParseAddr("198.51.100.1")) {
		t.Error("file not loaded")
	}
	if err := os.WriteFile(path, []byte("garbage\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := l.Refresh(context.Background()); err == nil {
		t.Error("garbage file accepted")
	}
	if !l.Contains(netip.MustParseAddr("198.51.100.1")) {
		t.Error("last good file copy dropped")
	}
	missing, _ := NewRangeList([]string{filepath.Join(dir, "nope.txt")}, RangeOptions{})
	if err := missing.Refresh(context.Background()); err == nil {
		t.Error("missing file: no error")
	}
}

// An operator's file is read again soon after it changes, not at the
// daily refresh: an address taken out of it must stop verifying, and the
// checker outlives a config reload that names the same file.
func TestRangeListFileChanges(t *testing.T) {
	path := filepath.Join(t.TempDir(), "ranges.txt")
	if err := os.WriteFile(path, []byte("198.51.100.0/24\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	l, err := NewRangeList([]string{path}, RangeOptions{Refresh: time.Hour, FileCheck: 20 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	l.Start()
	defer l.Stop()
	old, moved := netip.MustParseAddr("198.51.100.1"), netip.MustParseAddr("203.0.113.1")
	if !l.Contains(old) {
		t.Fatal("file not loaded")
	}
	if err := os.WriteFile(path, []byte("203.0.113.0/24\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(3 * time.Second)
	for l.Contains(old) || !l.Contains(moved) {
		if time.Now().After(deadline) {
			t.Fatal("a changed ranges file was not read again")
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func TestNewRangeListRejects(t *testing.T) {
	for _, e := range []string{"http://example.com/ips.json", "ftp://example.com/ips", "192.0.2.0/33", "2001:db8::/129", "10.0.0.256"} {
		if _, err := NewRangeList([]string{e}, RangeOptions{}); err == nil {
			t.Errorf("NewRangeList accepted %q", e)
		}
	}
}

func TestRangeListConditional(t *testing.T) {
	srv := startListServer(t)
	srv.mode.Store("etag")
	store := &memStorage{}
	opts := srv.opts()
	opts.Storage = store
	url := srv.URL + "/list.json"
	l, _ := NewRangeList([]string{url}, opts)
	if err := l.Refresh(context.Background()); err != nil {
		t.Fatal(err)
	}
	first := l.Status()[0].Fetched
	time.Sleep(5 * time.Millisecond)
	if err := l.Refresh(context.Background()); err != nil {
		t.Fatalf("304: %v", err)
	}
	st := l.Status()[0]
	if !l.Contains(googlebotAddr) || st.Failures != 0 || !st.Fetched.After(first) {
		t.Errorf("after 304: contains %v, status %+v", l.Contains(googlebotAddr), st)
	}
	// The validators survive a restart: a list loaded from storage asks
	// conditionally too.
	l2, _ := NewRangeList([]string{url}, opts)
	l2.Load(context.Background())
	if err := l2.Refresh(context.Background()); err != nil {
		t.Fatalf("304 after restart: %v", err)
	}
	if !l2.Contains(googlebotAddr) {
		t.Error("copy lost after a 304")
	}
	// A 304 to a list with no copy is a failure, not an empty success.
	srv.mode.Store("5xx")
	l3, _ := NewRangeList([]string{url}, srv.opts())
	_ = l3.Refresh(context.Background())
	srv.mode.Store("etag")
	if err := l3.Refresh(context.Background()); err != nil {
		t.Fatal(err) // no validators sent without a copy, so a 200
	}
}

func TestRangeListJAFARVersion(t *testing.T) {
	srv := startListServer(t)
	l, _ := NewRangeList([]string{srv.URL + "/list.json"}, srv.opts())
	srv.mode.Store("jafar2")
	if err := l.Refresh(context.Background()); err == nil || !strings.Contains(err.Error(), "version 2.0") {
		t.Errorf("JAFAR 2.0 accepted: %v", err)
	}
	srv.mode.Store("jafar1")
	if err := l.Refresh(context.Background()); err != nil {
		t.Errorf("JAFAR 1.3 refused: %v", err)
	}
}

// A ranges file replaced by one of the same size and modification time
// (a rename of a file made by rsync -t, tar or a reproducible build) is
// another file, read again at the next check; and a file edited in place
// with its time set back is read again at the refresh at the latest, as
// before files were checked for changes.
func TestRangeListFileChangesSameStamp(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "ranges.txt")
	stamp := time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC)
	write := func(name, body string) {
		t.Helper()
		if err := os.WriteFile(name, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(name, stamp, stamp); err != nil {
			t.Fatal(err)
		}
	}
	write(path, "198.51.100.0/24\n")
	l, err := NewRangeList([]string{path}, RangeOptions{Refresh: 400 * time.Millisecond, FileCheck: 20 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	l.Start()
	defer l.Stop()
	waitFor := func(what string, in time.Duration, a netip.Addr) {
		t.Helper()
		deadline := time.Now().Add(in)
		for !l.Contains(a) {
			if time.Now().After(deadline) {
				t.Fatalf("%s: not read again", what)
			}
			time.Sleep(5 * time.Millisecond)
		}
	}
	waitFor("load", time.Second, netip.MustParseAddr("198.51.100.1"))

	tmp := filepath.Join(dir, "ranges.tmp")
	write(tmp, "198.51.101.0/24\n") // the same size
	if err := os.Rename(tmp, path); err != nil {
		t.Fatal(err)
	}
	waitFor("a file renamed in place", 200*time.Millisecond, netip.MustParseAddr("198.51.101.1"))

	write(path, "192.0.2.0/24\n\n\n\n")
	waitFor("a file edited in place, its time set back", 2*time.Second, netip.MustParseAddr("192.0.2.1"))
}

// TestRangeListFileMidWrite: a file read while it is written in place can
// end in a prefix cut short, which is a wider one ("203.0.113.0/2" is a
// quarter of IPv4) and would verify anyone in it as the crawler. A text
// that ends mid-line replaces the copy in use only once a second read
// finds it unchanged; the rest of the write, read before that, is taken.
func TestRangeListFileMidWrite(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "ranges.txt")
	write := func(s string) {
		t.Helper()
		if err := os.WriteFile(path, []byte(s), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write("198.51.100.0/24\n")
	l, err := NewRangeList([]string{path}, RangeOptions{Refresh: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	l.Refresh(ctx)
	old, wide, moved := netip.MustParseAddr("198.51.100.1"), netip.MustParseAddr("192.0.0.1"), netip.MustParseAddr("203.0.113.1")
	write("203.0.113.0/2")
	l.Refresh(ctx)
	if l.Contains(wide) || !l.Contains(old) {
		t.Fatalf("a text cut mid-line was taken at once: %v contained %v, %v contained %v", wide, l.Contains(wide), old, l.Contains(old))
	}
	write("203.0.113.0/24\n")
	l.Refresh(ctx)
	if l.Contains(wide) || l.Contains(old) || !l.Contains(moved) {
		t.Fatalf("the finished write is not the copy in use")
	}
	// A file that just has no final line end is taken at the second read.
	write("198.51.100.0/24")
	l.Refresh(ctx)
	l.Refresh(ctx)
	if !l.Contains(old) || l.Contains(moved) {
		t.Fatalf("a file without a final line end read twice is not the copy in use")
	}
}

// TestReadFileNotRegular: a list file replaced by a named pipe, or a
// directory or a device named as one, is an error, not a read that never
// ends (audit AC-F3).
func TestReadFileNotRegular(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{fifo, dir, "/dev/zero"} {
		done := make(chan error, 1)
		go func() {
			_, err := readFile(name, 1<<20)
			done <- err
		}()
		select {
		case err := <-done:
			if err == nil {
				t.Errorf("readFile(%s): no error", name)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("readFile(%s) blocked", name)
		}
	}
}
