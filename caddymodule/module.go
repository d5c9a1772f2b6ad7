// Package caddymodule is the robots_txt HTTP handler for Caddy: it serves a
// site's own robots.txt and holds bots to it. In enforce mode a bot that
// requests a path its robots.txt group disallows gets a refusal (403 by
// default); in monitor mode the request passes and is recorded as a
// violation. Browsers are never held to robots.txt.
package caddymodule

import (
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"time"

	"github.com/caddyserver/caddy/v2"
	"github.com/caddyserver/caddy/v2/modules/caddyevents"
	"github.com/caddyserver/caddy/v2/modules/caddyhttp"
	"github.com/caddyserver/certmagic"
	lru "github.com/hashicorp/golang-lru/v2"
	"go.uber.org/zap"
	"go.uber.org/zap/exp/zapslog"

	"github.com/robotsguard/caddy-robots-txt/caddymodule/botdetect"
	"github.com/robotsguard/caddy-robots-txt/caddymodule/include"
	"github.com/robotsguard/caddy-robots-txt/caddymodule/judge"
	"github.com/robotsguard/caddy-robots-txt/caddymodule/verify"
	"github.com/robotsguard/caddy-robots-txt/caddymodule/webbotauth"
	"github.com/robotsguard/caddy-robots-txt/config"
)

func init() {
	caddy.RegisterModule(Handler{})
}

// Handler serves a site's own robots.txt and holds bots to it. Every
// request whose User-Agent identifies a bot (the file names it, it names
// a known crawler, or it looks automated) is judged against the group of
// robots.txt that bot must obey, on the URL the client sent: in enforce
// mode a disallowed request is refused (403, or status/body), in monitor
// mode it passes and is logged as a violation. People's browsers are
// never held to robots.txt. /robots.txt itself is served from the loaded
// file (never refused), and each bot's fetch of it is remembered, so a
// bot that read an earlier version within the grace window is not
// blamed for a change it has not seen yet.
//
// The Caddyfile syntax is on config.Config.UnmarshalCaddyfile and in the
// README.
//
// Placeholders, set for bot requests (and bot fetches of /robots.txt):
//
//	{http.robots_txt.bot}          the bot's name: the file's agent name, a
//	                               known crawler, a bots entry, or "generic"
//	{http.robots_txt.group}        the agent names of the group it obeys
//	{http.robots_txt.verdict}      allowed, disallowed or grace
//	{http.robots_txt.rule}         the deciding rule ("disallow: /private/")
//	{http.robots_txt.line}         its line in robots.txt (0: none)
//	{http.robots_txt.mode}         enforce or monitor
//	{http.robots_txt.action}       passed, blocked, logged or served
//	{http.robots_txt.fetched}      whether this bot, from this address, was
//	                               seen fetching robots.txt
//	{http.robots_txt.fetched_ago}  seconds since that fetch
//
// The access log entry of such a request carries the same values as a
// "robots_txt" object: bot, group, verdict, rule and line (when a rule
// decided), mode, action, and fetched and fetched_ago (for judged
// requests). Violations are also logged on their own, at WARN (monitor)
// or INFO (refused), with the request's method, host, uri, client_ip and
// user_agent.
type Handler struct {
	config.Config

	logger     *zap.Logger
	classifier *botdetect.Classifier
	ownTokens  []string // the tokens of the operator's crawler entries
	idents     *lru.Cache[string, identity]
	tracker    *fetchTracker
	trackerKey string

	sourcePoolKey string          // h.fixed's key in the sources pool
	sourceSet     *sourceSettings // what this configuration handed h.fixed

	checker    *checker
	checkerKey string

	ctx    caddy.Context
	events *caddyevents.App // nil without a configuration's events app

	// server is the name of the Caddy server (site) the handler serves,
	// learnt from its first request: the metrics' server label.
	server *atomic.Pointer[string]

	// trapPath is Trap spelt as requests' paths are compared with it
	// (judge.ServedPath: "/piège/" is "/pi%C3%A8ge/").
	trapPath string
	// reach, with a trap, is whether the routes let it work (see
	// trapreach.go).
	reach *trapReach
	// sigOptions and verifyOptions, when set (by tests), replace the
	// defaults of Web Bot Auth directory fetches and of IP-list fetches
	// and reverse DNS, so that tests reach no server but their own.
	sigOptions    *webbotauth.Options
	verifyOptions *verify.Options
	// storage, when set (by tests), is the storage state is shared
	// through, which a context made outside a configuration lacks.
	storage certmagic.Storage

	// Exactly one of these is set after Provision: a fixed source (a path
	// without request placeholders, inline text, or an upstream URL), or
	// a resolver of the request's path to one of a bounded set of sources.
	fixed   *source
	dynamic *dynamicSources

	// stop ends the dynamic sources' watcher; Caddy's context also ends
	// when the config is unloaded, but Cleanup makes it explicit.
	stop context.CancelFunc
}

