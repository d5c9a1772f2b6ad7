package caddymodule

import (
	"slices"
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
	// held is the groups besides Group it is held to as well
	// (judge.Choice.Held): for an impostor, the group its header chooses
	// with the claim, and for it and for a bot nothing proved, every
	// other group its header names. nil for a proven crawler.
	held []*robots.Group
	// chosenBy says how Group was chosen (see choice): an earlier
	// version's group, for grace, is chosen the same way.
	chosenBy chooser
	// trapped is set on a bot whose address sprang the trap and whose
	// own rules refuse the request: it is judged as itself, and grace
	// does not excuse it.
	trapped bool
	// unpaced is set on a person's browser whose address sprang the
	// trap: held to what robots.txt disallows, but not paced, since the
	// address may be many people's (a NAT), and a page's assets come
	// faster than any crawl-delay.
	unpaced bool
	// own is the group a trapped bot's own header chose: it is paced by
	// the longer of that group's Crawl-delay and its group's.
	own *robots.Group
}

// crawlDelay is the Crawl-delay id is paced by.
func (id *identity) crawlDelay() time.Duration {
	if id.unpaced {
		return 0
	}
	if g := id.pacedBy(); g != nil {
		return g.CrawlDelay
	}
	return 0
}

// pacedBy is the group whose Crawl-delay paces id: of its group, the
// groups it is held to as well and a trapped bot's own, the one that asks
// for the longest delay, its group on a tie (nil if it has none).
func (id *identity) pacedBy() *robots.Group {
	g := id.Group
	longer := func(o *robots.Group) {
		if o != nil && (g == nil || o.CrawlDelay > g.CrawlDelay) {
			g = o
		}
	}
	longer(id.own)
	for _, o := range id.held {
		longer(o)
	}
	return g
}

// chooser is how an identity's group was chosen. The identity is kept
// small: it is copied out of the cache on every bot request.
type chooser uint8

const (
	byHeader   chooser = iota // the header, then the claimed crawler's own groups; nothing proved it
	byStar                    // the * group, whatever the header claims
	byClaim                   // the crawler a signature proved, not the header
	byImpostor                // the * group, and the group the failed claim chooses
	byProven                  // as byHeader, for a crawler its address proved
)

// choice is how judge chooses id's group in any version of the file;
// base names the crawlers (see judge.Choice.Held).
func (id *identity) choice(base *crawlers.Base) judge.Choice {
	switch id.chosenBy {
	case byStar:
		return judge.ByStar
	case byClaim:
		return judge.ChoiceFor(id.claim, false)
	case byImpostor:
		return judge.ImpostorOf(id.claim, base)
	case byProven:
		return judge.ChoiceFor(id.claim, true)
	}
	return judge.UnprovenFor(id.claim, base)
}

// proven is id for a crawler its address proved: held to its own group
// alone, whatever else its header names.
func (id identity) proven() identity {
	id.held, id.chosenBy = nil, byProven
	return id
}

// decide judges paths for id: against its group, and against each group
// it is held to as well; it returns the verdict, the group that decided,
// and whether the path's other spellings were capped (see
// judge.Paths.DecideHeld).
func (id *identity) decide(paths judge.Paths) (robots.Verdict, *robots.Group, bool) {
	// Only a proven crawler's choice has groups others share (Google
	// News's, for Googlebot's header): no knowledge base is needed.
	return paths.DecideShared(id.Group, id.held, id.choice(nil).Shared(id.snap.File, id.Group))
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
	id := identity{Identity: judge.Identify(h.classifier, snap.File, ua).Own(ua, h.ownTokens), snap: snap}
	if id.Bot {
		cr, family := judge.ClaimOf(h.checker.base, snap.File, id.Identity, ua)
		if cr != nil {
			// The crawler's own documentation says which groups it
			// obeys when the header names none of the file's.
			id.claim, id.category = cr, string(cr.Category)
		}
		c := id.choice(h.checker.base)
		if cr != nil {
			id.Group, _ = c.Group(snap.File, ua)
		}
		id.held = c.Held(snap.File, ua)
		id.Name = judge.ClaimedName(id.Name, cr, family)
		id.counters = countersFor(h.serverName(), id.Name, !h.DisableMetrics, h.onlyFileNames(id.Identity))
		if cr != nil {
			id.counters.setCategory(id.category)
			if cr.Verifiable() {
				id.impostor = h.impostorOf(cr, snap, ua)
			}
		}
	}
	if len(ua) <= maxCachedUserAgent {
		h.idents.Add(ua, id)
	}
	return id
}

// onlyFileNames reports whether id's name is one only the file gives: not
// generic, the classifier's (a known crawler's or a bots entry), the
// knowledge base's own spelling of a crawler or a token, or an operator's
// crawler token. Such names are held to a bound as labels (countersFor).
func (h *Handler) onlyFileNames(id judge.Identity) bool {
	if id.Name == judge.Generic || id.Name == id.Known || slices.Contains(h.ownTokens, id.Name) {
		return false
	}
	if cr := h.checker.base.Lookup(id.Name); cr != nil && (cr.Name == id.Name || slices.Contains(cr.Tokens, id.Name)) {
		return false
	}
	return true
}
