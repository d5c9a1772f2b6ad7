package share

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"
)

// failingStorage is a memStorage whose writes, and reads of some keys,
// fail.
type failingStorage struct {
	*memStorage
	store error
	load  map[string]error
}

func (f *failingStorage) Store(ctx context.Context, k string, v []byte) error {
	if f.store != nil {
		return f.store
	}
	return f.memStorage.Store(ctx, k, v)
}

func (f *failingStorage) Load(ctx context.Context, k string) ([]byte, error) {
	if err := f.load[k]; err != nil {
		return nil, err
	}
	return f.memStorage.Load(ctx, k)
}

// TestStorageFailuresAreReported: a write, a read or a blob that does not
// parse is reported with its key and error, at most once a minute for one
// kind and key with a count of those held back, and the last write at
// shutdown always.
func TestStorageFailuresAreReported(t *testing.T) {
	ctx := context.Background()
	mem := &memStorage{data: map[string][]byte{}}
	store := &failingStorage{memStorage: mem, load: map[string]error{}}
	clock := time.Unix(1_700_000_000, 0)
	var got []Warning
	s := New(store, "site", "a", time.Hour, Callbacks{Warn: func(w Warning) { got = append(got, w) }})
	s.now = func() time.Time { return clock }
	own := s.key("a")
	damaged, unreadable := s.key("damaged"), s.key("unreadable")
	mem.data[damaged] = []byte(`{"instance":"damaged","written":1,"fetches":[{"bot":"GPT`)
	mem.data[unreadable] = []byte(`{}`)
	store.load[unreadable] = errors.New("permission denied")
	store.store = errors.New("disk full")

	for range 3 { // three intervals within a minute
		s.RecordFetch(Fetch{Bot: "GPTBot", Addr: "192.0.2.1", At: 1})
		s.Flush(ctx)
		s.Sync(ctx)
		clock = clock.Add(5 * time.Second)
	}
	clock = clock.Add(time.Minute)
	s.Flush(ctx)

	type seen struct {
		kind, key  string
		suppressed int
	}
	var kinds []seen
	for _, w := range got {
		if w.Err == nil || w.Message() == "" {
			t.Errorf("warning %+v has no error or message", w)
		}
		kinds = append(kinds, seen{w.Kind, w.Key, w.Suppressed})
	}
	want := []seen{
		{KindStore, own, 0},
		{KindParse, damaged, 0},
		{KindRead, unreadable, 0},
		{KindStore, own, 2},
	}
	if fmt.Sprint(kinds) != fmt.Sprint(want) {
		t.Errorf("warnings %v, want %v", kinds, want)
	}

	// The last write, at shutdown, is reported even a moment after
	// another.
	got = nil
	s.RecordFetch(Fetch{Bot: "CCBot", Addr: "192.0.2.2", At: 2})
	done, cancel := context.WithCancel(ctx)
	cancel()
	s.Run(done)
	if len(got) == 0 || got[len(got)-1].Kind != KindStore {
		t.Errorf("the failed write at shutdown was not reported: %+v", got)
	}
}
