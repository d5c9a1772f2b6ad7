package caddymodule

import (
	"bytes"
	"errors"
	"io"
	"net/http"
	"net/netip"
	"strconv"
	"strings"
	"time"

	"github.com/caddyserver/caddy/v2"
	"github.com/caddyserver/caddy/v2/modules/caddyhttp"
	"go.uber.org/zap"

	"github.com/robotsguard/caddy-robots-txt/caddymodule/judge"
	"github.com/robotsguard/caddy-robots-txt/caddymodule/pace"
	"github.com/robotsguard/caddy-robots-txt/caddymodule/verify"
	"github.com/robotsguard/caddy-robots-txt/config"
	"github.com/robotsguard/caddy-robots-txt/robots"
)

// ServeHTTP serves /robots.txt and judges bot requests.
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request, next caddyhttp.Handler) error {
	h.learnServer(r)
	h.checkRoutesAt(r)
	src := h.fixed
	if src == nil {
		src = h.dynamic.forRequest(r)
	}
	snap := src.current()

	// robots.txt speaks of the URL the client asked for: judge that one,
	// not what rewrite, uri or try_files made of it before this handler.
	sentReq := sentRequest(r)
	u, sent := sentReq.URL, sentReq.RequestURI
	if sent == "" {
		// No client sent this request: Caddy made it inside another
		// (templates' httpInclude), whose own URL was judged. Judging
		// it too would refuse or pace the page's parts as if the bot
		// had asked for them, and fail the page.
		return next.ServeHTTP(w, r)
	}
	// The path as a server reads it ("//robots.txt", "/x/../robots.txt"
	// and "/%72obots.txt" are /robots.txt), as the rules judge it.
	served := judge.ServedPath(u.Path)
	h.setContentUsage(w, snap, served, u)
	if h.asksRobotsTxt(r, u.Path, served, snap) {
		return h.serveRobotsTxt(w, r, next, src, snap)
	}
	if h.trapOn() && strings.HasPrefix(served, h.trapPath) {
		if done, err := h.springTrap(w, r, snap, judge.PathsOfServed(served, u)); done {
			return err
		}
	}
	ua := userAgent(r)
	trapped := h.trappedAt(r, snap, ua)
	if snap.File == nil {
		// No robots.txt: nothing is disallowed, but bots are still
		// told apart and counted, so that the access log, the metrics
		// and the report keep them.
		snap = noRobotsTxt
	}
	id, res := h.whoIs(r, ua, snap)
	if !id.Bot && !trapped {
		return next.ServeHTTP(w, r)
	}
	paths := judge.PathsOfServed(served, u)
	switch {
	case trapped && id.Bot && res.Outcome != verify.Verified && h.refusesAnyway(id, res, paths):
		// A bot by its own header that its own rules refuse here (an
		// impostor under impostors block, a group that disallows the
		// path) stays what it is: springing the trap must not buy it
		// the * group's rules. Nor does grace excuse it.
		id.trapped = true
	case trapped && res.Outcome != verify.Verified:
		// Caught by the trap: a bot, whatever its User-Agent says. A
		// crawler verified by its address or signature is still judged
		// as itself: an address a person or proxy shares with it may
		// have sprung the trap. A bot keeps its own group's Crawl-delay
		// where that is the longer.
		own := id
		id, res = h.trappedIdentity(snap)
		if own.Bot && own.Group != nil {
			id.own = own.Group
		}
		id.unpaced = !own.Bot
	}

	j := h.judge(r, ua, paths, id, res)
	if res.Outcome == verify.Impostor {
		h.emit(r, EventImpostor, j)
	}
	if j.Verdict == judge.Disallowed || j.Verdict == judge.TooFast {
		h.emit(r, EventViolation, j)
	}
	switch j.Verdict {
	case judge.Allowed:
		return next.ServeHTTP(w, r)
	case judge.Grace:
		h.logger.Info("robots.txt grace: disallowed by the current version, allowed by the one this bot fetched",
			violationFields(r, j)...)
		return next.ServeHTTP(w, r)
	}
	fields := violationFields(r, j)
	if j.Verdict == judge.TooFast {
		fields = append(fields, zap.Duration("crawl_delay", paceDelay(id, res.Outcome == verify.Verified)), zap.Duration("retry_after", j.RetryAfter))
	}
	msg := violationMessage(j)
	if j.Action == judge.Logged {
		h.logger.Warn(msg, fields...)
		return next.ServeHTTP(w, r)
	}
	h.logger.Info(msg+" blocked", fields...)
	notStored(w)
	status, errRefused := h.Status, errDisallowed
	if j.Verdict == judge.TooFast {
		w.Header().Set("Retry-After", strconv.FormatInt(int64((j.RetryAfter+time.Second-1)/time.Second), 10))
		status, errRefused = http.StatusTooManyRequests, errTooFast
	}
	if h.Body != "" {
		body := h.Body
		if repl, ok := r.Context().Value(caddy.ReplacerCtxKey).(*caddy.Replacer); ok {
			body = repl.ReplaceKnown(body, "")
		}
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		w.WriteHeader(status)
		_, err := w.Write([]byte(body))
		return err
	}
	return caddyhttp.Error(status, errRefused)
}

