package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/robotsguard/caddy-robots-txt/caddymodule/internal/logtest"
)

// TestReportMoreFilesThanMayBeOpen: a pattern may match more logs than the
// process may hold open at once (a long rotated series); each is opened
// when its turn comes. It lowers the process's open-file limit, so it does
// not run in parallel.
func TestReportMoreFilesThanMayBeOpen(t *testing.T) {
	fds, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Skipf("no /proc/self/fd: %v", err)
	}
	var old syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &old); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	const files = reportKeepOpen + 64
	rt := logtest.RT("GPTBot", "*", "disallowed", "disallow: /", 2, "enforce", "blocked")
	for i := range files {
		line := logtest.Line(logtest.T0+float64(i), "10.0.0.1", "/", "GPTBot", 403, rt) + "\n"
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("access-%03d.log", i)), []byte(line), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	low := old
	low.Cur = uint64(len(fds) + reportKeepOpen + 16)
	if err := syscall.Setrlimit(syscall.RLIMIT_NOFILE, &low); err != nil {
		t.Skipf("cannot lower the open-file limit: %v", err)
	}
	code, out, errOut := runCmd(t, "", "report", "--format", "json", filepath.Join(dir, "access-*.log"))
	if err := syscall.Setrlimit(syscall.RLIMIT_NOFILE, &old); err != nil {
		t.Fatal(err)
	}
	if code != 0 || !strings.Contains(out, fmt.Sprintf(`"requests": %d,`, files)) {
		t.Errorf("exit %d; want 0 and %d requests with an open-file limit of %d:\n%s%s", code, files, low.Cur, out, errOut)
	}
}

// TestReportReadsALogRotatedMeanwhile: a log rotated while the report
// reads the inputs before it is read as it was when the report started:
// the report holds it open from the start.
func TestReportReadsALogRotatedMeanwhile(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "slow.log")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("no FIFO here: %v", err)
	}
	// Read and write, so that opening it does not wait for a reader.
	w, err := os.OpenFile(fifo, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	log := filepath.Join(dir, "access.log")
	rt := logtest.RT("GPTBot", "*", "disallowed", "disallow: /", 2, "enforce", "blocked")
	var lines strings.Builder
	for i := range 5 {
		lines.WriteString(logtest.Line(logtest.T0+float64(i), "10.0.0.1", "/", "GPTBot", 403, rt) + "\n")
	}
	if err := os.WriteFile(log, []byte(lines.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	type result struct {
		code     int
		out, err string
	}
	done := make(chan result, 1)
	go func() {
		code, out, errOut := runCmd(t, "", "report", "--format", "json", fifo, log)
		done <- result{code, out, errOut}
	}()
	// Wait until the report holds the log open, then rotate it.
	deadline := time.Now().Add(10 * time.Second)
	for !holdsOpen(t, log) {
		if time.Now().After(deadline) {
			t.Fatal("the report never opened the log")
		}
		time.Sleep(5 * time.Millisecond)
	}
	if err := os.Rename(log, log+".1"); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(log, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	w.Close()
	r := <-done
	if r.code != 0 || !strings.Contains(r.out, `"requests": 5,`) {
		t.Errorf("exit %d; want 0 and the 5 requests the log held when the report started:\n%s%s", r.code, r.out, r.err)
	}
}

// holdsOpen reports whether this process has path open.
func holdsOpen(t *testing.T, path string) bool {
	fds, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Skipf("no /proc/self/fd: %v", err)
	}
	for _, fd := range fds {
		if target, err := os.Readlink(filepath.Join("/proc/self/fd", fd.Name())); err == nil && target == path {
			return true
		}
	}
	return false
}
