package judge

import (
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/robotsguard/caddy-robots-txt/robots"
)

// Version is one version of a site's robots.txt, compiled, and the
// versions before it that are still in force for grace. It is immutable
// once published.
type Version struct {
	// File is the parsed file; nil when there is no robots.txt, which
	// allows everything.
	File *robots.File
	// ETag names the version's content.
	ETag string
	// Since is when the version came into force.
	Since time.Time
	// DelaySince is when the Crawl-delays of the version came into
	// force: the Since of the first of the versions in a row that set
	// the same delays. A delay lowered by an edit is converted as the
	// schedule stood then (see pace.Limiter.Named), and a later edit that
	// leaves the delays alone (a Disallow line, an included list that
	// changed) must not count the time between the two at the old delay.
	DelaySince time.Time
	// Earlier are the versions before this one that were in force within
	// the grace window, newest first, one per text: Earlier[0] until
	// Since, Earlier[i] until Earlier[i-1].Since at the latest (later when
	// a version between them was dropped, which keeps it longer, never
	// shorter: a fetch of it is bounded by the window anyway).
	Earlier []*Version

	// stored are versions before Earlier that a process before this one
	// kept (see LoadStored); nil when there are none to look for.
	stored *storedVersions

	groupNames map[*robots.Group]string
	// served is set once the version was served to a client; shared
	// with the copies withoutHistory makes, so that a fetch in flight
	// while the version is superseded still counts.
	served *atomic.Bool
}

// NewVersion compiles a version of robots.txt; a nil file stands for no
// robots.txt at all.
func NewVersion(f *robots.File, etag string) *Version {
	v := &Version{File: f, ETag: etag, served: new(atomic.Bool)}
	if f != nil {
		groups := f.Groups()
		v.groupNames = make(map[*robots.Group]string, len(groups))
		for _, g := range groups {
			v.groupNames[g] = groupName(g.Agents)
		}
	}
	return v
}

// maxGroupNameLen bounds a group's rendered name (see groupName).
const maxGroupNameLen = 4096

// groupName joins a group's agent names, up to maxGroupNameLen bytes and
// then the number left out. The name is in every bot request's access
// log entry, violation line, placeholder and event, and a file from an
// upstream or a tenant may put all of its 500 KiB of agents in one group:
// joined whole, each request of a curl would log it twice. A real list
// (ai.robots.txt's group of some 150 agents) stays whole.
func groupName(agents []string) string {
	var b strings.Builder
	for i, a := range agents {
		if i > 0 && b.Len()+2+len(a) > maxGroupNameLen {
			b.WriteString(", … and ")
			b.WriteString(strconv.Itoa(len(agents) - i))
			b.WriteString(" more")
			break
		}
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(a)
	}
	return b.String()
}

// GroupName renders a group's agent names for logs; "" for nil.
func (v *Version) GroupName(g *robots.Group) string { return v.groupNames[g] }

// MarkServed records that v was served to a client: a bot may obey it.
func (v *Version) MarkServed() { v.served.Store(true) }

// Served reports whether v was served to a client.
func (v *Version) Served() bool { return v.served.Load() }

// MaxEarlier bounds the versions kept for grace, whatever the window.
const MaxEarlier = 32

// MaxEarlierBytes bounds the text of the versions kept for grace, in all:
// a parsed file holds up to some tens of times its text, and a tenant who
// rewrites a file of 500 KiB every few seconds, fetching each version,
// would otherwise have its one file hold 33 parsed versions, some 300 MB.
// One file of the most that is read fits, so the version just replaced is
// kept whatever its size; typical files of a few KB keep all MaxEarlier.
const MaxEarlierBytes = robots.DefaultMaxSize

// storedVersions loads, once, the versions a process kept before this one
// had the file, when a request first needs them.
type storedVersions struct {
	once sync.Once
	load func(known func(etag string) bool, budget int) []*Version
	vs   []*Version
	// since is when the first version of this process came in: every
	// stored version was out of force by then, so past the grace window
	// from it none can excuse a fetch.
	since time.Time
}

