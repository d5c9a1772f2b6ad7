package share

import (
	"context"
	"fmt"
	"io/fs"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// memStorage is a storage in memory, standing in for Caddy's file system
// storage (which the integration tests use for real), with a count of
// writes and reads. Its modification times are a count of writes.
type memStorage struct {
	mu       sync.Mutex
	data     map[string][]byte
	modified map[string]int64
	writes   int
	loads    map[string]int
}

func (m *memStorage) Store(_ context.Context, k string, v []byte) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.data[k] = append([]byte(nil), v...)
	m.writes++
	if m.modified == nil {
		m.modified = map[string]int64{}
	}
	m.modified[k] = int64(m.writes)
	return nil
}

func (m *memStorage) Load(_ context.Context, k string) ([]byte, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	v, ok := m.data[k]
	if !ok {
		return nil, fs.ErrNotExist
	}
	if m.loads == nil {
		m.loads = map[string]int{}
	}
	m.loads[k]++
	return v, nil
}

func (m *memStorage) Stat(_ context.Context, k string) (Info, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	v, ok := m.data[k]
	if !ok {
		return Info{}, fs.ErrNotExist
	}
	// A value put in data by a test, not stored, was modified at 1.
	return Info{Modified: time.Unix(0, 1+m.modified[k]), Size: int64(len(v))}, nil
}

func (m *memStorage) Delete(_ context.Context, k string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if _, ok := m.data[k]; !ok {
		return fs.ErrNotExist
	}
	delete(m.data, k)
	return nil
}

func (m *memStorage) List(_ context.Context, prefix string, _ bool) ([]string, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []string
	for k := range m.data {
		if strings.HasPrefix(k, prefix+"/") {
			out = append(out, k)
		}
	}
	slices.Sort(out) // so that tests see warnings in one order
	return out, nil
}

func TestShareBetweenInstances(t *testing.T) {
	ctx := context.Background()
	store := &memStorage{data: map[string][]byte{}}
	var got []Fetch
	var paced int64
	a := New(store, "site", "a", time.Hour, Callbacks{})
	b := New(store, "site", "b", time.Hour, Callbacks{
		Fetch: func(f Fetch) { got = append(got, f) },
		Paced: func(_ uint64, _ string, n, _ int64) { paced += n },
	})
	// A flood of fetches is one write, of the newest records.
	for i := range 3 * MaxFetches {
		a.RecordFetch(Fetch{Bot: "GPTBot", Addr: fmt.Sprintf("10.0.%d.%d", i/256%256, i%256), At: int64(i), ETag: `"v1"`})
	}
	a.RecordPaced(1, "GPTBot")
	a.RecordPaced(1, "GPTBot")
	if err := a.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	if err := a.Flush(ctx); err != nil { // nothing new: no write
		t.Fatal(err)
	}
	if store.writes != 1 {
		t.Errorf("%d writes, want 1", store.writes)
	}
	if err := b.Sync(ctx); err != nil {
		t.Fatal(err)
	}
	if len(got) != MaxFetches || got[0].At != 2*MaxFetches {
		t.Errorf("B got %d records starting at %d, want the newest %d", len(got), got[0].At, MaxFetches)
	}
	if paced != 2 {
		t.Errorf("B was charged %d requests, want 2", paced)
	}
	// Unchanged blobs are not read again.
	got = nil
	b.Sync(ctx)
	if len(got) != 0 {
		t.Errorf("an unchanged blob was applied again: %d records", len(got))
	}
	// A restarted A knows what it knew.
	var restored int
	a2 := New(store, "site", "a", time.Hour, Callbacks{Fetch: func(Fetch) { restored++ }})
	a2.restore(ctx)
	if restored != MaxFetches {
		t.Errorf("a restarted instance restored %d records, want %d", restored, MaxFetches)
	}
	// Another site's state is apart.
	other := New(store, "other site", "c", time.Hour, Callbacks{Fetch: func(Fetch) { t.Error("another site's records leaked") }})
	other.Sync(ctx)
}

