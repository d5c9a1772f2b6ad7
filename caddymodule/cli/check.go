package cli

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/robotsguard/caddy-robots-txt/caddymodule/internal/text"
	"github.com/robotsguard/caddy-robots-txt/config"

	"github.com/robotsguard/caddy-robots-txt/caddymodule/botdetect"
	"github.com/robotsguard/caddy-robots-txt/caddymodule/crawlers"
	"github.com/robotsguard/caddy-robots-txt/caddymodule/include"
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
	Allowed bool     `json:"allowed"` // whether the handler lets the request through
	Verdict string   `json:"verdict"` // "allowed", "disallowed", "not held" (a person's browser), or "not judged" (see NotJudged)
	Group   []string `json:"group"`   // the chosen group's agent names; null: none
	Agent   string   `json:"agent"`   // the file's agent name that selected the group; "" when none did
	Rule    string   `json:"rule"`    // the deciding rule, e.g. "disallow: /private/"; "" when no rule matched
	Line    int      `json:"line"`    // its line; 0 when no rule matched, or for the trap's
	// Source is "trap" for the trap's rule, which the handler adds to
	// what it serves and which no line of the file holds, and for a rule
	// of an included list that list and its own line ("ai.txt:12"), as
	// the access log's rule_source; "" else.
	Source string `json:"source,omitempty"`
	// NotJudged says why the request never reaches the handler in
	// this config ("static_response answers it first"), when check can
	// tell from the routes' matchers; "" else. A bot's request is then
	// allowed with the verdict "not judged": the server answers it
	// whatever robots.txt says. Its rule and signal are what the handler
	// would apply if it got it.
	NotJudged string `json:"not_judged,omitempty"`
	// Signal is the usage preference that refuses this crawler the
	// path ("ai-train=no") with the handler's signals enforce or
	// monitor; "" when none does.
	Signal string `json:"signal,omitempty"`
	// Policy is "impostors block" when that setting, not a rule,
	// refuses the request; "" else.
	Policy string `json:"policy,omitempty"`
	// Capped is set when the target's other spellings cost more to
	// judge than their budget, as the access log's capped field says
	// (see judge.Paths.DecideCapped).
	Capped bool `json:"capped,omitempty"`
	// Trap is set for a path under the handler's trap: the handler
	// answers every client 404 there, a person's browser too, so
	// Allowed is false whatever the verdict (audits AF-F4, AG-F4).
	Trap bool `json:"trap,omitempty"`
}

// policyImpostorsBlock is the Policy of a request impostors block refuses.
const policyImpostorsBlock = "impostors block"

// Unverified is how the handler judges a client that claims a crawler
// which publishes how to verify it (IP ranges, reverse DNS, signatures)
// when the request fails that check. check cannot see the client's
// address, so the results of CheckOutput hold for the crawler itself
// and these for anyone else sending the header.
type Unverified struct {
	BotName   string   `json:"bot_name"`  // how logs and metrics name it: "impostor:Googlebot"
	Impostors string   `json:"impostors"` // the handler's setting: "judge" (by the * group) or "block"
	Group     []string `json:"group"`     // the * group's agent names; null: none
	// Also is the agent names of the groups the client is held to as
	// well, where they refuse more: the one the header chooses with the
	// claim, and every other group the header names (judge.Choice.Held);
	// null when there is none but the * group.
	Also    []string      `json:"also,omitempty"`
	Results []CheckResult `json:"results"`
}

