// Package quota holds an LRU cache in which each client has a quota, so
// that no client can push the others' entries out, and the quotas the
// trackers of robots.txt and the blobs they share give a client. It
// imports no Caddy package, so that package share can use it as well as
// the handler.
package quota

import (
	"net/netip"
	"sync"
)

// LRU is a cache of at most size entries, each made by one client
// (its owner) of one network (its group), that no client can flush: an
// owner holds at most perOwner entries, a group at most perGroup, and an
// entry beyond either quota takes the place of the least recently used
// of its owner's (or group's) own, not of the cache's. Only when the
// cache is full does a new entry push out the least recently used of
// all, so it takes size/perOwner clients (size/perGroup networks) to push
// out another's.
//
// Keys made from what a client sends (a Host, a User-Agent) are as many
// as it likes; in a plain LRU one client pushed every other's out.
type LRU[K comparable, V any] struct {
	size, perOwner, perGroup int
	// ownerOf tells who made k: the client, and its network (the client
	// itself when it has none, as an IPv4 address).
	ownerOf func(k K) (owner, group netip.Prefix)

	mu     sync.Mutex
	items  map[K]*entry[K, V]
	all    list[K, V]
	owners map[netip.Prefix]*list[K, V]
	groups map[netip.Prefix]*list[K, V]
	spare  *entry[K, V] // the last evicted, for the next Add
}

// The lists an entry is on, each linked through its own pair of links.
const (
	inAll = iota
	inOwner
	inGroup
)

type entry[K comparable, V any] struct {
	key          K
	val          V
	owner, group *list[K, V] // group nil: the owner is its own group
	links        [3]struct{ prev, next *entry[K, V] }
}

// list is a list of entries, most recently used first.
type list[K comparable, V any] struct {
	front, back *entry[K, V]
	n           int
	on          int // which links of an entry this list uses
	id          netip.Prefix
}

// New returns an LRU of at most size entries, perOwner of one owner and
// perGroup of one group, where ownerOf tells who made a key.
func New[K comparable, V any](size, perOwner, perGroup int, ownerOf func(K) (netip.Prefix, netip.Prefix)) *LRU[K, V] {
	return &LRU[K, V]{
		size: size, perOwner: perOwner, perGroup: perGroup, ownerOf: ownerOf,
		items:  make(map[K]*entry[K, V]),
		all:    list[K, V]{on: inAll},
		owners: make(map[netip.Prefix]*list[K, V]),
		groups: make(map[netip.Prefix]*list[K, V]),
	}
}

func (l *list[K, V]) pushFront(e *entry[K, V]) {
	lk := &e.links[l.on]
	lk.prev, lk.next = nil, l.front
	if l.front != nil {
		l.front.links[l.on].prev = e
	} else {
		l.back = e
	}
	l.front = e
	l.n++
}

func (l *list[K, V]) remove(e *entry[K, V]) {
	lk := &e.links[l.on]
	if lk.prev != nil {
		lk.prev.links[l.on].next = lk.next
	} else {
		l.front = lk.next
	}
	if lk.next != nil {
		lk.next.links[l.on].prev = lk.prev
	} else {
		l.back = lk.prev
	}
	lk.prev, lk.next = nil, nil
	l.n--
}

func (l *list[K, V]) touch(e *entry[K, V]) {
	if l.front != e {
		l.remove(e)
		l.pushFront(e)
	}
}

// toBack makes e, on the list, its least recently used.
func (l *list[K, V]) toBack(e *entry[K, V]) {
	if l.back == e {
		return
	}
	l.remove(e)
	lk := &e.links[l.on]
	lk.prev, lk.next = l.back, nil
	if l.back != nil {
		l.back.links[l.on].next = e
	} else {
		l.front = e
	}
	l.back = e
	l.n++
}

// Get returns the value of k, and marks it used.
func (c *LRU[K, V]) Get(k K) (V, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.items[k]
	if !ok {
		var zero V
		return zero, false
	}
	c.touch(e)
	return e.val, true
}

// Peek returns the value of k, and leaves it as used as it was.
func (c *LRU[K, V]) Peek(k K) (V, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.items[k]
	if !ok {
		var zero V
		return zero, false
	}
	return e.val, true
}

// Add sets the value of k, and marks it used. A new key that its owner
// or group has no room for pushes out their least recently used.
func (c *LRU[K, V]) Add(k K, v V) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.items[k]; ok {
		e.val = v
		c.touch(e)
		return
	}
	owner, group := c.ownerOf(k)
	switch ol, gl := c.owners[owner], c.groups[group]; {
	case ol != nil && ol.n >= c.perOwner:
		c.evict(ol.back)
	case group != owner && gl != nil && gl.n >= c.perGroup:
		c.evict(gl.back)
	case len(c.items) >= c.size:
		c.evict(c.all.back)
	}
	c.insert(k, v, owner, group)
}

