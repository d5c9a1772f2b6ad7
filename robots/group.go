package robots

import (
	"slices"
	"sync/atomic"
	"time"
)

// Directive is the kind of a rule: allow or disallow.
type Directive uint8

const (
	// Disallow forbids the paths its pattern matches.
	Disallow Directive = iota
	// Allow permits the paths its pattern matches.
	Allow
)

func (d Directive) String() string {
	if d == Allow {
		return "allow"
	}
	return "disallow"
}

// Rule is one allow or disallow line of a group.
type Rule struct {
	// Directive is allow or disallow.
	Directive Directive
	// Pattern is the path pattern as written in the file (comment and
	// surrounding white space removed).
	Pattern string
	// Line is the 1-based line number of the rule in the file.
	Line int

	// priority is Google's match priority: the pattern's length after
	// non-ASCII bytes are percent-encoded.
	priority int
}

// String renders the rule as it would be written, e.g. "disallow: /private/".
func (r *Rule) String() string {
	if r == nil {
		return ""
	}
	return r.Directive.String() + ": " + r.Pattern
}

// Verdict is the outcome of matching one path against a group.
type Verdict struct {
	// Allowed reports whether the path may be fetched.
	Allowed bool
	// Rule is the rule that decided, or nil when no rule matched (and
	// everything not matched is allowed).
	Rule *Rule
}

// Group is the set of rules one crawler obeys: the union of every group of
// the file that names it.
type Group struct {
	// Agents are the names that select this group, as first written
	// (product tokens, or "*"), in order of first appearance: the agents
	// named by exactly the same groups of the file. An agent that also
	// appears in another group of the file obeys a different merge and is
	// listed there.
	Agents []string
	// CrawlDelay is the first crawl-delay value of the group's lines, or
	// 0 when it has none. RFC 9309 does not define crawl-delay and Google
	// ignores it; Decide never uses it.
	CrawlDelay time.Duration

	src []*srcGroup // the written groups merged, in file order
	// The rules are compiled when the group first decides (see matcher):
	// a file can have 20,000 groups, of which a site sees a few.
	m      atomic.Pointer[matcher]
	lender *srcGroup   // the written group whose rules are the group's, if one is
	parts  []*srcGroup // the written groups to ask each, if the merge has no matcher

	signal   Signals // the written groups' Content-Signal lines, combined
	hasUsage bool    // a written group has a Content-Usage line
	line     int
	// traits caches Restricts and disallowsRoot (see traitsOf).
	traits atomic.Int32
}

// Line returns the 1-based line of the first user-agent line that names
// one of the group's agents; 0 for a nil group.
func (g *Group) Line() int {
	if g == nil {
		return 0
	}
	return g.line
}

// Rules returns the group's allow and disallow rules in file order. Rules
// with an empty pattern have no effect and are not listed. The slice may
// be shared with the File and must not be modified; for a group merged
// from several groups of the file it is built on each call.
func (g *Group) Rules() []*Rule {
	if g == nil {
		return nil
	}
	if len(g.src) == 1 {
		return g.src[0].rules
	}
	n := 0
	for k, s := range g.src {
		if k+1 < len(g.src) && sameRules(s, g.src[k+1]) {
			continue // borrowed: the next group's rules
		}
		n += len(s.rules)
	}
	rules := make([]*Rule, 0, n)
	for k, s := range g.src {
		if k+1 < len(g.src) && sameRules(s, g.src[k+1]) {
			continue
		}
		rules = append(rules, s.rules...)
	}
	return rules
}

// Restricts reports whether the group restricts a client at all: it has a
// disallow rule, so that some path may be disallowed by it, or a
// Crawl-delay. A group of allow rules alone, or of none, allows everything
// at any pace. The answer is worked out once.
func (g *Group) Restricts() bool { return g != nil && g.traitsOf()&traitRestricts != 0 }

// disallowsRoot reports whether the group disallows "/", the whole site
// but what its allow rules open. The answer is worked out once.
func (g *Group) disallowsRoot() bool { return g != nil && g.traitsOf()&traitRoot != 0 }

const (
	traitKnown = 1 << iota
	traitRestricts
	traitRoot
)

func (g *Group) traitsOf() int32 {
	if t := g.traits.Load(); t != 0 {
		return t
	}
	t := int32(traitKnown)
	if slices.ContainsFunc(g.Rules(), func(r *Rule) bool { return r.Directive == Disallow }) {
		t |= traitRestricts
		if !g.Decide("/").Allowed {
			t |= traitRoot
		}
	}
	if g.CrawlDelay > 0 {
		t |= traitRestricts
	}
	g.traits.Store(t)
	return t
}

// Decide matches a path, with its query if any, against the group's rules.
// The rule with the longest pattern that matches decides; when an allow and
// a disallow rule of the same length both match, allow wins. Paths no rule
// matches, and /robots.txt itself, are allowed. Percent-encoded and raw
// spellings of the same URL get the same verdict. A nil Group allows
// everything. Decide does not allocate for paths of up to 1,024 bytes.
func (g *Group) Decide(pathAndQuery string) Verdict { return g.DecideWithin(pathAndQuery, nil) }

