package judge

import (
	"slices"
	"strings"

	"github.com/robotsguard/caddy-robots-txt/caddymodule/crawlers"
	"github.com/robotsguard/caddy-robots-txt/robots"
)

// Choice is how a client's group is chosen. It is kept with the client so
// that an earlier version of robots.txt, for grace, gives it the group the
// current version would.
//
// The zero Choice is Google's reading of a User-Agent header: the group of
// the longest product token of the file found in it, but a library's
// named after the client's own product (libraryAfterOwn), else the *
// group.
type Choice struct {
	// Crawler is the known crawler the client is, if any. The groups
	// naming its tokens come first; then, when the header chose no
	// group, those naming the crawlers it follows (Applebot obeys a
	// Googlebot group when no group names it, Googlebot-Image a
	// googlebot group), then the * group unless it ignores it (Google's
	// special-case crawlers obey only the groups that name them).
	Crawler *crawlers.Crawler
	// IgnoreHeader skips the header: a signature proved who the crawler
	// is, or the client is held to the * group whatever it claims.
	IgnoreHeader bool
	// Claimed is, for a client that failed its claim to be this crawler
	// (an impostor), the crawler it claimed: it is held to the * group,
	// and also to the group its header chooses with the claim where that
	// refuses more (see Held).
	Claimed *crawlers.Crawler
	// Unproven says nothing proved the client is the crawler whose
	// group the header chose (see Held).
	Unproven bool
	// Crawlers is the knowledge base whose tokens name crawlers (see
	// Held); nil for none.
	Crawlers *crawlers.Base
}

// MaxNamed bounds the groups besides its own that a client is held to
// (see Held): a header naming more is kept to its first MaxNamed (those
// that disallow the whole site first), a file naming so many groups that
// restrict is rare, and each one costs a walk of its rules.
const MaxNamed = 256

// MaxHeld bounds the groups besides its own that one request is judged
// against in full (see Paths.DecideHeld): those its rules may refuse the
// path by, once a walk of each group's rules has left out the groups
// that surely allow it. Each is one more judgment of the path.
const MaxHeld = 16

// ByStar is the Choice for a client held to the * group whatever it
// claims (an impostor, a trapped address).
var ByStar = Choice{IgnoreHeader: true}

// ImpostorOf is the Choice for a client that claims crawler cr and fails
// the check. A claim nobody verified buys no group's permissions, so it is
// held to the * group; nor does it shed the restrictions its header
// declares, so it is also held to the group that header chooses: a client
// sending "GPTBot/1.1" is refused what "User-agent: GPTBot" disallows
// whether or not it is OpenAI's, and "AcmeBot/1.0 (compatible;
// ClaudeBot/1.0)" what AcmeBot's group does, where the * group allows it.
func ImpostorOf(cr *crawlers.Crawler, base *crawlers.Base) Choice {
	return Choice{IgnoreHeader: true, Claimed: cr, Crawlers: base}
}

// ChoiceFor is the Choice for a client known to be crawler cr; byHeader is
// false when a signature, not the header, proved who it is.
func ChoiceFor(cr *crawlers.Crawler, byHeader bool) Choice {
	return Choice{Crawler: cr, IgnoreHeader: !byHeader}
}

// UnprovenFor is the Choice for a bot whose header chose its group and
// that nothing proved to be the crawler it names (cr, nil for a bot that
// names no known crawler of base): its claim cannot be checked, or was
// taken at its word (impostors trust).
func UnprovenFor(cr *crawlers.Crawler, base *crawlers.Base) Choice {
	return Choice{Crawler: cr, Unproven: true, Crawlers: base}
}

// Group is the group of f that the client sending ua obeys, and the
// agent that chose it: the file's name found in the header, or the
// crawler's token; "" when the * group applies for want of either. The
// group is nil when none applies.
func (c Choice) Group(f *robots.File, ua string) (*robots.Group, string) {
	return c.group(f, ua, libraryAfterOwn(ua))
}

