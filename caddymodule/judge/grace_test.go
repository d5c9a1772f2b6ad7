package judge

import (
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/robotsguard/caddy-robots-txt/robots"
)

// history publishes the bodies one after another, an hour's grace
// window apart by a minute each, and returns the versions. A body of
// "-" stands for no robots.txt.
func history(start time.Time, window time.Duration, bodies ...string) []*Version {
	var out []*Version
	var prev *Version
	for i, b := range bodies {
		var f *robots.File
		if b != "-" {
			f = robots.Parse([]byte(b))
		}
		v := NewVersion(f, strconv.Itoa(i))
		v.Follow(prev, start.Add(time.Duration(i)*time.Minute), window)
		out = append(out, v)
		prev = v
	}
	return out
}

func request(path string, now time.Time, fetched *Version, at time.Time) *Request {
	u, _ := url.ParseRequestURI(path)
	r := &Request{UA: "curl/8", Paths: PathsOf(u), Now: now}
	if fetched != nil {
		r.Fetch, r.Fetched = Fetch{At: at, ETag: fetched.ETag}, true
	}
	return r
}

func TestGraceNeedsEvidence(t *testing.T) {
	start := time.Now()
	const (
		allowB = "User-agent: *\nDisallow: /a\n"
		denyB  = "User-agent: *\nDisallow: /b\n"
	)
	vs := history(start, time.Hour, allowB, allowB+"#unserved\n", denyB)
	v0, cur := vs[0], vs[2]
	now := start.Add(5 * time.Minute)

	for _, tc := range []struct {
		name   string
		window time.Duration
		r      *Request
		want   bool
	}{
		{"fetched the earlier version, which allows the path", time.Hour, request("/b", now, v0, start), true},
		{"never seen fetching robots.txt", time.Hour, request("/b", now, nil, time.Time{}), false},
		{"fetched the current version", time.Hour, request("/b", now, cur, now), false},
		{"fetched before the window", time.Hour, request("/b", start.Add(2*time.Hour), v0, start), false},
		{"grace off", 0, request("/b", now, v0, start), false},
		{"the fetched version disallows too", time.Hour, request("/a", now, v0, start), false},
	} {
		if got := cur.GraceAllows(tc.r, tc.window); got != tc.want {
			t.Errorf("%s: grace %v, want %v", tc.name, got, tc.want)
		}
	}
}

// TestNoFileIsAGraceSource: to Google's reading a missing robots.txt
// allows everything, and may be kept as a file is: a bot seen fetching it
// (a deploy's moment, or before the site had a file) is excused where it
// allowed, within the window; one not seen fetching it is not.
func TestNoFileIsAGraceSource(t *testing.T) {
	start := time.Now()
	vs := history(start, time.Hour, "-", "User-agent: *\nDisallow: /b\n")
	none, cur := vs[0], vs[1]
	if !cur.GraceAllows(request("/b", start.Add(2*time.Minute), none, start), time.Hour) {
		t.Error("a fetch while there was no file gives no grace")
	}
	if cur.GraceAllows(request("/b", start.Add(2*time.Minute), nil, start), time.Hour) {
		t.Error("grace without a fetch")
	}
	if cur.GraceAllows(request("/b", start.Add(2*time.Hour), none, start), time.Hour) {
		t.Error("grace past the window")
	}
}

func TestHistoryBounds(t *testing.T) {
	start := time.Now()
	if off := history(start, 0, "x", "y"); len(off[1].Earlier) != 0 {
		t.Error("with grace off no history is kept")
	}
	bodies := make([]string, 3*MaxEarlier)
	for i := range bodies {
		bodies[i] = "User-agent: *\nDisallow: /" + strconv.Itoa(i) + "\n"
	}
	long := history(start, 24*time.Hour, bodies...)
	last := long[len(long)-1]
	if n := len(last.Earlier); n != MaxEarlier {
		t.Errorf("history of %d versions, want the cap %d", n, MaxEarlier)
	}
	for _, v := range last.Earlier {
		if len(v.Earlier) != 0 {
			t.Fatal("an earlier version must not hold its own history")
		}
	}
	// Versions that went out of force before the window are dropped.
	late := NewVersion(robots.Parse([]byte("x")), "late")
	late.Follow(last, start.Add(48*time.Hour), 24*time.Hour)
	if n := len(late.Earlier); n != 1 {
		t.Errorf("after a day, %d earlier versions are kept, want only the one in force until now", n)
	}
}

