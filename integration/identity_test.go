package integration

import (
	"fmt"
	"net"
	"net/http"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/miekg/dns"

	"github.com/robotsguard/caddy-robots-txt/internal/testfixtures"
)

// dnsServer is a real DNS server on a loopback UDP port: PTR and A records
// from its tables, everything else NXDOMAIN. It counts the queries it gets.
type dnsServer struct {
	addr    string
	queries atomic.Int64
}

func startDNS(t *testing.T, ptr map[string]string, a map[string]string) *dnsServer {
	t.Helper()
	pc, err := net.ListenPacket("udp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := &dnsServer{addr: pc.LocalAddr().String()}
	mux := dns.NewServeMux()
	mux.HandleFunc(".", func(w dns.ResponseWriter, req *dns.Msg) {
		s.queries.Add(1)
		m := new(dns.Msg)
		m.SetReply(req)
		q := req.Question[0]
		switch q.Qtype {
		case dns.TypePTR:
			if name, ok := ptr[q.Name]; ok {
				m.Answer = append(m.Answer, &dns.PTR{Hdr: dns.RR_Header{Name: q.Name, Rrtype: dns.TypePTR, Class: dns.ClassINET, Ttl: 60}, Ptr: name})
			}
		case dns.TypeA:
			if ip, ok := a[q.Name]; ok {
				m.Answer = append(m.Answer, &dns.A{Hdr: dns.RR_Header{Name: q.Name, Rrtype: dns.TypeA, Class: dns.ClassINET, Ttl: 60}, A: net.ParseIP(ip)})
			}
		}
		if len(m.Answer) == 0 && q.Qtype != dns.TypeAAAA {
			m.Rcode = dns.RcodeNameError
		}
		w.WriteMsg(m)
	})
	srv := &dns.Server{PacketConn: pc, Handler: mux}
	go srv.ActivateAndServe()
	t.Cleanup(func() { srv.Shutdown() })
	return s
}

const uaApplebot = "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/13.1.1 Safari/605.1.15 (Applebot/0.1; +http://www.apple.com/go/applebot)"

const uaYandexImages = "Mozilla/5.0 (compatible; YandexImages/3.0; +http://yandex.com/bots)"

// TestIdentity: claims to be crawlers are checked against real parts — a
// DNS server for reverse DNS, a file of IP ranges — and failed claims are
// impostors, judged by the * group and named apart.
func TestIdentity(t *testing.T) {
	t.Parallel()
	// 192.0.2.10 reverse-resolves to a Googlebot name that resolves back
	// to it; 192.0.2.66 claims a Googlebot name that does not resolve
	// back (a spoofed PTR); 192.0.2.77 has a look-alike name.
	dnsSrv := startDNS(t,
		map[string]string{
			"10.2.0.192.in-addr.arpa.": "crawl-192-0-2-10.googlebot.com.",
			"66.2.0.192.in-addr.arpa.": "crawl-66-249-66-1.googlebot.com.",
			"77.2.0.192.in-addr.arpa.": "crawl.evilgooglebot.com.",
			"20.2.0.192.in-addr.arpa.": "17-58-101-20.applebot.apple.com.",
			"30.2.0.192.in-addr.arpa.": "spider-192-0-2-30.yandex.com.",
		},
		map[string]string{
			"crawl-192-0-2-10.googlebot.com.":  "192.0.2.10",
			"crawl-66-249-66-1.googlebot.com.": "66.249.66.1",
			"crawl.evilgooglebot.com.":         "192.0.2.77",
			"17-58-101-20.applebot.apple.com.": "192.0.2.20",
			"spider-192-0-2-30.yandex.com.":    "192.0.2.30",
		})
	const robotsTxt = "User-agent: *\nDisallow: /private/\n\nUser-agent: Googlebot\nUser-agent: GPTBot\nUser-agent: MyMonitor\nAllow: /\n\nUser-agent: Yandex\nAllow: /\n"
	inst := monStartWithGlobals(t, monTrustProxies, `http://127.0.0.1:{{port}} {
	root * {{dir}}/site
	robots_txt {
		resolvers `+dnsSrv.addr+`
		crawler GPTBot {
			ranges {{dir}}/gptbot-ranges.txt
		}
		crawler MyMonitor {
			ranges 198.51.100.0/24
			category monitor
		}
	}
	file_server
	log {
		output file {{dir}}/access.log
		format json
	}
}
`, func(inst *instance) {
		withRobotsTxt(robotsTxt)(inst)
		writeFile(t, filepath.Join(inst.dir, "gptbot-ranges.txt"), "# GPTBot, as the test publishes it\n203.0.113.0/24\n")
	})
	logPath := filepath.Join(inst.dir, "access.log")
	xff := func(ip string) string { return "X-Forwarded-For: " + ip }

	for _, c := range []struct {
		name, ua, ip                               string
		status                                     int
		bot, identity, verifiedBy, group, category string
	}{
		{"Googlebot by forward-confirmed reverse DNS", testfixtures.UAGooglebot, "192.0.2.10", 200, "Googlebot", "verified", "rdns", "Googlebot, GPTBot, MyMonitor", "search"},
		{"Googlebot with a spoofed PTR", testfixtures.UAGooglebot, "192.0.2.66", 403, "impostor:Googlebot", "impostor", "", "*", "search"},
		{"Googlebot with a look-alike name", testfixtures.UAGooglebot, "192.0.2.77", 403, "impostor:Googlebot", "impostor", "", "*", "search"},
		{"Googlebot from loopback", testfixtures.UAGooglebot, "127.0.0.1", 403, "impostor:Googlebot", "impostor", "", "*", "search"},
		{"GPTBot in the operator's ranges file", testfixtures.UAGPTBot, "203.0.113.9", 200, "GPTBot", "verified", "ip", "Googlebot, GPTBot, MyMonitor", "ai-training"},
		{"GPTBot from elsewhere", testfixtures.UAGPTBot, "192.0.2.10", 403, "impostor:GPTBot", "impostor", "", "*", "ai-training"},
		// Apple documents that Applebot follows a Googlebot group when no
		// group names it.
		{"Applebot by reverse DNS, in Googlebot's group", uaApplebot, "192.0.2.20", 200, "Applebot", "verified", "rdns", "Googlebot, GPTBot, MyMonitor", "search"},
		{"Applebot from loopback", uaApplebot, "127.0.0.1", 403, "impostor:Applebot", "impostor", "", "*", "search"},
		// Every Yandex robot obeys a Yandex group; a header naming the
		// family is a claim to be Yandex's, checked as YandexBot is.
		{"a Yandex robot by reverse DNS, in the Yandex group", uaYandexImages, "192.0.2.30", 200, "Yandex", "verified", "rdns", "Yandex", "search"},
		{"a Yandex robot from loopback", uaYandexImages, "127.0.0.1", 403, "impostor:YandexBot", "impostor", "", "*", "search"},
		{"the family's bare name from loopback", "Yandex/1.0", "127.0.0.1", 403, "impostor:YandexBot", "impostor", "", "*", "search"},
		{"bingbot from loopback", "Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)", "127.0.0.1", 403, "impostor:bingbot", "impostor", "", "*", "search"},
		{"the operator's own monitor", "MyMonitor/1.0", "198.51.100.4", 200, "MyMonitor", "verified", "ip", "Googlebot, GPTBot, MyMonitor", "monitor"},
		{"a bot that claims no crawler", testfixtures.UACurl, "192.0.2.10", 403, "curl", "unverified", "", "*", ""},
	} {
		got, e := inst.getLogged(t, logPath, "/private/x.html", c.ua, xff(c.ip))
		rt, _ := e.obj("robots_txt")
		if got.status != c.status {
			t.Errorf("%s: status %d, want %d (robots_txt %v)", c.name, got.status, c.status, rt)
		}
		checkStrings(t, c.name, rt, "bot", c.bot, "identity", c.identity, "verified_by", c.verifiedBy, "group", c.group, "category", c.category)
	}
	// Answers are cached: asking again for a known address sends no query.
	before := dnsSrv.queries.Load()
	inst.get(t, "/private/x.html", testfixtures.UAGooglebot, xff("192.0.2.10"))
	if after := dnsSrv.queries.Load(); after != before {
		t.Errorf("a cached address sent %d more DNS queries", after-before)
	}
	// The metrics count impostors apart from the crawler.
	m := monScrape(t, inst)
	for _, k := range []string{
		monKey("caddy_robots_txt_requests_total", map[string]string{"server": "srv0", "bot": "impostor:Googlebot", "identity": "impostor", "verdict": "disallowed", "action": "blocked"}),
		monKey("caddy_robots_txt_requests_total", map[string]string{"server": "srv0", "bot": "Googlebot", "identity": "verified", "verdict": "allowed", "action": "passed"}),
	} {
		if m[k] < 1 {
			t.Errorf("metrics lack %s", k)
		}
	}
}

// TestImpostorsBlock: with impostors block, a failed claim is refused on
// every path, but never /robots.txt.
func TestImpostorsBlock(t *testing.T) {
	t.Parallel()
	inst := startCaddy(t, `http://127.0.0.1:{{port}} {
	root * {{dir}}/site
	robots_txt {
		impostors block
	}
	file_server
}
`, withTestSite)
	for _, c := range []struct {
		ua, path string
		status   int
	}{
		{testfixtures.UAGPTBot, "/about.html", http.StatusForbidden},
		{testfixtures.UAGPTBot, "/robots.txt", http.StatusOK},
		{testfixtures.UACurl, "/about.html", http.StatusOK},
		{testfixtures.UAFirefox, "/about.html", http.StatusOK},
	} {
		if got := inst.get(t, c.path, c.ua); got.status != c.status {
			t.Errorf("%s as %q: %d, want %d", c.path, c.ua, got.status, c.status)
		}
	}
	if e := inst.waitModuleLogs(t, "robots.txt impostor blocked", 1, 30*time.Second); !strings.Contains(e[0].str("bot"), "impostor:GPTBot") {
		t.Errorf("impostor log entry %v, want bot impostor:GPTBot", e[0])
	}
}

// TestImpostorKeepsItsRestrictions: a claim nobody verified sheds none of
// the restrictions its header declares. A client sending GPTBot's token
// from an address GPTBot's list does not hold is refused what the GPTBot
// group disallows, and one that appends a crawler's name to its own
// product is refused what its product's group disallows, where the *
// group would allow both.
func TestImpostorKeepsItsRestrictions(t *testing.T) {
	t.Parallel()
	const robotsTxt = "User-agent: GPTBot\nDisallow: /\n\nUser-agent: AcmeBot\nDisallow: /\n\nUser-agent: *\nDisallow: /private/\n"
	inst := startCaddy(t, fmt.Sprintf(loggedSite, "crawler GPTBot {\n\t\t\tranges 203.0.113.0/24\n\t\t}"), withRobotsTxt(robotsTxt))
	logPath := filepath.Join(inst.dir, "access.log")
	for _, c := range []struct {
		name, ua         string
		status           int
		bot, group, rule string
	}{
		{"GPTBot's token from elsewhere", "GPTBot/1.1", 403, "impostor:GPTBot", "GPTBot", "disallow: /"},
		{"a product with a crawler's name appended", "AcmeBot/1.0 (compatible; ClaudeBot/1.0)", 403, "impostor:ClaudeBot", "AcmeBot", "disallow: /"},
		{"a product with Googlebot's name appended", "AcmeBot/1.0 Googlebot/2.1", 403, "impostor:Googlebot", "AcmeBot", "disallow: /"},
		{"an impostor of a crawler the file does not name", "Mozilla/5.0 (compatible; ClaudeBot/1.0)", 200, "impostor:ClaudeBot", "*", ""},
	} {
		got, e := inst.getLogged(t, logPath, "/about.html", c.ua)
		rt, _ := e.obj("robots_txt")
		if got.status != c.status {
			t.Errorf("%s: status %d, want %d (robots_txt %v)", c.name, got.status, c.status, rt)
		}
		checkStrings(t, c.name, rt, "bot", c.bot, "group", c.group, "rule", c.rule, "identity", "impostor")
	}
}

// TestNamesShedNoGroup: a bot that adds another crawler's name, or any
// name, to its header sheds no group its header names, where that name has
// a group of its own that allows more (audit AB-F1). The usual "block AI
// crawlers, allow Google" file: GPTBot's Disallow must hold whatever
// GPTBot's header appends, in enforce mode and as violations logged in
// monitor mode.
func TestNamesShedNoGroup(t *testing.T) {
	t.Parallel()
	const robotsTxt = "User-agent: GPTBot\nUser-agent: AcmeBot\nDisallow: /\n\n" +
		"User-agent: Googlebot\nUser-agent: bingbot\nAllow: /\n\n" +
		"User-agent: facebookexternalhit\nUser-agent: LongerFooBot\nAllow: /\n\n" +
		"User-agent: *\nDisallow: /private/\n"
	for _, mode := range []string{"", "mode monitor"} {
		inst := startCaddy(t, fmt.Sprintf(loggedSite, mode), withRobotsTxt(robotsTxt))
		logPath := filepath.Join(inst.dir, "access.log")
		for _, c := range []struct {
			name, ua, path string
			bot, group     string
		}{
			{"Googlebot's name appended", "GPTBot/1.1 Googlebot/2.1", "/about.html", "impostor:Googlebot", "GPTBot, AcmeBot"},
			{"in a browser-like header", "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.3; +https://openai.com/gptbot) Googlebot/2.1", "/about.html", "impostor:Googlebot", "GPTBot, AcmeBot"},
			{"bingbot's in a comment", "AcmeBot/1.0 (compatible; bingbot/2.0)", "/about.html", "impostor:bingbot", "GPTBot, AcmeBot"},
			{"a name nobody verifies", "AcmeBot/1.0 facebookexternalhit/1.1", "/about.html", "facebookexternalhit", "GPTBot, AcmeBot"},
			{"a longer unknown name", "AcmeBot/1.0 LongerFooBot/1.0", "/about.html", "LongerFooBot", "GPTBot, AcmeBot"},
			{"and the * group's path", "GPTBot/1.1 facebookexternalhit/1.1", "/private/x.html", "facebookexternalhit", "GPTBot, AcmeBot"},
		} {
			got, e := inst.getLogged(t, logPath, c.path, c.ua)
			rt, _ := e.obj("robots_txt")
			want := http.StatusForbidden
			if mode != "" {
				want = http.StatusOK
			}
			if got.status != want {
				t.Errorf("%s %q: status %d, want %d (robots_txt %v)", mode, c.name, got.status, want, rt)
			}
			checkStrings(t, mode+" "+c.name, rt, "bot", c.bot, "group", c.group, "verdict", "disallowed")
		}
		// Where every group its header names allows, it is allowed.
		if got := inst.get(t, "/about.html", "facebookexternalhit/1.1 Googlebot/2.1"); got.status != http.StatusOK {
			t.Errorf("%s: a header whose every group allows: %d, want 200", mode, got.status)
		}
	}
}
