package fetch

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strings"
	"syscall"

	"golang.org/x/net/http/httpproxy"

	"github.com/robotsguard/caddy-robots-txt/robots"
)

// originKey carries, in a fetch's context, the host of the URL the
// operator configured, which the dial guard lets through whatever it
// resolves to.
type originKey struct{}

// NewClient returns the client Get fetches with. It follows up to
// robots.MaxRedirects redirects, but none from another host to this
// machine or its link (a loopback, link-local or unspecified address, or
// localhost): whoever answers for the upstream (a tenant's app) must not
// make Caddy call its admin endpoint or a cloud's metadata service. The
// guard looks at the name a redirect gives and, when it dials, at the
// address that name resolves to, so a public name with a loopback
// address is refused too. A redirect within the host the operator named,
// or from a host that is itself on this machine, is followed.
func NewClient() *http.Client {
	tr := http.DefaultTransport.(*http.Transport).Clone()
	dialer := &net.Dialer{Timeout: Timeout}
	proxies := proxyAddrs()
	tr.DialContext = func(ctx context.Context, network, addr string) (net.Conn, error) {
		origin, _ := ctx.Value(originKey{}).(string)
		host, _, _ := net.SplitHostPort(addr)
		if origin == "" || sameHost(host, origin) || Inward(origin) || proxies[addr] {
			return dialer.DialContext(ctx, network, addr)
		}
		guarded := *dialer
		guarded.Control = func(_, address string, _ syscall.RawConn) error {
			ip, _, err := net.SplitHostPort(address)
			if err != nil {
				return err
			}
			if a, err := netip.ParseAddr(ip); err != nil || inwardAddr(a) {
				return fmt.Errorf("a redirect to %s, which resolves to %s, this machine's or its link's address, is not followed", host, ip)
			}
			return nil
		}
		return guarded.DialContext(ctx, network, addr)
	}
	return &http.Client{
		Timeout:   Timeout,
		Transport: tr,
		CheckRedirect: func(req *http.Request, via []*http.Request) error {
			if len(via) > robots.MaxRedirects {
				return errTooManyRedirects
			}
			if RedirectsInward(via[0].URL, req.URL) {
				return fmt.Errorf("a redirect to %s, this machine's or its link's address, is not followed", req.URL.Host)
			}
			return nil
		},
	}
}

// RedirectsInward reports whether a redirect from the URL configured,
// from, to to leads from another host to this machine or its link by its
// name: a loopback, link-local or unspecified address, or localhost. (A
// name that only resolves to one is refused when it is dialled.)
func RedirectsInward(from, to *url.URL) bool {
	if sameHost(to.Hostname(), from.Hostname()) || Inward(from.Hostname()) {
		return false
	}
	return Inward(to.Hostname())
}

// Inward reports whether host names this machine or its link.
func Inward(host string) bool {
	host = strings.ToLower(strings.TrimSuffix(host, "."))
	if host == "localhost" || strings.HasSuffix(host, ".localhost") {
		return true
	}
	a, err := netip.ParseAddr(host)
	return err == nil && inwardAddr(a)
}

func inwardAddr(a netip.Addr) bool {
	a = a.Unmap()
	return a.IsLoopback() || a.IsLinkLocalUnicast() || a.IsUnspecified()
}

func sameHost(a, b string) bool {
	return strings.EqualFold(strings.TrimSuffix(a, "."), strings.TrimSuffix(b, "."))
}

// proxyAddrs are the host:port of the proxies the environment names
// (HTTP_PROXY, HTTPS_PROXY), which the transport dials in place of the
// upstream: a proxy on this machine is the operator's choice, and the
// proxy, not this dialer, resolves the upstream's name.
func proxyAddrs() map[string]bool {
	cfg := httpproxy.FromEnvironment()
	addrs := make(map[string]bool)
	for _, p := range []string{cfg.HTTPProxy, cfg.HTTPSProxy} {
		if p == "" {
			continue
		}
		if !strings.Contains(p, "://") {
			p = "http://" + p
		}
		u, err := url.Parse(p)
		if err != nil || u.Hostname() == "" {
			continue
		}
		port := u.Port()
		if port == "" {
			port = map[string]string{"https": "443", "socks5": "1080", "socks5h": "1080"}[u.Scheme]
			if port == "" {
				port = "80"
			}
		}
		addrs[net.JoinHostPort(u.Hostname(), port)] = true
	}
	return addrs
}
