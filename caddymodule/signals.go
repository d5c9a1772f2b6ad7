package caddymodule

import (
	"net/http"
	"net/url"

	"github.com/robotsguard/caddy-robots-txt/caddymodule/crawlers"
	"github.com/robotsguard/caddy-robots-txt/caddymodule/judge"
	"github.com/robotsguard/caddy-robots-txt/config"
	"github.com/robotsguard/caddy-robots-txt/robots"
)

// contentUsageValues holds a one-element slice per header value that
// Signals.ContentUsage can return, so that setting the header on every
// response allocates nothing. Each has a capacity of one: a handler that
// adds a value appends to a copy, never to the shared array.
var contentUsageValues = map[string][]string{}

func init() {
	for _, ai := range []robots.Pref{robots.Unset, robots.Yes, robots.No} {
		for _, search := range []robots.Pref{robots.Unset, robots.Yes, robots.No} {
			if v := (robots.Signals{AITrain: ai, Search: search}).ContentUsage(); v != "" {
				contentUsageValues[v] = []string{v}[:1:1]
			}
		}
	}
}

// setContentUsage adds the Content-Usage header the * group states for
// the path, so that a crawler that never read robots.txt still sees the
// site's preferences. People's responses get it too: it is metadata.
func (h *Handler) setContentUsage(w http.ResponseWriter, snap *snapshot, served string, u *url.URL) {
	if h.ContentUsageHeader == "off" || snap.File == nil {
		return
	}
	if _, set := w.Header()["Content-Usage"]; set {
		// The site's own (header Content-Usage …, run before this
		// handler) is what the operator means for this response.
		return
	}
	// The preferences of what Caddy's file server serves: the file a
	// final dot-segment leaves ("/docs/a.pdf/." is "/docs/a.pdf"), else
	// the resolved path. Another spelling's could say more than the file
	// has.
	path := served
	if f := judge.FileOf(served, u.Path); f != "" {
		path = f
	}
	// With the query, as the rules and signals enforce match it: "/*.pdf$"
	// does not state what "/a.pdf?x=1" may be used for.
	v := snap.File.GroupFor("*").SignalsOf(path, u.RawQuery, u.ForceQuery).ContentUsage()
	if v == "" {
		return
	}
	if vs, ok := contentUsageValues[v]; ok {
		w.Header()["Content-Usage"] = vs
		return
	}
	w.Header().Set("Content-Usage", v)
}

// signalRefuses returns the usage preference that refuses this crawler
// the path (see judge.SignalRefuses), with signals enforce or monitor.
func (h *Handler) signalRefuses(id identity, paths judge.Paths) string {
	if h.Signals == "" || h.Signals == config.CrawlDelayOff || id.category == "" {
		return ""
	}
	return judge.SignalRefuses(crawlers.Category(id.category), id.Group, id.snap.File.GroupFor("*"), paths)
}