// CaddyModule returns the Caddy module information.
func (Handler) CaddyModule() caddy.ModuleInfo {
	return caddy.ModuleInfo{
		ID:  "http.handlers.robots_txt",
		New: func() caddy.Module { return new(Handler) },
	}
}

// Provision sets defaults, loads robots.txt and starts watching it.
func (h *Handler) Provision(ctx caddy.Context) error {
	if h.logger == nil { // tests observe the log from the first load on
		h.logger = ctx.Logger()
	}
	// A configuration refused for this handler logs nothing it would
	// have put in force (see heldlog.go).
	held := holdLogs(&h.logger)
	err := h.provision(ctx)
	held.release(err == nil)
	return err
}

func (h *Handler) provision(ctx caddy.Context) error {
	defaultReload := h.Reload == 0 && !h.DisableReload
	fileCacheSet := h.FileCache != 0
	h.SetDefaults()
	if err := h.Config.Validate(); err != nil {
		return err
	}
	// As written, for the warning about an empty placeholder.
	asWritten := map[string][]string{"file": {h.File}, "url": {h.URL}, "include": slices.Clone(h.Include)}
	// An included list is read as named, with {env.*} replaced, the same
	// for every request (config.ResolveIncludes, as check reads it).
	resolved, err := config.ResolveIncludes(h.Include)
	if err != nil {
		return err
	}
	h.Include = resolved
	if defaultReload {
		// Whether the default applies depends on which lists are
		// files, known now: "{env.LIST}" may be a URL.
		h.Reload = 0
		h.SetDefaults()
	}
	// The upstream's URL too: a placeholder sent as written would fetch
	// a 404, and a 404 allows every bot.
	if h.URL != "" {
		if h.URL, err = config.ResolveURL(h.URL); err != nil {
			return err
		}
	}
	h.warnEmptyPlaceholders(asWritten)
	// bots and humans too: no header holds "{env.MONITOR_UA}", so the
	// monitor meant would be refused as a bot.
	if h.Bots, h.Humans, err = config.ResolveUserAgents(h.Bots, h.Humans); err != nil {
		return err
	}
	h.ctx, h.events = ctx, eventsOf(ctx)
	h.classifier = botdetect.New(h.Bots, h.Humans)
	h.ownTokens = h.CrawlerTokens()
	h.watchRoutes(ctx)
	if h.Trap != "" {
		h.trapPath = judge.ServedPath(h.Trap)
		if trapPrefixesNames(h.Trap) {
			h.configLog().Warn("the trap is every path that starts with it, as robots.txt reads its Disallow line: pages whose names start so are the trap too (trap /t is /terms and /team/), people who follow links to them are trapped, and crawlers that obey robots.txt skip them; end the trap with / to make it a directory of its own",
				zap.String("trap", h.Trap))
		}
	}
	h.server = new(atomic.Pointer[string])
	idents, err := lru.New[string, identity](h.Cache)
	if err != nil {
		return fmt.Errorf("cache: %v", err)
	}
	h.idents = idents
	if h.DisableMetrics {
		initMetrics() // counted for the admin stats, exported nowhere
	} else if err := registerMetrics(ctx.GetMetricsRegistry()); err != nil {
		return fmt.Errorf("metrics: %v", err)
	}
	if err := h.loadChecker(ctx); err != nil {
		return fmt.Errorf("crawler verification: %v", err)
	}
	if err := config.CheckBodyPlaceholders(h.Body); err != nil {
		return err
	}
	h.logNotRefused()
	h.warnNoRefusal()
	h.warnBroadHumans()
	if h.ImpostorPolicy() == config.ImpostorsTrust {
		h.configLog().Warn("impostors trust: a client that fails its claim to be a crawler is judged by that crawler's group; anyone can claim the rules a site gives Googlebot")
	}
	if g := h.GraceWindow(); g > 24*time.Hour {
		h.configLog().Warn("grace is longer than the 24 hours RFC 9309 lets a crawler keep robots.txt: requests a crawler may no longer make from its old copy are still excused",
			zap.Duration("grace", g))
	}
	h.warnBroadRanges()
	h.warnBroadRDNS()
	// Fetches are remembered per source, across config reloads.
	shareOpts := h.shareOptions(ctx)
	if h.tracker, h.trackerKey, err = loadTracker(h.sourceKey(), shareOpts); err != nil {
		return fmt.Errorf("fetch tracking: %v", err)
	}
	h.tracker.setTrapTTL(h.TrapTTLOrDefault())
	set := &sourceSettings{logger: h.logger, grace: h.GraceWindow(), includes: h.Include, state: h.versionsKey()}
	if shareOpts.store != nil {
		set.share = versionShare{store: shareOpts.store, site: h.versionsKey()}
	}
	if !h.DisableReload {
		set.reload = time.Duration(h.Reload)
	}

	// first says this load made its source afresh, with nothing read
	// before: strict refuses an upstream's "no robots.txt" only then.
	first := true
	switch {
	case h.URL != "":
		// Looked for before the pool is: a source being made holds its
		// entry until it is.
		before, seen := liveUpstreamCopy(h.URL)
		src, loaded, err := h.shareSource(set, func() (*source, error) {
			s := newUpstreamSource(h.URL, set)
			if seen {
				s.adopt(before)
			}
			return s, nil
		})
		if err != nil {
			return err
		}
		first = !loaded && !seen
		// Every configuration load fetches the file again, as a crawler
		// would; a slow upstream does not hold up the load.
		if !src.refetch(h.startWait()) {
			// A reload keeps the copy fetched before; only a first
			// load has none.
			inForce := "the copy fetched before"
			if cur := src.cur.Load(); cur == nil || cur.unknown {
				inForce = "none yet: " + withoutFile(len(set.includes) > 0)
			}
			h.logger.Warn("robots.txt is still being fetched from the upstream; the rules in force stay until it arrives ("+inForce+")",
				zap.String("url", redactURL(h.URL)))
		}
	case h.Inline != "":
		src, loaded, err := h.shareSource(set, func() (*source, error) { return newInlineSource(h.Inline, set), nil })
		if err != nil {
			return err
		}
		if !loaded {
			src.mu.Lock()
			src.noteLoad()
			src.mu.Unlock()
		}
	case h.File == "":
		h.dynamic = newDynamicSources("", h.FileCache, set)
	default:
		// Global placeholders ({env.*}, ...) can be resolved now; request
		// placeholders ({http.*}) only per request.
		path := caddy.NewReplacer().ReplaceKnown(h.File, "")
		if path == "" {
			return fmt.Errorf("file %q is an empty path once its placeholders are replaced (%s); give the path of robots.txt", h.File, config.EmptyCause(h.File))
		}
		if strings.Contains(path, "{") {
			h.dynamic = newDynamicSources(h.File, h.FileCache, set)
			break
		}
		if err := config.CheckFile(path); err != nil {
			return err
		}
		src, loaded, err := h.shareSource(set, func() (*source, error) {
			s, err := openFileSource(path, set)
			if errors.Is(err, fs.ErrNotExist) {
				msg, fields := "robots.txt not found; "+withoutFile(len(set.includes) > 0)+" until it appears", []zap.Field{zap.String("file", path)}
				if abs, aerr := filepath.Abs(path); aerr == nil && !filepath.IsAbs(path) {
					// Under a service manager the working directory
					// is often /: say where the file was looked for.
					msg += " (a relative path, given as the file or as the site's root, is read from Caddy's working directory: give it in full)"
					fields = append(fields, zap.String("looked_for", abs))
				}
				set.logger.Warn(msg, fields...)
				err = nil
			}
			return s, err
		})
		if err != nil {
			return err
		}
		if loaded {
			src.refresh() // it may have changed while no config watched it
		}
	}
	if h.fixed != nil && h.fixed.includesFetched != nil {
		select {
		case <-h.fixed.includesFetched:
		case <-time.After(h.startWait()):
			h.logger.Warn("included robots.txt lists are still being fetched; they apply once they arrive",
				zap.String("file", h.fixed.name()), zap.Strings("lists", h.fixed.includes.pending()))
		}
		h.fixed.assembled()
	}
	if h.Strict && h.fixed != nil {
		if err := strictCheck(h.fixed, first); err != nil {
			return err
		}
		h.warnUncheckedLists(h.fixed.includes)
		if h.fixed.current().unknown {
			// A failing upstream is no configuration error: the
			// site starts and fetches again, but strict did not see
			// the file it promises to check.
			h.configLog().Warn("strict could not check robots.txt: the upstream could not be fetched (see the error logged); it is checked by nothing when it arrives",
				zap.String("url", redactURL(h.URL)))
		}
	}
	if h.Strict && h.dynamic != nil {
		// The included lists are the same for every request: strict
		// checks them now, as it does beside a file known at load.
		if err := config.StrictIncludes(h.Include); err != nil {
			return err
		}
	}
	if h.dynamic != nil {
		watchCtx, stop := context.WithCancel(ctx)
		h.stop = stop
		if set.reload > 0 {
			go h.dynamic.watch(watchCtx)
		}
		if first := h.dynamic.fetchLists(watchCtx); first != nil {
			select {
			case <-first:
			case <-time.After(h.startWait()):
				h.logger.Warn("included robots.txt lists are still being fetched; they apply once they arrive",
					zap.Strings("lists", h.dynamic.set.lists.pending()))
			}
			if h.Strict {
				h.warnUncheckedLists(h.dynamic.set.lists)
				// The URLs among them, once fetched.
				m := include.Merge(include.Source{}, h.dynamic.set.lists.sources()...)
				if errs := h.dynamic.set.lists.strictErrors(m); len(errs) > 0 {
					return fmt.Errorf("strict: included lists have errors: %s", strings.Join(errs, "; "))
				}
			}
		}
		if h.Strict {
			// Nothing is known of the file yet: caddy validate passes
			// whatever it holds, which strict must not let pass for a check.
			h.configLog().Warn("strict cannot check robots.txt when the configuration loads: its path depends on the request " +
				"(the site's root per request, or placeholders in file); its problems are logged when it is first read and fail nothing " +
				"(the included lists are checked). Name the file with file <path>, or give root before robots_txt in the Caddyfile")
		}
	}
	h.warnUnserved()
	if fileCacheSet && h.fixed != nil {
		// As reload with inline is refused: a setting with no effect is
		// a misunderstanding worth a word.
		h.configLog().Warn("file_cache does nothing here: it bounds the files a root or file named per request ({host}) keeps, and this handler has one file",
			zap.Int("file_cache", h.FileCache))
	}
	if h.fixed != nil {
		if snap := h.fixed.current(); snap.File != nil {
			h.warnHumansNamingGroups(snap.File)
			if h.Trap != "" {
				// Warns now, not at the first fetch, if the file
				// allows the trap to some agent.
				h.servedBody(snap)
			}
		}
	}
	return nil
}

