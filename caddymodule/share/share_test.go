package share

import (
	"context"
	"fmt"
	"io/fs"
	"strings"
	"sync"
	"testing"
	"time"
)

// memStorage is a storage in memory, standing in for Caddy's file system
// storage (which the integration tests use for real), with a count of
// writes.
type memStorage struct {
	mu     sync.Mutex
	data   map[string][]byte
	writes int
}

func (m *memStorage) Store(_ context.Context, k string, v []byte) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.data[k] = append([]byte(nil), v...)
	m.writes++
	return nil
}

func (m *memStorage) Load(_ context.Context, k string) ([]byte, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	v, ok := m.data[k]
	if !ok {
		return nil, fs.ErrNotExist
	}
	return v, nil
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
		Paced: func(_ string, n int64) { paced += n },
	})
	// A flood of fetches is one write, of the newest records.
	for i := range 3 * MaxFetches {
		a.RecordFetch(Fetch{Bot: "GPTBot", Addr: fmt.Sprintf("10.0.%d.%d", i/256%256, i%256), At: int64(i), ETag: `"v1"`})
	}
	a.RecordPaced("GPTBot")
	a.RecordPaced("GPTBot")
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
		s.RecordPaced("GPTBot")
	}
}
