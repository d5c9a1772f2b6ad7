// Package config holds the operator's configuration of the robots_txt
// handler: a typed struct with JSON tags, its defaults, its validation
// and its Caddyfile syntax.
//
// The zero value of every field means "use the default", so a Config
// decoded from JSON or parsed from a Caddyfile is valid without calling
// SetDefaults; the handler calls SetDefaults when it provisions.
package config

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"net/netip"
	"net/url"
	"os"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/caddyserver/caddy/v2"

	"github.com/robotsguard/caddy-robots-txt/caddymodule/crawlers"
	"github.com/robotsguard/caddy-robots-txt/caddymodule/judge"
	"github.com/robotsguard/caddy-robots-txt/caddymodule/share"
	"github.com/robotsguard/caddy-robots-txt/caddymodule/verify"
	"github.com/robotsguard/caddy-robots-txt/caddymodule/webbotauth"
)

// Allowed values of Config.Mode.
const (
	// ModeEnforce refuses requests from bots that robots.txt disallows.
	ModeEnforce = "enforce"
	// ModeMonitor only records such requests and lets them through.
	ModeMonitor = "monitor"
)

// Defaults and bounds.
const (
	// DefaultStatus is the HTTP status of a refusal.
	DefaultStatus = 403
	// MinStatus and MaxStatus bound Status: client and server errors only.
	MinStatus = 400
	MaxStatus = 599

	// DefaultReload is how often the robots.txt file is checked for changes.
	DefaultReload = caddy.Duration(5 * time.Second)

	// MinInterval is the shortest reload and share_interval: a shorter
	// one checks the file, or reads and writes the storage, in a loop
	// that keeps a core busy for nothing.
	MinInterval = caddy.Duration(100 * time.Millisecond)
	// MaxReload is the longest reload: a file checked less often keeps
	// an edit out of force for over a day without saying so, where
	// "reload off" says out loud that the file is read once.
	MaxReload = caddy.Duration(24 * time.Hour)
	// MinTrapTTL is the shortest trap_ttl: an address held for less is
	// let go before its next request, which turns the trap off.
	MinTrapTTL = caddy.Duration(time.Second)
	// MaxTrapTTL is the longest trap_ttl, a year. An address is held
	// until now plus trap_ttl, kept in Unix nanoseconds, which a
	// trap_ttl of some 235 years overflows into the past: the address
	// would be logged as held and held not at all.
	MaxTrapTTL = caddy.Duration(365 * 24 * time.Hour)
	// DefaultGrace is how long earlier versions of robots.txt are honoured
	// after a change: the 24 hours RFC 9309 lets crawlers cache the file.
	DefaultGrace = caddy.Duration(24 * time.Hour)
	// MinGrace is the shortest grace other than 0 (off): a bot that
	// fetched a version comes back later than that, so a shorter one is
	// off in effect.
	MinGrace = caddy.Duration(time.Second)
	// MaxGrace is the longest grace, a week: the shared storage forgets
	// the fetches an instance that is gone saw after share.Expire, so a
	// longer grace would excuse a bot on one instance and not on
	// another; RFC 9309 lets a crawler keep its copy for 24 hours only.
	MaxGrace = caddy.Duration(share.Expire)

	// DefaultCache is the number of entries in the User-Agent
	// classification cache.
	DefaultCache = 10000
	// MinCache and MaxCache bound Cache. Each entry holds a User-Agent
	// string (often a few hundred bytes), so the upper bound keeps the
	// cache below a few hundred megabytes.
	MinCache = 1
	MaxCache = 1000000

	// DefaultFileCache is the number of parsed robots.txt files kept
	// when the file is named per request (a root with {host} in it).
	// A parsed file holds about ten times its text: tens of kilobytes
	// for a typical one, about 4 MB for one of 500 KiB, the most that
	// is read.
	DefaultFileCache = 256
	// MinFileCache and MaxFileCache bound FileCache; at the upper
	// bound, tenants' typical files take a few gigabytes.
	MinFileCache = 1
	MaxFileCache = 100000
)

