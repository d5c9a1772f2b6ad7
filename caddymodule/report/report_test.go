package report

import (
	"bytes"
	"compress/flate"
	"compress/gzip"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/robotsguard/caddy-robots-txt/caddymodule/internal/logtest"
)

// The sample log and its helpers are shared with the command's tests.
const t0 = logtest.T0

var (
	logLineJSON = logtest.Line
	rtObj       = logtest.RT
	gzipped     = logtest.Gzip
)

func sampleLog() (plain, second string) { return logtest.Sample(MaxLine) }

var fixedNow = func() time.Time { return time.Date(2025, 1, 2, 0, 0, 0, 0, time.UTC) }

func sampleReport(t testing.TB, opts Options) *Report {
	t.Helper()
	plain, second := sampleLog()
	opts.Now = fixedNow
	agg := NewAggregator(opts)
	if err := agg.Add("access.log", strings.NewReader(plain)); err != nil {
		t.Fatal(err)
	}
	// Compressed, under a name without .gz: recognized by its magic bytes.
	if err := agg.Add("access.log.1", bytes.NewReader(gzipped(t, second))); err != nil {
		t.Fatal(err)
	}
	return agg.Report()
}

func findBot(t testing.TB, r *Report, name string) *BotStats {
	t.Helper()
	for i := range r.Bots {
		if r.Bots[i].Bot == name {
			return &r.Bots[i]
		}
	}
	t.Fatalf("no bot %q in report", name)
	return nil
}

func ts(sec float64) time.Time { return unixTime(sec) }

func TestReportAggregation(t *testing.T) {
	r := sampleReport(t, Options{TopRules: 5})

	if r.Schema != SchemaVersion || strings.Join(r.Inputs, ",") != "access.log,access.log.1" {
		t.Errorf("schema %q inputs %v", r.Schema, r.Inputs)
	}
	if r.Lines != 19 {
		t.Errorf("lines = %d, want 19 (blank lines are not counted)", r.Lines)
	}
	wantSkipped := Skipped{Malformed: 3, TooLong: 1, NotAccessLog: 1}
	if r.Skipped != wantSkipped {
		t.Errorf("skipped = %+v, want %+v", r.Skipped, wantSkipped)
	}
	for _, c := range []struct {
		name      string
		got, want int64
	}{
		{"requests", r.Requests, 14},
		{"human requests", r.HumanRequests, 3},
		{"bot requests", r.BotRequests, 11},
		{"violations", r.Violations, 6},
		{"blocked", r.Blocked, 3},
		{"grace", r.Grace, 1},
	} {
		if c.got != c.want {
			t.Errorf("%s = %d, want %d", c.name, c.got, c.want)
		}
	}
	if !r.FirstSeen.Equal(ts(t0-60)) || !r.LastSeen.Equal(ts(t0+7201.5)) {
		t.Errorf("span %v to %v", r.FirstSeen, r.LastSeen)
	}

	var order []string
	for _, b := range r.Bots {
		order = append(order, b.Bot)
	}
	if got := strings.Join(order, ","); got != "curl,GPTBot,Googlebot" {
		t.Errorf("bots in order %s, want curl,GPTBot,Googlebot (violations, then requests)", got)
	}

	gpt := findBot(t, r, "GPTBot")
	for _, c := range []struct {
		name      string
		got, want int64
	}{
		{"requests", gpt.Requests, 4},
		{"violations", gpt.Violations, 3},
		{"blocked", gpt.Blocked, 3},
		{"robots.txt fetches", gpt.RobotsTxtFetches, 1},
		{"requests after a fetch", gpt.AfterFetchRequests, 2},
		{"requests with the fetch known", gpt.FetchKnownRequests, 3},
	} {
		if c.got != c.want {
			t.Errorf("GPTBot %s = %d, want %d", c.name, c.got, c.want)
		}
	}
	if !gpt.FetchedRobotsTxt {
		t.Error("GPTBot fetched robots.txt = false, want true")
	}
	if gpt.LastRobotsTxtFetch == nil || !gpt.LastRobotsTxtFetch.Equal(ts(t0)) {
		t.Errorf("GPTBot last fetch %v, want %v", gpt.LastRobotsTxtFetch, ts(t0))
	}
	if f := gpt.AfterFetchFraction; f == nil {
		t.Error("GPTBot after-fetch fraction unknown, want 2/3")
	} else if *f < 0.66 || *f > 0.67 {
		t.Errorf("GPTBot after-fetch fraction %v, want 2/3", *f)
	}
	if len(gpt.TopRules) != 1 || gpt.TopRules[0] != (RuleCount{Rule: "disallow: /", Line: 13, Count: 3}) {
		t.Errorf("GPTBot rules %+v", gpt.TopRules)
	}
	if gpt.ClientIPs != 2 {
		t.Errorf("GPTBot client IPs = %d, want 2", gpt.ClientIPs)
	}
	if !gpt.ClientIPsExact {
		t.Error("GPTBot client IPs exact = false, want true")
	}
	if got := gpt.ClientIPsText(); got != "2" {
		t.Errorf("GPTBot client IPs text = %q, want %q", got, "2")
	}
	if !gpt.FirstSeen.Equal(ts(t0)) {
		t.Errorf("GPTBot first seen %v, want %v", gpt.FirstSeen, ts(t0))
	}
	if !gpt.LastSeen.Equal(ts(t0 + 30)) {
		t.Errorf("GPTBot last seen %v, want %v", gpt.LastSeen, ts(t0+30))
	}
	if got := strings.Join(gpt.Groups, "|"); got != "GPTBot, ClaudeBot" {
		t.Errorf("GPTBot groups %q, want one group %q", gpt.Groups, "GPTBot, ClaudeBot")
	}

	curl := findBot(t, r, "curl")
	for _, c := range []struct {
		name      string
		got, want int64
	}{
		{"requests", curl.Requests, 5},
		{"violations", curl.Violations, 3},
		{"logged", curl.Logged, 3},
		{"blocked", curl.Blocked, 0},
	} {
		if c.got != c.want {
			t.Errorf("curl %s = %d, want %d", c.name, c.got, c.want)
		}
	}
	if curl.FetchedRobotsTxt {
		t.Error("curl fetched robots.txt = true, want false")
	}
	if curl.LastRobotsTxtFetch != nil {
		t.Errorf("curl last robots.txt fetch %v, want none", *curl.LastRobotsTxtFetch)
	}
	if curl.AfterFetchFraction != nil {
		t.Errorf("curl after-fetch fraction %v, want none", *curl.AfterFetchFraction)
	}
	wantRules := []RuleCount{{Rule: "disallow: /private/", Line: 4, Count: 2}, {Rule: "disallow: /*?sessionid=", Line: 6, Count: 1}}
	if fmt.Sprint(curl.TopRules) != fmt.Sprint(wantRules) {
		t.Errorf("curl rules %+v, want %+v", curl.TopRules, wantRules)
	}

	g := findBot(t, r, "Googlebot")
	for _, c := range []struct {
		name      string
		got, want int64
	}{
		{"requests", g.Requests, 2},
		{"violations", g.Violations, 0},
		{"grace", g.Grace, 1},
		{"robots.txt fetches", g.RobotsTxtFetches, 0},
	} {
		if c.got != c.want {
			t.Errorf("Googlebot %s = %d, want %d", c.name, c.got, c.want)
		}
	}
	if !g.FetchedRobotsTxt {
		t.Error("Googlebot fetched robots.txt = false, want true")
	}
	if g.LastRobotsTxtFetch == nil || !g.LastRobotsTxtFetch.Equal(ts(t0+3600)) {
		t.Errorf("Googlebot last fetch %v, want %v (ts - fetched_ago)", g.LastRobotsTxtFetch, ts(t0+3600))
	}
	if g.AfterFetchFraction == nil || *g.AfterFetchFraction != 0.5 {
		t.Errorf("Googlebot after fetch %v, want 0.5", g.AfterFetchFraction)
	}

	// The timeline: 2 hours of bot requests in 5-minute buckets.
	tl := r.Timeline
	tlOK := true
	if tl.StepSeconds != 300 {
		t.Errorf("timeline step %d s, want 300", tl.StepSeconds)
		tlOK = false
	}
	if tl.Buckets != 25 {
		t.Errorf("timeline has %d buckets, want 25", tl.Buckets)
		tlOK = false
	}
	if !tl.Start.Equal(ts(t0)) {
		t.Errorf("timeline starts %v, want %v", tl.Start, ts(t0))
		tlOK = false
	}
	if len(tl.Series) != 3 {
		t.Errorf("timeline has %d series, want 3", len(tl.Series))
		tlOK = false
	}
	if !tlOK {
		t.FailNow()
	}
	var req, viol int64
	for _, s := range tl.Series {
		if len(s.Requests) != tl.Buckets || len(s.Violations) != tl.Buckets {
			t.Errorf("series %s has %d/%d buckets", s.Bot, len(s.Requests), len(s.Violations))
		}
		for i := range s.Requests {
			req += s.Requests[i]
			viol += s.Violations[i]
		}
	}
	if req != r.BotRequests || viol != r.Violations {
		t.Errorf("timeline sums %d requests %d violations, want %d, %d", req, viol, r.BotRequests, r.Violations)
	}
	if tl.Series[0].Bot != "curl" || tl.Series[0].Requests[12] != 5 {
		t.Errorf("first series %s %v", tl.Series[0].Bot, tl.Series[0].Requests)
	}
}

