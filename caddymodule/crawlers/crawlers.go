// Package crawlers is the knowledge base of known crawlers: for each one, the
// names it goes by (its robots.txt product tokens and the User-Agent patterns
// that carry them), who runs it and what for, what its operator says about
// robots.txt, and how a request claiming to be it can be checked (published
// IP ranges, forward-confirmed reverse DNS, Web Bot Auth signature agents).
//
// The data is one documented JSON file, crawlers.json, embedded in the
// binary, so the handler, the classifier and the reports agree on names and
// categories. Builtin parses it once; With layers an operator's additions and
// corrections on top. A Base is immutable and safe for concurrent use.
//
// The package imports no Caddy code.
package crawlers

import (
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"net/netip"
	"net/url"
	"slices"
	"strings"
	"sync"

	"github.com/robotsguard/caddy-robots-txt/caddymodule/webbotauth"
)

// Category is what a crawler is for.
type Category string

// The categories. A crawler has exactly one.
const (
	Search        Category = "search"         // builds a web search index
	AITraining    Category = "ai-training"    // collects content to train models
	AISearch      Category = "ai-search"      // builds the index an AI answer engine searches
	AIUser        Category = "ai-user"        // fetches a page for an AI assistant or agent a person asked (operators say robots.txt may not apply)
	SEO           Category = "seo"            // SEO and marketing intelligence
	Archive       Category = "archive"        // web archiving
	SocialPreview Category = "social-preview" // link previews for chat and social apps
	Monitor       Category = "monitor"        // uptime and performance checks
	Scanner       Category = "scanner"        // security and abuse scanning
	Other         Category = "other"
)

var categories = []Category{Search, AITraining, AISearch, AIUser, SEO, Archive, SocialPreview, Monitor, Scanner, Other}

// Categories returns every valid category, in a fixed order.
func Categories() []Category { return slices.Clone(categories) }

// Valid reports whether c is one of the ten categories.
func (c Category) Valid() bool { return slices.Contains(categories, c) }

// What operators document about their crawler and robots.txt.
const (
	Obeys   = "obeys"
	Ignores = "ignores"
	Unknown = "unknown"
)

// Crawler is one entry of the knowledge base. A *Crawler handed out by a Base
// is shared and must not be modified.
type Crawler struct {
	// Name is the canonical spelling, the one logs and metrics use.
	Name string `json:"name"`
	// Tokens are the robots.txt product tokens the crawler answers to; the
	// first is usually Name.
	Tokens []string `json:"tokens"`
	// Patterns find the crawler in a User-Agent header, in the notation of
	// package botdetect: lowercase text; a leading '|' or trailing '|' asks
	// for a word edge there, a leading '^' for the start of the header.
	Patterns []string `json:"patterns,omitempty"`
	Operator string   `json:"operator"`
	Category Category `json:"category"`
	// Robots is what the operator says about robots.txt: Obeys, Ignores or
	// Unknown; RobotsSource is the operator's page that says so.
	Robots       string `json:"robots"`
	RobotsSource string `json:"robots_source,omitempty"`
	// Ranges are where the crawler's addresses are published: https URLs of
	// IP lists in the built-in file; an operator may also give literal CIDRs
	// and file paths.
	Ranges []string `json:"ranges,omitempty"`
	// RDNS are the hostname suffixes its addresses reverse-resolve to,
	// matched at a label boundary ("googlebot.com" matches
	// "crawl-1.googlebot.com", not "evilgooglebot.com").
	RDNS []string `json:"rdns,omitempty"`
	// SignatureAgents are the Web Bot Auth Signature-Agent values it signs
	// requests with.
	SignatureAgents []string `json:"signature_agents,omitempty"`
	// IgnoresStar is set for a crawler that obeys only the groups that
	// name it, as Google documents for its special-case crawlers
	// (AdsBot-Google, Mediapartners-Google, ...): where no group names
	// it, it has no rules, not the "*" group's.
	IgnoresStar bool `json:"ignores_star,omitempty"`
	// IgnoresCrawlDelay is set for a crawler whose operator documents
	// that it does not read Crawl-delay (Google's: "crawl-delay isn't
	// supported"); verified as itself, it is not paced by one, since
	// going faster is no violation by its own reading of the file.
	IgnoresCrawlDelay bool `json:"ignores_crawl_delay,omitempty"`
	// MaxCrawlDelay is the longest Crawl-delay, in seconds, the crawler
	// reads, when its operator documents one (Yandex: 2.0); 0 for none.
	// Verified as itself, it is paced by no longer a delay, since
	// keeping to that is keeping to the file by its own reading.
	MaxCrawlDelay float64 `json:"max_crawl_delay,omitempty"`
	// CrawlDelaySource is the operator's page that gives MaxCrawlDelay.
	CrawlDelaySource string `json:"crawl_delay_source,omitempty"`
	// Follows are the tokens of other crawlers whose groups this one
	// obeys, in order, when no group names it, before the * group, as its
	// operator documents (Applebot follows a Googlebot group; every Yandex
	// robot a Yandex group).
	Follows []string `json:"follows,omitempty"`
	// CrawlsAs are the names of crawlers whose User-Agent headers this
	// one sends, having none of its own (Google News crawls with
	// Googlebot's): a request proven to come from one of them may be
	// this crawler's, and is no violation where this one's group allows
	// it.
	CrawlsAs []string `json:"crawls_as,omitempty"`
	Notes    string   `json:"note,omitempty"`

	// sharedBy are the crawlers whose CrawlsAs names this one, set by
	// the Base that holds it.
	sharedBy []*Crawler
}

