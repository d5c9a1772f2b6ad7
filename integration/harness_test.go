package integration

// The harness: a Caddy process per test on its own loopback ports, its
// logs, and HTTP requests to it.

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"net/http"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/robotsguard/caddy-robots-txt/internal/testfixtures"
)

// The real User-Agent headers these tests send are in
// internal/testfixtures, shared with the unit tests.

// uaEmpty sends no User-Agent header at all (Go's client omits an empty
// one); robots_txt counts that as a bot. It is kept here as it is
// something of this harness's client rather than a header value.
const uaEmpty = ""

// readyPath is the path the readiness probe requests, with a browser
// User-Agent so that it carries no robots_txt fields; tests that read the
// access log skip it.
const readyPath = "/__integration_ready"

// syncBuffer is a bytes.Buffer safe for the concurrent writes of a
// subprocess's output and reads of a test.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// handedOut holds every port freePort has returned in this run.
var handedOut struct {
	mu    sync.Mutex
	ports map[int]bool
}

// freePort returns a TCP port that was free on 127.0.0.1 a moment ago and
// that no other test of this run was given. Caddy listens with
// SO_REUSEPORT, so two Caddys given the same port both start without an
// error, and the kernel splits the connections between them: one test's
// requests reach another's server. The kernel may hand a closed port out
// again at once, so freePort remembers what it gave.
func freePort(t testing.TB) int {
	t.Helper()
	handedOut.mu.Lock()
	defer handedOut.mu.Unlock()
	if handedOut.ports == nil {
		handedOut.ports = make(map[int]bool)
	}
	for range 1000 {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatalf("listen: %v", err)
		}
		port := l.Addr().(*net.TCPAddr).Port
		l.Close()
		if !handedOut.ports[port] {
			handedOut.ports[port] = true
			return port
		}
	}
	t.Fatalf("no port that was not handed out already after 1000 tries")
	return 0
}

// instance is one running Caddy process.
type instance struct {
	t         testing.TB
	dir       string // the test's own directory: config, site, logs
	port      int    // the site's port
	adminPort int
	host      string // Host header of requests; default 127.0.0.1:port

	cmd    *exec.Cmd
	stdout syncBuffer
	stderr syncBuffer
	exited chan struct{}
	waitE  error

	client *http.Client

	// cred, when set, runs Caddy as another user (see dropPrivileges).
	cred *syscall.Credential
}

