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
	// IgnoreHeader skips the header: a signature proved who the crawler
	// is, or the client is held to the * group whatever it claims.
	IgnoreHeader bool
	// Agents are tried next, in order, when the header chose no group: a
	// group must name one of them (or one it extends by "-suffix"); "*"
	// names the * group.
	Agents []string
	// NoStar leaves a client that the header and Agents found no group for
	// with no rules at all, rather than the * group's: Google's
	// special-case crawlers obey only the groups that name them.
	NoStar bool
}

// ByStar is the Choice for a client held to the * group whatever it
// claims (an impostor, a trapped address).
var ByStar = Choice{IgnoreHeader: true, Agents: []string{"*"}}

// ChoiceFor is the Choice for a client known to be crawler cr: by its
// header, as Google reads one, then by the tokens cr answers to and the
// crawlers it follows (Applebot obeys a Googlebot group when no group
// names it), then the * group unless cr ignores it. byHeader is false
// when a signature, not the header, proved who it is.
func ChoiceFor(cr *crawlers.Crawler, byHeader bool) Choice {
	return Choice{IgnoreHeader: !byHeader, Agents: cr.Agents(), NoStar: cr.IgnoresStar}
}

// Group is the group of f that the client sending ua obeys, and the
// agent that chose it: the file's name found in the header, or the entry
// of Agents; "" when the * group applies for want of either. The group is
// nil when none applies.
func (c Choice) Group(f *robots.File, ua string) (*robots.Group, string) {
	if !c.IgnoreHeader {
		if g, name := f.GroupForUserAgent(ua); name != "" {
			return g, name
		}
	}
	for _, a := range c.Agents {
		if g := f.NamedGroupFor(a); g != nil {
			return g, a
		}
	}
	if c.NoStar {
		return nil, ""
	}
	return f.GroupFor("*"), ""
}
