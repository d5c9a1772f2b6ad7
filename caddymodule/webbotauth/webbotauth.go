// Package webbotauth verifies Web Bot Auth request signatures: HTTP Message
// Signatures (RFC 9421) made with Ed25519 by automated clients, whose public
// keys are published in an HTTP Message Signatures Directory named by the
// request's Signature-Agent header
// (draft-ietf-webbotauth-httpsig-protocol, formerly
// draft-meunier-web-bot-auth-architecture).
//
// The package is independent of Caddy so that it can be tested, and reused,
// on its own.
//
// # What a verified request means
//
// Verify reports ok only for a signature that
//   - carries tag="web-bot-auth", created, expires and keyid parameters, and
//     alg="ed25519" if it names an algorithm;
//   - is fresh: created is not in the future and expires is not in the past,
//     both within Options.Skew;
//   - covers "@authority" (so it is bound to this site; the draft also lets
//     a signer cover "@target-uri" instead, which this verifier refuses) and
//     the Signature-Agent member that names its key directory;
//   - verifies with the Ed25519 key whose RFC 7638 thumbprint is keyid, found
//     in the directory of that Signature-Agent (keys are looked up by the
//     (directory, keyid) pair, never by keyid alone).
//
// Replays are accepted within a signature's validity window: the verifier
// keeps no nonce state, as the protocol leaves nonce enforcement to
// deployment policy and a signature covering only "@authority" is meant to be
// reusable until it expires. What a replay can obtain is what the genuine bot
// could, on this site, until expires; Options.MaxLifetime bounds that window.
// Over TLS the authority must be the server name the client asked for, so
// that a signature made for another site cannot be replayed to a server
// that answers any Host; over plain HTTP nothing binds the Host a client
// sends to the site it reached.
//
// # Key directories
//
// Directories are fetched from
// <origin>/.well-known/http-message-signatures-directory over https, without
// following redirects, with bounded size and time, at most one fetch per
// directory at a time, and under a global rate limit, so that requests naming
// many different directories cannot make the verifier fetch them all. Results
// are cached in bounded LRU caches: successes for the response's max-age
// (clamped), failures for a short time. A request waits at most Options.Wait
// for a fetch; past that it is not verified and the fetch goes on in the
// background to fill the cache for the requests that follow.
//
// The global rate limit is shared: a flood of requests naming new agents can
// use it up, delaying discovery of a genuine agent not yet cached (agents
// already cached keep verifying). AllowedAgents removes that exposure.
//
// The directory response's own signatures (the draft's optional possession
// proof, tag="http-message-signatures-directory") are not verified: the keys
// are trusted because TLS authenticated the directory's origin, which is all
// the protocol requires to attribute a request to that origin.
package webbotauth

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	lru "github.com/hashicorp/golang-lru/v2"
	"golang.org/x/time/rate"
)

// The three outcomes the protocol asks verifiers to keep apart. Errors
// returned by Verify wrap one of them (test with errors.Is).
var (
	// ErrMalformed: the signature headers could not be parsed.
	ErrMalformed = errors.New("webbotauth: malformed signature headers")
	// ErrInvalid: the signature, its parameters, its covered components or
	// its freshness fail the checks; the request is not from who it claims.
	ErrInvalid = errors.New("webbotauth: invalid signature")
	// ErrUnverified: the verifier could not decide, e.g. the key directory
	// could not be fetched (yet), or it does not hold the key.
	ErrUnverified = errors.New("webbotauth: signature not verified")
)

// DirectoryPath is the well-known path of an HTTP Message Signatures
// Directory.
const DirectoryPath = "/.well-known/http-message-signatures-directory"

// DirectoryMediaType is the media type a directory is served with.
const DirectoryMediaType = "application/http-message-signatures-directory+json"

