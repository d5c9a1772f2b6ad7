package share

import (
	"maps"
	"slices"
	"time"

	"github.com/robotsguard/caddy-robots-txt/caddymodule/pace"
)

// SetTrapTTL sets the longest an address read from storage is held
// trapped: the site's trap_ttl. 0, the default, holds it as long as the
// blob says.
func (s *Sharer) SetTrapTTL(d time.Duration) { s.trapTTL.Store(int64(d)) }

// MaxPaced is the most requests one instance's blob is taken to have
// admitted for a crawler on a site in an interval of the given length:
// the burst, then one per shortest Crawl-delay enforced.
func MaxPaced(interval time.Duration) int64 {
	return pace.Burst + int64(interval/pace.MinDelay)
}

// Longest strings a record an instance writes holds: a bot's name (an
// agent name of robots.txt, found in a User-Agent header no longer than
// the classifier's cache keeps), a robots.txt version's ETag, an address
// or an IPv6 network. A record with a longer one is no instance's, and
// is dropped: the fetch records it would join are bounded by number,
// not by bytes.
const (
	maxNameLen = 512
	maxETagLen = 128
	maxAddrLen = 64
)

// clamp brings what a blob says within what an instance could have
// written: anyone who can write to the storage can write a blob, and a
// damaged one may say anything. A fetch is not in the future, an address
// is trapped for trap_ttl at most from now, a pacing count is at most
// MaxPaced of this instance's interval (instances of a cluster share
// one), the blob was not written in the future, it holds no more
// records than an instance keeps (the newest), and no record has a
// string longer than one an instance writes.
//
// It reports whether it cut a trapped address's time: a trap_ttl
// shortened since the blob was written, so that this instance's own blob,
// written again, keeps the shorter hold.
func (s *Sharer) clamp(b *blob, now int64) (cut bool) {
	b.Written = min(b.Written, now)
	b.Fetches = slices.DeleteFunc(b.Fetches, func(f Fetch) bool {
		return len(f.Bot) > maxNameLen || len(f.ETag) > maxETagLen || len(f.Addr) > maxAddrLen
	})
	if len(b.Fetches) > MaxFetches {
		b.Fetches = b.Fetches[len(b.Fetches)-MaxFetches:]
	}
	for i := range b.Fetches {
		b.Fetches[i].At = min(b.Fetches[i].At, now)
	}
	b.Trapped = slices.DeleteFunc(b.Trapped, func(t Trap) bool { return len(t.Addr) > maxAddrLen })
	if len(b.Trapped) > MaxTrapped {
		b.Trapped = b.Trapped[len(b.Trapped)-MaxTrapped:]
	}
	b.Paced = slices.DeleteFunc(b.Paced, func(p Paced) bool { return len(p.Name) > maxNameLen })
	maps.DeleteFunc(b.OldPaced, func(name string, _ int64) bool { return len(name) > maxNameLen })
	if ttl := s.trapTTL.Load(); ttl > 0 {
		for i := range b.Trapped {
			if b.Trapped[i].Until > now+ttl {
				b.Trapped[i].Until, cut = now+ttl, true
			}
		}
	}
	most := MaxPaced(s.interval)
	for i := range b.Paced {
		b.Paced[i].N = min(max(b.Paced[i].N, 0), most)
	}
	for name, n := range b.OldPaced {
		b.OldPaced[name] = min(max(n, 0), most)
	}
	return cut
}
