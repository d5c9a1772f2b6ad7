package include

import (
	"strings"

	"github.com/robotsguard/caddy-robots-txt/robots"
)

// maxLineLen is the longest line package robots reads; the rest of a
// longer line is ignored.
const maxLineLen = 2083*8 - 1

type kind uint8

const (
	kAgent kind = iota + 1
	kAllow
	kDisallow
	kCrawlDelay
	kContentSignal
)

// preference tells whether a line of kind k ends the user-agent lines a
// crawl-delay or content signal is given to, as robots reads it.
func (k kind) preference() bool {
	return k == kCrawlDelay || k == kContentSignal
}

// srcLine is one line of a source that belongs to a group, read as
// package robots reads it.
type srcLine struct {
	kind  kind
	num   int    // 1-based line number in the source
	key   string // the field name as written
	value string // the value, comment and surrounding white space removed
	text  string // the whole line as the parser sees it ("key: value")
	agent string // for kAgent: lower-cased product token, "*", or "" (names nothing)
}

// scanned is a source split into its groups as written: groups[i] is the
// first index in lines of group i.
type scanned struct {
	lines  []srcLine
	groups []int
	open   bool // the text ends inside a run of user-agent lines
	rules  int  // allow and disallow lines with a pattern, inside groups
}

// group returns the lines of written group i.
func (s *scanned) group(i int) []srcLine {
	end := len(s.lines)
	if i+1 < len(s.groups) {
		end = s.groups[i+1]
	}
	return s.lines[s.groups[i]:end]
}

// classify reads a key as robots does.
func classify(key string) kind {
	switch robots.FieldOf(key) {
	case "user-agent":
		return kAgent
	case "allow":
		return kAllow
	case "disallow":
		return kDisallow
	case "crawl-delay":
		return kCrawlDelay
	case "content-signal":
		return kContentSignal
	}
	return 0 // sitemaps are not copied and do not end a group
}

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r'
}

func trim(s string) string {
	for len(s) > 0 && isSpace(s[0]) {
		s = s[1:]
	}
	for len(s) > 0 && isSpace(s[len(s)-1]) {
		s = s[:len(s)-1]
	}
	return s
}

// agentKey is the name a user-agent value gives its agent, as robots
// reads it: "*" for the global group, else the lower-cased product token
// or whole name with digits (robots.AgentName; "" when there is none).
func agentKey(value string) string {
	if value != "" && value[0] == '*' && (len(value) == 1 || isSpace(value[1])) {
		return "*"
	}
	return strings.ToLower(robots.AgentName(value))
}

// scan splits body into its written groups the way robots.Parse does:
// same size limit, line ends, comments and key spellings, and a run of
// user-agent lines ends only at an allow or disallow line. It keeps the
// lines a merged file needs: user-agent, allow and disallow (with empty
// patterns, which end a run), valid crawl-delay and content-signal lines.
func scan(body []byte) *scanned {
	body = robots.Truncate(body, robots.DefaultMaxSize)
	text := string(body)
	const bom = "\xEF\xBB\xBF"
	for i := 0; i < len(bom) && len(text) > 0 && text[0] == bom[i]; i++ {
		text = text[1:]
	}
	// Most lines of a list are kept: size the slice once.
	s := &scanned{lines: make([]srcLine, 0, strings.Count(text, "\n")+1)}
	robots.EachLine(text, func(num int, l, _ string) { s.line(num, l) })
	return s
}

func (s *scanned) line(num int, t string) {
	if len(t) > maxLineLen {
		t = t[:maxLineLen]
	}
	if i := strings.IndexByte(t, 0); i >= 0 {
		t = t[:i]
	}
	if i := strings.IndexByte(t, '#'); i >= 0 {
		t = t[:i]
	}
	t = trim(t)
	if t == "" {
		return
	}
	sep := strings.IndexByte(t, ':')
	if sep < 0 {
		sep = strings.IndexAny(t, " \t")
		if sep < 0 || strings.ContainsAny(strings.TrimLeft(t[sep:], " \t"), " \t") {
			return
		}
	}
	key := trim(t[:sep])
	if key == "" {
		return
	}
	l := srcLine{kind: classify(key), num: num, key: key, value: trim(t[sep+1:]), text: t}
	switch l.kind {
	case kAgent:
		if !s.open || len(s.groups) == 0 {
			s.groups = append(s.groups, len(s.lines))
			s.open = true
		}
		l.agent = agentKey(l.value)
	case kAllow, kDisallow:
		s.open = false
		if len(s.groups) == 0 {
			return
		}
		if l.value != "" {
			s.rules++
		}
	case kCrawlDelay:
		if _, ok := robots.ParseCrawlDelay(l.value); len(s.groups) == 0 || !ok {
			return
		}
	case kContentSignal:
		if len(s.groups) == 0 {
			return
		}
	default:
		return
	}
	s.lines = append(s.lines, l)
}

// key returns the standard spelling of the line's field, with its colon.
func (l *srcLine) stdKey() string {
	switch l.kind {
	case kAgent:
		return "User-agent:"
	case kAllow:
		return "Allow:"
	case kDisallow:
		return "Disallow:"
	case kCrawlDelay:
		return "Crawl-delay:"
	}
	return ""
}

// appendTo appends the line as the merged file writes it: the standard
// spelling of its field, then its value as written. A line that would be
// longer than robots reads is written as the parser saw it instead.
func (l *srcLine) appendTo(b []byte) []byte {
	key := l.stdKey()
	if key == "" {
		b = append(b, l.key...)
		b = append(b, ':')
	} else {
		b = append(b, key...)
	}
	if l.value == "" {
		return b
	}
	if l.renderLen() > maxLineLen {
		return append(b[:len(b)-l.keyLen()], l.text...)
	}
	b = append(b, ' ')
	return append(b, l.value...)
}

func (l *srcLine) keyLen() int {
	if k := l.stdKey(); k != "" {
		return len(k)
	}
	return len(l.key) + 1
}

// renderLen is the length of what appendTo appends.
func (l *srcLine) renderLen() int {
	if l.value == "" {
		return l.keyLen()
	}
	if n := l.keyLen() + 1 + len(l.value); n <= maxLineLen {
		return n
	}
	return len(l.text)
}
