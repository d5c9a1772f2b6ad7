package judge

import (
	"math"
	"net/url"
	"path"
	"strings"

	"github.com/robotsguard/caddy-robots-txt/robots"
)

// Paths are the spellings of one request's path (with query) that
// robots.txt is matched against; see PathsOf.
type Paths struct {
	// Primary is built from the decoded path, the one a file server
	// serves.
	Primary string
	// Alt is the path as the client escaped it, when decoding changes
	// its meaning ("/a%2Fb"); "" otherwise.
	Alt string
	// Raw is the path (resolved) and query as the client sent them, when
	// they hold raw an ASCII byte that a URL carries escaped ("/a|b");
	// "" otherwise. Google compares a disallow pattern that holds such a
	// byte raw with it byte for byte (see robots.Group.DecideRaw); the
	// other spellings, canonical, carry it escaped.
	Raw string
	// sent and sentQuery are the path (unresolved) and query as the
	// client sent them, when Raw is "" and they hold an escape of an
	// unreserved character ("/%7Ejoe/"), which canonical spellings
	// decode; "" otherwise. Only a group with a disallow pattern whose
	// "%" starts no escape ("/*%") reads them, as Google does, so the
	// spelling is made from them only then.
	sent, sentQuery string
	// unresolved holds the spellings of a path with dot-segments or
	// repeated slashes, which robots.txt rules do not resolve and servers
	// read in several ways; nil for any other path, so that the common
	// request carries two strings.
	unresolved *Unresolved
}

// Unresolved are the spellings of a path with dot-segments or repeated
// slashes besides its resolved ones (Paths.Primary and Paths.Alt).
type Unresolved struct {
	// Sent is the path as the client sent it, escapes kept and nothing
	// resolved: what Google's matcher reads in the URL
	// ("/wiki/Wikipedia%3AAfD/.." is under "Disallow:
	// /wiki/Wikipedia%3AAfD"), and what reverse_proxy passes on.
	Sent string
	// Decoded is the decoded path, dot-segments unresolved, when it has
	// a dot-segment and escapes; "" otherwise. A backend that routes on
	// the decoded path without resolving it (Flask, Go's r.URL.Path)
	// sends "/private%2F..%2Fpublic/" to its /private/ handler.
	Decoded string
	// File is Primary without the trailing slash that a final
	// dot-segment leaves, when the path ends in one; "" otherwise.
	// "/docs/a.pdf/." is the directory "/docs/a.pdf/" to RFC 3986, but
	// Caddy's file server opens the file "/docs/a.pdf" for it.
	File string
	// Network is the path a URL parser finds in a decoded path that
	// starts with "//", read as a network-path reference (RFC 3986
	// §4.2), with its query; "" for other paths. Node's new
	// URL(req.url, base) and Python's urlsplit read
	// "//evil.example/private/x" as the host evil.example and the path
	// "/private/x", and a backend that routes on what they return serves
	// that.
	Network string
	// Params is the path as a server that drops path parameters reads
	// it, when a segment before the last has one; "" otherwise. Tomcat
	// and Jetty remove ";..." from each segment before they resolve
	// dot-segments: "/public/..;/private/x" and "/private;x/y" are
	// "/private/x" and "/private/y" to them. The last segment keeps its
	// parameters: a link's "/doc.pdf;jsessionid=..." is the site's own,
	// and Google's reading of it is the path as sent.
	Params string
	// Backslash is the decoded path with its backslashes read as
	// slashes, when it has one; "" otherwise. Windows servers (IIS,
	// Caddy's own file_server on Windows) serve "/private\x" and
	// "/private%5Cx" as "/private/x"; a crawler never sends a raw
	// backslash, which URL parsers turn into a slash first.
	Backslash string
}

// PathsOf returns the spellings of a request URL that robots.txt is
// matched against. Dot-segments and repeated slashes are resolved and
// percent-encoding is made canonical, so "/%70rivate", "//private",
// "/./private" and "/public/../private" are all "/private".
//
// The primary spelling is built from the decoded path, which is what a
// file server serves (Caddy's turns "/a%2Fb" into the file "/a/b"). When
// the request spelled its path with escapes that decoding changes, Alt is
// that spelling too, cleaned the same way; a request is disallowed if
// either spelling is, so neither reading can be used to slip past.
func PathsOf(u *url.URL) Paths { return PathsOfServed(ServedPath(u.Path), u) }