// AddOldest adds k as the least recently used of all, of its owner's and
// of its group's, if it is not kept and they and the cache have room for
// it without pushing anything out, and reports whether it did: a value
// older than those kept (one read back from storage) must neither take
// the place of a newer one nor outlive it. Values added newest first
// keep their order.
func (c *LRU[K, V]) AddOldest(k K, v V) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.items[k]; ok || len(c.items) >= c.size {
		return false
	}
	owner, group := c.ownerOf(k)
	if ol := c.owners[owner]; ol != nil && ol.n >= c.perOwner {
		return false
	}
	if gl := c.groups[group]; group != owner && gl != nil && gl.n >= c.perGroup {
		return false
	}
	e := c.insert(k, v, owner, group)
	c.all.toBack(e)
	e.owner.toBack(e)
	if e.group != nil {
		e.group.toBack(e)
	}
	return true
}

// insert adds k, which is not kept, as the most recently used of all, of
// its owner's and of its group's; its owner and group have room for it.
func (c *LRU[K, V]) insert(k K, v V, owner, group netip.Prefix) *entry[K, V] {
	e := c.spare
	if e != nil {
		c.spare = nil
	} else {
		e = new(entry[K, V])
	}
	e.key, e.val = k, v
	e.owner = listOf(c.owners, owner, inOwner)
	e.group = nil
	if group != owner {
		e.group = listOf(c.groups, group, inGroup)
		e.group.pushFront(e)
	}
	e.owner.pushFront(e)
	c.all.pushFront(e)
	c.items[k] = e
	return e
}

// Remove drops k.
func (c *LRU[K, V]) Remove(k K) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.items[k]; ok {
		c.evict(e)
	}
}

// RemoveIf drops k if it is kept and drop says so of its value, under
// one lock: a value set between a caller's read and its removal is not
// dropped for the one it read.
func (c *LRU[K, V]) RemoveIf(k K, drop func(V) bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.items[k]; ok && drop(e.val) {
		c.evict(e)
	}
}

// RemoveOldest drops the least recently used entry of all, if any: a
// cache whose room is shared with another gives it back.
func (c *LRU[K, V]) RemoveOldest() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if e := c.all.back; e != nil {
		c.evict(e)
	}
}

// Values returns the values kept, the least recently used first.
func (c *LRU[K, V]) Values() []V {
	c.mu.Lock()
	defer c.mu.Unlock()
	vs := make([]V, 0, len(c.items))
	for e := c.all.back; e != nil; e = e.links[inAll].prev {
		vs = append(vs, e.val)
	}
	return vs
}

// Owned is how many entries the owner of k holds, k's own among them if
// it is kept.
func (c *LRU[K, V]) Owned(k K) int {
	owner, _ := c.ownerOf(k)
	c.mu.Lock()
	defer c.mu.Unlock()
	if l := c.owners[owner]; l != nil {
		return l.n
	}
	return 0
}

// Len is how many entries are kept.
func (c *LRU[K, V]) Len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.items)
}

func (c *LRU[K, V]) touch(e *entry[K, V]) {
	c.all.touch(e)
	e.owner.touch(e)
	if e.group != nil {
		e.group.touch(e)
	}
}

// evict drops e, and the lists of an owner or group it leaves empty.
func (c *LRU[K, V]) evict(e *entry[K, V]) {
	delete(c.items, e.key)
	c.all.remove(e)
	e.owner.remove(e)
	if e.owner.n == 0 {
		delete(c.owners, e.owner.id)
	}
	if e.group != nil {
		e.group.remove(e)
		if e.group.n == 0 {
			delete(c.groups, e.group.id)
		}
	}
	var zero entry[K, V]
	*e = zero // holds nothing of what it held
	c.spare = e
}

// listOf returns the list of id in m, made if there is none.
func listOf[K comparable, V any](m map[netip.Prefix]*list[K, V], id netip.Prefix, on int) *list[K, V] {
	l := m[id]
	if l == nil {
		l = &list[K, V]{on: on, id: id}
		m[id] = l
	}
	return l
}

// ClientOf is the client an address is, and its network: an IPv4 address
// is both; an IPv6 client is its /64 (one subscriber's or host's, see
// pace.Subscriber) of its /48 (one customer's or site's).
func ClientOf(a netip.Addr) (client, network netip.Prefix) {
	a = a.Unmap()
	if !a.Is6() {
		p := netip.PrefixFrom(a, a.BitLen())
		return p, p
	}
	client, _ = a.Prefix(64)
	network, _ = a.Prefix(48)
	return client, network
}