// TestOneClientCannotPushOthersOut: a flood of trap hits, or of fetches,
// from one address rewrites that address's record: the others' stay in
// the blob, and the blob stays small.
func TestOneClientCannotPushOthersOut(t *testing.T) {
	ctx := context.Background()
	store := &memStorage{data: map[string][]byte{}}
	var traps []Trap
	var fetches []Fetch
	a := New(store, "site", "a", time.Hour, Callbacks{})
	b := New(store, "site", "b", time.Hour, Callbacks{
		Trap:  func(t Trap) { traps = append(traps, t) },
		Fetch: func(f Fetch) { fetches = append(fetches, f) },
	})
	a.RecordTrap(Trap{Addr: "192.0.2.1", Site: 1, Until: 100})
	a.RecordFetch(Fetch{Bot: "GPTBot", Addr: "192.0.2.1", Site: 1, At: 1, ETag: `"v1"`})
	for i := range 3 * MaxTrapped {
		a.RecordTrap(Trap{Addr: "192.0.2.200", Site: 1, Until: int64(200 + i)})
		a.RecordFetch(Fetch{Bot: "generic", Addr: "192.0.2.200", Site: 1, Agent: 7, At: int64(2 + i), ETag: `"v1"`})
	}
	if err := a.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	if err := b.Sync(ctx); err != nil {
		t.Fatal(err)
	}
	if len(traps) != 2 || traps[0].Addr != "192.0.2.1" || traps[1].Until != int64(200+3*MaxTrapped-1) {
		t.Errorf("B got traps %v; want 192.0.2.1's and the flooder's newest", traps)
	}
	if len(fetches) != 2 || fetches[0].Bot != "GPTBot" || fetches[1].At != int64(2+3*MaxTrapped-1) {
		t.Errorf("B got %d fetches (%v...); want GPTBot's and the flooder's newest", len(fetches), fetches[:min(len(fetches), 2)])
	}
}

// TestRefreshedRecordIsNewest: a record added again is the newest, not
// the first to go when others come in after it.
func TestRefreshedRecordIsNewest(t *testing.T) {
	ctx := context.Background()
	store := &memStorage{data: map[string][]byte{}}
	var got []Fetch
	a := New(store, "site", "a", time.Hour, Callbacks{})
	b := New(store, "site", "b", time.Hour, Callbacks{Fetch: func(f Fetch) { got = append(got, f) }})
	gpt := Fetch{Bot: "GPTBot", Addr: "192.0.2.1", Site: 1, At: 1, ETag: `"v1"`}
	a.RecordFetch(gpt)
	for i := range MaxFetches - 1 {
		a.RecordFetch(Fetch{Bot: "generic", Addr: fmt.Sprintf("10.0.%d.%d", i/256, i%256), Site: 1, At: int64(2 + i), ETag: `"v1"`})
	}
	gpt.At = 99_999
	a.RecordFetch(gpt) // fetched again: now the newest
	a.RecordFetch(Fetch{Bot: "generic", Addr: "10.9.9.9", Site: 1, At: 100_000, ETag: `"v1"`})
	if err := a.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	if err := b.Sync(ctx); err != nil {
		t.Fatal(err)
	}
	found := false
	for _, f := range got {
		found = found || f.Bot == "GPTBot" && f.At == 99_999
	}
	if len(got) != MaxFetches || !found {
		t.Errorf("B got %d records, GPTBot's refreshed one among them: %v; want %d with it", len(got), found, MaxFetches)
	}
}

// BenchmarkRecordFetch is what sharing adds to a bot's fetch of
// robots.txt on the request path: an append to a bounded buffer.
func BenchmarkRecordFetch(b *testing.B) {
	s := New(&memStorage{data: map[string][]byte{}}, "site", "a", time.Hour, Callbacks{})
	f := Fetch{Bot: "GPTBot", Addr: "203.0.113.7", At: 1, ETag: `"v1"`}
	b.ReportAllocs()
	for b.Loop() {
		s.RecordFetch(f)
	}
}

