// Package testfixtures holds the fixtures that the tests of several
// packages share: real User-Agent headers and the robots.txt of the test
// site. It imports only the standard library, and only _test.go files
// import it.
package testfixtures

// Real User-Agent headers.
const (
	// Crawlers.
	UAGPTBot          = "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.1; +https://openai.com/gptbot)"
	UAGooglebot       = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"
	UAGooglebotMobile = "Mozilla/5.0 (Linux; Android 6.0.1; Nexus 5X Build/MMB29P) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.6778.69 Mobile Safari/537.36 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"
	UAAhrefs          = "Mozilla/5.0 (compatible; AhrefsBot/7.0; +http://ahrefs.com/robot/)"

	// HTTP libraries and command-line tools.
	UAPythonRequests = "python-requests/2.31.0"
	UACurl           = "curl/8.5.0"

	// Browsers.
	UAChrome        = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36"
	UAChromeAndroid = "Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36"
	UAFirefox       = "Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0"
	UASafari        = "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15"
	UASafariIPhone  = "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1"
)

// RobotsTxt is the robots.txt of the test site, used by the handler's unit
// tests and by the integration tests. Tests assert the line numbers of its
// rules (2, 3, 6 and 9); keep them in step when editing it.
const RobotsTxt = `User-agent: *
Disallow: /private/
Allow: /private/ok.html

User-agent: GPTBot
Disallow: /

User-agent: Googlebot
Disallow: /drafts/
`
