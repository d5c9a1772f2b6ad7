// Package cli adds `caddy robots`, commands for people who run the
// robots_txt handler: check what a robots.txt says about a path, lint a
// robots.txt, and report from Caddy's access logs which bots came and which
// broke robots.txt.
//
// Importing the package registers the command with Caddy's command line.
// The report itself is package report, which reads io.Readers and is
// usable and testable without Caddy.
package cli

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"time"

	caddycmd "github.com/caddyserver/caddy/v2/cmd"
	"github.com/spf13/cobra"

	"github.com/robotsguard/caddy-robots-txt/caddymodule/botdetect"
	"github.com/robotsguard/caddy-robots-txt/caddymodule/crawlers"
	"github.com/robotsguard/caddy-robots-txt/caddymodule/include"
	"github.com/robotsguard/caddy-robots-txt/caddymodule/internal/text"
	"github.com/robotsguard/caddy-robots-txt/caddymodule/report"
	"github.com/robotsguard/caddy-robots-txt/config"
	"github.com/robotsguard/caddy-robots-txt/robots"
)

func init() {
	caddycmd.RegisterCommand(caddycmd.Command{
		Name:      "robots",
		Usage:     "check|lint|report [flags]",
		Short:     "Checks, lints and reports on robots.txt and the bots in access logs",
		Long:      robotsLong,
		CobraFunc: setupRobots,
	})
}

const robotsLong = `
Commands for the robots_txt handler:

  caddy robots check --file robots.txt --agent <User-Agent> <path-or-URL>...
      what robots.txt says about each path for that client, and why
  caddy robots lint <robots.txt>
      the parser's findings about a robots.txt, line by line
  caddy robots report [access.log[.gz] | 'access*.log*']...
      which bots came, which broke robots.txt, and which rules they broke,
      from Caddy's JSON access logs

Exit status: 0 on success; 1 when check finds a disallowed path or lint
finds an error; 2 on a usage error or an input that cannot be read.
Run 'caddy robots <command> --help' for each command's flags.
`

