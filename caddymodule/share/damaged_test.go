package share

import (
	"context"
	"errors"
	"fmt"
	"path"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestDamagedOwnBlob: an instance that finds its own blob damaged at a
// restart restores what came before the damage, says so, and keeps the
// damaged blob under another key before writing a new one; one copy per
// key, however often it happens.
func TestDamagedOwnBlob(t *testing.T) {
	ctx := context.Background()
	store := &memStorage{data: map[string][]byte{}}
	clock := time.Unix(1_700_000_000, 0)
	a := New(store, "site", "a", time.Hour, Callbacks{})
	for i := range 3 {
		a.RecordFetch(Fetch{Bot: "GPTBot", Addr: fmt.Sprintf("192.0.2.%d", i), At: clock.UnixNano()})
	}
	a.RecordTrap(Trap{Addr: "198.51.100.1", Until: clock.Add(time.Hour).UnixNano()})
	a.RecordTrap(Trap{Addr: "198.51.100.2", Until: clock.Add(time.Hour).UnixNano()})
	if err := a.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	key := a.key("a")

	copies := func() []string {
		var out []string
		for k := range store.data {
			if strings.HasPrefix(path.Base(k), "a.json.damaged-") {
				out = append(out, k)
			}
		}
		slices.Sort(out)
		return out
	}
	for restart := range 2 {
		clock = clock.Add(time.Minute)
		damaged := store.data[key][:len(store.data[key])-40] // truncate -s -40
		store.data[key] = damaged

		var warned []Warning
		var fetches, traps int
		r := New(store, "site", "a", time.Hour, Callbacks{
			Fetch: func(Fetch) { fetches++ },
			Trap:  func(Trap) { traps++ },
			Warn:  func(w Warning) { warned = append(warned, w) },
		})
		r.now = func() time.Time { return clock }
		r.restore(ctx)
		if restart == 0 && (fetches != 3 || traps != 1) {
			t.Errorf("restored %d fetches and %d traps from a truncated blob, want the intact 3 and 1", fetches, traps)
		}
		if len(warned) != 1 || warned[0].Kind != KindDamaged || warned[0].Key != key || warned[0].Copy == "" || warned[0].Err == nil {
			t.Fatalf("warnings %+v, want one of kind %s for %s naming its copy", warned, KindDamaged, key)
		}
		r.RecordFetch(Fetch{Bot: "CCBot", Addr: "192.0.2.9", At: clock.UnixNano()})
		if err := r.Flush(ctx); err != nil {
			t.Fatal(err)
		}
		if got := copies(); len(got) != 1 || got[0] != warned[0].Copy || string(store.data[got[0]]) != string(damaged) {
			t.Errorf("restart %d: copies %v, want one, %s, holding the damaged blob", restart, got, warned[0].Copy)
		}
		var b blob
		if b, _ = r.readOwn(ctx); len(b.Fetches) != 4 {
			t.Errorf("restart %d: the new blob holds %d fetches, want the 3 restored and the new one", restart, len(b.Fetches))
		}
	}
}

// TestOwnBlobUnreadableAtStart: while this instance's blob cannot be
// read, it is not written over: the next write would lose it.
func TestOwnBlobUnreadableAtStart(t *testing.T) {
	ctx := context.Background()
	mem := &memStorage{data: map[string][]byte{}}
	store := &failingStorage{memStorage: mem, load: map[string]error{}}
	a := New(store, "site", "a", time.Hour, Callbacks{})
	a.RecordFetch(Fetch{Bot: "GPTBot", Addr: "192.0.2.1", At: 1})
	a.Flush(ctx)
	key := a.key("a")
	before := string(mem.data[key])

	store.load[key] = fmt.Errorf("connection refused")
	var restored int
	r := New(store, "site", "a", time.Hour, Callbacks{Fetch: func(Fetch) { restored++ }})
	r.restore(ctx)
	r.RecordFetch(Fetch{Bot: "CCBot", Addr: "192.0.2.2", At: 2})
	if err := r.Flush(ctx); !errors.Is(err, errUnrestored) {
		t.Errorf("a write held back returned %v, want %v (reported)", err, errUnrestored)
	}
	if string(mem.data[key]) != before {
		t.Fatal("a blob that could not be read at start was written over")
	}
	delete(store.load, key) // the storage is back
	r.restore(ctx)
	r.Flush(ctx)
	b, _ := r.readOwn(ctx)
	if restored != 1 || len(b.Fetches) != 2 {
		t.Errorf("once readable: %d restored, %d in the blob; want 1 and both", restored, len(b.Fetches))
	}
}
