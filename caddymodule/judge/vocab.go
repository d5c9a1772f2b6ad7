package judge

import "fmt"

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

	numVerdicts
)

var verdictNames = [numVerdicts]string{"allowed", "disallowed", "grace"}

// Verdicts lists every verdict, for code that counts them.
var Verdicts = []Verdict{Allowed, Disallowed, Grace}

// String returns the verdict's name as logs, placeholders and metrics
// spell it.
func (v Verdict) String() string {
	if v < numVerdicts {
		return verdictNames[v]
	}
	return fmt.Sprintf("verdict(%d)", uint8(v))
}

// MarshalText implements encoding.TextMarshaler.
func (v Verdict) MarshalText() ([]byte, error) { return []byte(v.String()), nil }

// UnmarshalText implements encoding.TextUnmarshaler.
func (v *Verdict) UnmarshalText(b []byte) error {
	for i, n := range verdictNames {
		if string(b) == n {
			*v = Verdict(i)
			return nil
		}
	}
	return fmt.Errorf("unknown verdict %q; want one of allowed, disallowed, grace", b)
}

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
func (a Action) String() string {
	if a < numActions {
		return actionNames[a]
	}
	return fmt.Sprintf("action(%d)", uint8(a))
}

// MarshalText implements encoding.TextMarshaler.
func (a Action) MarshalText() ([]byte, error) { return []byte(a.String()), nil }

// UnmarshalText implements encoding.TextUnmarshaler.
func (a *Action) UnmarshalText(b []byte) error {
	for i, n := range actionNames {
		if string(b) == n {
			*a = Action(i)
			return nil
		}
	}
	return fmt.Errorf("unknown action %q; want one of passed, blocked, logged, served", b)
}

// NumVerdicts and NumActions size arrays indexed by Verdict and Action.
const (
	NumVerdicts = int(numVerdicts)
	NumActions  = int(numActions)
)