// CheckOutput is the JSON form of `caddy robots check --json`.
type CheckOutput struct {
	File      string `json:"file"`
	UserAgent string `json:"user_agent"`
	Bot       bool   `json:"bot"`      // whether the handler holds this client to robots.txt at all
	BotName   string `json:"bot_name"` // how logs and metrics name it; "" for a person
	Mode      string `json:"mode,omitempty"`
	OnlyFor   string `json:"only_for,omitempty"` // the matchers of the handler's routes
	// AnsweredBy names a handler that answers every request before this
	// one runs: it judges nothing as configured.
	AnsweredBy string `json:"answered_first_by,omitempty"`
	// NotReached lists /robots.txt, the trap path, or both, when the
	// config keeps every request for it from the handler (a route before
	// it answers it, or its own routes do not take it).
	NotReached []string `json:"not_reached,omitempty"`
	// HeldTo is the agent names of the other groups the header names,
	// which a client nothing proves is the crawler of the group above is
	// held to as well, where they refuse more (judge.Choice.Held); null
	// when there are none, or for a crawler that publishes how to verify
	// it, whose results hold for the crawler proven (see Unverified).
	HeldTo  []string      `json:"held_to,omitempty"`
	Results []CheckResult `json:"results"`
	// Unverified is how the handler judges the same header from a
	// client that fails the check of the crawler it claims; nil when
	// the crawler publishes no way to check it, or with impostors
	// trust.
	Unverified *Unverified `json:"if_unverified,omitempty"`
}

// verdictNotHeld is the verdict of a path for a client the handler does
// not hold to robots.txt: a person's browser, or a humans entry.
const verdictNotHeld = "not held"

// verdictNotJudged is the verdict of a bot's request that never reaches
// the handler in the config: nothing refuses it, so a gate that reads
// the exit status must not take it for disallowed.
const verdictNotJudged = "not judged"

// Subject is what check judges against: a robots.txt and the settings of
// the handler that enforces it.
type Subject struct {
	File *robots.File
	// Name names the file in the output.
	Name string
	// Classifier tells bots from people with the handler's bots and
	// humans entries; nil means none.
	Classifier *botdetect.Classifier
	// Mode is the handler's mode, when it comes from a config.
	Mode string
	// Crawlers is the knowledge base with the operator's crawler
	// entries; nil means the built-in one.
	Crawlers *crawlers.Base
	// Own are the tokens of the operator's crawler entries, which name
	// a client the file and the classifier do not, as in the handler.
	Own []string
	// OnlyFor describes the matchers of the handler's routes ("path
	// /blog/*"): it judges only the requests they select, which check
	// does not evaluate; "" for every request.
	OnlyFor string
	// AnsweredBy names a handler of the config that answers every request
	// before the robots_txt handler runs ("static_response"); "" when none.
	AnsweredBy string
	// RobotsNotReached says why requests for /robots.txt never reach the
	// handler, when the config keeps them from it, and TrapNotReached the
	// same of the trap path; "" else.
	RobotsNotReached, TrapNotReached string
	// NotJudged says why a request for a target never reaches the
	// handler, or returns ""; nil when not known.
	NotJudged func(target string) string
	// Includes is whether the handler merges included lists into the
	// robots.txt it serves.
	Includes bool
	// PassesOn is serve off: the next handler serves /robots.txt, and
	// the handler judges a spelling of it other than /robots.txt itself.
	PassesOn bool
	// Trap is the handler's trap path; "" for none.
	Trap string
	// Served is File as the handler serves it with the trap's lines
	// (include.Trap), which a bot's request for the trap is judged
	// by; nil for File itself.
	Served *robots.File
	// ServedLines says where File's lines are in the text served with
	// the trap's lines, which numbers the rules of included lists; nil
	// without a trap.
	ServedLines *include.Trapped
	// Impostors is the handler's impostors setting; "" is the default,
	// judge.
	Impostors string
	// Signals is the handler's signals setting: with enforce or
	// monitor, a usage preference refuses an AI crawler of its category.
	Signals string
	// Origin maps File's lines to the included lists they come from;
	// nil without lists.
	Origin *include.Merged
}