// refusesAnyway reports whether a bot's own identity refuses the request
// at paths, before grace: an impostor under impostors block, a group that
// disallows the path, or the usage preferences with signals enforce
// (signals monitor refuses nothing). A trapped bot is judged so; otherwise as the
// trapped client it is, by the * group.
func (h *Handler) refusesAnyway(id identity, res verify.Result, paths judge.Paths) bool {
	if res.Outcome == verify.Impostor && h.ImpostorPolicy() == config.ImpostorsBlock {
		return true
	}
	v, _, _ := id.decide(paths)
	return !v.Allowed || h.Signals == config.ModeEnforce && h.signalRefuses(id, paths) != ""
}

// notStored marks a response no shared cache may keep, whatever
// Cache-Control an earlier header directive gave the site's responses: a
// refusal is for this client (its User-Agent, its address, its pace), and
// a CDN that kept a bot's 403 would answer people with it, which no Vary
// can prevent (it cannot name the address); the trap's 404 must reach the
// handler to catch anyone. The headers a CDN reads before Cache-Control
// (RFC 9213's CDN-Cache-Control and the vendors' own) go too.
func notStored(w http.ResponseWriter) {
	h := w.Header()
	h.Set("Cache-Control", "no-store")
	for _, k := range cdnCacheHeaders {
		h.Del(k)
	}
}

// cdnCacheHeaders are the cache directives for CDNs only, which they obey
// in place of Cache-Control.
var cdnCacheHeaders = []string{"CDN-Cache-Control", "Surrogate-Control", "Cloudflare-CDN-Cache-Control", "Akamai-Cache-Control"}

// violationMessage names what a refused or logged request broke.
func violationMessage(j *judge.Judgment) string {
	switch {
	case j.Verdict == judge.TooFast:
		return "robots.txt crawl-delay violation"
	case j.Signal != "":
		return "robots.txt content-signal violation"
	case j.Rule == nil: // refused everywhere: an impostor or a trapped address
		return "robots.txt " + j.Identity.String()
	}
	return "robots.txt violation"
}

var (
	errDisallowed = errors.New("robots.txt disallows this path for this client")
	errTooFast    = errors.New("robots.txt asks this client to wait longer between requests (Crawl-delay)")
)

// lastFetch is the last fetch of robots.txt on record for the bot id,
// sending ua from r's client, on r's site. It takes id by reference: an
// identity is large, and this is on every bot request's path.
func (h *Handler) lastFetch(r *http.Request, ua string, id *identity, outcome verify.Outcome) (judge.Fetch, bool) {
	site, scope := siteOf(r), id.snap.scope
	f, ok := h.tracker.last(fetchKey{id.Name, fetchAddr(r, outcome), site, scope, agentOf(id.Name, ua)})
	if !ok && id.Name != judge.Generic && outcome == verify.Unverified {
		// The usual way to block a new bot is to name it in robots.txt:
		// its fetch from before, as an unnamed bot, is still its fetch
		// (same address, same header), and earns it grace. Not for a
		// trapped client or an impostor, which grace never excuses.
		f, ok = h.tracker.last(fetchKey{judge.Generic, clientAddr(r), site, scope, agentOf(judge.Generic, ua)})
	}
	return f, ok
}