// newInstance allocates ports and a directory; start runs Caddy.
func newInstance(t testing.TB) *instance {
	t.Helper()
	inst := &instance{
		t:         t,
		dir:       t.TempDir(),
		port:      freePort(t),
		adminPort: freePort(t),
	}
	inst.host = fmt.Sprintf("127.0.0.1:%d", inst.port)
	inst.client = &http.Client{
		Timeout: 10 * time.Second,
		// A fresh connection per request: a kept-alive one that Caddy
		// closes as a config is replaced (or under load) surfaces as
		// an EOF on the next request, which is the harness's problem,
		// not the handler's.
		Transport: &http.Transport{
			DisableCompression: true,
			DisableKeepAlives:  true,
			Proxy:              nil,
		},
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
	t.Cleanup(inst.client.CloseIdleConnections)
	return inst
}

// globalOptions is the global block of every test's Caddyfile: its own
// admin port, plain HTTP, nothing written to the home directory, and
// Caddy's own log as JSON on stderr.
const globalOptions = `{
	admin 127.0.0.1:{{admin}}
	auto_https off
	persist_config off
	log {
		output stderr
		format json
		level INFO
	}
}

`

// expand replaces {{port}}, {{admin}} and {{dir}} in a config template.
func (inst *instance) expand(tmpl string) string {
	return strings.NewReplacer(
		"{{port}}", strconv.Itoa(inst.port),
		"{{admin}}", strconv.Itoa(inst.adminPort),
		"{{dir}}", inst.dir,
	).Replace(tmpl)
}

// startCaddy starts Caddy with the given site blocks (a template, see
// expand) after the global options, and waits until it answers. The setup
// functions run first, to write the files the config refers to.
func startCaddy(t testing.TB, sites string, setup ...func(inst *instance)) *instance {
	t.Helper()
	inst := newInstance(t)
	for _, f := range setup {
		f(inst)
	}
	inst.start(sites)
	return inst
}

// withTestSite is a setup function for startCaddy: the test site, with
// its robots.txt, in {{dir}}/site.
func withTestSite(inst *instance) { writeTestSite(inst.t, inst.dir, true) }

// withRobotsTxt returns a setup function for startCaddy: the test site in
// {{dir}}/site, with body as its robots.txt.
func withRobotsTxt(body string) func(inst *instance) {
	return func(inst *instance) {
		site := writeTestSite(inst.t, inst.dir, false)
		writeFile(inst.t, filepath.Join(site, "robots.txt"), body)
	}
}

// loggedSite is the test site with a JSON access log in
// {{dir}}/access.log; %s is the body of its robots_txt block.
const loggedSite = `http://127.0.0.1:{{port}} {
	root * {{dir}}/site
	robots_txt {
		%s
	}
	file_server
	log {
		output file {{dir}}/access.log
		format json
	}
}
`

// start writes the Caddyfile (global options + sites) and runs it.
func (inst *instance) start(sites string) {
	inst.t.Helper()
	path := filepath.Join(inst.dir, "Caddyfile")
	write := func() string {
		writeFile(inst.t, path, inst.expand(globalOptions+sites))
		return path
	}
	inst.launchRetry(write(), "caddyfile", "", write)
}

// caddyEnv keeps Caddy's config and data directories inside dir, and
// gives it an admin address for configs that do not set one.
func caddyEnv(dir string, adminPort int) []string {
	env := os.Environ()
	env = append(env,
		"HOME="+dir,
		"XDG_CONFIG_HOME="+filepath.Join(dir, "xdg-config"),
		"XDG_DATA_HOME="+filepath.Join(dir, "xdg-data"),
		fmt.Sprintf("CADDY_ADMIN=127.0.0.1:%d", adminPort),
	)
	return env
}

// launch runs `caddy run --config path [--adapter adapter]` in cwd (the
// repository root when empty), stops it when the test ends, and waits
// until the site answers.
func (inst *instance) launch(path, adapter, cwd string) {
	inst.t.Helper()
	inst.launchRetry(path, adapter, cwd, nil)
}

// errPortInUse is a Caddy that could not listen: another test's server
// took the port between freePort and Caddy's start.
var errPortInUse = errors.New("a port was taken before Caddy could listen")

// launchRetry is launch; when rewrite is given and a port was taken in
// the meantime, it picks new ports, has rewrite write the config again
// (returning its path), and tries again.
func (inst *instance) launchRetry(path, adapter, cwd string, rewrite func() string) {
	t := inst.t
	t.Helper()
	for attempt := 1; ; attempt++ {
		err := inst.tryLaunch(path, adapter, cwd)
		if err == nil {
			return
		}
		if errors.Is(err, errPortInUse) && rewrite != nil && attempt < 4 {
			defaultHost := inst.host == fmt.Sprintf("127.0.0.1:%d", inst.port)
			inst.port, inst.adminPort = freePort(t), freePort(t)
			if defaultHost {
				inst.host = fmt.Sprintf("127.0.0.1:%d", inst.port)
			}
			inst.stdout, inst.stderr = syncBuffer{}, syncBuffer{}
			path = rewrite()
			continue
		}
		t.Fatalf("%v\nstderr:\n%s\nstdout:\n%s", err, inst.stderr.String(), inst.stdout.String())
	}
}

func (inst *instance) tryLaunch(path, adapter, cwd string) error {
	t := inst.t
	t.Helper()
	args := []string{"run", "--config", path}
	if adapter != "" {
		args = append(args, "--adapter", adapter)
	}
	cmd := exec.Command(caddyBin, args...)
	if cwd == "" {
		cwd = repoRoot
	}
	cmd.Dir = cwd
	cmd.Env = caddyEnv(inst.dir, inst.adminPort)
	cmd.Stdout = &inst.stdout
	cmd.Stderr = &inst.stderr
	if inst.cred != nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: inst.cred}
	}
	if err := cmd.Start(); err != nil {
		t.Fatalf("start caddy: %v", err)
	}
	inst.cmd = cmd
	inst.exited = make(chan struct{})
	go func() {
		inst.waitE = cmd.Wait()
		close(inst.exited)
	}()
	t.Cleanup(inst.stop)
	return inst.waitReady()
}

// stop sends SIGINT, kills the process if it has not exited after 5 s,
// and waits for it.
func (inst *instance) stop() {
	select {
	case <-inst.exited:
		return
	default:
	}
	_ = inst.cmd.Process.Signal(syscall.SIGINT)
	select {
	case <-inst.exited:
	case <-time.After(5 * time.Second):
		_ = inst.cmd.Process.Kill()
		<-inst.exited
	}
}

