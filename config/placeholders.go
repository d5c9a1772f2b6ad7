package config

import (
	"fmt"
	"iter"
	"slices"
	"strings"

	"github.com/caddyserver/caddy/v2"
)

// Settings read once, when the configuration loads, and the same for
// every request (url, include), may hold Caddy's global placeholders,
// which are known then, and no others: a placeholder of the request
// ({http.request.host}, which the Caddyfile writes {host}) would be read
// as written, so that the upstream is asked for "/%7Bhttp.request.host%7D/"
// and its 404 allows every bot.

// What url, include, bots and humans name, in errors that say why they
// cannot depend on the request.
const (
	upstreamWhat  = "the upstream robots.txt"
	includeWhat   = "an included list"
	userAgentWhat = "a User-Agent substring"
)

// requestPlaceholder returns the first placeholder in v that is not known
// when the configuration loads (one of the request, or a name Caddy does
// not know), or "" when every placeholder in v is global. It reads
// nothing: a {file.*} placeholder is global without its file being read,
// which adapting a Caddyfile on another machine must not need.
func requestPlaceholder(v string) string {
	repl := caddy.NewReplacer()
	for key := range placeholderKeys(v) {
		if !strings.HasPrefix(key, "file.") {
			if _, ok := repl.Get(key); !ok {
				return "{" + key + "}"
			}
		}
	}
	return ""
}

// placeholderKeys yields the keys of v's placeholders, in order ("env.X"
// of "{env.X}"); an unclosed brace, which Caddy reads as written, ends
// them.
func placeholderKeys(v string) iter.Seq[string] {
	return func(yield func(string) bool) {
		for rest := v; ; {
			i := strings.IndexByte(rest, '{')
			if i < 0 {
				return
			}
			j := strings.IndexByte(rest[i:], '}')
			if j < 0 || !yield(rest[i+1:i+j]) {
				return
			}
			rest = rest[i+j+1:]
		}
	}
}

// hasPlaceholder reports whether v holds a placeholder: the rest of its
// checks wait until it is resolved.
func hasPlaceholder(v string) bool {
	i := strings.IndexByte(v, '{')
	return i >= 0 && strings.IndexByte(v[i:], '}') > 0
}

// resolveGlobal replaces the global placeholders of v; those of the
// request are refused before (requestPlaceholder).
func resolveGlobal(v string) string {
	return caddy.NewReplacer().ReplaceKnown(v, "")
}

// dependsOnRequest is the error for a value, read once for every request
// (what), that holds placeholder, which is known only per request; give
// says what to write instead. Like the other errors here, it names no
// field: the caller does.
func dependsOnRequest(v, placeholder, what, give string) error {
	return fmt.Errorf("%q depends on the request (%s is not known when the configuration loads); %s is the same for every request: give %s, or {env.*} placeholders or Caddy's other global ones",
		v, placeholder, what, give)
}

// checkURLAsWritten checks a URL setting before its placeholders are
// replaced (at the Caddyfile line, in Validate): one of the request is
// refused now; with global ones only, the URL is checked once they are
// replaced (resolveURL), for a host in {env.*} is known only then.
func checkURLAsWritten(v, what string) error {
	if p := requestPlaceholder(v); p != "" {
		return dependsOnRequest(v, p, what, "its URL")
	}
	if hasPlaceholder(v) {
		return nil
	}
	return checkURL(v)
}

// resolveURL is a URL setting as it is fetched (see resolvedURL).
func resolveURL(v, what string) (string, error) {
	if p := requestPlaceholder(v); p != "" {
		return "", dependsOnRequest(v, p, what, "its URL")
	}
	return resolvedURL(v, resolveGlobal(v))
}

// resolvedURL checks u, the URL v is once its global placeholders are
// replaced, and returns it with its scheme in lower case.
func resolvedURL(v, u string) (string, error) {
	if err := checkURL(u); err != nil {
		if u == v {
			return "", err
		}
		// v as written may look right: say what its placeholders
		// made of it, and which are empty.
		return "", fmt.Errorf("%q is %q once its placeholders are replaced (%s); give an absolute http or https URL such as \"http://app:8080/robots.txt\"", v, u, EmptyCause(v))
	}
	scheme, rest, _ := strings.Cut(u, "://")
	return strings.ToLower(scheme) + "://" + rest, nil
}

// ResolveURL returns the url setting as the handler fetches it, which the
// handler and caddy robots check both use (see resolveURL).
func ResolveURL(raw string) (string, error) {
	u, err := resolveURL(raw, upstreamWhat)
	if err != nil {
		return "", fmt.Errorf("url: %w", err)
	}
	return u, nil
}

