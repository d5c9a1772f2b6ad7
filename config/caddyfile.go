package config

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/caddyserver/caddy/v2"
	"github.com/caddyserver/caddy/v2/caddyconfig/caddyfile"

	"github.com/robotsguard/caddy-robots-txt/robots"
)

// subdirectives lists the Caddyfile subdirectives with their usage, in
// the order shown in error messages.
var subdirectives = []struct{ name, usage string }{
	{"file", "file <path>"},
	{"inline", "inline <text>"},
	{"mode", "mode enforce|monitor"},
	{"status", "status <code>"},
	{"body", "body <text>"},
	{"serve", "serve on|off"},
	{"bots", "bots <substring...>"},
	{"humans", "humans <substring...>"},
	{"reload", "reload <duration>|off"},
	{"cache", "cache <entries>"},
	{"file_cache", "file_cache <files>"},
	{"url", "url <http(s) URL>"},
	{"grace", "grace <duration>|off"},
	{"strict", "strict"},
	{"crawl_delay", "crawl_delay enforce|monitor|off"},
	{"trap", "trap <path> [hold|block]"},
	{"trap_ttl", "trap_ttl <duration>"},
	{"disable_metrics", "disable_metrics"},
	{"content_usage_header", "content_usage_header on|off"},
	{"signals", "signals enforce|monitor|off"},
	{"include", "include <file|http(s)-url>..."},
	{"share", "share on|off"},
	{"share_interval", "share_interval <duration>"},
	{"impostors", "impostors judge|block|trust"},
	{"crawler", "crawler <token> { ranges <cidr|file|https-url>...; rdns <hostname-suffix>...; signature_agent <https-origin>...; category <name> }"},
	{"resolvers", "resolvers <host:port>..."},
}

// subdirectiveNames is "file, inline, ..." for error messages.
var subdirectiveNames = func() string {
	names := make([]string, len(subdirectives))
	for i, s := range subdirectives {
		names[i] = s.name
	}
	return strings.Join(names, ", ")
}()

func usage(name string) string {
	for _, s := range subdirectives {
		if s.name == name {
			return s.usage
		}
	}
	return name
}