// BenchmarkRecordPaced is what sharing adds to a named crawler's request
// under a Crawl-delay.
func BenchmarkRecordPaced(b *testing.B) {
	s := New(&memStorage{data: map[string][]byte{}}, "site", "a", time.Hour, Callbacks{})
	b.ReportAllocs()
	for b.Loop() {
		s.RecordPaced(1, "GPTBot")
	}
}

// TestSharedInstanceName: processes that share Caddy's data directory
// share its instance ID. Each write of one would erase the other's; they
// must notice, part, and still see each other's records.
func TestSharedInstanceName(t *testing.T) {
	ctx := context.Background()
	store := &memStorage{data: map[string][]byte{}}
	var renamed []string
	var gotA, gotB []Fetch
	a := New(store, "site", "id", time.Hour, Callbacks{
		Fetch:   func(f Fetch) { gotA = append(gotA, f) },
		Renamed: func(_, name string) { renamed = append(renamed, name) },
	})
	b := New(store, "site", "id", time.Hour, Callbacks{
		Fetch:   func(f Fetch) { gotB = append(gotB, f) },
		Renamed: func(_, name string) { renamed = append(renamed, name) },
	})
	a.RecordFetch(Fetch{Bot: "GPTBot", Addr: "192.0.2.1", At: 1})
	b.RecordFetch(Fetch{Bot: "CCBot", Addr: "192.0.2.2", At: 2})
	// Three intervals of both: write, then read.
	for range 3 {
		a.Flush(ctx)
		b.Flush(ctx)
		a.Sync(ctx)
		b.Sync(ctx)
	}
	if len(renamed) == 0 {
		t.Fatal("neither process noticed the other writing under its name")
	}
	has := func(got []Fetch, bot string) bool {
		for _, f := range got {
			if f.Bot == bot {
				return true
			}
		}
		return false
	}
	if !has(gotA, "CCBot") || !has(gotB, "GPTBot") {
		t.Errorf("records lost between processes sharing a name: A saw %v, B saw %v", gotA, gotB)
	}
	// A restarted process (same name, written before it started) is not
	// another writer.
	c := New(store, "site", a.instance, time.Hour, Callbacks{Renamed: func(_, name string) { t.Errorf("a restarted process renamed itself to %s", name) }})
	c.restore(ctx)
}

// TestGoneInstances: a blob that no instance has written for Expire is a
// gone instance's (every live one writes at least every Refresh); it is
// not read, and it is deleted, unless an address it trapped is still held.
func TestGoneInstances(t *testing.T) {
	ctx := context.Background()
	store := &memStorage{data: map[string][]byte{}}
	clock := time.Unix(1_700_000_000, 0)
	at := func(s *Sharer) *Sharer { s.now = func() time.Time { return clock }; return s }

	var gotFetch []string
	var gotTrap []string
	reader := at(New(store, "site", "reader", time.Hour, Callbacks{
		Fetch: func(f Fetch) { gotFetch = append(gotFetch, f.Bot) },
		Trap:  func(tr Trap) { gotTrap = append(gotTrap, tr.Addr) },
	}))
	live := at(New(store, "site", "live", time.Hour, Callbacks{}))
	gone := at(New(store, "site", "gone", time.Hour, Callbacks{}))
	trapper := at(New(store, "site", "trapper", time.Hour, Callbacks{}))

	live.RecordFetch(Fetch{Bot: "LiveBot", Addr: "192.0.2.1", At: clock.UnixNano()})
	gone.RecordFetch(Fetch{Bot: "GoneBot", Addr: "192.0.2.2", At: clock.UnixNano()})
	trapper.RecordTrap(Trap{Addr: "192.0.2.3", Until: clock.Add(30 * 24 * time.Hour).UnixNano()})
	for _, s := range []*Sharer{live, gone, trapper} {
		if err := s.Flush(ctx); err != nil {
			t.Fatal(err)
		}
	}

	// Eight days on, "live" has kept writing (nothing new, but it
	// holds records); "gone" and "trapper" have stopped.
	for range 8 * 24 {
		clock = clock.Add(time.Hour)
		if err := live.Flush(ctx); err != nil {
			t.Fatal(err)
		}
	}
	if err := reader.Sync(ctx); err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(gotFetch) != "[LiveBot]" {
		t.Errorf("fetches read: %v, want only the live instance's", gotFetch)
	}
	if fmt.Sprint(gotTrap) != "[192.0.2.3]" {
		t.Errorf("traps read: %v, want the trap still held", gotTrap)
	}
	for name, want := range map[string]bool{"live": true, "gone": false, "trapper": true} {
		if _, ok := store.data[reader.key(name)]; ok != want {
			t.Errorf("blob of %q kept: %v, want %v", name, ok, want)
		}
	}

	// Once its trap ends, the trapper's blob goes too.
	clock = clock.Add(30 * 24 * time.Hour)
	live.Flush(ctx)
	reader.Sync(ctx)
	if _, ok := store.data[reader.key("trapper")]; ok {
		t.Error("a gone instance's blob was kept after its traps ended")
	}
	if len(reader.seen) != 1 {
		t.Errorf("reader remembers %d blobs, want 1 (the live one)", len(reader.seen))
	}
}