const checkLong = `
Judges each path (or URL) for the client sending --agent, exactly as the
robots_txt handler would. The robots.txt comes from --file ("-" reads it
from standard input), or from a Caddy config with --config: a Caddyfile
or JSON, from which the file (or inline text, or upstream URL), the bots
and humans entries and the mode of the site's robots_txt handler are
taken. --site names the site (its host) when the config has several,
and picks it as Caddy would for that host: a site that names it, else a
wildcard site that takes it; URLs of one host pick it too. A root made of
the request's host ("root * /srv/{host}") is read for that host.
A site with more than one robots_txt handler (a matcher each, say) is
refused, with each handler named: a request may pass through several,
and check judges by one robots.txt; check each file with --file.

  - A client is held to robots.txt when the file names its product, or
    when it looks automated; a person's browser (or a client matching a
    humans entry) is not held, and its paths say "not held".
  - The group is found by looking for the file's agent names inside the
    User-Agent header: the longest found wins, else the * group applies.
    A bare product token ("GPTBot") works too.
  - A path starts with "/" (/private/x), a URL with its scheme, http or
    https, and a host (https://example.com/private/x). Anything else, such
    as private/x or ftp://example.com/x, is a usage error: it could be the path /private/x or the host
    "private", and check does not guess.
  - The path judged is the URL's path and query, with percent-encoding
    made canonical and dot-segments and repeated slashes resolved.
  - The longest matching rule decides; allow wins a tie; no rule: allowed.

check judges the User-Agent as given: it has no client address, so it
does not verify a claim to be a crawler. Where the crawler claimed
publishes how to verify it (Googlebot, GPTBot, a crawler block with
ranges), the verdicts are for the crawler itself, and check adds how the
handler judges a request that fails the check: as "impostor:<name>", by
the * group (impostors judge) or refused everywhere but /robots.txt
(impostors block). Nor does it apply Crawl-delay or hold a trapped
client to robots.txt (it does judge the trap's path itself). With
--config it applies the handler's content signals: with "signals enforce"
or "monitor", an AI crawler is disallowed where the usage preferences of
its group (or of the * group) say no, and the result names the preference
("signal").

For each path it prints the verdict, the group (its agent names, or none),
the agent name that selected it (or none), and the deciding rule with its
line (or "no rule matched"), then the name logs and metrics give the bot.

--json prints {"file", "user_agent", "bot", "bot_name", "mode",
"only_for", "answered_first_by", "not_reached", "held_to", "results": [{"input",
"path", "not_judged", "allowed",
"verdict", "group", "agent", "rule", "line", "source", "signal", "policy",
"capped"}],
"if_unverified": {"bot_name", "impostors", "group", "also", "results"}};
"allowed" is whether the handler lets the request through, "verdict" is
"allowed", "disallowed", "not held" (a person's browser) or "not judged"
(the request never reaches the handler), "group" is null
and "rule" is "" (with "line" 0) where there is none, "source" is "trap"
for the trap's rule and, for a rule of an included list, that list and its
line there ("line" counts in the robots.txt served), "signal" names the usage preference that refuses the
path ("ai-train=no"), and "mode" is there with --config. With --config,
"only_for" describes the matchers of the handler's routes ("path /blog/*"),
"answered_first_by" names a handler that answers every request before
robots_txt runs, and "not_reached" lists /robots.txt or the trap when the
config keeps every request for it from the handler (a route before it
answers it, or the matchers of its own routes do not take it; another
route then answers /robots.txt, without the trap's line or the included
lists); a result's "not_judged" says why that request never reaches the
handler ("file_server answers it first"): a bot's request is then
"allowed" with the verdict "not judged", since nothing holds it to
robots.txt, and its "rule" and "signal" are what the handler would apply
if it got it. "held_to" lists the agent names of the other groups the
header names as its own (or as a known crawler's), which a client nothing
can prove to be the crawler of its group is held to as well (a request any of them disallows is a
violation, and "group" and "rule" are then that group's). "if_unverified" is there for a claim to a crawler that
publishes how to verify it (not with impostors trust): "bot_name" is how
logs name a request that fails the check, "impostors" the handler's
setting, "group" the * group's names, "also" those of the groups it is
held to as well (the claimed crawler's and every other its header names),
and "results" the verdicts such a request gets, in the form above; a result refused by impostors block,
not by a rule, has "policy": "impostors block". "capped" is true where
the path's other spellings cost more to judge than their budget (a path
crafted against a file of thousands of wildcard rules), as the access log
marks it. The exit status follows
"results" only. Only the matchers a request's path, host and
method decide (path, path_regexp, host, method, not) and rewrites of a
known path are followed; where another decides, nothing is said.
"source", "signal", "policy", "capped", "only_for", "answered_first_by",
"not_reached", "held_to", "not_judged", "also" and "if_unverified" are left
out when empty.

Exit status: 0 when no path is disallowed for this client, 1 when one is
(in monitor mode too: it would be logged as a violation), 2 on a usage
error or an unreadable file or config. A path that never reaches the
handler ("not judged") is not disallowed: the site answers it whatever
robots.txt says.
`

const lintLong = `
Parses a robots.txt ("-" reads standard input) as the robots_txt handler
does and prints each finding of the parser as

  file:line: severity: message

(severity: info, warning or error), then a summary: groups, rules,
sitemaps and the agents the file names. Besides the parser's findings
(unknown fields, misspellings, rules outside any group, patterns that
match no URL, malformed Content-Signal and Content-Usage lines), it
reports what operators most often get wrong:

  - a non-empty file in which no line is a robots.txt field (an error: it
    is probably an HTML page);
  - a group naming crawlers that lacks a Disallow the * group has (an
    info: a named group does not inherit the * rules), unless the group
    lets them in on purpose: an empty "Disallow:", "Allow: /", or an
    Allow of the same paths;
  - an agent name that is the product token of software people use, such
    as Code or Cursor (a warning: its users would be held to the group);
  - a disallow rule anchored with "$" that a query string defeats, unless
    another rule of the group disallows the query variant (an info);
  - a Crawl-delay in a group for Google's crawlers, which ignore it (a
    warning: the line slows none of Google's real crawlers, since the
    handler does not pace a verified one either; it paces only clients
    that claim to be one without proof).

--json prints {"file", "diagnostics": [{"line", "severity", "kind",
"message"}], "groups", "rules", "sitemaps", "agents", "errors", "warnings",
"infos"}.

Exit status: 0 when no finding is an error, 1 when one is, 2 on a usage
error or an unreadable file.
`

// reportKeepOpen is how many regular files report holds open from the
// start; the rest are opened in turn.
const reportKeepOpen = 16

