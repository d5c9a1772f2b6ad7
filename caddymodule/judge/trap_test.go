package judge

import (
	"testing"

	"github.com/robotsguard/caddy-robots-txt/robots"
)

// TestDecideTrap: a request under the trap is judged as the robots.txt
// served with the trap reads, so that a bot is called a violator only
// where that file disallows the path to it, and by the rule that decides
// there.
func TestDecideTrap(t *testing.T) {
	const trap = "/.well-known/robots-trap/"
	// The file on disk, and as served: the trap's Disallow is added to
	// the groups that allowed the trap (* and Allowed, where the tie
	// goes to the Allow), not to the one that disallowed it already.
	file := robots.Parse([]byte("User-agent: *\nDisallow: /private/\n\n" +
		"User-agent: Closed\nDisallow: /\n\n" +
		"User-agent: Allowed\nAllow: /.well-known/robots-trap/\nDisallow: /private/\n\n" +
		"User-agent: Longer\nAllow: /.well-known/robots-trap/x\n"))
	served := robots.Parse([]byte("User-agent: *\nDisallow: " + trap + "\nDisallow: /private/\n\n" +
		"User-agent: Closed\nDisallow: /\n\n" +
		"User-agent: Allowed\nDisallow: " + trap + "\nAllow: /.well-known/robots-trap/\nDisallow: /private/\n\n" +
		"User-agent: Longer\nDisallow: " + trap + "\nAllow: /.well-known/robots-trap/x\n"))
	for _, tc := range []struct {
		agent, path string
		allowed     bool
		rule        string
		line        int
		fromTrap    bool
	}{
		{"*", trap, false, "disallow: " + trap, 0, true},
		{"Unnamed", trap + "deep", false, "disallow: " + trap, 0, true},
		// Its own Disallow: / decides; the trap's line is not in its group.
		{"Closed", trap, false, "disallow: /", 2 + 3, false},
		// Allow wins the tie: the served file allows it the trap.
		{"Allowed", trap, true, "allow: " + trap, 8, false},
		{"Longer", trap + "x", true, "allow: " + trap + "x", 12, false},
		{"Longer", trap, false, "disallow: " + trap, 0, true},
	} {
		v, fromTrap := PathsOfTarget(tc.path).DecideTrap(file.GroupFor(tc.agent), file, served, trap)
		line := 0
		if v.Rule != nil {
			line = v.Rule.Line
		}
		if v.Allowed != tc.allowed || v.Rule.String() != tc.rule || line != tc.line || fromTrap != tc.fromTrap {
			t.Errorf("%s %s: allowed %v by %q (line %d, trap's %v), want %v by %q (line %d, trap's %v)",
				tc.agent, tc.path, v.Allowed, v.Rule.String(), line, fromTrap, tc.allowed, tc.rule, tc.line, tc.fromTrap)
		}
	}
	// A file with no * group is served with one: a bot no group names
	// is held to the trap's Disallow.
	noStar := robots.Parse([]byte("User-agent: Closed\nDisallow: /\n"))
	servedNoStar := robots.Parse([]byte("User-agent: Closed\nDisallow: /\n\nUser-agent: *\nDisallow: " + trap + "\n"))
	if v, fromTrap := PathsOfTarget(trap).DecideTrap(noStar.GroupFor("Unnamed"), noStar, servedNoStar, trap); v.Allowed || !fromTrap {
		t.Errorf("no * group: allowed %v (trap's %v), want disallowed by the trap's rule", v.Allowed, fromTrap)
	}
	// A crawler that obeys only the groups naming it is held to none
	// where none does, and the * group's trap line is not for it.
	if v, fromTrap := PathsOfTarget(trap).DecideTrap(nil, file, served, trap); !v.Allowed || fromTrap {
		t.Errorf("a client held to no group beside a * group: allowed %v (trap's %v), want allowed", v.Allowed, fromTrap)
	}
}