// PathsOfServed is PathsOf for a caller that has ServedPath(u.Path)
// already, as the handler has for every request.
func PathsOfServed(served string, u *url.URL) Paths {
	query := ""
	if u.RawQuery != "" || u.ForceQuery {
		// "/secret?" is not "/secret": Google matches the "?" too, so
		// "Disallow: /secret$" does not match it and "Disallow: /*?"
		// does.
		query = "?" + u.RawQuery
	}
	p := Paths{Primary: served + query}
	// A path sent with such a byte raw, or such an escape, is not the one
	// Go would escape, so it is in RawPath; with RawPath empty,
	// EscapedPath is the path as sent, and holds neither.
	switch {
	case robots.HoldsRawEscapable(u.RawPath) || robots.HoldsRawEscapable(u.RawQuery):
		lit := u.RawPath
		if lit == "" {
			lit = u.EscapedPath()
		}
		if strings.HasPrefix(lit, "/") {
			p.Raw = CleanPath(lit) + query
		}
	case robots.HoldsSentSpelling(u.RawPath) || robots.HoldsSentSpelling(u.RawQuery):
		// The path as sent: with the query alone holding such an
		// escape, "/wiki/It%27s" stays escaped, for an Allow written
		// so (audit AP-F6).
		p.sent, p.sentQuery = sentPath(u), query
	}
	sent := sentPath(u)
	// A raw byte Go would escape (a backslash) leaves RawPath equal to the
	// decoded path; it is the client's spelling all the same.
	escaped := u.RawPath != "" || sent != u.Path
	if escaped {
		// Unreserved escapes decoded first: "%2E%2E" is a dot-segment
		// to a WHATWG or GURL parser that keeps "%2F" (Node, Envoy), so
		// "/public%2Fx/%2E%2E/secret" is "/secret".
		p.Alt = CleanPath(robots.Canonical(sent)) + query
		if p.Alt == p.Primary {
			p.Alt = ""
		}
	}
	// An unresolved escaped path is unresolved decoded too: one scan.
	params := hasParams(sent)
	backslash := strings.IndexByte(u.Path, '\\') >= 0
	if !params && !backslash && !IsUnresolved(u.Path) {
		return p
	}
	un := &Unresolved{Sent: escapeBytes(sent, escaped) + query}
	if escaped && hasDotSegment(u.Path) {
		// Only with a dot-segment: decoding "%2F%2F" makes a "//" the
		// client never sent, which no router resolves into another path.
		if d := encodePath(u.Path) + query; d != un.Sent {
			un.Decoded = d
		}
	}
	if f := FileOf(served, u.Path); f != "" {
		un.File = f + query
	}
	if n := networkPath(u.Path); n != "" {
		if n = encodePath(CleanPath(n)) + query; n != p.Primary {
			un.Network = n
		}
	}
	if params {
		if s := CleanPath(robots.Canonical(dropParams(sent))) + query; s != p.Primary {
			un.Params = s
		}
	}
	if backslash {
		if s := encodePath(CleanPath(strings.ReplaceAll(u.Path, "\\", "/"))) + query; s != p.Primary {
			un.Backslash = s
		}
	}
	p.unresolved = un
	return p
}

// Unresolved returns the spellings of a path with dot-segments or
// repeated slashes, or nil.
func (p Paths) Unresolved() *Unresolved { return p.unresolved }

// hasDotSegment reports whether the decoded path p has a "." or ".."
// segment.
func hasDotSegment(p string) bool { return unresolvedIn(p, false) }

// IsUnresolved reports whether the path p has a dot-segment or a
// repeated slash, which servers resolve and robots.txt rules do not.
func IsUnresolved(p string) bool { return unresolvedIn(p, true) }

