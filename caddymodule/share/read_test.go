package share

import (
	"bytes"
	"context"
	"fmt"
	"testing"
	"time"
)

// TestBadBlobsAreNotReadAgain: a blob that does not parse is read once
// and not again until it changes; one larger than MaxBlobBytes is not
// read at all. Each is reported.
func TestBadBlobsAreNotReadAgain(t *testing.T) {
	ctx := context.Background()
	store := &memStorage{data: map[string][]byte{}}
	var warned []string
	var got []Fetch
	s := New(store, "site", "reader", time.Hour, Callbacks{
		Fetch: func(f Fetch) { got = append(got, f) },
		Warn:  func(w Warning) { warned = append(warned, w.Kind+" "+w.Key) },
	})
	damaged, huge := s.key("damaged"), s.key("huge")
	store.data[damaged] = []byte(`{"instance":"damaged","written":1,"fetches":[{"bot":"GPTB`)
	store.data[huge] = append([]byte(`{"fetches":[`), bytes.Repeat([]byte(`{"bot":"x"},`), MaxBlobBytes/10)...)
	for range 5 {
		if err := s.Sync(ctx); err != nil {
			t.Fatal(err)
		}
	}
	if n := store.loads[damaged]; n != 1 {
		t.Errorf("a damaged blob was read %d times in 5 intervals, want once", n)
	}
	if n := store.loads[huge]; n != 0 {
		t.Errorf("a blob of %d bytes was read %d times, want never", len(store.data[huge]), n)
	}
	if want := fmt.Sprint([]string{KindParse + " " + damaged, KindSize + " " + huge}); fmt.Sprint(warned) != want {
		t.Errorf("warnings %v, want %v", warned, want)
	}

	// Rewritten by its instance, it is read again.
	w := New(store, "site", "damaged", time.Hour, Callbacks{})
	w.RecordFetch(Fetch{Bot: "GPTBot", Addr: "192.0.2.1", At: 1})
	if err := w.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	s.Sync(ctx)
	if len(got) != 1 || got[0].Bot != "GPTBot" {
		t.Errorf("after the blob was rewritten, got %v; want its fetch", got)
	}
}

// unmarkedStorage is a storage whose Stat gives no modification time, as
// some storage modules may: blobs are then read every interval.
type unmarkedStorage struct{ *memStorage }

func (u unmarkedStorage) Stat(ctx context.Context, k string) (Info, error) {
	i, err := u.memStorage.Stat(ctx, k)
	return Info{Size: i.Size}, err
}

// TestUnmarkedStorage: without modification times a blob is read each
// interval, and applied once.
func TestUnmarkedStorage(t *testing.T) {
	ctx := context.Background()
	store := unmarkedStorage{&memStorage{data: map[string][]byte{}}}
	var got int
	a := New(store, "site", "a", time.Hour, Callbacks{})
	b := New(store, "site", "b", time.Hour, Callbacks{Fetch: func(Fetch) { got++ }})
	a.RecordFetch(Fetch{Bot: "GPTBot", Addr: "192.0.2.1", At: 1})
	a.Flush(ctx)
	for range 3 {
		b.Sync(ctx)
	}
	if got != 1 {
		t.Errorf("a blob was applied %d times, want once", got)
	}
	a.RecordFetch(Fetch{Bot: "CCBot", Addr: "192.0.2.2", At: 2})
	a.Flush(ctx)
	b.Sync(ctx)
	if got != 3 {
		t.Errorf("after a change %d records were applied, want 3", got)
	}
}

// TestUnreadBlobIsNotDeleted: a blob that changed but could not be read
// is not judged by what was known of it before: a gone instance's blob,
// rewritten by that instance come back, is not deleted because a read
// failed.
func TestUnreadBlobIsNotDeleted(t *testing.T) {
	ctx := context.Background()
	mem := &memStorage{data: map[string][]byte{}}
	store := &failingStorage{memStorage: mem, load: map[string]error{}}
	clock := time.Unix(1_700_000_000, 0)
	at := func(s *Sharer) *Sharer { s.now = func() time.Time { return clock }; return s }
	reader := at(New(store, "site", "reader", time.Hour, Callbacks{}))
	back := at(New(store, "site", "back", time.Hour, Callbacks{}))
	back.RecordTrap(Trap{Addr: "192.0.2.1", Until: clock.Add(8*24*time.Hour + time.Hour).UnixNano()})
	back.Flush(ctx)
	clock = clock.Add(8 * 24 * time.Hour) // gone for 8 days, a trap still held
	reader.Sync(ctx)

	clock = clock.Add(2 * time.Hour) // back, and writing; the trap is over
	back.RecordFetch(Fetch{Bot: "GPTBot", Addr: "192.0.2.2", At: clock.UnixNano()})
	back.Flush(ctx)
	key := back.key("back")
	store.load[key] = fmt.Errorf("timeout")
	reader.Sync(ctx)
	if _, ok := mem.data[key]; !ok {
		t.Error("a live instance's blob was deleted when it could not be read")
	}
}
