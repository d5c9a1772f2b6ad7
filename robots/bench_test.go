package robots

import (
	"fmt"
	"strings"
	"testing"
)

// Helpers in this file are prefixed "bn" so that they cannot collide with
// helpers of other test files of the package.

// bnTypical is a robots.txt in the style of a large news site's.
const bnTypical = `# robots.txt for https://www.example-news.com/
# Questions about crawling: webmaster@example-news.com
#
# Automated access to our content for training AI models is not permitted
# without a licence. See https://www.example-news.com/terms

User-agent: Googlebot
User-agent: Googlebot-News
Allow: /
Disallow: /search
Disallow: /*?*query=
Disallow: /*?*q=
Disallow: /account/
Disallow: /subscription/checkout/
Disallow: /preview/
Disallow: /*/print$
Disallow: /*.json$
Allow: /search/about
Allow: /section/*/index.html
Crawl-delay: 1

User-agent: Googlebot-Image
Allow: /images/
Allow: /photos/*.jpg$
Disallow: /images/private/
Disallow: /*/thumbnails/tmp/

User-agent: Bingbot
User-agent: Slurp
User-agent: DuckDuckBot
Disallow: /search
Disallow: /account/
Disallow: /preview/
Disallow: /*?*utm_
Disallow: /*/amp/preview
Crawl-delay: 5

User-agent: GPTBot
User-agent: ChatGPT-User
User-agent: OAI-SearchBot
Disallow: /

User-agent: CCBot
Disallow: /

User-agent: anthropic-ai
User-agent: ClaudeBot
User-agent: Claude-Web
Disallow: /

User-agent: Google-Extended
User-agent: Applebot-Extended
Disallow: /

User-agent: PerplexityBot
User-agent: Bytespider
User-agent: Amazonbot
Disallow: /
Allow: /about/

User-agent: AhrefsBot
User-agent: SemrushBot
User-agent: MJ12bot
Crawl-delay: 30
Disallow: /search
Disallow: /tag/
Disallow: /author/

User-agent: Mediapartners-Google
User-agent: AdsBot-Google
Allow: /

User-agent: *
Disallow: /search
Disallow: /search/
Allow: /search/about
Disallow: /account/
Disallow: /login
Disallow: /logout
Disallow: /register
Disallow: /subscription/
Disallow: /preview/
Disallow: /drafts/
Disallow: /api/
Allow: /api/public/
Disallow: /cgi-bin/
Disallow: /wp-admin/
Allow: /wp-admin/admin-ajax.php
Disallow: /*?*sessionid=
Disallow: /*?*sid=
Disallow: /*?*utm_source=
Disallow: /*?*fbclid=
Disallow: /*?*gclid=
Disallow: /*&print=1
Disallow: /*/print$
Disallow: /*.json$
Disallow: /*.xml$
Allow: /sitemaps/*.xml$
Disallow: /*/comments/
Disallow: /*/amp/preview
Disallow: /tag/*/page/
Disallow: /author/*/page/
Disallow: /archive/*/*/*/print
Disallow: /interactive/*/data/
Disallow: /video/embed/
Allow: /video/embed/player.js
Disallow: /newsletters/manage
Disallow: /newsletters/unsubscribe
Disallow: /%E6%97%A5%E6%9C%AC/private/
Disallow: /fr/recherche
Disallow: /de/suche
Disallow: /es/buscar
Allow: /es/buscar/ayuda
Disallow: /live/*/updates?page=
Disallow: /section/*/index.html?refresh=
Allow: /section/*/index.html

Sitemap: https://www.example-news.com/sitemaps/sitemap-index.xml
Sitemap: https://www.example-news.com/sitemaps/news.xml
Sitemap: https://www.example-news.com/sitemaps/video.xml
Sitemap: https://www.example-news.com/sitemaps/images.xml
Sitemap: https://www.example-news.com/sitemaps/archive-2024.xml
Sitemap: https://www.example-news.com/sitemaps/archive-2023.xml
`

