package webbotauth

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

// signedRequest returns a request validly signed by s for agent at testNow.
func signedRequest(s testSigner, agent string) *http.Request {
	r := newRequest("example.com")
	s.sign(r, signOpts{agent: agent, created: testNow - 10, expires: testNow + 3600})
	return r
}

// TestDirectoryFailures: every directory response other than a well-formed
// 200 leaves the request unverified, and the failure is cached so the next
// request does not fetch again.
func TestDirectoryFailures(t *testing.T) {
	s := newSigner(t)
	keys := jwksFor(s.pub())
	big := append(append([]byte(`{"keys":[`), []byte(strings.Repeat(`{"kty":"RSA"},`, 200))...), keys[len(`{"keys":[`):]...)

	tests := []struct {
		name  string
		serve http.HandlerFunc
	}{
		{"5xx", func(w http.ResponseWriter, r *http.Request) {
			http.Error(w, "down", http.StatusServiceUnavailable)
		}},
		{"404", http.NotFound},
		{"garbage", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", DirectoryMediaType)
			w.Write([]byte("<html>not json</html>"))
		}},
		{"wrong media type", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/html")
			w.Write(keys)
		}},
		{"oversize with content-length", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", DirectoryMediaType)
			w.Write(big)
		}},
		{"oversize chunked", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", DirectoryMediaType)
			w.(http.Flusher).Flush() // no Content-Length: the limit must hold while reading
			w.Write(big)
		}},
		{"redirect", func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Path == DirectoryPath {
				http.Redirect(w, r, "/keys.json", http.StatusFound)
				return
			}
			w.Header().Set("Content-Type", DirectoryMediaType)
			w.Write(keys)
		}},
		{"no ed25519 key", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", DirectoryMediaType)
			w.Write([]byte(`{"keys":[{"kty":"EC","crv":"P-256","x":"AAAA","y":"AAAA"}]}`))
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := &dirHandler{override: tt.serve}
			_, client := startDirectory(t, h)
			v := New(Options{Client: client, Now: newClock(testNow).Now, Wait: 5 * time.Second, MaxDirectorySize: 1024})
			for i := 0; i < 2; i++ {
				_, ok, err := v.Verify(context.Background(), signedRequest(s, testAgent))
				t.Logf("err: %v", err)
				if ok || !errors.Is(err, ErrUnverified) {
					t.Fatalf("Verify = %v, %v; want an error wrapping ErrUnverified", ok, err)
				}
			}
			if n := h.hits.Load(); n != 1 {
				t.Errorf("directory server saw %d requests, want 1 (no redirect followed, failure cached)", n)
			}
		})
	}
}

// gatedDirectory serves s's key once release is closed: a directory as
// slow as a test wants.
func gatedDirectory(t *testing.T, s testSigner) (*dirHandler, *http.Client, chan struct{}) {
	release := make(chan struct{})
	h := &dirHandler{body: jwksFor(s.pub())}
	h.override = func(w http.ResponseWriter, r *http.Request) {
		<-release
		w.Header().Set("Content-Type", DirectoryMediaType)
		w.Write(h.body)
	}
	_, client := startDirectory(t, h)
	return h, client, release
}