const reportLong = `
Reads Caddy's JSON access logs (one JSON object per line, as written by
'log { format json }'), plain or gzip-compressed (told apart by content,
not by name), from the files given, or from standard input when none is
given or for "-". Entries with a robots_txt object are bot requests; the
others are people's, counted in the totals only. Every named time_format
of Caddy's encoder is read (the wall formats, which carry no zone, as
UTC); a custom layout is not.
A compressed file damaged after some of its lines is a warning: the
lines before the damage are counted.

Several files make one report: give the logs of several instances, or a
rotated series, and their counts are added up. A file may also be named
by a pattern in quotes, which the command expands itself (so it works on
any shell and with more files than a command line holds):

  caddy robots report 'logs/access*.log*'

* matches any characters but /, ? one character, [a-z] a range. A
pattern that matches no file is a usage error; a file named twice is
read once.

For each bot (robots_txt.bot) it counts requests, violations (verdict
disallowed), crawl-delay violations (verdict too-fast; the table's DELAY
column, shown when there are any), blocked requests, grace verdicts,
fetches of /robots.txt, the share of requests made after the client had
fetched robots.txt (from the optional "fetched" field), the most broken
rules with their lines (a content-signal violation counts under its
signal, as "content-signal: ai-train=no"; the table lists the
Crawl-delay among them), when the bot was first and last seen and its
distinct client IPs. Bots are sorted by violations of both kinds, then
requests.

Memory stays bounded whatever the size of the logs: at most 1000 bots
(more are counted as "` + report.OtherBots + `", one row for all of them, and the
summary says "more than 1,000 bots"), 200 broken rules per bot, 10000
client IPs per bot (more show as "≥10000"), and a timeline whose time
slots grow coarser as needed.

Lines longer than 1 MiB, lines that are not JSON, have no "ts" or one
before 1970 or after 9999, or have a robots_txt object that lacks a
verdict or an action or gives one the handler never writes, and JSON
lines that are not access-log entries are skipped and counted; the count
goes to standard error. Progress goes to standard error once a second
when it is a terminal, or with --progress.

Formats (--format):
  table  for a terminal (default)
  html   one self-contained page: the table and a chart of requests and
         violations per bot over time; it loads nothing from anywhere
  json   the schema below

JSON schema ("caddy-robots-txt/report/v1"; times are RFC 3339 UTC strings,
"?" marks a value that may be null):
  {
    "schema": "caddy-robots-txt/report/v1",
    "generated": time, "inputs": [string], "since": time?,
    "first_seen": time?, "last_seen": time?,
    "lines": int,            all lines read
    "requests": int,         access-log entries counted (bots and people)
    "human_requests": int, "bot_requests": int,
    "violations": int, "crawl_delay_violations": int, "blocked": int, "grace": int,
    "skipped": {"malformed": int, "too_long": int, "not_access_log": int,
                "before_since": int},
    "bots_truncated": bool,  more than 1000 bots: the rest are "` + report.OtherBots + `",
                             one entry of "bots" for however many there were
    "bots": [{
      "bot": string, "category": string,
      "groups": [string],               the groups' agent names, "(no robots.txt)"
                                        for requests while the site had none
      "verified": int, "unverified": int, "impostor": int,
      "trapped": int,                   requests from clients the trap caught;
                                        the four add up to "requests"
      "requests": int, "violations": int, "crawl_delay_violations": int,
      "blocked": int, "logged": int, "grace": int,
      "robots_txt_fetches": int,        requests for /robots.txt
      "fetched_robots_txt": bool,       fetched it in the log, or said so (a HEAD,
                                        a GET answered 206, 412 or 416, or a 304
                                        to If-None-Match: * or to a date after
                                        the entry's ts, got no rules and is no
                                        fetch)
      "last_robots_txt_fetch": time?,
      "after_fetch_fraction": number?,  after_fetch_requests /
      "after_fetch_requests": int,      fetch_known_requests; null when no
      "fetch_known_requests": int,      entry carries "fetched"
      "top_rules": [{"rule": string, "line": int, "count": int}],
                                        line 0: a rule of no line (the trap's,
                                        or a content signal's)
      "other_rule_violations": int,     violations not in top_rules
      "first_seen": time, "last_seen": time,
      "client_ips": int, "client_ips_exact": bool  (false: a lower bound)
    }],
    "timeline": {"start": time, "step_seconds": int, "buckets": int,
                 "series": [{"bot": string, "requests": [int],
                             "violations": [int]}]},
                 the 8 bots with most requests, then "` + report.AllOthers + `"
    "limits": {"max_bots": int, "max_rules_per_bot": int,
               "max_client_ips": int, "max_line_bytes": int},
    "warnings": [string]
  }

--since keeps entries from a time on: an RFC 3339 time, a date (from
its midnight UTC, as the report's times are UTC), or a duration back
from now (24h, 90m, 7d). --top sets how many broken rules
are listed per bot (default 5). -o writes to a file instead of standard
output; the file is replaced only once the report is complete, so a
failure leaves an earlier report as it was. Without --format, a file
named *.html or *.htm gets the html format, *.json the json one.

Exit status: 0 when the report is written, 2 on a usage error, an input
that cannot be read, or inputs with lines of which none is an access-log
entry (an empty input is a report of nothing).
`