// Config is the operator's configuration of the robots_txt handler.
// The handler embeds it, so these fields appear directly in the
// handler's JSON. A zero field means its default.
type Config struct {
	// The path of the robots.txt file to serve and enforce.
	// Placeholders are allowed. The default is robots.txt in the site's
	// root (the "root" variable, looked up per request when it has
	// placeholders such as {host}), else in Caddy's working directory. A
	// file that does not exist allows every bot everywhere (an error
	// with "strict"). It must be a regular file. Not with "inline" or
	// "url".
	File string `json:"file,omitempty"`

	// The text of robots.txt, given in the configuration instead of a
	// file. It is served as written: no placeholder in it is replaced.
	// The default is empty, meaning the text is read from "file". Not
	// with "file" or "url".
	Inline string `json:"inline,omitempty"`

	// What happens when a bot requests a path that robots.txt
	// disallows for it. The allowed values are "enforce" (the default),
	// which refuses the request, and "monitor", which only records it and
	// lets the request through.
	Mode string `json:"mode,omitempty"`

	// The HTTP status code of a refusal. The default is 403;
	// the allowed values are 400 to 599.
	Status int `json:"status,omitempty"`

	// The response body of a refusal (text/plain). Placeholders are
	// expanded, as in the respond directive: "{http.robots_txt.bot}"
	// names the bot. The default is empty, in which case the handler
	// returns an HTTP error with "status" so that handle_errors routes
	// can render the page.
	Body string `json:"body,omitempty"`

	// Whether GET and HEAD requests for /robots.txt are
	// answered with the loaded robots.txt. The default (unset) is true;
	// set it to false to let the request pass to the next handler.
	Serve *bool `json:"serve,omitempty"`

	// Extra User-Agent substrings, matched without regard to case, that
	// mark a client as a bot in addition to the built-in rules; such a
	// client is named by its entry in logs and metrics. The default is
	// none; every entry must be a non-blank string, given once and not
	// in "humans" too (in any case), which would make it have no effect.
	// Global placeholders ({env.*}) are replaced when the configuration
	// loads; one of the request ({http.*}) is an error.
	Bots []string `json:"bots,omitempty"`

	// User-Agent substrings, matched without regard to case,
	// that exempt a client: such a client is never held to robots.txt,
	// even if it also matches a bot substring. The default is none;
	// every entry must be a non-blank string, given once (in any case).
	// Global placeholders ({env.*}) are replaced when the configuration
	// loads; one of the request ({http.*}) is an error.
	Humans []string `json:"humans,omitempty"`

	// How often the robots.txt file is checked for changes, as a
	// duration string such as "5s" or "1m" (an integer is read as
	// nanoseconds). The default is 5s; 100ms to 24h is allowed ("reload
	// off", disable_reload, reads the file once).
	// It is also how often the included files ("include") are checked.
	// It cannot be set with "inline" or "url", which are no file to
	// check, unless an included list is a file, nor together with
	// "disable_reload".
	Reload caddy.Duration `json:"reload,omitempty"`

	// Turns off checking the robots.txt file, and the included files,
	// for changes, so they are read when the configuration loads. The
	// default is false. In the Caddyfile it is written "reload off". It
	// cannot be set with "inline" or "url", which are no file to check,
	// unless an included list is a file.
	DisableReload bool `json:"disable_reload,omitempty"`

	// The address of robots.txt on the upstream, for sites whose
	// robots.txt lives on the backend: "http://app:8080/robots.txt". It is
	// fetched when the configuration loads and refreshed as RFC 9309
	// says: redirects are followed up to 5 hops; a 2xx answer applies; a
	// 4xx answer means no robots.txt (every bot allowed everywhere); a 5xx
	// answer, a timeout or a network error keeps the last good copy (or,
	// with none yet, allows all). The refresh interval is the answer's
	// Cache-Control max-age, else its Expires less its Date, less the
	// answer's age (its Age, or the time since its Date when longer),
	// within 1 minute and 24 hours; 24 hours without either.
	// The default is empty; only http and https URLs are allowed. Global
	// placeholders ({env.*}, {system.*}, {time.*}, {file.*}), in the host
	// too, are replaced when the configuration loads; one of the request
	// ({http.*}) is an error. Not with "file" or "inline".
	URL string `json:"url,omitempty"`

	// How long a bot may still obey the version of robots.txt it
	// fetched, after the file changes. RFC 9309 lets a crawler cache
	// robots.txt for up to 24 hours, so a request that the current
	// version disallows is passed and logged with verdict "grace" (never
	// blocked or counted as a violation) when this bot, from this client
	// address, was seen fetching an earlier version within the window and
	// that version allows the request. A bot never seen fetching
	// robots.txt gets no grace. The default (unset) is 24h; 0 turns grace
	// off; otherwise it is 1s (a shorter grace is off in effect) to 168h,
	// a week.
	Grace *caddy.Duration `json:"grace,omitempty"`

	// The number of entries in the least-recently-used cache of
	// User-Agent classifications. The default is 10000; the allowed
	// values are 1 to 1000000.
	Cache int `json:"cache,omitempty"`

	// The number of parsed robots.txt files kept when the file is named
	// per request (a root with {host} in it, or placeholders in file):
	// a host whose file is not kept has it read and parsed again at its
	// next request. Hosts whose file does not exist are kept apart and
	// take none of these places. Each place holds about ten times the
	// file's size (at most 500 KiB is read). The default is 256; the
	// allowed values are 1 to 100000.
	FileCache int `json:"file_cache,omitempty"`

	// Makes problems with robots.txt configuration errors, so that
	// "caddy validate" fails on them: a file that does not exist, a file
	// with error-severity findings (a rule that can match no URL, say),
	// and an included file that cannot be read or an included list with
	// such findings. Without it (the default), such a file is loaded as it is and
	// its findings are logged at WARN. It applies to the file known when
	// the configuration loads (file, inline, or url when the upstream
	// answers); a file named per request cannot be checked then (a
	// warning at load says so), and its findings are logged when it is
	// first read.
	Strict bool `json:"strict,omitempty"`

	// Whether the Crawl-delay of the group a bot obeys is held as a rate
	// (one request per delay, a burst of 3, per crawler across all its
	// addresses; per address for bots judged by the * group): "enforce"
	// answers a faster request 429 with Retry-After, "monitor" logs it as
	// a crawl-delay violation and lets it through, "off" ignores
	// Crawl-delay. The default follows "mode". Delays under 0.1 s are
	// read as 0.1 s and over 60 s as 60 s.
	CrawlDelay string `json:"crawl_delay,omitempty"`

	// A path that robots.txt disallows for every group (the served
	// robots.txt gets a Disallow line for it in each group that lacks
	// one, and the load is logged), so that no client that obeys
	// robots.txt requests it, and that no page links to visibly. A client
	// that requests it anyway, whatever its User-Agent, gets a plain 404
	// and its address is remembered for "trap_ttl": its requests are then
	// a bot named "trapped", held to the * group ("trap_action" hold) or
	// refused everywhere but /robots.txt ("block"). A verified crawler
	// that requests it is logged as that crawler's violation instead. The
	// default is no trap; the path must start with "/", may not be "/"
	// or "/robots.txt", and is written as a server reads it: unescaped,
	// with no "." or ".." segments or repeated slashes.
	Trap string `json:"trap,omitempty"`

	// What happens to a trapped address: "hold" (the default) or
	// "block".
	TrapAction string `json:"trap_action,omitempty"`

	// How long a trapped address is remembered. The default is 24h; 1s to
	// 8760h (a year) is allowed.
	TrapTTL caddy.Duration `json:"trap_ttl,omitempty"`

	// robots.txt lists served and enforced after the site's own rules,
	// such as a community list of AI crawlers: file paths, or http(s)
	// URLs fetched as "url" is (redirects, size cap, the last good copy
	// kept, refreshed after max-age or Expires). The site's own file
	// wins: an included group adds only agents that neither the site's
	// file nor an earlier list names. The served /robots.txt is the
	// merged text, each list under a comment naming it. A file path may
	// hold global placeholders ({env.*}), resolved when the
	// configuration loads. The default is none.
	Include []string `json:"include,omitempty"`

	// Whether every response carries a Content-Usage header with the
	// usage preferences the * group states for the requested path
	// (Content-Signal and Content-Usage lines of robots.txt), so that a
	// crawler that never read robots.txt still sees them: "on" (the
	// default) or "off".
	ContentUsageHeader string `json:"content_usage_header,omitempty"`

	// Whether the usage preferences of robots.txt are enforced on
	// crawlers of the knowledge base: "enforce" refuses a crawler of
	// category ai-training where its group (or, stating none, the *
	// group) says ai-train=no or train-ai=n, and an ai-user or ai-search
	// fetcher where it says ai-input=no; "monitor" logs such requests as
	// content-signal violations; "off" (the default) only passes the
	// preferences on.
	Signals string `json:"signals,omitempty"`

	// Whether what the handler learns about bots (their robots.txt
	// fetches, trapped addresses, Crawl-delay usage) is kept in Caddy's
	// storage, where other instances sharing that storage, and this one
	// after a restart, read it: "on" (the default) or "off".
	Share string `json:"share,omitempty"`

	// How often the shared state is written and read, as a duration
	// such as "5s". The default is 5s; 100ms to 1h is allowed. It
	// may not be set with share "off", where nothing is shared.
	ShareInterval caddy.Duration `json:"share_interval,omitempty"`

	// Keeps the handler's metrics out of Caddy's metrics registry (the
	// admin API's /metrics); the admin stats still count. The default is
	// false.
	DisableMetrics bool `json:"disable_metrics,omitempty"`

	// What happens to a client whose User-Agent claims a known crawler
	// that publishes how to verify it (IP ranges, reverse DNS, HTTP
	// message signatures) when the request fails the check or cannot be
	// confirmed in time: "judge" (the default) judges it as an unnamed
	// bot, by the * group, and logs and counts it as an impostor, never
	// as the crawler; "block" refuses it on every path but /robots.txt
	// (in monitor mode, logs that it would); "trust" judges it by the
	// claimed crawler's group, as if it had passed, and still logs the
	// outcome.
	Impostors string `json:"impostors,omitempty"`

	// Additions to, and corrections of, the built-in crawler knowledge
	// base: how to verify a crawler and its category. An entry whose
	// token names a known crawler changes the fields it sets; any other
	// is a new crawler. The default is none. Each token may be given
	// once, without regard to case, and each entry must set ranges, rdns,
	// signature_agents or category.
	Crawlers []Crawler `json:"crawlers,omitempty"`

	// DNS servers ("host:port", or an IP address for port 53) that
	// reverse-DNS checks ask. The default is the system's resolver.
	Resolvers []string `json:"resolvers,omitempty"`
}