// UnmarshalCaddyfile sets up c from Caddyfile tokens, starting at the
// directive name, which it consumes; the directive's registration has
// taken its matcher token, if any, out of the tokens already. Syntax:
//
//	robots_txt [<matcher>] [<file>] {
//	    file    <path>
//	    inline  <text>
//	    url     <http(s) URL>
//	    mode    enforce|monitor
//	    status  <code>
//	    body    <text>
//	    serve   on|off
//	    bots    <substring...>
//	    humans  <substring...>
//	    reload  <duration>|off
//	    grace   <duration>|off
//	    cache   <entries>
//	    file_cache <files>
//	    strict
//	    crawl_delay enforce|monitor|off
//	    trap <path> [hold|block]
//	    trap_ttl <duration>
//	    disable_metrics
//	    content_usage_header on|off
//	    signals enforce|monitor|off
//	    include <file|http(s)-url>...
//	    share on|off
//	    share_interval <duration>
//	    impostors judge|block|trust
//	    crawler <token> {
//	        ranges          <cidr|file|https-url>...
//	        rdns            <hostname-suffix>...
//	        signature_agent <https-origin>...
//	        category        <name>
//	    }
//	    resolvers <host:port>...
//	}
//
// The matcher is any matcher token Caddy accepts ("*", a path such as
// "/blog/*", or "@name"), as for every handler directive. The file may be
// given as the argument after it only where it cannot be read as a
// matcher (a relative path, or any path after a matcher token), or with
// the file subdirective, not both; file, inline and url exclude each
// other. A file path with "*" in it is an error: a file name has no
// wildcards, and it is almost always a path matcher in the wrong place.
// The inline text is usually a heredoc:
//
//	inline <<TXT
//	    User-agent: *
//	    Disallow: /private/
//	    TXT
//
// It is taken as written: Caddy's adapter rewrites placeholder shorthands
// such as {host} or {path} into {http.request.host} and so on in every
// token, and UnmarshalCaddyfile turns them back, since nothing replaces
// placeholders in the inline text. A long form written as such cannot be
// told from Caddy's rewrite, so "{http.request.host}" comes out "{host}".
//
// bots, humans, crawler and resolvers may be repeated; bots, humans and
// resolvers accumulate, and a crawler block per token adds to or corrects
// the built-in crawler knowledge base. The other subdirectives may be
// given once each. "reload off" sets
// disable_reload; "grace off" is a grace of 0.
//
// A file path without placeholders is checked now: it must not be a
// directory and, if it exists, must be readable. A missing file is
// accepted (the site then allows all bots) unless strict is set. After
// parsing, the result is validated with Validate.
func (c *Config) UnmarshalCaddyfile(d *caddyfile.Dispenser) error {
	d.Next() // consume directive name

	// A dispenser holding only the directive token, to report problems
	// that belong to the directive as a whole at its line.
	directive := tokenAt(d)

	seen := map[string]int{}                       // subdirective -> line where first given
	seenAt := map[string]*caddyfile.Dispenser{}    // subdirective -> its token, for errors found later
	fileArgLine := 0                               // line of a file given as the argument
	crawlerLines := map[string]int{}               // lower-case crawler token -> line of its block
	var fileAt *caddyfile.Dispenser                // the file's token, for errors found later
	includeAt := map[string]*caddyfile.Dispenser{} // an included list -> its include line
	includeAs := map[string]string{}               // includeKey -> the entry as first written
	// bots or humans -> lower-case entry -> the line that gave it
	entryLines := map[string]map[string]int{"bots": {}, "humans": {}}
	// bots, humans or resolvers -> how an entry is told apart -> the
	// entry as first written, for the error about it given twice
	entryAs := map[string]map[string]string{"bots": {}, "humans": {}, "resolvers": {}}
	resolverLines := map[string]int{} // resolverKey -> the line that gave it

	args := d.RemainingArgs()
	switch len(args) {
	case 0:
	case 1:
		if hint := settingNotFile(args[0]); hint != "" {
			return d.Errf("robots_txt: %q is read as the name of the robots.txt file, since a directive's "+
				"arguments are a matcher and a file; %s; to name a file called %s, write ./%s", args[0], hint, args[0], args[0])
		}
		if err := c.setFile(d, args[0]); err != nil {
			return err
		}
		fileArgLine = d.Line()
		fileAt = tokenAt(d)
	default:
		return d.Errf("robots_txt: too many arguments (%d); usage: robots_txt [<matcher>] [<file>] { ... }", len(args))
	}

	prev := ""
	for nesting := d.Nesting(); d.NextBlock(nesting); {
		name := d.Val()
		if name == "{" && !d.Token().Quoted() {
			if prev == "" {
				return d.Errf("robots_txt: unexpected '{'; give one subdirective per line: %s", subdirectiveNames)
			}
			return d.Errf("robots_txt: %s does not take a block; usage: %s", prev, usage(prev))
		}
		prev = name
		line := d.Line()

		switch name {
		case "file", "inline", "mode", "status", "body", "serve", "reload", "cache", "file_cache", "url", "grace", "strict", "impostors", "crawl_delay", "trap", "trap_ttl", "disable_metrics", "content_usage_header", "signals", "share", "share_interval":
			if first, ok := seen[name]; ok {
				return d.Errf("robots_txt: %s is given more than once (first at line %d); give it once", name, first)
			}
			seen[name] = line
			seenAt[name] = tokenAt(d)
		case "bots", "humans", "resolvers", "include":
		case "crawler":
			cr, err := parseCrawler(d, c.Crawlers, crawlerLines)
			if err != nil {
				return err
			}
			crawlerLines[strings.ToLower(cr.Token)] = line
			c.Crawlers = append(c.Crawlers, cr)
			continue
		default:
			return d.Errf("robots_txt: unknown subdirective %q; use one of: %s", name, subdirectiveNames)
		}

		if lists := map[string]*[]string{"bots": &c.Bots, "humans": &c.Humans, "include": &c.Include, "resolvers": &c.Resolvers}; lists[name] != nil {
			vals := d.RemainingArgs()
			if len(vals) == 0 {
				return d.Errf("robots_txt: %s needs at least one argument; usage: %s", name, usage(name))
			}
			if err := checkListArgs(name, vals); err != nil {
				return d.Errf("robots_txt: %w", err)
			}
			if other := map[string]string{"bots": "humans", "humans": "bots"}[name]; other != "" {
				for _, v := range vals {
					if first, ok := entryLines[other][strings.ToLower(v)]; ok {
						return d.Errf("robots_txt: %q is in both bots and humans (%s at line %d); %s", v, other, first, errBotAndHuman)
					}
					key := strings.ToLower(v)
					if first, ok := entryLines[name][key]; ok {
						return d.Errf("robots_txt: %s: %q is given more than once (first at line %d%s); %s", name, v, first, sameListAs(v, entryAs[name][key]), errListTwice)
					}
					entryLines[name][key], entryAs[name][key] = line, v
				}
			}
			if name == "resolvers" {
				for _, v := range vals {
					key := resolverKey(v)
					if first, ok := resolverLines[key]; ok {
						return d.Errf("robots_txt: resolvers: %q is given more than once (first at line %d%s); give each server once", v, first, sameListAs(v, entryAs[name][key]))
					}
					resolverLines[key], entryAs[name][key] = line, v
				}
			}
			if name == "include" {
				for _, v := range vals {
					// A list given twice (a snippet imported twice,
					// say) adds nothing the second time but an empty
					// section of the served robots.txt.
					if as, ok := includeAs[includeKey(v)]; ok {
						return d.Errf("robots_txt: include: %q is given more than once (first at line %d%s); give each list once", v, includeAt[as].Line(), sameListAs(v, as))
					}
					includeAt[v], includeAs[includeKey(v)] = tokenAt(d), v
				}
			}
			*lists[name] = append(*lists[name], vals...)
			continue
		}
		if name == "trap" {
			vals := d.RemainingArgs()
			if len(vals) < 1 || len(vals) > 2 {
				return d.Errf("robots_txt: trap takes a path and an optional action; usage: %s", usage(name))
			}
			c.Trap = vals[0]
			if len(vals) == 2 {
				c.TrapAction = vals[1]
				if a := vals[1]; a != TrapHold && a != TrapBlock {
					return d.Errf("robots_txt: trap: action %q is not allowed; use %s (the default) or %s; usage: %s", a, TrapHold, TrapBlock, usage(name))
				}
			}
			if err := checkTrap(c.Trap, c.TrapAction, 0); err != nil {
				return d.Errf("robots_txt: %w", err)
			}
			continue
		}
		if name == "strict" || name == "disable_metrics" {
			if d.NextArg() {
				return d.Errf("robots_txt: %s takes no argument; usage: %s", name, name)
			}
			if name == "strict" {
				c.Strict = true
			} else {
				c.DisableMetrics = true
			}
			continue
		}

		vals := d.RemainingArgs()
		if len(vals) != 1 {
			return d.Errf("robots_txt: %s takes exactly one argument, got %d; usage: %s", name, len(vals), usage(name))
		}
		val := vals[0]
		if val == "" && name != "inline" && name != "file" {
			// An empty value would read as the default (or, for body,
			// as no body): say so rather than guess. inline and file say
			// it in their own words.
			return d.Errf("robots_txt: %s: the value is empty; usage: %s (or drop %s for the default)", name, usage(name), name)
		}

		switch name {
		case "file":
			if fileArgLine != 0 {
				return d.Errf("robots_txt: file is given both as the argument (line %d) and as a subdirective; give it once", fileArgLine)
			}
			if err := c.setFile(d, val); err != nil {
				return err
			}
			fileAt = tokenAt(d)

		case "inline":
			if c.File != "" {
				return d.Errf("robots_txt: %w", errFileAndInline)
			}
			if c.URL != "" {
				return d.Errf("robots_txt: %w", errURLAndSource)
			}
			if val == "" {
				return d.Errf("robots_txt: inline text is empty; give the text of robots.txt, usually as a heredoc (inline <<TXT ... TXT)")
			}
			if !strings.Contains(val, "\n") && strings.Contains(val, `\n`) {
				// A Caddyfile keeps \n in a quoted string as the two
				// characters: the text would be one line, "User-agent:
				// *\nDisallow: /", a group with no rules.
				return d.Errf("robots_txt: inline text is one line holding \\n, which a Caddyfile does not turn into a line break; write the text as a heredoc: inline <<TXT, its lines, then TXT")
			}
			c.Inline = restoreShorthands(val)

		case "mode":
			if err := checkMode(val); err != nil {
				return d.Errf("robots_txt: %w", err)
			}
			c.Mode = val

		case "status":
			code, err := strconv.Atoi(val)
			if err != nil {
				return d.Errf("robots_txt: status: %q is not a number; use a code from %d to %d", val, MinStatus, MaxStatus)
			}
			if err := checkStatus(code); err != nil {
				return d.Errf("robots_txt: %w", err)
			}
			c.Status = code

		case "body":
			// Checked here too, not only when the handler loads, so
			// that the error names the line.
			if err := CheckBodyPlaceholders(val); err != nil {
				return d.Errf("robots_txt: %w", err)
			}
			c.Body = val

		case "serve":
			switch val {
			case "on":
				c.Serve = new(true)
			case "off":
				c.Serve = new(false)
			default:
				return d.Errf("robots_txt: serve: %q is not allowed; use on or off", val)
			}

		case "reload":
			if val == "off" {
				c.DisableReload = true
				break
			}
			dur, err := caddy.ParseDuration(val)
			if err != nil {
				return d.Errf("robots_txt: reload: %q is not a duration; use a duration such as 5s, 1m or 1h, or off", val)
			}
			if outOfRange(name, caddy.Duration(dur)) {
				return d.Errf("robots_txt: reload: %s is not allowed; use %s, such as 5s, or off to read the file once", dur, durationRange(name))
			}
			c.Reload = caddy.Duration(dur)

		case "url":
			if c.File != "" || c.Inline != "" {
				return d.Errf("robots_txt: %w", errURLAndSource)
			}
			if err := checkURLAsWritten(val, upstreamWhat); err != nil {
				return d.Errf("robots_txt: url: %w", err)
			}
			c.URL = val

		case "grace":
			if val == "off" {
				c.Grace = new(caddy.Duration(0))
				break
			}
			dur, err := caddy.ParseDuration(val)
			if err != nil || dur != 0 && outOfRange(name, caddy.Duration(dur)) {
				return d.Errf("robots_txt: grace: %q is not allowed; use %s, such as 24h or 1h, or off (0)", val, durationRange(name))
			}
			c.Grace = new(caddy.Duration(dur))

		case "trap_ttl":
			dur, err := caddy.ParseDuration(val)
			if err != nil {
				return d.Errf("robots_txt: trap_ttl: %q is not a duration; use %s, such as 24h (the default)", val, durationRange(name))
			}
			if outOfRange(name, caddy.Duration(dur)) {
				return d.Errf("robots_txt: trap_ttl: %q is not allowed; use %s, such as 24h (the default): %s", val, durationRange(name), trapTTLWhy(caddy.Duration(dur)))
			}
			c.TrapTTL = caddy.Duration(dur)

		case "content_usage_header":
			if err := checkOneOf(name, val, "on", "off"); err != nil {
				return d.Errf("robots_txt: %w", err)
			}
			c.ContentUsageHeader = val

		case "share":
			if err := checkOneOf(name, val, "on", "off"); err != nil {
				return d.Errf("robots_txt: %w", err)
			}
			c.Share = val

		case "share_interval":
			dur, err := caddy.ParseDuration(val)
			if err != nil || outOfRange(name, caddy.Duration(dur)) {
				return d.Errf("robots_txt: share_interval: %q is not allowed; use %s, such as 5s", val, durationRange(name))
			}
			c.ShareInterval = caddy.Duration(dur)

		case "signals":
			if err := checkOneOf(name, val, ModeEnforce, ModeMonitor, CrawlDelayOff); err != nil {
				return d.Errf("robots_txt: %w", err)
			}
			c.Signals = val

		case "crawl_delay":
			if err := checkCrawlDelay(val); err != nil {
				return d.Errf("robots_txt: %w", err)
			}
			c.CrawlDelay = val

		case "impostors":
			if err := checkImpostors(val); err != nil {
				return d.Errf("robots_txt: %w", err)
			}
			c.Impostors = val

		case "cache":
			n, err := strconv.Atoi(val)
			if err != nil {
				return d.Errf("robots_txt: cache: %q is not a number; use a number of entries from %d to %d", val, MinCache, MaxCache)
			}
			if err := checkCache(n); err != nil {
				return d.Errf("robots_txt: %w", err)
			}
			c.Cache = n

		case "file_cache":
			n, err := strconv.Atoi(val)
			if err != nil {
				return d.Errf("robots_txt: file_cache: %q is not a number; use a number of files from %d to %d", val, MinFileCache, MaxFileCache)
			}
			if err := checkFileCache(n); err != nil {
				return d.Errf("robots_txt: %w", err)
			}
			c.FileCache = n
		}
	}

	// Combinations of subdirectives that may come in any order are
	// checked once the whole block is read.
	if at := seenAt["trap_ttl"]; at != nil && c.Trap == "" {
		return at.Errf("robots_txt: trap_ttl needs trap: add trap <path> [hold|block], such as trap /.well-known/robots-trap/, or drop trap_ttl")
	}
	if c.Trap != "" && !c.ServeEnabled() {
		return later(seenAt["serve"], seenAt["trap"]).Errf("robots_txt: trap (line %d) needs serve on (line %d): %s",
			seen["trap"], seen["serve"], errTrapNotServed)
	}
	if c.Share == "off" && c.ShareInterval != 0 {
		return later(seenAt["share"], seenAt["share_interval"]).Errf(
			"robots_txt: share_interval (line %d) has no effect with share off (line %d): nothing is shared; drop share_interval, or use share on",
			seen["share_interval"], seen["share"])
	}
	if src, why := c.noReload(); src != "" && seenAt["reload"] != nil {
		return later(seenAt["reload"], seenAt[src]).Errf("robots_txt: reload (line %d) has no effect with %s (line %d): %s; drop reload",
			seen["reload"], src, seen[src], why)
	}
	if err := c.Validate(); err != nil {
		return directive.Errf("robots_txt: %w", err)
	}
	if c.Strict && fileAt != nil && !strings.Contains(c.File, "{") {
		if _, err := os.Stat(c.File); errors.Is(err, fs.ErrNotExist) {
			return fileAt.Errf("robots_txt: strict: file %q does not exist; create it, fix the path, or drop strict to allow every bot until it appears", c.File)
		}
		if errs := StrictFileErrors(c.File); len(errs) > 0 {
			return fileAt.Errf("robots_txt: strict: file %q has errors: %s", c.File, strings.Join(errs, "; "))
		}
	}
	if at := seenAt["inline"]; c.Strict && at != nil {
		// Lines of the text, counted from its first.
		if errs := StrictErrors(robots.Parse([]byte(c.Inline)), nil); len(errs) > 0 {
			return at.Errf("robots_txt: strict: inline text has errors: %s", strings.Join(errs, "; "))
		}
	}
	for _, inc := range c.Include {
		if strings.Contains(inc, "://") || strings.Contains(inc, "{") {
			continue
		}
		if err := CheckFile(inc); err != nil {
			return includeAt[inc].Errf("robots_txt: include: %v", err)
		}
		if c.Strict {
			if err := StrictIncludes([]string{inc}); err != nil {
				return includeAt[inc].Errf("robots_txt: %v", err)
			}
		}
	}
	return nil
}