// judge decides a bot request and records the judgment where the access
// log, the placeholders and the counters read it.
func (h *Handler) judge(r *http.Request, ua string, paths judge.Paths, id identity, res verify.Result) *judge.Judgment {
	now := time.Now()
	snap := id.snap
	req := judge.Request{UA: ua, Choice: id.choice(h.checker.base), Paths: paths, Now: now}
	req.Fetch, req.Fetched = h.lastFetch(r, ua, &id, res.Outcome)
	v, group, capped := id.decide(req.Paths)
	if snap != noRobotsTxt && (res.Outcome == verify.Impostor && h.ImpostorPolicy() == config.ImpostorsBlock ||
		res.Outcome == verify.Trapped && h.TrapActionOrDefault() == config.TrapBlock) {
		// Refused everywhere, whatever the rules say: no rule decided.
		// Without a robots.txt every bot is allowed everywhere, as
		// documented, impostors included.
		v = robots.Verdict{}
	}

	record := judgmentOf(r)
	var prev judge.Judgment // what another handler of this route made of it
	if record.Judged {
		prev = *record
	}
	j := record
	*j = judge.Judgment{
		Bot: id.Name, Group: snap.groupName(group), Verdict: judge.Allowed, Action: judge.Passed,
		Mode: h.Mode, Rule: v.Rule, Judged: true, Fetched: req.Fetched,
		Identity: res.Outcome, VerifiedBy: res.By, Category: id.category, Capped: capped,
	}
	if req.Fetched {
		j.FetchedAgo = int64(now.Sub(req.Fetch.At) / time.Second)
	}
	if v.Rule != nil {
		j.RuleSource, j.ServedLine = snap.sourceLine(v.Rule.Line), h.servedLine(snap, v.Rule.Line)
	}
	if !v.Allowed {
		switch {
		case v.Rule != nil && !id.trapped && res.Outcome != verify.Trapped && snap.GraceAllows(&req, h.GraceWindow()):
			// A trapped client gets no grace: not as itself
			// (id.trapped), nor by a fetch it made trapped.
			j.Verdict = judge.Grace
		case h.Monitor():
			j.Verdict, j.Action = judge.Disallowed, judge.Logged
		default:
			j.Verdict, j.Action = judge.Disallowed, judge.Blocked
		}
	}
	// Signals are a setting of their own (judge.SignalDecides); the
	// preferences are read only when they could decide.
	if a, ok := judge.SignalDecides(j.Verdict, j.Action, h.Signals == config.ModeEnforce); ok {
		if sig := h.signalRefuses(id, req.Paths); sig != "" {
			j.Verdict, j.Action, j.Signal = judge.Disallowed, a, sig
			if !judge.NamedWithSignal(j.Rule) {
				// The preference refused what the rule allowed: the
				// rule is no reason for the refusal, the signal is.
				j.Rule, j.RuleSource, j.ServedLine = nil, "", 0
			}
		}
	}
	// A request disallowed (by a rule, a signal or the trap) is that
	// violation, logged or refused, not also a rate one.
	if j.Verdict != judge.Disallowed && id.crawlDelay() > 0 && h.CrawlDelayPolicy() != config.CrawlDelayOff &&
		!(res.Outcome == verify.Verified && id.claim != nil && id.claim.IgnoresCrawlDelay) {
		// A crawler verified as one whose operator says it does not
		// read Crawl-delay (Google's) is not paced: going faster is no
		// violation by its reading of the file, and a 429 would only
		// slow it. Claims nobody verified are paced, or anyone could
		// send Googlebot's name to escape the delay.
		if ok, wait := h.pace(r, id, res.Outcome == verify.Verified, siteOf(r), now); !ok {
			j.Verdict, j.Action, j.RetryAfter = judge.TooFast, judge.Blocked, wait
			// The group whose Crawl-delay was broken, which is not
			// id.Group where the header's own asks for longer.
			j.Group = snap.groupName(id.pacedBy())
			if h.CrawlDelayPolicy() == config.ModeMonitor {
				j.Action = judge.Logged
			}
		}
	}
	id.counters.request(res.Outcome, j.Verdict, j.Action, now.UnixNano())
	if prev.Judged && severity(&prev) > severity(j) {
		// Another robots_txt handler of this route judged the request
		// already (a site with one per matcher): the access log keeps
		// the graver verdict, so that a violation one of them logged
		// does not vanish behind the other's "allowed". This one still
		// acts on its own.
		own := *j
		*record = prev
		return &own
	}
	return j
}

