package robots

import (
	"sort"
	"strconv"
	"strings"
)

// File is a parsed, compiled robots.txt. It is immutable and safe for
// concurrent use. The methods of a nil *File behave as for an empty file:
// nothing is restricted.
type File struct {
	groups   []*Group // distinct merged groups, in order of first appearance
	global   *Group   // the group for "*", or nil
	agents   []agentEntry
	names    trie      // lower-cased product tokens; values index agents
	first    [256]bool // bytes that can start a product token of the file
	sitemaps []string
	diags    []Diagnostic
	nGroups  int
	nRules   int
	nFields  int
	size     int
}

// agentEntry is one distinct agent named by the file: a product token, or
// a crawler's whole name with digits in it ("MJ12bot", "360Spider").
type agentEntry struct {
	name    string // spelling of its first appearance
	group   *Group
	browser bool // a token every browser sends (BrowserToken)
	implied bool // a token only lines naming a longer name with digits gave
}

func newFile(p *parser) *File {
	f := &File{sitemaps: p.sitemaps, diags: p.diags, nFields: p.fields}
	most := 0 // rules of the largest written group
	for _, g := range p.groups {
		if g.borrows {
			continue // a group cut short by a crawl-delay: its lender's rules
		}
		f.nGroups++
		f.nRules += len(g.rules)
		most = max(most, len(g.rules))
	}

	// Which groups name each agent, and which name "*". A crawler obeys
	// the union of every group that names it. "*" takes part in the
	// order of first appearance under the key "*", which no name can be.
	// A line names one agent, or two when its name goes on with digits
	// after the product token: "MJ12bot" names the crawler MJ12bot by its
	// whole name, and "MJ" as Google's parser reads it (implied, since
	// nobody wrote it so). A member's lines are chained through refs, and
	// its groups gathered in scratch when needed: no member has a slice
	// of its own.
	type member struct {
		key, name   string
		first, last int32 // its first and last refs
		implied     bool  // only lines naming it with digits after it
	}
	type ref struct{ line, next int32 } // an index into p.agents
	lowered := lowerNames(p.agents)
	members := make([]member, 0, len(p.agents)) // in order of first appearance
	byName := make(map[string]int32, len(p.agents))
	refs := make([]ref, 0, len(p.agents))
	name := func(k int, key, spelt string, implied bool) {
		refs = append(refs, ref{int32(k), -1})
		r := int32(len(refs) - 1)
		if i, ok := byName[key]; ok {
			refs[members[i].last].next, members[i].last = r, r
			members[i].implied = members[i].implied && implied
			return
		}
		byName[key] = int32(len(members))
		members = append(members, member{key: key, name: spelt, first: r, last: r, implied: implied})
	}
	off := 0 // of the agent's names in lowered
	for k, a := range p.agents {
		switch {
		case a.global:
			name(k, "*", "*", false)
		case a.withDigits != "":
			name(k, lowered[off:off+len(a.withDigits)], a.withDigits, false)
			if a.token != "" {
				name(k, lowered[off:off+len(a.token)], a.token, true)
			}
			off += len(a.withDigits)
		case a.token != "":
			name(k, lowered[off:off+len(a.token)], a.token, false)
			off += len(a.token)
		}
	}

	// Agents named by the same set of written groups share one Group, and
	// a Group never copies what it can share: see mergedGroups.
	mg := mergedGroups{src: p.groups, byKey: map[string]*Group{}, budget: f.nRules, gb: new(groupBuilder)}
	mg.gb.reserve(most)
	for _, s := range p.groups {
		s.compileUsage(mg.gb)
	}
	f.agents = make([]agentEntry, 0, len(members))
	tokens := make([]string, 0, len(members))
	var groups []int
	for _, m := range members {
		groups = groups[:0]
		for r := m.first; r >= 0; r = refs[r].next {
			if i := int(p.agents[refs[r].line].group); len(groups) == 0 || groups[len(groups)-1] != i {
				groups = append(groups, i)
			}
		}
		g, isNew := mg.groupOf(groups)
		if isNew {
			// Members come in order of first appearance: the first of
			// a group's is its earliest user-agent line.
			g.line = int(p.agents[refs[m.first].line].line)
			f.groups = append(f.groups, g)
		}
		if !m.implied || isNew {
			// An implied token names a group only where no written
			// name does ("MJ" of "MJ12bot" in one group and "MJ13bot"
			// in another obeys both): it is that group's only name.
			g.Agents = append(g.Agents, m.name)
		}
		if m.key == "*" {
			f.global = g
			continue
		}
		f.agents = append(f.agents, agentEntry{name: m.name, group: g, browser: BrowserToken(m.key), implied: m.implied})
		tokens = append(tokens, m.key)
		f.first[m.key[0]] = true
		f.first[upper(m.key[0])] = true
	}
	vals := make([]int32, len(tokens))
	for i := range vals {
		vals[i] = int32(i)
	}
	sort.Sort(byKey{tokens, vals})
	f.names = buildTrie(tokens, vals, &mg.gb.trie)
	return f
}

