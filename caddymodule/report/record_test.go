package report

import (
	"io"
	"slices"
	"strings"
	"testing"
	"time"

	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"

	"github.com/robotsguard/caddy-robots-txt/caddymodule/judge"
	"github.com/robotsguard/caddy-robots-txt/caddymodule/verify"
	"github.com/robotsguard/caddy-robots-txt/robots"
)

// caddyLine encodes an access-log entry the way Caddy's JSON log encoder
// does: zap's JSON encoder, ts in seconds, the judgment under its object.
func caddyLine(t *testing.T, when time.Time, j *judge.Judgment) string {
	t.Helper()
	enc := zapcore.NewJSONEncoder(zapcore.EncoderConfig{
		TimeKey: "ts", LevelKey: "level", NameKey: "logger", MessageKey: "msg",
		EncodeTime: zapcore.EpochTimeEncoder, EncodeLevel: zapcore.LowercaseLevelEncoder,
		EncodeDuration: zapcore.SecondsDurationEncoder,
	})
	buf, err := enc.EncodeEntry(zapcore.Entry{Level: zapcore.InfoLevel, Time: when, LoggerName: "http.log.access", Message: "handled request"},
		[]zapcore.Field{
			zap.Dict("request", zap.String("remote_ip", "10.0.0.1"), zap.String("client_ip", "10.0.0.1")),
			zap.Object(judge.LogObject, j),
		})
	if err != nil {
		t.Fatal(err)
	}
	return buf.String()
}

// TestReportReadsWhatTheHandlerWrites ties the writer's field names and
// values (judge.Judgment) to the reader's (judge.Record via Aggregator).
func TestReportReadsWhatTheHandlerWrites(t *testing.T) {
	when := time.Date(2025, 1, 1, 12, 0, 0, 0, time.UTC)
	rule := &robots.Rule{Directive: robots.Disallow, Pattern: "/private/", Line: 7}
	for _, tc := range []struct {
		name string
		j    judge.Judgment
	}{
		{"blocked after a fetch", judge.Judgment{Bot: "GPTBot", Group: "GPTBot, ClaudeBot", Verdict: judge.Disallowed, Action: judge.Blocked,
			Mode: "enforce", Rule: rule, Judged: true, Fetched: true, FetchedAgo: 42}},
		{"logged, never fetched", judge.Judgment{Bot: "curl", Group: "*", Verdict: judge.Disallowed, Action: judge.Logged,
			Mode: "monitor", Rule: rule, Judged: true}},
		{"grace", judge.Judgment{Bot: "Googlebot", Group: "Googlebot", Verdict: judge.Grace, Action: judge.Passed,
			Mode: "enforce", Rule: rule, Judged: true, Fetched: true, FetchedAgo: 3600}},
		{"allowed, no rule", judge.Judgment{Bot: "Bingbot", Verdict: judge.Allowed, Action: judge.Passed, Mode: "enforce", Judged: true}},
		{"no robots.txt", judge.Judgment{Bot: "curl", Group: judge.NoFile, Verdict: judge.Allowed, Action: judge.Passed, Mode: "enforce", Judged: true}},
		{"robots.txt served", judge.Judgment{Bot: "GPTBot", Group: "GPTBot", Verdict: judge.Allowed, Action: judge.Served, Mode: "enforce"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			j := tc.j
			line := caddyLine(t, when, &j)
			agg := NewAggregator(Options{Now: fixedNow})
			if err := agg.Add("caddy", strings.NewReader(line)); err != nil {
				t.Fatal(err)
			}
			r := agg.Report()
			if r.BotRequests != 1 || len(r.Bots) != 1 {
				t.Fatalf("%d bot requests, %d bots from %s", r.BotRequests, len(r.Bots), line)
			}
			b := r.Bots[0]
			if b.Bot != j.Bot {
				t.Errorf("bot %q, want %q", b.Bot, j.Bot)
			}
			if len(b.Groups) != 1 || b.Groups[0] != j.Group {
				t.Errorf("groups %q, want [%q]", b.Groups, j.Group)
			}
			if want := b2i(j.Verdict == judge.Disallowed); b.Violations != want {
				t.Errorf("violations %d, want %d", b.Violations, want)
			}
			if want := b2i(j.Verdict == judge.Grace); b.Grace != want {
				t.Errorf("grace %d, want %d", b.Grace, want)
			}
			for _, c := range []struct {
				name      string
				got, want int64
			}{
				{"blocked", b.Blocked, b2i(j.Action == judge.Blocked)},
				{"logged", b.Logged, b2i(j.Action == judge.Logged)},
				{"robots.txt fetches", b.RobotsTxtFetches, b2i(j.Action == judge.Served)},
			} {
				if c.got != c.want {
					t.Errorf("%s %d, want %d for action %v", c.name, c.got, c.want, j.Action)
				}
			}
			if j.Verdict == judge.Disallowed {
				if want := (RuleCount{Rule: j.Rule.String(), Line: j.Rule.Line, Count: 1}); len(b.TopRules) != 1 || b.TopRules[0] != want {
					t.Errorf("rules %+v, want %+v", b.TopRules, want)
				}
			}
			judgedNotServed := j.Judged && j.Action != judge.Served
			if b.FetchKnownRequests != b2i(judgedNotServed) || b.AfterFetchRequests != b2i(judgedNotServed && j.Fetched) {
				t.Errorf("fetch known %d after fetch %d", b.FetchKnownRequests, b.AfterFetchRequests)
			}
			var wantFetch *time.Time
			switch {
			case j.Action == judge.Served:
				wantFetch = &when
			case j.Fetched:
				w := when.Add(-time.Duration(j.FetchedAgo) * time.Second)
				wantFetch = &w
			}
			if (wantFetch == nil) != (b.LastRobotsTxtFetch == nil) || wantFetch != nil && !wantFetch.Equal(*b.LastRobotsTxtFetch) {
				t.Errorf("last robots.txt fetch %v, want %v", b.LastRobotsTxtFetch, wantFetch)
			}
			if !b.FirstSeen.Equal(when) {
				t.Errorf("first seen %v, want %v", b.FirstSeen, when)
			}
		})
	}
}

