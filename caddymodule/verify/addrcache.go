package verify

import (
	"net/netip"
	"sync"
	"sync/atomic"
)

// addrCache is a bounded map from address to answer with CLOCK eviction, an
// approximation of LRU in which a hit only sets a flag under a read lock.
// golang-lru's exact LRU moves the entry on every hit under an exclusive
// lock, which costs more than the whole budget of a cached verification
// when every bot request of a busy site takes that lock.
type addrCache struct {
	mu    sync.RWMutex
	index map[netip.Addr]int32 // address -> slot
	slots []cacheSlot
	hand  int
	limit int
}

type cacheSlot struct {
	addr netip.Addr
	e    atomic.Pointer[rdnsEntry]
	used atomic.Bool // set on a hit; the hand spares a used slot once
}

func newAddrCache(limit int) *addrCache {
	return &addrCache{index: make(map[netip.Addr]int32, min(limit, 1024)), limit: max(limit, 1)}
}

// get returns the answer for addr, if any (expired or not).
func (c *addrCache) get(addr netip.Addr) (*rdnsEntry, bool) {
	c.mu.RLock()
	i, ok := c.index[addr]
	var e *rdnsEntry
	if ok {
		s := &c.slots[i]
		e = s.e.Load()
		if !s.used.Load() {
			s.used.Store(true)
		}
	}
	c.mu.RUnlock()
	return e, ok
}

// add stores the answer for addr, evicting the first slot the hand finds
// unused since it last passed when the cache is full.
func (c *addrCache) add(addr netip.Addr, e *rdnsEntry) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if i, ok := c.index[addr]; ok {
		c.slots[i].e.Store(e)
		return
	}
	if len(c.slots) < c.limit {
		c.slots = append(c.slots, cacheSlot{addr: addr})
		i := len(c.slots) - 1
		c.slots[i].e.Store(e)
		c.index[addr] = int32(i)
		return
	}
	for c.slots[c.hand].used.Load() {
		c.slots[c.hand].used.Store(false)
		c.hand = (c.hand + 1) % len(c.slots)
	}
	s := &c.slots[c.hand]
	delete(c.index, s.addr)
	s.addr = addr
	s.e.Store(e)
	c.index[addr] = int32(c.hand)
	c.hand = (c.hand + 1) % len(c.slots)
}

// len is the number of addresses held.
func (c *addrCache) len() int {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return len(c.index)
}