// setupRobots configures the `robots` command and its subcommands.
func setupRobots(cmd *cobra.Command) {
	cmd.SilenceUsage = true
	cmd.SilenceErrors = true
	cmd.Args = cobra.ArbitraryArgs
	cmd.RunE = runE(func(cmd *cobra.Command, args []string) int {
		if len(args) > 0 {
			fmt.Fprintf(cmd.ErrOrStderr(), "caddy robots: unknown command %q; use check, lint or report\n", args[0])
			return ExitUsage
		}
		_ = cmd.Help()
		return ExitOK
	})
	cmd.SetFlagErrorFunc(func(c *cobra.Command, err error) error {
		fmt.Fprintf(c.ErrOrStderr(), "%s: %v\nRun '%s --help' for usage.\n", c.CommandPath(), err, c.CommandPath())
		return exitError(c, ExitUsage)
	})

	check := &cobra.Command{
		Use:   "check (--file <robots.txt> | --config <Caddyfile|caddy.json> [--site <host>]) --agent <User-Agent> <path-or-URL>...",
		Short: "Tells whether robots.txt allows paths for a client, and which rule decides",
		Long:  checkLong,
		Args:  cobra.ArbitraryArgs,
	}
	check.Flags().StringP("file", "f", "", "the robots.txt to read, or - for standard input")
	check.Flags().StringP("config", "c", "", "a Caddy config (Caddyfile or JSON) whose robots_txt handler to use")
	check.Flags().String("site", "", "with --config: the host of the site whose handler to use, as a request would name it")
	check.Flags().StringP("agent", "a", "", "the User-Agent header, or a product token such as GPTBot (required; \"\" for none)")
	check.Flags().Bool("json", false, "print JSON")
	check.RunE = runE(runCheck)

	lint := &cobra.Command{
		Use:   "lint <robots.txt>",
		Short: "Prints the parser's findings about a robots.txt",
		Long:  lintLong,
		Args:  cobra.ArbitraryArgs,
	}
	lint.Flags().Bool("json", false, "print JSON")
	lint.RunE = runE(runLint)

	report := &cobra.Command{
		Use:   "report [--format table|json|html] [--since <time|duration>] [--top N] [-o file] [access.log[.gz] | 'pattern']...",
		Short: "Reports which bots came and which broke robots.txt, from Caddy's JSON access logs",
		Long:  reportLong,
		Args:  cobra.ArbitraryArgs,
	}
	report.Flags().String("format", "table", "output format: table, json or html")
	report.Flags().String("since", "", "only entries from this time on: RFC 3339, a date, or a duration back from now (24h, 7d)")
	report.Flags().Int("top", 5, "broken rules listed per bot")
	report.Flags().StringP("output", "o", "", "write the report to this file instead of standard output")
	report.Flags().Bool("progress", false, "show progress on standard error even when it is not a terminal")
	report.RunE = runE(runReport)

	for _, c := range []*cobra.Command{check, lint, report} {
		c.SilenceUsage = true
		c.SilenceErrors = true
		cmd.AddCommand(c)
	}
}

// runE adapts a command that returns an exit status to cobra.
func runE(f func(cmd *cobra.Command, args []string) int) func(*cobra.Command, []string) error {
	return func(cmd *cobra.Command, args []string) error {
		return exitError(cmd, f(cmd, args))
	}
}

// errExit1 makes caddycmd.Main exit with status 1; the command has
// already said why.
var errExit1 = errors.New("exiting with status 1")

// exitError returns the error that makes caddycmd.Main exit with code;
// nil for 0. Messages have been printed already, so cobra prints nothing.
func exitError(cmd *cobra.Command, code int) error {
	cmd.SilenceErrors = true
	switch code {
	case 0:
		return nil
	case 1:
		return errExit1 // Main exits 1 on any error but its own exit error
	}
	// Caddy's exit error type is not exported; its wrapper makes one.
	return caddycmd.WrapCommandFuncForCobra(func(caddycmd.Flags) (int, error) { return code, nil })(cmd, nil)
}

func usageError(cmd *cobra.Command, format string, args ...any) int {
	fmt.Fprintf(cmd.ErrOrStderr(), "%s: %s\nRun '%s --help' for usage.\n", cmd.CommandPath(), fmt.Sprintf(format, args...), cmd.CommandPath())
	return ExitUsage
}