// lowerNames returns the names of agents (see srcAgent.name), lower-cased,
// end to end in one string: one allocation for all of them.
func lowerNames(agents []srcAgent) string {
	n := 0
	for _, a := range agents {
		n += len(a.name())
	}
	var b strings.Builder
	b.Grow(n)
	for _, a := range agents {
		name := a.name()
		for i := 0; i < len(name); i++ {
			b.WriteByte(lower(name[i]))
		}
	}
	return b.String()
}

// mergedGroups builds the Group of each distinct set of written groups.
// Memory stays a small multiple of the file's size whatever its shape (a
// file can name a thousand agents, each in a different half of its
// groups): a Group made of one written group uses that group's rules and
// compiled matcher as they are; one made of several gets a matcher of its
// own while the rules compiled for merged groups number no more than the
// file's rules, and past that keeps the matchers of its parts and asks
// each of them, all with one budget of scanning and one index of the path
// (see wildTry), so that time stays what one matcher of the parts' rules
// would take.
type mergedGroups struct {
	src    []*srcGroup
	byKey  map[string]*Group
	budget int // rules that merged matchers may still compile
	gb     *groupBuilder
	key    []byte
}

func (mg *mergedGroups) groupOf(members []int) (g *Group, isNew bool) {
	mg.key = mg.key[:0]
	for _, i := range members {
		mg.key = strconv.AppendInt(mg.key, int64(i), 10)
		mg.key = append(mg.key, ',')
	}
	if g, ok := mg.byKey[string(mg.key)]; ok {
		return g, false
	}
	g = &Group{}
	mg.byKey[string(mg.key)] = g
	n, distinct := 0, 0
	for k, i := range members {
		s := mg.src[i]
		if g.CrawlDelay == 0 {
			g.CrawlDelay = s.crawlDelay
		}
		g.signal = g.signal.stricter(s.signal)
		g.hasUsage = g.hasUsage || len(s.usage) > 0
		if !lendsOn(mg.src, members, k) {
			n += len(s.rules)
			distinct++
		}
	}
	switch {
	case distinct == 1:
		g.src = make([]*srcGroup, len(members))
		for k, i := range members {
			g.src[k] = mg.src[i]
		}
		if len(members) == 1 {
			g.src = mg.src[members[0] : members[0]+1]
		}
		g.lender = mg.lenderOf(members[len(members)-1])
	case n <= mg.budget:
		mg.budget -= n // its matcher compiles the merge, see Group.matcher
		g.src = make([]*srcGroup, len(members))
		for k, i := range members {
			g.src[k] = mg.src[i]
		}
	default:
		g.src = make([]*srcGroup, len(members))
		for k, i := range members {
			g.src[k] = mg.src[i]
			if !lendsOn(mg.src, members, k) {
				g.parts = append(g.parts, mg.lenderOf(i))
			}
		}
	}
	return g, true
}

// lendsOn tells whether the k-th member's rules are the next member's
// (a group that borrows them): counted, compiled and listed once.
func lendsOn(src []*srcGroup, members []int, k int) bool {
	return k+1 < len(members) && sameRules(src[members[k]], src[members[k+1]])
}