// TestHistoryBoundsBytes: the earlier versions hold MaxEarlierBytes of
// text in all, the served ones kept before the others, and the newest
// kept whatever its size; small files keep MaxEarlier versions.
func TestHistoryBoundsBytes(t *testing.T) {
	// sized returns a served text of n bytes, distinct for i.
	sized := func(i, n int) string {
		head := "User-agent: *\nDisallow: /" + strconv.Itoa(i) + "\n"
		return head + strings.Repeat("#", n-len(head)-1) + "\n"
	}
	for _, tc := range []struct {
		name     string
		sizes    []int  // the versions' sizes, oldest first
		unserved []bool // versions never served
		keep     []int  // the versions kept as the last one's Earlier, newest first
	}{
		{"small files", repeatInt(2*MaxEarlier, 100), nil, countDown(2*MaxEarlier-2, MaxEarlier)},
		{"five fit", repeatInt(12, MaxEarlierBytes/5), nil, []int{10, 9, 8, 7, 6}},
		{"one over the rest", []int{1000, 1000, MaxEarlierBytes - 500, 1000}, nil, []int{2}},
		{"served first", []int{MaxEarlierBytes / 2, MaxEarlierBytes / 3, MaxEarlierBytes / 3, MaxEarlierBytes / 3, 100},
			[]bool{false, true, true, false, false}, []int{3, 0}},
		{"newest over the cap", []int{1000, MaxEarlierBytes + 1000, 1000}, nil, []int{1}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			start := time.Now()
			var cur *Version
			etags := map[string]int{}
			for i, n := range tc.sizes {
				body := sized(i, n)
				v := NewVersion(robots.Parse([]byte(body), robots.MaxSize(2*MaxEarlierBytes)), strconv.Itoa(i))
				if v.File.Size() != n {
					t.Fatalf("version %d has %d bytes, want %d", i, v.File.Size(), n)
				}
				etags[v.ETag] = i
				v.Follow(cur, start.Add(time.Duration(i)*time.Minute), 24*time.Hour)
				if i >= len(tc.unserved) || !tc.unserved[i] {
					v.MarkServed()
				}
				cur = v
			}
			var kept []int
			for _, e := range cur.Earlier {
				kept = append(kept, etags[e.ETag])
			}
			if fmt.Sprint(kept) != fmt.Sprint(tc.keep) {
				t.Errorf("kept versions %v, want %v", kept, tc.keep)
			}
		})
	}
}

func repeatInt(n, v int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = v
	}
	return out
}

// countDown returns from, from-1, ..., n numbers in all.
func countDown(from, n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = from - i
	}
	return out
}

// TestHistoryKeepsWhatWasServed: past MaxEarlier, the versions nobody was
// served go first, and a text is kept once, so a file rewritten often (a
// timestamp in a comment, a flapping deploy) does not push out the
// version a bot fetched before.
func TestHistoryKeepsWhatWasServed(t *testing.T) {
	const (
		read  = "User-agent: *\nDisallow: /a\n"
		later = "User-agent: *\nDisallow: /b\n"
	)
	stamped := func(i int) string { return "# generated " + strconv.Itoa(i) + "\n" + later }
	flapping := func(i int) string { return []string{later, later + "# x\n"}[i%2] }
	for _, tc := range []struct {
		name    string
		body    func(i int) string // the versions after the one read
		served  bool               // they were served too
		want    bool               // grace for /b from the version read
		maxKept int
	}{
		{"unserved rewrites past the cap", stamped, false, true, MaxEarlier},
		{"two texts flapping", flapping, true, true, 3},
		{"served rewrites past the cap", stamped, true, false, MaxEarlier},
	} {
		start := time.Now()
		first := NewVersion(robots.Parse([]byte(read)), read) // a fetch names a text
		first.MarkServed()
		first.Follow(nil, start, 24*time.Hour)
		cur := first
		for i := range 3 * MaxEarlier {
			b := tc.body(i)
			v := NewVersion(robots.Parse([]byte(b)), b)
			v.Follow(cur, start.Add(time.Duration(i+1)*time.Second), 24*time.Hour)
			if tc.served {
				v.MarkServed()
			}
			cur = v
		}
		now := start.Add(time.Hour)
		if got := cur.GraceAllows(request("/b", now, first, start), 24*time.Hour); got != tc.want {
			t.Errorf("%s: grace %v, want %v", tc.name, got, tc.want)
		}
		if n := len(cur.Earlier); n > tc.maxKept {
			t.Errorf("%s: %d earlier versions kept, want at most %d", tc.name, n, tc.maxKept)
		}
	}
}

