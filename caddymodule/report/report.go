// Package report reads Caddy's JSON access logs and tells which bots came,
// which broke robots.txt and which rules they broke, as a table, JSON or a
// self-contained HTML page. It is what `caddy robots report` prints, and
// imports no Caddy package: it reads io.Readers and writes io.Writers.
package report

import (
	"bufio"
	"bytes"
	"cmp"
	"compress/flate"
	"compress/gzip"
	"encoding/json"
	"errors"
	"fmt"
	"hash/maphash"
	"io"
	"maps"
	"math"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/robotsguard/caddy-robots-txt/caddymodule/judge"
	"github.com/robotsguard/caddy-robots-txt/caddymodule/verify"
)

// Limits that keep the memory of a report bounded, whatever the size of the
// logs. They are part of the report's JSON ("limits").
const (
	// MaxBots is the number of distinct bots counted one by one; requests
	// of further bots are counted under OtherBots.
	MaxBots = 1000
	// OtherBots names the row that holds the bots past MaxBots.
	OtherBots = "(other)"
	// MaxRulesPerBot is the number of distinct broken rules counted per bot;
	// violations of further rules count in BotStats.OtherRuleViolations.
	MaxRulesPerBot = 200
	// maxRules bounds the broken rules counted over all bots.
	maxRules = 50_000
	// MaxClientIPs is the number of distinct client IPs counted exactly per
	// bot; past it the count reads "≥10000".
	MaxClientIPs = 10_000
	// maxIPEntries bounds the client IPs remembered over all bots; a bot
	// whose new IPs no longer fit counts as a lower bound (≥N).
	maxIPEntries = 250_000
	// maxCells bounds the (bot, time slot) counters of the timeline: when
	// they would exceed it, the slots are made coarser.
	maxCells = 100_000
	// MaxLine is the longest log line read; longer lines are skipped and
	// counted in Skipped.TooLong.
	MaxLine = 1 << 20
	// maxBuckets is the most time buckets the timeline is cut into.
	maxBuckets = 60
	// chartSeries is the number of bots the timeline follows one by one;
	// the rest are summed in one series, AllOthers.
	chartSeries = 8
	// AllOthers names the timeline series that sums the bots not shown
	// one by one.
	AllOthers = "(all others)"
	// maxGroupsPerBot bounds the distinct group names kept per bot.
	maxGroupsPerBot = 4
	// Longest strings kept from a log line; longer ones are cut.
	maxNameLen = 200
	maxRuleLen = 256
	maxIPLen   = 64
)

// SchemaVersion identifies the JSON report's layout. It changes when a
// field changes meaning or is removed; fields may be added within a version.
const SchemaVersion = "caddy-robots-txt/report/v1"

// policyRule names, in a report's list of broken rules, what a request
// refused by a policy rather than a rule broke.
var policyRule = map[string]string{
	judge.ViolationImpostor: "impostors block (no rule: an impostor refused everywhere)",
	judge.ViolationTrapped:  "trap block (no rule: a trapped address refused everywhere)",
}

// Options tune a report.
type Options struct {
	// Since drops entries older than it (zero: keep all).
	Since time.Time
	// TopRules is the number of broken rules listed per bot (default 5).
	TopRules int
	// Now is the report's generation time (default time.Now).
	Now func() time.Time
	// Progress, when set, is called at most once per ProgressEvery (default
	// 1s) while reading, and once at the end of each input.
	Progress      func(Progress)
	ProgressEvery time.Duration
}

// Progress is how far reading has come.
type Progress struct {
	Input      string
	BytesRead  int64 // over all inputs, as stored (compressed bytes of a .gz)
	BytesTotal int64 // sum of the sizes of the inputs, 0 when unknown
	Lines      int64
	Elapsed    time.Duration
	Done       bool // the input is read to its end
}

