package botdetect

import (
	"slices"
	"testing"
)

// Real headers, as the clients send them.
const (
	uaChromeWindows  = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36"
	uaChromeMac      = "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36"
	uaChromeAndroid  = "Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36"
	uaChromeIOS      = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_7 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/131.0.6778.73 Mobile/15E148 Safari/604.1"
	uaFirefoxWindows = "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0"
	uaFirefoxLinux   = "Mozilla/5.0 (X11; Ubuntu; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0"
	uaFirefoxAndroid = "Mozilla/5.0 (Android 14; Mobile; rv:133.0) Gecko/133.0 Firefox/133.0"
	uaSafariMac      = "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15"
	uaSafariIPhone   = "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1"
	uaSafariIPad     = "Mozilla/5.0 (iPad; CPU OS 17_7 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.7 Mobile/15E148 Safari/604.1"
	uaEdgeWindows    = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.2903.70"
	uaEdgeAndroid    = "Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36 EdgA/131.0.2903.87"
	uaSamsung        = "Mozilla/5.0 (Linux; Android 14; SAMSUNG SM-S918B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/26.0 Chrome/122.0.0.0 Mobile Safari/537.36"
	uaFacebookApp    = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_6_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 [FBAN/FBIOS;FBAV/487.0.0.45.106;FBBV/665458375;FBDV/iPhone15,2;FBMD/iPhone;FBSN/iOS;FBSV/17.6.1;FBSS/3;FBCR/;FBID/phone;FBLC/en_US;FBOP/80]"
	uaFacebookDroid  = "Mozilla/5.0 (Linux; Android 14; SM-A546B Build/UP1A.231005.007; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/131.0.6778.39 Mobile Safari/537.36 [FB_IAB/FB4A;FBAV/490.0.0.50.81;]"
	uaInstagram      = "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 Instagram 356.0.0.29.77 (iPhone16,2; iOS 18_1; en_US; en; scale=3.00; 1290x2796; 654263154)"
	uaOutlook        = "Microsoft Office/16.0 (Windows NT 10.0; Microsoft Outlook 16.0.17928; Pro)"
	uaOutlookIOS     = "Outlook-iOS/709.2189947.prod.iphone (3.24.0)"
	uaThunderbird    = "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:128.0) Gecko/20100101 Thunderbird/128.5.0"
	uaCubot          = "Mozilla/5.0 (Linux; Android 10; CUBOT X30) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36"
	uaBotPhone       = "Mozilla/5.0 (Linux; Android 7.0; M BOT 60 Build/NRD90M) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/64.0.3282.137 Mobile Safari/537.36"
	uaSafariPreview  = "Safari%20Technology%20Preview/11601.6.17 CFNetwork/760.5.1 Darwin/15.5.0 (x86_64)"
	uaWhatsAppApp    = "WhatsApp/2.17.427 Android/4.4.2 Device/azumi-A40C"
	uaOkHTTPApp      = "GoEuroAndroid/9.39.3 (Realme RMX3366; Android 14; okhttp/4.9.3) WebView"
	uaVLC            = "VLC/3.0.21 LibVLC/3.0.21"

	uaGooglebot         = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"
	uaGooglebotDesktop  = "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; Googlebot/2.1; +http://www.google.com/bot.html) Chrome/131.0.6778.69 Safari/537.36"
	uaGooglebotPhone    = "Mozilla/5.0 (Linux; Android 6.0.1; Nexus 5X Build/MMB29P) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.6778.69 Mobile Safari/537.36 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"
	uaGooglebotImage    = "Googlebot-Image/1.0"
	uaGoogleInspection  = "Mozilla/5.0 (compatible; Google-InspectionTool/1.0;)"
	uaAdsBot            = "AdsBot-Google (+http://www.google.com/adsbot.html)"
	uaAdsBotMobile      = "Mozilla/5.0 (iPhone; CPU iPhone OS 14_7_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/14.1.2 Mobile/15E148 Safari/604.1 (compatible; AdsBot-Google-Mobile; +http://www.google.com/mobile/adsbot.html)"
	uaStorebot          = "Mozilla/5.0 (X11; Linux x86_64; Storebot-Google/1.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/79.0.3945.88 Safari/537.36"
	uaBingbot           = "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm) Chrome/116.0.1938.76 Safari/537.36"
	uaGPTBot            = "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.1; +https://openai.com/gptbot)"
	uaChatGPTUser       = "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; ChatGPT-User/1.0; +https://openai.com/bot"
	uaOAISearchBot      = "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; OAI-SearchBot/1.0; +https://openai.com/searchbot"
	uaClaudeBot         = "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; ClaudeBot/1.0; +claudebot@anthropic.com)"
	uaClaudeUser        = "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; Claude-User/1.0; +Claude-User@anthropic.com)"
	uaCCBot             = "CCBot/2.0 (https://commoncrawl.org/faq/)"
	uaApplebot          = "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/13.1.1 Safari/605.1.15 (Applebot/0.1; +http://www.apple.com/go/applebot)"
	uaPerplexityBot     = "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; PerplexityBot/1.0; +https://perplexity.ai/perplexitybot)"
	uaBytespider        = "Mozilla/5.0 (Linux; Android 5.0) AppleWebKit/537.36 (KHTML, like Gecko) Mobile Safari/537.36 (compatible; Bytespider; spider-feedback@bytedance.com)"
	uaAmazonbot         = "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; Amazonbot/0.1; +https://developer.amazon.com/support/amazonbot) Chrome/119.0.6045.214 Safari/537.36"
	uaMetaAgent         = "meta-externalagent/1.1 (+https://developers.facebook.com/docs/sharing/webmasters/crawler)"
	uaFacebookHit       = "facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)"
	uaTwitterbot        = "Twitterbot/1.0"
	uaLinkedInBot       = "LinkedInBot/1.0 (compatible; Mozilla/5.0; Apache-HttpClient +http://www.linkedin.com)"
	uaSlackbot          = "Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)"
	uaDiscordbot        = "Mozilla/5.0 (compatible; Discordbot/2.0; +https://discordapp.com)"
	uaWhatsAppPreview   = "WhatsApp/2.23.20.0 A"
	uaYandexBot         = "Mozilla/5.0 (compatible; YandexBot/3.0; +http://yandex.com/bots)"
	uaBaiduspider       = "Mozilla/5.0 (compatible; Baiduspider/2.0; +http://www.baidu.com/search/spider.html)"
	uaDuckDuckBot       = "DuckDuckBot/1.1; (+http://duckduckgo.com/duckduckbot.html)"
	uaSemrushBot        = "Mozilla/5.0 (compatible; SemrushBot/7~bl; +http://www.semrush.com/bot.html)"
	uaAhrefsBot         = "Mozilla/5.0 (compatible; AhrefsBot/7.0; +http://ahrefs.com/robot/)"
	uaPetalBot          = "Mozilla/5.0 (Linux; Android 7.0;) AppleWebKit/537.36 (KHTML, like Gecko) Mobile Safari/537.36 (compatible; PetalBot;+https://webmaster.petalsearch.com/site/petalbot)"
	uaArchiveOrg        = "Mozilla/5.0 (compatible; archive.org_bot +http://archive.org/details/archive.org_bot)"
	uaUptimeRobot       = "Mozilla/5.0+(compatible; UptimeRobot/2.0; http://www.uptimerobot.com/)"
	uaCurl              = "curl/8.5.0"
	uaWget              = "Wget/1.21.4"
	uaPythonRequests    = "python-requests/2.32.3"
	uaPythonUrllib      = "Python-urllib/3.12"
	uaGoHTTP            = "Go-http-client/1.1"
	uaOkHTTP            = "okhttp/4.12.0"
	uaAxios             = "axios/1.7.9"
	uaNodeFetch         = "node-fetch/1.0 (+https://github.com/bitinn/node-fetch)"
	uaJava              = "Java/17.0.2"
	uaLibwww            = "libwww-perl/6.72"
	uaScrapy            = "Scrapy/2.11.2 (+https://scrapy.org)"
	uaHeadlessChrome    = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/131.0.0.0 Safari/537.36"
	uaPhantomJS         = "Mozilla/5.0 (Unknown; Linux x86_64) AppleWebKit/538.1 (KHTML, like Gecko) PhantomJS/2.1.1 Safari/538.1"
	uaUnknownCrawler    = "Mozilla/5.0 (compatible; ExampleCrawler/1.0; +https://example.com/crawler)"
	uaUnknownBot        = "SomeNewBot/0.3"
	uaLowercaseLibrary  = "hackney/1.20.1"
	uaMonitorWithAtSign = "Mozilla/5.0 (compatible; monitoring; ops@example.com)"
)

