// Package botdetect decides from a User-Agent header whether a client is an
// automated one (a bot, which the robots_txt handler holds to robots.txt) or a
// person's software (which is never held to it).
//
// It recognises people's software by its grammar and automation by generic
// markers, so that a crawler, library or monitor nobody has listed yet is
// still a bot. Classify takes these decisions in order and stops at the
// first that applies:
//
//  1. A header that contains one of the operator's extra human markers is a
//     human. This is the escape hatch for a trusted monitor or an in-house
//     tool, so it wins over everything else.
//  2. An empty header is a bot: every browser sends one.
//  3. A header that names a known crawler (its name starting a word:
//     "ShowyouBot" does not name YouBot) is a bot, and Classify reports the
//     crawler's canonical name (the spelling its operator documents). These
//     names label logs and metrics; recall does not depend on them, since
//     the generic rules below catch nearly all of those crawlers too.
//  4. A header that contains one of the operator's extra bot markers, or a
//     generic marker of automation, is a bot: a word of automation inside
//     any token ("bot", "crawl", "spider", "scan", "fetch", "monitor",
//     "probe", "check", "(... Agent)", ...), an HTTP library, command-line
//     tool or language runtime ("python-requests", "CPython/", "Go-http-client",
//     "Java/", "okhttp", "Dart/", "libwww", "curl", "Wget", "PHP/8.3",
//     ...), a build target ("linux/amd64", "x86_64-pc-linux-gnu") or Go
//     toolchain ("go1.22"), a headless browser, an e-mail address
//     ("crawler@example.com", "crawler(at)example.com", "crawler at
//     example.com"), a name and a comma before a copied browser header
//     ("Thumbor/6.7.5, Mozilla/5.0 (...)"), or the product token of an
//     automated service. A marker inside the name of people's software (a
//     "Cubot" phone, "Safari Technology Preview") or inside the name of
//     the device in an Android comment ("(Linux; Android 14; ROBOT X9
//     ...)", or an app's "Android (33/13; ...; CUBOT; ...)") does not
//     count. Only the device's own slot is exempt, and only for what a
//     device's name can be: a name and version, an e-mail address or the
//     sign alone in that slot, a sign in an item after it or in a later
//     comment, all count.
//  5. A header longer than maxScan (2 KiB) is a bot: no person's software
//     sends one (the longest in the data set is 681 bytes). Only its first
//     maxNameScan (512) bytes are read, for a crawler's name or the
//     operator's markers, which bounds the cost of a crafted header at that
//     of a short one.
//  6. A weak marker (a contact URL, "compatible; SomeName"
//     where a browser would put its engine or platform, but not in an
//     Android device comment) makes a bot, unless the header names software
//     people use or the family of a podcast, radio or media app ("...pod",
//     "...cast", "Radio", "Player", a ".fm" domain), which give their home
//     page as crawlers do.
//  7. A header that is a bare lowercase "name/version" is a library.
//  8. What is left is a human only if it reads as people's software: it
//     names a platform, device or engine of people's software (Windows,
//     Macintosh, X11, Linux, Android, iPhone, CPU OS, Tizen, SMART-TV,
//     AppleWebKit, Gecko, Trident, Presto, CFNetwork/Darwin for iOS and
//     macOS apps, Dalvik for Android apps, MIDP/CLDC for feature phones,
//     Apple hardware models such as "Watch4,3", an installed application's
//     build number of four parts such as "9.2.2157.0", ...), or the family of a
//     browser, mail client, media player or podcast app (any "...Browser",
//     "...Explorer", "...Viewer", "... Toolbar", "...mail", "...cast", ...).
//     Anything else is a bot: a bare "Name/1.0" product with no platform,
//     free text, a domain name.
//
// The errors are not symmetric. A bot taken for a person merely escapes
// robots.txt, which is what happens without this module; a person taken for a
// bot gets a 403 for a page they were entitled to see. So markers are matched
// at word boundaries where a bare substring would hit product or device names,
// library names count only where they name the client itself rather than a
// component an app mentions, and an addition to a browser header counts only
// when it carries a marker: browsers, in-app browsers and Electron apps append
// names of their own far too often for an unknown trailing name to mean a bot.
//
// The rules are plain data (see tables.go), matched case-insensitively (ASCII
// only, for the operator's markers too) in one pass over at most maxScan bytes
// of the header, without allocating; the words of steps 6 and 8 are looked
// for in a second pass, only when the steps before did not decide, which
// stops at the first match (for a browser, its first byte). Every check that
// looks around a match looks at most maxLabel bytes, so the work is linear in
// the header length.
package botdetect

