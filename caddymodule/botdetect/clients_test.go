package botdetect

import (
	"strings"
	"testing"
)

// TestClientName: libraries, command-line clients and runtimes are
// clients; crawlers, site copiers, headless browsers, services and
// made-up names are not.
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
		{"node-fetch", true},
		{"axios", true},
		{"Apache-HttpClient", true},
		{"GuzzleHttp", true},
		{"WWW-Mechanize", true},
		{"Java-http-client", true},
		{"Zend_Http_Client", true},
		{"HTTPClient", true},
		// Crawlers, site copiers, headless browsers and services a
		// site names to refuse them (audit AI-F2).
		{"HTTrack", false},
		{"Nutch", false},
		{"Heritrix", false},
		{"Siteimprove", false},
		{"Scrapy", false},
		{"HeadlessChrome", false},
		{"EmailSiphon", false},
		// Crawlers whose names start like a library's, or hold a
		// crawler's word (audit AK-F2).
		{"PHPCrawl", false},
		{"Pythonista", false},
		{"Javabot", false},
		{"wgetbot", false},
		{"NodeCrawler", false},
		{"Python-Crawler", false},
		{"GoBot", false},
		{"Python", true},
		{"PHP", true},
		{"LWP::Simple", true},
		{"aiohttp", true},
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

// TestPeopleName: the names of people's software and platforms, which no
// crawler goes by, as a header gives them.
func TestPeopleName(t *testing.T) {
	for _, tc := range []struct {
		name string
		want bool
	}{
		{"Ubuntu", true},
		{"OPR", true},
		{"Firefox", true},
		{"Android", true},
		{"Thunderbird", true},
		{"MyCrawler", false},
		{"chklinks", false},
		{"Operator", false},
		{"python-requests", false},
	} {
		if got := PeopleName(tc.name); got != tc.want {
			t.Errorf("PeopleName(%q) = %v, want %v", tc.name, got, tc.want)
		}
	}
}
