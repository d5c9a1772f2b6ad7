package robots

import (
	"strings"
	"testing"
)

// TestDecideWithin: against the audit's flood of 24,380 wildcard rules, a
// path holding their text runs a small budget out; the capped Decide then
// refuses only what is certain.
func TestDecideWithin(t *testing.T) {
	body, grams := hsTrigramFlood()
	path := hsTrigramFloodPath(grams, 16*1024)
	for _, tc := range []struct {
		name, extra, path string
		units             int
		wantAllowed       bool
		wantCapped        bool
		wantRule          string
	}{
		// No rule matches: allowed either way.
		{"nothing matches", "", path, 1 << 30, true, false, ""},
		{"nothing matches, capped", "", path, 100, true, true, ""},
		// A plain disallow no wildcard allow can outrank is certain.
		{"plain disallow, capped", "Disallow: /" + grams[0][:2] + "\n", path, 100, false, true, "disallow: /" + grams[0][:2]},
		// A wildcard disallow matched before the budget ran out, too.
		{"wildcard disallow, capped", "Disallow: /*" + grams[0] + "\n", path, 100, false, true, "disallow: /*" + grams[0]},
		// A wildcard allow of a higher priority might have matched:
		// not certain, so allowed, no rule reported.
		{"outranked, capped", "Disallow: /" + grams[0][:2] + "\nAllow: /*nomatch-here-at-all\n", path, 100, true, true, ""},
		{"outranked, in full", "Disallow: /" + grams[0][:2] + "\nAllow: /*nomatch-here-at-all\n", path, 1 << 30, false, false, "disallow: /" + grams[0][:2]},
		// A short path never builds the index: nothing is spent.
		{"short path", "Disallow: /private/\n", "/private/x", 0, false, false, "disallow: /private/"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := Parse([]byte(strings.Replace(body, "User-agent: *\n", "User-agent: *\n"+tc.extra, 1))).GroupFor("x")
			b := NewBudget(tc.units)
			v := g.DecideWithin(tc.path, &b)
			if v.Allowed != tc.wantAllowed || b.Capped() != tc.wantCapped || v.Rule.String() != tc.wantRule {
				t.Fatalf("DecideWithin = allowed %v, rule %q, capped %v; want %v, %q, %v",
					v.Allowed, v.Rule, b.Capped(), tc.wantAllowed, tc.wantRule, tc.wantCapped)
			}
			if full := g.Decide(tc.path); !v.Allowed && full.Allowed {
				t.Fatalf("capped Decide refused what Decide allows (%q)", full.Rule)
			}
			if !tc.wantCapped && b.Spent() > tc.units {
				t.Fatalf("spent %d of %d units without being capped", b.Spent(), tc.units)
			}
		})
	}
}

// TestBudgetShared: Decides that share a budget stop once it is spent:
// the first of a path's spellings spends, the next ones are capped.
func TestBudgetShared(t *testing.T) {
	body, grams := hsTrigramFlood()
	g := Parse([]byte(body)).GroupFor("x")
	path := hsTrigramFloodPath(grams, 16*1024)
	full := NewBudget(1 << 30)
	g.DecideWithin(path, &full)
	if full.Capped() || full.Spent() == 0 {
		t.Fatalf("one Decide: spent %d, capped %v; want some spent, not capped", full.Spent(), full.Capped())
	}
	b := NewBudget(full.Spent() + full.Spent()/2)
	for k := range 3 {
		g.DecideWithin(path+strings.Repeat("/", k), &b)
	}
	if !b.Capped() {
		t.Fatalf("three Decides within 1.5 times one's spending: not capped (left %d)", b.Left())
	}
	if over := -b.Left(); over > full.Spent() {
		t.Fatalf("overspent by %d units, more than one Decide's %d", over, full.Spent())
	}
}