import (
	"strings"
)

// Classifier decides whether a User-Agent header belongs to an automated client.
// It is immutable after New and safe for concurrent use.
type Classifier struct {
	needles []needle

	// buckets holds, for each pair of byte classes, the needles whose first
	// two bytes fall in those classes: probes[buckets[p].lo:buckets[p].hi].
	// Looking at two bytes instead of one rejects most positions of a
	// typical header with one table load, the bucket's filter of the third
	// and fourth bytes rejects most of the rest ("AppleWebKit" lands in the
	// bucket of "webhook", but no needle goes on "bk"), and the probes reject
	// most of the remaining candidates without touching the needles.
	buckets [numClasses * numClasses]span
	probes  []probe

	// plat is the same kind of index for the words of people's software
	// (kindPlatform), read in a second pass only when no sign of
	// automation decided, and only up to the first match: a browser's
	// header matches at its first byte ("Mozilla/5.0 (").
	plat platIndex

	hasHumans bool // needles starts with the operator's extra human markers
}

type platIndex struct {
	buckets [numClasses * numClasses]span
	probes  []probe
}

// span is a bucket: its probes, and in next the byte classes (folded to
// 16 bits each) that its needles allow at the third (low half) and fourth
// (high half) positions. A needle too short to have such a byte allows any.
type span struct {
	lo, hi uint16
	next   uint32
}

// followBits is the part of a span's next filter that needle text needs.
func followBits(text string) uint32 {
	bits := uint32(0xffffffff)
	if len(text) > 2 {
		bits = bits&^0xffff | 1<<(classOf[text[2]]&15)
	}
	if len(text) > 3 {
		bits = bits&^0xffff0000 | 1<<(16+classOf[text[3]]&15)
	}
	return bits
}

// probe is a needle's first (up to) eight lowercase bytes, packed as
// Classify packs the header bytes at the current position.
type probe struct {
	bits, mask uint64
	needle     uint16
}

// kind orders the outcomes of a needle match; see the package doc.
type kind uint8

const (
	kindHuman    kind = iota // operator's extra human marker
	kindExtra                // operator's extra bot marker
	kindKnown                // a known crawler, with a name
	kindGeneric              // a generic sign of automation
	kindWeak                 // a sign of automation that human software shows now and then
	kindVeto                 // human software whose header shows a sign of automation
	kindPlatform             // a word of the grammar of people's software (a platform, an engine)
)

// needle is one compiled rule: a lowercase string and where it may match.
type needle struct {
	text        string // lowercase
	kind        kind
	name        string                              // canonical crawler name (kindKnown), or the operator's entry (kindExtra)
	client      bool                                // a library, tool or headless browser rather than a crawler
	atStart     bool                                // must match at the start of the header
	edgeBefore  bool                                // the byte before must not be alphanumeric
	edgeAfter   bool                                // the byte after must not be alphanumeric
	shape       func(ua string, start, end int) int // where the sign ends, or -1
	skipAndroid bool                                // ignore matches inside an Android device comment
	android     bool                                // this is the word "android", which opens a device comment
	family      bool                                // a kindPlatform word of appFamilies, which excuses a weak sign
}

// New returns a classifier. extraBots are case-insensitive substrings that mark a
// header as a bot; extraHumans are case-insensitive substrings that exempt a header
// (they win over everything, e.g. an uptime monitor the operator trusts). Empty
// strings are ignored.
func New(extraBots, extraHumans []string) *Classifier {
	return newWith(extraBots, extraHumans, builtin)
}

// newWith is New with the built-in rules replaced by table (a subset of
// builtin, for the grouped cross-validation in the tests).
func newWith(extraBots, extraHumans []string, table []needle) *Classifier {
	c := new(Classifier)
	// The human markers go first; Exempt relies on it.
	for _, s := range extraHumans {
		if s != "" {
			c.needles = append(c.needles, needle{text: asciiLower(s), kind: kindHuman})
			c.hasHumans = true
		}
	}
	for _, s := range extraBots {
		if s != "" {
			c.needles = append(c.needles, needle{text: asciiLower(s), kind: kindExtra, name: s})
		}
	}
	c.needles = append(c.needles, table...)
	c.index()
	return c
}