// TestHistoryKeepsServedTextSeenAgain: a text served once, in force again
// later without being served, is still a text a bot may obey: past
// MaxEarlier it is kept before the versions nobody was served.
func TestHistoryKeepsServedTextSeenAgain(t *testing.T) {
	const (
		read  = "User-agent: *\nDisallow: /a\n"
		later = "User-agent: *\nDisallow: /b\n"
	)
	start := time.Now()
	at := func(i int) time.Time { return start.Add(time.Duration(i) * time.Second) }
	first := NewVersion(robots.Parse([]byte(read)), read)
	first.MarkServed()
	first.Follow(nil, at(0), 24*time.Hour)
	cur := first
	next := func(i int, body string) {
		v := NewVersion(robots.Parse([]byte(body)), body)
		v.Follow(cur, at(i), 24*time.Hour)
		cur = v
	}
	// Half-written, then the same text again (a rewrite in place), in
	// force a moment without a fetch; then a generator's stamped texts.
	next(1, "User-agent: *\n")
	next(2, read)
	for i := range MaxEarlier + 4 {
		next(3+i, "# generated "+strconv.Itoa(i)+"\n"+later)
	}
	if !cur.GraceAllows(request("/b", at(MaxEarlier+10), first, at(0)), 24*time.Hour) {
		t.Errorf("the text a bot fetched was dropped from the history: %d earlier versions kept", len(cur.Earlier))
	}
}

// A group's name goes into every bot request's access log entry, the
// violation log line, the placeholders and the events: a file from an
// upstream or a tenant that puts 20,000 agents in one group must not make
// each request of a curl log 200 KB twice over.
func TestGroupNameBounded(t *testing.T) {
	var b strings.Builder
	b.WriteString("User-agent: *\n")
	const n = 20000
	for i := range n {
		fmt.Fprintf(&b, "User-agent: agent%c%c%c\n", 'a'+i%26, 'a'+i/26%26, 'a'+i/676%26)
	}
	b.WriteString("Disallow: /private/\n")
	f := robots.Parse([]byte(b.String()))
	v := NewVersion(f, "x")
	name := v.GroupName(f.GroupFor("*"))
	if len(name) > maxGroupNameLen+32 {
		t.Fatalf("group name is %d bytes, want at most about %d", len(name), maxGroupNameLen)
	}
	if !strings.HasPrefix(name, "*, agentaaa, agentbaa, ") || !strings.HasSuffix(name, " more") {
		t.Errorf("group name = %.80q…%q, want the first agents and how many more", name, name[max(0, len(name)-40):])
	}

	small := robots.Parse([]byte("User-agent: GPTBot\nUser-agent: ClaudeBot\nUser-agent: CCBot\nDisallow: /\n"))
	if got := NewVersion(small, "y").GroupName(small.Groups()[0]); got != "GPTBot, ClaudeBot, CCBot" {
		t.Errorf("small group name = %q, want every agent", got)
	}
}

// TestDelaySince: a version whose Crawl-delays are those of the version
// before keeps when they came into force; any change to them dates them
// from the version's own load. Else a bot that used its burst before a
// delay was lowered would owe, after a second edit that changed no delay,
// for the time between the edits at the old delay.
func TestDelaySince(t *testing.T) {
	const star1 = "User-agent: *\nCrawl-delay: 1\n"
	for _, tc := range []struct {
		name          string
		before, after string // "-": no robots.txt
		inherited     bool
	}{
		{"a Disallow line added", star1, star1 + "Disallow: /x\n", true},
		{"a group without a delay added", star1, star1 + "\nUser-agent: GPTBot\nDisallow: /\n", true},
		{"no file, then one without delays", "-", "User-agent: *\nDisallow: /x\n", true},
		{"groups reordered, agents in another case",
			"User-agent: ABot\nCrawl-delay: 5\n\nUser-agent: BBot\nCrawl-delay: 2\n",
			"User-agent: bbot\nCrawl-delay: 2\n\nUser-agent: abot\nCrawl-delay: 5\n", true},
		{"a delay lowered", "User-agent: *\nCrawl-delay: 30\n", star1, false},
		{"a delay raised", star1, "User-agent: *\nCrawl-delay: 2\n", false},
		{"a group added with a delay", star1, star1 + "\nUser-agent: SlowBot\nCrawl-delay: 10\n", false},
		{"a delay removed", star1 + "\nUser-agent: SlowBot\nCrawl-delay: 10\n", star1 + "\nUser-agent: SlowBot\nDisallow: /x\n", false},
		{"a group with a delay removed", star1 + "\nUser-agent: SlowBot\nCrawl-delay: 10\n", star1, false},
		{"an agent moved to a group with another delay",
			"User-agent: ABot\nUser-agent: BBot\nCrawl-delay: 5\n\n" + star1,
			"User-agent: ABot\nCrawl-delay: 5\n\nUser-agent: BBot\n" + star1, false},
		{"no file, then one with a delay", "-", star1, false},
	} {
		for _, window := range []time.Duration{time.Hour, 0} {
			start := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
			vs := history(start, window, "User-agent: *\nCrawl-delay: 60\n", tc.before, tc.after)
			want := vs[2].Since
			if tc.inherited {
				want = vs[1].Since
			}
			if got := vs[2].DelaySince; !got.Equal(want) {
				t.Errorf("%s (grace %v): delays in force since %v, want %v", tc.name, window, got.Sub(start), want.Sub(start))
			}
		}
	}
}