// unresolvedIn reports whether p has a "." or ".." segment, or with
// slashes an empty one ("//"), in one scan.
func unresolvedIn(p string, slashes bool) bool {
	for i := 0; i < len(p)-1; i++ {
		if p[i] != '/' {
			continue
		}
		rest := p[i+1:]
		if slashes && rest[0] == '/' || rest[0] == '.' && (len(rest) == 1 || rest[1] == '/' ||
			rest[1] == '.' && (len(rest) == 2 || rest[2] == '/')) {
			return true
		}
	}
	return false
}

// hasParams reports whether a segment of the path as sent, before its
// last, has a path parameter (a ";").
func hasParams(sent string) bool {
	i := strings.IndexByte(sent, ';')
	return i >= 0 && strings.IndexByte(sent[i:], '/') >= 0
}

// dropParams removes the parameters (";" to the end of the segment) from
// every segment of p but the last.
func dropParams(p string) string {
	last := strings.LastIndexByte(p, '/')
	var b strings.Builder
	b.Grow(len(p))
	for i := 0; i < len(p); i++ {
		if p[i] == ';' && i < last {
			for i < len(p) && p[i] != '/' {
				i++
			}
		}
		if i < len(p) {
			b.WriteByte(p[i])
		}
	}
	return b.String()
}

// networkPath is the path of the decoded path p read as a network-path
// reference, "" when p does not start with "//". The first segment after
// the slashes is the authority (a WHATWG parser skips any number of
// slashes before it); what follows it is the path, "/" when nothing does.
func networkPath(p string) string {
	if !strings.HasPrefix(p, "//") {
		return ""
	}
	rest := strings.TrimLeft(p, "/")
	if i := strings.IndexByte(rest, '/'); i >= 0 {
		return rest[i:]
	}
	return "/"
}

// FileOf is the file a file server opens for the decoded request path p
// that ServedPath made served: served without its trailing slash when p
// ends in a dot-segment ("/docs/a.pdf/." opens "/docs/a.pdf"), "" when
// that is served itself.
func FileOf(served, p string) string {
	if served == "/" || !(strings.HasSuffix(p, "/.") || strings.HasSuffix(p, "/..")) {
		return ""
	}
	return strings.TrimSuffix(served, "/")
}

// PathsOfTarget is PathsOf for a path or URL given as text, as a person
// types it on a command line.
func PathsOfTarget(target string) Paths {
	p := target
	if !strings.HasPrefix(target, "/") {
		// A URL, or a host and path ("example.com/a"). One that starts
		// with "/" is a path as a request line carries it: "//private/"
		// is the path //private/ (which a server reads as /private/),
		// not a URL of the host "private".
		p = robots.PathFromURL(target)
	}
	u, err := url.ParseRequestURI(p)
	if err != nil {
		// Not a request URI a server would accept; judge it as written.
		return Paths{Primary: p}
	}
	return PathsOf(u)
}

// Decide judges every spelling against g: disallowed if any is. A nil
// group allows everything.
func (p Paths) Decide(g *robots.Group) robots.Verdict {
	v, _, _ := p.DecideCapped(g)
	return v
}

// DecideCapped is Decide, also returning the spelling that decided (the
// first one disallowed, or Primary) and whether the other spellings ran
// out of their budget (see spellingBudget).
func (p Paths) DecideCapped(g *robots.Group) (robots.Verdict, string, bool) {
	if p.Alt == "" && p.Raw == "" && p.sent == "" && p.unresolved == nil {
		return g.Decide(p.Primary), p.Primary, false
	}
	var b spellingBudget
	v, s := p.decideSpelling(g, &b)
	return v, s, b.capped
}

