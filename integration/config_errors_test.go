package integration

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestConfigErrors checks that a bad robots_txt block fails `caddy adapt`
// with a message that names the Caddyfile line and what is allowed.
func TestConfigErrors(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	robotsDir := filepath.Join(dir, "robots-dir")
	if err := os.MkdirAll(robotsDir, 0o755); err != nil {
		t.Fatal(err)
	}
	robotsFile := filepath.Join(dir, "robots.txt")
	writeFile(t, robotsFile, "User-agent: *\nDisallow: /private/\n")
	fifo := filepath.Join(dir, "robots-fifo.txt")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	unreadable := unreadableRobots(t, dir)
	huge := filepath.Join(dir, "huge.txt")
	writeFile(t, huge, "")
	if err := os.Truncate(huge, 8<<20+1); err != nil {
		t.Fatal(err)
	}
	missingList := filepath.Join(dir, "no-such-list.txt")

	// Each block starts at line 1 of its Caddyfile; the robots_txt
	// directive is on line 3.
	cases := []struct {
		name   string
		block  string // the robots_txt block, lines 3 and on
		line   int
		want   []string
		asUser bool // run Caddy as an unprivileged user when root
	}{
		{"unknown subdirective", "robots_txt {\n\t\tfrobnicate on\n\t}", 4,
			[]string{`unknown subdirective "frobnicate"`, "file, inline, mode, status, body, serve, bots, humans, reload, cache"}, false},
		{"strict with a file longer than crawlers read", "robots_txt {\n\t\tfile " + huge + "\n\t\tstrict\n\t}", 4,
			[]string{huge, "the file is 8388609 bytes; everything past the first 512000 bytes is ignored"}, false},
		{"strict with a missing included list", "robots_txt {\n\t\tinline \"User-agent: *\"\n\t\tstrict\n\t\tinclude " + missingList + "\n\t}", 6,
			[]string{"strict: included list", missingList, "does not exist"}, false},
		{"trap outside a named path matcher", "@blog path /blog/*\n\trobots_txt @blog {\n\t\ttrap /blog/trap/\n\t}", 4,
			[]string{"trap /blog/trap/", "does not take requests for /robots.txt", "add /robots.txt and the trap to the matcher"}, false},
		{"mode block", "robots_txt {\n\t\tmode block\n\t}", 4,
			[]string{`mode: "block" is not allowed`, `"enforce"`, `"monitor"`}, false},
		{"status 200", "robots_txt {\n\t\tstatus 200\n\t}", 4,
			[]string{"status: 200 is not allowed", "400 to 599"}, false},
		{"status not a number", "robots_txt {\n\t\tstatus forbidden\n\t}", 4,
			[]string{`status: "forbidden" is not a number`, "400 to 599"}, false},
		{"serve maybe", "robots_txt {\n\t\tserve maybe\n\t}", 4,
			[]string{`serve: "maybe" is not allowed`, "on or off"}, false},
		{"reload zero", "robots_txt {\n\t\treload 0s\n\t}", 4,
			[]string{"reload", "from 100ms to 24h", "off"}, false},
		{"cache zero", "robots_txt {\n\t\tcache 0\n\t}", 4,
			[]string{"cache: 0 is not allowed", "1 to 1000000"}, false},
		{"mode twice", "robots_txt {\n\t\tmode monitor\n\t\tmode enforce\n\t}", 5,
			[]string{"mode is given more than once (first at line 4)"}, false},
		{"file is a directory", "robots_txt {\n\t\tfile " + robotsDir + "\n\t}", 4,
			[]string{robotsDir, "is a directory", "give the path of a robots.txt file"}, false},
		{"file argument is a directory", "robots_txt * " + robotsDir, 3,
			[]string{robotsDir, "is a directory"}, false},
		{"file and inline", "robots_txt {\n\t\tfile " + robotsFile + "\n\t\tinline \"User-agent: *\"\n\t}", 5,
			[]string{"file and inline are both set"}, false},
		{"inline and file", "robots_txt {\n\t\tinline \"User-agent: *\"\n\t\tfile " + robotsFile + "\n\t}", 5,
			[]string{"file and inline are both set"}, false},
		{"file unreadable", "robots_txt {\n\t\tfile " + unreadable + "\n\t}", 4,
			[]string{unreadable, "cannot be opened for reading", "permission denied"}, true},
		{"file is a named pipe", "robots_txt {\n\t\tfile " + fifo + "\n\t}", 4,
			[]string{fifo, "is a named pipe, not a regular file"}, false},
		// Caddy reads a first argument starting with "/" as a path
		// matcher; one that looks like a file is a mistake to point out.
		{"file path where the matcher goes", "robots_txt " + robotsFile + " {\n\t\tmode monitor\n\t}", 3,
			[]string{"is a path matcher", "robots_txt * " + robotsFile, "file " + robotsFile}, false},
		{"path under /etc where the matcher goes", "robots_txt /etc/caddy/robots {\n\t\tmode monitor\n\t}", 3,
			[]string{"is a path matcher", "robots_txt * /etc/caddy/robots", "file /etc/caddy/robots"}, false},
		{"file with a wildcard", "robots_txt /blog/* blog/*.txt", 3,
			[]string{`file "blog/*.txt" has a "*" in it`, "robots_txt /blog/* { file <path> }"}, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			cfDir := t.TempDir()
			var cred *syscall.Credential
			if c.asUser {
				cred = dropPrivileges(t, cfDir)
			}
			cf := filepath.Join(cfDir, "Caddyfile")
			writeFile(t, cf, fmt.Sprintf("http://127.0.0.1:8080 {\n\troot * %s\n\t%s\n\tfile_server\n}\n", dir, c.block))
			code, stdout, rawStderr := runCaddyCmdAs(t, cred, cfDir, "adapt", "--config", cf, "--adapter", "caddyfile")
			stderr := errorText(rawStderr)
			if code == 0 {
				t.Fatalf("caddy adapt succeeded, want an error\nstdout:\n%s", stdout)
			}
			wantLine := fmt.Sprintf("Caddyfile:%d", c.line)
			if !strings.Contains(stderr, wantLine) {
				t.Errorf("stderr does not name the line (%s):\n%s", wantLine, stderr)
			}
			for _, w := range c.want {
				if !strings.Contains(stderr, w) {
					t.Errorf("stderr does not contain %q:\n%s", w, stderr)
				}
			}
		})
	}
}

