package report

import (
	"bytes"
	"encoding/json"
	"html/template"
	"io"
	"strings"
	"time"

	"github.com/robotsguard/caddy-robots-txt/caddymodule/internal/text"
)

// safeJSON marshals v for a <script> element: "<", ">" and "&" are
// escaped as \u003c, \u003e and \u0026 (so "</script>" and "<!--" cannot
// appear), and so are U+2028 and U+2029, which end a line in older
// JavaScript. The result is still JSON with the same value.
func safeJSON(v any) ([]byte, error) {
	b, err := json.Marshal(v) // escapes <, >, & and U+2028/9 already
	if err != nil {
		return nil, err
	}
	// Defence in depth, should Marshal's escaping ever change.
	r := strings.NewReplacer("<", `\u003c`, ">", `\u003e`, "&", `\u0026`, "\u2028", `\u2028`, "\u2029", `\u2029`)
	return []byte(r.Replace(string(b))), nil
}

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
	Data    template.JS
}

// WriteHTML writes the report as one self-contained HTML page: the summary
// table, and a chart of requests and violations per bot over time that an
// inline script draws into an SVG from the report's JSON, embedded in the
// page. The page loads nothing: no external scripts, styles, fonts or
// images, and its Content-Security-Policy forbids any.
func (r *Report) WriteHTML(w io.Writer) error {
	data, err := safeJSON(r)
	if err != nil {
		return err
	}
	span, counts := r.summary()
	p := htmlPage{R: r, Span: span, Counts: counts, Skipped: r.Skipped.Text(), Data: template.JS(data)}
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
	var buf bytes.Buffer
	if err := pageTemplate.Execute(&buf, p); err != nil {
		return err
	}
	_, err = w.Write(buf.Bytes())
	return err
}

var pageTemplate = template.Must(template.New("report").Funcs(template.FuncMap{
	"n":    text.Group3,
	"time": func(t time.Time) string { return t.Format("2006-01-02 15:04:05") },
	"join": func(ss []string) string { return strings.Join(ss, " | ") },
}).Parse(pageHTML))