// Report is what `caddy robots report` prints; its JSON form is the
// --format json output, whose schema the command's help describes.
type Report struct {
	Schema        string     `json:"schema"`
	Generated     time.Time  `json:"generated"`
	Inputs        []string   `json:"inputs"`
	Since         *time.Time `json:"since"`
	FirstSeen     *time.Time `json:"first_seen"`
	LastSeen      *time.Time `json:"last_seen"`
	Lines         int64      `json:"lines"`
	Requests      int64      `json:"requests"`
	HumanRequests int64      `json:"human_requests"`
	BotRequests   int64      `json:"bot_requests"`
	Violations    int64      `json:"violations"`
	Blocked       int64      `json:"blocked"`
	Grace         int64      `json:"grace"`
	TooFast       int64      `json:"crawl_delay_violations"`
	Skipped       Skipped    `json:"skipped"`
	BotsTruncated bool       `json:"bots_truncated"`
	Bots          []BotStats `json:"bots"`
	Timeline      Timeline   `json:"timeline"`
	Limits        Limits     `json:"limits"`
	Warnings      []string   `json:"warnings"`
}

// Skipped counts the lines that were not counted as requests.
type Skipped struct {
	Malformed    int64 `json:"malformed"`      // not JSON, no usable ts, or a robots_txt object that does not decode
	TooLong      int64 `json:"too_long"`       // longer than MaxLine
	NotAccessLog int64 `json:"not_access_log"` // JSON with ts but no request object (Caddy's own log)
	BeforeSince  int64 `json:"before_since"`   // older than Options.Since
}

// Limits are the caps the report was made with.
type Limits struct {
	MaxBots        int `json:"max_bots"`
	MaxRulesPerBot int `json:"max_rules_per_bot"`
	MaxClientIPs   int `json:"max_client_ips"`
	MaxLineBytes   int `json:"max_line_bytes"`
}

// BotStats is one bot's row.
type BotStats struct {
	Bot                 string      `json:"bot"`
	Category            string      `json:"category"` // the crawler knowledge base's; "" when unknown
	Groups              []string    `json:"groups"`
	Verified            int64       `json:"verified"`   // requests whose claim to be a crawler was verified
	Unverified          int64       `json:"unverified"` // requests of bots that claim no verifiable crawler
	Impostor            int64       `json:"impostor"`   // requests that failed their claim
	Trapped             int64       `json:"trapped"`    // requests from a client the trap caught (see the README's trap)
	Requests            int64       `json:"requests"`
	Violations          int64       `json:"violations"`
	Blocked             int64       `json:"blocked"`
	Logged              int64       `json:"logged"`
	Grace               int64       `json:"grace"`
	TooFast             int64       `json:"crawl_delay_violations"` // faster than the group's Crawl-delay
	RobotsTxtFetches    int64       `json:"robots_txt_fetches"`
	FetchedRobotsTxt    bool        `json:"fetched_robots_txt"`
	LastRobotsTxtFetch  *time.Time  `json:"last_robots_txt_fetch"`
	AfterFetchFraction  *float64    `json:"after_fetch_fraction"`
	AfterFetchRequests  int64       `json:"after_fetch_requests"`
	FetchKnownRequests  int64       `json:"fetch_known_requests"`
	TopRules            []RuleCount `json:"top_rules"`
	OtherRuleViolations int64       `json:"other_rule_violations"`
	FirstSeen           time.Time   `json:"first_seen"`
	LastSeen            time.Time   `json:"last_seen"`
	ClientIPs           int         `json:"client_ips"`
	ClientIPsExact      bool        `json:"client_ips_exact"`
}

// ClientIPsText renders ClientIPs, with "≥" when it is a lower bound.
func (b *BotStats) ClientIPsText() string {
	if b.ClientIPsExact {
		return strconv.Itoa(b.ClientIPs)
	}
	return "≥" + strconv.Itoa(b.ClientIPs)
}

// RuleCount is a broken rule and how often it was broken.
type RuleCount struct {
	Rule string `json:"rule"`
	// Line is the rule's line in the robots.txt served; 0 for a rule
	// of an included list (see Source), which has its own.
	Line int `json:"line"`
	// Source is, for a rule of an included list, the list and its own
	// line ("ai-crawlers.txt:12"), or "trap" for the trap's rule, as
	// the access log's rule_source: one rule of a list that tenants
	// share is one count, whatever line each tenant's served text gives
	// it (audit AJ-F1).
	Source string `json:"source,omitempty"`
	Count  int64  `json:"count"`
}

// Timeline is requests and violations per bot over time, in equal buckets.
type Timeline struct {
	Start       time.Time `json:"start"`
	StepSeconds int64     `json:"step_seconds"`
	Buckets     int       `json:"buckets"`
	Series      []Series  `json:"series"`
}