// Check judges targets for the client sending ua against s, as the
// handler would, and writes the verdicts (as JSON when asJSON). It returns
// ExitDisallowed when the handler would find any target it gets
// disallowed for this client, else ExitOK.
func Check(w io.Writer, s Subject, ua string, targets []string, asJSON bool) (int, error) {
	c := s.Classifier
	if c == nil {
		c = botdetect.New(nil, nil)
	}
	base := s.Crawlers
	if base == nil {
		base = crawlers.Builtin()
	}
	id := judge.Identify(c, s.File, ua).Own(ua, s.Own)
	// A known crawler obeys the groups its operator documents (Applebot
	// a Googlebot group), as in the handler; check cannot see the
	// client's address, so the claim is taken at its word.
	var (
		choice   judge.Choice
		category crawlers.Category
		claimed  *crawlers.Crawler
	)
	if id.Bot {
		cr, family := judge.ClaimOf(base, s.File, id, ua)
		if cr != nil {
			choice = judge.ChoiceFor(cr, true)
			category = cr.Category
			claimed = cr
		}
		id.Name = judge.ClaimedName(id.Name, cr, family) // as the handler names it
	}
	g, name := choice.Group(s.File, ua)
	// A client nothing can prove is held to every group its header
	// names, as the handler holds it; a verifiable claim is judged here
	// as proven, and as the impostor it may be below.
	var held []*robots.Group
	if id.Bot && !claimed.Verifiable() {
		held = judge.UnprovenFor(claimed, base).Held(s.File, ua)
	}
	var group []string
	if g != nil {
		group = append([]string{}, g.Agents...)
	}
	out := CheckOutput{File: s.Name, UserAgent: ua, Bot: id.Bot, BotName: id.Name, Mode: s.Mode, OnlyFor: s.OnlyFor, AnsweredBy: s.AnsweredBy, HeldTo: agentsOf(held), Results: []CheckResult{}}
	if s.RobotsNotReached != "" {
		out.NotReached = append(out.NotReached, "/robots.txt")
	}
	if s.TrapNotReached != "" {
		out.NotReached = append(out.NotReached, s.Trap)
	}
	shared := choice.Shared(s.File, g)
	code := ExitOK
	for _, t := range targets {
		res, disallowed := s.judgeHeld(t, id.Bot, g, name, held, shared, category, false)
		if disallowed {
			code = ExitDisallowed
		}
		out.Results = append(out.Results, res)
	}
	// A claim to a crawler that publishes how to verify it gets its
	// group only from the addresses (or with the signature) that prove
	// it, which check cannot see: say how the handler judges the claim
	// when the proof is missing, as an impostor (see the handler's
	// impostorOf), unless impostors trust takes every claim at its word.
	if cr := claimed; cr.Verifiable() && s.Impostors != config.ImpostorsTrust {
		star := s.File.GroupFor("*")
		u := &Unverified{BotName: judge.ImpostorPrefix + cr.Name, Impostors: s.Impostors, Results: []CheckResult{}}
		if u.Impostors == "" {
			u.Impostors = config.ImpostorsJudge
		}
		if star != nil {
			u.Group = append([]string{}, star.Agents...)
		}
		also := judge.ImpostorOf(cr, base).Held(s.File, ua)
		u.Also = agentsOf(also)
		for _, t := range targets {
			res, _ := s.judgeHeld(t, true, star, "", also, nil, category, s.Impostors == config.ImpostorsBlock)
			u.Results = append(u.Results, res)
		}
		out.Unverified = u
	}
	if asJSON {
		return code, text.WriteJSON(w, out)
	}

	ew := &text.ErrWriter{W: w}
	exempt := c.Exempt(ua)
	groupText := "none (the file has no group for this agent and no * group: everything is allowed)"
	if len(s.File.Groups()) == 0 {
		// Say why: an upstream's 404 or redirect loop, or no file.
		groupText = "none (" + s.Name + " has no groups: everything is allowed)"
	}
	if g == nil && s.File.GroupFor("*") != nil {
		groupText = "none (this crawler obeys only the groups that name it, and none does: everything is allowed)"
	}
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
		target := text.Clean(r.Input)
		if r.Path != r.Input {
			target += " (judged as " + text.Clean(r.Path) + ")"
		}
		ew.Printf("%s: %s\n", target, s.verdictText(r))
		ew.Printf("  group: %s\n", text.Clean(groupText))
		ew.Printf("  agent: %s\n", text.Clean(agentText))
		if r.Allowed && r.Agent != name && slices.ContainsFunc(shared, func(g *robots.Group) bool { return slices.Contains(g.Agents, r.Agent) }) {
			ew.Printf("  allowed by: the %s group (a crawler that sends this header as its own obeys it)\n", text.Clean(r.Agent))
		}
		if len(out.HeldTo) > 0 {
			ew.Printf("  also held to: %s (the other groups its header names, where they refuse more: nothing proves which of them it is)\n", text.Clean(strings.Join(out.HeldTo, ", ")))
		}
		switch {
		case r.Source == judge.TrapSource:
			ew.Printf("  rule:  %s (the trap's, added to every group of the robots.txt served; a client that requests it is trapped)\n", text.Clean(r.Rule))
		case r.Source != "":
			ew.Printf("  rule:  %s (line %d of the robots.txt served, from %s)\n", text.Clean(r.Rule), r.Line, text.Clean(r.Source))
		case r.Rule != "":
			ew.Printf("  rule:  %s (line %d)\n", text.Clean(r.Rule), r.Line)
		default:
			ew.Printf("  rule:  no rule matched\n")
		}
		switch {
		case r.Trap && exempt:
			ew.Printf("  trap: the path is under the trap (%s): the handler answers 404; a humans entry is never trapped\n", text.Clean(s.Trap))
		case r.Trap && r.Verdict == verdictNotHeld:
			ew.Printf("  trap: the path is under the trap (%s): the handler answers 404 and holds the client's address to robots.txt, a person's browser too, unless it did not follow a link of the site (a prefetch, an <img>)\n", text.Clean(s.Trap))
		case r.Trap:
			ew.Printf("  trap: the path is under the trap (%s): the handler answers 404 and holds the client's address to robots.txt\n", text.Clean(s.Trap))
		}
		if r.NotJudged != "" {
			ew.Printf("  not judged: in this config the request never reaches the handler (%s), so robots.txt does not keep it from this client; the group and rule are what the handler would apply if it got it\n", text.Clean(r.NotJudged))
		}
		if r.Signal != "" {
			ew.Printf("  signal: %s (the usage preferences of the group, or of the * group, refuse a crawler of this one's category)\n", r.Signal)
		}
	}
	if !out.Bot {
		ew.Printf("\nnote: %q is not held to robots.txt: it looks like a person's browser (or matches a humans entry), and robots_txt lets such clients through\n", ua)
	} else {
		ew.Printf("\nbot: logged as %q\n", text.Clean(out.BotName))
	}
	if u := out.Unverified; u != nil {
		held := "held to the * group (" + strings.Join(u.Group, ", ") + ")"
		switch {
		case u.Impostors == config.ImpostorsBlock:
			held = "refused everywhere but /robots.txt (impostors block)"
		case u.Group == nil && u.Also != nil:
			held = "held to the groups its header names (" + strings.Join(u.Also, ", ") + "), the file having no * group"
		case u.Group == nil:
			held = "held to the * group, which the file does not have (everything is allowed)"
		case u.Also != nil:
			held += ", and to the groups its header names (" + strings.Join(u.Also, ", ") + ") where they refuse more"
		}
		ew.Printf("if unverified: a request that fails the check %s publishes (check sees no address) is logged as %q and %s:\n",
			text.Clean(strings.TrimPrefix(u.BotName, judge.ImpostorPrefix)), text.Clean(u.BotName), held)
		for _, r := range u.Results {
			verdict := s.verdictText(r)
			switch {
			case r.Policy != "":
				verdict += " (" + r.Policy + ")"
			case r.Rule != "":
				verdict += fmt.Sprintf(" (%s, line %d)", text.Clean(r.Rule), r.Line)
			}
			ew.Printf("  %s: %s\n", text.Clean(r.Input), verdict)
		}
	}
	if s.AnsweredBy != "" {
		ew.Printf("warning: in this config the handler runs after %s, which answers every request first: it judges nothing, and the groups and rules above are what it would apply if it ran; place robots_txt before it (see the README's order option)\n", s.AnsweredBy)
	}
	if s.RobotsNotReached != "" {
		var missing []string
		if s.Trap != "" {
			missing = append(missing, "the trap's Disallow line (a client that obeys robots.txt would be trapped)")
		}
		if s.Includes {
			missing = append(missing, "the included lists")
		}
		lacks := ""
		if len(missing) > 0 {
			lacks = ", without " + strings.Join(missing, " or ") + ","
		}
		ew.Printf("warning: requests for /robots.txt never reach this handler (%s): another route or the backend answers them, so clients may read a robots.txt other than the one it enforces%s and no bot's fetch of it is recorded (no grace, and \"fetched\": false in every log line); place robots_txt where it sees every request of the site, before what answers them\n", text.Clean(s.RobotsNotReached), lacks)
	}
	if s.TrapNotReached != "" {
		ew.Printf("warning: requests for the trap %s never reach this handler (%s): nothing springs it\n", text.Clean(s.Trap), text.Clean(s.TrapNotReached))
	}
	if s.OnlyFor != "" {
		ew.Printf("note: the handler judges only requests that match %s; a path outside them is not judged by the handler at all (marked \"not judged\" above where check can tell from the matchers' kinds)\n", text.Clean(s.OnlyFor))
	}
	return code, ew.Err
}

