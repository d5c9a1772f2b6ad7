// Package lint finds mistakes in a robots.txt: the parser's own findings,
// and what a site operator most often gets wrong about how crawlers and
// this module read the file. It imports no Caddy package.
package lint

import (
	"fmt"
	"slices"
	"strings"

	"github.com/robotsguard/caddy-robots-txt/robots"
)

// KindNotRobotsTxt, KindNoInherit, KindHumanSoftware, KindQueryAnchor,
// KindDelayIgnored and KindAllowsAll are the findings this package adds to
// the parser's (robots.Kind).
const (
	KindNotRobotsTxt  robots.Kind = "not-robots-txt"
	KindNoInherit     robots.Kind = "named-group-lacks-star-rule"
	KindHumanSoftware robots.Kind = "human-software-agent"
	KindQueryAnchor   robots.Kind = "query-defeats-anchor"
	KindDelayIgnored  robots.Kind = "crawl-delay-ignored"
	KindAllowsAll     robots.Kind = "allows-everything"
)

// maxNoInherit bounds the no-inherit findings of one file: past it a
// file (an ai.robots.txt list, say) would print one per agent and rule.
const maxNoInherit = 20

// Result is what Check found.
type Result struct {
	Diagnostics []robots.Diagnostic // in line order
	Groups      int
	Rules       int
	Sitemaps    []string
	Agents      []string
}

// Check parses body as the handler does and returns the parser's
// findings with this package's own; opts go to the parser.
func Check(body []byte, opts ...robots.Option) Result {
	f := robots.Parse(body, opts...)
	res := Result{Diagnostics: slices.Clone(f.Diagnostics())}
	res.Groups, res.Rules = f.Counts()
	res.Sitemaps = f.Sitemaps()
	res.Agents = f.Agents()
	if d, ok := NotRobotsTxt(f); ok {
		// First, before the parser's findings on line 1: it explains them.
		res.Diagnostics = append([]robots.Diagnostic{d}, res.Diagnostics...)
	} else if res.Groups == 0 {
		// The handler warns of it at each load; so does the linter. A
		// file whose groups disallow nothing ("Allow: /", or only
		// content signals) says so on purpose, and is left alone here.
		res.Diagnostics = append([]robots.Diagnostic{{Line: 1, Severity: robots.Warning, Kind: KindAllowsAll, Message: AllowsEverything(f)}}, res.Diagnostics...)
	}
	res.Diagnostics = append(res.Diagnostics, humanSoftware(f, body)...)
	res.Diagnostics = append(res.Diagnostics, noInherit(f, body)...)
	res.Diagnostics = append(res.Diagnostics, queryAnchors(f)...)
	res.Diagnostics = append(res.Diagnostics, delayIgnored(f, body)...)
	slices.SortStableFunc(res.Diagnostics, func(a, b robots.Diagnostic) int { return a.Line - b.Line })
	return res
}

// NotRobotsTxt is the finding for a body that is no robots.txt at all (an
// HTML page, a binary), which the parser reads as allowing everything; ok
// is false for a robots.txt. It is this package's only error-severity
// finding, which the strict option refuses too.
func NotRobotsTxt(f *robots.File) (d robots.Diagnostic, ok bool) {
	if f.LooksLikeRobotsTxt() {
		return d, false
	}
	return robots.Diagnostic{
		Line: 1, Severity: robots.Error, Kind: KindNotRobotsTxt,
		Message: "no line is a robots.txt field (user-agent, allow, disallow, sitemap…): this does not look like a robots.txt",
	}, true
}

// AllowsEverything says why f disallows no path to any bot (it has no
// group: an empty file or one of comments; or no group has a Disallow
// rule), or is "" when it disallows something. Enforcing such a file
// enforces nothing, which an operator who meant to keep bots out should
// hear, from the linter as from the handler's log.
func AllowsEverything(f *robots.File) string {
	if groups, _ := f.Counts(); groups == 0 {
		return "robots.txt has no groups; every bot is allowed everywhere"
	}
	for _, g := range f.Groups() {
		for _, r := range g.Rules() {
			if r.Directive == robots.Disallow {
				return ""
			}
		}
	}
	return "robots.txt has no Disallow rule; no path is disallowed to any bot"
}

