package integration

import (
	"path/filepath"
	"testing"

	"github.com/robotsguard/caddy-robots-txt/internal/testfixtures"
)

// Rules of testfixtures.RobotsTxt, the robots.txt of the test site, as the
// module names them, with their lines.
var (
	ruleStarPrivate   = ruleAt{"disallow: /private/", 2}
	ruleStarAllowOK   = ruleAt{"allow: /private/ok.html", 3}
	ruleGPTBotAll     = ruleAt{"disallow: /", 6}
	ruleGooglebotDraf = ruleAt{"disallow: /drafts/", 9}
)

// ruleAt is a rule of a robots.txt and its line.
type ruleAt struct {
	rule string
	line int
}

// testPages are the files of the test site besides robots.txt.
var testPages = map[string]string{
	"index.html":        "<h1>home</h1>",
	"about.html":        "<h1>about</h1>",
	"private/x.html":    "<h1>private x</h1>",
	"private/ok.html":   "<h1>private ok</h1>",
	"drafts/d.html":     "<h1>draft</h1>",
	"public/p.html":     "<h1>public</h1>",
	"PRIVATE/x.html":    "<h1>upper-case PRIVATE, a different path</h1>",
	"private/deep/y.js": "// private script",
}

// writeTestSite writes the test site into dir/site and returns the site
// directory. robots.txt is written when withRobots is set.
func writeTestSite(t testing.TB, dir string, withRobots bool) string {
	t.Helper()
	site := filepath.Join(dir, "site")
	for name, content := range testPages {
		writeFile(t, filepath.Join(site, filepath.FromSlash(name)), content)
	}
	if withRobots {
		writeFile(t, filepath.Join(site, "robots.txt"), testfixtures.RobotsTxt)
	}
	return site
}
