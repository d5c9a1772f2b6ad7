package share

import (
	"context"
	"encoding/json"
	"math"
	"strings"
	"testing"
	"time"
)

// TestClampOnRead: what another instance's blob says is held to what an
// instance could have written: no fetch in the future, no address trapped
// past trap_ttl from now, no pacing count beyond what one interval could
// admit; and a gone instance's blob that claims a trap for ten years is
// deleted once trap_ttl has passed.
func TestClampOnRead(t *testing.T) {
	ctx := context.Background()
	store := &memStorage{data: map[string][]byte{}}
	clock := time.Unix(1_700_000_000, 0)
	const interval, ttl = 5 * time.Second, time.Hour
	var fetches []Fetch
	var traps []Trap
	var paced []int64
	s := New(store, "site", "reader", interval, Callbacks{
		Fetch: func(f Fetch) { fetches = append(fetches, f) },
		Trap:  func(tr Trap) { traps = append(traps, tr) },
		Paced: func(_ uint64, _ string, n, _ int64) { paced = append(paced, n) },
	})
	s.now = func() time.Time { return clock }
	s.SetTrapTTL(ttl)
	planted := blob{
		Instance: "planted", Written: clock.Add(-8 * 24 * time.Hour).UnixNano(),
		Fetches: []Fetch{
			{Bot: "GPTBot", Addr: "192.0.2.1", At: clock.Add(365 * 24 * time.Hour).UnixNano()},
			// Strings no instance writes, which the fetch records
			// (bounded by number) would keep whole: dropped.
			{Bot: strings.Repeat("x", maxNameLen+1), Addr: "192.0.2.3"},
			{Bot: "GPTBot", Addr: "192.0.2.4", ETag: strings.Repeat("e", maxETagLen+1)},
			{Bot: "GPTBot", Addr: strings.Repeat("1", maxAddrLen+1)},
		},
		Trapped: []Trap{{Addr: "192.0.2.2", Until: clock.Add(10 * 365 * 24 * time.Hour).UnixNano()}, {Addr: strings.Repeat("1", maxAddrLen+1)}},
		Paced: []Paced{
			{Site: 1, Name: "GPTBot", N: 1_000_000_000},
			{Site: 1, Name: "CCBot", N: math.MaxInt64},
			{Site: 1, Name: "Bingbot", N: -5},
			{Site: 1, Name: strings.Repeat("x", maxNameLen+1), N: 1},
		},
		OldPaced: map[string]int64{"Applebot": math.MaxInt64, strings.Repeat("y", maxNameLen+1): 1},
	}
	data, _ := json.Marshal(planted)
	key := s.key("planted")
	store.Store(ctx, key, data)
	if err := s.Sync(ctx); err != nil {
		t.Fatal(err)
	}
	if len(fetches) != 1 || fetches[0].At > clock.UnixNano() {
		t.Errorf("fetches %v, want one no later than now", fetches)
	}
	if len(traps) != 1 || traps[0].Until > clock.Add(ttl).UnixNano() {
		t.Errorf("traps %v, want one held at most trap_ttl (%v) from now", traps, ttl)
	}
	most := MaxPaced(interval)
	if most != 53 {
		t.Errorf("MaxPaced(%v) = %d, want 53", interval, most)
	}
	// Counts of requests long past are no news: none is charged
	// (audit AH-F5); a fresh blob's are, clamped.
	if len(paced) != 0 {
		t.Errorf("%d pacing counts of a blob written 8 days ago charged, want none", len(paced))
	}
	fresh := blob{Instance: "fresh", Written: clock.Add(-time.Second).UnixNano(), Paced: planted.Paced, OldPaced: planted.OldPaced}
	data, _ = json.Marshal(fresh)
	store.Store(ctx, s.key("fresh"), data)
	if err := s.Sync(ctx); err != nil {
		t.Fatal(err)
	}
	if len(paced) != 4 {
		t.Errorf("%d pacing counts charged, want 4 (none for a name no instance writes)", len(paced))
	}
	for _, n := range paced {
		if n < 0 || n > most {
			t.Errorf("a pacing count of %d was charged, want 0 to %d", n, most)
		}
	}
	if _, ok := store.data[key]; !ok {
		t.Fatal("a blob whose trap is still held was deleted")
	}
	clock = clock.Add(ttl + time.Second)
	s.Sync(ctx)
	if _, ok := store.data[key]; ok {
		t.Error("a gone instance's blob is kept past trap_ttl by a trap it claims for ten years")
	}
}

// TestShortTrapTTLWrittenBack: an instance restarted with a shorter
// trap_ttl cuts the holds of its own blob to it and writes them so: a
// restart with the longer one does not bring a let-go address back
// (the README's way to let trapped addresses go).
func TestShortTrapTTLWrittenBack(t *testing.T) {
	ctx := context.Background()
	store := &memStorage{data: map[string][]byte{}}
	clock := time.Unix(1_700_000_000, 0)
	start := func(ttl time.Duration) (*Sharer, *[]Trap) {
		var traps []Trap
		s := New(store, "site", "a", time.Second, Callbacks{Trap: func(tr Trap) { traps = append(traps, tr) }})
		s.now = func() time.Time { return clock }
		s.SetTrapTTL(ttl)
		s.restore(ctx)
		return s, &traps
	}
	a, _ := start(24 * time.Hour)
	a.RecordTrap(Trap{Addr: "192.0.2.9", Site: 1, Until: clock.Add(24 * time.Hour).UnixNano()})
	if err := a.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	a2, traps := start(time.Second)
	if len(*traps) != 1 || (*traps)[0].Until > clock.Add(time.Second).UnixNano() {
		t.Fatalf("restarted with trap_ttl 1s: traps %v, want one held a second at most", *traps)
	}
	if err := a2.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	clock = clock.Add(time.Minute)
	_, traps = start(24 * time.Hour)
	for _, tr := range *traps {
		if tr.Until > clock.UnixNano() {
			t.Errorf("restarted with trap_ttl 24h again: %s held until %v, want let go", tr.Addr, time.Unix(0, tr.Until))
		}
	}
}
