package verify_test

import (
	"context"
	"fmt"
	"net/netip"
	"time"

	"github.com/robotsguard/caddy-robots-txt/caddymodule/crawlers"
	"github.com/robotsguard/caddy-robots-txt/caddymodule/verify"
)

// The handler's wiring: build the knowledge base with the operator's
// overrides, a Verifier over it with Caddy's storage, Start it in Provision
// and Stop it in Cleanup. On a request, a signature proven by webbotauth
// wins; otherwise Verify decides.
func ExampleVerifier() {
	base, err := crawlers.Builtin().With(crawlers.Crawler{
		Name:   "Googlebot",
		Ranges: []string{"https://developers.google.com/static/crawling/ipranges/common-crawlers.json", "/etc/caddy/extra-googlebot.txt"},
	})
	if err != nil {
		panic(err)
	}
	v, err := verify.NewVerifier(base, verify.Options{
		Ranges: verify.RangeOptions{ /* Storage: ctx.Storage(), Logger: ... */ },
		RDNS:   verify.RDNSOptions{Wait: 300 * time.Millisecond},
	})
	if err != nil {
		panic(err)
	}
	v.Start()
	defer v.Stop()

	c := base.Lookup("googlebot") // from the classifier's name for the client
	provenAgent := ""             // from webbotauth, if the request was signed
	res := verify.SignedBy(c, provenAgent)
	if res.Outcome != verify.Verified {
		res = v.Verify(context.Background(), c, netip.MustParseAddr("66.249.66.1"))
	}
	fmt.Println(res.Outcome, res.By) // e.g. "verified ip", for logs and placeholders
}