func TestReportSinceAndTop(t *testing.T) {
	r := sampleReport(t, Options{Since: ts(t0 + 3600), TopRules: 1})
	if r.Skipped.BeforeSince != 6 {
		t.Errorf("before since = %d, want 6", r.Skipped.BeforeSince)
	}
	ok := true
	if len(r.Bots) != 2 {
		t.Errorf("%d bots, want 2", len(r.Bots))
		ok = false
	}
	if r.Since == nil || !r.Since.Equal(ts(t0+3600)) {
		t.Errorf("since %v, want %v", r.Since, ts(t0+3600))
		ok = false
	}
	if !ok {
		t.FailNow()
	}
	curl := findBot(t, r, "curl")
	if len(curl.TopRules) != 1 {
		t.Errorf("--top 1: rules %+v, want 1", curl.TopRules)
	} else if curl.TopRules[0].Line != 4 {
		t.Errorf("--top 1: rule %+v, want the one on line 4", curl.TopRules[0])
	}
	if curl.OtherRuleViolations != 1 {
		t.Errorf("--top 1: other rule violations = %d, want 1", curl.OtherRuleViolations)
	}
}

func TestReportTSForms(t *testing.T) {
	in := strings.Join([]string{
		`{"ts":"2025-01-01T12:00:00Z","request":{"client_ip":"1.2.3.4"},"robots_txt":{"bot":"a","verdict":"allowed","action":"passed"}}`,
		`{"ts":"1735732801.5","request":{"client_ip":"1.2.3.4"},"robots_txt":{"bot":"a","verdict":"allowed","action":"passed"}}`,
		// Caddy's other time_format settings.
		`{"ts":1735732801500.25,"request":{"client_ip":"1.2.3.4"},"robots_txt":{"bot":"a","verdict":"allowed","action":"passed"}}`,
		`{"ts":1735732801500000000,"request":{"client_ip":"1.2.3.4"},"robots_txt":{"bot":"a","verdict":"allowed","action":"passed"}}`,
		`{"ts":"2025-01-01T17:30:00.000+0530","request":{"client_ip":"1.2.3.4"},"robots_txt":{"bot":"a","verdict":"allowed","action":"passed"}}`,
		`{"ts":"2025/01/01 12:00:00","request":{"client_ip":"1.2.3.4"},"robots_txt":{"bot":"a","verdict":"allowed","action":"passed"}}`,
		`{"ts":"2025/01/01 12:00:00.123456789","request":{"client_ip":"1.2.3.4"},"robots_txt":{"bot":"a","verdict":"allowed","action":"passed"}}`,
		`{"ts":"01/Jan/2025:13:00:00 +0100","request":{"client_ip":"1.2.3.4"},"robots_txt":{"bot":"a","verdict":"allowed","action":"passed"}}`,
		`{"ts":null,"request":{}}`,
		`{"ts":"noon","request":{}}`,
		`{"ts":true,"request":{}}`,
		`[1,2,3]`,
	}, "\n")
	agg := NewAggregator(Options{Now: fixedNow})
	if err := agg.Add("x", strings.NewReader(in)); err != nil {
		t.Fatal(err)
	}
	r := agg.Report()
	if r.BotRequests != 8 || r.Skipped.Malformed != 4 {
		t.Errorf("bot requests %d malformed %d, want 8, 4", r.BotRequests, r.Skipped.Malformed)
	}
	// Every form reads as a time of 2025-01-01 (UTC), none as another year.
	if r.FirstSeen == nil || r.LastSeen == nil || r.FirstSeen.UTC() != time.Date(2025, 1, 1, 12, 0, 0, 0, time.UTC) || r.LastSeen.Sub(*r.FirstSeen) > 2*time.Second {
		t.Errorf("times from %v to %v, want all at 2025-01-01 12:00:00-12:00:02 UTC", r.FirstSeen, r.LastSeen)
	}
}

func TestReportTruncatedGzip(t *testing.T) {
	plain, second := sampleLog()
	z := gzipped(t, plain+second)
	agg := NewAggregator(Options{Now: fixedNow})
	if err := agg.Add("cut.gz", bytes.NewReader(z[:len(z)*2/3])); err != nil {
		t.Fatalf("a truncated gzip stream is a warning, not an error: %v", err)
	}
	r := agg.Report()
	if len(r.Warnings) != 1 {
		t.Errorf("warnings %q, want one", r.Warnings)
	} else if !strings.Contains(r.Warnings[0], "cut.gz") {
		t.Errorf("warning %q does not name cut.gz", r.Warnings[0])
	}
	if r.Requests == 0 {
		t.Error("no requests read from the part before the cut")
	}
	// A corrupt gzip header is an error.
	if err := NewAggregator(Options{}).Add("bad.gz", bytes.NewReader([]byte{0x1f, 0x8b, 0, 0})); err == nil {
		t.Error("a corrupt gzip stream was accepted")
	} else if !strings.Contains(err.Error(), "bad.gz: not a readable gzip file") {
		t.Errorf("error %q does not say the file is no readable gzip file", err)
	}
}

