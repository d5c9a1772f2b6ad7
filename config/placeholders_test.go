package config

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/caddyserver/caddy/v2/caddyconfig/caddyfile"
)

// TestResolveURL: url is fetched as include is read, with Caddy's global
// placeholders replaced when the configuration loads, in the host too;
// one of the request, or a URL its placeholders leave empty or broken,
// is an error that says so, rather than a URL fetched as written.
func TestResolveURL(t *testing.T) {
	secret := filepath.Join(t.TempDir(), "site")
	if err := os.WriteFile(secret, []byte("shop\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("ROBOTS_TXT_TEST_SITE", "shop")
	t.Setenv("ROBOTS_TXT_TEST_HOST", "app:8080")
	t.Setenv("ROBOTS_TXT_TEST_URL", "http://app:8080/robots.txt")
	for _, tc := range []struct {
		name, in, want, err string
	}{
		{"a URL", "http://app:8080/robots.txt", "http://app:8080/robots.txt", ""},
		{"a URL whose scheme is in capitals", "HTTPS://app/robots.txt", "https://app/robots.txt", ""},
		{"a variable in the path", "http://app:8080/{env.ROBOTS_TXT_TEST_SITE}/robots.txt", "http://app:8080/shop/robots.txt", ""},
		{"a variable in the host", "http://{env.ROBOTS_TXT_TEST_HOST}/robots.txt", "http://app:8080/robots.txt", ""},
		{"the URL in a variable", "{env.ROBOTS_TXT_TEST_URL}", "http://app:8080/robots.txt", ""},
		{"a file placeholder", "http://app/{file." + secret + "}/robots.txt", "http://app/shop/robots.txt", ""},
		{"the request's host", "http://app/{http.request.host}/robots.txt", "",
			`url: "http://app/{http.request.host}/robots.txt" depends on the request ({http.request.host} is not known when the configuration loads)`},
		{"the request's host as the host", "http://{http.request.host}/robots.txt", "", "depends on the request ({http.request.host}"},
		{"a placeholder Caddy does not know", "http://app/{evn.SITE}/robots.txt", "", "depends on the request ({evn.SITE}"},
		{"an unset variable as the URL", "{env.ROBOTS_TXT_TEST_UNSET}", "",
			`url: "{env.ROBOTS_TXT_TEST_UNSET}" is "" once its placeholders are replaced ({env.ROBOTS_TXT_TEST_UNSET} is empty: an environment variable that is not set?)`},
		{"an unset variable as the host", "http://{env.ROBOTS_TXT_TEST_UNSET}/robots.txt", "",
			`url: "http://{env.ROBOTS_TXT_TEST_UNSET}/robots.txt" is "http:///robots.txt" once its placeholders are replaced ({env.ROBOTS_TXT_TEST_UNSET} is empty`},
		{"two unset variables", "http://{env.ROBOTS_TXT_TEST_UNSET}{env.ROBOTS_TXT_TEST_UNSET2}/robots.txt", "",
			`({env.ROBOTS_TXT_TEST_UNSET}, {env.ROBOTS_TXT_TEST_UNSET2} are empty: environment variables that are not set?)`},
		{"a broken URL of no empty placeholder", "{env.ROBOTS_TXT_TEST_SITE}", "",
			`url: "{env.ROBOTS_TXT_TEST_SITE}" is "shop" once its placeholders are replaced (an environment variable that is not set?)`},
		{"another scheme", "ftp://app/robots.txt", "", `url: "ftp://app/robots.txt" is not allowed; give an absolute http or https URL`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ResolveURL(tc.in)
			switch {
			case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
				t.Errorf("ResolveURL(%q) = %q, %v; want an error saying %q", tc.in, got, err, tc.err)
			case tc.err == "" && (err != nil || got != tc.want):
				t.Errorf("ResolveURL(%q) = %q, %v; want %q", tc.in, got, err, tc.want)
			}
		})
	}
}

// TestURLPlaceholdersAsWritten: a url or include that depends on the
// request is refused at its Caddyfile line and by Validate (JSON), each
// naming the placeholder and what is allowed; global placeholders, in the
// host too, are left to be resolved at load.
func TestURLPlaceholdersAsWritten(t *testing.T) {
	const allowed = "give its URL, or {env.*} placeholders or Caddy's other global ones"
	checkAtLoad(t, allowed, []atLoadCase{
		{"url with a variable in the path", `url "http://127.0.0.1:9288/{env.SITE}/robots.txt"`,
			Config{URL: "http://127.0.0.1:9288/{env.SITE}/robots.txt"}, "", ""},
		{"url with a variable as the host", "url http://{env.UPSTREAM}/robots.txt",
			Config{URL: "http://{env.UPSTREAM}/robots.txt"}, "", ""},
		{"url in a variable", "url {env.ROBOTS_URL}", Config{URL: "{env.ROBOTS_URL}"}, "", ""},
		{"url with the request's host in the path", "url http://127.0.0.1:9288/d/{http.request.host}/robots.txt",
			Config{URL: "http://127.0.0.1:9288/d/{http.request.host}/robots.txt"},
			`robots_txt: url: "http://127.0.0.1:9288/d/{http.request.host}/robots.txt" depends on the request ({http.request.host} is not known when the configuration loads)`,
			`url: "http://127.0.0.1:9288/d/{http.request.host}/robots.txt" depends on the request`},
		{"url with the request's host as the host", "url http://{http.request.host}/robots.txt",
			Config{URL: "http://{http.request.host}/robots.txt"},
			"url: \"http://{http.request.host}/robots.txt\" depends on the request", "url: \"http://{http.request.host}/robots.txt\" depends on the request"},
		{"include URL with a variable as the host", "include https://{env.LISTS}/ai.txt",
			Config{Include: []string{"https://{env.LISTS}/ai.txt"}}, "", ""},
		{"include URL with the request's host", "include https://lists.example/{http.request.host}.txt",
			Config{Include: []string{"https://lists.example/{http.request.host}.txt"}},
			`include: "https://lists.example/{http.request.host}.txt" depends on the request`,
			`include[0]: "https://lists.example/{http.request.host}.txt" depends on the request`},
	})
}

// TestUserAgentPlaceholdersAsWritten: a bots or humans entry holding a
// placeholder of the request, which no header holds as written, is
// refused at its Caddyfile line and by Validate; a global one is left to
// be replaced at load.
func TestUserAgentPlaceholdersAsWritten(t *testing.T) {
	const allowed = "a User-Agent substring is the same for every request: give the substring as written, or {env.*} placeholders"
	checkAtLoad(t, allowed, []atLoadCase{
		{"humans from the environment", "humans {env.MONITOR_UA}", Config{Humans: []string{"{env.MONITOR_UA}"}}, "", ""},
		{"bots from the environment", "bots Foo {env.BOT_UA}", Config{Bots: []string{"Foo", "{env.BOT_UA}"}}, "", ""},
		{"humans of the request", "humans {http.request.host}", Config{Humans: []string{"{http.request.host}"}},
			`robots_txt: humans: "{http.request.host}" depends on the request ({http.request.host} is not known when the configuration loads)`,
			`humans[0]: "{http.request.host}" depends on the request`},
		{"bots with a placeholder Caddy does not know", "bots a My{Bot}", Config{Bots: []string{"a", "My{Bot}"}},
			`robots_txt: bots: "My{Bot}" depends on the request ({Bot} is not known`, `bots[1]: "My{Bot}" depends on the request`},
	})
}

// TestResolveUserAgents: bots and humans are matched with their global
// placeholders replaced, as url and include are read; an entry that is
// blank once resolved (which every header contains: humans would exempt
// every client) or then repeats another is an error naming it.
func TestResolveUserAgents(t *testing.T) {
	t.Setenv("ROBOTS_TXT_TEST_MONITOR", "MyMonitor")
	t.Setenv("ROBOTS_TXT_TEST_BLANK", " ")
	for _, tc := range []struct {
		name                 string
		bots, humans         []string
		wantBots, wantHumans []string
		err                  string
	}{
		{"none", nil, nil, nil, nil, ""},
		{"as written", []string{"FooBot"}, []string{"Safe"}, []string{"FooBot"}, []string{"Safe"}, ""},
		{"a variable", []string{"Crawler-{env.ROBOTS_TXT_TEST_MONITOR}"}, []string{"{env.ROBOTS_TXT_TEST_MONITOR}"},
			[]string{"Crawler-MyMonitor"}, []string{"MyMonitor"}, ""},
		{"an unset variable", nil, []string{"Safe", "{env.ROBOTS_TXT_TEST_UNSET}"}, nil, nil,
			`humans[1]: "{env.ROBOTS_TXT_TEST_UNSET}" is "" once its placeholders are replaced ({env.ROBOTS_TXT_TEST_UNSET} is empty: an environment variable that is not set?), which every User-Agent header contains`},
		{"a blank variable", []string{"{env.ROBOTS_TXT_TEST_BLANK}"}, nil, nil, nil, `bots[0]: "{env.ROBOTS_TXT_TEST_BLANK}" is " " once its placeholders are replaced, which`},
		{"a request placeholder", []string{"{http.request.host}"}, nil, nil, nil, `bots[0]: "{http.request.host}" depends on the request`},
		{"the same entry once resolved", nil, []string{"mymonitor", "{env.ROBOTS_TXT_TEST_MONITOR}"}, nil, nil,
			`once the placeholders of bots and humans are replaced: humans[1]: "MyMonitor" is given more than once (first in humans[0], as "mymonitor")`},
		{"in both once resolved", []string{"{env.ROBOTS_TXT_TEST_MONITOR}"}, []string{"MyMonitor"}, nil, nil,
			`once the placeholders of bots and humans are replaced: bots[0] and humans[0]: "MyMonitor" is in both`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			bots, humans, err := ResolveUserAgents(tc.bots, tc.humans)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("ResolveUserAgents: %v; want an error saying %q", err, tc.err)
				}
				return
			}
			if err != nil || !slices.Equal(bots, tc.wantBots) || !slices.Equal(humans, tc.wantHumans) {
				t.Errorf("ResolveUserAgents = %q, %q, %v; want %q, %q", bots, humans, err, tc.wantBots, tc.wantHumans)
			}
		})
	}
}

