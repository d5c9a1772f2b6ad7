package robots

import (
	"errors"
	"fmt"
	"math"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"time"
	"unicode/utf8"
)

// DefaultMaxSize is how much of a file Parse reads unless told otherwise:
// 500 KiB, the limit Google applies. Content past it is ignored.
const DefaultMaxSize = 512000

// MaxRedirects is how many redirects a fetch of robots.txt follows: RFC
// 9309 asks crawlers to follow at least five. Past them there is no
// robots.txt, as after a 4xx answer.
const MaxRedirects = 5

// maxCrawlDelay is the longest Crawl-delay kept; longer ones are read as it.
const maxCrawlDelay = 365 * 24 * time.Hour

// maxLineLen is the longest line google/robotstxt reads (2083*8 bytes, less
// the terminating NUL it keeps); the rest of a longer line is ignored.
const maxLineLen = 2083*8 - 1

// Option changes how Parse reads a file.
type Option func(*parseOptions)

type parseOptions struct {
	maxSize    int
	sourceSize int64 // 0: body is the whole file
}

// MaxSize sets how many bytes of the file Parse reads; content past the
// limit is ignored, as if the file ended there. n <= 0 means no limit.
func MaxSize(n int) Option {
	return func(o *parseOptions) { o.maxSize = n }
}

// SourceSize tells Parse that body is only the start of a file of n
// bytes, or, with n < 0, of a file longer than body by an unknown amount
// (standard input cut at a limit). Only the finding about the size limit
// uses it: it names the file's size, not the size of what was read.
func SourceSize(n int64) Option {
	return func(o *parseOptions) { o.sourceSize = n }
}

type field uint8

const (
	fieldUnknown field = iota
	fieldUserAgent
	fieldAllow
	fieldDisallow
	fieldSitemap
	fieldCrawlDelay
	fieldNonStandard
	fieldContentSignal
	fieldContentUsage
	numFields
)

// keySpellings lists, in the order google/robotstxt tries them, the key
// prefixes that select each field. A key is read as a field when it starts
// with one of them (case-insensitively), which is how Google accepts
// "useragent", "disalow" and the like.
var keySpellings = []struct {
	prefix string
	field  field
}{
	{"user-agent", fieldUserAgent},
	{"useragent", fieldUserAgent},
	{"user agent", fieldUserAgent},
	{"allow", fieldAllow},
	{"disallow", fieldDisallow},
	{"dissallow", fieldDisallow},
	{"dissalow", fieldDisallow},
	{"disalow", fieldDisallow},
	{"diasllow", fieldDisallow},
	{"disallaw", fieldDisallow},
	{"sitemap", fieldSitemap},
	{"site-map", fieldSitemap},
}

// nonStandardFields are fields seen in the wild that no crawler we hold to
// robots.txt needs; they are reported, not kept.
var nonStandardFields = []string{"host", "clean-param", "request-rate", "visit-time", "noindex", "nofollow", "noarchive"}

// canonicalKey is the spelling of each field whose misspellings are
// reported; "" for the others.
var canonicalKey = [numFields]string{
	fieldUserAgent: "user-agent",
	fieldAllow:     "allow",
	fieldDisallow:  "disallow",
	fieldSitemap:   "sitemap",
}

// FieldOf is the field a line's key selects, as Parse reads it
// ("Disalow" and "useragent" included): "user-agent", "allow",
// "disallow", "sitemap", "crawl-delay", "content-signal" or
// "content-usage"; "" for any other key. Code that edits or merges
// robots.txt files line by line must see the groups Parse sees.
func FieldOf(key string) string {
	return fieldNames[classifyKey(trimASCIISpace(key))]
}

var fieldNames = [numFields]string{
	fieldUserAgent:     "user-agent",
	fieldAllow:         "allow",
	fieldDisallow:      "disallow",
	fieldSitemap:       "sitemap",
	fieldCrawlDelay:    "crawl-delay",
	fieldContentSignal: "content-signal",
	fieldContentUsage:  "content-usage",
}