// TestSlowDirectory: a directory slower than Options.Wait leaves the first
// request unverified after about Wait; the fetch completes in the background
// and later requests verify from the cache.
func TestSlowDirectory(t *testing.T) {
	s := newSigner(t)
	h, client, release := gatedDirectory(t, s)
	v := New(Options{Client: client, Now: newClock(testNow).Now, Wait: 50 * time.Millisecond})

	// The directory answers only once release is closed, after Verify
	// returns: Verify returning at all is the proof it did not wait.
	ok, err := verifyOrHang(t, context.Background(), v, signedRequest(s, testAgent))
	if ok || !errors.Is(err, ErrUnverified) {
		t.Fatalf("Verify = %v, %v; want unverified while the directory is slow", ok, err)
	}
	close(release)

	deadline := time.Now().Add(30 * time.Second)
	for {
		_, ok, err = v.Verify(context.Background(), signedRequest(s, testAgent))
		if ok || time.Now().After(deadline) {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	if !ok {
		t.Fatalf("Verify after the fetch completed = %v, %v; want verified", ok, err)
	}
	if n := h.hits.Load(); n != 1 {
		t.Errorf("directory fetched %d times, want 1", n)
	}
}

// TestFetchDedup: concurrent requests naming one uncached directory share a
// single fetch.
func TestFetchDedup(t *testing.T) {
	s := newSigner(t)
	h, client, release := gatedDirectory(t, s)
	v := New(Options{Client: client, Now: newClock(testNow).Now, Wait: 5 * time.Second})

	const n = 20
	var wg sync.WaitGroup
	results := make(chan bool, n)
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, ok, _ := v.Verify(context.Background(), signedRequest(s, testAgent))
			results <- ok
		}()
	}
	time.Sleep(100 * time.Millisecond) // let them all queue on the fetch
	close(release)
	wg.Wait()
	close(results)
	for ok := range results {
		if !ok {
			t.Error("a request waiting on the shared fetch was not verified")
		}
	}
	if got := h.hits.Load(); got != 1 {
		t.Errorf("directory fetched %d times for %d concurrent requests, want 1", got, n)
	}
}

// TestFetchRateLimit: requests naming many different directories fetch no
// more than the global rate allows; the rest are unverified at once.
func TestFetchRateLimit(t *testing.T) {
	s := newSigner(t)
	h := &dirHandler{body: jwksFor(s.pub())}
	_, client := startDirectory(t, h)
	const burst = 3
	v := New(Options{Client: client, Now: newClock(testNow).Now, Wait: 5 * time.Second,
		FetchRate: 0.001, FetchBurst: burst})

	verified := 0
	for i := 0; i < 50; i++ {
		_, ok, err := v.Verify(context.Background(), signedRequest(s, fmt.Sprintf("https://agent%d.test", i)))
		if ok {
			verified++
		} else if !errors.Is(err, ErrUnverified) {
			t.Fatalf("agent %d: err = %v, want ErrUnverified", i, err)
		}
	}
	if got := h.hits.Load(); got != burst {
		t.Errorf("directory fetched %d times, want %d (the burst)", got, burst)
	}
	if verified != burst {
		t.Errorf("%d requests verified, want %d", verified, burst)
	}
	if v.cache.Len() > burst || v.negative.Len() != 0 {
		t.Errorf("caches hold %d+%d entries, want at most %d+0: refused fetches must leave no state",
			v.cache.Len(), v.negative.Len(), burst)
	}
}

// TestCacheBounded: the directory cache never holds more than CacheSize
// entries, whatever the number of agents.
func TestCacheBounded(t *testing.T) {
	s := newSigner(t)
	h := &dirHandler{body: jwksFor(s.pub())}
	_, client := startDirectory(t, h)
	v := New(Options{Client: client, Now: newClock(testNow).Now, Wait: 5 * time.Second,
		CacheSize: 4, FetchRate: 1000, FetchBurst: 1000})
	for i := 0; i < 10; i++ {
		if _, ok, err := v.Verify(context.Background(), signedRequest(s, fmt.Sprintf("https://agent%d.test", i))); !ok {
			t.Fatalf("agent %d: %v", i, err)
		}
	}
	if n := v.cache.Len(); n != 4 {
		t.Errorf("cache holds %d directories, want 4", n)
	}
}