// Allowed values of Config.Impostors.
const (
	ImpostorsJudge = "judge"
	ImpostorsBlock = "block"
	ImpostorsTrust = "trust"
)

// Crawler adds a crawler to the knowledge base, or changes how a known
// one is verified or categorised.
type Crawler struct {
	// The crawler's robots.txt product token, such as "Googlebot", or
	// the name of a new crawler. Required.
	Token string `json:"token"`
	// Where its addresses are: CIDRs or single addresses, files of
	// them (one per line), or https URLs of published lists (Google's
	// JSON format or plain text), refreshed daily. The default is the
	// built-in entry's.
	Ranges []string `json:"ranges,omitempty"`
	// Hostname suffixes its addresses reverse-resolve to, confirmed
	// forward ("googlebot.com"). The default is the built-in entry's.
	RDNS []string `json:"rdns,omitempty"`
	// Web Bot Auth signature agents (https origins) that sign its
	// requests. The default is the built-in entry's.
	SignatureAgents []string `json:"signature_agents,omitempty"`
	// Its category, one of search, ai-training, ai-search, ai-user,
	// seo, archive, social-preview, monitor, scanner or other. The
	// default is the built-in entry's, or "other" for a new crawler.
	Category string `json:"category,omitempty"`
}

// CrawlerTokens are the tokens of the operator's crawler entries, in order.
func (c Config) CrawlerTokens() []string {
	tokens := make([]string, len(c.Crawlers))
	for i, cr := range c.Crawlers {
		tokens[i] = cr.Token
	}
	return tokens
}

// Entries are the operator's crawler entries as the knowledge base takes
// them: crawlers.Builtin().With(c.Entries()...) is the base the handler
// uses.
func (c Config) Entries() []crawlers.Crawler {
	entries := make([]crawlers.Crawler, len(c.Crawlers))
	for i, cr := range c.Crawlers {
		entries[i] = crawlers.Crawler{
			Name: cr.Token, Ranges: cr.Ranges, RDNS: cr.RDNS,
			SignatureAgents: cr.SignatureAgents, Category: crawlers.Category(cr.Category),
		}
	}
	return entries
}

// SetDefaults fills in the defaults of Mode, Status, Reload (unless
// DisableReload is set, or the source is Inline or URL, which Validate
// refuses a Reload for), Cache and FileCache. It leaves File unset, for the handler
// resolves its default, and Serve unset, which means true.
func (c *Config) SetDefaults() {
	if c.Mode == "" {
		c.Mode = ModeEnforce
	}
	if c.Status == 0 {
		c.Status = DefaultStatus
	}
	if src, _ := c.noReload(); c.Reload == 0 && !c.DisableReload && src == "" {
		// A file's, or the included files' beside inline text or
		// an upstream's.
		c.Reload = DefaultReload
	}
	if c.Cache == 0 {
		c.Cache = DefaultCache
	}
	if c.FileCache == 0 {
		c.FileCache = DefaultFileCache
	}
}

// ServeEnabled reports whether the handler answers requests for
// /robots.txt: true unless Serve is set to false.
func (c Config) ServeEnabled() bool {
	return c.Serve == nil || *c.Serve
}

// Monitor reports whether the handler only records disallowed requests
// instead of refusing them.
func (c Config) Monitor() bool {
	return c.Mode == ModeMonitor
}

