package caddymodule

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/robotsguard/caddy-robots-txt/config"
)

// TestIncludedListFindings: the merge rewrites an included list in the
// standard spelling, so the list's own findings are logged from the list,
// naming it.
func TestIncludedListFindings(t *testing.T) {
	list := filepath.Join(t.TempDir(), "list.txt")
	os.WriteFile(list, []byte("User-agent: NewBot\nDisalow: /x\nfoo: bar\n"), 0o644)
	_, logs := newTestHandler(t, config.Config{File: writeRobots(t, "User-agent: *\nDisallow: /a\n"), Include: []string{list}, DisableReload: true})
	found := logs.FilterMessage("robots.txt included list has findings").All()
	if len(found) == 0 {
		t.Fatalf("no findings logged for the list; log: %v", logs.All())
	}
	ctx := found[0].ContextMap()
	diags := fmt.Sprint(ctx["diagnostics"])
	if ctx["list"] != list || !strings.Contains(diags, "line 2") || !strings.Contains(diags, "line 3") {
		t.Errorf("findings %v for %v; want the list named and lines 2 (disalow) and 3 (foo)", diags, ctx["list"])
	}
}
