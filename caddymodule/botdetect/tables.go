package botdetect

// Pattern notation, used by every table below (see parsePattern):
//
//	googlebot    the text anywhere in the header, ignoring ASCII case
//	|java/       the text after a word edge (start of header, or a byte that
//	             is not an ASCII letter or digit)
//	bot|         the text before a word edge (end of header, or a byte that is
//	             not an ASCII letter or digit)
//	^okhttp      the text at the very start of the header
//
// Patterns are written in lowercase.

// crawler is a known automated client: the name Classify reports, and the
// patterns that identify it. When several match one header, a crawler beats
// a client library and then the longest pattern wins, so "Googlebot-Image"
// beats "Googlebot" (see needle.outranks).
type crawler struct {
	name  string
	match []string
}

// knownCrawlers lists crawlers and fetchers by the name their operator
// documents (usually the robots.txt product token). Names end up as metric
// labels, so these lists are the whole label set; a bot that is not here is
// still caught by the generic tables, just without a name.
var knownCrawlers = []crawler{
	// Google; https://developers.google.com/search/docs/crawling-indexing/google-common-crawlers
	{"Googlebot", []string{"googlebot"}},
	{"Googlebot-Image", []string{"googlebot-image"}},
	{"Googlebot-News", []string{"googlebot-news"}},
	{"Googlebot-Video", []string{"googlebot-video"}},
	{"Google-InspectionTool", []string{"google-inspectiontool"}},
	{"Storebot-Google", []string{"storebot-google"}},
	{"AdsBot-Google", []string{"adsbot-google"}},
	{"AdsBot-Google-Mobile", []string{"adsbot-google-mobile"}},
	{"Mediapartners-Google", []string{"mediapartners-google"}},
	{"Google-Extended", []string{"google-extended"}},
	{"GoogleOther", []string{"googleother"}},
	{"GoogleOther-Image", []string{"googleother-image"}},
	{"GoogleOther-Video", []string{"googleother-video"}},
	{"Google-CloudVertexBot", []string{"google-cloudvertexbot"}},
	{"APIs-Google", []string{"apis-google"}},
	{"FeedFetcher-Google", []string{"feedfetcher-google"}},
	{"Google-Read-Aloud", []string{"google-read-aloud"}},
	{"DuplexWeb-Google", []string{"duplexweb-google"}},
	{"Google-Site-Verification", []string{"google-site-verification"}},
	{"Google-Safety", []string{"google-safety"}},
	{"GoogleProducer", []string{"googleproducer"}},
	{"Google-CWS", []string{"google-cws|"}},
	{"Google-GeminiNotebook", []string{"google-gemininotebook", "google-notebooklm"}},
	{"Google-Agent", []string{"google-agent"}},
	{"Google-Pinpoint", []string{"google-pinpoint"}},
	{"GoogleMessages", []string{"googlemessages"}},
	{"AdsBot-Google-Mobile-Apps", []string{"adsbot-google-mobile-apps"}},
	{"Google Favicon", []string{"google favicon"}},
	{"Chrome-Lighthouse", []string{"chrome-lighthouse"}},

	// Microsoft
	{"bingbot", []string{"bingbot"}},
	{"BingPreview", []string{"bingpreview"}},
	{"msnbot", []string{"msnbot"}},
	{"adidxbot", []string{"adidxbot"}},
	{"MicrosoftPreview", []string{"microsoftpreview"}},

	// Apple
	{"Applebot", []string{"applebot"}},
	{"Applebot-Extended", []string{"applebot-extended"}},

	// AI companies
	{"GPTBot", []string{"gptbot"}},
	{"ChatGPT-User", []string{"chatgpt-user"}},
	{"OAI-SearchBot", []string{"oai-searchbot"}},
	{"OAI-AdsBot", []string{"oai-adsbot"}},
	{"ClaudeBot", []string{"claudebot"}},
	{"Claude-User", []string{"claude-user"}},
	{"Claude-SearchBot", []string{"claude-searchbot"}},
	{"Claude-Web", []string{"claude-web"}},
	{"anthropic-ai", []string{"anthropic-ai"}},
	{"CCBot", []string{"ccbot"}},
	{"PerplexityBot", []string{"perplexitybot"}},
	{"Perplexity-User", []string{"perplexity-user"}},
	{"Bytespider", []string{"bytespider"}},
	{"Amazonbot", []string{"amazonbot"}},
	{"Amzn-SearchBot", []string{"amzn-searchbot"}},
	{"Amzn-User", []string{"amzn-user"}},
	{"cohere-ai", []string{"cohere-ai"}},
	{"Diffbot", []string{"diffbot"}},
	{"YouBot", []string{"youbot"}},
	{"Timpibot", []string{"timpibot"}},
	{"ImagesiftBot", []string{"imagesiftbot"}},
	{"Omgilibot", []string{"omgilibot"}},
	{"Omgili", []string{"|omgili/"}},
	{"AI2Bot", []string{"ai2bot"}},
	{"MistralAI-User", []string{"mistralai-user"}},
	{"MistralAI-Index", []string{"mistralai-index"}},
	{"MistralAI-Training", []string{"mistralai-training"}},
	{"DuckAssistBot", []string{"duckassistbot"}},

	// Meta and social networks (link previews)
	{"meta-externalagent", []string{"meta-externalagent"}},
	{"meta-externalfetcher", []string{"meta-externalfetcher"}},
	{"meta-webindexer", []string{"meta-webindexer"}},
	{"meta-externalads", []string{"meta-externalads"}},
	{"facebookexternalhit", []string{"facebookexternalhit"}},
	{"FacebookBot", []string{"facebookbot"}},
	{"facebookcatalog", []string{"facebookcatalog"}},
	{"Facebot", []string{"|facebot|"}},
	{"Twitterbot", []string{"twitterbot"}},
	{"LinkedInBot", []string{"linkedinbot"}},
	{"Slackbot", []string{"slackbot"}},
	{"Slack-ImgProxy", []string{"slack-imgproxy"}},
	{"Discordbot", []string{"discordbot"}},
	{"TelegramBot", []string{"telegrambot"}},
	{"Pinterestbot", []string{"pinterestbot", "^pinterest/0.", "pinterest.com/bot"}},
	{"redditbot", []string{"redditbot"}},
	{"Embedly", []string{"embedly"}},

	// Search engines
	{"YandexBot", []string{"yandexbot"}},
	{"Baiduspider", []string{"baiduspider"}},
	{"DuckDuckBot", []string{"duckduckbot"}},
	{"Sogou", []string{"|sogou|"}},
	{"Exabot", []string{"exabot"}},
	{"SeznamBot", []string{"seznambot"}},
	{"PetalBot", []string{"petalbot"}},
	{"Qwantbot", []string{"qwantbot"}},
	{"MojeekBot", []string{"mojeekbot"}},
	{"coccocbot", []string{"coccocbot"}},
	{"Yeti", []string{"|yeti/"}},
	{"Slurp", []string{"yahoo! slurp"}},

	// SEO and marketing
	{"SemrushBot", []string{"semrushbot"}},
	{"AhrefsBot", []string{"ahrefsbot"}},
	{"AhrefsSiteAudit", []string{"ahrefssiteaudit"}},
	{"MJ12bot", []string{"mj12bot"}},
	{"DotBot", []string{"|dotbot"}},
	{"BLEXBot", []string{"blexbot"}},
	{"DataForSeoBot", []string{"dataforseobot"}},
	{"serpstatbot", []string{"serpstatbot"}},
	{"Barkrowler", []string{"barkrowler"}},

	// Archives
	{"archive.org_bot", []string{"archive.org_bot"}},
	{"ia_archiver", []string{"ia_archiver"}},

	// Monitoring
	{"UptimeRobot", []string{"uptimerobot"}},
	{"Pingdom", []string{"pingdom"}},
}

