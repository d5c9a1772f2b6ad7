package config

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// IsIncludeURL reports whether an included list is fetched over HTTP: it
// starts with http:// or https://, in any case, as a URL's scheme is.
func IsIncludeURL(inc string) bool {
	return hasPrefixFold(inc, "http://") || hasPrefixFold(inc, "https://")
}

func hasPrefixFold(s, prefix string) bool {
	return len(s) >= len(prefix) && strings.EqualFold(s[:len(prefix)], prefix)
}

// includeKey is what tells two included lists apart: a file by its
// cleaned absolute path, as the loader opens a relative one from Caddy's
// working directory (/etc/caddy/ai.txt and ./ai.txt run from /etc/caddy
// are one list, whose second section would be empty); a URL, or an entry
// whose placeholders are not replaced yet, as written.
func includeKey(inc string) string {
	if strings.Contains(inc, "://") || strings.Contains(inc, "{") || inc == "" {
		return inc
	}
	if abs, err := filepath.Abs(inc); err == nil {
		return abs
	}
	return filepath.Clean(inc)
}

// sameListAs says how an entry given twice was written the first time,
// when that differs: "", or `, as "./ai.txt"`.
func sameListAs(inc, first string) string {
	if inc == first {
		return ""
	}
	return fmt.Sprintf(", as %q", first)
}

// ResolveIncludes returns the included lists as the handler reads them,
// which the handler and caddy robots check both use: global placeholders
// ({env.*}) replaced, then a URL (its scheme lower-cased, as url is; see
// resolveURL) or a file path. A list is read as named, the same for
// every request, so an entry that still depends on the request, that is
// empty once resolved, or that names what CheckFile refuses (a
// directory) is an error rather than a list that silently adds nothing.
func ResolveIncludes(includes []string) ([]string, error) {
	if len(includes) == 0 {
		return nil, nil
	}
	resolved := make([]string, len(includes))
	seen := make(map[string]int, len(includes)) // includeKey -> index
	for i, inc := range includes {
		p, err := resolveInclude(inc)
		if err != nil {
			return nil, fmt.Errorf("include[%d]: %w", i, err)
		}
		// Spelt alike only once resolved: "{env.LISTS}/ai.txt" and
		// "/etc/lists/ai.txt".
		if j, ok := seen[includeKey(p)]; ok {
			return nil, fmt.Errorf("include[%d]: %q is the same list as include[%d] (%q) once resolved; give each list once", i, inc, j, includes[j])
		}
		seen[includeKey(p)] = i
		resolved[i] = p
	}
	return resolved, nil
}

func resolveInclude(inc string) (string, error) {
	if p := requestPlaceholder(inc); p != "" {
		return "", dependsOnRequest(inc, p, includeWhat, "its path")
	}
	p := resolveGlobal(inc)
	switch {
	case p == "":
		return "", fmt.Errorf("%q is empty once its placeholders are replaced (%s); give the path or URL of a robots.txt list", inc, EmptyCause(inc))
	case strings.Contains(p, "://"):
		return resolvedURL(inc, p)
	}
	if err := CheckFile(p); err != nil {
		return "", err
	}
	return p, nil
}

// checkIncludeAsWritten checks an entry of include before its
// placeholders are replaced (at the Caddyfile line, in Validate), as
// checkURLAsWritten does a URL.
func checkIncludeAsWritten(inc string) error {
	if strings.Contains(inc, "://") {
		return checkURLAsWritten(inc, includeWhat)
	}
	if p := requestPlaceholder(inc); p != "" {
		return dependsOnRequest(inc, p, includeWhat, "its path")
	}
	return nil
}

// StrictIncludes is the strict option for included list files, resolved
// (see ResolveIncludes): one that does not exist, or that has
// error-severity findings, is an error. A URL is not fetched here.
func StrictIncludes(resolved []string) error {
	for _, inc := range resolved {
		if IsIncludeURL(inc) {
			continue
		}
		if _, err := os.Stat(inc); errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("strict: included list %q does not exist; create it, fix the path, or drop strict to load without it", inc)
		}
		if errs := strictListErrors(inc); len(errs) > 0 {
			return fmt.Errorf("strict: included list %q has errors: %s", inc, strings.Join(errs, "; "))
		}
	}
	return nil
}
