package include

import (
	"testing"

	"github.com/robotsguard/caddy-robots-txt/robots"
)

func TestTrap(t *testing.T) {
	const trap = "/.well-known/robots-trap/"
	for _, tc := range []struct {
		name, body, want string
		added            int
	}{
		{"each group gets it before its first rule",
			"User-agent: a\nUser-agent: b\nDisallow: /x\n\nUser-agent: *\nAllow: /\n",
			"User-agent: a\nUser-agent: b\nDisallow: " + trap + "\nDisallow: /x\n\nUser-agent: *\nDisallow: " + trap + "\nAllow: /\n", 2},
		{"a group that disallows it already is left alone; a * group is added",
			"User-agent: GPTBot\nDisallow: /\n",
			"User-agent: GPTBot\nDisallow: /\n\nUser-agent: *\nDisallow: " + trap + "\n", 1},
		// Only allow and disallow end a run of user-agent lines: a
		// sitemap line inside the run must not split the group.
		{"a field inside a run of user-agent lines",
			"User-agent: a\nSitemap: https://e.com/s.xml\nUser-agent: b\nDisallow: /y\n",
			"User-agent: a\nSitemap: https://e.com/s.xml\nUser-agent: b\nDisallow: " + trap + "\nDisallow: /y\n\nUser-agent: *\nDisallow: " + trap + "\n", 2},
		{"a group with no rules, at the end, without a final newline",
			"User-agent: *\nDisallow: /a\nUser-agent: last",
			"User-agent: *\nDisallow: " + trap + "\nDisallow: /a\nUser-agent: last\nDisallow: " + trap + "\n", 2},
		// A crawl-delay inside a run gives the agents above it a group
		// of their own, which borrows the rules after the run: the trap
		// line there keeps them out too.
		{"a crawl-delay inside a run of user-agent lines",
			"User-agent: a\nCrawl-delay: 5\nUser-agent: *\nDisallow: /y\n",
			"User-agent: a\nCrawl-delay: 5\nUser-agent: *\nDisallow: " + trap + "\nDisallow: /y\n", 1},
		{"no group at all", "# nothing\n", "# nothing\n\nUser-agent: *\nDisallow: " + trap + "\n", 1},
		// Lines end as the parser ends them, CR alone included.
		{"CR line endings",
			"User-agent: *\rDisallow: /y\r\rUser-agent: GoodBot\rDisallow: /n\r",
			"User-agent: *\rDisallow: " + trap + "\nDisallow: /y\r\rUser-agent: GoodBot\rDisallow: " + trap + "\nDisallow: /n\r", 2},
		{"CRLF line endings",
			"User-agent: a\r\nDisallow: /y\r\n\r\nUser-agent: *\r\nAllow: /\r\n",
			"User-agent: a\r\nDisallow: " + trap + "\nDisallow: /y\r\n\r\nUser-agent: *\r\nDisallow: " + trap + "\nAllow: /\r\n", 2},
		// Keys are read as the parser reads them: by their prefix.
		{"a misspelt key ends the run",
			"User-agent: a\nDisalowed: /y\nUser-agent: b\nDisallow: /z\n",
			"User-agent: a\nDisallow: " + trap + "\nDisalowed: /y\nUser-agent: b\nDisallow: " + trap + "\nDisallow: /z\n\nUser-agent: *\nDisallow: " + trap + "\n", 3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := robots.Parse([]byte(tc.body))
			tr := Trap([]byte(tc.body), f, trap)
			got, added := tr.Body, tr.Added
			if string(got) != tc.want {
				t.Errorf("body:\n%s\nwant:\n%s", got, tc.want)
			}
			if added != tc.added {
				t.Errorf("added to %d groups, want %d", added, tc.added)
			}
			// Each line of the file is found in the served text at the
			// line Trapped.Line gives it: logs name a rule of an
			// included list by its line there.
			var servedLines []string
			robots.EachLine(string(got), func(_ int, l, _ string) { servedLines = append(servedLines, l) })
			robots.EachLine(tc.body, func(n int, l, _ string) {
				if m := tr.Line(n); m < 1 || m > len(servedLines) || servedLines[m-1] != l {
					t.Errorf("line %d (%q) is served as line %d", n, l, m)
				}
			})
			// Every agent of the served file is kept out of the trap, and
			// the original rules are unchanged.
			served := robots.Parse(got)
			for _, a := range append(f.Agents(), "*", "anybot") {
				if served.GroupFor(a).Decide(trap + "x").Allowed {
					t.Errorf("%s may fetch the trap", a)
				}
				if g, o := served.GroupFor(a).Decide("/y"), f.GroupFor(a).Decide("/y"); g.Allowed != o.Allowed {
					t.Errorf("%s: /y allowed %v, was %v", a, g.Allowed, o.Allowed)
				}
			}
		})
	}
}