// Validate reports every problem in c, each naming its JSON field and
// what is allowed, joined with errors.Join. Zero values mean the
// defaults and are valid. Validate does not look at the file system.
func (c Config) Validate() error {
	var errs []error
	add := func(err error) {
		if err != nil {
			errs = append(errs, err)
		}
	}
	if c.File != "" && c.Inline != "" {
		add(errFileAndInline)
	}
	if strings.Contains(c.File, "*") {
		add(fmt.Errorf("file: %q has a \"*\" in it; a file name has no wildcards", c.File))
	}
	if err := checkFilePlaceholders(c.File); err != nil {
		add(fmt.Errorf("file: %w", err))
	}
	if c.Trap != "" && !c.ServeEnabled() {
		add(fmt.Errorf("trap needs serve: %w", errTrapNotServed))
	}
	if c.URL != "" {
		if c.File != "" || c.Inline != "" {
			add(errURLAndSource)
		}
		if err := checkURLAsWritten(c.URL, upstreamWhat); err != nil {
			add(fmt.Errorf("url: %w", err))
		}
	}
	// No crawler comes back within a second: such a grace is off in
	// effect, most likely a number of seconds read as nanoseconds.
	if c.Grace != nil && *c.Grace != 0 && outOfRange("grace", *c.Grace) {
		add(fmt.Errorf("grace: %s is not allowed; use 0 (off) or %s, such as \"24h\" (a JSON number counts nanoseconds)", time.Duration(*c.Grace), durationRange("grace")))
	}
	add(checkMode(c.Mode))
	if c.Status != 0 {
		add(checkStatus(c.Status))
	}
	if c.Reload != 0 && outOfRange("reload", c.Reload) {
		add(fmt.Errorf("reload: %s is not allowed; use %s, such as \"5s\" (0 means the default, %s), or disable_reload to read the file once",
			time.Duration(c.Reload), durationRange("reload"), span(DefaultReload)))
	}
	if c.Reload != 0 && c.DisableReload {
		add(errReloadAndDisable)
	}
	if src, why := c.noReload(); src != "" {
		if c.Reload != 0 {
			add(fmt.Errorf("reload has no effect with %s: %s; drop reload", src, why))
		}
		if c.DisableReload {
			add(fmt.Errorf("disable_reload has no effect with %s: %s; drop disable_reload", src, why))
		}
	}
	if c.Cache != 0 {
		add(checkCache(c.Cache))
	}
	if c.FileCache != 0 {
		add(checkFileCache(c.FileCache))
	}
	add(checkAgentLists(c.Bots, c.Humans))
	add(checkImpostors(c.Impostors))
	add(checkCrawlDelay(c.CrawlDelay))
	add(checkTrap(c.Trap, c.TrapAction, c.TrapTTL))
	for i, inc := range c.Include {
		if inc == "" {
			add(fmt.Errorf("include[%d]: empty; give a file path or an http(s) URL", i))
		} else if err := checkIncludeAsWritten(inc); err != nil {
			add(fmt.Errorf("include[%d]: %w", i, err))
		}
		if j := slices.IndexFunc(c.Include[:i], func(prev string) bool { return includeKey(prev) == includeKey(inc) }); j >= 0 {
			add(fmt.Errorf("include[%d]: %q is given more than once (first in include[%d]%s); give each list once", i, inc, j, sameListAs(inc, c.Include[j])))
		}
	}
	add(checkOneOf("content_usage_header", c.ContentUsageHeader, "on", "off"))
	add(checkOneOf("share", c.Share, "on", "off"))
	if c.ShareInterval != 0 && outOfRange("share_interval", c.ShareInterval) {
		add(fmt.Errorf("share_interval: %s is not allowed; use %s, such as \"5s\"", time.Duration(c.ShareInterval), durationRange("share_interval")))
	}
	if c.Share == "off" && c.ShareInterval != 0 {
		add(errors.New("share_interval has no effect with share \"off\": nothing is shared; drop share_interval, or set share to \"on\""))
	}
	add(checkOneOf("signals", c.Signals, ModeEnforce, ModeMonitor, CrawlDelayOff))
	for i, cr := range c.Crawlers {
		named := fmt.Sprintf("crawlers[%d]", i)
		if cr.Token != "" {
			named += " (" + cr.Token + ")"
		}
		add(cr.check(fmt.Sprintf("crawlers[%d]", i), named))
		if cr.setsNothing() {
			add(fmt.Errorf("%s: no way to verify it; give ranges, rdns or signature_agents, or its category", named))
		}
		for j, prev := range c.Crawlers[:i] {
			if strings.EqualFold(prev.Token, cr.Token) {
				add(fmt.Errorf("crawlers[%d]: token %q is given more than once (first in crawlers[%d]); tokens match without regard to case, so give one entry per crawler", i, cr.Token, j))
				break
			}
		}
		add(checkSharedAgent(c.Crawlers, i))
	}
	for i, r := range c.Resolvers {
		if _, err := ResolverAddr(r); err != nil {
			add(fmt.Errorf("resolvers[%d]: %v", i, err))
			continue
		}
		if j := slices.IndexFunc(c.Resolvers[:i], func(prev string) bool { return resolverKey(prev) == resolverKey(r) }); j >= 0 {
			add(fmt.Errorf("resolvers[%d]: %q is the same server as resolvers[%d] (%q); give each once", i, r, j, c.Resolvers[j]))
		}
	}
	return errors.Join(errs...)
}

// GraceWindow returns how long earlier versions stay in force: Grace, or
// DefaultGrace when Grace is unset.
func (c Config) GraceWindow() time.Duration {
	if c.Grace == nil {
		return time.Duration(DefaultGrace)
	}
	return time.Duration(*c.Grace)
}

// noReload names the source, inline or url, when it is no file to check
// for changes, and says why; it returns "" for a file.
func (c Config) noReload() (source, why string) {
	for _, inc := range c.Include {
		if !IsIncludeURL(inc) {
			return "", "" // reload is how often the included files are checked
		}
	}
	switch {
	case c.Inline != "":
		return "inline", "the text is in the configuration, not in a file to check for changes"
	case c.URL != "":
		return "url", "the upstream's copy is refreshed as its Cache-Control max-age or Expires says, not by reload"
	}
	return "", ""
}

