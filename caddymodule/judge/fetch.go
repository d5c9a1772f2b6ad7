package judge

import (
	"net/http"
	"strings"
	"time"
)

// NotModifiedNamesVersion reports whether a GET of robots.txt that
// http.ServeContent answered 304 gave the client the version served, the
// one whose entity-tag is etag: whether its validators, the values of its
// If-None-Match and If-Modified-Since header fields, name that version, by
// its entity-tag or by a date no later than now. If-None-Match: * and a
// date in the future get a 304 too (RFC 9110, section 13.1), from a client
// that may never have read the file; they are no fetch of it.
//
// It is the handler's rule, and the report's for the 304s it reads in an
// access log (now is then the entry's time). A date earlier than the
// version's Last-Modified gets no 304, so the date is not compared with
// it here: neither the report nor a 304 to an entity-tag has it.
func NotModifiedNamesVersion(ifNoneMatch, ifModifiedSince, etag string, now time.Time) bool {
	if ifNoneMatch != "" {
		// As ServeContent, which reads If-Modified-Since only without
		// If-None-Match.
		for _, tag := range strings.Split(ifNoneMatch, ",") {
			tag = strings.TrimPrefix(strings.TrimSpace(tag), "W/")
			if tag == etag {
				return true
			}
		}
		return false
	}
	ims, err := http.ParseTime(ifModifiedSince)
	return err == nil && !ims.After(now)
}