// SharedBy returns the crawlers that send c's header as their own (see
// CrawlsAs); nil for none.
func (c *Crawler) SharedBy() []*Crawler {
	if c == nil {
		return nil
	}
	return c.sharedBy
}

// Verifiable reports whether the operator publishes any way to check a
// claim to be this crawler. A claim to be a verifiable crawler that fails the
// check is an impostor; a claim to be any other crawler can only be taken
// at its word.
func (c *Crawler) Verifiable() bool {
	return c != nil && (len(c.Ranges) > 0 || len(c.RDNS) > 0 || len(c.SignatureAgents) > 0)
}

// Base is a parsed, validated knowledge base. It is immutable.
type Base struct {
	date    string
	sources []string
	all     []*Crawler
	// index maps the lowercased name and every lowercased token to its entry.
	index  map[string]*Crawler
	maxKey int
	// families are the lowercased tokens other crawlers follow, each with
	// the crawler a name of that family claims to be: the token's own
	// entry, or else the first crawler that follows it ("yandex" is
	// YandexBot's).
	families []family
}

type family struct {
	token   string
	crawler *Crawler
	// member is crawler as a member of the family that is not crawler
	// itself claims it (see FamilyIn): verified as crawler is, but
	// obeying only the family's groups, not crawler's own.
	member *Crawler
}

// file is the layout of crawlers.json.
type file struct {
	Date    string    `json:"date"`
	Note    string    `json:"note,omitempty"`
	Sources []string  `json:"sources"`
	Entries []Crawler `json:"entries"`
}

//go:embed crawlers.json
var builtinData []byte

var builtin = sync.OnceValue(func() *Base {
	b, err := Parse(builtinData)
	if err != nil {
		// The file is compiled in and guarded by a test; reaching this is a
		// build from a broken tree.
		panic("crawlers: embedded crawlers.json: " + err.Error())
	}
	return b
})

// Builtin returns the knowledge base compiled into the binary. It is parsed
// on first use and shared.
func Builtin() *Base { return builtin() }

