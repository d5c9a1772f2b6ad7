package caddymodule

import (
	"cmp"
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"go.uber.org/zap/zapcore"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/caddyserver/caddy/v2"

	"github.com/robotsguard/caddy-robots-txt/caddymodule/webbotauth"
	"github.com/robotsguard/caddy-robots-txt/config"
	"github.com/robotsguard/caddy-robots-txt/internal/testfixtures"
)

// outcome runs one request and returns the placeholders that say how it
// was judged, and whether it was refused.
type outcome struct {
	bot, identity, verifiedBy, group string
	refused                          bool
}

func judgeRequest(t *testing.T, h *Handler, r *http.Request) outcome {
	t.Helper()
	_, err := serve(h, r)
	repl := r.Context().Value(caddy.ReplacerCtxKey).(*caddy.Replacer)
	get := func(k string) string { v, _ := repl.GetString("http.robots_txt." + k); return v }
	return outcome{get("bot"), get("identity"), get("verified_by"), get("group"), err != nil}
}

func TestImpostors(t *testing.T) {
	const robotsTxt = "User-agent: *\nDisallow: /private/\n\nUser-agent: Googlebot\nUser-agent: GPTBot\nUser-agent: bingbot\nAllow: /\n"
	for _, tc := range []struct {
		name      string
		impostors string
		crawlers  []config.Crawler
		ua, path  string
		want      outcome
	}{
		// From 127.0.0.1 a claim to be Googlebot (reverse DNS), GPTBot or
		// bingbot (published lists) fails: judged by *, named apart.
		{"Googlebot impostor judged by *", "", nil, testfixtures.UAGooglebot, "/private/x",
			outcome{"impostor:Googlebot", "impostor", "", "*", true}},
		{"GPTBot impostor judged by *", "", nil, testfixtures.UAGPTBot, "/private/x",
			outcome{"impostor:GPTBot", "impostor", "", "*", true}},
		{"bingbot impostor, allowed path", "", nil, "Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)", "/public",
			outcome{"impostor:bingbot", "impostor", "", "*", false}},
		// The operator says where Googlebot comes from: verified.
		{"verified by the operator's ranges", "", []config.Crawler{{Token: "Googlebot", Ranges: []string{"127.0.0.0/8"}}},
			testfixtures.UAGooglebot, "/private/x", outcome{"Googlebot", "verified", "ip", "Googlebot, GPTBot, bingbot", false}},
		{"block refuses an impostor everywhere", config.ImpostorsBlock, nil, testfixtures.UAGPTBot, "/public",
			outcome{"impostor:GPTBot", "impostor", "", "*", true}},
		{"trust judges by the claimed group", config.ImpostorsTrust, nil, testfixtures.UAGPTBot, "/private/x",
			outcome{"GPTBot", "impostor", "", "Googlebot, GPTBot, bingbot", false}},
		// A token the knowledge base does not list, but that extends a
		// verifiable crawler's, is a claim to be it.
		{"a sibling of Googlebot's token", "", nil, "Mozilla/5.0 (compatible; Googlebot-Mobile/2.1; +http://www.google.com/bot.html)", "/private/x",
			outcome{"impostor:Googlebot", "impostor", "", "*", true}},
		{"a sibling of msnbot's token", "", nil, "msnbot-media/1.1 (+http://search.msn.com/msnbot.htm)", "/private/x",
			outcome{"impostor:msnbot", "impostor", "", "*", true}},
		// The operator's own crawler is known by its token, whether
		// robots.txt names it or not.
		{"the operator's crawler, unnamed in robots.txt", "", []config.Crawler{{Token: "MyMon", Ranges: []string{"127.0.0.0/8"}, Category: "monitor"}},
			"MyMon/1.0", "/private/x", outcome{"MyMon", "verified", "ip", "*", true}},
		// A bot that claims no verifiable crawler is unverified.
		{"generic bot", "", nil, testfixtures.UACurl, "/private/x", outcome{"curl", "unverified", "", "*", true}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h, _ := newTestHandler(t, config.Config{Inline: robotsTxt, Impostors: cmp.Or(tc.impostors, config.ImpostorsJudge), Crawlers: tc.crawlers})
			got := judgeRequest(t, h, withIP(newRequest("GET", tc.path, tc.ua), "127.0.0.1"))
			for _, f := range []struct{ name, got, want string }{
				{"bot", got.bot, tc.want.bot}, {"identity", got.identity, tc.want.identity},
				{"verified_by", got.verifiedBy, tc.want.verifiedBy}, {"group", got.group, tc.want.group},
			} {
				if f.got != f.want {
					t.Errorf("%s = %q, want %q", f.name, f.got, f.want)
				}
			}
			if got.refused != tc.want.refused {
				t.Errorf("refused = %v, want %v", got.refused, tc.want.refused)
			}
		})
	}
}

