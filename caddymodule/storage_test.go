package caddymodule

import (
	"context"
	"testing"
	"time"

	"github.com/caddyserver/certmagic"

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