func b2i(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

// TestReportUnknownVocabularyIsMalformed: a verdict or action the
// vocabulary does not know, or none, fails to decode, so its line is
// counted as malformed rather than as a request of some guessed kind (an
// empty object was a bot "(unnamed)", allowed and passed).
func TestReportUnknownVocabularyIsMalformed(t *testing.T) {
	for _, tc := range []struct {
		name string
		rt   map[string]any
	}{
		{"unknown verdict", rtObj("GPTBot", "*", "forbidden", "disallow: /", 2, "enforce", "blocked")},
		{"unknown action", rtObj("GPTBot", "*", "disallowed", "disallow: /", 2, "enforce", "teleported")},
		{"verdict in capitals", rtObj("GPTBot", "*", "Disallowed", "disallow: /", 2, "enforce", "blocked")},
		{"verdict not a string", rtObj("GPTBot", "*", "", "disallow: /", 2, "enforce", "blocked", "verdict", 1)},
		// The handler writes both in every object.
		{"an empty object", map[string]any{}},
		{"no verdict", map[string]any{"bot": "GPTBot", "group": "*", "mode": "enforce", "action": "blocked"}},
		{"no action", map[string]any{"bot": "GPTBot", "group": "*", "verdict": "disallowed", "mode": "enforce"}},
		{"a null verdict", rtObj("GPTBot", "*", "", "", 0, "enforce", "passed", "verdict", nil)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			agg := NewAggregator(Options{Now: fixedNow})
			if err := agg.Add("x", strings.NewReader(logLineJSON(t0, "10.0.0.1", "/", "x", 403, tc.rt))); err != nil {
				t.Fatal(err)
			}
			r := agg.Report()
			if r.Skipped.Malformed != 1 {
				t.Errorf("malformed %d, want 1", r.Skipped.Malformed)
			}
			if r.Requests != 0 {
				t.Errorf("requests %d, want 0", r.Requests)
			}
			if len(r.Bots) != 0 {
				t.Errorf("bots %d, want 0", len(r.Bots))
			}
		})
	}
}

