package integration

import (
	"context"
	"fmt"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/caddyserver/caddy/v2"
	_ "github.com/caddyserver/caddy/v2/modules/standard"

	_ "github.com/robotsguard/caddy-robots-txt/caddymodule"
	"github.com/robotsguard/caddy-robots-txt/internal/testfixtures"
)

// eventRecorder is an events handler that keeps what it is given, for
// TestEvents. Caddy's standard build has no events handler of its own that
// a test could observe, so this one is registered in the test binary.
type eventRecorder struct{}

// recorded holds the events the recorder was given.
var recorded struct {
	sync.Mutex
	events []recordedEvent
}

type recordedEvent struct {
	name string
	data map[string]any
}

func (eventRecorder) CaddyModule() caddy.ModuleInfo {
	return caddy.ModuleInfo{
		ID:  "events.handlers.robots_txt_test_recorder",
		New: func() caddy.Module { return eventRecorder{} },
	}
}

func (eventRecorder) Handle(_ context.Context, e caddy.Event) error {
	data := make(map[string]any, len(e.Data))
	for k, v := range e.Data {
		data[k] = v
	}
	recorded.Lock()
	recorded.events = append(recorded.events, recordedEvent{e.Name(), data})
	recorded.Unlock()
	return nil
}

func init() { caddy.RegisterModule(eventRecorder{}) }

// TestEvents runs Caddy in this process (it is the only test that does;
// it uses no admin endpoint and writes only in its own directory) with an events app that subscribes the
// recorder to the handler's three events, and checks that a violation, an
// impostor and a trapped client each emit their event with the request's
// judgement, and that requests judged allowed, or a person's, emit none.
func TestEvents(t *testing.T) {
	port := freePort(t)
	cfg := fmt.Sprintf(`{
	"admin": {"disabled": true, "config": {"persist": false}},
	"storage": {"module": "file_system", "root": %q},
	"apps": {
		"events": {
			"subscriptions": [{
				"events": ["robots_txt_violation", "robots_txt_impostor", "robots_txt_trapped"],
				"handlers": [{"handler": "robots_txt_test_recorder"}]
			}]
		},
		"http": {
			"servers": {
				"events": {
					"listen": ["127.0.0.1:%d"],
					"automatic_https": {"disable": true},
					"routes": [{
						"handle": [
							{
								"handler": "robots_txt",
								"inline": "User-agent: *\nDisallow: /private/\n",
								"trap": "/trap/",
								"share": "off",
								"crawlers": [{"token": "GPTBot", "ranges": ["192.0.2.0/24"]}]
							},
							{"handler": "static_response", "body": "ok"}
						]
					}]
				}
			}
		}
	}
}`, t.TempDir(), port)
	if err := caddy.Load([]byte(cfg), true); err != nil {
		t.Fatalf("load: %v", err)
	}
	t.Cleanup(func() {
		if err := caddy.Stop(); err != nil {
			t.Errorf("stop: %v", err)
		}
	})
	client := &http.Client{Timeout: 10 * time.Second}
	t.Cleanup(client.CloseIdleConnections)

	cases := []struct {
		name, path, ua string
		status         int
		event          string            // "" for none
		data           map[string]string // fields the event must carry
	}{
		{"a person on a disallowed path", "/private/a", testfixtures.UAFirefox, 200, "", nil},
		{"a bot on an allowed path", "/public/a", testfixtures.UACurl, 200, "", nil},
		{"a bot on a disallowed path", "/private/b", testfixtures.UACurl, 403, "robots_txt_violation", map[string]string{
			"uri": "/private/b", "user_agent": testfixtures.UACurl, "bot": "curl", "group": "*",
			"verdict": "disallowed", "action": "blocked", "mode": "enforce", "rule": "disallow: /private/", "line": "2", "client_ip": "127.0.0.1",
		}},
		{"a crawler's claim from elsewhere", "/public/c", testfixtures.UAGPTBot, 200, "robots_txt_impostor", map[string]string{
			"uri": "/public/c", "bot": "impostor:GPTBot", "identity": "impostor", "group": "*", "verdict": "allowed",
		}},
		{"the trap path", "/trap/d", testfixtures.UAFirefox, 404, "robots_txt_trapped", map[string]string{
			"uri": "/trap/d", "client_ip": "127.0.0.1",
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			recorded.Lock()
			recorded.events = nil
			recorded.Unlock()
			req, err := http.NewRequest(http.MethodGet, fmt.Sprintf("http://127.0.0.1:%d%s", port, c.path), nil)
			if err != nil {
				t.Fatal(err)
			}
			req.Header.Set("User-Agent", c.ua)
			resp, err := client.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if resp.StatusCode != c.status {
				t.Errorf("status %d, want %d", resp.StatusCode, c.status)
			}
			// Events are emitted before the response is written.
			recorded.Lock()
			got := recorded.events
			recorded.Unlock()
			if c.event == "" {
				if len(got) != 0 {
					t.Errorf("events %v, want none", got)
				}
				return
			}
			var e *recordedEvent
			for i := range got {
				if got[i].name == c.event {
					e = &got[i]
				}
			}
			if e == nil {
				t.Fatalf("events %v, want %s", got, c.event)
			}
			for k, want := range c.data {
				if v := fmt.Sprint(e.data[k]); v != want {
					t.Errorf("%s: %s = %q, want %q (all: %v)", c.event, k, v, want, e.data)
				}
			}
		})
	}
}
