package webbotauth

import (
	"bufio"
	"context"
	"crypto/ed25519"
	"crypto/x509"
	"encoding/base64"
	"encoding/pem"
	"net/http"
	"strings"
	"testing"

	"github.com/dunglas/httpsfv"
)

// RFC 9421 Appendix B.1.4, test-key-ed25519.
const (
	rfcEd25519Public = `-----BEGIN PUBLIC KEY-----
MCowBQYDK2VwAyEAJrQLj5P/89iXES9+vFgrIy29clF9CC/oPPsw3c5D0bs=
-----END PUBLIC KEY-----`
	rfcEd25519Private = `-----BEGIN PRIVATE KEY-----
MC4CAQAwBQYDK2VwBCIEIJ+DYvh6SEqVTm50DFtMDoQikTmiCqirVv9mWG9qfSnF
-----END PRIVATE KEY-----`
)

func rfcKeys(t testing.TB) (ed25519.PublicKey, ed25519.PrivateKey) {
	t.Helper()
	pb, _ := pem.Decode([]byte(rfcEd25519Public))
	pub, err := x509.ParsePKIXPublicKey(pb.Bytes)
	if err != nil {
		t.Fatal(err)
	}
	sb, _ := pem.Decode([]byte(rfcEd25519Private))
	priv, err := x509.ParsePKCS8PrivateKey(sb.Bytes)
	if err != nil {
		t.Fatal(err)
	}
	return pub.(ed25519.PublicKey), priv.(ed25519.PrivateKey)
}

func readRequest(t testing.TB, raw string) *http.Request {
	t.Helper()
	r, err := http.ReadRequest(bufio.NewReader(strings.NewReader(raw)))
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// baseOf builds the signature base of r for its Signature-Input member
// label, with the code under test.
func baseOf(t testing.TB, r *http.Request, label string) string {
	t.Helper()
	d, err := httpsfv.UnmarshalDictionary(r.Header["Signature-Input"])
	if err != nil {
		t.Fatal(err)
	}
	m, _ := d.Get(label)
	il := m.(httpsfv.InnerList)
	base, err := signatureBase(r, il.Items, il)
	if err != nil {
		t.Fatal(err)
	}
	return string(base)
}

func sigOf(t testing.TB, r *http.Request, label string) []byte {
	t.Helper()
	d, err := httpsfv.UnmarshalDictionary(r.Header["Signature"])
	if err != nil {
		t.Fatal(err)
	}
	m, _ := d.Get(label)
	return m.(httpsfv.Item).Value.([]byte)
}

// TestRFC9421B26 checks RFC 9421 Appendix B.2.6 (signing a request using
// ed25519): the signature base must match byte for byte, the published
// signature must verify, and, Ed25519 being deterministic, signing the base
// with the private key must reproduce it.
func TestRFC9421B26(t *testing.T) {
	r := readRequest(t, "POST /foo?param=Value&Pet=dog HTTP/1.1\r\n"+
		"Host: example.com\r\n"+
		"Date: Tue, 20 Apr 2021 02:07:55 GMT\r\n"+
		"Content-Type: application/json\r\n"+
		"Content-Digest: sha-512=:WZDPaVn/7XgHaAy8pmojAkGWoRx2UFChF41A2svX+TaPm+AbwAgBWnrIiYllu7BNNyealdVLvRwEmTHWXvJwew==:\r\n"+
		"Content-Length: 18\r\n"+
		`Signature-Input: sig-b26=("date" "@method" "@path" "@authority" "content-type" "content-length");created=1618884473;keyid="test-key-ed25519"`+"\r\n"+
		"Signature: sig-b26=:wqcAqbmYJ2ji2glfAMaRy4gruYYnx2nEFN2HN6jrnDnQCK1u02Gb04v9EDgwUPiu4A0w6vuQv5lIp5WPpBKRCw==:\r\n"+
		"\r\n"+
		`{"hello": "world"}`)
	want := `"date": Tue, 20 Apr 2021 02:07:55 GMT
"@method": POST
"@path": /foo
"@authority": example.com
"content-type": application/json
"content-length": 18
"@signature-params": ("date" "@method" "@path" "@authority" "content-type" "content-length");created=1618884473;keyid="test-key-ed25519"`

	base := baseOf(t, r, "sig-b26")
	if base != want {
		t.Fatalf("signature base:\n%s\nwant:\n%s", base, want)
	}
	pub, priv := rfcKeys(t)
	sig := sigOf(t, r, "sig-b26")
	if !verifyEd25519(pub, []byte(base), sig) {
		t.Fatal("RFC 9421 B.2.6 signature does not verify")
	}
	if got := ed25519.Sign(priv, []byte(base)); string(got) != string(sig) {
		t.Fatalf("signing the base gives %s, want the RFC's signature", base64.StdEncoding.EncodeToString(got))
	}
}

// TestThumbprintRFC8037 checks the keyid computation against RFC 8037
// Appendix A.3 and the web-bot-auth draft's keyid for test-key-ed25519.
func TestThumbprintRFC8037(t *testing.T) {
	tests := []struct {
		name, x, want string
	}{
		{"RFC 8037 A.3", "11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo", "kPrK_qmxVWaYVA9wwBF6Iuo3vVzz7TxHCTwXBygrS4k"},
		{"draft test-key-ed25519", "JrQLj5P_89iXES9-vFgrIy29clF9CC_oPPsw3c5D0bs", "poqkLGiymh_W0uP6PZFw-dvez3QJT5SolqXBCW38r0U"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			x, err := base64.RawURLEncoding.DecodeString(tt.x)
			if err != nil {
				t.Fatal(err)
			}
			if got := Thumbprint(x); got != tt.want {
				t.Fatalf("Thumbprint = %s, want %s", got, tt.want)
			}
		})
	}
}

