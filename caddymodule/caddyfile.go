package caddymodule

import (
	"path/filepath"
	"strings"

	"github.com/caddyserver/caddy/v2"
	"github.com/caddyserver/caddy/v2/caddyconfig/httpcaddyfile"
)

func init() {
	httpcaddyfile.RegisterDirective("robots_txt", parseCaddyfile)
	// Before basic_auth, so before handle, route, reverse_proxy and
	// file_server: a bot is judged before anything answers it.
	httpcaddyfile.RegisterDirectiveOrder("robots_txt", httpcaddyfile.Before, "basic_auth")
}

// parseCaddyfile sets up the handler from Caddyfile tokens:
//
//	robots_txt [<matcher>] [<file>] {
//		file    <path>
//		inline  <text>
//		mode    enforce|monitor
//		status  <code>
//		body    <text>
//		serve   on|off
//		bots    <substring...>
//		humans  <substring...>
//		reload  <duration>|off
//		cache   <entries>
//	}
//
// Only "*" and named matchers ("@name") are taken as matchers: an argument
// starting with "/" is the file's path, as it is for root, not a path
// matcher. Without file or inline, the file is robots.txt in the site's
// root when a root directive without a matcher comes earlier in the block;
// otherwise the root is looked up per request.
func parseCaddyfile(h httpcaddyfile.Helper) ([]httpcaddyfile.ConfigValue, error) {
	h.Next() // directive name
	var matcherSet caddy.ModuleMap
	if h.NextArg() && (h.Val() == "*" || strings.HasPrefix(h.Val(), "@")) {
		h.Reset()
		h.Next()
		ms, err := h.ExtractMatcherSet()
		if err != nil {
			return nil, err
		}
		matcherSet = ms
	}
	h.Reset()

	handler := new(Handler)
	if err := handler.UnmarshalCaddyfile(h.Dispenser); err != nil {
		return nil, err
	}
	if handler.File == "" && handler.Inline == "" && handler.URL == "" {
		if root, ok := h.BlockState["root"].(string); ok && root != "" && !strings.Contains(root, "{") {
			handler.File = filepath.Join(root, "robots.txt")
		}
	}
	return h.NewRoute(matcherSet, handler), nil
}
