package verify

import (
	"net/netip"
	"time"

	"github.com/hashicorp/golang-lru/v2/simplelru"
	"golang.org/x/time/rate"
)

// The networks that lanes tells apart: a /24 of IPv4, and a /48 of IPv6,
// the block a site is usually given (a single host commonly has a whole
// /64, so per-address or per-/64 accounting would let it pass for
// thousands of clients).
const (
	laneBits4 = 24
	laneBits6 = 48
	// maxLaneNets bounds the networks whose budget lanes remembers, and
	// the networks it remembers crawlers in. A network forgotten starts
	// again with a full burst, which a flood needs many networks to use.
	maxLaneNets = 4096
	// crawlerLaneMemory is how long past its last confirmation's expiry
	// a network stays a crawler's. The confirmation expires when its
	// cached answer does, and the crawler's next request then needs a
	// new lookup: were its network forgotten at that moment, the re-check
	// would compete with a flood in the global lane, and a crawler seen
	// for hours would become an impostor for as long as the flood lasts.
	crawlerLaneMemory = 24 * time.Hour
)

// lanes decides whether a new reverse-DNS lookup may start. A single
// global budget would let one client make every other one unconfirmable:
// a host with an IPv6 /64 claims YandexBot from a new address 50 times a
// second, and the real YandexBot, verified by reverse DNS only, is an
// impostor for as long as the flood lasts. So lookups go in two lanes:
//
//   - each network may start at most its share of lookups, whichever lane
//     they take, so a flood from one network leaves the rest to others
//     (tenants of a cloud /24 a crawler also uses cannot spend the
//     crawler lane of every other crawler's network); a crawler's
//     network has a larger burst (half the lane's), so that once one of
//     its addresses has confirmed the fleet's new ones are too, at the
//     same rate, so that a sustained flood needs the tenants of ten
//     crawlers' networks to spend the crawler lane;
//   - the crawler lane, for addresses in a network where an address has
//     confirmed as a known crawler before, has a budget of its own (the
//     same rate and burst) and room among the lookups in progress, so
//     claims from elsewhere cannot starve a crawler that has been seen;
//     when it is spent, the global budget is tried too;
//   - the other lane takes the global budget.
//
// It is not safe for concurrent use; RDNSChecker holds its mutex.
type lanes struct {
	global, crawler *rate.Limiter
	netRate         float64
	netBurst        float64
	// crawlerNetRate and crawlerNetBurst are a crawler's network's share.
	crawlerNetRate  float64
	crawlerNetBurst float64
	maxPending      int

	nets     *simplelru.LRU[netip.Prefix, *bucket]
	crawlers *simplelru.LRU[netip.Prefix, int64] // until, unix nanoseconds
}

// bucket is a token bucket of one network's share of the global budget.
type bucket struct {
	tokens float64
	last   time.Time
}

func newLanes(o RDNSOptions) *lanes {
	nets, _ := simplelru.NewLRU[netip.Prefix, *bucket](maxLaneNets, nil)
	crawlers, _ := simplelru.NewLRU[netip.Prefix, int64](maxLaneNets, nil)
	return &lanes{
		global:          rate.NewLimiter(rate.Limit(o.Rate), o.Burst),
		crawler:         rate.NewLimiter(rate.Limit(o.Rate), o.Burst),
		netRate:         o.NetRate,
		netBurst:        float64(o.NetBurst),
		crawlerNetRate:  o.NetRate,
		crawlerNetBurst: max(float64(o.NetBurst), float64(o.Burst/2)),
		maxPending:      o.MaxPending,
		nets:            nets,
		crawlers:        crawlers,
	}
}

// laneNet is the network addr is accounted to.
func laneNet(addr netip.Addr) netip.Prefix {
	bits := laneBits6
	if addr.Is4() {
		bits = laneBits4
	}
	p, _ := addr.Prefix(bits)
	return p
}

// admit reports whether a lookup of addr may start now, pending lookups
// being in progress, and takes its share of the budget if so.
func (l *lanes) admit(addr netip.Addr, pending int, now time.Time) bool {
	net := laneNet(addr)
	until, known := l.crawlers.Get(net)
	known = known && now.UnixNano() < until
	rate, burst := l.netRate, l.netBurst
	if known {
		rate, burst = l.crawlerNetRate, l.crawlerNetBurst
	}
	b, ok := l.nets.Get(net)
	if !ok {
		b = &bucket{tokens: burst, last: now}
		l.nets.Add(net, b)
	} else if d := now.Sub(b.last); d > 0 {
		b.tokens = min(burst, b.tokens+d.Seconds()*rate)
		b.last = now
	}
	if b.tokens < 1 {
		return false
	}
	admitted := false
	if known {
		// A quarter more room in progress than the other lane has, so
		// slow lookups from elsewhere cannot fill it either.
		admitted = pending < l.maxPending+max(1, l.maxPending/4) && l.crawler.AllowN(now, 1)
	}
	if !admitted {
		admitted = pending < l.maxPending && l.global.AllowN(now, 1)
	}
	if admitted {
		b.tokens--
	}
	return admitted
}

// confirmed records that addr confirmed as a known crawler, until the
// confirmation expires: its network's next addresses, and its re-checks,
// take the crawler lane until crawlerLaneMemory past then.
func (l *lanes) confirmed(addr netip.Addr, until int64, now time.Time) {
	until += int64(crawlerLaneMemory)
	net := laneNet(addr)
	old, ok := l.crawlers.Peek(net)
	known := ok && old > now.UnixNano()
	if ok && old > until {
		until = old
	}
	l.crawlers.Add(net, until)
	if !known {
		// Newly a crawler's network: its share is the crawler's from
		// now on, not what other clients' claims left of a stranger's.
		if b, ok := l.nets.Peek(net); ok {
			b.tokens = l.crawlerNetBurst
		}
	}
}
