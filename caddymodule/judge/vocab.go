package judge

import (
	"fmt"
	"strings"
)

// Verdict is what robots.txt says about one bot request.
type Verdict uint8

// The verdicts, in the order metrics and reports list them.
const (
	// Allowed: the group the bot obeys allows the path.
	Allowed Verdict = iota
	// Disallowed: the group disallows the path; a violation.
	Disallowed
	// Grace: the current version disallows the path, but the version the
	// bot was seen fetching, within the grace window, allows it.
	Grace
	// TooFast: the path is allowed, but the bot asks faster than the
	// Crawl-delay of its group allows.
	TooFast

	numVerdicts
)

var verdictNames = [numVerdicts]string{"allowed", "disallowed", "grace", "too-fast"}

// Verdicts lists every verdict, for code that counts them.
var Verdicts = []Verdict{Allowed, Disallowed, Grace, TooFast}

// Violation names the kind of robots.txt violation a verdict is, as the
// access log's violation field spells it: "disallow" for a disallowed
// path, "crawl-delay" for a request faster than the group's Crawl-delay,
// "" for none.
func (v Verdict) Violation() string {
	switch v {
	case Disallowed:
		return "disallow"
	case TooFast:
		return "crawl-delay"
	}
	return ""
}

// String returns the verdict's name as logs, placeholders and metrics
// spell it.
func (v Verdict) String() string { return nameOf(verdictNames[:], v, "verdict") }

// MarshalText implements encoding.TextMarshaler.
func (v Verdict) MarshalText() ([]byte, error) { return []byte(v.String()), nil }

// UnmarshalText implements encoding.TextUnmarshaler.
func (v *Verdict) UnmarshalText(b []byte) error { return parseName(verdictNames[:], b, "verdict", v) }

// Action is what the handler did with a bot request.
type Action uint8

// The actions, in the order metrics and reports list them.
const (
	// Passed: allowed (or in grace) and passed on.
	Passed Action = iota
	// Blocked: disallowed and refused (enforce mode).
	Blocked
	// Logged: disallowed, passed on and recorded (monitor mode).
	Logged
	// Served: a request for /robots.txt.
	Served

	numActions
)

var actionNames = [numActions]string{"passed", "blocked", "logged", "served"}

// Actions lists every action, for code that counts them.
var Actions = []Action{Passed, Blocked, Logged, Served}

// String returns the action's name as logs, placeholders and metrics
// spell it.
func (a Action) String() string { return nameOf(actionNames[:], a, "action") }

// MarshalText implements encoding.TextMarshaler.
func (a Action) MarshalText() ([]byte, error) { return []byte(a.String()), nil }

// UnmarshalText implements encoding.TextUnmarshaler.
func (a *Action) UnmarshalText(b []byte) error { return parseName(actionNames[:], b, "action", a) }

// NumVerdicts and NumActions size arrays indexed by Verdict and Action.
const (
	NumVerdicts = int(numVerdicts)
	NumActions  = int(numActions)
)

// nameOf is the name of v in names, or kind(v) when it has none.
func nameOf[T ~uint8](names []string, v T, kind string) string {
	if int(v) < len(names) {
		return names[v]
	}
	return fmt.Sprintf("%s(%d)", kind, uint8(v))
}

// parseName sets *v to the value named b, or says which names there are.
func parseName[T ~uint8](names []string, b []byte, kind string, v *T) error {
	for i, n := range names {
		if string(b) == n {
			*v = T(i)
			return nil
		}
	}
	return fmt.Errorf("unknown %s %q; want one of %s", kind, b, strings.Join(names, ", "))
}
