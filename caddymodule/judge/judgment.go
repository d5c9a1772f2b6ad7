package judge

import (
	"encoding/json"
	"errors"
	"time"

	"go.uber.org/zap/zapcore"

	"github.com/robotsguard/caddy-robots-txt/caddymodule/verify"
	"github.com/robotsguard/caddy-robots-txt/robots"
)

// The access-log object of a bot request and its fields. The handler
// writes them (Judgment.MarshalLogObject), placeholders are named after
// them ({http.robots_txt.<field>}), and the report reads them (Record).
const (
	LogObject       = "robots_txt"
	FieldBot        = "bot"
	FieldGroup      = "group"
	FieldVerdict    = "verdict"
	FieldRule       = "rule"
	FieldLine       = "line"
	FieldMode       = "mode"
	FieldAction     = "action"
	FieldFetched    = "fetched"
	FieldFetchedAgo = "fetched_ago"
	FieldIdentity   = "identity"
	FieldVerifiedBy = "verified_by"
	FieldCategory   = "category"
	FieldViolation  = "violation"
	FieldSignal     = "signal"
	FieldRuleSource = "rule_source"
	FieldCapped     = "capped"
)

// TrapSource is the rule_source of the trap's rule, which the handler
// adds to every group of the robots.txt it serves and no line of the file
// holds.
const TrapSource = "trap"

// NoFile is the group of a request made while the site had no robots.txt.
// It is not "", the group of a bot the file names no group for: a report
// must tell "no rules for this bot" from "no rules at all". No agent name
// of a file can be spelt so.
const NoFile = "(no robots.txt)"

// Judgment is the handler's conclusion about one bot request. It is built
// once per request and then written to the access log, offered as
// placeholders and counted, so that all three say the same.
type Judgment struct {
	// Bot names the client: the file's agent name, a known crawler's
	// name, an operator's bots entry, or "generic".
	Bot string
	// Group is the agent names of the group the bot obeys, joined by
	// ", "; "" when the file has none for it; NoFile when there is no
	// file.
	Group   string
	Verdict Verdict
	Action  Action
	// Mode is the handler's mode, "enforce" or "monitor".
	Mode string
	// Rule is the rule that decided, or nil when none matched.
	Rule *robots.Rule
	// Judged is false for a fetch of /robots.txt, which is served, not
	// judged, and so has no fetch record of its own to report.
	Judged bool
	// Fetched tells whether this client was seen fetching robots.txt;
	// FetchedAgo is how long before the request, in seconds.
	Fetched    bool
	FetchedAgo int64
	// Identity is what checking the client's claim to be a crawler
	// concluded; VerifiedBy how a verified claim was verified.
	Identity   verify.Outcome
	VerifiedBy verify.Method
	// Category is the knowledge base's category of the crawler the
	// client claims to be; "" for others.
	Category string
	// RetryAfter is, for a request refused as too fast, how long the
	// client should wait. It is sent, not logged.
	RetryAfter time.Duration
	// RuleSource is, when robots.txt merges included lists, where the
	// deciding rule came from: "path:line" of the site's file or a list.
	RuleSource string
	// ServedLine is, when it is not Rule.Line, the deciding rule's line
	// in the robots.txt served: a rule of an included list below lines
	// the trap added; 0 otherwise.
	ServedLine int
	// Signal is the usage preference that decided a disallowed request
	// ("ai-train=no"), when one did rather than a rule.
	Signal string
	// Capped is set when the path's other spellings cost more to judge
	// than their budget (a path crafted against a file of thousands of
	// wildcard rules) and some were judged only as far as certain: the
	// path as sent was judged in full.
	Capped bool
}

// ViolationContentSignal is the violation field of a request the usage
// preferences refuse.
const ViolationContentSignal = "content-signal"

// ViolationImpostor and ViolationTrapped are the violation field of a
// request refused, or logged, by a policy rather than a rule: an
// impostor under "impostors block", an address the trap caught under
// "trap ... block". No rule of robots.txt disallows the path.
const (
	ViolationImpostor = "impostor"
	ViolationTrapped  = "trapped"
)

// Violation names the kind of violation the request is: "disallow",
// "crawl-delay", "content-signal", "impostor", "trapped", or "" for none.
func (j *Judgment) Violation() string {
	if j.Verdict == Disallowed && j.Signal != "" {
		return ViolationContentSignal
	}
	if j.Verdict == Disallowed && j.Rule == nil {
		switch j.Identity {
		case verify.Impostor:
			return ViolationImpostor
		case verify.Trapped:
			return ViolationTrapped
		}
	}
	return j.Verdict.Violation()
}

// Line is the line of the deciding rule; 0 when none decided, or when the
// rule is no line of the file (the trap's).
func (j *Judgment) Line() int {
	switch {
	case j.Rule == nil:
		return 0
	case j.ServedLine > 0:
		return j.ServedLine
	}
	return j.Rule.Line
}

