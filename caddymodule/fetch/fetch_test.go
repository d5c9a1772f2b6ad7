package fetch

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
)

// TestRedirectsInward: a redirect from another host to this machine or
// its link (the admin endpoint, a cloud's metadata service) is not
// followed; one within the host, or from an upstream on this machine,
// is.
func TestRedirectsInward(t *testing.T) {
	for _, tc := range []struct {
		from, to string
		inward   bool
	}{
		{"http://app.internal:8080/robots.txt", "http://127.0.0.1:2019/config/", true},
		{"http://app.internal:8080/robots.txt", "http://localhost:2019/config/", true},
		{"http://app.internal:8080/robots.txt", "http://169.254.169.254/latest/meta-data/", true},
		{"http://app.internal:8080/robots.txt", "http://[::1]:2019/", true},
		{"http://app.internal:8080/robots.txt", "http://[::ffff:127.0.0.1]/", true},
		{"http://app.internal:8080/robots.txt", "http://0.0.0.0:2019/", true},
		{"http://app.internal:8080/robots.txt", "https://app.internal/robots.txt", false},
		{"http://app.internal:8080/robots.txt", "https://cdn.example.com/robots.txt", false},
		{"http://app.internal:8080/robots.txt", "http://10.0.0.5/robots.txt", false},
		{"http://127.0.0.1:8080/robots.txt", "http://127.0.0.1:8081/robots.txt", false},
		{"http://localhost:8080/robots.txt", "http://127.0.0.1:8081/robots.txt", false},
	} {
		from, _ := url.Parse(tc.from)
		to, _ := url.Parse(tc.to)
		if got := RedirectsInward(from, to); got != tc.inward {
			t.Errorf("%s -> %s: inward %v, want %v", tc.from, tc.to, got, tc.inward)
		}
	}
}

// TestDialGuard: the guard looks at the address a name resolves to, not
// only at the name: a redirect from the configured host to a name of this
// machine is refused when it is dialled. Before, only names and literal
// addresses were looked at, so a public name with a loopback address took
// the fetch to this machine's services, whose answer was served and
// enforced as robots.txt.
func TestDialGuard(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, "User-agent: *\nDisallow: /\n")
	}))
	t.Cleanup(srv.Close)
	_, port, _ := net.SplitHostPort(srv.Listener.Addr().String())
	dial := NewClient().Transport.(*http.Transport).DialContext
	for _, tc := range []struct {
		name, origin, addr string
		refused            bool
	}{
		// "localhost" resolves to a loopback address: dialled for
		// another host's redirect, the address is what is refused.
		{"a name of this machine, for another host", "upstream.example", "localhost:" + port, true},
		{"an address of this machine, for another host", "upstream.example", "127.0.0.1:" + port, true},
		{"the configured host itself", "localhost", "localhost:" + port, false},
		{"from a host on this machine", "127.0.0.1", "localhost:" + port, false},
		{"no configured host (not a fetch)", "", "127.0.0.1:" + port, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx := context.Background()
			if tc.origin != "" {
				ctx = context.WithValue(ctx, originKey{}, tc.origin)
			}
			conn, err := dial(ctx, "tcp", tc.addr)
			if conn != nil {
				conn.Close()
			}
			if refused := err != nil; refused != tc.refused || refused && !strings.Contains(err.Error(), "this machine's or its link's address") {
				t.Errorf("dial %s for %q: %v; want refused %v", tc.addr, tc.origin, err, tc.refused)
			}
		})
	}
}

// TestGetRefusesRedirectInward: a redirect from another host to a name
// that resolves to this machine ends the fetch as a failure, not a
// robots.txt, with the reason; the server redirected to is never asked.
func TestGetRefusesRedirectInward(t *testing.T) {
	asked := false
	inner := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		asked = true
		io.WriteString(w, "User-agent: *\nDisallow: /\n")
	}))
	t.Cleanup(inner.Close)
	_, port, _ := net.SplitHostPort(inner.Listener.Addr().String())
	// Neither name is this machine's by its spelling, so the redirect
	// passes the check of names; the test resolves them, as DNS would,
	// to the outer server and to a loopback address, which the guard
	// sees when it dials.
	outer := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "http://inner.example:"+port+"/robots.txt", http.StatusFound)
	}))
	t.Cleanup(outer.Close)
	c := NewClient()
	tr := c.Transport.(*http.Transport)
	guarded := tr.DialContext
	tr.DialContext = func(ctx context.Context, network, addr string) (net.Conn, error) {
		switch host, p, _ := net.SplitHostPort(addr); host {
		case "upstream.example":
			addr = outer.Listener.Addr().String()
		case "inner.example":
			addr = net.JoinHostPort("127.0.0.1", p)
		}
		return guarded(ctx, network, addr)
	}
	res := Get(context.Background(), c, "http://upstream.example/robots.txt")
	var ue *url.Error
	if res.Outcome != Failed || !errors.As(res.Err, &ue) || !strings.Contains(res.Err.Error(), "is not followed") || asked {
		t.Errorf("outcome %d, %v, inner asked %v; want Failed, a redirect not followed, not asked", res.Outcome, res.Err, asked)
	}
}