// Series is one bot's (or AllOthers') counts per bucket.
type Series struct {
	Bot        string  `json:"bot"`
	Requests   []int64 `json:"requests"`
	Violations []int64 `json:"violations"`
}

// slotSteps are the widths, in seconds, of the timeline's stored slots, from
// finest to coarsest; each divides the next, so slots merge exactly. Past
// the last one the width doubles.
var slotSteps = []int64{1, 10, 60, 300, 900, 3600, 6 * 3600, 86400, 7 * 86400}

// niceSteps are the bucket widths, in seconds, offered for display.
var niceSteps = []int64{
	1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 2 * 3600, 3 * 3600, 6 * 3600, 12 * 3600,
	86400, 2 * 86400, 7 * 86400, 14 * 86400, 28 * 86400,
}

type ruleKey struct {
	rule   string
	line   int
	source string
}

type cell struct{ req, viol int64 }

type botAgg struct {
	name                                    string
	category                                string
	groups                                  []string
	verified, unverified, impostor, trapped int64
	requests, violations, blocked, logged   int64
	grace, fetches, afterFetch, fetchKnown  int64
	tooFast                                 int64
	otherRules                              int64
	// lastFetch is the last fetch the log holds; lastFetchBy the latest
	// a later entry's fetched_ago puts one at (see lastFetchAt).
	lastFetch, lastFetchBy, first, last float64
	rules                               map[ruleKey]int64
	ips                                 map[uint64]struct{}
	ipsInexact                          bool
	fetched                             bool // a request for robots.txt gave it the rules
	cells                               map[int64]cell
}

// Aggregator reads Caddy JSON access logs and counts, per bot, in memory
// bounded by the limits above.
type Aggregator struct {
	opts Options

	inputs   []string
	bots     map[string]*botAgg
	ruleN    int
	ipN      int
	cellN    int
	step     int64 // width of the stored timeline slots, seconds
	stepIdx  int
	seed     maphash.Seed
	lines    int64
	requests int64
	humans   int64
	skipped  Skipped
	first    float64
	last     float64
	truncBot bool
	warnings []string

	started     time.Time
	bytesRead   int64
	bytesTotal  int64
	lastReport  time.Time
	lineBuf     []byte
	entry       logLine
	progressTic int
}

