package judge

import (
	"encoding/json"
	"testing"
)

func TestVocabularyRoundTrip(t *testing.T) {
	for _, v := range Verdicts {
		var got Verdict
		if err := got.UnmarshalText([]byte(v.String())); err != nil || got != v {
			t.Errorf("verdict %v: read back %v, %v", v, got, err)
		}
	}
	for _, a := range Actions {
		var got Action
		if err := got.UnmarshalText([]byte(a.String())); err != nil || got != a {
			t.Errorf("action %v: read back %v, %v", a, got, err)
		}
	}
	if len(Verdicts) != NumVerdicts || len(Actions) != NumActions {
		t.Errorf("the lists and the counts disagree")
	}
	var v Verdict
	if err := v.UnmarshalText([]byte("maybe")); err == nil {
		t.Error("an unknown verdict must be an error")
	}
	if got := Verdict(200).String(); got != "verdict(200)" {
		t.Errorf("out of range: %q", got)
	}
}

func TestRecordReadsTypedValues(t *testing.T) {
	var r Record
	line := `{"bot":"GPTBot","group":"GPTBot","verdict":"disallowed","rule":"disallow: /","line":7,"mode":"monitor","action":"logged","fetched":false}`
	if err := json.Unmarshal([]byte(line), &r); err != nil {
		t.Fatal(err)
	}
	want := Record{Bot: "GPTBot", Group: "GPTBot", Verdict: Disallowed, Rule: "disallow: /", Line: 7, Mode: "monitor", Action: Logged}
	if r.Fetched == nil || *r.Fetched {
		t.Errorf("fetched: got %v, want false", r.Fetched)
	}
	r.Fetched = nil
	if r != want {
		t.Errorf("got %+v, want %+v", r, want)
	}
}

func TestRecordRequiresVerdictAndAction(t *testing.T) {
	for _, tc := range []struct {
		name, object string
		ok           bool
	}{
		{"both", `{"bot":"GPTBot","verdict":"allowed","action":"passed"}`, true},
		{"empty", `{}`, false},
		{"no verdict", `{"bot":"GPTBot","action":"passed"}`, false},
		{"no action", `{"bot":"GPTBot","verdict":"allowed"}`, false},
		{"a null action", `{"bot":"GPTBot","verdict":"allowed","action":null}`, false},
	} {
		var r Record
		if err := json.Unmarshal([]byte(tc.object), &r); (err == nil) != tc.ok {
			t.Errorf("%s: error %v, want ok %v", tc.name, err, tc.ok)
		}
	}
}
