package report

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"html/template"
	"io"
	"strings"
	"time"

	"github.com/robotsguard/caddy-robots-txt/caddymodule/internal/text"
)

type htmlRow struct {
	*BotStats
	After     string
	LastFetch string
}

type htmlPage struct {
	R       *Report
	Span    string
	Counts  string
	Skipped string
	Rows    []htmlRow
	// Data is the report's JSON. html/template escapes it for the
	// <script> it goes into (no "<", ">", "&", U+2028 or U+2029 stays
	// raw); it is marshalled here rather than there so that an error is
	// returned instead of written into the page as a comment.
	Data json.RawMessage
	// Names are the chart's series names, cleaned as the table's are:
	// the script shows them (legend, bot choice, tooltips) rather than
	// the data's, which stays the report as it is.
	Names     []string
	AllOthers string
}

// WriteHTML writes the report as one self-contained HTML page: the summary
// table, and a chart of requests and violations per bot over time that an
// inline script draws into an SVG from the report's JSON, embedded in the
// page. The page loads nothing: no external scripts, styles, fonts or
// images, and its Content-Security-Policy forbids any.
func (r *Report) WriteHTML(w io.Writer) error {
	data, err := json.Marshal(r)
	if err != nil {
		return err
	}
	span, counts := r.summary()
	p := htmlPage{R: r, Span: span, Counts: counts, Skipped: r.Skipped.Text(), Data: data, Names: []string{}, AllOthers: AllOthers}
	for _, s := range r.Timeline.Series {
		p.Names = append(p.Names, text.Clean(s.Bot))
	}
	for i := range r.Bots {
		b := &r.Bots[i]
		row := htmlRow{BotStats: b, After: "–", LastFetch: "never"}
		if b.AfterFetchFraction != nil {
			row.After = percent(*b.AfterFetchFraction)
		}
		if b.LastRobotsTxtFetch != nil {
			row.LastFetch = b.LastRobotsTxtFetch.Format("2006-01-02\n15:04:05")
		}
		p.Rows = append(p.Rows, row)
	}
	// Rendered whole before writing, so that a template error leaves no
	// half page behind.
	var buf bytes.Buffer
	if err := pageTemplate.Execute(&buf, p); err != nil {
		return err
	}
	_, err = w.Write(buf.Bytes())
	return err
}

// pageHTML is the page, with the style and the chart's script inline so
// that the report is one file that loads nothing.
//
//go:embed report.html
var pageHTML string

var pageTemplate = template.Must(template.New("report").Funcs(template.FuncMap{
	"n": text.Group3,
	// What came from a robots.txt or a log: no control or bidirectional
	// character reaches the page, where one could reorder the cell.
	"clean": text.Clean,
	"time":  func(t time.Time) string { return t.Format("2006-01-02 15:04:05") },
	"join":  func(ss []string) string { return strings.Join(ss, " | ") },
}).Parse(pageHTML))