func classifyKey(key string) field {
	for _, s := range keySpellings {
		if len(key) >= len(s.prefix) && strings.EqualFold(key[:len(s.prefix)], s.prefix) {
			return s.field
		}
	}
	switch {
	case strings.EqualFold(key, "crawl-delay"):
		return fieldCrawlDelay
	case strings.EqualFold(key, "content-signal"):
		return fieldContentSignal
	case strings.EqualFold(key, "content-usage"):
		return fieldContentUsage
	}
	for _, k := range nonStandardFields {
		if strings.EqualFold(key, k) {
			return fieldNonStandard
		}
	}
	return fieldUnknown
}

// srcAgent is one user-agent line's value.
type srcAgent struct {
	token  string // product token as written; "" for "*"
	global bool
	// withDigits is the crawler's whole name when the value goes on with
	// a digit after its token ("MJ12bot", whose token is "MJ";
	// "360Spider", which has none); "" else.
	withDigits string
	group      int32 // the index of its written group
	line       int32
}

// name is the agent a's line names: its whole name with digits, or its
// product token ("" for "*").
func (a *srcAgent) name() string {
	if a.withDigits != "" {
		return a.withDigits
	}
	return a.token
}

// srcGroup is one group as written in the file, before merging.
type srcGroup struct {
	rules []*Rule
	// borrows marks a group cut short by a user-agent line after its
	// crawl-delay or usage lines: its allow and disallow lines are those
	// of the next written group (see parser.userAgent), the same slice.
	borrows bool
	// prefs is set by a crawl-delay line that reads as a delay and by a
	// content-signal line: a user-agent line after one, before any rule,
	// starts a group that lends the earlier agents its rules.
	prefs      bool
	crawlDelay time.Duration
	m          atomic.Pointer[matcher] // compiled when a Group first needs it
	// signal combines the group's Content-Signal lines; usage holds its
	// Content-Usage lines in file order, and um ranks their paths.
	signal Signals
	usage  []usageRule
	um     *matcher
}

type parser struct {
	groups []*srcGroup
	// Agent and rule lines go to one slice each for the whole file, not
	// to a slice per group grown one doubling at a time: a group's lines
	// all come before the next group's. Agents carry their group's index;
	// the last group's rules are rules[ruleLo:] until endGroup hands them
	// over.
	agents []srcAgent
	rules  []*Rule
	ruleLo int
	// open is true while user-agent lines are being collected, i.e. no
	// allow or disallow line has been seen since the last user-agent line.
	open      bool
	sitemaps  []string
	diags     []Diagnostic
	fields    int        // lines read as a known field
	slab      []Rule     // rules are allocated from here, a chunk at a time
	groupSlab []srcGroup // and groups from here
	// Diagnostics past maxDiagnostics: how many, the last one's line and
	// the most severe.
	dropped     int
	droppedLine int
	droppedSev  Severity
	// escaped are the disallow lines that escape a reserved character
	// servers decode, said once their groups are whole.
	escaped []pendingEscape
}

// pendingEscape is a disallow line of group that escapes a reserved
// character (see escapedReserved).
type pendingEscape struct {
	line  int
	value string
	c     byte // the first character it escapes
	group *srcGroup
}

// sayEscaped reports each disallow line that escapes a reserved character
// servers decode whose group lacks the decoded line, after every other
// finding, so that these infos never push a warning or an error past
// maxDiagnostics, and in line order with the rest.
func (p *parser) sayEscaped() {
	if len(p.escaped) == 0 {
		return
	}
	// Each group's disallow patterns, indexed once: a file of thousands
	// of such lines in one group costs linear time, not quadratic.
	patterns := make(map[*srcGroup]map[string]bool)
	for _, e := range p.escaped {
		decoded := decodeReserved(e.value)
		set, ok := patterns[e.group]
		if !ok {
			set = make(map[string]bool, len(e.group.rules))
			for _, r := range e.group.rules {
				if r.Directive == Disallow {
					set[r.Pattern] = true
				}
			}
			patterns[e.group] = set
		}
		if set[decoded] {
			continue
		}
		p.diag(e.line, Info, KindEscapedReserved, "pattern %q escapes %q (%%%02X): it matches only a URL that sends the escape, as Google reads it, and servers decode it, so a client that sends %q raw gets the same page past it; add %q to refuse both", e.value, string(e.c), e.c, string(e.c), "Disallow: "+decoded)
	}
	slices.SortStableFunc(p.diags, func(a, b Diagnostic) int { return a.Line - b.Line })
}

