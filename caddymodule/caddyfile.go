package caddymodule

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/caddyserver/caddy/v2/caddyconfig/httpcaddyfile"
)

func init() {
	httpcaddyfile.RegisterDirective("robots_txt", parseCaddyfile)
	// Before basic_auth, so before handle, route, reverse_proxy and
	// file_server: a bot is judged before anything answers it. What is
	// judged does not depend on the order: it is the URL the client sent.
	httpcaddyfile.RegisterDirectiveOrder("robots_txt", httpcaddyfile.Before, "basic_auth")
}

// parseCaddyfile sets up the handler from Caddyfile tokens; the syntax is
// documented on config.Config.UnmarshalCaddyfile and in the README. The
// first argument is a matcher token wherever Caddy would read one ("*",
// "/path", "@name"), as for every handler directive. Without file, inline
// or url, the file is robots.txt in the site's root when a root directive
// without placeholders comes earlier in the block; otherwise the root is
// looked up per request.
func parseCaddyfile(h httpcaddyfile.Helper) ([]httpcaddyfile.ConfigValue, error) {
	h.Next() // directive name
	first := ""
	if h.NextArg() {
		first = h.Val()
	}
	line := h.Line()
	h.Reset()
	h.Next()
	matcherSet, err := h.ExtractMatcherSet()
	if err != nil {
		return nil, err
	}

	handler := new(Handler)
	if err := handler.UnmarshalCaddyfile(h.Dispenser); err != nil {
		return nil, err
	}
	noSource := handler.File == "" && handler.Inline == "" && handler.URL == ""
	if noSource && strings.HasPrefix(first, "/") && strings.HasSuffix(first, ".txt") {
		// Before matchers were read as Caddy reads them, this named the
		// file; now it is a path matcher, and the site's default file
		// would be enforced on requests for that one path. Say so.
		return nil, fmt.Errorf("%s:%d - robots_txt: %q is a path matcher, as the first argument of every handler directive "+
			"that starts with \"/\" is; to name the robots.txt file, write \"robots_txt * %s\" or \"file %s\" in the block",
			h.File(), line, first, first, first)
	}
	if noSource {
		if root, ok := h.BlockState["root"].(string); ok && root != "" && !strings.Contains(root, "{") {
			handler.File = filepath.Join(root, "robots.txt")
		}
	}
	return h.NewRoute(matcherSet, handler), nil
}
