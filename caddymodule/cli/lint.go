package cli

import (
	"bytes"
	"io"
	"strings"

	"github.com/robotsguard/caddy-robots-txt/robots"
)

// LintDiagnostic is one finding in the JSON form of `caddy robots lint`.
type LintDiagnostic struct {
	Line     int    `json:"line"`
	Severity string `json:"severity"` // "info", "warning" or "error"
	Kind     string `json:"kind"`     // robots.Kind, e.g. "misspelling"
	Message  string `json:"message"`
}

// LintOutput is the JSON form of `caddy robots lint --json`.
type LintOutput struct {
	File        string           `json:"file"`
	Diagnostics []LintDiagnostic `json:"diagnostics"`
	Groups      int              `json:"groups"`
	Rules       int              `json:"rules"`
	Sitemaps    []string         `json:"sitemaps"`
	Agents      []string         `json:"agents"`
	Errors      int              `json:"errors"`
	Warnings    int              `json:"warnings"`
	Infos       int              `json:"infos"`
}

// Lint writes the diagnostics of a robots.txt (its bytes body, named file
// in the output) and a summary, as JSON when asJSON. It returns
// ExitLintErrors when any diagnostic is an error, else ExitOK.
//
// Besides the parser's diagnostics, a non-empty body in which no line is
// a robots.txt field is reported as an error at line 1: it is probably not
// a robots.txt at all (an HTML error page, say), and the handler refuses
// to load it.
func Lint(w io.Writer, body []byte, file string, asJSON bool) (int, error) {
	f := robots.Parse(body)
	out := LintOutput{File: file, Diagnostics: []LintDiagnostic{}, Sitemaps: []string{}, Agents: []string{}}
	for _, d := range f.Diagnostics() {
		out.Diagnostics = append(out.Diagnostics, LintDiagnostic{d.Line, d.Severity.String(), string(d.Kind), d.Message})
	}
	if len(bytes.TrimSpace(body)) > 0 && f.Fields() == 0 {
		out.Diagnostics = append([]LintDiagnostic{{
			Line: 1, Severity: robots.Error.String(), Kind: "not-robots-txt",
			Message: "no line is a robots.txt field (user-agent, allow, disallow, sitemap…): this does not look like a robots.txt",
		}}, out.Diagnostics...)
	}
	out.Groups, out.Rules = f.Counts()
	out.Sitemaps = append(out.Sitemaps, f.Sitemaps()...)
	out.Agents = append(out.Agents, f.Agents()...)
	for _, d := range out.Diagnostics {
		switch d.Severity {
		case "error":
			out.Errors++
		case "warning":
			out.Warnings++
		default:
			out.Infos++
		}
	}
	code := ExitOK
	if out.Errors > 0 {
		code = ExitLintErrors
	}
	if asJSON {
		return code, writeJSON(w, out)
	}
	ew := &errWriter{W: w}
	for _, d := range out.Diagnostics {
		ew.Printf("%s:%d: %s: %s\n", clean(file), d.Line, d.Severity, clean(d.Message))
	}
	agents := ""
	if len(out.Agents) > 0 {
		agents = " (" + clean(strings.Join(out.Agents, ", ")) + ")"
	}
	ew.Printf("%s: %s, %s, %s, %s named%s; %s, %s, %s\n", clean(file),
		plural(int64(out.Groups), "group", "groups"), plural(int64(out.Rules), "rule", "rules"),
		plural(int64(len(out.Sitemaps)), "sitemap", "sitemaps"), plural(int64(len(out.Agents)), "agent", "agents"), agents,
		plural(int64(out.Errors), "error", "errors"), plural(int64(out.Warnings), "warning", "warnings"),
		plural(int64(out.Infos), "info", "infos"))
	return code, ew.Err
}