// waitReady polls the site until it answers with any HTTP response.
func (inst *instance) waitReady() error {
	t := inst.t
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	client := &http.Client{Timeout: time.Second}
	defer client.CloseIdleConnections()
	for {
		select {
		case <-inst.exited:
			if strings.Contains(inst.stderr.String(), "address already in use") {
				return errPortInUse
			}
			return fmt.Errorf("caddy exited before serving (%v)", inst.waitE)
		default:
		}
		req, _ := http.NewRequest(http.MethodGet, inst.url(readyPath), nil)
		req.Host = inst.host
		req.Header.Set("User-Agent", testfixtures.UAFirefox)
		resp, err := client.Do(req)
		if err == nil {
			_, _ = io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			// Another test's server (or Caddy) on a stolen port answers
			// too: ready is a Caddy answer once this Caddy has said it
			// serves its configuration, which it says only after it
			// could listen.
			if resp.Header.Get("Server") == "Caddy" && strings.Contains(inst.stderr.String(), "serving initial configuration") {
				return nil
			}
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("caddy did not answer on port %d within 30s: %v", inst.port, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// url returns the URL of path on the site.
func (inst *instance) url(path string) string {
	return fmt.Sprintf("http://127.0.0.1:%d%s", inst.port, path)
}

// logs returns Caddy's own log (stderr) as parsed JSON lines; lines that
// are not JSON are skipped.
func (inst *instance) logs() []logEntry {
	return parseJSONLines(inst.stderr.String())
}

// logEntry is one JSON log line.
type logEntry map[string]any

func (e logEntry) str(key string) string {
	s, _ := e[key].(string)
	return s
}

// num returns a numeric field as an int, and whether it is present.
func (e logEntry) num(key string) (int, bool) {
	f, ok := e[key].(float64)
	return int(f), ok
}

// obj returns a nested object field.
func (e logEntry) obj(key string) (logEntry, bool) {
	m, ok := e[key].(map[string]any)
	return logEntry(m), ok
}

func parseJSONLines(s string) []logEntry {
	var out []logEntry
	sc := bufio.NewScanner(strings.NewReader(s))
	sc.Buffer(make([]byte, 0, 64*1024), 4<<20)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if !strings.HasPrefix(line, "{") {
			continue
		}
		var e logEntry
		if json.Unmarshal([]byte(line), &e) == nil {
			out = append(out, e)
		}
	}
	return out
}

// moduleLogs returns the entries of Caddy's log with the given message
// from the robots_txt module's logger.
func (inst *instance) moduleLogs(msg string) []logEntry {
	var out []logEntry
	for _, e := range inst.logs() {
		if e.str("logger") == "http.handlers.robots_txt" && e.str("msg") == msg {
			out = append(out, e)
		}
	}
	return out
}

// waitModuleLogs polls until at least n entries with msg are in Caddy's
// log, and returns them.
func (inst *instance) waitModuleLogs(t testing.TB, msg string, n int, timeout time.Duration) []logEntry {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		got := inst.moduleLogs(msg)
		if len(got) >= n {
			return got
		}
		if time.Now().After(deadline) {
			t.Fatalf("waited %s for %d log entries %q, have %d\nstderr:\n%s", timeout, n, msg, len(got), inst.stderr.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// response is what a test looks at in an HTTP response.
type response struct {
	status int
	header http.Header
	body   string
}

// do sends a request with the given User-Agent (none when empty) and
// extra headers ("Name: value").
// setHeaders sets "Name: value" headers on req.
func setHeaders(req *http.Request, headers []string) {
	for _, h := range headers {
		k, v, _ := strings.Cut(h, ":")
		req.Header.Set(strings.TrimSpace(k), strings.TrimSpace(v))
	}
}

func (inst *instance) do(t testing.TB, method, path, ua string, headers ...string) response {
	t.Helper()
	req, err := http.NewRequest(method, inst.url(path), nil)
	if err != nil {
		t.Fatalf("request %s: %v", path, err)
	}
	req.Host = inst.host
	req.Header.Set("User-Agent", ua)
	setHeaders(req, headers)
	resp, err := sendRetry(inst.client, req)
	if err != nil {
		t.Fatalf("%s %s (UA %q): %v\nstderr:\n%s", method, path, ua, err, inst.stderr.String())
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("%s %s: reading body: %v", method, path, err)
	}
	return response{status: resp.StatusCode, header: resp.Header, body: string(body)}
}

// sendRetry sends req, and a GET or HEAD once more if its connection was
// closed before any answer came. After a config reload the old server may
// accept a new connection as it shuts down (Caddy's listeners are shared
// across configs): net/http's server then closes it once it has read the
// request, without answering (EOF) or with the request unread (reset). Go
// retries only on a reused connection. Had the first reached a handler,
// the counts the tests check would show it.
func sendRetry(client *http.Client, req *http.Request) (*http.Response, error) {
	resp, err := client.Do(req)
	if err != nil && (req.Method == http.MethodGet || req.Method == http.MethodHead) &&
		(errors.Is(err, syscall.ECONNRESET) || errors.Is(err, io.EOF)) {
		time.Sleep(100 * time.Millisecond)
		resp, err = client.Do(req)
	}
	return resp, err
}

func (inst *instance) get(t testing.TB, path, ua string, headers ...string) response {
	t.Helper()
	return inst.do(t, http.MethodGet, path, ua, headers...)
}

// rawGet sends "GET <target> HTTP/1.1" over a fresh TCP connection with
// the target exactly as given (no cleaning, no re-encoding).
func (inst *instance) rawGet(t testing.TB, target, ua string) response {
	t.Helper()
	return inst.rawRequest(t, http.MethodGet, target, ua)
}

// rawRequest is rawGet with another method.
func (inst *instance) rawRequest(t testing.TB, method, target, ua string) response {
	t.Helper()
	conn, err := net.DialTimeout("tcp", fmt.Sprintf("127.0.0.1:%d", inst.port), 5*time.Second)
	if err != nil {
		t.Fatalf("dial: %v", err)
	}
	defer conn.Close()
	_ = conn.SetDeadline(time.Now().Add(10 * time.Second))
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s HTTP/1.1\r\nHost: %s\r\n", method, target, inst.host)
	if ua != "" {
		fmt.Fprintf(&b, "User-Agent: %s\r\n", ua)
	}
	b.WriteString("Connection: close\r\n\r\n")
	if _, err := io.WriteString(conn, b.String()); err != nil {
		t.Fatalf("write: %v", err)
	}
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatalf("%s %s: reading response: %v", method, target, err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return response{status: resp.StatusCode, header: resp.Header, body: string(body)}
}

// writeFile writes a file, creating its directory.
func writeFile(t testing.TB, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// replaceFile replaces path atomically (write a temporary file, rename it
// over path), as editors and deploy tools do, so that a reload never
// sees a half-written file.
func replaceFile(t testing.TB, path, content string, perm os.FileMode) {
	t.Helper()
	tmp := filepath.Join(filepath.Dir(path), fmt.Sprintf(".%s.%d.tmp", filepath.Base(path), time.Now().UnixNano()))
	if err := os.WriteFile(tmp, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(tmp, perm); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, path); err != nil {
		t.Fatal(err)
	}
}

// readAccessLog parses an access log file; a missing file is empty.
func readAccessLog(t testing.TB, path string) []logEntry {
	t.Helper()
	b, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	var out []logEntry
	for _, e := range parseJSONLines(string(b)) {
		if req, ok := e.obj("request"); ok && req.str("uri") == readyPath {
			continue
		}
		out = append(out, e)
	}
	return out
}

// waitAccessLog polls the access log until it has at least n entries
// (besides the readiness probe's) and returns them.
func waitAccessLog(t testing.TB, path string, n int, timeout time.Duration) []logEntry {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		got := readAccessLog(t, path)
		if len(got) >= n {
			return got
		}
		if time.Now().After(deadline) {
			t.Fatalf("waited %s for %d access log entries in %s, have %d", timeout, n, path, len(got))
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// getLogged requests path as ua (with headers) and returns the response
// and its entry in the access log at logPath.
func (inst *instance) getLogged(t testing.TB, logPath, path, ua string, headers ...string) (response, logEntry) {
	t.Helper()
	n := len(readAccessLog(t, logPath))
	got := inst.get(t, path, ua, headers...)
	return got, waitAccessLog(t, logPath, n+1, 10*time.Second)[n]
}

// checkStrings reports each field of the object o whose string is not the
// one wanted, as name's: want holds field names and values, in turn.
func checkStrings(t testing.TB, name string, o logEntry, want ...string) {
	t.Helper()
	for i := 0; i+1 < len(want); i += 2 {
		if g := o.str(want[i]); g != want[i+1] {
			t.Errorf("%s: robots_txt.%s = %q, want %q", name, want[i], g, want[i+1])
		}
	}
}

// accessURI returns the request URI and User-Agent of an access log entry.
func accessURI(e logEntry) (uri, ua string) {
	req, _ := e.obj("request")
	uri = req.str("uri")
	if h, ok := req.obj("headers"); ok {
		if v, ok := h["User-Agent"].([]any); ok && len(v) > 0 {
			ua, _ = v[0].(string)
		}
	}
	return uri, ua
}

// eventually polls cond every 25 ms until it holds or timeout passes.
func eventually(t testing.TB, timeout time.Duration, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("waited %s for %s", timeout, what)
		}
		time.Sleep(25 * time.Millisecond)
	}
}

// runCaddyCmd runs the Caddy binary with args in cwd (the repository root
// when empty), bounded by a timeout, and returns its exit code, stdout
// and stderr.
func runCaddyCmd(t testing.TB, cwd string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	return runCaddyCmdAs(t, nil, cwd, args...)
}

// runCaddyCmdAs is runCaddyCmd as the user of cred (nil: this process's).
func runCaddyCmdAs(t testing.TB, cred *syscall.Credential, cwd string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, caddyBin, args...)
	if cwd == "" {
		cwd = repoRoot
	}
	cmd.Dir = cwd
	dir := t.TempDir()
	if cred != nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: cred}
		chownTree(t, dir, int(cred.Uid), int(cred.Gid))
	}
	cmd.Env = caddyEnv(dir, freePort(t))
	var so, se bytes.Buffer
	cmd.Stdout, cmd.Stderr = &so, &se
	err := cmd.Run()
	if ctx.Err() != nil {
		t.Fatalf("caddy %v did not finish in 30s\nstderr:\n%s", args, se.String())
	}
	var ee *exec.ExitError
	switch {
	case err == nil:
		code = 0
	case errors.As(err, &ee):
		code = ee.ExitCode()
	default:
		t.Fatalf("caddy %v: %v", args, err)
	}
	return code, so.String(), se.String()
}

// errorText returns the messages in a Caddy command's stderr, decoded
// from its JSON log lines (so that quotes read as written), and any
// lines that are not JSON as they are.
func errorText(stderr string) string {
	var b strings.Builder
	for _, line := range strings.Split(stderr, "\n") {
		line = strings.TrimSpace(line)
		var e logEntry
		if strings.HasPrefix(line, "{") && json.Unmarshal([]byte(line), &e) == nil {
			for _, k := range []string{"msg", "error"} {
				if s := e.str(k); s != "" {
					b.WriteString(s)
					b.WriteByte('\n')
				}
			}
			continue
		}
		b.WriteString(line)
		b.WriteByte('\n')
	}
	return b.String()
}

// dropPrivileges returns nil when the tests do not run as root. As root,
// where file permissions do not apply, it returns the credential of the
// user nobody, makes dirs (and the test's temporary directory above them)
// usable by nobody, so that Caddy run with the credential can be shown an
// unreadable file; it skips the test when there is no such user.
func dropPrivileges(t testing.TB, dirs ...string) *syscall.Credential {
	t.Helper()
	if os.Geteuid() != 0 {
		return nil
	}
	u, err := user.Lookup("nobody")
	if err != nil {
		t.Skipf("running as root without a user nobody to drop privileges to: %v", err)
	}
	uid, err1 := strconv.Atoi(u.Uid)
	gid, err2 := strconv.Atoi(u.Gid)
	if err1 != nil || err2 != nil {
		t.Skipf("user nobody has uid %q gid %q", u.Uid, u.Gid)
	}
	for _, d := range dirs {
		// t.TempDir's parent is private to this process's user.
		if err := os.Chmod(filepath.Dir(d), 0o755); err != nil {
			t.Fatal(err)
		}
		chownTree(t, d, uid, gid)
	}
	return &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}
}

// chownTree gives a directory tree to uid:gid.
func chownTree(t testing.TB, dir string, uid, gid int) {
	t.Helper()
	err := filepath.WalkDir(dir, func(path string, _ fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		return os.Lchown(path, uid, gid)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// verifiedHere is a robots_txt subdirective that vouches for the crawlers
// these tests impersonate when they come from this machine, as an operator
// vouches for its own monitor. The tests that use it are about judging,
// and their requests claim to be Googlebot, Googlebot-Image, GPTBot and AhrefsBot from
// this machine; without it every such claim is an impostor's
// (identity_test.go tests that).
const verifiedHere = `crawler Googlebot {
			ranges ` + testNets + `
		}
		crawler Googlebot-Image {
			ranges ` + testNets + `
		}
		crawler GPTBot {
			ranges ` + testNets + `
		}
		crawler AhrefsBot {
			ranges ` + testNets + `
		}`

// testNets are the addresses tests send requests from: loopback, and the
// documentation and private ranges they put in X-Forwarded-For.
const testNets = "127.0.0.0/8 ::1 10.0.0.0/8 192.0.2.0/24 198.51.100.0/24 203.0.113.0/24"