// get returns the stored versions, loading them the first time for v:
// the texts v knows are not loaded again, and those loaded come to what
// MaxEarlierBytes leaves of v's Earlier versions (one at least).
func (s *storedVersions) get(v *Version) []*Version {
	s.once.Do(func() {
		s.vs, s.load = s.load(v.knows, MaxEarlierBytes-textSize(v.Earlier)), nil
	})
	return s.vs
}

// LoadStored gives v the versions in force before the first version this
// process has, as load makes them (from Caddy's storage, after a restart,
// or when a per-host file is opened again): newest first, each as
// GraceAllows may use it, leaving out the texts known says the caller
// has, and within budget bytes of text (the newest whatever its size).
// load is called when a request first needs them, a request that the
// current version disallows from a client seen fetching a text neither v
// nor Earlier is, and never otherwise: parsing them costs several times
// what the file does, and a per-host file opened again for a client's
// every request (cycling through more hosts than are kept) would pay it
// on each. The versions that follow v keep them for the grace window. It
// must be called after Follow and before v is published.
func (v *Version) LoadStored(load func(known func(etag string) bool, budget int) []*Version) {
	v.stored = &storedVersions{load: load, since: v.Since}
}

// Resume makes v, the text of before read anew (by a source of another
// configuration), go on with before's history: in force since before
// came in, with its earlier and stored versions, and served if before
// was, so that grace keeps it past the unserved ones. It must be called
// before v is published.
func (v *Version) Resume(before *Version) {
	v.Since, v.DelaySince, v.Earlier, v.stored = before.Since, before.DelaySince, before.Earlier, before.stored
	if before.Served() {
		v.MarkServed()
	}
}

// Follow makes v the successor of prev at now: v comes into force and
// keeps the versions before it that were in force within window. "No
// file" is one of them: to Google's reading a robots.txt that is not
// there allows everything, and a crawler may keep that answer as it
// keeps a file's, so a bot seen fetching it (the evidence grace asks
// for; a moment without a file excuses nobody who did not) may go where
// it allowed. It must be called before v is published.
func (v *Version) Follow(prev *Version, now time.Time, window time.Duration) {
	v.Since, v.DelaySince = now, now
	if prev != nil && sameDelays(prev.File, v.File) {
		v.DelaySince = prev.DelaySince
	}
	if prev == nil || window <= 0 {
		return
	}
	cutoff := now.Add(-window)
	if prev.stored != nil && !prev.stored.since.Before(cutoff) {
		v.stored = prev.stored
	}
	kept := []*Version{prev.withoutHistory()}
	for i, old := range prev.Earlier {
		// old was in force until the version after it came in.
		until := prev.Since
		if i > 0 {
			until = prev.Earlier[i-1].Since
		}
		if until.Before(cutoff) {
			break
		}
		kept = append(kept, old)
	}
	v.Earlier = v.bound(kept)
}

// sameDelays reports whether every agent of a and b has the same
// Crawl-delay in both. Agents without one are left out: a bot held to
// such a group is not paced, and its schedule waits as it stood for a
// version that gives it a delay again, which differs here. An included
// list that adds agents with no delay (ai.robots.txt's) then changes no
// delay in force.
// Agents are compared without regard to case, as a client's name
// selects its group.
func sameDelays(a, b *robots.File) bool {
	delays := make(map[string]time.Duration)
	for _, g := range a.Groups() {
		if g.CrawlDelay > 0 {
			for _, agent := range g.Agents {
				delays[strings.ToLower(agent)] = g.CrawlDelay
			}
		}
	}
	n := 0
	for _, g := range b.Groups() {
		if g.CrawlDelay <= 0 {
			continue
		}
		for _, agent := range g.Agents {
			d, ok := delays[strings.ToLower(agent)]
			if !ok || d != g.CrawlDelay {
				return false
			}
			n++
		}
	}
	return n == len(delays)
}

