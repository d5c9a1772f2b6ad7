package verify

import (
	"bufio"
	"bytes"
	"cmp"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"net/netip"
	"slices"
	"strings"
)

// Set is an immutable set of IP prefixes, IPv4 and IPv6, answering
// membership with a binary search over sorted, merged address intervals: a
// few hundred nanoseconds would be a budget overrun on every bot request,
// and a trie chases pointers where this walks one flat slice.
type Set struct {
	v4 []span4
	v6 []span6
	n  int
}

type span4 struct{ lo, hi uint32 }

type u128 struct{ hi, lo uint64 }

func (a u128) less(b u128) bool { return a.hi < b.hi || a.hi == b.hi && a.lo < b.lo }

type span6 struct{ lo, hi u128 }

// NewSet builds a set from prefixes; overlapping and adjacent prefixes are
// merged. IPv4-mapped IPv6 prefixes count as IPv4, since Contains unmaps the
// address it is asked about.
func NewSet(prefixes []netip.Prefix) *Set {
	s := &Set{n: len(prefixes)}
	for _, p := range prefixes {
		if !p.IsValid() {
			continue
		}
		p = p.Masked()
		a := p.Addr()
		if a.Is4In6() && p.Bits() >= 96 {
			p = netip.PrefixFrom(a.Unmap(), p.Bits()-96)
			a = p.Addr()
		}
		if a.Is4() {
			b := a.As4()
			lo := binary.BigEndian.Uint32(b[:])
			hi := lo | uint32(uint64(1)<<(32-p.Bits())-1)
			s.v4 = append(s.v4, span4{lo, hi})
			continue
		}
		b := a.As16()
		lo := u128{binary.BigEndian.Uint64(b[:8]), binary.BigEndian.Uint64(b[8:])}
		hi := lo
		host := 128 - p.Bits()
		switch {
		case host >= 64:
			hi.lo = ^uint64(0)
			if host == 128 {
				hi.hi = ^uint64(0)
			} else {
				hi.hi |= uint64(1)<<(host-64) - 1
			}
		case host > 0:
			hi.lo |= uint64(1)<<host - 1
		}
		s.v6 = append(s.v6, span6{lo, hi})
	}
	s.v4 = merge4(s.v4)
	s.v6 = merge6(s.v6)
	return s
}

func merge4(v []span4) []span4 {
	slices.SortFunc(v, func(a, b span4) int { return cmp.Compare(a.lo, b.lo) })
	out := v[:0]
	for _, r := range v {
		if n := len(out); n > 0 && (r.lo <= out[n-1].hi || out[n-1].hi != ^uint32(0) && r.lo == out[n-1].hi+1) {
			out[n-1].hi = max(out[n-1].hi, r.hi)
			continue
		}
		out = append(out, r)
	}
	return slices.Clip(out)
}

func merge6(v []span6) []span6 {
	slices.SortFunc(v, func(a, b span6) int {
		switch {
		case a.lo.less(b.lo):
			return -1
		case b.lo.less(a.lo):
			return 1
		}
		return 0
	})
	out := v[:0]
	for _, r := range v {
		if n := len(out); n > 0 && !out[n-1].hi.less(r.lo) {
			if out[n-1].hi.less(r.hi) {
				out[n-1].hi = r.hi
			}
			continue
		}
		out = append(out, r)
	}
	return slices.Clip(out)
}