func TestClassify(t *testing.T) {
	c := New(nil, nil)
	for _, tt := range []struct {
		desc, ua string
		bot      bool
		name     string
	}{
		{"empty header", "", true, ""},
		{"blank header", "  ", true, ""},

		{"Googlebot", uaGooglebot, true, "Googlebot"},
		{"Googlebot desktop", uaGooglebotDesktop, true, "Googlebot"},
		{"Googlebot smartphone", uaGooglebotPhone, true, "Googlebot"},
		{"Googlebot-Image", uaGooglebotImage, true, "Googlebot-Image"},
		{"Google-InspectionTool", uaGoogleInspection, true, "Google-InspectionTool"},
		{"AdsBot-Google", uaAdsBot, true, "AdsBot-Google"},
		{"AdsBot-Google-Mobile", uaAdsBotMobile, true, "AdsBot-Google-Mobile"},
		{"Storebot-Google", uaStorebot, true, "Storebot-Google"},
		// Crawlers of the knowledge base the classifier must name, so
		// that their claim is checked against their published addresses.
		{"GoogleOther-Image", "GoogleOther-Image/1.0", true, "GoogleOther-Image"},
		{"GoogleOther-Video", "GoogleOther-Video/1.0", true, "GoogleOther-Video"},
		{"Google-Pinpoint", "Mozilla/5.0 (compatible; Google-Pinpoint)", true, "Google-Pinpoint"},
		{"AdsBot-Google-Mobile-Apps", "AdsBot-Google-Mobile-Apps", true, "AdsBot-Google-Mobile-Apps"},
		{"OAI-AdsBot", "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; OAI-AdsBot/1.0; +https://openai.com/adsbot", true, "OAI-AdsBot"},
		{"Amzn-SearchBot", "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; Amzn-SearchBot/0.1) Chrome/119.0.6045.214 Safari/537.36", true, "Amzn-SearchBot"},
		{"meta-externalads", "meta-externalads/1.1 (+https://developers.facebook.com/docs/sharing/webmasters/crawler)", true, "meta-externalads"},
		{"MistralAI-Index", "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; MistralAI-Index/1.0; +https://docs.mistral.ai/robots)", true, "MistralAI-Index"},
		{"bingbot", uaBingbot, true, "bingbot"},
		{"GPTBot", uaGPTBot, true, "GPTBot"},
		{"ChatGPT-User", uaChatGPTUser, true, "ChatGPT-User"},
		{"OAI-SearchBot", uaOAISearchBot, true, "OAI-SearchBot"},
		{"ClaudeBot", uaClaudeBot, true, "ClaudeBot"},
		{"Claude-User", uaClaudeUser, true, "Claude-User"},
		{"CCBot", uaCCBot, true, "CCBot"},
		{"Applebot", uaApplebot, true, "Applebot"},
		{"PerplexityBot", uaPerplexityBot, true, "PerplexityBot"},
		{"Bytespider", uaBytespider, true, "Bytespider"},
		{"Amazonbot", uaAmazonbot, true, "Amazonbot"},
		{"meta-externalagent", uaMetaAgent, true, "meta-externalagent"},
		{"facebookexternalhit", uaFacebookHit, true, "facebookexternalhit"},
		{"Twitterbot", uaTwitterbot, true, "Twitterbot"},
		{"LinkedInBot", uaLinkedInBot, true, "LinkedInBot"},
		{"Slackbot", uaSlackbot, true, "Slackbot"},
		{"Discordbot", uaDiscordbot, true, "Discordbot"},
		{"WhatsApp link preview", uaWhatsAppPreview, true, "WhatsApp"},
		{"YandexBot", uaYandexBot, true, "YandexBot"},
		{"Baiduspider", uaBaiduspider, true, "Baiduspider"},
		{"DuckDuckBot", uaDuckDuckBot, true, "DuckDuckBot"},
		{"SemrushBot", uaSemrushBot, true, "SemrushBot"},
		{"AhrefsBot", uaAhrefsBot, true, "AhrefsBot"},
		{"PetalBot", uaPetalBot, true, "PetalBot"},
		{"Google-CWS", "Mozilla/5.0 (compatible; Google-CWS)", true, "Google-CWS"},
		{"Google-GeminiNotebook", "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/137.0.0.0 Safari/537.36 (compatible; Google-GeminiNotebook; +https://developers.google.com/crawling/docs/crawlers-fetchers/google-gemininotebook)", true, "Google-GeminiNotebook"},
		{"Pinterestbot", "Mozilla/5.0 (compatible; Pinterestbot/1.0; +https://www.pinterest.com/bot.html)", true, "Pinterestbot"},
		{"Pinterest's other crawler header", "Pinterest/0.2 (+https://www.pinterest.com/bot.html)", true, "Pinterestbot"},
		{"archive.org_bot", uaArchiveOrg, true, "archive.org_bot"},
		{"UptimeRobot", uaUptimeRobot, true, "UptimeRobot"},
		{"curl", uaCurl, true, "curl"},
		{"Wget", uaWget, true, "Wget"},
		{"python-requests", uaPythonRequests, true, "python-requests"},
		{"python-urllib", uaPythonUrllib, true, "python-urllib"},
		{"Go-http-client", uaGoHTTP, true, "Go-http-client"},
		{"okhttp", uaOkHTTP, true, "okhttp"},
		{"axios", uaAxios, true, "axios"},
		{"node-fetch", uaNodeFetch, true, "node-fetch"},
		{"Java", uaJava, true, "Java"},
		{"libwww-perl", uaLibwww, true, "libwww-perl"},
		{".NET SOAP client dressed as Internet Explorer", "Mozilla/4.0 (compatible; MSIE 6.0; MS Web Services Client Protocol 4.0.30319.42000)", true, ""},
		{"Scrapy", uaScrapy, true, "Scrapy"},
		{"HeadlessChrome", uaHeadlessChrome, true, "HeadlessChrome"},
		{"PhantomJS", uaPhantomJS, true, "PhantomJS"},
		{"unknown crawler", uaUnknownCrawler, true, ""},
		{"unknown bot", uaUnknownBot, true, ""},
		{"lowercase library", uaLowercaseLibrary, true, ""},
		{"contact address", uaMonitorWithAtSign, true, ""},

		{"Chrome on Windows", uaChromeWindows, false, ""},
		{"Chrome on macOS", uaChromeMac, false, ""},
		{"Chrome on Android", uaChromeAndroid, false, ""},
		{"Chrome on iOS", uaChromeIOS, false, ""},
		{"Firefox on Windows", uaFirefoxWindows, false, ""},
		{"Firefox on Linux", uaFirefoxLinux, false, ""},
		{"Firefox on Android", uaFirefoxAndroid, false, ""},
		{"Safari on macOS", uaSafariMac, false, ""},
		{"Safari on iPhone", uaSafariIPhone, false, ""},
		{"Safari on iPad", uaSafariIPad, false, ""},
		{"Edge on Windows", uaEdgeWindows, false, ""},
		{"Edge on Android", uaEdgeAndroid, false, ""},
		{"Samsung Internet", uaSamsung, false, ""},
		{"Facebook in-app browser on iOS", uaFacebookApp, false, ""},
		{"Facebook in-app browser on Android", uaFacebookDroid, false, ""},
		{"Instagram in-app browser", uaInstagram, false, ""},
		{"Outlook", uaOutlook, false, ""},
		{"Outlook for iOS", uaOutlookIOS, false, ""},
		{"Thunderbird", uaThunderbird, false, ""},
		{"Cubot phone", uaCubot, false, ""},
		{"phone model with BOT in its name", uaBotPhone, false, ""},
		{"Safari Technology Preview", uaSafariPreview, false, ""},
		{"WhatsApp app", uaWhatsAppApp, false, ""},
		{"app built on okhttp", uaOkHTTPApp, false, ""},
		{"VLC", uaVLC, false, ""},
		// People's software that sends its bare name and version.
		{"Geary", "Geary/44.1", false, ""},
		{"Evolution", "Evolution/3.50.4", false, ""},
		{"Postbox", "Postbox/7.0.60", false, ""},
		{"mpv", "mpv 0.37.0", false, ""},
		{"libmpv", "libmpv", false, ""},
		{"a Sonos speaker", "Sonos/79.1-52020 (ZPS27)", false, ""},
		{"LibreOffice", "LibreOffice", false, ""},
		// Real headers from WhichBrowser/Parser-PHP's test data: a
		// platform or a browser after "compatible;", a maker whose name
		// holds "seo", a custom ROM's build id, and tools whose names
		// start with a word of people's software.
		{"WebPositive on Haiku", "Mozilla/5.0 (compatible; Haiku R1 x86; xx) AppleWebKit/538.18 (KHTML, like Gecko) WebPositive/1.2 Safari/538.18", false, ""},
		{"Origyn on AmigaOS", "Mozilla/5.0 (compatible; Origyn Web Browser; U; AmigaOS 4.0; en)", false, ""},
		{"Odyssey on AROS", "Mozilla/5.0 (compatible; Odyssey Web Browser; AROS; rv:1.16) AppleWebKit/535.14 (KHTML, like Gecko) OWB/1.16 Safari/535.14", false, ""},
		{"hotel TV by Enseo", "Mozilla/5.0 (Linux; Linux mips; Enseo/HD3300) AppleWebKit/537.36 (KHTML, like Gecko)  Safari/537.36", false, ""},
		{"custom ROM's build id with an @", "Mozilla/5.0 (Linux; Android 2.3.4; xx; LG-P698 Build/alex@hawk-droid.rev3) AppleWebKit/533.1 (KHTML, like Gecko) Version/4.0 Mobile Safari/533.1", false, ""},
		{"feature phone's WAP browser", "R380 2.0 WAP1.1", false, ""},
		{"UC Browser on a feature phone", "UC Browser7.7.1.88/28/400", false, ""},
		{"MAUI WAP browser", "Mozilla/5.0 (compatible; MAUI WAP Browser; MT6228)", false, ""},
		{"NetFront's BrowserInfo", "Mozilla/3.0N AVE-Front/2.5 (BrowserInfo Screen=620x400x256; InputMethod=REMOCON, KEYBOARD; Page=3M; Product=Winbond/STB; HTML-Level=3.2; Category=STB; Language=en_US; CPU=PARISC; Storage=NO;)", false, ""},
		{"phone calling itself compatible with the iPhone", "Mozilla/5.0 (Linux; Android 4.0.4; ST25i Build/6.1.1.B.1.10;compatible iPhone) AppleWebKit/535.19 (KHTML, like Gecko) Chrome/18.0.1025.166 Mobile Safari/535.19", false, ""},
		{"Browsershots", "Browsershots", true, ""},
		{"Wappalyzer", "Wappalyzer", true, ""},
		// Automation that names a platform as apps do.
		{"AWS SDK", "aws-sdk-js/3.540.0 ua/2.0 os/linux#5.10 lang/js md/nodejs#20.11.1 api/s3#3.540.0", true, ""},
		{"Docker client", "Docker-Client/24.0.7 (linux)", true, ""},
		{"Maven", "Apache-Maven/3.9.6 (Java 17.0.10; Linux 5.15.0-101-generic)", true, ""},
		{"Pulumi", "Pulumi/3.112.0 (linux; amd64)", true, ""},
		{"OpenVAS", "Mozilla/5.0 [en] (X11, U; OpenVAS-VT 22.4.1)", true, ""},
		{"Pinterest app", "Pinterest/3.3.3 CFNetwork/711.1.16 Darwin/14.0.0", false, ""},
	} {
		bot, name := c.Classify(tt.ua)
		if bot != tt.bot || name != tt.name {
			t.Errorf("%s: Classify(%q) = %v, %q; want %v, %q", tt.desc, tt.ua, bot, name, tt.bot, tt.name)
		}
	}
}

