package botdetect

import "strings"

// ClientName reports whether name, a product token such as a robots.txt
// group's User-agent line, names an HTTP library, a command-line client,
// a language runtime or a headless browser ("libwww-perl",
// "python-requests", "curl", "Java", "HeadlessChrome"): software a crawler
// fetches with, not a crawler or a service. Its work is linear in the
// length of name, and it does not allocate.
func ClientName(name string) bool { return clients.matches(name) }

// clients indexes the tables' clients: knownClients, the shaped crawlers
// that are clients, and toolNames. A pattern's final "/" ("|axios/",
// ".js/"), which a header gives after the product, is a word's end in a
// name given alone.
var clients = func() *needleIndex {
	x := new(needleIndex)
	add := func(n needle) {
		if t, ok := strings.CutSuffix(n.text, "/"); ok && len(t) >= 2 {
			n.text, n.edgeAfter = t, true
		}
		x.needles = append(x.needles, n)
	}
	for _, n := range builtin {
		if n.client {
			add(n)
		}
	}
	for _, p := range toolNames {
		add(parsePattern(p))
	}
	x.buckets, x.probes = buildIndex(x.needles, func(*needle) bool { return true })
	return x
}()

// needleIndex is a set of needles indexed as a Classifier's are.
type needleIndex struct {
	needles []needle
	buckets [numClasses * numClasses]span
	probes  []probe
}

// matches reports whether any needle of x matches s.
func (x *needleIndex) matches(s string) bool {
	win := newWindow(s)
	for i := 0; i < len(s); i++ {
		if i > 0 {
			win = win.next(s, i)
		}
		b := x.buckets[int(classOf[byte(win)])*numClasses+int(classOf[byte(win>>8)])]
		if b.next&(1<<(classOf[byte(win>>16)]&15)) == 0 || b.next&(1<<(16+classOf[byte(win>>24)]&15)) == 0 {
			continue
		}
		for _, p := range x.probes[b.lo:b.hi] {
			if uint64(win)&p.mask == p.bits && x.needles[p.needle].matchAt(s, i) >= 0 {
				return true
			}
		}
	}
	return false
}