// group is Group with library, libraryAfterOwn's test of ua, which Held
// shares, so that the header is scanned for its client's product once.
func (c Choice) group(f *robots.File, ua string, library func(name string, at int, lead bool) bool) (*robots.Group, string) {
	cr := c.Crawler
	if cr != nil {
		// The crawler's own token first, however long another's the
		// header names (a library's it fetches with): where the header
		// names it as its product, or a signature proved it. A client
		// claimed for the crawler by a longer name ("YandexImages",
		// "Googlebot-Extra") goes by the name it sends.
		for _, a := range cr.Tokens {
			if !c.IgnoreHeader && !namesProduct(ua, a) {
				continue
			}
			if g := f.NamedGroupFor(a); g != nil {
				return g, a
			}
			// A token of several words ("Sogou web spider") is
			// named in robots.txt by its first, as Google's parser
			// reads the line, where that word is a token of the
			// crawler's too (audit AN-F4; not "Google" of "Google
			// Favicon", audit AP-F7).
			if n := robots.AgentName(a); n != "" && n != a && hasToken(cr, n) {
				if g := f.NamedGroupFor(n); g != nil {
					return g, n
				}
			}
		}
	}
	if !c.IgnoreHeader {
		skip := library
		if cr != nil {
			// A known crawler goes by its own names, not by the
			// other words its header holds: a verified Baiduspider
			// whose mobile header says "(Linux;u;Android
			// 4.2.2;zh-cn;)" does not obey a zh-cn group, nor "Sogou
			// web spider/4.0" a spider one (audit AN-F4). A client
			// nothing proved is held to those groups too (Held).
			skip = func(name string, at int, lead bool) bool {
				// The name where a client puts its own, first or
				// after "compatible;", is its product whatever the
				// crawler it was claimed for ("compatible;
				// GoogleAgent-Mariner;", audit AP-F2).
				return !lead && !goesBy(cr, name) || library(name, at, lead)
			}
		}
		if g, name := f.GroupForUserAgentSkipping(ua, skip); name != "" {
			return g, name
		}
	}
	if cr != nil {
		for _, a := range cr.Follows {
			if g := f.NamedGroupFor(a); g != nil {
				return g, a
			}
		}
		if cr.IgnoresStar {
			return nil, ""
		}
	}
	return f.GroupFor("*"), ""
}

// Shared is the groups of f, other than g, that the file names for the
// crawlers sending the proven crawler's header as their own
// (crawlers.Crawler.SharedBy): a request from Googlebot's addresses with
// Googlebot's header may be Google News's, which obeys a Googlebot-News
// group, and Google's reading calls no request a violation that one of
// the crawlers it may be is allowed (audit AN-F1). nil for a client
// nothing proved, an impostor, or a crawler whose header none shares.
func (c Choice) Shared(f *robots.File, g *robots.Group) []*robots.Group {
	if c.Crawler == nil || c.Unproven || c.Claimed != nil {
		return nil
	}
	var out []*robots.Group
	for _, s := range c.Crawler.SharedBy() {
		for _, t := range s.Tokens {
			if sg := f.NamedGroupFor(t); sg != nil {
				if sg != g && !slices.Contains(out, sg) {
					out = append(out, sg)
				}
				break
			}
		}
	}
	return out
}

// goesBy reports whether the file's agent name is one crawler cr goes by:
// one of its tokens or of those it follows, or a longer name that starts
// with one ("YandexImages", "Googlebot-Extra"), which a client claimed for
// the crawler by that name sends as its own.
func goesBy(cr *crawlers.Crawler, name string) bool {
	for _, list := range [...][]string{cr.Tokens, cr.Follows} {
		for _, t := range list {
			// A token of several words names nothing robots.txt can
			// write but its first word, which counts where it is a
			// token of its own ("Sogou"; not "Google" of "Google
			// Favicon", audit AP-F7).
			if robots.AgentName(t) == t && len(name) >= len(t) && strings.EqualFold(name[:len(t)], t) {
				return true
			}
		}
	}
	return false
}

