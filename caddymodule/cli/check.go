package cli

import (
	"io"
	"strings"

	"github.com/robotsguard/caddy-robots-txt/caddymodule/botdetect"
	"github.com/robotsguard/caddy-robots-txt/caddymodule/judge"
	"github.com/robotsguard/caddy-robots-txt/robots"
)

// Exit codes of the commands.
const (
	ExitOK         = 0 // check: every path allowed; lint: no error; report: written
	ExitDisallowed = 1 // check: some path disallowed
	ExitLintErrors = 1 // lint: a diagnostic of severity error
	ExitUsage      = 2 // bad flags or arguments, or an input that cannot be read
)

// CheckResult is the verdict on one path; its JSON form is an element of
// the "results" of `caddy robots check --json`.
type CheckResult struct {
	Input   string   `json:"input"`   // the argument as given
	Path    string   `json:"path"`    // the path and query judged
	Allowed bool     `json:"allowed"` // the verdict
	Verdict string   `json:"verdict"` // "allowed" or "disallowed"
	Group   []string `json:"group"`   // the chosen group's agent names; null: none
	Agent   string   `json:"agent"`   // the file's agent name that selected the group; "" when none did
	Rule    string   `json:"rule"`    // the deciding rule, e.g. "disallow: /private/"; "" when no rule matched
	Line    int      `json:"line"`    // its line; 0 when no rule matched
}

// CheckOutput is the JSON form of `caddy robots check --json`.
type CheckOutput struct {
	File      string        `json:"file"`
	UserAgent string        `json:"user_agent"`
	Bot       bool          `json:"bot"` // whether the handler would hold this client to robots.txt at all
	Results   []CheckResult `json:"results"`
}

// holdsToRobotsTxt tells whether the handler, with no bots or humans
// settings, would hold a client with this User-Agent to robots.txt: when
// the file names it, or when it looks automated.
func holdsToRobotsTxt(f *robots.File, ua string) bool {
	return judge.Identify(botdetect.New(nil, nil), f, ua).Bot
}

// Check judges targets for the client sending ua against the robots.txt
// f, as the handler would, and writes the verdicts (as JSON when asJSON).
// file names f in the output. It returns ExitDisallowed when any target is
// disallowed, else ExitOK.
func Check(w io.Writer, f *robots.File, file, ua string, targets []string, asJSON bool) (int, error) {
	g, name := f.GroupForUserAgent(ua)
	var group []string
	if g != nil {
		group = append([]string{}, g.Agents...)
	}
	out := CheckOutput{File: file, UserAgent: ua, Bot: holdsToRobotsTxt(f, ua), Results: []CheckResult{}}
	code := ExitOK
	for _, t := range targets {
		p := judge.PathsOfTarget(t)
		v := p.Decide(g)
		res := CheckResult{Input: t, Path: p.Primary, Allowed: v.Allowed, Verdict: "allowed", Group: group, Agent: name}
		if !v.Allowed {
			res.Verdict = "disallowed"
			code = ExitDisallowed
		}
		if v.Rule != nil {
			res.Rule, res.Line = v.Rule.String(), v.Rule.Line
		}
		out.Results = append(out.Results, res)
	}
	if asJSON {
		return code, writeJSON(w, out)
	}

	ew := &errWriter{W: w}
	groupText := "none (the file has no group for this agent and no * group: everything is allowed)"
	if g != nil {
		groupText = strings.Join(group, ", ")
	}
	agentText := name
	if name == "" {
		agentText = "none"
		if g != nil {
			agentText = "none (no agent name of the file is in it; the * group applies)"
		}
	}
	for i, r := range out.Results {
		if i > 0 {
			ew.Printf("\n")
		}
		target := clean(r.Input)
		if r.Path != r.Input {
			target += " (judged as " + clean(r.Path) + ")"
		}
		ew.Printf("%s: %s\n", target, r.Verdict)
		ew.Printf("  group: %s\n", clean(groupText))
		ew.Printf("  agent: %s\n", clean(agentText))
		if r.Rule != "" {
			ew.Printf("  rule:  %s (line %d)\n", clean(r.Rule), r.Line)
		} else {
			ew.Printf("  rule:  no rule matched\n")
		}
	}
	if !out.Bot {
		ew.Printf("\nnote: %q looks like a person's browser, not a bot; robots_txt holds only bots to robots.txt, so it would let this client through\n", ua)
	}
	return code, ew.Err
}