// TestSiblingTokensAreClaims: a robots.txt that names a token of its own
// for a crawler ("Googlebot-Mobile", "msnbot-media") or of its family
// ("Yandex", which every Yandex robot obeys, and "YandexImages") does not
// excuse a header naming it from the check of the crawler it belongs to.
func TestSiblingTokensAreClaims(t *testing.T) {
	const robotsTxt = "User-agent: *\nDisallow: /private/\n\nUser-agent: Googlebot\nUser-agent: Googlebot-Mobile\nUser-agent: msnbot-media\n" +
		"User-agent: Yandex\nUser-agent: YandexImages\nAllow: /\n"
	h, _ := newTestHandler(t, config.Config{Inline: robotsTxt, Impostors: config.ImpostorsJudge})
	for ua, want := range map[string]string{
		"Mozilla/5.0 (compatible; Googlebot-Mobile/2.1; +http://www.google.com/bot.html)": "impostor:Googlebot",
		"msnbot-media/1.1 (+http://search.msn.com/msnbot.htm)":                            "impostor:msnbot",
		"Yandex/1.0":                       "impostor:YandexBot",
		"Mozilla/5.0 (compatible; Yandex)": "impostor:YandexBot",
		// A product of the family the file does not name.
		"Mozilla/5.0 (compatible; YandexMetrika/2.0; +http://yandex.com/bots)": "impostor:YandexBot",
		"Mozilla/5.0 (compatible; YandexImages/3.0; +http://yandex.com/bots)":  "impostor:YandexBot",
	} {
		got := judgeRequest(t, h, withIP(newRequest("GET", "/private/x", ua), "127.0.0.1"))
		if got.bot != want || got.identity != "impostor" || !got.refused {
			t.Errorf("%s from 127.0.0.1: %+v, want %s, refused", ua, got, want)
		}
	}
}

// TestAddressIsNoClaim: a host or an address in a header is no claim to
// be the crawler it names, nor does it choose that crawler's group: curl
// with a Yandex URL is curl, held to the * group; Googlebot, whose info
// URL names www.google.com, is not held to a "Google" group it does not
// obey (Google's parser compares its token, "Googlebot", and nothing
// else), and a verified Yandex robot the file does not name obeys the
// Yandex group, as Yandex documents.
func TestAddressIsNoClaim(t *testing.T) {
	const robotsTxt = "User-agent: *\nDisallow: /private/\n\nUser-agent: Yandex\nAllow: /\nDisallow: /noyandex/\n\nUser-agent: Google\nDisallow: /nogoogle/\n"
	h, _ := newTestHandler(t, config.Config{Inline: robotsTxt, Impostors: config.ImpostorsJudge,
		Crawlers: []config.Crawler{{Token: "YandexBot", Ranges: []string{"127.0.0.0/8"}}, {Token: "Googlebot", Ranges: []string{"127.0.0.0/8"}}}})
	for _, tc := range []struct {
		ua, path string
		want     outcome
	}{
		{"curl/8.0 (+http://yandex.com)", "/private/x", outcome{bot: "curl", identity: "unverified", group: "*", refused: true}},
		{"curl/8.0 (+http://yandex.com)", "/noyandex/x", outcome{bot: "curl", identity: "unverified", group: "*"}},
		{"Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)", "/nogoogle/x", outcome{bot: "Googlebot", identity: "verified", verifiedBy: "ip", group: "*"}},
		{"Mozilla/5.0 (compatible; YandexMetrika/2.0; +http://yandex.com/bots)", "/private/x", outcome{bot: "Yandex", identity: "verified", verifiedBy: "ip", group: "Yandex"}},
		{"Mozilla/5.0 (compatible; YandexMetrika/2.0; +http://yandex.com/bots)", "/noyandex/x", outcome{bot: "Yandex", identity: "verified", verifiedBy: "ip", group: "Yandex", refused: true}},
	} {
		if got := judgeRequest(t, h, withIP(newRequest("GET", tc.path, tc.ua), "127.0.0.1")); got != tc.want {
			t.Errorf("%s %s: %+v, want %+v", tc.ua, tc.path, got, tc.want)
		}
	}
}