// verdictText is r's verdict as the text output says it: what the
// handler does with the request.
func (s *Subject) verdictText(r CheckResult) string {
	verdict := r.Verdict
	switch {
	case verdict == verdictNotHeld && r.Rule != "" && strings.HasPrefix(r.Rule, "disallow"):
		verdict += " to robots.txt (a bot would be disallowed)"
	case verdict == verdictNotHeld:
		verdict += " to robots.txt"
	case verdict == verdictNotJudged && (r.Signal != "" || strings.HasPrefix(r.Rule, "disallow")):
		verdict += " (the handler would disallow it if it got it)"
	case r.Signal != "" && s.Signals == config.ModeMonitor:
		verdict += " by the usage preferences (signals monitor: let through and logged as a violation)"
	case r.Signal != "":
		verdict += " by the usage preferences (signals enforce: refused)"
	case r.Verdict == judge.Disallowed.String() && s.Mode == config.ModeMonitor:
		verdict += " (monitor mode: let through and logged as a violation)"
	}
	return verdict
}

// judgeHeld is judge against g and, where g's rules allow, against each
// group of held (judge.Choice.Held): the result of the first that refuses;
// where the rules refuse, against each group of shared
// (judge.Choice.Shared): the result of the first that allows.
// As in the handler, the rules of every group come before the usage
// preferences, which are g's and the * group's: a held group's rule that
// refuses is the reason, though g's signal refuses too (audit AG-F3).
//
// As judge.Paths.DecideHeld, a group whose rules surely allow the path is
// left out, and of the others the first judge.MaxHeld are judged: past
// them the result says it was capped (audit AI-F3).
func (s *Subject) judgeHeld(t string, bot bool, g *robots.Group, name string, held, shared []*robots.Group, category crawlers.Category, block bool) (CheckResult, bool) {
	res, disallowed := s.judge(t, bot, g, name, category, block)
	p, full := judge.PathsOfTarget(t), 0
	for _, h := range held {
		if disallowed && res.Signal == "" || !bot {
			break
		}
		if h == g || p.SurelyAllows(h) {
			continue
		}
		if full == judge.MaxHeld {
			res.Capped = true
			break
		}
		full++
		if res2, d2 := s.judge(t, bot, h, h.Agents[0], category, false); d2 && res2.Signal == "" {
			res, disallowed = res2, true
		}
	}
	// As judge.Paths.DecideShared: a request the rules refuse may be
	// that of a crawler sending the proven one's header as its own
	// (Google News with Googlebot's), which a group of shared allows.
	for _, sg := range shared {
		if !disallowed || res.Signal != "" {
			break
		}
		if res2, d2 := s.judge(t, bot, sg, sg.Agents[0], category, false); !d2 {
			res, disallowed = res2, false
		}
	}
	return res, disallowed
}

