// Package verify checks that a request claiming to come from a known crawler
// really does: from the crawler's published IP ranges, or by forward-confirmed
// reverse DNS, with the results cached so that a verified claim costs a map
// lookup on the request path. Signature verification (Web Bot Auth) lives in
// package webbotauth; see SignedBy for how its answer joins this one.
//
// The package imports no Caddy code. Persistent state goes through the small
// Storage interface, which certmagic.Storage (Caddy's ctx.Storage())
// satisfies.
package verify

import "github.com/robotsguard/caddy-robots-txt/caddymodule/crawlers"

// Outcome is the verdict on a claim to be a crawler.
type Outcome uint8

const (
	// Unverified: the crawler publishes no way to check a claim, so the
	// claim is taken at its word.
	Unverified Outcome = iota
	// Verified: the request passed one of the crawler's published checks.
	Verified
	// Impostor: the crawler publishes how to check a claim and the request
	// did not pass (or could not be confirmed in time). A claim that cannot
	// be confirmed is not trusted when the crawler publishes how to confirm
	// it.
	Impostor
	// Trapped: the client's address requested the trap path that
	// robots.txt disallows for everyone. Verify never concludes it; the
	// handler does, whatever the User-Agent says.
	Trapped
)

var outcomeNames = [...]string{Unverified: "unverified", Verified: "verified", Impostor: "impostor", Trapped: "trapped"}

// String returns "unverified", "verified" or "impostor", the spelling used
// in logs, metrics and placeholders.
func (o Outcome) String() string {
	if int(o) < len(outcomeNames) {
		return outcomeNames[o]
	}
	return "unknown"
}

// Method is how a claim was verified.
type Method uint8

const (
	None      Method = iota // not verified
	IP                      // the address is in a published range
	RDNS                    // forward-confirmed reverse DNS
	Signature               // a Web Bot Auth signature from a known agent
)

var methodNames = [...]string{None: "", IP: "ip", RDNS: "rdns", Signature: "signature"}

// String returns "", "ip", "rdns" or "signature".
func (m Method) String() string {
	if int(m) < len(methodNames) {
		return methodNames[m]
	}
	return "unknown"
}

// Result is the outcome of checking one claim. By is None unless Outcome is
// Verified.
type Result struct {
	Outcome Outcome
	By      Method
}

// SignedBy is the hook for Web Bot Auth: the caller verifies the request's
// HTTP message signature first (package webbotauth) and passes the
// Signature-Agent it proved. If that agent is one c signs with, the claim is
// Verified by signature; otherwise SignedBy returns the zero Result and the
// caller goes on to Verifier.Verify. An agent of another crawler does not
// make this claim an impostor: the request is still checked by address.
func SignedBy(c *crawlers.Crawler, agent string) Result {
	if c == nil || agent == "" {
		return Result{}
	}
	for _, a := range c.SignatureAgents {
		if sameAgent(a, agent) {
			return Result{Outcome: Verified, By: Signature}
		}
	}
	return Result{}
}

// sameAgent compares Signature-Agent values, which arrive quoted in the
// header ("\"https://chatgpt.com\"") and sometimes with a trailing slash.
func sameAgent(a, b string) bool {
	trim := func(s string) string {
		if len(s) >= 2 && s[0] == '"' && s[len(s)-1] == '"' {
			s = s[1 : len(s)-1]
		}
		for len(s) > 0 && s[len(s)-1] == '/' {
			s = s[:len(s)-1]
		}
		return s
	}
	a, b = trim(a), trim(b)
	if len(a) != len(b) {
		return false
	}
	for i := 0; i < len(a); i++ {
		x, y := a[i], b[i]
		if 'A' <= x && x <= 'Z' {
			x += 'a' - 'A'
		}
		if 'A' <= y && y <= 'Z' {
			y += 'a' - 'A'
		}
		if x != y {
			return false
		}
	}
	return true
}