// builtin is the compiled form of the tables, shared by every Classifier.
var builtin = compileTables()

func compileTables() []needle {
	var ns []needle
	// add compiles patterns into needles of kind k, each then set up by
	// with (nil: nothing more).
	add := func(k kind, with func(*needle), patterns ...string) {
		for _, p := range patterns {
			n := parsePattern(p)
			n.kind = k
			if with != nil {
				with(&n)
			}
			ns = append(ns, n)
		}
	}
	// A crawler's name starts a word: "ShowyouBot" is not YouBot, nor
	// "Alexabot" Exabot. A wrong name is worse than none, since a name
	// is a claim the handler verifies (and may call an impostor).
	named := func(n *needle, name string) {
		n.name = name
		n.edgeBefore = n.edgeBefore || isAlnum(n.text[0])
	}
	for _, cr := range knownCrawlers {
		add(kindKnown, func(n *needle) { named(n, cr.name) }, cr.match...)
	}
	for _, cl := range knownClients {
		add(kindKnown, func(n *needle) { named(n, cl.name); n.client = true }, cl.match...)
	}
	for _, sh := range shapedCrawlers {
		add(kindKnown, func(n *needle) { named(n, sh.name); n.shape, n.client = sh.shape, sh.client }, sh.match)
	}
	for _, sh := range weakSigns {
		add(kindWeak, func(n *needle) { n.shape, n.skipAndroid = sh.shape, sh.inDevice }, sh.match)
	}
	add(kindGeneric, func(n *needle) { n.skipAndroid = true }, genericWords...)
	for _, sh := range shapedSigns {
		add(kindGeneric, func(n *needle) { n.skipAndroid, n.shape = true, sh.shape }, sh.match)
	}
	add(kindGeneric, nil, libraryTools...)
	add(kindGeneric, nil, toolNames...)
	add(kindGeneric, nil, automatedServices...)
	add(kindVeto, nil, humanProducts...)
	for _, sh := range platformShapes {
		add(kindPlatform, func(n *needle) { n.shape = sh.shape }, sh.match)
	}
	isAndroid := func(n *needle) { n.android = n.text == "android" }
	add(kindPlatform, isAndroid, platformWords...)
	add(kindPlatform, isAndroid, peopleSoftware...)
	add(kindPlatform, func(n *needle) { n.family = true }, appFamilies...)
	return ns
}

// parsePattern reads the small notation of tables.go: a leading '^' anchors
// the pattern at the start of the header, and a '|' at either end requires a
// word edge (no ASCII letter or digit) on that side.
func parsePattern(p string) needle {
	var n needle
	if strings.HasPrefix(p, "^") {
		n.atStart = true
		p = p[1:]
	}
	if strings.HasPrefix(p, "|") {
		n.edgeBefore = true
		p = p[1:]
	}
	if strings.HasSuffix(p, "|") {
		n.edgeAfter = true
		p = p[:len(p)-1]
	}
	if p == "" || asciiLower(p) != p {
		// The tables are constants; a mistake there is a programming error.
		panic("botdetect: bad pattern " + p)
	}
	n.text = p
	return n
}

// index sorts the needles into buckets by the classes of their first two
// bytes. A one-byte needle (possible only from the operator's lists) goes in
// every bucket of its first byte.
func (c *Classifier) index() {
	// "android" stays in the first pass, which needs it to recognise an
	// Android device comment.
	c.buckets, c.probes = buildIndex(c.needles, func(n *needle) bool { return n.kind != kindPlatform || n.android })
	c.plat.buckets, c.plat.probes = buildIndex(c.needles, func(n *needle) bool { return n.kind == kindPlatform })
}