// NewAggregator returns an empty aggregator.
func NewAggregator(opts Options) *Aggregator {
	if opts.TopRules <= 0 {
		opts.TopRules = 5
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.ProgressEvery <= 0 {
		opts.ProgressEvery = time.Second
	}
	return &Aggregator{
		opts:    opts,
		bots:    map[string]*botAgg{},
		step:    slotSteps[0],
		seed:    maphash.MakeSeed(),
		first:   math.Inf(1),
		last:    math.Inf(-1),
		started: time.Now(),
		// The first progress report comes after ProgressEvery, so that a
		// small input shows none.
		lastReport: time.Now(),
	}
}

// ExpectBytes adds n to the total size shown in progress reports.
func (a *Aggregator) ExpectBytes(n int64) { a.bytesTotal += n }

// logLine is the part of an access-log entry the report reads.
type logLine struct {
	TS json.RawMessage `json:"ts"`
	// Logger names the entry's logger: Caddy's access logs are
	// "http.log.access" and its children; its error log,
	// "http.log.error…", also carries the request, once more.
	Logger  string `json:"logger"`
	Request *struct {
		ClientIP string `json:"client_ip"`
		RemoteIP string `json:"remote_ip"`
		Method   string `json:"method"`
		// Read only for a 304 to robots.txt (see validated), and
		// kept raw until then: decoded here, a log filter's
		// replacement of another shape would make every line
		// malformed.
		Headers json.RawMessage `json:"headers"`
	} `json:"request"`
	RespHeaders json.RawMessage `json:"resp_headers"`
	Status      int             `json:"status"`
	Robots      *judge.Record   `json:"robots_txt"`
}

// gaveRules reports whether e, a request for robots.txt the handler
// served at time ts, gave the bot its rules, as the handler reckons a
// fetch: not a HEAD, nor a GET answered with part of the file or none
// (206, 416, 412), nor one answered 304 to validators that name no
// version (If-None-Match: *, a date in the future).
func (e *logLine) gaveRules(ts float64) bool {
	if e.Request.Method == http.MethodHead {
		return false
	}
	switch e.Status {
	case http.StatusPartialContent, http.StatusRequestedRangeNotSatisfiable, http.StatusPreconditionFailed:
		return false
	case http.StatusNotModified:
		return e.validated(ts)
	}
	return true
}

// validated reports whether the validators of e, a GET of robots.txt
// answered 304 at time ts, name the version served, by the handler's rule.
// Where a log leaves out what the rule reads (a filter deleted the
// request's headers, or the response's ETag), the 304 is taken for the
// fetch it almost always is, unless all it could have matched is *.
func (e *logLine) validated(ts float64) bool {
	// encoding/json matches the field names in any case.
	var req struct {
		IfNoneMatch     []string `json:"If-None-Match"`
		IfModifiedSince []string `json:"If-Modified-Since"`
	}
	var resp struct {
		ETag []string `json:"ETag"`
	}
	_ = json.Unmarshal(e.Request.Headers, &req)
	_ = json.Unmarshal(e.RespHeaders, &resp)
	inm, ims := first(req.IfNoneMatch), first(req.IfModifiedSince)
	if inm == "" && ims == "" {
		return true
	}
	etag := first(resp.ETag)
	if inm != "" && etag == "" {
		for _, tag := range strings.Split(inm, ",") {
			if strings.TrimSpace(tag) != "*" {
				return true
			}
		}
		return false
	}
	return judge.NotModifiedNamesVersion(inm, ims, etag, unixTime(ts))
}

// first is a header field's first value, the one Go's server reads.
func first(values []string) string {
	if len(values) == 0 {
		return ""
	}
	return values[0]
}

// countingReader counts the bytes read through it.
type countingReader struct {
	r io.Reader
	n *int64
}

func (c countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	*c.n += int64(n)
	return n, err
}

// Add reads one access log (plain or gzip-compressed, told apart by its
// first bytes) named name. It returns an error only when the input cannot
// be read; bad lines are counted and skipped. A gzip stream that ends
// early or is damaged adds a warning and keeps what was read.
func (a *Aggregator) Add(name string, r io.Reader) error {
	a.inputs = append(a.inputs, name)
	br := bufio.NewReaderSize(countingReader{r, &a.bytesRead}, 256<<10)
	if magic, _ := br.Peek(2); len(magic) == 2 && magic[0] == 0x1f && magic[1] == 0x8b {
		zr, err := gzip.NewReader(br)
		if err != nil {
			return fmt.Errorf("%s: not a readable gzip file (its header is damaged or cut short): %v", name, err)
		}
		defer zr.Close()
		br = bufio.NewReaderSize(zr, 256<<10)
	}
	err := a.readLines(name, br)
	switch {
	case errors.Is(err, io.ErrUnexpectedEOF):
		a.warnings = append(a.warnings, name+": the input ends in the middle of its compressed stream; the rest is missing")
		err = nil
	case errors.Is(err, gzip.ErrChecksum), errors.Is(err, gzip.ErrHeader), errors.As(err, new(flate.CorruptInputError)):
		// A damaged rotated file (a bad checksum, junk after the last
		// member): its lines are already counted, and the other inputs
		// are still worth a report.
		a.warnings = append(a.warnings, fmt.Sprintf("%s: %v; the lines read before it are counted", name, err))
		err = nil
	}
	if err != nil {
		return fmt.Errorf("%s: %v", name, err)
	}
	a.progress(name, true)
	return nil
}

func (a *Aggregator) readLines(name string, br *bufio.Reader) error {
	for {
		line, tooLong, err := a.readLine(br)
		if len(line) > 0 || tooLong {
			a.lines++
			if tooLong {
				a.skipped.TooLong++
			} else {
				a.addLine(line)
			}
		}
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		if a.opts.Progress != nil {
			if a.progressTic++; a.progressTic >= 4096 {
				a.progressTic = 0
				a.progress(name, false)
			}
		}
	}
}

// readLine returns the next line without its end, or tooLong when it is
// longer than MaxLine (its bytes then skipped). The line is valid until the
// next call.
func (a *Aggregator) readLine(br *bufio.Reader) (line []byte, tooLong bool, err error) {
	a.lineBuf = a.lineBuf[:0]
	for {
		frag, err := br.ReadSlice('\n')
		content := len(a.lineBuf) + len(frag)
		if err == nil {
			content-- // the '\n'
		}
		if content > MaxLine {
			for err == bufio.ErrBufferFull {
				_, err = br.ReadSlice('\n')
			}
			return nil, true, err
		}
		if err == bufio.ErrBufferFull {
			a.lineBuf = append(a.lineBuf, frag...)
			continue
		}
		if len(a.lineBuf) > 0 {
			a.lineBuf = append(a.lineBuf, frag...)
			frag = a.lineBuf
		}
		return bytes.TrimRight(frag, "\r\n"), false, err
	}
}

func (a *Aggregator) progress(name string, done bool) {
	if a.opts.Progress == nil {
		return
	}
	now := time.Now()
	if !done && now.Sub(a.lastReport) < a.opts.ProgressEvery {
		return
	}
	a.lastReport = now
	a.opts.Progress(Progress{
		Input: name, BytesRead: a.bytesRead, BytesTotal: a.bytesTotal,
		Lines: a.lines, Elapsed: now.Sub(a.started), Done: done,
	})
}

// parseTS reads a ts field: seconds since the epoch as a number (Caddy's
// default), or a string holding such a number or an RFC 3339 time.
func parseTS(raw json.RawMessage) (float64, bool) {
	if len(raw) == 0 || string(raw) == "null" {
		return 0, false
	}
	s := string(raw)
	if raw[0] == '"' {
		if err := json.Unmarshal(raw, &s); err != nil {
			return 0, false
		}
		for _, layout := range tsLayouts {
			if t, err := time.Parse(layout, s); err == nil {
				// Not UnixNano, which overflows past 2262.
				return float64(t.Unix()) + float64(t.Nanosecond())/1e9, validTS(float64(t.Unix()))
			}
		}
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return 0, false
	}
	// Caddy's unix_milli_float and unix_nano: no time in seconds is that
	// large (maxTS is the year 10000).
	switch {
	case f >= maxTS*1e6:
		f /= 1e9
	case f >= maxTS:
		f /= 1e3
	}
	if !validTS(f) {
		return 0, false
	}
	return f, true
}

// tsLayouts are the textual time formats of Caddy's log encoders
// (time_format): rfc3339 and rfc3339_nano, iso8601 (with any offset, as
// time_local writes it), wall, wall_milli and wall_nano (read as UTC, which
// they are unless time_local is set: they carry no zone), and common_log.
// A fraction of a second is accepted after the seconds of any of them.
var tsLayouts = []string{
	time.RFC3339Nano,
	"2006-01-02T15:04:05Z0700",
	"2006/01/02 15:04:05",
	"02/Jan/2006:15:04:05 -0700",
}

// maxTS is 10000-01-01T00:00:00Z: the report's JSON cannot write a time
// from then on (time.Time.MarshalJSON fails), so one such line would stop
// the JSON and HTML output.
const maxTS = 253402300800

// validTS tells whether ts is a time an access log can hold and the report
// can write. Times before 1970 are refused as well: no server logged then,
// and the timeline's start, rounded down to a whole bucket of up to a few
// centuries, then stays well after year 0.
func validTS(ts float64) bool {
	return ts >= 0 && ts < maxTS // false for NaN
}

func cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	// Do not split a UTF-8 sequence.
	for n > 0 && n < len(s) && s[n]&0xC0 == 0x80 {
		n--
	}
	return s[:n] + "…"
}

