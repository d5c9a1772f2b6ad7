package botdetect

import (
	"strings"
	"testing"
)

// TestClientName: libraries, command-line clients, runtimes and headless
// browsers are clients; crawlers, services and made-up names are not.
func TestClientName(t *testing.T) {
	for _, tc := range []struct {
		name string
		want bool
	}{
		{"libwww-perl", true},
		{"python-requests", true},
		{"Python-urllib", true},
		{"curl", true},
		{"Wget", true},
		{"Go-http-client", true},
		{"okhttp", true},
		{"Java", true},
		{"Scrapy", true},
		{"HeadlessChrome", true},
		{"node-fetch", true},
		{"axios", true},
		{"Apache-HttpClient", true},
		{"GuzzleHttp", true},
		{"AcmeBot", false},
		{"GPTBot", false},
		{"Googlebot", false},
		{"W3C-checklink", false},
		{"LongerFooBot", false},
		{"Curlew", false},
		{"Javelin", false},
		{"", false},
	} {
		if got := ClientName(tc.name); got != tc.want {
			t.Errorf("ClientName(%q) = %v, want %v", tc.name, got, tc.want)
		}
	}
}

// TestClientNameAllocates: a long name costs no allocation.
func TestClientNameAllocates(t *testing.T) {
	long := strings.Repeat("pyth", 5000)
	if n := testing.AllocsPerRun(10, func() { ClientName(long) }); n != 0 {
		t.Errorf("ClientName allocates %v times", n)
	}
}
