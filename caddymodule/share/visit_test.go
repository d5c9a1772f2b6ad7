package share

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"
)

// countingStorage counts what a storage is asked: Stats, listings and
// the keys they return.
type countingStorage struct {
	Storage
	mu                   sync.Mutex
	stats, lists, listed int
}

func (c *countingStorage) Stat(ctx context.Context, k string) (Info, error) {
	c.mu.Lock()
	c.stats++
	c.mu.Unlock()
	return c.Storage.Stat(ctx, k)
}

func (c *countingStorage) List(ctx context.Context, prefix string, recursive bool) ([]string, error) {
	keys, err := c.Storage.List(ctx, prefix, recursive)
	c.mu.Lock()
	c.lists++
	c.listed += len(keys)
	c.mu.Unlock()
	return keys, err
}

// take returns the counts since the last take.
func (c *countingStorage) take() (stats, lists, listed int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	stats, lists, listed = c.stats, c.lists, c.listed
	c.stats, c.lists, c.listed = 0, 0, 0
	return stats, lists, listed
}

// TestManyBlobsBoundTheWork: however many blobs someone who can write to
// the storage puts there, a Sync looks at MaxBlobsPerSync of them at
// most, and lists the storage once every as many Syncs as it takes to
// look at as many keys as it holds; a damaged blob is read once; the
// blobs of the instances sharing are still read, a known one's change at
// the next Sync, a new one's within a listing; and the warnings come one
// a minute per kind, counting the blobs they do not name.
func TestManyBlobsBoundTheWork(t *testing.T) {
	const junk = 20_000
	for _, tc := range []struct {
		name string
		// blob is the i-th junk blob; with nil, reading it fails.
		blob func(i int, now time.Time) []byte
		// liveWithin is how many Syncs a known instance's change may
		// take to be read.
		liveWithin int
		// readOnce: each junk blob is read once, and each counted once
		// in the warnings.
		readOnce bool
	}{
		{
			name:       "damaged",
			blob:       func(int, time.Time) []byte { return []byte("{") },
			liveWithin: 1, readOnce: true,
		},
		{
			name: "usable",
			blob: func(i int, now time.Time) []byte {
				return fmt.Appendf(nil, `{"instance":"junk%d","written":%d}`, i, now.UnixNano())
			},
			liveWithin: junk/(MaxBlobsPerSync-2*kindShare) + 1,
		},
		{name: "unreadable", liveWithin: 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx := context.Background()
			mem := &memStorage{data: map[string][]byte{}}
			failing := &failingStorage{memStorage: mem, load: map[string]error{}}
			store := &countingStorage{Storage: failing}
			clock := time.Unix(1_700_000_000, 0)
			at := func(s *Sharer) *Sharer { s.now = func() time.Time { return clock }; return s }
			var got []string
			var warned []Warning
			reader := at(New(store, "site", "reader", time.Second, Callbacks{
				Fetch: func(f Fetch) { got = append(got, f.Bot) },
				Warn:  func(w Warning) { warned = append(warned, w) },
			}))
			live := at(New(mem, "site", "live", time.Second, Callbacks{}))
			live.RecordFetch(Fetch{Bot: "LiveBot", Addr: "192.0.2.1", At: clock.UnixNano()})
			live.Flush(ctx)
			reader.Sync(ctx)
			for i := range junk {
				k := reader.key(fmt.Sprintf("junk%d@x", i))
				if tc.blob == nil {
					mem.data[k] = []byte("{}")
					failing.load[k] = errors.New("permission denied")
				} else {
					mem.data[k] = tc.blob(i, clock)
				}
			}
			store.take()

			keys := junk + 3 // the live, reader's and late instances'
			period := (keys-1)/MaxBlobsPerSync + 1
			syncs := 0
			sync := func() {
				t.Helper()
				clock = clock.Add(time.Second)
				reader.Sync(ctx)
				syncs++
				stats, lists, listed := store.take()
				if stats > MaxBlobsPerSync+1 { // and this instance's own
					t.Fatalf("Sync %d asked the storage for %d Stats, want at most %d", syncs, stats, MaxBlobsPerSync+1)
				}
				if lists > 0 && listed > keys {
					t.Fatalf("Sync %d listed %d keys, want %d", syncs, listed, keys)
				}
				if lists > 0 && (syncs-1)%period != 0 {
					t.Fatalf("Sync %d listed the storage, want once every %d", syncs, period)
				}
			}
			for range 2 * period {
				sync()
			}

			// A known instance's change.
			got = nil
			live.RecordFetch(Fetch{Bot: "LiveBot2", Addr: "192.0.2.2", At: clock.UnixNano()})
			live.Flush(ctx)
			for n := 1; len(got) == 0; n++ {
				if n > tc.liveWithin {
					t.Fatalf("a known instance's change was not read in %d Syncs", tc.liveWithin)
				}
				sync()
			}
			// A new instance, among blobs all looked at before.
			late := at(New(mem, "site", "late", time.Second, Callbacks{}))
			late.RecordFetch(Fetch{Bot: "LateBot", Addr: "192.0.2.3", At: clock.UnixNano()})
			late.Flush(ctx)
			got = nil
			for n := 1; len(got) == 0 || got[len(got)-1] != "LateBot"; n++ {
				if n > period+1 {
					t.Fatalf("a new instance's blob was not read in %d Syncs", period+1)
				}
				sync()
			}

			for range int(WarnEvery/time.Second) + 1 {
				sync()
			}
			if tc.readOnce {
				for i := range junk {
					if n := mem.loads[reader.key(fmt.Sprintf("junk%d@x", i))]; n != 1 {
						t.Fatalf("junk blob %d was read %d times, want once", i, n)
					}
				}
			}
			byKind := map[string]int{}
			counted := 0
			for _, w := range warned {
				byKind[w.Kind]++
				counted += 1 + w.Similar
			}
			most := syncs/int(WarnEvery/time.Second) + 1
			for kind, n := range byKind {
				if n > most {
					t.Errorf("%d warnings of kind %s in %d Syncs a second apart, want at most %d", n, kind, syncs, most)
				}
			}
			if tc.readOnce && counted != junk {
				t.Errorf("the warnings count %d damaged blobs, want %d", counted, junk)
			}
			if tc.blob == nil && byKind[KindRead] == 0 {
				t.Error("unreadable blobs were not warned of")
			}
		})
	}
}

// TestShares: each kind of blob gets its share of a Sync, the rest going
// to known blobs first.
func TestShares(t *testing.T) {
	for _, tc := range []struct {
		n, want [kinds]int
	}{
		{[kinds]int{3, 2, 1}, [kinds]int{3, 2, 1}},
		{[kinds]int{5000, 0, 0}, [kinds]int{MaxBlobsPerSync, 0, 0}},
		{[kinds]int{5000, 1, 20_000}, [kinds]int{MaxBlobsPerSync - kindShare - 1, 1, kindShare}},
		{[kinds]int{2, 20_000, 20_000}, [kinds]int{2, MaxBlobsPerSync - kindShare - 2, kindShare}},
		{[kinds]int{2, 0, 20_000}, [kinds]int{2, 0, MaxBlobsPerSync - 2}},
	} {
		if got := shares(tc.n); got != tc.want {
			t.Errorf("shares(%v) = %v, want %v", tc.n, got, tc.want)
		}
	}
}
