// Package integration tests the robots_txt handler inside a real Caddy: the
// binary is built once from ./cmd/caddy, every test starts its own Caddy
// process on its own loopback ports, and talks to it over HTTP.
package integration

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// caddyBin is the Caddy binary built from ./cmd/caddy by TestMain.
var caddyBin string

// repoRoot is the directory holding go.mod.
var repoRoot string

func TestMain(m *testing.M) {
	os.Exit(runMain(m))
}

func runMain(m *testing.M) int {
	root, err := findRepoRoot()
	if err != nil {
		fmt.Fprintln(os.Stderr, "integration:", err)
		return 1
	}
	repoRoot = root
	tmp, err := os.MkdirTemp("", "caddy-robots-txt-integration-")
	if err != nil {
		fmt.Fprintln(os.Stderr, "integration:", err)
		return 1
	}
	defer os.RemoveAll(tmp)

	// Readable by everyone, so that tests may run Caddy as an
	// unprivileged user (see dropPrivileges).
	if err := os.Chmod(tmp, 0o755); err != nil {
		fmt.Fprintln(os.Stderr, "integration:", err)
		return 1
	}
	bin := filepath.Join(tmp, "caddy")
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "go", "build", "-o", bin, "./cmd/caddy")
	cmd.Dir = root
	if out, err := cmd.CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "integration: go build ./cmd/caddy: %v\n%s", err, out)
		return 1
	}
	caddyBin = bin
	return m.Run()
}

// findRepoRoot walks up from the working directory to the directory
// holding go.mod.
func findRepoRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("no go.mod above the working directory")
		}
		dir = parent
	}
}
