package caddymodule

import (
	"net/netip"
	"time"

	"github.com/caddyserver/caddy/v2"
	lru "github.com/hashicorp/golang-lru/v2"
)

// trackedClients bounds how many (bot, address) pairs are remembered.
const trackedClients = 100_000

// fetchKey is one crawler at one address.
type fetchKey struct {
	bot string
	ip  netip.Addr
}

// fetchRecord is when that client last fetched /robots.txt, and which
// version it got.
type fetchRecord struct {
	at   time.Time
	etag string
}

// fetchTracker remembers robots.txt fetches. It lives in a UsagePool, so a
// config reload hands it to the new handler instead of forgetting.
type fetchTracker struct {
	recent *lru.Cache[fetchKey, fetchRecord]
}

// Destruct implements caddy.Destructor.
func (*fetchTracker) Destruct() error { return nil }

var trackers = caddy.NewUsagePool()

func loadTracker(key string) (*fetchTracker, error) {
	v, _, err := trackers.LoadOrNew(key, func() (caddy.Destructor, error) {
		c, err := lru.New[fetchKey, fetchRecord](trackedClients)
		if err != nil {
			return nil, err
		}
		return &fetchTracker{recent: c}, nil
	})
	if err != nil {
		return nil, err
	}
	return v.(*fetchTracker), nil
}

func (t *fetchTracker) record(bot string, ip netip.Addr, at time.Time, etag string) {
	t.recent.Add(fetchKey{bot, ip}, fetchRecord{at: at, etag: etag})
}

func (t *fetchTracker) last(bot string, ip netip.Addr) (fetchRecord, bool) {
	return t.recent.Get(fetchKey{bot, ip})
}
