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
