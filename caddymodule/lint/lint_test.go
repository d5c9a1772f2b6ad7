package lint

import (
	"strings"
	"testing"

	"github.com/robotsguard/caddy-robots-txt/robots"
)

func TestCheck(t *testing.T) {
	type finding struct {
		line int
		kind robots.Kind
		sev  robots.Severity
		text string // a part of the message
	}
	for _, tc := range []struct {
		name string
		body string
		want []finding
	}{
		{
			name: "named group without the * disallow (the demo's Googlebot)",
			body: "User-agent: *\nDisallow: /private/\n\nUser-agent: Googlebot\nDisallow: /drafts/\n",
			// At the named group's user-agent line, not the * rule's.
			want: []finding{{4, KindNoInherit, robots.Info, `the group of Googlebot lacks "disallow: /private/", which the * group has (line 2)`}},
		},
		{
			name: "named groups before the * group",
			body: "User-agent: Googlebot\nDisallow: /drafts/\n\nUser-agent: Bingbot\nUser-agent: Slurp\nAllow: /x\n\nUser-agent: *\nDisallow: /private/\n",
			want: []finding{
				{1, KindNoInherit, robots.Info, `the group of Googlebot lacks "disallow: /private/", which the * group has (line 9)`},
				{4, KindNoInherit, robots.Info, `the group of Bingbot, Slurp lacks "disallow: /private/", which the * group has (line 9)`},
			},
		},
		{
			name: "named group that covers it by a rule of its own",
			body: "User-agent: *\nDisallow: /private/\n\nUser-agent: GPTBot\nDisallow: /\n",
		},
		{
			// The whitelist idiom: an empty Disallow exempts a crawler
			// from "Disallow: /"; so does an Allow of everything or of
			// the very paths. A narrower allow that only happens to
			// match does not.
			name: "named groups that let their crawlers in on purpose",
			body: "User-agent: Googlebot\nDisallow:\n\nUser-agent: IsraBot\nUser-agent: Orthogaffe\nDisallow:\n\n" +
				"User-agent: Bingbot\nAllow: /\n\nUser-agent: Slurp\nAllow: /private/\n\nUser-agent: Yandex\nAllow: /p\n\n" +
				"User-agent: *\nDisallow: /private/\n",
			want: []finding{{14, KindNoInherit, robots.Info, `the group of Yandex lacks "disallow: /private/"`}},
		},
		{
			// An empty Disallow says nothing of a group that has rules,
			// nor of a group written without one.
			name: "empty disallow beside rules, and a group left empty",
			body: "User-agent: a\nDisallow:\nDisallow: /x\n\nUser-agent: *\nDisallow: /private/\n\nUser-agent: b\n",
			want: []finding{
				{1, KindNoInherit, robots.Info, `the group of a lacks "disallow: /private/"`},
				{8, KindNoInherit, robots.Info, `the group of b lacks "disallow: /private/"`},
			},
		},
		{
			name: "human software as an agent name",
			body: "User-agent: *\nDisallow: /x\n\nUser-agent: GPTBot\nUser-agent: Code\nUser-agent: cursor\nDisallow: /\n",
			want: []finding{
				{5, KindHumanSoftware, robots.Warning, `user-agent "Code" is the product token of software people use`},
				{6, KindHumanSoftware, robots.Warning, `user-agent "cursor"`},
			},
		},
		{
			// In-app browsers send their app's token: Snapchat's sends
			// "Snapchat/13.2.0.37", the DuckDuckGo browser "DuckDuckGo/7".
			name: "an app's in-app browser as an agent name",
			body: "User-agent: Snapchat\nUser-agent: DuckDuckGo\nUser-agent: TikTok\nDisallow: /\n",
			want: []finding{
				{1, KindHumanSoftware, robots.Warning, `user-agent "Snapchat"`},
				{2, KindHumanSoftware, robots.Warning, `user-agent "DuckDuckGo"`},
				{3, KindHumanSoftware, robots.Warning, `user-agent "TikTok"`},
			},
		},
		{
			// Audit AN-F5: browsers a list names by accident; not every
			// name of a browser's shape (audit AP-F8: pcBrowser is an old
			// download tool bad-bot lists name).
			name: "browsers as agent names",
			body: "User-agent: Chromium\nUser-agent: Telegram-Android\nUser-agent: BingSapphire\nUser-agent: AlohaBrowser\n" +
				"User-agent: HeadlessBrowser\nUser-agent: pcBrowser\nUser-agent: SpiderBotBrowser\nDisallow: /\n",
			want: []finding{
				{1, KindHumanSoftware, robots.Warning, `user-agent "Chromium"`},
				{2, KindHumanSoftware, robots.Warning, `user-agent "Telegram-Android"`},
				{3, KindHumanSoftware, robots.Warning, `user-agent "BingSapphire"`},
				{4, KindHumanSoftware, robots.Warning, `user-agent "AlohaBrowser"`},
			},
		},
		{
			// Google's crawlers ignore Crawl-delay; bingbot reads it.
			name: "a crawl-delay Google ignores",
			body: "User-agent: Googlebot\nCrawl-delay: 10\nDisallow: /x\n\nUser-agent: bingbot\nCrawl-delay: 10\nDisallow: /x\n",
			want: []finding{{1, KindDelayIgnored, robots.Warning, `the group of Googlebot has a crawl-delay, which Google's crawlers ignore`}},
		},
		{
			// The finding points at the agent's line however the file
			// writes it: CR line ends, a misspelled key, no colon, a
			// version or "*" after the token, a byte order mark.
			name: "agent lines as the parser reads them",
			body: "User-agent: *\rDisallow: /x\rUser-agent: Googlebot\rCrawl-delay: 5\rDisallow: /\rUser-agent: Cursor\rDisallow: /\r",
			want: []finding{
				{3, KindDelayIgnored, robots.Warning, "the group of Googlebot has a crawl-delay"},
				{6, KindHumanSoftware, robots.Warning, `user-agent "Cursor"`},
			},
		},
		{
			name: "agent lines in other spellings",
			body: "\xEF\xBB\xBFuseragent: Googlebot\ncrawl-delay: 5\ndisallow: /\nUser-agent: Cursor/1.0\nUser agent: Code*\nUser-agent Slack\nDisallow: /\n",
			want: []finding{
				{1, KindDelayIgnored, robots.Warning, "the group of Googlebot has a crawl-delay"},
				{4, KindHumanSoftware, robots.Warning, `user-agent "Cursor"`},
				{5, KindHumanSoftware, robots.Warning, `user-agent "Code"`},
				{6, KindHumanSoftware, robots.Warning, `user-agent "Slack"`},
			},
		},
		{
			name: "query string defeats an anchored rule",
			body: "User-agent: *\nDisallow: /*.pdf$\nDisallow: /*.php?$\n",
			want: []finding{{2, KindQueryAnchor, robots.Info, "/file.pdf?x=1 does not match"}},
		},
		{
			// Google's own file: the home page alone is allowed, and its
			// query variants are meant to fall to the disallow; a query
			// variant another rule disallows is covered.
			name: "anchored rules a query string does not defeat",
			body: "User-agent: *\nAllow: /$\nDisallow: /\n\nUser-agent: Other\nDisallow: /\nDisallow: /search$\nDisallow: /search?\n",
		},
		{
			name: "an HTML page",
			body: "<!DOCTYPE html>\n<html><body>Not found</body></html>\n",
			want: []finding{{1, KindNotRobotsTxt, robots.Error, "does not look like a robots.txt"}},
		},
		{name: "only comments", body: "# nothing to say\n\n", want: []finding{{1, KindAllowsAll, robots.Warning, "no groups; every bot is allowed everywhere"}}},
		{name: "empty", body: "", want: []finding{{1, KindAllowsAll, robots.Warning, "no groups"}}},
		// Allowing everything on purpose is no mistake.
		{name: "an explicit allow-all", body: "User-agent: *\nAllow: /\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got []robots.Diagnostic
			for _, d := range Check([]byte(tc.body)).Diagnostics {
				switch d.Kind {
				case KindNoInherit, KindHumanSoftware, KindQueryAnchor, KindNotRobotsTxt, KindDelayIgnored, KindAllowsAll:
					got = append(got, d)
				}
			}
			if len(got) != len(tc.want) {
				t.Fatalf("got %d findings, want %d: %v", len(got), len(tc.want), got)
			}
			for i, w := range tc.want {
				d := got[i]
				if d.Line != w.line {
					t.Errorf("finding %d: line %d, want %d", i, d.Line, w.line)
				}
				if d.Kind != w.kind {
					t.Errorf("finding %d: kind %s, want %s", i, d.Kind, w.kind)
				}
				if d.Severity != w.sev {
					t.Errorf("finding %d: severity %s, want %s", i, d.Severity, w.sev)
				}
				if !strings.Contains(d.Message, w.text) {
					t.Errorf("finding %d: message %q lacks %q", i, d.Message, w.text)
				}
			}
		})
	}
}

