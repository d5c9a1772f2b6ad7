package config

import (
	"encoding/json"
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
	"unicode"

	"github.com/caddyserver/caddy/v2"
	"github.com/caddyserver/caddy/v2/caddyconfig/caddyfile"
)

func parse(input string) (Config, error) {
	var c Config
	err := c.UnmarshalCaddyfile(caddyfile.NewTestDispenser(input))
	return c, err
}

// quote makes a Caddyfile string literal of a file path.
func quote(path string) string {
	return `"` + strings.ReplaceAll(path, `"`, `\"`) + `"`
}

func TestUnmarshalCaddyfile(t *testing.T) {
	tests := []struct {
		name  string
		input string
		want  Config
	}{
		{"bare directive", `robots_txt`, Config{}},
		{"empty block", "robots_txt {\n}", Config{}},
		{"file argument", `robots_txt does-not-exist/robots.txt`, Config{File: "does-not-exist/robots.txt"}},
		{"file argument with block", "robots_txt does-not-exist.txt {\n\tmode monitor\n}",
			Config{File: "does-not-exist.txt", Mode: ModeMonitor}},
		{"file subdirective", "robots_txt {\n\tfile does-not-exist.txt\n}", Config{File: "does-not-exist.txt"}},
		{"file with placeholder is not checked", "robots_txt {\n\tfile {http.vars.root}/bots.txt\n}",
			Config{File: "{http.vars.root}/bots.txt"}},
		{"file argument with placeholder", `robots_txt {env.ROBOTS_FILE}`, Config{File: "{env.ROBOTS_FILE}"}},
		{"inline quoted", "robots_txt {\n\tinline \"User-agent: *\"\n}", Config{Inline: "User-agent: *"}},
		{"mode enforce", "robots_txt {\n\tmode enforce\n}", Config{Mode: ModeEnforce}},
		{"mode monitor", "robots_txt {\n\tmode monitor\n}", Config{Mode: ModeMonitor}},
		{"status low bound", "robots_txt {\n\tstatus 400\n}", Config{Status: 400}},
		{"status high bound", "robots_txt {\n\tstatus 599\n}", Config{Status: 599}},
		{"status 429", "robots_txt {\n\tstatus 429\n}", Config{Status: 429}},
		{"body", "robots_txt {\n\tbody \"No robots here.\"\n}", Config{Body: "No robots here."}},
		{"body heredoc", "robots_txt {\n\tbody <<HTML\n\t\t<h1>Go away</h1>\n\t\t<p>bye</p>\n\t\tHTML\n}",
			Config{Body: "<h1>Go away</h1>\n<p>bye</p>"}},
		{"serve on", "robots_txt {\n\tserve on\n}", Config{Serve: new(true)}},
		{"serve off", "robots_txt {\n\tserve off\n}", Config{Serve: new(false)}},
		{"strict", "robots_txt {\n\tstrict\n}", Config{Strict: true}},
		{"impostors", "robots_txt {\n\timpostors block\n}", Config{Impostors: ImpostorsBlock}},
		{"resolvers", "robots_txt {\n\tresolvers 127.0.0.1:5353 9.9.9.9\n\tresolvers [::1]:53\n}",
			Config{Resolvers: []string{"127.0.0.1:5353", "9.9.9.9", "[::1]:53"}}},
		{"crawler blocks", "robots_txt {\n\tcrawler Googlebot {\n\t\tranges 127.0.0.0/8 https://example.com/ips.json\n\t\trdns example.net\n\t}\n\tcrawler MyMonitor {\n\t\tranges 192.0.2.7\n\t\tcategory monitor\n\t\tsignature_agent https://monitor.example\n\t}\n}",
			Config{Crawlers: []Crawler{
				{Token: "Googlebot", Ranges: []string{"127.0.0.0/8", "https://example.com/ips.json"}, RDNS: []string{"example.net"}},
				{Token: "MyMonitor", Ranges: []string{"192.0.2.7"}, Category: "monitor", SignatureAgents: []string{"https://monitor.example"}},
			}}},
		{"crawler block with a category only", "robots_txt {\n\tcrawler Bingbot {\n\t\tcategory ai-search\n\t}\n}",
			Config{Crawlers: []Crawler{{Token: "Bingbot", Category: "ai-search"}}}},
		{"bots", "robots_txt {\n\tbots GPTBot CCBot\n}", Config{Bots: []string{"GPTBot", "CCBot"}}},
		{"bots repeated append", "robots_txt {\n\tbots GPTBot\n\tbots CCBot \"Claude Bot\"\n}",
			Config{Bots: []string{"GPTBot", "CCBot", "Claude Bot"}}},
		{"humans repeated append", "robots_txt {\n\thumans Lynx\n\thumans w3m curl\n}",
			Config{Humans: []string{"Lynx", "w3m", "curl"}}},
		{"reload seconds", "robots_txt {\n\treload 30s\n}", Config{Reload: caddy.Duration(30 * time.Second)}},
		{"reload milliseconds", "robots_txt {\n\treload 250ms\n}", Config{Reload: caddy.Duration(250 * time.Millisecond)}},
		{"reload days", "robots_txt {\n\treload 1d\n}", Config{Reload: caddy.Duration(24 * time.Hour)}},
		{"reload off", "robots_txt {\n\treload off\n}", Config{DisableReload: true}},
		{"cache low bound", "robots_txt {\n\tcache 1\n}", Config{Cache: 1}},
		{"cache high bound", "robots_txt {\n\tcache 1000000\n}", Config{Cache: MaxCache}},
		{"file_cache low bound", "robots_txt {\n\tfile_cache 1\n}", Config{FileCache: 1}},
		{"file_cache high bound", "robots_txt {\n\tfile_cache 100000\n}", Config{FileCache: MaxFileCache}},
		{"comments and everything", `robots_txt {
	# the file
	file does-not-exist.txt
	mode monitor   # just watch
	status 451
	body "Unavailable for legal reasons"
	serve off
	bots GPTBot
	humans Lynx
	reload 1m
	cache 500
}`, Config{
			File: "does-not-exist.txt", Mode: ModeMonitor, Status: 451,
			Body: "Unavailable for legal reasons", Serve: new(false),
			Bots: []string{"GPTBot"}, Humans: []string{"Lynx"},
			Reload: caddy.Duration(time.Minute), Cache: 500,
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := parse(tt.input)
			if err != nil {
				t.Fatalf("unexpected error: %v", err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got  %#v\nwant %#v", got, tt.want)
			}
			if err := got.Validate(); err != nil {
				t.Errorf("parsed config does not validate: %v", err)
			}
		})
	}
}

func TestUnmarshalCaddyfileHeredocInline(t *testing.T) {
	input := `robots_txt {
	inline <<TXT
		User-agent: *
		Disallow: /private/
		Allow: /private/public.html

		# AI crawlers
		User-agent: GPTBot
		Disallow: /
		TXT
	mode monitor
}`
	want := "User-agent: *\n" +
		"Disallow: /private/\n" +
		"Allow: /private/public.html\n" +
		"\n" +
		"# AI crawlers\n" +
		"User-agent: GPTBot\n" +
		"Disallow: /"
	got, err := parse(input)
	if err != nil {
		t.Fatalf("unexpected error: %v", err)
	}
	if got.Inline != want {
		t.Errorf("inline text:\ngot  %q\nwant %q", got.Inline, want)
	}
	// The subdirective after the heredoc is still parsed.
	if got.Mode != ModeMonitor {
		t.Errorf("mode after heredoc: got %q, want %q", got.Mode, ModeMonitor)
	}
}

// TestUnmarshalCaddyfileConsumesDirective checks that the directive name
// is consumed by UnmarshalCaddyfile and all the segment's tokens are used.
func TestUnmarshalCaddyfileConsumesDirective(t *testing.T) {
	d := caddyfile.NewTestDispenser("robots_txt {\n\tmode monitor\n}")
	var c Config
	if err := c.UnmarshalCaddyfile(d); err != nil {
		t.Fatal(err)
	}
	if d.Next() {
		t.Errorf("token %q left unconsumed", d.Val())
	}
}

func TestUnmarshalCaddyfileErrors(t *testing.T) {
	tests := []struct {
		name  string
		input string
		want  []string // substrings of the message
		line  int
	}{
		{"unknown subdirective", "robots_txt {\n\tmode enforce\n\tblock GPTBot\n}",
			[]string{`unknown subdirective "block"`, "file, inline, mode, status, body, serve, bots, humans, reload, cache"}, 3},
		{"too many arguments", "robots_txt a.txt b.txt",
			[]string{"too many arguments (2)", "robots_txt [<matcher>] [<file>]"}, 1},
		{"block after subdirective", "robots_txt {\n\tmode enforce {\n\t}\n}",
			[]string{"mode does not take a block", "mode enforce|monitor"}, 2},
		{"stray block", "robots_txt {\n\t{\n\t}\n}",
			[]string{"unexpected '{'", "file, inline"}, 2},
		{"file argument with a wildcard", "robots_txt blog/*",
			[]string{`file "blog/*" has a "*" in it`, "robots_txt /blog/* { file <path> }"}, 1},
		{"file subdirective with a wildcard", "robots_txt {\n\tfile /srv/*/robots.txt\n}",
			[]string{`file "/srv/*/robots.txt" has a "*" in it`}, 2},
		{"mode as the file argument", "robots_txt monitor",
			[]string{`"monitor" is read as the name of the robots.txt file`, "robots_txt { mode monitor }", "write ./monitor"}, 1},
		{"subdirective as the file argument", "\nrobots_txt strict",
			[]string{`"strict" is read as the name of the robots.txt file`, "robots_txt { strict }"}, 2},
		{"value as the file argument", "robots_txt off",
			[]string{`"off" is read as the name of the robots.txt file`, "robots_txt { serve off }"}, 1},
		{"trap action misspelt", "robots_txt {\n\ttrap /t/ drop\n}",
			[]string{`trap: action "drop" is not allowed`, "hold (the default) or block"}, 2},
		{"trap with serve off", "robots_txt {\n\ttrap /t/\n\tmode monitor\n\tserve off\n}",
			[]string{"trap (line 2) needs serve on (line 4)", "does not disallow the trap"}, 4},
		{"impostors maybe", "robots_txt {\n\timpostors maybe\n}",
			[]string{`impostors: "maybe" is not allowed`, `"judge"`, `"block"`, `"trust"`}, 2},
		{"resolver without port", "robots_txt {\n\tresolvers dns.example\n}",
			[]string{`resolvers: "dns.example" is not allowed`, "host:port"}, 2},
		{"crawler without token", "robots_txt {\n\tcrawler {\n\t}\n}",
			[]string{"crawler", "token"}, 2},
		{"crawler subdirective with a block", "robots_txt {\n\tcrawler X {\n\t\tcategory seo {\n\t\t}\n\t}\n}",
			[]string{"crawler X: category does not take a block", "usage: category <name>"}, 3},
		{"crawler ranges with a block", "robots_txt {\n\tcrawler X {\n\t\tranges 192.0.2.1 {\n\t\t\t192.0.2.2\n\t\t}\n\t}\n}",
			[]string{"crawler X: ranges does not take a block", "usage: ranges <cidr|file|https-url>..."}, 3},
		{"crawler unknown subdirective", "robots_txt {\n\tcrawler X {\n\t\tips 1.2.3.4\n\t}\n}",
			[]string{`crawler X: unknown subdirective "ips"`, "ranges, rdns, signature_agent or category"}, 3},
		{"crawler bad category", "robots_txt {\n\tcrawler X {\n\t\tcategory robots\n\t}\n}",
			[]string{`crawler X: category: "robots" is not allowed`, "ai-training"}, 3},
		{"crawler http list", "robots_txt {\n\tcrawler X {\n\t\tranges http://example.com/ips.json\n\t}\n}",
			[]string{"crawler X: ranges:", "must be https"}, 3},
		{"crawler bad rdns", "robots_txt {\n\tcrawler X {\n\t\trdns \"bad suffix\"\n\t}\n}",
			[]string{"rdns", "hostname suffix"}, 3},
		// What the knowledge base refuses at load must be refused here, at
		// its line: one label, upper case, a label starting with "-".
		{"crawler rdns of one label", "robots_txt {\n\tcrawler X {\n\t\trdns com\n\t}\n}",
			[]string{"robots_txt: crawler X: rdns:", "\"com\" is not a domain", "two labels or more"}, 3},
		{"crawler rdns in upper case", "robots_txt {\n\tcrawler X {\n\t\trdns Crawl.Example.com\n\t}\n}",
			[]string{"rdns", "has upper-case letters", `"crawl.example.com"`}, 3},
		// Common ways to write a suffix, each refused with what is wrong
		// and the spelling to use.
		{"crawler rdns with a leading dot", "robots_txt {\n\tcrawler X {\n\t\trdns .crawl.example.com\n\t}\n}",
			[]string{"rdns", "starts with a dot", `"crawl.example.com"`}, 3},
		{"crawler rdns with a trailing dot", "robots_txt {\n\tcrawler X {\n\t\trdns crawl.example.com.\n\t}\n}",
			[]string{"rdns", "ends with a dot", `"crawl.example.com"`}, 3},
		{"crawler rdns with a bad label", "robots_txt {\n\tcrawler X {\n\t\trdns -ex.com\n\t}\n}",
			[]string{"rdns", "bad label \"-ex\""}, 3},
		// Audit AO-F9: an address, and a name not in punycode.
		{"crawler rdns of an address", "robots_txt {\n\tcrawler X {\n\t\trdns 192.0.2.1\n\t}\n}",
			[]string{"rdns", `"192.0.2.1" is an address, not a domain`, "give addresses with ranges"}, 3},
		{"crawler rdns of an IPv6 address", "robots_txt {\n\tcrawler X {\n\t\trdns 2001:db8::1\n\t}\n}",
			[]string{"rdns", "is an address, not a domain"}, 3},
		{"crawler rdns not in punycode", "robots_txt {\n\tcrawler X {\n\t\trdns bücher.example\n\t}\n}",
			[]string{"rdns", "not ASCII", "punycode"}, 3},
		{"crawler bad signature_agent, at its line", "robots_txt {\n\tcrawler X {\n\t\tranges 192.0.2.1\n\t\tsignature_agent http://x.example\n\n\t}\n}",
			[]string{"crawler X: signature_agent:", "https origin"}, 4},
		// A Signature-Agent header carries an origin: a signer named with
		// a path or a query would never verify.
		{"crawler signature_agent with a path", "robots_txt {\n\tcrawler X {\n\t\tsignature_agent https://partner.example/path\n\t}\n}",
			[]string{"signature_agent", "not an origin", "no path"}, 3},
		{"crawler signature_agent with a query", "robots_txt {\n\tcrawler X {\n\t\tsignature_agent https://partner.example?x=1\n\t}\n}",
			[]string{"signature_agent", "not an origin"}, 3},
		{"crawler mistyped CIDR", "robots_txt {\n\tcrawler X {\n\t\tranges 10.0.0.0/33\n\t}\n}",
			[]string{`"10.0.0.0/33" is not a valid address or CIDR`}, 3},
		{"crawler ranges file missing", "robots_txt {\n\tcrawler X {\n\t\tranges notacidr\n\t}\n}",
			[]string{"crawler X: ranges: open notacidr", "a file of them that exists"}, 3},
		// Audit AC-F5: fields read as written say so of a placeholder,
		// rather than refusing its braces for another reason.
		{"crawler rdns placeholder", "robots_txt {\n\tcrawler X {\n\t\trdns {env.RD}\n\t}\n}",
			[]string{"crawler X: rdns: \"{env.RD}\" has a placeholder, which is not replaced here", "{$VAR}"}, 3},
		{"crawler ranges placeholder", "robots_txt {\n\tcrawler X {\n\t\tranges {env.RG}\n\t}\n}",
			[]string{"crawler X: ranges: \"{env.RG}\" has a placeholder"}, 3},
		{"crawler signature_agent placeholder", "robots_txt {\n\tcrawler X {\n\t\tsignature_agent {env.SIG}\n\t}\n}",
			[]string{"signature_agent: \"{env.SIG}\" has a placeholder"}, 3},
		{"crawler token placeholder", "robots_txt {\n\tcrawler {env.X} {\n\t\tcategory seo\n\t}\n}",
			[]string{"token: \"{env.X}\" has a placeholder"}, 2},
		// Audit AC-F8: duplicates in a crawler's lists are refused, as
		// those of bots, humans, include and resolvers are.
		{"crawler rdns twice", "robots_txt {\n\tcrawler X {\n\t\trdns example.com example.com\n\t}\n}",
			[]string{"crawler X: rdns: \"example.com\" is given more than once"}, 3},
		{"crawler signature_agent twice", "robots_txt {\n\tcrawler X {\n\t\tsignature_agent https://a.example\n\t\tsignature_agent https://a.example/\n\t}\n}",
			[]string{"signature_agent: \"https://a.example/\" is given more than once"}, 4},
		{"crawler ranges twice", "robots_txt {\n\tcrawler X {\n\t\tranges 192.0.2.0/24 192.0.2.0/24\n\t}\n}",
			[]string{"ranges: \"192.0.2.0/24\" is given more than once"}, 3},
		{"crawler ranges twice, as another spelling", "robots_txt {\n\tcrawler X {\n\t\tranges 2001:db8::/32\n\t\tranges 2001:DB8::/32\n\t}\n}",
			[]string{"ranges: \"2001:DB8::/32\" is given more than once, as \"2001:db8::/32\""}, 4},
		{"trap placeholder", "robots_txt {\n\ttrap {env.TRAP}\n}",
			[]string{"trap: \"{env.TRAP}\" has a placeholder"}, 2},
		{"resolvers placeholder", "robots_txt {\n\tresolvers {env.RES}\n}",
			[]string{"\"{env.RES}\" has a placeholder"}, 2},
		{"strict with an argument", "robots_txt {\n\tstrict on\n}",
			[]string{"strict takes no argument"}, 2},
		{"strict twice", "robots_txt {\n\tstrict\n\tstrict\n}",
			[]string{"strict is given more than once"}, 3},

		// argument counts
		{"file without argument", "robots_txt {\n\tfile\n}",
			[]string{"file takes exactly one argument, got 0", "file <path>"}, 2},
		{"file with two arguments", "robots_txt {\n\tfile a b\n}",
			[]string{"file takes exactly one argument, got 2"}, 2},
		{"inline without argument", "robots_txt {\n\tinline\n}",
			[]string{"inline takes exactly one argument, got 0", "inline <text>"}, 2},
		{"mode without argument", "robots_txt {\n\n\tmode\n}",
			[]string{"mode takes exactly one argument, got 0", "mode enforce|monitor"}, 3},
		{"mode with two arguments", "robots_txt {\n\tmode enforce monitor\n}",
			[]string{"mode takes exactly one argument, got 2"}, 2},
		{"status without argument", "robots_txt {\n\tstatus\n}",
			[]string{"status takes exactly one argument, got 0", "status <code>"}, 2},
		{"body with two arguments", "robots_txt {\n\tbody go away\n}",
			[]string{"body takes exactly one argument, got 2", "body <text>"}, 2},
		{"serve without argument", "robots_txt {\n\tserve\n}",
			[]string{"serve takes exactly one argument, got 0", "serve on|off"}, 2},
		{"bots without argument", "robots_txt {\n\tbots\n}",
			[]string{"bots needs at least one argument", "bots <substring...>"}, 2},
		{"humans without argument", "robots_txt {\n\tmode monitor\n\thumans\n}",
			[]string{"humans needs at least one argument", "humans <substring...>"}, 3},
		{"reload without argument", "robots_txt {\n\treload\n}",
			[]string{"reload takes exactly one argument, got 0", "reload <duration>|off"}, 2},
		{"cache with two arguments", "robots_txt {\n\tcache 1 2\n}",
			[]string{"cache takes exactly one argument, got 2", "cache <entries>"}, 2},

		// values
		{"bad mode", "robots_txt {\n\tmode block\n}",
			[]string{`mode: "block" is not allowed; use "enforce" or "monitor"`}, 2},
		{"mode is case sensitive", "robots_txt {\n\tmode Enforce\n}",
			[]string{`mode: "Enforce" is not allowed`}, 2},
		{"status not a number", "robots_txt {\n\tstatus forbidden\n}",
			[]string{`status: "forbidden" is not a number`, "use a code from 400 to 599"}, 2},
		{"status too low", "robots_txt {\n\tstatus 200\n}",
			[]string{"status: 200 is not allowed; use a code from 400 to 599"}, 2},
		{"status zero", "robots_txt {\n\tstatus 0\n}",
			[]string{"status: 0 is not allowed"}, 2},
		{"status 401, which needs a header a refusal lacks", "robots_txt {\n\tstatus 401\n}",
			[]string{"status: 401 is not allowed: it needs the WWW-Authenticate header field", "use 403 (the default)"}, 2},
		{"status 405, which needs a header a refusal lacks", "robots_txt {\n\tstatus 405\n}",
			[]string{"status: 405 is not allowed: it needs the Allow header field"}, 2},
		{"status too high", "robots_txt {\n\tstatus 600\n}",
			[]string{"status: 600 is not allowed"}, 2},
		{"bad serve", "robots_txt {\n\tserve yes\n}",
			[]string{`serve: "yes" is not allowed; use on or off`}, 2},
		{"bad duration", "robots_txt {\n\treload 5x\n}",
			[]string{`reload: "5x" is not a duration`, "5s, 1m or 1h, or off"}, 2},
		{"duration without unit", "robots_txt {\n\treload 5\n}",
			[]string{`reload: "5" is not a duration`}, 2},
		{"negative duration", "robots_txt {\n\treload -5s\n}",
			[]string{"reload: -5s is not allowed; use a duration from 100ms to 24h, such as 5s, or off"}, 2},
		{"a reload that spins, at its line", "robots_txt {\n\tmode monitor\n\treload 50ms\n}",
			[]string{"reload: 50ms is not allowed; use a duration from 100ms to 24h"}, 3},
		{"a share_interval that spins, at its line", "robots_txt {\n\tmode monitor\n\tshare_interval 1ns\n}",
			[]string{`share_interval: "1ns" is not allowed; use a duration from 100ms to 1h`}, 3},
		{"zero duration", "robots_txt {\n\treload 0s\n}",
			[]string{"reload: 0s is not allowed"}, 2},
		{"cache not a number", "robots_txt {\n\tcache lots\n}",
			[]string{`cache: "lots" is not a number`, "from 1 to 1000000"}, 2},
		{"cache zero", "robots_txt {\n\tcache 0\n}",
			[]string{"cache: 0 is not allowed; use a number of entries from 1 to 1000000"}, 2},
		{"cache negative", "robots_txt {\n\tcache -1\n}",
			[]string{"cache: -1 is not allowed"}, 2},
		{"file_cache not a number, at its line", "robots_txt {\n\tmode monitor\n\tfile_cache many\n}",
			[]string{`file_cache: "many" is not a number`, "use a number of files from 1 to 100000"}, 3},
		{"file_cache zero", "robots_txt {\n\tfile_cache 0\n}",
			[]string{"file_cache: 0 is not allowed; use a number of files from 1 to 100000"}, 2},
		{"file_cache too big", "robots_txt {\n\tfile_cache 100001\n}",
			[]string{"file_cache: 100001 is not allowed"}, 2},
		{"file_cache twice", "robots_txt {\n\tfile_cache 10\n\tfile_cache 20\n}",
			[]string{"file_cache is given more than once (first at line 2)"}, 3},
		{"cache too big", "robots_txt {\n\tcache 1000001\n}",
			[]string{"cache: 1000001 is not allowed"}, 2},
		{"empty bot", "robots_txt {\n\tbots GPTBot \"\"\n}",
			[]string{`bots[1]: "" is not allowed`, "non-blank User-Agent substring"}, 2},
		{"blank human", "robots_txt {\n\thumans \"  \"\n}",
			[]string{`humans[0]: "  " is not allowed`}, 2},
		{"empty file argument", `robots_txt ""`,
			[]string{"file path is empty"}, 1},
		{"empty file subdirective", "robots_txt {\n\tfile \"\"\n}",
			[]string{"file path is empty"}, 2},
		{"empty inline", "robots_txt {\n\tinline \"\"\n}",
			[]string{"inline text is empty", "heredoc"}, 2},

		// combinations
		{"file as argument and subdirective", "robots_txt a.txt {\n\tfile b.txt\n}",
			[]string{"file is given both as the argument (line 1) and as a subdirective"}, 2},
		{"file then inline", "robots_txt {\n\tfile a.txt\n\tinline \"User-agent: *\"\n}",
			[]string{"file and inline are both set"}, 3},
		{"inline then file", "robots_txt {\n\tinline \"User-agent: *\"\n\tfile a.txt\n}",
			[]string{"file and inline are both set"}, 3},
		{"file argument then inline", "robots_txt a.txt {\n\tinline <<TXT\n\t\tUser-agent: *\n\t\tTXT\n}",
			[]string{"file and inline are both set"}, 2},
		{"duplicate mode", "robots_txt {\n\tmode enforce\n\tstatus 403\n\tmode monitor\n}",
			[]string{"mode is given more than once (first at line 2); give it once"}, 4},
		{"duplicate file", "robots_txt {\n\tfile a.txt\n\tfile b.txt\n}",
			[]string{"file is given more than once (first at line 2)"}, 3},
		{"duplicate inline", "robots_txt {\n\tinline a\n\tinline b\n}",
			[]string{"inline is given more than once"}, 3},
		{"duplicate status", "robots_txt {\n\tstatus 403\n\tstatus 404\n}",
			[]string{"status is given more than once"}, 3},
		{"duplicate body", "robots_txt {\n\tbody a\n\tbody b\n}",
			[]string{"body is given more than once"}, 3},
		{"duplicate serve", "robots_txt {\n\tserve on\n\tserve off\n}",
			[]string{"serve is given more than once"}, 3},
		{"duplicate reload", "robots_txt {\n\treload off\n\treload 5s\n}",
			[]string{"reload is given more than once (first at line 2)"}, 3},
		{"duplicate cache", "robots_txt {\n\tcache 1\n\tcache 2\n}",
			[]string{"cache is given more than once"}, 3},
		{"url then file", "robots_txt {\n\turl http://app/robots.txt\n\tfile a.txt\n}",
			[]string{"url is set together with file or inline", "use one source of robots.txt: file, inline or url"}, 3},
		{"file then url", "robots_txt {\n\tfile a.txt\n\turl http://app/robots.txt\n}",
			[]string{"url is set together with file or inline"}, 3},
		{"file argument then url", "robots_txt a.txt {\n\tmode monitor\n\turl http://app/robots.txt\n}",
			[]string{"url is set together with file or inline"}, 3},
		{"inline then url", "robots_txt {\n\tinline x\n\turl http://app/robots.txt\n}",
			[]string{"url is set together with file or inline"}, 3},
		{"url then inline", "robots_txt {\n\turl http://app/robots.txt\n\tinline x\n}",
			[]string{"url is set together with file or inline"}, 3},
		// A Caddyfile keeps \n in a quoted string as two characters: the
		// text would be one line, a group with no rules.
		{"inline with a literal \\n", "robots_txt {\n\tmode enforce\n\tinline \"User-agent: *\\nDisallow: /\"\n}",
			[]string{"inline text is one line holding \\n", "heredoc"}, 3},
		{"trap that reads as /", "robots_txt {\n\tmode monitor\n\ttrap /./ block\n}",
			[]string{`trap: "/./" is read by a server as "/"`}, 3},
		{"trap_ttl too short to hold anyone", "robots_txt {\n\ttrap /t/\n\ttrap_ttl 1ms\n}",
			[]string{"trap_ttl: \"1ms\" is not allowed", "use a duration from 1s to 8760h", "let go before its next request"}, 3},
		{"empty mode", "robots_txt {\n\tmode \"\"\n}", []string{"mode: the value is empty", "usage: mode enforce|monitor"}, 2},
		{"empty body", "robots_txt {\n\tbody \"\"\n}", []string{"body: the value is empty", "or drop body"}, 2},
		// Refused at load all the same; here the error names its line.
		{"body with a placeholder robots_txt has not", "robots_txt {\n\tmode enforce\n\tbody \"No, {http.robots_txt.bott}\"\n}",
			[]string{"body: {http.robots_txt.bott} is not a placeholder of robots_txt", "use one of bot, group"}, 3},
		{"empty impostors", "robots_txt {\n\timpostors \"\"\n}", []string{"impostors: the value is empty"}, 2},
		{"trap_ttl without trap", "robots_txt {\n\ttrap_ttl 1h\n\tmode monitor\n}",
			[]string{"trap_ttl needs trap", "trap <path> [hold|block]", "or drop trap_ttl"}, 2},
		{"empty include", "robots_txt {\n\tmode monitor\n\tinclude a.txt \"\"\n}",
			[]string{"include: an entry is empty", "a file path or an http(s) URL"}, 3},
		{"include of a request placeholder", "robots_txt {\n\tmode monitor\n\tinclude /etc/caddy/{http.request.host}.txt\n}",
			[]string{`include: "/etc/caddy/{http.request.host}.txt" depends on the request`, "{env.*} placeholders"}, 3},
		// The second adds only an empty section to the served robots.txt.
		{"include twice", "robots_txt {\n\tinclude a.txt https://lists.example/ai.txt\n\tmode monitor\n\tinclude https://lists.example/ai.txt\n}",
			[]string{`include: "https://lists.example/ai.txt" is given more than once (first at line 2)`, "give each list once"}, 4},
		{"include twice on one line", "robots_txt {\n\tinclude a.txt a.txt\n}",
			[]string{`include: "a.txt" is given more than once (first at line 2)`}, 2},
		{"share_interval past the hourly rewrite", "robots_txt {\n\tmode monitor\n\tshare_interval 192h\n}",
			[]string{`share_interval: "192h" is not allowed; use a duration from 100ms to 1h`}, 3},
		// now + trap_ttl past 2262 overflows Unix nanoseconds: the
		// address was logged as held and held not at all.
		{"trap_ttl that overflows the time it is added to", "robots_txt {\n\ttrap /t/\n\ttrap_ttl 2500000h\n}",
			[]string{`trap_ttl: "2500000h" is not allowed; use a duration from 1s to 8760h`, "a year at the most"}, 3},
		{"trap_ttl past a year", "robots_txt {\n\ttrap /t/\n\ttrap_ttl 8761h\n}",
			[]string{`trap_ttl: "8761h" is not allowed; use a duration from 1s to 8760h`}, 3},
		{"trap_ttl that is no duration", "robots_txt {\n\ttrap /t/\n\ttrap_ttl soon\n}",
			[]string{`trap_ttl: "soon" is not a duration; use a duration from 1s to 8760h`}, 3},
		{"grace past a week", "robots_txt {\n\tmode monitor\n\tgrace 8d\n}",
			[]string{`grace: "8d" is not allowed; use a duration from 1s to 168h`, "or off (0)"}, 3},
		{"reload past a day", "robots_txt {\n\tmode monitor\n\treload 25h\n}",
			[]string{"reload: 25h0m0s is not allowed; use a duration from 100ms to 24h", "or off to read the file once"}, 3},
		{"share off then share_interval", "robots_txt {\n\tshare off\n\tshare_interval 10s\n}",
			[]string{"share_interval (line 3) has no effect with share off (line 2)", "drop share_interval, or use share on"}, 3},
		{"share_interval then share off", "robots_txt {\n\tshare_interval 10s\n\tmode monitor\n\tshare off\n}",
			[]string{"share_interval (line 2) has no effect with share off (line 4)"}, 4},
		// Each copy of an entry drew its own warning, and added nothing.
		{"bots twice", "robots_txt {\n\tbots Mozilla\n\tmode monitor\n\tbots mozilla\n}",
			[]string{`bots: "mozilla" is given more than once (first at line 2, as "Mozilla")`, "without regard to case, so give each once"}, 4},
		{"humans twice on one line", "robots_txt {\n\thumans Safe Safe\n}",
			[]string{`humans: "Safe" is given more than once (first at line 2)`}, 2},
		{"resolvers twice", "robots_txt {\n\tresolvers [::1]:53\n\tresolvers 192.0.2.53 ::1\n}",
			[]string{`resolvers: "::1" is given more than once (first at line 2, as "[::1]:53")`, "give each server once"}, 3},
		// Spelt differently, one directory: refused at the line of the
		// second, not of the directive.
		{"one signature agent for two crawler blocks", "robots_txt {\n\tcrawler X {\n\t\tsignature_agent https://a.example\n\t}\n\tcrawler Y {\n\t\tcategory monitor\n\t\tsignature_agent https://a.example/.well-known/http-message-signatures-directory\n\t}\n}",
			[]string{`crawler Y: signature_agent "https://a.example/.well-known/http-message-signatures-directory" is also crawler X's (line 2)`, "give each directory to one crawler"}, 7},
		{"crawler twice with one signature agent", "robots_txt {\n\tcrawler X {\n\t\tsignature_agent https://a.example\n\t}\n\tcrawler x {\n\t\tsignature_agent https://a.example\n\t}\n}",
			[]string{"crawler x is given more than once (first at line 2)"}, 5},
		{"crawler twice", "robots_txt {\n\tcrawler FooBot {\n\t\tranges 192.0.2.1\n\t}\n\tcrawler foobot {\n\t\trdns example.net\n\t}\n}",
			[]string{"crawler foobot is given more than once (first at line 2)", "without regard to case", "one block per crawler"}, 5},
		{"crawler with an empty block", "robots_txt {\n\tmode monitor\n\tcrawler FooBot {\n\t}\n}",
			[]string{"crawler FooBot has no way to verify it", "ranges <cidr|file|https-url>...", "rdns <hostname-suffix>...",
				"signature_agent <https-origin>...", "or its category <name>", "use bots FooBot"}, 3},
		{"crawler without a block", "robots_txt {\n\tcrawler FooBot\n\tmode monitor\n}",
			[]string{"crawler FooBot has no way to verify it"}, 2},
		{"bot then human", "robots_txt {\n\tbots GPTBot CCBot\n\tmode monitor\n\thumans Lynx ccbot\n}",
			[]string{`"ccbot" is in both bots and humans (bots at line 2)`, "never a bot", "keep it in one list"}, 4},
		{"human then bot", "robots_txt {\n\thumans UptimeRobot\n\tbots uptimerobot\n}",
			[]string{`"uptimerobot" is in both bots and humans (humans at line 2)`}, 3},
		{"reload with inline", "robots_txt {\n\tinline x\n\treload 10s\n}",
			[]string{"reload (line 3) has no effect with inline (line 2)", "not in a file to check for changes; drop reload"}, 3},
		{"reload off before url", "robots_txt {\n\treload off\n\tmode monitor\n\turl http://app/robots.txt\n}",
			[]string{"reload (line 2) has no effect with url (line 4)", "Cache-Control max-age", "drop reload"}, 4},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := parse(tt.input)
			assertErr(t, err, tt.line, tt.want...)
		})
	}
}