// warnEmptyPlaceholders warns of each global placeholder of file, url
// and include, as written, that is empty once replaced: "{env.RDIR}/robots.txt"
// with RDIR not set reads /robots.txt, which is not there, and every bot
// is allowed, with no word of the cause. A path or URL so made is still
// one that can be read, so it is no error, as url refuses only a URL
// that cannot be fetched ("http:///robots.txt"); one that is empty is
// refused where it is read.
func (h *Handler) warnEmptyPlaceholders(asWritten map[string][]string) {
	repl := caddy.NewReplacer()
	for _, field := range []string{"file", "url", "include"} {
		for _, v := range asWritten[field] {
			empty := config.EmptyPlaceholders(v)
			reads := repl.ReplaceKnown(v, "")
			if len(empty) == 0 || reads == "" {
				continue
			}
			if strings.Contains(reads, "://") {
				v, reads = redactWrittenURL(v), redactURL(reads)
			}
			verb := " is"
			if len(empty) > 1 {
				verb = " are"
			}
			h.configLog().Warn(field+": "+strings.Join(empty, ", ")+verb+" empty once replaced, so "+reads+" is read in its place (an environment variable that is not set?)",
				zap.String(field, v), zap.String("reads", reads), zap.Strings("empty", empty))
		}
	}
}