// Parse reads and validates a knowledge base in the layout of crawlers.json.
// Unknown fields are errors, so a typo in a field name does not silently
// drop a verification method.
func Parse(data []byte) (*Base, error) {
	var f file
	dec := json.NewDecoder(strings.NewReader(string(data)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&f); err != nil {
		return nil, fmt.Errorf("crawlers: %w", err)
	}
	if f.Date == "" {
		return nil, errors.New("crawlers: missing date")
	}
	b := &Base{date: f.Date, sources: f.Sources}
	entries := make([]*Crawler, len(f.Entries))
	for i := range f.Entries {
		entries[i] = &f.Entries[i]
	}
	if err := b.build(entries, false); err != nil {
		return nil, err
	}
	return b, nil
}

// build validates entries and indexes them into b.
func (b *Base) build(entries []*Crawler, operator bool) error {
	b.all = entries
	b.index = make(map[string]*Crawler, 2*len(entries))
	b.maxKey = 0
	for _, c := range entries {
		if err := c.validate(operator); err != nil {
			return err
		}
		for _, k := range c.keys() {
			if prev, dup := b.index[k]; dup && prev != c {
				return fmt.Errorf("crawlers: %q: token %q already belongs to %q", c.Name, k, prev.Name)
			}
			b.index[k] = c
			b.maxKey = max(b.maxKey, len(k))
		}
	}
	for _, c := range entries {
		// A copy made by With holds the crawlers of the Base it was
		// copied from.
		c.sharedBy = nil
	}
	for _, c := range entries {
		for _, n := range c.CrawlsAs {
			target := b.index[strings.ToLower(n)]
			switch {
			case target == nil:
				return fmt.Errorf("crawlers: %q: crawls_as %q names no crawler of the knowledge base", c.Name, n)
			case target == c:
				return fmt.Errorf("crawlers: %q: crawls_as names itself", c.Name)
			}
			target.sharedBy = append(target.sharedBy, c)
		}
	}
	b.families = nil
	for _, c := range entries {
		for _, t := range c.Follows {
			k := strings.ToLower(t)
			if slices.ContainsFunc(b.families, func(f family) bool { return f.token == k }) {
				continue
			}
			cr := b.index[k]
			if cr == nil {
				cr = c
			}
			m := *cr
			m.Tokens, m.Follows = nil, []string{t}
			b.families = append(b.families, family{k, cr, &m})
		}
	}
	return nil
}

// keys are the lowercased name and tokens of c, without repeats.
func (c *Crawler) keys() []string {
	keys := []string{strings.ToLower(c.Name)}
	for _, t := range c.Tokens {
		if k := strings.ToLower(t); !slices.Contains(keys, k) {
			keys = append(keys, k)
		}
	}
	return keys
}

// validate checks one entry. operator relaxes the rule that ranges are
// URLs: an operator may also name a literal CIDR or a file.
func (c *Crawler) validate(operator bool) error {
	if c.Name == "" || strings.TrimSpace(c.Name) != c.Name {
		return fmt.Errorf("crawlers: entry with bad name %q", c.Name)
	}
	where := func(format string, args ...any) error {
		return fmt.Errorf("crawlers: %q: "+format, append([]any{c.Name}, args...)...)
	}
	if len(c.Tokens) == 0 {
		return where("no robots.txt tokens")
	}
	for _, t := range c.Tokens {
		if badToken(t) {
			return where("bad token %q", t)
		}
	}
	if (c.IgnoresStar || len(c.Follows) > 0) && !c.Verifiable() {
		// Anyone could send its name to escape the * group's rules.
		return where("ignores_star and follows need a way to verify the crawler (ranges, rdns or signature_agents)")
	}
	for _, t := range c.Follows {
		if badToken(t) || t == "*" {
			return where("bad follows token %q", t)
		}
		if slices.ContainsFunc(c.Tokens, func(s string) bool { return strings.EqualFold(s, t) }) {
			return where("follows its own token %q", t)
		}
	}
	for _, p := range c.Patterns {
		body := strings.TrimSuffix(strings.TrimPrefix(strings.TrimPrefix(p, "^"), "|"), "|")
		if body == "" || strings.ToLower(body) != body {
			return where("bad pattern %q (lowercase text, optional ^ and | marks)", p)
		}
	}
	if c.MaxCrawlDelay < 0 || c.MaxCrawlDelay > 60 || c.MaxCrawlDelay != c.MaxCrawlDelay {
		return where("max_crawl_delay %v is not a number of seconds from 0 to 60", c.MaxCrawlDelay)
	}
	if c.MaxCrawlDelay > 0 && c.IgnoresCrawlDelay {
		return where("max_crawl_delay and ignores_crawl_delay both set")
	}
	if c.CrawlDelaySource != "" {
		if err := checkURL(c.CrawlDelaySource, false); err != nil {
			return where("crawl_delay_source: %v", err)
		}
	}
	if !c.Category.Valid() {
		return where("category %q is not one of %v", c.Category, categories)
	}
	switch c.Robots {
	case Obeys, Ignores, Unknown:
	default:
		return where("robots is %q, want obeys, ignores or unknown", c.Robots)
	}
	if c.RobotsSource != "" {
		if err := checkURL(c.RobotsSource, false); err != nil {
			return where("robots_source: %v", err)
		}
	}
	for _, r := range c.Ranges {
		if err := checkRange(r, operator); err != nil {
			return where("ranges: %v", err)
		}
	}
	for _, s := range c.RDNS {
		if err := CheckSuffix(s); err != nil {
			return where("rdns: %v", err)
		}
	}
	for _, s := range c.SignatureAgents {
		if _, err := webbotauth.AgentOrigin(s); err != nil {
			return where("signature_agents: %q: %v", s, err)
		}
	}
	return nil
}

// badToken reports whether t cannot be a robots.txt user-agent value.
// Spaces are allowed: "Sogou web spider" is a group name in the wild.
func badToken(t string) bool {
	return t == "" || strings.TrimSpace(t) != t || strings.ContainsAny(t, "\t\r\n#:")
}

// checkURL accepts an absolute http(s) URL with a host; secure demands https.
func checkURL(s string, secure bool) error {
	u, err := url.Parse(s)
	if err != nil {
		return err
	}
	if u.Host == "" || (u.Scheme != "https" && (secure || u.Scheme != "http")) {
		return fmt.Errorf("%q is not an absolute https URL", s)
	}
	return nil
}

// checkRange accepts what a ranges entry may be. Lists are fetched over
// https only: an IP list is a trust anchor, and plain http would let anyone
// on the path vouch for an impostor.
func checkRange(s string, operator bool) error {
	if strings.Contains(s, "://") {
		return checkURL(s, true)
	}
	if _, err := netip.ParsePrefix(s); err == nil {
		return nil
	}
	if _, err := netip.ParseAddr(s); err == nil {
		return nil
	}
	if operator && s != "" && strings.TrimSpace(s) == s {
		return nil // a file path; whether it is readable is the loader's business
	}
	return fmt.Errorf("%q is not an https URL or a CIDR", s)
}

// CheckSuffix accepts a reverse-DNS suffix: a lowercase DNS name of at least
// two labels ("googlebot.com"), as the knowledge base and the operator's
// crawler entries give them.
func CheckSuffix(s string) error {
	// Each way of writing a domain that is refused is named, with the
	// spelling to use: ".example.com" and "example.com." are common
	// ways to write a suffix, and the operator should not have to guess
	// which part is wrong.
	if _, err := netip.ParseAddr(strings.Trim(s, "[]")); err == nil {
		return fmt.Errorf("%q is an address, not a domain; rdns takes the domain the crawler's addresses resolve to (\"googlebot.com\"): give addresses with ranges", s)
	}
	switch {
	case s != strings.ToLower(s):
		return fmt.Errorf("%q has upper-case letters; write it in lower case, %q", s, strings.ToLower(s))
	case strings.HasPrefix(s, "."):
		return fmt.Errorf("%q starts with a dot; write the domain without it, %q (the names under it match, and it itself)", s, strings.TrimLeft(s, "."))
	case strings.HasSuffix(s, "."):
		return fmt.Errorf("%q ends with a dot; write the domain without it, %q", s, strings.TrimRight(s, "."))
	case !strings.Contains(s, "."):
		return fmt.Errorf("%q is not a domain like \"googlebot.com\" (one label is a whole top-level domain)", s)
	}
	for label := range strings.SplitSeq(s, ".") {
		if label == "" || len(label) > 63 || label[0] == '-' || label[len(label)-1] == '-' {
			return fmt.Errorf("%q has a bad label %q", s, label)
		}
		for i := 0; i < len(label); i++ {
			ch := label[i]
			if ch >= 0x80 {
				return fmt.Errorf("%q has a label that is not ASCII, %q; write it as the DNS does, in punycode (\"xn--…\")", s, label)
			}
			if !(ch >= 'a' && ch <= 'z' || ch >= '0' && ch <= '9' || ch == '-') {
				return fmt.Errorf("%q has a bad label %q", s, label)
			}
		}
	}
	return nil
}

// Claim returns the known crawler a bot's header claims to be: the one
// the bot is named after; failing that, the one its name extends
// ("Googlebot-Mobile" is Google's, "msnbot-media" Microsoft's); failing
// that, the one whose family the name is: a token crawlers follow, or a
// name that begins with one ("Yandex", "YandexImages": every Yandex robot
// obeys a Yandex group, and YandexBot's verification is Yandex's);
// failing that, known, the crawler a classifier found in the header; nil
// when none. A claim to a crawler that can be verified must not escape
// verification by a name the knowledge base does not list.
func (b *Base) Claim(name, known string) *Crawler {
	if cr := b.Lookup(name); cr != nil {
		return cr
	}
	for n := name; ; {
		i := strings.LastIndexByte(n, '-')
		if i <= 0 {
			break
		}
		n = n[:i]
		if cr := b.Lookup(n); cr != nil {
			return cr
		}
	}
	if f := b.familyOf(name); f != nil {
		return f.crawler
	}
	return b.Lookup(known)
}

// familyOf is the family whose token name begins with, or nil.
func (b *Base) familyOf(name string) *family {
	for i := range b.families {
		if f := &b.families[i]; len(name) >= len(f.token) && strings.EqualFold(name[:len(f.token)], f.token) {
			return f
		}
	}
	return nil
}

// FamilyIn returns the family a header's own product belongs to by its
// name, and the family's token as crawlers follow it ("Yandex"): the
// header's first product, or the one after "compatible;", named with a
// family's token and more ("YandexImages/3.0", "(compatible;
// YandexMetrika/2.0; ...)"). The crawler it returns is the family's
// crawler as a member of the family sees it: verified as that crawler
// is, obeying the groups that name the family's token, not the
// crawler's own (YandexImages does not obey a YandexBot group). The
// caller decides whether the claim stands (the handler: when the file
// names the family's group). Linear in len(ua).
func (b *Base) FamilyIn(ua string) (*Crawler, string) {
	at := func(i int) (*Crawler, string) {
		for i < len(ua) && ua[i] == ' ' {
			i++
		}
		end := i
		for end < len(ua) && isNameByte(ua[end]) {
			end++
		}
		if end == i || end < len(ua) && !strings.ContainsRune("/;) ", rune(ua[end])) {
			return nil, ""
		}
		// The token and more: the token alone names the family's
		// group, and the header chooses it itself.
		if f := b.familyOf(ua[i:end]); f != nil && end-i > len(f.token) {
			return f.member, f.member.Follows[0]
		}
		return nil, ""
	}
	if cr, tok := at(0); cr != nil {
		return cr, tok
	}
	const compat = "compatible;"
	for i := 0; i+len(compat) <= len(ua); i++ {
		if (ua[i] == 'c' || ua[i] == 'C') && strings.EqualFold(ua[i:i+len(compat)], compat) {
			if cr, tok := at(i + len(compat)); cr != nil {
				return cr, tok
			}
			i += len(compat) - 1
		}
	}
	return nil, ""
}

func isNameByte(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-' || c == '_'
}

// Lookup returns the crawler whose name or robots.txt token is token,
// ignoring ASCII case, or nil. It does not allocate.
func (b *Base) Lookup(token string) *Crawler {
	if len(token) == 0 || len(token) > b.maxKey {
		return nil
	}
	var buf [64]byte
	if len(token) > len(buf) {
		return b.index[strings.ToLower(token)]
	}
	lower := buf[:len(token)]
	for i := 0; i < len(token); i++ {
		ch := token[i]
		if 'A' <= ch && ch <= 'Z' {
			ch += 'a' - 'A'
		}
		lower[i] = ch
	}
	// The compiler turns a map index by string(bytes) into a lookup
	// without a copy.
	return b.index[string(lower)]
}

// All returns every entry, in file order (operator additions last). The
// slice is the caller's; the entries are shared and must not be modified.
func (b *Base) All() []*Crawler { return slices.Clone(b.all) }

// Date is the date the knowledge base was last checked against its sources.
func (b *Base) Date() string { return b.date }

// Sources are the pages the knowledge base was compiled from.
func (b *Base) Sources() []string { return slices.Clone(b.sources) }

// With returns a new Base with the operator's entries layered on b. An
// override whose name or any token names an existing entry replaces that
// entry's fields that the override sets (non-empty strings and lists); any
// other override is a new entry, whose missing tokens default to its name,
// category to "other" and robots to "unknown". An override's ranges may be
// https URLs, literal CIDRs or file paths. b is not changed.
func (b *Base) With(overrides ...Crawler) (*Base, error) {
	entries := make([]*Crawler, len(b.all))
	for i, c := range b.all {
		cp := *c
		entries[i] = &cp
	}
	nb := &Base{date: b.date, sources: b.sources}
	for _, o := range overrides {
		// Operators write suffixes as they see them in dig output.
		o.RDNS = slices.Clone(o.RDNS)
		for i, s := range o.RDNS {
			o.RDNS[i] = strings.Trim(strings.ToLower(s), ".")
		}
		target := findIn(entries, o)
		if target == nil {
			n := o
			if len(n.Tokens) == 0 {
				n.Tokens = []string{n.Name}
			}
			if n.Category == "" {
				n.Category = Other
			}
			if n.Robots == "" {
				n.Robots = Unknown
			}
			entries = append(entries, &n)
			continue
		}
		merge(target, o)
	}
	if err := nb.build(entries, true); err != nil {
		return nil, err
	}
	return nb, nil
}

// findIn returns the entry of entries that o's name or a token names.
func findIn(entries []*Crawler, o Crawler) *Crawler {
	keys := o.keys()
	for _, c := range entries {
		for _, k := range c.keys() {
			if slices.Contains(keys, k) {
				return c
			}
		}
	}
	return nil
}

// merge copies the fields o sets onto c. The name stays canonical: an
// operator who writes "googlebot" still gets "Googlebot" in the logs.
func merge(c *Crawler, o Crawler) {
	set := func(dst *string, v string) {
		if v != "" {
			*dst = v
		}
	}
	setList := func(dst *[]string, v []string) {
		if len(v) > 0 {
			*dst = slices.Clone(v)
		}
	}
	for _, t := range o.Tokens {
		if !slices.ContainsFunc(c.Tokens, func(s string) bool { return strings.EqualFold(s, t) }) {
			c.Tokens = append(slices.Clip(c.Tokens), t)
		}
	}
	setList(&c.Patterns, o.Patterns)
	set(&c.Operator, o.Operator)
	if o.Category != "" {
		c.Category = o.Category
	}
	set(&c.Robots, o.Robots)
	set(&c.RobotsSource, o.RobotsSource)
	setList(&c.Ranges, o.Ranges)
	setList(&c.RDNS, o.RDNS)
	setList(&c.SignatureAgents, o.SignatureAgents)
	setList(&c.Follows, o.Follows)
	set(&c.Notes, o.Notes)
}
