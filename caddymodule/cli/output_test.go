package cli

import (
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"

	"github.com/robotsguard/caddy-robots-txt/caddymodule/internal/logtest"
	"github.com/robotsguard/caddy-robots-txt/caddymodule/report"
)

// TestReportOutputFormatByName: without --format, -o report.html writes
// the page and report.json the JSON, not the terminal's table; --format
// wins over the name.
func TestReportOutputFormatByName(t *testing.T) {
	rt := logtest.RT("GPTBot", "*", "disallowed", "disallow: /", 2, "enforce", "blocked")
	log := writeTemp(t, "access.log", logtest.Line(logtest.T0, "10.0.0.1", "/", "GPTBot", 403, rt)+"\n")
	for _, tc := range []struct {
		name   string
		format []string
		prefix string
	}{
		{"report.html", nil, "<!DOCTYPE html>"},
		{"REPORT.HTM", nil, "<!DOCTYPE html>"},
		{"report.json", nil, "{"},
		{"report.txt", nil, "robots.txt report:"},
		{"report.html", []string{"--format", "json"}, "{"},
	} {
		out := filepath.Join(t.TempDir(), tc.name)
		args := append(append([]string{"report"}, tc.format...), "-o", out, log)
		if code, _, stderr := runCmd(t, "", args...); code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, stderr)
		}
		body, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.TrimSpace(string(body)); !strings.HasPrefix(got, tc.prefix) {
			t.Errorf("%s %v: report starts %.40q, want %q", tc.name, tc.format, got, tc.prefix)
		}
	}
}

// TestReportOutputSurvivesHostileLine: a log line whose time the JSON
// cannot write once made the report fail after -o had already emptied the
// earlier report. Now the line is skipped and the report written.
func TestReportOutputSurvivesHostileLine(t *testing.T) {
	rt := logtest.RT("GPTBot", "*", "disallowed", "disallow: /", 2, "enforce", "blocked")
	log := writeTemp(t, "access.log", logtest.Line(logtest.T0, "10.0.0.1", "/", "GPTBot", 403, rt)+"\n"+
		logtest.Line(9e20, "10.0.0.1", "/", "GPTBot", 403, rt)+"\n") // past the year 10000 even in nanoseconds
	for _, format := range []string{"json", "html", "table"} {
		t.Run(format, func(t *testing.T) {
			out := writeTemp(t, "report."+format, "the earlier report\n")
			code, stdout, stderr := runCmd(t, "", "report", "--format", format, "-o", out, log)
			body, err := os.ReadFile(out)
			ok := true
			if code != 0 {
				t.Errorf("exit %d, want 0\nstderr: %s", code, stderr)
				ok = false
			}
			if err != nil {
				t.Errorf("reading the report: %v", err)
				ok = false
			}
			if stdout != "" {
				t.Errorf("stdout %q, want nothing (the report goes to -o)", stdout)
				ok = false
			}
			if !ok {
				t.FailNow()
			}
			if !strings.Contains(string(body), "GPTBot") || !strings.Contains(stderr, "1 malformed line") {
				t.Errorf("report %q, stderr %q; want GPTBot in it, and the line skipped as malformed", body, stderr)
			}
			if format == "json" {
				var r report.Report
				if err := json.Unmarshal(body, &r); err != nil {
					t.Errorf("JSON report: %v", err)
				} else {
					if r.Skipped.Malformed != 1 {
						t.Errorf("JSON report: malformed %d, want 1", r.Skipped.Malformed)
					}
					if r.Requests != 1 {
						t.Errorf("JSON report: requests %d, want 1", r.Requests)
					}
				}
			}
		})
	}
}

