package caddymodule

import (
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"net/netip"
	"net/url"
	"strings"
	"time"

	"go.uber.org/zap"

	"github.com/robotsguard/caddy-robots-txt/caddymodule/crawlers"
	"github.com/robotsguard/caddy-robots-txt/caddymodule/include"
	"github.com/robotsguard/caddy-robots-txt/caddymodule/judge"
	"github.com/robotsguard/caddy-robots-txt/caddymodule/pace"
	"github.com/robotsguard/caddy-robots-txt/caddymodule/verify"
	"github.com/robotsguard/caddy-robots-txt/robots"
)

// trappedName names, in logs and metrics, a client caught by the trap.
const trappedName = "trapped"

// trappedClients bounds the addresses the trap remembers. A client holds
// at most quota.TrapSitesPerClient of them, an IPv6 /48
// quota.TrapSitesPerNetwork (see there why): it takes
// trappedClients/quota.TrapSitesPerClient addresses (1,563), or
// trappedClients/quota.TrapSitesPerNetwork /48s (98), to push out
// another's.
const trappedClients = 100_000

// servedWithTrap is robots.txt as served with the trap's Disallow lines,
// for one snapshot.
type servedWithTrap struct {
	trap string
	body []byte
	etag string
	file *robots.File // body parsed: the rules a bot reads there
	// lines says where each line of the snapshot's text is in body.
	lines *include.Trapped
	// next is the text made for another trap of the same snapshot:
	// handlers that share a source (two sites, one file) serve it with
	// traps of their own, and must not replace each other's.
	next *servedWithTrap
	n    int // the texts from this one on
}

// find returns the text made for trap in the list s starts, or nil.
func (s *servedWithTrap) find(trap string) *servedWithTrap {
	for ; s != nil; s = s.next {
		if s.trap == trap {
			return s
		}
	}
	return nil
}

// servedBody returns the body and ETag /robots.txt is served with: the
// file itself, or with a trap, the file with the trap disallowed in every
// group. The file on disk, and so the rules' line numbers in logs, stay
// as the operator wrote them.
func (h *Handler) servedBody(snap *snapshot) ([]byte, string) {
	if h.Trap == "" {
		return snap.body, snap.ETag
	}
	s := h.servedTrap(snap)
	return s.body, s.etag
}

// servedTrap is robots.txt as served with the trap, for snap: made once
// per snapshot (kept on it), with what is logged of it.
func (h *Handler) servedTrap(snap *snapshot) *servedWithTrap {
	// What is said of the text served names the file it came from
	// (which tenant's, with a {host} root), except for the text shared
	// by files without one (see snapshot.trapsOf).
	from := snap.from
	if snap.trapsOf != nil {
		snap, from = snap.trapsOf, ""
	}
	old := snap.withTrap.Load()
	if s := old.find(h.Trap); s != nil {
		return s
	}
	log := h.configLog()
	if from != "" {
		log = h.logger.With(zap.String("file", from))
	}
	lines := include.Trap(snap.body, snap.File, h.Trap)
	body, added := lines.Body, lines.Added
	sum := sha256.Sum256(body)
	s := &servedWithTrap{trap: h.Trap, body: body, etag: `"` + hex.EncodeToString(sum[:12]) + `"`, file: robots.Parse(body), lines: lines}
	for {
		// Traps come from configurations; past maxVariants of them
		// on one snapshot (reloads that each change it) the list
		// starts again.
		s.next, s.n = nil, 1
		if old != nil && old.n < maxVariants {
			s.next, s.n = old, old.n+1
		}
		if snap.withTrap.CompareAndSwap(old, s) {
			break
		}
		old = snap.withTrap.Load()
		if won := old.find(h.Trap); won != nil {
			// Another request made it at the same moment, and says
			// what there is to say of it.
			return won
		}
	}
	if added > 0 {
		log.Info("robots.txt served with the trap disallowed in every group",
			zap.String("trap", h.Trap), zap.Int("groups_added_to", added))
	}
	if len(body) > robots.DefaultMaxSize && len(snap.body) <= robots.DefaultMaxSize {
		// Crawlers read the first 500 KiB; what the trap's lines push
		// past it they never see, though it is enforced.
		log.Warn("with the trap's Disallow lines robots.txt is served longer than crawlers read (500 KiB): the groups at its end are not seen, yet enforced; shorten the file or drop the trap",
			zap.String("trap", h.Trap), zap.Int("bytes", len(body)), zap.Int("file_bytes", len(snap.body)), zap.Int("read_bytes", robots.DefaultMaxSize))
	}
	if open := trapAllowedTo(s.file, h.Trap); len(open) > 0 {
		log.Warn("robots.txt allows the trap path to some agents (an Allow rule as long as the trap's Disallow wins the tie); their bots may fetch it and are not trapped by it, and a crawler sending a browser's header that obeys the file may fetch it and be trapped",
			zap.String("trap", h.Trap), zap.Strings("agents", open))
	}
	if r := trapDisallowedAlready(snap.File, h.trapPath); r != nil {
		// A real section used as the trap catches people (audit
		// AC-F1); the trap's own line written into the file is
		// redundant, and removing it silences this (audits AD-F6,
		// AF-F3).
		log.Warn("the site's own robots.txt disallows the trap path already: if pages of the site live under it, people who follow links to them get 404 and are trapped, so give the trap a path of its own that no page uses; if that line was written for the trap, remove it: the handler adds the trap's Disallow to the robots.txt it serves",
			zap.String("trap", h.Trap), zap.String("rule", r.String()), zap.Int("line", r.Line))
	}
	return s
}

