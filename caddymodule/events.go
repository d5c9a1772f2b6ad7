package caddymodule

import (
	"net/http"

	"github.com/caddyserver/caddy/v2"
	"github.com/caddyserver/caddy/v2/modules/caddyevents"
	"github.com/caddyserver/caddy/v2/modules/caddyhttp"

	"github.com/robotsguard/caddy-robots-txt/caddymodule/judge"
)

// The Caddy events the handler emits, for an events handler to act on
// (as caddy-ratelimit emits rate_limit_exceeded).
const (
	// EventViolation: a bot broke robots.txt (a disallowed path or a
	// request faster than the Crawl-delay), refused or logged.
	EventViolation = "robots_txt_violation"
	// EventImpostor: a request claimed a crawler and failed the check.
	EventImpostor = "robots_txt_impostor"
	// EventTrapped: a client requested the trap path.
	EventTrapped = "robots_txt_trapped"
)

// eventsOf is the configuration's events app; nil for a context without a
// configuration (as in unit tests), where Caddy's accessor would panic.
func eventsOf(ctx caddy.Context) (app *caddyevents.App) {
	defer func() {
		if recover() != nil {
			app = nil
		}
	}()
	a, err := ctx.App("events")
	if err != nil {
		return nil
	}
	app, _ = a.(*caddyevents.App)
	return app
}

// emit sends the event name about a judged request, when anything
// listens for it: the event's data is built only then.
func (h *Handler) emit(r *http.Request, name string, j *judge.Judgment) {
	if h.events == nil || !h.events.ShouldEmit(name) {
		return
	}
	clientIP, _ := caddyhttp.GetVar(r.Context(), caddyhttp.ClientIPVarKey).(string)
	h.events.Emit(h.ctx, name, map[string]any{
		judge.FieldBot:       j.Bot,
		judge.FieldIdentity:  j.Identity.String(),
		judge.FieldGroup:     j.Group,
		judge.FieldVerdict:   j.Verdict.String(),
		judge.FieldViolation: j.Violation(),
		judge.FieldSignal:    j.Signal,
		judge.FieldRule:      j.Rule.String(),
		judge.FieldLine:      j.Line(),
		// With included lists, line is a line of the served file: only
		// rule_source names the file and line the rule was written at.
		judge.FieldRuleSource: j.RuleSource,
		judge.FieldAction:     j.Action.String(),
		judge.FieldMode:       j.Mode,
		"client_ip":           clientIP,
		"host":                r.Host,
		"uri":                 r.RequestURI,
		"user_agent":          userAgent(r),
	})
}