// severity ranks judgments for the access log of a request that several
// handlers judged: a refusal over anything only logged; then a violation
// of a rule over one of a rate, over grace, over allowed.
func severity(j *judge.Judgment) int {
	rank := 0
	switch j.Verdict {
	case judge.Grace:
		rank = 1
	case judge.TooFast:
		rank = 2
	case judge.Disallowed:
		rank = 3
	}
	if j.Action == judge.Blocked {
		rank += 10
	}
	return rank
}

// pace admits a request under its group's Crawl-delay: one schedule per
// crawler, across the many addresses crawlers use, when the bot is a
// verified crawler that a group names; one per address otherwise (unnamed
// bots, impostors, and claims nobody verified), since anyone can send a
// crawler's name and would use up its schedule. The delay is in force
// since the first of the versions of the file that set the delays in
// force came in: a delay lowered by an edit holds a bot to the new one
// from then, not from its next request, nor from a later edit that left
// the delays alone.
func (h *Handler) pace(r *http.Request, id identity, verified bool, site uint64, now time.Time) (bool, time.Duration) {
	delay := paceDelay(id, verified)
	if verified && id.Group != id.snap.File.GroupFor("*") {
		ok, wait := h.tracker.pace.Named(site, id.Name, delay, id.snap.DelaySince, now)
		if ok && h.tracker.sharer != nil {
			h.tracker.sharer.RecordPaced(site, id.Name)
		}
		return ok, wait
	}
	// The group is told apart by an agent of its own (each agent is in
	// one group of a file), not by its line: an edit that moves the
	// group must not hand every bot held to it a fresh burst.
	var group uint32
	if id.Group != nil && len(id.Group.Agents) > 0 {
		group = uint32(fnv1a(id.Group.Agents[0], true))
	}
	return h.tracker.pace.Addr(site, clientAddr(r), group, delay, id.snap.DelaySince, now)
}

// paceDelay is the Crawl-delay id is paced by, clamped: a crawler verified
// as one that reads no longer delay than its operator documents (Yandex:
// 2 s) is paced by that, since keeping to it is keeping to the file by its
// own reading (audit AN's notes); the violation log says the same delay
// (audit AP-F4).
func paceDelay(id identity, verified bool) time.Duration {
	delay := pace.Clamp(id.crawlDelay())
	if verified && id.claim != nil && id.claim.MaxCrawlDelay > 0 {
		delay = min(delay, pace.Clamp(time.Duration(id.claim.MaxCrawlDelay*float64(time.Second))))
	}
	return delay
}

// userAgent is the request's User-Agent header. A client that sends it
// more than once (no browser does, and a backend may read any of them) is
// judged by all of it, joined as HTTP joins a repeated field: a browser's
// value first must not hide the bot's after it.
func userAgent(r *http.Request) string {
	v := r.Header["User-Agent"]
	switch len(v) {
	case 0:
		return ""
	case 1:
		return v[0]
	}
	return strings.Join(v, ", ")
}

// clientAddr is the client's address as Caddy resolved it (trusted proxies
// honoured), or the zero Addr.
func clientAddr(r *http.Request) netip.Addr {
	s, _ := caddyhttp.GetVar(r.Context(), caddyhttp.ClientIPVarKey).(string)
	ip, _ := netip.ParseAddr(s)
	return ip
}

// asksRobotsTxt reports whether r is a request for robots.txt, which no
// spelling may refuse. When the handler answers it, that is every spelling
// a server reads as /robots.txt, "/robots.txt/." included (a file server
// opens the file for it). A request it passes on (serve off, or a method
// other than GET and HEAD) reaches the next handler as sent, and a backend
// that does not resolve dot-segments sends "/private/x/../../robots.txt"
// to its /private/ handler: only a path that is /robots.txt as sent is let
// through unjudged, the others are judged like any path.
func (h *Handler) asksRobotsTxt(r *http.Request, decoded, served string, snap *snapshot) bool {
	is, asSent := judge.RobotsTxtRequest(served, decoded)
	return is && (asSent || h.answersRobotsTxt(r, snap))
}

// answersRobotsTxt reports whether the handler answers a request for
// robots.txt itself rather than passing it on: not while an upstream's
// file is not known, even with included lists in force (see
// source.standIn).
func (h *Handler) answersRobotsTxt(r *http.Request, snap *snapshot) bool {
	return h.ServeEnabled() && snap.File != nil && !snap.unknown && (r.Method == http.MethodGet || r.Method == http.MethodHead)
}

