package verify

import (
	"context"
	"fmt"
	"net/netip"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/robotsguard/caddy-robots-txt/caddymodule/crawlers"
)

func TestBroad(t *testing.T) {
	var slash8s []string
	for i := range 256 {
		slash8s = append(slash8s, fmt.Sprintf("%d.0.0.0/8", i))
	}
	for _, tc := range []struct {
		name     string
		prefixes []string
		want     bool
	}{
		{"nothing", nil, false},
		{"every IPv4 address", []string{"0.0.0.0/0"}, true},
		{"every IPv6 address", []string{"::/0"}, true},
		{"IPv4 as two /1s", []string{"0.0.0.0/1", "128.0.0.0/1"}, true},
		{"IPv4 as 256 /8s", slash8s, true},
		{"a /7", []string{"10.0.0.0/7"}, true},
		{"two adjacent /8s", []string{"10.0.0.0/8", "11.0.0.0/8"}, true},
		{"two distant /8s", []string{"10.0.0.0/8", "100.0.0.0/8"}, true},
		{"a /8", []string{"10.0.0.0/8"}, false},
		{"a /8 and what it holds", []string{"10.0.0.0/8", "10.1.0.0/16", "10.0.0.0/8", "10.2.3.4/32"}, false},
		{"a /8 of IPv4 and a /16 of IPv6", []string{"10.0.0.0/8", "2001::/16"}, false},
		{"every IPv4 address, IPv4-mapped", []string{"::ffff:0:0/96"}, true},
		{"a /4 of IPv4, IPv4-mapped", []string{"::ffff:0.0.0.0/100"}, true},
		{"a /8 of IPv4, IPv4-mapped", []string{"::ffff:10.0.0.0/104"}, false},
		{"a /8 mapped and as IPv4", []string{"::ffff:10.0.0.0/104", "10.0.0.0/8"}, false},
		{"global unicast IPv6", []string{"2000::/3"}, true},
		{"a /15 of IPv6", []string{"2a00::/15"}, true},
		{"two /16s of IPv6", []string{"2a00::/16", "2c00::/16"}, true},
		{"a /16 of IPv6", []string{"2a00::/16"}, false},
		{"a /16 of IPv6 less one address, and one more", []string{"2a00::/17", "2a00:8000::/18", "2a00:c000::/19", "2001:db8::1/128"}, false},
		{"a provider's blocks", []string{"66.249.64.0/19", "2001:4860::/32", "192.0.2.0/24"}, false},
	} {
		var ps []netip.Prefix
		for _, s := range tc.prefixes {
			ps = append(ps, netip.MustParsePrefix(s))
		}
		if got := Broad(ps); got != tc.want {
			t.Errorf("%s: Broad = %v, want %v", tc.name, got, tc.want)
		}
	}
}

// broadStep is one copy of a list: the body it is given, whether the copy
// in use is then broad, and the warnings said so far.
type broadStep struct {
	body      string
	broad     bool
	warnings  int
	unchanged bool // the same copy as the step before
}