func TestReportBotCap(t *testing.T) {
	var b strings.Builder
	for i := 0; i < MaxBots+50; i++ {
		fmt.Fprintln(&b, logLineJSON(t0+float64(i), "10.0.0.1", "/", "x", 200, rtObj(fmt.Sprintf("bot%04d", i), "*", "allowed", "", 0, "enforce", "passed")))
	}
	agg := NewAggregator(Options{Now: fixedNow})
	if err := agg.Add("x", strings.NewReader(b.String())); err != nil {
		t.Fatal(err)
	}
	r := agg.Report()
	if !r.BotsTruncated || len(r.Bots) != MaxBots+1 {
		t.Fatalf("truncated %v bots %d, want true, %d", r.BotsTruncated, len(r.Bots), MaxBots+1)
	}
	if o := findBot(t, r, OtherBots); o.Requests != 50 {
		t.Errorf("%s has %d requests, want 50", OtherBots, o.Requests)
	}
	if len(r.Timeline.Series) != chartSeries+1 || r.Timeline.Series[chartSeries].Bot != AllOthers {
		t.Errorf("timeline series %d, last %q", len(r.Timeline.Series), r.Timeline.Series[len(r.Timeline.Series)-1].Bot)
	}
	var sum int64
	for _, s := range r.Timeline.Series {
		for _, n := range s.Requests {
			sum += n
		}
	}
	if sum != int64(MaxBots+50) || r.Timeline.Buckets > maxBuckets {
		t.Errorf("timeline sums to %d in %d buckets", sum, r.Timeline.Buckets)
	}
}

// TestReportBotCountPastTheCap: past MaxBots the report does not know how
// many bots there were, and says "more than 1,000"; its (other) row, which
// holds them all, made it say 1,001.
func TestReportBotCountPastTheCap(t *testing.T) {
	for _, tc := range []struct {
		bots    int
		summary string
		card    string
	}{
		{MaxBots, "from 1,000 bots,", "<b>1,000</b>"},
		{MaxBots + 1, "from more than 1,000 bots,", "<b>more than 1,000</b>"},
		{MaxBots + 200, "from more than 1,000 bots,", "<b>more than 1,000</b>"},
	} {
		var b strings.Builder
		for i := range tc.bots {
			fmt.Fprintln(&b, logLineJSON(t0+float64(i), "10.0.0.1", "/", "x", 200, rtObj(fmt.Sprintf("bot%04d", i), "*", "allowed", "", 0, "enforce", "passed")))
		}
		agg := NewAggregator(Options{Now: fixedNow})
		if err := agg.Add("x", strings.NewReader(b.String())); err != nil {
			t.Fatal(err)
		}
		r := agg.Report()
		var table, page bytes.Buffer
		if err := r.WriteTable(&table); err != nil {
			t.Fatal(err)
		}
		if err := r.WriteHTML(&page); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(table.String(), tc.summary) || !strings.Contains(page.String(), tc.summary) {
			t.Errorf("%d bots: the summary does not say %q:\n%s", tc.bots, tc.summary, strings.SplitN(table.String(), "\n", 3)[1])
		}
		if !strings.Contains(page.String(), `<span class="muted">bots</span>`+tc.card) {
			t.Errorf("%d bots: the page's bots card does not show %s", tc.bots, tc.card)
		}
	}
}

func TestReportRuleAndIPCaps(t *testing.T) {
	var b strings.Builder
	for i := 0; i < MaxRulesPerBot+20; i++ {
		fmt.Fprintln(&b, logLineJSON(t0, "10.0.0.1", "/", "x", 403, rtObj("R", "*", "disallowed", fmt.Sprintf("disallow: /r%d", i), i+1, "enforce", "blocked")))
	}
	for i := 0; i < MaxClientIPs+5; i++ {
		fmt.Fprintln(&b, logLineJSON(t0, fmt.Sprintf("10.%d.%d.%d", i>>16, (i>>8)&255, i&255), "/", "x", 200, rtObj("I", "*", "allowed", "", 0, "enforce", "passed")))
	}
	agg := NewAggregator(Options{Now: fixedNow, TopRules: 3})
	if err := agg.Add("x", strings.NewReader(b.String())); err != nil {
		t.Fatal(err)
	}
	r := agg.Report()
	rb := findBot(t, r, "R")
	if len(rb.TopRules) != 3 {
		t.Errorf("rules: top %d, want 3", len(rb.TopRules))
	}
	if want := int64(MaxRulesPerBot + 20 - 3); rb.OtherRuleViolations != want {
		t.Errorf("rules: other %d, want %d", rb.OtherRuleViolations, want)
	}
	if want := int64(MaxRulesPerBot + 20); rb.Violations != want {
		t.Errorf("rules: violations %d, want %d", rb.Violations, want)
	}
	ib := findBot(t, r, "I")
	if ib.ClientIPs != MaxClientIPs {
		t.Errorf("IPs %d, want %d", ib.ClientIPs, MaxClientIPs)
	}
	if ib.ClientIPsExact {
		t.Error("IPs exact = true, want false")
	}
	if got := ib.ClientIPsText(); got != "≥10000" {
		t.Errorf("IPs text %q, want %q", got, "≥10000")
	}
	if rb.ClientIPsText() != "1" {
		t.Errorf("R IPs %q", rb.ClientIPsText())
	}
}

// TestReportTimelineCoarsens feeds more (bot, minute) cells than the
// timeline keeps: the slots grow coarser and no request is lost.
func TestReportTimelineCoarsens(t *testing.T) {
	pr, pw := io.Pipe()
	const n = 150_000
	go func() {
		bw := &bytes.Buffer{}
		for i := 0; i < n; i++ {
			fmt.Fprintf(bw, `{"ts":%d,"request":{"client_ip":"10.0.0.%d"},"robots_txt":{"bot":"b%d","verdict":"%s","action":"passed"}}`+"\n",
				int64(t0)+int64(i)*61, i%7, i%13, map[bool]string{true: "disallowed", false: "allowed"}[i%5 == 0])
			if bw.Len() > 64<<10 {
				pw.Write(bw.Bytes())
				bw.Reset()
			}
		}
		pw.Write(bw.Bytes())
		pw.Close()
	}()
	agg := NewAggregator(Options{Now: fixedNow})
	if err := agg.Add("pipe", pr); err != nil {
		t.Fatal(err)
	}
	if agg.cellN > maxCells {
		t.Errorf("%d timeline cells kept, limit %d", agg.cellN, maxCells)
	}
	r := agg.Report()
	var req, viol int64
	for _, s := range r.Timeline.Series {
		for i := range s.Requests {
			req += s.Requests[i]
			viol += s.Violations[i]
		}
	}
	if req != n {
		t.Errorf("timeline: %d requests, want %d", req, n)
	}
	if viol != n/5 {
		t.Errorf("timeline: %d violations, want %d", viol, n/5)
	}
	if r.Timeline.Buckets > maxBuckets {
		t.Errorf("timeline: %d buckets, want at most %d", r.Timeline.Buckets, maxBuckets)
	}
	if r.Timeline.StepSeconds%86400 != 0 {
		t.Errorf("timeline: buckets of %ds, want whole days", r.Timeline.StepSeconds)
	}
}

