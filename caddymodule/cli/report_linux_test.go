package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

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
	const files = 64
	rt := logtest.RT("GPTBot", "*", "disallowed", "disallow: /", 2, "enforce", "blocked")
	for i := range files {
		line := logtest.Line(logtest.T0+float64(i), "10.0.0.1", "/", "GPTBot", 403, rt) + "\n"
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("access-%03d.log", i)), []byte(line), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	low := old
	low.Cur = uint64(len(fds) + files/2)
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