// bound trims earlier versions, newest first, to what grace can use
// within MaxEarlier and MaxEarlierBytes. A text seen twice is kept once,
// at its newest (a fetch names a text by its ETag, and GraceAllows takes
// the first), and not at all when it is v's own (a bot that has it needs
// no grace). Past either cap the versions nobody was served go first,
// oldest first: a file rewritten every few seconds (a timestamp in a
// comment) or caught half-written must not push out the version a bot
// read this morning, which is the one grace is for. Then the oldest go,
// down to the newest one, which stays whatever its size (a file merged
// with included lists may be over MaxEarlierBytes on its own).
func (v *Version) bound(earlier []*Version) []*Version {
	// A fetch names a text, not a version: the version kept of a text
	// (v itself for its own) stands for the ones dropped, and was served
	// if any of them was, so that a text a bot read this morning, in
	// force again a moment later with no fetch, still counts as read.
	kept := map[string]*Version{v.ETag: v}
	out := earlier[:0:0]
	for _, e := range earlier {
		if k, dup := kept[e.ETag]; dup {
			if e.Served() {
				k.MarkServed()
			}
			continue
		}
		kept[e.ETag] = e
		out = append(out, e)
	}
	size := textSize(out)
	over := func() bool { return len(out) > MaxEarlier || size > MaxEarlierBytes }
	for i := len(out) - 1; i >= 0 && over(); i-- {
		if !out[i].Served() {
			size -= out[i].File.Size()
			out = append(out[:i], out[i+1:]...)
		}
	}
	for len(out) > 1 && over() {
		size -= out[len(out)-1].File.Size()
		out = out[:len(out)-1]
	}
	return out
}

// textSize is the text the versions' files were parsed from, in all.
func textSize(vs []*Version) int {
	n := 0
	for _, v := range vs {
		n += v.File.Size()
	}
	return n
}

// withoutHistory is v without its Earlier versions, so that a chain of
// versions does not hold every version before it.
func (v *Version) withoutHistory() *Version {
	if len(v.Earlier) == 0 {
		return v
	}
	return &Version{File: v.File, ETag: v.ETag, Since: v.Since, DelaySince: v.DelaySince, groupNames: v.groupNames, served: v.served}
}

// Fetch is a client's last fetch of robots.txt: when, and which version.
type Fetch struct {
	At   time.Time
	ETag string
}

// Request is a bot request as grace needs it.
type Request struct {
	UA string
	// Choice is how the client's group was chosen; an earlier version's
	// group is chosen the same way.
	Choice  Choice
	Paths   Paths
	Now     time.Time
	Fetch   Fetch
	Fetched bool // Fetch is known
}

// GraceAllows reports whether the request that v disallows is allowed
// by the version of robots.txt this client was seen fetching. RFC 9309
// lets a crawler cache robots.txt for up to 24 hours, so a path
// disallowed a minute ago is no violation yet for a crawler that read the
// file this morning.
//
// Grace is a claim the client has to have earned: it was seen fetching
// robots.txt within the window, what it got was an earlier version (not
// v), and that version allows the request. A client with no fetch on
// record gets none, however recent the change: it did not read any
// version, so none can excuse it. The fetch record is the evidence that
// the version was served: a version nobody fetched (a half-written file
// in force for a moment) excuses nobody.
func (v *Version) GraceAllows(r *Request, window time.Duration) bool {
	if window <= 0 || !r.Fetched || r.Fetch.ETag == v.ETag || r.Now.Sub(r.Fetch.At) > window {
		return false
	}
	for _, old := range v.Earlier {
		if old.ETag == r.Fetch.ETag {
			return old.allows(r)
		}
	}
	if v.stored != nil {
		for _, old := range v.stored.get(v) {
			if old.ETag == r.Fetch.ETag {
				return old.allows(r)
			}
		}
	}
	return false
}

// knows reports whether etag names v or one of its Earlier versions.
func (v *Version) knows(etag string) bool {
	if etag == v.ETag {
		return true
	}
	for _, e := range v.Earlier {
		if e.ETag == etag {
			return true
		}
	}
	return false
}

// allows judges a request against this version alone.
func (v *Version) allows(r *Request) bool {
	if v.File == nil {
		return true
	}
	g := r.groupIn(v.File)
	v2, _, _ := r.Paths.DecideShared(g, r.Choice.Held(v.File, r.UA), r.Choice.Shared(v.File, g))
	return v2.Allowed
}

// groupIn is the group of f the client obeys, chosen as its group in the
// current version was.
func (r *Request) groupIn(f *robots.File) *robots.Group {
	g, _ := r.Choice.Group(f, r.UA)
	return g
}
