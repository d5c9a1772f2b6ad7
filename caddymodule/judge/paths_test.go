package judge

import (
	"net/url"
	"testing"
)

func TestPathsOf(t *testing.T) {
	for _, tc := range []struct {
		uri  string
		want Paths
	}{
		{"/private/x", Paths{"/private/x", ""}},
		{"/%70rivate/x", Paths{"/private/x", ""}},
		{"//private/x", Paths{"/private/x", ""}},
		{"/./private/x", Paths{"/private/x", ""}},
		{"/public/../private/x", Paths{"/private/x", ""}},
		{"/public/%2E%2E/private/x", Paths{"/private/x", "/public/%2E%2E/private/x"}},
		{"/private%2Fx", Paths{"/private/x", "/private%2Fx"}},
		{"/a%3Fb?c=d", Paths{"/a%3Fb?c=d", ""}},
		{"/caf%C3%A9", Paths{"/caf%C3%A9", ""}},
		{"/dir/", Paths{"/dir/", ""}},
		// A final dot-segment leaves a directory (RFC 3986 §5.2.4).
		{"/private/.", Paths{"/private/", ""}},
		{"/private/x/..", Paths{"/private/", ""}},
		{"/private/x/%2E%2E", Paths{"/private/", "/private/x/%2E%2E"}},
		{"/private/..", Paths{"/", ""}},
		{"/private/.x", Paths{"/private/.x", ""}},
		{"/a b", Paths{"/a%20b", ""}},
		{"/100%25", Paths{"/100%25", ""}},
		{"/x?q=%2F", Paths{"/x?q=%2F", ""}},
		{"/secret?", Paths{"/secret?", ""}},
		{"/secret", Paths{"/secret", ""}},
	} {
		u, err := url.ParseRequestURI(tc.uri)
		if err != nil {
			t.Fatalf("%s: %v", tc.uri, err)
		}
		if got := PathsOf(u); got != tc.want {
			t.Errorf("%s: got %+v, want %+v", tc.uri, got, tc.want)
		}
	}
	// Targets that are no path are the site's root: "GET *" and
	// "CONNECT host:port" reach the backend as any other request does.
	for _, u := range []*url.URL{{Path: "*"}, {Host: "a.test:80"}, {Opaque: "x"}} {
		if got := PathsOf(u); got.Primary != "/" {
			t.Errorf("%#v: judged as %q, want /", u, got.Primary)
		}
	}
}

func TestPathsOfTarget(t *testing.T) {
	for _, tc := range []struct {
		target string
		want   Paths
	}{
		{"https://example.com/%70rivate/x?y=1#frag", Paths{"/private/x?y=1", ""}},
		{"/a/../b", Paths{"/b", ""}},
		{"example.com", Paths{"/", ""}},
		// A path as a request line carries it, not a URL of host "private".
		{"//private/", Paths{"/private/", ""}},
		{"//robots.txt", Paths{"/robots.txt", ""}},
	} {
		if got := PathsOfTarget(tc.target); got != tc.want {
			t.Errorf("%s: got %+v, want %+v", tc.target, got, tc.want)
		}
	}
}