// knownClients are command-line tools, HTTP libraries and headless browsers
// that Classify names. A crawler that names the library it uses is reported
// as the crawler.
var knownClients = []crawler{
	{"curl", []string{"|curl|", "libcurl"}},
	{"Wget", []string{"|wget|"}},
	{"python-requests", []string{"python-requests"}},
	{"python-urllib", []string{"python-urllib"}},
	{"python-httpx", []string{"python-httpx"}},
	{"aiohttp", []string{"|aiohttp"}},
	{"Go-http-client", []string{"go-http-client"}},
	{"okhttp", []string{"^okhttp"}},
	{"axios", []string{"|axios/"}},
	{"node-fetch", []string{"node-fetch"}},
	{"Apache-HttpClient", []string{"apache-httpclient"}},
	{"libwww-perl", []string{"libwww-perl"}},
	{"Scrapy", []string{"scrapy"}},
	{"HTTPie", []string{"|httpie/"}},
	{"HeadlessChrome", []string{"headlesschrome"}},
	{"PhantomJS", []string{"phantomjs"}},
}

// shapedCrawlers are known clients whose name alone is not enough, because a
// human app uses it too. shape checks the header around the match
// ua[start:end] and returns where the sign ends, or -1 if it does not apply.
var shapedCrawlers = []struct {
	name   string
	match  string
	shape  func(ua string, start, end int) int
	client bool // as in knownClients
}{
	// WhatsApp's link-preview fetcher sends "WhatsApp/2.23.20.0 A" (a
	// version and a platform letter); the app itself sends
	// "WhatsApp/2.17.427 Android/4.4.2 Device/...".
	{"WhatsApp", "^whatsapp/", versionThenLetter, false},
	// Java's HTTP client writes its version ("Java/1.8.0_151"); a
	// feature phone names its Java ME virtual machine ("Java/ASVM/1.0
	// Profile/MIDP-2.0", "Java/Jbed/7.0").
	{"Java", "|java/", versionNext, true},
}

// versionNext accepts a match followed by a digit.
func versionNext(ua string, _, end int) int {
	return yes(end < len(ua) && isDigit(ua[end]), end)
}

// genericWords are words that describe an automated client. They count
// wherever they appear, except inside the name of the device in an Android
// comment (see deviceSlots).
var genericWords = []string{
	// A WebKit engine comment is exactly "(KHTML, like Gecko)": browsers
	// add nothing inside it, tools add their name ("(KHTML, like Gecko;
	// Google Page Speed Insights)", "(KHTML, like Gecko; compatible; …)").
	"(khtml, like gecko; ",
	// Browser automation: the frameworks that drive headless browsers.
	"selenium", "puppeteer", "playwright", "webdriver", "|cypress/", "jsdom/", "slimerjs", "nightmarejs",
	"bot|", "bots|", "robot", "crawl", "spider", "slurp", "scrap", "fetch",
	"headless", "archiv", "monitor", "uptime", "check|", "checker",
	"validator", "analyzer", "analyser", "extractor", "synthetic", "lighthouse",
	"pagespeed", "page speed", "preview", "scan", "tester", "resolver",
	"expander", "unshorten", "webhook", "screenshot", "rss|", "inspector",
	"url", "search engine", "searchengine", "feed", "indexer|",
	"audit|", "thumbnailer|", "|b0t|",
	"http client", "http-client", "httpclient", "http_client", "http request",
	// Placeholders left by misconfigured tools, and template or code
	// injection probes.
	"useragent", "user_agent", "user agent|", "{{", "${",
	// More words of automation, and "(Name Agent)" appended to a header.
	"probe", "census", "harvest", "parser|", "|sniff", "translate", "survey",
	// Fetchers of a site's icon, and checkers of a site's ownership or
	// setup ("Google Favicon", "CookieHubVerify/3.0").
	"favicon", "verif",
	"; www.", ";www.", // a home page in the platform comment
	// A developer's build of Java software ("Sparkler/0.2.0-SNAPSHOT",
	// "Jetty/9.3.z-SNAPSHOT"): servers and tools run from a build tree,
	// apps people install carry a release's number.
	"-snapshot",
	// Tools that turn pages into something else, unattended: renderers
	// and converters ("wkhtmltopdf", "webkit2png"), resizers and
	// transcoders, and tools that measure, report or collect
	// ("Observatory", "LinkExaminer", "DNSPod-reporting").
	"wkhtmlto", "2png|", "converter", "transcod", "resizer", "generator",
	"diagnostic", "examiner", "observatory", "measurement", "benchmark",
	"loadtest", "load test", "reporting", "collector", "notifier",
	"watcher", "importer", "devtools",
}

// toolNames are HTTP libraries, command-line tools, test and monitoring
// services that are not in knownCrawlers. Those anchored with '^' count only
// as the leading product: "MyApp/1.0 ... okhttp/4.9" is an app a person uses.
// libraryTools are HTTP libraries, command-line clients and language
// runtimes: what a client fetches with, not who it is (see ClientName).
var libraryTools = []string{
	".js/", "|node/", "^python", "|cpython", "|pypy/", "|dart/", "|dart:io", "|deno/", "|bun/", "|jdk", "|openjdk",
	"|urllib", "^go ", "^node", "node.js", "undici", "^php", "^perl", "^ruby",
	"|lwp-", "lwp::", "guzzlehttp", "rest-client", "reqwest/", "|ureq/",
	"^java", "commons-httpclient", "httpasyncclient", "^ahc/", "asynchttp",
	"^wget", "powershell", "postmanruntime", "insomnia/", "|aria2/",
	"go-resty", "|hackney/", "|faraday", "|mechanize/", "|colly", "anglesharp",
	"|grpc-", "|grequests", "restsharp", "reactornetty", "reactor-netty",
	"|jersey/", "mojolicious", "browserkit", "pagegetter", "zombie.js",
	"request.js", "^pip/", "^npm/", "^pnpm/", "^yarn/", "^docker/", "^gradle/",
	"^lavf/", "webdav", "|davclnt", "internet publishing provider",
	"network diagnostics", "cryptoapi", "captivenetworksupport",
	"^avsdevicesdk/", "web services client protocol",
	// A language runtime and its version anywhere in the header
	// ("PHP/7.0.15", "Ruby/3.1.2", "Python/3.8"): apps people use do not
	// name the interpreter they would run in.
	"|php/", "|ruby/", "|python/", "|perl/",
	// The Java runtime as Java tools name it in their comment
	// ("Apache-Maven/3.9.6 (Java 17.0.10; Linux ...)").
	"(java ",
}

