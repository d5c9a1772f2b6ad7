package webbotauth

import (
	"context"
	"crypto/tls"
	"encoding/base64"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

const (
	testNow   = int64(1_800_000_000)
	testAgent = "https://agent.test"
)

func newRequest(host string) *http.Request {
	r := httptest.NewRequest(http.MethodGet, "https://"+host+"/page?q=1", nil)
	r.Host = host
	return r
}

// TestVerify covers the signature checks against a real directory served
// over TLS, with requests signed as an agent would.
func TestVerify(t *testing.T) {
	good := newSigner(t)
	other := newSigner(t) // not in the directory
	impostor := other     // claims good's keyid
	impostor.keyID = Thumbprint(good.pub())

	dir := &dirHandler{body: jwksFor(good.pub())}
	_, client := startDirectory(t, dir)

	valid := signOpts{agent: testAgent, created: testNow - 10, expires: testNow + 3600}
	with := func(f func(*signOpts)) signOpts {
		o := valid
		f(&o)
		return o
	}

	tests := []struct {
		name      string
		signer    testSigner
		opts      signOpts
		host      string              // request Host; default example.com
		tweak     func(*http.Request) // after signing
		options   func(*Options)
		wantAgent string
		wantErr   error // nil means ok
	}{
		{name: "valid dictionary", signer: good, opts: valid, wantAgent: testAgent},
		{name: "valid legacy sf-string", signer: good, opts: with(func(o *signOpts) { o.legacy = true }), wantAgent: testAgent},
		{name: "valid with alg", signer: good, opts: with(func(o *signOpts) { o.alg = "ed25519" }), wantAgent: testAgent},
		{name: "origin normalised", signer: good, opts: with(func(o *signOpts) { o.agent = "https://AGENT.test:443/" }), wantAgent: testAgent},
		{name: "created within skew", signer: good, opts: with(func(o *signOpts) { o.created = testNow + 30 }), wantAgent: testAgent},
		{name: "wrong key", signer: impostor, opts: valid, wantErr: ErrInvalid},
		{name: "unknown keyid", signer: other, opts: valid, wantErr: ErrUnverified},
		{name: "expired", signer: good, opts: with(func(o *signOpts) { o.created, o.expires = testNow-7200, testNow-3600 }), wantErr: ErrInvalid},
		{name: "created in the future", signer: good, opts: with(func(o *signOpts) { o.created = testNow + 600 }), wantErr: ErrInvalid},
		{name: "expires before created", signer: good, opts: with(func(o *signOpts) { o.expires = testNow - 20 }), wantErr: ErrInvalid},
		{name: "missing tag", signer: good, opts: with(func(o *signOpts) { o.tag = "-" }), wantErr: ErrInvalid},
		{name: "wrong tag", signer: good, opts: with(func(o *signOpts) { o.tag = "http-message-signatures-directory" }), wantErr: ErrInvalid},
		{name: "wrong alg", signer: good, opts: with(func(o *signOpts) { o.alg = "rsa-pss-sha512" }), wantErr: ErrInvalid},
		{name: "authority not covered", signer: good, opts: with(func(o *signOpts) { o.noAuthority = true }), wantErr: ErrInvalid},
		{name: "signature-agent not covered", signer: good, opts: with(func(o *signOpts) { o.noAgent = true }), wantErr: ErrInvalid},
		{name: "host mismatch", signer: good, opts: with(func(o *signOpts) { o.authority = "other.example" }), wantErr: ErrInvalid},
		{name: "agent changed after signing", signer: good, opts: valid,
			tweak: func(r *http.Request) { r.Header.Set("Signature-Agent", `agent1="https://evil.test"`) }, wantErr: ErrInvalid},
		{name: "covered member absent", signer: good, opts: valid,
			tweak: func(r *http.Request) { r.Header.Set("Signature-Agent", `other="https://agent.test"`) }, wantErr: ErrInvalid},
		{name: "signature-agent header missing", signer: good, opts: valid,
			tweak: func(r *http.Request) { r.Header.Del("Signature-Agent") }, wantErr: ErrInvalid},
		{name: "unsupported agent type", signer: good, opts: valid,
			tweak: func(r *http.Request) {
				r.Header.Set("Signature-Agent", `agent1="https://agent.test/jwks.json";type=jwks_uri`)
			}, wantErr: ErrUnverified},
		{name: "http agent refused", signer: good, opts: with(func(o *signOpts) { o.agent = "http://agent.test" }), wantErr: ErrInvalid},
		{name: "agent with a path refused", signer: good, opts: with(func(o *signOpts) { o.agent = "https://agent.test/keys" }), wantErr: ErrInvalid},
		{name: "malformed signature-input", signer: good, opts: valid,
			tweak: func(r *http.Request) { r.Header.Set("Signature-Input", "sig1=(unterminated") }, wantErr: ErrMalformed},
		{name: "signature without input", signer: good, opts: valid,
			tweak: func(r *http.Request) { r.Header.Del("Signature-Input") }, wantErr: ErrMalformed},
		{name: "signature value missing", signer: good, opts: valid,
			tweak: func(r *http.Request) { r.Header.Set("Signature", "other=:AAAA:") }, wantErr: ErrInvalid},
		{name: "truncated signature", signer: good, opts: valid,
			tweak: func(r *http.Request) { r.Header.Set("Signature", "sig1=:AAAA:") }, wantErr: ErrInvalid},
		{name: "lifetime over the maximum", signer: good, opts: with(func(o *signOpts) { o.expires = testNow + 48*3600 }),
			options: func(o *Options) { o.MaxLifetime = 24 * time.Hour }, wantErr: ErrInvalid},
		// The draft asks signers to keep a signature's life under 24
		// hours; one made for years is a replay's for years.
		{name: "lifetime over a day by default", signer: good, opts: with(func(o *signOpts) { o.created, o.expires = 0, 9999999999 }), wantErr: ErrInvalid},
		{name: "no lifetime limit when negative", signer: good, opts: with(func(o *signOpts) { o.expires = testNow + 48*3600 }),
			options: func(o *Options) { o.MaxLifetime = -1 }, wantAgent: testAgent},
		// Over TLS the authority is the server name the client asked
		// for: a signature made for another site, replayed to a server
		// that answers any Host, names a host this connection is not for.
		{name: "authority is the TLS server name", signer: good, opts: valid,
			tweak: func(r *http.Request) { r.TLS = &tls.ConnectionState{ServerName: "example.com"} }, wantAgent: testAgent},
		{name: "authority is the TLS server name, any case, a final dot", signer: good, opts: valid,
			tweak: func(r *http.Request) { r.TLS = &tls.ConnectionState{ServerName: "Example.COM."} }, wantAgent: testAgent},
		{name: "authority is not the TLS server name", signer: good, opts: valid,
			tweak: func(r *http.Request) { r.TLS = &tls.ConnectionState{ServerName: "victim.example"} }, wantErr: ErrInvalid},
		{name: "authority is not the TLS server name, both under a top-level domain", signer: good, opts: valid,
			tweak: func(r *http.Request) { r.TLS = &tls.ConnectionState{ServerName: "victim.com"} }, wantErr: ErrInvalid},
		// A handshake that asked for no name ties the signature to no
		// site, unless the authority is the address connected to; nor
		// does a public suffix, which no certificate covers.
		{name: "no server name, a named authority", signer: good, opts: valid,
			tweak: func(r *http.Request) { r.TLS = &tls.ConnectionState{} }, wantErr: ErrInvalid},
		{name: "no server name, an address as authority", signer: good, opts: with(func(o *signOpts) { o.authority = "192.0.2.7" }), host: "192.0.2.7",
			tweak: func(r *http.Request) { r.TLS = &tls.ConnectionState{} }, wantAgent: testAgent},
		{name: "no server name, an IPv6 address as authority", signer: good, opts: with(func(o *signOpts) { o.authority = "[2001:db8::7]" }), host: "[2001:db8::7]",
			tweak: func(r *http.Request) { r.TLS = &tls.ConnectionState{} }, wantAgent: testAgent},
		{name: "a top-level domain as server name", signer: good, opts: with(func(o *signOpts) { o.authority = "victim.test" }), host: "victim.test",
			tweak: func(r *http.Request) { r.TLS = &tls.ConnectionState{ServerName: "test"} }, wantErr: ErrInvalid},
		{name: "a country's public suffix as server name", signer: good, opts: with(func(o *signOpts) { o.authority = "bob.co.uk" }), host: "bob.co.uk",
			tweak: func(r *http.Request) { r.TLS = &tls.ConnectionState{ServerName: "co.uk"} }, wantErr: ErrInvalid},
		// Browsers reuse a connection for every name its certificate
		// covers (RFC 9113, section 9.1.1).
		{name: "a coalesced connection to www", signer: good, opts: valid,
			tweak: func(r *http.Request) { r.TLS = &tls.ConnectionState{ServerName: "www.example.com"} }, wantAgent: testAgent},
		{name: "a coalesced connection to a sibling name", signer: good, opts: with(func(o *signOpts) { o.authority = "a.example.com" }), host: "a.example.com",
			tweak: func(r *http.Request) { r.TLS = &tls.ConnectionState{ServerName: "b.example.com"} }, wantAgent: testAgent},
		// No certificate covers two names under a public suffix: a
		// signature made for one tenant is no one else's.
		{name: "siblings under a country's public suffix", signer: good, opts: with(func(o *signOpts) { o.authority = "bob.co.uk" }), host: "bob.co.uk",
			tweak: func(r *http.Request) { r.TLS = &tls.ConnectionState{ServerName: "alice.co.uk"} }, wantErr: ErrInvalid},
		{name: "siblings under a hosting public suffix", signer: good, opts: with(func(o *signOpts) { o.authority = "victim.github.io" }), host: "victim.github.io",
			tweak: func(r *http.Request) { r.TLS = &tls.ConnectionState{ServerName: "alice.github.io"} }, wantErr: ErrInvalid},
		{name: "siblings under a registered name of a public suffix", signer: good, opts: with(func(o *signOpts) { o.authority = "a.shop.co.uk" }), host: "a.shop.co.uk",
			tweak: func(r *http.Request) { r.TLS = &tls.ConnectionState{ServerName: "b.shop.co.uk"} }, wantAgent: testAgent},
		{name: "allowed agent", signer: good, opts: valid,
			options: func(o *Options) { o.AllowedAgents = []string{"https://other.test", "https://agent.test/"} }, wantAgent: testAgent},
		{name: "allowed as directory url", signer: good, opts: valid,
			options: func(o *Options) { o.AllowedAgents = []string{"https://agent.test" + DirectoryPath} }, wantAgent: testAgent},
		{name: "allowed list of junk fails closed", signer: good, opts: valid,
			options: func(o *Options) { o.AllowedAgents = []string{"::not a url"} }, wantErr: ErrUnverified},
		{name: "agent not allowed", signer: good, opts: valid,
			options: func(o *Options) { o.AllowedAgents = []string{"https://other.test"} }, wantErr: ErrUnverified},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			host := tt.host
			if host == "" {
				host = "example.com"
			}
			r := newRequest(host)
			tt.signer.sign(r, tt.opts)
			if tt.tweak != nil {
				tt.tweak(r)
			}
			opts := Options{Client: client, Now: newClock(testNow).Now, Wait: 5 * time.Second}
			if tt.options != nil {
				tt.options(&opts)
			}
			agent, ok, err := New(opts).Verify(context.Background(), r)
			if tt.wantErr == nil {
				if !ok || err != nil || agent != tt.wantAgent {
					t.Fatalf("Verify = %q, %v, %v; want %q, true, nil", agent, ok, err, tt.wantAgent)
				}
				return
			}
			t.Logf("err: %v", err)
			if ok || agent != "" || !errors.Is(err, tt.wantErr) {
				t.Fatalf("Verify = %q, %v, %v; want an error wrapping %v", agent, ok, err, tt.wantErr)
			}
		})
	}
}