// TestCacheExpiry: a cached directory is used until its max-age (clamped),
// then fetched again; a failure is retried after NegativeTTL.
func TestCacheExpiry(t *testing.T) {
	s := newSigner(t)
	h := &dirHandler{body: jwksFor(s.pub()), maxAge: 600}
	_, client := startDirectory(t, h)
	clock := newClock(testNow)
	v := New(Options{Client: client, Now: clock.Now, Wait: 5 * time.Second, NegativeTTL: 30 * time.Second})
	verify := func() error {
		_, _, err := v.Verify(context.Background(), signedRequest(s, testAgent))
		return err
	}
	// signedRequest signs at testNow with an hour's validity; keep the
	// clock inside it.
	if err := verify(); err != nil {
		t.Fatal(err)
	}
	clock.Advance(599 * time.Second)
	if err := verify(); err != nil || h.hits.Load() != 1 {
		t.Fatalf("within max-age: err %v, %d fetches; want nil, 1", err, h.hits.Load())
	}
	clock.Advance(2 * time.Second)
	if err := verify(); err != nil || h.hits.Load() != 2 {
		t.Fatalf("after max-age: err %v, %d fetches; want nil, 2", err, h.hits.Load())
	}

	// The directory starts failing: the next refresh fails and is cached.
	h.override = func(w http.ResponseWriter, r *http.Request) { http.Error(w, "down", http.StatusInternalServerError) }
	clock.Advance(601 * time.Second)
	if err := verify(); !errors.Is(err, ErrUnverified) || h.hits.Load() != 3 {
		t.Fatalf("failing refresh: err %v, %d fetches; want ErrUnverified, 3", err, h.hits.Load())
	}
	clock.Advance(10 * time.Second)
	if err := verify(); !errors.Is(err, ErrUnverified) || h.hits.Load() != 3 {
		t.Fatalf("within NegativeTTL: err %v, %d fetches; want ErrUnverified, 3", err, h.hits.Load())
	}
	h.override = nil
	clock.Advance(30 * time.Second)
	if err := verify(); err != nil || h.hits.Load() != 4 {
		t.Fatalf("after NegativeTTL: err %v, %d fetches; want nil, 4", err, h.hits.Load())
	}
}

// TestCacheTTL covers the clamping of Cache-Control max-age.
func TestCacheTTL(t *testing.T) {
	o := Options{MinTTL: 5 * time.Minute, MaxTTL: 24 * time.Hour, DefaultTTL: time.Hour}
	tests := []struct {
		cc   string
		want time.Duration
	}{
		{"", time.Hour},
		{"max-age=3600", time.Hour},
		{"public, max-age=7200", 2 * time.Hour},
		{"max-age=10", 5 * time.Minute},
		{"max-age=999999999999", 24 * time.Hour},
		{"no-store", 5 * time.Minute},
		{"no-cache", 5 * time.Minute},
		{"max-age=junk", time.Hour},
		{"max-age=-5", time.Hour},
	}
	for _, tt := range tests {
		h := http.Header{}
		if tt.cc != "" {
			h.Set("Cache-Control", tt.cc)
		}
		if got := cacheTTL(h, o); got != tt.want {
			t.Errorf("cacheTTL(%q) = %v, want %v", tt.cc, got, tt.want)
		}
	}
}