// bnGenerated returns a file of exactly size bytes holding many groups and
// rules (literal and wildcard), padded with a comment.
func bnGenerated(size int) []byte {
	var b strings.Builder
	for g := 0; ; g++ {
		var grp strings.Builder
		fmt.Fprintf(&grp, "\n# group %d\nUser-agent: crawler%c%c-bot\nUser-agent: Spider-%c%c\n",
			g, 'a'+g%26, 'a'+g/26%26, 'a'+g/7%26, 'a'+g%7)
		for r := 0; r < 40; r++ {
			d := "Disallow"
			if r%3 == 0 {
				d = "Allow"
			}
			switch r % 5 {
			case 0:
				fmt.Fprintf(&grp, "%s: /*/section%d/*.php$\n", d, r)
			case 1:
				fmt.Fprintf(&grp, "%s: /*?sessionid%d=\n", d, g)
			default:
				fmt.Fprintf(&grp, "%s: /section%d/page%d/  # rule %d\n", d, g, r, r)
			}
		}
		if b.Len()+grp.Len() > size-64 {
			break
		}
		b.WriteString(grp.String())
	}
	b.WriteString("Sitemap: https://example.com/sitemap.xml\n#")
	for b.Len() < size-1 {
		b.WriteByte('x')
	}
	b.WriteByte('\n')
	return []byte(b.String())
}

var (
	bnSinkFile    *File
	bnSinkVerdict Verdict
	bnSinkGroup   *Group
)

func BenchmarkParse(b *testing.B) {
	b.Run("typical", func(b *testing.B) {
		body := []byte(bnTypical)
		b.SetBytes(int64(len(body)))
		b.ReportAllocs()
		for b.Loop() {
			bnSinkFile = Parse(body)
		}
	})
	b.Run("500KiB", func(b *testing.B) {
		body := bnGenerated(512000)
		if len(body) != 512000 {
			b.Fatalf("generated %d bytes", len(body))
		}
		if f := Parse(body); f.HasErrors() {
			b.Fatalf("generated file has errors: %v", f.Diagnostics()[0])
		}
		b.SetBytes(int64(len(body)))
		b.ReportAllocs()
		for b.Loop() {
			bnSinkFile = Parse(body)
		}
	})
}

// bnLiteralGroup returns a group of n literal rules
// "/section<i>/page<j>/", two in three disallow.
func bnLiteralGroup(n int) *Group {
	var b strings.Builder
	b.WriteString("User-agent: *\n")
	for k := 0; k < n; k++ {
		d := "Disallow"
		if k%3 == 0 {
			d = "Allow"
		}
		fmt.Fprintf(&b, "%s: /section%d/page%d/\n", d, k/10, k%10)
	}
	return Parse([]byte(b.String())).GroupFor("*")
}

// bnWildcardGroup returns a group of n wildcard rules in three shapes.
func bnWildcardGroup(n int) *Group {
	var b strings.Builder
	b.WriteString("User-agent: *\n")
	for k := 0; k < n; k++ {
		d := "Disallow"
		if k%4 == 0 {
			d = "Allow"
		}
		switch k % 3 {
		case 0:
			fmt.Fprintf(&b, "%s: /*/section%d/*.php$\n", d, k)
		case 1:
			fmt.Fprintf(&b, "%s: /*?sessionid%d=\n", d, k)
		default:
			fmt.Fprintf(&b, "%s: /section%d/*/print\n", d, k)
		}
	}
	return Parse([]byte(b.String())).GroupFor("*")
}