// buildIndex indexes the needles for which keep is true.
func buildIndex(needles []needle, keep func(n *needle) bool) (buckets [numClasses * numClasses]span, probes []probe) {
	var lists [numClasses * numClasses][]probe
	var next [numClasses * numClasses]uint32
	for i := range needles {
		n := &needles[i]
		if i > 1<<16-1 {
			panic("botdetect: too many patterns")
		}
		if !keep(n) {
			continue
		}
		var p probe
		p.needle = uint16(i)
		for j := 0; j < len(n.text) && j < 8; j++ {
			p.bits |= uint64(n.text[j]) << (8 * j)
			p.mask |= 0xff << (8 * j)
		}
		c0 := int(classOf[n.text[0]])
		if len(n.text) == 1 {
			for c1 := range numClasses {
				lists[c0*numClasses+c1] = append(lists[c0*numClasses+c1], p)
				next[c0*numClasses+c1] = 0xffffffff
			}
			continue
		}
		c1 := int(classOf[n.text[1]])
		lists[c0*numClasses+c1] = append(lists[c0*numClasses+c1], p)
		next[c0*numClasses+c1] |= followBits(n.text)
	}
	for p, l := range lists {
		lo := len(probes)
		probes = append(probes, l...)
		if len(probes) > 1<<16-1 {
			panic("botdetect: too many patterns")
		}
		buckets[p] = span{uint16(lo), uint16(len(probes)), next[p]}
	}
	return buckets, probes
}

// window holds the lowercase bytes ua[i:i+8] at position i, ua[i] lowest
// and zero past the end, so that a needle's first bytes are compared in one
// masked comparison.
type window uint64

// newWindow is the window at position 0.
func newWindow(ua string) window {
	var w window
	for j := 0; j < len(ua) && j < 8; j++ {
		w |= window(lowerOf[ua[j]]) << (8 * j)
	}
	return w
}

// next moves the window from position i-1 to i.
func (w window) next(ua string, i int) window {
	w >>= 8
	if i+7 < len(ua) {
		w |= window(lowerOf[ua[i+7]]) << 56
	}
	return w
}

// readsAsPeople reports whether ua names a platform, device or engine of
// people's software, or the family of a browser or app (a kindPlatform
// needle), or with familyOnly the family of a podcast, radio or media app
// (appFamilies), and the steps it took. It stops at the first match.
func (c *Classifier) readsAsPeople(ua string, familyOnly bool) (bool, int) {
	steps := 0
	win := newWindow(ua)
	for i := 0; i < len(ua); i++ {
		steps++
		if i > 0 {
			win = win.next(ua, i)
		}
		b := c.plat.buckets[int(classOf[byte(win)])*numClasses+int(classOf[byte(win>>8)])]
		if b.next&(1<<(classOf[byte(win>>16)]&15)) == 0 || b.next&(1<<(16+classOf[byte(win>>24)]&15)) == 0 {
			continue
		}
		for _, p := range c.plat.probes[b.lo:b.hi] {
			steps++
			if uint64(win)&p.mask != p.bits {
				continue
			}
			n := &c.needles[p.needle]
			if familyOnly && !n.family {
				continue
			}
			steps += len(n.text)
			if n.shape != nil {
				steps += shapeSteps
			}
			if n.matchAt(ua, i) >= 0 {
				return true, steps
			}
		}
	}
	return false, steps
}

// maxScan is the longest header Classify reads as a whole. Browsers send a
// few hundred bytes (the longest header of people's software in the data
// set is 681 bytes); a header longer than maxScan is not one a person's
// software sends, so Classify calls it a bot, reading only its first
// maxNameScan bytes, where a crawler writes its name, for the label. The
// bound keeps the cost of a crafted 20 KB header at that of a 512-byte one.
const (
	maxScan     = 2048
	maxNameScan = 512
)

// Classify reports whether ua is an automated client and, when the header names a
// known crawler, that crawler's canonical name (e.g. "Googlebot", "GPTBot",
// "ClaudeBot", "bingbot", "curl", "python-requests"), else, when it matched one
// of the operator's extra bot markers, that marker as configured; name is "" for
// other bots and for humans. The empty header is a bot.
// It must not allocate.
func (c *Classifier) Classify(ua string) (bot bool, name string) {
	bot, name, _ = c.classify(ua)
	return bot, name
}

// shapeSteps is what Classify counts for one call of a shape function: the
// shapes look at most this many bytes around their match.
const shapeSteps = 2 * maxLabel