// appendDoubling appends x to s, doubling the capacity of s when it is
// full: append grows a large slice by a quarter at a time, which for the
// file-sized slices of Parse makes several times their size in garbage.
func appendDoubling[T any](s []T, x T) []T {
	if len(s) == cap(s) {
		s = slices.Grow(s, len(s))
	}
	return append(s, x)
}

// endGroup gives the last group its rules.
func (p *parser) endGroup() {
	if len(p.groups) > 0 && len(p.rules) > p.ruleLo {
		rules := p.rules[p.ruleLo:len(p.rules):len(p.rules)]
		for i := len(p.groups) - 1; i >= 0; i-- {
			p.groups[i].rules = rules
			if i == 0 || !p.groups[i-1].borrows {
				break
			}
		}
	}
	p.ruleLo = len(p.rules)
}

// sameRules tells whether a and b hold the very same rules: a group that
// borrows and the one it borrows from.
func sameRules(a, b *srcGroup) bool {
	return len(a.rules) > 0 && len(a.rules) == len(b.rules) && &a.rules[0] == &b.rules[0]
}

func (p *parser) newGroup() {
	p.endGroup()
	if len(p.groupSlab) == 0 {
		p.groupSlab = make([]srcGroup, 16)
	}
	p.groups = append(p.groups, &p.groupSlab[0])
	p.groupSlab = p.groupSlab[1:]
}

func (p *parser) newRule() *Rule {
	if len(p.slab) == 0 {
		p.slab = make([]Rule, 64)
	}
	r := &p.slab[0]
	p.slab = p.slab[1:]
	return r
}

// maxDiagnostics is how many diagnostics Parse keeps. A file of 500 KB
// can have a finding on every one of its 170,000 lines; kept, they would
// take many times the file's size, and nobody reads past the first
// thousand.
const maxDiagnostics = 1000

func (p *parser) diag(line int, sev Severity, kind Kind, format string, args ...any) {
	if len(p.diags) >= maxDiagnostics {
		p.dropped++
		p.droppedLine = line
		p.droppedSev = max(p.droppedSev, sev)
		return
	}
	p.diags = append(p.diags, Diagnostic{Line: line, Severity: sev, Kind: kind, Message: fmt.Sprintf(format, args...)})
}

// Parse reads a robots.txt file. It never fails: lines that are not valid
// are skipped (and reported in Diagnostics), as RFC 9309 asks.
func Parse(body []byte, opts ...Option) *File {
	o := parseOptions{maxSize: DefaultMaxSize}
	for _, opt := range opts {
		opt(&o)
	}
	truncatedAt := -1
	if o.maxSize > 0 && len(body) > o.maxSize {
		truncatedAt = o.maxSize
	}
	full := len(body)
	cutLine := ""
	if truncatedAt >= 0 {
		body = Truncate(body, truncatedAt)
		if len(body) < truncatedAt {
			cutLine = ", and so is the line the limit cuts"
		}
	}
	// One copy of the text; lines, patterns and names are substrings of it.
	text := string(body)
	// Skip a UTF-8 byte order mark, or as much of one as the file starts
	// with (google/robotstxt does the same).
	const bom = "\xEF\xBB\xBF"
	for i := 0; i < len(bom) && len(text) > 0 && text[0] == bom[i]; i++ {
		text = text[1:]
	}

	// Room for the agents and rules of a typical file from the start, not
	// after a dozen doublings.
	p := &parser{agents: make([]srcAgent, 0, 32), rules: make([]*Rule, 0, 128)}
	line := EachLine(text, func(num int, l, _ string) { p.line(num, l) })
	p.endGroup()
	p.sayEscaped()
	if p.dropped > 0 {
		p.diags = append(p.diags, Diagnostic{Line: p.droppedLine, Severity: p.droppedSev, Kind: KindTooMany,
			Message: fmt.Sprintf("%d more findings, up to line %d, are not listed", p.dropped, p.droppedLine)})
	}
	if truncatedAt >= 0 {
		// Past the cap too: the size limit is the one finding a reader
		// must not miss.
		size := fmt.Sprintf("%d bytes", max(int64(full), o.sourceSize))
		if o.sourceSize < 0 {
			size = fmt.Sprintf("more than %d bytes", full)
		}
		p.diags = append(p.diags, Diagnostic{Line: line, Severity: Error, Kind: KindSizeLimit,
			Message: fmt.Sprintf("the file is %s; everything past the first %d bytes is ignored%s", size, truncatedAt, cutLine)})
	}
	f := newFile(p)
	f.size = len(body)
	return f
}