// serveRobotsTxt answers GET and HEAD for /robots.txt from the loaded file,
// with validators so that crawlers can revalidate cheaply. It never blocks:
// other methods, and sites without a file, go to the next handler. A bot's
// fetch is remembered, so that its later requests can be judged against
// the version it got.
func (h *Handler) serveRobotsTxt(w http.ResponseWriter, r *http.Request, next caddyhttp.Handler, src *source, snap *snapshot) error {
	if !h.answersRobotsTxt(r, snap) {
		switch r.Method {
		case http.MethodGet, http.MethodHead:
			// Without a robots.txt (none on disk, an upstream's
			// 4xx) the next handler answers, but a bot asked, and
			// what it learnt (that everything is allowed) is a
			// fetch like any other.
			h.served(r, src, snap, h.judgeFetch(r, snap), r.Method == http.MethodGet)
			if h.ServeEnabled() && src.withheld() {
				// The file is no robots.txt (a log, an HTML page,
				// what a tenant's symlink points at): the next
				// handler, a file_server, would serve it as
				// /robots.txt. A 404 says what is enforced: no
				// robots.txt, every bot allowed.
				notStored(w)
				w.Header().Set("Content-Type", "text/plain; charset=utf-8")
				w.WriteHeader(http.StatusNotFound)
				if r.Method == http.MethodGet {
					_, err := io.WriteString(w, "no robots.txt\n")
					return err
				}
				return nil
			}
		default:
			h.recordPassed(r, snap)
		}
		return next.ServeHTTP(w, r)
	}
	// Judged before the answer is written: a deferred header directive
	// ("header >X-Robots-Bot {http.robots_txt.bot}") reads the
	// placeholders when it is.
	f := h.judgeFetch(r, snap)
	body, etag := h.servedBody(snap)
	hdr := w.Header()
	hdr.Set("Content-Type", "text/plain; charset=utf-8")
	hdr.Set("ETag", etag)
	sw := &statusWriter{ResponseWriter: w}
	now := src.served.now()
	lm := src.lastModified(h.Trap, etag, now)
	http.ServeContent(sw, r, "robots.txt", lm, bytes.NewReader(body))
	// The bot got the rules only with the whole text, or with a 304 to
	// the validators of the version it has: a HEAD, a Range answered
	// with part of the file (206) or none of it (416), or a failed
	// If-Match (412) gave it none to obey.
	h.served(r, src, snap, f, r.Method == http.MethodGet && (sw.status == http.StatusOK || sw.status == http.StatusNotModified &&
		judge.NotModifiedNamesVersion(r.Header.Get("If-None-Match"), r.Header.Get("If-Modified-Since"), etag, now)))
	return nil
}

// served records a bot's GET or HEAD of robots.txt, judged as f; whole
// says it got the rules, which makes it a fetch.
func (h *Handler) served(r *http.Request, src *source, snap *snapshot, f fetcher, whole bool) {
	h.rememberFetches(r, snap, f, whole)
	if !whole {
		return
	}
	// A version someone read is one grace must keep when the file
	// changes often (see judge.Version.Follow).
	snap.MarkServed()
	if snap.File != nil && !snap.unknown && snap.kept.CompareAndSwap(false, true) {
		// A version someone was served is one a bot may obey after a
		// restart: keep it (once). A version never served needs no
		// keeping, and "caddy validate", which serves nothing, writes
		// nothing to the storage.
		src.storeVersion(snap)
	}
}

// statusWriter remembers the status written through it.
type statusWriter struct {
	http.ResponseWriter
	status int
}

func (sw *statusWriter) WriteHeader(code int) {
	if sw.status == 0 {
		sw.status = code
	}
	sw.ResponseWriter.WriteHeader(code)
}

func (sw *statusWriter) Write(b []byte) (int, error) {
	if sw.status == 0 {
		sw.status = http.StatusOK
	}
	return sw.ResponseWriter.Write(b)
}

// fetcher is who asked for robots.txt: the client by its header and,
// when its address sprang the trap, the trapped client it also is.
type fetcher struct {
	id, trapped  identity
	res, trapRes verify.Result
	isTrapped    bool
	// counted are the counters the fetch was counted in, at at (unix
	// nanoseconds): the bot's, or the trapped client's; nil for none.
	counted *botCounters
	at      int64
}