// TestParseDirectory covers which keys of a JWKS are kept.
func TestParseDirectory(t *testing.T) {
	s1, s2 := newSigner(t), newSigner(t)
	both := jwksFor(s1.pub(), s2.pub())
	tests := []struct {
		name    string
		body    string
		maxKeys int
		want    int // keys kept; -1 means an error
	}{
		{"two keys", string(both), 32, 2},
		{"capped", string(both), 1, 1},
		{"skips other key types", `{"keys":[{"kty":"RSA","n":"AQAB","e":"AQAB"},` + string(jwksFor(s1.pub()))[len(`{"keys":[`):], 32, 1},
		// The draft's signed directory response body (Test Vectors,
		// "Signed Directory Response").
		{"draft signed directory body", `{"keys":[{"kty":"OKP","crv":"Ed25519","kid":"poqkLGiymh_W0uP6PZFw-dvez3QJT5SolqXBCW38r0U","x":"JrQLj5P_89iXES9-vFgrIy29clF9CC_oPPsw3c5D0bs","use":"sig"}]}`, 32, 1},
		// The draft's "Directory Format" example, whose kid is not the
		// key's thumbprint: the key is kept, under its real thumbprint.
		{"kid not the thumbprint", `{"keys":[{"kty":"OKP","crv":"Ed25519","kid":"NFcWBst6DXG-N35nHdzMrioWntdzNZghQSkjHNMMSjw","x":"JrQLj5P_89iXES9-vFgrIy29clF9CC_oPPsw3c5D0bs","use":"sig","nbf":1712793600,"exp":1715385600}]}`, 32, 1},
		{"skips bad x", `{"keys":[{"kty":"OKP","crv":"Ed25519","x":"short"}]}`, 32, -1},
		{"empty", `{"keys":[]}`, 32, -1},
		{"not a jwks", `[1,2,3]`, 32, -1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d, err := parseDirectory([]byte(tt.body), tt.maxKeys)
			if tt.want < 0 {
				if err == nil {
					t.Fatalf("parseDirectory kept %d keys, want an error", len(d.keys))
				}
				return
			}
			if err != nil || len(d.keys) != tt.want {
				t.Fatalf("parseDirectory: %v keys, err %v; want %d", d, err, tt.want)
			}
			for kid, k := range d.keys {
				if kid != Thumbprint(k.pub) {
					t.Errorf("key indexed as %s, want its thumbprint %s", kid, Thumbprint(k.pub))
				}
			}
		})
	}
}

// TestKeyValidity: a key's nbf and exp in the directory are honoured.
func TestKeyValidity(t *testing.T) {
	s := newSigner(t)
	body := strings.Replace(string(jwksFor(s.pub())), `"use":"sig"`,
		fmt.Sprintf(`"use":"sig","nbf":%d,"exp":%d`, testNow-100, testNow+100), 1)
	_, client := startDirectory(t, &dirHandler{body: []byte(body)})
	for _, tt := range []struct {
		at int64
		ok bool
	}{{testNow, true}, {testNow + 1000, false}} {
		v := New(Options{Client: client, Now: newClock(tt.at).Now, Wait: 5 * time.Second})
		r := newRequest("example.com")
		s.sign(r, signOpts{agent: testAgent, created: tt.at, expires: tt.at + 60})
		if _, ok, err := v.Verify(context.Background(), r); ok != tt.ok {
			t.Errorf("at %d: ok = %v (%v), want %v", tt.at, ok, err, tt.ok)
		}
	}
}

// TestDefaultClientRefusesPrivateAddresses: without Options.Client, a
// Signature-Agent pointing at a loopback address is not fetched.
func TestDefaultClientRefusesPrivateAddresses(t *testing.T) {
	s := newSigner(t)
	h := &dirHandler{body: jwksFor(s.pub())}
	srv := httptest.NewTLSServer(h)
	defer srv.Close()
	v := New(Options{Now: newClock(testNow).Now, Wait: 5 * time.Second})
	_, ok, err := v.Verify(context.Background(), signedRequest(s, srv.URL))
	if ok || !errors.Is(err, ErrUnverified) || !strings.Contains(err.Error(), "non-public") {
		t.Fatalf("Verify = %v, %v; want unverified: non-public address", ok, err)
	}
	if h.hits.Load() != 0 {
		t.Error("the loopback directory was fetched")
	}
}

