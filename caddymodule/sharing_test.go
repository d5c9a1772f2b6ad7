package caddymodule

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/netip"
	"os"
	"path"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/caddyserver/caddy/v2"
	"github.com/caddyserver/certmagic"

	"github.com/robotsguard/caddy-robots-txt/caddymodule/share"
	"github.com/robotsguard/caddy-robots-txt/config"
	"github.com/robotsguard/caddy-robots-txt/internal/testfixtures"
)

// sharedBlobs returns the shared state blobs under a file storage's
// directory, by path, as written.
func sharedBlobs(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	filepath.WalkDir(filepath.Join(dir, "robots_txt", "shared"), func(path string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			// A blob being written (the storage writes in place) is
			// not one yet.
			if data, _ := os.ReadFile(path); json.Valid(data) {
				out[path] = string(data)
			}
		}
		return nil
	})
	return out
}

// bots returns the bots whose fetches the blobs hold.
func bots(t *testing.T, blobs map[string]string) []string {
	t.Helper()
	var out []string
	for path, data := range blobs {
		var b struct{ Fetches []struct{ Bot string } }
		if err := json.Unmarshal([]byte(data), &b); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		for _, f := range b.Fetches {
			out = append(out, f.Bot)
		}
	}
	return out
}

// TestReloadAppliesShareSettings: a reload that moves sharing to another
// storage writes there from then on, and one that turns it off reads and
// writes no storage; neither forgets what was learnt. A reload is a new
// configuration's handler, then the old one's cleanup, as Caddy does it.
func TestReloadAppliesShareSettings(t *testing.T) {
	t.Setenv("XDG_DATA_HOME", t.TempDir()) // Caddy's instance ID
	dirA, dirB := t.TempDir(), t.TempDir()
	cfg := config.Config{
		Inline:        "# TestReloadAppliesShareSettings\nUser-agent: *\nDisallow: /private/\n",
		ShareInterval: caddy.Duration(time.Hour), // only the writes at unload
		Impostors:     config.ImpostorsTrust,
	}
	fetched := func(h *Handler, ip string) any {
		return placeholders(t, h, "/private/x", testfixtures.UAAhrefs, ip)["fetched"]
	}

	onA := loadShared(t, cfg, dirA)
	serve(onA, withIP(newRequest("GET", "/robots.txt", testfixtures.UAAhrefs), "192.0.2.10"))
	// A reload that keeps the storage (Caddy makes a new value of it)
	// keeps sharing as it was.
	if again := loadShared(t, cfg, dirA); again.tracker != onA.tracker {
		t.Error("a reload with the same storage started sharing anew")
	} else {
		again.Cleanup()
	}

	onB := loadShared(t, cfg, dirB)
	onA.Cleanup()
	if got := fetched(onB, "192.0.2.10"); got != true {
		t.Errorf("after the reload to another storage: fetched %v, want true", got)
	}

	off := cfg
	off.Share, off.ShareInterval = "off", 0
	h := loadShared(t, off, dirB)
	onB.Cleanup()
	if got := bots(t, sharedBlobs(t, dirB)); len(got) != 1 || !strings.Contains(got[0], "Ahrefs") {
		t.Errorf("the storage moved to holds fetches %v, want the one made before the move", got)
	}
	if h.tracker.sharer != nil {
		t.Error("with share off after a reload, the state is still shared")
	}
	if got := fetched(h, "192.0.2.10"); got != true {
		t.Errorf("after the reload to share off: fetched %v, want true", got)
	}

	// With share off, nothing more reaches either storage.
	beforeA, beforeB := sharedBlobs(t, dirA), sharedBlobs(t, dirB)
	serve(h, withIP(newRequest("GET", "/robots.txt", testfixtures.UAAhrefs), "192.0.2.11"))
	h.Cleanup()
	for dir, before := range map[string]map[string]string{dirA: beforeA, dirB: beforeB} {
		after := sharedBlobs(t, dir)
		for path, data := range after {
			if before[path] != data {
				t.Errorf("with share off, %s was written", path)
			}
		}
	}
}

// TestFailedReloadKeepsSharing: a reload that moves sharing and then
// fails to start (its configuration unloaded, the old one serving on)
// leaves the old configuration sharing: what it learns afterwards is
// written.
func TestFailedReloadKeepsSharing(t *testing.T) {
	t.Setenv("XDG_DATA_HOME", t.TempDir()) // Caddy's instance ID
	dirA, dirB := t.TempDir(), t.TempDir()
	cfg := config.Config{
		Inline:        "# TestFailedReloadKeepsSharing\nUser-agent: *\nDisallow: /private/\n",
		ShareInterval: caddy.Duration(time.Hour), // only the writes at unload
		Impostors:     config.ImpostorsTrust,
	}
	onA := loadShared(t, cfg, dirA)
	failed := loadShared(t, cfg, dirB) // takes over, then its configuration fails to start
	failed.Cleanup()
	serve(onA, withIP(newRequest("GET", "/robots.txt", testfixtures.UAAhrefs), "192.0.2.20"))
	onA.Cleanup()
	if got := bots(t, sharedBlobs(t, dirA)); len(got) != 1 || !strings.Contains(got[0], "Ahrefs") {
		t.Errorf("after a failed reload, the serving configuration wrote fetches %v, want the one made after it", got)
	}
}

