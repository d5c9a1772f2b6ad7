package share

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/robotsguard/caddy-robots-txt/caddymodule/internal/quota"
)

// TestFloodCannotPushOthersOut: one client recording fetches under as
// many User-Agents, or springing the trap under as many Hosts, as it
// likes replaces only its own records beyond its quota: the blob its
// instance writes, read back at a restart, still holds every other
// client's, and a verified crawler's fetch is pushed out by no flood of
// unverified clients.
func TestFloodCannotPushOthersOut(t *testing.T) {
	ctx := context.Background()
	gpt := Fetch{Bot: "GPTBot", Addr: "192.0.2.1", Site: 1, At: 1, ETag: `"v1"`}
	crawler := Fetch{Bot: "Googlebot", Site: 1, At: 2, ETag: `"v1"`} // verified: no address
	trapped := Trap{Addr: "192.0.2.1", Site: 1, Until: 100}
	trappedNet := Trap{Addr: "2001:db8:5::/48", Site: 1, Until: 100}
	for _, tc := range []struct {
		name  string
		n     int
		fetch func(i int) Fetch // the flood's i-th record, or nil
		trap  func(i int) Trap
		most  int // of the flood's records a blob holds
		// keptFetches and keptTraps are the others' records that
		// must be in the blob after the flood.
		keptFetches []Fetch
		keptTraps   []Trap
	}{
		{
			name: "user agents from one address",
			n:    3 * MaxFetches,
			fetch: func(i int) Fetch {
				return Fetch{Bot: "generic", Addr: "198.51.100.7", Site: 1, Agent: uint64(i), At: int64(10 + i)}
			},
			most: quota.FetchesPerClient, keptFetches: []Fetch{gpt, crawler},
		},
		{
			name: "user agents from the addresses of one /64",
			n:    3 * MaxFetches,
			fetch: func(i int) Fetch {
				return Fetch{Bot: "generic", Addr: fmt.Sprintf("2001:db8:2::%x", i), Site: 1, Agent: uint64(i), At: int64(10 + i)}
			},
			most: quota.FetchesPerClient, keptFetches: []Fetch{gpt, crawler},
		},
		{
			name: "user agents from the /64s of one /48",
			n:    3 * MaxFetches,
			fetch: func(i int) Fetch {
				return Fetch{Bot: "generic", Addr: fmt.Sprintf("2001:db8:2:%x::1", i), Site: 1, Agent: uint64(i), At: int64(10 + i)}
			},
			most: quota.FetchesPerNetwork, keptFetches: []Fetch{gpt, crawler},
		},
		{
			name: "fetches from many addresses",
			n:    3 * MaxFetches,
			fetch: func(i int) Fetch {
				return Fetch{Bot: "generic", Addr: fmt.Sprintf("10.%d.%d.%d", i>>16, i>>8&0xff, i&0xff), Site: 1, At: int64(10 + i)}
			},
			most: MaxFetches - 1, keptFetches: []Fetch{crawler},
		},
		{
			name: "hosts from one address",
			n:    3 * MaxTrapped,
			trap: func(i int) Trap { return Trap{Addr: "198.51.100.7", Site: uint64(10 + i), Until: int64(200 + i)} },
			most: quota.TrapSitesPerClient, keptTraps: []Trap{trapped, trappedNet},
		},
		{
			name: "hosts from the /64s of one /48",
			n:    3 * MaxTrapped,
			trap: func(i int) Trap {
				return Trap{Addr: fmt.Sprintf("2001:db8:2:%x::1", i), Site: uint64(10 + i), Until: int64(200 + i)}
			},
			most: quota.TrapSitesPerNetwork, keptTraps: []Trap{trapped, trappedNet},
		},
		{
			name: "hosts of the /56s of one /48, trapped whole",
			n:    3 * MaxTrapped,
			trap: func(i int) Trap {
				return Trap{Addr: fmt.Sprintf("2001:db8:2:%x00::/56", i&0xff), Site: uint64(10 + i), Until: int64(200 + i)}
			},
			most: quota.TrapSitesPerNetwork, keptTraps: []Trap{trapped, trappedNet},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			store := &memStorage{data: map[string][]byte{}}
			a := New(store, "site", "a", time.Hour, Callbacks{})
			a.RecordFetch(gpt)
			a.RecordFetch(crawler)
			a.RecordTrap(trapped)
			a.RecordTrap(trappedNet)
			var lastFetch Fetch
			var lastTrap Trap
			for i := range tc.n {
				if tc.fetch != nil {
					lastFetch = tc.fetch(i)
					a.RecordFetch(lastFetch)
				}
				if tc.trap != nil {
					lastTrap = tc.trap(i)
					a.RecordTrap(lastTrap)
				}
			}
			if err := a.Flush(ctx); err != nil {
				t.Fatal(err)
			}
			// What a restarted instance reads back.
			var fetches []Fetch
			var traps []Trap
			restarted := New(store, "site", "a", time.Hour, Callbacks{
				Fetch: func(f Fetch) { fetches = append(fetches, f) },
				Trap:  func(t Trap) { traps = append(traps, t) },
			})
			restarted.restore(ctx)
			for _, f := range tc.keptFetches {
				if !slices.Contains(fetches, f) {
					t.Errorf("%s's fetch from %q was pushed out of the blob", f.Bot, f.Addr)
				}
			}
			for _, tr := range tc.keptTraps {
				if !slices.Contains(traps, tr) {
					t.Errorf("the trap of %s was pushed out of the blob", tr.Addr)
				}
			}
			flood := 0
			for _, f := range fetches {
				if f != gpt && f != crawler {
					flood++
				}
			}
			for _, tr := range traps {
				if tr != trapped && tr != trappedNet {
					flood++
				}
			}
			if flood > tc.most {
				t.Errorf("the blob holds %d of the flood's records, want at most %d", flood, tc.most)
			}
			if tc.fetch != nil && !slices.Contains(fetches, lastFetch) || tc.trap != nil && !slices.Contains(traps, lastTrap) {
				t.Error("the flood's newest record is not in the blob")
			}
		})
	}
}