// maxRobotsRead bounds what check and lint read of a robots.txt: the
// parser reads 512,000 bytes and reports the rest as past its limit.
const maxRobotsRead = 8 << 20

// readRobots reads at most maxRobotsRead bytes of the robots.txt name
// ("-": standard input). size is the input's whole size: that of the
// file when it is longer than what was read, or -1 when standard input
// or a file of no known size is (one byte past the limit tells).
func readRobots(cmd *cobra.Command, name string) (body []byte, size int64, display string, err error) {
	var r io.Reader
	var st os.FileInfo
	display = name
	if name == "-" {
		r, display = cmd.InOrStdin(), "<stdin>"
	} else {
		f, err := os.Open(name)
		if err != nil {
			return nil, 0, display, err
		}
		defer f.Close()
		st, err = f.Stat()
		if err == nil && st.IsDir() {
			return nil, 0, display, fmt.Errorf("%s is a directory", name)
		}
		r = f
	}
	body, err = io.ReadAll(io.LimitReader(r, maxRobotsRead+1))
	size = int64(len(body))
	if len(body) > maxRobotsRead {
		body, size = body[:maxRobotsRead], -1
		if st != nil && st.Mode().IsRegular() && st.Size() > maxRobotsRead {
			size = st.Size()
		}
	}
	return body, size, display, err
}

func runCheck(cmd *cobra.Command, args []string) int {
	fl := cmd.Flags()
	file, _ := fl.GetString("file")
	cfgPath, _ := fl.GetString("config")
	site, _ := fl.GetString("site")
	agent, _ := fl.GetString("agent")
	asJSON, _ := fl.GetBool("json")
	switch {
	case file == "" && cfgPath == "":
		return usageError(cmd, "--file is required (the robots.txt to read, or - for standard input), or --config (a Caddy config)")
	case file != "" && cfgPath != "":
		return usageError(cmd, "give --file or --config, not both")
	case site != "" && cfgPath == "":
		return usageError(cmd, "--site goes with --config")
	case !fl.Changed("agent"):
		return usageError(cmd, "--agent is required (a User-Agent header or a product token such as GPTBot)")
	case len(args) == 0:
		return usageError(cmd, "give at least one path or URL to check")
	}
	for _, a := range args {
		if err := checkTarget(a); err != nil {
			return usageError(cmd, "%v", err)
		}
	}
	var subj Subject
	if cfgPath != "" {
		sh, err := loadSiteConfig(cfgPath, site)
		if h := commonHost(args); err != nil && site == "" && h != "" {
			// Several sites: URLs of one host name the site.
			sh, err = loadSiteConfig(cfgPath, h)
		}
		if err != nil {
			fmt.Fprintf(cmd.ErrOrStderr(), "caddy robots check: %s\n", text.Clean(err.Error()))
			return ExitUsage
		}
		if sh.perHost() {
			// One robots.txt per host: every target must be of the
			// host it is read for, which URLs may name.
			for _, a := range args {
				h := targetHost(a)
				switch {
				case h == "":
				case sh.site == "":
					sh.site = h
				case h != sh.site:
					return usageError(cmd, "%s is a URL of %s, but the robots.txt read is %s's: this site has one for each host (%s); check one host at a time", a, h, sh.site, sh.robotsPath())
				}
			}
		}
		body, name, origin, warnings, err := sh.servedBody()
		if err != nil {
			fmt.Fprintf(cmd.ErrOrStderr(), "caddy robots check: reading %s: %s\n", text.Clean(name), text.Clean(err.Error()))
			return ExitUsage
		}
		for _, w := range warnings {
			fmt.Fprintf(cmd.ErrOrStderr(), "caddy robots check: %s\n", text.Clean(w))
		}
		sh.cfg.SetDefaults()
		// What caddy validate refuses, check refuses too: judging by a
		// config the server will not load would answer for nothing.
		if err := sh.cfg.Validate(); err != nil {
			fmt.Fprintf(cmd.ErrOrStderr(), "caddy robots check: the handler's config is not valid: %s\n", text.Clean(err.Error()))
			return ExitUsage
		}
		// As the handler matches them: {env.MONITOR_UA} replaced.
		if sh.cfg.Bots, sh.cfg.Humans, err = config.ResolveUserAgents(sh.cfg.Bots, sh.cfg.Humans); err != nil {
			fmt.Fprintf(cmd.ErrOrStderr(), "caddy robots check: the handler refuses to load: %s\n", text.Clean(err.Error()))
			return ExitUsage
		}
		base, err := crawlers.Builtin().With(sh.cfg.Entries()...)
		if err != nil {
			fmt.Fprintf(cmd.ErrOrStderr(), "caddy robots check: %s\n", text.Clean(err.Error()))
			return ExitUsage
		}
		var trap string
		if body != nil {
			trap = sh.cfg.Trap // no file, no trap: the handler springs none
		}
		file := robots.Parse(body)
		var served *robots.File
		var lines *include.Trapped
		if trap != "" {
			lines = include.Trap(body, file, trap)
			served = robots.Parse(lines.Body)
		}
		subj = Subject{File: file, Served: served, ServedLines: lines, Origin: origin, Name: name, Trap: trap, Classifier: botdetect.New(sh.cfg.Bots, sh.cfg.Humans), Mode: sh.cfg.Mode, Crawlers: base, Own: sh.cfg.CrawlerTokens(), OnlyFor: strings.Join(sh.match, " and "), AnsweredBy: sh.answered, PassesOn: !sh.cfg.ServeEnabled(), Signals: sh.cfg.Signals, Impostors: sh.cfg.ImpostorPolicy(),
			Includes: len(sh.cfg.Include) > 0, NotJudged: sh.notJudged}
		subj.RobotsNotReached = sh.notReached("/robots.txt")
		if trap != "" {
			subj.TrapNotReached = sh.notReached(trap)
		}
	} else {
		body, _, display, err := readRobots(cmd, file)
		if err != nil {
			fmt.Fprintf(cmd.ErrOrStderr(), "caddy robots check: reading %s: %s\n", text.Clean(display), text.Clean(err.Error()))
			return ExitUsage
		}
		subj = Subject{File: robots.Parse(body), Name: display}
	}
	code, err := Check(cmd.OutOrStdout(), subj, agent, args, asJSON)
	if err != nil {
		fmt.Fprintf(cmd.ErrOrStderr(), "caddy robots check: %s\n", text.Clean(err.Error()))
		return ExitUsage
	}
	return code
}

