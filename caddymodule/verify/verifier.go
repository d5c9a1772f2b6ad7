package verify

import (
	"context"
	"net/netip"
	"slices"

	"github.com/robotsguard/caddy-robots-txt/caddymodule/crawlers"
)

// Options configures a Verifier.
type Options struct {
	Ranges RangeOptions
	RDNS   RDNSOptions
}

// Verifier checks claims to be the crawlers of one knowledge base: by IP
// range first (a set lookup), then by forward-confirmed reverse DNS (cached).
// Web Bot Auth signatures are the caller's to check first; see SignedBy.
// It is safe for concurrent use.
type Verifier struct {
	base  *crawlers.Base
	lists map[string][]*RangeList // by crawler name
	byPtr map[*crawlers.Crawler][]*RangeList
	all   []*RangeList
	rdns  *RDNSChecker
}

// NewVerifier prepares range lists for every crawler of base that has any
// (one list per distinct source, shared by the crawlers that name it) and a
// reverse-DNS checker limited to the suffixes base names. Nothing is fetched
// until Start.
func NewVerifier(base *crawlers.Base, opts Options) (*Verifier, error) {
	v := &Verifier{base: base, lists: map[string][]*RangeList{}, byPtr: map[*crawlers.Crawler][]*RangeList{}}
	bySource := map[string]*RangeList{}
	var suffixes []string
	for _, c := range base.All() {
		for _, src := range c.Ranges {
			l, ok := bySource[src]
			if !ok {
				var err error
				if l, err = NewRangeList([]string{src}, opts.Ranges); err != nil {
					return nil, err
				}
				bySource[src] = l
				v.all = append(v.all, l)
			}
			v.lists[c.Name] = append(v.lists[c.Name], l)
			if !slices.Contains(l.crawlers, c.Name) {
				l.crawlers = append(l.crawlers, c.Name)
			}
		}
		for _, s := range c.RDNS {
			if !slices.Contains(suffixes, s) {
				suffixes = append(suffixes, s)
			}
		}
	}
	// Hashing a pointer is cheaper than hashing a name, and the entries of
	// base are the pointers callers get from base.Lookup.
	for _, c := range base.All() {
		if l := v.lists[c.Name]; l != nil {
			v.byPtr[c] = l
		}
	}
	if len(opts.RDNS.Suffixes) == 0 {
		opts.RDNS.Suffixes = suffixes
	}
	v.rdns = NewRDNSChecker(opts.RDNS)
	return v, nil
}

// Start loads stored lists and refreshes every list in the background.
func (v *Verifier) Start() {
	for _, l := range v.all {
		l.Start()
	}
}

// Stop ends background refreshing and the reverse-DNS checker's clock.
func (v *Verifier) Stop() {
	for _, l := range v.all {
		l.Stop()
	}
	v.rdns.Close()
}

// Refresh fetches every list now (for tests and a CLI); see RangeList.Refresh.
func (v *Verifier) Refresh(ctx context.Context) error {
	var first error
	for _, l := range v.all {
		if err := l.Refresh(ctx); err != nil && first == nil {
			first = err
		}
	}
	return first
}

// Lists returns the range lists by crawler name, for status pages.
func (v *Verifier) Lists(name string) []*RangeList { return slices.Clone(v.lists[name]) }

// BroadSource is a file or URL whose copy in use takes in a large part of
// the Internet (see Broad), and the crawlers it verifies.
type BroadSource struct {
	Source   string
	Crawlers []string
}

// BroadSources lists the file and URL sources whose copy in use takes in
// a large part of the Internet, for the caller to say at its load; a
// broad copy that comes into force later is warned of by its list.
func (v *Verifier) BroadSources() []BroadSource {
	var out []BroadSource
	for _, l := range v.all {
		for _, st := range l.Status() {
			if st.Broad {
				out = append(out, BroadSource{Source: st.Source, Crawlers: slices.Clone(l.crawlers)})
			}
		}
	}
	return out
}

// RDNS returns the reverse-DNS checker, for its statistics.
func (v *Verifier) RDNS() *RDNSChecker { return v.rdns }

// Verify checks a request from addr that claims to be c:
//
//   - c is nil or publishes no method: Unverified;
//   - addr is in one of c's ranges: Verified by IP;
//   - addr forward-confirms to one of c's suffixes: Verified by RDNS;
//   - otherwise, including when reverse DNS has no answer within the wait
//     or is refused by the rate limit, and when c's lists have not loaded:
//     Impostor. A slow lookup still fills the cache, so the next request
//     from addr gets the real answer.
//
// A cached or range answer costs no query and does not allocate.
func (v *Verifier) Verify(ctx context.Context, c *crawlers.Crawler, addr netip.Addr) Result {
	if !c.Verifiable() {
		return Result{Outcome: Unverified}
	}
	lists, ok := v.byPtr[c]
	if !ok {
		lists = v.lists[c.Name] // an entry of another Base
	}
	for _, l := range lists {
		if l.Contains(addr) {
			return Result{Outcome: Verified, By: IP}
		}
	}
	if len(c.RDNS) > 0 && v.rdns.Check(ctx, addr, c.RDNS) == StatusConfirmed {
		return Result{Outcome: Verified, By: RDNS}
	}
	return Result{Outcome: Impostor}
}