// warnUnserved warns when bots are held to rules the robots.txt they are
// served does not hold: with serve off, the next handler serves
// /robots.txt, and an included list or an inline text is enforced
// without ever reaching a crawler.
func (h *Handler) warnUnserved() {
	if h.ServeEnabled() {
		return
	}
	if len(h.Include) > 0 {
		h.configLog().Warn("serve off with include: the included lists are enforced, but /robots.txt is served by the next handler without them; a crawler that obeys what it reads is refused by rules it never saw. Use serve on, or drop include",
			zap.Strings("include", h.Include))
	}
	if h.Inline != "" {
		h.configLog().Warn("serve off with inline: the inline text is enforced, but /robots.txt is served by the next handler; unless it serves the same text, crawlers are held to rules they never read. Use serve on")
	}
}

// serverName is the name of the handler's Caddy server, "" before its
// first request.
func (h *Handler) serverName() string {
	if p := h.server.Load(); p != nil {
		return *p
	}
	return ""
}

// learnServer notes the name of the server a request came to.
func (h *Handler) learnServer(r *http.Request) {
	if h.server.Load() != nil {
		return
	}
	if srv, ok := r.Context().Value(caddyhttp.ServerCtxKey).(*caddyhttp.Server); ok {
		name := srv.Name()
		h.server.CompareAndSwap(nil, &name)
	}
}