// TestCrawlersShareTheBound: verified crawlers' fetches, kept apart, and
// everyone else's share MaxFetches; crawlers hold at most crawlerFetches,
// each kind keeps its newest, and the blob lists them oldest first.
func TestCrawlersShareTheBound(t *testing.T) {
	ctx := context.Background()
	store := &memStorage{data: map[string][]byte{}}
	a := New(store, "site", "a", time.Hour, Callbacks{})
	at := int64(0)
	for i := range MaxFetches {
		at++
		a.RecordFetch(Fetch{Bot: "generic", Addr: fmt.Sprintf("10.0.%d.%d", i>>8, i&0xff), Site: 1, At: at})
		if i%2 == 0 {
			at++
			a.RecordFetch(Fetch{Bot: "Googlebot", Site: uint64(i), At: at})
		}
	}
	if err := a.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	b, err := a.readOwn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	crawled := 0
	for _, f := range b.Fetches {
		if f.Addr == "" {
			crawled++
		}
	}
	if len(b.Fetches) != MaxFetches || crawled != crawlerFetches {
		t.Errorf("the blob holds %d fetches, %d of them crawlers'; want %d, %d", len(b.Fetches), crawled, MaxFetches, crawlerFetches)
	}
	if !slices.IsSortedFunc(b.Fetches, func(x, y Fetch) int { return int(x.At - y.At) }) {
		t.Error("the blob does not list its fetches oldest first")
	}
	if last := b.Fetches[len(b.Fetches)-1]; last.At != at-1 && last.At != at {
		t.Errorf("the blob's last fetch is at %d, want the newest", last.At)
	}
}