func TestReportProgress(t *testing.T) {
	var calls []Progress
	agg := NewAggregator(Options{Now: fixedNow, ProgressEvery: time.Nanosecond, Progress: func(p Progress) { calls = append(calls, p) }})
	var b strings.Builder
	for i := 0; i < 10_000; i++ {
		fmt.Fprintln(&b, logLineJSON(t0, "10.0.0.1", "/", "x", 200, nil))
	}
	agg.ExpectBytes(int64(b.Len()))
	time.Sleep(time.Millisecond) // the first report waits for ProgressEvery
	if err := agg.Add("big.log", strings.NewReader(b.String())); err != nil {
		t.Fatal(err)
	}
	if len(calls) < 2 {
		t.Fatalf("%d progress calls, want some while reading and one at the end", len(calls))
	}
	last := calls[len(calls)-1]
	if !last.Done {
		t.Errorf("last progress %+v: done = false, want true", last)
	}
	for _, c := range []struct {
		name      string
		got, want int64
	}{
		{"lines", last.Lines, 10_000},
		{"bytes read", last.BytesRead, int64(b.Len())},
		{"bytes total", last.BytesTotal, int64(b.Len())},
	} {
		if c.got != c.want {
			t.Errorf("last progress: %s = %d, want %d", c.name, c.got, c.want)
		}
	}
	if last.Input != "big.log" {
		t.Errorf("last progress: input %q, want %q", last.Input, "big.log")
	}
}

func TestReportJSONFormat(t *testing.T) {
	r := sampleReport(t, Options{})
	var buf bytes.Buffer
	if err := r.WriteJSON(&buf); err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(buf.Bytes(), &m); err != nil {
		t.Fatalf("not JSON: %v", err)
	}
	for _, k := range []string{"schema", "generated", "inputs", "since", "first_seen", "last_seen", "lines", "requests",
		"human_requests", "bot_requests", "violations", "blocked", "grace", "skipped", "bots_truncated", "bots",
		"timeline", "limits", "warnings"} {
		if _, ok := m[k]; !ok {
			t.Errorf("report JSON lacks %q", k)
		}
	}
	for _, c := range []struct {
		key  string
		want any
	}{
		{"schema", SchemaVersion},
		{"since", nil},
		{"generated", "2025-01-02T00:00:00Z"},
	} {
		if m[c.key] != c.want {
			t.Errorf("report JSON %s = %#v, want %#v", c.key, m[c.key], c.want)
		}
	}
	sk := m["skipped"].(map[string]any)
	for k, want := range map[string]float64{"malformed": 3, "too_long": 1, "not_access_log": 1, "before_since": 0} {
		if sk[k] != want {
			t.Errorf("skipped.%s = %v, want %v", k, sk[k], want)
		}
	}
	bots := m["bots"].([]any)
	gpt := bots[1].(map[string]any)
	for _, k := range []string{"bot", "groups", "requests", "violations", "blocked", "logged", "grace", "robots_txt_fetches",
		"fetched_robots_txt", "last_robots_txt_fetch", "after_fetch_fraction", "after_fetch_requests", "fetch_known_requests",
		"top_rules", "other_rule_violations", "first_seen", "last_seen", "client_ips", "client_ips_exact"} {
		if _, ok := gpt[k]; !ok {
			t.Errorf("bot JSON lacks %q", k)
		}
	}
	for _, c := range []struct {
		key  string
		want any
	}{
		{"bot", "GPTBot"},
		{"last_robots_txt_fetch", "2025-01-01T12:00:00Z"},
		{"first_seen", "2025-01-01T12:00:00Z"},
	} {
		if gpt[c.key] != c.want {
			t.Errorf("GPTBot JSON %s = %#v, want %#v", c.key, gpt[c.key], c.want)
		}
	}
	rule := gpt["top_rules"].([]any)[0].(map[string]any)
	for _, c := range []struct {
		key  string
		want any
	}{
		{"rule", "disallow: /"},
		{"line", 13.0},
		{"count", 3.0},
	} {
		if rule[c.key] != c.want {
			t.Errorf("rule JSON %s = %#v, want %#v", c.key, rule[c.key], c.want)
		}
	}
	curl := bots[0].(map[string]any)
	if curl["after_fetch_fraction"] != nil || curl["last_robots_txt_fetch"] != nil {
		t.Errorf("curl: unknown values must be null: %v", curl)
	}
	tl := m["timeline"].(map[string]any)
	for _, k := range []string{"start", "step_seconds", "buckets", "series"} {
		if _, ok := tl[k]; !ok {
			t.Errorf("timeline JSON lacks %q", k)
		}
	}
	s0 := tl["series"].([]any)[0].(map[string]any)
	for _, k := range []string{"bot", "requests", "violations"} {
		if _, ok := s0[k]; !ok {
			t.Errorf("series JSON lacks %q", k)
		}
	}
	lim := m["limits"].(map[string]any)
	for _, c := range []struct {
		key  string
		want any
	}{
		{"max_bots", float64(MaxBots)},
		{"max_client_ips", float64(MaxClientIPs)},
		{"max_line_bytes", float64(MaxLine)},
	} {
		if lim[c.key] != c.want {
			t.Errorf("limits JSON %s = %#v, want %#v", c.key, lim[c.key], c.want)
		}
	}
}

func TestReportTableFormat(t *testing.T) {
	r := sampleReport(t, Options{})
	var buf bytes.Buffer
	if err := r.WriteTable(&buf); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	for _, w := range []string{
		"robots.txt report: 2025-01-01 11:59:00 to 2025-01-01 14:00:01 UTC",
		"14 requests: 11 from 3 bots, 3 from people; 6 violations (3 blocked), 1 grace request",
		"skipped: 3 malformed lines, 1 line over 1 MiB, 1 entry not from an access log",
		"disallow: /private/ (line 4)",
		"disallow: / (line 13)",
	} {
		if !strings.Contains(out, w) {
			t.Errorf("table lacks %q:\n%s", w, out)
		}
	}
	rows := map[string]*regexp.Regexp{
		"header":    regexp.MustCompile(`(?m)^BOT +REQS +VIOL +BLOCK +GRACE +FETCH +LAST FETCH +AFTER +IPS +LAST SEEN$`),
		"curl":      regexp.MustCompile(`(?m)^curl +5 +3 +0 +0 +0 +never +- +1 +13:00:04$`),
		"GPTBot":    regexp.MustCompile(`(?m)^GPTBot +4 +3 +3 +0 +1 +12:00:00 +67% +2 +12:00:30$`),
		"Googlebot": regexp.MustCompile(`(?m)^Googlebot +2 +0 +0 +1 +0 +13:00:00 +50% +2 +14:00:01$`),
	}
	for name, re := range rows {
		if !re.MatchString(out) {
			t.Errorf("table has no %s row matching %s:\n%s", name, re, out)
		}
	}
	// Columns line up: every row of the table is as long as its header.
	var tableLines []string
	for _, l := range strings.Split(out, "\n") {
		if utf8.RuneCountInString(l) > 100 {
			t.Errorf("line wider than 100 columns (%d): %q", utf8.RuneCountInString(l), l)
		}
		for _, p := range []string{"BOT ", "curl ", "GPTBot ", "Googlebot "} {
			if strings.HasPrefix(l, p) && !strings.Contains(l, "(group") {
				tableLines = append(tableLines, l)
			}
		}
	}
	if len(tableLines) != 4 {
		t.Fatalf("table rows %q", tableLines)
	}
	col := strings.Index(tableLines[0], "VIOL") + len("VIOL")
	for _, l := range tableLines[1:] {
		if l[col-1] == ' ' || (col < len(l) && l[col] != ' ') {
			t.Errorf("VIOL column not right-aligned at %d in %q", col, l)
		}
	}
}

