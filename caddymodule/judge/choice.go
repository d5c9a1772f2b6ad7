package judge

import (
	"github.com/robotsguard/caddy-robots-txt/caddymodule/crawlers"
	"github.com/robotsguard/caddy-robots-txt/robots"
)

// Choice is how a client's group is chosen. It is kept with the client so
// that an earlier version of robots.txt, for grace, gives it the group the
// current version would.
//
// The zero Choice is Google's reading of a User-Agent header: the group of
// the longest product token of the file found in it, else the * group.
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
	// refuses more (see Also).
	Claimed *crawlers.Crawler
}

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
func ImpostorOf(cr *crawlers.Crawler) Choice {
	return Choice{IgnoreHeader: true, Claimed: cr}
}

// ChoiceFor is the Choice for a client known to be crawler cr; byHeader is
// false when a signature, not the header, proved who it is.
func ChoiceFor(cr *crawlers.Crawler, byHeader bool) Choice {
	return Choice{Crawler: cr, IgnoreHeader: !byHeader}
}

// Group is the group of f that the client sending ua obeys, and the
// agent that chose it: the file's name found in the header, or the
// crawler's token; "" when the * group applies for want of either. The
// group is nil when none applies.
func (c Choice) Group(f *robots.File, ua string) (*robots.Group, string) {
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
		}
	}
	if !c.IgnoreHeader {
		if g, name := f.GroupForUserAgent(ua); name != "" {
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

// Also is, for a client that failed its claim (see ImpostorOf), the group
// of f its header chooses with the claim, which it is held to besides the
// one Group chooses; nil for any other client, or when the two are one.
func (c Choice) Also(f *robots.File, ua string) *robots.Group {
	if c.Claimed == nil {
		return nil
	}
	g, _ := ChoiceFor(c.Claimed, true).Group(f, ua)
	if star, _ := c.Group(f, ua); g == star {
		return nil
	}
	return g
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
	if cr := base.Claim(id.Name, id.Known); cr != nil || id.Name != Generic {
		return cr, ""
	}
	member, token := base.FamilyIn(ua)
	if member == nil || f.NamedGroupFor(token) == nil {
		return nil, ""
	}
	_, name := ChoiceFor(member, true).Group(f, ua)
	return member, name
}