// sinceSec is Options.Since in Unix seconds. UnixNano cannot hold a time
// past 2262 (it wraps), which would keep every entry of a --since
// 9999-12-31.
func (a *Aggregator) sinceSec() float64 {
	return float64(a.opts.Since.Unix()) + float64(a.opts.Since.Nanosecond())/1e9
}

func (a *Aggregator) addLine(line []byte) {
	line = bytes.TrimSpace(line)
	if len(line) == 0 || line[0] != '{' {
		a.skipped.Malformed++
		return
	}
	e := &a.entry
	*e = logLine{}
	if err := json.Unmarshal(line, e); err != nil {
		a.skipped.Malformed++
		return
	}
	ts, ok := parseTS(e.TS)
	if !ok {
		a.skipped.Malformed++
		return
	}
	if e.Request == nil || e.Logger != "" && e.Logger != "http.log.access" && !strings.HasPrefix(e.Logger, "http.log.access.") {
		a.skipped.NotAccessLog++
		return
	}
	if !a.opts.Since.IsZero() && ts < a.sinceSec() {
		a.skipped.BeforeSince++
		return
	}
	a.requests++
	a.first = math.Min(a.first, ts)
	a.last = math.Max(a.last, ts)
	rt := e.Robots
	if rt == nil {
		a.humans++
		return
	}

	name := cut(rt.Bot, maxNameLen)
	if name == "" {
		name = "(unnamed)"
	}
	b := a.bots[name]
	if b == nil {
		if len(a.bots) >= MaxBots {
			a.truncBot = true
			name = OtherBots
			b = a.bots[name]
		}
		if b == nil {
			b = &botAgg{
				name: name, first: ts, last: ts, lastFetch: math.Inf(-1), lastFetchBy: math.Inf(-1),
				rules: map[ruleKey]int64{}, ips: map[uint64]struct{}{}, cells: map[int64]cell{},
			}
			a.bots[name] = b
		}
	}
	b.requests++
	b.first = math.Min(b.first, ts)
	b.last = math.Max(b.last, ts)
	if g := cut(rt.Group, maxRuleLen); len(b.groups) < maxGroupsPerBot && !slices.Contains(b.groups, g) {
		b.groups = append(b.groups, g)
	}
	if b.category == "" {
		b.category = cut(rt.Category, maxNameLen)
	}
	switch rt.Identity {
	case verify.Verified.String():
		b.verified++
	case verify.Impostor.String():
		b.impostor++
	case verify.Unverified.String():
		b.unverified++
	case verify.Trapped.String():
		b.trapped++
	}

	viol := rt.Verdict == judge.Disallowed
	switch rt.Verdict {
	case judge.Disallowed:
		b.violations++
		key := ruleKey{rule: cut(rt.Rule, maxRuleLen), line: rt.Line}
		if rt.RuleSource != "" {
			key.line, key.source = 0, cut(rt.RuleSource, maxRuleLen)
		}
		switch {
		case rt.Signal != "":
			// A content-signal violation broke the usage preference,
			// not the rule that matched the path (an allow rule, or
			// none).
			key = ruleKey{rule: cut(judge.ViolationContentSignal+": "+rt.Signal, maxRuleLen)}
		case rt.Rule == "" && (rt.Violation == judge.ViolationImpostor || rt.Violation == judge.ViolationTrapped):
			// Refused everywhere by a policy (impostors block, trap
			// block): no rule of the file broke, and the policy is
			// named as what did.
			key = ruleKey{rule: policyRule[rt.Violation]}
		}
		if n, ok := b.rules[key]; ok {
			b.rules[key] = n + 1
		} else if len(b.rules) < MaxRulesPerBot && a.ruleN < maxRules && key.rule != "" {
			b.rules[key] = 1
			a.ruleN++
		} else {
			b.otherRules++
		}
	case judge.Grace:
		b.grace++
	case judge.TooFast:
		b.tooFast++
	}
	switch rt.Action {
	case judge.Blocked:
		b.blocked++
	case judge.Logged:
		b.logged++
	case judge.Served:
		b.fetches++
		if e.gaveRules(ts) {
			b.fetched = true
			b.lastFetch = math.Max(b.lastFetch, ts)
		}
	}
	if rt.Action != judge.Served && rt.Fetched != nil {
		b.fetchKnown++
		if *rt.Fetched {
			b.afterFetch++
		}
	}
	if rt.Fetched != nil && *rt.Fetched && rt.FetchedAgo != nil && *rt.FetchedAgo >= 0 && validTS(ts-*rt.FetchedAgo) {
		b.lastFetchBy = math.Max(b.lastFetchBy, ts-*rt.FetchedAgo)
	}

	a.addIP(b, e.Request.ClientIP, e.Request.RemoteIP)
	a.addCell(b, ts, viol)
}