func TestClassifyCaseInsensitive(t *testing.T) {
	c := New(nil, nil)
	for _, ua := range []string{"GOOGLEBOT/2.1", "googlebot/2.1", "GoOgLeBoT/2.1"} {
		if bot, name := c.Classify(ua); !bot || name != "Googlebot" {
			t.Errorf("Classify(%q) = %v, %q; want true, %q", ua, bot, name, "Googlebot")
		}
	}
}

func TestExtras(t *testing.T) {
	c := New(
		[]string{"", "InternalTool", "SafariMonitor"},
		[]string{"", "uptimerobot", "Friendly-Crawler"},
	)
	for _, tt := range []struct {
		desc, ua string
		bot      bool
		name     string
	}{
		{"extra bot", "Mozilla/5.0 internaltool/2", true, "InternalTool"}, // named by the entry as configured
		{"extra bot inside a browser header", uaSafariMac + " SafariMonitor/1.0", true, "SafariMonitor"},
		{"extra human exempts a known crawler", uaUptimeRobot, false, ""},
		{"extra human exempts a generic bot", "Friendly-Crawler/1.0", false, ""},
		{"extra human beats extra bot", "InternalTool (friendly-crawler)", false, ""},
		{"empty strings are ignored", uaChromeWindows, false, ""},
		{"known crawlers still named", uaGPTBot, true, "GPTBot"},
		{"empty header stays a bot", "", true, ""},
	} {
		bot, name := c.Classify(tt.ua)
		if bot != tt.bot || name != tt.name {
			t.Errorf("%s: Classify(%q) = %v, %q; want %v, %q", tt.desc, tt.ua, bot, name, tt.bot, tt.name)
		}
	}

	// Empty strings in the lists must not match every header.
	if bot, _ := New([]string{""}, nil).Classify(uaChromeWindows); bot {
		t.Errorf("an empty extra bot marker matched %q", uaChromeWindows)
	}
	if bot, _ := New(nil, []string{""}).Classify(uaCurl); !bot {
		t.Errorf("an empty extra human marker exempted %q", uaCurl)
	}
}