var toolNames = []string{
	// A build target in Go's GOOS/GOARCH spelling ("kubectl/v1.12.0
	// (linux/amd64)"): command-line tools and SDKs built with Go write their
	// platform that way; browsers and apps write "Linux x86_64".
	"linux/amd64", "linux/arm", "linux/386", "linux/ppc64", "linux/s390x", "linux/riscv64",
	"darwin/amd64", "darwin/arm64", "windows/amd64", "windows/386", "windows/arm64",
	"freebsd/amd64",
	// The same target as an SDK or agent written in Go writes it in a
	// comment ("Pulumi/3.112.0 (linux; amd64)"); browsers write "Linux
	// x86_64" or "Linux aarch64", with no semicolon between.
	"linux; amd64", "linux; arm64", "darwin; amd64", "darwin; arm64", "windows; amd64", "windows; arm64",
	// The metadata of the AWS SDKs' headers and those following their
	// grammar ("... ua/2.0 os/linux#5.10 lang/python#3.11 md/arch#x86_64"):
	// the language an SDK runs in and its build, no person's software.
	" lang/", " md/", " ua/2.",
	// Cloud SDKs, package managers, build tools and infrastructure
	// agents, which name a platform as apps do.
	"^aws-sdk", "^azsdk-", "^azure-", "^octokit", "^nuget", "^docker-client", "apache-maven", "^pulumi/",
	"^terraform/", "^elastic-", "^libdnf", "libalpm/", "minio-go/",
	// A GNU or Rust target triplet ("x86_64-pc-linux-gnu", "linux-gnu",
	// "aarch64-apple-darwin") is how compiled tools (curl, Wget, Siege)
	// name their build; browsers and apps write "Linux x86_64".
	"linux-gnu", "-linux-musl", "-unknown-linux", "-apple-darwin", "-pc-windows", "-mingw32",
	// A Go toolchain version ("go/go1.12.17", "(go1.21)").
	"|go1.",
	// Browser automation
	"puppeteer", "playwright", "selenium", "webdriver", "phantom.js", "|splash|",
	// Crawlers, archivers and site copiers
	"httrack", "nutch", "heritrix", "|htdig/", "larbin", "|xenu", "webcopier",
	"sitesucker", "offline explorer", "|acoon", "hatena", "discourse",
	"|daum|", "daumoa", "qwantify", "^coccoc/", "|github-", "statically-",
	"adbeat", "^email", "wechatdevtools", "^swcd ", "claude-code", "wordpress",
	"postrank", "sectigo",
	// AI agents that fetch for a person name themselves "<Vendor>-User".
	"-user/",
	// Security scanners
	"fuzz faster", "w3af", "netsparker", "shodan", "netcraft", "masscan",
	"zgrab", "nuclei", "sqlmap", "nikto", "wpscan", "dirbuster", "openvas", "greenbone",
	// Performance, monitoring and site audits
	"|ptst", "gtmetrix", "dareboost", "gomezagent", "catchpoint", "ips-agent",
	"|iplabel", "alertra", "loadimpact", "|siege/", "|k6/", "statuscake",
	"site24x7", "newrelic", "dynatrace", "|zabbix", "nagios", "|icinga",
	"|munin/", "grafana", "datadog", "matomo", "uptrends", "updown.io",
	"worldping", "hexometer", "websitepulse", "keycdn", "ssl labs", "|dcv|",
	"blackbox exporter", "cloudflare", "cloudfront", "dmbrowser", "sparkler/",
	"siteimprove", "marketgoo", "brandverity", "hardenize", "neustar",
	"|rigor|", "ghost inspector", "yandex.translate", "grader", "hubspot",
	"onetrust", "abuse",
	// Google's fetchers that are not crawlers with robots.txt names
	"|google-", "-google|", "googleassociationservice", "googlesites",
	"googleadsenseinfeed", "googlemessages", "googleweblight",
	"googleimageproxy", "google search console", "google keyword suggestion",
}