// TestRefreshOnlyWhatIsHeld: an instance with nothing to share writes
// nothing, however long it runs; one that holds records rewrites them
// once a Refresh, not every interval.
func TestRefreshOnlyWhatIsHeld(t *testing.T) {
	ctx := context.Background()
	store := &memStorage{data: map[string][]byte{}}
	clock := time.Unix(1_700_000_000, 0)
	s := New(store, "site", "a", time.Hour, Callbacks{})
	s.now = func() time.Time { return clock }
	step := func(d time.Duration) {
		for end := clock.Add(d); clock.Before(end); clock = clock.Add(5 * time.Second) {
			if err := s.Flush(ctx); err != nil {
				t.Fatal(err)
			}
		}
	}
	step(3 * time.Hour)
	if store.writes != 0 {
		t.Fatalf("%d writes with nothing to share, want 0", store.writes)
	}
	s.RecordFetch(Fetch{Bot: "GPTBot", Addr: "192.0.2.1", At: 1})
	step(3 * time.Hour)
	if store.writes != 3 { // the change, then one an hour
		t.Errorf("%d writes in 3 hours, want 3", store.writes)
	}
	// A restarted instance counts from when its blob was written.
	s.Flush(ctx) // due now
	r := New(store, "site", "a", time.Hour, Callbacks{})
	r.now = func() time.Time { return clock }
	r.restore(ctx)
	before := store.writes
	r.Flush(ctx)
	if store.writes != before {
		t.Error("a restarted instance rewrote a fresh blob at once")
	}
}

// BenchmarkRecordFetchFlood is BenchmarkRecordFetch for a client that
// fetches robots.txt under a new User-Agent each time: past its quota,
// each record replaces its own oldest.
func BenchmarkRecordFetchFlood(b *testing.B) {
	s := New(&memStorage{data: map[string][]byte{}}, "site", "a", time.Hour, Callbacks{})
	f := Fetch{Bot: "generic", Addr: "203.0.113.7", At: 1, ETag: `"v1"`}
	b.ReportAllocs()
	for b.Loop() {
		f.Agent++
		s.RecordFetch(f)
	}
}

