package verify

import (
	"net"
	"net/netip"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/miekg/dns"
)

// testDNS is a real DNS server on a loopback UDP port, answering PTR, A and
// AAAA from its maps and counting every question it is asked.
type testDNS struct {
	addr string

	mu      sync.Mutex
	ptr     map[string][]string      // reverse name -> PTR targets
	addrs   map[string][]netip.Addr  // lowercase name -> A/AAAA
	delay   map[string]time.Duration // question name -> delay before answering
	fail    map[string]bool          // question name -> SERVFAIL
	queries map[string]int           // "name TYPE" -> count
}

func startDNS(t testing.TB) *testDNS {
	t.Helper()
	pc, err := net.ListenPacket("udp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	d := &testDNS{
		addr:    pc.LocalAddr().String(),
		ptr:     map[string][]string{},
		addrs:   map[string][]netip.Addr{},
		delay:   map[string]time.Duration{},
		fail:    map[string]bool{},
		queries: map[string]int{},
	}
	started := make(chan struct{})
	srv := &dns.Server{PacketConn: pc, Handler: dns.HandlerFunc(d.serve), NotifyStartedFunc: func() { close(started) }}
	go func() { _ = srv.ActivateAndServe() }()
	<-started
	t.Cleanup(func() { _ = srv.Shutdown() })
	return d
}

// host gives addr the PTR name and gives name the addresses fwd.
func (d *testDNS) host(addr string, name string, fwd ...string) {
	d.mu.Lock()
	defer d.mu.Unlock()
	rev, err := dns.ReverseAddr(addr)
	if err != nil {
		panic(err)
	}
	d.ptr[rev] = append(d.ptr[rev], name)
	key := strings.ToLower(dns.Fqdn(name))
	for _, f := range fwd {
		d.addrs[key] = append(d.addrs[key], netip.MustParseAddr(f))
	}
}

// slow delays answers to the PTR question for addr.
func (d *testDNS) slow(addr string, by time.Duration) {
	rev, _ := dns.ReverseAddr(addr)
	d.mu.Lock()
	d.delay[rev] = by
	d.mu.Unlock()
}

func (d *testDNS) servfail(addr string) {
	rev, _ := dns.ReverseAddr(addr)
	d.mu.Lock()
	d.fail[rev] = true
	d.mu.Unlock()
}

// count returns how many questions of type qtype ("PTR", "A") were asked
// about name (an address for PTR).
func (d *testDNS) count(qtype, name string) int {
	if qtype == "PTR" {
		name, _ = dns.ReverseAddr(name)
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.queries[strings.ToLower(dns.Fqdn(name))+" "+qtype]
}

// total returns how many questions of type qtype were asked in all.
func (d *testDNS) total(qtype string) int {
	d.mu.Lock()
	defer d.mu.Unlock()
	n := 0
	for k, v := range d.queries {
		if strings.HasSuffix(k, " "+qtype) {
			n += v
		}
	}
	return n
}

func (d *testDNS) serve(w dns.ResponseWriter, req *dns.Msg) {
	m := new(dns.Msg)
	m.SetReply(req)
	m.Authoritative = true
	if len(req.Question) != 1 {
		m.Rcode = dns.RcodeFormatError
		_ = w.WriteMsg(m)
		return
	}
	q := req.Question[0]
	name := strings.ToLower(q.Name)
	d.mu.Lock()
	d.queries[name+" "+dns.TypeToString[q.Qtype]]++
	delay := d.delay[name]
	fail := d.fail[name]
	ptrs := d.ptr[name]
	addrs := d.addrs[name]
	d.mu.Unlock()
	if delay > 0 {
		time.Sleep(delay)
	}
	hdr := func(t uint16) dns.RR_Header {
		return dns.RR_Header{Name: q.Name, Rrtype: t, Class: dns.ClassINET, Ttl: 60}
	}
	switch {
	case fail:
		m.Rcode = dns.RcodeServerFailure
	case q.Qtype == dns.TypePTR && len(ptrs) > 0:
		for _, p := range ptrs {
			m.Answer = append(m.Answer, &dns.PTR{Hdr: hdr(dns.TypePTR), Ptr: dns.Fqdn(p)})
		}
	case (q.Qtype == dns.TypeA || q.Qtype == dns.TypeAAAA) && len(addrs) > 0:
		for _, a := range addrs {
			if a.Is4() && q.Qtype == dns.TypeA {
				m.Answer = append(m.Answer, &dns.A{Hdr: hdr(dns.TypeA), A: a.AsSlice()})
			}
			if a.Is6() && q.Qtype == dns.TypeAAAA {
				m.Answer = append(m.Answer, &dns.AAAA{Hdr: hdr(dns.TypeAAAA), AAAA: a.AsSlice()})
			}
		}
	case len(ptrs) == 0 && len(addrs) == 0:
		m.Rcode = dns.RcodeNameError
	}
	_ = w.WriteMsg(m)
}
