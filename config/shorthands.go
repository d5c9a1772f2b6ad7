package config

import (
	"regexp"
	"strings"
)

// Caddy's Caddyfile adapter rewrites placeholder shorthands ({host},
// {path}, {header.X}, ...) into their long forms ({http.request.host}, ...)
// in every token of a site block before any directive reads it, the text
// of a heredoc included. Nothing replaces placeholders in the inline
// robots.txt, so the rewrite would serve (and enforce) a text the operator
// never wrote: "Disallow: /{path}/" would become
// "Disallow: /{http.request.uri.path}/". restoreShorthands undoes it.
//
// The tables are Caddy's own (caddyconfig/httpcaddyfile/shorthands.go,
// v2.11), turned around; a test checks them against Caddy's replacer.

// longToShort maps each long form Caddy writes for a plain shorthand back
// to it. Where two shorthands give the same long form ({dir} and
// {path.dir}), the plain one is the one restored.
var longToShort = func() map[string]string {
	pairs := []string{
		"{host}", "{http.request.host}",
		"{hostport}", "{http.request.hostport}",
		"{port}", "{http.request.port}",
		"{orig_method}", "{http.request.orig_method}",
		"{orig_uri}", "{http.request.orig_uri}",
		"{orig_path}", "{http.request.orig_uri.path}",
		"{orig_dir}", "{http.request.orig_uri.path.dir}",
		"{orig_file}", "{http.request.orig_uri.path.file}",
		"{orig_query}", "{http.request.orig_uri.query}",
		"{orig_?query}", "{http.request.orig_uri.prefixed_query}",
		"{method}", "{http.request.method}",
		"{uri}", "{http.request.uri}",
		"{%uri}", "{http.request.uri_escaped}",
		"{path}", "{http.request.uri.path}",
		"{%path}", "{http.request.uri.path_escaped}",
		"{dir}", "{http.request.uri.path.dir}",
		"{file}", "{http.request.uri.path.file}",
		"{query}", "{http.request.uri.query}",
		"{%query}", "{http.request.uri.query_escaped}",
		"{?query}", "{http.request.uri.prefixed_query}",
		"{remote}", "{http.request.remote}",
		"{remote_host}", "{http.request.remote.host}",
		"{remote_port}", "{http.request.remote.port}",
		"{scheme}", "{http.request.scheme}",
		"{uuid}", "{http.request.uuid}",
		"{tls_cipher}", "{http.request.tls.cipher_suite}",
		"{tls_version}", "{http.request.tls.version}",
		"{tls_client_fingerprint}", "{http.request.tls.client.fingerprint}",
		"{tls_client_issuer}", "{http.request.tls.client.issuer}",
		"{tls_client_serial}", "{http.request.tls.client.serial}",
		"{tls_client_subject}", "{http.request.tls.client.subject}",
		"{tls_client_certificate_pem}", "{http.request.tls.client.certificate_pem}",
		"{tls_client_certificate_der_base64}", "{http.request.tls.client.certificate_der_base64}",
		"{upstream_hostport}", "{http.reverse_proxy.upstream.hostport}",
		"{client_ip}", "{http.vars.client_ip}",
	}
	m := make(map[string]string, len(pairs)/2)
	for i := 0; i < len(pairs); i += 2 {
		m[pairs[i+1]] = pairs[i]
	}
	return m
}()

// shorthandFamilies are the shorthands that take a name of the operator's
// ({header.X-Foo}), as Caddy's regular expressions read them, turned
// around: a long form that long matches was written short + the name.
var shorthandFamilies = []struct {
	long  *regexp.Regexp
	short string
}{
	{regexp.MustCompile(`^\{http\.request\.header\.([\w-]*)\}$`), "header."},
	{regexp.MustCompile(`^\{http\.request\.cookie\.([\w-]*)\}$`), "cookie."},
	{regexp.MustCompile(`^\{http\.request\.host\.labels\.([\w-]*)\}$`), "labels."},
	{regexp.MustCompile(`^\{http\.request\.uri\.path\.([\w-]*)\}$`), "path."},
	{regexp.MustCompile(`^\{http\.request\.uri\.path\.file\.([\w-]*)\}$`), "file."},
	{regexp.MustCompile(`^\{http\.request\.uri\.query\.([\w-]*)\}$`), "query."},
	{regexp.MustCompile(`^\{http\.regexp\.([\w-\.]*)\}$`), "re."},
	{regexp.MustCompile(`^\{http\.vars\.([\w-]*)\}$`), "vars."},
	{regexp.MustCompile(`^\{http\.reverse_proxy\.([\w-\.]*)\}$`), "rp."},
	{regexp.MustCompile(`^\{http\.intercept\.([\w-\.]*)\}$`), "resp."},
	{regexp.MustCompile(`^\{http\.error\.([\w-\.]*)\}$`), "err."},
	{regexp.MustCompile(`^\{http\.matchers\.file\.([\w-]*)\}$`), "file_match."},
}

// braced is a placeholder-like span: Caddy's rewrite replaces only spans
// with no brace inside, and writes none.
var braced = regexp.MustCompile(`\{[^{}]*\}`)

// restoreShorthands turns the long forms Caddy's Caddyfile adapter wrote
// for shorthands in s back into the shorthands. A long form written as
// such cannot be told from one Caddy wrote, and comes back short too.
func restoreShorthands(s string) string {
	if !strings.Contains(s, "{http.") {
		return s
	}
	return braced.ReplaceAllStringFunc(s, func(span string) string {
		if short, ok := longToShort[span]; ok {
			return short
		}
		for _, f := range shorthandFamilies {
			if m := f.long.FindStringSubmatch(span); m != nil {
				return "{" + f.short + m[1] + "}"
			}
		}
		return span
	})
}
