package caddymodule

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/caddyserver/certmagic"
	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
	"go.uber.org/zap/zaptest/observer"

	"github.com/robotsguard/caddy-robots-txt/caddymodule/share"
)

// TestSharedFileStorage: Caddy's file system storage, as the handler
// hands it to share, carries records between instances, and a blob that
// did not change is not read again.
func TestSharedFileStorage(t *testing.T) {
	ctx := context.Background()
	store := sharedStorage{&certmagic.FileStorage{Path: t.TempDir()}}
	var got []share.Fetch
	a := share.New(store, "site", "a", time.Hour, share.Callbacks{})
	b := share.New(store, "site", "b", time.Hour, share.Callbacks{Fetch: func(f share.Fetch) { got = append(got, f) }})
	a.RecordFetch(share.Fetch{Bot: "GPTBot", Addr: "192.0.2.1", At: 1})
	if err := a.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	for range 3 {
		if err := b.Sync(ctx); err != nil {
			t.Fatal(err)
		}
	}
	if len(got) != 1 || got[0].Bot != "GPTBot" {
		t.Errorf("B got %v, want A's one fetch once", got)
	}
}

// writeJunkBlobs writes n one-byte blobs beside the blob of a, which
// has written one, as anyone who can write to a file system storage can.
func writeJunkBlobs(tb testing.TB, store *certmagic.FileStorage, n int) {
	tb.Helper()
	dirs, err := store.List(context.Background(), "robots_txt/shared", false)
	if err != nil || len(dirs) != 1 {
		tb.Fatalf("listing the shared state: %v, %v; want one directory", dirs, err)
	}
	dir := store.Filename(dirs[0])
	for i := range n {
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("junk%d@x.json", i)), []byte("{"), 0o600); err != nil {
			tb.Fatal(err)
		}
	}
}

// TestJunkBlobsAreLoggedTogether: the damaged blobs a storage is filled
// with are warned of in one line, which names one and counts the others,
// not in one line each.
func TestJunkBlobsAreLoggedTogether(t *testing.T) {
	ctx := context.Background()
	files := &certmagic.FileStorage{Path: t.TempDir()}
	core, logs := observer.New(zapcore.InfoLevel)
	logger := zap.New(core)
	a := share.New(sharedStorage{files}, "site", "a", time.Hour, share.Callbacks{})
	a.RecordFetch(share.Fetch{Bot: "GPTBot", Addr: "192.0.2.1", At: 1})
	if err := a.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	const junk = 3000
	writeJunkBlobs(t, files, junk)
	b := share.New(sharedStorage{files}, "site", "b", time.Hour, share.Callbacks{
		Warn: func(w share.Warning) { logStorageWarning(logger, w) },
	})
	for range junk/share.MaxBlobsPerSync + 2 { // each is read
		b.Sync(ctx)
	}
	entries := logs.All()
	if len(entries) != 1 {
		t.Fatalf("%d lines logged of %d damaged blobs, want one", len(entries), junk)
	}
	fields := entries[0].ContextMap()
	if n, _ := fields["similar_suppressed"].(int64); n < share.MaxBlobsPerSync/2 || !strings.Contains(fmt.Sprint(fields["key"]), "junk") {
		t.Errorf("logged %q with %v, want a junk blob's key and the count of the others read with it", entries[0].Message, fields)
	}
}

// BenchmarkSyncJunkBlobs: a Sync of a storage that someone filled with
// 20,000 one-byte blobs, on Caddy's file system storage, once each has
// been read (the cost of every interval from then on).
func BenchmarkSyncJunkBlobs(b *testing.B) {
	ctx := context.Background()
	files := &certmagic.FileStorage{Path: b.TempDir()}
	a := share.New(sharedStorage{files}, "site", "a", time.Hour, share.Callbacks{})
	a.RecordFetch(share.Fetch{Bot: "GPTBot", Addr: "192.0.2.1", At: 1})
	if err := a.Flush(ctx); err != nil {
		b.Fatal(err)
	}
	const junk = 20_000
	writeJunkBlobs(b, files, junk)
	s := share.New(sharedStorage{files}, "site", "b", time.Hour, share.Callbacks{})
	for range 2 * (junk/share.MaxBlobsPerSync + 1) {
		s.Sync(ctx)
	}
	b.ReportAllocs()
	for b.Loop() {
		s.Sync(ctx)
	}
}