// agentsOf is the agent names of groups, in order; nil for none.
func agentsOf(groups []*robots.Group) []string {
	var out []string
	for _, g := range groups {
		out = append(out, g.Agents...)
	}
	return out
}

// judge is the verdict on target t, as the handler reaches it, for a
// client that is a bot (or not) held to group g, selected by the file's
// agent name, of category; block refuses it everywhere but /robots.txt,
// as impostors block does an impostor. disallowed is whether the handler
// refuses or (monitor mode) logs the request as a violation.
func (s *Subject) judge(t string, bot bool, g *robots.Group, name string, category crawlers.Category, block bool) (res CheckResult, disallowed bool) {
	var group []string
	if g != nil {
		group = append([]string{}, g.Agents...)
	}
	p := judge.PathsOfTarget(t)
	v, judged, capped := p.DecideCapped(g)
	trapped, robotsTxt, underTrap := false, false, false
	if is, asSent := p.RobotsTxt(); is && (asSent || !s.PassesOn) {
		// Never refused: the handler serves it (or, as sent, lets
		// it through to what serves it).
		v, judged, robotsTxt = robots.Verdict{Allowed: true}, "/robots.txt", true
	} else if s.Trap != "" && strings.HasPrefix(p.Primary, judge.ServedPath(s.Trap)) {
		// As the handler reads it: the path as served, under the
		// trap's, judged as the file served with the trap reads.
		served := s.Served
		if served == nil {
			served = s.File
		}
		v, trapped = p.DecideTrap(g, s.File, served, s.Trap)
		underTrap = true
	}
	res = CheckResult{Input: t, Path: judged, Allowed: true, Verdict: judge.Allowed.String(), Group: group, Agent: name, Capped: capped}
	if s.NotJudged != nil {
		res.NotJudged = s.NotJudged(t)
	}
	switch {
	case !bot:
		res.Verdict = verdictNotHeld
	case !v.Allowed || block && !robotsTxt:
		res.Verdict = judge.Disallowed.String()
		res.Allowed = s.Mode == config.ModeMonitor
		if v.Allowed {
			res.Policy = policyImpostorsBlock
		}
		disallowed = true
	}
	// As in the handler, signals are a setting of their own
	// (judge.SignalDecides).
	if bot && !robotsTxt && !trapped && res.Policy == "" && (s.Signals == config.ModeEnforce || s.Signals == config.ModeMonitor) {
		verdict, action := judge.Allowed, judge.Passed
		if !v.Allowed {
			verdict, action = judge.Disallowed, judge.Blocked
			if s.Mode == config.ModeMonitor {
				action = judge.Logged
			}
		}
		if a, ok := judge.SignalDecides(verdict, action, s.Signals == config.ModeEnforce); ok {
			if sig := judge.SignalRefuses(category, g, s.File.GroupFor("*"), p); sig != "" {
				res.Verdict, res.Signal, res.Allowed = judge.Disallowed.String(), sig, a != judge.Blocked
				disallowed = true
			}
		}
	}
	if bot && res.NotJudged != "" {
		// The site answers it whatever robots.txt says: a gate on
		// the exit status must not read the path as protected.
		res.Verdict, res.Allowed, disallowed = verdictNotJudged, true, false
	}
	// A refusal by the usage preferences names no allow rule: it did
	// not decide the refusal (as the handler logs it).
	if v.Rule != nil && res.Policy == "" && (res.Signal == "" || judge.NamedWithSignal(v.Rule)) {
		res.Rule, res.Line = v.Rule.String(), v.Rule.Line
	}
	if underTrap && res.NotJudged == "" {
		// The answer, not the verdict: the exit status stays the
		// verdicts'.
		res.Trap, res.Allowed = true, false
	}
	switch {
	case trapped:
		res.Source = judge.TrapSource
	case res.Rule != "" && s.Origin.Included(v.Rule.Line):
		src, line := s.Origin.Origin(v.Rule.Line)
		res.Source = fmt.Sprintf("%s:%d", src, line)
		if s.ServedLines != nil {
			// The trap's lines above it push it down in the
			// text served, as the handler logs it.
			res.Line = s.ServedLines.Line(v.Rule.Line)
		}
	}
	return res, disallowed
}
