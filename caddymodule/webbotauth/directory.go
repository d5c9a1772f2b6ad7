package webbotauth

import (
	"context"
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"io"
	"mime"
	"net"
	"net/http"
	"net/netip"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// staleGrace is how long past its TTL a cached directory may still be used
// while its refresh is in flight, rate-limited or failing to start, so that a
// slow directory does not turn verification off at every expiry. It also
// bounds how long a key removed from a directory can outlive its TTL.
const staleGrace = 5 * time.Minute

// directory is the usable key set of one origin's directory.
type directory struct {
	keys    map[string]dirKey // by RFC 7638 thumbprint
	expires time.Time         // when the cached copy goes stale
}

// dirKey is an Ed25519 key and the JWK's optional nbf/exp (Unix seconds,
// 0 when absent).
type dirKey struct {
	pub      ed25519.PublicKey
	nbf, exp int64
}

func (k dirKey) validAt(now time.Time, skew time.Duration) bool {
	t, s := now.Unix(), int64(skew/time.Second)
	return (k.nbf == 0 || k.nbf <= t+s) && (k.exp == 0 || k.exp >= t-s)
}

type negativeEntry struct {
	until time.Time
	err   error
}

// fetchCall is one directory fetch in flight, shared by every request that
// needs that directory meanwhile.
type fetchCall struct {
	done chan struct{} // closed when dir and err are set
	dir  *directory
	err  error
}

// directory returns the key directory of origin, from the cache or by
// fetching it, waiting at most Options.Wait (or until ctx ends).
func (v *Verifier) directory(ctx context.Context, origin string) (*directory, error) {
	now := v.opts.Now()
	var stale *directory
	if d, ok := v.cache.Get(origin); ok {
		if now.Before(d.expires) {
			return d, nil
		}
		if now.Before(d.expires.Add(staleGrace)) {
			stale = d
		}
	}
	if n, ok := v.negative.Get(origin); ok && now.Before(n.until) {
		return nil, n.err
	}

	v.mu.Lock()
	c, ok := v.inflight[origin]
	if !ok {
		var refuse error
		switch {
		case len(v.inflight) >= v.opts.MaxInFlight:
			refuse = unverified("too many directory fetches in flight")
		case !v.limiter.Allow():
			// The global limit is what keeps requests naming a million
			// different agents from fetching a million directories.
			refuse = unverified("directory fetch rate limit reached")
		}
		if refuse != nil {
			v.mu.Unlock()
			if stale != nil {
				return stale, nil
			}
			return nil, refuse
		}
		c = &fetchCall{done: make(chan struct{})}
		v.inflight[origin] = c
		go v.fetch(origin, c)
	}
	v.mu.Unlock()

	t := time.NewTimer(v.opts.Wait)
	defer t.Stop()
	select {
	case <-c.done:
		if c.err != nil {
			return nil, c.err
		}
		return c.dir, nil
	case <-t.C:
	case <-ctx.Done():
	}
	if stale != nil {
		return stale, nil
	}
	return nil, unverified("directory of " + origin + " not fetched yet")
}

// fetch runs one directory fetch to its end, detached from the request that
// started it, and caches the outcome.
func (v *Verifier) fetch(origin string, c *fetchCall) {
	ctx, cancel := context.WithTimeout(context.Background(), v.opts.FetchTimeout)
	defer cancel()
	dir, ttl, err := v.fetchDirectory(ctx, origin)
	now := v.opts.Now()
	if err != nil {
		v.negative.Add(origin, negativeEntry{until: now.Add(v.opts.NegativeTTL), err: err})
	} else {
		dir.expires = now.Add(ttl)
		v.cache.Add(origin, dir)
		v.negative.Remove(origin)
	}
	c.dir, c.err = dir, err

	v.mu.Lock()
	delete(v.inflight, origin)
	v.mu.Unlock()
	close(c.done)
}

// fetchDirectory GETs and parses the directory of origin.
func (v *Verifier) fetchDirectory(ctx context.Context, origin string) (*directory, time.Duration, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, origin+DirectoryPath, nil)
	if err != nil {
		return nil, 0, unverified("directory url: " + err.Error())
	}
	req.Header.Set("Accept", DirectoryMediaType)
	// Directory operators see who fetches their keys, and why.
	req.Header.Set("User-Agent", "caddy-robots-txt-webbotauth (key directory fetch)")
	resp, err := v.client.Do(req)
	if err != nil {
		return nil, 0, unverified("directory fetch: " + err.Error())
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		// Redirects land here too: the client never follows them.
		return nil, 0, unverified("directory fetch: status " + strconv.Itoa(resp.StatusCode))
	}
	if !directoryMediaType(resp.Header.Get("Content-Type")) {
		return nil, 0, unverified("directory media type is not " + DirectoryMediaType)
	}
	limit := v.opts.MaxDirectorySize
	if resp.ContentLength > limit {
		return nil, 0, unverified("directory larger than " + strconv.FormatInt(limit, 10) + " bytes")
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, limit+1))
	if err != nil {
		return nil, 0, unverified("directory read: " + err.Error())
	}
	if int64(len(body)) > limit {
		return nil, 0, unverified("directory larger than " + strconv.FormatInt(limit, 10) + " bytes")
	}
	dir, err := parseDirectory(body, v.opts.MaxKeys)
	if err != nil {
		return nil, 0, err
	}
	return dir, cacheTTL(resp.Header, v.opts), nil
}