// Truncate returns what a reader that reads only the first n bytes of
// body keeps: those bytes, less a last line the cut splits. The start of a
// line is not the line: "Disallow: /private" cut after its "/" would
// disallow everything. body may go on past n (a reader reads one byte
// more to know), which tells whether the cut falls at a line's end; when
// len(body) <= n, body is whole and returned as it is.
func Truncate(body []byte, n int) []byte {
	if len(body) <= n {
		return body
	}
	if body[n] == '\n' || body[n] == '\r' {
		return body[:n]
	}
	for i := n - 1; i >= 0; i-- {
		if body[i] == '\n' || body[i] == '\r' {
			return body[:i+1]
		}
	}
	return body[:0]
}

// EachLine calls fn with each line of text, numbered from 1, as Parse
// reads lines: each ends at LF, CR or CRLF, and eol is that ending ("" for
// the last line, which has none and may be empty). It returns the number
// of lines.
func EachLine(text string, fn func(num int, line, eol string)) int {
	num, start := 0, 0
	for i := 0; i < len(text); i++ {
		c := text[i]
		if c != '\n' && c != '\r' {
			continue
		}
		end := i + 1
		if c == '\r' && end < len(text) && text[end] == '\n' {
			end++
		}
		num++
		fn(num, text[start:i], text[i:end])
		i, start = end-1, end
	}
	num++
	fn(num, text[start:], "")
	return num
}

func isASCIISpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r'
}

func trimASCIISpace(s string) string {
	for len(s) > 0 && isASCIISpace(s[0]) {
		s = s[1:]
	}
	for len(s) > 0 && isASCIISpace(s[len(s)-1]) {
		s = s[:len(s)-1]
	}
	return s
}