// trapDisallowedAlready returns the rule of the site's own file (before
// the trap's lines) by which its * group disallows the trap path, if the
// rule is the trap's very path: a section of the site, whose pages people
// reach by its links and every one of which is the trap, or the trap's own
// line. A trap inside a broader section ("/private/trap/" under "Disallow:
// /private/") catches only requests under it, as one outside does.
func trapDisallowedAlready(own *robots.File, trap string) *robots.Rule {
	v := own.GroupFor("*").Decide(trap)
	if v.Allowed || v.Rule == nil {
		return nil
	}
	if p := v.Rule.Pattern; p == trap || p == strings.TrimSuffix(trap, "/") || p == trap+"$" {
		return v.Rule
	}
	return nil
}

// trapPrefixesNames reports whether trap, a path, does not end a segment
// and its last segment has no extension: every path that starts with it is
// the trap, as robots.txt reads a Disallow line, so "/t" is "/terms" too,
// and crawlers that obey the file skip those pages.
func trapPrefixesNames(trap string) bool {
	last := trap[strings.LastIndexByte(trap, '/')+1:]
	return last != "" && !strings.Contains(last, ".")
}

// trapAllowedTo returns the agents whose group in the served file still
// allows the trap path.
func trapAllowedTo(served *robots.File, trap string) []string {
	var open []string
	// Judged as a request for it is (audit AO-F8: "/a|b/", whose
	// Disallow line holds "|" raw, read as allowed as written).
	p := judge.PathsOfTarget(trap)
	for _, g := range served.Groups() {
		if p.Decide(g).Allowed {
			open = append(open, g.Agents...)
		}
	}
	return open
}

// isPrefetch reports whether r is a browser's speculative fetch, as its
// Sec-Purpose (or the older Purpose, X-Moz) header says: the token
// "prefetch", alone or with parameters ("prefetch;prerender").
func isPrefetch(r *http.Request) bool {
	for _, name := range []string{"Sec-Purpose", "Purpose", "X-Moz"} {
		v := r.Header.Get(name)
		if tok, _, _ := strings.Cut(v, ";"); strings.EqualFold(strings.TrimSpace(tok), "prefetch") {
			return true
		}
	}
	return false
}