// automatedServices are the product tokens of particular crawlers, monitors,
// SEO and marketing tools, link checkers, feed fetchers, security scanners,
// preview fetchers, archivers, HTTP libraries and SDKs that carry no generic
// word the tables above would catch ("Klaviyo/1.0", "SparkPost",
// "Mozilla/5.0 (Morningscore/1.0)"). This is the per-name list that
// Crawler-Detect and isbot keep: an entry is a distinctive product token of
// a real automated client, never an ordinary word, and never a name that
// also belongs to software people use. A token that an app's name could
// begin with is held to the start of the header ("^klaviyo/") or made
// longer ("meltwaternews", "ows.eu/owler"). Sorted by the token, one per
// line.
var automatedServices = []string{
	"0xabyssaldoesntexist",               // mass vulnerability scanner
	"192.comagent",                       // 192.com directory crawler
	"aboutthedomain",                     // domain information crawler
	"accoona",                            // Accoona search crawler
	"adstxt",                             // ads.txt crawlers (Adstxtaggregator.com, adstxt-worker)
	"^algolia",                           // Algolia crawler
	"alibaba.security",                   // Alibaba security scanner
	"|alittle client",                    // ALittle engine HTTP client
	"amazon simple notification service", // Amazon SNS deliveries
	"amazonbuyforme",                     // Amazon Buy for Me agent
	"anturis",                            // Anturis monitoring agent
	"archive-it",                         // Archive-It web archiving
	"asafaweb",                           // ASafaWeb security scanner
	"azure-logic-apps",                   // Azure Logic Apps HTTP actions
	"bbtest-net",                         // Hobbit/Xymon network tests
	"bidtellect",                         // Bidtellect ad crawler
	"biglotron",                          // Biglotron search crawler
	"binglocalsearch",                    // Bing local search fetcher
	"blackboardally",                     // Blackboard Ally, course content checker
	"botpoke",                            // BotPoke
	"branch metrics",                     // Branch link-preview API
	"burpcollaborator",                   // Burp Suite probes
	"|bw/1.",                             // BuiltWith technology profiler
	"^cakephp",                           // CakePHP HTTP client
	"^calypso v/",                        // Calypso crawler
	"^capitaloneshopping/",               // Capital One Shopping catalog crawler
	"castopod",                           // Castopod podcast host, feed fetcher
	"cfml engine",                        // Lucee CFML engine HTTP client
	"cg-eye",                             // CG-Eye site checker
	"chromaxa",                           // Chromaxa Sonar scanner
	"clarsentia",                         // Clarsentia crawler
	"collapsify",                         // Collapsify page renderer
	"cookiehubverify",                    // CookieHub cookie scanner
	"cookiereports",                      // CookieReports cookie scanner
	"|craw/",                             // Craw crawler
	"critical path css",                  // Penthouse critical-CSS generator
	"criticalcss",                        // Criticalcss.com
	"^curb|",                             // Curb, Ruby libcurl binding
	"cybaaagent",                         // Cybaa agent
	"ddline.cn",                          // ddline rank tracker
	"debugbear",                          // DebugBear performance monitor
	"^determ|",                           // Determ media monitoring
	"^disqus/",                           // Disqus link fetcher
	"dragonfly file reader",              // Dragonfly, Ruby image fetcher
	"dubaiindex",                         // Dubaiindex crawler
	"dutchcoders",                        // ANAM scanner (github.com/dutchcoders/anam)
	"easybill-importmanager",             // easybill import manager
	"|ecatch/",                           // eCatch site grabber
	"econtext",                           // eContext classification engine
	"embarcadero uri client",             // Embarcadero (Delphi) HTTP client
	"episode duration lookup",            // Castro's episode duration lookup
	"exactsearch",                        // ExactSearch crawler
	"exorank",                            // ExoRank rank checker
	"facebookexternalua",                 // Facebook link fetcher
	"fastmailua",                         // Fastmail link and image fetcher
	"faviconarchive",                     // Favicon archive crawler
	"fediact",                            // FediAct fediverse fetcher
	"^filestack",                         // Filestack upload-from-URL fetcher
	"geziyor",                            // Geziyor, Go scraping framework
	"githubcopilot",                      // GitHub Copilot agent
	"globalwebsearch",                    // GlobalWebSearch spam crawler
	"goldfire server",                    // Goldfire research server
	"google pp default",                  // Google page renderer
	"^hakai/",                            // Hakai botnet scanner
	"hledejlevne",                        // hledejLevne.cz price crawler
	"|hotjar|",                           // Hotjar page renderer
	"hwcdn",                              // Highwinds CDN fetcher
	"iab-tech-lab",                       // IAB Tech Lab ads.txt crawler
	"idbte4m",                            // IDBTE4M exploit scanner
	"ideelaborplagiaat",                  // Ideelabor plagiarism checker
	"^imageengine/",                      // ImageEngine CDN origin fetcher
	"imageresizer",                       // image-resizing proxies (RadioPublicImageResizer)
	"imagevisu",                          // ImageVisu image fetcher
	"imagga",                             // Imagga image downloader
	"imgsizer",                           // imgsizer image fetcher
	"infrawatch",                         // infrawatch monitor
	"inspici",                            // Inspici crawler
	"integromat",                         // Integromat (Make) automation
	"internetsearch",                     // TheInternetSearch spam crawlers
	"internetxsearch",                    // TheSafeInternetxSearch spam crawler
	"invision community",                 // Invision Community link embeds
	"izsearch",                           // iZSearch crawler
	"^jumio|",                            // Jumio identity verification fetcher
	"karnoprospectingstudio",             // Karno prospecting crawler
	"kickfire",                           // KickFire crawler
	"kimengi",                            // Kimengi crawler
	"^klaviyo/",                          // Klaviyo e-mail marketing fetcher
	"|krowler",                           // KrOWLer research crawler
	"kumkie",                             // KumKie search crawler
	"laravel reaver",                     // Laravel Reaver .env scanner
	"leadradar",                          // ArtelLeadRadar lead-generation crawler
	"letrixlabs",                         // LetrixLabs crawler
	"link valet",                         // Link Valet link checker
	"linkalarm",                          // LinkAlarm link checker
	"linktiger",                          // LinkTiger link checker
	"mailchimp.com",                      // Mailchimp link checker
	"mailpit",                            // Mailpit link checker
	"managewp",                           // ManageWP WordPress management
	"^mattermost-",                       // Mattermost server link previews
	"mediavinemetadata",                  // Mediavine metadata parser
	"meltwaternews",                      // Meltwater news monitoring
	"microsoft-flow/",                    // Power Automate HTTP actions
	"morningscore",                       // Morningscore SEO crawler
	"movabletype",                        // Movable Type trackback fetcher
	"^najdu",                             // Najdu search crawler
	"netlab360",                          // Qihoo 360 Netlab scanner
	"netlyzer",                           // NetLyzer probe
	"netsystemsresearch",                 // NetSystemsResearch scanner
	"netvigie",                           // NETVIGIE monitoring
	"neutrinoapi",                        // Neutrino API fetcher
	"nexgate",                            // Nexgate Ruby client
	"next.js middleware",                 // Next.js server-side fetches
	"^nextcloud-news/",                   // Nextcloud News feed fetcher
	"nitro-optimizer",                    // Nitro page optimiser
	"nodemeter",                          // Nodemeter monitor
	"norton-safeweb",                     // Norton Safe Web site rating
	"novaact",                            // Amazon Nova Act browser agent
	"^nuzzel|",                           // Nuzzel news aggregator
	"|oegp v",                            // Open Graph parser
	"ogscrper",                           // Open Graph scraper
	"openacoon",                          // OpenAcoon search crawler
	"^openai/",                           // OpenAI SDKs
	"openstat",                           // Openstat
	"orion-semantics",                    // Orion Semantics crawler
	"ows.eu/owler",                       // Owler (OpenWebSearch.eu) crawler
	"oxfordcloudservice",                 // Oxford cloud service fetcher
	"page valet",                         // Page Valet page checker
	"pagepeeker",                         // PagePeeker screenshots
	"pagething",                          // PageThing thumbnails
	"pearltrees",                         // Pearltrees link fetcher
	"peerindex",                          // PeerIndex crawler
	"perimeterx",                         // PerimeterX integration services
	"pixalate",                           // Pixalate ad-fraud crawler
	"|postano|",                          // Postano social aggregator
	"pr-cy.ru",                           // PR-CY SEO analyser
	"printfriendly",                      // PrintFriendly page fetcher
	"prittorrent",                        // PritTorrent feed fetcher
	"project25499",                       // Project 25499 research scanner
	"qseero",                             // Qseero search crawler
	"^railgun/",                          // Cloudflare Railgun
	"reelevant",                          // Reelevant marketing fetcher
	"robosourcer",                        // Robosourcer crawler
	"robozilla",                          // Robozilla link checker
	"safeassign",                         // Blackboard SafeAssign plagiarism checker
	"^salesforce.com",                    // Salesforce fetcher
	"scamadviser-frontend",               // Scamadviser site checker
	"scamadviserexternalhit",             // Scamadviser link fetcher
	"|scope3/",                           // Scope3 ad-emissions crawler
	"screen shotter",                     // Awin site screenshots
	"searcherxweb",                       // Searcherxweb spam crawler
	"sectxt",                             // security.txt crawler
	"securityheaders",                    // securityheaders.com scanner
	"semanticsclassifier",                // Xaxis page classifier
	"seolik",                             // SeoLik SEO analyser
	"sitelock",                           // SiteLock security scanner
	"sitetruth",                          // SiteTruth site rating
	"^snoopy v",                          // Snoopy, PHP HTTP client
	"sortsite",                           // SortSite site audit
	"sparkpost",                          // SparkPost link checker
	"^speedkit|",                         // Baqend Speed Kit origin fetcher
	"sqwatcher",                          // SQ compliance watcher
	"sqworm",                             // Sqworm crawler
	"ssl-tools",                          // ssl-tools.net scanner
	"statastico",                         // Statastico crawler
	"stumbleupon.com",                    // StumbleUpon page fetcher
	"testlocally",                        // TestLocally page tester
	"the knowledge ai",                   // The Knowledge AI crawler
	"thinklab.com",                       // Thinklab crawler
	"^trustly/",                          // Trustly payment callbacks
	"twibble",                            // twibble.io feed fetcher
	"udmsearch",                          // UdmSearch (mnoGoSearch) crawler
	"untiny",                             // Untiny URL unshortener
	"vaultpress",                         // VaultPress WordPress backups
	"verceltracing",                      // Vercel tracing
	"|w3c-",                              // W3C checkers (W3C-checklink, W3C-mobileOK)
	"|w3c_",                              // W3C checkers (W3C_Validator, W3C_Unicorn)
	"watchtowr",                          // watchTowr security scanner
	"web spyder",                         // Web spyder crawler
	"web-capture",                        // web-capture.net screenshots
	"webparser",                          // Rainmeter WebParser scraper
	"webpurify",                          // WebPurify moderation callbacks
	"webthumb",                           // Webthumb screenshots
	"welikelinks",                        // WeLikeLinks crawler
	"wesee:",                             // WeSEE crawlers
	"whatcms",                            // WhatCMS detector
	"wheregoes",                          // WhereGoes redirect tracer
	"wordupinfosearch",                   // Wordup spam crawler
	"wp rocket",                          // WP Rocket cache preloader
	"wprecon",                            // wprecon.com WordPress survey
	"wpumbrella",                         // WP Umbrella WordPress monitor
	"^wtrace",                            // Wtrace
	"xpymep",                             // XRumer forum spam bot
	"|xtate/",                            // xtate network scanner
	"yoleo",                              // Yoleo crawler
	"znajdzfoto",                         // ZnajdzFoto image crawler
	"zoom marketplace",                   // Zoom Marketplace link fetcher
}

