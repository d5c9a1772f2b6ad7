package caddymodule

import (
	"time"

	"github.com/robotsguard/caddy-robots-txt/robots"
)

// graceAllows reports whether an earlier version of robots.txt, one this
// client may still be obeying, allows the request that the current version
// disallows. RFC 9309 lets a crawler cache robots.txt for up to 24 hours,
// so a path disallowed a minute ago is no violation yet for a crawler that
// read the file this morning.
//
// When the client's last fetch is known, only the version it got counts
// (and none, if it already got the current one or its copy is older than
// the grace period); otherwise any version in force within the period does.
func graceAllows(snap *snapshot, ua, primary, alt string, fetch fetchRecord, fetched bool, grace time.Duration, now time.Time) bool {
	if grace <= 0 || len(snap.history) == 0 {
		return false
	}
	cutoff := now.Add(-grace)
	if fetched {
		if fetch.etag == snap.etag || fetch.at.Before(cutoff) {
			return false
		}
	}
	for i, old := range snap.history {
		until := snap.since
		if i > 0 {
			until = snap.history[i-1].since
		}
		if until.Before(cutoff) {
			break
		}
		if fetched && old.etag != fetch.etag {
			continue
		}
		if versionAllows(old, ua, primary, alt) {
			return true
		}
		if fetched {
			return false
		}
	}
	return false
}

// versionAllows judges a request against one version of the file, the way
// ServeHTTP judges it against the current one.
func versionAllows(snap *snapshot, ua, primary, alt string) bool {
	if snap.file == nil {
		return true
	}
	g, _ := snap.file.GroupForUserAgent(ua)
	return Decide(g, primary, alt).Allowed
}

// Decide judges both spellings of a path that JudgedPaths returns:
// disallowed if either is. A nil group allows everything.
func Decide(g *robots.Group, primary, alt string) robots.Verdict {
	v := g.Decide(primary)
	if v.Allowed && alt != "" {
		if v2 := g.Decide(alt); !v2.Allowed {
			return v2
		}
	}
	return v
}