// DecideHeld judges the spellings against g and, for a client held to
// other groups as well (Choice.Held), against each of held: disallowed if
// any group disallows. It returns the verdict, the group that decided (the
// first to refuse, else g), and whether the judgment was capped: the
// spellings besides Primary ran out of their budget in some group (see
// spellingBudget), or more than MaxHeld of held may refuse the path.
//
// A group of held whose rules surely allow every spelling, as a walk of
// their literal prefixes tells (robots.Group.SurelyAllows), costs that
// walk alone; the others, up to MaxHeld, are judged in full. So naming
// many groups that restrict other paths (a file's "Disallow: /cgi-bin/"
// for each of 17 bots) does not push out the group of the name a bot
// goes by (audit AE-F2), and costs a walk of each.
func (p Paths) DecideHeld(g *robots.Group, held []*robots.Group) (robots.Verdict, *robots.Group, bool) {
	var b spellingBudget
	if len(held) > 0 {
		// Also what the walks of surelyAllowed read.
		b.canon = new(canonCache)
	}
	v, _ := p.decideSpelling(g, &b)
	if !v.Allowed {
		return v, g, b.capped
	}
	full := 0
	for _, h := range held {
		if h == nil || h == g || p.surelyAllowed(h, &b) {
			continue
		}
		if full == MaxHeld {
			b.capped = true
			break
		}
		full++
		if v2, _ := p.decideHeld(h, &b); !v2.Allowed {
			return v2, h, b.capped
		}
	}
	return v, g, b.capped
}

// DecideShared is DecideHeld for a proven crawler whose header other
// crawlers send as their own (Choice.Shared): a request its groups refuse
// is allowed where a group of shared allows it, and that group is the one
// returned, since the request may be that crawler's.
func (p Paths) DecideShared(g *robots.Group, held, shared []*robots.Group) (robots.Verdict, *robots.Group, bool) {
	v, by, capped := p.DecideHeld(g, held)
	if v.Allowed {
		return v, by, capped
	}
	for _, s := range shared {
		if v2, _, c2 := p.DecideCapped(s); v2.Allowed {
			return v2, s, capped || c2
		}
	}
	return v, by, capped
}

// SurelyAllows is surelyAllowed for one group: a group of which it is
// true DecideHeld leaves out, judging none of its rules nor counting it
// among the MaxHeld judged in full.
func (p Paths) SurelyAllows(g *robots.Group) bool {
	b := spellingBudget{canon: new(canonCache)}
	return p.surelyAllowed(g, &b)
}

// surelyAllowed reports whether g allows every spelling of the request
// as far as a walk of its rules tells (robots.Group.SurelyAllows): false
// whenever a full judgment might refuse it, and for a request that g
// would read as sent (see decideRest).
func (p Paths) surelyAllowed(g *robots.Group, b *spellingBudget) bool {
	if b.canon == nil || p.Raw != "" || p.sent != "" && g.HasLonePercent() {
		return false
	}
	all := p.Spellings()
	for i, s := range all {
		if s == "" && i > 0 {
			continue
		}
		if !g.SurelyAllows(b.canon.of(s)) {
			return false
		}
	}
	return true
}

// RobotsTxt reports whether the path is /robots.txt as a server reads it
// (the handler answers every such spelling itself), and whether it is so
// as sent too, with no dot-segment or repeated slash (the only spelling
// that passes unjudged when the handler passes the request on).
func (p Paths) RobotsTxt() (is, asSent bool) {
	path, _, _ := strings.Cut(p.Primary, "?")
	var file string
	if u := p.unresolved; u != nil {
		file, _, _ = strings.Cut(u.File, "?")
	}
	return robotsTxt(path, file, p.unresolved != nil)
}

// RobotsTxtRequest is Paths.RobotsTxt for the path a server reads
// (ServedPath) and the decoded request path, without making the
// spellings: the handler asks it of every request.
func RobotsTxtRequest(served, decoded string) (is, asSent bool) {
	file := FileOf(served, decoded)
	if is, _ := robotsTxt(served, file, true); !is {
		return false, false // the common case: no scan of the path
	}
	return robotsTxt(served, file, IsUnresolved(decoded))
}

// robotsTxt is the rule of both: the served path or the file a final
// dot-segment leaves is /robots.txt, and it was so as sent if nothing
// was resolved.
func robotsTxt(served, file string, unresolved bool) (is, asSent bool) {
	is = served == "/robots.txt" || file == "/robots.txt"
	return is, is && !unresolved
}

// Spellings returns every spelling, Primary first; those of a path
// without escapes or dot-segments are "".
func (p Paths) Spellings() [8]string {
	s := [8]string{p.Primary, p.Alt}
	if u := p.unresolved; u != nil {
		s[2], s[3], s[4], s[5], s[6], s[7] = u.Sent, u.Decoded, u.File, u.Network, u.Params, u.Backslash
	}
	return s
}