// TestVerifyUnsigned: a request without signature headers is not verified
// and is no error.
func TestVerifyUnsigned(t *testing.T) {
	v := New(Options{})
	agent, ok, err := v.Verify(context.Background(), newRequest("example.com"))
	if agent != "" || ok || err != nil {
		t.Fatalf("Verify = %q, %v, %v; want \"\", false, nil", agent, ok, err)
	}
	if n := testing.AllocsPerRun(100, func() { v.Verify(context.Background(), newRequestNoAlloc) }); n != 0 {
		t.Errorf("unsigned request allocates %v times, want 0", n)
	}
}

var newRequestNoAlloc = newRequest("example.com")

// TestVerifyOtherSignatureFirst: a non-web-bot-auth signature on the same
// request does not hide the web-bot-auth one.
func TestVerifyOtherSignatureFirst(t *testing.T) {
	s := newSigner(t)
	_, client := startDirectory(t, &dirHandler{body: jwksFor(s.pub())})
	r := newRequest("example.com")
	s.sign(r, signOpts{label: "wba", agent: testAgent, created: testNow, expires: testNow + 60})
	r.Header.Set("Signature-Input", `other=("@method");created=1;keyid="x", `+r.Header.Get("Signature-Input"))
	r.Header.Set("Signature", `other=:AAAA:, `+r.Header.Get("Signature"))
	agent, ok, err := New(Options{Client: client, Now: newClock(testNow).Now, Wait: 5 * time.Second}).Verify(context.Background(), r)
	if !ok || err != nil || agent != testAgent {
		t.Fatalf("Verify = %q, %v, %v; want %q, true, nil", agent, ok, err, testAgent)
	}
}