func TestExempt(t *testing.T) {
	c := New([]string{"InternalTool"}, []string{"UptimeRobot", "friendly"})
	for ua, want := range map[string]bool{
		uaUptimeRobot:           true,
		"FRIENDLY-crawler/1.0":  true,
		"InternalTool/1.0":      false,
		uaChromeWindows:         false,
		"":                      false,
		uaGooglebot + " friend": false,
	} {
		if got := c.Exempt(ua); got != want {
			t.Errorf("Exempt(%q) = %v, want %v", ua, got, want)
		}
	}
	if New(nil, nil).Exempt(uaUptimeRobot) {
		t.Error("Exempt is true without extra human markers")
	}
}

// knownNames lists the canonical names Classify can return: a bounded set,
// since they become Prometheus label values.
func knownNames() []string {
	var names []string
	add := func(n string) {
		if !slices.Contains(names, n) {
			names = append(names, n)
		}
	}
	for _, cr := range knownCrawlers {
		add(cr.name)
	}
	for _, cl := range knownClients {
		add(cl.name)
	}
	for _, sh := range shapedCrawlers {
		add(sh.name)
	}
	return names
}

func TestKnownNames(t *testing.T) {
	names := knownNames()
	for _, want := range []string{
		"Googlebot", "Googlebot-Image", "Googlebot-News", "Google-InspectionTool",
		"Storebot-Google", "AdsBot-Google", "Mediapartners-Google", "Google-Extended",
		"bingbot", "BingPreview", "Applebot", "GPTBot", "ChatGPT-User", "OAI-SearchBot",
		"ClaudeBot", "Claude-User", "Claude-SearchBot", "anthropic-ai", "CCBot",
		"PerplexityBot", "Perplexity-User", "Bytespider", "Amazonbot",
		"meta-externalagent", "facebookexternalhit", "FacebookBot", "Twitterbot",
		"LinkedInBot", "Slackbot", "Discordbot", "TelegramBot", "WhatsApp", "YandexBot",
		"Baiduspider", "DuckDuckBot", "SemrushBot", "AhrefsBot", "MJ12bot", "DotBot",
		"PetalBot", "Sogou", "Exabot", "SeznamBot", "archive.org_bot", "ia_archiver",
		"Diffbot", "YouBot", "cohere-ai", "Timpibot", "ImagesiftBot", "Omgilibot",
		"UptimeRobot", "Pingdom", "curl", "Wget", "python-requests", "python-urllib",
		"Go-http-client", "okhttp", "axios", "node-fetch", "Java", "libwww-perl",
		"Scrapy", "HeadlessChrome", "PhantomJS",
	} {
		if !slices.Contains(names, want) {
			t.Errorf("the tables lack %q", want)
		}
	}
	seen := make(map[string]bool)
	for _, n := range names {
		if n == "" || seen[n] {
			t.Errorf("the tables have an empty or duplicate name %q", n)
		}
		seen[n] = true
	}

	// Every name Classify reports must be a label the caller knows about.
	c := New(nil, nil)
	for _, ua := range benchMix {
		if _, name := c.Classify(ua); name != "" && !seen[name] {
			t.Errorf("Classify(%q) returned %q, which the tables lack", ua, name)
		}
	}
}