// loadChecker takes the crawler checker of these crawler settings from
// the pool, or builds and starts one.
func (h *Handler) loadChecker(ctx caddy.Context) error {
	h.checkerKey = checkerKey(h.Config)
	sigOpts := webbotauth.Options{}
	// A list that cannot be fetched or read leaves its crawler with no
	// addresses, and a resolver that does not answer confirms no name:
	// every claim an impostor. Say so.
	logger := slog.New(zapslog.NewHandler(h.logger.Core(), zapslog.WithName(h.logger.Name())))
	verifyOpts := verify.Options{
		Ranges: verify.RangeOptions{
			Storage: storageOf(ctx), StorageKey: "robots_txt/crawler_ranges",
			Logger: logger,
		},
		RDNS: verify.RDNSOptions{Logger: logger},
	}
	for _, r := range h.Resolvers {
		addr, _ := config.ResolverAddr(r)
		verifyOpts.RDNS.Servers = append(verifyOpts.RDNS.Servers, addr)
	}
	if h.sigOptions != nil || h.verifyOptions != nil {
		h.checkerKey += fmt.Sprintf("+test%p%p", h.sigOptions, h.verifyOptions)
		if h.sigOptions != nil {
			sigOpts = *h.sigOptions
		}
		if h.verifyOptions != nil {
			verifyOpts = *h.verifyOptions
		}
	}
	v, _, err := checkers.LoadOrNew(h.checkerKey, func() (caddy.Destructor, error) {
		return newChecker(h.Config, verifyOpts, sigOpts)
	})
	if err != nil {
		h.checkerKey = ""
		return err
	}
	h.checker = v.(*checker)
	return nil
}

