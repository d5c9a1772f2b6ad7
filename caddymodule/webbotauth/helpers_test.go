package webbotauth

import (
	"context"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"math/big"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// startDirectory starts a TLS server whose certificate is valid for "*.test"
// and returns it with a client that trusts it and connects every host name
// to it, so that tests can name agents like "https://agent.test" and still
// exercise real TLS, HTTP and caching.
func startDirectory(t testing.TB, h http.Handler) (*httptest.Server, *http.Client) {
	t.Helper()
	priv, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1),
		Subject:      pkix.Name{CommonName: "webbotauth test"},
		DNSNames:     []string{"*.test", "signature-agent.test"},
		IPAddresses:  []net.IP{net.IPv4(127, 0, 0, 1)},
		NotBefore:    time.Now().Add(-time.Hour),
		NotAfter:     time.Now().Add(time.Hour),
		KeyUsage:     x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		IsCA:         true,

		BasicConstraintsValid: true,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &priv.PublicKey, priv)
	if err != nil {
		t.Fatal(err)
	}
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewUnstartedServer(h)
	srv.TLS = &tls.Config{Certificates: []tls.Certificate{{Certificate: [][]byte{der}, PrivateKey: priv}}}
	srv.StartTLS()
	t.Cleanup(srv.Close)

	pool := x509.NewCertPool()
	pool.AddCert(cert)
	addr := srv.Listener.Addr().String()
	var d net.Dialer
	tr := &http.Transport{
		TLSClientConfig: &tls.Config{RootCAs: pool},
		DialContext: func(ctx context.Context, network, _ string) (net.Conn, error) {
			return d.DialContext(ctx, network, addr)
		},
	}
	t.Cleanup(tr.CloseIdleConnections)
	return srv, &http.Client{Transport: tr}
}

// jwksFor returns a directory body listing the keys.
func jwksFor(keys ...ed25519.PublicKey) []byte {
	type k struct {
		Kty string `json:"kty"`
		Crv string `json:"crv"`
		Kid string `json:"kid"`
		X   string `json:"x"`
		Use string `json:"use"`
	}
	var doc struct {
		Keys []k `json:"keys"`
	}
	for _, pub := range keys {
		doc.Keys = append(doc.Keys, k{"OKP", "Ed25519", Thumbprint(pub), base64.RawURLEncoding.EncodeToString(pub), "sig"})
	}
	b, _ := json.Marshal(doc)
	return b
}

// dirHandler serves body as a directory at the well-known path, counting
// the requests it answers.
type dirHandler struct {
	body     []byte
	hits     atomic.Int64
	maxAge   int
	override http.HandlerFunc // if set, answers instead
}

func (h *dirHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h.hits.Add(1)
	if h.override != nil {
		h.override(w, r)
		return
	}
	if r.URL.Path != DirectoryPath {
		http.NotFound(w, r)
		return
	}
	w.Header().Set("Content-Type", DirectoryMediaType)
	if h.maxAge > 0 {
		w.Header().Set("Cache-Control", fmt.Sprintf("max-age=%d", h.maxAge))
	}
	w.Write(h.body)
}

// fakeClock is a settable clock for Options.Now.
type fakeClock struct{ unix atomic.Int64 }

func newClock(unix int64) *fakeClock {
	c := &fakeClock{}
	c.unix.Store(unix)
	return c
}
func (c *fakeClock) Now() time.Time          { return time.Unix(c.unix.Load(), 0) }
func (c *fakeClock) Advance(d time.Duration) { c.unix.Add(int64(d / time.Second)) }

// testSigner signs requests the way a Web Bot Auth agent does. It builds
// the signature base by hand, independently of the code under test, for the
// components the tests use.
type testSigner struct {
	priv  ed25519.PrivateKey
	keyID string // defaults to the key's thumbprint
}

func newSigner(t testing.TB) testSigner {
	t.Helper()
	_, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	return testSigner{priv: priv}
}

func (s testSigner) pub() ed25519.PublicKey { return s.priv.Public().(ed25519.PublicKey) }

// signOpts say how to sign; zero values mean the protocol's usual choice.
type signOpts struct {
	label       string // default "sig1"
	member      string // Signature-Agent member; default "agent1"
	agent       string // Signature-Agent URL
	legacy      bool   // send Signature-Agent as a bare sf-string
	noAuthority bool   // do not cover @authority
	noAgent     bool   // do not cover signature-agent
	authority   string // the @authority value signed; default the request's
	created     int64
	expires     int64
	tag         string // default web-bot-auth; "-" omits it
	alg         string // alg parameter, if any
}

func (s testSigner) sign(r *http.Request, o signOpts) {
	if o.label == "" {
		o.label = "sig1"
	}
	if o.member == "" {
		o.member = "agent1"
	}
	if o.authority == "" {
		o.authority = r.Host
	}
	if o.tag == "" {
		o.tag = "web-bot-auth"
	}
	keyID := s.keyID
	if keyID == "" {
		keyID = Thumbprint(s.pub())
	}
	var ids []string
	var base strings.Builder
	if !o.noAuthority {
		ids = append(ids, `"@authority"`)
		fmt.Fprintf(&base, "\"@authority\": %s\n", o.authority)
	}
	agentField := fmt.Sprintf("%s=%q", o.member, o.agent)
	if o.legacy {
		agentField = fmt.Sprintf("%q", o.agent)
	}
	if !o.noAgent {
		if o.legacy {
			ids = append(ids, `"signature-agent"`)
			fmt.Fprintf(&base, "\"signature-agent\": %q\n", o.agent)
		} else {
			ids = append(ids, fmt.Sprintf(`"signature-agent";key=%q`, o.member))
			fmt.Fprintf(&base, "\"signature-agent\";key=%q: %q\n", o.member, o.agent)
		}
	}
	params := fmt.Sprintf("(%s);created=%d;expires=%d;keyid=%q", strings.Join(ids, " "), o.created, o.expires, keyID)
	if o.alg != "" {
		params += fmt.Sprintf(";alg=%q", o.alg)
	}
	if o.tag != "-" {
		params += fmt.Sprintf(";tag=%q", o.tag)
	}
	fmt.Fprintf(&base, "\"@signature-params\": %s", params)
	sig := ed25519.Sign(s.priv, []byte(base.String()))
	r.Header.Set("Signature-Agent", agentField)
	r.Header.Set("Signature-Input", o.label+"="+params)
	r.Header.Set("Signature", o.label+"=:"+base64.StdEncoding.EncodeToString(sig)+":")
}