// shapedSigns are generic signs of automation whose word needs a look at
// its neighbours.
var shapedSigns = []struct {
	match string
	shape func(ua string, start, end int) int
}{
	// "Agent" as a word of its own or the end of a camel-case name
	// ("ThousandEyes Agent", "GomezAgent", "ips-agent"), but not the
	// "User-Agent" of a pasted header or "Magenta".
	{"agent", agentWord},
	// "SEO" as a word or a camel-case hump ("seo-checker", "DataForSeoBot",
	// "vBSEO"), not inside a lower-case name ("Enseo", a hotel TV's maker).
	{"seo", seoWord},
	// An e-mail address ("crawler@example.com"). People's software gives
	// a home page at most, an add-on's or a podcast's; an address to
	// write to about the requests is a crawler's.
	{"@", emailAddress},
	// The same address written to dodge harvesters: "name(at)example.com",
	// "name [at] example.com", "name at example.com". Without a domain
	// after it, "(at)" is only a weak sign (see weakSigns).
	{"(at)", emailAddress}, {"[at]", emailAddress}, {" at ", emailAddress},
	// A name and a comma before another client's whole header
	// ("Thumbor/6.7.5, Mozilla/5.0 (Linux; ...) ..."): a proxy or tool
	// that sends on a header it copied, naming itself first. People's
	// software writes one header; a repeated one starts with "Mozilla".
	{", mozilla/", prefixedHeader},
	// The same engine comment with a name after a comma ("(KHTML, like
	// Gecko, Google Keyword Suggestion)"). Old WebKit browsers put
	// Safari's version there, and a games console its video formats,
	// in capitals ("(KHTML, like Gecko, HEVC, HDR, UHD)").
	{"(khtml, like gecko, ", nameInEngineComment},
	// A version that is a time in milliseconds since 1970
	// ("Time/1710630666672"): a header made afresh for each request by a
	// script. Software people install carries its release's number.
	{"/1", epochMillis},
}

// weakSigns are signs of automation that some human software shows too: a
// podcast app that gives its home page, a media player that says
// "compatible". They count only when the header names no human software
// (see humanProducts). shape, if set, checks the header around the match as
// for shapedCrawlers.
var weakSigns = []struct {
	match    string
	shape    func(ua string, start, end int) int
	inDevice bool // ignore it inside an Android device comment
}{
	// "Mozilla/5.0 (compatible; Name/1.0; +http://...)" is the convention
	// crawlers follow; browsers that wrote "compatible" put their own
	// engine or platform first ("compatible; MSIE 9.0; Windows NT 6.1").
	// Inside an Android device comment it describes the device
	// ("(...; Android 4.4.4 Compatible; lephone T2 Build/KTU84P)").
	{"compatible", compatibleNotBrowser, true},
	// A contact address: "(+http://example.com/bot.html)". Browsers do
	// not say how to reach them.
	{"://", nil, false},
	// An address written to dodge harvesters: "name(at)example.com".
	{"(at)", nil, false},
	{"[at]", nil, false},
	{"+", plusDomain, false}, // "(+example.com)"
	// "http" inside a product name, not a URL: "Pcore-HTTP/v0.23",
	// "HTTPing v2.5", "http_get".
	{"http", httpInName, false},
	// Obfuscated contact addresses: "scout at example dot com".
	{" dot com", nil, false}, {" dot net", nil, false}, {" dot org", nil, false},
}

// compatibleBrowsers are the products and platforms that follow
// "compatible;" in browsers' headers, the feature phones' browsers and
// platforms ("compatible; Teleca Q7; Brew 3.1.5") among them.
var compatibleBrowsers = []string{
	"msie", "konqueror", "opera", "ibrowse", "icab", "lotus-notes", "ms-office", "ms frontpage",
	"netbox", "antfresco", "antgalio", "ncbrowser", "sitekiosk", "powermarks", "googletoolbar",
	"adobe", "hp web", "windows", "linux", "intel mac", "mac", "trident", "gecko",
	"tablet", "smartphone", "acorn", "u",
	"polaris", "teleca", "netfront", "obigo", "openwave", "brew", "symbian", "iphone", "ipad",
	"android",
}

