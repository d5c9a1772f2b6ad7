package judge

import (
	"github.com/robotsguard/caddy-robots-txt/caddymodule/crawlers"
	"github.com/robotsguard/caddy-robots-txt/robots"
)

// SignalRefuses returns the usage preference that refuses a crawler of
// category the path in any of its spellings: ai-train=no for training
// crawlers, ai-input=no for user-triggered and AI search fetchers; ""
// when none does. The crawler's group g speaks first; one that states
// nothing for a path defers to star, the * group. The handler (with
// signals enforce or monitor) and caddy robots check both judge by it.
func SignalRefuses(category crawlers.Category, g, star *robots.Group, paths Paths) string {
	if category == "" {
		return ""
	}
	for _, path := range paths.Spellings() {
		if path == "" {
			continue
		}
		if sig := signalRefusesPath(category, g, star, path); sig != "" {
			return sig
		}
	}
	return ""
}

func signalRefusesPath(category crawlers.Category, g, star *robots.Group, path string) string {
	sig := g.Signals(path)
	if sig.IsZero() {
		sig = star.Signals(path)
	}
	switch category {
	case crawlers.AITraining:
		if sig.AITrain == robots.No {
			return "ai-train=no"
		}
	case crawlers.AIUser, crawlers.AISearch:
		if sig.AIInput == robots.No {
			return "ai-input=no"
		}
	}
	return ""
}

// SignalDecides reports whether a content signal that refuses a request
// decides it, given how the rules judged it (v, a), and the action it then
// takes: Blocked with signals enforce, Logged with monitor. Signals are a
// setting of their own: what mode monitor (or grace) lets through, signals
// enforce still refuses; a request already refused needs no more, and one
// the rules already log as disallowed is not logged again by monitor.
func SignalDecides(v Verdict, a Action, enforce bool) (Action, bool) {
	if a == Blocked || v == Disallowed && !enforce {
		return a, false
	}
	if enforce {
		return Blocked, true
	}
	return Logged, true
}

// NamedWithSignal reports whether rule r, by which robots.txt judged a
// request the usage preferences refuse, is named with that refusal: a
// disallow rule is a reason too, an allow rule none.
func NamedWithSignal(r *robots.Rule) bool {
	return r != nil && r.Directive != robots.Allow
}