// classify is Classify, also returning the number of elementary steps it
// took (bytes looked at, candidate patterns tried), so that a test can check
// that the work is linear in the length of the header without timing it.
func (c *Classifier) classify(ua string) (bot bool, name string, steps int) {
	if len(ua) == 0 {
		return true, "", 1
	}
	tooLong := len(ua) > maxScan
	if tooLong {
		ua = ua[:maxNameScan]
	}
	var (
		extra  = -1 // index of the first operator's bot marker found
		weak   bool
		known  = -1 // index of the best known-crawler needle
		signs  spans
		vetoes spans
		// The innermost parenthesised comment open at the current
		// position, the comment in which "android" was last seen (or
		// that it introduced), and where the last "android" outside a
		// comment ended.
		open       = -1
		androidIn  = -2
		androidEnd = -2
		noMoreSign bool
		// Where "android" ended inside the comment androidIn (-1 for an
		// app's comment after the word), where the header's first
		// comment ends (-2 until needed), and the items of the Android
		// comment that may name the device (found when first needed).
		androidAt  = -1
		firstClose = -2
		device     = deviceSlots{open: -1}
	)
	win := newWindow(ua)
	for i := 0; i < len(ua); i++ {
		steps++
		if i > 0 {
			win = win.next(ua, i)
		}
		switch byte(win) {
		case '(':
			open = i
			// "Android (28/9; 480dpi; ...; CUBOT; ...)": apps write
			// their device comment right after the word.
			if i == androidEnd || i == androidEnd+1 && ua[androidEnd] == ' ' {
				androidIn, androidAt = i, -1
			}
		case ')':
			open = -1
		}
		b := c.buckets[int(classOf[byte(win)])*numClasses+int(classOf[byte(win>>8)])]
		// An empty bucket has no bits in next.
		if b.next&(1<<(classOf[byte(win>>16)]&15)) == 0 || b.next&(1<<(16+classOf[byte(win>>24)]&15)) == 0 {
			continue
		}
		for _, p := range c.probes[b.lo:b.hi] {
			steps++
			if uint64(win)&p.mask != p.bits {
				continue
			}
			ni := p.needle
			n := &c.needles[ni]
			if known >= 0 && n.kind > kindKnown {
				continue // a known crawler decides; only a better name matters now
			}
			switch n.kind {
			case kindWeak:
				if weak {
					continue // one weak sign is as good as many
				}
			case kindGeneric:
				if noMoreSign {
					continue
				}
			}
			steps += len(n.text)
			if n.shape != nil {
				steps += shapeSteps
			}
			end := n.matchAt(ua, i)
			if end < 0 {
				continue
			}
			// Words inside an Android device comment name phones
			// ("Cubot", "M BOT 60", "Android 4.4.4 Compatible"), not
			// automation.
			if n.skipAndroid && open >= 0 && androidIn == open {
				if device.open != open || device.at != androidAt {
					if firstClose == -2 {
						firstClose = strings.IndexByte(ua, ')')
						steps += len(ua)
					}
					device = findDevice(ua, open, androidAt, firstClose)
					steps += 4 * maxLabel
				}
				if device.names(i, end) {
					continue
				}
			}
			switch n.kind {
			case kindHuman:
				return false, "", steps
			case kindExtra:
				if extra < 0 {
					extra = int(ni)
				}
			case kindKnown:
				if known < 0 || n.outranks(&c.needles[known]) {
					known = int(ni)
				}
			case kindVeto:
				vetoes.add(i, end)
			case kindGeneric:
				signs.add(i, end)
				noMoreSign = signs.overflow
			case kindWeak:
				weak = true
			case kindPlatform: // only "android" is in this pass
				if open >= 0 {
					androidIn, androidAt = open, end
				} else {
					androidEnd = end
				}
			}
		}
	}
	switch {
	case known >= 0:
		return true, c.needles[known].name, steps
	case extra >= 0:
		return true, c.needles[extra].name, steps
	case tooLong, signs.outside(&vetoes):
		return true, "", steps
	case isBlank(ua):
		return true, "", steps + len(ua)
	case vetoes.n > 0:
		// Weak signs do not count against software known to be used by people.
		return false, "", steps + len(ua)
	case weak:
		// A podcast or radio app gives its home page too. Looked for
		// only now, since few headers have a weak sign.
		family, n := c.readsAsPeople(ua, true)
		steps += n
		if !family {
			return true, "", steps + len(ua)
		}
	}
	steps += len(ua)
	for _, shape := range headerShapes {
		steps += len(ua)
		if shape(ua) {
			return true, "", steps
		}
	}
	// What is left has no sign of automation. It is a person's software if
	// it reads as one: a platform or engine of people's software. Anything
	// else (a bare "Name/1.0", free text) is not how people's software
	// introduces itself.
	people, n := c.readsAsPeople(ua, false)
	return !people, "", steps + n
}