func TestWriteOutput(t *testing.T) {
	failing := func(w io.Writer) error {
		io.WriteString(w, "half a rep")
		return errors.New("rendering failed")
	}
	succeeding := func(w io.Writer) error {
		_, err := io.WriteString(w, "the new report\n")
		return err
	}
	for _, tc := range []struct {
		name     string
		existing string // "" for none
		write    func(io.Writer) error
		wantErr  bool
		want     string // the file's content afterwards; "" for no file
	}{
		{"failure keeps the earlier report", "the earlier report\n", failing, true, "the earlier report\n"},
		{"failure leaves no file", "", failing, true, ""},
		{"success replaces the earlier report", "the earlier report\n", succeeding, false, "the new report\n"},
		{"success makes the file", "", succeeding, false, "the new report\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "report.html")
			if tc.existing != "" {
				if err := os.WriteFile(path, []byte(tc.existing), 0o640); err != nil {
					t.Fatal(err)
				}
			}
			err := writeOutput(path, tc.write)
			if (err != nil) != tc.wantErr {
				t.Fatalf("error %v, want one: %v", err, tc.wantErr)
			}
			body, rerr := os.ReadFile(path)
			switch {
			case tc.want == "" && !errors.Is(rerr, os.ErrNotExist):
				t.Errorf("file %q (%v), want none", body, rerr)
			case tc.want != "" && string(body) != tc.want:
				t.Errorf("file %q (%v), want %q", body, rerr, tc.want)
			}
			if entries, _ := os.ReadDir(dir); len(entries) > 1 || (tc.want == "" && len(entries) > 0) {
				t.Errorf("files left in the directory: %v", entries)
			}
			if tc.existing != "" && runtime.GOOS != "windows" {
				if st, err := os.Stat(path); err != nil || st.Mode().Perm() != 0o640 {
					t.Errorf("mode %v (%v), want the earlier report's 0640", st.Mode(), err)
				}
			}
		})
	}
}

// TestWriteOutputThroughLink: a link to the report is left a link; the
// file it points to is replaced.
func TestWriteOutputThroughLink(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "report-2025.html")
	link := filepath.Join(dir, "report.html")
	if err := os.WriteFile(target, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, link); err != nil {
		t.Skip(err)
	}
	if err := writeOutput(link, func(w io.Writer) error { _, err := io.WriteString(w, "new"); return err }); err != nil {
		t.Fatal(err)
	}
	if st, err := os.Lstat(link); err != nil || st.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the link was replaced by a file")
	}
	if b, _ := os.ReadFile(target); string(b) != "new" {
		t.Errorf("target holds %q, want %q", b, "new")
	}
}

// TestReportOutputIsNotAnInput: -o naming one of the logs would replace
// the log with its report.
func TestReportOutputIsNotAnInput(t *testing.T) {
	rt := logtest.RT("GPTBot", "*", "disallowed", "disallow: /", 2, "enforce", "blocked")
	content := logtest.Line(logtest.T0, "10.0.0.1", "/", "GPTBot", 403, rt) + "\n"
	log := writeTemp(t, "access.log", content)
	code, _, stderr := runCmd(t, "", "report", "-o", log, log)
	if code != ExitUsage || !strings.Contains(stderr, "is one of the logs to read") {
		t.Errorf("exit %d, stderr %q; want %d and a message", code, stderr, ExitUsage)
	}
	if body, _ := os.ReadFile(log); string(body) != content {
		t.Errorf("the log was changed: %q", body)
	}
}

// TestHelpNamesEveryJSONField: the JSON forms of check and lint are for
// scripts, and --help is where their fields are described; a field the
// help does not name is one a script cannot know to expect.
func TestHelpNamesEveryJSONField(t *testing.T) {
	for _, tc := range []struct {
		name string
		help string
		v    any
	}{
		{"check", checkLong, CheckOutput{}},
		{"check result", checkLong, CheckResult{}},
		{"lint", lintLong, LintOutput{}},
		{"lint diagnostic", lintLong, LintDiagnostic{}},
	} {
		typ := reflect.TypeOf(tc.v)
		for i := range typ.NumField() {
			name, _, _ := strings.Cut(typ.Field(i).Tag.Get("json"), ",")
			if name != "" && name != "-" && !strings.Contains(tc.help, `"`+name+`"`) {
				t.Errorf("%s: --help does not name the JSON field %q", tc.name, name)
			}
		}
	}
}
