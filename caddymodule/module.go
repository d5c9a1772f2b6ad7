// Package caddymodule is the robots_txt HTTP handler for Caddy: it serves a
// site's own robots.txt and holds bots to it. In enforce mode a bot that
// requests a path its robots.txt group disallows gets a refusal (403 by
// default); in monitor mode the request passes and is recorded as a
// violation. Browsers are never held to robots.txt.
package caddymodule

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/caddyserver/caddy/v2"
	"github.com/caddyserver/caddy/v2/modules/caddyhttp"
	lru "github.com/hashicorp/golang-lru/v2"
	"go.uber.org/zap"

	"github.com/robotsguard/caddy-robots-txt/caddymodule/botdetect"
	"github.com/robotsguard/caddy-robots-txt/config"
)

func init() {
	caddy.RegisterModule(Handler{})
}

// Handler serves /robots.txt from the site's robots.txt and, for every
// request from a bot, decides whether robots.txt allows it.
type Handler struct {
	config.Config

	logger     *zap.Logger
	classifier *botdetect.Classifier
	idents     *lru.Cache[string, identity]
	tracker    *fetchTracker
	trackerKey string
	client     *http.Client // fetches URL

	sourcePoolKey string // h.fixed's key in the sources pool

	// Exactly one of these is set after Provision: a fixed source (a path
	// without request placeholders, or inline text), or a resolver of the
	// request's path to one of a bounded set of sources.
	fixed   *source
	dynamic *dynamicSources

	// stop ends the watch goroutine; Caddy's context also ends when the
	// config is unloaded, but Cleanup makes it explicit.
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
	h.SetDefaults()
	if err := h.Config.Validate(); err != nil {
		return err
	}
	h.classifier = botdetect.New(h.Bots, h.Humans)
	idents, err := lru.New[string, identity](h.Cache)
	if err != nil {
		return fmt.Errorf("cache: %v", err)
	}
	h.idents = idents
	if err := registerMetrics(ctx.GetMetricsRegistry()); err != nil {
		return fmt.Errorf("metrics: %v", err)
	}
	// Fetches are remembered per source, across config reloads.
	h.trackerKey = h.sourceKey()
	if h.tracker, err = loadTracker(h.trackerKey); err != nil {
		return fmt.Errorf("fetch tracking: %v", err)
	}
	watchCtx, stop := context.WithCancel(ctx)
	h.stop = stop

	switch {
	case h.URL != "":
		h.client = newUpstreamClient()
		src, _, err := h.shareSource(func() (*source, error) { return &source{url: h.URL}, nil })
		if err != nil {
			return err
		}
		h.fixed = src
		// Fetched at every load; a failure keeps the copy a previous
		// config fetched.
		wait, ok := h.loadUpstream(watchCtx, src, 0)
		go h.pollUpstream(watchCtx, src, wait, ok)
		return nil
	case h.Inline != "":
		src, loaded, err := h.shareSource(func() (*source, error) { return newInlineSource(h.Inline), nil })
		if err != nil {
			return err
		}
		h.fixed = src
		if !loaded {
			h.logLoad(src, src.current())
		}
		return nil
	case h.File == "":
		h.dynamic = newDynamicSources(h, "")
	default:
		// Global placeholders ({env.*}, ...) can be resolved now; request
		// placeholders ({http.*}) only per request.
		path := caddy.NewReplacer().ReplaceKnown(h.File, "")
		if strings.Contains(path, "{") {
			h.dynamic = newDynamicSources(h, h.File)
			break
		}
		if err := config.CheckFile(path); err != nil {
			return err
		}
		src, loaded, err := h.shareSource(func() (*source, error) { return h.openSource(path) })
		if err != nil {
			return err
		}
		if loaded {
			h.refresh(src) // it may have changed while no config watched it
		}
		h.fixed = src
	}
	if !h.DisableReload {
		go h.watch(watchCtx)
	}
	return nil
}

// shareSource returns the source of the previous config that read from the
// same place, or a new one made by open; loaded tells which.
func (h *Handler) shareSource(open func() (*source, error)) (*source, bool, error) {
	key := h.sourceKey()
	v, loaded, err := sources.LoadOrNew(key, func() (caddy.Destructor, error) { return open() })
	if err != nil {
		return nil, false, err
	}
	h.sourcePoolKey = key
	return v.(*source), loaded, nil
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

// Validate checks the configuration.
func (h *Handler) Validate() error {
	return h.Config.Validate()
}

// Cleanup stops watching the robots.txt file.
func (h *Handler) Cleanup() error {
	if h.stop != nil {
		h.stop()
	}
	var errs []error
	if h.sourcePoolKey != "" {
		if _, err := sources.Delete(h.sourcePoolKey); err != nil {
			errs = append(errs, err)
		}
	}
	if h.tracker != nil {
		if _, err := trackers.Delete(h.trackerKey); err != nil {
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
