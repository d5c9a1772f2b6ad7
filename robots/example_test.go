package robots_test

import (
	"fmt"

	"github.com/robotsguard/caddy-robots-txt/robots"
)

const exampleFile = `User-agent: GPTBot
Disallow: /

User-agent: Googlebot
Disallow: /search
Allow: /search/about

User-agent: *
Disallow: /private/
Disallow: /*.json$
Crawl-delay: 5

Sitemap: https://www.example.com/sitemap.xml
`

// A server judges a request by the group its User-Agent header selects,
// and the path with its query.
func Example() {
	f := robots.Parse([]byte(exampleFile))
	for _, req := range []struct{ userAgent, path string }{
		{"Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)", "/blog/"},
		{"Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)", "/search?q=x"},
		{"Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)", "/search/about"},
		{"Googlebot/2.1 (+http://www.google.com/bot.html)", "/private/a.png"},
		{"curl/8.7.1", "/private/a.png"},
		{"curl/8.7.1", "/api/items.json"},
		{"curl/8.7.1", "/%70rivate/a.png"},
	} {
		g, name := f.GroupForUserAgent(req.userAgent)
		v := g.Decide(req.path)
		if name == "" {
			name = "*"
		}
		fmt.Printf("%-9s %-16s allowed=%-5v rule=%q line %d\n", name, req.path, v.Allowed, v.Rule, ruleLine(v))
	}
	// Output:
	// GPTBot    /blog/           allowed=false rule="disallow: /" line 2
	// Googlebot /search?q=x      allowed=false rule="disallow: /search" line 5
	// Googlebot /search/about    allowed=true  rule="allow: /search/about" line 6
	// Googlebot /private/a.png   allowed=true  rule="" line 0
	// *         /private/a.png   allowed=false rule="disallow: /private/" line 9
	// *         /api/items.json  allowed=false rule="disallow: /*.json$" line 10
	// *         /%70rivate/a.png allowed=false rule="disallow: /private/" line 9
}

func ruleLine(v robots.Verdict) int {
	if v.Rule == nil {
		return 0
	}
	return v.Rule.Line
}

// Allowed answers for a crawler's product token and a full URL, as
// Google's parser does.
func ExampleFile_Allowed() {
	f := robots.Parse([]byte(exampleFile))
	fmt.Println(f.Allowed("Googlebot", "https://www.example.com/search?q=robots"))
	fmt.Println(f.Allowed("Googlebot", "https://www.example.com/private/"))
	fmt.Println(f.Allowed("Googlebot-News", "https://www.example.com/search/about"))
	fmt.Println(f.Allowed("SomeBot", "https://www.example.com/private/"))
	fmt.Println(f.Allowed("GPTBot", "https://www.example.com/robots.txt"))
	// Output:
	// false
	// true
	// true
	// false
	// true
}

// GroupFor picks the group a product token obeys; the group carries the
// fields a crawler may also honour.
func ExampleFile_GroupFor() {
	f := robots.Parse([]byte(exampleFile))
	g := f.GroupFor("bingbot")
	fmt.Println(g.Agents, g.CrawlDelay, len(g.Rules()))
	fmt.Println(f.Agents(), f.Sitemaps())
	// Output:
	// [*] 5s 2
	// [GPTBot Googlebot] [https://www.example.com/sitemap.xml]
}

// Diagnostics are what a linter shows: every line read differently than
// its author probably meant, with its line number.
func ExampleFile_Diagnostics() {
	f := robots.Parse([]byte(`Disallow: /early
User-agent: *
Disalow: /tmp/
Disallow: private/
Crawl-delay: soon
Noindex: /drafts/
Sitemap: /sitemap.xml
`))
	for _, d := range f.Diagnostics() {
		fmt.Println(d)
	}
	fmt.Println("errors:", f.HasErrors())
	// Output:
	// line 1: error: Disallow rule comes before any user-agent line; ignored
	// line 3: warning: field "Disalow" is read as "disallow"
	// line 4: error: pattern "private/" does not start with "/" or "*", so it matches no URL
	// line 5: warning: crawl-delay "soon" is not a number of seconds; ignored
	// line 6: info: field "Noindex" is not part of RFC 9309; ignored
	// line 7: warning: sitemap "/sitemap.xml" is not an absolute URL
	// errors: true
}

// A group's usage preferences for a path, and the Content-Usage response
// header that states them.
func ExampleGroup_Signals() {
	f := robots.Parse([]byte(`User-agent: *
Content-Signal: search=yes, ai-input=no, ai-train=no
Content-Usage: /docs/ train-ai=y
Allow: /
`))
	g := f.GroupFor("ExampleBot")
	for _, path := range []string{"/blog/post", "/docs/intro"} {
		s := g.Signals(path)
		fmt.Printf("%s: search=%s ai-input=%s ai-train=%s; Content-Usage: %s\n", path, s.Search, s.AIInput, s.AITrain, s.ContentUsage())
	}
	// Output:
	// /blog/post: search=yes ai-input=no ai-train=no; Content-Usage: train-ai=n, search=y
	// /docs/intro: search=yes ai-input=no ai-train=yes; Content-Usage: train-ai=y, search=y
}