// TestConfigErrorsJSON checks the same validation for JSON configs, at
// `caddy validate` and at `caddy run` (which must exit, not serve).
func TestConfigErrorsJSON(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	robotsDir := filepath.Join(dir, "robots-dir")
	if err := os.MkdirAll(robotsDir, 0o755); err != nil {
		t.Fatal(err)
	}
	unreadable := unreadableRobots(t, dir)
	list := filepath.Join(dir, "list.txt")
	if err := os.WriteFile(list, []byte("User-agent: NewBot\nDisallow: /x\nDisallow: private\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	loose := filepath.Join(dir, "loose.txt")
	if err := os.WriteFile(loose, []byte("Disallow: /early\nUser-agent: NewBot\nDisallow: /x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name    string
		handler map[string]any
		want    []string
		asUser  bool // run Caddy as an unprivileged user when root
	}{
		{"mode block", map[string]any{"mode": "block"}, []string{`mode: "block" is not allowed`, `"enforce"`, `"monitor"`}, false},
		{"status 200", map[string]any{"status": 200}, []string{"status: 200 is not allowed", "400 to 599"}, false},
		{"file is a directory", map[string]any{"file": robotsDir}, []string{robotsDir, "is a directory"}, false},
		{"file and inline", map[string]any{"file": filepath.Join(dir, "robots.txt"), "inline": "User-agent: *\n"}, []string{"file and inline are both set"}, false},
		{"file unreadable", map[string]any{"file": unreadable}, []string{unreadable, "cannot be opened for reading", "permission denied"}, true},
		{"strict, file missing", map[string]any{"file": filepath.Join(dir, "missing.txt"), "strict": true},
			[]string{"strict: robots.txt " + filepath.Join(dir, "missing.txt") + " does not exist"}, false},
		{"strict, errors in the file", map[string]any{"inline": "User-agent: *\nDisallow: private/\n", "strict": true},
			[]string{"strict: robots.txt inline has errors", "line 2"}, false},
		{"strict, errors in an included list", map[string]any{"inline": "User-agent: *\nDisallow: /a\n", "include": []string{list}, "strict": true},
			[]string{"strict: robots.txt inline has errors", list + ":3: pattern \"private\""}, false},
		{"strict, an included list's rule outside any group", map[string]any{"inline": "User-agent: *\nDisallow: /a\n", "include": []string{loose}, "strict": true},
			[]string{"strict: robots.txt inline has errors", loose + ":1: Disallow rule comes before any user-agent line"}, false},
		{"strict, an HTML page", map[string]any{"inline": "<html>\n<body>Not found</body>\n</html>\n", "strict": true},
			[]string{"strict: robots.txt inline has errors", "does not look like a robots.txt"}, false},
		{"strict, an included file missing", map[string]any{"inline": "User-agent: *\nDisallow: /a\n", "include": []string{filepath.Join(dir, "gone.txt")}, "strict": true},
			[]string{"strict: robots.txt inline has errors", "included " + filepath.Join(dir, "gone.txt") + " could not be read"}, false},
		// encoding/json gives a duration's error without its field, and
		// takes a field in any letter case.
		{"a duration that does not parse", map[string]any{"inline": "User-agent: *\n", "grace": "off"}, []string{`grace: time: invalid duration "off"`, `such as "5s"`}, false},
		{"a field in capitals", map[string]any{"inline": "User-agent: *\n", "MODE": "monitor"}, []string{`unknown field "MODE": the field is "mode"`}, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			h := map[string]any{"handler": "robots_txt"}
			for k, v := range c.handler {
				h[k] = v
			}
			cfg := map[string]any{
				"admin": map[string]any{"listen": fmt.Sprintf("127.0.0.1:%d", freePort(t))},
				"apps": map[string]any{"http": map[string]any{"servers": map[string]any{"s": map[string]any{
					"listen":          []string{fmt.Sprintf("127.0.0.1:%d", freePort(t))},
					"automatic_https": map[string]any{"disable": true},
					"routes":          []any{map[string]any{"handle": []any{h}}},
				}}}},
			}
			b, err := json.Marshal(cfg)
			if err != nil {
				t.Fatal(err)
			}
			cfgDir := t.TempDir()
			var cred *syscall.Credential
			if c.asUser {
				cred = dropPrivileges(t, cfgDir)
			}
			path := filepath.Join(cfgDir, "caddy.json")
			writeFile(t, path, string(b))
			for _, cmd := range []string{"validate", "run"} {
				code, stdout, rawStderr := runCaddyCmdAs(t, cred, cfgDir, cmd, "--config", path)
				stderr := errorText(rawStderr)
				if code == 0 {
					t.Errorf("caddy %s succeeded, want an error\nstdout:\n%s\nstderr:\n%s", cmd, stdout, stderr)
					continue
				}
				for _, w := range c.want {
					if !strings.Contains(stderr, w) {
						t.Errorf("caddy %s: stderr does not contain %q:\n%s", cmd, w, stderr)
					}
				}
			}
		})
	}
}

// unreadableRobots writes a robots.txt in dir that only root can read, and
// makes dir (and its parent) readable to an unprivileged Caddy, so that the
// file is the only thing it cannot read.
func unreadableRobots(t *testing.T, dir string) string {
	t.Helper()
	unreadable := filepath.Join(dir, "unreadable-robots.txt")
	writeFile(t, unreadable, "User-agent: *\nDisallow: /\n")
	if err := os.Chmod(unreadable, 0o000); err != nil {
		t.Fatal(err)
	}
	for _, d := range []string{dir, filepath.Dir(dir)} {
		if err := os.Chmod(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return unreadable
}