// humanProducts are software people use whose headers show signs of
// automation. A generic sign that overlaps one of them does not count (a
// "Cubot" phone is not a bot), and weak signs and header shapes anywhere in
// the header do not count.
var humanProducts = []string{
	"cubot",                                      // phone maker
	"technology preview", "technology%20preview", // Safari Technology Preview
	"camscanner", // document scanner app
	// Browsers and browser components that put their home page in the header.
	"bsalsa.com", "avantbrowser", "k-meleon/", "qtweb", "^w3m/",
	// Internet Explorer's header carries a token for every .NET
	// runtime installed on the person's Windows, and add-ons put their
	// own tokens, home pages included, beside them.
	".net clr",
	// Media players and podcast apps, which name a home page or say
	// "compatible".
	"podcast", "overcast", "xbmc", "kodi/", "|miro/", "foobar2000", "nero home", "rhythmbox/",
}

// headerShapes are signs of automation in the shape of the whole header,
// tried when no pattern decided.
var headerShapes = []func(ua string) bool{
	lowercaseProductOnly,
	browserNameOnly,
}

// browserNames are the names a header made by hand puts in place of a
// browser's whole header.
var browserNames = []string{"mozilla", "chrome", "chromium", "firefox", "safari", "opera", "edge", "msie", "internet explorer"}

// browserNameOnly accepts a header that is nothing but a browser's name,
// "Chrome" or "firefox": a script's stand-in for a header. Every browser
// sends its version and platform.
func browserNameOnly(ua string) bool {
	for len(ua) > 0 && (ua[0] == ' ' || ua[0] == '\t') {
		ua = ua[1:]
	}
	for len(ua) > 0 && (ua[len(ua)-1] == ' ' || ua[len(ua)-1] == '\t') {
		ua = ua[:len(ua)-1]
	}
	for _, name := range browserNames {
		if len(ua) == len(name) && hasPrefixFold(ua, name) {
			return true
		}
	}
	return false
}

// nameInEngineComment accepts the rest of a WebKit engine comment after
// "(KHTML, like Gecko, " when it is not Safari's version and has a
// lower-case letter, which a name has and a list of video formats does not.
func nameInEngineComment(ua string, _, end int) int {
	if hasPrefixFold(ua[end:], "safari") {
		return -1
	}
	for i, lim := end, limit(ua, end); i < lim && ua[i] != ')'; i++ {
		if isLower(ua[i]) {
			return i + 1
		}
	}
	return -1
}

// epochMillis accepts "/1" that starts a version of exactly thirteen
// digits, a time in milliseconds from 2001 to 2033.
func epochMillis(ua string, start, end int) int {
	i := start + 1
	j := i
	for j < len(ua) && j-i <= 13 && isDigit(ua[j]) {
		j++
	}
	if j-i != 13 || j < len(ua) && ua[j] == '.' {
		return -1
	}
	return j
}

// maxLabel bounds how far a shape function looks past its match: a DNS
// label has at most 63 bytes, and no version number or run of spaces in a
// real header is longer. The bound keeps every shape O(1), so that Classify
// stays linear in the header length whatever the header repeats.
const maxLabel = 63

// limit returns the end of the window of at most maxLabel bytes from i.
func limit(ua string, i int) int {
	return min(len(ua), i+maxLabel)
}

// yes converts a boolean shape into the extent of the match.
func yes(ok bool, end int) int {
	if ok {
		return end
	}
	return -1
}

// versionThenLetter accepts the rest of a header that is a version number,
// optionally followed by one platform letter ("2.23.20.0 A", "2.12.16/i"),
// and then nothing more that is a word.
func versionThenLetter(ua string, _, end int) int {
	i, lim := end, limit(ua, end)
	for i < lim && (ua[i] == '.' || isDigit(ua[i])) {
		i++
	}
	if i == end || i < len(ua) && i == lim {
		return -1
	}
	if i < len(ua) && (ua[i] == ' ' || ua[i] == '/' || ua[i] == '+') && i+1 < len(ua) && isAlnum(ua[i+1]) {
		i += 2
	}
	return yes(i == len(ua) || !isAlnum(ua[i]), end)
}

// compatibleNotBrowser accepts a "compatible" that is followed by a product
// name that is not a browser's.
func compatibleNotBrowser(ua string, _, end int) int {
	i := end
	if i < len(ua) && (ua[i] == ';' || ua[i] == ',') {
		i++
	}
	for lim := limit(ua, i); i < lim && ua[i] == ' '; {
		i++
	}
	if i == len(ua) || !isLetter(ua[i]) {
		return -1
	}
	if compatibleBrowserAt(ua, i) {
		return -1
	}
	// A name without a version before the browser's own platform
	// ("compatible; StaffsStudentImage; Windows NT 6.3; ...") is a
	// customised browser; a crawler gives its version or address
	// ("compatible; ExampleBot/1.0; +https://...").
	j, lim := i, limit(ua, i)
	for j < lim && (isAlnum(ua[j]) || ua[j] == '-' || ua[j] == '_' || ua[j] == '.') {
		j++
	}
	if j < len(ua) && ua[j] == ';' {
		for j++; j < lim && ua[j] == ' '; j++ {
		}
		if compatibleBrowserAt(ua, j) {
			return -1
		}
	}
	// A browser of a platform long gone names itself, with its version,
	// before the platform ("compatible; NetPositive/2.2.1; BeOS",
	// "compatible; AWEB 3.4 SE; AmigaOS"), or says it is one
	// ("compatible; Origyn Web Browser; U; AmigaOS 4.0"). A crawler that
	// pretends to be a browser pretends to be a current one.
	for j = i; j < lim && ua[j] != ';' && ua[j] != ')' && ua[j] != '('; j++ {
	}
	if k := j - len(" browser"); k >= i && hasPrefixFold(ua[k:], " browser") {
		return -1
	}
	if j < lim && ua[j] == ';' {
		for j++; j < lim && ua[j] == ' '; j++ {
		}
		if wordAt(ua, j, bygonePlatforms) {
			return -1
		}
	}
	return end
}

// bygonePlatforms are the platforms of people's software that no current
// browser runs on, or few, which the browsers after "compatible;" name
// after themselves or in place of themselves ("compatible; NetPositive/2.2.1;
// BeOS", "compatible; Haiku R1 x86"; see compatibleNotBrowser).
var bygonePlatforms = []string{
	"beos", "amigaos", "morphos", "windows ce", "syllable", "mac_powerpc", "mac_ppc", "palmos",
	"symbianos", "symbian os", "risc os", "os/2", "haiku", "aros", "zeta", "qnx",
}

// wordAt reports whether one of words starts at ua[i:] as a word.
func wordAt(ua string, i int, words []string) bool {
	if i >= len(ua) {
		return false
	}
	for _, w := range words {
		if lowerOf[ua[i]] == w[0] && hasPrefixFold(ua[i:], w) && (len(ua) == i+len(w) || !isLetter(ua[i+len(w)])) {
			return true
		}
	}
	return false
}

// compatibleBrowserAt reports whether one of compatibleBrowsers or
// bygonePlatforms starts at ua[i:] as a word.
func compatibleBrowserAt(ua string, i int) bool {
	return wordAt(ua, i, compatibleBrowsers) || wordAt(ua, i, bygonePlatforms)
}

