package share

import (
	"slices"
	"sort"
	"strings"
)

// MaxBlobsPerSync bounds the blobs a Sync looks at (a Stat each, and a
// read of those that changed), and, spread over the intervals, the keys
// it lists. Anyone who can write to the storage can fill it with blobs,
// and the storage interface has no cheaper way to tell which changed: a
// Stat of each, and a listing that is itself a Stat per key on Caddy's
// file system storage, cost every idle instance 12-30 % of a core at
// 20,000 one-byte blobs and a 1 s interval. Past this many, each blob is
// looked at in turn, and the storage is listed once every
// ceil(keys/MaxBlobsPerSync) intervals. A cluster with fewer blobs (one
// per instance and source) sees none of this.
const MaxBlobsPerSync = 1024

// Blobs are looked at in turn within three kinds, so that no number of
// one kind keeps another from being looked at.
const (
	// known: read and usable; those of the live instances, whose
	// changes matter most, and of gone ones, to be deleted when expired.
	known = iota
	// unread: new in the listing.
	unread
	// bad: read and unusable (damaged, too large, never written), not
	// read again until its mark changes, or not read at the last try;
	// what a storage filled by someone else mostly holds.
	bad
	kinds
)

// kindShare is the part of MaxBlobsPerSync kept for each of unread and
// bad blobs, however many known ones there are: a new instance is read,
// and a damaged blob its instance rewrote is read again, even when
// someone has written more usable blobs than can be looked at at once.
// The rest goes to known blobs first, then unread, then bad ones.
const kindShare = MaxBlobsPerSync / 8

// plan is which of the other instances' blobs each Sync looks at: the
// keys of the last listing by kind, in order, and where each kind's turn
// is. A blob keeps the kind it had when listed until the next listing.
type plan struct {
	keys [kinds][]string
	at   [kinds]int
	// skip is how many more Syncs look at the keys before the storage is
	// listed again.
	skip int
}

// replan takes a new listing, of which own is this instance's blob: the
// blobs are sorted into their kinds, each kind's turn goes on from the
// key it had reached, seen forgets the blobs no longer listed, and the
// next listing is as many Syncs away as it takes to look at as many
// keys as this one listed.
func (p *plan) replan(keys []string, own string, seen map[string]seenBlob) {
	var next [kinds]string
	for k := range kinds {
		if p.at[k] < len(p.keys[k]) {
			next[k] = p.keys[k][p.at[k]]
		}
		p.keys[k] = p.keys[k][:0]
	}
	listed := make(map[string]bool, len(keys))
	for _, key := range keys {
		listed[key] = true
		if key == own || !strings.HasSuffix(key, ".json") {
			continue
		}
		k := unread
		if e, ok := seen[key]; ok {
			k = bad
			if e.written != 0 {
				k = known
			}
		}
		p.keys[k] = append(p.keys[k], key)
	}
	for k := range kinds {
		slices.Sort(p.keys[k])
		p.keys[k] = slices.Compact(p.keys[k])
		p.at[k] = sort.SearchStrings(p.keys[k], next[k])
		if p.at[k] == len(p.keys[k]) {
			p.at[k] = 0
		}
	}
	for key := range seen {
		if !listed[key] {
			delete(seen, key)
		}
	}
	p.skip = (len(keys) - 1) / MaxBlobsPerSync
}

// next returns the keys to look at in this Sync, at most
// MaxBlobsPerSync, each kind's from where its turn is, and moves the
// turns on.
func (p *plan) next() []string {
	var n [kinds]int
	for k := range kinds {
		n[k] = len(p.keys[k])
	}
	give := shares(n)
	out := make([]string, 0, give[known]+give[unread]+give[bad])
	for k := range kinds {
		keys := p.keys[k]
		for range give[k] {
			out = append(out, keys[p.at[k]])
			p.at[k] = (p.at[k] + 1) % len(keys)
		}
	}
	return out
}

// shares divides MaxBlobsPerSync among n blobs of each kind: kindShare
// at least for unread and bad ones (as many as there are, if fewer),
// the rest to known, unread and bad ones in that order.
func shares(n [kinds]int) [kinds]int {
	var give [kinds]int
	give[unread] = min(n[unread], kindShare)
	give[bad] = min(n[bad], kindShare)
	left := MaxBlobsPerSync - give[unread] - give[bad]
	for _, k := range []int{known, unread, bad} {
		more := min(n[k]-give[k], left)
		give[k] += more
		left -= more
	}
	return give
}