// The items of an app's device comment ("Android (33/13; 420dpi;
// 1080x2400; samsung; SM-G991B; o1s; exynos2100; en_US; 458229237)") that
// name the maker, the model and the device.
const (
	appMaker = 3
	appModel = 5
)

// deviceSlots are the items of an Android comment that can name the device,
// trimmed: the item after "Android N" (after the language, if one comes
// first) of the header's first comment, and the rest of the item that says
// "Android", which holds the device's name now and then ("Android 4.4.4
// Compatible"); or an app's maker and model items. An item longer than
// maxLabel, or holding a name and version ("MyCrawler/1.0", other than
// "Build/..."), or an e-mail address, names no device.
type deviceSlots struct {
	open, at int // the comment, and where "android" ended in it (-1 in an app's)
	n        int
	lo, hi   [appModel - appMaker + 1]int
	model    [appModel - appMaker + 1]bool // the slot reads as a model's name
}

// findDevice finds the slots of the Android comment that opens at open,
// looking at most 4 × maxLabel bytes. androidAt is where "android" ended
// (-1 in an app's comment), firstClose where the header's first comment
// ends: a later comment is the client's own, not the device's.
func findDevice(ua string, open, androidAt, firstClose int) deviceSlots {
	d := deviceSlots{open: open, at: androidAt}
	from, first, last := androidAt, 0, 1
	if androidAt < 0 {
		from, first, last = open+1, appMaker, appModel
	} else if firstClose >= 0 && firstClose < open {
		return d
	}
	item, start := 0, from
	for k, lim := from, min(len(ua), from+4*maxLabel); k < lim && item <= last; k++ {
		if ua[k] != ';' && ua[k] != ')' {
			continue
		}
		if item >= first {
			d.add(ua, start, k)
		}
		if ua[k] == ')' {
			break
		}
		if androidAt >= 0 && item == 1 && isLocale(ua[start:k]) {
			last++ // "(Linux; U; Android 4.4.2; en-us; M BOT 60 Build/...)"
		}
		item, start = item+1, k+1
	}
	return d
}

// add adds the item ua[lo:hi] if it can be a device's name.
func (d *deviceSlots) add(ua string, lo, hi int) {
	for lo < hi && ua[lo] == ' ' {
		lo++
	}
	for hi > lo && ua[hi-1] == ' ' {
		hi--
	}
	if hi-lo > maxLabel || d.n == len(d.lo) {
		return
	}
	for k := lo; k < hi; k++ {
		if ua[k] == '/' && k >= 5 && hasPrefixFold(ua[k-5:], "build") {
			break // a build id, which custom builds write as "user@host"
		}
		if ua[k] == '@' || ua[k] == '/' {
			return
		}
	}
	d.lo[d.n], d.hi[d.n] = lo, hi
	d.model[d.n] = d.at < 0 || !lettersOnly(ua[lo:hi])
	d.n++
}

// names reports whether the sign ua[start:end] is part of a device's name:
// it lies inside a slot that reads as a model's name. In a browser's
// comment, a model has a number, a separator or a second word ("ROBOT X9",
// "CUBOT_P20"); a lone word ("(Linux; Android 14; Headless)") is the
// client's own. An app's maker is one word ("CUBOT").
func (d *deviceSlots) names(start, end int) bool {
	for k := range d.n {
		if d.lo[k] <= start && end <= d.hi[k] {
			return d.model[k]
		}
	}
	return false
}

// lettersOnly reports whether s is one word of letters.
func lettersOnly(s string) bool {
	for i := 0; i < len(s); i++ {
		if !isLetter(s[i]) {
			return false
		}
	}
	return true
}

// isLocale reports whether an item of a comment is a language ("en-us",
// "zh_CN", "de") or the old security strength "U", which Android's browser
// wrote before the device.
func isLocale(s string) bool {
	s = strings.TrimSpace(s)
	if len(s) == 1 {
		return s == "U" || s == "u"
	}
	if len(s) != 2 && len(s) != 5 || !isLetter(s[0]) || !isLetter(s[1]) {
		return false
	}
	return len(s) == 2 || (s[2] == '-' || s[2] == '_') && isLetter(s[3]) && isLetter(s[4])
}

