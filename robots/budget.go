package robots

// A Budget bounds the work that several Decides may spend on a path's
// index (see wildTry): the Decides of one request's other spellings, say.
// A Decide that runs out stops trying wildcard rules and decides on what
// it knows for certain (see DecideWithin), so a request crafted against a
// file of thousands of wildcard rules costs a bounded amount whatever
// number of spellings it has. Plain rules, and wildcard rules tried
// without an index (a few times the path's length in all), are not
// counted: their cost is linear in the path anyway.
//
// The zero Budget has nothing to spend. A Budget is not safe for
// concurrent use.
type Budget struct {
	left, spent int
	capped      bool
}

// NewBudget returns a Budget of the given number of units. A unit is
// about one look into a path's index: a binary search, a place checked
// for a segment, a rule tried against the memo; some tens of nanoseconds.
func NewBudget(units int) Budget { return Budget{left: units} }

// Capped reports whether a Decide ran out of the budget.
func (b *Budget) Capped() bool { return b.capped }

// Spent returns how many units Decides have taken from b.
func (b *Budget) Spent() int { return b.spent }

// Left returns how many units b has left; 0 or less when it is spent.
func (b *Budget) Left() int { return b.left }

// spend takes n units, and reports whether there were any left to take
// them from; when there were none, the Decide is capped.
func (b *Budget) spend(n int) bool {
	if b.left <= 0 {
		b.capped = true
		return false
	}
	b.charge(n)
	return true
}

// charge takes n units for work already done, which no shortage undoes.
func (b *Budget) charge(n int) {
	b.left -= n
	b.spent += n
}

// DecideWithin is Decide, with the work on the path's index taken from b
// (nil for no limit). When b runs out, the wildcard rules not yet tried
// are not tried: the verdict is then disallowed only if it is certain,
// the best rule found so far a disallow that no wildcard allow rule of
// the group could outrank; otherwise allowed, with Verdict.Rule nil and
// b.Capped() true. So a capped Decide never reports a violation that a
// full one would not, and may miss one that only a wildcard rule makes.
func (g *Group) DecideWithin(pathAndQuery string, b *Budget) Verdict {
	if g == nil {
		return Verdict{Allowed: true}
	}
	if pathAndQuery == "" {
		pathAndQuery = "/"
	}
	if !isCanonical(pathAndQuery) {
		return g.decideCanonicalized(pathAndQuery, b)
	}
	return g.decide(bytesOf(pathAndQuery), b)
}

// DecideRawWithin is DecideRaw with the work on the path's index taken
// from b, as DecideWithin takes it.
func (g *Group) DecideRawWithin(target string, b *Budget) Verdict {
	if !g.ReadsSent(target) {
		return g.DecideWithin(target, b)
	}
	return g.decideRaw(target, g.lonePercent() && holdsUnreservedEscape(target), b)
}

// decide decides on the canonical path p, with the work on its index
// taken from b (nil for no limit): see DecideWithin.
func (g *Group) decide(p []byte, b *Budget) Verdict {
	if isRobotsTxt(p) {
		return Verdict{Allowed: true}
	}
	var was bool
	if b != nil {
		was, b.capped = b.capped, false
	}
	var r *Rule
	outrank := -1 // the highest priority of a wildcard allow rule
	if m := g.matcher(); m != nil {
		r, outrank = m.bestWithin(p, b), m.wildAllow
	} else {
		// One try for all parts: see wildTry.
		try := newWildTry(p, b)
		for _, s := range g.parts {
			m := s.matcher()
			r = m.bestWith(p, &try, r)
			outrank = max(outrank, m.wildAllow)
		}
		try.done()
	}
	if b != nil {
		capped := b.capped
		b.capped = was || capped
		if capped && (r == nil || r.Directive == Allow || r.priority <= outrank) {
			// A wildcard rule not tried might have decided otherwise.
			return Verdict{Allowed: true}
		}
	}
	if r == nil {
		return Verdict{Allowed: true}
	}
	return Verdict{Allowed: r.Directive == Allow, Rule: r}
}
