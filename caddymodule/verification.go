package caddymodule

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"net/netip"
	"strings"

	"github.com/caddyserver/caddy/v2"
	"go.uber.org/zap"
	"golang.org/x/net/publicsuffix"

	"github.com/robotsguard/caddy-robots-txt/caddymodule/crawlers"
	"github.com/robotsguard/caddy-robots-txt/caddymodule/judge"
	"github.com/robotsguard/caddy-robots-txt/caddymodule/verify"
	"github.com/robotsguard/caddy-robots-txt/caddymodule/webbotauth"
	"github.com/robotsguard/caddy-robots-txt/config"
)

// checker verifies claims to be known crawlers. It holds the range lists
// it refreshes in the background and the caches of reverse-DNS answers
// and signature directories, so it lives in a UsagePool: configurations
// with the same crawler settings share one, across reloads, and nothing
// is fetched twice.
type checker struct {
	base     *crawlers.Base
	ips      *verify.Verifier
	sigs     *webbotauth.Verifier
	bySigner map[string]*crawlers.Crawler // signature agent origin → crawler
}

// Destruct implements caddy.Destructor.
func (c *checker) Destruct() error {
	c.ips.Stop()
	return nil
}

var checkers = caddy.NewUsagePool()

// checkerKey names the crawler settings a checker was built from.
func checkerKey(cfg config.Config) string {
	b, _ := json.Marshal(struct {
		C []config.Crawler
		R []string
	}{cfg.Crawlers, cfg.Resolvers})
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:12])
}

// newChecker builds the knowledge base with the operator's entries and
// the verifiers over it, and starts refreshing the published lists.
func newChecker(cfg config.Config, verifyOpts verify.Options, sigOpts webbotauth.Options) (*checker, error) {
	for _, cr := range cfg.Crawlers {
		if err := checkRangeFiles(cr); err != nil {
			return nil, err
		}
	}
	base, err := crawlers.Builtin().With(cfg.Entries()...)
	if err != nil {
		return nil, err
	}
	ips, err := verify.NewVerifier(base, verifyOpts)
	if err != nil {
		return nil, err
	}
	c := &checker{base: base, ips: ips, bySigner: map[string]*crawlers.Crawler{}}
	var signers []string
	for _, cr := range base.All() {
		for _, a := range cr.SignatureAgents {
			c.bySigner[origin(a)] = cr
			signers = append(signers, a)
		}
	}
	// Only the directories of known signers are ever fetched: a signature
	// naming any other could not verify a crawler anyway, and fetching
	// it would let any client make this server resolve and dial a host
	// of its choosing, and spend the fetch budget real signers need.
	if len(sigOpts.AllowedAgents) == 0 {
		sigOpts.AllowedAgents = signers
	}
	// The operator's own signers may live in the operator's network.
	for _, cr := range cfg.Crawlers {
		sigOpts.TrustedAgents = append(sigOpts.TrustedAgents, cr.SignatureAgents...)
	}
	if len(sigOpts.AllowedAgents) > 0 {
		c.sigs = webbotauth.New(sigOpts)
	}
	ips.Start()
	return c, nil
}

// checkRangeFiles checks that the files an operator's crawler entry names
// as ranges can be read now (the Caddyfile checks it at its line; JSON
// only here). A typo ("ranges googlebot.jsn") stops the load instead of
// leaving the crawler with no addresses and a warning at each refresh.
func checkRangeFiles(cr config.Crawler) error {
	for _, r := range cr.Ranges {
		if err := config.CheckRangeFile(r); err != nil {
			return fmt.Errorf("crawler %s: ranges: %v", cr.Token, err)
		}
	}
	return nil
}

// warnBroadRanges warns of a crawler whose ranges take in a large part
// of the Internet (0.0.0.0/0, ::/0, a /4, all of IPv4 as two /1s): every
// client there passes as that crawler, which is impostors trust for it,
// said nowhere else. The CIDRs a block gives are measured together, and
// each file or URL by the copy in use now; a broad copy that comes into
// force later is warned of by its list when it does.
func (h *Handler) warnBroadRanges() {
	msg := "a crawler's ranges cover a large part of the Internet: any client there that claims it is verified as it and gets its group"
	for _, cr := range h.Crawlers {
		var written []string
		var prefixes []netip.Prefix
		for _, r := range cr.Ranges {
			p, err := netip.ParsePrefix(r)
			if err != nil {
				continue // an address, a file or a URL
			}
			written, prefixes = append(written, r), append(prefixes, p)
		}
		if verify.Broad(prefixes) {
			h.configLog().Warn(msg, zap.String("crawler", cr.Token), zap.Strings("ranges", written))
		}
	}
	for _, b := range h.checker.ips.BroadSources() {
		h.configLog().Warn(msg, zap.String("crawler", strings.Join(b.Crawlers, ", ")), zap.String("source", b.Source))
	}
}

