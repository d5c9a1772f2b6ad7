package include

// FetchUserAgent is the User-Agent the handler (and caddy robots check,
// fetching as the handler does) sends when it fetches a robots.txt or an
// included list over HTTP, so that the server's logs say who asks.
const FetchUserAgent = "caddy-robots-txt (+https://github.com/robotsguard/caddy-robots-txt)"

// FetchAccept is the Accept header of those fetches.
const FetchAccept = "text/plain, */*;q=0.5"