// httpInName accepts an "http" that is part of a product name ("akka-http",
// "HttpComponents", "khttp") rather than a URL scheme, a phone's protocol
// list ("(HTTP PGDL;HTTPS)"), or a component an app mentions ("okhttp",
// "libhttp").
func httpInName(ua string, start, end int) int {
	if hasPrefixFold(ua[end:], "://") || hasPrefixFold(ua[end:], "s://") {
		return -1
	}
	if start >= 2 && hasPrefixFold(ua[start-2:], "ok") || start >= 3 && hasPrefixFold(ua[start-3:], "lib") {
		return -1
	}
	after := end
	if after < len(ua) && lowerOf[ua[after]] == 's' {
		after++
	}
	glued := func(b byte) bool { return isAlnum(b) || b == '-' || b == '_' || b == '.' }
	if start > 0 && glued(ua[start-1]) || after < len(ua) && (glued(ua[after]) || ua[after] == '/') {
		return end
	}
	return -1
}

// emailAddress accepts an '@' between a name and a domain with a dot:
// "bot@example.com", but not "android@101.0" or "@calendar=gregorian". The
// bracketed stand-ins for '@' may have a space on either side
// ("bot [at] example.com").
func emailAddress(ua string, start, end int) int {
	bracket := ua[start] == '(' || ua[start] == '['
	if bracket && start > 0 && ua[start-1] == ' ' {
		start--
	}
	if start == 0 || !isAlnum(ua[start-1]) {
		return -1
	}
	if bracket && end < len(ua) && ua[end] == ' ' {
		end++
	}
	i, lim := end, limit(ua, end)
	for i < lim && (isAlnum(ua[i]) || ua[i] == '-') {
		i++
	}
	if i == end || i+2 >= len(ua) || ua[i] != '.' {
		return -1
	}
	return yes(isLetter(ua[i+1]) && isLetter(ua[i+2]), end)
}

// prefixedHeader accepts ", Mozilla/" after a single token that starts the
// header and is not itself "Mozilla/...": "Anonymous, Mozilla/5.0 (...)".
func prefixedHeader(ua string, start, end int) int {
	if start == 0 || start > maxLabel || hasPrefixFold(ua, "mozilla") {
		return -1
	}
	for i := range start {
		switch ua[i] {
		case ' ', '(', ')', ',', ';':
			return -1
		}
	}
	return end
}

// plusDomain accepts a '+' followed by a domain name, the contact
// convention of "(+https://example.com/bot)" without the scheme.
func plusDomain(ua string, _, end int) int {
	i, lim := end, limit(ua, end)
	for i < lim && (isAlnum(ua[i]) || ua[i] == '-') {
		i++
	}
	if i == end || i+2 >= len(ua) || ua[i] != '.' {
		return -1
	}
	return yes(isLetter(ua[i+1]) && isLetter(ua[i+2]), end)
}

// lowercaseProductOnly accepts a header that is nothing but a lowercase
// product and its version, "colly/2.1.0" or "hackney/1.11.0": libraries and
// tools name themselves that way, while browsers and apps add a platform
// and capitalise their names.
func lowercaseProductOnly(ua string) bool {
	i := 0
	for i < len(ua) && (isLower(ua[i]) || i > 0 && (isDigit(ua[i]) || ua[i] == '-' || ua[i] == '_' || ua[i] == '.')) {
		i++
	}
	if i == 0 || i == len(ua) || ua[i] != '/' {
		return false
	}
	i++
	if i < len(ua) && ua[i] == 'v' {
		i++
	}
	if i == len(ua) || !isDigit(ua[i]) {
		return false
	}
	for ; i < len(ua); i++ {
		if !isAlnum(ua[i]) && ua[i] != '.' && ua[i] != '-' && ua[i] != '_' && ua[i] != '+' {
			return false
		}
	}
	return true
}

// platformWords are the grammar of people's software: the platforms,
// devices and engines that browsers, in-app browsers, apps, mail clients and
// media players name in their headers ("Mozilla/5.0 (Windows NT 10.0; ...)
// AppleWebKit/...", "App/1.2 CFNetwork/1410 Darwin/22.6.0", "Dalvik/2.1.0
// (Linux; U; Android 11; ...)", "Nokia6280/2.0 Profile/MIDP-2.0
// Configuration/CLDC-1.1"). A header with no sign of automation that names
// none of them does not read as a person's software (see Classify).
//
// The list names platforms and engines, not applications: a new browser or
// app is recognised by the platform it runs on.
var platformWords = []string{
	// Desktop operating systems
	"|windows", "|win32", "|win64", "|wow64", "|win98", "|win95", "|win 9x", "|winnt",
	"|macintosh", "|mac os", "|mac_p", "|macos", "|os x|", "|x11", "|linux", "|ubuntu",
	"|cros ", "|freebsd", "|openbsd", "|netbsd", "|sunos", "|amigaos", "|morphos",
	"|beos", "|haiku", "|os/2", "|risc os", "|riscos", "|qnx",
	// Mobile, tablet, TV and console platforms
	"android", "|iphone", "|ipad", "|ipod", "|ios|", "|ios ", "|cpu os", "|blackberry",
	"|bb10", "|playbook", "|symbian", "|series60", "|series40", "|s60|", "|j2me",
	"|midp", "|cldc", "|tizen", "|kaios", "|webos", "|web0s", "|playstation",
	"|nintendo", "|xbox", "|smart-tv", "|smarttv", "|smart tv", "|hbbtv", "|crkey",
	"|bada", "|meego", "|maemo", "|sailfish", "|kindle", "|fire os", "|fireos", "|tvos", "|watchos",
	"|appletv", "|apple tv", "|googletv", "|netcast", "|mobile|", "|tablet",
	"|windows phone", "|iemobile", "|maui", "|win7", "|win8", "|win10", "|win11",
	"|watch os", "|roku", "|vizio", "|docomo", "|kddi", "|softbank", "|vodafone/",
	"|nokia", "|samsung", "|sonyericsson", "|ps vita", "|ps4", "|ps5", "|palmos", "|webtv",
	"|dlna", "|upnp", "|airplay", "|nettv", "|ce-html", "|cellphone",
	// Engines and the runtimes of apps on people's devices
	"applewebkit", "|gecko", "|khtml", "|presto/", "|trident/", "|msie", "|goanna/",
	"|cfnetwork/", "|darwin/", "|dalvik/", "|cronet", "|exoplayer", "|applecoremedia",
	"|stagefright", "|netfront", "|obigo", "|up.browser", "|openwave", "|teleca",
	"|polaris", "|dolfin", "|jasmine/",
	// Feature phones' browsers and the operator gateways they went
	// through: Openwave's ("UP/4.1.16r", "UP.Link/6.3"), Motorola's
	// ("MIB/2.0", "MIB1.2/v1.0"). Openwave's short token is matched with
	// its version, since "Warm-Up/2.0" ends a word in "up/" too.
	"|up/4.", "|up.link", "|mib/", "|mib1",
}