func TestReportTableEscapesTerminalControls(t *testing.T) {
	line := logLineJSON(t0, "1.2.3.4", "/", "x", 403, rtObj("Evil\x1b[2JBot", "*", "disallowed", "disallow: /\x1b]0;pwned\x07", 2, "enforce", "blocked"))
	agg := NewAggregator(Options{Now: fixedNow})
	if err := agg.Add("x", strings.NewReader(line)); err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := agg.Report().WriteTable(&buf); err != nil {
		t.Fatal(err)
	}
	if strings.ContainsAny(buf.String(), "\x1b\x07") {
		t.Errorf("table passes control characters from the log to the terminal:\n%q", buf.String())
	}
}

// hostileBot is a bot name crafted to break out of HTML and of the
// page's <script>.
const hostileBot = "</script><script>alert(1)</script><b>&amp;\u2028\u2029-->"

func TestReportHTMLFormat(t *testing.T) {
	plain, second := sampleLog()
	extra := logLineJSON(t0+100, "10.7.7.7", "/", "x", 403,
		rtObj(hostileBot, `"><img src=x onerror=alert(2)>`, "disallowed", `disallow: /<i>`, 7, "enforce", "blocked"))
	r, page := renderHTML(t, "in", plain, second, extra)

	// Self-contained: nothing is loaded from anywhere.
	for _, bad := range []string{`src="http`, `href="http`, `src='http`, `href='http`, "<link", "@import", "url(", "<iframe", "fetch(", "XMLHttpRequest", "//fonts."} {
		if strings.Contains(page, bad) {
			t.Errorf("page contains %q", bad)
		}
	}
	if !strings.Contains(page, "Content-Security-Policy") || !strings.Contains(page, "default-src 'none'") {
		t.Error("page has no Content-Security-Policy that forbids loading")
	}
	// Log text is escaped everywhere.
	for _, raw := range []string{hostileBot, "<script>alert(1)", "<img src=x", "/<i>"} {
		if strings.Contains(page, raw) {
			t.Errorf("page contains unescaped %q", raw)
		}
	}
	// Inside the scripts, U+2028 and U+2029 are escaped too.
	for _, script := range regexp.MustCompile(`(?s)<script[^>]*>(.*?)</script>`).FindAllStringSubmatch(page, -1) {
		if strings.ContainsAny(script[1], "\u2028\u2029") || strings.Contains(script[1], "<!--") {
			t.Errorf("a script holds a raw U+2028, U+2029 or <!--")
		}
	}
	if strings.Count(page, "<script") != 2 || strings.Count(page, "</script>") != 2 {
		t.Errorf("page has %d <script and %d </script>, want 2 each", strings.Count(page, "<script"), strings.Count(page, "</script>"))
	}
	if !strings.Contains(page, "&lt;/script&gt;&lt;script&gt;alert(1)") {
		t.Error("the table does not show the hostile bot name escaped")
	}

	// The embedded data is the report, whole.
	m := regexp.MustCompile(`(?s)<script type="application/json" id="report-data">(.*?)</script>`).FindStringSubmatch(page)
	if m == nil {
		t.Fatal("no embedded report data")
	}
	if strings.ContainsAny(m[1], "<>&") {
		t.Error("the embedded JSON holds a raw <, > or &")
	}
	var embedded Report
	if err := json.Unmarshal([]byte(m[1]), &embedded); err != nil {
		t.Fatalf("embedded data is not JSON: %v", err)
	}
	want, _ := json.Marshal(r)
	got, _ := json.Marshal(&embedded)
	if !bytes.Equal(want, got) {
		t.Errorf("embedded data differs from the report:\n%s\nwant\n%s", got, want)
	}
	if findBot(t, &embedded, hostileBot).Violations != 1 {
		t.Error("hostile bot lost in the embedded data")
	}
	for _, w := range []string{`id="chart"`, `<svg`, `id="report-data"`, "GPTBot", "disallow: /private/", "Googlebot", "Skipped: 3 malformed lines"} {
		if !strings.Contains(page, w) {
			t.Errorf("page lacks %q", w)
		}
	}
}

// TestReportMemoryBounded streams a generated log of about 200 MB through
// an io.Pipe (so it never exists whole anywhere) with more bots, rules,
// client IPs and time slots than the report keeps, and checks that the
// heap stays small.
func TestReportMemoryBounded(t *testing.T) {
	if testing.Short() {
		t.Skip("streams 200 MB")
	}
	total := int64(200 << 20)
	if raceEnabled {
		total = 30 << 20
	}
	runtime.GC()
	var peak atomic.Uint64
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		tick := time.NewTicker(20 * time.Millisecond)
		defer tick.Stop()
		var ms runtime.MemStats
		for {
			runtime.ReadMemStats(&ms)
			if ms.HeapAlloc > peak.Load() {
				peak.Store(ms.HeapAlloc)
			}
			select {
			case <-stop:
				return
			case <-tick.C:
			}
		}
	}()

	pr, pw := io.Pipe()
	var written atomic.Int64
	go func() {
		buf := make([]byte, 0, 256<<10)
		pad := strings.Repeat("p", 300)
		var i int64
		for written.Load() < total {
			buf = buf[:0]
			for len(buf) < 200<<10 {
				i++
				bot := i % 1500 // more bots than MaxBots
				verdict, action := "allowed", "passed"
				if i%3 == 0 {
					verdict, action = "disallowed", "blocked"
				}
				buf = fmt.Appendf(buf, `{"level":"info","ts":%d.%03d,"logger":"http.log.access.log0","msg":"handled request",`+
					`"request":{"remote_ip":"10.%d.%d.%d","client_ip":"10.%d.%d.%d","method":"GET","host":"example.com","uri":"/p/%d?%s",`+
					`"headers":{"User-Agent":["Bot%d/1.0"]}},"status":200,"robots_txt":{"bot":"Bot%d","group":"*","verdict":"%s",`+
					`"rule":"disallow: /r%d","line":%d,"mode":"enforce","action":"%s","fetched":%t,"fetched_ago":%d}}`+"\n",
					1735732800+i*7, i%1000, (i>>16)&255, (i>>8)&255, i&255, (i>>16)&255, (i>>8)&255, i&255, i, pad,
					bot, bot, verdict, i%400, i%400, action, i%2 == 0, i%500)
				if i%1000 == 0 {
					buf = append(buf, "not json at all\n"...)
				}
			}
			n, err := pw.Write(buf)
			written.Add(int64(n))
			if err != nil {
				return
			}
		}
		pw.Close()
	}()

	start := time.Now()
	agg := NewAggregator(Options{Now: fixedNow})
	err := agg.Add("pipe", pr)
	r := agg.Report()
	elapsed := time.Since(start)
	close(stop)
	wg.Wait()
	if err != nil {
		t.Fatal(err)
	}
	mb := float64(written.Load()) / (1 << 20)
	t.Logf("%.0f MiB, %d lines in %v (%.0f MiB/s); peak heap %.1f MiB; %d bots, timeline %d×%ds",
		mb, r.Lines, elapsed.Round(time.Millisecond), mb/elapsed.Seconds(), float64(peak.Load())/(1<<20),
		len(r.Bots), r.Timeline.Buckets, r.Timeline.StepSeconds)
	if p := peak.Load(); p > 64<<20 {
		t.Errorf("peak heap %.1f MiB, want < 64 MiB", float64(p)/(1<<20))
	}
	if !r.BotsTruncated {
		t.Error("bots truncated = false, want true")
	}
	if len(r.Bots) != MaxBots+1 {
		t.Errorf("%d bots, want %d", len(r.Bots), MaxBots+1)
	}
	if r.Skipped.Malformed == 0 {
		t.Error("no malformed lines skipped, want some")
	}
	if r.Requests != r.BotRequests {
		t.Errorf("%d requests but %d bot requests, want all from bots", r.Requests, r.BotRequests)
	}
	if r.Timeline.Buckets > maxBuckets {
		t.Errorf("%d buckets", r.Timeline.Buckets)
	}
}