// TestFamilyMemberObeysTheFamilysGroup: a Yandex robot the file does not
// name (YandexImages) obeys the Yandex group, as Yandex documents, not
// YandexBot's own group, and only where the file names the family's
// group does its product claim the family; a host name or a later
// product claims nothing.
func TestFamilyMemberObeysTheFamilysGroup(t *testing.T) {
	const images = "Mozilla/5.0 (compatible; YandexImages/3.0; +http://yandex.com/bots)"
	yandexBot := []config.Crawler{{Token: "YandexBot", Ranges: []string{"127.0.0.0/8"}}}
	for _, tc := range []struct {
		name, file, ua string
		impostors      string
		ip             string
		want           outcome
	}{
		{"the family's group, not YandexBot's", "User-agent: YandexBot\nDisallow: /\n\nUser-agent: Yandex\nAllow: /\n\nUser-agent: *\nDisallow: /page\n",
			images, "", "127.0.0.1", outcome{bot: "Yandex", identity: "verified", verifiedBy: "ip", group: "Yandex"}},
		{"no family group: nothing claimed", "User-agent: YandexBot\nDisallow: /\n\nUser-agent: *\nAllow: /\n",
			images, "", "127.0.0.1", outcome{bot: "generic", identity: "unverified", group: "*"}},
		{"a host name claims nothing", "User-agent: Yandex\nAllow: /\n\nUser-agent: *\nDisallow: /page\n",
			"curl/8.0 (+http://yandex.com)", config.ImpostorsBlock, "198.51.100.1", outcome{bot: "curl", identity: "unverified", group: "*", refused: true}},
		{"a later product claims nothing", "User-agent: Yandex\nAllow: /\n\nUser-agent: *\nAllow: /\n",
			"python-requests/2.31 YandexFoo/1", config.ImpostorsBlock, "198.51.100.1", outcome{bot: "python-requests", identity: "unverified", group: "*"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h, _ := newTestHandler(t, config.Config{Inline: tc.file, Impostors: cmp.Or(tc.impostors, config.ImpostorsJudge), Crawlers: yandexBot})
			if got := judgeRequest(t, h, withIP(newRequest("GET", "/page", tc.ua), tc.ip)); got != tc.want {
				t.Errorf("%s: %+v, want %+v", tc.ua, got, tc.want)
			}
		})
	}
}

