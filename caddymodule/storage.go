package caddymodule

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"time"

	"github.com/caddyserver/certmagic"
	"go.uber.org/zap"

	"github.com/robotsguard/caddy-robots-txt/caddymodule/share"
)

// sharedStorage is Caddy's storage as package share needs it.
type sharedStorage struct{ certmagic.Storage }

// Stat tells share whether a blob changed, and how large it is, without
// reading it.
func (s sharedStorage) Stat(ctx context.Context, key string) (share.Info, error) {
	i, err := s.Storage.Stat(ctx, key)
	return share.Info{Modified: i.Modified, Size: i.Size}, err
}

// storageIdentity names a storage by what it is and how it is
// configured: Caddy makes a new storage value at each configuration load,
// and a reload that keeps the storage must keep sharing as it was, while
// one that moves to another must move the sharing with it. A storage
// module's String (certmagic.FileStorage: its path) and its JSON (the
// configuration of most modules) say it; their hash keeps credentials
// out of the keys.
func storageIdentity(st certmagic.Storage) string {
	id := fmt.Sprintf("%T", st)
	if s, ok := st.(fmt.Stringer); ok {
		id += "\x00" + s.String()
	}
	if b, err := json.Marshal(st); err == nil {
		id += "\x00" + string(b)
	} else if _, ok := st.(fmt.Stringer); !ok {
		// Nothing says what it is: a new one at each load.
		id += fmt.Sprintf("\x00%p", st)
	}
	sum := sha256.Sum256([]byte(id))
	return hex.EncodeToString(sum[:12])
}

// logStorageWarning logs a failure of the storage the bots' state is
// shared through: a storage that fails must not turn sharing off unseen.
func logStorageWarning(logger *zap.Logger, w share.Warning) {
	if logger == nil {
		return
	}
	fields := []zap.Field{zap.String("key", w.Key), zap.Error(w.Err)}
	if w.Suppressed > 0 {
		fields = append(fields, zap.Int("suppressed", w.Suppressed))
	}
	if w.Similar > 0 {
		fields = append(fields, zap.Int("similar_suppressed", w.Similar))
	}
	if w.Copy != "" {
		fields = append(fields, zap.String("copy", w.Copy), zap.Int("records_restored", w.Restored))
	}
	logger.Warn(w.Message(), fields...)
}

// versionWarnings rate-limits the warnings about the stored versions of
// robots.txt, which every reload of a file that keeps changing reads.
var versionWarnings share.Warnings

// warnVersions logs msg about the stored versions under key, at most
// once per share.WarnEvery for one kind and key.
func warnVersions(logger *zap.Logger, kind, key, msg string, err error) {
	if logger == nil {
		return
	}
	n, ok := versionWarnings.Allow(kind, key, time.Now())
	if !ok {
		return
	}
	fields := []zap.Field{zap.String("key", key), zap.Error(err)}
	if n > 0 {
		fields = append(fields, zap.Int("suppressed", n))
	}
	logger.Warn(msg, fields...)
}