// assertErr checks that err is a robots_txt Caddyfile error at line that
// contains every string in want.
func assertErr(t *testing.T, err error, line int, want ...string) {
	t.Helper()
	if err == nil {
		t.Fatalf("no error; want one containing %q", want)
	}
	msg := err.Error()
	if !strings.HasPrefix(msg, "robots_txt: ") {
		t.Errorf("error %q does not start with \"robots_txt: \"", msg)
	}
	for _, w := range want {
		if !strings.Contains(msg, w) {
			t.Errorf("error %q does not contain %q", msg, w)
		}
	}
	at := ", at Testfile:" + strconv.Itoa(line)
	if !strings.HasSuffix(msg, at) {
		t.Errorf("error %q does not end with %q", msg, at)
	}
}

func TestCaddyfileFileChecks(t *testing.T) {
	dir := t.TempDir()

	readable := filepath.Join(dir, "robots.txt")
	if err := os.WriteFile(readable, []byte("User-agent: *\nDisallow:\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	regular := filepath.Join(dir, "regular")
	if err := os.WriteFile(regular, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	underFile := filepath.Join(regular, "robots.txt") // parent is a regular file
	missing := filepath.Join(dir, "missing", "robots.txt")

	t.Run("readable file as argument", func(t *testing.T) {
		c, err := parse("robots_txt " + quote(readable))
		if err != nil {
			t.Fatal(err)
		}
		if c.File != readable {
			t.Errorf("file: got %q, want %q", c.File, readable)
		}
	})
	t.Run("missing file accepted", func(t *testing.T) {
		c, err := parse("robots_txt {\n\tfile " + quote(missing) + "\n}")
		if err != nil {
			t.Fatalf("a missing file must be accepted: %v", err)
		}
		if c.File != missing {
			t.Errorf("file: got %q, want %q", c.File, missing)
		}
	})
	t.Run("missing file with strict", func(t *testing.T) {
		// strict comes after the file: the error still names the file's line.
		_, err := parse("robots_txt {\n\tmode enforce\n\tfile " + quote(missing) + "\n\tstrict\n}")
		assertErr(t, err, 3, `strict: file "`+missing+`" does not exist`, "drop strict")
		_, err = parse("robots_txt " + quote(missing) + " {\n\tstrict\n}")
		assertErr(t, err, 1, `strict: file "`+missing+`" does not exist`)
		if _, err := parse("robots_txt " + quote(readable) + " {\n\tstrict\n}"); err != nil {
			t.Errorf("strict with a file that exists: %v", err)
		}
		p := dir + "/{http.request.host}/robots.txt"
		if _, err := parse("robots_txt {\n\tfile " + quote(p) + "\n\tstrict\n}"); err != nil {
			t.Errorf("strict with a file named per request is checked when read, not now: %v", err)
		}
	})
	t.Run("strict inline text and included list with errors", func(t *testing.T) {
		// Found at adapt time, at their own line, as a file's are; they
		// failed only at provision before, with no line.
		_, err := parse("robots_txt {\n\tstrict\n\tinline <<TXT\n\t\tUser-agent: *\n\t\tDisallow: private\n\t\tTXT\n}")
		assertErr(t, err, 3, "strict: inline text has errors", "line 2")
		bad := filepath.Join(dir, "bad-list.txt")
		if err := os.WriteFile(bad, []byte("User-agent: *\nDisallow: private\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		_, err = parse("robots_txt " + quote(readable) + " {\n\tstrict\n\tinclude " + quote(bad) + "\n}")
		assertErr(t, err, 3, `strict: included list "`+bad+`" has errors`, "line 2")
		if _, err := parse("robots_txt {\n\tinline <<TXT\n\t\tUser-agent: *\n\t\tDisallow: private\n\t\tTXT\n}"); err != nil {
			t.Errorf("without strict the findings are warnings at load: %v", err)
		}
		// The handler cuts a list at 500 KiB without a finding; so does
		// strict here.
		long := filepath.Join(dir, "long-list.txt")
		if err := os.WriteFile(long, []byte("User-agent: *\nDisallow: /x\n"+strings.Repeat("# padding\n", 60000)), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := parse("robots_txt " + quote(readable) + " {\n\tstrict\n\tinclude " + quote(long) + "\n}"); err != nil {
			t.Errorf("strict with an included list over 500 KiB, which the handler loads cut: %v", err)
		}
	})
	t.Run("strict names the size of a file over 500 KiB", func(t *testing.T) {
		// The handler reads the whole file and its finding gives the
		// file's size; strict at adapt time must say the same, not the
		// size of what it chose to read.
		big := filepath.Join(dir, "big.txt")
		body := "User-agent: *\n" + strings.Repeat("Disallow: /x\n", 60000)
		if err := os.WriteFile(big, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := parse("robots_txt " + quote(big) + " {\n\tstrict\n}")
		assertErr(t, err, 1, `strict: file "`+big+`" has errors`, fmt.Sprintf("the file is %d bytes", len(body)))
	})
	t.Run("directory as argument", func(t *testing.T) {
		_, err := parse("robots_txt " + quote(dir))
		assertErr(t, err, 1, `robots_txt: file "`+dir+`" is a directory; give the path of a robots.txt file`)
	})
	t.Run("directory as subdirective", func(t *testing.T) {
		_, err := parse("robots_txt {\n\tmode enforce\n\tfile " + quote(dir) + "\n}")
		assertErr(t, err, 3, `file "`+dir+`" is a directory`)
	})
	t.Run("parent is a regular file", func(t *testing.T) {
		_, err := parse("robots_txt {\n\tfile " + quote(underFile) + "\n}")
		assertErr(t, err, 2, `file "`+underFile+`" cannot be opened for reading`, "not a directory")
	})
	t.Run("placeholder path is not checked", func(t *testing.T) {
		p := dir + "/{http.request.host}"
		if _, err := parse("robots_txt {\n\tfile " + quote(p) + "\n}"); err != nil {
			t.Fatal(err)
		}
	})
	t.Run("not a regular file", func(t *testing.T) {
		if runtime.GOOS == "windows" {
			t.Skip("no /dev/null")
		}
		_, err := parse("robots_txt /dev/null")
		assertErr(t, err, 1, `file "/dev/null" is a device, not a regular file`)
	})
	t.Run("unreadable file", func(t *testing.T) {
		unreadable := filepath.Join(dir, "secret.txt")
		if err := os.WriteFile(unreadable, []byte("User-agent: *\n"), 0o000); err != nil {
			t.Fatal(err)
		}
		if f, err := os.Open(unreadable); err == nil {
			f.Close()
			// Running as root (or on a system without permission bits):
			// the file is readable after all, so there is nothing to
			// refuse. The "parent is a regular file" case above covers
			// the error path.
			t.Skip("a mode 000 file is readable here (running as root?); unreadable-file case not testable")
		}
		_, err := parse("robots_txt {\n\tfile " + quote(unreadable) + "\n}")
		assertErr(t, err, 2, `file "`+unreadable+`" cannot be opened for reading`, "permission denied")
	})
}

func TestSetDefaults(t *testing.T) {
	var c Config
	c.SetDefaults()
	want := Config{Mode: ModeEnforce, Status: 403, Reload: caddy.Duration(5 * time.Second), Cache: 10000, FileCache: 256}
	if !reflect.DeepEqual(c, want) {
		t.Errorf("defaults:\ngot  %#v\nwant %#v", c, want)
	}
	if !c.ServeEnabled() {
		t.Error("serve must default to true")
	}
	if c.Monitor() {
		t.Error("mode must default to enforce")
	}
	// SetDefaults must leave File, Inline and Serve unset.
	if c.File != "" {
		t.Errorf("SetDefaults set File to %q", c.File)
	}
	if c.Inline != "" {
		t.Errorf("SetDefaults set Inline to %q", c.Inline)
	}
	if c.Serve != nil {
		t.Errorf("SetDefaults set Serve to %v", *c.Serve)
	}
	if err := c.Validate(); err != nil {
		t.Errorf("defaults do not validate: %v", err)
	}

	again := c
	again.SetDefaults()
	if !reflect.DeepEqual(again, c) {
		t.Error("SetDefaults is not idempotent")
	}

	// The included files beside inline text or an upstream's are
	// checked at the default interval; with included URLs only there is
	// nothing to check.
	for _, tc := range []struct {
		name   string
		c      Config
		reload caddy.Duration
	}{
		{"inline", Config{Inline: "x"}, 0},
		{"inline, an included file", Config{Inline: "x", Include: []string{"list.txt"}}, DefaultReload},
		{"url, an included file", Config{URL: "http://app/robots.txt", Include: []string{"https://l.example/l.txt", "list.txt"}}, DefaultReload},
		{"url, an included URL", Config{URL: "http://app/robots.txt", Include: []string{"https://l.example/l.txt"}}, 0},
		{"url, an included file, reload off", Config{URL: "http://app/robots.txt", Include: []string{"list.txt"}, DisableReload: true}, 0},
	} {
		tc.c.SetDefaults()
		if tc.c.Reload != tc.reload {
			t.Errorf("%s: reload %v, want %v", tc.name, time.Duration(tc.c.Reload), time.Duration(tc.reload))
		}
		if err := tc.c.Validate(); err != nil {
			t.Errorf("%s: the defaults do not validate: %v", tc.name, err)
		}
	}

	set := Config{Mode: ModeMonitor, Status: 451, Reload: caddy.Duration(time.Minute), Cache: 7, FileCache: 3, Serve: new(false)}
	kept := set
	kept.SetDefaults()
	if !reflect.DeepEqual(kept, set) {
		t.Errorf("SetDefaults changed set values:\ngot  %#v\nwant %#v", kept, set)
	}
	if kept.ServeEnabled() || !kept.Monitor() {
		t.Error("ServeEnabled/Monitor do not follow the set values")
	}

	off := Config{DisableReload: true}
	off.SetDefaults()
	if off.Reload != 0 {
		t.Errorf("with disable_reload, Reload must stay 0; got %v", time.Duration(off.Reload))
	}
	if err := off.Validate(); err != nil {
		t.Errorf("defaults with disable_reload do not validate: %v", err)
	}

	// inline text and an upstream URL are no file to check: a default
	// reload would be refused by Validate.
	for _, c := range []Config{{Inline: "User-agent: *"}, {URL: "http://app/robots.txt"}} {
		c.SetDefaults()
		if c.Reload != 0 {
			t.Errorf("with inline or url, Reload must stay 0; got %v", time.Duration(c.Reload))
		}
		if err := c.Validate(); err != nil {
			t.Errorf("defaults with inline or url do not validate: %v", err)
		}
	}

	if !(Config{Serve: new(true)}).ServeEnabled() {
		t.Error("serve true must be enabled")
	}
}

func TestValidate(t *testing.T) {
	tests := []struct {
		name string
		c    Config
		want []string // substrings; none means valid
	}{
		{"zero", Config{}, nil},
		{"everything", Config{
			File: "/srv/robots.txt", Mode: ModeMonitor, Status: 503, Body: "x", Serve: new(false),
			Bots: []string{"a"}, Humans: []string{"b"}, Reload: caddy.Duration(time.Second), Cache: MaxCache,
		}, nil},
		{"inline", Config{Inline: "User-agent: *"}, nil},
		{"disable reload", Config{DisableReload: true}, nil},
		{"file and inline", Config{File: "a", Inline: "b"}, []string{"file and inline are both set"}},
		{"file with a wildcard", Config{File: "/srv/*/robots.txt"}, []string{`file: "/srv/*/robots.txt" has a "*" in it`}},
		{"trap with serve off", Config{Trap: "/t/", Serve: new(false)}, []string{"trap needs serve", "does not disallow the trap"}},
		{"trap with serve on", Config{Trap: "/t/", Serve: new(true)}, nil},
		// The handler matches the trap on the path as a server reads it
		// but serves it in the Disallow line as written: "/./" is "/",
		// every page, and "//robots.txt" is /robots.txt, never sprung.
		{"trap that reads as /", Config{Trap: "/./"}, []string{`trap: "/./" is read by a server as "/"`, "write it as a server reads it"}},
		{"trap with .. that reads as /", Config{Trap: "/a/.."}, []string{`trap: "/a/.." is read by a server as "/"`}},
		{"trap of repeated slashes", Config{Trap: "//"}, []string{`trap: "//" is read by a server as "/"`}},
		{"trap that reads as /robots.txt", Config{Trap: "//robots.txt"}, []string{`trap: "//robots.txt" is read by a server as "/robots.txt"`}},
		{"trap with a dot-segment", Config{Trap: "/private/./trap/"}, []string{`read by a server as "/private/trap/"`}},
		{"trap with an escape", Config{Trap: "/%72obots.txt"}, []string{`trap: "/%72obots.txt" has a "%" in it`, "write the path unescaped"}},
		{"trap of non-ASCII", Config{Trap: "/piège/"}, nil},
		// Audit AO-F4: a newline put lines of its own in the served file.
		{"trap with a newline", Config{Trap: "/t/\nDisallow:/"}, []string{`trap: "/t/\nDisallow:/" holds a control character (U+000A)`}},
		{"trap with a trailing newline", Config{Trap: "/trap/\n"}, []string{"holds a control character (U+000A)"}},
		{"trap with a tab", Config{Trap: "/a\tb/"}, []string{"holds a control character (U+0009)"}},
		// Audit AO-F3: a file the client chooses.
		{"file by the host", Config{File: "/srv/{http.request.host}/robots.txt"}, nil},
		{"file by a host label", Config{File: "/srv/{http.request.host.labels.1}/robots.txt"}, nil},
		{"file by the root", Config{File: "{http.vars.root}/robots.txt"}, nil},
		{"file by an environment variable", Config{File: "{env.ROBOTS_DIR}/robots.txt"}, nil},
		{"file by the query", Config{File: "/srv/{http.request.uri.query.t}/robots.txt"}, []string{"file:", "depends on {http.request.uri.query.t}, which the client chooses", "{host}"}},
		{"file by a header", Config{File: "/srv/{http.request.header.X-Tenant}/robots.txt"}, []string{"depends on {http.request.header.X-Tenant}"}},
		{"file by the path", Config{File: "/srv{http.request.uri.path}"}, []string{"depends on {http.request.uri.path}"}},
		// Audit AQ-F1, AQ-F2: what the configuration sets is the operator's.
		{"file by a map's output", Config{File: "{site_dir}/robots.txt"}, nil},
		{"file by vars", Config{File: "{http.vars.site_dir}/robots.txt"}, nil},
		{"file by a cookie", Config{File: "/srv/{http.request.cookie.t}/robots.txt"}, []string{"depends on {http.request.cookie.t}"}},
		{"include twice", Config{Include: []string{"a.txt", "b.txt", "a.txt"}}, []string{`include[2]: "a.txt" is given more than once (first in include[0])`}},
		{"bad mode", Config{Mode: "block"}, []string{`mode: "block" is not allowed; use "enforce" or "monitor"`}},
		{"status too low", Config{Status: 399}, []string{"status: 399 is not allowed; use a code from 400 to 599"}},
		// "grace": 86400 in JSON is 86.4µs, not a day: grace off, silently.
		{"grace of seconds read as nanoseconds", Config{Grace: new(caddy.Duration(86400))}, []string{"grace: 86.4µs is not allowed", "use 0 (off) or a duration from 1s to 168h", "a JSON number counts nanoseconds"}},
		{"grace negative", Config{Grace: new(caddy.Duration(-time.Hour))}, []string{"grace: -1h0m0s is not allowed; use 0 (off) or a duration from 1s to 168h"}},
		{"grace past a week", Config{Grace: new(caddy.Duration(7*24*time.Hour + 1))}, []string{"grace: 168h0m0.000000001s is not allowed; use 0 (off) or a duration from 1s to 168h"}},
		{"grace of a week", Config{Grace: new(caddy.Duration(7 * 24 * time.Hour))}, nil},
		// now + trap_ttl past 2262 overflows Unix nanoseconds: the
		// address was logged as held and held not at all.
		{"trap_ttl that overflows the time it is added to", Config{Trap: "/t/", TrapTTL: caddy.Duration(2500000 * time.Hour)},
			[]string{"trap_ttl: 2500000h0m0s is not allowed; use a duration from 1s to 8760h", "a year at the most"}},
		{"trap_ttl in nanoseconds past int64 seconds", Config{Trap: "/t/", TrapTTL: caddy.Duration(1<<63 - 1)}, []string{"trap_ttl: 2562047h47m16.854775807s is not allowed"}},
		{"trap_ttl of a year", Config{Trap: "/t/", TrapTTL: caddy.Duration(8760 * time.Hour)}, nil},
		{"trap_ttl too short", Config{Trap: "/t/", TrapTTL: caddy.Duration(time.Millisecond)},
			[]string{"trap_ttl: 1ms is not allowed; use a duration from 1s to 8760h", "let go before its next request"}},
		{"reload past a day", Config{Reload: caddy.Duration(24*time.Hour + time.Second)},
			[]string{"reload: 24h0m1s is not allowed; use a duration from 100ms to 24h", "disable_reload to read the file once"}},
		{"reload of a day", Config{Reload: caddy.Duration(24 * time.Hour)}, nil},
		{"grace off", Config{Grace: new(caddy.Duration(0))}, nil},
		{"grace of a second", Config{Grace: new(caddy.Duration(time.Second))}, nil},
		{"status too high", Config{Status: 600}, []string{"status: 600 is not allowed"}},
		{"status negative", Config{Status: -1}, []string{"status: -1 is not allowed"}},
		{"negative reload", Config{Reload: caddy.Duration(-time.Second)},
			[]string{"reload: -1s is not allowed; use a duration from 100ms to 24h"}},
		{"reload that spins", Config{Reload: caddy.Duration(time.Nanosecond)},
			[]string{"reload: 1ns is not allowed; use a duration from 100ms to 24h"}},
		{"share_interval that spins", Config{ShareInterval: caddy.Duration(time.Millisecond)},
			[]string{"share_interval: 1ms is not allowed; use a duration from 100ms to 1h"}},
		// A blob is rewritten at every interval only, and one not written
		// for 7 days is deleted as a gone instance's.
		{"share_interval past the hourly rewrite", Config{ShareInterval: caddy.Duration(8 * 24 * time.Hour)},
			[]string{"share_interval: 192h0m0s is not allowed; use a duration from 100ms to 1h"}},
		{"share_interval of an hour", Config{ShareInterval: caddy.Duration(time.Hour)}, nil},
		{"reload and disable_reload", Config{Reload: caddy.Duration(time.Second), DisableReload: true},
			[]string{"reload and disable_reload are both set"}},
		{"cache negative", Config{Cache: -5}, []string{"cache: -5 is not allowed; use a number of entries from 1 to 1000000"}},
		{"cache too big", Config{Cache: MaxCache + 1}, []string{"cache: 1000001 is not allowed"}},
		{"file_cache negative", Config{FileCache: -1}, []string{"file_cache: -1 is not allowed; use a number of files from 1 to 100000"}},
		{"file_cache too big", Config{FileCache: MaxFileCache + 1}, []string{"file_cache: 100001 is not allowed"}},
		{"file_cache at its bound", Config{FileCache: MaxFileCache}, nil},
		{"empty bot", Config{Bots: []string{"a", ""}}, []string{`bots[1]: "" is not allowed`}},
		{"blank human", Config{Humans: []string{"\t"}}, []string{`humans[0]: "\t" is not allowed`}},
		{"share off with share_interval", Config{Share: "off", ShareInterval: caddy.Duration(time.Second)},
			[]string{`share_interval has no effect with share "off"`, `set share to "on"`}},
		{"crawler twice", Config{Crawlers: []Crawler{{Token: "a", Category: "monitor"}, {Token: "FooBot", Ranges: []string{"192.0.2.1"}}, {Token: "FOOBOT", RDNS: []string{"example.net"}}}},
			[]string{`crawlers[2]: token "FOOBOT" is given more than once (first in crawlers[1])`, "one entry per crawler"}},
		{"one signature agent for two crawlers", Config{Crawlers: []Crawler{{Token: "MySigner", SignatureAgents: []string{"https://signer.example"}}, {Token: "Other", SignatureAgents: []string{"https://SIGNER.example/"}}}},
			[]string{`crawlers[1] (Other): signature_agent "https://SIGNER.example/" is also crawlers[0]'s (MySigner)`, "give each directory to one crawler"}},
		{"two signature agents for two crawlers", Config{Crawlers: []Crawler{{Token: "MySigner", SignatureAgents: []string{"https://signer.example"}}, {Token: "Other", SignatureAgents: []string{"https://other.example"}}}}, nil},
		{"crawler that sets nothing", Config{Crawlers: []Crawler{{Token: "FooBot"}}},
			[]string{"crawlers[0] (FooBot): no way to verify it", "ranges, rdns or signature_agents, or its category"}},
		{"bot and human", Config{Bots: []string{"a", "GPTBot"}, Humans: []string{"b", "gptbot"}},
			[]string{`bots[1] and humans[1]: "GPTBot" is in both`, "keep it in one list"}},
		{"reload with inline", Config{Inline: "x", Reload: caddy.Duration(time.Second)},
			[]string{"reload has no effect with inline", "drop reload"}},
		{"disable_reload with url", Config{URL: "http://app/robots.txt", DisableReload: true},
			[]string{"disable_reload has no effect with url", "drop disable_reload"}},
		{"reload with inline and an included file", Config{Inline: "x", Include: []string{"/etc/caddy/list.txt"}, Reload: caddy.Duration(time.Second)}, nil},
		{"disable_reload with url and an included file", Config{URL: "http://app/robots.txt", Include: []string{"https://lists.example/l.txt", "list.txt"}, DisableReload: true}, nil},
		{"reload with url and an included URL only", Config{URL: "http://app/robots.txt", Include: []string{"https://lists.example/l.txt"}, Reload: caddy.Duration(time.Second)},
			[]string{"reload has no effect with url", "drop reload"}},
		// Each copy of an entry drew its own warning, and added nothing.
		{"bot given twice", Config{Bots: []string{"a", "GPTBot", "gptbot"}},
			[]string{`bots[2]: "gptbot" is given more than once (first in bots[1], as "GPTBot")`, "without regard to case, so give each once"}},
		{"human given twice", Config{Humans: []string{"Safe", "Safe"}}, []string{`humans[1]: "Safe" is given more than once (first in humans[0])`}},
		{"resolver given twice", Config{Resolvers: []string{"[::1]:53", "192.0.2.53", "::1"}},
			[]string{`resolvers[2]: "::1" is the same server as resolvers[0] ("[::1]:53"); give each once`}},
		{"resolver named twice in other case", Config{Resolvers: []string{"dns.example:53", "DNS.example:053"}},
			[]string{`resolvers[1]: "DNS.example:053" is the same server as resolvers[0]`}},
		{"resolvers on two ports", Config{Resolvers: []string{"::1", "[::1]:5353", "0:0::1:53"}}, nil},
		// Audit AF-F7: ranges entries are told apart by what they
		// match, as rdns and signature_agent are, not as written.
		{"range in another case", Config{Crawlers: []Crawler{{Token: "MyBot", Ranges: []string{"2001:db8::/32", "2001:DB8::/32"}}}},
			[]string{`crawlers[0] (MyBot): ranges: "2001:DB8::/32" is given more than once, as "2001:db8::/32"; give each once`}},
		{"address and its /32", Config{Crawlers: []Crawler{{Token: "MyBot", Ranges: []string{"203.0.113.5", "203.0.113.5/32"}}}},
			[]string{`ranges: "203.0.113.5/32" is given more than once, as "203.0.113.5"`}},
		{"range with host bits", Config{Crawlers: []Crawler{{Token: "MyBot", Ranges: []string{"192.0.2.0/24", "192.0.2.7/24"}}}},
			[]string{`ranges: "192.0.2.7/24" is given more than once, as "192.0.2.0/24"`}},
		{"range IPv4-mapped", Config{Crawlers: []Crawler{{Token: "MyBot", Ranges: []string{"192.0.2.0/24", "::ffff:192.0.2.0/120"}}}},
			[]string{`ranges: "::ffff:192.0.2.0/120" is given more than once, as "192.0.2.0/24"`}},
		{"range file under two spellings", Config{Crawlers: []Crawler{{Token: "MyBot", Ranges: []string{"/etc/caddy/mybot.txt", "/etc/caddy/./lists/../mybot.txt"}}}},
			[]string{`ranges: "/etc/caddy/./lists/../mybot.txt" is given more than once, as "/etc/caddy/mybot.txt"`}},
		{"range file relative and as ./", Config{Crawlers: []Crawler{{Token: "MyBot", Ranges: []string{"mybot.txt", "./mybot.txt"}}}},
			[]string{`ranges: "./mybot.txt" is given more than once, as "mybot.txt"`}},
		{"range URL with its host in capitals", Config{Crawlers: []Crawler{{Token: "MyBot", Ranges: []string{"https://lists.example/mybot.json", "https://LISTS.example/mybot.json"}}}},
			[]string{`ranges: "https://LISTS.example/mybot.json" is given more than once`}},
		{"ranges that differ", Config{Crawlers: []Crawler{{Token: "MyBot", Ranges: []string{"192.0.2.0/24", "192.0.2.0/25", "2001:db8::/32", "2001:db8::/48", "203.0.113.5", "mybot.txt", "other/mybot.txt", "https://lists.example/mybot.json", "https://lists.example/MyBot.json"}}}}, nil},
		{"several problems reported together", Config{Mode: "x", Status: 1, Cache: -1},
			[]string{"mode:", "status:", "cache:"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.c.Validate()
			if len(tt.want) == 0 {
				if err != nil {
					t.Fatalf("unexpected error: %v", err)
				}
				return
			}
			if err == nil {
				t.Fatalf("no error; want one containing %q", tt.want)
			}
			msg := err.Error()
			for _, w := range tt.want {
				if !strings.Contains(msg, w) {
					t.Errorf("error %q does not contain %q", msg, w)
				}
			}
			if msg != strings.ToLower(msg[:1])+msg[1:] {
				t.Errorf("error %q does not start in lower case", msg)
			}
		})
	}
}

// TestValidateCaddyfileLine checks that a Validate failure after parsing
// is reported at the directive's line. Parsing catches every problem
// first, so the config is corrupted through a Caddyfile-parsable field
// set before unmarshaling.
func TestValidateCaddyfileLine(t *testing.T) {
	c := Config{Mode: "block"}
	err := c.UnmarshalCaddyfile(caddyfile.NewTestDispenser("\n\nrobots_txt {\n\tstatus 403\n}"))
	assertErr(t, err, 3, `robots_txt: mode: "block" is not allowed`)
}

func TestJSONRoundTrip(t *testing.T) {
	configs := []Config{
		{},
		{File: "{http.vars.root}/robots.txt", Serve: new(true)},
		{Inline: "User-agent: *\nDisallow: /\n", DisableReload: true, Serve: new(false)},
		{
			File: "/srv/robots.txt", Mode: ModeMonitor, Status: 451, Body: "<h1>no</h1>",
			Bots: []string{"GPTBot", "CCBot"}, Humans: []string{"Lynx"},
			Reload: caddy.Duration(90 * time.Second), Cache: 42,
		},
	}
	for _, c := range configs {
		b, err := json.Marshal(c)
		if err != nil {
			t.Fatal(err)
		}
		var back Config
		if err := json.Unmarshal(b, &back); err != nil {
			t.Fatalf("unmarshal %s: %v", b, err)
		}
		if !reflect.DeepEqual(back, c) {
			t.Errorf("round trip of %s:\ngot  %#v\nwant %#v", b, back, c)
		}
	}

	if b, _ := json.Marshal(Config{}); string(b) != "{}" {
		t.Errorf("zero config marshals to %s, want {}", b)
	}

	// Field names are snake_case, and reload accepts a duration string.
	in := `{"file":"f","mode":"monitor","status":429,"body":"b","serve":false,"bots":["x"],` +
		`"humans":["y"],"reload":"2m","cache":3,"file_cache":4}`
	var c Config
	if err := json.Unmarshal([]byte(in), &c); err != nil {
		t.Fatal(err)
	}
	want := Config{File: "f", Mode: ModeMonitor, Status: 429, Body: "b", Serve: new(false),
		Bots: []string{"x"}, Humans: []string{"y"}, Reload: caddy.Duration(2 * time.Minute), Cache: 3, FileCache: 4}
	if !reflect.DeepEqual(c, want) {
		t.Errorf("decoded:\ngot  %#v\nwant %#v", c, want)
	}
	var off Config
	if err := json.Unmarshal([]byte(`{"inline":"t","disable_reload":true}`), &off); err != nil {
		t.Fatal(err)
	}
	if off.Inline != "t" || !off.DisableReload {
		t.Errorf("inline/disable_reload not decoded: %#v", off)
	}
}

// TestCaddyfileJSONEquivalence checks that what the Caddyfile produces
// survives the JSON encoding Caddy stores it in.
func TestCaddyfileJSONEquivalence(t *testing.T) {
	c, err := parse("robots_txt {\n\tinline <<TXT\n\t\tUser-agent: *\n\t\tDisallow: /x\n\t\tTXT\n\tserve off\n\tbots a b\n}")
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(c)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"inline":"User-agent: *\nDisallow: /x","serve":false,"bots":["a","b"]}`
	if string(b) != want {
		t.Errorf("JSON:\ngot  %s\nwant %s", b, want)
	}
}

// TestFieldDocs checks that every exported field of Config has a doc
// comment in full sentences that states its default, since these comments
// are the JSON reference.
func TestFieldDocs(t *testing.T) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "config.go", nil, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	var found bool
	ast.Inspect(f, func(n ast.Node) bool {
		ts, ok := n.(*ast.TypeSpec)
		if !ok || ts.Name.Name != "Config" {
			return true
		}
		found = true
		// caddyserver.com shows these docs as the JSON reference, so they
		// speak of JSON names: no Go field name may appear in them.
		var goNames []string
		for _, field := range ts.Type.(*ast.StructType).Fields.List {
			for _, name := range field.Names {
				if name.IsExported() && name.Name != "URL" {
					goNames = append(goNames, name.Name)
				}
			}
		}
		for _, field := range ts.Type.(*ast.StructType).Fields.List {
			for _, name := range field.Names {
				if !name.IsExported() {
					continue
				}
				doc := strings.TrimSpace(field.Doc.Text())
				for _, g := range goNames {
					if slices.Contains(strings.FieldsFunc(doc, func(r rune) bool { return !unicode.IsLetter(r) && r != '-' }), g) {
						t.Errorf("doc of %s names the Go field %s; use its JSON name", name, g)
					}
				}
				switch {
				case doc == "":
					t.Errorf("field %s has no doc comment", name)
				case !strings.HasSuffix(doc, "."):
					t.Errorf("doc of %s is not a full sentence", name)
				case !strings.Contains(strings.ToLower(doc), "default"):
					t.Errorf("doc of %s does not state the default", name)
				}
			}
		}
		return false
	})
	if !found {
		t.Fatal("type Config not found")
	}
}

func TestCheckFile(t *testing.T) {
	if err := CheckFile(""); err != nil {
		t.Errorf("empty path: %v", err)
	}
	if err := CheckFile("{http.vars.root}/robots.txt"); err != nil {
		t.Errorf("placeholder path: %v", err)
	}
	dir := t.TempDir()
	if err := CheckFile(filepath.Join(dir, "nope.txt")); err != nil {
		t.Errorf("missing file: %v", err)
	}
	err := CheckFile(dir)
	if err == nil || err.Error() != `file "`+dir+`" is a directory; give the path of a robots.txt file` {
		t.Errorf("directory: got %v", err)
	}
	if errors.Unwrap(err) != nil {
		t.Errorf("directory error should be a plain message: %v", err)
	}
}

// TestCheckRangeFile: a ranges file must be a regular file. A named pipe
// is refused without being opened in a way that blocks: the load hung for
// ever on one (audit AC-F3); a directory or a device is no list.
func TestCheckRangeFile(t *testing.T) {
	dir := t.TempDir()
	list := filepath.Join(dir, "ips.txt")
	if err := os.WriteFile(list, []byte("192.0.2.0/24\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	empty, garbage := filepath.Join(dir, "empty.txt"), filepath.Join(dir, "garbage.txt")
	if err := os.WriteFile(empty, []byte("# nothing yet\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(garbage, []byte("garbage line\nnot-an-ip\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		path, want string // want: "" for none, else a snippet of the error
	}{
		{list, ""},
		{fifo, "is a named pipe, not a regular file"},
		{dir, "is a directory"},
		{"/dev/null", "is a device, not a regular file"},
		{filepath.Join(dir, "missing.txt"), "a file of them that exists"},
		// Audit AO-F5: a file with no address leaves the crawler none.
		{empty, `holds no list of addresses: IP list: no prefixes`},
		{garbage, `holds no list of addresses: IP list line 1`},
	} {
		done := make(chan error, 1)
		go func() { done <- CheckRangeFile(tc.path) }()
		select {
		case err := <-done:
			if tc.want == "" && err != nil || tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)) {
				t.Errorf("CheckRangeFile(%s) = %v, want %q", tc.path, err, tc.want)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("CheckRangeFile(%s) blocked", tc.path)
		}
	}
}

// FuzzUnmarshalCaddyfile feeds arbitrary text to UnmarshalCaddyfile. It
// must not panic, and a config it accepts must validate and survive a
// JSON round trip.
func FuzzUnmarshalCaddyfile(f *testing.F) {
	seeds := []string{
		"robots_txt",
		"robots_txt robots.txt",
		"robots_txt {\n\tfile a.txt\n\tmode monitor\n\tstatus 429\n\tbody \"no\"\n\tserve off\n\tbots a b\n\thumans c\n\treload 10s\n\tcache 5\n}",
		"robots_txt {\n\tinline <<TXT\n\t\tUser-agent: *\n\t\tDisallow: /\n\t\tTXT\n}",
		"robots_txt {\n\treload off\n\treload 1s\n}",
		"robots_txt {\n\tmode {\n\t}\n}",
		"robots_txt {\n\t{\n}",
		"robots_txt {\n\tbots \"\"\n}",
		"robots_txt a {\n\tfile b\n}",
		"robots_txt {\n\tcache 99999999999999999999\n\tstatus -0\n}",
		"{\n}",
		"}",
		"",
		"robots_txt { mode monitor }",
	}
	for _, s := range seeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, input string) {
		// NewTestDispenser calls log.Fatalf on text the lexer rejects, and
		// expands {$ENV} before lexing; keep to input it lexes as is.
		if strings.Contains(input, "{$") {
			return
		}
		if _, err := caddyfile.Tokenize([]byte(input), "Testfile"); err != nil {
			return
		}
		var c Config
		if err := c.UnmarshalCaddyfile(caddyfile.NewTestDispenser(input)); err != nil {
			if !strings.HasPrefix(err.Error(), "robots_txt: ") {
				t.Errorf("error %q does not start with \"robots_txt: \"", err)
			}
			return
		}
		if err := c.Validate(); err != nil {
			t.Fatalf("accepted config does not validate: %v\ninput: %q", err, input)
		}
		b, err := json.Marshal(c)
		if err != nil {
			t.Fatal(err)
		}
		var back Config
		if err := json.Unmarshal(b, &back); err != nil {
			t.Fatalf("unmarshal %s: %v", b, err)
		}
		if !reflect.DeepEqual(back, c) {
			t.Fatalf("JSON round trip changed the config:\ngot  %#v\nwant %#v", back, c)
		}
	})
}

func TestURLAndGrace(t *testing.T) {
	for _, tc := range []struct {
		input   string
		url     string
		grace   *time.Duration
		wantErr string
	}{
		{"robots_txt {\n url http://app:8080/robots.txt\n}", "http://app:8080/robots.txt", nil, ""},
		{"robots_txt {\n grace 1h\n}", "", new(time.Hour), ""},
		{"robots_txt {\n grace off\n}", "", new(time.Duration(0)), ""},
		{"robots_txt {\n grace 0\n}", "", new(time.Duration(0)), ""},
		{"robots_txt {\n grace -1h\n}", "", nil, `grace: "-1h" is not allowed`},
		// No bot comes back within a second: grace off in effect.
		{"robots_txt {\n grace 500ms\n}", "", nil, `grace: "500ms" is not allowed; use a duration from 1s to 168h`},
		{"robots_txt {\n grace 7d\n}", "", new(7 * 24 * time.Hour), ""},
		{"robots_txt {\n grace 1s\n}", "", new(time.Second), ""},
		{"robots_txt {\n url ftp://x/robots.txt\n}", "", nil, `url: "ftp://x/robots.txt" is not allowed`},
		{"robots_txt {\n url /robots.txt\n}", "", nil, "give an absolute http or https URL"},
		{"robots_txt {\n url http://app/robots.txt\n inline x\n}", "", nil, "url is set together with file or inline"},
	} {
		var c Config
		err := c.UnmarshalCaddyfile(caddyfile.NewTestDispenser(tc.input))
		if tc.wantErr != "" {
			if err == nil {
				t.Errorf("%q: no error, want one containing %q and the line", tc.input, tc.wantErr)
				continue
			}
			if !strings.Contains(err.Error(), tc.wantErr) {
				t.Errorf("%q: error %v, want one containing %q", tc.input, err, tc.wantErr)
			}
			if !strings.Contains(err.Error(), "Testfile:") {
				t.Errorf("%q: error %v does not give the line (Testfile:N)", tc.input, err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%q: %v", tc.input, err)
			continue
		}
		if c.URL != tc.url {
			t.Errorf("%q: url %q, want %q", tc.input, c.URL, tc.url)
		}
		if (c.Grace == nil) != (tc.grace == nil) || (c.Grace != nil && time.Duration(*c.Grace) != *tc.grace) {
			t.Errorf("%q: grace %v, want %v", tc.input, c.Grace, tc.grace)
		}
	}
	if got := (Config{}).GraceWindow(); got != 24*time.Hour {
		t.Errorf("default grace window %v, want 24h", got)
	}
}

// TestUnmarshalCaddyfileStrictFindings: with strict, a file that is not a
// robots.txt or has error findings is refused at the file's line, as the
// handler would refuse it at load, so that the operator sees where.
func TestUnmarshalCaddyfileStrictFindings(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	html := write("page.html", "<html>\n<body>Not found</body>\n</html>\n")
	relative := write("relative.txt", "User-agent: *\nDisallow: private/\n")
	good := write("good.txt", "User-agent: *\nDisallow: /private/\n")
	for _, tt := range []struct {
		name, input string
		want        []string
		line        int
	}{
		{"an HTML page", "robots_txt {\n\tstrict\n\tfile " + html + "\n}", []string{"strict: file", "does not look like a robots.txt"}, 3},
		{"a rule that matches no URL", "robots_txt " + relative + " {\n\tstrict\n}", []string{"strict: file", "line 2", `"private/"`}, 1},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var c Config
			assertErr(t, c.UnmarshalCaddyfile(caddyfile.NewTestDispenser(tt.input)), tt.line, tt.want...)
		})
	}
	var c Config
	if err := c.UnmarshalCaddyfile(caddyfile.NewTestDispenser("robots_txt {\n\tstrict\n\tfile " + good + "\n}")); err != nil {
		t.Errorf("strict with a good file: %v", err)
	}
	c = Config{}
	if err := c.UnmarshalCaddyfile(caddyfile.NewTestDispenser("robots_txt {\n\tfile " + html + "\n}")); err != nil {
		t.Errorf("an HTML page without strict: %v, want it loaded (and logged) as it is", err)
	}
}

// TestUnmarshalJSONMessages: the errors of the handler's JSON name what
// the operator wrote, not the decoder's own types.
func TestUnmarshalJSONMessages(t *testing.T) {
	for _, tc := range []struct {
		json, want string
	}{
		{`{"status": "403"}`, "status: a JSON string is not allowed; use a number"},
		{`{"serve": "off"}`, "serve: a JSON string is not allowed; use true or false"},
		{`{"bots": "GPTBot"}`, "bots: a JSON string is not allowed; use a list of strings"},
		{`{"crawlers": [{"token": "X", "signature_agent": ["https://a.example"]}]}`, `crawlers[0]: unknown field "signature_agent": the field is "signature_agents", a list`},
		{`{"grace": "off"}`, `grace: time: invalid duration "off"`},
		{`{"MODE": "monitor"}`, `unknown field "MODE": the field is "mode"`},
		{`{"handler": "robots_txt", "@id": "x", "mode": "monitor"}`, ""},
		{`{"crawlers": [{"token": "MyMon", "category": "monitor"}, {"Token": "X", "category": "monitor"}]}`, `crawlers[1]: unknown field "Token": the field is "token"`},
		{`{"crawlers": [{"token": "MyMon", "CATEGORY": "monitor"}]}`, `crawlers[0]: unknown field "CATEGORY": the field is "category"`},
		{`{"crawlers": [{"token": "MyMon", "category": "monitor"}]}`, ""},
		// A duration is written as a string; "use a number" led to
		// nanoseconds.
		{`{"reload": true}`, `reload: a JSON bool is not allowed; use a duration string such as "5s", "1h" or "24h", from 100ms to 24h (a JSON number counts nanoseconds)`},
		{`{"grace": true}`, `grace: a JSON bool is not allowed; use 0 (off) or a duration string such as "5s"`},
		{`{"trap": "/t/", "trap_ttl": [1]}`, `trap_ttl: a JSON array is not allowed; use a duration string such as "5s", "1h" or "24h", from 1s to 8760h`},
		{`{"share_interval": {}}`, `share_interval: a JSON object is not allowed; use a duration string such as "5s", "1h" or "24h", from 100ms to 1h`},
		{`{"grace": 1e30}`, `grace: a JSON number 1e30 is not allowed; use 0 (off) or a duration string`},
		{`{"reload": "99999999999h"}`, `reload: time: invalid duration "99999999999h"; use a duration string such as "5s", "1h" or "24h", from 100ms to 24h`},
		// "use a number" to a number that does not fit.
		{`{"status": 1e20}`, "status: a JSON number 1e20 is not allowed; use a number from 400 to 599"},
		{`{"cache": 99999999999999999999}`, "cache: a JSON number 99999999999999999999 is not allowed; use a number of entries from 1 to 1000000"},
		{`{"file_cache": 1.5}`, "file_cache: a JSON number 1.5 is not allowed; use a number of files from 1 to 100000"},
		{`{"crawlers": {"token": "X"}}`, "crawlers: a JSON object is not allowed; use a list of objects"},
		// The plural name is a crawler's field: "the field is
		// signature_agents" led to another unknown field.
		{`{"signature_agent": ["https://a.example"]}`, `unknown field "signature_agent": "signature_agents" is a field of a crawlers entry, not of the handler; write it in one: "crawlers": [{"token": "MyBot", "signature_agents": …}]`},
		{`{"range": ["192.0.2.0/24"]}`, `unknown field "range": "ranges" is a field of a crawlers entry`},
		{`{"rdns": ["example.com"]}`, `unknown field "rdns": "rdns" is a field of a crawlers entry`},
		{`{"bot": ["a"]}`, `unknown field "bot": the field is "bots", a list`},
		// A crawler's field errors name the entry.
		{`{"crawlers": [{"token": "X", "category": "monitor", "foo": 1}]}`, `crawlers[0]: unknown field "foo"; a crawlers entry has token, ranges, rdns, signature_agents and category`},
		{`{"crawlers": [{"token": "X", "category": "monitor"}, {"token": "Y", "signature_agent": ["https://a.example"]}]}`, `crawlers[1]: unknown field "signature_agent": the field is "signature_agents", a list`},
		{`{"crawlers": [{"token": "X", "category": "monitor"}, {"token": "Y", "ranges": "192.0.2.1"}]}`, "crawlers[1].ranges: a JSON string is not allowed; use a list of strings"},
	} {
		var c Config
		err := json.Unmarshal([]byte(tc.json), &c)
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%s: %v, want no error", tc.json, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%s: %v, want an error saying %q", tc.json, err, tc.want)
		}
	}
}