// lenderOf returns the written group whose rules, and so matcher, are
// those of written group i: i itself, or the group a run of groups that
// borrow their rules ends with. Sharing the lender's matcher, a file of a
// thousand "User-agent / Crawl-delay" pairs before one long list of rules
// compiles that list once.
func (mg *mergedGroups) lenderOf(i int) *srcGroup {
	for mg.src[i].borrows && i+1 < len(mg.src) {
		i++
	}
	return mg.src[i]
}

func addRules(gb *groupBuilder, rules []*Rule) {
	for _, r := range rules {
		canon := canonicalPattern(r.Pattern, r.Directive == Disallow)
		gb.add(r, canon)
		if r.Directive == Disallow {
			if hasLonePercent(r.Pattern) {
				gb.lonePercent = true
				if holdsUnreservedEscape(r.Pattern) {
					// "/%7E%" matches "/%7E%41" as sent, where its
					// canonical "/~%" cannot.
					gb.add(r, patternForm(r.Pattern, true, true))
				}
			}
			continue
		}
		addIndexRule(gb, r, false, false)
		// Matched escaped in a canonical path, and as Google matches
		// it in a target read as sent (see Group.DecideRaw): raw where
		// it holds a byte URLs carry escaped, where a disallow pattern
		// that holds such a byte raw matches too; with its escapes of
		// unreserved characters kept, where a disallow pattern's lone
		// "%" matches theirs.
		_, raw := rawEscapable(r.Pattern)
		kept := holdsUnreservedEscape(r.Pattern)
		if !raw && !kept {
			continue
		}
		if sent := patternForm(r.Pattern, true, kept); sent != canon {
			gb.add(r, sent)
			addIndexRule(gb, r, true, kept)
		}
	}
}

// addIndexRule follows Google in reading "allow: /dir/index.html" (or
// index.htm, or anything starting so) as also allowing "/dir/" itself,
// the URL that usually serves that page.
func addIndexRule(gb *groupBuilder, r *Rule, raw, kept bool) {
	slash := strings.LastIndexByte(r.Pattern, '/')
	if slash < 0 || !strings.HasPrefix(r.Pattern[slash:], "/index.htm") {
		return
	}
	dir := r.Pattern[:slash+1]
	implied := &Rule{Directive: Allow, Pattern: r.Pattern, Line: r.Line, priority: priority(dir, Allow) + 1}
	gb.add(implied, patternForm(dir, raw, kept)+"$")
}

func upper(c byte) byte {
	if c >= 'a' && c <= 'z' {
		return c - 'a' + 'A'
	}
	return c
}

func lower(c byte) byte {
	if c >= 'A' && c <= 'Z' {
		return c - 'A' + 'a'
	}
	return c
}

// Sitemaps returns the sitemap URLs the file lists, as written.
func (f *File) Sitemaps() []string {
	if f == nil {
		return nil
	}
	return f.sitemaps
}

// Diagnostics returns the parser's findings in line order.
func (f *File) Diagnostics() []Diagnostic {
	if f == nil {
		return nil
	}
	return f.diags
}

// HasErrors reports whether any diagnostic has severity Error.
func (f *File) HasErrors() bool {
	for _, d := range f.Diagnostics() {
		if d.Severity == Error {
			return true
		}
	}
	return false
}

// Counts returns the number of groups and of allow/disallow rules as
// written in the file (before merging). Groups are counted as Google's
// parser reads them: a run of user-agent lines ends only at a rule.
func (f *File) Counts() (groups, rules int) {
	if f == nil {
		return 0, 0
	}
	return f.nGroups, f.nRules
}

// Fields returns the number of lines read as a field robots.txt knows
// (user-agent, allow, disallow, sitemap, crawl-delay, content-signal,
// content-usage, or a common non-standard one). A non-empty body with
// none is probably not a robots.txt at all, such as an HTML error page.
func (f *File) Fields() int {
	if f == nil {
		return 0
	}
	return f.nFields
}