// Options configure a Verifier. The zero value is usable: every zero field
// takes the default named in its comment.
type Options struct {
	// Client fetches key directories. Its CheckRedirect is replaced (on a
	// copy) so that redirects are never followed. Default: a client whose
	// transport refuses to dial non-public addresses (loopback, private,
	// link-local), since directory URLs come from untrusted requests. A
	// caller-supplied client gets no such guard.
	Client *http.Client

	// CacheSize bounds the number of directories cached, and separately
	// the number of failed fetches remembered. Default 1024.
	CacheSize int
	// MinTTL and MaxTTL clamp the directory's Cache-Control max-age.
	// Defaults 5 minutes and 24 hours. DefaultTTL applies when the response
	// has no max-age; default 1 hour.
	MinTTL, MaxTTL, DefaultTTL time.Duration
	// NegativeTTL is how long a failed fetch is remembered before the
	// directory is tried again. Default 1 minute (the draft advises at
	// most 5 minutes).
	NegativeTTL time.Duration

	// TrustedAgents are origins (as AllowedAgents) whose hosts the
	// default client dials whatever address they resolve to: the
	// operator named them, and a signer inside the operator's own
	// network (a monitor, a partner over a VPN) has a private address.
	// Every other directory must resolve to a public address.
	TrustedAgents []string

	// MaxDirectorySize bounds a directory response body. Default 64 KiB.
	MaxDirectorySize int64
	// MaxKeys bounds the keys kept from one directory; further keys are
	// ignored. Default 32.
	MaxKeys int
	// FetchTimeout bounds one directory fetch, connection included.
	// Default 5 seconds.
	FetchTimeout time.Duration
	// Wait bounds how long Verify waits for a directory fetch; past it the
	// request is not verified and the fetch finishes in the background.
	// Default 300 ms.
	Wait time.Duration
	// FetchRate and FetchBurst limit directory fetches across all
	// directories (fetches per second). Defaults 2/s with a burst of 10.
	FetchRate  float64
	FetchBurst int
	// MaxInFlight bounds concurrent directory fetches. Default 8.
	MaxInFlight int

	// Skew is the clock skew allowed on created and expires. Default 1
	// minute.
	Skew time.Duration
	// MaxLifetime rejects signatures whose expires - created exceeds it,
	// which bounds the replay window. Default 24 hours, what the draft
	// asks signers to keep under; negative: no limit.
	MaxLifetime time.Duration

	// AllowedAgents, if not empty, lists the only directories trusted, as
	// origins ("https://chatgpt.com") or directory URLs (the origin
	// followed by DirectoryPath); a Signature-Agent naming any other is
	// neither fetched nor verified. Entries that are neither match
	// nothing. Empty: any https directory.
	AllowedAgents []string

	// AllowHTTP lets directories be fetched over plain http. For tests
	// only: the directory's origin is authenticated by TLS alone.
	AllowHTTP bool

	// Now returns the current time. Default time.Now.
	Now func() time.Time
}

// Verifier verifies Web Bot Auth signatures. It is safe for concurrent use.
type Verifier struct {
	opts    Options
	client  *http.Client
	allowed map[string]bool // origins; nil means any

	cache    *lru.Cache[string, *directory]
	negative *lru.Cache[string, negativeEntry]
	limiter  *rate.Limiter

	mu       sync.Mutex
	inflight map[string]*fetchCall
}

// New returns a Verifier configured by opts.
func New(opts Options) *Verifier {
	setDefault(&opts.CacheSize, 1024)
	setDefault(&opts.MinTTL, 5*time.Minute)
	setDefault(&opts.MaxTTL, 24*time.Hour)
	setDefault(&opts.DefaultTTL, time.Hour)
	setDefault(&opts.NegativeTTL, time.Minute)
	setDefault(&opts.MaxDirectorySize, 64<<10)
	setDefault(&opts.MaxKeys, 32)
	setDefault(&opts.FetchTimeout, 5*time.Second)
	setDefault(&opts.Wait, 300*time.Millisecond)
	setDefault(&opts.FetchRate, 2)
	setDefault(&opts.FetchBurst, 10)
	setDefault(&opts.MaxInFlight, 8)
	setDefault(&opts.Skew, time.Minute)
	if opts.MaxLifetime == 0 {
		opts.MaxLifetime = 24 * time.Hour
	}
	if opts.MaxTTL < opts.MinTTL {
		opts.MaxTTL = opts.MinTTL
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}

	var client http.Client
	if opts.Client != nil {
		client = *opts.Client
	} else {
		trusted := map[string]bool{}
		for _, a := range opts.TrustedAgents {
			if u, err := url.Parse(a); err == nil && u.Hostname() != "" {
				trusted[strings.ToLower(u.Hostname())] = true
			}
		}
		client = http.Client{Transport: publicOnlyTransport(opts.FetchTimeout, trusted)}
	}
	client.CheckRedirect = func(*http.Request, []*http.Request) error {
		// The draft forbids following redirects: the key set must come from
		// the origin the Signature-Agent names.
		return http.ErrUseLastResponse
	}

	v := &Verifier{
		opts:     opts,
		client:   &client,
		limiter:  rate.NewLimiter(rate.Limit(opts.FetchRate), opts.FetchBurst),
		inflight: make(map[string]*fetchCall),
	}
	// lru.New fails only for a non-positive size, which setDefault rules out.
	v.cache, _ = lru.New[string, *directory](opts.CacheSize)
	v.negative, _ = lru.New[string, negativeEntry](opts.CacheSize)
	if len(opts.AllowedAgents) > 0 {
		v.allowed = make(map[string]bool, len(opts.AllowedAgents))
		for _, a := range opts.AllowedAgents {
			// An entry that does not parse matches nothing: a non-empty
			// list fails closed.
			if o, err := allowedOrigin(a); err == nil {
				v.allowed[o] = true
			}
		}
	}
	return v
}

func setDefault[T int | int64 | float64 | time.Duration](p *T, def T) {
	if *p <= 0 {
		*p = def
	}
}