// noInherit reports, for each group that names crawlers, the disallow
// rules of the "*" group it lacks. A crawler obeys only its own group:
// "User-agent: Googlebot / Disallow: /drafts/" lets Googlebot into the
// /private/ that "*" disallows, which operators rarely mean. A group that
// says what it wants for those paths is left alone: one that decides them
// by a rule of its own ("Allow: /"), and one written with an empty
// "Disallow:" and no other rule, which lets its crawlers fetch everything
// (the usual way to exempt a crawler from a "Disallow: /" for "*").
func noInherit(f *robots.File, body []byte) []robots.Diagnostic {
	star := f.GroupFor("*")
	if star == nil {
		return nil
	}
	all := allowAll(body)
	var out []robots.Diagnostic
	omitted := 0
	for _, g := range f.Groups() {
		if g == star || len(g.Rules()) == 0 && slices.ContainsFunc(g.Agents, func(a string) bool { return all[strings.ToLower(a)] }) {
			// "Disallow:" alone: the author let these crawlers fetch
			// everything, * rules included.
			continue
		}
		for _, r := range star.Rules() {
			if r.Directive != robots.Disallow || !strings.HasPrefix(r.Pattern, "/") || hasRule(g, r) {
				continue
			}
			wild := strings.ContainsAny(r.Pattern, "*$")
			if v := g.Decide(literal(r.Pattern)); v.Rule != nil && (v.Rule.Directive == robots.Disallow || allowsOnPurpose(v.Rule, r)) {
				continue // the group decides those paths by a rule of its own
			}
			if len(out) == maxNoInherit {
				omitted++
				continue
			}
			// At the named group's line: that group is what to change;
			// the * rule's line is in the message.
			out = append(out, robots.Diagnostic{
				Line: g.Line(), Severity: robots.Info, Kind: KindNoInherit,
				Message: fmt.Sprintf("the group of %s lacks %q, which the * group has (line %d); a named group does not inherit * rules, so %s may fetch %s",
					strings.Join(g.Agents, ", "), r.String(), r.Line, strings.Join(g.Agents, ", "), what(r.Pattern, wild)),
			})
		}
	}
	if omitted > 0 {
		out = append(out, robots.Diagnostic{
			Line: out[len(out)-1].Line, Severity: robots.Info, Kind: KindNoInherit,
			Message: fmt.Sprintf("%d more * rules are missing from named groups (not listed)", omitted),
		})
	}
	return out
}

// allowsOnPurpose tells whether allow, a rule of a named group that
// matches the paths of the * group's disallow, says on its own that they
// may be fetched: it allows everything ("Allow: /") or those very paths.
// A narrower allow that happens to match ("Allow: /p" and /private/) does
// not.
func allowsOnPurpose(allow, disallow *robots.Rule) bool {
	return allow.Pattern == "/" || allow.Pattern == "/*" || allow.Pattern == disallow.Pattern
}

func what(pattern string, wild bool) string {
	if wild {
		return "what " + pattern + " matches"
	}
	return pattern
}

func hasRule(g *robots.Group, r *robots.Rule) bool {
	for _, x := range g.Rules() {
		if x.Directive == r.Directive && x.Pattern == r.Pattern {
			return true
		}
	}
	return false
}

// literal is a path a pattern matches: its text up to the first "*" or
// a final "$".
func literal(pattern string) string {
	if i := strings.IndexByte(pattern, '*'); i >= 0 {
		pattern = pattern[:i]
	}
	return strings.TrimSuffix(pattern, "$")
}

