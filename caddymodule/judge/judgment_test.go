package judge

import (
	"testing"

	"go.uber.org/zap/zapcore"

	"github.com/robotsguard/caddy-robots-txt/caddymodule/verify"
	"github.com/robotsguard/caddy-robots-txt/robots"
)

// TestPlaceholderAbsent: a field the judgment lacks is nil, which a body
// shows empty and log_append logs null, so that each field keeps one JSON
// type (a number or null, not a number or "").
func TestPlaceholderAbsent(t *testing.T) {
	for _, c := range []struct {
		what, name string
		j          *Judgment
	}{
		{"no line", FieldLine, &Judgment{Judged: true}},
		{"no fetch", FieldFetchedAgo, &Judgment{Judged: true}},
		{"the fetch of robots.txt", FieldFetched, &Judgment{Action: Served}},
		{"the fetch of robots.txt", FieldFetchedAgo, &Judgment{Action: Served}},
	} {
		if v, ok := c.j.Placeholder(c.name); !ok || v != nil {
			t.Errorf("%s: Placeholder(%q) = %#v, %v; want nil, true", c.what, c.name, v, ok)
		}
	}
}

// TestPlaceholderNames: every name the handler accepts in an operator's
// body is one Placeholder answers, whatever the judgment holds: the
// replacer of a header, a body or respond leaves an unknown placeholder as
// written.
func TestPlaceholderNames(t *testing.T) {
	for _, c := range []struct {
		what string
		j    *Judgment
	}{
		{"fetched", &Judgment{Judged: true, Fetched: true}},
		{"not fetched", &Judgment{Judged: true}},
		{"a fetch of robots.txt", &Judgment{Action: Served}},
	} {
		for _, name := range PlaceholderNames {
			if _, ok := c.j.Placeholder(name); !ok {
				t.Errorf("%s: Placeholder(%q) is not known", c.what, name)
			}
		}
		if _, ok := c.j.Placeholder("bott"); ok {
			t.Errorf(`%s: Placeholder("bott") is known`, c.what)
		}
	}
}

// TestLineOfNoLine: with no rule matched, or the trap's rule (no line of
// the file), the line is absent from the log and nil in a placeholder
// (shown empty), not "line 0".
func TestLineOfNoLine(t *testing.T) {
	for _, j := range []*Judgment{
		{Judged: true},
		{Judged: true, Rule: &robots.Rule{Directive: robots.Disallow, Pattern: "/trap/"}, RuleSource: TrapSource},
	} {
		if v, ok := j.Placeholder(FieldLine); !ok || v != nil {
			t.Errorf("rule %v: line placeholder %#v, %v; want nil (shown empty), true", j.Rule, v, ok)
		}
		enc := zapcore.NewMapObjectEncoder()
		if err := j.MarshalLogObject(enc); err != nil {
			t.Fatal(err)
		}
		if _, has := enc.Fields[FieldLine]; has {
			t.Errorf("rule %v: the log has line %v", j.Rule, enc.Fields[FieldLine])
		}
	}
	j := &Judgment{Judged: true, Rule: &robots.Rule{Directive: robots.Disallow, Pattern: "/private/", Line: 3}}
	if v, _ := j.Placeholder(FieldLine); v != 3 {
		t.Errorf("line placeholder %v, want 3", v)
	}
}

// TestViolation: a request is named by what it broke: a rule, the pace,
// a usage preference, or, refused everywhere with no rule, the impostor
// or trap policy that refused it.
func TestViolation(t *testing.T) {
	rule := &robots.Rule{Directive: robots.Disallow, Pattern: "/private/"}
	for _, tc := range []struct {
		name string
		j    Judgment
		want string
	}{
		{"allowed", Judgment{Verdict: Allowed}, ""},
		{"a rule", Judgment{Verdict: Disallowed, Rule: rule}, "disallow"},
		{"an impostor's rule", Judgment{Verdict: Disallowed, Rule: rule, Identity: verify.Impostor}, "disallow"},
		{"too fast", Judgment{Verdict: TooFast}, "crawl-delay"},
		{"a usage preference", Judgment{Verdict: Disallowed, Signal: "ai-train=no"}, "content-signal"},
		{"impostors block", Judgment{Verdict: Disallowed, Identity: verify.Impostor}, "impostor"},
		{"trap block", Judgment{Verdict: Disallowed, Identity: verify.Trapped}, "trapped"},
	} {
		if got := tc.j.Violation(); got != tc.want {
			t.Errorf("%s: violation %q, want %q", tc.name, got, tc.want)
		}
	}
}