// TestDelaySinceCarriesOn: the time the delays came in is carried
// through any number of versions that keep them, and into the earlier
// versions kept for grace.
func TestDelaySinceCarriesOn(t *testing.T) {
	start := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	const lowered = "User-agent: *\nCrawl-delay: 1\n"
	vs := history(start, time.Hour, "User-agent: *\nCrawl-delay: 30\n", lowered, lowered+"Disallow: /a\n", lowered+"Disallow: /b\n")
	last := vs[len(vs)-1]
	if !last.DelaySince.Equal(vs[1].Since) {
		t.Errorf("two edits after the delay was lowered: delays in force since %v, want %v", last.DelaySince.Sub(start), vs[1].Since.Sub(start))
	}
	if e := last.Earlier[0]; !e.DelaySince.Equal(vs[1].Since) {
		t.Errorf("the version before kept for grace: delays in force since %v, want %v", e.DelaySince.Sub(start), vs[1].Since.Sub(start))
	}
}

// TestLoadStored: the stored versions are loaded when a request first
// needs them, once, within what the Earlier versions leave of
// MaxEarlierBytes; the versions that follow keep them for the grace
// window from the first version, and not past it.
func TestLoadStored(t *testing.T) {
	start := time.Now()
	const window = 24 * time.Hour
	parse := func(body string) *robots.File { return robots.Parse([]byte(body)) }
	first := NewVersion(parse("User-agent: *\nDisallow: /b\n"), "first")
	first.Follow(nil, start, window)
	var loads, budget int
	first.LoadStored(func(known func(string) bool, b int) []*Version {
		loads, budget = loads+1, b
		if known("first") != true || known("old") {
			t.Error("known does not tell the texts the version has")
		}
		old := NewVersion(parse("User-agent: *\nDisallow: /a\n"), "old")
		old.MarkServed()
		return []*Version{old}
	})
	next := NewVersion(parse("User-agent: *\nDisallow: /b\nDisallow: /c\n"), "next")
	next.Follow(first, start.Add(time.Minute), window)
	now := start.Add(time.Hour)
	for _, tc := range []struct {
		name  string
		r     *Request
		grace bool
		loads int
	}{
		{"a fetch of the first version", request("/b", now, first, now.Add(-time.Minute)), false, 0},
		{"a fetch of a stored version", request("/b", now, &Version{ETag: "old"}, now.Add(-time.Minute)), true, 1},
		{"again", request("/c", now, &Version{ETag: "old"}, now.Add(-time.Minute)), true, 1},
	} {
		if got := next.GraceAllows(tc.r, window); got != tc.grace || loads != tc.loads {
			t.Errorf("%s: grace %v after %d loads, want %v after %d", tc.name, got, loads, tc.grace, tc.loads)
		}
	}
	if want := MaxEarlierBytes - first.File.Size(); budget != want {
		t.Errorf("loaded within %d bytes, want what the earlier version leaves, %d", budget, want)
	}
	late := NewVersion(parse("User-agent: *\nDisallow: /\n"), "late")
	late.Follow(next, start.Add(window+time.Minute), window)
	if late.GraceAllows(request("/b", late.Since, &Version{ETag: "old"}, late.Since.Add(-time.Minute)), window) {
		t.Error("a stored version excused a fetch a grace window after the first version came in")
	}
}
