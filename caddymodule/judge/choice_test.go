package judge

import (
	"testing"

	"github.com/robotsguard/caddy-robots-txt/caddymodule/crawlers"
	"github.com/robotsguard/caddy-robots-txt/robots"
)

func TestChoiceGroup(t *testing.T) {
	const file = `User-agent: Googlebot
Disallow: /g

User-agent: msnbot
Disallow: /m

User-agent: Yandex
Disallow: /y

User-agent: AdsBot-Google
Disallow: /ads

User-agent: *
Disallow: /star
`
	f := robots.Parse([]byte(file))
	applebot := &crawlers.Crawler{Name: "Applebot", Tokens: []string{"Applebot"}, Follows: []string{"Googlebot"}}
	adsbot := &crawlers.Crawler{Name: "AdsBot-Google-Mobile", Tokens: []string{"AdsBot-Google-Mobile"}, IgnoresStar: true}
	special := &crawlers.Crawler{Name: "Mediapartners-Google", Tokens: []string{"Mediapartners-Google"}, IgnoresStar: true}
	for _, tc := range []struct {
		name     string
		choice   Choice
		ua       string
		group    string // first agent of the chosen group; "" for none
		chosenBy string
	}{
		{"header, as Google reads it", Choice{}, "Mozilla/5.0 (compatible; Googlebot/2.1)", "Googlebot", "Googlebot"},
		{"header names nothing: the * group", Choice{}, "SomeBot/1.0", "*", ""},
		{"a followed crawler's group", ChoiceFor(applebot, true), "Mozilla/5.0 (Applebot/0.1; +http://www.apple.com/go/applebot)", "Googlebot", "Googlebot"},
		{"the header still comes first", ChoiceFor(applebot, true), "Applebot/0.1 msnbot/1.0", "msnbot", "msnbot"},
		{"signature: the followed crawler's group", ChoiceFor(applebot, false), "", "Googlebot", "Googlebot"},
		{"-suffix: the group of the token it extends", ChoiceFor(adsbot, false), "", "AdsBot-Google", "AdsBot-Google-Mobile"},
		{"ignores *, named by extension", ChoiceFor(adsbot, true), "Mozilla/5.0 (compatible; AdsBot-Google-Mobile)", "AdsBot-Google", "AdsBot-Google"},
		{"ignores *, named nowhere", ChoiceFor(special, true), "Mediapartners-Google", "", ""},
		{"signature: the header is not read", ChoiceFor(&crawlers.Crawler{Name: "X", Tokens: []string{"X"}}, false), "Googlebot/2.1", "*", ""},
		{"held to the * group whatever it claims", ByStar, "Googlebot/2.1", "*", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g, by := tc.choice.Group(f, tc.ua)
			got := ""
			if g != nil {
				got = g.Agents[0]
			}
			if got != tc.group || by != tc.chosenBy {
				t.Errorf("group %q chosen by %q, want %q by %q", got, by, tc.group, tc.chosenBy)
			}
		})
	}
}

// TestGraceChoosesAsNow: an earlier version's group is chosen the way the
// current one's was, so a crawler that follows another's group is
// excused by that group's earlier rules, not the * group's.
func TestGraceChoosesAsNow(t *testing.T) {
	old := robots.Parse([]byte("User-agent: Googlebot\nDisallow:\n\nUser-agent: *\nDisallow: /\n"))
	applebot := &crawlers.Crawler{Name: "Applebot", Tokens: []string{"Applebot"}, Follows: []string{"Googlebot"}}
	r := &Request{UA: "Mozilla/5.0 (Applebot/0.1)", Choice: ChoiceFor(applebot, true)}
	if g := r.groupIn(old); g == nil || g.Agents[0] != "Googlebot" {
		t.Fatalf("earlier version: group %v, want Googlebot's", g)
	}
	r.Choice = Choice{}
	if g := r.groupIn(old); g == nil || g.Agents[0] != "*" {
		t.Fatalf("by header alone: group %v, want the * group", g)
	}
}
