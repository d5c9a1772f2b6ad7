package caddymodule

import (
	"strings"
	"testing"
	"time"

	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
	"go.uber.org/zap/zaptest/observer"

	"github.com/robotsguard/caddy-robots-txt/config"
)

// TestRefusedLoadLogsNothing: a configuration refused for this handler
// logs nothing it would have put in force. Strict refuses an upstream that
// answers with an HTML page; its fetch failed, and before the fix the log
// said at ERROR that every bot is allowed, and (mode monitor) that the
// handler lets violations through, for a load that never ran.
func TestRefusedLoadLogsNothing(t *testing.T) {
	_, srv := statusUpstream(t, func() string { return "<html><body>Welcome</body></html>" })
	for _, tc := range []struct {
		name    string
		cfg     config.Config
		refused bool
		want    []string // snippets of messages logged, in order
	}{
		{"strict refuses", config.Config{URL: srv.URL, Strict: true, Mode: config.ModeMonitor}, true, nil},
		{"not strict, logged", config.Config{URL: srv.URL, Mode: config.ModeMonitor},
			false, []string{"lets these violations through", "every bot is allowed until it can be"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			core, logs := observer.New(zapcore.InfoLevel)
			h := &Handler{Config: tc.cfg, verifyOptions: offlineVerify, logger: zap.New(core)}
			ctx, cancel := newContext()
			defer cancel()
			start := time.Now()
			err := h.Provision(ctx)
			if err == nil {
				defer h.Cleanup()
			}
			if (err != nil) != tc.refused {
				t.Fatalf("Provision: %v, want refused %v", err, tc.refused)
			}
			var got []string
			for _, e := range logs.All() {
				got = append(got, e.Message)
				if e.Time.Before(start) || e.Time.After(time.Now()) {
					t.Errorf("entry %q stamped %v, outside the load", e.Message, e.Time)
				}
			}
			if len(got) < len(tc.want) || tc.want == nil && len(got) > 0 {
				t.Fatalf("logged %q, want entries with %q in order", got, tc.want)
			}
			i := 0
			for _, m := range got {
				if i < len(tc.want) && strings.Contains(m, tc.want[i]) {
					i++
				}
			}
			if i < len(tc.want) {
				t.Errorf("logged %q, want entries with %q in order", got, tc.want)
			}
		})
	}
}

// TestHeldLogAfterRelease: once released, a held logger and those derived
// from it (the sources keep one) write at once, with their fields, and
// below the core's level write nothing.
func TestHeldLogAfterRelease(t *testing.T) {
	core, logs := observer.New(zapcore.InfoLevel)
	l := zap.New(core).Named("robots")
	held := holdLogs(&l)
	child := l.With(zap.String("file", "a"))
	child.Info("one")
	child.Debug("below the level")
	if n := logs.Len(); n != 0 {
		t.Fatalf("%d entries written while held, want 0", n)
	}
	held.release(true)
	child.Warn("two")
	l.Info("three")
	all := logs.All()
	if len(all) != 3 || all[0].Message != "one" || all[1].Message != "two" || all[2].Message != "three" {
		t.Fatalf("entries %v, want one, two, three", all)
	}
	if all[0].ContextMap()["file"] != "a" || all[1].ContextMap()["file"] != "a" || all[0].LoggerName != "robots" {
		t.Errorf("entries %v lost their logger's name or fields", all)
	}
	held2 := holdLogs(&l)
	l.Error("dropped")
	held2.release(false)
	if n := logs.FilterMessage("dropped").Len(); n != 0 {
		t.Errorf("an entry of a refused load was written")
	}
}