// bnPaths are 64 realistic request paths: some match the generated rules
// (shallow and deep), most of a real site's traffic matches none.
var bnPaths = func() []string {
	p := []string{
		"/",
		"/index.html",
		"/section0/page0/",
		"/section1/page3/article.html",
		"/section4/page7/2024/05/17/some-long-headline-about-things.html",
		"/section9/page9/a/b/c/d/e/f/g/h/deep.html?ref=home",
		"/section42/page1/",
		"/section99/page5/story",
		"/section512/page2/x",
		"/section999/page9/",
		"/section12345/page1/",
		"/news/world/europe/2024/05/17/election-results.html",
		"/news/world/europe/section3/list.php",
		"/blog/section7/entry.php",
		"/blog/section7/entry.php?x=1",
		"/a/b/section33/c/d/index.php",
		"/search?q=robots&page=2",
		"/article/12345?sessionid17=abcdef",
		"/article/12345?utm_source=twitter&sessionid4=1",
		"/section5/2024/print",
		"/section5/2024/print/page",
		"/section2/x/y/print",
		"/static/js/app.3f9a2c.js",
		"/static/css/site.min.css",
		"/images/2024/05/photo-1234.jpg",
		"/favicon.ico",
		"/robots.txt",
		"/sitemap.xml",
		"/about/",
		"/contact",
		"/video/embed/player.js",
		"/api/v2/items/5?fields=title,body",
	}
	for i := 0; len(p) < 64; i++ {
		switch i % 4 {
		case 0:
			p = append(p, fmt.Sprintf("/section%d/page%d/item-%d.html", i*37%1000, i%10, i))
		case 1:
			p = append(p, fmt.Sprintf("/category/%d/section%d/list.php", i, i*13%3000))
		case 2:
			p = append(p, fmt.Sprintf("/story/%d?sessionid%d=x&utm_medium=rss", i*101, i*59%3000))
		default:
			p = append(p, fmt.Sprintf("/tag/topic-%d/page/%d/", i, i%7))
		}
	}
	return p
}()

func BenchmarkDecide(b *testing.B) {
	for _, kind := range []struct {
		name  string
		group func(int) *Group
	}{{"literal", bnLiteralGroup}, {"wildcard", bnWildcardGroup}} {
		b.Run(kind.name, func(b *testing.B) {
			for _, n := range []int{10, 100, 1000, 10000} {
				b.Run(fmt.Sprint(n), func(b *testing.B) {
					g := kind.group(n)
					if len(g.Rules()) != n {
						b.Fatalf("group has %d rules, want %d", len(g.Rules()), n)
					}
					b.ReportAllocs()
					i := 0
					for b.Loop() {
						bnSinkVerdict = g.Decide(bnPaths[i&63])
						i++
					}
				})
			}
		})
	}
	b.Run("percent-encoded", func(b *testing.B) {
		var body strings.Builder
		body.WriteString("User-agent: *\n")
		for k := 0; k < 96; k++ {
			fmt.Fprintf(&body, "Disallow: /section%d/page%d/\n", k/10, k%10)
		}
		body.WriteString("Allow: /café/menu\nDisallow: /%E6%97%A5%E6%9C%AC/\nDisallow: /~user/private\nAllow: /*/print$\n")
		g := Parse([]byte(body.String())).GroupFor("*")
		path := "/caf%c3%a9/%6Denu/%7Euser/priv%61te/%e6%97%a5/ü/section1/page2/?q=a%2fb&x=%zz"
		if isCanonical(path) {
			b.Fatal("benchmark path is already canonical")
		}
		b.ReportAllocs()
		for b.Loop() {
			bnSinkVerdict = g.Decide(path)
		}
	})
}