// TestRangeListWarnsBroadCopy: a file or URL list whose copy takes in a
// large part of the Internet verifies anyone there as its crawlers
// (audit AH-F1). The copy Load finds is in Status for the caller to say
// at its load; each broad copy that comes into force after it is warned
// of once, naming the crawlers and the source, and a refresh that reads
// the same copy again says nothing.
func TestRangeListWarnsBroadCopy(t *testing.T) {
	const broadJSON = `{"prefixes": [{"ipv4Prefix": "0.0.0.0/1"}, {"ipv4Prefix": "128.0.0.0/1"}]}`
	for _, tc := range []struct {
		name  string
		url   bool
		steps []broadStep
	}{
		{name: "file", steps: []broadStep{
			{body: "0.0.0.0/0\n::/0\n", broad: true},
			{body: "0.0.0.0/0\n::/0\n", broad: true, unchanged: true},
			{body: "198.51.100.0/24\n", broad: false},
			{body: "0.0.0.0/1\n128.0.0.0/1\n", broad: true, warnings: 1},
			{body: "0.0.0.0/1\n128.0.0.0/1\n", broad: true, warnings: 1, unchanged: true},
			{body: "# all of IPv6\n::/0\n", broad: true, warnings: 2},
		}},
		{name: "URL", url: true, steps: []broadStep{
			{body: "", broad: false},
			{body: broadJSON, broad: true, warnings: 1},
			{body: broadJSON, broad: true, warnings: 1, unchanged: true},
			{body: goodList, broad: false, warnings: 1},
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			logger, logs := captureLog()
			srv := startListServer(t)
			opts := srv.opts()
			opts.Logger, opts.Snapshots = logger, fstest.MapFS{}
			src := filepath.Join(t.TempDir(), "mymon.txt")
			set := func(body string) {
				t.Helper()
				if tc.url {
					srv.body.Store(body)
				} else if err := os.WriteFile(src, []byte(body), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			if tc.url {
				src = srv.URL + "/mymon.json"
			} else {
				set(tc.steps[0].body)
			}
			base, err := crawlers.Builtin().With(
				crawlers.Crawler{Name: "MyMon", Ranges: []string{src}},
				crawlers.Crawler{Name: "OtherMon", Ranges: []string{src}},
			)
			if err != nil {
				t.Fatal(err)
			}
			v, err := NewVerifier(base, Options{Ranges: opts})
			if err != nil {
				t.Fatal(err)
			}
			l := v.Lists("MyMon")[0]
			ctx := context.Background()
			for i, st := range tc.steps {
				if i == 0 {
					l.Load(ctx)
				} else {
					set(st.body)
					// The list's refresh of a file is forced: one
					// rewritten within the same second can keep its stamp.
					if err := l.Refresh(ctx); err != nil {
						t.Fatalf("step %d: %v", i, err)
					}
				}
				wantSources := []BroadSource(nil)
				if st.broad {
					wantSources = []BroadSource{{Source: src, Crawlers: []string{"MyMon", "OtherMon"}}}
				}
				if got := v.BroadSources(); !slices.EqualFunc(got, wantSources, func(a, b BroadSource) bool {
					return a.Source == b.Source && slices.Equal(a.Crawlers, b.Crawlers)
				}) {
					t.Errorf("step %d: BroadSources = %v, want %v", i, got, wantSources)
				}
				out := logs.String()
				if n := strings.Count(out, "cover a large part of the Internet"); n != st.warnings {
					t.Errorf("step %d (unchanged copy: %v): %d warnings, want %d:\n%s", i, st.unchanged, n, st.warnings, out)
				}
				if st.warnings > 0 && (!strings.Contains(out, `crawler="MyMon, OtherMon"`) || !strings.Contains(out, "source="+src)) {
					t.Errorf("step %d: the warning does not name the crawlers and the source:\n%s", i, out)
				}
				if !strings.Contains(out, "level=WARN msg=\"a crawler's ranges") && st.warnings > 0 {
					t.Errorf("step %d: not a WARN:\n%s", i, out)
				}
			}
		})
	}
}

// BenchmarkBroad measures a published list at the size limit's scale:
// 50,000 prefixes of both families, sorted once as NewSet sorts them.
func BenchmarkBroad(b *testing.B) {
	var ps []netip.Prefix
	for i := range 25000 {
		ps = append(ps, netip.PrefixFrom(netip.AddrFrom4([4]byte{byte(i >> 16), byte(i >> 8), byte(i), 0}), 24))
		ps = append(ps, netip.PrefixFrom(netip.AddrFrom16([16]byte{0x20, 0x01, 0x0d, 0xb8, byte(i >> 8), byte(i)}), 48))
	}
	b.ReportAllocs()
	for b.Loop() {
		if Broad(ps) {
			b.Fatal("broad")
		}
	}
}
