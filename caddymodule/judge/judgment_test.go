package judge

import (
	"testing"

	"go.uber.org/zap/zapcore"

	"github.com/robotsguard/caddy-robots-txt/robots"
)

// TestPlaceholderNames: every name the handler accepts in an operator's
// body is one Placeholder answers.
func TestPlaceholderNames(t *testing.T) {
	j := &Judgment{Judged: true, Fetched: true}
	for _, name := range PlaceholderNames {
		if _, ok := j.Placeholder(name); !ok {
			t.Errorf("Placeholder(%q) is not known", name)
		}
	}
	if _, ok := j.Placeholder("bott"); ok {
		t.Error(`Placeholder("bott") is known`)
	}
}

// TestLineOfNoLine: with no rule matched, or the trap's rule (no line of
// the file), the line is absent from the log and empty in a placeholder,
// not "line 0".
func TestLineOfNoLine(t *testing.T) {
	for _, j := range []*Judgment{
		{Judged: true},
		{Judged: true, Rule: &robots.Rule{Directive: robots.Disallow, Pattern: "/trap/"}, RuleSource: TrapSource},
	} {
		if v, ok := j.Placeholder(FieldLine); !ok || v != "" {
			t.Errorf("rule %v: line placeholder %v, %v; want \"\", true", j.Rule, v, ok)
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