// A crawler name that contains another must win over it wherever it stands.
func TestMostSpecificName(t *testing.T) {
	c := New(nil, nil)
	for ua, want := range map[string]string{
		"Googlebot-News":                          "Googlebot-News",
		"Googlebot-Video/1.0":                     "Googlebot-Video",
		"Mozilla/5.0 (compatible; Googlebot/2.1)": "Googlebot",
		"Applebot-Extended/0.1":                   "Applebot-Extended",
		"Claude-SearchBot/1.0":                    "Claude-SearchBot",
		"TelegramBot (like TwitterBot)":           "TelegramBot",
	} {
		if _, name := c.Classify(ua); name != want {
			t.Errorf("Classify(%q) name = %q, want %q", ua, name, want)
		}
	}
}

// A crawler's name starts a word. A name found inside another word is
// another crawler's (ShowyouBot is not You.com's YouBot), and since the
// handler verifies a name as a claim, naming it wrongly would make an
// impostor of an honest bot. The header is still a bot.
func TestNameStartsAWord(t *testing.T) {
	c := New(nil, nil)
	for ua, want := range map[string]string{
		"ShowyouBot (http://showyou.com/crawler)":                        "",
		"Mozilla/5.0 (compatible; Alexabot/1.0; +http://www.alexa.com/)": "",
		"Zq9ccbot/7.2":                             "",
		"RedesScrapy/0.24.1":                       "",
		"Mozilla/5.0 (compatible; YouBot/1.0)":     "YouBot",
		"CCBot/2.0 (https://commoncrawl.org/faq/)": "CCBot",
		"Scrapy/2.11 (+https://scrapy.org)":        "Scrapy",
		"Mozilla/5.0 (compatible;Exabot/3.0)":      "Exabot",
	} {
		bot, name := c.Classify(ua)
		if !bot || name != want {
			t.Errorf("Classify(%q) = %v, %q; want a bot named %q", ua, bot, name, want)
		}
	}
}

