package share

import (
	"fmt"
	"sync"
	"time"
)

// Kinds of storage trouble a Warning reports.
const (
	// KindRead: a blob (or the list of them) could not be read.
	KindRead = "read"
	// KindParse: a blob was read but is not a blob (damaged); it is not
	// read again until it changes.
	KindParse = "parse"
	// KindSize: a blob is larger than MaxBlobBytes; it is not read
	// until it changes.
	KindSize = "size"
	// KindDamaged: this instance's own blob did not parse at a restart:
	// the records before the damage are restored, and the blob is kept
	// under Warning.Copy before a new one is written. Or it was too large
	// to be its own (no Copy): it is replaced.
	KindDamaged = "damaged"
	// KindStore: a blob could not be written.
	KindStore = "store"
	// KindDelete: a gone instance's blob could not be deleted.
	KindDelete = "delete"
)

// Warning is a failure of the storage that the operator should hear of:
// without it, instances silently stop sharing what they learn.
type Warning struct {
	Kind string
	Key  string // the storage key concerned
	Err  error
	// Suppressed is how many warnings of this kind about this key were
	// held back since the last one given.
	Suppressed int
	// Similar is, for a warning about another instance's blob, how many
	// more of this kind (about it or other blobs) were held back since
	// the last one given: those are given once per WarnEvery in all,
	// naming one blob (see troubles).
	Similar int
	// Copy is, for KindDamaged, the key the damaged blob is kept under.
	Copy string
	// Restored is, for KindDamaged, how many records were read before
	// the damage.
	Restored int
}

// Message says what a warning means for the operator.
func (w Warning) Message() string {
	switch w.Kind {
	case KindRead:
		return "robots_txt shared state could not be read from storage; what other instances learnt is not known here until it can"
	case KindParse:
		return "a robots_txt shared state blob in storage is damaged and was not read; it is not read again until it changes"
	case KindSize:
		return fmt.Sprintf("a robots_txt shared state blob in storage is larger than %d bytes, far more than an instance writes, and was not read; it is not read until it changes", MaxBlobBytes)
	case KindStore:
		return "robots_txt shared state could not be written to storage; other instances and a restart miss what this one learnt since its last write"
	case KindDamaged:
		if w.Copy == "" {
			return fmt.Sprintf("this instance's robots_txt shared state in storage is larger than %d bytes, far more than it writes; it was not read, and is replaced at the next write", MaxBlobBytes)
		}
		return "this instance's robots_txt shared state in storage is damaged: the records before the damage are restored, and the damaged blob is kept under the copy key before a new one is written"
	case KindDelete:
		return "a gone instance's robots_txt shared state could not be deleted from storage"
	}
	return "robots_txt shared state: storage trouble"
}

// WarnEvery is how often a warning of one kind about one key is given: a
// storage that fails, fails every interval, and a line per interval and
// blob would bury every other.
const WarnEvery = time.Minute

// maxWarnKeys bounds the (kind, key) pairs remembered: keys come from
// the storage's listing, which anyone with write access to it can fill.
const maxWarnKeys = 1024

// Warnings rate-limits warnings, per kind and key. The zero value is
// ready to use.
type Warnings struct {
	mu   sync.Mutex
	last map[warnKey]*warnState
}

type warnKey struct{ kind, key string }

type warnState struct {
	at         time.Time
	suppressed int
}

// Allow tells whether a warning of kind about key may be given at now,
// and how many were held back since the last one that was.
func (w *Warnings) Allow(kind, key string, now time.Time) (suppressed int, ok bool) {
	return w.allow(kind, key, now, false)
}

// allow is Allow; with force the warning is given in any case.
func (w *Warnings) allow(kind, key string, now time.Time, force bool) (suppressed int, ok bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	k := warnKey{kind, key}
	st := w.last[k]
	if st != nil && now.Sub(st.at) < WarnEvery && !force {
		st.suppressed++
		return 0, false
	}
	if st != nil {
		suppressed = st.suppressed
	}
	if w.last == nil {
		w.last = map[warnKey]*warnState{}
	}
	if st == nil && len(w.last) >= maxWarnKeys {
		for k, s := range w.last {
			if now.Sub(s.at) >= WarnEvery {
				delete(w.last, k)
			}
		}
		if len(w.last) >= maxWarnKeys {
			// Every one is recent: a flood of keys. Forgetting them
			// costs at worst one more warning each.
			clear(w.last)
		}
	}
	w.last[k] = &warnState{at: now}
	return suppressed, true
}

// troubles gathers the warnings about other instances' blobs (damaged,
// too large, unreadable, not deleted) and gives one per kind at most
// once per WarnEvery, naming one blob and counting the rest in
// Warning.Similar: the listing names the blobs, so a line per blob is a
// line per file anyone with write access to the storage makes (20,000
// one-byte files were 20,000 lines), and a limit per key limits nothing.
type troubles struct {
	pending []*trouble // in the order first met
	last    map[string]time.Time
}

// trouble is the first warning of a kind held back since the last one
// given, and how many more there were.
type trouble struct {
	Warning
	more int
}

func (t *troubles) add(kind, key string, err error) {
	for _, p := range t.pending {
		if p.Kind == kind {
			p.more++
			return
		}
	}
	t.pending = append(t.pending, &trouble{Warning: Warning{Kind: kind, Key: key, Err: err}})
}

// report gives to warn the warnings of each kind pending whose last
// one was given WarnEvery ago or more; the others wait for a later
// report.
func (t *troubles) report(now time.Time, warn func(Warning)) {
	if warn == nil {
		return
	}
	kept := t.pending[:0]
	for _, p := range t.pending {
		if at, ok := t.last[p.Kind]; ok && now.Sub(at) < WarnEvery {
			kept = append(kept, p)
			continue
		}
		if t.last == nil {
			t.last = map[string]time.Time{}
		}
		t.last[p.Kind] = now
		w := p.Warning
		w.Similar = p.more
		warn(w)
	}
	clear(t.pending[len(kept):])
	t.pending = kept
}
