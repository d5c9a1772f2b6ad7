package caddymodule

import (
	"net/netip"
	"time"

	"github.com/caddyserver/caddy/v2"
	lru "github.com/hashicorp/golang-lru/v2"

	"github.com/robotsguard/caddy-robots-txt/caddymodule/judge"
	"github.com/robotsguard/caddy-robots-txt/caddymodule/pace"
)

// trackedClients bounds how many (bot, address) pairs are remembered.
const trackedClients = 100_000

// fetchKey is one crawler at one address.
type fetchKey struct {
	bot string
	ip  netip.Addr
}

// fetchTracker remembers robots.txt fetches, and the Crawl-delay
// schedules of the bots. It lives in a UsagePool, so a config reload hands
// it to the new handler instead of forgetting.
type fetchTracker struct {
	recent  *lru.Cache[fetchKey, judge.Fetch]
	pace    *pace.Limiter
	trapped *lru.Cache[netip.Addr, int64] // until, unix nanoseconds
}

// pacedClients bounds the client addresses whose Crawl-delay schedules
// are remembered.
const pacedClients = 100_000

// Destruct implements caddy.Destructor.
func (*fetchTracker) Destruct() error { return nil }

var trackers = caddy.NewUsagePool()

func loadTracker(key string) (*fetchTracker, error) {
	v, _, err := trackers.LoadOrNew(key, func() (caddy.Destructor, error) {
		c, err := lru.New[fetchKey, judge.Fetch](trackedClients)
		if err != nil {
			return nil, err
		}
		trapped, err := lru.New[netip.Addr, int64](trappedClients)
		if err != nil {
			return nil, err
		}
		return &fetchTracker{recent: c, pace: pace.New(pacedClients), trapped: trapped}, nil
	})
	if err != nil {
		return nil, err
	}
	return v.(*fetchTracker), nil
}

func (t *fetchTracker) record(bot string, ip netip.Addr, f judge.Fetch) {
	t.recent.Add(fetchKey{bot, ip}, f)
}

func (t *fetchTracker) last(bot string, ip netip.Addr) (judge.Fetch, bool) {
	return t.recent.Get(fetchKey{bot, ip})
}

// trap remembers addr as trapped until the time given.
func (t *fetchTracker) trap(addr netip.Addr, until time.Time) {
	t.trapped.Add(addr, until.UnixNano())
}

// isTrapped tells whether addr is trapped now.
func (t *fetchTracker) isTrapped(addr netip.Addr, now time.Time) bool {
	until, ok := t.trapped.Get(addr)
	if ok && until < now.UnixNano() {
		t.trapped.Remove(addr)
		return false
	}
	return ok
}