// commonHost is the host every target names, when every one is a URL of
// the same host; "" else.
func commonHost(targets []string) string {
	host := ""
	for _, t := range targets {
		h := targetHost(t)
		if h == "" || host != "" && h != host {
			return ""
		}
		host = h
	}
	return host
}

// targetHost is the host of a target that is a URL, as requests name it;
// "" for a path.
func targetHost(target string) string {
	host, _, _ := targetParts(target)
	return host
}

// checkTarget refuses an argument that is neither a path nor a URL.
// "private/page" could be either the path /private/page or the host
// "private" with the path /page; read as a URL it would answer, silently,
// for a path nobody asked about.
func checkTarget(t string) error {
	if strings.HasPrefix(t, "/") {
		return nil
	}
	if hasScheme(t) {
		// The handler judges HTTP requests: another scheme's URL, or
		// one with no host, names no request it could get.
		scheme, rest, _ := strings.Cut(t, "://")
		if !strings.EqualFold(scheme, "http") && !strings.EqualFold(scheme, "https") {
			return fmt.Errorf("%q is a %s URL; the handler judges http and https requests (https://%s)", t, scheme, rest)
		}
		if host, _, _ := strings.Cut(rest, "/"); host == "" || strings.HasPrefix(host, "?") || strings.HasPrefix(host, "#") {
			return fmt.Errorf("%q is a URL with no host; give one (https://example.com/%s), or the path alone", t, strings.TrimLeft(rest, "/"))
		}
		return nil
	}
	return fmt.Errorf("%q is neither a path nor a URL: a path starts with \"/\" (/%s), a URL with its scheme (https://%s)", t, t, t)
}

