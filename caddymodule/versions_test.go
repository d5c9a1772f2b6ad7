package caddymodule

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/caddyserver/certmagic"
	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
	"go.uber.org/zap/zaptest/observer"
)

// TestStoredVersionsTroubleIsLogged: versions kept in storage that cannot
// be read, or are damaged, leave grace without them; that is said, with
// the key, once however often it is read.
func TestStoredVersionsTroubleIsLogged(t *testing.T) {
	for _, tc := range []struct {
		name  string
		plant func(path string) error
	}{
		{"damaged", func(path string) error { return os.WriteFile(path, []byte(`[{"etag":"\"v1\"","since":1,"bo`), 0o644) }},
		{"unreadable", func(path string) error { return os.Mkdir(path, 0o755) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			store := &certmagic.FileStorage{Path: t.TempDir()}
			site := "versions-test-" + tc.name
			key := versionsKey(site)
			path := store.Filename(key)
			if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := tc.plant(path); err != nil {
				t.Fatal(err)
			}
			core, logs := observer.New(zapcore.WarnLevel)
			for range 3 {
				if got := storedEarlier(zap.New(core), sharedStorage{store}, site, `"v2"`, time.Now(), time.Hour); got != nil {
					t.Errorf("versions from a %s file: %v", tc.name, got)
				}
			}
			entries := logs.All()
			if len(entries) != 1 {
				t.Fatalf("%d warnings, want 1: %v", len(entries), entries)
			}
			if f := entries[0].ContextMap(); f["key"] != key || f["error"] == nil {
				t.Errorf("warning %q %v does not name the key %s and the error", entries[0].Message, f, key)
			}
		})
	}
}
