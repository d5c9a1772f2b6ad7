package caddymodule

import (
	"errors"
	"sync"
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/robotsguard/caddy-robots-txt/caddymodule/judge"
	"github.com/robotsguard/caddy-robots-txt/caddymodule/verify"
)

// numOutcomes sizes the per-identity counters: unverified, verified,
// impostor, trapped.
const numOutcomes = 4

// The collectors are process-wide, so counts survive config reloads; each
// config's registry gets them registered (Caddy serves that registry at the
// admin endpoint's /metrics).
var (
	metricsOnce      sync.Once
	requestsTotal    *prometheus.CounterVec
	fetchesTotal     *prometheus.CounterVec
	reloadsTotal     *prometheus.CounterVec
	groupsInForce    *prometheus.GaugeVec
	rulesInForce     *prometheus.GaugeVec
	botCategory      *prometheus.GaugeVec
	lastLoad         *prometheus.GaugeVec
	metricCollectors []prometheus.Collector
)

// reloadResults are the values of reloads_total's result label.
var reloadResults = []string{"loaded", "removed", "unreachable", "failed"}

func initMetrics() {
	metricsOnce.Do(func() {
		const ns, sub = "caddy", "robots_txt"
		requestsTotal = prometheus.NewCounterVec(prometheus.CounterOpts{
			Namespace: ns, Subsystem: sub, Name: "requests_total",
			Help: "Bot requests judged against robots.txt, by bot (robots.txt agent name, known crawler, bots entry, impostor:<crawler>, trapped, or generic), identity (verified, unverified, impostor, trapped), verdict and action.",
		}, []string{"server", "bot", "identity", "verdict", "action"})
		fetchesTotal = prometheus.NewCounterVec(prometheus.CounterOpts{
			Namespace: ns, Subsystem: sub, Name: "fetches_total",
			Help: "Requests for /robots.txt by bots, by server (site) and bot.",
		}, []string{"server", "bot"})
		reloadsTotal = prometheus.NewCounterVec(prometheus.CounterOpts{
			Namespace: ns, Subsystem: sub, Name: "reloads_total",
			Help: "Loads of robots.txt after the first, by result: loaded, removed (allow all), unreachable (4xx upstream: allow all), failed (previous rules kept; a file counted once per failure, not at each check).",
		}, []string{"result"})
		groupsInForce = prometheus.NewGaugeVec(prometheus.GaugeOpts{
			Namespace: ns, Subsystem: sub, Name: "groups",
			Help: "Groups of the robots.txt in force, by source.",
		}, []string{"source"})
		rulesInForce = prometheus.NewGaugeVec(prometheus.GaugeOpts{
			Namespace: ns, Subsystem: sub, Name: "rules",
			Help: "Allow and disallow rules of the robots.txt in force, by source.",
		}, []string{"source"})
		botCategory = prometheus.NewGaugeVec(prometheus.GaugeOpts{
			Namespace: ns, Subsystem: sub, Name: "bot_category",
			Help: "1 for each bot label that names a known crawler (or its impostors), with the crawler's category from the knowledge base.",
		}, []string{"bot", "category"})
		lastLoad = prometheus.NewGaugeVec(prometheus.GaugeOpts{
			Namespace: ns, Subsystem: sub, Name: "last_load_timestamp_seconds",
			Help: "When robots.txt was last loaded successfully, by source, in seconds since the epoch.",
		}, []string{"source"})
		// Every result exists from the start, at 0: a series that
		// appears at 1 gives increase() nothing to compare, so an alert
		// on the first failed reload would never fire.
		for _, result := range reloadResults {
			reloadsTotal.WithLabelValues(result)
		}
		metricCollectors = []prometheus.Collector{requestsTotal, fetchesTotal, reloadsTotal, groupsInForce, rulesInForce, botCategory, lastLoad}
	})
}

// registerMetrics adds the collectors to a config's registry.
func registerMetrics(reg *prometheus.Registry) error {
	initMetrics()
	if reg == nil {
		return nil
	}
	for _, c := range metricCollectors {
		if err := reg.Register(c); err != nil {
			var are prometheus.AlreadyRegisteredError
			if !errors.As(err, &are) {
				return err
			}
		}
	}
	return nil
}