// settingNotFile returns how to write arg as the setting it names when a
// file argument is a subdirective's name or one of their values ("robots_txt
// monitor"), which no one means as a file name; "" otherwise.
func settingNotFile(arg string) string {
	switch arg {
	case ModeEnforce, ModeMonitor:
		return fmt.Sprintf("to set the mode, write it in the block: robots_txt { mode %s }", arg)
	case "on", "off", TrapHold, TrapBlock, ImpostorsJudge, ImpostorsTrust:
		return fmt.Sprintf("%s is a value: write the subdirective and it in the block, as in robots_txt { serve %s }", arg, arg)
	}
	for _, sd := range subdirectives {
		if sd.name == arg {
			return fmt.Sprintf("subdirectives go in the block: robots_txt { %s }", sd.usage)
		}
	}
	return ""
}

// tokenAt is a dispenser holding only d's current token, to report at its
// line a problem found once the whole block is read.
func tokenAt(d *caddyfile.Dispenser) *caddyfile.Dispenser {
	t := caddyfile.NewDispenser([]caddyfile.Token{d.Token()})
	t.Next()
	return t
}

// later is whichever of two subdirective tokens comes later in the
// block: a combination is reported where it is completed.
func later(a, b *caddyfile.Dispenser) *caddyfile.Dispenser {
	if a.Line() > b.Line() {
		return a
	}
	return b
}

