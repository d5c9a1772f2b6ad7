package caddymodule

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"time"

	"go.uber.org/zap"

	"github.com/robotsguard/caddy-robots-txt/caddymodule/judge"
	"github.com/robotsguard/caddy-robots-txt/caddymodule/share"
	"github.com/robotsguard/caddy-robots-txt/robots"
)

// maxStoredVersions bounds the versions of a robots.txt kept in storage
// for grace after a restart.
const maxStoredVersions = 8

// maxVersionsBytes bounds the stored versions read: maxStoredVersions
// bodies of at most robots.DefaultMaxSize, in base64, are about 5.5 MB.
// A larger file is damaged or planted, and reading it would cost every
// instance that starts, or serves a new version, its size in memory and
// the parsing of every body in it.
const maxVersionsBytes = share.MaxBlobBytes

// errVersionsTooLarge marks stored versions larger than maxVersionsBytes.
var errVersionsTooLarge = errors.New("stored versions too large")

// loadVersions reads the versions stored under key, unless the storage
// says they are larger than maxVersionsBytes.
func loadVersions(ctx context.Context, store share.Storage, key string) ([]byte, error) {
	if info, err := store.Stat(ctx, key); err == nil && info.Size > maxVersionsBytes {
		return nil, fmt.Errorf("%w: %d bytes, more than %d", errVersionsTooLarge, info.Size, maxVersionsBytes)
	}
	data, err := store.Load(ctx, key)
	if err == nil && len(data) > maxVersionsBytes { // grown since Stat
		return nil, fmt.Errorf("%w: %d bytes, more than %d", errVersionsTooLarge, len(data), maxVersionsBytes)
	}
	return data, err
}

// storedVersion is one version of a site's robots.txt, as kept in storage.
type storedVersion struct {
	ETag  string `json:"etag"`
	Since int64  `json:"since"` // unix nanoseconds
	Body  []byte `json:"body"`
}

// versionsKey is where a site's versions are kept.
func versionsKey(site string) string {
	sum := sha256.Sum256([]byte(site))
	return path.Join("robots_txt", "versions", hex.EncodeToString(sum[:8])+".json")
}

// storeVersion adds the version in force to the stored ones, in the
// background: a restarted instance (or another one that starts later)
// finds the versions bots may still be obeying.
func (s *source) storeVersion(snap *snapshot) {
	set := s.settings.Load()
	if set.share.store == nil || snap.File == nil {
		return
	}
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		key := versionsKey(set.share.site)
		var vs []storedVersion
		data, err := loadVersions(ctx, set.share.store, key)
		switch {
		case errors.Is(err, fs.ErrNotExist):
		case errors.Is(err, errVersionsTooLarge):
			warnVersions(set.logger, share.KindSize, key, "the robots.txt versions kept in storage are far larger than an instance writes; they are replaced by the version in force, and grace after a restart cannot use the earlier ones", err)
		case err != nil:
			// Writing now would replace the versions kept with this one.
			warnVersions(set.logger, share.KindRead, key, "robots.txt versions could not be read from storage; the version in force is not added to them, so as not to write over them", err)
			return
		default:
			if err := json.Unmarshal(data, &vs); err != nil {
				warnVersions(set.logger, share.KindParse, key, "the robots.txt versions kept in storage are damaged; they are replaced by the version in force, and grace after a restart cannot use the earlier ones", err)
				vs = nil
			}
		}
		for _, v := range vs {
			if v.ETag == snap.ETag {
				return
			}
		}
		vs = append([]storedVersion{{ETag: snap.ETag, Since: snap.Since.UnixNano(), Body: snap.body}}, vs...)
		if len(vs) > maxStoredVersions {
			vs = vs[:maxStoredVersions]
		}
		data, err = json.Marshal(vs)
		if err == nil {
			err = set.share.store.Store(ctx, key, data)
		}
		if err != nil {
			warnVersions(set.logger, share.KindStore, key, "robots.txt versions could not be kept in storage; grace after a restart may miss them", err)
		}
	}()
}

// storedRead is the read of the stored versions for a source's first
// version, done in the background when the source opens: before versions
// this process serves push them out of the storage (it keeps
// maxStoredVersions), and off the request that opens a per-host file.
type storedRead struct {
	done chan struct{}
	vs   []storedVersion // set before done is closed
}

// readStoredLater starts the read of the versions stored for the source
// whose first version is first, as of now, and returns it. first is
// marked served if the storage holds its text: it was served before.
func readStoredLater(set *sourceSettings, first *judge.Version, now time.Time) *storedRead {
	rd := &storedRead{done: make(chan struct{})}
	go func() {
		defer close(rd.done)
		var served bool
		rd.vs, served = readStored(set.logger, set.share.store, set.share.site, first.ETag, now, set.grace)
		if served {
			// Grace keeps it past the versions nobody was served.
			first.MarkServed()
		}
	}()
	return rd
}

// earlier waits for the read, and returns its versions parsed but for
// those known names (which the caller has), while their texts come to
// budget bytes in all (the newest whatever its size).
func (rd *storedRead) earlier(known func(etag string) bool, budget int) (out []*judge.Version) {
	<-rd.done
	size := 0
	for _, v := range rd.vs {
		if known(v.ETag) {
			continue
		}
		if len(out) > 0 && size+len(v.Body) > budget {
			break
		}
		size += len(v.Body)
		jv := judge.NewVersion(robots.Parse(v.Body), v.ETag)
		// When its delays came in is not stored: an earlier version
		// judges grace, never pace.
		jv.Since = time.Unix(0, v.Since)
		jv.DelaySince = jv.Since
		jv.MarkServed() // only versions served are stored
		out = append(out, jv)
	}
	return out
}

// readStored returns the stored versions that were in force within the
// grace window before now, newest first, their texts coming to
// judge.MaxEarlierBytes in all (the newest whatever its size): what bots
// may still be obeying across a restart, or since a per-host file was
// last opened. served tells that etag, the version in force, is stored
// too, so was served before.
func readStored(logger *zap.Logger, store share.Storage, site, etag string, now time.Time, window time.Duration) (out []storedVersion, served bool) {
	if store == nil || window <= 0 {
		return nil, false
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	key := versionsKey(site)
	data, err := loadVersions(ctx, store, key)
	switch {
	case errors.Is(err, errVersionsTooLarge):
		warnVersions(logger, share.KindSize, key, "the robots.txt versions kept in storage are far larger than an instance writes and were not read; grace does not know the versions in force before this process started", err)
		return nil, false
	case err != nil:
		if !errors.Is(err, fs.ErrNotExist) {
			warnVersions(logger, share.KindRead, key, "robots.txt versions could not be read from storage; grace does not know the versions in force before this process started", err)
		}
		return nil, false
	}
	var vs []storedVersion
	if err := json.Unmarshal(data, &vs); err != nil {
		warnVersions(logger, share.KindParse, key, "the robots.txt versions kept in storage are damaged; grace does not know the versions in force before this process started", err)
		return nil, false
	}
	// No instance keeps more: the rest are not versions it wrote, and
	// each would be parsed and held.
	vs = vs[:min(len(vs), maxStoredVersions)]
	until := now // each version was in force until the one after it came in
	size := 0
	for _, v := range vs {
		served = served || v.ETag == etag
		if until.Before(now.Add(-window)) || len(out) > 0 && size+len(v.Body) > judge.MaxEarlierBytes {
			break
		}
		until = time.Unix(0, v.Since)
		// The version in force is kept too: grace finds it here once
		// it has left the versions this process keeps.
		size += len(v.Body)
		out = append(out, v)
	}
	return out, served
}