const pageHTML = `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'">
<meta name="generator" content="caddy robots report">
<title>robots.txt report</title>
<style>
:root { --fg: #1d2330; --muted: #5c6677; --bg: #ffffff; --panel: #f4f6f9; --line: #d9dee7; --viol: #d1242f; }
@media (prefers-color-scheme: dark) {
  :root { --fg: #e6e9ef; --muted: #9aa3b2; --bg: #14171c; --panel: #1d2129; --line: #343a46; --viol: #ff6b6b; }
}
* { box-sizing: border-box; }
body { margin: 0; padding: 24px; font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, Helvetica, Arial, sans-serif; color: var(--fg); background: var(--bg); }
main { max-width: 1200px; margin: 0 auto; }
h1 { font-size: 22px; margin: 0 0 4px; }
h2 { font-size: 17px; margin: 28px 0 8px; }
.muted { color: var(--muted); }
.cards { display: flex; flex-wrap: wrap; gap: 12px; margin: 16px 0; }
.card { background: var(--panel); border: 1px solid var(--line); border-radius: 8px; padding: 10px 14px; min-width: 130px; }
.card b { display: block; font-size: 20px; }
.card.viol b { color: var(--viol); }
.panel { background: var(--panel); border: 1px solid var(--line); border-radius: 8px; padding: 12px; }
#chart { width: 100%; height: auto; display: block; }
#chart text { fill: var(--muted); font-size: 11px; }
#chart .grid { stroke: var(--line); stroke-width: 1; }
#chart .viol-line { fill: none; stroke: var(--viol); stroke-width: 2; }
#chart .viol-dot { fill: var(--viol); }
.legend { display: flex; flex-wrap: wrap; gap: 6px 14px; margin-top: 8px; }
.legend span { display: inline-flex; align-items: center; gap: 6px; }
.legend i { width: 12px; height: 12px; border-radius: 2px; display: inline-block; }
.legend i.line { height: 3px; background: var(--viol); }
label select { font: inherit; margin-left: 6px; }
.scroll { overflow-x: auto; }
table { border-collapse: collapse; width: 100%; }
th, td { padding: 6px 7px; border-bottom: 1px solid var(--line); text-align: right; vertical-align: top; white-space: nowrap; }
th { position: sticky; top: 0; background: var(--bg); font-weight: 600; }
th:first-child, td:first-child, td.rules, th.rules, td.time, th.time { text-align: left; }
td.rules { white-space: normal; min-width: 160px; }
td.lines { white-space: pre; }
th { vertical-align: bottom; }
td.rules ol { margin: 0; padding-left: 18px; }
td.viol { color: var(--viol); font-weight: 600; }
code { font: 12px ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
footer { margin-top: 24px; font-size: 12px; }
</style>
</head>
<body>
<main>
<h1>robots.txt report</h1>
<div class="muted">{{.Span}}</div>
<div class="cards">
  <div class="card"><span class="muted">requests</span><b>{{n .R.Requests}}</b></div>
  <div class="card"><span class="muted">from bots</span><b>{{n .R.BotRequests}}</b></div>
  <div class="card"><span class="muted">from people</span><b>{{n .R.HumanRequests}}</b></div>
  <div class="card viol"><span class="muted">violations</span><b>{{n .R.Violations}}</b></div>
  <div class="card"><span class="muted">blocked</span><b>{{n .R.Blocked}}</b></div>
  <div class="card"><span class="muted">grace</span><b>{{n .R.Grace}}</b></div>
  <div class="card"><span class="muted">bots</span><b>{{len .R.Bots}}</b></div>
</div>
<p>{{.Counts}}</p>
{{if .Skipped}}<p class="muted" id="skipped">Skipped: {{.Skipped}}.</p>{{end}}
{{range .R.Warnings}}<p class="muted">Warning: {{.}}</p>{{end}}

<h2>Requests and violations over time</h2>
<div class="panel">
  <label class="muted">Show <select id="chart-bot"><option value="-1">all bots</option></select></label>
  <svg id="chart" viewBox="0 0 960 320" role="img" aria-label="Requests per bot over time, with violations"></svg>
  <div class="legend" id="legend"></div>
  <noscript><p>The chart needs JavaScript; the table below has the same numbers.</p></noscript>
</div>

<h2>Bots</h2>
{{if .Rows}}
<div class="scroll">
<table id="bots">
<thead><tr>
  <th>Bot</th><th>Requests</th><th>Violations</th><th>Blocked</th><th>Grace</th>
  <th>robots.txt<br>fetches</th><th class="time">Last<br>fetch</th><th>After<br>fetch</th><th>Client<br>IPs</th>
  <th class="time">Seen</th><th class="rules">Most broken rules</th>
</tr></thead>
<tbody>
{{range .Rows}}<tr>
  <td><b>{{.Bot}}</b><br><span class="muted">{{join .Groups}}</span></td>
  <td>{{n .Requests}}</td>
  <td{{if .Violations}} class="viol"{{end}}>{{n .Violations}}</td>
  <td>{{n .Blocked}}</td>
  <td>{{n .Grace}}</td>
  <td>{{n .RobotsTxtFetches}}</td>
  <td class="time lines">{{.LastFetch}}</td>
  <td>{{.After}}</td>
  <td>{{.ClientIPsText}}</td>
  <td class="time">{{time .FirstSeen}}<br>{{time .LastSeen}}</td>
  <td class="rules">{{if .TopRules}}<ol>{{range .TopRules}}<li><code>{{.Rule}}</code> <span class="muted">line {{.Line}}</span> × {{n .Count}}</li>{{end}}</ol>{{end}}{{if .OtherRuleViolations}}<span class="muted">other rules × {{n .OtherRuleViolations}}</span>{{end}}</td>
</tr>
{{end}}</tbody>
</table>
</div>
{{else}}
<p>No bot requests: no entry of the log has a robots_txt object.</p>
{{end}}
<footer class="muted">Made by <code>caddy robots report</code> on {{time .R.Generated}} UTC from {{len .R.Inputs}} input(s), {{n .R.Lines}} lines. Times are UTC.
After fetch: the share of a bot's requests made after that client had fetched robots.txt (blank when the log does not say).</footer>
</main>

<script type="application/json" id="report-data">{{.Data}}</script>
<script>
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("report-data").textContent);
  var tl = data.timeline;
  var NS = "http://www.w3.org/2000/svg";
  var svg = document.getElementById("chart");
  var sel = document.getElementById("chart-bot");
  var legend = document.getElementById("legend");
  var palette = ["#4e79a7", "#f28e2b", "#59a14f", "#b07aa1", "#76b7b2", "#edc948", "#9c755f", "#ff9da7", "#86bcb6", "#bab0ac"];
  var W = 960, H = 320, L = 56, R = 16, T = 14, B = 44;

  function color(k) {
    return tl.series[k].bot === "(all others)" ? "#9aa3b2" : palette[k % palette.length];
  }
  function el(name, attrs, parent, text) {
    var e = document.createElementNS(NS, name);
    for (var a in attrs) { e.setAttribute(a, String(attrs[a])); }
    if (text !== undefined) { e.textContent = text; }
    parent.appendChild(e);
    return e;
  }
  function pad(x) { return x < 10 ? "0" + x : String(x); }
  function label(i, long) {
    var d = new Date(Date.parse(tl.start) + i * tl.step_seconds * 1000);
    var day = pad(d.getUTCMonth() + 1) + "-" + pad(d.getUTCDate());
    var hm = pad(d.getUTCHours()) + ":" + pad(d.getUTCMinutes());
    if (tl.step_seconds < 60) { hm += ":" + pad(d.getUTCSeconds()); }
    if (tl.step_seconds >= 86400) { return long ? d.getUTCFullYear() + "-" + day : day; }
    return long ? d.getUTCFullYear() + "-" + day + " " + hm : (i === 0 || hm.slice(0, 5) === "00:00" ? day + " " + hm : hm);
  }
  // niceMax is the top of the y axis: four ticks of a round, whole step.
  function niceMax(v) {
    for (var p = 1; ; p *= 10) {
      var steps = [1, 2, 2.5, 5];
      for (var i = 0; i < steps.length; i++) {
        var st = steps[i] * p;
        if (st === Math.floor(st) && st * 4 >= v) { return st * 4; }
      }
    }
  }

  function draw(which) {
    while (svg.firstChild) { svg.removeChild(svg.firstChild); }
    var n = tl.buckets;
    if (!n || !tl.series.length) {
      el("text", {x: W / 2, y: H / 2, "text-anchor": "middle"}, svg, "No bot requests in this log.");
      return;
    }
    var idx = [];
    for (var k = 0; k < tl.series.length; k++) { if (which < 0 || which === k) { idx.push(k); } }
    var tot = [], vio = [], i, j;
    for (i = 0; i < n; i++) {
      tot[i] = 0; vio[i] = 0;
      for (j = 0; j < idx.length; j++) {
        tot[i] += tl.series[idx[j]].requests[i];
        vio[i] += tl.series[idx[j]].violations[i];
      }
    }
    var top = niceMax(Math.max.apply(null, tot.concat([1])));
    var cw = (W - L - R) / n, bw = Math.max(1, cw * 0.78);
    function y(v) { return T + (H - T - B) * (1 - v / top); }

    for (var t = 0; t <= 4; t++) {
      var v = top * t / 4, yy = y(v);
      el("line", {"class": "grid", x1: L, x2: W - R, y1: yy, y2: yy}, svg);
      el("text", {x: L - 6, y: yy + 4, "text-anchor": "end"}, svg, String(v));
    }
    var every = Math.max(1, Math.ceil(n / 8));
    for (i = 0; i < n; i += every) {
      el("text", {x: L + i * cw + cw / 2, y: H - B + 16, "text-anchor": "middle"}, svg, label(i, false));
    }
        var st = tl.step_seconds;
    el("text", {x: L, y: H - 6}, svg, "one bar per " + (st >= 86400 ? st / 86400 + " d" : st >= 3600 ? st / 3600 + " h" : st >= 60 ? st / 60 + " min" : st + " s") + ", UTC");

    for (i = 0; i < n; i++) {
      var base = 0;
      for (j = 0; j < idx.length; j++) {
        var s = tl.series[idx[j]], c = s.requests[i];
        if (c <= 0) { continue; }
        var r = el("rect", {"class": "bar", x: (L + i * cw + (cw - bw) / 2).toFixed(2), y: y(base + c).toFixed(2),
          width: bw.toFixed(2), height: Math.max(0.5, y(base) - y(base + c)).toFixed(2), fill: color(idx[j])}, svg);
        el("title", {}, r, s.bot + ", " + label(i, true) + ": " + c + " requests, " + s.violations[i] + " violations");
        base += c;
      }
    }
    var d = "";
    for (i = 0; i < n; i++) {
      d += (i ? " L " : "M ") + (L + i * cw + cw / 2).toFixed(2) + " " + y(vio[i]).toFixed(2);
    }
    el("path", {"class": "viol-line", d: d}, svg);
    for (i = 0; i < n; i++) {
      if (vio[i] > 0) {
        var dot = el("circle", {"class": "viol-dot", cx: (L + i * cw + cw / 2).toFixed(2), cy: y(vio[i]).toFixed(2), r: 3}, svg);
        el("title", {}, dot, label(i, true) + ": " + vio[i] + " violations");
      }
    }
  }

  for (var k = 0; k < tl.series.length; k++) {
    var o = document.createElement("option");
    o.value = String(k);
    o.textContent = tl.series[k].bot;
    sel.appendChild(o);
    var item = document.createElement("span");
    var sw = document.createElement("i");
    sw.style.background = color(k);
    item.appendChild(sw);
    item.appendChild(document.createTextNode(tl.series[k].bot));
    legend.appendChild(item);
  }
  var vl = document.createElement("span");
  var vi = document.createElement("i");
  vi.className = "line";
  vl.appendChild(vi);
  vl.appendChild(document.createTextNode("violations"));
  legend.appendChild(vl);
  sel.addEventListener("change", function () { draw(parseInt(sel.value, 10)); });
  draw(-1);
  document.body.setAttribute("data-chart", "drawn");
})();
</script>
</body>
</html>
`
