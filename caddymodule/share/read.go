package share

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
)

// MaxBlobBytes is the largest blob read. An instance writes at most
// about 2.5 MB (MaxFetches and MaxTrapped records); a larger blob is
// damaged or planted, and reading it every interval would cost every
// instance the memory and CPU time of parsing it.
const MaxBlobBytes = 8 << 20

// errBadBlob marks a blob that was read but cannot be used: damaged, or
// too large. Unlike a failed read, reading it again before it changes
// would give the same.
var errBadBlob = errors.New("unusable blob")

// mark is what tells that a blob changed without reading it: its
// modification time and size in the storage. The zero mark is unknown
// (a storage whose Stat gives no modification time): such blobs are read
// every interval.
type mark struct{ modified, size int64 }

func markOf(i Info) mark {
	if i.Modified.IsZero() {
		return mark{}
	}
	return mark{i.Modified.UnixNano(), i.Size}
}

func (m mark) known() bool { return m != mark{} }

// seenBlob is what a sharer remembers of another instance's blob.
type seenBlob struct {
	mark mark
	// written is the Written of the blob last applied; 0 for one that
	// could not be used.
	written int64
	// held is until when an address it trapped is held, unix
	// nanoseconds.
	held int64
}

// readChanged reads the blob under key when it changed since it was last
// read, and returns it if it holds anything not yet applied. A blob that
// cannot be used is remembered by its mark, and not read again until it
// changes.
//
// A blob that could not be read is remembered with no mark, to be read
// at its next turn: what was known of it before (that it is a gone
// instance's, to be deleted) is not taken for what it is now, and it
// takes its turn with the unusable ones, not with the blobs never read
// (see plan), so that a storage full of blobs that cannot be read does
// not keep a new instance's from being read.
func (s *Sharer) readChanged(ctx context.Context, key string) (blob, bool) {
	info, err := s.store.Stat(ctx, key)
	if errors.Is(err, fs.ErrNotExist) {
		delete(s.seen, key)
		return blob{}, false
	}
	if err != nil {
		s.warn(ctx, KindRead, key, err)
		s.seen[key] = seenBlob{}
		return blob{}, false
	}
	m := markOf(info)
	prev, had := s.seen[key]
	if had && m.known() && m == prev.mark {
		return blob{}, false
	}
	b, err := s.readBlob(ctx, key, info.Size)
	switch {
	case errors.Is(err, errBadBlob):
		s.seen[key] = seenBlob{mark: m}
	case errors.Is(err, fs.ErrNotExist):
		delete(s.seen, key)
	case err != nil:
		s.seen[key] = seenBlob{}
	}
	if err != nil {
		return blob{}, false
	}
	s.seen[key] = seenBlob{mark: m, written: max(b.Written, prev.written), held: b.heldUntil()}
	return b, b.Written > prev.written
}

// readBlob loads and parses the blob under key, of size bytes as the
// storage said (0: not known), warning of any failure but a blob that is
// not there.
func (s *Sharer) readBlob(ctx context.Context, key string, size int64) (blob, error) {
	var b blob
	if err := s.tooLarge(ctx, key, size); err != nil {
		return b, err
	}
	data, err := s.store.Load(ctx, key)
	if err != nil {
		if !errors.Is(err, fs.ErrNotExist) {
			s.warn(ctx, KindRead, key, err)
		}
		return b, err
	}
	if err := s.tooLarge(ctx, key, int64(len(data))); err != nil { // grown since Stat
		return b, err
	}
	if err := json.Unmarshal(data, &b); err != nil {
		s.warn(ctx, KindParse, key, err)
		return b, fmt.Errorf("%w: %v", errBadBlob, err)
	}
	s.clamp(&b, s.now().UnixNano())
	return b, nil
}

// sizeError says that a blob of n bytes is too large to be read.
func sizeError(n int64) error { return fmt.Errorf("%d bytes, more than %d", n, MaxBlobBytes) }

// tooLarge warns of the blob under key when its n bytes are more than
// MaxBlobBytes, and returns the error that marks it unusable.
func (s *Sharer) tooLarge(ctx context.Context, key string, n int64) error {
	if n <= MaxBlobBytes {
		return nil
	}
	err := sizeError(n)
	s.warn(ctx, KindSize, key, err)
	return fmt.Errorf("%w: %v", errBadBlob, err)
}

// heldUntil is until when an address b's instance trapped is held, unix
// nanoseconds.
func (b *blob) heldUntil() int64 {
	var until int64
	for _, t := range b.Trapped {
		until = max(until, t.Until)
	}
	return until
}