// platformShapes are words of the grammar of people's software that need a
// look at their neighbours.
var platformShapes = []struct {
	match string
	shape func(ua string, start, end int) int
}{
	// The Mozilla grammar: "Mozilla/<version>" followed by a comment or a
	// language tag, or nothing ("Mozilla/4.0 (compatible; MSIE 6.0;
	// ...)", "Mozilla/4.7 [en] (X11; U; Linux)"). "Mozilla/5.0
	// SomeTool/1.0" borrows the word without the grammar and is judged by
	// the rest of the header.
	{"|mozilla/", mozillaGrammar},
	// A feature phone's WAP browser ("R380 2.0 WAP1.1", "WAPBrowser"),
	// not a name that starts with the letters ("Wappalyzer").
	{"|wap", notLowerAfter},
	// A browser's family word ends its name, perhaps before the version
	// ("SamsungBrowser/", "UC Browser7.7.1"), and starts none
	// ("Browsershots", "BrowserKit").
	{"browser", notLetterAfter},
	// Apple's hardware model identifiers ("iPhone14,2", "iPad8,1",
	// "Watch4,3", "MacBookPro10,1"), which apps on Apple devices write.
	{",", appleModel},
	// A build number of four or more parts ("9.2.2157.0", "2.22.10.73"):
	// the file version of an installed application, which desktop and
	// phone apps report. Crawlers and tools seldom do; the .NET ones that
	// do ("RestSharp/105.2.3.0") are in the tables, and no sign of
	// automation is excused by it, since this pass comes after them.
	{".", buildNumber},
}

// buildNumber accepts the first dot of a version number of at least four
// parts, each of digits, written after a product's slash or a space
// ("Name/9.2.2157.0", "Name 4.1.1.1703"). Written after anything else, four
// numbers are more likely an address ("XFF:35.228.69.34").
func buildNumber(ua string, start, end int) int {
	i := start
	for i > 0 && start-i < maxLabel && isDigit(ua[i-1]) {
		i--
	}
	if i == start || i == 0 || ua[i-1] != '/' && ua[i-1] != ' ' {
		return -1
	}
	// The second to fourth parts: "2.2157.0" of "9.2.2157.0".
	j, lim := end, limit(ua, end)
	for part := 2; part <= 4; part++ {
		k := j
		for j < lim && isDigit(ua[j]) {
			j++
		}
		if j == k {
			return -1
		}
		if part < 4 {
			if j == lim || ua[j] != '.' {
				return -1
			}
			j++
		}
	}
	return end
}

// appleModel accepts the comma of a hardware model identifier: a word of at
// least three letters, one or two digits, the comma, one or two digits.
func appleModel(ua string, start, end int) int {
	i := start
	for i > 0 && start-i < 2 && isDigit(ua[i-1]) {
		i--
	}
	if i == start {
		return -1
	}
	letters := 0
	for i > 0 && letters < maxLabel && isLetter(ua[i-1]) {
		i--
		letters++
	}
	if letters < 3 || i > 0 && isAlnum(ua[i-1]) {
		return -1
	}
	j := end
	for j < len(ua) && j-end < 2 && isDigit(ua[j]) {
		j++
	}
	return yes(j > end && (j == len(ua) || !isDigit(ua[j]) && ua[j] != ','), end)
}

// mozillaGrammar accepts "Mozilla/" followed by a version and then a
// comment, a language tag or the end of the header.
func mozillaGrammar(ua string, _, end int) int {
	i, lim := end, limit(ua, end)
	for i < lim && (isDigit(ua[i]) || ua[i] == '.') {
		i++
	}
	if i == end {
		return -1
	}
	if i < len(ua) && ua[i] == ' ' {
		i++
	}
	return yes(i == len(ua) || ua[i] == '(' || ua[i] == '[', end)
}

// peopleSoftware are the browsers, mail clients, media players and office
// software whose headers name no platform ("Opera/9.80", "Lynx/2.8.9",
// "VLC/3.0.21 LibVLC/3.0.21"), by product family.
var peopleSoftware = []string{
	"|opera", "|opr/", "|konqueror", "|chrome/", "|chromium/", "|safari/", "|firefox/",
	"|lynx/", "|links ", "|elinks", "|w3m/", "|dillo/", "|netsurf/", "|mosaic",
	"|ucweb", "explorer|", "(browserinfo ", "|ave-front/", "viewer|", "toolbar",
	"|microsoft office", "|outlook", "|thunderbird", "|ms-office",
	"|vlc/", "|libvlc", "|itunes", "|nsplayer", "|windows-media-player", "|quicktime",
	"|gstreamer", "|mplayer", "|winamp", "|spotify", "|chrome|", "|firefox",
	// Mail clients and media players that send only their name and
	// version, and speakers that stream what a person plays.
	"|evolution/", "|geary/", "|postbox/", "^mpv ", "|libmpv", "|mpc-hc/", "^sonos/",
	// Office suites, which fetch what a person links into a document.
	"|libreoffice", "|openoffice",
	// In-app browsers that send only their own bracket ("[FBAN/FB4A;FBAV/...]").
	"|fban/",
	// The families of apps people use: mail, streaming and TV apps (see
	// also appFamilies).
	"mail", "stream|", "|tv|", "tpapi",
}

// appFamilies are the families of podcast, radio, music and media apps.
// They read as people's software like peopleSoftware, and they also excuse
// a weak sign, since these apps give their home page in the header
// ("Bullhorn/1.0 (+http://bullhorn.fm/)"). They do not excuse a generic
// sign ("Podscanner", "Castopod").
var appFamilies = []string{
	"|pod", "pod|", "cast|", "casts|", "radio", "music", "player", "episode", ".fm|", "|fm/",
}

// seoWord accepts "seo" that starts a word or a camel-case hump
// ("seo-checker", "DataForSeoBot", "vBSEO"), and ends one.
func seoWord(ua string, start, end int) int {
	if start > 0 && isLetter(ua[start-1]) && ua[start] != 'S' {
		return -1
	}
	return notLowerAfter(ua, start, end)
}

// notLowerAfter accepts a match not followed by a lower-case letter.
func notLowerAfter(ua string, _, end int) int {
	return yes(end == len(ua) || !isLower(ua[end]), end)
}

// notLetterAfter accepts a match not followed by a letter.
func notLetterAfter(ua string, _, end int) int {
	return yes(end == len(ua) || !isLetter(ua[end]), end)
}

// agentWord accepts "agent" that starts a word, or that starts the last
// part of a camel-case name ("GomezAgent"), and is not the "agent" of
// "User-Agent" or "masking-agent".
func agentWord(ua string, start, end int) int {
	if start > 0 {
		prev := ua[start-1]
		switch {
		case !isAlnum(prev):
			for _, w := range []string{"user", "masking"} {
				if start > len(w) && hasPrefixFold(ua[start-1-len(w):], w) {
					return -1
				}
			}
		case ua[start] == 'A' && isLower(prev):
		default:
			return -1
		}
	}
	return yes(end == len(ua) || !isLetter(ua[end]), end)
}
