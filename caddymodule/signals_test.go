package caddymodule

import (
	"net/http/httptest"
	"testing"

	"github.com/caddyserver/caddy/v2"

	"github.com/robotsguard/caddy-robots-txt/config"
	"github.com/robotsguard/caddy-robots-txt/internal/testfixtures"
)

func TestContentUsageHeader(t *testing.T) {
	const robotsTxt = "User-agent: *\nContent-Signal: search=yes, ai-train=no\nContent-Usage: /open/ train-ai=y\nDisallow: /private/\n" +
		"Content-Usage: /*.pdf$ train-ai=y\nContent-Usage: /dl*?get= train-ai=y\n"
	for _, tc := range []struct {
		name, setting, ua, path, want string
	}{
		{"a person's response carries it", "", testfixtures.UAChrome, "/page", "train-ai=n, search=y"},
		{"a path-scoped line overrides", "", testfixtures.UAChrome, "/open/x", "train-ai=y, search=y"},
		{"as a server reads the path: dot-segments", "", testfixtures.UAChrome, "/page/../open/x", "train-ai=y, search=y"},
		{"as a server reads the path: repeated slashes", "", testfixtures.UAChrome, "//open/x", "train-ai=y, search=y"},
		{"leaving a scoped path by dot-segments", "", testfixtures.UAChrome, "/open/../page", "train-ai=n, search=y"},
		{"a bot's too", "", testfixtures.UACurl, "/page", "train-ai=n, search=y"},
		// The query is part of the match, as signals enforce matches it.
		{"an anchored line", "", testfixtures.UAChrome, "/a.pdf", "train-ai=y, search=y"},
		{"an anchored line and a query", "", testfixtures.UAChrome, "/a.pdf?x=1", "train-ai=n, search=y"},
		{"an anchored line and an empty query", "", testfixtures.UAChrome, "/a.pdf?", "train-ai=n, search=y"},
		{"a line naming a query", "", testfixtures.UAChrome, "/dl/file?get=1", "train-ai=y, search=y"},
		{"a line naming a query, without it", "", testfixtures.UAChrome, "/dl/file", "train-ai=n, search=y"},
		{"a line naming a query, escaped", "", testfixtures.UAChrome, "/dl/file?%67et=1", "train-ai=y, search=y"},
		{"off", "off", testfixtures.UAChrome, "/page", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h, _ := newTestHandler(t, config.Config{Inline: robotsTxt, ContentUsageHeader: tc.setting})
			w, _ := serve(h, newRequest("GET", tc.path, tc.ua))
			if got := w.Header().Get("Content-Usage"); got != tc.want {
				t.Errorf("Content-Usage %q, want %q", got, tc.want)
			}
		})
	}
}

// TestContentUsageHeaderOfTheOperator: a Content-Usage the site sets
// itself (header Content-Usage …, which runs before the handler) says
// what the operator means for these responses, and is not replaced by
// what robots.txt states.
func TestContentUsageHeaderOfTheOperator(t *testing.T) {
	h, _ := newTestHandler(t, config.Config{Inline: "User-agent: *\nContent-Usage: train-ai=n\n"})
	for _, ua := range []string{testfixtures.UAChrome, testfixtures.UACurl} {
		w := httptest.NewRecorder()
		w.Header().Set("Content-Usage", "train-ai=y")
		if err := h.ServeHTTP(w, newRequest("GET", "/page", ua), nextOK); err != nil {
			t.Fatal(err)
		}
		if got := w.Header().Values("Content-Usage"); len(got) != 1 || got[0] != "train-ai=y" {
			t.Errorf("%s: Content-Usage %q, want the operator's [train-ai=y]", ua, got)
		}
	}
}

func TestSignalsEnforce(t *testing.T) {
	const robotsTxt = "User-agent: *\nContent-Signal: search=yes, ai-train=no, ai-input=no\nAllow: /\n\nUser-agent: Googlebot\nAllow: /\n"
	const uaChatGPTUser = "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; ChatGPT-User/1.0; +https://openai.com/bot"
	type want struct {
		refused           bool
		violation, signal string
	}
	for _, tc := range []struct {
		name, policy, ua string
		mode             string
		want             want
	}{
		{"a training crawler refused by ai-train=no", config.ModeEnforce, testfixtures.UAGPTBot, "", want{true, "content-signal", "ai-train=no"}},
		{"a user-triggered fetcher refused by ai-input=no", config.ModeEnforce, uaChatGPTUser, "", want{true, "content-signal", "ai-input=no"}},
		{"a search crawler is not", config.ModeEnforce, testfixtures.UAGooglebot, "", want{false, "", ""}},
		{"monitor logs it", config.ModeMonitor, testfixtures.UAGPTBot, "", want{false, "content-signal", "ai-train=no"}},
		{"off passes", "", testfixtures.UAGPTBot, "", want{false, "", ""}},
		// As with crawl_delay, the explicit setting wins over mode:
		// signals enforce in a site that monitors its paths refuses.
		{"enforce refuses in mode monitor", config.ModeEnforce, testfixtures.UAGPTBot, config.ModeMonitor, want{true, "content-signal", "ai-train=no"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h, _ := newTestHandler(t, config.Config{Inline: robotsTxt, Signals: tc.policy, Mode: tc.mode})
			r := withIP(newRequest("GET", "/article", tc.ua), "192.0.2.1")
			_, err := serve(h, r)
			repl := r.Context().Value(caddy.ReplacerCtxKey).(*caddy.Replacer)
			violation, _ := repl.GetString("http.robots_txt.violation")
			signal, _ := repl.GetString("http.robots_txt.signal")
			if (err != nil) != tc.want.refused {
				t.Errorf("refused = %v, want %v", err != nil, tc.want.refused)
			}
			if violation != tc.want.violation {
				t.Errorf("violation = %q, want %q", violation, tc.want.violation)
			}
			if signal != tc.want.signal {
				t.Errorf("signal = %q, want %q", signal, tc.want.signal)
			}
			// The file's "Allow: /" did not decide a refusal by the
			// preferences: no rule is named for it. Before, the log
			// said rule "allow: /".
			if rule, _ := repl.GetString("http.robots_txt.rule"); tc.want.signal != "" && rule != "" {
				t.Errorf("rule = %q for a refusal by the preferences, want none", rule)
			}
		})
	}
}

// TestContentUsageHeaderIsEachResponsesOwn: Caddy's header replace ops
// (a deferred "header >Content-Usage find replace") write a response's
// values in place; what one response's op writes must reach no other
// response's header.
func TestContentUsageHeaderIsEachResponsesOwn(t *testing.T) {
	h, _ := newTestHandler(t, config.Config{Inline: "User-agent: *\nContent-Signal: ai-train=no\nDisallow: /private/\n"})
	first := httptest.NewRecorder()
	if err := h.ServeHTTP(first, newRequest("GET", "/", testfixtures.UAChrome), nextNoop); err != nil {
		t.Fatal(err)
	}
	want := first.Header().Get("Content-Usage")
	if want == "" {
		t.Fatal("no Content-Usage header")
	}
	first.Header()["Content-Usage"][0] = "rewritten by a header op"
	for i := range 3 {
		w := httptest.NewRecorder()
		if err := h.ServeHTTP(w, newRequest("GET", "/", testfixtures.UAChrome), nextNoop); err != nil {
			t.Fatal(err)
		}
		if got := w.Header().Get("Content-Usage"); got != want {
			t.Errorf("response %d after another's header was rewritten: Content-Usage %q, want %q", i+2, got, want)
		}
	}
}