// TestReportShowsImpostorsApart: impostors are rows of their own, never
// counted as the crawler they claim to be, and each row carries the
// crawler's category and how its claims fared.
func TestReportShowsImpostorsApart(t *testing.T) {
	when := time.Date(2025, 1, 1, 12, 0, 0, 0, time.UTC)
	lines := []string{
		caddyLine(t, when, &judge.Judgment{Bot: "Googlebot", Group: "Googlebot", Verdict: judge.Allowed, Action: judge.Passed,
			Mode: "enforce", Judged: true, Identity: verify.Verified, VerifiedBy: verify.RDNS, Category: "search"}),
		caddyLine(t, when, &judge.Judgment{Bot: "impostor:Googlebot", Group: "*", Verdict: judge.Disallowed, Action: judge.Blocked,
			Mode: "enforce", Judged: true, Identity: verify.Impostor, Category: "search",
			Rule: &robots.Rule{Directive: robots.Disallow, Pattern: "/private/", Line: 2}}),
		caddyLine(t, when, &judge.Judgment{Bot: "curl", Group: "*", Verdict: judge.Allowed, Action: judge.Passed,
			Mode: "enforce", Judged: true, Identity: verify.Unverified}),
		caddyLine(t, when, &judge.Judgment{Bot: "trapped", Group: "*", Verdict: judge.Disallowed, Action: judge.Blocked,
			Mode: "enforce", Judged: true, Identity: verify.Trapped,
			Rule: &robots.Rule{Directive: robots.Disallow, Pattern: "/private/", Line: 2}}),
	}
	a := NewAggregator(Options{})
	if err := a.Add("log", strings.NewReader(strings.Join(lines, ""))); err != nil {
		t.Fatal(err)
	}
	rows := map[string]BotStats{}
	for _, b := range a.Report().Bots {
		rows[b.Bot] = b
	}
	for _, want := range []struct {
		bot, category                           string
		verified, unverified, impostor, trapped int64
		violations                              int64
	}{
		{"Googlebot", "search", 1, 0, 0, 0, 0},
		{"impostor:Googlebot", "search", 0, 0, 1, 0, 1},
		{"curl", "", 0, 1, 0, 0, 0},
		// The trap's catch adds up too: the four add up to the requests.
		{"trapped", "", 0, 0, 0, 1, 1},
	} {
		got, ok := rows[want.bot]
		if !ok {
			t.Errorf("no row for %s", want.bot)
			continue
		}
		for _, f := range []struct {
			name      string
			got, want any
		}{
			{"category", got.Category, want.category}, {"verified", got.Verified, want.verified},
			{"unverified", got.Unverified, want.unverified}, {"impostor", got.Impostor, want.impostor},
			{"trapped", got.Trapped, want.trapped}, {"violations", got.Violations, want.violations},
		} {
			if f.got != f.want {
				t.Errorf("%s: %s = %v, want %v", want.bot, f.name, f.got, f.want)
			}
		}
	}
}

// TestNoRobotsTxtInEveryFormat: requests made while the site had no
// robots.txt show as that group in the table, the JSON and the page alike,
// beside the group the bot obeyed while there was a file.
func TestNoRobotsTxtInEveryFormat(t *testing.T) {
	in := logLineJSON(t0, "10.0.0.1", "/private/a", "curl/8", 403, rtObj("curl", "*", "disallowed", "disallow: /private/", 2, "enforce", "blocked")) + "\n" +
		logLineJSON(t0+60, "10.0.0.1", "/private/a", "curl/8", 200, rtObj("curl", judge.NoFile, "allowed", "", 0, "enforce", "passed"))
	agg := NewAggregator(Options{Now: fixedNow})
	if err := agg.Add("x", strings.NewReader(in)); err != nil {
		t.Fatal(err)
	}
	r := agg.Report()
	checkFormats(t, []formatCheck{
		{"table", r.WriteTable, `curl  (group "*", "(no robots.txt)"`, ""},
		{"json", r.WriteJSON, `"groups": [
        "*",
        "(no robots.txt)"
      ]`, ""},
		{"html", r.WriteHTML, `<span class="muted">* | (no robots.txt)</span>`, ""},
	})
}

// formatCheck is what one output format of a report must hold (want) and
// must not (dontWant, unless "").
type formatCheck struct {
	format         string
	write          func(io.Writer) error
	want, dontWant string
}