// lastFetchAt is when b last fetched robots.txt: the fetch the log holds,
// unless a later entry's fetched_ago says there was a later one the log
// does not hold (before its start, or on another instance). fetched_ago
// is whole seconds rounded down, so ts - fetched_ago is up to a second
// after the fetch it counts from: within that second, it is the fetch
// the log holds, whose time is exact (audit AG-F6).
func (b *botAgg) lastFetchAt() float64 {
	if b.lastFetchBy-b.lastFetch < 1 {
		return b.lastFetch
	}
	return b.lastFetchBy
}

func (a *Aggregator) addIP(b *botAgg, clientIP, remoteIP string) {
	ip := clientIP
	if ip == "" {
		ip = remoteIP
	}
	if ip == "" {
		return
	}
	h := maphash.String(a.seed, cut(ip, maxIPLen))
	if _, ok := b.ips[h]; ok {
		return
	}
	if len(b.ips) >= MaxClientIPs || a.ipN >= maxIPEntries {
		b.ipsInexact = true
		return
	}
	b.ips[h] = struct{}{}
	a.ipN++
}

func (a *Aggregator) addCell(b *botAgg, ts float64, viol bool) {
	slot := int64(math.Floor(ts / float64(a.step)))
	c, ok := b.cells[slot]
	if !ok {
		if a.cellN >= maxCells {
			a.coarsen()
			slot = int64(math.Floor(ts / float64(a.step)))
			c, ok = b.cells[slot]
		}
		if !ok {
			a.cellN++
		}
	}
	c.req++
	if viol {
		c.viol++
	}
	b.cells[slot] = c
}