// humanTokens are product tokens that people's software sends in its
// User-Agent: editors and apps built on Electron or webviews, browsers,
// mail and media apps. (The tokens every browser sends, such as Mozilla
// and Chrome, never make a client a bot; these do.) A group named after one makes the module hold
// that software to robots.txt, and its users get refusals. Lists of AI
// crawlers copied into robots.txt bring some of them in ("Code" and
// "Cursor" name AI assistants there, and the editors of the same name).
var humanTokens = []string{
	"Code", "Cursor", "Electron", "Slack", "Discord", "Teams", "Zoom", "Spotify", "Notion",
	"Obsidian", "Figma", "Signal", "Skype", "WhatsApp", "Telegram", "Instagram", "FBAV", "FBAN",
	"Line", "Brave", "Vivaldi", "YaBrowser", "SamsungBrowser", "UCBrowser", "Thunderbird",
	"Outlook", "Word", "Excel", "PowerPoint", "iTunes", "Music", "Podcasts", "VLC", "Kodi",
	"Roku", "CFNetwork", "Darwin", "Dalvik", "Windsurf", "Postman", "Insomnia", "OPR",
	// In-app browsers and apps' own browsers, which send the app's token.
	"Snapchat", "TikTok", "DuckDuckGo", "GSA", "LinkedInApp", "KAKAOTALK", "NAVER",
	"MicroMessenger", "Messenger", "Twitter", "Vivaldi", "Edge", "Silk", "HuaweiBrowser",
	"MiuiBrowser", "Whale", "Puffin",
	// Browsers a crawler list may name by accident (audit AN-F5): Raspberry
	// Pi OS's and Tesla's Chromium, Telegram's Android in-app browser, the
	// Bing app, Infinix's and Tecno's PHX, Avast's and AVG's browser.
	"Chromium", "Telegram-Android", "BingSapphire", "PHX", "Avast", "AVG", "AlohaBrowser",
	"QQBrowser", "HeyTapBrowser", "VivoBrowser", "OppoBrowser", "MxBrowser",
}

// humanSoftware reports agent names that are people's software.
func humanSoftware(f *robots.File, body []byte) []robots.Diagnostic {
	var out []robots.Diagnostic
	for _, agent := range PeoplesSoftware(f) {
		out = append(out, robots.Diagnostic{
			Line: agentLine(body, agent), Severity: robots.Warning, Kind: KindHumanSoftware,
			Message: fmt.Sprintf("user-agent %q is the product token of software people use (it sends \"%s/<version>\"); "+
				"robots_txt would hold its users to this group and refuse them pages; name the crawler by a token of its own", agent, agent),
		})
	}
	return out
}

// PeoplesSoftware returns the agents f names that are the product tokens
// of software people use (see humanTokens), as the file spells them.
func PeoplesSoftware(f *robots.File) []string {
	var out []string
	for _, agent := range f.Agents() {
		// One lookup per agent: a tenant's file may name 100,000.
		if humanTokenSet[strings.ToLower(agent)] {
			out = append(out, agent)
		}
	}
	return out
}

// humanTokenSet is humanTokens in lower case.
var humanTokenSet = func() map[string]bool {
	m := make(map[string]bool, len(humanTokens))
	for _, t := range humanTokens {
		m[strings.ToLower(t)] = true
	}
	return m
}()

// delayIgnoredBy are the tokens of crawlers whose operators say they
// ignore Crawl-delay: Google's crawlers set their rate by other means.
var delayIgnoredBy = []string{"Googlebot", "Googlebot-Image", "Googlebot-News", "Googlebot-Video",
	"Storebot-Google", "GoogleOther", "Google-InspectionTool", "AdsBot-Google", "Mediapartners-Google"}

// delayIgnored reports a Crawl-delay in a group for a crawler that
// ignores it: the line slows it down nowhere, and robots_txt, which does
// not pace such a crawler once verified (a faster request is no
// violation by its own reading of the file), does not either.
func delayIgnored(f *robots.File, body []byte) []robots.Diagnostic {
	var out []robots.Diagnostic
	for _, agent := range f.Agents() {
		if !slices.ContainsFunc(delayIgnoredBy, func(t string) bool { return strings.EqualFold(t, agent) }) {
			continue
		}
		if g := f.NamedGroupFor(agent); g == nil || g.CrawlDelay <= 0 {
			continue
		}
		out = append(out, robots.Diagnostic{
			Line: agentLine(body, agent), Severity: robots.Warning, Kind: KindDelayIgnored,
			Message: fmt.Sprintf("the group of %s has a crawl-delay, which Google's crawlers ignore; "+
				"robots_txt does not pace %s either once it is verified (a faster request is no violation by its own reading), "+
				"so the line slows Google's real crawlers nowhere (Google sets its crawl rate by other means); "+
				"it paces only clients that claim to be %s without proof", agent, agent, agent),
		})
	}
	return out
}