// TestOwnBlobGoneIsWrittenAgain: an instance whose blob disappears from
// the storage (wiped, cleaned up by hand) writes what it holds again at
// the next interval, not an hour later, so that a restart meanwhile
// still knows what it knew; with nothing held, it writes nothing.
func TestOwnBlobGoneIsWrittenAgain(t *testing.T) {
	for _, tc := range []struct {
		name   string
		record func(*Sharer)
		want   int // writes after the blob is gone
	}{
		{"fetch held", func(s *Sharer) { s.RecordFetch(Fetch{Bot: "GPTBot", Addr: "192.0.2.1", At: 1, ETag: `"v1"`}) }, 1},
		{"trap held", func(s *Sharer) { s.RecordTrap(Trap{Addr: "192.0.2.2", Site: 1, Until: 1 << 62}) }, 1},
		{"nothing held", func(*Sharer) {}, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx := context.Background()
			store := &memStorage{data: map[string][]byte{}}
			s := New(store, "site", "a", time.Second, Callbacks{})
			tc.record(s)
			s.Flush(ctx)
			before := store.writes
			store.Delete(ctx, s.key("a"))
			for range 3 {
				s.Sync(ctx)
				s.Flush(ctx)
			}
			if got := store.writes - before; got != tc.want {
				t.Errorf("%d writes after the blob was deleted, want %d", got, tc.want)
			}
			if tc.want == 0 {
				return
			}
			var restored int
			r := New(store, "site", "a", time.Second, Callbacks{
				Fetch: func(Fetch) { restored++ },
				Trap:  func(Trap) { restored++ },
			})
			r.restore(ctx)
			if restored != 1 {
				t.Errorf("a restarted instance restored %d records, want 1", restored)
			}
		})
	}
}

// dirStorage is memStorage listing as Caddy's file system storage does:
// a prefix with no key under it is a directory that does not exist, and
// List says so with fs.ErrNotExist.
type dirStorage struct{ *memStorage }

func (d dirStorage) List(ctx context.Context, prefix string, recursive bool) ([]string, error) {
	keys, err := d.memStorage.List(ctx, prefix, recursive)
	if err == nil && len(keys) == 0 {
		return nil, fs.ErrNotExist
	}
	return keys, err
}

// TestOwnDirectoryGoneIsWrittenAgain: with the whole directory of blobs
// gone (rm -r of the storage's robots_txt), which the file system
// storage lists as not existing, the instance writes what it holds again
// at the next interval, as when its blob alone is gone.
func TestOwnDirectoryGoneIsWrittenAgain(t *testing.T) {
	ctx := context.Background()
	mem := &memStorage{data: map[string][]byte{}}
	s := New(dirStorage{mem}, "site", "a", time.Second, Callbacks{})
	s.RecordFetch(Fetch{Bot: "GPTBot", Addr: "192.0.2.1", At: 1, ETag: `"v1"`})
	s.Flush(ctx)
	mem.Delete(ctx, s.key("a"))
	before := mem.writes
	s.Sync(ctx)
	s.Flush(ctx)
	if got := mem.writes - before; got != 1 {
		t.Errorf("%d writes after the directory was removed, want 1", got)
	}
}

// TestPacedChargedOnce: an instance's pacing counts are charged by
// another while they are news; a sharer that reads the blob again later,
// after a reload that changed the interval or at a start, charges nothing
// of requests long past (audit AH-F5: an idle crawler got 429 after one
// request once a reload had re-read the other instances' blobs).
func TestPacedChargedOnce(t *testing.T) {
	ctx := context.Background()
	store := &memStorage{data: map[string][]byte{}}
	clock := time.Unix(1_700_000_000, 0)
	a := New(store, "site", "a", time.Second, Callbacks{})
	a.now = func() time.Time { return clock }
	for range 3 {
		a.RecordPaced(1, "MyMon")
	}
	if err := a.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	var paced int64
	cb := Callbacks{Paced: func(_ uint64, _ string, n, _ int64) { paced += n }}
	b := New(store, "site", "b", time.Second, cb)
	b.now = func() time.Time { return clock.Add(500 * time.Millisecond) }
	b.Sync(ctx)
	if paced != 3 {
		t.Fatalf("charged %d requests at first, want 3", paced)
	}
	clock = clock.Add(20 * time.Second)
	b2 := New(store, "site", "b", 2*time.Second, cb)
	b2.now = func() time.Time { return clock }
	b2.Adopt(b)
	b2.Sync(ctx)
	if paced != 3 {
		t.Errorf("charged %d requests after a reload 20 s later, want still 3", paced)
	}
}
