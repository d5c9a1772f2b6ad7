package caddymodule

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/caddyserver/caddy/v2/caddyconfig/caddyfile"
	"github.com/caddyserver/caddy/v2/caddyconfig/httpcaddyfile"
)

func parseTestCaddyfile(input string) ([]httpcaddyfile.ConfigValue, error) {
	return parseCaddyfile(httpcaddyfile.Helper{Dispenser: caddyfile.NewTestDispenser(input)})
}

// TestParseCaddyfileFileAsMatcher: a first argument that Caddy reads as a
// path matcher but that names a file is refused at its line, with how to
// name the file; a real path matcher is not.
func TestParseCaddyfileFileAsMatcher(t *testing.T) {
	onDisk := filepath.Join(t.TempDir(), "robots")
	if err := os.WriteFile(onDisk, []byte("User-agent: *\nDisallow: /x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name, input, arg string
		line             int
	}{
		{"a .txt file", "robots_txt /etc/caddy/robots.txt", "/etc/caddy/robots.txt", 1},
		{"a path under /etc", "robots_txt /etc/caddy/robots {\n\tmode monitor\n}", "/etc/caddy/robots", 1},
		{"a path under /srv, at its line", "\n\nrobots_txt /srv/www/robots", "/srv/www/robots", 3},
		{"a path under /home", "robots_txt /home/site/robots", "/home/site/robots", 1},
		{"a path under /var", "robots_txt /var/www/robots", "/var/www/robots", 1},
		{"a path under /usr", "robots_txt /usr/share/site/robots", "/usr/share/site/robots", 1},
		{"a path under /opt", "robots_txt /opt/site/robots", "/opt/site/robots", 1},
		{"a path under /tmp", "robots_txt /tmp/robots", "/tmp/robots", 1},
		{"a file on disk", "robots_txt " + onDisk, onDisk, 1},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := parseTestCaddyfile(tt.input)
			if err == nil {
				t.Fatal("no error")
			}
			msg := err.Error()
			for _, want := range []string{
				"robots_txt: " + strconv.Quote(tt.arg) + " is a path matcher",
				`write "robots_txt * ` + tt.arg + `" or "file ` + tt.arg + `" in the block`,
			} {
				if !strings.Contains(msg, want) {
					t.Errorf("error %q does not contain %q", msg, want)
				}
			}
			if at := ", at Testfile:" + strconv.Itoa(tt.line); !strings.HasSuffix(msg, at) {
				t.Errorf("error %q does not end with %q", msg, at)
			}
		})
	}

	for _, input := range []string{
		"robots_txt /blog/*",
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
