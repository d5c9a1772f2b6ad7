package botdetect

import "testing"

// The classifier must generalise: it recognises people's software by its
// grammar and automation by generic markers, not by a list of names. Every
// header below is either one that the issue quotes as a miss of the old
// tables, or invented for this test: no table names its product.
func TestGeneralises(t *testing.T) {
	c := New(nil, nil)
	for _, tt := range []struct {
		desc, ua string
		bot      bool
	}{
		// Misses of the old tables, quoted in the issue.
		{"crawler on CPython", "nyawc/1.8.1 CPython/3.6.5 Linux/4.15.0-1021-aws", true},
		{"bare product", "Prometheus/2.40.5", true},
		{"bare product", "Anemone/0.7.2", true},
		{"Dart runtime", "Dart/3.5 (dart:io)", true},
		{"Go build target", "kubectl/v1.12.0 (linux/amd64) kubernetes/4ed3216", true},
		{"bare product", "Monit/5.23.0", true},
		{"bare product", "MnoGoSearch/3.3.15", true},
		{"bare product with a domain", "Hydrozen.io/1.0", true},
		{"free text", "censys.io internet census", true},
		{"agent appended to a browser", "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/97.0.4692.71 Safari/537.36 (ThousandEyes Agent)", true},
		// "Mozilla/5.0 [en] (X11, U; OpenVAS 7.0.10)" reads as a Netscape
		// 4 header; only the scanner's name gives it away (TestClassify).

		// Invented automated clients.
		{"invented cache warmer whose name ends in Up", "Warm-Up/2.0", true},
		{"invented crawler on a bygone platform with a contact URL", "Mozilla/5.0 (compatible; Snoopline/1.0; BeOS; +http://snoopline.example/bot)", true},
		{"invented bare product", "Zorblax/3.1.4", true},
		{"invented product and library", "Quillfeather/0.9 reqwless/1.2", true},
		{"invented crawler word", "Mozilla/5.0 (compatible; Flibbercrawl/2.0)", true},
		{"invented contact URL", "Mozilla/5.0 (compatible; Trawlix/1.0; +https://trawlix.example/about)", true},
		{"invented contact address", "Glimmer/2.2 (ops@glimmer.example)", true},
		{"invented monitor", "Vigilo Uptime Monitor/4.1", true},
		{"invented probe", "netprobe-7 v2", true},
		{"invented Go tool", "snapctl/0.3.1 (darwin/arm64)", true},
		{"invented Go agent, its target in a comment", "Quarrytool/2.4.0 (linux; arm64)", true},
		{"invented SDK in the AWS grammar", "widgetcloud-sdk-go/1.3.0 os/linux lang/go#1.22.1 md/GOARCH#amd64", true},
		{"invented Java tool", "Brewkit/1.0 (Java 21.0.2; Linux 6.8.0)", true},
		{"invented Python tool", "harvestor/1.0 Python/3.12 aiohttp/3.9.1", true},
		{"invented headless browser", "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/140.0.0.0 Safari/537.36", true},
		{"invented free text", "Internet measurement study, contact research team", true},
		{"invented tool inside the engine comment", "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko; Quorvex Audit) Chrome/131.0.0.0 Safari/537.36", true},
		{"invented automation framework", "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Playwright/1.48", true},
		{"invented dodged address", "Mozilla/5.0/Firefox/120.0 - ops(at)zentrix.example", true},
		{"invented Java client", "Zephyrine/1.0 Java/21.0.2", true},
		{"invented compatible crawler", "Mozilla/5.0 (compatible; Lantern/2.4; Windows NT 10.0)", true},
		{"invented camel-case agent", "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/139.0.0.0 Safari/537.36 VerimonAgent/2.1", true},
		{"invented hyphenated agent", "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0 perf-agent", true},
		{"invented product borrowing Mozilla/5.0", "Mozilla/5.0 Quibbler/0.3", true},
		{"invented Node library", "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36 marmot.js/2.0.1", true},
		{"invented Node tool", "gizmo-cli/3.2.0 node/v22.3.0 linux x64", true},
		{"home page in the platform comment", "Mozilla/5.0 (compatible; MSIE 9.0; Windows NT 6.1; www.examplewatch.example)", true},
		{"invented crawler behind Internet Explorer's .NET tokens", "Mozilla/4.0 (compatible; MSIE 8.0; Windows NT 6.1; Trident/4.0; .NET CLR 2.0.50727; Quillbot/1.0; +http://quill.example/bot)", true},
		// Signs of automation in an Android comment where no device is
		// named: the exemption for phones called "Cubot" or "ROBOT X9"
		// covers the device's own name, not a crawler put beside it.
		{"invented crawler as the device", "Mozilla/5.0 (Linux; Android 14; Quarrycrawler/1.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36", true},
		{"invented contact address after the device", "Mozilla/5.0 (Linux; Android 14; Pixel 8; watch@fernwick.example) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36", true},
		{"invented crawler word after the device", "Mozilla/5.0 (Linux; Android 14; Pixel 8; spider) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36", true},
		{"invented compatible crawler after Android", "Mozilla/5.0 (Linux; Android 14; compatible; Trawlix/1.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36", true},
		{"headless in place of the device", "Mozilla/5.0 (Linux; Android 14; Headless) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36", true},
		{"invented crawler word in a second Android comment", "Mozilla/5.0 (Linux; Android 14; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36 (Linux; Android; crawler)", true},
		{"invented crawler word in Firefox's Android comment, which names no device", "Mozilla/5.0 (Android 14; Mobile; crawler; rv:125.0) Gecko/125.0 Firefox/125.0", true},
		{"invented crawler word after the webview flag", "Mozilla/5.0 (Linux; Android 13; SM-A536B Build/TP1A.220624.014; wv; Crawler) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/120.0.0.0 Mobile Safari/537.36", true},
		{"invented tool naming its GNU target", "Skerry/2.4 (x86_64-pc-linux-gnu)", true},
		{"invented tool naming its Rust target", "tidemark/0.8.1 (aarch64-unknown-linux-musl)", true},
		{"invented tool naming its Go toolchain", "Fernwick/1.2.0 go/go1.23.4 os/linux", true},
		{"invented PHP client", "Quillstack/3.0 (Linux) PHP/8.3.1", true},
		{"invented Ruby client", "Brambler/0.4.2 Ruby/3.3.0 (x86_64-linux)", true},
		{"invented agent appended to a browser", "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Safari/605.1.15 (Sentinelo Agent)", true},
		{"invented podcast index: a crawler word is not excused by the app family", "Podscanner/1.0 (+https://podscanner.example)", true},
		{"invented fetcher with a contact URL and a comma in its version", "Tessellate/1.0 (v1,2; +https://tessellate.example)", true},
		{"invented library with a forwarded address, not a build number", "quiverjs/0.4.1, XFF:203.0.113.54", true},
		{"invented tool with a three-part version", "Lanternfish 4.12.0", true},
		{"invented dodged address behind Internet Explorer's .NET tokens", "Mozilla/4.0 (compatible; MSIE 8.0; Windows NT 6.1; Trident/4.0; .NET CLR 2.0.50727; ops(at)zentrix.example)", true},
		{"invented address spelt out", "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0 (research at netlab.example.org)", true},
		{"invented proxy naming itself before a copied header", "Pellucid/2.0.1, Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36", true},
		{"invented crawler posing as Internet Explorer, with an address to write to", "Mozilla/4.0 (compatible; MSIE 8.0; Windows NT 6.1; Trident/4.0; .NET CLR 2.0.50727); contact: ops@quillsoft.example", true},
		{"invented script stamping the time on its header", "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0 Stamp/1731830400000", true},
		{"invented tool named in the engine comment after a comma", "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko, Wexley Rank Study) Chrome/131.0.0.0 Safari/537.36", true},
		{"invented icon fetcher", "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Quillmark Favicon", true},
		{"invented site verifier", "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 DomainVerifier/2.1", true},
		{"invented web archiver", "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Keepsake-Archive/0.3", true},
		{"invented server on a developer's build", "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Trawlwick/0.4.0-SNAPSHOT", true},
		{"invented page renderer", "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) wkhtmltoimage-ng Safari/537.36", true},
		{"invented page converter", "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/534.34 (KHTML, like Gecko) Pagely Converter/2.0 Safari/534.34", true},
		{"invented image resizer", "QuillImageResizer/3.1", true},
		{"invented link examiner with a platform", "HrefExaminer/2.0 (Windows)", true},
		{"invented observatory", "Mozilla/5.0 (Macintosh; Intel Mac OS X 10.15; rv:128.0) Gecko/20100101 Firefox/128.0 Observatory/128.0", true},
		{"invented reporting tool with a contact URL path", "Zonewise-reporting(http://zonewise.example/reporting)", true},
		{"invented developer tools inside an in-app browser", "Mozilla/5.0 (Linux; Android 14; Pixel 8 Build/UP1A; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/120.0.0.0 Mobile Safari/537.36 Chirpzy/8.0 chirpzydevtools", true},
		{"a browser's name in place of its header", "Chrome", true},
		{"a browser's name in place of its header, lower case", " firefox ", true},

		// Invented people's software: new browsers, in-app browsers,
		// webviews and apps that no table names.
		{"new desktop browser", "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.0.0 Safari/537.36 Quasarium/3.2.1", false},
		{"new Firefox fork", "Mozilla/5.0 (X11; Linux x86_64; rv:140.0) Gecko/20100101 Firefox/140.0 Lumenfox/140.0", false},
		{"new in-app browser on iOS", "Mozilla/5.0 (iPhone; CPU iPhone OS 18_2 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 Chirpzy/412.0.0 (iPhone15,3; iOS 18_2; en_GB)", false},
		{"new in-app browser on Android", "Mozilla/5.0 (Linux; Android 15; Pixel 9 Build/AP4A.250105.002; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/140.0.0.0 Mobile Safari/537.36 Snapgram/88.1.0", false},
		{"new iOS app on CFNetwork", "Bramblewood/5012 CFNetwork/1568.200.51 Darwin/24.1.0", false},
		{"new iOS app with a platform comment", "Tidepool/3.4 (iPhone; iOS 18.1; Scale/3.00)", false},
		{"new Android app on Dalvik", "Dalvik/2.1.0 (Linux; U; Android 14; SM-S921B Build/UP1A.231005.007)", false},
		{"new Android app naming its platform", "Parsnip/2.7.0 (Linux; Android 13; moto g54 5G)", false},
		{"new Android app with okhttp", "Wombatly/1.0.3 (Android 14; Pixel 8) okhttp/4.12.0", false},
		{"new smart-TV browser", "Mozilla/5.0 (SMART-TV; Linux; Tizen 9.0) AppleWebKit/537.36 (KHTML, like Gecko) Version/9.0 TV Safari/537.36", false},
		{"new mail client", "Quokkamail/2.1 (Windows NT 10.0; Win64; x64)", false},
		{"new podcast player", "Podlark/1.4.2", false},
		{"webview library named Agent", "Mozilla/5.0 (Linux; Android 13; SM-A536B Build/TP1A.220624.014; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/120.0.0.0 Mobile Safari/537.36 AgentWeb/5.0.0", false},
		{"TV with the MagentaTV name", "Mozilla/5.0 (Linux; Android 12; MagentaTV Stick Build/STTE.230319.008; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/120.0.0.0 Safari/537.36", false},
		{"old Netscape", "Mozilla/4.7 [en] (X11; U; Linux 2.4.2 i686)", false},
		{"new media renderer", "Lumiplay/2.3 DLNADOC/1.50 UPnP/1.0", false},
		{"browser customised with an organisation's name", "Mozilla/5.0 (compatible; AcmeCollegeDesktop; Windows NT 10.0; Win64; x64; Trident/7.0; rv:11.0) like Gecko", false},
		{"phone maker named like a bot, in an app's device comment", "Mozilla/5.0 (Linux; Android 13; P60 Build/TP1A; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/120.0.0.0 Mobile Safari/537.36 Pictogram 301.0.0.1 Android (33/13; 440dpi; 1080x2400; ROBOTEL; P60; p60; mt6789; en_US; 522136544)", false},
		{"new browser named only by its family", "Glowbrowser/1.2 (beta)", false},
		{"new toolbar", "Ferret Toolbar", false},
		{"Internet Explorer with an add-on's home page", "Mozilla/4.0 (compatible; MSIE 8.0; Windows NT 6.1; Trident/4.0; SLCC2; Quillsoft Helper http://quillsoft.example; .NET CLR 2.0.50727; .NET CLR 3.5.30729; InfoPath.3)", false},
		{"new podcast app with its home page", "Whistlecast/2.3 (+https://whistle.example.fm/)", false},
		{"new radio app with its home page", "Dialtone Radio/5.0 (https://dialtone.example)", false},
		{"new app on an Apple Watch, named by its hardware model", "Watch7,4/11.2 (22S555)", false},
		{"new app naming an Apple hardware model", "Pebblestone/4.1 (MacBookPro18,3; 15.1)", false},
		{"Android device comment calling itself compatible", "Dalvik/2.1.0 (Linux; U; Android 9 Compatible; Tabulo X1 Build/PPR1.180610.011)", false},
		{"feature phone whose browser says compatible", "Mozilla/5.0 (compatible; Teleca Q7; Brew 4.0.3; U; en) 240X400 Zentel ZX400", false},
		{"old browser on an old platform, compatible", "Mozilla/4.0 (compatible; Polaris 6.2; Brew 3.1.5; en)/240X320 Zentel Z631", false},
		{"old browser naming its version before a bygone platform", "Mozilla/4.0 (compatible; Starglass/1.3.2; BeOS)", false},
		{"old browser of several words before a bygone platform", "Mozilla/5.0 (compatible; Tidepool Web 2.1; MorphOS; PPC)", false},
		{"feature phone with Openwave's short browser token", "Zentel-Z20/1.1 UP/4.1.19i", false},
		{"feature phone with Motorola's browser", "Zentel-Z40/08.17.0FR MIB/2.2.1", false},
		{"feature phone through its operator's gateway", "Zentel-Z41/G_09.04 UP.Link/6.3", false},
		{"feature phone naming its Java ME virtual machine", "Zentel-Z310/1.0 Browser/Obigo-Q05A/3.6 Java/ASVM/1.0 Profile/MIDP-2.0 Configuration/CLDC-1.1", false},
		{"new TV app on Fire OS", "Streamlet/3.2.0 (Fire OS 8.1; AFTKRT; Build/RS8141)", false},
		{"new desktop app with its build number", "Ravenhall/7.3.1402.0", false},
		{"new chat app with its build number and platform letter", "Chatterly/2.24.11.8 A", false},
		{"browser header sent twice", "Mozilla/5.0 (X11; Linux x86_64; rv:140.0) Gecko/20100101 Firefox/140.0, Mozilla/5.0 (X11; Linux x86_64; rv:140.0) Gecko/20100101 Firefox/140.0", false},
		{"new app whose name says at", "Mozilla/5.0 (iPhone; CPU iPhone OS 18_2 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 Meet at Noon/4.2", false},
		{"old WebKit browser with Safari's version in the engine comment", "Mozilla/5.0 (X11; U; Linux i686; en) AppleWebKit/523.15 (KHTML, like Gecko, Safari/419.3) Zephyra/0.4", false},
		{"console naming its video formats in the engine comment", "Mozilla/5.0 (Gamebox 5) AppleWebKit/605.1.15 (KHTML, like Gecko, HEVC, HDR) Gamebox/5.0", false},
		{"app with a long build number", "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36 Tallyho/2100502046", false},
		{"app with a date and time build", "Brisklet/1.0.20241118123045 (Windows NT 10.0; Win64; x64)", false},
		{"phone named like a bot", "Mozilla/5.0 (Linux; Android 14; ROBOT X9 Build/UP1A) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.0.0 Mobile Safari/537.36", false},
		{"phone named like a bot, after the language", "Mozilla/5.0 (Linux; U; Android 4.4.2; en-us; Zentel Robotix Build/KOT49H) AppleWebKit/534.30 (KHTML, like Gecko) Version/4.0 Mobile Safari/534.30", false},
		{"phone named like a bot, without a build", "Mozilla/5.0 (Linux; Android 12; Scanmaster T8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36", false},
	} {
		if bot, _ := c.Classify(tt.ua); bot != tt.bot {
			t.Errorf("%s: Classify(%q) bot = %v, want %v", tt.desc, tt.ua, bot, tt.bot)
		}
	}
}
