package caddymodule

import (
	"net/url"
	"testing"
)

func TestJudgedPaths(t *testing.T) {
	for _, tc := range []struct {
		uri, primary, alt string
	}{
		{"/private/x", "/private/x", ""},
		{"/%70rivate/x", "/private/x", ""},
		{"//private/x", "/private/x", ""},
		{"/./private/x", "/private/x", ""},
		{"/public/../private/x", "/private/x", ""},
		{"/public/%2E%2E/private/x", "/private/x", "/public/%2E%2E/private/x"},
		{"/private%2Fx", "/private/x", "/private%2Fx"},
		{"/a%3Fb?c=d", "/a%3Fb?c=d", ""},
		{"/caf%C3%A9", "/caf%C3%A9", ""},
		{"/dir/", "/dir/", ""},
		{"/a b", "/a%20b", ""},
		{"/100%25", "/100%25", ""},
		{"/x?q=%2F", "/x?q=%2F", ""},
	} {
		u, err := url.ParseRequestURI(tc.uri)
		if err != nil {
			t.Fatalf("%s: %v", tc.uri, err)
		}
		p, a := JudgedPaths(u)
		if p != tc.primary || a != tc.alt {
			t.Errorf("%s: got (%q, %q), want (%q, %q)", tc.uri, p, a, tc.primary, tc.alt)
		}
	}
}
