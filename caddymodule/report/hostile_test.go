package report

import (
	"bytes"
	"strings"
	"testing"
)

// TestReportSkipsTimesJSONCannotHold: one line whose time lies outside
// what the report's JSON can write (years 0 to 9999) must not stop the
// JSON and HTML output; such a line is malformed, and a fetched_ago that
// reaches back past 1970 is ignored.
func TestReportSkipsTimesJSONCannotHold(t *testing.T) {
	bot := rtObj("GPTBot", "*", "disallowed", "disallow: /", 2, "enforce", "blocked")
	good := logLineJSON(t0, "10.0.0.1", "/", "GPTBot", 403, bot)
	for _, tc := range []struct {
		name          string
		line          string
		wantMalformed int64
		wantLastYear  int // 0: not checked
	}{
		// A number from the year 10000 on is read as milliseconds, and
		// from 10000 years in milliseconds on as nanoseconds (Caddy's
		// unix_milli_float and unix_nano): past that it is no time.
		{"year 30000 in nanoseconds", logLineJSON(9e20, "10.0.0.2", "/", "GPTBot", 403, bot), 1, 0},
		{"just past 9999 in nanoseconds", logLineJSON(253402300800e9, "10.0.0.2", "/", "GPTBot", 403, bot), 1, 0},
		{"year -26000", logLineJSON(-9e11, "10.0.0.2", "/", "GPTBot", 403, bot), 1, 0},
		{"before 1970", logLineJSON(-1, "10.0.0.2", "/", "GPTBot", 403, bot), 1, 0},
		{"string ts, year 99999", `{"ts":"99999-01-01T00:00:00Z","request":{"client_ip":"10.0.0.2"},"robots_txt":{"bot":"GPTBot","verdict":"allowed","action":"passed"}}`, 1, 0},
		{"string number ts", `{"ts":"900000000000000000000","request":{"client_ip":"10.0.0.2"},"robots_txt":{"bot":"GPTBot","verdict":"allowed","action":"passed"}}`, 1, 0},
		{"year 5138 is kept", logLineJSON(1e11, "10.0.0.2", "/", "GPTBot", 403, bot), 0, 5138},
		{"string ts, year 5000 is kept", `{"ts":"5000-01-01T00:00:00.5Z","request":{"client_ip":"10.0.0.2"},"robots_txt":{"bot":"GPTBot","verdict":"allowed","action":"passed"}}`, 0, 5000},
		{"fetched_ago past 1970", logLineJSON(t0, "10.0.0.2", "/", "GPTBot", 403,
			rtObj("GPTBot", "*", "disallowed", "disallow: /", 2, "enforce", "blocked", "fetched", true, "fetched_ago", 1e15)), 0, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			agg := NewAggregator(Options{Now: fixedNow})
			if err := agg.Add("x", strings.NewReader(good+"\n"+tc.line+"\n")); err != nil {
				t.Fatal(err)
			}
			r := agg.Report()
			if r.Skipped.Malformed != tc.wantMalformed || r.Requests != 2-tc.wantMalformed {
				t.Errorf("malformed %d requests %d, want %d, %d", r.Skipped.Malformed, r.Requests, tc.wantMalformed, 2-tc.wantMalformed)
			}
			if tc.wantLastYear != 0 && (r.LastSeen == nil || r.LastSeen.Year() != tc.wantLastYear) {
				t.Errorf("last seen %v, want in %d", r.LastSeen, tc.wantLastYear)
			}
			for name, write := range map[string]func(*bytes.Buffer) error{
				"json": func(b *bytes.Buffer) error { return r.WriteJSON(b) },
				"html": func(b *bytes.Buffer) error { return r.WriteHTML(b) },
			} {
				var b bytes.Buffer
				if err := write(&b); err != nil {
					t.Errorf("%s: %v", name, err)
				}
			}
			if g := findBot(t, r, "GPTBot"); g.LastRobotsTxtFetch != nil && g.LastRobotsTxtFetch.Year() < 1970 {
				t.Errorf("last robots.txt fetch %v", g.LastRobotsTxtFetch)
			}
		})
	}
}
