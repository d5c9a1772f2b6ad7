package caddymodule

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/robotsguard/caddy-robots-txt/config"
	"go.uber.org/zap/zapcore"
)

// TestDynamicMissingTenantFileWarned: with a {host} root, the warnings
// for missing files went through one limiter, a line a minute: a client
// sending a made-up Host each minute took every line, and a tenant whose
// directory is there but whose robots.txt is not, its rules not enforced,
// was never named (audit Y-F5). A tenant's missing file is warned about
// once, whatever made-up hosts came first; made-up hosts stay limited.
func TestDynamicMissingTenantFileWarned(t *testing.T) {
	for _, tc := range []struct {
		name string
		file string // under sites; "" for a root of sites/{host}
		// path is where a host's file is looked for, under sites.
		path string
		// tenant: a missing file in a directory there is the tenant's
		// own, warned about apart from the made-up hosts.
		tenant bool
	}{
		{"host root", "", "%s/robots.txt", true},
		{"host directory in file", "{http.request.host}/robots.txt", "%s/robots.txt", true},
		// The directory is there for any Host: nothing tells the
		// tenant from a made-up host, and the limiter must hold.
		{"host in the file name only", "{http.request.host}.txt", "%s.txt", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sites := filepath.Join(t.TempDir(), "sites")
			if err := os.MkdirAll(filepath.Join(sites, "real.example"), 0o755); err != nil {
				t.Fatal(err)
			}
			cfg := config.Config{DisableReload: true}
			if tc.file != "" {
				cfg.File = filepath.Join(sites, tc.file)
			}
			h, logs := newTestHandler(t, cfg)
			path := func(host string) string { return filepath.Join(sites, fmt.Sprintf(tc.path, host)) }
			warned := func(host string) []map[string]any {
				var got []map[string]any
				for _, e := range logs.FilterMessageSnippet("robots.txt not found").FilterLevelExact(zapcore.WarnLevel).All() {
					if m := e.ContextMap(); m["file"] == path(host) {
						got = append(got, m)
					}
				}
				return got
			}
			request := func(host string) {
				t.Helper()
				if _, err := serve(h, hostRootRequest(sites, host, "/x")); err != nil {
					t.Fatalf("%s: %v, want the request passed on: it has no robots.txt", host, err)
				}
			}

			request("made-up-1.example") // takes the minute's line
			request("real.example")
			request("made-up-2.example")

			if n := len(warned("made-up-1.example")); n != 1 {
				t.Errorf("the first made-up host warned about %d times, want once", n)
			}
			if n := len(warned("made-up-2.example")); n != 0 {
				t.Errorf("a second made-up host within the minute warned about %d times, want none", n)
			}
			got := warned("real.example")
			if !tc.tenant {
				if len(got) != 0 {
					t.Errorf("warnings %v; want none within the minute: the directory says nothing of the host", got)
				}
				return
			}
			if len(got) != 1 {
				t.Fatalf("the tenant's missing file warned about %d times after a made-up host, want once: %v", len(got), logs.All())
			}
			if got[0]["directory_exists"] != true {
				t.Errorf("the tenant's warning: %v, want directory_exists true", got[0])
			}
			if _, ok := got[0]["similar_suppressed"]; ok {
				t.Errorf("the tenant's warning: %v, want no similar_suppressed: it is limited by nothing else", got[0])
			}
			if m := warned("made-up-1.example")[0]; m["directory_exists"] != false {
				t.Errorf("the made-up host's warning: %v, want directory_exists false", m)
			}

			// Read again once pushed out of the files kept, it is no news.
			h.dynamic.absent.Purge()
			request("real.example")
			if n := len(warned("real.example")); n != 1 {
				t.Errorf("the tenant's missing file warned about %d times after it was read again, want once", n)
			}

			// A tenant asked for before its directory is made (a name
			// known before the deploy), just after a made-up host: when
			// the directory comes, the next check says its file is
			// missing, once.
			request("made-up-3.example")
			request("later.example")
			if err := os.MkdirAll(filepath.Join(sites, "later.example"), 0o755); err != nil {
				t.Fatal(err)
			}
			h.dynamic.check()
			h.dynamic.check()
			got = warned("later.example")
			if len(got) != 1 || got[0]["directory_exists"] != true {
				t.Errorf("a tenant whose directory came after its first request: warnings %v, want one with directory_exists true", got)
			}
		})
	}
}