// The Ed25519 test vectors of draft-meunier-webbotauth-httpsig-protocol
// (Appendix "Test Vectors", "EdDSA Using Curve edwards25519"), both
// Signature-Agent syntaxes, signed with RFC 9421's test-key-ed25519.
var draftVectors = []struct {
	name, agent, input, sig, base string
}{
	{
		name:  "dictionary",
		agent: `agent2="https://signature-agent.test"`,
		input: `sig2=("@authority" "signature-agent";key="agent2");created=1735689600;keyid="poqkLGiymh_W0uP6PZFw-dvez3QJT5SolqXBCW38r0U";alg="ed25519";expires=4889289600;nonce="n9p433xm+NJ3ph3upfBIGmsuwHw387YV7Q/F+6BSpGCVjYCqQw6rznNA8PVVLySrAWsv0hQtFioQb6E1YsauiA==";tag="web-bot-auth"`,
		sig:   `sig2=:RdNFx5Bj6au3YgAMQL/RzmUlZE8QZLIaXGRpw985hWnwPfMxT228NMk6ehRS1PSl4e8PhbNZACSanGdhEwYCCg==:`,
		base: `"@authority": example.com
"signature-agent";key="agent2": "https://signature-agent.test"
"@signature-params": ("@authority" "signature-agent";key="agent2");created=1735689600;keyid="poqkLGiymh_W0uP6PZFw-dvez3QJT5SolqXBCW38r0U";alg="ed25519";expires=4889289600;nonce="n9p433xm+NJ3ph3upfBIGmsuwHw387YV7Q/F+6BSpGCVjYCqQw6rznNA8PVVLySrAWsv0hQtFioQb6E1YsauiA==";tag="web-bot-auth"`,
	},
	{
		name:  "legacy sf-string",
		agent: `"https://signature-agent.test"`,
		input: `sig2=("@authority" "signature-agent");created=1735689600;keyid="poqkLGiymh_W0uP6PZFw-dvez3QJT5SolqXBCW38r0U";alg="ed25519";expires=1735693200;nonce="e8N7S2MFd/qrd6T2R3tdfAuuANngKI7LFtKYI/vowzk4lAZYadIX6wW25MwG7DCT9RUKAJ0qVkU0mEeLElW1qg==";tag="web-bot-auth"`,
		sig:   `sig2=:jdq0SqOwHdyHr9+r5jw3iYZH6aNGKijYp/EstF4RQTQdi5N5YYKrD+mCT1HA1nZDsi6nJKuHxUi/5Syp3rLWBA==:`,
		base: `"@authority": example.com
"signature-agent": "https://signature-agent.test"
"@signature-params": ("@authority" "signature-agent");created=1735689600;keyid="poqkLGiymh_W0uP6PZFw-dvez3QJT5SolqXBCW38r0U";alg="ed25519";expires=1735693200;nonce="e8N7S2MFd/qrd6T2R3tdfAuuANngKI7LFtKYI/vowzk4lAZYadIX6wW25MwG7DCT9RUKAJ0qVkU0mEeLElW1qg==";tag="web-bot-auth"`,
	},
}

func draftRequest(t testing.TB, agent, input, sig string) *http.Request {
	t.Helper()
	r := readRequest(t, "GET /path/to/resource HTTP/1.1\r\nHost: example.com\r\n\r\n")
	r.Header.Set("Signature-Agent", agent)
	r.Header.Set("Signature-Input", input)
	r.Header.Set("Signature", sig)
	return r
}

// TestDraftVectors checks the draft's Ed25519 vectors: the signature base
// byte for byte, and Verify end to end, fetching test-key-ed25519 from a
// directory served over TLS as https://signature-agent.test.
func TestDraftVectors(t *testing.T) {
	pub, _ := rfcKeys(t)
	dir := &dirHandler{body: jwksFor(pub)}
	_, client := startDirectory(t, dir)
	for _, tt := range draftVectors {
		t.Run(tt.name, func(t *testing.T) {
			r := draftRequest(t, tt.agent, tt.input, tt.sig)
			if base := baseOf(t, r, "sig2"); base != tt.base {
				t.Fatalf("signature base:\n%s\nwant:\n%s", base, tt.base)
			}
			// One vector is made to last a century, which the default
			// 24-hour bound refuses (TestVerify checks that): the
			// vectors are here for the signature base.
			v := New(Options{Client: client, Now: newClock(1735689600 + 60).Now, MaxLifetime: -1})
			agent, ok, err := v.Verify(context.Background(), r)
			if !ok || err != nil || agent != "https://signature-agent.test" {
				t.Fatalf("Verify = %q, %v, %v; want https://signature-agent.test, true, nil", agent, ok, err)
			}
		})
	}
}