// configLog is the handler's logger for what it says of its configuration
// at load: each line names the robots.txt the handler enforces, as the
// source's "robots.txt loaded" line does, so that of several handlers (one
// per site) the operator can tell which one a warning is about.
func (h *Handler) configLog() *zap.Logger {
	name := "robots.txt in the site's root"
	switch {
	case h.URL != "":
		name = redactURL(h.URL)
	case h.Inline != "":
		name = "inline"
	case h.File != "":
		name = h.File
	}
	return h.logger.With(zap.String("file", name))
}

// logNotRefused says at load which violations this handler lets through:
// a setting that turns enforcement off must never do so silently, so one
// that lets through what the defaults refuse (mode monitor, crawl_delay
// off or monitor) is a warning. signals monitor alone is not: the default,
// off, refuses nothing.
func (h *Handler) logNotRefused() {
	var off []string
	weaker := false
	if h.Monitor() {
		off = append(off, "disallowed paths (mode monitor)")
		weaker = true
		// What impostors block and trap block refuse everywhere is only
		// logged in monitor mode too: name it, or the operator reads
		// "disallowed paths" and takes these for refused.
		if h.ImpostorPolicy() == config.ImpostorsBlock {
			off = append(off, "impostors (impostors block, mode monitor)")
		}
		if h.Trap != "" && h.TrapActionOrDefault() == config.TrapBlock {
			off = append(off, "trapped clients (trap block, mode monitor)")
		}
	}
	if p := h.CrawlDelayPolicy(); p != config.ModeEnforce {
		off = append(off, "Crawl-delay (crawl_delay "+p+")")
		weaker = true
	}
	if h.Signals == config.ModeMonitor {
		off = append(off, "content signals (signals monitor)")
	}
	if len(off) == 0 {
		return
	}
	l := h.configLog()
	log := l.Info
	if weaker {
		log = l.Warn
	}
	log("robots_txt lets these violations through, logging what it can: "+strings.Join(off, ", "),
		zap.String("mode", cmp.Or(h.Mode, config.ModeEnforce)), zap.String("crawl_delay", h.CrawlDelayPolicy()), zap.String("signals", cmp.Or(h.Signals, config.CrawlDelayOff)))
}

// warnNoRefusal warns when status or body is set but nothing the handler
// does uses it: in monitor mode a disallowed path, an impostor or a
// trapped client is only logged, and only signals enforce refuses (with
// status) and crawl_delay enforce answers 429 (with body).
func (h *Handler) warnNoRefusal() {
	if !h.Monitor() || h.Signals == config.ModeEnforce {
		return
	}
	var unused []string
	if h.Status != 0 && h.Status != config.DefaultStatus { // 0 before the defaults are set
		unused = append(unused, "status")
	}
	if h.Body != "" && h.CrawlDelayPolicy() != config.ModeEnforce {
		unused = append(unused, "body")
	}
	if len(unused) > 0 {
		verb := " has"
		if len(unused) > 1 {
			verb = " have"
		}
		// crawl_delay enforce would use body, never status (its 429
		// is fixed): it is offered only for body alone.
		refuses, use := "refuses nothing here", "mode enforce (or signals enforce)"
		if len(unused) == 1 && unused[0] == "body" {
			use = "mode enforce (or signals enforce, crawl_delay enforce)"
		}
		if h.CrawlDelayPolicy() == config.ModeEnforce {
			// crawl_delay enforce answers 429, whatever status says.
			refuses, use = "refuses only faster requests than Crawl-delay (429)", "mode enforce (or signals enforce)"
		}
		h.configLog().Warn("mode monitor "+refuses+", so "+strings.Join(unused, " and ")+verb+" no effect; use "+use+" for refusals",
			zap.Strings("unused", unused))
	}
}

