package report

import (
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/robotsguard/caddy-robots-txt/caddymodule/internal/text"
	"github.com/robotsguard/caddy-robots-txt/caddymodule/judge"
)

// WriteJSON writes the report as indented JSON (the --format json output).
func (r *Report) WriteJSON(w io.Writer) error { return text.WriteJSON(w, r) }

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

// Text describes the skipped lines, or "" when there are none.
func (s Skipped) Text() string {
	var parts []string
	if s.Malformed > 0 {
		parts = append(parts, text.Plural(s.Malformed, "malformed line", "malformed lines"))
	}
	if s.TooLong > 0 {
		parts = append(parts, text.Plural(s.TooLong, "line", "lines")+" over 1 MiB")
	}
	if s.NotAccessLog > 0 {
		parts = append(parts, text.Plural(s.NotAccessLog, "entry", "entries")+" not from an access log")
	}
	if s.BeforeSince > 0 {
		parts = append(parts, text.Plural(s.BeforeSince, "entry", "entries")+" before --since")
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
	bots := text.Plural(int64(len(r.Bots)), "bot", "bots")
	if r.BotsTruncated {
		bots = r.BotCount() + " bots"
	}
	violations := text.Plural(r.Violations, "violation", "violations")
	if r.TooFast > 0 {
		// Before the blocked count, which holds their 429s too: "6
		// violations (8 blocked)" would read as more blocked than broken.
		violations += ", " + text.Plural(r.TooFast, "crawl-delay violation", "crawl-delay violations")
	}
	counts = fmt.Sprintf("%s: %s from %s, %s from people; %s (%s blocked), %s",
		text.Plural(r.Requests, "request", "requests"), text.Group3(r.BotRequests), bots,
		text.Group3(r.HumanRequests), violations, text.Group3(r.Blocked),
		text.Plural(r.Grace, "grace request", "grace requests"))
	if r.BotsTruncated {
		counts += fmt.Sprintf("; bots past the first %s counted as %s", text.Group3(MaxBots), OtherBots)
	}
	return span, counts
}

// BotCount is how many bots the report saw. Past MaxBots it is a lower
// bound: the OtherBots row holds every further bot, and how many there
// were is not kept, so its row is not one bot.
func (r *Report) BotCount() string {
	if r.BotsTruncated {
		return "more than " + text.Group3(MaxBots)
	}
	return text.Group3(int64(len(r.Bots)))
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
	ew := &text.ErrWriter{W: w}
	span, counts := r.summary()
	ew.Printf("robots.txt report: %s\n%s\n", span, counts)
	if s := r.Skipped.Text(); s != "" {
		ew.Printf("skipped: %s\n", s)
	}
	for _, warn := range r.Warnings {
		ew.Printf("warning: %s\n", text.Clean(warn))
	}
	if len(r.Bots) == 0 {
		ew.Printf("\nNo bot requests (no entries with a robots_txt object).\n")
		return ew.Err
	}

	layout := r.timeLayout()
	when := func(t *time.Time) string {
		if t == nil {
			return "never"
		}
		return t.Format(layout)
	}
	// DELAY, the crawl-delay violations, only where there are some, as
	// the summary names them: without it a bot that broke only the
	// Crawl-delay would read VIOL 0.
	delay := r.TooFast > 0
	header := []string{"BOT", "REQS", "VIOL", "BLOCK", "GRACE", "FETCH", "LAST FETCH", "AFTER", "IPS", "LAST SEEN"}
	if delay {
		header = slices.Insert(header, 3, "DELAY")
	}
	rows := [][]string{header}
	for i := range r.Bots {
		b := &r.Bots[i]
		after := "-"
		if b.AfterFetchFraction != nil {
			after = percent(*b.AfterFetchFraction)
		}
		last := b.LastSeen
		row := []string{
			fitName(text.Clean(b.Bot), 18), text.Group3(b.Requests), text.Group3(b.Violations), text.Group3(b.Blocked), text.Group3(b.Grace),
			text.Group3(b.RobotsTxtFetches), when(b.LastRobotsTxtFetch), after, b.ClientIPsText(), when(&last),
		}
		if delay {
			row = slices.Insert(row, 3, text.Group3(b.TooFast))
		}
		rows = append(rows, row)
	}
	widths := make([]int, len(header))
	for _, row := range rows {
		for i, c := range row {
			widths[i] = max(widths[i], utf8.RuneCountInString(c))
		}
	}
	ew.Printf("\n")
	for _, row := range rows {
		var b strings.Builder
		for i, c := range row {
			pad := strings.Repeat(" ", widths[i]-utf8.RuneCountInString(c))
			switch {
			case i == 0:
				b.WriteString(c + pad)
			case header[i] == "LAST FETCH" || header[i] == "LAST SEEN": // left-aligned
				b.WriteString("  " + c + pad)
			default:
				b.WriteString("  " + pad + c)
			}
		}
		ew.Printf("%s\n", strings.TrimRight(b.String(), " "))
	}
	ew.Printf("\nVIOL: requests robots.txt disallows; ")
	if delay {
		ew.Printf("DELAY: requests faster than the group's Crawl-delay allows;\n")
	}
	ew.Printf("BLOCK: refused (enforce); FETCH: /robots.txt fetches;\n" +
		"AFTER: share of requests made after the client fetched robots.txt; IPS: distinct client IPs\n")

	shown, more := 0, 0
	for i := range r.Bots {
		b := &r.Bots[i]
		if b.Violations == 0 && b.TooFast == 0 {
			continue
		}
		if shown == maxRuleSections {
			more++
			continue
		}
		if shown == 0 {
			ew.Printf("\nMost broken rules\n")
		}
		shown++
		category := ""
		if b.Category != "" {
			category = "; category " + text.Clean(b.Category)
		}
		ew.Printf("\n%s  (group %s%s; first seen %s)\n", text.Clean(b.Bot), strings.Join(quoteAll(b.Groups), ", "), category, b.FirstSeen.Format("2006-01-02 15:04:05"))
		numW := len(text.Group3(max(b.Violations, b.TooFast)))
		// The Crawl-delay is no rule the log names (top_rules has none
		// of it), but it was broken: it stands among the rules by its
		// count.
		delayShown := b.TooFast == 0
		showDelay := func() {
			ew.Printf("  %*s  Crawl-delay (too fast)\n", numW, text.Group3(b.TooFast))
			delayShown = true
		}
		for _, rc := range b.TopRules {
			if !delayShown && b.TooFast >= rc.Count {
				showDelay()
			}
			// A rule of no line (the trap's) is logged without one;
			// an included list's is named by the list and its line.
			line := ""
			switch {
			case rc.Source == judge.TrapSource:
				line = " (the trap's)"
			case rc.Source != "":
				line = " (" + text.Clean(rc.Source) + ")"
			case rc.Line > 0:
				line = fmt.Sprintf(" (line %d)", rc.Line)
			}
			ew.Printf("  %*s  %s%s\n", numW, text.Group3(rc.Count), text.Clean(rc.Rule), line)
		}
		if !delayShown {
			showDelay()
		}
		if b.OtherRuleViolations > 0 {
			ew.Printf("  %*s  other rules\n", numW, text.Group3(b.OtherRuleViolations))
		}
	}
	if more > 0 {
		ew.Printf("\n(%s with violations not shown; --format json or html lists every one)\n", text.Plural(int64(more), "more bot", "more bots"))
	}
	return ew.Err
}

func quoteAll(ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = strconv.Quote(s)
	}
	return out
}
