package share

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"strings"
)

// restoreOwn reads what this instance wrote before a restart and keeps it
// as its own window. A blob that does not parse is not written over
// blindly: the records before the damage are restored, and the blob is
// kept as it was under another key (see keepDamaged) before the next
// write. While the blob cannot be read at all, nothing is written over
// it, and Run tries again each interval.
func (s *Sharer) restoreOwn(ctx context.Context) {
	key := s.key(s.instance)
	info, err := s.store.Stat(ctx, key)
	var data []byte
	if err == nil && info.Size <= MaxBlobBytes {
		data, err = s.store.Load(ctx, key)
	}
	switch {
	case errors.Is(err, fs.ErrNotExist):
		s.unrestored = false
		return
	case err != nil:
		s.warn(ctx, KindRead, key, err)
		s.unrestored = true
		return
	}
	s.unrestored = false
	s.own = markOf(info) // what was found is dealt with here, not by checkOwn
	var b blob
	size := max(info.Size, int64(len(data)))
	if size > MaxBlobBytes {
		// No instance writes that much: not its state, and too large
		// to keep a copy of. It is replaced at the next write.
		s.report(KindDamaged, key, sizeError(size), true)
		s.mu.Lock()
		s.dirty = true
		s.mu.Unlock()
		return
	}
	if err := json.Unmarshal(data, &b); err != nil {
		b = salvage(data)
		b.Written = 0 // so that a new blob is written soon
		s.damaged, s.damagedCopy = data, fmt.Sprintf("%s.damaged-%d", key, s.now().Unix())
		if s.cb.Warn != nil {
			s.cb.Warn(Warning{Kind: KindDamaged, Key: key, Err: err, Copy: s.damagedCopy, Restored: len(b.Fetches) + len(b.Trapped)})
		}
	}
	cut := s.clamp(&b, s.now().UnixNano())
	s.mu.Lock()
	s.fetches.addOld(b.Fetches)
	s.trapped.addOld(b.Trapped)
	s.written = b.Written
	// Holds cut to a shorter trap_ttl are written so: an operator who
	// restarts with one to let trapped addresses go does not get them
	// back with the longer one.
	s.dirty = s.dirty || s.damaged != nil || cut
	s.mu.Unlock()
	s.apply(b, false)
}

// keepDamaged stores the damaged blob restoreOwn found under the key it
// named, and deletes the copies kept at earlier restarts: one is enough
// to show what the damage was, and a blob damaged at every restart must
// not fill the storage.
func (s *Sharer) keepDamaged(ctx context.Context) error {
	if err := s.store.Store(ctx, s.damagedCopy, s.damaged); err != nil {
		return err
	}
	blobName, _, _ := strings.Cut(path.Base(s.damagedCopy), ".damaged-")
	prefix := blobName + ".damaged-"
	if keys, err := s.store.List(ctx, s.prefix, false); err == nil {
		for _, k := range keys {
			if k != s.damagedCopy && strings.HasPrefix(path.Base(k), prefix) {
				if err := s.store.Delete(ctx, k); err != nil && !errors.Is(err, fs.ErrNotExist) {
					s.warn(ctx, KindDelete, k, err)
				}
			}
		}
	}
	s.damaged = nil
	return nil
}

// salvage reads the records of a damaged blob that come before the
// damage: the standard decoder, a value at a time, stops at the first
// record it cannot decode, and what it decoded before is whole. A blob
// cut short (a write that did not finish, a truncated file) loses only
// its last records.
func salvage(data []byte) blob {
	var b blob
	dec := json.NewDecoder(bytes.NewReader(data))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return b
	}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return b
		}
		var ok bool
		switch tok {
		case "fetches":
			ok = decodeList(dec, &b.Fetches)
		case "trapped":
			ok = decodeList(dec, &b.Trapped)
		case "written":
			ok = dec.Decode(&b.Written) == nil
		default:
			var skip json.RawMessage
			ok = dec.Decode(&skip) == nil
		}
		if !ok {
			return b
		}
	}
	return b
}

// decodeList appends to out the elements of the JSON array dec is at,
// up to the first it cannot decode; it tells whether the array was whole.
func decodeList[T any](dec *json.Decoder, out *[]T) bool {
	if tok, err := dec.Token(); err != nil || tok != json.Delim('[') {
		return false
	}
	for dec.More() {
		var v T
		if dec.Decode(&v) != nil {
			return false
		}
		*out = append(*out, v)
	}
	_, err := dec.Token()
	return err == nil
}
