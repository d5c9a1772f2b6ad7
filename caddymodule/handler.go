package caddymodule

import (
	"bytes"
	"errors"
	"net/http"
	"net/netip"
	"strings"
	"time"

	"github.com/caddyserver/caddy/v2"
	"github.com/caddyserver/caddy/v2/modules/caddyhttp"
	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"

	"github.com/robotsguard/caddy-robots-txt/robots"
)

// Values of the action log field and placeholder.
const (
	actionPassed  = "passed"  // allowed (or in grace), passed on
	actionBlocked = "blocked" // disallowed, refused (enforce mode)
	actionLogged  = "logged"  // disallowed, passed on and recorded (monitor mode)
	actionServed  = "served"  // a request for /robots.txt
)

// ServeHTTP serves /robots.txt and judges bot requests.
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request, next caddyhttp.Handler) error {
	src := h.fixed
	if src == nil {
		src = h.dynamic.forRequest(r)
	}
	snap := src.current()

	if r.URL.Path == "/robots.txt" {
		return h.serveRobotsTxt(w, r, next, snap)
	}
	if snap.file == nil {
		return next.ServeHTTP(w, r)
	}
	ua := r.Header.Get("User-Agent")
	id := h.identify(ua, snap)
	if !id.bot {
		return next.ServeHTTP(w, r)
	}

	now := time.Now()
	ip := clientAddr(r)
	fetch, fetched := h.tracker.last(id.name, ip)
	primary, alt := JudgedPaths(r.URL)
	v := Decide(id.group, primary, alt)
	verdict, action := verdictAllowed, actPassed
	if !v.Allowed {
		verdict, action = verdictDisallowed, actBlocked
		if graceAllows(snap, ua, primary, alt, fetch, fetched, h.GraceWindow(), now) {
			verdict, action = verdictGrace, actPassed
		} else if h.Monitor() {
			action = actLogged
		}
	}
	id.counters.request(verdict, action, now.UnixNano())
	h.annotate(r, id, snap, v, verdict, action, fetch, fetched, now)

	switch verdict {
	case verdictAllowed:
		return next.ServeHTTP(w, r)
	case verdictGrace:
		h.logger.Info("robots.txt grace: disallowed by the current version, allowed by one the bot may still be obeying",
			h.violationFields(r, id, snap, v)...)
		return next.ServeHTTP(w, r)
	}
	fields := h.violationFields(r, id, snap, v)
	if action == actLogged {
		h.logger.Warn("robots.txt violation", fields...)
		return next.ServeHTTP(w, r)
	}
	h.logger.Info("robots.txt violation blocked", fields...)
	if h.Body != "" {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		w.WriteHeader(h.Status)
		_, err := w.Write([]byte(h.Body))
		return err
	}
	return caddyhttp.Error(h.Status, errDisallowed)
}

var errDisallowed = errors.New("robots.txt disallows this path for this client")

// clientAddr is the client's address as Caddy resolved it (trusted proxies
// honoured), or the zero Addr.
func clientAddr(r *http.Request) netip.Addr {
	s, _ := caddyhttp.GetVar(r.Context(), caddyhttp.ClientIPVarKey).(string)
	ip, _ := netip.ParseAddr(s)
	return ip
}

// serveRobotsTxt answers GET and HEAD for /robots.txt from the loaded file,
// with validators so that crawlers can revalidate cheaply. It never blocks:
// other methods, and sites without a file, go to the next handler. A bot's
// fetch is remembered, so that its later requests can be judged against
// the version it got.
func (h *Handler) serveRobotsTxt(w http.ResponseWriter, r *http.Request, next caddyhttp.Handler, snap *snapshot) error {
	getOrHead := r.Method == http.MethodGet || r.Method == http.MethodHead
	if snap.file != nil && getOrHead {
		if id := h.identify(r.Header.Get("User-Agent"), snap); id.bot {
			now := time.Now()
			id.counters.fetch(now.UnixNano())
			h.tracker.record(id.name, clientAddr(r), now, snap.etag)
			h.annotate(r, id, snap, robots.Verdict{Allowed: true}, verdictAllowed, actServed, fetchRecord{}, false, now)
		}
	}
	if !h.ServeEnabled() || snap.file == nil || !getOrHead {
		return next.ServeHTTP(w, r)
	}
	hdr := w.Header()
	hdr.Set("Content-Type", "text/plain; charset=utf-8")
	hdr.Set("ETag", snap.etag)
	http.ServeContent(w, r, "robots.txt", snap.modTime, bytes.NewReader(snap.body))
	return nil
}

