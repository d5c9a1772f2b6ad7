package share

import (
	"context"
	"testing"
	"time"
)

// TestAdopt: a sharer that takes over from another of the same process
// (a reload that changed the interval) writes what the old one held, and
// does not take the old one's last write for another process's.
func TestAdopt(t *testing.T) {
	ctx := context.Background()
	store := &memStorage{data: map[string][]byte{}}
	renamed := func(old, name string) { t.Errorf("renamed from %s to %s", old, name) }
	old := New(store, "site", "id", time.Hour, Callbacks{Renamed: renamed})
	old.RecordFetch(Fetch{Bot: "GPTBot", Addr: "192.0.2.1", At: 1})
	old.Flush(ctx)
	old.RecordFetch(Fetch{Bot: "CCBot", Addr: "192.0.2.2", At: 2}) // not written yet

	next := New(store, "site", "id", 5*time.Second, Callbacks{Renamed: renamed})
	next.Adopt(old)
	next.restore(ctx)
	old.RecordPaced(1, "GPTBot")
	old.Flush(ctx) // the old one's last write, as it stops
	next.Sync(ctx)
	if err := next.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	b, err := next.readOwn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(b.Fetches) != 2 {
		t.Errorf("the new sharer wrote %d fetches, want both the old one held", len(b.Fetches))
	}
}

// TestAdoptRetiresTheOld: once another sharer took over, the old one's
// writes (its configuration draining, its last as it stops) cannot
// replace what the new one wrote under the same name: what the old one is
// told goes to the new one, and it writes nothing.
func TestAdoptRetiresTheOld(t *testing.T) {
	ctx := context.Background()
	store := &memStorage{data: map[string][]byte{}}
	old := New(store, "site", "id", time.Hour, Callbacks{})
	old.RecordFetch(Fetch{Bot: "GPTBot", Addr: "192.0.2.1", At: 1})
	old.Flush(ctx)
	next := New(store, "site", "id", 5*time.Second, Callbacks{})
	next.Adopt(old)
	next.restore(ctx)
	next.RecordTrap(Trap{Addr: "192.0.2.9", Site: 1, Until: time.Now().Add(time.Hour).UnixNano()})
	if err := next.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	old.RecordPaced(1, "GPTBot")
	old.RecordTrap(Trap{Addr: "192.0.2.10", Site: 1, Until: time.Now().Add(time.Hour).UnixNano()})
	old.Flush(ctx) // the old one's last write, as it stops
	for range 3 {
		next.Sync(ctx)
		next.Flush(ctx)
	}
	b, err := next.readOwn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(b.Trapped) != 2 || len(b.Fetches) != 1 {
		t.Errorf("the blob holds %d trapped addresses and %d fetches, want 2 (the new one's and the one told to the old) and 1", len(b.Trapped), len(b.Fetches))
	}
}

// TestGiveBack: a sharer that took over and is then unloaded while the
// one it took over from still serves (a reload that failed to start)
// hands its records back: the old one writes again, what it is told
// included, and the new one writes nothing as it stops.
func TestGiveBack(t *testing.T) {
	ctx := context.Background()
	store := &memStorage{data: map[string][]byte{}}
	old := New(store, "site", "id", time.Hour, Callbacks{})
	old.RecordTrap(Trap{Addr: "192.0.2.1", Site: 1, Until: time.Now().Add(time.Hour).UnixNano()})
	old.Flush(ctx)
	next := New(store, "site", "id", 2*time.Second, Callbacks{})
	next.Adopt(old)
	old.RecordTrap(Trap{Addr: "192.0.2.2", Site: 1, Until: time.Now().Add(time.Hour).UnixNano()}) // forwarded to next
	if next.Previous() != old {
		t.Fatal("the new sharer does not know the one it took over from")
	}
	next.GiveBack()
	next.Flush(ctx) // as it stops: nothing
	old.RecordTrap(Trap{Addr: "192.0.2.3", Site: 1, Until: time.Now().Add(time.Hour).UnixNano()})
	if err := old.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	b, err := old.readOwn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(b.Trapped) != 3 {
		t.Errorf("the blob holds %d trapped addresses, want the 3 the old sharer was told", len(b.Trapped))
	}
	// Once the old one is released, there is nothing to give back to.
	next2 := New(store, "site", "id", 2*time.Second, Callbacks{})
	next2.Adopt(old)
	old.Release()
	if next2.Previous() != nil {
		t.Error("a released sharer is still the one to give back to")
	}
}

// TestGiveBackPastAReleasedSharer: a configuration with two new sharers
// for one source (two sites, two intervals) that fails to start unloads
// them in turn; the serving one gets sharing back whatever the order.
func TestGiveBackPastAReleasedSharer(t *testing.T) {
	ctx := context.Background()
	store := &memStorage{data: map[string][]byte{}}
	a1 := New(store, "site", "id", time.Hour, Callbacks{})
	a2 := New(store, "site", "id", 2*time.Second, Callbacks{})
	a2.Adopt(a1)
	a3 := New(store, "site", "id", 3*time.Second, Callbacks{})
	a3.Adopt(a2)
	// a2 is unloaded first: not the newest, it gives nothing back.
	a2.Flush(ctx)
	a2.Release()
	a3.GiveBack()
	a3.Release()
	a1.RecordTrap(Trap{Addr: "192.0.2.1", Site: 1, Until: time.Now().Add(time.Hour).UnixNano()})
	if err := a1.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	b, err := a1.readOwn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(b.Trapped) != 1 {
		t.Errorf("the serving sharer wrote %d trapped addresses, want 1", len(b.Trapped))
	}
}