// judgeFetch makes a request for robots.txt the request's judgment, under
// the name its later requests will be judged by (an impostor's under its
// own, an address the trap caught as the trapped client), and counts it;
// rememberFetches then keeps it, once the answer shows whether it gave
// the rules.
func (h *Handler) judgeFetch(r *http.Request, snap *snapshot) fetcher {
	ua := userAgent(r)
	var f fetcher
	f.id, f.res = h.whoIs(r, ua, snap)
	who, res := f.id, f.res
	if res.Outcome != verify.Verified && h.trappedAt(r, snap, ua) {
		// The address's requests are a trapped client's from the trap
		// on, whatever their header: so is this fetch, which they
		// report as fetched.
		f.trapped, f.trapRes = h.trappedIdentity(snap)
		f.isTrapped = true
		who, res = f.trapped, f.trapRes
	}
	if !who.Bot {
		return f
	}
	f.counted, f.at = who.counters, time.Now().UnixNano()
	who.counters.fetch(f.at)
	j := judgmentOf(r)
	*j = judge.Judgment{
		Bot: who.Name, Group: snap.fetchedGroupName(who.Group), Verdict: judge.Allowed,
		Action: judge.Served, Mode: h.Mode,
		Identity: res.Outcome, VerifiedBy: res.By, Category: who.category,
	}
	return f
}

// rememberFetches keeps a fetch of robots.txt that gave the rules (whole)
// for the later requests of the bot and of the trapped client f is. A
// request that got no rules is counted and logged as served, but is no
// fetch that a later request may report as fetched, or that grace may
// excuse by.
func (h *Handler) rememberFetches(r *http.Request, snap *snapshot, f fetcher, whole bool) {
	if !whole {
		return
	}
	ua := userAgent(r)
	fe := judge.Fetch{At: time.Now(), ETag: snap.ETag}
	// The admin stats' last_fetch, by the same rule (audit AG-F1): a
	// HEAD, a 304 to If-None-Match: *, a 206 gave no rules.
	if f.counted != nil {
		// When it was counted, as last_seen: the answer ends later.
		f.counted.fetched(f.at)
	}
	if f.id.Bot {
		// A trapped bot is judged by its own group where that refuses:
		// the fetch is its own too.
		h.rememberFetch(fetchKey{f.id.Name, fetchAddr(r, f.res.Outcome), siteOf(r), snap.scope, agentOf(f.id.Name, ua)}, fe)
	}
	if f.isTrapped {
		h.rememberFetch(fetchKey{f.trapped.Name, fetchAddr(r, f.trapRes.Outcome), siteOf(r), snap.scope, agentOf(f.trapped.Name, ua)}, fe)
	}
}

// recordPassed makes a bot's request for robots.txt by a method other
// than GET or HEAD, which goes to the next handler unjudged (robots.txt is
// never refused), the bot's request: allowed and passed, in the access
// log and the counters, not taken for a person's. It is no fetch.
func (h *Handler) recordPassed(r *http.Request, snap *snapshot) {
	ua := userAgent(r)
	trapped := h.trappedAt(r, snap, ua)
	if snap.File == nil {
		snap = noRobotsTxt
	}
	id, res := h.whoIs(r, ua, snap)
	if trapped && res.Outcome != verify.Verified {
		id, res = h.trappedIdentity(snap)
	}
	if !id.Bot {
		return
	}
	now := time.Now()
	id.counters.request(res.Outcome, judge.Allowed, judge.Passed, now.UnixNano())
	j := judgmentOf(r)
	*j = judge.Judgment{
		Bot: id.Name, Group: snap.groupName(id.Group), Verdict: judge.Allowed, Action: judge.Passed,
		Mode: h.Mode, Judged: true, Identity: res.Outcome, VerifiedBy: res.By, Category: id.category,
	}
	// No fetch, but like the bot's other requests it says whether the
	// bot fetched robots.txt before: the report's share of requests
	// made after a fetch counts it.
	if f, ok := h.lastFetch(r, ua, &id, res.Outcome); ok {
		j.Fetched, j.FetchedAgo = true, int64(now.Sub(f.At)/time.Second)
	}
}

// whoIs identifies the client sending ua against snap and, when it claims
// to be a bot or signs its request, checks the claim. A signed request is
// checked whatever its User-Agent says: agents that sign (ChatGPT's, for
// one) send a browser's.
func (h *Handler) whoIs(r *http.Request, ua string, snap *snapshot) (identity, verify.Result) {
	id := h.identify(ua, snap)
	if !id.Bot && !signed(r) {
		return id, verify.Result{}
	}
	return h.verifyIdentity(r, id)
}

