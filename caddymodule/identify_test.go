package caddymodule

import (
	"testing"

	"github.com/robotsguard/caddy-robots-txt/internal/testfixtures"
)

// TestFileNamesDoNotMakeBrowsersBots: a robots.txt whose group names a word
// browsers send must not refuse people.
func TestFileNamesDoNotMakeBrowsersBots(t *testing.T) {
	h, _ := newTestHandler(t, configWithInline("User-agent: Intel\nUser-agent: Mozilla\nUser-agent: U\nDisallow: /\n"))
	for _, ua := range []string{
		"Mozilla/5.0 (Macintosh; Intel Mac OS X 14_7_1) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15",
		"Mozilla/5.0 (X11; U; Linux i686; en-US; rv:1.9.0.5) Gecko/2008121621 Firefox/3.0.5",
		testfixtures.UAChrome,
	} {
		if _, err := serve(h, newRequest("GET", "/page", ua)); err != nil {
			t.Errorf("%q was refused: %v", ua, err)
		}
	}
	if _, err := serve(h, newRequest("GET", "/page", "Mozilla/5.0 (compatible; Intel/1.0)")); err == nil {
		t.Error("a client whose product is Intel/1.0 obeys the Intel group")
	}
}