// TestFailedReloadKeepsVersionStorage: a reload that moves sharing to
// another storage and then fails to start leaves the robots.txt versions
// the old configuration serves kept where it keeps them, not in the
// storage of the configuration that was refused.
func TestFailedReloadKeepsVersionStorage(t *testing.T) {
	t.Setenv("XDG_DATA_HOME", t.TempDir()) // Caddy's instance ID
	dirA, dirB := t.TempDir(), t.TempDir()
	cfg := config.Config{Inline: "# TestFailedReloadKeepsVersionStorage\nUser-agent: *\nDisallow: /private/\n"}
	onA := loadShared(t, cfg, dirA)
	defer onA.Cleanup()
	failed := loadShared(t, cfg, dirB) // takes over, then its configuration fails to start
	failed.Cleanup()
	serve(onA, newRequest("GET", "/robots.txt", "VersionBot/1.0"))
	key := versionsKey(onA.versionsKey())
	stored := func(dir string) bool {
		_, err := (&certmagic.FileStorage{Path: dir}).Stat(context.Background(), key)
		return err == nil
	}
	for deadline := time.Now().Add(5 * time.Second); !stored(dirA) && time.Now().Before(deadline); {
		time.Sleep(10 * time.Millisecond)
	}
	if !stored(dirA) {
		t.Error("the version served after a failed reload was not kept in the serving configuration's storage")
	}
	if stored(dirB) {
		t.Error("the version served after a failed reload was kept in the refused configuration's storage")
	}
}

// TestSharedTrapHeldForTrapTTL: an address another instance's blob says
// is trapped for ten years is held for the site's trap_ttl at most.
func TestSharedTrapHeldForTrapTTL(t *testing.T) {
	t.Setenv("XDG_DATA_HOME", t.TempDir()) // Caddy's instance ID
	store := &certmagic.FileStorage{Path: t.TempDir()}
	const ttl = time.Hour
	cfg := config.Config{
		Inline: "# TestSharedTrapHeldForTrapTTL\nUser-agent: *\nDisallow: /private/\n",
		Trap:   "/trap/", TrapTTL: caddy.Duration(ttl), ShareInterval: caddy.Duration(time.Hour),
	}
	site := fnv1a("example.com", true)
	ip := netip.MustParseAddr("192.0.2.50")
	now := time.Now()
	planted, _ := json.Marshal(map[string]any{
		"instance": "planted", "written": now.UnixNano(),
		"trapped": []share.Trap{{Addr: ip.String(), Site: site, Until: now.Add(10 * 365 * 24 * time.Hour).UnixNano()}},
	})
	sum := sha256.Sum256([]byte((&Handler{Config: cfg}).sourceKey()))
	if err := store.Store(context.Background(), path.Join("robots_txt", "shared", hex.EncodeToString(sum[:8]), "planted.json"), planted); err != nil {
		t.Fatal(err)
	}
	h, _ := provisionTestHandler(t, &Handler{Config: cfg, verifyOptions: offlineVerify, storage: store})
	var until int64
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		var ok bool
		if until, ok = h.tracker.heard.keys.Peek(trapKey{site: site, ip: ip}); ok {
			break
		}
	}
	if until == 0 {
		t.Fatal("the planted trap was never read")
	}
	if limit := time.Now().Add(ttl).UnixNano(); until > limit {
		t.Errorf("held until %v, want at most trap_ttl (%v) from now", time.Unix(0, until), ttl)
	}
}

// TestSharedTrapFloodKeepsOwnTraps: blobs that list more trapped
// addresses than an instance keeps (anyone who can write to the storage
// can write them) do not push out a trap sprung here: the address stays
// held.
func TestSharedTrapFloodKeepsOwnTraps(t *testing.T) {
	t.Setenv("XDG_DATA_HOME", t.TempDir())
	store := &certmagic.FileStorage{Path: t.TempDir()}
	cfg := config.Config{
		Inline: "# TestSharedTrapFloodKeepsOwnTraps\nUser-agent: *\nDisallow: /private/\n",
		Trap:   "/trap/", ShareInterval: caddy.Duration(100 * time.Millisecond),
	}
	h, _ := provisionTestHandler(t, &Handler{Config: cfg, verifyOptions: offlineVerify, storage: store})
	site := fnv1a("example.com", true)
	own := trapKey{site: site, ip: netip.MustParseAddr("198.51.100.8")}
	h.tracker.trap(own, time.Now().Add(time.Hour))
	sum := sha256.Sum256([]byte((&Handler{Config: cfg}).sourceKey()))
	until := time.Now().Add(time.Hour).UnixNano()
	const perBlob = share.MaxTrapped
	blobs := (trappedClients + trappedClients/10) / perBlob
	for b := range blobs {
		traps := make([]share.Trap, perBlob)
		for i := range traps {
			n := b*perBlob + i
			traps[i] = share.Trap{Addr: floodAddr(n).String(), Site: site, Until: until}
		}
		planted, _ := json.Marshal(map[string]any{"instance": fmt.Sprintf("flood%d", b), "written": time.Now().UnixNano(), "trapped": traps})
		if err := store.Store(context.Background(), path.Join("robots_txt", "shared", hex.EncodeToString(sum[:8]), fmt.Sprintf("flood%d.json", b)), planted); err != nil {
			t.Fatal(err)
		}
	}
	// Every blob read: the last address of each is held.
	read := func() bool {
		for b := range blobs {
			if !h.tracker.isTrapped(trapKey{site: site, ip: floodAddr((b+1)*perBlob - 1)}, time.Now()) {
				return false
			}
		}
		return true
	}
	for deadline := time.Now().Add(20 * time.Second); !read(); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the planted traps were never read")
		}
	}
	if !h.tracker.isTrapped(own, time.Now()) {
		t.Error("a flood of shared traps pushed out the trap sprung here")
	}
}