// directoryMediaType accepts the registered media type and, leniently, the
// generic JSON ones a directory served by a plain file server carries.
func directoryMediaType(ct string) bool {
	mt, _, err := mime.ParseMediaType(ct)
	if err != nil {
		return false
	}
	switch mt {
	case DirectoryMediaType, "application/jwk-set+json", "application/json":
		return true
	}
	return false
}

// jwk holds the members of a JWK this verifier uses.
type jwk struct {
	Kty string `json:"kty"`
	Crv string `json:"crv"`
	X   string `json:"x"`
	Nbf int64  `json:"nbf"`
	Exp int64  `json:"exp"`
}

// parseDirectory parses a JWKS and keeps its Ed25519 keys, at most maxKeys.
// Keys of other types, and malformed keys, are skipped rather than failing
// the whole directory, so that one bad entry does not hide the others.
func parseDirectory(body []byte, maxKeys int) (*directory, error) {
	var doc struct {
		Keys []json.RawMessage `json:"keys"`
	}
	if err := json.Unmarshal(body, &doc); err != nil {
		return nil, unverified("directory is not a json web key set")
	}
	d := &directory{keys: make(map[string]dirKey)}
	for _, raw := range doc.Keys {
		if len(d.keys) == maxKeys {
			break
		}
		var k jwk
		if json.Unmarshal(raw, &k) != nil || k.Kty != "OKP" || k.Crv != "Ed25519" {
			continue
		}
		pub, err := base64.RawURLEncoding.Strict().DecodeString(k.X)
		if err != nil || len(pub) != ed25519.PublicKeySize {
			continue
		}
		// Keys are indexed by the thumbprint computed here, never by kid:
		// the protocol requires kid to equal it, but deriving it is what
		// makes a keyid name exactly one key, and a directory whose labels
		// are off (the draft's own example is) still verifies correctly.
		d.keys[Thumbprint(pub)] = dirKey{pub: ed25519.PublicKey(pub), nbf: k.Nbf, exp: k.Exp}
	}
	if len(d.keys) == 0 {
		return nil, unverified("directory has no usable ed25519 key")
	}
	return d, nil
}

// Thumbprint returns the RFC 7638 JWK SHA-256 thumbprint of an Ed25519
// public key (RFC 8037 Appendix A.3), base64url without padding: the keyid a
// Web Bot Auth signature names its key by.
func Thumbprint(pub ed25519.PublicKey) string {
	// The required members in lexicographic order, no whitespace (RFC 7638
	// Section 3.2).
	sum := sha256.Sum256([]byte(`{"crv":"Ed25519","kty":"OKP","x":"` +
		base64.RawURLEncoding.EncodeToString(pub) + `"}`))
	return base64.RawURLEncoding.EncodeToString(sum[:])
}

// cacheTTL returns how long to cache a directory: its Cache-Control max-age,
// clamped to [MinTTL, MaxTTL] so that neither a directory asking for no
// caching makes every request fetch it nor one asking for a year pins a
// removed key.
func cacheTTL(h http.Header, o Options) time.Duration {
	ttl := o.DefaultTTL
	for _, line := range h.Values("Cache-Control") {
		for _, d := range strings.Split(line, ",") {
			d = strings.ToLower(strings.TrimSpace(d))
			switch {
			case d == "no-store" || d == "no-cache":
				ttl = 0
			case strings.HasPrefix(d, "max-age="):
				if n, err := strconv.ParseInt(strings.Trim(d[len("max-age="):], `"`), 10, 64); err == nil && n >= 0 {
					ttl = time.Duration(min(n, int64(365*24*3600))) * time.Second
				}
			}
		}
	}
	return min(max(ttl, o.MinTTL), o.MaxTTL)
}

// publicOnlyTransport is the default transport for directory fetches. The
// directory's host comes from an untrusted request header, so it refuses to
// connect to loopback, private, link-local and other non-public addresses
// (server-side request forgery), checked on the resolved address at dial
// time. It uses no proxy, since a proxy would dial on its behalf unchecked.
// The hosts in trusted (lower case), which the operator named, are dialled
// whatever their addresses.
func publicOnlyTransport(timeout time.Duration, trusted map[string]bool) *http.Transport {
	plain := &net.Dialer{Timeout: timeout}
	dialer := &net.Dialer{
		Timeout: timeout,
		Control: func(_, address string, _ syscall.RawConn) error {
			host, _, err := net.SplitHostPort(address)
			if err != nil {
				return err
			}
			ip, err := netip.ParseAddr(host)
			if err != nil || !publicAddr(ip) {
				return errors.New("refusing to fetch a directory from non-public address " + host)
			}
			return nil
		},
	}
	dial := func(ctx context.Context, network, addr string) (net.Conn, error) {
		if host, _, err := net.SplitHostPort(addr); err == nil && trusted[strings.ToLower(strings.TrimSuffix(host, "."))] {
			return plain.DialContext(ctx, network, addr)
		}
		return dialer.DialContext(ctx, network, addr)
	}
	return &http.Transport{
		DialContext:            dial,
		ForceAttemptHTTP2:      true,
		TLSHandshakeTimeout:    timeout,
		ResponseHeaderTimeout:  timeout,
		MaxResponseHeaderBytes: 16 << 10,
		MaxIdleConns:           64,
		MaxIdleConnsPerHost:    2,
		IdleConnTimeout:        90 * time.Second,
	}
}

var cgnat = netip.MustParsePrefix("100.64.0.0/10")

func publicAddr(ip netip.Addr) bool {
	ip = ip.Unmap()
	return ip.IsGlobalUnicast() && !ip.IsPrivate() && !cgnat.Contains(ip)
}