// outranks reports whether n names a client better than o, both having
// matched: a crawler beats the library it fetches with ("LinkedInBot/1.0
// (compatible; Apache-HttpClient ...)"), and a longer name beats one it
// contains ("Googlebot-Image" beats "Googlebot").
func (n *needle) outranks(o *needle) bool {
	if n.client != o.client {
		return o.client
	}
	return len(n.text) > len(o.text)
}

// spans is a small fixed set of byte ranges of the header, so that Classify
// can remember matches without allocating.
type spans struct {
	s        [8][2]int
	n        int
	overflow bool
}

func (s *spans) add(start, end int) {
	if s.n == len(s.s) {
		s.overflow = true
		return
	}
	s.s[s.n] = [2]int{start, end}
	s.n++
}

// outside reports whether some span in s overlaps none of the spans in v.
// A header with more signs than s can hold is a bot whatever v says.
func (s *spans) outside(v *spans) bool {
	if s.overflow {
		return true
	}
	for _, a := range s.s[:s.n] {
		hit := false
		for _, b := range v.s[:v.n] {
			if a[0] < b[1] && b[0] < a[1] {
				hit = true
				break
			}
		}
		if !hit {
			return true
		}
	}
	return false
}

// matchAt reports where n's match at ua[i:] ends, or -1 if n does not match
// there, including its edge and shape conditions.
func (n *needle) matchAt(ua string, i int) int {
	t := n.text
	if len(ua)-i < len(t) || (n.atStart && i != 0) {
		return -1
	}
	for j := 0; j < len(t); j++ {
		if lowerOf[ua[i+j]] != t[j] {
			return -1
		}
	}
	end := i + len(t)
	if n.edgeBefore && i > 0 && isAlnum(ua[i-1]) {
		return -1
	}
	if n.edgeAfter && end < len(ua) && isAlnum(ua[end]) {
		return -1
	}
	if n.shape != nil {
		return n.shape(ua, i, end)
	}
	return end
}

// hasPrefixFold reports whether s begins with lower, ignoring ASCII case in s.
func hasPrefixFold(s, lower string) bool {
	if len(s) < len(lower) {
		return false
	}
	for j := 0; j < len(lower); j++ {
		if lowerOf[s[j]] != lower[j] {
			return false
		}
	}
	return true
}

// indexFold is strings.Index for an ASCII-lowercase needle, ignoring ASCII case
// in s, without allocating.
func indexFold(s, lower string) int {
	for i := 0; i+len(lower) <= len(s); i++ {
		j := 0
		for j < len(lower) && lowerOf[s[i+j]] == lower[j] {
			j++
		}
		if j == len(lower) {
			return i
		}
	}
	return -1
}

func isBlank(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] != ' ' && s[i] != '\t' {
			return false
		}
	}
	return true
}

// Byte classes for the two-byte bucket index. Letters are folded; bytes that
// start no pattern share classOther, so a pattern with an unusual byte in its
// first two places still lands in a bucket, just a busier one.
const numClasses = 64

const classOther = 0

var (
	lowerOf = makeLower()
	classOf = makeClasses()
)

func makeLower() (t [256]byte) {
	for b := range 256 {
		t[b] = byte(b)
		if 'A' <= b && b <= 'Z' {
			t[b] = byte(b + 'a' - 'A')
		}
	}
	return t
}

func makeClasses() (t [256]uint8) {
	next := uint8(1)
	for _, b := range []byte("abcdefghijklmnopqrstuvwxyz0123456789-_./ ;()+:@,&%=[]!") {
		t[b] = next
		if 'a' <= b && b <= 'z' {
			t[b-'a'+'A'] = next
		}
		next++
	}
	if next > numClasses {
		panic("botdetect: too many byte classes")
	}
	return t
}

func isLetter(b byte) bool {
	b = lowerOf[b]
	return 'a' <= b && b <= 'z'
}

func isLower(b byte) bool { return 'a' <= b && b <= 'z' }

func isDigit(b byte) bool { return '0' <= b && b <= '9' }

func isAlnum(b byte) bool {
	b = lowerOf[b]
	return 'a' <= b && b <= 'z' || '0' <= b && b <= '9'
}

// asciiLower lowers ASCII letters only, so that the operator's strings fold
// exactly as the header does in Classify.
func asciiLower(s string) string {
	var sb strings.Builder
	sb.Grow(len(s))
	for i := 0; i < len(s); i++ {
		sb.WriteByte(lowerOf[s[i]])
	}
	return sb.String()
}