// coarsen widens the timeline's slots until the cells take at most half of
// maxCells, merging the counts.
func (a *Aggregator) coarsen() {
	for a.cellN > maxCells/2 {
		old := a.step
		if a.stepIdx+1 < len(slotSteps) {
			a.stepIdx++
			a.step = slotSteps[a.stepIdx]
		} else {
			a.step *= 2
		}
		f := a.step / old
		a.cellN = 0
		for _, b := range a.bots {
			merged := make(map[int64]cell, len(b.cells)/int(min(f, 8))+1)
			for slot, c := range b.cells {
				ns := floorDiv(slot, f)
				m := merged[ns]
				m.req += c.req
				m.viol += c.viol
				merged[ns] = m
			}
			b.cells = merged
			a.cellN += len(merged)
		}
	}
}

func floorDiv(a, b int64) int64 {
	q := a / b
	if (a%b != 0) && ((a < 0) != (b < 0)) {
		q--
	}
	return q
}

func unixTime(ts float64) time.Time {
	sec, frac := math.Modf(ts)
	return time.Unix(int64(sec), int64(frac*1e9)).UTC().Truncate(time.Millisecond)
}

// Report returns the report of everything read so far.
func (a *Aggregator) Report() *Report {
	r := &Report{
		Schema:        SchemaVersion,
		Generated:     a.opts.Now().UTC().Truncate(time.Second),
		Inputs:        append([]string{}, a.inputs...),
		Lines:         a.lines,
		Requests:      a.requests,
		HumanRequests: a.humans,
		BotRequests:   a.requests - a.humans,
		Skipped:       a.skipped,
		BotsTruncated: a.truncBot,
		Bots:          []BotStats{},
		Limits:        Limits{MaxBots, MaxRulesPerBot, MaxClientIPs, MaxLine},
		Warnings:      append([]string{}, a.warnings...),
	}
	if !a.opts.Since.IsZero() {
		s := a.opts.Since.UTC()
		r.Since = &s
	}
	if a.requests > 0 {
		f, l := unixTime(a.first), unixTime(a.last)
		r.FirstSeen, r.LastSeen = &f, &l
	}
	for _, b := range a.bots {
		s := BotStats{
			Bot:                 b.name,
			Category:            b.category,
			Groups:              append([]string{}, b.groups...),
			Verified:            b.verified,
			Unverified:          b.unverified,
			Impostor:            b.impostor,
			Trapped:             b.trapped,
			Requests:            b.requests,
			Violations:          b.violations,
			Blocked:             b.blocked,
			Logged:              b.logged,
			Grace:               b.grace,
			TooFast:             b.tooFast,
			RobotsTxtFetches:    b.fetches,
			AfterFetchRequests:  b.afterFetch,
			FetchKnownRequests:  b.fetchKnown,
			OtherRuleViolations: b.otherRules,
			FirstSeen:           unixTime(b.first),
			LastSeen:            unixTime(b.last),
			ClientIPs:           len(b.ips),
			ClientIPsExact:      !b.ipsInexact,
			TopRules:            []RuleCount{},
		}
		s.FetchedRobotsTxt = b.fetched || b.afterFetch > 0
		if at := b.lastFetchAt(); !math.IsInf(at, -1) {
			t := unixTime(at)
			s.LastRobotsTxtFetch = &t
		}
		if b.fetchKnown > 0 {
			f := float64(b.afterFetch) / float64(b.fetchKnown)
			s.AfterFetchFraction = &f
		}
		rules := make([]RuleCount, 0, len(b.rules))
		for k, n := range b.rules {
			rules = append(rules, RuleCount{Rule: k.rule, Line: k.line, Source: k.source, Count: n})
		}
		slices.SortFunc(rules, func(x, y RuleCount) int {
			return cmp.Or(cmp.Compare(y.Count, x.Count), cmp.Compare(x.Line, y.Line), cmp.Compare(x.Source, y.Source), cmp.Compare(x.Rule, y.Rule))
		})
		for i, rc := range rules {
			if i < a.opts.TopRules {
				s.TopRules = append(s.TopRules, rc)
			} else {
				s.OtherRuleViolations += rc.Count
			}
		}
		r.Violations += b.violations
		r.Blocked += b.blocked
		r.Grace += b.grace
		r.TooFast += b.tooFast
		r.Bots = append(r.Bots, s)
	}
	// By violations of both kinds: a bot that broke only the Crawl-delay
	// is no better behaved than one that broke a Disallow as often.
	slices.SortFunc(r.Bots, func(x, y BotStats) int {
		return cmp.Or(cmp.Compare(y.Violations+y.TooFast, x.Violations+x.TooFast), cmp.Compare(y.Requests, x.Requests), cmp.Compare(x.Bot, y.Bot))
	})
	r.Timeline = a.timeline()
	return r
}