// TestImpostorPacedByItsOwnGroup: an impostor paced by the longer
// Crawl-delay of the group its header chooses (AcmeBot's 30 s, not the *
// group's 1 s) is logged as breaking that group's delay: the group field
// names the group whose Crawl-delay it broke. So is one whose own product
// has a group of the longest delay while the name it adds has a group of
// its own (audit AB-F1: GPTBot's 30 s, not Googlebot's none).
func TestImpostorPacedByItsOwnGroup(t *testing.T) {
	for _, tc := range []struct {
		name, file, ua, group string
	}{
		{"the * group allows more", "User-agent: *\nDisallow: /private/\nCrawl-delay: 1\n\nUser-agent: AcmeBot\nDisallow: /acme/\nCrawl-delay: 30\n", "AcmeBot/1.0 Googlebot/2.1", "AcmeBot"},
		{"the added name's group allows more", "User-agent: *\nCrawl-delay: 1\n\nUser-agent: Googlebot\nAllow: /\n\nUser-agent: GPTBot\nCrawl-delay: 30\n", "GPTBot/1.1 Googlebot/2.1", "GPTBot"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h, _ := newTestHandler(t, config.Config{Inline: tc.file, Impostors: config.ImpostorsJudge})
			var verdict, group string
			for i := range 10 {
				r := withIP(newRequest("GET", fmt.Sprintf("/page%d", i), tc.ua), "127.0.0.1")
				serve(h, r)
				repl := r.Context().Value(caddy.ReplacerCtxKey).(*caddy.Replacer)
				verdict, _ = repl.GetString("http.robots_txt.verdict")
				group, _ = repl.GetString("http.robots_txt.group")
				if verdict == "too-fast" {
					break
				}
			}
			if verdict != "too-fast" || group != tc.group {
				t.Errorf("an impostor going faster than its own group's Crawl-delay: %s, group %q; want too-fast, group %q", verdict, group, tc.group)
			}
		})
	}
}

// TestImpostorFetchIsItsOwn: an impostor's fetch of robots.txt is
// recorded under its own name, so it cannot earn the crawler grace, and
// /robots.txt is served to it even with impostors block.
func TestImpostorFetchIsItsOwn(t *testing.T) {
	h, _ := newTestHandler(t, config.Config{Inline: "User-agent: *\nDisallow: /x\n", Impostors: config.ImpostorsBlock})
	r := withIP(newRequest("GET", "/robots.txt", testfixtures.UAGPTBot), "127.0.0.1")
	w, err := serve(h, r)
	if err != nil || w.Code != http.StatusOK {
		t.Fatalf("/robots.txt for an impostor: %d %v, want 200", w.Code, err)
	}
	if _, ok := h.tracker.last(fetchKey{bot: "impostor:GPTBot", ip: clientAddr(r), site: siteOf(r)}); !ok {
		t.Error("the fetch is not recorded under impostor:GPTBot")
	}
	if _, ok := h.tracker.last(fetchKey{bot: "GPTBot", ip: clientAddr(r), site: siteOf(r)}); ok {
		t.Error("the impostor's fetch is recorded under GPTBot")
	}
}

// signer signs requests as a Web Bot Auth agent: the signature base of
// RFC 9421 for @authority and the signature-agent member, built here by
// hand, apart from the code under test.
type signer struct {
	priv  ed25519.PrivateKey
	agent string
}

func (s signer) sign(r *http.Request, now time.Time) {
	pub := s.priv.Public().(ed25519.PublicKey)
	keyID := webbotauth.Thumbprint(pub)
	params := fmt.Sprintf(`("@authority" "signature-agent";key="agent1");created=%d;expires=%d;keyid=%q;tag="web-bot-auth"`,
		now.Unix(), now.Add(time.Minute).Unix(), keyID)
	base := fmt.Sprintf("\"@authority\": %s\n\"signature-agent\";key=\"agent1\": %q\n\"@signature-params\": %s", r.Host, s.agent, params)
	r.Header.Set("Signature-Agent", fmt.Sprintf("agent1=%q", s.agent))
	r.Header.Set("Signature-Input", "sig1="+params)
	r.Header.Set("Signature", "sig1=:"+base64.StdEncoding.EncodeToString(ed25519.Sign(s.priv, []byte(base)))+":")
}

