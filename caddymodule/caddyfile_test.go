package caddymodule

import (
	"cmp"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/caddyserver/caddy/v2/caddyconfig"
	"github.com/caddyserver/caddy/v2/caddyconfig/caddyfile"
	"github.com/caddyserver/caddy/v2/caddyconfig/httpcaddyfile"
)

func parseTestCaddyfile(input string) ([]httpcaddyfile.ConfigValue, error) {
	return parseCaddyfile(httpcaddyfile.Helper{Dispenser: caddyfile.NewTestDispenser(input)})
}

// TestParseCaddyfileFileAsMatcher: a first argument that Caddy reads as a
// path matcher but that names a file is refused at its line, with how to
// name the file, and what the hint says is accepted; a real path matcher,
// a wildcard one above all, is not refused.
func TestParseCaddyfileFileAsMatcher(t *testing.T) {
	onDisk := filepath.Join(t.TempDir(), "robots")
	if err := os.WriteFile(onDisk, []byte("User-agent: *\nDisallow: /x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	// A directory is refused as the file: the hint names the
	// robots.txt in it.
	dir := filepath.Join(t.TempDir(), "robots.txt")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name, input, arg string
		line             int
		file             string // the hint's file; arg when ""
	}{
		{"a .txt file", "robots_txt /etc/caddy/robots.txt", "/etc/caddy/robots.txt", 1, ""},
		{"a path under /etc", "robots_txt /etc/caddy/robots {\n\tmode monitor\n}", "/etc/caddy/robots", 1, ""},
		{"a path under /srv, at its line", "\n\nrobots_txt /srv/www/robots", "/srv/www/robots", 3, ""},
		{"a path under /home", "robots_txt /home/site/robots", "/home/site/robots", 1, ""},
		{"a path under /var", "robots_txt /var/www/robots", "/var/www/robots", 1, ""},
		{"a path under /usr", "robots_txt /usr/share/site/robots", "/usr/share/site/robots", 1, ""},
		{"a path under /opt", "robots_txt /opt/site/robots", "/opt/site/robots", 1, ""},
		{"a path under /tmp", "robots_txt /tmp/robots", "/tmp/robots", 1, ""},
		{"a file on disk", "robots_txt " + onDisk, onDisk, 1, ""},
		{"a directory on disk", "robots_txt " + dir, dir, 1, filepath.Join(dir, "robots.txt")},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := parseTestCaddyfile(tt.input)
			if err == nil {
				t.Fatal("no error")
			}
			file := tt.file
			if file == "" {
				file = tt.arg
			}
			msg := err.Error()
			for _, want := range []string{
				"robots_txt: " + strconv.Quote(tt.arg) + " is a path matcher",
				`write "robots_txt * ` + file + `" or "file ` + file + `" in the block`,
			} {
				if !strings.Contains(msg, want) {
					t.Errorf("error %q does not contain %q", msg, want)
				}
			}
			if at := ", at Testfile:" + strconv.Itoa(tt.line); !strings.HasSuffix(msg, at) {
				t.Errorf("error %q does not end with %q", msg, at)
			}
			for _, hint := range []string{"robots_txt * " + file, "robots_txt {\n\tfile " + file + "\n}"} {
				if _, err := parseTestCaddyfile(hint); err != nil {
					t.Errorf("the hint %q is refused: %v", hint, err)
				}
			}
		})
	}

	for _, input := range []string{
		"robots_txt /blog/*",
		"robots_txt /blog/*.txt",
		"robots_txt /etc/*",
		"robots_txt /api",
		"robots_txt /api {\n\tmode monitor\n}",
		"robots_txt /home/*",
		"robots_txt /etc/caddy/robots {\n\tfile robots.txt\n}",
		"robots_txt * /etc/caddy/robots",
	} {
		if _, err := parseTestCaddyfile(input); err != nil {
			t.Errorf("%q: %v", input, err)
		}
	}
}

