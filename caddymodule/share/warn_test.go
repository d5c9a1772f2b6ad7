package share

import (
	"context"
	"errors"
	"fmt"
	"sync"
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

// stallingStorage answers every call with err or, with none, only when
// the call's context ends, as a storage that honours its context does
// (certmagic's file system storage lists under it). asked is closed at
// the first call.
type stallingStorage struct {
	err   error
	asked chan struct{}
	once  sync.Once
}

func (s *stallingStorage) answer(ctx context.Context) error {
	s.once.Do(func() { close(s.asked) })
	if s.err != nil {
		return s.err
	}
	<-ctx.Done()
	return ctx.Err()
}

func (s *stallingStorage) Store(ctx context.Context, _ string, _ []byte) error { return s.answer(ctx) }
func (s *stallingStorage) Load(ctx context.Context, _ string) ([]byte, error) {
	return nil, s.answer(ctx)
}
func (s *stallingStorage) Delete(ctx context.Context, _ string) error { return s.answer(ctx) }
func (s *stallingStorage) List(ctx context.Context, _ string, _ bool) ([]string, error) {
	return nil, s.answer(ctx)
}
func (s *stallingStorage) Stat(ctx context.Context, _ string) (Info, error) {
	return Info{}, s.answer(ctx)
}

// TestStoppingIsNoStorageFailure: a read that ends because the sharer
// stops (its configuration cleaned up, as caddy validate does at once) is
// no trouble with the storage, and is not reported; a read that fails, or
// that the storage does not answer in time, still is.
func TestStoppingIsNoStorageFailure(t *testing.T) {
	for _, tc := range []struct {
		name     string
		err      error // the storage's answer; nil: it waits for the context
		timeout  bool  // the context has a deadline; else it is cancelled
		reported bool
	}{
		{"a read cancelled as the sharer stops", nil, false, false},
		{"a read that fails", errors.New("permission denied"), false, true},
		{"a read the storage does not answer in time", nil, true, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			if tc.timeout {
				ctx, cancel = context.WithTimeout(context.Background(), 20*time.Millisecond)
			}
			defer cancel()
			store := &stallingStorage{err: tc.err, asked: make(chan struct{})}
			var mu sync.Mutex
			var got []Warning
			s := New(store, "site", "a", time.Hour, Callbacks{Warn: func(w Warning) {
				mu.Lock()
				got = append(got, w)
				mu.Unlock()
				cancel() // a failure reported: the sharer may stop
			}})
			done := make(chan struct{})
			go func() {
				s.Run(ctx)
				close(done)
			}()
			<-store.asked
			if tc.err == nil && !tc.timeout {
				cancel()
			}
			select {
			case <-done:
			case <-time.After(5 * time.Second):
				t.Fatal("Run did not return once its context ended")
			}
			mu.Lock()
			defer mu.Unlock()
			switch {
			case tc.reported && len(got) == 0:
				t.Error("no warning; want the failed read reported")
			case !tc.reported && len(got) > 0:
				t.Errorf("warnings %+v; want none: the read ended because the sharer stopped", got)
			}
			for _, w := range got {
				if w.Kind != KindRead {
					t.Errorf("warning %+v; want a read's", w)
				}
			}
		})
	}
}