func (p *parser) line(num int, s string) {
	if len(s) > maxLineLen {
		p.diag(num, Error, KindLongLine, "line is %d bytes long; only the first %d are read", len(s), maxLineLen)
		s = s[:maxLineLen]
	}
	if i := strings.IndexByte(s, 0); i >= 0 {
		p.diag(num, Warning, KindNUL, "line contains a NUL byte; the rest of the line is ignored")
		s = s[:i]
	}
	if !utf8.ValidString(s) {
		p.diag(num, Warning, KindInvalidUTF8, "line is not valid UTF-8")
	}
	if i := strings.IndexByte(s, '#'); i >= 0 {
		s = s[:i]
	}
	s = trimASCIISpace(s)
	if s == "" {
		return
	}
	sep := strings.IndexByte(s, ':')
	if sep < 0 {
		// Accept "key value" without the colon when the line holds
		// exactly two words, as Google does.
		sep = strings.IndexAny(s, " \t")
		if sep < 0 || strings.ContainsAny(strings.TrimLeft(s[sep:], " \t"), " \t") {
			p.diag(num, Warning, KindNoSeparator, "line %q is not a \"field: value\" pair; ignored", s)
			return
		}
	}
	key := trimASCIISpace(s[:sep])
	if key == "" {
		p.diag(num, Warning, KindNoSeparator, "line %q has no field name; ignored", s)
		return
	}
	value := trimASCIISpace(s[sep+1:])

	f := classifyKey(key)
	if f != fieldUnknown {
		p.fields++
	}
	if name := canonicalKey[f]; name != "" && !strings.EqualFold(key, name) {
		p.diag(num, Warning, KindMisspelling, "field %q is read as %q", key, name)
	}
	if f == fieldUserAgent {
		p.userAgent(num, value)
		return
	}
	var cur *srcGroup
	if len(p.groups) > 0 {
		cur = p.groups[len(p.groups)-1]
	}
	switch f {
	case fieldAllow, fieldDisallow:
		// Only a rule ends the run of user-agent lines, as in
		// google/robotstxt: a sitemap, crawl-delay or unknown line
		// between two user-agent lines leaves them in one group.
		p.open = false
		if cur == nil {
			p.diag(num, Error, KindRuleOutsideGroup, "%s rule comes before any user-agent line; ignored", key)
			return
		}
		if value == "" {
			return // an empty pattern matches nothing worth deciding
		}
		if value[0] != '/' && value[0] != '*' {
			p.diag(num, Error, KindRelativePath, "pattern %q does not start with \"/\" or \"*\", so it matches no URL", value)
		}
		if c, ok := rawEscapable(value); ok && f == fieldDisallow {
			p.diag(num, Warning, KindRawByte, "pattern %q holds %q raw, which URLs carry escaped (%%%02X): Google compares it byte for byte, so the rule matches only a URL that sends it raw, and a client that sends it escaped gets the same page past it; write %q to match both", value, string(c), c, string(appendCanon(nil, value, "%", false, false)))
		}
		if c, ok := escapedReserved(value); ok && f == fieldDisallow {
			// Said once the group is whole, and only if it lacks the
			// decoded line (audit AP-F3).
			p.escaped = append(p.escaped, pendingEscape{line: num, value: value, c: c, group: cur})
		}
		d := Disallow
		if f == fieldAllow {
			d = Allow
		}
		r := p.newRule()
		*r = Rule{Directive: d, Pattern: value, Line: num, priority: priority(value, d)}
		p.rules = appendDoubling(p.rules, r)
	case fieldSitemap:
		if u, err := url.Parse(value); err != nil || u.Scheme == "" || u.Host == "" {
			p.diag(num, Warning, KindBadSitemap, "sitemap %q is not an absolute URL", value)
		}
		p.sitemaps = append(p.sitemaps, value)
	case fieldCrawlDelay:
		if cur == nil {
			p.diag(num, Warning, KindRuleOutsideGroup, "crawl-delay comes before any user-agent line; ignored")
			return
		}
		d, ok := ParseCrawlDelay(value)
		if !ok {
			p.diag(num, Warning, KindBadCrawlDelay, "crawl-delay %q is not a number of seconds; ignored", value)
			return
		}
		cur.prefs = true
		if cur.crawlDelay == 0 {
			cur.crawlDelay = d
		}
	case fieldContentSignal, fieldContentUsage:
		// Usage preferences belong to the group they are written in,
		// like a rule, but do not end its run of user-agent lines:
		// Google's parser does not know them, so they must not change
		// which agents share a group.
		if cur == nil {
			p.diag(num, Warning, KindRuleOutsideGroup, "%s comes before any user-agent line, so it applies to no crawler; ignored (put it under \"User-agent: *\" to address every crawler)", strings.ToLower(key))
			return
		}
		if f == fieldContentSignal {
			cur.prefs = true
			cur.signal = cur.signal.stricter(p.parseContentSignal(num, value))
			return
		}
		path, s := p.parseContentUsage(num, value)
		// A line that refuses a use ranks as a disallow rule, one that
		// only grants as an allow rule: where the readings of an
		// escaped path part, the grant wins (see priority).
		d := Allow
		if s.Search == No || s.AIInput == No || s.AITrain == No {
			d = Disallow
		}
		cur.usage = append(cur.usage, usageRule{rule: Rule{Directive: Disallow, Pattern: path, Line: num, priority: priority(path, d)}, prefs: s})
	case fieldNonStandard:
		p.diag(num, Info, KindNonStandardField, "field %q is not part of RFC 9309; ignored", key)
	default:
		p.diag(num, Warning, KindUnknownField, "unknown field %q; ignored", key)
	}
}