// checkListArgs checks the arguments of a subdirective that takes a list.
func checkListArgs(name string, vals []string) error {
	switch name {
	case "bots", "humans":
		// An entry given twice is refused by the caller, which
		// knows the lines before this one.
		for i, v := range vals {
			if err := checkBlank(name, i, v); err != nil {
				return err
			}
			if err := checkUserAgentAsWritten(v); err != nil {
				return fmt.Errorf("%s: %w", name, err)
			}
		}
	case "include":
		for _, v := range vals {
			if v == "" {
				return errors.New("include: an entry is empty; give a file path or an http(s) URL")
			}
			// Refused when the handler loads too (ResolveIncludes); here
			// the error names its line.
			if err := checkIncludeAsWritten(v); err != nil {
				return fmt.Errorf("include: %w", err)
			}
		}
	case "resolvers":
		for _, v := range vals {
			if _, err := ResolverAddr(v); err != nil {
				return fmt.Errorf("resolvers: %v", err)
			}
		}
	}
	return nil
}

// crawlerUsage is the usage of each subdirective of a crawler block.
var crawlerUsage = map[string]string{
	"ranges":          "ranges <cidr|file|https-url>...",
	"rdns":            "rdns <hostname-suffix>...",
	"signature_agent": "signature_agent <https-origin>...",
	"category":        "category <name>",
}

