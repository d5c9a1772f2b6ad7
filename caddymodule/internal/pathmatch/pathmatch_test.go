package pathmatch

import (
	"encoding/json"
	"testing"
)

func TestSets(t *testing.T) {
	t.Setenv("PATHMATCH_TEST_PREFIX", "/app")
	for _, tc := range []struct {
		name, sets   string
		r            Request
		takes, known bool
	}{
		{"no matchers", `[]`, Request{Path: "/robots.txt"}, true, true},
		{"a prefix that takes it", `[{"path": ["/*"]}]`, Request{Path: "/robots.txt"}, true, true},
		{"a prefix that does not", `[{"path": ["/blog/*"]}]`, Request{Path: "/robots.txt"}, false, true},
		{"case ignored, as Caddy does", `[{"path": ["/ROBOTS.TXT"]}]`, Request{Path: "/robots.txt"}, true, true},
		{"one of several patterns", `[{"path": ["/blog/*", "/robots.txt"]}]`, Request{Path: "/robots.txt"}, true, true},
		{"a suffix", `[{"path": ["*.txt"]}]`, Request{Path: "/robots.txt"}, true, true},
		{"another set takes it", `[{"path": ["/blog/*"]}, {"path": ["/robots.txt"]}]`, Request{Path: "/robots.txt"}, true, true},
		{"a path not known", `[{"path": ["/blog/*"]}]`, Request{PathUnknown: true}, true, false},
		// All of a set's matchers must match: one that does not
		// decides, whatever else the set holds.
		{"a header beside a path that does not take it", `[{"path": ["/blog/*"], "header": {"X-A": ["1"]}}]`, Request{Path: "/robots.txt"}, false, true},
		{"a header: the request decides", `[{"header": {"X-A": ["1"]}}]`, Request{Path: "/robots.txt"}, true, false},
		{"a host that matches", `[{"host": ["a.example"], "path": ["/robots.txt"]}]`, Request{Path: "/robots.txt", Host: "a.example"}, true, true},
		{"another host", `[{"host": ["b.example"]}]`, Request{Path: "/robots.txt", Host: "a.example"}, false, true},
		{"a wildcard host", `[{"host": ["*.example"]}]`, Request{Path: "/robots.txt", Host: "a.example"}, true, true},
		{"a host not known", `[{"host": ["a.example"]}]`, Request{Path: "/robots.txt"}, true, false},
		{"a placeholder from the request", `[{"path": ["/{http.request.host}/*"]}]`, Request{Path: "/robots.txt"}, true, false},
		{"a placeholder beside a pattern that takes it", `[{"path": ["/{http.request.host}/*", "/robots.txt"]}]`, Request{Path: "/robots.txt"}, true, true},
		{"an environment placeholder, filled in as Caddy does", `[{"path": ["{env.PATHMATCH_TEST_PREFIX}/*"]}]`, Request{Path: "/robots.txt"}, false, true},
		{"an environment placeholder that takes it", `[{"path": ["{env.PATHMATCH_TEST_PREFIX}/*"]}]`, Request{Path: "/app/x"}, true, true},
		{"a method a GET is not", `[{"method": ["POST"]}]`, Request{Path: "/robots.txt"}, false, true},
		{"a method a GET is", `[{"method": ["GET", "HEAD"]}]`, Request{Path: "/robots.txt"}, true, true},
		{"not a path that takes it", `[{"not": [{"path": ["/robots.txt"]}]}]`, Request{Path: "/robots.txt"}, false, true},
		{"not a path that does not", `[{"not": [{"path": ["/static/*"]}]}]`, Request{Path: "/robots.txt"}, true, true},
		{"not a header", `[{"not": [{"header": {"X-A": ["1"]}}]}]`, Request{Path: "/robots.txt"}, true, false},
		{"a regular expression that takes it", `[{"path_regexp": {"name": "m", "pattern": "^/robots\\.txt$"}}]`, Request{Path: "/robots.txt"}, true, true},
		{"a regular expression that does not", `[{"path_regexp": {"pattern": "^/app/"}}]`, Request{Path: "/robots.txt"}, false, true},
		{"no paths", `[{"path": []}]`, Request{Path: "/robots.txt"}, false, true},
		{"no hosts", `[{"host": []}]`, Request{Path: "/robots.txt"}, false, true},
		{"a method in lower case, which Caddy takes in capitals", `[{"method": ["get"]}]`, Request{Path: "/robots.txt"}, true, true},
		{"a method a rewrite set", `[{"method": ["POST"]}]`, Request{Path: "/robots.txt", Method: "POST"}, true, true},
		{"a method not known", `[{"method": ["POST"]}]`, Request{Path: "/robots.txt", MethodUnknown: true}, true, false},
		{"a regular expression with a quantifier, not a placeholder", `[{"path_regexp": {"pattern": "^/[a-z]{3}/"}}]`, Request{Path: "/app/x"}, true, true},
		{"a path that starts with two slashes", `[{"path": ["/x*"]}]`, Request{Path: "//private/x"}, false, true},
		{"a relative path, as a rewrite can leave", `[{"path": ["/gen"]}]`, Request{Path: "gen"}, false, true},
		{"the trap under a prefix", `[{"path": ["/app/*"]}]`, Request{Path: "/.well-known/robots-trap/"}, false, true},
		{"a set known not to, another unknown", `[{"path": ["/blog/*"]}, {"header": {"X-A": ["1"]}}]`, Request{Path: "/robots.txt"}, true, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var sets []map[string]json.RawMessage
			if err := json.Unmarshal([]byte(tc.sets), &sets); err != nil {
				t.Fatal(err)
			}
			takes, known := Sets(sets, tc.r)
			if takes != tc.takes || known != tc.known {
				t.Errorf("Sets(%s, %+v) = %v, %v; want %v, %v", tc.sets, tc.r, takes, known, tc.takes, tc.known)
			}
		})
	}
}
