package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// WriteJSON writes the report as indented JSON (the --format json output).
func (r *Report) WriteJSON(w io.Writer) error { return writeJSON(w, r) }

// writeJSON writes v as the commands' JSON output: indented, with <, >
// and & left as they are (the output is read by programs, not browsers).
func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}

// group3 renders n with thousands separators: 1234567 is "1,234,567".
func group3(n int64) string {
	s := strconv.FormatInt(n, 10)
	neg := strings.HasPrefix(s, "-")
	if neg {
		s = s[1:]
	}
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}

func plural(n int64, one, many string) string {
	if n == 1 {
		return group3(n) + " " + one
	}
	return group3(n) + " " + many
}

// percent renders a fraction as a whole percentage, without rounding a
// fraction short of 1 up to 100 % or one above 0 down to 0 %.
func percent(f float64) string {
	p := math.Round(f * 100)
	if p == 100 && f < 1 {
		p = 99
	}
	if p == 0 && f > 0 {
		p = 1
	}
	return strconv.Itoa(int(p)) + "%"
}

// timeLayout picks how the table shows times: with the date only when the
// report spans more than one day, with the year only when it spans years.
func (r *Report) timeLayout() string {
	if r.FirstSeen == nil {
		return "2006-01-02 15:04"
	}
	f, l := *r.FirstSeen, *r.LastSeen
	switch {
	case f.Year() != l.Year():
		return "2006-01-02"
	case f.YearDay() != l.YearDay():
		return "01-02 15:04"
	}
	return "15:04:05"
}

// skippedText describes the skipped lines, or "" when there are none.
func (s Skipped) text() string {
	var parts []string
	if s.Malformed > 0 {
		parts = append(parts, plural(s.Malformed, "malformed line", "malformed lines"))
	}
	if s.TooLong > 0 {
		parts = append(parts, plural(s.TooLong, "line", "lines")+" over 1 MiB")
	}
	if s.NotAccessLog > 0 {
		parts = append(parts, plural(s.NotAccessLog, "entry", "entries")+" not from an access log")
	}
	if s.BeforeSince > 0 {
		parts = append(parts, plural(s.BeforeSince, "entry", "entries")+" before --since")
	}
	return strings.Join(parts, ", ")
}

// summary is the report's first lines, shared by the table and the page.
func (r *Report) summary() (span, counts string) {
	if r.FirstSeen == nil {
		span = "no requests"
	} else {
		span = r.FirstSeen.Format("2006-01-02 15:04:05") + " to " + r.LastSeen.Format("2006-01-02 15:04:05") + " UTC"
	}
	bots := int64(len(r.Bots))
	counts = fmt.Sprintf("%s: %s from %s, %s from people; %s (%s blocked), %s",
		plural(r.Requests, "request", "requests"), group3(r.BotRequests), plural(bots, "bot", "bots"),
		group3(r.HumanRequests), plural(r.Violations, "violation", "violations"), group3(r.Blocked),
		plural(r.Grace, "grace request", "grace requests"))
	if r.BotsTruncated {
		counts += fmt.Sprintf("; bots past the first %d counted as %s", MaxBots, OtherBots)
	}
	return span, counts
}

// fitName cuts a name to n runes, ending it with "…" when cut.
func fitName(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n-1]) + "…"
}

// maxRuleSections is the number of bots whose broken rules the table lists.
const maxRuleSections = 20

// WriteTable writes the report for a terminal: a summary, one row per bot
// in columns that fit 100 characters, and each bot's most broken rules.
func (r *Report) WriteTable(w io.Writer) error {
	ew := &errWriter{w: w}
	span, counts := r.summary()
	ew.printf("robots.txt report: %s\n%s\n", span, counts)
	if s := r.Skipped.text(); s != "" {
		ew.printf("skipped: %s\n", s)
	}
	for _, warn := range r.Warnings {
		ew.printf("warning: %s\n", clean(warn))
	}
	if len(r.Bots) == 0 {
		ew.printf("\nNo bot requests (no entries with a robots_txt object).\n")
		return ew.err
	}

	layout := r.timeLayout()
	when := func(t *time.Time) string {
		if t == nil {
			return "never"
		}
		return t.Format(layout)
	}
	header := []string{"BOT", "REQS", "VIOL", "BLOCK", "GRACE", "FETCH", "LAST FETCH", "AFTER", "IPS", "LAST SEEN"}
	rows := [][]string{header}
	for i := range r.Bots {
		b := &r.Bots[i]
		after := "-"
		if b.AfterFetchFraction != nil {
			after = percent(*b.AfterFetchFraction)
		}
		last := b.LastSeen
		rows = append(rows, []string{
			fitName(clean(b.Bot), 18), group3(b.Requests), group3(b.Violations), group3(b.Blocked), group3(b.Grace),
			group3(b.RobotsTxtFetches), when(b.LastRobotsTxtFetch), after, b.ClientIPsText(), when(&last),
		})
	}
	widths := make([]int, len(header))
	for _, row := range rows {
		for i, c := range row {
			widths[i] = max(widths[i], utf8.RuneCountInString(c))
		}
	}
	ew.printf("\n")
	for _, row := range rows {
		var b strings.Builder
		for i, c := range row {
			pad := strings.Repeat(" ", widths[i]-utf8.RuneCountInString(c))
			switch {
			case i == 0:
				b.WriteString(c + pad)
			case i == 6 || i == 9: // times, left-aligned
				b.WriteString("  " + c + pad)
			default:
				b.WriteString("  " + pad + c)
			}
		}
		ew.printf("%s\n", strings.TrimRight(b.String(), " "))
	}
	ew.printf("\nVIOL: requests robots.txt disallows; BLOCK: refused (enforce); FETCH: /robots.txt fetches;\n" +
		"AFTER: share of requests made after the client fetched robots.txt; IPS: distinct client IPs\n")

	shown, more := 0, 0
	for i := range r.Bots {
		b := &r.Bots[i]
		if b.Violations == 0 {
			continue
		}
		if shown == maxRuleSections {
			more++
			continue
		}
		if shown == 0 {
			ew.printf("\nMost broken rules\n")
		}
		shown++
		ew.printf("\n%s  (group %s; first seen %s)\n", clean(b.Bot), strings.Join(quoteAll(b.Groups), ", "), b.FirstSeen.Format("2006-01-02 15:04:05"))
		numW := len(group3(b.Violations))
		for _, rc := range b.TopRules {
			ew.printf("  %*s  %s (line %d)\n", numW, group3(rc.Count), clean(rc.Rule), rc.Line)
		}
		if b.OtherRuleViolations > 0 {
			ew.printf("  %*s  other rules\n", numW, group3(b.OtherRuleViolations))
		}
	}
	if more > 0 {
		ew.printf("\n(%s with violations not shown; --format json or html lists every one)\n", plural(int64(more), "more bot", "more bots"))
	}
	return ew.err
}

func quoteAll(ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = strconv.Quote(s)
	}
	return out
}

// errWriter remembers the first write error.
type errWriter struct {
	w   io.Writer
	err error
}

func (e *errWriter) printf(format string, args ...any) {
	if e.err == nil {
		_, e.err = fmt.Fprintf(e.w, format, args...)
	}
}
