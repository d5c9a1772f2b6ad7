package webbotauth

import (
	"crypto/ed25519"
	"errors"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/dunglas/httpsfv"
	"golang.org/x/net/publicsuffix"
)

// tagWebBotAuth is the tag parameter the protocol requires.
const tagWebBotAuth = "web-bot-auth"

// candidate is one web-bot-auth signature from a request, parsed.
type candidate struct {
	label      string
	input      httpsfv.InnerList // the Signature-Input member, for @signature-params
	components []httpsfv.Item
	signature  []byte
	keyID      string
	err        error // a problem found while parsing, reported when it is tried
}

// parseSignatures parses the Signature-Input and Signature fields and returns
// the signatures tagged web-bot-auth, at most maxSignatures of them. A header
// that does not parse is ErrMalformed; a signature with another tag is left
// out, which Verify reports when no signature is left.
func parseSignatures(inputs, sigs []string) ([]candidate, error) {
	inDict, err := httpsfv.UnmarshalDictionary(inputs)
	if err != nil {
		return nil, malformed("signature-input: " + err.Error())
	}
	sigDict, err := httpsfv.UnmarshalDictionary(sigs)
	if err != nil {
		return nil, malformed("signature: " + err.Error())
	}
	var out []candidate
	var tagErr error
	for _, label := range inDict.Names() {
		m, _ := inDict.Get(label)
		il, ok := m.(httpsfv.InnerList)
		if !ok {
			return nil, malformed("signature-input member " + label + " is not an inner list")
		}
		tag, _ := il.Params.Get("tag")
		if s, _ := tag.(string); s != tagWebBotAuth {
			// Other RFC 9421 signatures may share the request; they are not
			// ours to judge, but say why nothing was verified if none is.
			if tagErr == nil {
				tagErr = invalid("signature " + label + ` lacks tag="web-bot-auth"`)
			}
			continue
		}
		if len(out) == maxSignatures {
			break
		}
		c := candidate{label: label, input: il, components: il.Items}
		sm, ok := sigDict.Get(label)
		if item, isItem := sm.(httpsfv.Item); ok && isItem {
			c.signature, _ = item.Value.([]byte)
		}
		if c.signature == nil {
			c.err = invalid("no signature value for " + label)
		}
		out = append(out, c)
	}
	if len(out) == 0 {
		if tagErr == nil {
			tagErr = invalid("no signature")
		}
		return nil, tagErr
	}
	return out, nil
}

// checkParams checks the signature parameters the profile requires, and
// freshness.
func (c *candidate) checkParams(now time.Time, skew, maxLifetime time.Duration) error {
	if c.err != nil {
		return c.err
	}
	p := c.input.Params
	created, ok := intParam(p, "created")
	if !ok {
		return invalid("created missing or not an integer")
	}
	expires, ok := intParam(p, "expires")
	if !ok {
		return invalid("expires missing or not an integer")
	}
	kid, _ := p.Get("keyid")
	if c.keyID, _ = kid.(string); c.keyID == "" {
		return invalid("keyid missing")
	}
	if alg, present := p.Get("alg"); present && alg != "ed25519" {
		return invalid("alg is not ed25519")
	}
	nowUnix := now.Unix()
	skewSec := int64(skew / time.Second)
	switch {
	case created > nowUnix+skewSec:
		return invalid("created is in the future")
	case expires < nowUnix-skewSec:
		return invalid("signature expired")
	case expires < created:
		return invalid("expires before created")
	case maxLifetime > 0 && expires-created > int64(maxLifetime/time.Second):
		return invalid("signature lifetime exceeds the maximum allowed")
	}
	if len(c.components) > maxComponents {
		return invalid("more than " + strconv.Itoa(maxComponents) + " covered components")
	}
	seen := make(map[string]bool, len(c.components))
	for _, it := range c.components {
		if _, ok := it.Value.(string); !ok {
			return invalid("component identifier is not a string")
		}
		id, err := httpsfv.Marshal(it)
		if err != nil {
			return invalid("component identifier: " + err.Error())
		}
		if seen[id] {
			return invalid("component " + id + " covered twice")
		}
		seen[id] = true
	}
	return nil
}

