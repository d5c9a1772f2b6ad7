//go:build unix

package caddymodule

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/robotsguard/caddy-robots-txt/config"
	"github.com/robotsguard/caddy-robots-txt/internal/testfixtures"
)

// TestFIFONeverBlocks: a named pipe where robots.txt should be (in a
// per-request root, say) is refused without being opened in a way that
// waits for a writer, so neither its requests nor other hosts' hang.
func TestFIFONeverBlocks(t *testing.T) {
	dirFIFO, dirOK := t.TempDir(), t.TempDir()
	if err := syscall.Mkfifo(filepath.Join(dirFIFO, "robots.txt"), 0o644); err != nil {
		t.Skipf("no named pipes here: %v", err)
	}
	os.WriteFile(filepath.Join(dirOK, "robots.txt"), []byte("User-agent: *\nDisallow: /a\n"), 0o644)
	h, logs := newTestHandler(t, config.Config{DisableReload: true})
	request := func(root, p string) error {
		r := newRequest("GET", p, testfixtures.UACurl)
		r.Context().Value(caddyhttpVarsKey()).(map[string]any)["root"] = root
		_, err := serve(h, r)
		return err
	}
	done := make(chan error, 2)
	go func() { done <- request(dirFIFO, "/a") }()
	go func() { done <- request(dirOK, "/a") }()
	var refused int
	for range 2 {
		select {
		case err := <-done:
			if err != nil {
				refused++
			}
		case <-time.After(10 * time.Second):
			t.Fatal("a request hung on a named pipe")
		}
	}
	if refused != 1 {
		t.Errorf("%d requests refused, want 1 (the root with a real robots.txt)", refused)
	}
	if logs.FilterMessageSnippet("could not be read").Len() != 1 {
		t.Errorf("the named pipe was not reported: %v", logs.All())
	}
	// In the words of the error at load (config.CheckFile).
	for _, e := range logs.FilterMessageSnippet("could not be read").All() {
		if err, _ := e.ContextMap()["error"].(string); !strings.Contains(err, "is a named pipe, not a regular file") {
			t.Errorf("the named pipe reported as %q", err)
		}
	}
}