// checkURL checks a URL value: absolute, http or https, with a host. Its
// error names no field: the caller does (url, include).
func checkURL(raw string) error {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return fmt.Errorf("%q is not allowed; give an absolute http or https URL such as \"http://app:8080/robots.txt\"", raw)
	}
	return nil
}

var (
	errURLAndSource = errors.New("url is set together with file or inline; " +
		"use one source of robots.txt: file, inline or url")
	errFileAndInline = errors.New("file and inline are both set; " +
		"use file for a robots.txt on disk or inline for its text, not both")
	errReloadAndDisable = errors.New("reload and disable_reload are both set; " +
		"use reload to change how often the file is checked, or disable_reload to turn checking off")
	// The handler adds the trap's Disallow line to the robots.txt it
	// serves; a backend's robots.txt does not have it.
	errTrapNotServed = errors.New("the trap's Disallow line is added to the robots.txt this handler serves; " +
		"with serve off clients read your backend's robots.txt, which does not disallow the trap, " +
		"so a person or crawler that follows a link to it would be trapped for obeying the file; drop serve off or the trap")
	// Both lists match without regard to case, and humans win.
	errBotAndHuman = errors.New("a client that matches humans is never a bot, " +
		"so the bots entry has no effect: keep it in one list")
)

// bodyPlaceholderPrefix starts the names of the handler's placeholders.
const bodyPlaceholderPrefix = "http." + judge.LogObject + "."

// CheckBodyPlaceholders refuses a body naming a placeholder of the
// handler that does not exist ("{http.robots_txt.bott}"), which Caddy
// would send as written.
func CheckBodyPlaceholders(body string) error {
	for rest := body; ; {
		i := strings.Index(rest, "{"+bodyPlaceholderPrefix)
		if i < 0 {
			return nil
		}
		rest = rest[i+1:]
		end := strings.IndexByte(rest, '}')
		if end < 0 {
			return nil
		}
		name := rest[len(bodyPlaceholderPrefix):end]
		if !slices.Contains(judge.PlaceholderNames, name) {
			return fmt.Errorf("body: {%s%s} is not a placeholder of robots_txt and would be sent as written; use one of %s",
				bodyPlaceholderPrefix, name, strings.Join(judge.PlaceholderNames, ", "))
		}
		rest = rest[end:]
	}
}

// checkMode checks a Mode value; empty means the default.
func checkMode(mode string) error {
	switch mode {
	case "", ModeEnforce, ModeMonitor:
		return nil
	}
	return fmt.Errorf("mode: %q is not allowed; use %q or %q", mode, ModeEnforce, ModeMonitor)
}

// checkStatus checks a non-default Status value.
func checkStatus(status int) error {
	if status < MinStatus || status > MaxStatus {
		return fmt.Errorf("status: %d is not allowed; use a code from %d to %d", status, MinStatus, MaxStatus)
	}
	if field, ok := statusNeeds[status]; ok {
		return fmt.Errorf("status: %d is not allowed: it needs the %s header field (RFC 9110), which a refusal does not carry; use 403 (the default), 404, 410 or 451", status, field)
	}
	return nil
}

// statusNeeds are the codes whose answer must carry a header field that
// says what to do next, which a refusal by robots.txt has none to give.
var statusNeeds = map[int]string{
	401: "WWW-Authenticate",
	405: "Allow",
	407: "Proxy-Authenticate",
	416: "Content-Range",
	426: "Upgrade",
}

// checkFileCache checks a non-default FileCache value.
func checkFileCache(n int) error {
	if n < MinFileCache || n > MaxFileCache {
		return fmt.Errorf("file_cache: %d is not allowed; use a number of files from %d to %d", n, MinFileCache, MaxFileCache)
	}
	return nil
}

// checkCache checks a non-default Cache value.
func checkCache(n int) error {
	if n < MinCache || n > MaxCache {
		return fmt.Errorf("cache: %d is not allowed; use a number of entries from %d to %d", n, MinCache, MaxCache)
	}
	return nil
}

// checkAgentLists checks the entries of bots and humans, and that none
// is in both.
func checkAgentLists(bots, humans []string) error {
	errs := []error{checkList("bots", bots), checkList("humans", humans)}
	for i, b := range bots {
		if j := slices.IndexFunc(humans, func(h string) bool { return strings.EqualFold(h, b) }); j >= 0 {
			errs = append(errs, fmt.Errorf("bots[%d] and humans[%d]: %q is in both; %s", i, j, b, errBotAndHuman))
		}
	}
	return errors.Join(errs...)
}

// checkList checks that no entry of a Bots or Humans list is blank,
// depends on the request, or is given twice: the lists match without
// regard to case, so a second "mozilla" adds nothing but a second
// warning about it.
func checkList(field string, list []string) error {
	for i, s := range list {
		if err := checkBlank(field, i, s); err != nil {
			return err
		}
		if err := checkUserAgentAsWritten(s); err != nil {
			return fmt.Errorf("%s[%d]: %w", field, i, err)
		}
		if j := slices.IndexFunc(list[:i], func(prev string) bool { return strings.EqualFold(prev, s) }); j >= 0 {
			return fmt.Errorf("%s[%d]: %q is given more than once (first in %s[%d]%s); %s", field, i, s, field, j, sameListAs(s, list[j]), errListTwice)
		}
	}
	return nil
}

// checkBlank refuses a blank bots or humans entry, which every
// User-Agent header contains.
func checkBlank(field string, i int, s string) error {
	if strings.TrimSpace(s) == "" {
		return fmt.Errorf("%s[%d]: %q is not allowed; give a non-blank User-Agent substring", field, i, s)
	}
	return nil
}

// errListTwice ends the errors about a bots or humans entry given twice.
var errListTwice = errors.New("entries match without regard to case, so give each once")