func intParam(p *httpsfv.Params, name string) (int64, bool) {
	v, _ := p.Get(name)
	n, ok := v.(int64)
	return n, ok
}

// covers reports whether the signature covers the component name without
// parameters.
func (c *candidate) covers(name string) bool {
	for _, it := range c.components {
		if s, _ := it.Value.(string); s == name && len(it.Params.Names()) == 0 {
			return true
		}
	}
	return false
}

// agentMember returns the Signature-Agent dictionary member the signature
// covers, or "" when it covers the whole field (the legacy sf-string form).
// The protocol attributes a signature only to a member it covers.
func (c *candidate) agentMember() (string, error) {
	for _, it := range c.components {
		if s, _ := it.Value.(string); s != "signature-agent" {
			continue
		}
		names := it.Params.Names()
		if len(names) == 0 {
			return "", nil
		}
		key, _ := it.Params.Get("key")
		if k, ok := key.(string); ok && len(names) == 1 {
			return k, nil
		}
		return "", invalid(`unsupported parameters on "signature-agent"`)
	}
	return "", invalid(`"signature-agent" not covered`)
}

// signatureAgent returns the origin of the directory named by the
// Signature-Agent field: by its member member, or, for member "", by the
// whole field, which is either the legacy sf-string or a dictionary with a
// single member.
func signatureAgent(values []string, member, label string, allowHTTP bool) (string, error) {
	if len(values) == 0 {
		return "", invalid("signature-agent header missing")
	}
	if strings.HasPrefix(strings.TrimLeft(values[0], " \t"), `"`) {
		// Legacy form: a String, treated as a dictionary whose one member is
		// keyed by the signature's label.
		if member != "" && member != label {
			return "", invalid("signature-agent member " + member + " not present")
		}
		it, err := httpsfv.UnmarshalItem(values)
		if err != nil {
			return "", malformed("signature-agent: " + err.Error())
		}
		s, ok := it.Value.(string)
		if !ok {
			return "", malformed("signature-agent is not a string")
		}
		return agentOrigin(s, allowHTTP)
	}
	dict, err := httpsfv.UnmarshalDictionary(values)
	if err != nil {
		return "", malformed("signature-agent: " + err.Error())
	}
	if member == "" {
		names := dict.Names()
		if len(names) != 1 {
			return "", invalid("signature-agent has several members and the signature covers no single one")
		}
		member = names[0]
	}
	m, ok := dict.Get(member)
	if !ok {
		return "", invalid("signature-agent member " + member + " not present")
	}
	it, ok := m.(httpsfv.Item)
	s, isString := it.Value.(string)
	if !ok || !isString {
		return "", malformed("signature-agent member " + member + " is not a string")
	}
	if typ, present := it.Params.Get("type"); present && typ != httpsfv.Token("directory") {
		// jwks_uri and cimd name key sets with no origin binding; this
		// verifier attributes requests to origins only.
		return "", unverified("signature-agent type not supported")
	}
	return agentOrigin(s, allowHTTP)
}

// agentOrigin returns the ASCII serialization of the origin a directory-type
// Signature-Agent value names. The protocol requires an origin (an empty path
// "/" may be accepted) and https.
func agentOrigin(s string, allowHTTP bool) (string, error) {
	u, err := url.Parse(s)
	if err != nil {
		return "", invalid("signature-agent is not a url")
	}
	if u.Opaque != "" || u.User != nil || u.Host == "" || (u.Path != "" && u.Path != "/") ||
		u.RawQuery != "" || u.ForceQuery || u.Fragment != "" {
		return "", invalid("signature-agent is not an origin")
	}
	return normalizeOrigin(u, allowHTTP)
}

// AgentOrigin returns the origin a signer is named by, as Verify returns
// it: s is an https origin ("https://chatgpt.com", any case, the default
// port or not), or its key directory's URL. Anything more (a path, a
// query) names no origin a Signature-Agent header can carry, so a signer
// named so would never verify: an error.
func AgentOrigin(s string) (string, error) {
	o, err := allowedOrigin(s)
	if err != nil {
		return "", err
	}
	if !strings.HasPrefix(o, "https://") {
		return "", errors.New("signature-agent scheme is not https")
	}
	return o, nil
}

