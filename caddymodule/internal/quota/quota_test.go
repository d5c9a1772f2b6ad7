package quota

import (
	"fmt"
	"net/netip"
	"strconv"
	"strings"
	"testing"
)

// testKey is a test key: a name, made by a client at an address.
type testKey struct {
	name string
	ip   netip.Addr
}

func ownerOf(k testKey) (netip.Prefix, netip.Prefix) { return ClientOf(k.ip) }

// key reads "name@address".
func key(s string) testKey {
	name, addr, _ := strings.Cut(s, "@")
	return testKey{name, netip.MustParseAddr(addr)}
}

// TestQuotaLRU: an owner, or a group, that adds more than its quota
// replaces its own least recently used entries, not another's; only a
// full cache pushes out the least recently used of all.
func TestLRU(t *testing.T) {
	for _, tc := range []struct {
		name                     string
		size, perOwner, perGroup int
		// "+k" adds, "~k" adds as the oldest if there is room, "?k" gets, "-k"
		// removes, "<" removes the oldest.
		ops        []string
		kept, gone []string
	}{
		{
			name: "an owner replaces its own", size: 10, perOwner: 2, perGroup: 10,
			ops:  []string{"+v@192.0.2.1", "+a@192.0.2.9", "+b@192.0.2.9", "+c@192.0.2.9", "+d@192.0.2.9"},
			kept: []string{"v@192.0.2.1", "c@192.0.2.9", "d@192.0.2.9"},
			gone: []string{"a@192.0.2.9", "b@192.0.2.9"},
		},
		{
			name: "an owner's least recently used goes", size: 10, perOwner: 2, perGroup: 10,
			ops:  []string{"+a@192.0.2.9", "+b@192.0.2.9", "?a@192.0.2.9", "+c@192.0.2.9"},
			kept: []string{"a@192.0.2.9", "c@192.0.2.9"},
			gone: []string{"b@192.0.2.9"},
		},
		{
			name: "adding a key again takes no more room", size: 10, perOwner: 2, perGroup: 10,
			ops:  []string{"+a@192.0.2.9", "+b@192.0.2.9", "+a@192.0.2.9", "+b@192.0.2.9"},
			kept: []string{"a@192.0.2.9", "b@192.0.2.9"},
		},
		{
			name: "an IPv6 owner is its /64", size: 10, perOwner: 2, perGroup: 10,
			ops:  []string{"+v@2001:db8:0:2::1", "+a@2001:db8:0:1::1", "+b@2001:db8:0:1::2", "+c@2001:db8:0:1:ffff::3"},
			kept: []string{"v@2001:db8:0:2::1", "b@2001:db8:0:1::2", "c@2001:db8:0:1:ffff::3"},
			gone: []string{"a@2001:db8:0:1::1"},
		},
		{
			name: "a /48 replaces its own", size: 10, perOwner: 2, perGroup: 3,
			ops:  []string{"+v@2001:db8:1::1", "+a@2001:db8:0:1::1", "+b@2001:db8:0:2::1", "+c@2001:db8:0:3::1", "+d@2001:db8:0:4::1"},
			kept: []string{"v@2001:db8:1::1", "b@2001:db8:0:2::1", "c@2001:db8:0:3::1", "d@2001:db8:0:4::1"},
			gone: []string{"a@2001:db8:0:1::1"},
		},
		{
			name: "IPv4 has no group quota", size: 10, perOwner: 3, perGroup: 1,
			ops:  []string{"+a@192.0.2.9", "+b@192.0.2.9", "+c@192.0.2.9", "+d@192.0.2.10"},
			kept: []string{"a@192.0.2.9", "b@192.0.2.9", "c@192.0.2.9", "d@192.0.2.10"},
		},
		{
			name: "a full cache drops the least recently used of all", size: 3, perOwner: 2, perGroup: 10,
			ops:  []string{"+a@192.0.2.1", "+b@192.0.2.2", "+c@192.0.2.3", "?a@192.0.2.1", "+d@192.0.2.4"},
			kept: []string{"a@192.0.2.1", "c@192.0.2.3", "d@192.0.2.4"},
			gone: []string{"b@192.0.2.2"},
		},
		{
			name: "added as the oldest: not beyond its owner's quota", size: 10, perOwner: 2, perGroup: 10,
			ops:  []string{"+a@192.0.2.9", "+b@192.0.2.9", "~c@192.0.2.9", "~v@192.0.2.1"},
			kept: []string{"a@192.0.2.9", "b@192.0.2.9", "v@192.0.2.1"},
			gone: []string{"c@192.0.2.9"},
		},
		{
			name: "added as the oldest: not beyond its group's quota", size: 10, perOwner: 2, perGroup: 2,
			ops:  []string{"+a@2001:db8:0:1::1", "+b@2001:db8:0:2::1", "~c@2001:db8:0:3::1", "~v@2001:db8:1::1"},
			kept: []string{"a@2001:db8:0:1::1", "b@2001:db8:0:2::1", "v@2001:db8:1::1"},
			gone: []string{"c@2001:db8:0:3::1"},
		},
		{
			name: "added as the oldest: the first of its owner's to go", size: 10, perOwner: 2, perGroup: 10,
			ops:  []string{"+a@192.0.2.9", "~b@192.0.2.9", "+c@192.0.2.9"},
			kept: []string{"a@192.0.2.9", "c@192.0.2.9"},
			gone: []string{"b@192.0.2.9"},
		},
		{
			name: "added as the oldest: the first of its group's to go", size: 10, perOwner: 2, perGroup: 2,
			ops:  []string{"+a@2001:db8:0:1::1", "~b@2001:db8:0:2::1", "+c@2001:db8:0:3::1"},
			kept: []string{"a@2001:db8:0:1::1", "c@2001:db8:0:3::1"},
			gone: []string{"b@2001:db8:0:2::1"},
		},
		{
			name: "added as the oldest: not in a full cache", size: 2, perOwner: 2, perGroup: 10,
			ops:  []string{"+a@192.0.2.1", "+b@192.0.2.2", "~c@192.0.2.3"},
			kept: []string{"a@192.0.2.1", "b@192.0.2.2"},
			gone: []string{"c@192.0.2.3"},
		},
		{
			name: "the oldest of all is removed", size: 10, perOwner: 2, perGroup: 10,
			ops:  []string{"+a@192.0.2.1", "+b@192.0.2.2", "+c@192.0.2.3", "?a@192.0.2.1", "<", "<"},
			kept: []string{"a@192.0.2.1"},
			gone: []string{"b@192.0.2.2", "c@192.0.2.3"},
		},
		{
			name: "removing the oldest of none", size: 10, perOwner: 2, perGroup: 10,
			ops: []string{"<"},
		},
		{
			name: "a removed key frees its owner's room", size: 10, perOwner: 2, perGroup: 10,
			ops:  []string{"+a@192.0.2.9", "+b@192.0.2.9", "-a@192.0.2.9", "+c@192.0.2.9"},
			kept: []string{"b@192.0.2.9", "c@192.0.2.9"},
			gone: []string{"a@192.0.2.9"},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := New[testKey, int](tc.size, tc.perOwner, tc.perGroup, ownerOf)
			for i, op := range tc.ops {
				if op == "<" {
					c.RemoveOldest()
					continue
				}
				switch k := key(op[1:]); op[0] {
				case '+':
					c.Add(k, i)
				case '~':
					c.AddOldest(k, i)
				case '?':
					c.Get(k)
				case '-':
					c.Remove(k)
				}
			}
			for _, s := range tc.kept {
				if _, ok := c.Peek(key(s)); !ok {
					t.Errorf("%s is gone", s)
				}
			}
			for _, s := range tc.gone {
				if _, ok := c.Peek(key(s)); ok {
					t.Errorf("%s is kept", s)
				}
			}
			if n := len(tc.kept); c.Len() != n {
				t.Errorf("%d entries kept, want %d", c.Len(), n)
			}
		})
	}
}