// parseCrawler reads a crawler block: crawler <token> { ... }. earlier
// are the blocks before it, whose lines are in lines by lower-case token:
// a signature agent one of them gives is refused at its line here.
func parseCrawler(d *caddyfile.Dispenser, earlier []Crawler, lines map[string]int) (Crawler, error) {
	var cr Crawler
	if !d.NextArg() {
		return cr, d.Errf("robots_txt: crawler needs a token; usage: %s", usage("crawler"))
	}
	cr.Token = d.Val()
	at := tokenAt(d)
	if d.NextArg() {
		return cr, d.Errf("robots_txt: crawler takes one token and a block; usage: %s", usage("crawler"))
	}
	// Each line is checked as it is read, so that an error names its line
	// rather than the block's closing brace.
	named := "crawler " + cr.Token
	if err := (Crawler{Token: cr.Token}).check("crawler", named); err != nil {
		return cr, d.Errf("robots_txt: %v", err)
	}
	// A second block would be merged into the first, field by field,
	// and robots.txt tokens ignore case.
	if first, ok := lines[strings.ToLower(cr.Token)]; ok {
		return cr, at.Errf("robots_txt: crawler %s is given more than once (first at line %d); tokens match without regard to case, so give one block per crawler", cr.Token, first)
	}
	seen := map[string]bool{}
	prev := ""
	for nesting := d.Nesting(); d.NextBlock(nesting); {
		name := d.Val()
		if name == "{" && !d.Token().Quoted() {
			// A block after a line: its "{" would read as a subdirective
			// with no argument.
			if u, ok := crawlerUsage[prev]; ok {
				return cr, d.Errf("robots_txt: crawler %s: %s does not take a block; usage: %s", cr.Token, prev, u)
			}
			return cr, d.Errf("robots_txt: crawler %s: unexpected '{'; give one of ranges, rdns, signature_agent or category per line", cr.Token)
		}
		prev = name
		vals := d.RemainingArgs()
		if len(vals) == 0 {
			return cr, d.Errf("robots_txt: crawler %s: %s needs at least one argument", cr.Token, name)
		}
		switch name {
		case "ranges":
			for _, v := range vals {
				err := checkRange(v)
				if err == nil {
					err = CheckRangeFile(v)
				}
				if err != nil {
					return cr, d.Errf("robots_txt: crawler %s: ranges: %v", cr.Token, err)
				}
			}
			cr.Ranges = append(cr.Ranges, vals...)
		case "rdns":
			cr.RDNS = append(cr.RDNS, vals...)
		case "signature_agent":
			cr.SignatureAgents = append(cr.SignatureAgents, vals...)
			// Checked by Validate too, at the directive's line once
			// the block is read; here at this one.
			if a, j, ok := sharedAgent(append(slices.Clip(earlier), cr), len(earlier)); ok {
				return cr, d.Errf("robots_txt: %s: signature_agent %q is also crawler %s's (line %d); %s",
					named, a, earlier[j].Token, lines[strings.ToLower(earlier[j].Token)], errSharedAgent)
			}
		case "category":
			if seen[name] || len(vals) != 1 {
				return cr, d.Errf("robots_txt: crawler %s: category takes one name, once", cr.Token)
			}
			cr.Category = vals[0]
		default:
			return cr, d.Errf("robots_txt: crawler %s: unknown subdirective %q; use ranges, rdns, signature_agent or category", cr.Token, name)
		}
		if err := cr.check("crawler", named); err != nil {
			return cr, d.Errf("robots_txt: %v", err)
		}
		seen[name] = true
	}
	if err := cr.check("crawler", named); err != nil {
		return cr, d.Errf("robots_txt: %v", err)
	}
	if cr.setsNothing() {
		return cr, at.Errf("robots_txt: crawler %s has no way to verify it; give ranges <cidr|file|https-url>..., "+
			"rdns <hostname-suffix>... or signature_agent <https-origin>... in its block, or its category <name>; "+
			"to name a bot without verifying it, use bots %s", cr.Token, cr.Token)
	}
	return cr, nil
}

// setFile sets c.File from the current Caddyfile line, checking the
// path, and reports problems at that line.
func (c *Config) setFile(d *caddyfile.Dispenser, path string) error {
	if path == "" {
		return d.Errf("robots_txt: file path is empty; give the path of a robots.txt file")
	}
	if strings.Contains(path, "*") {
		return d.Errf("robots_txt: file %q has a \"*\" in it; a file name has no wildcards. "+
			"A path matcher goes first and the file after it, or in the block: robots_txt /blog/* { file <path> }", path)
	}
	if c.Inline != "" {
		return d.Errf("robots_txt: %w", errFileAndInline)
	}
	if c.URL != "" {
		return d.Errf("robots_txt: %w", errURLAndSource)
	}
	if err := CheckFile(path); err != nil {
		return d.Errf("robots_txt: %w", err)
	}
	c.File = path
	return nil
}

// Interface guard.
var _ caddyfile.Unmarshaler = (*Config)(nil)
