package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/robotsguard/caddy-robots-txt/caddymodule/internal/logtest"
	"github.com/robotsguard/caddy-robots-txt/caddymodule/report"
)

func sampleLog() (plain, second string) { return logtest.Sample(report.MaxLine) }

var gzipped = logtest.Gzip

func TestParseSince(t *testing.T) {
	now := time.Date(2025, 3, 10, 12, 0, 0, 0, time.UTC)
	for in, want := range map[string]time.Time{
		"2025-03-01T00:00:00Z":      time.Date(2025, 3, 1, 0, 0, 0, 0, time.UTC),
		"2025-03-01T02:00:00+02:00": time.Date(2025, 3, 1, 0, 0, 0, 0, time.UTC),
		"2025-03-01":                time.Date(2025, 3, 1, 0, 0, 0, 0, time.UTC),
		"24h":                       now.Add(-24 * time.Hour),
		"90m":                       now.Add(-90 * time.Minute),
		"7d":                        now.Add(-7 * 24 * time.Hour),
		"1d12h":                     now.Add(-36 * time.Hour),
		"1.5d":                      now.Add(-36 * time.Hour),
	} {
		got, err := ParseSince(in, now)
		if err != nil || !got.Equal(want) {
			t.Errorf("ParseSince(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, bad := range []string{"", "yesterday", "-5h", "0s", "2025-13-01"} {
		if _, err := ParseSince(bad, now); err == nil {
			t.Errorf("ParseSince(%q) did not fail", bad)
		}
	}
}

func TestReportCommand(t *testing.T) {
	plain, second := sampleLog()
	dir := t.TempDir()
	logPath := filepath.Join(dir, "access.log")
	gzPath := filepath.Join(dir, "access.log.1.gz")
	if err := os.WriteFile(logPath, []byte(plain), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(gzPath, gzipped(t, second), 0o644); err != nil {
		t.Fatal(err)
	}

	code, out, errOut := runCmd(t, "", "report", logPath, gzPath)
	if code != 0 || !strings.Contains(out, "14 requests: 11 from 3 bots") {
		t.Errorf("table: exit %d\n%s\n%s", code, out, errOut)
	}
	if !strings.Contains(errOut, "skipped 3 malformed lines, 1 line over 1 MiB, 1 entry not from an access log") {
		t.Errorf("skipped lines not reported on stderr: %q", errOut)
	}
	if strings.Contains(errOut, "reading ") {
		t.Errorf("progress shown on a stderr that is not a terminal: %q", errOut)
	}

	// Standard input, with and without "-".
	for _, args := range [][]string{{"report", "--format", "json"}, {"report", "--format", "json", "-"}} {
		code, out, errOut = runCmd(t, plain+second, args...)
		if code != 0 {
			t.Errorf("%v: exit %d, want 0\n%s", args, code, errOut)
		}
		var rep report.Report
		if err := json.Unmarshal([]byte(out), &rep); err != nil {
			t.Errorf("%v: not JSON: %v\n%s", args, err, errOut)
			continue
		}
		if rep.Requests != 14 {
			t.Errorf("%v: requests %d, want 14", args, rep.Requests)
		}
		if len(rep.Inputs) == 0 || rep.Inputs[0] != "<stdin>" {
			t.Errorf("%v: inputs %q, want <stdin> first", args, rep.Inputs)
		}
	}

	html := filepath.Join(dir, "report.html")
	code, out, errOut = runCmd(t, "", "report", "--format", "html", "-o", html, "--since", "2025-01-01T13:00:00Z", "--top", "1", logPath, gzPath)
	page, err := os.ReadFile(html)
	if code != 0 {
		t.Errorf("html -o: exit %d, want 0\n%s", code, errOut)
	}
	if out != "" {
		t.Errorf("html -o: stdout %q, want nothing", out)
	}
	if err != nil {
		t.Errorf("html -o: %v", err)
	} else if !bytes.Contains(page, []byte(`id="report-data"`)) {
		t.Errorf("html -o: the page has no report data")
	}
	if !bytes.Contains(page, []byte(`"before_since":6`)) {
		t.Errorf("--since not applied")
	}

	// --progress forces progress lines on a non-terminal.
	code, _, errOut = runCmd(t, "", "report", "--progress", "--format", "json", logPath)
	if code != 0 {
		t.Errorf("--progress: exit %d", code)
	}
	_ = errOut // a small file is read within a second: no progress line is due

	// An empty log (a day with no requests, just rotated) is a report of
	// nothing, not a wrong input.
	if code, _, errOut := runCmd(t, "", "report", writeTemp(t, "empty.log", "")); code != 0 {
		t.Errorf("an empty log: exit %d, stderr %q; want 0", code, errOut)
	}

	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"report", "--format", "xml", logPath}, `--format "xml"`},
		{[]string{"report", "--since", "yesterday", logPath}, "--since"},
		{[]string{"report", "--top", "0", logPath}, "--top"},
		{[]string{"report", filepath.Join(dir, "missing.log")}, "no such file"},
		{[]string{"report", dir}, "is a directory"},
		{[]string{"report", "-", "-"}, "only once"},
		{[]string{"report", "-o", filepath.Join(dir, "no", "such", "dir.html"), logPath}, "no such file"},
		{[]string{"report", "--nope"}, "unknown flag"},
		// Not an access log: a robots.txt, Caddy's own log.
		{[]string{"report", writeTemp(t, "robots.txt", "User-agent: *\nDisallow: /\n")}, "no line of the input is an entry of Caddy's JSON access log"},
		{[]string{"report", writeTemp(t, "caddy.log", `{"level":"info","ts":1735732800,"logger":"tls","msg":"done"}`+"\n")}, "is it the access log?"},
	} {
		code, _, errOut := runCmd(t, "", tc.args...)
		if code != ExitUsage || !strings.Contains(errOut, tc.want) {
			t.Errorf("%v: exit %d, stderr %q; want %d and %q", tc.args, code, errOut, ExitUsage, tc.want)
		}
	}
}