// EmptyPlaceholders returns the global placeholders of v that are empty
// once replaced ({env.X} of a variable that is not set), in order, each
// once.
func EmptyPlaceholders(v string) []string {
	repl := caddy.NewReplacer()
	var empty []string
	for key := range placeholderKeys(v) {
		p := "{" + key + "}"
		if requestPlaceholder(p) == "" && repl.ReplaceKnown(p, "") == "" && !slices.Contains(empty, p) {
			empty = append(empty, p)
		}
	}
	return empty
}

// EmptyNote says which placeholders of v are empty once replaced, as an
// aside for an error or a warning about what v became: "{env.X} is
// empty: an environment variable that is not set?"; "" when none is.
func EmptyNote(v string) string {
	empty := EmptyPlaceholders(v)
	switch len(empty) {
	case 0:
		return ""
	case 1:
		return empty[0] + " is empty: an environment variable that is not set?"
	}
	return strings.Join(empty, ", ") + " are empty: environment variables that are not set?"
}

// EmptyCause is EmptyNote(v), or, when no placeholder of v is empty,
// the question it asks: for an error about what v became.
func EmptyCause(v string) string {
	if note := EmptyNote(v); note != "" {
		return note
	}
	return "an environment variable that is not set?"
}

// checkUserAgentAsWritten checks a bots or humans entry before its
// placeholders are replaced (at the Caddyfile line, in Validate): a
// header is matched against the same substrings for every request, so a
// placeholder of the request, which would be matched as written, is
// refused.
func checkUserAgentAsWritten(v string) error {
	if p := requestPlaceholder(v); p != "" {
		return dependsOnRequest(v, p, userAgentWhat, "the substring as written")
	}
	return nil
}

// ResolveUserAgents returns bots and humans as the handler matches them,
// which the handler and caddy robots check both use: the global
// placeholders of each entry ({env.MONITOR_UA}) replaced, as url and
// include have theirs. An entry that still depends on the request, that
// is blank once resolved (which every header contains: humans would
// exempt every client) or that is then given twice, or in both lists, is
// an error. An entry without placeholders is kept as written.
func ResolveUserAgents(bots, humans []string) ([]string, []string, error) {
	rb, bchanged, err := resolveUserAgents("bots", bots)
	if err != nil {
		return nil, nil, err
	}
	rh, hchanged, err := resolveUserAgents("humans", humans)
	if err != nil {
		return nil, nil, err
	}
	if bchanged || hchanged {
		if err := checkAgentLists(rb, rh); err != nil {
			return nil, nil, fmt.Errorf("once the placeholders of bots and humans are replaced: %w", err)
		}
	}
	return rb, rh, nil
}

// resolveUserAgents is ResolveUserAgents for one list; changed says that
// an entry had placeholders.
func resolveUserAgents(field string, list []string) (resolved []string, changed bool, err error) {
	if len(list) == 0 {
		return list, false, nil
	}
	resolved = make([]string, len(list))
	for i, v := range list {
		if !hasPlaceholder(v) {
			resolved[i] = v
			continue
		}
		if err := checkUserAgentAsWritten(v); err != nil {
			return nil, false, fmt.Errorf("%s[%d]: %w", field, i, err)
		}
		r := resolveGlobal(v)
		if strings.TrimSpace(r) == "" {
			note := EmptyNote(v)
			if note != "" {
				note = " (" + note + ")"
			}
			return nil, false, fmt.Errorf("%s[%d]: %q is %q once its placeholders are replaced%s, which every User-Agent header contains; give a non-blank substring", field, i, v, r, note)
		}
		resolved[i], changed = r, true
	}
	return resolved, changed, nil
}

// hostPlaceholders are the placeholders of the request a robots.txt path
// may hold: the request's host and what comes of it ({host}, {labels.N},
// {hostport}, TLS's server name), since robots.txt is per host (RFC 9309
// section 2.3).
var hostPlaceholders = []string{"http.request.host", "http.request.hostport", "http.request.tls.server_name"}

// checkFilePlaceholders refuses a robots.txt path holding a placeholder
// of what the client sends other than the host ({http.request.*}: the
// query's, a header's, the path's): any client would choose which file it
// is judged by, or one that does not exist, which allows every bot
// everywhere, or another directory's with "../" (audit AO-F3). What the
// configuration sets (vars, a map of the host, the root) is the
// operator's (audit AQ-F1, AQ-F2).
func checkFilePlaceholders(path string) error {
	for key := range placeholderKeys(path) {
		if !strings.HasPrefix(key, "http.request.") || slices.ContainsFunc(hostPlaceholders, func(h string) bool {
			return key == h || strings.HasPrefix(key, h+".labels.")
		}) {
			continue
		}
		return fmt.Errorf("%q depends on {%s}, which the client chooses: any client could pick the robots.txt it is judged by, "+
			"or one that does not exist (every bot allowed everywhere); a robots.txt path may vary by the request's host only: "+
			"{host}, {labels.N}, {hostport}, or what the configuration sets from them (the root, vars, a map)", path, key)
	}
	return nil
}