// notFollowedHere reports whether a browser's request r was not the
// browser following a link of this site's own pages: a subresource (an
// <img>, a script, a frame, a fetch() call), a request another site's page
// made, a URL typed, bookmarked or opened from a mail, or a link a person
// clicked. Anyone can put the trap's URL in a page or a mail, and every
// visitor's browser would fetch it.
//
// Browsers say so in their fetch metadata: all three headers (and
// Sec-Fetch-User), with values of the Fetch Metadata vocabulary; a set that is incomplete or has other
// values (a constant "Sec-Fetch-Dest: x" a scraper adds) counts as none.
// Only a navigation from a page of the same origin springs the trap, and
// not one a person made: browsers send "Sec-Fetch-User: ?1" only with a
// navigation the user activated (a click, a key press), which a hidden
// link never gets, while anyone may post the trap's URL as a visible link
// where a site shows what its users write. A crawler following the link,
// or a headless browser sent to its href, sends none. Over plain HTTP
// browsers send no metadata; then a Referer of another host, or an Accept
// header that asks for an image or a style sheet and not a page, says the
// same, as does a method other than GET or HEAD, or an Origin of another
// host.
func notFollowedHere(r *http.Request) bool {
	// A link followed is a GET (a HEAD from a link checker); any other
	// method, a CORS preflight among them, is a page's script at work.
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		return true
	}
	// Browsers name the page's origin on a cross-origin fetch() even
	// when its Referer is withheld; following a link sends none.
	if o := r.Header.Get("Origin"); o != "" {
		if u, err := url.Parse(o); err != nil || u.Host == "" || !strings.EqualFold(hostOf(u.Host), hostOf(r.Host)) {
			return true
		}
	}
	site, mode, dest := r.Header.Get("Sec-Fetch-Site"), r.Header.Get("Sec-Fetch-Mode"), r.Header.Get("Sec-Fetch-Dest")
	if fetchSites[site] && fetchModes[mode] && isToken(dest) {
		return site != "same-origin" || dest != "document" || r.Header.Get("Sec-Fetch-User") == "?1"
	}
	if ref := r.Header.Get("Referer"); ref != "" {
		if u, err := url.Parse(ref); err == nil && u.Host != "" && !strings.EqualFold(hostOf(u.Host), hostOf(r.Host)) {
			return true
		}
	}
	accept := strings.ToLower(r.Header.Get("Accept"))
	return !strings.Contains(accept, "text/html") && (strings.Contains(accept, "image/") || strings.Contains(accept, "text/css"))
}

// The Fetch Metadata vocabulary (W3C Fetch Metadata Request Headers).
// Destinations are not checked against a list: browsers add new ones
// ("speculationrules", "webbundle").
var (
	fetchSites = setOf("cross-site", "same-origin", "same-site", "none")
	fetchModes = setOf("cors", "navigate", "no-cors", "same-origin", "websocket")
)

// isToken reports whether s is a destination as browsers spell them: one
// or more lower-case letters.
func isToken(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < 'a' || s[i] > 'z' {
			return false
		}
	}
	return s != ""
}

func setOf(words ...string) map[string]bool {
	m := make(map[string]bool, len(words))
	for _, w := range words {
		m[w] = true
	}
	return m
}