// TestNamesFileOnDisk: a file on disk is refused wherever it is, not only
// under the directories of fileRoots (t.TempDir is usually under /tmp,
// one of them, so they are set aside here).
func TestNamesFileOnDisk(t *testing.T) {
	onDisk := filepath.Join(t.TempDir(), "robots")
	if err := os.WriteFile(onDisk, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	defer func(roots []string) { fileRoots = roots }(fileRoots)
	fileRoots = nil
	if !namesFile(onDisk) {
		t.Errorf("%s is a file on disk; namesFile says it is not", onDisk)
	}
	if dir := filepath.Dir(onDisk); namesFile(dir) {
		t.Errorf("%s is a directory; namesFile says it names a file", dir)
	}
}

// TestParseCaddyfileStrictRoot: with strict, a robots.txt taken from the
// site's root that does not exist, or has errors, is an error at the
// directive's line, as such a file named in the block is at its own.
func TestParseCaddyfileStrictRoot(t *testing.T) {
	empty, full, broken := t.TempDir(), t.TempDir(), t.TempDir()
	if err := os.WriteFile(filepath.Join(full, "robots.txt"), []byte("User-agent: *\nDisallow: /x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(broken, "robots.txt"), []byte("User-agent: *\nDisallow: private\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name, root, input string
		wantErr           bool
	}{
		{"strict, missing", empty, "\nrobots_txt {\n\tstrict\n}", true},
		{"strict, present", full, "robots_txt {\n\tstrict\n}", false},
		{"not strict, missing", empty, "robots_txt", false},
		// A finding strict refuses, as in a file named in the block.
		{"strict, with errors", broken, "\nrobots_txt {\n\tstrict\n}", true},
		{"not strict, with errors", broken, "robots_txt", false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			h := httpcaddyfile.Helper{Dispenser: caddyfile.NewTestDispenser(tt.input), BlockState: map[string]any{"root": tt.root}}
			_, err := parseCaddyfile(h)
			if !tt.wantErr {
				if err != nil {
					t.Fatalf("unexpected error: %v", err)
				}
				return
			}
			if err == nil {
				t.Fatal("no error")
			}
			msg := err.Error()
			if want := strconv.Quote(filepath.Join(tt.root, "robots.txt")) + " (in the site's root"; !strings.Contains(msg, want) {
				t.Errorf("error %q does not contain %q", msg, want)
			}
			if !strings.HasSuffix(msg, ", at Testfile:2") {
				t.Errorf("error %q does not end at the directive's line, 2", msg)
			}
		})
	}
}

// TestTrapOutsideMatcher: a trap on a handler whose path matcher does not
// take /robots.txt is never announced in the robots.txt clients get (so it
// traps those that obey it), and one whose matcher does not take the trap
// path is never sprung: both are refused at their line.
func TestTrapOutsideMatcher(t *testing.T) {
	for _, tc := range []struct {
		input, want string
	}{
		{"robots_txt /blog/* {\n\ttrap /blog/trap/\n}", "does not take requests for /robots.txt"},
		{"robots_txt /robots* {\n\ttrap /trap/\n}", "does not take the trap path"},
		{"robots_txt {\n\ttrap /trap/\n}", ""},
		{"robots_txt * {\n\ttrap /trap/\n}", ""},
		{"robots_txt /blog/* {\n\tmode monitor\n}", ""},
	} {
		_, err := parseTestCaddyfile(tc.input)
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%q: %v", tc.input, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%q: error %v, want one saying %q", tc.input, err, tc.want)
		}
	}
}

// TestTrapOutsideNamedMatcher: a named matcher is judged by its path
// matcher too, through Caddy's own adapter. A path matcher that does not
// take /robots.txt decides alone, whatever else the set holds (all of a
// set's matchers must match); one that takes it leaves the rest to the
// request, as do matchers of other kinds.
func TestTrapOutsideNamedMatcher(t *testing.T) {
	for _, tc := range []struct {
		name, matcher, want string
	}{
		{"a path and a method", "path /app/*\n\tmethod GET", "does not take requests for /robots.txt"},
		{"a path that takes both, and a header", "path /robots.txt /trap/*\n\theader X-A 1", ""},
		{"a header alone", "header X-A 1", ""},
		{"a method a GET is not", "method POST", `this handler's matcher (method ["POST"]) does not take requests for /robots.txt`},
		{"not a path", "not path /app/*", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			input := ":80 {\n\t@m {\n\t\t" + tc.matcher + "\n\t}\n\trobots_txt @m {\n\t\ttrap /trap/\n\t}\n}\n"
			_, _, err := caddyconfig.GetAdapter("caddyfile").Adapt([]byte(input), nil)
			switch {
			case tc.want == "" && err != nil:
				t.Errorf("%v\n%s", err, input)
			case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
				t.Errorf("error %v, want one saying %q\n%s", err, tc.want, input)
			}
		})
	}
}

// TestInlineAdaptsAsWritten: the inline text of a Caddyfile comes out of
// Caddy's adapter as written, placeholder shorthands included, which the
// adapter rewrites in every token ({host} to {http.request.host}). A long
// form written as such cannot be told from that rewrite: it comes out as
// the shorthand, as the README says.
func TestInlineAdaptsAsWritten(t *testing.T) {
	for _, tc := range []struct{ name, line, want string }{
		{"host", "Sitemap: https://{host}/sitemap.xml", ""},
		{"path", "Disallow: /{path}/", ""},
		{"uri", "Disallow: /{uri}", ""},
		{"query", "Disallow: /*?{query}", ""},
		{"method", "Disallow: /{method}/", ""},
		{"remote_host", "Disallow: /{remote_host}/", ""},
		{"header", "Disallow: /{header.X-Foo}/", ""},
		{"not a shorthand", "Disallow: /api/{id}", ""},
		{"a long form written as such", "Sitemap: https://{http.request.host}/sitemap.xml", "Sitemap: https://{host}/sitemap.xml"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			input := ":80 {\n\trobots_txt {\n\t\tinline <<TXT\n\t\t\tUser-agent: *\n\t\t\t" + tc.line + "\n\t\t\tTXT\n\t}\n}\n"
			out, _, err := caddyconfig.GetAdapter("caddyfile").Adapt([]byte(input), nil)
			if err != nil {
				t.Fatalf("%v\n%s", err, input)
			}
			var cfg any
			if err := json.Unmarshal(out, &cfg); err != nil {
				t.Fatal(err)
			}
			h := findHandler(cfg, "robots_txt")
			if h == nil {
				t.Fatalf("no robots_txt handler in %s", out)
			}
			want := "User-agent: *\n" + cmp.Or(tc.want, tc.line)
			if got := h["inline"]; got != want {
				t.Errorf("inline in the adapted JSON:\ngot  %q\nwant %q", got, want)
			}
		})
	}
}

// findHandler returns the first handler named name in an adapted config.
func findHandler(v any, name string) map[string]any {
	switch v := v.(type) {
	case map[string]any:
		if v["handler"] == name {
			return v
		}
		for _, x := range v {
			if h := findHandler(x, name); h != nil {
				return h
			}
		}
	case []any:
		for _, x := range v {
			if h := findHandler(x, name); h != nil {
				return h
			}
		}
	}
	return nil
}
