package judge

import (
	"net/url"
	"strconv"
	"testing"
	"time"

	"github.com/robotsguard/caddy-robots-txt/robots"
)

// versions publishes bodies one after another at now, each following the
// one before within window, and returns the last.
func versions(now time.Time, window time.Duration, bodies ...string) []*Version {
	var out []*Version
	var prev *Version
	for i, b := range bodies {
		v := NewVersion(robots.Parse([]byte(b)), strconv.Itoa(i))
		v.Follow(prev, now, window)
		out = append(out, v)
		prev = v
	}
	return out
}

func request(path string, now time.Time) *Request {
	u, _ := url.ParseRequestURI(path)
	return &Request{UA: "curl/8", Paths: PathsOf(u), Now: now}
}

func TestGraceWindowAndOff(t *testing.T) {
	now := time.Now()
	vs := versions(now, time.Hour, "User-agent: *\nDisallow: /a\n", "User-agent: *\nDisallow: /b\n")
	v1, cur := vs[0], vs[1]
	if !cur.GraceAllows(request("/b", now), time.Hour) {
		t.Error("within the window, version 1 allows /b")
	}
	if cur.GraceAllows(request("/b", now.Add(2*time.Hour)), time.Hour) {
		t.Error("two hours later, version 1 is out of the window")
	}
	if cur.GraceAllows(request("/b", now), 0) {
		t.Error("grace 0 is off")
	}
	stale := request("/b", now)
	stale.Fetch, stale.Fetched = Fetch{At: now.Add(-2 * time.Hour), ETag: v1.ETag}, true
	if cur.GraceAllows(stale, time.Hour) {
		t.Error("a copy fetched before the window is stale: no grace")
	}
	if off := versions(now, 0, "x", "y"); len(off[1].Earlier) != 0 {
		t.Error("with grace off no history is kept")
	}
	bodies := make([]string, 3*MaxEarlier)
	for i := range bodies {
		bodies[i] = string(rune('a' + i%26))
	}
	long := versions(now, time.Hour, bodies...)
	if n := len(long[len(long)-1].Earlier); n != MaxEarlier {
		t.Errorf("history of %d versions, want the cap %d", n, MaxEarlier)
	}
	for _, v := range long[len(long)-1].Earlier {
		if len(v.Earlier) != 0 {
			t.Fatal("an earlier version must not hold its own history")
		}
	}
}