// CheckFile checks a robots.txt path on the file system. A path that
// contains a placeholder ("{") is not checked, and a path that does not
// exist is fine (the site then allows all bots). Otherwise the path must
// name a regular file (not a directory) that can be opened for reading.
// The error names the path and the operating system's reason.
func CheckFile(path string) error {
	if path == "" || strings.Contains(path, "{") {
		return nil
	}
	info, err := os.Stat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("file %q cannot be opened for reading: %v; check the path and its permissions", path, reason(err))
	}
	if info.IsDir() {
		return fmt.Errorf("file %q is a directory; give the path of a robots.txt file", path)
	}
	if !info.Mode().IsRegular() {
		// Opening a named pipe or device could block or never end.
		return fmt.Errorf("file %q is %s, not a regular file; give the path of a robots.txt file", path, FileKind(info.Mode()))
	}
	f, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("file %q cannot be opened for reading: %v; check the path and its permissions", path, reason(err))
	}
	return f.Close()
}

// FileKind names the type of a file that is neither regular nor a
// directory ("a named pipe"), as the errors about a robots.txt path say
// it, at load and at reload alike.
func FileKind(m fs.FileMode) string {
	switch {
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeDevice != 0:
		return "a device"
	default:
		return "a special file"
	}
}

// reason strips the operation and path from a *fs.PathError, leaving
// the operating system's reason, since the caller names the path.
func reason(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// Values of Config.CrawlDelay besides the modes.
const CrawlDelayOff = "off"

// CrawlDelayPolicy returns CrawlDelay, or its default: the mode.
func (c Config) CrawlDelayPolicy() string {
	if c.CrawlDelay == "" {
		if c.Mode == "" {
			return ModeEnforce
		}
		return c.Mode
	}
	return c.CrawlDelay
}

func checkCrawlDelay(v string) error {
	switch v {
	case "", ModeEnforce, ModeMonitor, CrawlDelayOff:
		return nil
	}
	return fmt.Errorf("crawl_delay: %q is not allowed; use %q, %q or %q (the default follows mode)", v, ModeEnforce, ModeMonitor, CrawlDelayOff)
}

// DefaultShareInterval is how often shared state is written and read.
const DefaultShareInterval = caddy.Duration(5 * time.Second)

// MaxShareInterval is the longest share_interval. What one instance learns
// (a trapped address, a crawler's pace, a fetch of robots.txt) reaches the
// others at its next write: an interval of hours is sharing off in effect,
// which share off says out loud; and an instance promises to rewrite its
// blob at least every share.Refresh, which only an interval no longer keeps.
const MaxShareInterval = caddy.Duration(share.Refresh)

// ShareIntervalOrDefault is ShareInterval, or its default.
func (c Config) ShareIntervalOrDefault() time.Duration {
	if c.ShareInterval <= 0 {
		return time.Duration(DefaultShareInterval)
	}
	return time.Duration(c.ShareInterval)
}

// checkOneOf checks that a field is empty (its default) or one of allowed.
func checkOneOf(field, v string, allowed ...string) error {
	if v == "" || slices.Contains(allowed, v) {
		return nil
	}
	return fmt.Errorf("%s: %q is not allowed; use %s", field, v, strings.Join(allowed, ", "))
}

// Values of Config.TrapAction, and the default of TrapTTL.
const (
	TrapHold       = "hold"
	TrapBlock      = "block"
	DefaultTrapTTL = caddy.Duration(24 * time.Hour)
)

// TrapActionOrDefault is TrapAction, or its default, hold.
func (c Config) TrapActionOrDefault() string {
	if c.TrapAction == "" {
		return TrapHold
	}
	return c.TrapAction
}

// TrapTTLOrDefault is TrapTTL, or its default.
func (c Config) TrapTTLOrDefault() time.Duration {
	if c.TrapTTL == 0 {
		return time.Duration(DefaultTrapTTL)
	}
	return time.Duration(c.TrapTTL)
}

func checkTrap(trap, action string, ttl caddy.Duration) error {
	if trap == "" {
		if action != "" || ttl != 0 {
			return errors.New("trap_action and trap_ttl need trap: give the trap's path, such as \"/.well-known/robots-trap/\"")
		}
		return nil
	}
	if err := noPlaceholder("trap", trap); err != nil {
		return err
	}
	if i := strings.IndexFunc(trap, func(r rune) bool { return r < 0x20 || r == 0x7f }); i >= 0 {
		// A newline would put lines of its own into the robots.txt
		// served (audit AO-F4: "/t/\nDisallow:/" told Googlebot to
		// leave the whole site), and no request's path holds one.
		return fmt.Errorf("trap: %q holds a control character (%U); give a path of its own, such as \"/.well-known/robots-trap/\"", trap, trap[i])
	}
	if !strings.HasPrefix(trap, "/") || trap == "/" || trap == "/robots.txt" || strings.ContainsAny(trap, "*$?# ") {
		return fmt.Errorf("trap: %q is not allowed; give a path of its own that starts with \"/\", such as \"/.well-known/robots-trap/\" (not / or /robots.txt, no wildcards)", trap)
	}
	// The handler reads the trap unescaped (it encodes it as requests'
	// paths are), while the served Disallow line reads an escape as the
	// character: the two would name different paths.
	if strings.Contains(trap, "%") {
		return fmt.Errorf("trap: %q has a \"%%\" in it; write the path unescaped (\"/piège/\", not \"/pi%%C3%%A8ge/\"): the handler encodes it", trap)
	}
	// Requests are matched on the path as a server reads it, but the
	// served Disallow line is the trap as written: "/./" would trap
	// every page (it is "/"), "//robots.txt" nothing (it is /robots.txt,
	// always served), and a crawler that obeys "Disallow: /a/./b/" still
	// fetches /a/b/.
	if clean := judge.CleanPath(trap); clean != trap {
		return fmt.Errorf("trap: %q is read by a server as %q; write it as a server reads it, a path of its own such as \"/.well-known/robots-trap/\" (not / or /robots.txt)", trap, clean)
	}
	switch action {
	case "", TrapHold, TrapBlock:
	default:
		return fmt.Errorf("trap_action: %q is not allowed; use %q (the default) or %q", action, TrapHold, TrapBlock)
	}
	if ttl != 0 && outOfRange("trap_ttl", ttl) {
		return fmt.Errorf("trap_ttl: %s is not allowed; use %s, such as \"24h\" (the default): %s", time.Duration(ttl), durationRange("trap_ttl"), trapTTLWhy(ttl))
	}
	return nil
}

// trapTTLWhy says why a trap_ttl out of its bounds is refused.
func trapTTLWhy(ttl caddy.Duration) string {
	if ttl < MinTrapTTL {
		return "an address held for less is let go before its next request"
	}
	return "an address is held a year at the most"
}

// ImpostorPolicy returns Impostors, or its default.
func (c Config) ImpostorPolicy() string {
	if c.Impostors == "" {
		return ImpostorsJudge
	}
	return c.Impostors
}

func checkImpostors(v string) error {
	switch v {
	case "", ImpostorsJudge, ImpostorsBlock, ImpostorsTrust:
		return nil
	}
	return fmt.Errorf("impostors: %q is not allowed; use %q (the default), %q or %q", v, ImpostorsJudge, ImpostorsBlock, ImpostorsTrust)
}

// check reports the first problem of a crawler entry, prefixed with where
// for its token and with named, which names it by its token too ("crawlers[0]
// (FooBot)" in JSON, "crawler FooBot" in the Caddyfile), for the rest.
func (cr Crawler) check(where, named string) error {
	if err := noPlaceholder("token", cr.Token); err != nil {
		return fmt.Errorf("%s: %v", where, err)
	}
	if !isToken(cr.Token) {
		return fmt.Errorf("%s: token %q is not allowed; give a robots.txt product token (letters, digits, \"-\", \"_\", \".\")", where, cr.Token)
	}
	for _, r := range cr.Ranges {
		if err := checkRange(r); err != nil {
			return fmt.Errorf("%s: ranges: %v", named, err)
		}
	}
	for _, s := range cr.RDNS {
		if err := noPlaceholder("rdns", s); err != nil {
			return fmt.Errorf("%s: %v", named, err)
		}
		if err := crawlers.CheckSuffix(s); err != nil {
			return fmt.Errorf("%s: rdns: %v: give a lowercase hostname suffix of two labels or more, the domain its crawlers' names end in", named, err)
		}
	}
	for _, a := range cr.SignatureAgents {
		if err := noPlaceholder("signature_agent", a); err != nil {
			return fmt.Errorf("%s: %v", named, err)
		}
		if _, err := webbotauth.AgentOrigin(a); err != nil {
			return fmt.Errorf("%s: signature_agent: %q is not allowed (%v); give an https origin such as \"https://chatgpt.com\", with no path but the key directory's", named, a, err)
		}
	}
	for _, l := range []struct {
		field string
		vals  []string
		key   func(string) string
	}{
		{"ranges", cr.Ranges, rangeKey},
		{"rdns", cr.RDNS, strings.ToLower},
		{"signature_agent", cr.SignatureAgents, func(v string) string {
			o, _ := webbotauth.AgentOrigin(v)
			return o
		}},
	} {
		seen := make(map[string]string, len(l.vals)) // key -> the entry as first written
		for _, v := range l.vals {
			k := l.key(v)
			if first, ok := seen[k]; ok {
				return fmt.Errorf("%s: %s: %q is given more than once%s; give each once", named, l.field, v, sameListAs(v, first))
			}
			seen[k] = v
		}
	}
	if cr.Category != "" && !crawlers.Category(cr.Category).Valid() {
		var names []string
		for _, c := range crawlers.Categories() {
			names = append(names, string(c))
		}
		return fmt.Errorf("%s: category: %q is not allowed; use one of %s", named, cr.Category, strings.Join(names, ", "))
	}
	return nil
}

// errSharedAgent ends the errors about a signature agent that two
// crawlers name: one of the two would silently take every such request.
var errSharedAgent = errors.New("a signed request names the directory, not the crawler, so give each directory to one crawler")

// sharedAgent returns a signature agent of crs[i] whose directory an
// earlier entry, crs[j], names too, or ok false.
func sharedAgent(crs []Crawler, i int) (agent string, j int, ok bool) {
	for _, a := range crs[i].SignatureAgents {
		origin, err := webbotauth.AgentOrigin(a)
		if err != nil {
			continue // reported by check
		}
		for j, prev := range crs[:i] {
			for _, b := range prev.SignatureAgents {
				if o, err := webbotauth.AgentOrigin(b); err == nil && o == origin {
					return a, j, true
				}
			}
		}
	}
	return "", 0, false
}

// checkSharedAgent refuses a signature agent of crawlers[i] that an
// earlier entry names too (see sharedAgent).
func checkSharedAgent(crs []Crawler, i int) error {
	if a, j, ok := sharedAgent(crs, i); ok {
		return fmt.Errorf("crawlers[%d] (%s): signature_agent %q is also crawlers[%d]'s (%s); %s", i, crs[i].Token, a, j, crs[j].Token, errSharedAgent)
	}
	return nil
}

// setsNothing reports whether a crawler entry has only its token: it
// changes nothing of a known crawler, and makes a new one no more than a
// bots entry, a name with no way to verify it. A category alone is
// something: it decides what signals does with the crawler.
func (cr Crawler) setsNothing() bool {
	return len(cr.Ranges) == 0 && len(cr.RDNS) == 0 && len(cr.SignatureAgents) == 0 && cr.Category == ""
}

// checkRange checks a ranges entry: a CIDR or address, an https URL, or
// a file path.
func checkRange(r string) error {
	if err := noPlaceholder("", r); err != nil {
		return err
	}
	if !isRangeFile(r) {
		if u, _ := url.Parse(r); u != nil && u.Scheme != "" && (u.Scheme != "https" || u.Host == "") {
			return fmt.Errorf("%q is not allowed; a list's URL must be https", r)
		}
		return nil
	}
	if r == "" {
		return errors.New("an empty entry is not allowed; give a CIDR (\"66.249.64.0/19\"), a file of them, or an https URL")
	}
	if verify.LooksLikeAddress(r) {
		return fmt.Errorf("%q is not a valid address or CIDR; give one such as \"66.249.64.0/19\" or \"2001:db8::/32\"", r)
	}
	return nil
}

// noPlaceholder refuses a value of field (named in the error unless "")
// that holds a placeholder where none is replaced: a crawler's token, its
// ranges, rdns and signature agents, the trap and the resolvers are read
// as written, so "{env.RD}" would be refused for its braces with a reason
// that says nothing of them, or name a file called so.
func noPlaceholder(field, v string) error {
	if !strings.Contains(v, "{") {
		return nil
	}
	if field != "" {
		field += ": "
	}
	return fmt.Errorf("%s%q has a placeholder, which is not replaced here; write the value itself, or in a Caddyfile {$VAR}, which Caddy replaces as it reads the file", field, v)
}

// isRangeFile reports whether a ranges entry names a file: it is no
// address, CIDR or URL.
func isRangeFile(r string) bool {
	if _, err := netip.ParsePrefix(r); err == nil {
		return false
	}
	if _, err := netip.ParseAddr(r); err == nil {
		return false
	}
	u, err := url.Parse(r)
	return err != nil || u.Scheme == ""
}

// rangeKey is what tells two ranges entries apart: an address or CIDR by
// the prefix it matches (masked, an IPv4-mapped one as IPv4, as the range
// set reads them: "2001:DB8::/32" is "2001:db8::/32", "203.0.113.5" is
// "203.0.113.5/32"), a URL by its scheme and host in lower case, a file
// by its cleaned absolute path, as it is opened from Caddy's working
// directory.
func rangeKey(r string) string {
	if p, err := netip.ParsePrefix(r); err == nil {
		return unmapPrefix(p.Masked()).String()
	}
	if a, err := netip.ParseAddr(r); err == nil {
		return unmapPrefix(netip.PrefixFrom(a, a.BitLen())).String()
	}
	if u, err := url.Parse(r); err == nil && u.Scheme != "" {
		u.Scheme, u.Host = strings.ToLower(u.Scheme), strings.ToLower(u.Host)
		return u.String()
	}
	return includeKey(r)
}

// unmapPrefix is p with an IPv4-mapped address as IPv4: a client's
// address is unmapped before it is matched, so "::ffff:192.0.2.0/120" and
// "192.0.2.0/24" take in the same clients.
func unmapPrefix(p netip.Prefix) netip.Prefix {
	if p.Addr().Is4In6() && p.Bits() >= 96 {
		return netip.PrefixFrom(p.Addr().Unmap(), p.Bits()-96)
	}
	return p
}

// CheckRangeFile checks a crawler's ranges entry that names a file (not an
// address, a CIDR or a URL): it must exist and be readable now. A missing
// file would leave the crawler with no addresses to verify it by.
func CheckRangeFile(r string) error {
	if !isRangeFile(r) {
		return nil
	}
	const want = `give a CIDR ("66.249.64.0/19"), an address, a file of them that exists, or an https URL`
	// Opened without blocking, and only a regular file: a named pipe
	// would hold the load up for ever, a directory or a device is no
	// list of addresses.
	f, err := os.OpenFile(r, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return fmt.Errorf("%v; %s", err, want)
	}
	defer f.Close()
	info, err := f.Stat()
	switch {
	case err != nil:
		return fmt.Errorf("%v; %s", err, want)
	case info.IsDir():
		return fmt.Errorf("file %q is a directory; %s", r, want)
	case !info.Mode().IsRegular():
		return fmt.Errorf("file %q is %s, not a regular file; %s", r, FileKind(info.Mode()), want)
	}
	// A file that holds no address leaves the crawler none, so that
	// its own requests are impostors' (audit AO-F5): read it now, as
	// the handler will, up to the same size.
	body, err := io.ReadAll(io.LimitReader(f, verify.DefaultMaxSize+1))
	switch {
	case err != nil:
		return fmt.Errorf("file %q cannot be read: %v; %s", r, err, want)
	case len(body) > verify.DefaultMaxSize:
		return fmt.Errorf("file %q is larger than %d bytes, the most a list of addresses is read to", r, verify.DefaultMaxSize)
	}
	if _, err := verify.ParseRanges(body); err != nil {
		return fmt.Errorf("file %q holds no list of addresses: %v; give one CIDR or address a line (\"#\" starts a comment), or a JSON list of prefixes", r, err)
	}
	return nil
}

func isToken(s string) bool {
	if s == "" || len(s) > 100 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '.') {
			return false
		}
	}
	return true
}

