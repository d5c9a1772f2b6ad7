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
		{"/private/x", Paths{Primary: "/private/x"}},
		{"/%70rivate/x", Paths{Primary: "/private/x"}},
		{"//private/x", Paths{Primary: "/private/x", Raw: "//private/x"}},
		{"/./private/x", Paths{Primary: "/private/x", Raw: "/./private/x"}},
		{"/public/../private/x", Paths{Primary: "/private/x", Raw: "/public/../private/x"}},
		{"/public/%2E%2E/private/x", Paths{Primary: "/private/x", Alt: "/public/%2E%2E/private/x", Raw: "/public/../private/x"}},
		// As sent, a backend that does not resolve dot-segments routes
		// it to /private/.
		{"/private/../public/", Paths{Primary: "/public/", Raw: "/private/../public/"}},
		// Escaped slashes around the dot-segment: routers that read the
		// decoded path without resolving it see "/private/../public/".
		{"/private%2F..%2Fpublic/", Paths{Primary: "/public/", Alt: "/private%2F..%2Fpublic/", Raw: "/private/../public/"}},
		{"/private%2F../public/", Paths{Primary: "/public/", Alt: "/private%2F../public/", Raw: "/private/../public/"}},
		{"/private%2Fx", Paths{Primary: "/private/x", Alt: "/private%2Fx"}},
		{"/a%3Fb?c=d", Paths{Primary: "/a%3Fb?c=d"}},
		{"/caf%C3%A9", Paths{Primary: "/caf%C3%A9"}},
		{"/dir/", Paths{Primary: "/dir/"}},
		// A final dot-segment leaves a directory (RFC 3986 §5.2.4), and
		// a file server opens the file before it.
		{"/private/.", Paths{Primary: "/private/", Raw: "/private/.", File: "/private"}},
		{"/private/x/..", Paths{Primary: "/private/", Raw: "/private/x/..", File: "/private"}},
		{"/private/x/%2E%2E", Paths{Primary: "/private/", Alt: "/private/x/%2E%2E", Raw: "/private/x/..", File: "/private"}},
		{"/docs/a.pdf/.?x=1", Paths{Primary: "/docs/a.pdf/?x=1", Raw: "/docs/a.pdf/.?x=1", File: "/docs/a.pdf?x=1"}},
		{"/private/..", Paths{Primary: "/", Raw: "/private/.."}},
		{"/private/.x", Paths{Primary: "/private/.x"}},
		{"/private/..x/", Paths{Primary: "/private/..x/"}},
		{"/a b", Paths{Primary: "/a%20b"}},
		{"/a b/../c", Paths{Primary: "/c", Raw: "/a%20b/../c"}},
		{"/100%25", Paths{Primary: "/100%25"}},
		{"/x?q=%2F", Paths{Primary: "/x?q=%2F"}},
		{"/x?q=/../y", Paths{Primary: "/x?q=/../y"}},
		{"/secret?", Paths{Primary: "/secret?"}},
		{"/secret", Paths{Primary: "/secret"}},
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
		{"https://example.com/%70rivate/x?y=1#frag", Paths{Primary: "/private/x?y=1"}},
		{"/a/../b", Paths{Primary: "/b", Raw: "/a/../b"}},
		{"example.com", Paths{Primary: "/"}},
		// A path as a request line carries it, not a URL of host "private".
		{"//private/", Paths{Primary: "/private/", Raw: "//private/"}},
		{"//robots.txt", Paths{Primary: "/robots.txt", Raw: "//robots.txt"}},
	} {
		if got := PathsOfTarget(tc.target); got != tc.want {
			t.Errorf("%s: got %+v, want %+v", tc.target, got, tc.want)
		}
	}
}