// TestStaleWhileRefreshing: when a cached directory expires and its refresh
// is slower than Options.Wait, the expired copy is used meanwhile rather
// than turning verification off.
func TestStaleWhileRefreshing(t *testing.T) {
	s := newSigner(t)
	release := make(chan struct{})
	h := &dirHandler{body: jwksFor(s.pub()), maxAge: 600}
	_, client := startDirectory(t, h)
	clock := newClock(testNow)
	v := New(Options{Client: client, Now: clock.Now, Wait: 50 * time.Millisecond})
	ctx := context.Background()

	// First fetch, with a generous wait.
	deadline := time.Now().Add(5 * time.Second)
	for {
		if _, ok, _ := v.Verify(ctx, signedRequest(s, testAgent)); ok {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("directory never fetched")
		}
		time.Sleep(10 * time.Millisecond)
	}

	h.override = func(w http.ResponseWriter, r *http.Request) {
		<-release
		w.Header().Set("Content-Type", DirectoryMediaType)
		w.Write(h.body)
	}
	defer close(release)
	clock.Advance(601 * time.Second)
	if _, ok, err := v.Verify(ctx, signedRequest(s, testAgent)); !ok {
		t.Fatalf("Verify during a slow refresh = %v, %v; want verified from the expired copy", ok, err)
	}
	clock.Advance(staleGrace)
	if _, ok, err := v.Verify(ctx, signedRequest(s, testAgent)); ok || !errors.Is(err, ErrUnverified) {
		t.Fatalf("Verify past the stale grace = %v, %v; want unverified", ok, err)
	}
}

// TestVerifyContextCancelled: Verify does not wait for a directory past its
// context.
func TestVerifyContextCancelled(t *testing.T) {
	s := newSigner(t)
	release := make(chan struct{})
	defer close(release)
	h := &dirHandler{override: func(w http.ResponseWriter, r *http.Request) { <-release }}
	_, client := startDirectory(t, h)
	v := New(Options{Client: client, Now: newClock(testNow).Now, Wait: time.Minute})
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	// The directory never answers and Wait is a minute: Verify returning
	// before the watchdog's 30 s is the context ending it.
	ok, err := verifyOrHang(t, ctx, v, signedRequest(s, testAgent))
	if ok || !errors.Is(err, ErrUnverified) {
		t.Fatalf("Verify = %v, %v; want unverified once the context ends", ok, err)
	}
}

// verifyOrHang runs Verify and fails the test if it has not returned
// within 30 s: a Verify blocked on a directory that answers only after it
// returns would otherwise hang the test binary, not fail the test. The
// bound is a watchdog, far above any wait under test, not a speed claim.
func verifyOrHang(t *testing.T, ctx context.Context, v *Verifier, r *http.Request) (bool, error) {
	t.Helper()
	type result struct {
		ok  bool
		err error
	}
	done := make(chan result, 1)
	go func() {
		_, ok, err := v.Verify(ctx, r)
		done <- result{ok, err}
	}()
	select {
	case res := <-done:
		return res.ok, res.err
	case <-time.After(30 * time.Second):
		t.Fatal("Verify has not returned after 30 s; it waits for a directory that has not answered")
		return false, nil
	}
}

// TestPublicOnlyTransport: a directory that resolves to a loopback or
// private address is not dialled, unless the operator named its host.
func TestPublicOnlyTransport(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "ok") }))
	t.Cleanup(srv.Close)
	_, port, _ := net.SplitHostPort(srv.Listener.Addr().String())
	for _, tc := range []struct {
		name    string
		url     string
		trusted map[string]bool
		ok      bool
	}{
		{"loopback address", srv.URL, nil, false},
		{"loopback by name", "http://localhost:" + port, nil, false},
		{"another host named", srv.URL, map[string]bool{"signer.example": true}, false},
		{"the address named", srv.URL, map[string]bool{"127.0.0.1": true}, true},
		{"the name named", "http://localhost:" + port, map[string]bool{"localhost": true}, true},
	} {
		client := &http.Client{Transport: publicOnlyTransport(5*time.Second, tc.trusted)}
		resp, err := client.Get(tc.url)
		if err == nil {
			resp.Body.Close()
		}
		if (err == nil) != tc.ok {
			t.Errorf("%s: GET %s: %v, want ok %v", tc.name, tc.url, err, tc.ok)
		}
		if err != nil && !strings.Contains(err.Error(), "non-public address") {
			t.Errorf("%s: %v, want the refusal to name the non-public address", tc.name, err)
		}
	}
}