// timeline cuts the span of the bot requests into at most maxBuckets
// buckets of a round width, and sums the stored slots into them, for the
// chartSeries bots with the most requests and the rest together.
func (a *Aggregator) timeline() Timeline {
	tl := Timeline{Series: []Series{}}
	lo, hi := int64(math.MaxInt64), int64(math.MinInt64)
	for _, b := range a.bots {
		for slot := range b.cells {
			lo, hi = min(lo, slot), max(hi, slot)
		}
	}
	if lo > hi {
		return tl
	}
	step := int64(0)
	for _, s := range niceSteps {
		if s%a.step == 0 && floorDiv(hi*a.step, s)-floorDiv(lo*a.step, s)+1 <= maxBuckets {
			step = s
			break
		}
	}
	if step == 0 {
		step = max(a.step, niceSteps[len(niceSteps)-1])
		step -= step % a.step
		for floorDiv(hi*a.step, step)-floorDiv(lo*a.step, step)+1 > maxBuckets {
			step *= 2
		}
	}
	first := floorDiv(lo*a.step, step)
	n := int(floorDiv(hi*a.step, step) - first + 1)
	tl.Start = time.Unix(first*step, 0).UTC()
	tl.StepSeconds = step
	tl.Buckets = n

	order := slices.Collect(maps.Values(a.bots))
	slices.SortFunc(order, func(x, y *botAgg) int {
		return cmp.Or(cmp.Compare(y.requests, x.requests), cmp.Compare(x.name, y.name))
	})
	var rest *Series
	for i, b := range order {
		var s *Series
		if i < chartSeries || (i == chartSeries && len(order) == chartSeries+1) {
			tl.Series = append(tl.Series, Series{Bot: b.name, Requests: make([]int64, n), Violations: make([]int64, n)})
			s = &tl.Series[len(tl.Series)-1]
		} else {
			if rest == nil {
				rest = &Series{Bot: AllOthers, Requests: make([]int64, n), Violations: make([]int64, n)}
			}
			s = rest
		}
		for slot, c := range b.cells {
			k := floorDiv(slot*a.step, step) - first
			s.Requests[k] += c.req
			s.Violations[k] += c.viol
		}
	}
	if rest != nil {
		tl.Series = append(tl.Series, *rest)
	}
	return tl
}
