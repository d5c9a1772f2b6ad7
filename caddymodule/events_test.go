package caddymodule

import (
	"context"
	"sync"
	"testing"

	"github.com/caddyserver/caddy/v2"
	"github.com/caddyserver/caddy/v2/modules/caddyevents"

	"github.com/robotsguard/caddy-robots-txt/caddymodule/judge"
	"github.com/robotsguard/caddy-robots-txt/config"
)

// eventRecorder is an events handler that keeps what it is sent, as a
// plugin's handler subscribed in the events app would receive it.
type eventRecorder struct {
	mu     sync.Mutex
	events []caddy.Event
}

func (e *eventRecorder) Handle(_ context.Context, ev caddy.Event) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.events = append(e.events, ev)
	return nil
}

// listen gives h an events app with rec subscribed to the handler's events.
func listen(t *testing.T, h *Handler, rec *eventRecorder) {
	t.Helper()
	ctx, cancel := newContext()
	t.Cleanup(cancel)
	app := new(caddyevents.App)
	if err := app.Provision(ctx); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{EventViolation, EventImpostor, EventTrapped} {
		if err := app.On(name, rec); err != nil {
			t.Fatal(err)
		}
	}
	h.events = app
}

// TestEventData: an event says what the access log says of the rule, so
// that a line of an included list is told from a line of the site's file.
func TestEventData(t *testing.T) {
	list := writeRobots(t, "User-agent: BadBot\nDisallow: /\n")
	site := writeRobots(t, "User-agent: *\nDisallow: /private/\n")
	h, _ := newTestHandler(t, config.Config{File: site, Include: []string{list}, DisableReload: true})
	rec := new(eventRecorder)
	listen(t, h, rec)
	for _, tc := range []struct {
		ua, path   string
		rule       string
		line       int
		ruleSource string
	}{
		{"curl/8", "/private/x", "disallow: /private/", 2, site + ":2"},
		{"BadBot/1.0", "/x", "disallow: /", 6, list + ":2"}, // line 6 of the served file
	} {
		rec.events = nil
		if _, err := serve(h, withIP(newRequest("GET", tc.path, tc.ua), "192.0.2.1")); err == nil {
			t.Errorf("%s %s: want a refusal", tc.ua, tc.path)
		}
		if len(rec.events) != 1 || rec.events[0].Name() != EventViolation {
			t.Fatalf("%s %s: want one %s event, got %v", tc.ua, tc.path, EventViolation, rec.events)
		}
		d := rec.events[0].Data
		if d[judge.FieldRule] != tc.rule || d[judge.FieldLine] != tc.line || d[judge.FieldRuleSource] != tc.ruleSource || d["client_ip"] != "192.0.2.1" {
			t.Errorf("%s %s: event data %v, want rule %q line %d rule_source %q", tc.ua, tc.path, d, tc.rule, tc.line, tc.ruleSource)
		}
	}
}

// TestEventsFireOnce: each violation, trap spring or impostor is one
// event, in either mode; allowed requests, people and fetches of
// /robots.txt are none.
func TestEventsFireOnce(t *testing.T) {
	const firefox = "Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0"
	path := writeRobots(t, "User-agent: *\nDisallow: /private/\n")
	for _, mode := range []string{"enforce", "monitor"} {
		h, _ := newTestHandler(t, config.Config{File: path, Mode: mode, Trap: "/trap/", DisableReload: true})
		rec := new(eventRecorder)
		listen(t, h, rec)
		for _, tc := range []struct {
			ip, ua, path string
			want         string // the event's name, "" for none
		}{
			{"192.0.2.1", firefox, "/private/x", ""},
			{"192.0.2.1", "curl/8", "/robots.txt", ""},
			{"192.0.2.1", "curl/8", "/public", ""},
			{"192.0.2.1", "curl/8", "/private/x", EventViolation},
			{"192.0.2.2", firefox, "/trap/", EventTrapped},
			{"192.0.2.2", firefox, "/private/x", EventViolation},
			{"192.0.2.2", firefox, "/public", ""},
		} {
			rec.events = nil
			_, _ = serve(h, withIP(newRequest("GET", tc.path, tc.ua), tc.ip))
			var got []string
			for _, ev := range rec.events {
				got = append(got, ev.Name())
			}
			if (tc.want == "" && len(got) != 0) || (tc.want != "" && (len(got) != 1 || got[0] != tc.want)) {
				t.Errorf("%s %s %q %s: events %v, want %q", mode, tc.ip, tc.ua, tc.path, got, tc.want)
			}
		}
	}
}
