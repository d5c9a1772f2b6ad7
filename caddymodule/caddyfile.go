package caddymodule

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/caddyserver/caddy/v2"
	"github.com/caddyserver/caddy/v2/caddyconfig/caddyfile"
	"github.com/caddyserver/caddy/v2/caddyconfig/httpcaddyfile"

	"github.com/robotsguard/caddy-robots-txt/caddymodule/internal/pathmatch"
	"github.com/robotsguard/caddy-robots-txt/config"
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
	var firstAt *caddyfile.Dispenser // first's token, to report at its line once the block is read
	if h.NextArg() {
		first = h.Val()
		firstAt = caddyfile.NewDispenser([]caddyfile.Token{h.Token()})
		firstAt.Next()
	}
	h.Reset()
	h.Next()
	directiveAt := caddyfile.NewDispenser([]caddyfile.Token{h.Token()})
	directiveAt.Next()
	matcherSet, err := h.ExtractMatcherSet()
	if err != nil {
		return nil, err
	}

	handler := new(Handler)
	if err := handler.UnmarshalCaddyfile(h.Dispenser); err != nil {
		return nil, err
	}
	noSource := handler.File == "" && handler.Inline == "" && handler.URL == ""
	if noSource && strings.HasPrefix(first, "/") && namesFile(first) {
		// Before matchers were read as Caddy reads them, this named the
		// file; now it is a path matcher, and the site's default file
		// would be enforced on requests for that one path. Say so.
		file := first
		if info, err := os.Stat(first); err == nil && info.IsDir() {
			// Named as the file, a directory is refused: the hint
			// must not propose what fails next.
			file = filepath.Join(first, "robots.txt")
		}
		return nil, firstAt.Errf("robots_txt: %q is a path matcher, as the first argument of every handler directive "+
			"that starts with \"/\" is; to name the robots.txt file, write \"robots_txt * %s\" or \"file %s\" in the block "+
			"(to match requests for that path, use a named matcher: @name path %s)",
			first, file, file, first)
	}
	if noSource {
		if root, ok := h.BlockState["root"].(string); ok && root != "" && !strings.Contains(root, "{") {
			handler.File = filepath.Join(root, "robots.txt")
			// strict would fail the load at provision, with no line;
			// the file came from root, so say so here.
			if _, err := os.Stat(handler.File); handler.Strict && errors.Is(err, fs.ErrNotExist) {
				return nil, directiveAt.Errf("robots_txt: strict: robots.txt %q (in the site's root %q) does not exist; "+
					"create it, name the file with \"file <path>\", or drop strict to allow every bot until it appears", handler.File, root)
			}
			if handler.Strict {
				if errs := config.StrictFileErrors(handler.File); len(errs) > 0 {
					return nil, directiveAt.Errf("robots_txt: strict: robots.txt %q (in the site's root %q) has errors: %s",
						handler.File, root, strings.Join(errs, "; "))
				}
			}
		}
	}
	if handler.Trap != "" {
		if err := trapOutsideMatcher(matcherSet, handler.Trap); err != nil {
			return nil, directiveAt.Errf("robots_txt: %v", err)
		}
	}
	return h.NewRoute(matcherSet, handler), nil
}

// trapOutsideMatcher refuses a trap that the handler's path matcher keeps
// it from: a matcher that does not take /robots.txt leaves the trap out of
// the robots.txt clients are served (another handler, or the backend,
// answers it), so clients that obey what they read would be trapped; one
// that does not take the trap path leaves the trap unsprung. Only the
// path matcher can be evaluated here; where the others decide, it is left
// to the operator.
func trapOutsideMatcher(set caddy.ModuleMap, trap string) error {
	for _, p := range []struct{ path, why string }{
		{"/robots.txt", "requests for /robots.txt, so the robots.txt clients are served does not disallow the trap, and a client that obeys it would be trapped"},
		{trap, "the trap path, so nothing springs it"},
	} {
		if takes, known := pathmatch.Set(set, pathmatch.Request{Path: p.path}); !takes && known {
			return fmt.Errorf("trap %s: this handler's matcher (%s) does not take %s; "+
				"give the trap to a robots_txt that takes every request, or add /robots.txt and the trap to the matcher",
				trap, pathmatch.Describe([]map[string]json.RawMessage{set}, true), p.why)
		}
	}
	return nil
}

// fileRoots are where files live on a server and URL paths seldom start.
var fileRoots = []string{"/etc/", "/var/", "/srv/", "/home/", "/usr/", "/opt/", "/tmp/"}

// namesFile reports whether a first argument that Caddy reads as a path
// matcher is more likely the robots.txt file: it ends in .txt, names a
// regular file on disk, or is under a directory where files live. A path
// with "*" in it is a matcher whatever else it looks like (/blog/*.txt):
// a file name has no wildcards, and the file subdirective refuses one.
func namesFile(arg string) bool {
	if strings.Contains(arg, "*") {
		return false
	}
	if strings.HasSuffix(arg, ".txt") {
		return true
	}
	if info, err := os.Stat(arg); err == nil && info.Mode().IsRegular() {
		return true
	}
	for _, root := range fileRoots {
		if strings.HasPrefix(arg, root) {
			return true
		}
	}
	return false
}