// resolverKey tells two resolvers entries apart as the servers they
// name: "::1" and "[::1]:53" are one, and so are "DNS.example:53" and
// "dns.example:053". It is "" for an entry ResolverAddr refuses.
func resolverKey(s string) string {
	addr, err := ResolverAddr(s)
	if err != nil {
		return ""
	}
	host, port, _ := net.SplitHostPort(addr)
	n, _ := strconv.Atoi(port)
	if a, err := netip.ParseAddr(host); err == nil {
		return netip.AddrPortFrom(a, uint16(n)).String()
	}
	return net.JoinHostPort(strings.ToLower(host), strconv.Itoa(n))
}

// ResolverAddr returns a resolvers entry as "host:port" (port 53 when
// the entry is a bare address), or an error saying what is allowed.
func ResolverAddr(s string) (string, error) {
	if err := noPlaceholder("", s); err != nil {
		return "", err
	}
	if a, err := netip.ParseAddr(s); err == nil {
		return netip.AddrPortFrom(a, 53).String(), nil
	}
	host, port, err := net.SplitHostPort(s)
	if err != nil || host == "" || port == "" {
		return "", fmt.Errorf("%q is not allowed; give a DNS server as host:port or an IP address", s)
	}
	if n, err := strconv.Atoi(port); err != nil || n < 1 || n > 65535 {
		return "", fmt.Errorf("%q is not allowed; the port must be 1 to 65535", s)
	}
	return s, nil
}