// TestReportSkipsTheErrorLog: Caddy's error log carries the request too;
// where it shares a stream with the access log (stderr under journald or
// Docker), its entries are not more requests, nor people's.
func TestReportSkipsTheErrorLog(t *testing.T) {
	in := strings.Join([]string{
		`{"level":"info","ts":1735732800,"logger":"http.log.access.log0","request":{"client_ip":"1.2.3.4"},"status":403,"robots_txt":{"bot":"curl","verdict":"disallowed","action":"blocked"}}`,
		`{"level":"error","ts":1735732800,"logger":"http.log.error.log0","msg":"robots.txt disallows this path for this client","request":{"client_ip":"1.2.3.4"},"status":403}`,
		`{"level":"info","ts":1735732801,"logger":"http.log.access","request":{"client_ip":"5.6.7.8"},"status":200}`,
		`{"level":"info","ts":1735732802,"request":{"client_ip":"5.6.7.8"},"status":200}`,
	}, "\n")
	agg := NewAggregator(Options{Now: fixedNow})
	if err := agg.Add("x", strings.NewReader(in)); err != nil {
		t.Fatal(err)
	}
	r := agg.Report()
	if r.Requests != 3 || r.HumanRequests != 2 || r.Skipped.NotAccessLog != 1 {
		t.Errorf("requests %d, from people %d, not access log %d; want 3, 2, 1", r.Requests, r.HumanRequests, r.Skipped.NotAccessLog)
	}
}

// TestReportSinceFarAhead: a --since past what nanoseconds since 1970 can
// hold (2262) keeps nothing, as any later time does.
func TestReportSinceFarAhead(t *testing.T) {
	r := sampleReport(t, Options{Since: time.Date(9999, 12, 31, 0, 0, 0, 0, time.UTC)})
	if r.Requests != 0 || r.Skipped.BeforeSince == 0 {
		t.Errorf("since 9999-12-31: %d requests kept, %d before since; want none kept", r.Requests, r.Skipped.BeforeSince)
	}
}

// TestReportDamagedGzip: a rotated log damaged after its lines (a bad
// checksum, junk after the last member) is a warning: its lines count, and
// one damaged file among many does not cost the report.
func TestReportDamagedGzip(t *testing.T) {
	plain, second := sampleLog()
	z := gzipped(t, plain+second)
	badCRC := bytes.Clone(z)
	badCRC[len(badCRC)-8] ^= 0xff // the CRC-32 of the trailer
	for _, tc := range []struct {
		name string
		data []byte
	}{
		{"bad checksum", badCRC},
		{"junk after the last member", append(bytes.Clone(z), "not gzip"...)},
		// Bytes overwritten in the middle of the compressed data: the
		// lines before them count, those after are lost.
		{"corrupt data", corruptMiddle(z)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			agg := NewAggregator(Options{Now: fixedNow})
			if err := agg.Add("damaged.gz", bytes.NewReader(tc.data)); err != nil {
				t.Fatalf("a damaged gzip stream is a warning, not an error: %v", err)
			}
			r := agg.Report()
			if len(r.Warnings) != 1 || !strings.Contains(r.Warnings[0], "damaged.gz") {
				t.Errorf("warnings %q, want one naming damaged.gz", r.Warnings)
			}
			want := NewAggregator(Options{Now: fixedNow})
			if err := want.Add("plain", strings.NewReader(plain+second)); err != nil {
				t.Fatal(err)
			}
			got, w := r.Requests, want.Report().Requests
			if tc.name == "corrupt data" {
				// What the damage decodes to is anyone's guess; the
				// lines before it count.
				w = 1
			}
			if got < w {
				t.Errorf("%d requests counted, want %d or more (the lines before the damage)", got, w)
			}
		})
	}
}

// corruptMiddle returns z with 16 bytes of its compressed data set to
// 0xff, at the first place from its middle on where that makes the data
// unreadable (flate.CorruptInputError) rather than merely wrong.
func corruptMiddle(z []byte) []byte {
	for at := len(z) / 2; at < len(z)-24; at++ {
		c := bytes.Clone(z)
		for i := at; i < at+16; i++ {
			c[i] = 0xff
		}
		zr, err := gzip.NewReader(bytes.NewReader(c))
		if err != nil {
			continue
		}
		if _, err := io.ReadAll(zr); errors.As(err, new(flate.CorruptInputError)) {
			return c
		}
	}
	panic("no place in the stream where 0xff bytes corrupt it")
}

// TestSummaryCountsCrawlDelayBeforeBlocked: the blocked count holds
// Crawl-delay's 429s, so the crawl-delay violations stand before it;
// after it, "6 violations (8 blocked)" would read as more refused than
// broken.
func TestSummaryCountsCrawlDelayBeforeBlocked(t *testing.T) {
	for _, tc := range []struct {
		name string
		r    Report
		want string
	}{
		{"with crawl-delay violations", Report{Requests: 10, BotRequests: 10, Violations: 6, TooFast: 2, Blocked: 8},
			"6 violations, 2 crawl-delay violations (8 blocked), 0 grace requests"},
		{"without", Report{Requests: 10, BotRequests: 10, Violations: 6, Blocked: 6},
			"6 violations (6 blocked), 0 grace requests"},
	} {
		if _, got := tc.r.summary(); !strings.HasSuffix(got, tc.want) {
			t.Errorf("%s: %q, want it to end %q", tc.name, got, tc.want)
		}
	}
}