// warnBroadRDNS warns of a crawler block whose rdns suffix is a public
// suffix ("co.uk", "github.io") or has public suffixes right under it
// ("compute-1.amazonaws.com", whose every name is a cloud customer's):
// names under it belong to whoever registers or rents one, so any of them
// that sends the crawler's name passes as it, which is the broad ranges'
// trust said in names.
func (h *Handler) warnBroadRDNS() {
	for _, cr := range h.Crawlers {
		for _, s := range cr.RDNS {
			if ps, _ := publicsuffix.PublicSuffix(s); ps == s {
				h.configLog().Warn("a crawler's rdns suffix is a public suffix: any client whose address has a name under it, which anyone can register, is verified as the crawler and gets its group",
					zap.String("crawler", cr.Token), zap.String("rdns", s))
			} else if ps, _ := publicsuffix.PublicSuffix("x." + s); ps == "x."+s {
				h.configLog().Warn("a crawler's rdns suffix holds public suffixes, as a cloud provider's customer names: any client whose address has a name under it is verified as the crawler and gets its group",
					zap.String("crawler", cr.Token), zap.String("rdns", s))
			}
		}
	}
}

// origin is the origin a signer entry names, as the verifier's answers
// name it.
func origin(raw string) string {
	if o, err := webbotauth.AgentOrigin(raw); err == nil {
		return o
	}
	return raw
}

// verifyIdentity checks what id claims for request r: a valid Web Bot
// Auth signature names the crawler whatever the User-Agent says; else a
// claim to be a crawler that publishes how to verify it is checked by
// address. It returns the identity the request is judged as, and the
// outcome.
func (h *Handler) verifyIdentity(r *http.Request, id identity) (identity, verify.Result) {
	if signed(r) && h.checker.sigs != nil {
		agent, ok, err := h.checker.sigs.Verify(r.Context(), r)
		if ok {
			if cr := h.checker.bySigner[origin(agent)]; cr != nil {
				return h.identityOf(cr, id.snap), verify.Result{Outcome: verify.Verified, By: verify.Signature}
			}
		}
		// Why a signature did not verify is for an operator setting up
		// a signer to see, not for every forged request to write: debug.
		if ce := h.logger.Check(zap.DebugLevel, "signature not verified"); ce != nil && err != nil {
			ce.Write(zap.Error(err), zap.String("user_agent", r.Header.Get("User-Agent")))
		}
	}
	if id.claim == nil || !id.claim.Verifiable() {
		return id, verify.Result{Outcome: verify.Unverified}
	}
	res := h.checker.ips.Verify(r.Context(), id.claim, clientAddr(r))
	switch {
	case res.Outcome == verify.Verified:
		return id.proven(), res
	case res.Outcome == verify.Impostor && h.ImpostorPolicy() != config.ImpostorsTrust:
		return *id.impostor, res
	}
	return id, res
}

// signed tells whether r carries an HTTP message signature: the one header
// lookup a person's request pays for Web Bot Auth.
func signed(r *http.Request) bool {
	_, ok := r.Header["Signature-Input"]
	return ok
}

// identityOf is the identity of a crawler proven by its signature.
func (h *Handler) identityOf(cr *crawlers.Crawler, snap *snapshot) identity {
	id := identity{snap: snap, claim: cr, category: string(cr.Category), chosenBy: byClaim}
	id.Bot, id.Name = true, cr.Name
	id.Group, _ = id.choice(h.checker.base).Group(snap.File, "")
	id.counters = h.countersFor(id.Name)
	id.counters.setCategory(id.category)
	return id
}

// impostorOf is how a client that failed its claim to be cr, sending ua,
// is judged (with impostors judge or block): held to the * group, and to
// the group its header chooses with the claim and every other group it
// names, where those refuse more or ask for a longer Crawl-delay
// (judge.ImpostorOf); named apart from the crawler so that no log, metric
// or report blames the crawler for it.
func (h *Handler) impostorOf(cr *crawlers.Crawler, snap *snapshot, ua string) *identity {
	id := &identity{snap: snap, claim: cr, category: string(cr.Category), chosenBy: byImpostor}
	id.Identity = judge.Identity{Bot: true, Name: judge.ImpostorPrefix + cr.Name, Group: snap.File.GroupFor("*")}
	id.held = id.choice(h.checker.base).Held(snap.File, ua)
	id.counters = h.countersFor(id.Name)
	id.counters.setCategory(id.category)
	return id
}