// ParseCrawlDelay reads a crawl-delay value as the parser does: a
// non-negative number of seconds, capped at a year; ok is false for
// anything else.
func ParseCrawlDelay(value string) (d time.Duration, ok bool) {
	if strings.ContainsAny(value, "_xXpP") {
		// Go's syntax, not a number of seconds as anyone writes one:
		// "1_000" and "0x1p4" are no delay a crawler would read.
		return 0, false
	}
	secs, err := strconv.ParseFloat(value, 64)
	if errors.Is(err, strconv.ErrRange) && secs > 0 {
		err = nil // "1e999": a very long delay, capped below
	}
	if err != nil || secs < 0 || math.IsNaN(secs) || math.IsInf(secs, -1) {
		return 0, false
	}
	// A year is longer than any schedule means; it keeps the conversion
	// to a Duration from overflowing.
	secs = min(secs, maxCrawlDelay.Seconds())
	return time.Duration(secs * float64(time.Second)), true
}

func (p *parser) userAgent(num int, value string) {
	switch {
	case !p.open || len(p.groups) == 0:
		p.newGroup()
		p.open = true
	case p.groups[len(p.groups)-1].prefs:
		// "User-agent: bingbot / Crawl-delay: 10 / User-agent: *": Google's
		// parser keeps both agents in one group until a rule, and so do
		// their allow and disallow lines here. But Google reads no
		// crawl-delay or usage line, so its grouping is no authority on
		// them, and the crawlers that do read them (and the operator who
		// wrote the file) end a group at the next user-agent line: the
		// delay is bingbot's, not every crawler's. The earlier agents get
		// a group of their own that borrows the rules that end the run.
		p.groups[len(p.groups)-1].borrows = true
		p.newGroup()
	}
	group := int32(len(p.groups) - 1)
	// "*" alone, or followed by white space, is the global group; any other
	// value is cut to the name it gives (see AgentName): its product token,
	// the leading run of letters, "-" and "_" ("Googlebot/2.1" is
	// "Googlebot", "*bot" is nothing), with the digits that go on from it.
	if value != "" && value[0] == '*' && (len(value) == 1 || isASCIISpace(value[1])) {
		p.agents = appendDoubling(p.agents, srcAgent{global: true, group: group, line: int32(num)})
		return
	}
	token := productToken(value)
	name := AgentName(value)
	var withDigits string // the crawler's whole name, when a digit cuts the token
	if name != token {
		withDigits = name
	}
	switch {
	case name == "":
		p.diag(num, Warning, KindEmptyUserAgent, "user-agent %q has no product token (letters, \"-\" and \"_\"), so it names no crawler", value)
	case BrowserToken(name):
		p.diag(num, Warning, KindBrowserAgent, "user-agent %q is read as %q, a token every browser sends and no crawler goes by: no client is held to this group by its User-Agent; name the crawler's own token", value, name)
	case withDigits != "" && token == "":
		p.diag(num, Info, KindAgentToken, "user-agent %q names no crawler to Google's parser, whose tokens start with a letter; it holds the crawler %q here by its whole name", value, withDigits)
	case withDigits != "":
		// Works here (see NamedGroupFor), but not in every reader.
		p.diag(num, Info, KindAgentToken, "user-agent %q is read as %q by Google's parser, which gives a crawler with digits in its name no group; it holds the crawler %q here by its whole name", value, token, withDigits)
	case token != value:
		p.diag(num, Info, KindAgentToken, "user-agent %q is read as %q", value, token)
	}
	p.agents = appendDoubling(p.agents, srcAgent{token: token, withDigits: withDigits, group: group, line: int32(num)})
}