// TestRestoredRecordsAreOlder: records read back from storage at start
// are older than those recorded since: none replaces a newer one of its
// key, none pushes a newer one out (a client whose quota newer records
// fill gets none of its old ones back), and they are the first to go.
func TestRestoredRecordsAreOlder(t *testing.T) {
	ctx := context.Background()
	store := &memStorage{data: map[string][]byte{}}
	flood := func(s *Sharer, from, at int64) {
		for i := range int64(quota.FetchesPerClient) {
			s.RecordFetch(Fetch{Bot: "generic", Addr: "198.51.100.7", Site: 1, Agent: uint64(from + i), At: at + i})
		}
		for i := range int64(quota.TrapSitesPerClient) {
			s.RecordTrap(Trap{Addr: "198.51.100.7", Site: uint64(from + i), Until: at + i})
		}
	}
	old := New(store, "site", "a", time.Hour, Callbacks{})
	old.RecordFetch(Fetch{Bot: "GPTBot", Addr: "192.0.2.1", Site: 1, At: 1})
	old.RecordFetch(Fetch{Bot: "Googlebot", Site: 1, At: 2})
	old.RecordFetch(Fetch{Bot: "CCBot", Addr: "192.0.2.2", Site: 1, At: 4})
	old.RecordTrap(Trap{Addr: "192.0.2.1", Site: 1, Until: 3})
	flood(old, 0, 10)
	if err := old.Flush(ctx); err != nil {
		t.Fatal(err)
	}

	a := New(store, "site", "a", time.Hour, Callbacks{})
	a.RecordFetch(Fetch{Bot: "GPTBot", Addr: "192.0.2.1", Site: 1, At: 5_000})
	flood(a, 1_000, 10_000)
	a.restore(ctx)
	if err := a.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	b, err := a.readOwn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	// Restored: Googlebot's and CCBot's fetches and 192.0.2.1's trap,
	// first.
	if len(b.Fetches) != 3+quota.FetchesPerClient || b.Fetches[0].Bot != "Googlebot" || b.Fetches[1].Bot != "CCBot" {
		t.Errorf("the blob holds %d fetches, first %+v; want %d, the restored ones first", len(b.Fetches), b.Fetches[:2], 3+quota.FetchesPerClient)
	}
	if len(b.Trapped) != 1+quota.TrapSitesPerClient || b.Trapped[0].Addr != "192.0.2.1" {
		t.Errorf("the blob holds %d traps, first %+v; want %d, 192.0.2.1's restored one first", len(b.Trapped), b.Trapped[0], 1+quota.TrapSitesPerClient)
	}
	for _, f := range b.Fetches {
		if f.Bot == "GPTBot" && f.At != 5_000 || f.Addr == "198.51.100.7" && f.Agent < 1_000 {
			t.Errorf("a restored record replaced or pushed out a newer one: %+v", f)
		}
	}
	for _, tr := range b.Trapped {
		if tr.Addr == "198.51.100.7" && tr.Site < 1_000 {
			t.Errorf("a restored trap pushed out a newer one: %+v", tr)
		}
	}
	// The restored records are the first to go: one more than there is
	// room for pushes out CCBot's, not GPTBot's newer one.
	for i := range MaxFetches - len(b.Fetches) + 1 {
		a.RecordFetch(Fetch{Bot: "generic", Addr: fmt.Sprintf("10.0.%d.%d", i>>8, i&0xff), Site: 1, At: int64(20_000 + i)})
	}
	if err := a.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	if b, err = a.readOwn(ctx); err != nil {
		t.Fatal(err)
	}
	has := func(bot string) bool {
		return slices.ContainsFunc(b.Fetches, func(f Fetch) bool { return f.Bot == bot })
	}
	if len(b.Fetches) != MaxFetches || has("CCBot") || !has("GPTBot") || !has("Googlebot") {
		t.Errorf("the blob holds %d fetches, CCBot's %v, GPTBot's %v, Googlebot's %v; want %d, GPTBot's and Googlebot's",
			len(b.Fetches), has("CCBot"), has("GPTBot"), has("Googlebot"), MaxFetches)
	}
}