// TestReportHeadIsNoFetch: a HEAD of /robots.txt, or a GET answered with
// part of it or none (206, 416, 412), is a request for robots.txt but gave
// the bot no rules, and the handler reports its later requests as not
// fetched: the report must not say it fetched robots.txt, nor when.
func TestReportHeadIsNoFetch(t *testing.T) {
	served := func(ts int, method string, status int) string {
		return `{"level":"info","ts":` + strconv.Itoa(ts) + `,"logger":"http.log.access","request":{"client_ip":"1.2.3.4","method":"` + method + `","uri":"/robots.txt"},"status":` + strconv.Itoa(status) + `,"robots_txt":{"bot":"HeadBot","group":"*","verdict":"allowed","action":"served"}}`
	}
	crawl := `{"level":"info","ts":1735732900,"logger":"http.log.access","request":{"client_ip":"1.2.3.4","method":"GET","uri":"/x"},"status":200,"robots_txt":{"bot":"HeadBot","group":"*","verdict":"allowed","action":"passed","fetched":false}}`
	for _, tc := range []struct {
		name    string
		lines   []string
		fetched bool
		last    int64
	}{
		{"HEAD", []string{served(1735732800, "HEAD", 200), crawl}, false, 0},
		{"a range", []string{served(1735732800, "GET", 206), served(1735732801, "GET", 416), served(1735732802, "GET", 412), crawl}, false, 0},
		{"a GET after a HEAD", []string{served(1735732800, "GET", 200), served(1735732850, "HEAD", 200), crawl}, true, 1735732800},
		{"a 304", []string{served(1735732800, "GET", 304), crawl}, true, 1735732800},
	} {
		agg := NewAggregator(Options{Now: fixedNow})
		if err := agg.Add("x", strings.NewReader(strings.Join(tc.lines, "\n"))); err != nil {
			t.Fatal(err)
		}
		b := findBot(t, agg.Report(), "HeadBot")
		if b.RobotsTxtFetches != int64(len(tc.lines)-1) {
			t.Errorf("%s: %d requests for robots.txt, want %d", tc.name, b.RobotsTxtFetches, len(tc.lines)-1)
		}
		var last int64
		if b.LastRobotsTxtFetch != nil {
			last = b.LastRobotsTxtFetch.Unix()
		}
		if b.FetchedRobotsTxt != tc.fetched || last != tc.last {
			t.Errorf("%s: fetched %v, last fetch %d; want %v, %d", tc.name, b.FetchedRobotsTxt, last, tc.fetched, tc.last)
		}
	}
}

// TestReport304NamingNoVersionIsNoFetch: a GET of /robots.txt answered
// 304 is a fetch only when its validators name the version served, as
// the handler reckons it: If-None-Match: * and an If-Modified-Since later
// than the request get a 304 from a client that may never have read the
// file. Where the log leaves the validators out, a 304 is still the
// fetch it almost always is.
func TestReport304NamingNoVersionIsNoFetch(t *testing.T) {
	const at = 1735732800 // 2025-01-01T12:00:00Z
	// The version served is "v1".
	for _, tc := range []struct {
		name, request, response string // the entry's headers, "" for none
		fetched                 bool
	}{
		{"its entity-tag", `{"If-None-Match":["\"v1\""]}`, `{"Etag":["\"v1\""]}`, true},
		{"its weak entity-tag, in a list", `{"If-None-Match":["\"v0\", W/\"v1\""]}`, `{"Etag":["\"v1\""]}`, true},
		{"any entity-tag", `{"If-None-Match":["*"]}`, `{"Etag":["\"v1\""]}`, false},
		{"any entity-tag, the response's left out", `{"If-None-Match":["*"]}`, "", false},
		{"a date before the request", `{"If-Modified-Since":["Wed, 01 Jan 2025 11:00:00 GMT"]}`, `{"Etag":["\"v1\""]}`, true},
		{"the request's second", `{"If-Modified-Since":["Wed, 01 Jan 2025 12:00:00 GMT"]}`, `{"Etag":["\"v1\""]}`, true},
		{"a date in the future", `{"If-Modified-Since":["Tue, 01 Jan 2036 00:00:00 GMT"]}`, `{"Etag":["\"v1\""]}`, false},
		{"names in lower case", `{"if-none-match":["*"]}`, `{"etag":["\"v1\""]}`, false},
		// What a log filter leaves: the rule cannot be applied.
		{"no headers", "", "", true},
		{"an entity-tag, the response's left out", `{"If-None-Match":["\"v1\""]}`, "", true},
		{"headers replaced by a filter", `"REDACTED"`, `"REDACTED"`, true},
	} {
		headers := func(key, v string) string {
			if v == "" {
				return ""
			}
			return `,"` + key + `":` + v
		}
		fetch := `{"level":"info","ts":` + strconv.Itoa(at) + `,"logger":"http.log.access","request":{"client_ip":"1.2.3.4","method":"GET","uri":"/robots.txt"` + headers("headers", tc.request) + `}` + headers("resp_headers", tc.response) + `,"status":304,"robots_txt":{"bot":"CondBot","group":"*","verdict":"allowed","action":"served"}}`
		agg := NewAggregator(Options{Now: fixedNow})
		if err := agg.Add("x", strings.NewReader(fetch)); err != nil {
			t.Fatal(err)
		}
		r := agg.Report()
		if r.Skipped != (Skipped{}) {
			t.Errorf("%s: skipped %+v", tc.name, r.Skipped)
			continue
		}
		b := findBot(t, r, "CondBot")
		if b.RobotsTxtFetches != 1 {
			t.Errorf("%s: %d requests for robots.txt, want 1", tc.name, b.RobotsTxtFetches)
		}
		if b.FetchedRobotsTxt != tc.fetched || (b.LastRobotsTxtFetch != nil) != tc.fetched {
			t.Errorf("%s: fetched %v, last fetch %v; want fetched %v", tc.name, b.FetchedRobotsTxt, b.LastRobotsTxtFetch, tc.fetched)
		}
	}
}