// The spellings besides Primary share a budget of work on the path's
// index (robots.Budget). A path crafted against a file of thousands of
// wildcard rules can make one Decide cost milliseconds; a request has up
// to eight spellings, and a client held to two groups judges each twice.
// Primary, the spelling Google reads, is always judged in full; what it
// spent on the index comes out of the others' budget, down to a floor.
// A spelling that runs out is disallowed only where that is certain (see
// robots.Group.DecideWithin): a request is never refused for a rule that
// would not refuse it, and the judgment says that it was capped.
//
// No file short of thousands of wildcard rules, and no path short of
// holding their text, comes near: the index is built only once plain
// tries have scanned eight times the path, and a typical file's other
// spellings spend nothing from the budget.
const (
	spellingUnits = 1 << 17 // about 1-4 ms of index work
	spellingFloor = 1 << 13
)

// spellingBudget is the budget of one request's other spellings.
type spellingBudget struct {
	b       robots.Budget
	started bool
	capped  bool
	// canon, when set (a client held to several groups), keeps the
	// canonical form of each spelling judged, so that each group does
	// not canonicalize a long path again: a copy per group and spelling.
	canon *canonCache
}

// canonCache is the canonical forms of a request's spellings.
type canonCache struct {
	n    int
	from [12]string
	to   [12]string
}

// of returns s as the matcher reads it (robots.Canonical), made once.
func (c *canonCache) of(s string) string {
	if c == nil {
		return s
	}
	for i := range c.n {
		if c.from[i] == s {
			return c.to[i]
		}
	}
	cs := robots.Canonical(s)
	if c.n < len(c.from) {
		c.from[c.n], c.to[c.n] = s, cs
		c.n++
	}
	return cs
}

// charge takes what a Primary spent from the budget, keeping the floor.
func (sb *spellingBudget) charge(spent int) {
	left := spellingUnits
	if sb.started {
		left = sb.b.Left()
	}
	sb.b, sb.started = robots.NewBudget(max(left-spent, spellingFloor)), true
}

// decide judges one spelling besides Primary from the budget.
func (sb *spellingBudget) decide(g *robots.Group, s string) robots.Verdict {
	v := g.DecideWithin(sb.canon.of(s), &sb.b)
	sb.capped = sb.capped || sb.b.Capped()
	return v
}

// decideRaw is decide for the spelling as sent (robots.Group.DecideRaw).
func (sb *spellingBudget) decideRaw(g *robots.Group, raw string) robots.Verdict {
	v := g.DecideRawWithin(raw, &sb.b)
	sb.capped = sb.capped || sb.b.Capped()
	return v
}

// decideSpelling judges every spelling against g, the ones besides Primary
// from the budget b, and returns the verdict and the spelling that decided.
func (p Paths) decideSpelling(g *robots.Group, b *spellingBudget) (robots.Verdict, string) {
	meter := robots.NewBudget(math.MaxInt)
	v := g.DecideWithin(b.canon.of(p.Primary), &meter)
	b.charge(meter.Spent())
	return p.decideRest(g, v, b)
}

// decideHeld is decideSpelling for a group a client is held to besides
// its own (Choice.Held): Primary too is judged from the budget b, which
// the own group's judgment started, so that a header naming MaxHeld
// groups of a file crafted against it costs a bounded amount more, not
// MaxHeld times as much.
func (p Paths) decideHeld(g *robots.Group, b *spellingBudget) (robots.Verdict, string) {
	return p.decideRest(g, b.decide(g, p.Primary), b)
}