// TestQuotaLRUFlood: one client adding many more keys than the cache
// holds keeps its quota, and frees what it held when its keys go.
func TestLRUFlood(t *testing.T) {
	c := New[testKey, int](100, 8, 32, ownerOf)
	victims := []testKey{key("v@192.0.2.1"), key("v@2001:db8:1::1")}
	for _, v := range victims {
		c.Add(v, 0)
	}
	for i := range 10_000 {
		c.Add(testKey{strconv.Itoa(i), netip.MustParseAddr("198.51.100.7")}, i)
		c.Add(testKey{strconv.Itoa(i), netip.AddrFrom16([16]byte{0x20, 0x01, 0x0d, 0xb8, 0, 2, byte(i >> 8), byte(i), 15: 1})}, i)
	}
	for _, v := range victims {
		if _, ok := c.Get(v); !ok {
			t.Errorf("%v was pushed out by one flooding address and one flooding /48", v)
		}
	}
	if c.Len() != 2+8+32 {
		t.Errorf("%d entries kept, want %d", c.Len(), 2+8+32)
	}
	for i := range 10_000 {
		c.Remove(testKey{strconv.Itoa(i), netip.MustParseAddr("198.51.100.7")})
		c.Remove(testKey{strconv.Itoa(i), netip.AddrFrom16([16]byte{0x20, 0x01, 0x0d, 0xb8, 0, 2, byte(i >> 8), byte(i), 15: 1})})
	}
	if len(c.owners) != 2 || len(c.groups) != 1 {
		t.Errorf("after the flood's keys went, %d owners and %d groups are counted, want the victims' 2 and 1", len(c.owners), len(c.groups))
	}
}

// TestLRUValues: values come least recently used first; a key added as
// the oldest keeps the value it had, or comes first, and goes first.
func TestLRUValues(t *testing.T) {
	c := New[testKey, int](4, 10, 10, ownerOf)
	c.Add(key("a@192.0.2.1"), 1)
	c.Add(key("b@192.0.2.1"), 2)
	c.Add(key("c@192.0.2.2"), 3)
	c.Get(key("a@192.0.2.1"))
	if c.AddOldest(key("b@192.0.2.1"), 20) {
		t.Error("a kept key was added again")
	}
	if !c.AddOldest(key("d@192.0.2.3"), 4) {
		t.Error("a key there is room for was not added")
	}
	if got := fmt.Sprint(c.Values()); got != "[4 2 3 1]" {
		t.Errorf("values %s, want [4 2 3 1]", got)
	}
	c.Add(key("e@192.0.2.4"), 5)
	if got := fmt.Sprint(c.Values()); got != "[2 3 1 5]" {
		t.Errorf("values %s, want [2 3 1 5]: the key added as the oldest goes first", got)
	}
}

// TestRemoveIf: a key is dropped only when the predicate holds of the
// value kept now.
func TestRemoveIf(t *testing.T) {
	c := New[string, int](8, 8, 8, func(string) (netip.Prefix, netip.Prefix) { return netip.Prefix{}, netip.Prefix{} })
	c.Add("a", 1)
	c.RemoveIf("a", func(v int) bool { return v > 1 })
	if _, ok := c.Peek("a"); !ok {
		t.Fatal("dropped although the predicate was false")
	}
	c.RemoveIf("a", func(v int) bool { return v == 1 })
	if _, ok := c.Peek("a"); ok || c.Len() != 0 {
		t.Fatal("kept although the predicate was true")
	}
	c.RemoveIf("missing", func(int) bool { return true }) // no panic, nothing kept
}
