package botdetect

import (
	"slices"
	"strings"
)

// ClientName reports whether name, a product token such as a robots.txt
// group's User-agent line, names an HTTP library, a command-line client
// or a language runtime ("libwww-perl", "python-requests", "curl",
// "Java", "WWW-Mechanize"): software a crawler fetches with, not a
// crawler, a site copier, a headless browser or a service, which a site
// names to refuse them (audit AI-F2: HTTrack, Nutch and Siteimprove were
// read as libraries). Its work is linear in the length of name, and it
// does not allocate.
func ClientName(name string) bool {
	return clients.matches(name) && !selfNamed.matches(name)
}

// selfNamed are words a crawler names itself with: a name that holds one
// ("Python-Crawler", "PHPCrawl", "wgetbot") is a crawler built with a
// library, not the library (audit AK-F2).
var selfNamed = newIndex(parseAll(nil, []string{"bot", "crawl", "spider", "scrap", "harvest", "archiv", "index"}))

// libraryWords name HTTP client libraries by what they are, in names
// the tables do not mark as bots ("Java-http-client", "Zend_Http_Client",
// "HTTPClient"): a name a crawler fetches with, not one it goes by.
var libraryWords = []string{"|httpclient|", "|http-client|", "|http_client|"}

// notLibraries are known clients that are crawlers or browsers in their
// own right, which a header names as who it is.
var notLibraries = []string{"Scrapy", "HeadlessChrome", "PhantomJS"}

// clients indexes the tables' libraries: knownClients but notLibraries,
// and libraryTools. A pattern's final "/" ("|axios/", ".js/"), which a
// header gives after the product, is a word's end in a name given alone.
var clients = func() *needleIndex {
	var ns []needle
	for _, cl := range knownClients {
		if slices.Contains(notLibraries, cl.name) {
			continue
		}
		for _, p := range cl.match {
			n := parsePattern(p)
			n.edgeBefore = n.edgeBefore || isAlnum(n.text[0])
			ns = append(ns, asName(n))
		}
	}
	return newIndex(append(ns, parseAll(asName, libraryTools, libraryWords)...))
}()

// parseAll parses the patterns of lists, each read by as (nil: as it is).
func parseAll(as func(needle) needle, lists ...[]string) []needle {
	var ns []needle
	for _, l := range lists {
		for _, p := range l {
			n := parsePattern(p)
			if as != nil {
				n = as(n)
			}
			ns = append(ns, n)
		}
	}
	return ns
}

// newIndex indexes ns.
func newIndex(ns []needle) *needleIndex {
	x := &needleIndex{needles: ns}
	x.buckets, x.probes = buildIndex(ns, func(*needle) bool { return true })
	return x
}

// PeopleName reports whether name, a product token, names people's
// software or the platform it runs on, as the tables know them
// ("Ubuntu", "OPR", "Firefox", "Android", "Thunderbird"): a token of a
// person's header, which names no crawler. Its work is linear in the
// length of name, and it does not allocate.
func PeopleName(name string) bool { return people.matches(name) }

// people indexes platformWords and peopleSoftware as names, as clients
// does the libraries.
var people = newIndex(parseAll(asName, platformWords, peopleSoftware))

// asName is n read against a name given alone: a final "/" ("|opr/"),
// which a header gives after the product, is a word's end, and so is the
// end of a pattern that ends in a letter or digit ("^python" names
// "Python-urllib", not "Pythonista").
func asName(n needle) needle {
	if t, ok := strings.CutSuffix(n.text, "/"); ok && len(t) >= 2 {
		n.text, n.edgeAfter = t, true
	}
	n.edgeAfter = n.edgeAfter || isAlnum(n.text[len(n.text)-1])
	return n
}

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