// Contains reports whether addr is in the set. It does not allocate. A nil
// set contains nothing.
func (s *Set) Contains(addr netip.Addr) bool {
	if s == nil {
		return false
	}
	addr = addr.Unmap()
	if addr.Is4() {
		b := addr.As4()
		x := binary.BigEndian.Uint32(b[:])
		v := s.v4
		// Find the first span starting after x; the one before it is the
		// only one that can hold x.
		lo, hi := 0, len(v)
		for lo < hi {
			m := int(uint(lo+hi) >> 1)
			if v[m].lo <= x {
				lo = m + 1
			} else {
				hi = m
			}
		}
		return lo > 0 && x <= v[lo-1].hi
	}
	if !addr.Is6() {
		return false
	}
	b := addr.As16()
	x := u128{binary.BigEndian.Uint64(b[:8]), binary.BigEndian.Uint64(b[8:])}
	v := s.v6
	lo, hi := 0, len(v)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if !x.less(v[m].lo) {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo > 0 && !v[lo-1].hi.less(x)
}

// Len is the number of prefixes the set was built from.
func (s *Set) Len() int {
	if s == nil {
		return 0
	}
	return s.n
}

// ParseRanges reads a published IP list in any supported format: JAFAR
// (draft-illyes-webbotauth-jafar), the JSON layout Google started and Bing,
// Apple, OpenAI, Anthropic, Perplexity, Common Crawl, DuckDuckGo and Mistral
// use; or plain text with one CIDR or address per line and '#' comments. A
// body that is neither, or that yields no prefix at all, is an error, so
// that an error page served with status 200 never replaces a good list.
// (JAFAR allows an empty list; this reads one as a broken publication and
// keeps the last good copy, which errs toward still recognising the crawler.)
func ParseRanges(data []byte) ([]netip.Prefix, error) {
	trimmed := bytes.TrimSpace(bytes.TrimPrefix(data, []byte("\xef\xbb\xbf")))
	if len(trimmed) == 0 {
		return nil, errors.New("empty IP list")
	}
	if trimmed[0] == '{' {
		return ParseJSON(trimmed)
	}
	return ParseText(trimmed)
}

// jafarList is the JAFAR layout. ip_prefix and ipv6_prefix are the AWS
// spellings, which some operators copied; services is read but not used
// yet (every prefix counts for every crawler that names the list).
type jafarList struct {
	CreationTime string `json:"creationTime"`
	Prefixes     *[]struct {
		IPv4       string   `json:"ipv4Prefix"`
		IPv6       string   `json:"ipv6Prefix"`
		AWSPrefix  string   `json:"ip_prefix"`
		AWSPrefix6 string   `json:"ipv6_prefix"`
		Services   []string `json:"services"`
	} `json:"prefixes"`
}

// ParseJSON reads the JAFAR layout:
//
//	{"creationTime": "...", "prefixes": [{"ipv4Prefix": "192.0.2.0/24"}, {"ipv6Prefix": "2001:db8::/32"}]}
//
// As JAFAR requires, a prefix object with both or neither of ipv4Prefix and
// ipv6Prefix is ignored and unknown fields are ignored; a prefix that is
// not valid CIDR makes the whole file garbage.
func ParseJSON(data []byte) ([]netip.Prefix, error) {
	var l jafarList
	if err := json.Unmarshal(data, &l); err != nil {
		return nil, fmt.Errorf("IP list: %w", err)
	}
	if l.Prefixes == nil {
		return nil, errors.New(`IP list: no "prefixes" array`)
	}
	out := make([]netip.Prefix, 0, len(*l.Prefixes))
	for i, e := range *l.Prefixes {
		v4, v6 := cmp.Or(e.IPv4, e.AWSPrefix), cmp.Or(e.IPv6, e.AWSPrefix6)
		if (v4 == "") == (v6 == "") {
			continue
		}
		p, err := parseCIDR(v4 + v6)
		if err != nil {
			return nil, fmt.Errorf("IP list: prefix %d: %w", i, err)
		}
		if p.Addr().Is4() != (v4 != "") && !p.Addr().Is4In6() {
			return nil, fmt.Errorf("IP list: prefix %d: %s is in the wrong family field", i, p)
		}
		out = append(out, p)
	}
	if len(out) == 0 {
		return nil, errors.New("IP list: no prefixes")
	}
	return out, nil
}

// ParseText reads one CIDR or bare address per line; '#' starts a comment.
func ParseText(data []byte) ([]netip.Prefix, error) {
	var out []netip.Prefix
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 4096), 4096)
	for line := 1; sc.Scan(); line++ {
		s := sc.Text()
		if i := strings.IndexByte(s, '#'); i >= 0 {
			s = s[:i]
		}
		s = strings.TrimSpace(s)
		if s == "" {
			continue
		}
		p, err := parseCIDR(s)
		if err != nil {
			return nil, fmt.Errorf("IP list line %d: %w", line, err)
		}
		out = append(out, p)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("IP list: %w", err)
	}
	if len(out) == 0 {
		return nil, errors.New("IP list: no prefixes")
	}
	return out, nil
}

// parseCIDR accepts a CIDR or a single address (a /32 or /128).
func parseCIDR(s string) (netip.Prefix, error) {
	if strings.Contains(s, "/") {
		p, err := netip.ParsePrefix(s)
		if err != nil {
			return netip.Prefix{}, err
		}
		return p.Masked(), nil
	}
	a, err := netip.ParseAddr(s)
	if err != nil {
		return netip.Prefix{}, err
	}
	if a.Zone() != "" {
		return netip.Prefix{}, fmt.Errorf("%q: zoned address", s)
	}
	return netip.PrefixFrom(a, a.BitLen()), nil
}