// maxSignatureHeaderBytes bounds the signature headers parsed, so a request
// cannot make every verification parse megabytes of structured fields.
const maxSignatureHeaderBytes = 8 << 10

// maxSignatures bounds the web-bot-auth signatures tried on one request.
const maxSignatures = 4

// maxComponents bounds the components one signature covers: Web Bot Auth
// signs "@authority" and "signature-agent", and a profile adds a few
// more.
const maxComponents = 16

// maxCoveredBytes bounds the bytes of covered fields one signature base
// reads (see signatureBase): the signature headers are bounded by
// maxSignatureHeaderBytes, but the fields they cover are any the client
// sends, up to the server's header limit.
const maxCoveredBytes = 4 << 10

// Verify checks the request's Web Bot Auth signature. ok is true only for a
// valid signature by a key in the directory named by Signature-Agent; agent
// is that directory's origin (e.g. "https://chatgpt.com"). A request without
// signature headers returns ok=false and a nil error at once, without
// allocating. Otherwise a failure's error wraps ErrMalformed, ErrInvalid or
// ErrUnverified.
//
// Verify may wait up to Options.Wait for a key directory, less if ctx ends
// sooner.
func (v *Verifier) Verify(ctx context.Context, r *http.Request) (agent string, ok bool, err error) {
	// Direct map access with canonical keys: no allocation on the path every
	// unsigned bot request takes.
	inputs := r.Header["Signature-Input"]
	sigs := r.Header["Signature"]
	if len(inputs) == 0 && len(sigs) == 0 {
		return "", false, nil
	}
	if len(inputs) == 0 || len(sigs) == 0 {
		return "", false, malformed("signature-input and signature must both be present")
	}
	agents := r.Header["Signature-Agent"]
	if headerBytes(inputs)+headerBytes(sigs)+headerBytes(agents) > maxSignatureHeaderBytes {
		return "", false, malformed("signature headers too large")
	}

	cands, err := parseSignatures(inputs, sigs)
	if err != nil {
		return "", false, err
	}
	var firstErr error
	for i := range cands {
		agent, err := v.verifyOne(ctx, r, &cands[i])
		if err == nil {
			return agent, true, nil
		}
		if firstErr == nil {
			firstErr = err
		}
	}
	if firstErr == nil {
		firstErr = invalid(`no signature with tag="web-bot-auth"`)
	}
	return "", false, firstErr
}

func headerBytes(vals []string) int {
	n := 0
	for _, s := range vals {
		n += len(s)
	}
	return n
}

// verifyOne verifies one web-bot-auth signature and returns its agent.
func (v *Verifier) verifyOne(ctx context.Context, r *http.Request, c *candidate) (string, error) {
	now := v.opts.Now()
	if err := c.checkParams(now, v.opts.Skew, v.opts.MaxLifetime); err != nil {
		return "", err
	}
	if !c.covers("@authority") {
		return "", invalid(`"@authority" not covered`)
	}
	if !authorityIsServerName(r) {
		// A server that answers any Host (a catch-all site) would
		// take a signature made for another site, replayed with that
		// site's Host; over TLS the client named the site it meant.
		return "", invalid(`"@authority" is not the TLS server name`)
	}
	member, err := c.agentMember()
	if err != nil {
		return "", err
	}
	origin, err := signatureAgent(r.Header["Signature-Agent"], member, c.label, v.opts.AllowHTTP)
	if err != nil {
		return "", err
	}
	if v.allowed != nil && !v.allowed[origin] {
		return "", unverified("signature agent " + origin + " not in allowed agents")
	}
	base, err := signatureBase(r, c.components, c.input)
	if err != nil {
		return "", err
	}

	dir, err := v.directory(ctx, origin)
	if err != nil {
		return "", err
	}
	key, ok := dir.keys[c.keyID]
	if !ok {
		return "", unverified("key " + c.keyID + " not in directory of " + origin)
	}
	if !key.validAt(now, v.opts.Skew) {
		return "", invalid("key " + c.keyID + " outside its nbf/exp validity")
	}
	if !verifyEd25519(key.pub, base, c.signature) {
		return "", invalid("signature does not verify")
	}
	return origin, nil
}

func malformed(msg string) error  { return wrapf(ErrMalformed, msg) }
func invalid(msg string) error    { return wrapf(ErrInvalid, msg) }
func unverified(msg string) error { return wrapf(ErrUnverified, msg) }

// outcomeError carries a message and the outcome it belongs to.
type outcomeError struct {
	kind error
	msg  string
}

func (e *outcomeError) Error() string { return e.kind.Error() + ": " + e.msg }
func (e *outcomeError) Unwrap() error { return e.kind }

func wrapf(kind error, msg string) error { return &outcomeError{kind: kind, msg: msg} }

// lowerASCII lower-cases s without allocating when it is lower-case already.
func lowerASCII(s string) string {
	for i := 0; i < len(s); i++ {
		if 'A' <= s[i] && s[i] <= 'Z' {
			return strings.ToLower(s)
		}
	}
	return s
}