// atLoadCase is a subdirective and the Config it makes, with the errors
// the Caddyfile adapter and Validate give for them.
type atLoadCase struct {
	name      string
	caddyfile string // the subdirective, at line 3
	c         Config
	caddyErr  string // "" when valid
	validErr  string
}

// checkAtLoad runs each case as a subtest (see checkCaseAtLoad).
func checkAtLoad(t *testing.T, allowed string, cases []atLoadCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			checkCaseAtLoad(t, tc.caddyfile, tc.c, tc.caddyErr, tc.validErr, allowed)
		})
	}
}

// checkCaseAtLoad checks that the subdirective sub (at line 4 of a
// Caddyfile) is refused with caddyErr, and c by Validate with validErr,
// each saying allowed; "" for valid.
func checkCaseAtLoad(t *testing.T, sub string, c Config, caddyErr, validErr, allowed string) {
	t.Helper()
	var got Config
	err := got.UnmarshalCaddyfile(caddyfile.NewTestDispenser("\n\nrobots_txt {\n\t" + sub + "\n}"))
	if caddyErr == "" {
		if err != nil {
			t.Errorf("Caddyfile: %v", err)
		}
	} else {
		assertErr(t, err, 4, caddyErr, allowed)
	}
	err = c.Validate()
	switch {
	case validErr == "" && err != nil:
		t.Errorf("Validate: %v", err)
	case validErr != "" && (err == nil || !strings.Contains(err.Error(), validErr) || !strings.Contains(err.Error(), allowed)):
		t.Errorf("Validate: %v; want an error saying %q and %q", err, validErr, allowed)
	}
}