// TestWebBotAuth: a request signed by an agent's key, with the key in the
// agent's directory, is verified as the crawler that signs with that
// agent, whatever its User-Agent (ChatGPT's agent sends a browser's).
func TestWebBotAuth(t *testing.T) {
	_, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	pub := priv.Public().(ed25519.PublicKey)
	var mu sync.Mutex
	var asked []string // the addresses dialled for a directory
	dir := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != webbotauth.DirectoryPath {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", webbotauth.DirectoryMediaType)
		json.NewEncoder(w).Encode(map[string]any{"keys": []map[string]string{{
			"kty": "OKP", "crv": "Ed25519", "x": base64.RawURLEncoding.EncodeToString(pub), "kid": webbotauth.Thumbprint(pub),
		}}})
	}))
	defer dir.Close()
	// The directory answers for https://example.com (its certificate's
	// name), wherever that resolves.
	tr := dir.Client().Transport.(*http.Transport).Clone()
	tr.DialContext = func(ctx context.Context, network, addr string) (net.Conn, error) {
		mu.Lock()
		asked = append(asked, addr)
		mu.Unlock()
		return (&net.Dialer{}).DialContext(ctx, network, dir.Listener.Addr().String())
	}
	h := &Handler{
		Config: config.Config{
			Inline:   "User-agent: *\nDisallow: /private/\n\nUser-agent: SignedAgent\nAllow: /\n",
			Crawlers: []config.Crawler{{Token: "SignedAgent", SignatureAgents: []string{"https://example.com"}, Category: "ai-user"}},
		},
		verifyOptions: offlineVerify,
		sigOptions:    &webbotauth.Options{Client: &http.Client{Transport: tr}, Wait: 5 * time.Second},
	}
	h, _ = provisionTestHandler(t, h)

	s := signer{priv: priv, agent: "https://example.com"}
	for _, tc := range []struct {
		name string
		ua   string
		sign func(*http.Request)
		want outcome
	}{
		{"signed, a browser's User-Agent", testfixtures.UAChrome, func(r *http.Request) { s.sign(r, time.Now()) },
			outcome{"SignedAgent", "verified", "signature", "SignedAgent", false}},
		{"signed, claims Googlebot", testfixtures.UAGooglebot, func(r *http.Request) { s.sign(r, time.Now()) },
			outcome{"SignedAgent", "verified", "signature", "SignedAgent", false}},
		{"expired signature, a browser's User-Agent: a person", testfixtures.UAChrome, func(r *http.Request) { s.sign(r, time.Now().Add(-time.Hour)) },
			outcome{"", "", "", "", false}},
		{"forged signature, claims Googlebot: impostor", testfixtures.UAGooglebot, func(r *http.Request) {
			s.sign(r, time.Now())
			r.Header.Set("Signature", "sig1=:"+base64.StdEncoding.EncodeToString(make([]byte, 64))+":")
		}, outcome{"impostor:Googlebot", "impostor", "", "*", true}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := withIP(newRequest("GET", "/private/x", tc.ua), "127.0.0.1")
			r.Host = "site.example"
			tc.sign(r)
			got := judgeRequest(t, h, r)
			if got != tc.want {
				t.Errorf("got %+v, want %+v", got, tc.want)
			}
		})
	}
	// A signature naming a directory no crawler signs with is not
	// followed: any client could otherwise have this server fetch from a
	// host of its choosing.
	mu.Lock()
	asked = nil
	mu.Unlock()
	r := withIP(newRequest("GET", "/private/x", testfixtures.UAChrome), "127.0.0.1")
	r.Host = "site.example"
	signer{priv: priv, agent: "https://attacker.example"}.sign(r, time.Now())
	if got := judgeRequest(t, h, r); got != (outcome{}) {
		t.Errorf("signed by an unknown agent: %+v, want a person", got)
	}
	mu.Lock()
	if len(asked) > 0 {
		t.Errorf("the directory of an agent no crawler signs with was asked for: dialled %v", asked)
	}
	mu.Unlock()
	if !strings.Contains(h.checker.base.Lookup("SignedAgent").Name, "SignedAgent") {
		t.Error("the operator's crawler is not in the knowledge base")
	}
}