func TestClassifyDoesNotAllocate(t *testing.T) {
	c := New([]string{"internaltool"}, []string{"trustedmonitor"})
	for _, ua := range benchMix {
		if n := testing.AllocsPerRun(100, func() { c.Classify(ua) }); n != 0 {
			t.Errorf("Classify(%q) allocates %v times per call", ua, n)
		}
	}
}

// Headers long enough to overflow the fixed match buffers must not allocate
// or misbehave either.
func TestManySigns(t *testing.T) {
	c := New(nil, nil)
	ua := ""
	for range 20 {
		ua += "crawler "
	}
	if bot, _ := c.Classify(ua); !bot {
		t.Errorf("Classify(%q) = human", ua)
	}
	if n := testing.AllocsPerRun(100, func() { c.Classify(ua) }); n != 0 {
		t.Errorf("Classify allocates %v times per call", n)
	}
}

// benchMix is a mix of browsers and bots roughly as a public site sees them.
var benchMix = []string{
	uaChromeWindows, uaChromeAndroid, uaSafariIPhone, uaChromeMac, uaEdgeWindows,
	uaFirefoxWindows, uaSamsung, uaFacebookApp, uaInstagram, uaSafariMac,
	uaGooglebotPhone, uaBingbot, uaGPTBot, uaClaudeBot, uaAhrefsBot,
	uaFacebookHit, uaCurl, uaPythonRequests, uaHeadlessChrome, uaUnknownCrawler,
}