// botCounters are one bot label's live counts: the Prometheus series,
// resolved once, and the numbers the admin API reports. There is one per
// label for the life of the process, found through the identity cache, so
// counting a request costs a few atomic adds and no lookups.
type botCounters struct {
	server   string // the Caddy server (site) the bot came to
	name     string
	export   bool                   // to Prometheus; false with disable_metrics
	category atomic.Pointer[string] // the knowledge base's, once known
	series   [numOutcomes][judge.NumVerdicts][judge.NumActions]atomic.Pointer[prometheus.Counter]
	fetchCtr prometheus.Counter

	requests   atomic.Uint64
	verdicts   [judge.NumVerdicts]atomic.Uint64
	actions    [judge.NumActions]atomic.Uint64
	firstSeen  atomic.Int64 // unix nanoseconds
	lastSeen   atomic.Int64
	lastFetch  atomic.Int64
	fetchCount atomic.Uint64
}

// maxFileLabels bounds, per server, the bot labels made of robots.txt
// agent names (see countersFor).
const maxFileLabels = 1000

// OtherAgents is the label of the bots a robots.txt names past
// maxFileLabels.
const OtherAgents = "other"

var (
	countersMu sync.Mutex
	counters   = map[counterKey]*botCounters{}
	fileLabels = map[counterKey]int{} // per server and export, names only files gave
	startTime  = time.Now()
)

// countersFor returns the counters of a bot label, creating them. Those
// of a handler with disable_metrics (export false) touch no Prometheus
// series: the collectors are process-wide, and another handler's
// registering them must not export this one's counts.
//
// fromFile marks a name that only a robots.txt gives (an agent name the
// knowledge base, the classifier and the operator do not know): a file
// from an upstream or a tenant's root names whom it likes, a new set with
// each version, and a label lives as long as the process. Past
// maxFileLabels of them on a server, a new one is counted as OtherAgents
// (its log lines still name it); names the handler knows by itself keep
// their own label whatever a file named before.
func countersFor(server, name string, export, fromFile bool) *botCounters {
	key := counterKey{server, name, export}
	countersMu.Lock()
	defer countersMu.Unlock()
	c := counters[key]
	if c == nil && fromFile {
		scope := counterKey{server: server, export: export}
		if fileLabels[scope] >= maxFileLabels {
			key.name = OtherAgents
			c = counters[key]
		} else {
			fileLabels[scope]++
		}
	}
	if c == nil {
		initMetrics()
		c = &botCounters{server: server, name: key.name, export: export}
		if export {
			c.fetchCtr = fetchesTotal.WithLabelValues(server, key.name)
		}
		counters[key] = c
	}
	return c
}

// countersFor is countersFor for a bot that came to h.
func (h *Handler) countersFor(name string) *botCounters {
	return countersFor(h.serverName(), name, !h.DisableMetrics, false)
}

// counterKey is one bot label on one server (site), counted by handlers
// that export metrics or by those that do not: all are bounded, the
// servers by the configuration and the names by robots.txt and the
// knowledge base.
type counterKey struct {
	server, name string
	export       bool
}

func (c *botCounters) categoryName() string {
	if p := c.category.Load(); p != nil {
		return *p
	}
	return ""
}

// setCategory records the bot's category, once.
func (c *botCounters) setCategory(category string) {
	// OtherAgents stands for many names, of whatever categories.
	if category == "" || c.name == OtherAgents || c.category.Load() != nil {
		return
	}
	if c.category.CompareAndSwap(nil, &category) && c.export {
		botCategory.WithLabelValues(c.name, category).Set(1)
	}
}

func (c *botCounters) seen(now int64) {
	c.firstSeen.CompareAndSwap(0, now)
	c.lastSeen.Store(now)
}

// request counts one judged request.
func (c *botCounters) request(identity verify.Outcome, verdict judge.Verdict, action judge.Action, now int64) {
	c.requests.Add(1)
	c.verdicts[verdict].Add(1)
	c.actions[action].Add(1)
	c.seen(now)
	if !c.export {
		return
	}
	slot := &c.series[identity%numOutcomes][verdict][action]
	ctr := slot.Load()
	if ctr == nil {
		v := requestsTotal.WithLabelValues(c.server, c.name, identity.String(), verdict.String(), action.String())
		slot.Store(&v)
		ctr = &v
	}
	(*ctr).Inc()
}

// fetched records when the bot last got the rules: a request for
// /robots.txt that fetch counted and whose answer gave them whole (see
// Handler.served), by the rule of the access log's fetched field.
func (c *botCounters) fetched(now int64) { c.lastFetch.Store(now) }

// fetch counts one request for /robots.txt.
func (c *botCounters) fetch(now int64) {
	c.fetchCount.Add(1)
	c.actions[judge.Served].Add(1)
	c.seen(now)
	if c.export {
		c.fetchCtr.Inc()
	}
}
