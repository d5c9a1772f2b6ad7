package caddymodule

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/caddyserver/caddy/v2"
	"github.com/caddyserver/caddy/v2/modules/caddyhttp"
	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
	"go.uber.org/zap/zaptest/observer"

	"github.com/robotsguard/caddy-robots-txt/caddymodule/verify"
	"github.com/robotsguard/caddy-robots-txt/config"
)

// noGrace turns grace off, for tests of reloading itself.
var noGrace = new(caddy.Duration(0))

// offlineVerify keeps crawler verification in unit tests off the network:
// published IP lists are never fetched (their client fails every
// request) and reverse DNS asks a port where nothing listens.
var offlineVerify = &verify.Options{
	Ranges: verify.RangeOptions{Client: &http.Client{Transport: failingTransport{}}},
	RDNS:   verify.RDNSOptions{Servers: []string{"127.0.0.1:1"}, Wait: 50 * time.Millisecond},
}

type failingTransport struct{}

func (failingTransport) RoundTrip(*http.Request) (*http.Response, error) {
	return nil, errors.New("tests fetch no published list")
}

// newTestHandler provisions a handler on cfg and returns it with an
// observer of its log. Crawler verification stays offline, and, unless
// cfg says otherwise, trusts claims: these tests are about judging, and
// their clients claim crawlers from addresses that are not the
// crawlers'. Tests of verification set impostors themselves.
func newTestHandler(t testing.TB, cfg config.Config) (*Handler, *observer.ObservedLogs) {
	t.Helper()
	if cfg.Impostors == "" {
		cfg.Impostors = config.ImpostorsTrust
	}
	return provisionTestHandler(t, &Handler{Config: cfg, verifyOptions: offlineVerify})
}

// provisionTestHandler provisions h with an observed log.
func provisionTestHandler(t testing.TB, h *Handler) (*Handler, *observer.ObservedLogs) {
	t.Helper()
	ctx, cancel := caddy.NewContext(caddy.Context{Context: context.Background()})
	core, logs := observer.New(zapcore.DebugLevel)
	h.logger = zap.New(core)
	if err := h.Provision(ctx); err != nil {
		t.Fatalf("provision: %v", err)
	}
	if err := h.Validate(); err != nil {
		t.Fatalf("validate: %v", err)
	}
	t.Cleanup(func() {
		_ = h.Cleanup()
		cancel()
	})
	return h, logs
}

// writeRobots writes a robots.txt into a new directory and returns its path.
func writeRobots(t testing.TB, body string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "robots.txt")
	if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// newRequest builds a request the way Caddy's server hands it to handlers:
// with a replacer, extra log fields and vars in its context.
func newRequest(method, target, ua string) *http.Request {
	r := httptest.NewRequest(method, target, nil)
	if ua != "" {
		r.Header.Set("User-Agent", ua)
	}
	repl := caddy.NewReplacer()
	ctx := context.WithValue(r.Context(), caddy.ReplacerCtxKey, repl)
	ctx = context.WithValue(ctx, caddyhttp.ExtraLogFieldsCtxKey, new(caddyhttp.ExtraLogFields))
	ctx = context.WithValue(ctx, caddyhttp.VarsCtxKey, map[string]any{caddyhttp.ClientIPVarKey: "192.0.2.7"})
	return r.WithContext(ctx)
}

// nextOK is the next handler: it answers 200 "next".
var nextOK = caddyhttp.HandlerFunc(func(w http.ResponseWriter, r *http.Request) error {
	w.WriteHeader(http.StatusOK)
	_, err := w.Write([]byte("next"))
	return err
})

// serve runs one request and returns the response and the handler error.
func serve(h *Handler, r *http.Request) (*httptest.ResponseRecorder, error) {
	w := httptest.NewRecorder()
	err := h.ServeHTTP(w, r, nextOK)
	return w, err
}

func caddyhttpVarsKey() any { return caddyhttp.VarsCtxKey }

func newContext() (caddy.Context, context.CancelFunc) {
	return caddy.NewContext(caddy.Context{Context: context.Background()})
}

// setClientIP sets the client IP Caddy would have resolved.
func setClientIP(r *http.Request, ip string) {
	r.Context().Value(caddyhttp.VarsCtxKey).(map[string]any)[caddyhttp.ClientIPVarKey] = ip
}

func withIP(r *http.Request, ip string) *http.Request {
	setClientIP(r, ip)
	return r
}

func configWithInline(text string) config.Config { return config.Config{Inline: text} }
