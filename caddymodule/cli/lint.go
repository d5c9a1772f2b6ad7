package cli

import (
	"io"
	"strings"

	"github.com/robotsguard/caddy-robots-txt/caddymodule/internal/text"
	"github.com/robotsguard/caddy-robots-txt/caddymodule/lint"
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
// ExitLintErrors when any diagnostic is an error, else ExitOK. size is the
// input's size in bytes: more than len(body) when body is only its start,
// negative when it is longer than body by an unknown amount.
//
// The findings are those of package lint: the parser's, and the
// mistakes operators make most (see lint.Check).
func Lint(w io.Writer, body []byte, size int64, file string, asJSON bool) (int, error) {
	var opts []robots.Option
	if size < 0 || size > int64(len(body)) {
		opts = append(opts, robots.SourceSize(size))
	}
	res := lint.Check(body, opts...)
	out := LintOutput{File: file, Diagnostics: []LintDiagnostic{}, Sitemaps: []string{}, Agents: []string{}}
	for _, d := range res.Diagnostics {
		out.Diagnostics = append(out.Diagnostics, LintDiagnostic{d.Line, d.Severity.String(), string(d.Kind), d.Message})
	}
	out.Groups, out.Rules = res.Groups, res.Rules
	out.Sitemaps = append(out.Sitemaps, res.Sitemaps...)
	out.Agents = append(out.Agents, res.Agents...)
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
		return code, text.WriteJSON(w, out)
	}
	ew := &text.ErrWriter{W: w}
	for _, d := range out.Diagnostics {
		ew.Printf("%s:%d: %s: %s\n", text.Clean(file), d.Line, d.Severity, text.Clean(d.Message))
	}
	agents := ""
	if len(out.Agents) > 0 {
		agents = " (" + text.Clean(strings.Join(out.Agents, ", ")) + ")"
	}
	ew.Printf("%s: %s, %s, %s, %s named%s; %s, %s, %s\n", text.Clean(file),
		text.Plural(int64(out.Groups), "group", "groups"), text.Plural(int64(out.Rules), "rule", "rules"),
		text.Plural(int64(len(out.Sitemaps)), "sitemap", "sitemaps"), text.Plural(int64(len(out.Agents)), "agent", "agents"), agents,
		text.Plural(int64(out.Errors), "error", "errors"), text.Plural(int64(out.Warnings), "warning", "warnings"),
		text.Plural(int64(out.Infos), "info", "infos"))
	return code, ew.Err
}