func checkFormats(t *testing.T, checks []formatCheck) {
	t.Helper()
	for _, tc := range checks {
		var b strings.Builder
		if err := tc.write(&b); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(b.String(), tc.want) {
			t.Errorf("%s lacks %q:\n%s", tc.format, tc.want, b.String())
		}
		if tc.dontWant != "" && strings.Contains(b.String(), tc.dontWant) {
			t.Errorf("%s has %q:\n%s", tc.format, tc.dontWant, b.String())
		}
	}
}

// TestReportRuleWithoutLine: the trap's rule is no line of the file, and
// the access log gives it none; no format may call it line 0.
func TestReportRuleWithoutLine(t *testing.T) {
	in := logLineJSON(t0, "10.0.0.1", "/trap/", "Mozilla/5.0", 404,
		rtObj("trapped", "*", "disallowed", "disallow: /trap/", 0, "enforce", "blocked", "rule_source", judge.TrapSource, "identity", "trapped")) + "\n" +
		logLineJSON(t0+1, "10.0.0.1", "/private/", "Mozilla/5.0", 403,
			rtObj("trapped", "*", "disallowed", "disallow: /private/", 2, "enforce", "blocked", "identity", "trapped"))
	agg := NewAggregator(Options{Now: fixedNow})
	if err := agg.Add("x", strings.NewReader(in)); err != nil {
		t.Fatal(err)
	}
	r := agg.Report()
	checkFormats(t, []formatCheck{
		{"table", r.WriteTable, "disallow: /private/ (line 2)", "line 0"},
		{"html", r.WriteHTML, `<span class="muted">line 2</span>`, "line 0"},
	})
}

// TestReportSignalViolations: a content-signal violation broke the usage
// preference, not the rule that matched its path (an allow rule, or none):
// it counts under its signal, not as "other rules" or the allow rule.
func TestReportSignalViolations(t *testing.T) {
	when := time.Date(2025, 1, 1, 12, 0, 0, 0, time.UTC)
	allow := &robots.Rule{Directive: robots.Allow, Pattern: "/press/", Line: 3}
	var lines []string
	for _, rule := range []*robots.Rule{nil, allow} {
		lines = append(lines, caddyLine(t, when, &judge.Judgment{Bot: "GPTBot", Group: "*", Verdict: judge.Disallowed, Action: judge.Blocked,
			Mode: "enforce", Rule: rule, Judged: true, Signal: "ai-train=no", Category: "ai-training"}))
	}
	agg := NewAggregator(Options{Now: fixedNow})
	if err := agg.Add("x", strings.NewReader(strings.Join(lines, ""))); err != nil {
		t.Fatal(err)
	}
	b := agg.Report().Bots[0]
	want := []RuleCount{{Rule: "content-signal: ai-train=no", Count: 2}}
	if len(b.TopRules) != len(want) || b.TopRules[0] != want[0] || b.OtherRuleViolations != 0 {
		t.Errorf("top rules %v, other %d; want %v, 0", b.TopRules, b.OtherRuleViolations, want)
	}
}

// TestReportPolicyViolations: a request refused everywhere by a policy
// (impostors block, trap block) broke no rule of the file: it counts
// under the policy, not as "other rules".
func TestReportPolicyViolations(t *testing.T) {
	when := time.Date(2025, 1, 1, 12, 0, 0, 0, time.UTC)
	var lines []string
	for _, id := range []verify.Outcome{verify.Impostor, verify.Impostor, verify.Trapped} {
		lines = append(lines, caddyLine(t, when, &judge.Judgment{Bot: "x", Group: "*", Verdict: judge.Disallowed, Action: judge.Blocked,
			Mode: "enforce", Judged: true, Identity: id}))
	}
	agg := NewAggregator(Options{Now: fixedNow})
	if err := agg.Add("x", strings.NewReader(strings.Join(lines, ""))); err != nil {
		t.Fatal(err)
	}
	b := agg.Report().Bots[0]
	want := []RuleCount{{Rule: policyRule[judge.ViolationImpostor], Count: 2}, {Rule: policyRule[judge.ViolationTrapped], Count: 1}}
	if !slices.Equal(b.TopRules, want) || b.OtherRuleViolations != 0 || b.Violations != 3 {
		t.Errorf("top rules %v, other %d, violations %d; want %v, 0, 3", b.TopRules, b.OtherRuleViolations, b.Violations, want)
	}
}