// agentLine is the first line of body whose user-agent line names agent,
// for pointing at it; 0 when none does. Lines are read as the parser reads
// them: ending at LF, CR or CR LF, after a byte order mark, with the key
// in any spelling the parser accepts ("useragent"), with or without the
// colon, and the value cut to the name it gives (robots.AgentName: "Code*",
// "Cursor/1.0", "MJ12bot").
func agentLine(body []byte, agent string) int {
	found := 0
	eachField(body, func(num int, field, value string) {
		if found == 0 && field == "user-agent" && strings.EqualFold(robots.AgentName(value), agent) {
			found = num
		}
	})
	return found
}

// eachField calls fn with each line of body that holds a field, as the
// parser reads lines: after a byte order mark, ending at LF, CR or CR LF,
// without its comment, with or without the colon ("Disallow /x", two
// words), and the field named as robots.FieldOf names it ("" for one it
// does not know).
func eachField(body []byte, fn func(num int, field, value string)) {
	text := strings.TrimPrefix(string(body), "\xEF\xBB\xBF")
	robots.EachLine(text, func(num int, line, _ string) {
		line, _, _ = strings.Cut(line, "#")
		line = strings.TrimSpace(line)
		key, value, ok := strings.Cut(line, ":")
		if !ok {
			key, value, ok = strings.Cut(line, " ")
		}
		if ok {
			fn(num, robots.FieldOf(key), strings.TrimSpace(value))
		}
	})
}

// allowAll returns the agents (lower-cased, as robots.AgentName names them)
// of the groups written with an empty "Disallow:": "this crawler may fetch
// everything", the 1994 page's way to say it. A group ends, as in the parser, at a
// user-agent line after an allow or disallow line.
func allowAll(body []byte) map[string]bool {
	out := map[string]bool{}
	var agents []string
	rule := false
	eachField(body, func(_ int, field, value string) {
		switch field {
		case "user-agent":
			if rule {
				agents, rule = agents[:0], false
			}
			agents = append(agents, strings.ToLower(robots.AgentName(value)))
		case "allow", "disallow":
			rule = true
			if field == "disallow" && value == "" {
				for _, a := range agents {
					out[a] = true
				}
			}
		}
	})
	return out
}

// queryAnchors reports "$"-anchored disallow rules without a "?": a URL
// with a query string ("/report.pdf?download=1") does not end where the
// pattern does, so the rule does not apply to it. Not an allow rule
// ("Allow: /$", the home page alone, in Google's own file): that its
// query variants fall to the other rules is what it is written for; nor
// a rule whose query variant another rule of the group disallows.
func queryAnchors(f *robots.File) []robots.Diagnostic {
	var out []robots.Diagnostic
	seen := map[int]bool{}
	for _, g := range f.Groups() {
		for _, r := range g.Rules() {
			if seen[r.Line] || r.Directive != robots.Disallow || !strings.HasSuffix(r.Pattern, "$") || strings.Contains(r.Pattern, "?") {
				continue
			}
			example := literal(r.Pattern)
			if strings.HasPrefix(r.Pattern, "/*") {
				example = "/file" + strings.TrimSuffix(strings.TrimPrefix(r.Pattern, "/*"), "$")
			}
			if !g.Decide(example + "?x=1").Allowed {
				continue // covered
			}
			seen[r.Line] = true
			out = append(out, robots.Diagnostic{
				Line: r.Line, Severity: robots.Info, Kind: KindQueryAnchor,
				Message: fmt.Sprintf("%q is anchored with \"$\", so a query string defeats it: %s?x=1 does not match; add a rule for %s? if it should",
					r.String(), example, strings.TrimSuffix(r.Pattern, "$")),
			})
		}
	}
	return out
}