// TestNoInheritIsBounded: a list of hundreds of agents must not print a
// finding per agent and rule.
func TestNoInheritIsBounded(t *testing.T) {
	var b strings.Builder
	b.WriteString("User-agent: *\nDisallow: /a/\nDisallow: /b/\n")
	for i := range 100 {
		b.WriteString("User-agent: bot" + strings.Repeat("x", i) + "\nDisallow: /c/\n")
	}
	n := 0
	for _, d := range Check([]byte(b.String())).Diagnostics {
		if d.Kind == KindNoInherit {
			n++
		}
	}
	if n != maxNoInherit+1 {
		t.Errorf("%d no-inherit findings, want %d and a summary", n, maxNoInherit)
	}
}

// TestContentSignals: valid Content-Signal and Content-Usage lines are
// robots.txt fields and draw no finding; malformed ones draw the parser's
// bad-content-signal and bad-content-usage warnings, and lines before any
// user-agent line a rule-outside-group one.
func TestContentSignals(t *testing.T) {
	type finding struct {
		line int
		kind robots.Kind
		text string
	}
	for _, tc := range []struct {
		name string
		body string
		want []finding
	}{
		{
			name: "valid lines",
			body: "User-agent: *\nContent-Signal: search=yes, ai-input=no, ai-train=no\nContent-Usage: train-ai=n, search=y\n" +
				"Content-Usage: /docs/ train-ai=y\nAllow: /\n\nUser-agent: GPTBot\nContent-Signal: search=yes,ai-train=no,use=reference\nDisallow: /\n",
		},
		{
			name: "only signals is still a robots.txt",
			body: "User-agent: *\nContent-Signal: ai-train=no\n",
		},
		{
			name: "malformed lines",
			body: "User-agent: *\nContent-Signal: search=yes, ai-training=no\nContent-Signal: ai-train=n\n" +
				"Content-Usage: Train-AI=n\nContent-Usage: train-genai=n\nContent-Usage: /docs/\nAllow: /\n",
			want: []finding{
				{2, robots.KindBadContentSignal, `unknown content signal "ai-training"`},
				{3, robots.KindBadContentSignal, "the values are yes and no"},
				{4, robots.KindBadContentUsage, "not a Structured Fields dictionary"},
				{5, robots.KindBadContentUsage, `"train-genai" is from draft-ietf-aipref-vocab-02`},
				{6, robots.KindBadContentUsage, "has a path but no preferences"},
			},
		},
		{
			name: "before any user-agent line",
			body: "Content-Signal: search=yes, ai-train=no\nUser-agent: *\nAllow: /\n",
			want: []finding{{1, robots.KindRuleOutsideGroup, `put it under "User-agent: *"`}},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := Check([]byte(tc.body)).Diagnostics
			if len(got) != len(tc.want) {
				t.Fatalf("got %d findings, want %d: %v", len(got), len(tc.want), got)
			}
			for i, w := range tc.want {
				d := got[i]
				if d.Line != w.line || d.Kind != w.kind || d.Severity != robots.Warning || !strings.Contains(d.Message, w.text) {
					t.Errorf("finding %d = %v (%s), want a warning of kind %s on line %d containing %q", i, d, d.Kind, w.kind, w.line, w.text)
				}
			}
		})
	}
}
