package judge

import (
	"strings"

	"github.com/robotsguard/caddy-robots-txt/caddymodule/botdetect"
	"github.com/robotsguard/caddy-robots-txt/robots"
)

// Generic names a bot that neither the file nor the classifier names.
const Generic = "generic"

// ImpostorPrefix starts the name of a client that claims a crawler which
// publishes how to verify it and fails the check: "impostor:Googlebot".
const ImpostorPrefix = "impostor:"

// Identity is what a User-Agent header says about a client, against one
// version of robots.txt.
type Identity struct {
	// Bot tells whether the client is held to robots.txt.
	Bot bool
	// Name is the file's agent name for the client, a known crawler's
	// name, or Generic; "" for people.
	Name string
	// Group is the group the client obeys; nil when the file has none
	// for it (or for people).
	Group *robots.Group
	// Known is the known crawler the classifier found in the header,
	// whatever Name the file gave it; "" when none.
	Known string
}

// Identify decides whether the client sending ua is a bot and, if so,
// what it is called and which group of f it obeys. An exempt client (an
// operator's humans entry) is never a bot; a client the file names as a
// product is always one.
func Identify(c *botdetect.Classifier, f *robots.File, ua string) Identity {
	if c.Exempt(ua) {
		return Identity{}
	}
	group, name := f.GroupForUserAgentSkipping(ua, libraryAfterOwn(ua))
	bot, known := c.Classify(ua)
	var kp places // where the header has the known crawler's name
	if known != "" {
		kp = productPlaces(ua, known)
	}
	if known != "" && !strings.EqualFold(name, known) && kp.named() && !kp.describedOnly() && !botdetect.ClientName(known) {
		// A crawler goes by its own token where the file names it,
		// however long a library's it fetches with, also named there
		// ("LinkedInBot/1.0 (compatible; Mozilla/5.0; Apache-HttpClient
		// +http://www.linkedin.com)"): Google's reading takes the
		// crawler's token. Not so a library the classifier knows: a
		// crawler named after it ("W3C-checklink/4.81 libwww-perl/6.72")
		// goes by the file's name for it (audits AF-F2, AG-F2).
		if g := f.NamedGroupFor(known); g != nil {
			group, name = g, known
		}
	}
	id := Identity{Known: known}
	switch {
	case name != "" && namedAs(ua, name, bot):
		// The file names this client: whatever else it looks like, the
		// site's own robots.txt speaks to it. But an item of a comment
		// that reads as a person's software ("Mozilla/5.0 (X11; Ubuntu;
		// Linux x86_64; rv:121.0) … Firefox/121.0") is its platform, not
		// its product: a group named Ubuntu, Xbox or Tablet holds no
		// browser. Named with a version ("Ubuntu/1.0"), it counts.
		id.Bot, id.Name = true, name
	case bot && name != "":
		// A bot whose group the file names (Googlebot-Image/1.0 in a
		// googlebot group) goes by the file's name for it.
		id.Bot, id.Name = true, name
	case bot && known != "" && !kp.describedOnly():
		// Not a crawler the header only compares itself to ("like
		// FeedFetcher-Google"): that would claim the crawler, and fail.
		id.Bot, id.Name = true, known
	case bot:
		id.Bot, id.Name = true, Generic
	default:
		return Identity{}
	}
	id.Group = group
	return id
}

// Own is id with the client named by the first of tokens (the operator's
// own crawler entries) that ua names as its product, when neither the file
// nor the classifier named it: the operator knows the crawler by its token
// whether robots.txt names it or not. Being an entry of the knowledge base,
// its claim then chooses its group.
func (id Identity) Own(ua string, tokens []string) Identity {
	if id.Bot && id.Name != Generic {
		return id
	}
	for _, tok := range tokens {
		if namesProduct(ua, tok) {
			id.Bot, id.Name = true, tok
			return id
		}
	}
	return id
}

// namedAs reports whether the file's name for a group stands in ua as the
// client's product: a bot's anywhere a product's name stands, a person's
// software's not only as an item of a comment (see Identify).
func namedAs(ua, name string, bot bool) bool {
	p := productPlaces(ua, name)
	return p.named() && (bot || !p.onlyAsItem())
}

// namesProduct reports whether ua names the agent name as a product, as
// crawlers do ("GPTBot/1.1", "(compatible; Bytespider;", a bare
// "CCBot"), rather than merely containing the word: a robots.txt group
// named "Intel" or "Mac" must not turn "Intel Mac OS X" browsers into bots.
// Browsers' own product tokens never count.
func namesProduct(ua, name string) bool { return productPlaces(ua, name).named() }

// places is where a header has a name (see productPlaces).
type places struct {
	// item and product: as a whole item of a comment (before ";" or
	// ")"), and as a product proper (with a version, or ending the
	// header).
	item, product bool
	// described and other: at a word's start, describing the client in a
	// comment ("like FeedFetcher-Google"), and anywhere else.
	described, other bool
}

// named is namesProduct.
func (p places) named() bool { return p.item || p.product }

// onlyAsItem reports whether the header names the name as a product only
// as a whole item of a comment, "; Ubuntu;" or "(Xbox)", never with a
// version or at the header's end.
func (p places) onlyAsItem() bool { return p.item && !p.product }

// describedOnly reports whether the header has the name only where it
// describes the client in a comment ("Feedly/1.0 (…; like
// FeedFetcher-Google)"), never as a name of its own.
func (p places) describedOnly() bool { return p.described && !p.other }

// productPlaces reports where ua has name (see places), in one pass,
// linear in ua.
func productPlaces(ua, name string) (p places) {
	if len(name) < 3 || robots.BrowserToken(name) {
		return p
	}
	// The depth of comments at ua[counted], brought up to date only at a
	// match, so that the scan of a header without the name costs no more.
	depth, counted := 0, 0
	for i := 0; i+len(name) <= len(ua); i++ {
		// The boundary first: a match can only start where a word does,
		// and a name is one word, so two candidate matches never
		// overlap and the scan stays linear in the header's length
		// whatever the name (a file from an upstream is not trusted).
		if i > 0 && isWordByte(ua[i-1]) {
			continue
		}
		if !strings.EqualFold(ua[i:i+len(name)], name) {
			continue
		}
		for ; counted <= i; counted++ {
			switch ua[counted] {
			case '(':
				depth++
			case ')':
				depth = max(depth-1, 0)
			}
		}
		if depth > 0 && robots.Describes(ua, i) {
			p.described = true
		} else {
			p.other = true
		}
		// After a slash is a version, a brand or a URL's path
		// ("Google/google;", "+https://example.com/bot)"), no product.
		if i > 0 && ua[i-1] == '/' {
			continue
		}
		switch end := i + len(name); {
		case end == len(ua) || ua[end] == '/' && isVersion(ua[end+1:]):
			p.product = true
		case ua[end] == ';' || ua[end] == ')':
			p.item = true
		}
	}
	return p
}

// isVersion tells whether v starts with a version number, as a crawler
// writes after its product token ("GPTBot/1.1", "MJ12bot/v2.0.4"). What
// else follows a slash in people's headers is no version: an app's
// platform in its in-app browser ("[Pinterest/iOS]"), a phone's
// manufacturer and brand in an app's device comment ("Android (34/14;
// 420dpi; 1080x2400; Google/google; Pixel 8; ...)" from Instagram).
func isVersion(v string) bool {
	if len(v) > 1 && (v[0] == 'v' || v[0] == 'V') {
		v = v[1:]
	}
	return v != "" && '0' <= v[0] && v[0] <= '9'
}

func isWordByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_'
}
