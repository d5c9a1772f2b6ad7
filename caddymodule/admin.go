package caddymodule

import (
	"cmp"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"time"

	"github.com/caddyserver/caddy/v2"

	"github.com/robotsguard/caddy-robots-txt/caddymodule/judge"
)

func init() {
	caddy.RegisterModule(adminAPI{})
}

// adminAPI serves live per-bot counters on Caddy's admin endpoint:
//
//	GET /robots_txt/stats
type adminAPI struct{}

// CaddyModule returns the Caddy module information.
func (adminAPI) CaddyModule() caddy.ModuleInfo {
	return caddy.ModuleInfo{
		ID:  "admin.api.robots_txt",
		New: func() caddy.Module { return new(adminAPI) },
	}
}

// Routes returns the admin routes.
func (adminAPI) Routes() []caddy.AdminRoute {
	return []caddy.AdminRoute{{Pattern: "/robots_txt/stats", Handler: caddy.AdminHandlerFunc(serveStats)}}
}

// statsReport is the JSON of /robots_txt/stats.
type statsReport struct {
	// Since is when counting started: the process start. Counts survive
	// config reloads.
	Since time.Time  `json:"since"`
	Bots  []botStats `json:"bots"`
}

type botStats struct {
	Server     string     `json:"server,omitempty"`
	Bot        string     `json:"bot"`
	Category   string     `json:"category,omitempty"`
	Requests   uint64     `json:"requests"`
	Allowed    uint64     `json:"allowed"`
	Violations uint64     `json:"violations"`
	Grace      uint64     `json:"grace"`
	TooFast    uint64     `json:"too_fast"`
	Blocked    uint64     `json:"blocked"`
	Logged     uint64     `json:"logged"`
	Fetches    uint64     `json:"robots_txt_fetches"`
	FirstSeen  *time.Time `json:"first_seen,omitempty"`
	LastSeen   *time.Time `json:"last_seen,omitempty"`
	LastFetch  *time.Time `json:"last_fetch,omitempty"`
}

// add counts o, the same bot's on the same server, in s.
func (s *botStats) add(o botStats) {
	s.Requests += o.Requests
	s.Allowed += o.Allowed
	s.Violations += o.Violations
	s.Grace += o.Grace
	s.TooFast += o.TooFast
	s.Blocked += o.Blocked
	s.Logged += o.Logged
	s.Fetches += o.Fetches
	if s.Category == "" {
		s.Category = o.Category
	}
	s.FirstSeen = earlier(s.FirstSeen, o.FirstSeen)
	s.LastSeen = later(s.LastSeen, o.LastSeen)
	s.LastFetch = later(s.LastFetch, o.LastFetch)
}

func earlier(a, b *time.Time) *time.Time {
	if a == nil || b != nil && b.Before(*a) {
		return b
	}
	return a
}

func later(a, b *time.Time) *time.Time {
	if a == nil || b != nil && b.After(*a) {
		return b
	}
	return a
}

func unixTime(ns int64) *time.Time {
	if ns == 0 {
		return nil
	}
	t := time.Unix(0, ns).UTC()
	return &t
}

// snapshotStats copies the live counters, most violations first.
func snapshotStats() statsReport {
	countersMu.Lock()
	all := make([]*botCounters, 0, len(counters))
	for _, c := range counters {
		all = append(all, c)
	}
	countersMu.Unlock()
	rep := statsReport{Since: startTime.UTC(), Bots: make([]botStats, 0, len(all))}
	// One entry per server and bot: handlers of one server that differ
	// in disable_metrics keep counters apart, which the stats add up
	// (audit AG-F8: two entries nothing told apart).
	at := make(map[[2]string]int, len(all))
	for _, c := range all {
		if c.requests.Load() == 0 && c.fetchCount.Load() == 0 {
			continue
		}
		st := botStats{
			Server:     c.server,
			Bot:        c.name,
			Category:   c.categoryName(),
			Requests:   c.requests.Load(),
			Allowed:    c.verdicts[judge.Allowed].Load(),
			Violations: c.verdicts[judge.Disallowed].Load(),
			Grace:      c.verdicts[judge.Grace].Load(),
			TooFast:    c.verdicts[judge.TooFast].Load(),
			Blocked:    c.actions[judge.Blocked].Load(),
			Logged:     c.actions[judge.Logged].Load(),
			Fetches:    c.fetchCount.Load(),
			FirstSeen:  unixTime(c.firstSeen.Load()),
			LastSeen:   unixTime(c.lastSeen.Load()),
			LastFetch:  unixTime(c.lastFetch.Load()),
		}
		k := [2]string{c.server, c.name}
		if i, ok := at[k]; ok {
			rep.Bots[i].add(st)
			continue
		}
		at[k] = len(rep.Bots)
		rep.Bots = append(rep.Bots, st)
	}
	slices.SortFunc(rep.Bots, func(a, b botStats) int {
		return cmp.Or(cmp.Compare(b.Violations, a.Violations), cmp.Compare(b.Requests, a.Requests), cmp.Compare(a.Bot, b.Bot), cmp.Compare(a.Server, b.Server))
	})
	return rep
}

func serveStats(w http.ResponseWriter, r *http.Request) error {
	if r.Method != http.MethodGet {
		return caddy.APIError{HTTPStatus: http.StatusMethodNotAllowed, Err: fmt.Errorf("method %s not allowed; use GET", r.Method)}
	}
	w.Header().Set("Content-Type", "application/json")
	return json.NewEncoder(w).Encode(snapshotStats())
}

// Interface guards
var (
	_ caddy.AdminRouter = (*adminAPI)(nil)
)