// SurelyAllows reports whether the group allows the path and query
// canonical, which must be in canonical form (Canonical), as far as its
// plain rules and the literal prefixes of its wildcard rules tell: true
// only when Decide allows it, false when Decide may refuse it. It tries no
// wildcard rule and does not scan the path: its work is a walk of the
// group's rules along it, at most as long as the longest rule, so a
// caller may ask it of many groups of one path for the cost of few
// Decides.
func (g *Group) SurelyAllows(canonical string) bool {
	if g == nil {
		return true
	}
	if canonical == "" {
		canonical = "/"
	}
	p := bytesOf(canonical)
	if isRobotsTxt(p) {
		return true
	}
	var best *Rule
	wild := false
	if m := g.matcher(); m != nil {
		best, wild = m.plainWalk(p, nil)
	} else {
		for _, s := range g.parts {
			var w bool
			best, w = s.matcher().plainWalk(p, best)
			wild = wild || w
		}
	}
	return !wild && (best == nil || best.Directive == Allow)
}

// decideCanonicalized canonicalizes the path in a buffer on its own
// stack frame: kept out of DecideWithin, the buffer does not make every
// call grow the goroutine's stack.
//
//go:noinline
func (g *Group) decideCanonicalized(pathAndQuery string, b *Budget) Verdict {
	var buf [1024]byte
	return g.decide(appendCanonical(buf[:0], pathAndQuery), b)
}

// DecideSent is Decide for a path and query exactly as a client sent
// them, the request target, escapes and raw bytes as they came. Besides
// the canonical spelling Decide reads, it reads the one DecideRaw does,
// and is disallowed if either spelling is. Only a target as sent may be
// given: a decoded path has lost which bytes came escaped.
func (g *Group) DecideSent(target string) Verdict {
	v := g.Decide(target)
	if !v.Allowed || !g.ReadsSent(target) {
		return v
	}
	if r := g.DecideRaw(target); !r.Allowed {
		return r
	}
	return v
}

// DecideRaw is Decide on a target as sent, read in canonical form but for
// the ASCII bytes a URL should carry escaped ("|", "^", "{", "}", "`"),
// which browsers and crawlers send raw, and which it leaves raw: a
// disallow pattern that holds such a byte raw ("Disallow: /a|b") matches
// in this reading only, as in Google's, which compares the pattern with
// the URL byte for byte; so "/a|b" is refused by it and "/a%7Cb" is not.
// When a disallow pattern of the group holds a "%" that starts no escape
// ("Disallow: /*%"), the target's escapes of unreserved characters are
// kept too, as Google's reading sees them: the lone "%" matches the "%"
// of "/%7Ejoe/", which canonical form reads as "/~joe/". A target that
// needs neither (see ReadsSent) is read as Decide reads it.
func (g *Group) DecideRaw(target string) Verdict { return g.DecideRawWithin(target, nil) }

// ReadsSent reports whether DecideRaw reads target otherwise than Decide:
// it holds raw a byte URLs carry escaped, or an escape of an unreserved
// character while the group has a disallow pattern with a lone "%".
func (g *Group) ReadsSent(target string) bool {
	if g == nil {
		return false
	}
	return HoldsRawEscapable(target) || holdsUnreservedEscape(target) && g.lonePercent()
}

// HasLonePercent reports whether a disallow pattern of g holds a "%"
// that starts no escape ("/*%"), for which DecideRaw reads a target's
// escapes of unreserved characters as sent.
func (g *Group) HasLonePercent() bool { return g != nil && g.lonePercent() }

// lonePercent reports whether a disallow pattern of g holds a "%" that
// starts no escape.
func (g *Group) lonePercent() bool {
	if m := g.matcher(); m != nil {
		return m.lonePercent
	}
	for _, s := range g.parts {
		if s.matcher().lonePercent {
			return true
		}
	}
	return false
}

// decideRaw decides on target in canonical form but for the ASCII bytes
// canonical form escapes, which are left raw, and with keep, for the
// escapes of unreserved characters, which are kept.
//
//go:noinline
func (g *Group) decideRaw(target string, keep bool, b *Budget) Verdict {
	var buf [1024]byte
	return g.decide(appendCanon(buf[:0], target, "%25", true, keep), b)
}

// isRobotsTxt reports whether the canonical path p is /robots.txt, which
// every crawler may always fetch.
func isRobotsTxt(p []byte) bool {
	const name = "/robots.txt"
	if len(p) < len(name) || string(p[:len(name)]) != name {
		return false
	}
	return len(p) == len(name) || p[len(name)] == '?'
}

// matcher returns the group's compiled rules, compiling them the first
// time; nil when the group asks its parts. Decides that race to compile
// them each compile a copy, and all keep the first stored.
func (g *Group) matcher() *matcher {
	if m := g.m.Load(); m != nil || g.parts != nil {
		return m
	}
	var m *matcher
	if g.lender != nil {
		m = g.lender.matcher()
	} else {
		m = compileWith(func(gb *groupBuilder) {
			for k, s := range g.src {
				if k+1 < len(g.src) && sameRules(s, g.src[k+1]) {
					continue // borrowed: the next group's rules
				}
				addRules(gb, s.rules)
			}
		})
	}
	g.m.CompareAndSwap(nil, m)
	return g.m.Load()
}
