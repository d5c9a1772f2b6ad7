package caddymodule

import (
	"strings"
	"time"

	"github.com/robotsguard/caddy-robots-txt/caddymodule/crawlers"
	"github.com/robotsguard/caddy-robots-txt/caddymodule/judge"
	"github.com/robotsguard/caddy-robots-txt/robots"
)

// identity is what the handler concluded about one User-Agent header
// against one snapshot of robots.txt.
type identity struct {
	judge.Identity
	snap     *snapshot    // the file this was computed against
	counters *botCounters // the live counts of Name

	// claim is the known crawler the header names, if any; category is
	// its category. impostor is how the client is judged when it fails
	// the claim: set when the crawler publishes how to verify it.
	claim    *crawlers.Crawler
	category string
	impostor *identity
	// chosenBy says how Group was chosen when the header did not choose
	// it (see judge.Request.Agents): an earlier version's group, for
	// grace, is chosen the same way.
	chosenBy chooser
	// trapped is set on a bot whose address sprang the trap and whose
	// own rules refuse the request: it is judged as itself, and grace
	// does not excuse it.
	trapped bool
	// ownDelay is the Crawl-delay of the group a trapped bot's own header
	// chose: it is paced by the longer of that and its group's.
	ownDelay time.Duration
}

// crawlDelay is the Crawl-delay id is paced by.
func (id *identity) crawlDelay() time.Duration {
	d := id.ownDelay
	if id.Group != nil && id.Group.CrawlDelay > d {
		d = id.Group.CrawlDelay
	}
	return d
}

// chooser is how an identity's group was chosen.
type chooser uint8

const (
	byHeader chooser = iota // the User-Agent header
	byStar                  // the * group, whatever the header claims
	byClaim                 // the tokens of the crawler a signature proved
)

// agents is how judge.Request names the way the group was chosen.
func (id *identity) agents() []string {
	switch id.chosenBy {
	case byStar:
		return judge.Star
	case byClaim:
		return id.claim.Tokens
	}
	return nil
}

// maxCachedUserAgent is the longest header kept in the cache; longer ones
// (rare, and often hostile) are classified each time instead of pinning
// their bytes in memory.
const maxCachedUserAgent = 512

// identify decides whether the client sending ua is a bot and, if so,
// which group of snap it must obey. Results are cached per header.
func (h *Handler) identify(ua string, snap *snapshot) identity {
	if id, ok := h.idents.Get(ua); ok && id.snap == snap {
		return id
	}
	id := identity{Identity: judge.Identify(h.classifier, snap.File, ua), snap: snap}
	if tok := h.operatorCrawlerIn(ua); tok != "" && (!id.Bot || id.Name == judge.Generic) {
		// The operator's own crawler ("crawler MyMon { ... }") is
		// known by its token, whether robots.txt names it or not.
		id.Bot, id.Name, id.Group = true, tok, snap.File.GroupFor(tok)
	}
	if id.Bot {
		id.counters = h.countersFor(id.Name)
		if cr := h.claimOf(id.Name, id.Known); cr != nil {
			id.claim, id.category = cr, string(cr.Category)
			id.Group = obeyedBy(cr, snap.File, id.Group)
			id.counters.setCategory(id.category)
			if cr.Verifiable() {
				id.impostor = h.impostorOf(cr, snap)
			}
		}
	}
	if len(ua) <= maxCachedUserAgent {
		h.idents.Add(ua, id)
	}
	return id
}

// obeyedBy is the group crawler cr obeys when g was chosen for it: g,
// except that a crawler that ignores the * group (Google's special-case
// crawlers) has no group at all when g is the * group and no group names
// one of its tokens, as Google reads the file for it.
func obeyedBy(cr *crawlers.Crawler, f *robots.File, g *robots.Group) *robots.Group {
	if !cr.IgnoresStar || g == nil || g != f.GroupFor("*") {
		return g
	}
	for _, a := range f.Agents() {
		for _, t := range cr.Tokens {
			if strings.EqualFold(a, t) {
				return g // named, in a group it shares with *
			}
		}
	}
	return nil
}

// claimOf is the known crawler a bot's header claims to be: the one the
// bot is named after; failing that, the one its name extends
// ("Googlebot-Mobile" is Google's, "msnbot-media" Microsoft's); failing
// that, the one the classifier found in the header (known). A claim to a
// crawler that can be verified must not escape verification by a name the
// knowledge base does not list.
func (h *Handler) claimOf(name, known string) *crawlers.Crawler {
	base := h.checker.base
	if cr := base.Lookup(name); cr != nil {
		return cr
	}
	for n := name; ; {
		i := strings.LastIndexByte(n, '-')
		if i <= 0 {
			break
		}
		n = n[:i]
		if cr := base.Lookup(n); cr != nil {
			return cr
		}
	}
	return base.Lookup(known)
}

// operatorCrawlerIn is the token of an operator's crawler entry that ua
// names as its product, or "".
func (h *Handler) operatorCrawlerIn(ua string) string {
	for _, cr := range h.Crawlers {
		if judge.NamesProduct(ua, cr.Token) {
			return cr.Token
		}
	}
	return ""
}