// nameLen is the length of the run of letters, digits, "-" and "_" s
// starts with.
func nameLen(s string) int {
	i := 0
	for i < len(s) && (isTokenChar(s[i]) || isDigit(s[i])) {
		i++
	}
	return i
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// HoldsRawEscapable reports whether s holds raw an ASCII byte that a URL
// carries escaped ("|", "^", a space, ...): a target the client sent so
// is one for Group.DecideRaw to read.
func HoldsRawEscapable(s string) bool {
	_, raw := rawEscapable(s)
	return raw
}

// HoldsSentSpelling reports whether s holds what a reading of it as sent
// may see otherwise than its canonical form: a raw ASCII byte that URLs
// carry escaped, or an escape of an unreserved character ("%7E"), which
// a disallow pattern's lone "%" matches (see Group.DecideRaw).
func HoldsSentSpelling(s string) bool {
	return HoldsRawEscapable(s) || holdsUnreservedEscape(s)
}

// escapedReserved returns the first reserved character that pattern p
// escapes and that a server decodes to the same path (":" of "%3A", "("
// of "%28"), if any: not "/", which decoding turns into a segment
// boundary, nor "?", "#" or "%", which raw would end the path or start an
// escape.
func escapedReserved(p string) (byte, bool) {
	// The path only: in a query "&", "=" and "+" mean other things raw
	// than escaped (audit AP-F5).
	if q := strings.IndexByte(p, '?'); q >= 0 {
		p = p[:q]
	}
	for i := 0; i+2 < len(p); i++ {
		if c, ok := reservedEscapeAt(p, i); ok {
			return c, true
		}
	}
	return 0, false
}

// reservedEscapeAt reports the character p escapes at i, when that is an
// escape of a reserved character escapedReserved counts.
func reservedEscapeAt(p string, i int) (byte, bool) {
	if p[i] != '%' || i+2 >= len(p) {
		return 0, false
	}
	hi, ok1 := unhex(p[i+1])
	lo, ok2 := unhex(p[i+2])
	c := hi<<4 | lo
	// Not "*" nor "$": raw in a pattern they are a wildcard and an end;
	// nor ";", which Tomcat and Jetty read as path parameters raw, nor
	// "&", "=" or "+", which forms give meanings of their own.
	return c, ok1 && ok2 && strings.IndexByte(":@!'(),[]", c) >= 0
}

// decodeReserved returns p with the escapes escapedReserved counts
// decoded, in its path.
func decodeReserved(p string) string {
	var b strings.Builder
	q := strings.IndexByte(p, '?')
	if q < 0 {
		q = len(p)
	}
	for i := 0; i < len(p); i++ {
		if i >= q {
			b.WriteString(p[i:])
			break
		}
		if c, ok := reservedEscapeAt(p, i); ok {
			b.WriteByte(c)
			i += 2
			continue
		}
		b.WriteByte(p[i])
	}
	return b.String()
}

// rawEscapable returns the first ASCII byte of pattern p that a URL
// carries escaped (see canonicalPattern), if any.
func rawEscapable(p string) (byte, bool) {
	for i := 0; i < len(p); i++ {
		if c := p[i]; c < 0x80 && byteClass[c] == classEncode {
			return c, true
		}
	}
	return 0, false
}

func isTokenChar(c byte) bool {
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '-' || c == '_'
}

// AgentName returns the crawler a user-agent value names: its product
// token, or, when a digit follows the token, the whole name the digits are
// part of ("MJ12bot", "360Spider"; see NamedGroupFor), its leading run of
// letters, digits, "-" and "_". A name that starts with a digit is one
// only if it has three characters or more ("008" of 80legs): "1" or "2.0"
// names no crawler but would be found in every browser's version numbers.
func AgentName(value string) string {
	token := productToken(value)
	if len(value) == len(token) || !isDigit(value[len(token)]) {
		return token
	}
	name := value[:len(token)+nameLen(value[len(token):])]
	if token == "" && len(name) < 3 {
		return ""
	}
	return name
}

// productToken returns the product token a user-agent value names, as
// the parser reads it: its leading run of letters, "-" and "_"
// ("Googlebot/2.1" is "Googlebot", "MJ12bot" is "MJ").
func productToken(value string) string {
	i := 0
	for i < len(value) && isTokenChar(value[i]) {
		i++
	}
	return value[:i]
}
