package report

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"testing"
)

// TestReportHTMLScriptsHoldHostileText: text from the log that could end
// the <script> holding the data, open a comment, or end a JavaScript line
// (U+2028, U+2029) is escaped by the template, and the data reads back
// whole, so the chart is drawn from the same report.
func TestReportHTMLScriptsHoldHostileText(t *testing.T) {
	for _, tc := range []struct{ name, bot, group, rule string }{
		{"script end in the bot", "</script><script>alert(1)</script>", "*", "disallow: /"},
		{"line separators in the rule", "LSBot", "*", "disallow: /a\u2028b\u2029c"},
		{"comment and CDATA in the group", "CBot", "<!--<script>]]><![CDATA[", "disallow: /x"},
		{"script end in capitals", "</SCRIPT ><img src=x onerror=alert(3)>", "*", "disallow: /</Script>"},
		{"named like the others series", AllOthers, "*", "disallow: /"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := logLineJSON(t0, "10.0.0.1", "/", "x", 403, rtObj(tc.bot, tc.group, "disallowed", tc.rule, 3, "enforce", "blocked")) + "\n" +
				logLineJSON(t0+60, "10.0.0.2", "/", "y", 200, rtObj("Other", "*", "allowed", "", 0, "enforce", "passed"))
			_, page := renderHTML(t, "x", in)
			lower := strings.ToLower(page)
			if n, m := strings.Count(lower, "<script"), strings.Count(lower, "</script"); n != 2 || m != 2 {
				t.Errorf("page has %d <script and %d </script, want 2 each", n, m)
			}
			for _, s := range regexp.MustCompile(`(?s)<script[^>]*>(.*?)</script>`).FindAllStringSubmatch(page, -1) {
				for _, bad := range []string{"\u2028", "\u2029", "<!--", "]]>"} {
					if strings.Contains(s[1], bad) {
						t.Errorf("a script holds a raw %+q:\n%s", bad, s[1])
					}
				}
			}
			m := regexp.MustCompile(`(?s)<script type="application/json" id="report-data">(.*?)</script>`).FindStringSubmatch(page)
			if m == nil {
				t.Fatal("no embedded report data")
			}
			var back Report
			if err := json.Unmarshal([]byte(m[1]), &back); err != nil {
				t.Fatalf("embedded data is not JSON: %v", err)
			}
			b := findBot(t, &back, tc.bot)
			if len(b.Groups) != 1 || b.Groups[0] != tc.group {
				t.Errorf("read back groups %q, want [%q]", b.Groups, tc.group)
			}
			if len(b.TopRules) != 1 || b.TopRules[0].Rule != tc.rule {
				t.Errorf("read back rules %+v, want one, %q", b.TopRules, tc.rule)
			}
			if len(back.Timeline.Series) != 2 || back.Timeline.Buckets == 0 {
				t.Errorf("chart data: %d series in %d buckets", len(back.Timeline.Series), back.Timeline.Buckets)
			}
			if !strings.Contains(page, fmt.Sprintf("var allOthers = %q;", AllOthers)) {
				t.Error("the script does not get the name of the others series from the report package")
			}
		})
	}
}

// TestReportHTMLTableHoldsNoControls: a rule, group or bot name from a
// tenant's robots.txt that carries a bidirectional override or a control
// character reaches the table escaped, so it cannot reorder its cell (an
// override made "line 3" read as another line) or act on a terminal that
// shows the file.
func TestReportHTMLTableHoldsNoControls(t *testing.T) {
	agg := NewAggregator(Options{Now: fixedNow})
	in := logLineJSON(t0, "10.0.0.1", "/", "x", 403, rtObj("Bidi\u202eBot", "g\u2066x", "disallowed", "disallow: /b\u202e1 enil\x1b[2J\u009b", 3, "enforce", "blocked"))
	if err := agg.Add("x", strings.NewReader(in)); err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := agg.Report().WriteHTML(&buf); err != nil {
		t.Fatal(err)
	}
	page := regexp.MustCompile(`(?s)<script.*?</script>`).ReplaceAllString(buf.String(), "")
	for _, bad := range []string{"\u202e", "\u2066", "\x1b", "\x9b", "\u009b"} {
		if strings.Contains(page, bad) {
			t.Errorf("the page outside its scripts holds a raw %+q", bad)
		}
	}
	for _, want := range []string{`Bidi\u202eBot`, `disallow: /b\u202e1 enil\x1b[2J\x9b`} {
		if !strings.Contains(page, want) {
			t.Errorf("the page does not show %q", want)
		}
	}
}

// TestReportHTMLChartNamesHoldNoControls: the chart's legend, its bot
// choice and its tooltips show the series' names as the table does, with
// control and bidirectional characters escaped; they took them raw from
// the data, where an override reordered the legend.
func TestReportHTMLChartNamesHoldNoControls(t *testing.T) {
	bots := []string{"Evil\u202eTOBeviL", "\x1b[31mRED\x1b[0m\u009b2J", "Iso\u2066late", "PlainBot"}
	var in []string
	for i, bot := range bots {
		in = append(in, logLineJSON(t0+float64(i), "10.0.0.1", "/", "x", 403, rtObj(bot, "*", "disallowed", "disallow: /", 2, "enforce", "blocked")))
	}
	r, page := renderHTML(t, "x", strings.Join(in, "\n"))
	m := regexp.MustCompile(`(?m)^  var names = (.*);$`).FindStringSubmatch(page)
	if m == nil {
		t.Fatal("the script is given no names for the series")
	}
	var names []string
	if err := json.Unmarshal([]byte(m[1]), &names); err != nil {
		t.Fatalf("names %s: %v", m[1], err)
	}
	want := map[string]string{
		"Evil\u202eTOBeviL":          `Evil\u202eTOBeviL`,
		"\x1b[31mRED\x1b[0m\u009b2J": `\x1b[31mRED\x1b[0m\x9b2J`,
		"Iso\u2066late":              `Iso\u2066late`,
		"PlainBot":                   "PlainBot",
	}
	if len(names) != len(r.Timeline.Series) {
		t.Fatalf("%d names for %d series", len(names), len(r.Timeline.Series))
	}
	for i, s := range r.Timeline.Series {
		if names[i] != want[s.Bot] {
			t.Errorf("series %q is shown as %q, want %q", s.Bot, names[i], want[s.Bot])
		}
	}
	// Every name the script shows comes from those: it reads none from
	// the data, which holds them raw.
	script := regexp.MustCompile(`(?s)<script>(.*?)</script>`).FindStringSubmatch(page)
	if script == nil || strings.Contains(script[1], ".bot") {
		t.Error("the chart's script reads a series name from the data")
	}
}

// renderHTML aggregates each input in turn under name and returns the
// report and its HTML page.
func renderHTML(t *testing.T, name string, inputs ...string) (*Report, string) {
	t.Helper()
	agg := NewAggregator(Options{Now: fixedNow})
	for _, in := range inputs {
		if err := agg.Add(name, strings.NewReader(in)); err != nil {
			t.Fatal(err)
		}
	}
	r := agg.Report()
	var buf bytes.Buffer
	if err := r.WriteHTML(&buf); err != nil {
		t.Fatal(err)
	}
	return r, buf.String()
}