// TestReportGlobs: the logs of several instances, or a rotated series,
// named by one quoted pattern, are read and counted together, each file
// once.
func TestReportGlobs(t *testing.T) {
	plain, second := sampleLog()
	dir := t.TempDir()
	for name, body := range map[string][]byte{
		"access-a.log":      []byte(plain),
		"access-b.log.1.gz": gzipped(t, second),
		"error.log":         []byte("not an access log\n"),
		"access[1].log":     []byte(plain),
	} {
		if err := os.WriteFile(filepath.Join(dir, name), body, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Mkdir(filepath.Join(dir, "access-old.log.d"), 0o755); err != nil {
		t.Fatal(err)
	}
	in := func(name string) string { return filepath.Join(dir, name) }
	for _, tc := range []struct {
		name         string
		args         []string
		wantRequests int64
		wantInputs   []string
	}{
		{"one pattern, two instances", []string{in("access-*.log*")}, 14, []string{in("access-a.log"), in("access-b.log.1.gz")}},
		{"a file named twice is read once", []string{in("access-a.log"), in("access-?.log*")}, 14, []string{in("access-a.log"), in("access-b.log.1.gz")}},
		{"pattern and names mixed", []string{in("access-b.log.*"), in("access-a.log")}, 14, []string{in("access-b.log.1.gz"), in("access-a.log")}},
		{"a name that looks like a pattern", []string{in("access[1].log")}, 6, []string{in("access[1].log")}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errOut := runCmd(t, "", append([]string{"report", "--format", "json"}, tc.args...)...)
			var rep report.Report
			if code != 0 || json.Unmarshal([]byte(out), &rep) != nil {
				t.Fatalf("exit %d\n%s", code, errOut)
			}
			if rep.Requests != tc.wantRequests || strings.Join(rep.Inputs, "|") != strings.Join(tc.wantInputs, "|") {
				t.Errorf("requests %d inputs %q, want %d and %q", rep.Requests, rep.Inputs, tc.wantRequests, tc.wantInputs)
			}
		})
	}
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"matches nothing", []string{in("access-a.log"), in("nginx-*.log")}, `pattern "` + in("nginx-*.log") + `" matches no file`},
		{"matches only a directory", []string{in("access-old.*")}, `pattern "` + in("access-old.*") + `" matches no file`},
		{"bad pattern", []string{in("access-[.log")}, `pattern "` + in("access-[.log") + `"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, _, errOut := runCmd(t, "", append([]string{"report"}, tc.args...)...)
			if code != ExitUsage || !strings.Contains(errOut, tc.want) {
				t.Errorf("exit %d, stderr %q; want %d and %q", code, errOut, ExitUsage, tc.want)
			}
		})
	}
}
