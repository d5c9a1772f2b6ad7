package judge

import (
	"testing"

	"github.com/robotsguard/caddy-robots-txt/caddymodule/crawlers"
	"github.com/robotsguard/caddy-robots-txt/robots"
)

// TestSignalRefuses: a usage preference refuses the crawlers of its
// category only; the crawler's group speaks first, the * group when that
// says nothing; and any spelling of the path counts.
func TestSignalRefuses(t *testing.T) {
	f := robots.Parse([]byte("User-agent: *\nContent-Signal: search=yes, ai-train=no, ai-input=no\nAllow: /\n\n" +
		"User-agent: GPTBot\nContent-Signal: ai-train=yes\nAllow: /\n\n" +
		"User-agent: ClaudeBot\nAllow: /\n\n" +
		"User-agent: CCBot\nContent-Usage: /closed/ train-ai=n\nContent-Usage: /open/ train-ai=y\nAllow: /\n"))
	star := f.GroupFor("*")
	for _, tc := range []struct {
		name     string
		category crawlers.Category
		group    string
		target   string
		want     string
	}{
		{"training crawler of the * group", crawlers.AITraining, "*", "/x", "ai-train=no"},
		{"AI search crawler of the * group", crawlers.AISearch, "*", "/x", "ai-input=no"},
		{"user-triggered fetcher of the * group", crawlers.AIUser, "*", "/x", "ai-input=no"},
		{"search crawler", crawlers.Search, "*", "/x", ""},
		{"no category", "", "*", "/x", ""},
		{"its own group says yes", crawlers.AITraining, "gptbot", "/x", ""},
		{"its own group says nothing", crawlers.AITraining, "claudebot", "/x", "ai-train=no"},
		{"a path its group refuses", crawlers.AITraining, "ccbot", "/closed/a", "ai-train=no"},
		{"another spelling of that path", crawlers.AITraining, "ccbot", "/%63losed/a", "ai-train=no"},
		{"a path its group grants", crawlers.AITraining, "ccbot", "/open/a", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := SignalRefuses(tc.category, f.GroupFor(tc.group), star, PathsOfTarget(tc.target)); got != tc.want {
				t.Errorf("SignalRefuses = %q, want %q", got, tc.want)
			}
		})
	}
}

// TestSignalDecides: what mode monitor or grace lets through, signals
// enforce refuses and monitor logs; a refused request needs no more.
func TestSignalDecides(t *testing.T) {
	for _, tc := range []struct {
		v       Verdict
		a       Action
		enforce bool
		want    Action
		decides bool
	}{
		{Allowed, Passed, true, Blocked, true},
		{Allowed, Passed, false, Logged, true},
		{Grace, Passed, true, Blocked, true},
		{Grace, Passed, false, Logged, true},
		{Disallowed, Logged, true, Blocked, true},
		{Disallowed, Logged, false, Logged, false},
		{Disallowed, Blocked, true, Blocked, false},
		{Disallowed, Blocked, false, Blocked, false},
	} {
		if a, ok := SignalDecides(tc.v, tc.a, tc.enforce); a != tc.want || ok != tc.decides {
			t.Errorf("SignalDecides(%s, %s, enforce %v) = %s, %v; want %s, %v", tc.v, tc.a, tc.enforce, a, ok, tc.want, tc.decides)
		}
	}
}