// shareOptions say how the bots' state is shared: through the
// configuration's storage, under this instance's ID, unless share is off.
func (h *Handler) shareOptions(ctx caddy.Context) shareOptions {
	if h.Share == "off" {
		return shareOptions{}
	}
	st := h.storage
	if st == nil {
		st = storageOf(ctx)
	}
	if st == nil {
		return shareOptions{}
	}
	id, err := caddy.InstanceID()
	if err != nil {
		h.logger.Warn("no instance ID: state is not shared", zap.Error(err))
		return shareOptions{}
	}
	return shareOptions{
		store: sharedStorage{st}, storeID: storageIdentity(st),
		instance: instanceName(id.String()), interval: h.ShareIntervalOrDefault(), logger: h.logger, trapTTL: h.TrapTTLOrDefault(),
	}
}

// instanceName is the name this process shares its state under: Caddy's
// instance ID, which lives in its data directory, and the host's name,
// since the replicas of a cluster often share that directory (and so the
// ID) with the storage. Two processes on one host that share it are told
// apart by the sharer (see share.Callbacks.Renamed).
func instanceName(id string) string {
	host, _ := os.Hostname()
	host = strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '.' {
			return r
		}
		return -1
	}, host)
	if host == "" {
		return id
	}
	return id + "@" + host[:min(len(host), 64)]
}

// storageOf is the configuration's storage, where verified crawler lists
// are kept across restarts; nil for a context without a configuration
// (as in unit tests), where Caddy's accessor would panic.
func storageOf(ctx caddy.Context) (st certmagic.Storage) {
	defer func() {
		if recover() != nil {
			st = nil
		}
	}()
	if s := ctx.Storage(); s != nil {
		return s
	}
	return nil
}

// warnUncheckedLists says which included URLs strict could not check:
// their fetch failed (a 5xx, a timeout), which is no configuration error.
func (h *Handler) warnUncheckedLists(set *includeSet) {
	if names := set.unchecked(); len(names) > 0 {
		h.configLog().Warn("strict could not check included lists: they could not be fetched (see the errors logged); they are checked by nothing when they arrive",
			zap.Strings("lists", names))
	}
}

// strictCheck is the strict option for a source known at load: a missing
// file, one that is no robots.txt or has error-severity findings, an
// included file that cannot be read, an included URL that answers no list
// and an included list with such findings are configuration errors. An
// upstream that has not answered yet is not: nothing is known of its
// file. first says the load made the source afresh, with nothing read
// before, when an upstream's "no robots.txt" is refused (at a reload it
// is what the running configuration has in force already, which a
// refused reload must not change).
func strictCheck(src *source, first bool) error {
	snap := src.current()
	src.mu.Lock()
	notRobots := src.notRobots
	notFile := src.failing && src.failedWith == errNotRobotsTxt.Error()
	// Not snap.File == nil: with included lists, a site without a file
	// has their rules in force.
	noFile := first && src.url != "" && src.lastResult == "unreachable" || src.url == "" && src.path != "" && !src.exists && !src.failing
	src.mu.Unlock()
	if notRobots != nil {
		return fmt.Errorf("strict: robots.txt %s: the upstream answered, but %v", src.name(), notRobots)
	}
	if notFile {
		return fmt.Errorf("strict: robots.txt %s is no robots.txt: it has no field robots.txt knows (an HTML page, a binary?)", src.name())
	}
	if noFile {
		return fmt.Errorf("strict: robots.txt %s does not exist; create it, or drop strict to allow every bot until it appears", src.name())
	}
	var errs []string
	if !snap.unknown && snap.File != nil {
		// An included list's findings come from the list as parsed
		// on its own, below.
		errs = config.StrictErrors(snap.File, func(line int) bool { return !snap.origin.Included(line) })
	}
	if src.includes != nil {
		errs = append(errs, src.includes.strictErrors(snap.origin)...)
	}
	if len(errs) > 0 {
		return fmt.Errorf("strict: robots.txt %s has errors: %s", src.name(), strings.Join(errs, "; "))
	}
	return nil
}