// TestAgentOrigin covers the normalisation that makes one directory one
// cache entry, and the refusal of values that are not origins.
func TestAgentOrigin(t *testing.T) {
	tests := []struct {
		in, want string // want "" means an error
	}{
		{"https://example.com", "https://example.com"},
		{"https://Example.COM/", "https://example.com"},
		{"https://example.com:443", "https://example.com"},
		{"https://example.com:8443", "https://example.com:8443"},
		{"https://[::1]:8443", "https://[::1]:8443"},
		{"HTTPS://example.com", "https://example.com"},
		{"http://example.com", ""},
		{"https://example.com/path", ""},
		{"https://example.com?x", ""},
		{"https://example.com/#f", ""},
		{"https://user@example.com", ""},
		{"https://example.com:99999", ""},
		{"https://", ""},
		{"example.com", ""},
		{"ftp://example.com", ""},
		{"https://" + strings.Repeat("a", 254), ""},
	}
	for _, tt := range tests {
		got, err := agentOrigin(tt.in, false)
		if tt.want == "" {
			if err == nil {
				t.Errorf("agentOrigin(%q) = %q, want an error", tt.in, got)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("agentOrigin(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
		}
	}
}

// hostileCovered is a request whose signature covers n members of a field
// x of size members: each member covered makes the signature base parse
// the whole field again.
func hostileCovered(n, members int) *http.Request {
	r := newRequest("example.com")
	ids := []string{`"@authority"`, `"signature-agent";key="agent1"`}
	for i := range n {
		ids = append(ids, fmt.Sprintf(`"x";key="a%d"`, i))
	}
	var x []string
	for i := range members {
		x = append(x, fmt.Sprintf("a%d=%d", i, i))
	}
	r.Header.Set("X", strings.Join(x, ", "))
	r.Header.Set("Signature-Agent", fmt.Sprintf("agent1=%q", testAgent))
	r.Header.Set("Signature-Input", fmt.Sprintf(`sig1=(%s);created=%d;expires=%d;keyid="k";tag="web-bot-auth"`, strings.Join(ids, " "), testNow-10, testNow+3600))
	r.Header.Set("Signature", "sig1=:"+base64.StdEncoding.EncodeToString(make([]byte, 64))+":")
	return r
}

// TestVerifyCoveredFieldsBounded: the fields a signature covers are the
// client's to choose, and the signature headers' size limit does not count
// them. Covering hundreds of members of a large field, which made one
// request of 19 KB cost half a second of CPU, is refused before the field
// is parsed more than the bound allows.
func TestVerifyCoveredFieldsBounded(t *testing.T) {
	v := New(Options{Now: newClock(testNow).Now, AllowedAgents: []string{testAgent}})
	for _, tc := range []struct {
		name        string
		n, members  int
		wantMessage string
	}{
		{"too many components", 500, 1500, "more than 16 covered components"},
		{"a field too large to cover", 2, 500, "covered fields larger than"},
		{"a field covered too often", 14, 150, "covered fields larger than"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, ok, err := v.Verify(context.Background(), hostileCovered(tc.n, tc.members))
			if ok || !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), tc.wantMessage) {
				t.Errorf("Verify = %v, %v; want ErrInvalid saying %q", ok, err, tc.wantMessage)
			}
		})
	}
}

func TestAgentOriginOfSigner(t *testing.T) {
	for _, tc := range []struct {
		in, want string // want "" for an error
	}{
		{"https://chatgpt.com", "https://chatgpt.com"},
		{"https://ChatGPT.com:443/", "https://chatgpt.com"},
		{"https://partner.example:8443", "https://partner.example:8443"},
		{"https://partner.example" + DirectoryPath, "https://partner.example"},
		{"https://partner.example/path", ""},
		{"https://partner.example?x=1", ""},
		{"https://partner.example/#frag", ""},
		{"http://partner.example", ""},
		{"partner.example", ""},
		{"", ""},
	} {
		got, err := AgentOrigin(tc.in)
		if got != tc.want || (err == nil) != (tc.want != "") {
			t.Errorf("AgentOrigin(%q) = %q, %v; want %q", tc.in, got, err, tc.want)
		}
	}
}
