package pathmatch

import (
	"encoding/json"
	"testing"
)

func TestSets(t *testing.T) {
	for _, tc := range []struct {
		name, sets, path string
		ignoreHost       bool
		takes, known     bool
	}{
		{"no matchers", `[]`, "/robots.txt", false, true, true},
		{"a prefix that takes it", `[{"path": ["/*"]}]`, "/robots.txt", false, true, true},
		{"a prefix that does not", `[{"path": ["/blog/*"]}]`, "/robots.txt", false, false, true},
		{"case ignored, as Caddy does", `[{"path": ["/ROBOTS.TXT"]}]`, "/robots.txt", false, true, true},
		{"one of several patterns", `[{"path": ["/blog/*", "/robots.txt"]}]`, "/robots.txt", false, true, true},
		{"a suffix", `[{"path": ["*.txt"]}]`, "/robots.txt", false, true, true},
		{"another set takes it", `[{"path": ["/blog/*"]}, {"path": ["/robots.txt"]}]`, "/robots.txt", false, true, true},
		{"a host, ignored", `[{"host": ["a.example"], "path": ["/blog/*"]}]`, "/robots.txt", true, false, true},
		{"a host, not ignored", `[{"host": ["a.example"]}]`, "/robots.txt", false, true, false},
		{"a header: the request decides", `[{"header": {"X-A": ["1"]}}]`, "/robots.txt", false, true, false},
		// All of a set's matchers must match: a path that does not
		// decides, whatever else the set holds.
		{"a header beside a path that does not take it", `[{"path": ["/blog/*"], "header": {"X-A": ["1"]}}]`, "/robots.txt", false, false, true},
		{"a placeholder: the request may decide", `[{"path": ["/{http.request.host}/*"]}]`, "/robots.txt", false, true, false},
		{"a placeholder beside a pattern that takes it", `[{"path": ["/{http.request.host}/*", "/robots.txt"]}]`, "/robots.txt", false, true, true},
		{"the trap under a prefix", `[{"path": ["/app/*"]}]`, "/.well-known/robots-trap/", false, false, true},
		{"a set known not to, another unknown", `[{"path": ["/blog/*"]}, {"not": [{"path": ["/x"]}]}]`, "/robots.txt", false, true, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var sets []map[string]json.RawMessage
			if err := json.Unmarshal([]byte(tc.sets), &sets); err != nil {
				t.Fatal(err)
			}
			takes, known := Sets(sets, tc.path, tc.ignoreHost)
			if takes != tc.takes || known != tc.known {
				t.Errorf("Sets(%s, %q) = %v, %v; want %v, %v", tc.sets, tc.path, takes, known, tc.takes, tc.known)
			}
		})
	}
}