// MarshalLogObject implements zapcore.ObjectMarshaler.
func (j *Judgment) MarshalLogObject(enc zapcore.ObjectEncoder) error {
	enc.AddString(FieldBot, j.Bot)
	enc.AddString(FieldGroup, j.Group)
	enc.AddString(FieldVerdict, j.Verdict.String())
	if v := j.Violation(); v != "" {
		enc.AddString(FieldViolation, v)
	}
	if j.Signal != "" {
		enc.AddString(FieldSignal, j.Signal)
	}
	if j.Rule != nil {
		enc.AddString(FieldRule, j.Rule.String())
		if l := j.Line(); l > 0 {
			// The trap's rule is no line of the file.
			enc.AddInt(FieldLine, l)
		}
		if j.RuleSource != "" {
			enc.AddString(FieldRuleSource, j.RuleSource)
		}
	}
	enc.AddString(FieldMode, j.Mode)
	enc.AddString(FieldAction, j.Action.String())
	enc.AddString(FieldIdentity, j.Identity.String())
	if j.VerifiedBy != verify.None {
		enc.AddString(FieldVerifiedBy, j.VerifiedBy.String())
	}
	if j.Category != "" {
		enc.AddString(FieldCategory, j.Category)
	}
	if j.Judged {
		enc.AddBool(FieldFetched, j.Fetched)
		if j.Fetched {
			enc.AddInt64(FieldFetchedAgo, j.FetchedAgo)
		}
	}
	if j.Capped {
		enc.AddBool(FieldCapped, true)
	}
	return nil
}

// PlaceholderNames are the names Placeholder knows, for an operator's
// text that uses them.
var PlaceholderNames = []string{
	FieldBot, FieldGroup, FieldVerdict, FieldRule, FieldLine, FieldMode, FieldAction, FieldViolation,
	FieldSignal, FieldRuleSource, FieldIdentity, FieldVerifiedBy, FieldCategory, FieldFetched, FieldFetchedAgo,
	FieldCapped,
}

// Placeholder returns the value of the field named name, as the
// placeholder {http.robots_txt.<name>} shows it; ok is false for an
// unknown name. A field the judgment does not have (no line, no fetch) is
// nil: a body or header shows it empty, as the replacer shows nil, rather
// than the placeholder's name, which it shows for an unknown one; and
// log_append logs it null, so that the field keeps one JSON type.
func (j *Judgment) Placeholder(name string) (v any, ok bool) {
	switch name {
	case FieldBot:
		return j.Bot, true
	case FieldGroup:
		return j.Group, true
	case FieldVerdict:
		return j.Verdict.String(), true
	case FieldRule:
		return j.Rule.String(), true
	case FieldLine:
		if l := j.Line(); l > 0 {
			return l, true
		}
		return nil, true // as the log has it: no line, not line 0
	case FieldMode:
		return j.Mode, true
	case FieldAction:
		return j.Action.String(), true
	case FieldViolation:
		return j.Violation(), true
	case FieldSignal:
		return j.Signal, true
	case FieldRuleSource:
		return j.RuleSource, true
	case FieldIdentity:
		return j.Identity.String(), true
	case FieldVerifiedBy:
		return j.VerifiedBy.String(), true
	case FieldCategory:
		return j.Category, true
	case FieldFetched:
		if !j.Judged {
			return nil, true // the fetch of robots.txt itself
		}
		return j.Fetched, true
	case FieldFetchedAgo:
		if !j.Judged || !j.Fetched {
			return nil, true
		}
		return j.FetchedAgo, true
	case FieldCapped:
		return j.Capped, true
	}
	return nil, false
}

// Record is a Judgment as read back from a JSON access log: the
// robots_txt object of an entry. Its JSON names are the Field constants
// (a test holds them together).
type Record struct {
	Bot        string   `json:"bot"`
	Group      string   `json:"group"`
	Verdict    Verdict  `json:"verdict"`
	Rule       string   `json:"rule"`
	Line       int      `json:"line"`
	Mode       string   `json:"mode"`
	Action     Action   `json:"action"`
	Fetched    *bool    `json:"fetched"`
	FetchedAgo *float64 `json:"fetched_ago"`
	Identity   string   `json:"identity"`
	VerifiedBy string   `json:"verified_by"`
	Category   string   `json:"category"`
	Violation  string   `json:"violation"`
	Signal     string   `json:"signal"`
	RuleSource string   `json:"rule_source"`
}

// UnmarshalJSON implements json.Unmarshaler. An object without a verdict
// or an action is refused, as one with a verdict or action of no name is:
// the handler writes both in every one, and their zero values (allowed,
// passed) would count it as a request of a kind it never said.
func (r *Record) UnmarshalJSON(b []byte) error {
	type record Record // without this method
	var v struct {
		record
		// Shallower than record's, so these get the fields.
		Verdict *Verdict `json:"verdict"`
		Action  *Action  `json:"action"`
	}
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	if v.Verdict == nil || v.Action == nil {
		return errors.New("robots_txt object without a verdict or an action")
	}
	*r = Record(v.record)
	r.Verdict, r.Action = *v.Verdict, *v.Action
	return nil
}

// Interface guards
var _ zapcore.ObjectMarshaler = (*Judgment)(nil)
