package judge

import "testing"

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