// allowedOrigin returns the origin of an Options.AllowedAgents entry: an
// origin, or a directory URL.
func allowedOrigin(s string) (string, error) {
	u, err := url.Parse(s)
	if err != nil {
		return "", err
	}
	if u.Path == DirectoryPath {
		u.Path = ""
	}
	return agentOrigin(u.String(), true)
}

// maxHostLen bounds the host of an agent: DNS names are at most 253
// octets, and origins are cache keys.
const maxHostLen = 253

// normalizeOrigin returns scheme://host[:port] of u, lower-cased and without
// the scheme's default port, so that one directory has one cache key.
func normalizeOrigin(u *url.URL, allowHTTP bool) (string, error) {
	scheme := lowerASCII(u.Scheme)
	if scheme != "https" && !(allowHTTP && scheme == "http") {
		return "", invalid("signature-agent scheme is not https")
	}
	host := lowerASCII(u.Hostname())
	if host == "" || len(host) > maxHostLen {
		return "", invalid("signature-agent host is empty or too long")
	}
	port := u.Port()
	if port != "" {
		if n, err := strconv.Atoi(port); err != nil || n <= 0 || n > 65535 {
			return "", invalid("signature-agent port is invalid")
		}
	}
	if (scheme == "https" && port == "443") || (scheme == "http" && port == "80") {
		port = ""
	}
	if strings.Contains(host, ":") {
		host = "[" + host + "]"
	}
	if port != "" {
		host += ":" + port
	}
	return scheme + "://" + host, nil
}

// signatureBase builds the RFC 9421 signature base (Section 2.5) of r for the
// covered components and the Signature-Input member input.
//
// The covered fields are the client's to choose, and a field covered by
// dictionary member is parsed once per member: a signature covering 500
// members of one large field would parse it 500 times. So the fields a base
// reads, each time it reads them, may total at most maxCoveredBytes, counted
// before a field is parsed.
func signatureBase(r *http.Request, components []httpsfv.Item, input httpsfv.InnerList) ([]byte, error) {
	var b strings.Builder
	budget := maxCoveredBytes
	for _, it := range components {
		id, err := httpsfv.Marshal(it)
		if err != nil {
			return nil, invalid("component identifier: " + err.Error())
		}
		val, err := componentValue(r, it, &budget)
		if err != nil {
			return nil, err
		}
		b.WriteString(id)
		b.WriteString(": ")
		b.WriteString(val)
		b.WriteByte('\n')
	}
	params, err := httpsfv.Marshal(input)
	if err != nil {
		return nil, invalid("signature parameters: " + err.Error())
	}
	b.WriteString(`"@signature-params": `)
	b.WriteString(params)
	return []byte(b.String()), nil
}

// componentValue returns the value of one covered component (RFC 9421
// Section 2.1 and 2.2). It supports the derived components that a request
// carries unambiguously (not "@query-param", whose re-encoding rules are
// easy to get subtly wrong, nor response-only ones), and fields either whole
// or by dictionary member ("key"); other parameters ("sf", "bs", "req",
// "tr") are refused rather than guessed at.
func componentValue(r *http.Request, it httpsfv.Item, budget *int) (string, error) {
	name := it.Value.(string) // checked by checkParams
	names := it.Params.Names()
	if strings.HasPrefix(name, "@") {
		if len(names) != 0 {
			return "", invalid("unsupported parameters on " + name)
		}
		switch name {
		case "@method":
			return r.Method, nil
		case "@authority":
			return authority(r), nil
		case "@scheme":
			return scheme(r), nil
		case "@target-uri":
			return scheme(r) + "://" + authority(r) + r.URL.RequestURI(), nil
		case "@request-target":
			return r.URL.RequestURI(), nil
		case "@path":
			if p := r.URL.EscapedPath(); p != "" {
				return p, nil
			}
			return "/", nil
		case "@query":
			return "?" + r.URL.RawQuery, nil
		}
		return "", invalid("unsupported derived component " + name)
	}
	if name == "" || lowerASCII(name) != name {
		return "", invalid("field name must be lower-case")
	}
	values := r.Header.Values(name)
	if len(values) == 0 {
		return "", invalid("covered field " + name + " missing")
	}
	if *budget -= headerBytes(values); *budget < 0 {
		return "", invalid("covered fields larger than " + strconv.Itoa(maxCoveredBytes) + " bytes")
	}
	if len(names) == 0 {
		// Section 2.1: each field line trimmed, combined with ", ".
		if len(values) == 1 {
			return strings.Trim(values[0], " \t"), nil
		}
		trimmed := make([]string, len(values))
		for i, v := range values {
			trimmed[i] = strings.Trim(v, " \t")
		}
		return strings.Join(trimmed, ", "), nil
	}
	key, _ := it.Params.Get("key")
	k, ok := key.(string)
	if !ok || len(names) != 1 {
		return "", invalid("unsupported parameters on " + name)
	}
	dict, err := httpsfv.UnmarshalDictionary(values)
	if err != nil {
		return "", invalid("covered field " + name + " is not a dictionary")
	}
	m, ok := dict.Get(k)
	if !ok {
		return "", invalid("covered field " + name + " has no member " + k)
	}
	s, err := httpsfv.Marshal(m)
	if err != nil {
		return "", invalid("covered field " + name + ": " + err.Error())
	}
	return s, nil
}