// TestReportTableShowsCrawlDelayViolators: a bot that broke only the
// Crawl-delay has its violations in the table (DELAY), ranks above a bot
// with fewer violations, and has its section under "Most broken rules",
// the Crawl-delay standing among the rules by its count.
func TestReportTableShowsCrawlDelayViolators(t *testing.T) {
	var lines []string
	for i := range 6 {
		rt := rtObj("SlowBot", "SlowBot", "allowed", "", 0, "enforce", "passed")
		status := 200
		if i >= 3 {
			rt, status = rtObj("SlowBot", "SlowBot", "too-fast", "", 0, "enforce", "blocked", "violation", "crawl-delay"), 429
		}
		lines = append(lines, logLineJSON(t0+float64(i), "10.0.0.1", "/pub/a.html", "SlowBot/1.0", status, rt))
	}
	lines = append(lines,
		logLineJSON(t0+10, "10.0.0.2", "/private/x.html", "curl/8", 403, rtObj("curl", "*", "disallowed", "disallow: /private/", 2, "enforce", "blocked", "violation", "disallow")),
		// Both kinds: the Crawl-delay (2) goes after the rule broken
		// more often (3) and before the one broken less (1).
		logLineJSON(t0+20, "10.0.0.3", "/a", "MixBot", 403, rtObj("MixBot", "*", "disallowed", "disallow: /a", 3, "enforce", "blocked")),
		logLineJSON(t0+21, "10.0.0.3", "/a", "MixBot", 403, rtObj("MixBot", "*", "disallowed", "disallow: /a", 3, "enforce", "blocked")),
		logLineJSON(t0+22, "10.0.0.3", "/a", "MixBot", 403, rtObj("MixBot", "*", "disallowed", "disallow: /a", 3, "enforce", "blocked")),
		logLineJSON(t0+23, "10.0.0.3", "/b", "MixBot", 403, rtObj("MixBot", "*", "disallowed", "disallow: /b", 4, "enforce", "blocked")),
		logLineJSON(t0+24, "10.0.0.3", "/c", "MixBot", 429, rtObj("MixBot", "*", "too-fast", "", 0, "enforce", "blocked")),
		logLineJSON(t0+25, "10.0.0.3", "/c", "MixBot", 429, rtObj("MixBot", "*", "too-fast", "", 0, "enforce", "blocked")),
	)
	agg := NewAggregator(Options{Now: fixedNow})
	if err := agg.Add("x", strings.NewReader(strings.Join(lines, "\n"))); err != nil {
		t.Fatal(err)
	}
	r := agg.Report()
	var order []string
	for _, b := range r.Bots {
		order = append(order, b.Bot)
	}
	if got := strings.Join(order, ","); got != "MixBot,SlowBot,curl" {
		t.Errorf("bots in order %s, want MixBot,SlowBot,curl (violations of both kinds, then requests)", got)
	}
	var buf bytes.Buffer
	if err := r.WriteTable(&buf); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	for name, re := range map[string]*regexp.Regexp{
		"header":                 regexp.MustCompile(`(?m)^BOT +REQS +VIOL +DELAY +BLOCK +GRACE +FETCH +LAST FETCH +AFTER +IPS +LAST SEEN$`),
		"SlowBot":                regexp.MustCompile(`(?m)^SlowBot +6 +0 +3 +3 +0 +0 +never +- +1 +12:00:05$`),
		"curl":                   regexp.MustCompile(`(?m)^curl +1 +1 +0 +1 +0 +0 +never +- +1 +12:00:10$`),
		"MixBot":                 regexp.MustCompile(`(?m)^MixBot +6 +4 +2 +6 +0 +0 +never +- +1 +12:00:25$`),
		"SlowBot's broken rules": regexp.MustCompile(`(?m)^SlowBot  \(group "SlowBot"; first seen 2025-01-01 12:00:00\)\n  3  Crawl-delay \(too fast\)\n\n`),
		"MixBot's broken rules":  regexp.MustCompile(`(?m)^MixBot  \(group "\*"; first seen 2025-01-01 12:00:20\)\n  3  disallow: /a \(line 3\)\n  2  Crawl-delay \(too fast\)\n  1  disallow: /b \(line 4\)\n`),
		"legend":                 regexp.MustCompile(`(?m)^VIOL: requests robots.txt disallows; DELAY: requests faster than the group's Crawl-delay allows;$`),
	} {
		if !re.MatchString(out) {
			t.Errorf("table has no %s matching %s:\n%s", name, re, out)
		}
	}
	// The table and its legend fit 100 columns with DELAY too (the
	// summary above them is a sentence, and wraps).
	_, table, _ := strings.Cut(out, "\n\n")
	for _, l := range strings.Split(table, "\n") {
		if utf8.RuneCountInString(l) > 100 {
			t.Errorf("line wider than 100 columns (%d): %q", utf8.RuneCountInString(l), l)
		}
	}
}

// TestReportLastFetchExact: the last fetch is the one the log holds, to
// the millisecond, though a later entry's fetched_ago (whole seconds,
// rounded down) puts it up to a second later (audit AG-F6); an entry
// whose fetched_ago points past the fetches the log holds says when one
// it does not hold was.
func TestReportLastFetchExact(t *testing.T) {
	fetch := `{"level":"info","ts":1735732800.808,"logger":"http.log.access","request":{"client_ip":"1.2.3.4","method":"GET","uri":"/robots.txt"},"status":200,"robots_txt":{"bot":"AgoBot","group":"*","verdict":"allowed","action":"served"}}`
	crawl := func(ts string, ago int) string {
		return `{"level":"info","ts":` + ts + `,"logger":"http.log.access","request":{"client_ip":"1.2.3.4","method":"GET","uri":"/x"},"status":200,"robots_txt":{"bot":"AgoBot","group":"*","verdict":"allowed","action":"passed","fetched":true,"fetched_ago":` + strconv.Itoa(ago) + `}}`
	}
	for _, tc := range []struct {
		name  string
		lines []string
		want  time.Time
	}{
		{"the fetch the log holds", []string{fetch, crawl("1735732802.758", 1)}, time.UnixMilli(1735732800808)},
		{"a fetch it does not hold", []string{fetch, crawl("1735732900.5", 10)}, time.UnixMilli(1735732890500)},
	} {
		agg := NewAggregator(Options{Now: fixedNow})
		if err := agg.Add("x", strings.NewReader(strings.Join(tc.lines, "\n"))); err != nil {
			t.Fatal(err)
		}
		b := findBot(t, agg.Report(), "AgoBot")
		if b.LastRobotsTxtFetch == nil || b.LastRobotsTxtFetch.Sub(tc.want).Abs() > time.Millisecond {
			t.Errorf("%s: last fetch %v, want %v", tc.name, b.LastRobotsTxtFetch, tc.want)
		}
	}
}

// TestReportRuleOfAList: a rule of an included list is counted by the
// list and its own line, as the log's rule_source names it, whatever line
// each tenant's served text gives it; the trap's rule is named so (audit
// AJ-F1: one list rule was two rows of lines no file has).
func TestReportRuleOfAList(t *testing.T) {
	entry := func(line int, source string) string {
		return `{"level":"info","ts":1735732800,"logger":"http.log.access","request":{"client_ip":"1.2.3.4","method":"GET","uri":"/x"},"status":403,"robots_txt":{"bot":"Bytespider","group":"GPTBot","verdict":"disallowed","rule":"disallow: /","line":` +
			strconv.Itoa(line) + `,"rule_source":"` + source + `","mode":"enforce","action":"blocked"}}`
	}
	lines := []string{entry(15, "ai-crawlers.txt:12"), entry(16, "ai-crawlers.txt:12"), entry(16, "ai-crawlers.txt:12"), entry(9, "trap")}
	agg := NewAggregator(Options{Now: fixedNow})
	if err := agg.Add("x", strings.NewReader(strings.Join(lines, "\n"))); err != nil {
		t.Fatal(err)
	}
	r := agg.Report()
	b := findBot(t, r, "Bytespider")
	want := []RuleCount{{Rule: "disallow: /", Source: "ai-crawlers.txt:12", Count: 3}, {Rule: "disallow: /", Source: "trap", Count: 1}}
	if !slices.Equal(b.TopRules, want) {
		t.Errorf("rules %+v, want %+v", b.TopRules, want)
	}
	var out strings.Builder
	if err := r.WriteTable(&out); err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{"disallow: / (ai-crawlers.txt:12)", "disallow: / (the trap's)"} {
		if !strings.Contains(out.String(), w) {
			t.Errorf("the table lacks %q:\n%s", w, out.String())
		}
	}
}
