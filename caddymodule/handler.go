package caddymodule

import (
	"bytes"
	"errors"
	"net/http"

	"github.com/caddyserver/caddy/v2"
	"github.com/caddyserver/caddy/v2/modules/caddyhttp"
	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"

	"github.com/robotsguard/caddy-robots-txt/robots"
)

// Values of the action log field and placeholder.
const (
	actionPassed  = "passed"  // allowed, passed on
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
	id := h.identify(r.Header.Get("User-Agent"), snap)
	if !id.bot {
		return next.ServeHTTP(w, r)
	}

	primary, alt := judgedPaths(r)
	v := id.group.Decide(primary)
	if v.Allowed && alt != "" {
		if v2 := id.group.Decide(alt); !v2.Allowed {
			v = v2
		}
	}
	action := actionPassed
	if !v.Allowed {
		action = actionBlocked
		if h.Monitor() {
			action = actionLogged
		}
	}
	h.annotate(r, id, snap, v, action)
	if v.Allowed {
		return next.ServeHTTP(w, r)
	}

	fields := h.violationFields(r, id, snap, v)
	if h.Monitor() {
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

// serveRobotsTxt answers GET and HEAD for /robots.txt from the loaded file,
// with validators so that crawlers can revalidate cheaply. It never blocks:
// other methods, and sites without a file, go to the next handler.
func (h *Handler) serveRobotsTxt(w http.ResponseWriter, r *http.Request, next caddyhttp.Handler, snap *snapshot) error {
	if snap.file != nil {
		if id := h.identify(r.Header.Get("User-Agent"), snap); id.bot {
			h.annotate(r, id, snap, robots.Verdict{Allowed: true}, actionServed)
		}
	}
	if !h.ServeEnabled() || snap.file == nil || (r.Method != http.MethodGet && r.Method != http.MethodHead) {
		return next.ServeHTTP(w, r)
	}
	hdr := w.Header()
	hdr.Set("Content-Type", "text/plain; charset=utf-8")
	hdr.Set("ETag", snap.etag)
	http.ServeContent(w, r, "robots.txt", snap.modTime, bytes.NewReader(snap.body))
	return nil
}

// annotate sets the placeholders and access-log fields of a bot request.
func (h *Handler) annotate(r *http.Request, id identity, snap *snapshot, v robots.Verdict, action string) {
	verdict, rule, line := "allowed", "", 0
	if !v.Allowed {
		verdict = "disallowed"
	}
	if v.Rule != nil {
		rule, line = v.Rule.String(), v.Rule.Line
	}
	group := snap.groupNames[id.group]
	if repl, ok := r.Context().Value(caddy.ReplacerCtxKey).(*caddy.Replacer); ok {
		repl.Set("http.robots_txt.bot", id.name)
		repl.Set("http.robots_txt.group", group)
		repl.Set("http.robots_txt.verdict", verdict)
		repl.Set("http.robots_txt.rule", rule)
		repl.Set("http.robots_txt.line", line)
		repl.Set("http.robots_txt.mode", h.Mode)
		repl.Set("http.robots_txt.action", action)
	}
	if extra, ok := r.Context().Value(caddyhttp.ExtraLogFieldsCtxKey).(*caddyhttp.ExtraLogFields); ok {
		extra.Set(zap.Object("robots_txt", logEntry{
			bot: id.name, group: group, verdict: verdict, rule: rule, line: line, mode: h.Mode, action: action,
		}))
	}
}

// logEntry is the robots_txt object of an access-log entry.
type logEntry struct {
	bot, group, verdict, rule, mode, action string
	line                                    int
}

// MarshalLogObject implements zapcore.ObjectMarshaler.
func (e logEntry) MarshalLogObject(enc zapcore.ObjectEncoder) error {
	enc.AddString("bot", e.bot)
	enc.AddString("group", e.group)
	enc.AddString("verdict", e.verdict)
	if e.rule != "" {
		enc.AddString("rule", e.rule)
		enc.AddInt("line", e.line)
	}
	enc.AddString("mode", e.mode)
	enc.AddString("action", e.action)
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