// decideRest is decideSpelling once v, the verdict on Primary, is known.
func (p Paths) decideRest(g *robots.Group, v robots.Verdict, b *spellingBudget) (robots.Verdict, string) {
	spelling := p.Primary
	if !v.Allowed {
		av, ok := p.escapedAllow(g, b)
		if !ok {
			return v, p.Primary
		}
		v, spelling = av, p.Alt
	}
	all := p.Spellings()
	for _, s := range all[1:] {
		if s == "" {
			continue
		}
		if v2 := b.decide(g, s); !v2.Allowed {
			return v2, s
		}
	}
	raw := p.Raw
	if raw == "" && p.sent != "" && g.HasLonePercent() && strings.HasPrefix(p.sent, "/") {
		raw = CleanPath(p.sent) + p.sentQuery
	}
	if raw != "" && g.ReadsSent(raw) {
		// Its canonical spelling is Primary's or Alt's, decided above.
		if v2 := b.decideRaw(g, raw); !v2.Allowed {
			return v2, raw
		}
	}
	if u := p.unresolved; u != nil && p.Raw != "" {
		// A rule that writes the byte raw ("Disallow: /a|b/") reads
		// the unresolved spellings as sent too, by which a backend that
		// does not resolve them routes (audit AM-F3: "/a|b/../public/"
		// and "/a|b;x/y" passed it).
		for _, s := range [...]string{u.Sent, u.rawParams()} {
			if s == "" || !g.ReadsSent(s) {
				continue
			}
			if v2 := b.decideRaw(g, s); !v2.Allowed {
				return v2, s
			}
		}
	}
	return v, spelling
}

// rawParams is Params as the client sent the path, its raw bytes kept:
// the spelling a rule that writes them raw reads. "" where Params is.
func (u *Unresolved) rawParams() string {
	if u.Params == "" {
		return ""
	}
	path, query := u.Sent, ""
	if q := strings.IndexByte(path, '?'); q >= 0 {
		path, query = path[:q], path[q:]
	}
	return CleanPath(dropParams(path)) + query
}

// sentPath returns the path of u as the client sent it. Go keeps RawPath
// only where the client's escaping is not the one it writes itself; where
// it is, the path as sent is EscapedPath, which differs from the decoded
// path where the client escaped a reserved character that Go escapes
// too: "!", "'", "(", ")", "*", "[" or "]" ("/wiki/It%27s"). A rule that
// spells such an escape matches that spelling only (audit AM-F1: a bot
// sending "/a%28b%29" was judged only as "/a(b)", and "Disallow:
// /a%28b%29" refused nothing). It allocates only then.
func sentPath(u *url.URL) string {
	if u.RawPath != "" {
		return u.RawPath
	}
	if strings.ContainsAny(u.Path, goEscapedReserved) {
		return u.EscapedPath()
	}
	return u.Path
}

// goEscapedReserved are the reserved characters of RFC 3986 that Go's
// url.URL.EscapedPath escapes; robots.Canonical keeps them as spelt.
const goEscapedReserved = "!'()*[]"

// escapedAllow is the verdict on Alt, the path as sent, when an Allow rule
// written with the escape of a reserved character ("Allow:
// /wiki/Special%3ARandom") allows it and the decoded spelling, which no
// such rule can match, is disallowed ("Disallow: /wiki/"): the operator
// allowed that spelling by name, and Google's reading, which compares the
// URL as sent, allows it. ok is false for any other request, and always
// for one whose decoding moves a segment boundary or resolves a
// dot-segment ("%2F", "%5C", "/x%3A/../"): there the decoded spelling may
// be another file, which the rule never named.
func (p Paths) escapedAllow(g *robots.Group, b *spellingBudget) (v robots.Verdict, ok bool) {
	if p.Alt == "" || p.Raw != "" || p.unresolved != nil || escapesSeparator(p.Alt) {
		return v, false
	}
	v = b.decide(g, p.Alt)
	if !v.Allowed || v.Rule == nil || v.Rule.Directive != robots.Allow || !strings.Contains(v.Rule.Pattern, "%") {
		return v, false
	}
	// Only then decoded, which allocates: a disallowed request with
	// escapes seldom has such a rule.
	alt, err1 := url.PathUnescape(p.Alt)
	primary, err2 := url.PathUnescape(p.Primary)
	return v, err1 == nil && err2 == nil && alt == primary
}

// escapesSeparator reports whether p escapes a slash or a backslash, which
// decoding turns into a segment boundary.
func escapesSeparator(p string) bool {
	for i := 0; i+2 < len(p); i++ {
		if p[i] == '%' && (p[i+1] == '2' && (p[i+2] == 'F' || p[i+2] == 'f') || p[i+1] == '5' && (p[i+2] == 'C' || p[i+2] == 'c')) {
			return true
		}
	}
	return false
}