// TestRangeFileMustExist: a ranges entry that is neither an address nor a
// URL names a file, which must be there when the configuration loads.
func TestRangeFileMustExist(t *testing.T) {
	good := filepath.Join(t.TempDir(), "ranges.txt")
	os.WriteFile(good, []byte("192.0.2.0/24\n"), 0o644)
	for _, tc := range []struct {
		ranges []string
		errHas string // "" for no error
	}{
		{[]string{"192.0.2.0/24", "2001:db8::1", good}, ""},
		{[]string{"notacidr"}, "crawler FooBot: ranges: open notacidr"},
	} {
		h := &Handler{Config: config.Config{Inline: "User-agent: *\nDisallow: /x\n",
			Crawlers: []config.Crawler{{Token: "FooBot", Ranges: tc.ranges}}}, verifyOptions: offlineVerify}
		ctx, cancel := newContext()
		err := h.Provision(ctx)
		if tc.errHas == "" && err != nil || tc.errHas != "" && (err == nil || !strings.Contains(err.Error(), tc.errHas)) {
			t.Errorf("ranges %q: provision error %v, want one containing %q", tc.ranges, err, tc.errHas)
		}
		if err == nil {
			h.Cleanup()
		}
		cancel()
	}
}

// TestRangeListFailuresAreLogged: a list of addresses that cannot be
// fetched leaves its crawler with none, so that every claim to be it is an
// impostor; the operator must hear of it. A file that holds none is
// refused at load (audit AO-F5).
func TestRangeListFailuresAreLogged(t *testing.T) {
	garbage := filepath.Join(t.TempDir(), "ranges.txt")
	os.WriteFile(garbage, []byte("this is not an address\n"), 0o644)
	hg := &Handler{Config: config.Config{Inline: "User-agent: *\nDisallow: /x\n",
		Crawlers: []config.Crawler{{Token: "MyMon", Ranges: []string{garbage}}}}, verifyOptions: offlineVerify}
	ctx, cancel := newContext()
	defer cancel()
	if err := hg.Provision(ctx); err == nil || !strings.Contains(err.Error(), "holds no list of addresses") {
		t.Errorf("a ranges file with no address: provision error %v, want one saying it holds none", err)
	}
	// A file good at load that turns bad is logged when it is read again.
	bad := filepath.Join(t.TempDir(), "ranges.txt")
	os.WriteFile(bad, []byte("192.0.2.0/24\n"), 0o644)
	h := &Handler{Config: config.Config{Inline: "User-agent: *\nDisallow: /x\n",
		Crawlers: []config.Crawler{{Token: "MyMon", Ranges: []string{bad}}}}}
	_, logs := provisionTestHandler(t, h)
	os.WriteFile(bad, []byte("this is not an address\n"), 0o644)
	// A later modification time, which the file's check looks for.
	os.Chtimes(bad, time.Now().Add(time.Minute), time.Now().Add(time.Minute))
	for deadline := time.Now().Add(15 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		for _, e := range logs.FilterLevelExact(zapcore.WarnLevel).All() {
			if fmt.Sprint(e.ContextMap()["source"]) == bad {
				return
			}
		}
	}
	t.Errorf("no warning names the unreadable list %s", bad)
}

// TestCrawlerAndImpostorNamedAlike: a known crawler is named as the
// knowledge base spells it, verified or not, whatever spelling the file
// uses, so that "impostor:" and its name pair with the crawler's own in
// logs and metrics (audit AG-F7: "Bingbot" beside "impostor:bingbot").
func TestCrawlerAndImpostorNamedAlike(t *testing.T) {
	h, _ := newTestHandler(t, config.Config{Inline: "User-agent: BINGBOT\nDisallow: /nobing/\n", Impostors: config.ImpostorsJudge,
		Crawlers: []config.Crawler{{Token: "bingbot", Ranges: []string{"192.0.2.0/24"}}}})
	const ua = "Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)"
	for _, tc := range []struct {
		addr, identity, bot string
	}{
		{"192.0.2.7", "verified", "bingbot"},
		{"198.51.100.9", "impostor", "impostor:bingbot"},
	} {
		r := withIP(newRequest("GET", "/nobing/x", ua), tc.addr)
		serve(h, r)
		repl := r.Context().Value(caddy.ReplacerCtxKey).(*caddy.Replacer)
		id, _ := repl.GetString("http.robots_txt.identity")
		bot, _ := repl.GetString("http.robots_txt.bot")
		if id != tc.identity || bot != tc.bot {
			t.Errorf("from %s: identity %q, bot %q; want %q, %q", tc.addr, id, bot, tc.identity, tc.bot)
		}
	}
}