// Size returns the bytes of text the file was parsed from, after any cut
// at the size limit: what the memory it holds is a multiple of.
func (f *File) Size() int {
	if f == nil {
		return 0
	}
	return f.size
}

// Groups returns the distinct groups crawlers can obey, each the merge of
// the file's groups that name the same crawlers, in order of first
// appearance.
func (f *File) Groups() []*Group {
	if f == nil {
		return nil
	}
	return f.groups
}

// Agents returns the distinct agents the file names (not "*"), as first
// spelled: product tokens, and whole names with digits ("MJ12bot").
func (f *File) Agents() []string {
	if f == nil {
		return nil
	}
	names := make([]string, 0, len(f.agents))
	for _, a := range f.agents {
		if !a.implied {
			names = append(names, a.name)
		}
	}
	return names
}

// GroupFor returns the group a crawler whose product token is agent must
// obey: the merge of every group naming agent (case-insensitively); failing
// that, the "*" group; nil when there is none. A token is not a prefix of
// a longer one: "ChatGPT-User" does not obey a "ChatGPT" group, as to
// Google's parser (a crawler whose operator says it obeys another's group,
// as Googlebot-Image obeys googlebot, is the caller's to know).
func (f *File) GroupFor(agent string) *Group {
	if g := f.NamedGroupFor(agent); g != nil || f == nil {
		return g
	}
	return f.global
}

// NamedGroupFor is GroupFor without the fall back to the "*" group: the
// group naming agent; nil when no group names it. "*" names the "*"
// group.
func (f *File) NamedGroupFor(agent string) *Group {
	if f == nil {
		return nil
	}
	if agent == "*" {
		return f.global
	}
	if len(f.agents) == 0 {
		return nil
	}
	n, depth := int32(0), 0
	for {
		c := f.nameChild(n, agent, depth)
		if c < 0 {
			break
		}
		n, depth = c, depth+len(f.names.nodes[c].label)
	}
	// Google's parser reads "User-agent: MJ12bot" as "MJ" and gives the
	// crawler MJ12bot no group by it: its tokens are letters, "-" and "_"
	// only, which Google's own crawlers' are. Crawlers with digits in
	// their names read such a line as theirs, and the operator who wrote
	// it meant them: the name written in full is a name of its own, and
	// "AI2Bot" does not obey an "AI3Bot" group.
	if v := f.names.nodes[n].val; v >= 0 && depth == len(agent) {
		return f.agents[v].group
	}
	return nil
}

// nameChild follows the names trie from node n along s at i, ignoring
// ASCII case (the trie holds lower-cased tokens); -1 when s does not go on
// with a child's label.
func (f *File) nameChild(n int32, s string, i int) int32 {
	if i >= len(s) {
		return -1
	}
	c := f.names.child(n, lower(s[i]))
	if c < 0 {
		return -1
	}
	lab := f.names.nodes[c].label
	if len(s)-i < len(lab) {
		return -1
	}
	for k := 1; k < len(lab); k++ {
		if lower(s[i+k]) != lab[k] {
			return -1
		}
	}
	return c
}

// Allowed reports whether the crawler whose product token is agent may
// fetch url, a full URL or a path. It answers the question
// google/robotstxt's OneAgentAllowedByRobots answers, with GroupFor's
// group selection. The answers differ only where Google compares two
// spellings of one URL byte for byte: a rule "/%62az" matches "/baz" here,
// and a raw non-ASCII URL is encoded before matching (see the package doc).
func (f *File) Allowed(agent, url string) bool {
	return f.GroupFor(agent).Decide(PathFromURL(url)).Allowed
}

// byKey sorts keys and their values together.
type byKey struct {
	keys []string
	vals []int32
}

func (b byKey) Len() int           { return len(b.keys) }
func (b byKey) Less(i, j int) bool { return b.keys[i] < b.keys[j] }
func (b byKey) Swap(i, j int) {
	b.keys[i], b.keys[j] = b.keys[j], b.keys[i]
	b.vals[i], b.vals[j] = b.vals[j], b.vals[i]
}