// springTrap answers a request for the trap path: a plain 404 to anyone.
// A verified crawler has broken robots.txt, and is logged as itself; any
// other client's address is remembered as trapped. A browser's prefetch,
// subresource or cross-site request springs nothing, nor does anything
// while the site has no robots.txt. A bot whose group in the robots.txt
// served allows it the path (an Allow as long as the trap's Disallow)
// has broken no rule: springTrap leaves it to be judged as any request,
// and reports false.
func (h *Handler) springTrap(w http.ResponseWriter, r *http.Request, snap *snapshot, paths judge.Paths) (bool, error) {
	// Without a robots.txt no served file disallows the trap: whoever
	// follows the link breaks no rule. A browser fetching ahead of a
	// click (speculation rules, a prefetch hint), or fetching what a
	// page embeds, another site's page asks for or a mail links to, has
	// not followed a link of the site; a person would be held, or
	// refused everywhere, for what a page made the browser do; nor has a
	// person who clicked the link where another user posted it. A bot by
	// its own header is not excused by what it says of its fetch.
	ua := userAgent(r)
	var id identity
	if snap.File != nil {
		id = h.identify(ua, snap)
	}
	// The operator's humans entries (a link checker, a monitor) are
	// never held to robots.txt, so never trapped.
	if snap.File == nil || !id.Bot && (isPrefetch(r) || notFollowedHere(r)) || h.classifier.Exempt(ua) {
		return true, trapNotFound(w)
	}
	now := time.Now()
	// A chat app makes a link's preview from the device of the person
	// who shared it (WhatsApp, iMessage), at that person's address: a
	// preview that requests the trap is its own violation, and holds no
	// address. It is held to robots.txt by its header anyway.
	preview := id.Bot && id.claim != nil && id.claim.Category == crawlers.SocialPreview
	res := verify.Result{}
	if id.Bot || signed(r) {
		id, res = h.verifyIdentity(r, id)
	}
	v, fromTrap := robots.Verdict{}, true
	if id.Bot {
		// A violation is what the served file disallows this bot, by
		// the rule that decides there: its group's own where it
		// disallowed the trap already (no trap line was added to it).
		if v, fromTrap = paths.DecideTrap(id.Group, snap.File, h.servedTrap(snap).file, h.Trap); v.Allowed {
			return false, nil
		}
	}
	rule := &robots.Rule{Directive: robots.Disallow, Pattern: h.Trap}
	// The trap's path is the handler's own, no page of the site: its 404
	// refuses nothing, and in monitor mode the violation is logged, as
	// every other one is there, not counted as refused.
	action := judge.Blocked
	if h.Monitor() {
		action = judge.Logged
	}
	j := judgmentOf(r)
	*j = judge.Judgment{
		Verdict: judge.Disallowed, Action: action, Mode: h.Mode, Rule: rule, RuleSource: judge.TrapSource, Judged: true,
		Identity: res.Outcome, VerifiedBy: res.By, Category: id.category,
	}
	// Whether the client read robots.txt, as its other requests say: one
	// that read the file disallowing the trap and came anyway is no bot
	// that "never fetched" it. A person's browser has fetches on record
	// only as the trapped client it may be already.
	fetcher, outcome := id, res.Outcome
	if !id.Bot {
		fetcher, _ = h.trappedIdentity(snap)
		outcome = verify.Trapped
	}
	if f, ok := h.lastFetch(r, ua, &fetcher, outcome); ok {
		j.Fetched, j.FetchedAgo = true, int64(now.Sub(f.At)/time.Second)
	}
	if res.Outcome == verify.Verified || preview {
		j.Bot, j.Group = id.Name, snap.groupName(id.Group)
		if !fromTrap {
			j.Rule, j.RuleSource, j.ServedLine = v.Rule, snap.sourceLine(v.Rule.Line), h.servedLine(snap, v.Rule.Line)
		}
		id.counters.request(res.Outcome, j.Verdict, j.Action, now.UnixNano())
		h.emit(r, EventViolation, j)
		msg := "robots.txt violation: a verified crawler requested the trap"
		if res.Outcome != verify.Verified {
			msg = "robots.txt violation: a link preview requested the trap; its address is not held, as chat apps make previews from the sharer's device"
		}
		h.logger.Warn(msg, violationFields(r, j)...)
	} else {
		held := h.tracker.trap(trapKey{site: siteOf(r), ip: trapAddr(r)}, now.Add(h.TrapTTLOrDefault()))
		// Logged as the trapped client it now is: not the crawler it
		// may have claimed to be, nor that crawler's category.
		j.Bot, j.Group, j.Identity, j.Category = trappedName, "*", verify.Trapped, ""
		h.countersFor(trappedName).request(verify.Trapped, j.Verdict, j.Action, now.UnixNano())
		h.emit(r, EventTrapped, j)
		// A spring can hold a whole network, or the client on every
		// site: the operator must see that more than one address is.
		what, where := "address", ""
		if held.bits != 0 {
			what = "network"
		}
		if held.site == anySite {
			where = " on every site"
		}
		h.logger.Warn("robots.txt trap sprung: this "+what+" is now held to robots.txt"+where, append(violationFields(r, j), zap.String("held", held.String()), zap.Bool("every_site", held.site == anySite),
			zap.Duration("trap_ttl", h.TrapTTLOrDefault()), zap.String("trap_action", h.TrapActionOrDefault()))...)
	}
	return true, trapNotFound(w)
}

// trapNotFound writes the trap's answer, a 404 no shared cache may keep
// (see notStored). It is the same whether the request sprang the trap or
// not: a client must not learn from it that it was caught, nor which of
// its headers let it off.
func trapNotFound(w http.ResponseWriter) error {
	notStored(w)
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.WriteHeader(http.StatusNotFound)
	_, err := w.Write([]byte("404 page not found\n"))
	return err
}

// trapAddr is the address a trap remembers: the client's, or for IPv6
// its /64, which one subscriber or host is given whole and can pick any
// address of.
func trapAddr(r *http.Request) netip.Addr { return pace.Subscriber(clientAddr(r)) }

// trappedIdentity is how a trapped address is judged: a bot held to the
// * group, whatever its User-Agent, with the outcome trapped.
func (h *Handler) trappedIdentity(snap *snapshot) (identity, verify.Result) {
	id := identity{snap: snap, counters: h.countersFor(trappedName), chosenBy: byStar}
	id.Identity = judge.Identity{Bot: true, Name: trappedName, Group: snap.File.GroupFor("*")}
	return id, verify.Result{Outcome: verify.Trapped}
}