// bnAgents are 50 product tokens: real crawlers' and invented ones.
var bnAgents = []string{
	"Googlebot", "Googlebot-News", "Googlebot-Image", "Googlebot-Video", "Storebot-Google",
	"Google-Extended", "AdsBot-Google", "AdsBot-Google-Mobile", "Mediapartners-Google", "APIs-Google",
	"Bingbot", "MSNBot", "Slurp", "DuckDuckBot", "Baiduspider",
	"YandexBot", "Yandex", "Applebot", "Applebot-Extended", "facebookexternalhit",
	"Twitterbot", "LinkedInBot", "GPTBot", "ChatGPT-User", "OAI-SearchBot",
	"CCBot", "anthropic-ai", "ClaudeBot", "Claude-Web", "PerplexityBot",
	"Bytespider", "Amazonbot", "AhrefsBot", "SemrushBot", "MJ_bot",
	"DotBot", "PetalBot", "SeznamBot", "Sogou", "Exabot",
	"ia_archiver", "Diffbot", "cohere-ai", "Meta-ExternalAgent", "FacebookBot",
	"acme-crawler", "zeta_spider", "FooBot", "ExampleIndexer", "InternalMonitor",
}

// bnHeaders are User-Agent headers of browsers and bots.
var bnHeaders = []string{
	"Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36",
	"Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4.1 Safari/605.1.15",
	"Mozilla/5.0 (X11; Linux x86_64; rv:125.0) Gecko/20100101 Firefox/125.0",
	"Mozilla/5.0 (iPhone; CPU iPhone OS 17_4_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4.1 Mobile/15E148 Safari/604.1",
	"Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.6367.82 Mobile Safari/537.36",
	"Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36 Edg/124.0.2478.67",
	"Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; Googlebot/2.1; +http://www.google.com/bot.html) Chrome/124.0.6367.118 Safari/537.36",
	"Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
	"Googlebot-Image/1.0",
	"Googlebot-News",
	"Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)",
	"Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)",
	"Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; ClaudeBot/1.0; +claudebot@anthropic.com)",
	"CCBot/2.0 (https://commoncrawl.org/faq/)",
	"Mozilla/5.0 (compatible; YandexBot/3.0; +http://yandex.com/bots)",
	"Mozilla/5.0 (compatible; Baiduspider/2.0; +http://www.baidu.com/search/spider.html)",
	"Mozilla/5.0 (compatible; AhrefsBot/7.0; +http://ahrefs.com/robot/)",
	"Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15 (Applebot/0.1; +http://www.apple.com/go/applebot)",
	"facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)",
	"Mozilla/5.0 (compatible; PerplexityBot/1.0; +https://perplexity.ai/perplexitybot)",
	"Mozilla/5.0 (Linux; Android 5.0) AppleWebKit/537.36 (KHTML, like Gecko) Mobile Safari/537.36 (compatible; Bytespider; spider-feedback@bytedance.com)",
	"curl/8.7.1",
	"python-requests/2.31.0",
	"Go-http-client/1.1",
	"Mozilla/5.0 (compatible; DuckDuckBot-Https/1.1; https://duckduckgo.com/duckduckbot)",
	"AdsBot-Google (+http://www.google.com/adsbot.html)",
	"Mozilla/5.0 (compatible; SemrushBot/7~bl; +http://www.semrush.com/bot.html)",
	"Mozilla/5.0 (compatible; acme-crawler/3.1; +https://acme.example/bot)",
	"Twitterbot/1.0",
	"Mozilla/5.0 (Windows NT 6.1; WOW64; Trident/7.0; rv:11.0) like Gecko",
	"Wget/1.21.4",
	"Mozilla/5.0 (compatible; Amazonbot/0.1; +https://developer.amazon.com/support/amazonbot) Chrome/119.0.6045.214 Safari/537.36",
}

func BenchmarkGroupForUserAgent(b *testing.B) {
	var body strings.Builder
	for i, a := range bnAgents {
		fmt.Fprintf(&body, "User-agent: %s\nDisallow: /private%d/\n\n", a, i)
	}
	body.WriteString("User-agent: *\nDisallow: /search\n")
	f := Parse([]byte(body.String()))
	if n := len(f.Agents()); n != len(bnAgents) {
		b.Fatalf("file names %d agents, want %d", n, len(bnAgents))
	}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		bnSinkGroup, _ = f.GroupForUserAgent(bnHeaders[i%len(bnHeaders)])
		i++
	}
}