// shareSource sets h.fixed to the source of the previous config that read
// from the same place, handing it set, or to a new one made by open and
// started; loaded tells which.
func (h *Handler) shareSource(set *sourceSettings, open func() (*source, error)) (*source, bool, error) {
	key := h.poolKey()
	v, loaded, err := sources.LoadOrNew(key, func() (caddy.Destructor, error) {
		s, err := open()
		if err != nil {
			return nil, err
		}
		s.start()
		return s, nil
	})
	if err != nil {
		return nil, false, err
	}
	h.sourcePoolKey, h.sourceSet = key, set
	h.fixed = v.(*source)
	if loaded {
		h.fixed.configure(set)
		// A configuration load reads the included files again, as
		// it reads the site's: with reload off, the only time they are.
		h.fixed.refreshIncludes()
	}
	return h.fixed, loaded, nil
}

// sourceKey names where robots.txt comes from, to share state between the
// handlers of successive configs that read the same file.
func (h *Handler) sourceKey() string {
	switch {
	case h.Inline != "":
		sum := sha256.Sum256([]byte(h.Inline))
		return "inline:" + hex.EncodeToString(sum[:8])
	case h.URL != "":
		return "url:" + h.URL
	case h.File != "":
		return "file:" + h.File
	}
	return "root"
}

// versionsKey names the versions of what a source serves, in storage and
// in this process: where robots.txt comes from, and the lists included
// with it. Sources that serve other texts at once (one file with two
// include lists, two inline texts) must not take each other's versions
// for earlier ones: a bot that reads one would get grace against the
// other's rules for as long as it reads it.
func (h *Handler) versionsKey() string {
	if len(h.Include) == 0 {
		return h.sourceKey()
	}
	return h.sourceKey() + "+include:" + strings.Join(h.Include, "\x00")
}

// poolKey is the key of the source pool: where robots.txt comes from,
// the lists included with it, and how often it is checked and how long
// its versions give grace when those are not the defaults. Handlers that
// read one file with different settings ("reload off", "grace 2s" on one
// site) get a source each: a shared one would check the file as often,
// and keep earlier versions as long, as the last of them asked, cutting
// another site's grace short; and a config that a reload then rejects
// would have changed the running one's.
func (h *Handler) poolKey() string {
	key := h.versionsKey()
	switch {
	case h.DisableReload:
		key += "+reload:off"
	case h.Reload != 0 && h.Reload != config.DefaultReload:
		key += "+reload:" + time.Duration(h.Reload).String()
	}
	if g := h.GraceWindow(); g != time.Duration(config.DefaultGrace) {
		key += "+grace:" + g.String()
	}
	return key
}

// Validate checks the configuration.
func (h *Handler) Validate() error {
	return h.Config.Validate()
}

// Cleanup stops watching the robots.txt file.
func (h *Handler) Cleanup() error {
	h.checkRoutesValidated()
	if h.stop != nil {
		h.stop()
	}
	var errs []error
	if h.sourcePoolKey != "" {
		h.fixed.release(h.sourceSet)
		if _, err := sources.Delete(h.sourcePoolKey); err != nil {
			errs = append(errs, err)
		}
	}
	if h.tracker != nil {
		if _, err := trackers.Delete(h.trackerKey); err != nil {
			errs = append(errs, err)
		}
	}
	if h.checkerKey != "" {
		if _, err := checkers.Delete(h.checkerKey); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// Interface guards
var (
	_ caddy.Provisioner           = (*Handler)(nil)
	_ caddy.Validator             = (*Handler)(nil)
	_ caddy.CleanerUpper          = (*Handler)(nil)
	_ caddyhttp.MiddlewareHandler = (*Handler)(nil)
)
