package caddymodule

import (
	"slices"
	"sync"
	"sync/atomic"

	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
)

// What a handler logs while it is provisioned describes a configuration
// about to run: "every bot is allowed until the upstream answers", "mode
// monitor lets these violations through". When its Provision then fails
// (strict refuses the upstream's answer, a list has errors), nothing of
// that is ever in force, and an operator grepping for ERROR after a
// refused reload must not read that every bot is allowed. So the entries
// are held until Provision returns, then written as they came (with the
// time each was made) or, when it failed, dropped: the error Caddy reports
// says why. The sources made meanwhile keep the logger; it writes straight
// through once released.

// heldLog holds the entries of one Provision.
type heldLog struct {
	holding atomic.Bool
	mu      sync.Mutex
	entries []heldEntry
}

type heldEntry struct {
	core   zapcore.Core
	ent    zapcore.Entry
	fields []zapcore.Field
}

// holdLogs makes l hold its entries (and those of every logger derived
// from it) until release.
func holdLogs(l **zap.Logger) *heldLog {
	h := new(heldLog)
	h.holding.Store(true)
	*l = (*l).WithOptions(zap.WrapCore(func(c zapcore.Core) zapcore.Core {
		return &holdCore{Core: c, held: h}
	}))
	return h
}

// release writes the held entries in order when write is set, and drops
// them otherwise; entries made after it are written at once.
func (h *heldLog) release(write bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.holding.Store(false)
	if write {
		for _, e := range h.entries {
			writeEntry(e.core, e.ent, e.fields)
		}
	}
	h.entries = nil
}

// writeEntry writes through core as a logger would: its Check decides
// (level, sampling) which cores write.
func writeEntry(core zapcore.Core, ent zapcore.Entry, fields []zapcore.Field) {
	if ce := core.Check(ent, nil); ce != nil {
		ce.Write(fields...)
	}
}

// holdCore is a core that holds its entries while its heldLog does.
type holdCore struct {
	zapcore.Core
	held *heldLog
}

func (c *holdCore) With(fields []zapcore.Field) zapcore.Core {
	return &holdCore{Core: c.Core.With(fields), held: c.held}
}

func (c *holdCore) Check(ent zapcore.Entry, ce *zapcore.CheckedEntry) *zapcore.CheckedEntry {
	if !c.held.holding.Load() {
		return c.Core.Check(ent, ce)
	}
	if c.Enabled(ent.Level) {
		return ce.AddCore(ent, c)
	}
	return ce
}

func (c *holdCore) Write(ent zapcore.Entry, fields []zapcore.Field) error {
	c.held.mu.Lock()
	defer c.held.mu.Unlock()
	if !c.held.holding.Load() {
		// Released between Check and Write.
		writeEntry(c.Core, ent, fields)
		return nil
	}
	c.held.entries = append(c.held.entries, heldEntry{core: c.Core, ent: ent, fields: slices.Clone(fields)})
	return nil
}

// Interface guards
var _ zapcore.Core = (*holdCore)(nil)