// ServedPath is the path a server serves for the decoded request path p,
// as the rules read it: dot-segments and repeated slashes resolved, bytes
// that would change its meaning percent-encoded ("/news/../secret/a" is
// "/secret/a"). A target that is no path ("*" of OPTIONS or GET *, the
// empty path of CONNECT) is judged as the site's root, "/": what
// "Disallow: /" refuses, a bot may not reach that way either. It does not
// allocate when p needs none of this.
func ServedPath(p string) string {
	if p == "" || p[0] != '/' {
		return "/"
	}
	return encodePath(CleanPath(p))
}

// CleanPath resolves dot-segments and repeated slashes, keeping a
// trailing slash, as Caddy's file server does before it serves a path. A
// final "." or ".." segment leaves a directory, as RFC 3986's
// remove_dot_segments reads it and as nginx and Apache serve it:
// "/private/." and "/private/x/.." are "/private/", which
// "Disallow: /private/" refuses.
func CleanPath(p string) string {
	cleaned := path.Clean(p)
	if cleaned != "/" && (strings.HasSuffix(p, "/") || strings.HasSuffix(p, "/.") || strings.HasSuffix(p, "/..")) {
		cleaned += "/"
	}
	return cleaned
}

// encodePath percent-encodes a decoded path where a raw byte would change
// its meaning or may not stand in a URL ("%", "?", "#", space, non-ASCII),
// leaving the rest as it is; robots.Group.Decide canonicalizes the rest.
func encodePath(p string) string { return escapeBytes(p, false) }

// escapeBytes percent-encodes the bytes of p that needsEscape names; an
// escaped path keeps its "%".
func escapeBytes(p string, escaped bool) string {
	n := 0
	for i := 0; i < len(p); i++ {
		if needsEscape(p[i], escaped) {
			n++
		}
	}
	if n == 0 {
		return p
	}
	const hex = "0123456789ABCDEF"
	var b strings.Builder
	b.Grow(len(p) + 2*n)
	for i := 0; i < len(p); i++ {
		c := p[i]
		if needsEscape(c, escaped) {
			b.WriteByte('%')
			b.WriteByte(hex[c>>4])
			b.WriteByte(hex[c&15])
		} else {
			b.WriteByte(c)
		}
	}
	return b.String()
}

// needsEscape reports whether c would change the meaning of a decoded
// path or may not stand in a URL; in an escaped path, where "%" starts an
// escape and "?" cannot be, only the latter.
func needsEscape(c byte, escaped bool) bool {
	return c == '#' || c <= ' ' || c >= 0x7f || !escaped && (c == '%' || c == '?')
}

// DecideTrap judges p, a path under the trap, for a bot held to g of
// file, the file on disk, as the robots.txt served with the trap reads:
// served is that file with the trap's Disallow added to every group that
// did not disallow the trap already, and a * group holding only it when
// the file has none. A group that did keeps its own rule, which is the
// one that decides (with its line in the file); a group whose Allow is as
// long as the trap's Disallow still allows it, and a bot that obeys it
// breaks no rule by fetching it; nor does one held to no group while the
// file has a * group (a crawler that obeys only the groups naming it,
// such as AdsBot-Google), which no trap line reaches. fromTrap tells
// that the trap's own Disallow decided.
func (p Paths) DecideTrap(g *robots.Group, file, served *robots.File, trap string) (v robots.Verdict, fromTrap bool) {
	var as *robots.Group // g as served
	switch {
	case g != nil && len(g.Agents) > 0:
		as = served.GroupFor(g.Agents[0])
	case file.GroupFor("*") == nil:
		// No group applies for want of a * group: the served file
		// adds one.
		as = served.GroupFor("*")
	}
	if own := p.Decide(g); !own.Allowed || p.Decide(as).Allowed {
		// Adding a Disallow never allows what the file disallowed,
		// so whatever the served group allows the file's own rule
		// allows: both report lines of the file on disk.
		return own, false
	}
	return robots.Verdict{Rule: &robots.Rule{Directive: robots.Disallow, Pattern: trap}}, true
}
