package caddymodule

import (
	"strings"

	"github.com/robotsguard/caddy-robots-txt/robots"
)

// identity is what the handler concluded about one User-Agent header
// against one snapshot of robots.txt.
type identity struct {
	snap     *snapshot // the file this was computed against
	bot      bool
	name     string // the file's agent name, a known crawler's name, or "generic"
	group    *robots.Group
	counters *botCounters // the live counts of name
}

// maxCachedUserAgent is the longest header kept in the cache; longer ones
// (rare, and often hostile) are classified each time instead of pinning
// their bytes in memory.
const maxCachedUserAgent = 512

// browserTokens are product tokens every browser sends. A robots.txt that
// names one ("User-agent: Mozilla") would otherwise turn every person into
// a bot; its group still applies to clients that are bots by their looks.
var browserTokens = map[string]bool{
	"mozilla": true, "applewebkit": true, "khtml": true, "gecko": true,
	"like": true, "chrome": true, "safari": true, "firefox": true,
	"version": true, "mobile": true, "compatible": true, "edg": true,
	"opera": true, "windows": true, "linux": true, "android": true,
	"macintosh": true, "iphone": true, "ipad": true,
}

// namesProduct reports whether ua names the agent name as a product, as
// crawlers do ("GPTBot/1.1", "(compatible; Bytespider;", a bare
// "CCBot"), rather than merely containing the word: a robots.txt group
// named "Intel" or "Mac" must not turn "Intel Mac OS X" browsers into bots.
// Browsers' own product tokens never count.
func namesProduct(ua, name string) bool {
	if len(name) < 3 || browserTokens[strings.ToLower(name)] {
		return false
	}
	for i := 0; i+len(name) <= len(ua); i++ {
		if !strings.EqualFold(ua[i:i+len(name)], name) {
			continue
		}
		if i > 0 && isWordByte(ua[i-1]) {
			continue
		}
		end := i + len(name)
		if end == len(ua) || ua[end] == '/' || ua[end] == ';' || ua[end] == ')' {
			return true
		}
	}
	return false
}

func isWordByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_'
}

// identify decides whether the client sending ua is a bot and, if so,
// which group of snap it must obey. Results are cached per header.
func (h *Handler) identify(ua string, snap *snapshot) identity {
	if id, ok := h.idents.Get(ua); ok && id.snap == snap {
		return id
	}
	id := h.classify(ua, snap)
	if len(ua) <= maxCachedUserAgent {
		h.idents.Add(ua, id)
	}
	return id
}

func (h *Handler) classify(ua string, snap *snapshot) identity {
	id := identity{snap: snap}
	if h.classifier.Exempt(ua) {
		return id
	}
	group, name := snap.file.GroupForUserAgent(ua)
	bot, known := h.classifier.Classify(ua)
	switch {
	case name != "" && namesProduct(ua, name):
		// The file names this client: whatever else it looks like, the
		// site's own robots.txt speaks to it.
		id.bot, id.name = true, name
	case bot && name != "" && !browserTokens[strings.ToLower(name)]:
		// A bot whose group the file names (Googlebot-Image/1.0 in a
		// googlebot group) goes by the file's name for it.
		id.bot, id.name = true, name
	case bot && known != "":
		id.bot, id.name = true, known
	case bot:
		id.bot, id.name = true, "generic"
	default:
		return id
	}
	id.group = group
	id.counters = countersFor(id.name)
	return id
}