// annotate sets the placeholders and access-log fields of a bot request.
func (h *Handler) annotate(r *http.Request, id identity, snap *snapshot, v robots.Verdict, verdict, action int, fetch fetchRecord, fetched bool, now time.Time) {
	// One entry per request serves both the access log and, through one
	// placeholder provider, every {http.robots_txt.*}: setting each value
	// instead would box a string apiece, and asking the replacer whether
	// the provider exists would run every other provider first.
	e, ok := caddyhttp.GetVar(r.Context(), entryVar).(*logEntry)
	if !ok {
		e = new(logEntry)
		caddyhttp.SetVar(r.Context(), entryVar, e)
		if repl, ok := r.Context().Value(caddy.ReplacerCtxKey).(*caddy.Replacer); ok {
			repl.Map(e.placeholder)
		}
	}
	*e = logEntry{
		bot:     id.name,
		group:   snap.groupNames[id.group],
		verdict: verdictNames[verdict],
		mode:    h.Mode,
		action:  actionNames[action],
		rule:    v.Rule,
		tracked: action != actServed,
		fetched: fetched,
	}
	if fetched {
		e.fetchedAgo = int64(now.Sub(fetch.at) / time.Second)
	}
	if extra, ok := r.Context().Value(caddyhttp.ExtraLogFieldsCtxKey).(*caddyhttp.ExtraLogFields); ok {
		extra.Set(zap.Object("robots_txt", e))
	}
}

// entryVar is the request variable holding the request's *logEntry.
const entryVar = "robots_txt.entry"

// placeholder returns the value of a {http.robots_txt.*} placeholder.
func (e *logEntry) placeholder(key string) (any, bool) {
	name, ok := strings.CutPrefix(key, "http.robots_txt.")
	if !ok {
		return nil, false
	}
	switch name {
	case "bot":
		return e.bot, true
	case "group":
		return e.group, true
	case "verdict":
		return e.verdict, true
	case "rule":
		return e.rule.String(), true
	case "line":
		if e.rule == nil {
			return 0, true
		}
		return e.rule.Line, true
	case "mode":
		return e.mode, true
	case "action":
		return e.action, true
	case "fetched":
		return e.fetched, e.tracked
	case "fetched_ago":
		return e.fetchedAgo, e.tracked && e.fetched
	}
	return nil, false
}

// logEntry is the robots_txt object of an access-log entry.
type logEntry struct {
	bot, group, verdict, mode, action string
	rule                              *robots.Rule // the deciding rule, or nil
	tracked                           bool         // a judged request, not a fetch of /robots.txt
	fetched                           bool
	fetchedAgo                        int64
}

// MarshalLogObject implements zapcore.ObjectMarshaler.
func (e *logEntry) MarshalLogObject(enc zapcore.ObjectEncoder) error {
	enc.AddString("bot", e.bot)
	enc.AddString("group", e.group)
	enc.AddString("verdict", e.verdict)
	if e.rule != nil {
		enc.AddString("rule", e.rule.String())
		enc.AddInt("line", e.rule.Line)
	}
	enc.AddString("mode", e.mode)
	enc.AddString("action", e.action)
	if e.tracked {
		enc.AddBool("fetched", e.fetched)
		if e.fetched {
			enc.AddInt64("fetched_ago", e.fetchedAgo)
		}
	}
	return nil
}

func (h *Handler) violationFields(r *http.Request, id identity, snap *snapshot, v robots.Verdict) []zap.Field {
	clientIP, _ := caddyhttp.GetVar(r.Context(), caddyhttp.ClientIPVarKey).(string)
	return []zap.Field{
		zap.String("method", r.Method),
		zap.String("host", r.Host),
		zap.String("uri", r.RequestURI),
		zap.String("client_ip", clientIP),
		zap.String("user_agent", r.Header.Get("User-Agent")),
		zap.String("bot", id.name),
		zap.String("group", snap.groupNames[id.group]),
		zap.String("rule", v.Rule.String()),
		zap.Int("line", v.Rule.Line),
	}
}
