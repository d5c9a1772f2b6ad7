package caddymodule

import (
	"net/http"
	"net/url"
	"sync"

	"github.com/robotsguard/caddy-robots-txt/caddymodule/crawlers"
	"github.com/robotsguard/caddy-robots-txt/caddymodule/judge"
	"github.com/robotsguard/caddy-robots-txt/config"
)

// headerSlots hands out one-element value slices for the Content-Usage
// header, each a response's own: Caddy's header replace ops (a deferred
// "header >Content-Usage find replace") write a response's values in
// place, so a slice shared between responses would be a data race, and
// the replacement would stand in every later response. Carved from
// arrays of 256, a response costs a 256th of an allocation; a cursor is
// used by one goroutine at a time.
var headerSlots = sync.Pool{New: func() any { return new(slotCursor) }}

type slotCursor struct{ free []string }

// headerValue returns v as a header's values, in a slice of its own.
func headerValue(v string) []string {
	c := headerSlots.Get().(*slotCursor)
	if len(c.free) == 0 {
		c.free = make([]string, 256)
	}
	s := c.free[:1:1]
	c.free = c.free[1:]
	headerSlots.Put(c)
	s[0] = v
	return s
}

// setContentUsage adds the Content-Usage header the * group states for
// the path, so that a crawler that never read robots.txt still sees the
// site's preferences. People's responses get it too: it is metadata.
func (h *Handler) setContentUsage(w http.ResponseWriter, snap *snapshot, served string, u *url.URL) {
	if h.ContentUsageHeader == "off" || snap.File == nil {
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
	hdr := w.Header()
	if _, set := hdr["Content-Usage"]; set {
		// The site's own (header Content-Usage …, run before this
		// handler) is what the operator means for this response.
		return
	}
	hdr["Content-Usage"] = headerValue(v)
}

// signalRefuses returns the usage preference that refuses this crawler
// the path (see judge.SignalRefuses), with signals enforce or monitor.
func (h *Handler) signalRefuses(id identity, paths judge.Paths) string {
	if h.Signals == "" || h.Signals == config.CrawlDelayOff || id.category == "" {
		return ""
	}
	return judge.SignalRefuses(crawlers.Category(id.category), id.Group, id.snap.File.GroupFor("*"), paths)
}