// hasScheme tells whether s starts with a URL scheme and "://".
func hasScheme(s string) bool {
	i := strings.Index(s, "://")
	if i < 1 || !isLetter(s[0]) {
		return false
	}
	for j := 1; j < i; j++ {
		if c := s[j]; !isLetter(c) && (c < '0' || c > '9') && c != '+' && c != '-' && c != '.' {
			return false
		}
	}
	return true
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

func runLint(cmd *cobra.Command, args []string) int {
	asJSON, _ := cmd.Flags().GetBool("json")
	if len(args) != 1 {
		return usageError(cmd, "give one robots.txt to lint, or - for standard input")
	}
	body, size, display, err := readRobots(cmd, args[0])
	if err != nil {
		fmt.Fprintf(cmd.ErrOrStderr(), "caddy robots lint: reading %s: %s\n", text.Clean(display), text.Clean(err.Error()))
		return ExitUsage
	}
	code, err := Lint(cmd.OutOrStdout(), body, size, display, asJSON)
	if err != nil {
		fmt.Fprintf(cmd.ErrOrStderr(), "caddy robots lint: %s\n", text.Clean(err.Error()))
		return ExitUsage
	}
	return code
}

// expandGlobs replaces each argument that is a pattern with the files it
// matches, so that the logs of several instances or a rotated series can
// be named as one quoted argument ('access-*.log*') on any shell, and in
// a number too large for a command line. An argument that names an
// existing file is taken as it is, whatever characters it holds. A
// pattern that matches no file is an error: a report silently missing a
// log would mislead.
func expandGlobs(args []string) ([]string, error) {
	meta := "*?["
	if runtime.GOOS != "windows" {
		meta += `\`
	}
	var out []string
	for _, a := range args {
		if a == "-" || !strings.ContainsAny(a, meta) {
			out = append(out, a)
			continue
		}
		if _, err := os.Lstat(a); err == nil {
			out = append(out, a)
			continue
		}
		matches, err := filepath.Glob(a)
		if err != nil {
			return nil, fmt.Errorf("pattern %q: %v", a, err)
		}
		n := len(out)
		for _, m := range matches {
			// Directories are left out: a pattern for a whole directory
			// of logs often catches a subdirectory too.
			if st, err := os.Stat(m); err == nil && !st.IsDir() {
				out = append(out, m)
			}
		}
		if len(out) == n {
			return nil, fmt.Errorf("pattern %q matches no file", a)
		}
	}
	return out, nil
}

// isTerminal reports whether w is a terminal (a character device).
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

func byteSize(n int64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.1f GiB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d B", n)
}

func runReport(cmd *cobra.Command, args []string) int {
	fl := cmd.Flags()
	format, _ := fl.GetString("format")
	since, _ := fl.GetString("since")
	top, _ := fl.GetInt("top")
	output, _ := fl.GetString("output")
	forceProgress, _ := fl.GetBool("progress")
	stderr := cmd.ErrOrStderr()

	if !fl.Changed("format") {
		// A file named for a format wants it: "report.html" with the
		// table in it is no page.
		switch strings.ToLower(filepath.Ext(output)) {
		case ".html", ".htm":
			format = "html"
		case ".json":
			format = "json"
		}
	}
	format = strings.ToLower(format)
	if format != "table" && format != "json" && format != "html" {
		return usageError(cmd, "--format %q: use table, json or html", format)
	}
	if top < 1 {
		return usageError(cmd, "--top %d: give at least 1", top)
	}
	opts := report.Options{TopRules: top}
	if since != "" {
		t, err := ParseSince(since, time.Now())
		if err != nil {
			return usageError(cmd, "%v", err)
		}
		opts.Since = t
	}
	if len(args) == 0 {
		args = []string{"-"}
	}
	args, err := expandGlobs(args)
	if err != nil {
		return usageError(cmd, "%v", err)
	}
	stdinUses := 0
	for _, a := range args {
		if a == "-" {
			stdinUses++
		}
	}
	if stdinUses > 1 {
		return usageError(cmd, "standard input (-) can be read only once")
	}

	// Open every input first, so that a typo fails before a long read,
	// and keep it open, so that a log rotated meanwhile is still read as
	// it was. Past reportKeepOpen regular files, one is closed again and
	// reopened when its turn comes, so that a pattern may match more files
	// than may be open at once; one replaced meanwhile is said.
	type input struct {
		name   string
		r      io.Reader
		c      io.Closer
		reopen os.FileInfo // what a file closed for now was
	}
	regular := 0
	var inputs []input
	defer func() {
		for _, in := range inputs {
			if in.c != nil {
				in.c.Close()
			}
		}
	}()
	var total int64
	totalKnown := true
	var seen []os.FileInfo
	for _, a := range args {
		if a == "-" {
			inputs = append(inputs, input{name: "<stdin>", r: cmd.InOrStdin()})
			totalKnown = false
			continue
		}
		f, err := os.Open(a)
		if err != nil {
			fmt.Fprintf(stderr, "caddy robots report: %s\n", text.Clean(err.Error()))
			return ExitUsage
		}
		st, err := f.Stat()
		// A file named twice (by a pattern and by name, say) is read
		// once: counted twice, its requests would be too.
		if err == nil && slices.ContainsFunc(seen, func(fi os.FileInfo) bool { return os.SameFile(fi, st) }) {
			f.Close()
			continue
		}
		if err == nil {
			seen = append(seen, st)
		}
		switch {
		case err != nil:
			totalKnown = false
			inputs = append(inputs, input{name: a, r: f, c: f})
		case st.IsDir():
			f.Close()
			fmt.Fprintf(stderr, "caddy robots report: %s is a directory\n", text.Clean(a))
			return ExitUsage
		case st.Mode().IsRegular():
			total += st.Size()
			if regular++; regular <= reportKeepOpen {
				inputs = append(inputs, input{name: a, r: f, c: f})
				break
			}
			f.Close()
			inputs = append(inputs, input{name: a, reopen: st})
		default:
			totalKnown = false
			inputs = append(inputs, input{name: a, r: f, c: f})
		}
	}
	// The report replaces the output file: it must not be a log it reads.
	if output != "" && output != "-" {
		if ost, err := os.Stat(output); err == nil && slices.ContainsFunc(seen, func(fi os.FileInfo) bool { return os.SameFile(fi, ost) }) {
			fmt.Fprintf(stderr, "caddy robots report: --output %s is one of the logs to read; the report would replace it\n", text.Clean(output))
			return ExitUsage
		}
	}

	progressed := false
	if forceProgress || isTerminal(stderr) {
		// On a terminal each report overwrites the last (\r, then erase to
		// the end of the line); elsewhere each is a line of its own.
		end := "\n"
		if isTerminal(stderr) {
			end = "\x1b[K\r"
		}
		opts.Progress = func(p report.Progress) {
			if p.Done && !progressed {
				return // small inputs: no progress line at all
			}
			progressed = true
			read := byteSize(p.BytesRead)
			if p.BytesTotal > 0 {
				read += fmt.Sprintf(" / %s (%.0f%%)", byteSize(p.BytesTotal), 100*float64(p.BytesRead)/float64(p.BytesTotal))
			}
			rate := float64(p.Lines) / max(p.Elapsed.Seconds(), 0.001)
			fmt.Fprintf(stderr, "reading %s: %s, %s lines, %s lines/s%s", text.Clean(p.Input), read, text.Group3(p.Lines), text.Group3(int64(rate)), end)
		}
	}
	agg := report.NewAggregator(opts)
	if totalKnown {
		agg.ExpectBytes(total)
	}
	for i := range inputs {
		in := &inputs[i]
		err := error(nil)
		if in.reopen != nil {
			var f *os.File
			if f, err = os.Open(in.name); err == nil {
				if st, serr := f.Stat(); serr == nil && !os.SameFile(st, in.reopen) {
					fmt.Fprintf(stderr, "caddy robots report: warning: %s was replaced after the report started (rotated?); it is read as it is now\n", text.Clean(in.name))
				}
				in.r, in.c = f, f
				err = agg.Add(in.name, f)
				f.Close()
				in.c = nil
			}
		} else {
			err = agg.Add(in.name, in.r)
		}
		if err != nil {
			if progressed && isTerminal(stderr) {
				fmt.Fprintln(stderr)
			}
			fmt.Fprintf(stderr, "caddy robots report: %s\n", text.Clean(err.Error()))
			return ExitUsage
		}
	}
	if progressed && isTerminal(stderr) {
		fmt.Fprintln(stderr)
	}
	rep := agg.Report()
	if s := rep.Skipped.Text(); s != "" {
		fmt.Fprintf(stderr, "caddy robots report: skipped %s\n", s)
	}
	if sk := rep.Skipped; rep.Lines > 0 && sk.Malformed+sk.TooLong+sk.NotAccessLog == rep.Lines {
		// Not one line of an access log: a wrong path (a robots.txt,
		// Caddy's own log), which a script must not take for a
		// report of no bots; an earlier -o report is left as it was.
		fmt.Fprintf(stderr, "caddy robots report: no line of the input is an entry of Caddy's JSON access log (log { format json } in the site); is it the access log?\n")
		return ExitUsage
	}
	for _, w := range rep.Warnings {
		// A warning names an input, whose name may hold anything.
		fmt.Fprintf(stderr, "caddy robots report: warning: %s\n", text.Clean(w))
	}

	write := rep.WriteTable
	switch format {
	case "json":
		write = rep.WriteJSON
	case "html":
		write = rep.WriteHTML
	}
	if output != "" && output != "-" {
		err = writeOutput(output, write)
	} else {
		err = write(cmd.OutOrStdout())
	}
	if err != nil {
		fmt.Fprintf(stderr, "caddy robots report: writing the report: %s\n", text.Clean(err.Error()))
		return ExitUsage
	}
	return ExitOK
}