// hasToken reports whether name is one of cr's tokens, in any case.
func hasToken(cr *crawlers.Crawler, name string) bool {
	return slices.ContainsFunc(cr.Tokens, func(t string) bool { return strings.EqualFold(t, name) })
}

// Held is the groups of f besides the one Group chooses that the client
// sending ua is held to as well: a request any of them disallows is a
// violation. For a client that failed its claim (see ImpostorOf), the
// group its header chooses with the claim; for it and for a client that
// nothing proved (UnprovenFor), the group of every other name its header
// gives as a product but a library's after the product that names it
// (see libraryAfterOwn), and every known crawler's token, in the header's
// order, at most MaxNamed in all (those that disallow the whole site
// first, when there are more), leaving out groups that restrict nothing
// (no Disallow line, no Crawl-delay). Any name but a library's may be
// the client's own, wherever the header puts it: "LongerFooBot/1.0
// AcmeBot/1.0", or AcmeBot after 17 crawlers' names (audit AE-F2), must
// not escape AcmeBot's group.
//
// A name nobody proved buys no group's permissions. Google's reading
// gives a crawler the group of its own token; of a header that names
// several, the longest name's group is chosen, but "GPTBot/1.1
// Googlebot/2.1" may be GPTBot as much as Googlebot, "AcmeBot/1.0
// LongerFooBot/1.0" AcmeBot, and "… Safari/537.36 AcmeBot/1.0 Slackbot/1.0"
// AcmeBot too: they are held to those groups as well, or a bot would shed
// its group by adding an allowed name. A crawler proven by its address or
// signature is held to its own group alone.
func (c Choice) Held(f *robots.File, ua string) []*robots.Group {
	if c.Claimed == nil && !c.Unproven {
		return nil
	}
	library := libraryAfterOwn(ua)
	primary, _ := c.group(f, ua, library)
	var held []*robots.Group
	if c.Claimed != nil {
		if g, _ := ChoiceFor(c.Claimed, true).group(f, ua, library); g != nil && g != primary {
			held = append(held, g)
		}
	}
	except := append([]*robots.Group{primary}, held...)
	own := func(name string, at int, lead bool) bool {
		return c.Crawlers != nil && c.Crawlers.Lookup(name) != nil || !library(name, at, lead)
	}
	return append(held, f.GroupsNamedIn(ua, MaxNamed-len(held), own, except...)...)
}

// ClaimedName is the name of a bot named name that claims crawler cr (nil
// for none) and, by its product, the family of the file's name family
// (see ClaimOf): the family's name, else the crawler's own, spelt as the
// knowledge base spells it, so that the crawler and its impostors
// ("impostor:" and that name) are named alike in every log, metric and
// report whatever spelling the file uses (audit AG-F7: "Bingbot" beside
// "impostor:bingbot"); else name.
func ClaimedName(name string, cr *crawlers.Crawler, family string) string {
	switch {
	case family != "":
		return family
	case cr != nil:
		return cr.Name
	}
	return name
}

// ClaimOf is the known crawler a bot identified as id claims to be (see
// crawlers.Base.Claim), and, when only its product's family says so, the
// file's name for the family's group, which the bot goes by: a product
// named with a family's token ("YandexMetrika/2.0", every Yandex robot
// obeying a Yandex group) claims the family where the file names the
// family's group, and gains nothing to check where it does not. nil for
// a client that claims none.
func ClaimOf(base *crawlers.Base, f *robots.File, id Identity, ua string) (cr *crawlers.Crawler, family string) {
	if !id.Bot {
		return nil, ""
	}
	known := id.Known
	if known != "" && productPlaces(ua, known).describedOnly() {
		// "like FeedFetcher-Google" claims nothing (audit AD-F7).
		known = ""
	}
	if cr := base.Claim(id.Name, known); cr != nil || id.Name != Generic {
		return cr, ""
	}
	member, token := base.FamilyIn(ua)
	if member == nil || f.NamedGroupFor(token) == nil {
		return nil, ""
	}
	_, name := ChoiceFor(member, true).Group(f, ua)
	return member, name
}
