package caddymodule

import (
	"os"
	"testing"
	"time"

	"github.com/robotsguard/caddy-robots-txt/config"
	"github.com/robotsguard/caddy-robots-txt/internal/testfixtures"
)

// TestRefreshInPlaceKeptTimes: an edit written into the same file (cp -p)
// with its size and modification time set back is seen by its change
// time.
func TestRefreshInPlaceKeptTimes(t *testing.T) {
	path := writeRobots(t, "User-agent: *\nDisallow: /a\n")
	kept := time.Date(2001, 1, 1, 0, 0, 0, 0, time.UTC)
	os.Chtimes(path, kept, kept)
	h, _ := newTestHandler(t, config.Config{File: path, DisableReload: true, Grace: noGrace})
	time.Sleep(10 * time.Millisecond) // let the change time move on coarse clocks
	os.WriteFile(path, []byte("User-agent: *\nDisallow: /b\n"), 0o644)
	os.Chtimes(path, kept, kept)
	h.fixed.refresh()
	if _, err := serve(h, newRequest("GET", "/b", testfixtures.UACurl)); err == nil {
		t.Fatal("an edit in place with the old size and time was not loaded")
	}
}