// rememberFetch records f as the last fetch under k, unless the one
// recorded is the better to keep.
func (h *Handler) rememberFetch(k fetchKey, f judge.Fetch) {
	if prev, ok := h.tracker.last(k); !ok || replaces(f, prev) {
		h.tracker.record(k, f)
	}
}

// trappedAt reports whether r comes from an address the trap caught on
// its site, while the trap is on (see trapOn). Without a robots.txt no
// file announces the trap, so an address caught earlier is not held now.
// The operator's humans entries win over the trap too.
func (h *Handler) trappedAt(r *http.Request, snap *snapshot, ua string) bool {
	return h.trapOn() && snap.File != nil && h.tracker.isTrapped(trapKey{site: siteOf(r), ip: trapAddr(r)}, time.Now()) &&
		!h.classifier.Exempt(ua)
}

// judgmentVar is the request variable holding the request's judgment.
const judgmentVar = "robots_txt.judgment"

// judgmentOf returns the judgment of r, made and registered on first use:
// one value per request serves the access log and, through one
// placeholder provider, every {http.robots_txt.*}. (Setting each value
// instead would box a string apiece, and asking the replacer whether the
// provider exists would run every other provider first.)
func judgmentOf(r *http.Request) *judge.Judgment {
	if j, ok := caddyhttp.GetVar(r.Context(), judgmentVar).(*judge.Judgment); ok {
		return j
	}
	j := new(judge.Judgment)
	caddyhttp.SetVar(r.Context(), judgmentVar, j)
	if repl, ok := r.Context().Value(caddy.ReplacerCtxKey).(*caddy.Replacer); ok {
		repl.Map(func(key string) (any, bool) {
			name, ok := strings.CutPrefix(key, placeholderPrefix)
			if !ok {
				return nil, false
			}
			return j.Placeholder(name)
		})
	}
	if extra, ok := r.Context().Value(caddyhttp.ExtraLogFieldsCtxKey).(*caddyhttp.ExtraLogFields); ok {
		extra.Set(zap.Object(judge.LogObject, j))
	}
	return j
}

// placeholderPrefix starts every placeholder the handler provides.
const placeholderPrefix = "http." + judge.LogObject + "."

func violationFields(r *http.Request, j *judge.Judgment) []zap.Field {
	clientIP, _ := caddyhttp.GetVar(r.Context(), caddyhttp.ClientIPVarKey).(string)
	// The request as the client sent it, which was judged: after uri
	// strip_prefix or try_files, r's URI is one no rule was matched with.
	// Caddy's copy of it keeps no Host, which no rewrite changes.
	sent := sentRequest(r)
	return []zap.Field{
		zap.String("method", sent.Method),
		zap.String("host", r.Host),
		zap.String("uri", sent.RequestURI),
		zap.String("client_ip", clientIP),
		zap.String("user_agent", userAgent(r)),
		zap.String(judge.FieldBot, j.Bot),
		zap.String(judge.FieldGroup, j.Group),
		zap.String(judge.FieldIdentity, j.Identity.String()),
		optional(judge.FieldViolation, j.Violation()),
		optional(judge.FieldSignal, j.Signal),
		optional(judge.FieldRule, j.Rule.String()),
		lineField(j),
		optional(judge.FieldRuleSource, j.RuleSource),
	}
}

// sentRequest is r as the client sent it, before rewrite, uri or
// try_files changed it (Caddy keeps a copy); r itself where there is none.
// It is a copy, which stays on the stack.
func sentRequest(r *http.Request) http.Request {
	if orig, ok := r.Context().Value(caddyhttp.OriginalRequestCtxKey).(http.Request); ok && orig.URL != nil {
		return orig
	}
	return *r
}

// optional is a string field, skipped when empty, as the access log skips
// it: a grace line has no violation, a crawl-delay one no rule, and most
// no signal or rule source.
func optional(key, v string) zap.Field {
	if v == "" {
		return zap.Skip()
	}
	return zap.String(key, v)
}

// lineField is the line of the deciding rule as a log field, skipped when
// there is none (no rule matched, or the trap's, which is no line of the
// file).
func lineField(j *judge.Judgment) zap.Field {
	if l := j.Line(); l > 0 {
		return zap.Int(judge.FieldLine, l)
	}
	return zap.Skip()
}