// authority is the request's host, lower-cased, without the default port
// (RFC 9421 Section 2.2.3).
func authority(r *http.Request) string {
	h := r.Host
	if h == "" {
		h = r.URL.Host
	}
	h = lowerASCII(h)
	if r.TLS != nil {
		h = strings.TrimSuffix(h, ":443")
	} else {
		h = strings.TrimSuffix(h, ":80")
	}
	return h
}

// authorityIsServerName reports whether the host of r's authority is one
// the TLS connection was opened for: the server name (SNI) its client
// asked for, or a name one certificate commonly covers with it, since
// browsers reuse a connection for every name its certificate covers
// (RFC 9113, section 9.1.1): one a subdomain of the other
// ("example.com" on a connection to "www.example.com"), or two names
// under one parent of at least two labels ("a.example.com" and
// "b.example.com" under "*.example.com"). Neither may be a public
// suffix: no certificate covers "com" or "co.uk". Case and a final dot
// do not count. True without TLS. Without a server name, only for an
// authority that is an address: a client that connected by address
// sends none, and one that sent none for a named site could have sent
// the signature of any site a catch-all server answers.
func authorityIsServerName(r *http.Request) bool {
	if r.TLS == nil {
		return true
	}
	host := authority(r)
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h
	}
	host = strings.TrimSuffix(strings.TrimPrefix(host, "["), "]")
	if r.TLS.ServerName == "" {
		_, err := netip.ParseAddr(host)
		return err == nil
	}
	a := strings.ToLower(strings.TrimSuffix(host, "."))
	b := strings.ToLower(strings.TrimSuffix(r.TLS.ServerName, "."))
	if a == b {
		return true
	}
	if strings.HasSuffix(a, "."+b) || strings.HasSuffix(b, "."+a) {
		parent := a
		if len(b) < len(a) {
			parent = b
		}
		return !isPublicSuffix(parent)
	}
	// Siblings share a certificate only under a parent that is no
	// public suffix: no certificate covers "alice.co.uk" and "bob.co.uk"
	// (nor "*.github.io"), so a connection for one is never reused for
	// the other.
	pa, pb := parentOf(a), parentOf(b)
	return pa != "" && pa == pb && !isPublicSuffix(pa)
}

// isPublicSuffix reports whether name is a public suffix ("com", "co.uk",
// "github.io"), which no certificate covers the names under.
func isPublicSuffix(name string) bool {
	ps, _ := publicsuffix.PublicSuffix(name)
	return ps == name
}

// parentOf is name without its first label, "" for a single label.
func parentOf(name string) string {
	if i := strings.IndexByte(name, '.'); i >= 0 {
		return name[i+1:]
	}
	return ""
}

func scheme(r *http.Request) string {
	if r.TLS != nil {
		return "https"
	}
	return "http"
}

func verifyEd25519(pub ed25519.PublicKey, msg, sig []byte) bool {
	return len(pub) == ed25519.PublicKeySize && len(sig) == ed25519.SignatureSize &&
		ed25519.Verify(pub, msg, sig)
}