var sink bool

func BenchmarkClassify(b *testing.B) {
	c := New(nil, nil)
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		bot, _ := c.Classify(benchMix[i%len(benchMix)])
		sink = sink != bot
	}
}

func benchmarkOne(b *testing.B, ua string) {
	c := New(nil, nil)
	b.ReportAllocs()
	for b.Loop() {
		bot, _ := c.Classify(ua)
		sink = sink != bot
	}
}

func BenchmarkClassifyBrowser(b *testing.B)    { benchmarkOne(b, uaChromeWindows) }
func BenchmarkClassifyKnownBot(b *testing.B)   { benchmarkOne(b, uaGooglebotPhone) }
func BenchmarkClassifyUnknownBot(b *testing.B) { benchmarkOne(b, uaUnknownCrawler) }

// Named services are caught by their product token, and the apps people use
// that share part of a token are not.
func TestAutomatedServices(t *testing.T) {
	c := New(nil, nil)
	for ua, bot := range map[string]bool{
		"Klaviyo/1.0":                    true,
		"SparkPost":                      true,
		"Mozilla/5.0 (Morningscore/1.0)": true,
		"Amazon Simple Notification Service Agent":                        true,
		"azure-logic-apps/1.0 (workflow 1; version 2) microsoft-flow/1.0": true,
		"mattermost-5.19.0":                 true,
		"Castro 2, Episode Duration Lookup": true,
		"Owler (ows.eu/owler)":              true,
		"Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/76.0.3809.87 Safari/537.36 LinkTiger": true,

		"Mattermost/1.49.1 (iPad; iOS 15.3.1; Scale/2.00)": false,
		"Castro 2 Episode Download":                        false,
		"Mozilla/5.0 (Linux; Android 7.0; SM-G920F Build/NRD90M; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/65.0.3325.109 Mobile Safari/537.36 Blackboard/3.5.0": false,
		"Mozilla/5.0 (Linux; Android 7.0; Impress_Calypso Build/XING29N) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/67.0.3396.87 Mobile Safari/537.36":                           false,
	} {
		if got, _ := c.Classify(ua); got != bot {
			t.Errorf("Classify(%q) bot = %v, want %v", ua, got, bot)
		}
	}
}

// Every plain pattern must match a header that holds nothing else, wherever
// the header puts it: the bucket index and its filters must never hide one.
func TestEveryPatternMatches(t *testing.T) {
	c := New(nil, nil)
	for _, n := range builtin {
		if n.shape != nil || n.kind == kindVeto || n.kind == kindWeak || n.kind == kindPlatform {
			continue
		}
		uas := []string{n.text, n.text + " 1"}
		if !n.atStart {
			uas = append(uas, "x "+n.text, "Mozilla/5.0 (X11) "+n.text+"/1.0")
		}
		for _, ua := range uas {
			if bot, _ := c.Classify(ua); !bot {
				t.Errorf("pattern %q: Classify(%q) = human", n.text, ua)
			}
		}
	}
}
