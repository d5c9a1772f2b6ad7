package config

import (
	"testing"

	"github.com/caddyserver/caddy/v2/caddyconfig/caddyfile"
	"github.com/caddyserver/caddy/v2/caddyconfig/httpcaddyfile"
)

// caddyRewrite is what Caddy's Caddyfile adapter makes of a token's text.
func caddyRewrite(text string) string {
	seg := caddyfile.Segment{{Text: text}}
	httpcaddyfile.NewShorthandReplacer().ApplyToSegment(&seg)
	return seg[0].Text
}

// TestRestoreShorthandsUndoesCaddy: a text rewritten by Caddy's own
// replacer comes back as written, for every shorthand of the tables (so
// they are Caddy's), in the middle of other text and next to braces that
// are no placeholder. The few texts Caddy's rewrite makes alike come back
// as the plain shorthand.
func TestRestoreShorthandsUndoesCaddy(t *testing.T) {
	var tests []struct{ written, want string }
	for long, short := range longToShort {
		if got := caddyRewrite(short); got != long {
			t.Errorf("Caddy rewrites %s to %s, the table says %s", short, got, long)
		}
		tests = append(tests, struct{ written, want string }{"Disallow: /" + short + "/x", "Disallow: /" + short + "/x"})
	}
	for _, f := range shorthandFamilies {
		w := "{" + f.short + "Name-1}"
		tests = append(tests, struct{ written, want string }{"Sitemap: https://a.example/" + w, "Sitemap: https://a.example/" + w})
	}
	tests = append(tests, []struct{ written, want string }{
		{"Disallow: /{id}/{}/{{host}}/{host", "Disallow: /{id}/{}/{{host}}/{host"},
		{"Disallow: /{re.a.b}/{rp.upstream.x}", "Disallow: /{re.a.b}/{rp.upstream.x}"},
		{"{header.}", "{header.}"},
		{"no braces at all", "no braces at all"},
		// A long form written as such cannot be told from Caddy's
		// rewrite of the shorthand.
		{"Sitemap: https://{http.request.host}/s.xml", "Sitemap: https://{host}/s.xml"},
		{"Disallow: /{path.dir}/", "Disallow: /{dir}/"},
		{"Disallow: /{vars.client_ip}/", "Disallow: /{client_ip}/"},
	}...)
	for _, tt := range tests {
		rewritten := caddyRewrite(tt.written)
		if got := restoreShorthands(rewritten); got != tt.want {
			t.Errorf("%q, rewritten by Caddy to %q, restored as %q; want %q", tt.written, rewritten, got, tt.want)
		}
	}
}