// floodAddr is the nth address of a flood, each in a /24 of its own, as
// many clients' would be.
func floodAddr(n int) netip.Addr {
	return netip.AddrFrom4([4]byte{byte(10 + n>>16), byte(n >> 8), byte(n), 1})
}

// TestSharedNoFileFetchKeepsGrace: another instance's record of a fetch
// made while there was no file does not replace this instance's record
// of the version the bot fetched here, as a local one does not.
func TestSharedNoFileFetchKeepsGrace(t *testing.T) {
	t.Setenv("XDG_DATA_HOME", t.TempDir())
	dir := t.TempDir()
	path := writeRobots(t, "User-agent: *\nDisallow: /old\n")
	h := loadShared(t, config.Config{File: path, DisableReload: true, Impostors: config.ImpostorsTrust, ShareInterval: config.MinInterval}, dir)
	const ip = "198.51.100.1"
	serve(h, withIP(newRequest("GET", "/robots.txt", testfixtures.UAAhrefs), ip))
	var blobs map[string]string
	for deadline := time.Now().Add(5 * time.Second); len(blobs) == 0 && time.Now().Before(deadline); {
		time.Sleep(50 * time.Millisecond)
		blobs = sharedBlobs(t, dir)
	}
	if len(blobs) != 1 {
		t.Fatalf("blobs: %v", blobs)
	}
	for p, data := range blobs {
		var b map[string]any
		dec := json.NewDecoder(strings.NewReader(data))
		dec.UseNumber()
		if err := dec.Decode(&b); err != nil {
			t.Fatal(err)
		}
		f := b["fetches"].([]any)[0].(map[string]any)
		f["etag"], f["at"] = "", time.Now().UnixNano()
		b["instance"], b["writer"], b["written"] = "other-instance", "0123456789ab", time.Now().UnixNano()
		out, _ := json.Marshal(b)
		if err := os.WriteFile(filepath.Join(filepath.Dir(p), "other-instance.json"), out, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	time.Sleep(5 * time.Duration(config.MinInterval)) // several syncs read it
	os.WriteFile(path, []byte("User-agent: *\nDisallow: /new\n"), 0o644)
	bump(t, path, 2*time.Second)
	h.fixed.refresh()
	if v, _ := verdictOf(t, h, "/new", testfixtures.UAAhrefs, ip); v != "grace" {
		t.Errorf("/new after another instance shared a fetch made while there was no file: %q, want grace", v)
	}
}

// loadShared provisions a handler of cfg that shares its state through a
// file storage in dir, as a configuration load does.
func loadShared(t *testing.T, cfg config.Config, dir string) *Handler {
	t.Helper()
	h, _ := provisionTestHandler(t, &Handler{Config: cfg, verifyOptions: offlineVerify, storage: &certmagic.FileStorage{Path: dir}})
	return h
}

// TestHeadStoresNoVersion: a version is kept in the storage once it was
// served, for bots that may obey it after a restart; a HEAD of
// /robots.txt gets no rules, so it keeps nothing.
func TestHeadStoresNoVersion(t *testing.T) {
	dir := t.TempDir()
	h := loadShared(t, config.Config{Inline: "User-agent: *\nDisallow: /private/\n"}, dir)
	key := versionsKey(h.versionsKey())
	stored := func() bool {
		_, err := (&certmagic.FileStorage{Path: dir}).Stat(context.Background(), key)
		return err == nil
	}
	// Stored in the background: a GET after the HEAD stores it within
	// moments, so a HEAD that stored it would be seen first.
	serve(h, newRequest("HEAD", "/robots.txt", "HeadBot/1.0"))
	time.Sleep(200 * time.Millisecond)
	if stored() {
		t.Fatal("a HEAD of /robots.txt stored the version")
	}
	serve(h, newRequest("GET", "/robots.txt", "HeadBot/1.0"))
	for deadline := time.Now().Add(5 * time.Second); !stored(); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("a GET of /robots.txt did not store the version")
		}
	}
}
