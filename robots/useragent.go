package robots

import (
	"slices"
	"strings"
)

// GroupForUserAgent returns the group a client sending this User-Agent
// header must obey, and the file's name for the agent that selected it.
//
// A header is not a product token: "Mozilla/5.0 (compatible; GPTBot/1.1;
// +https://openai.com/gptbot)" must select the GPTBot group. So the file's
// product tokens are looked for inside the header, case-insensitively, where
// a token starts a word (the byte before it is not a letter, digit, "-" or
// "_") and ends one (the byte after it is not a letter, digit, "-" or "_",
// which a product token may hold). The longest token found wins. A token
// is the whole product's: "googlebot" is not found in
// "Googlebot-Image/1.0", nor "ChatGPT" in "ChatGPT-User/1.0", as Google's
// parser, given the crawler's token, does not find them.
//
// Only what can be the client's own product token counts, since that is
// what a crawler reads a file by (Google's parser compares the token with
// each user-agent line and nothing else):
//   - a name in a product's place (RFC 9110's product, or an item of a
//     comment, "compatible; GPTBot/1.1;"): it starts the header or follows
//     white space or one of "();,[+", and it ends the header or comes
//     before a version's "/", one of ";),]" or a comment. Not a version or
//     what follows another product's slash ("Fast" of
//     "Mail.RU_Bot/Fast/2.0"), not the start of a longer name with a dot
//     ("Mail" of "Mail.RU_Bot", which a file's "Mail.RU_Bot" line also
//     means, Google's parser reading it as "Mail"), and not a word that
//     describes something in words ("Microsoft Windows NT 5.1", "java
//     1.7.0_75", "atw-crawler at fast dot no"), which a file listing
//     "Java" or "fast" would otherwise hold a yacybot or Mail.ru's
//     crawler to, nor a word of a comment after another word ("like
//     ExampleBot" of "OtherBot/1.0 (like ExampleBot)": see Describes). The first word of the header, and of the item after
//     "compatible;", is the product's name whatever follows it
//     ("Screaming Frog SEO Spider/21.0", which a file names "Screaming
//     Frog SEO Spider" and Google reads as "Screaming"; "compatible;
//     HTTrack 3.0x;");
//   - not a word of an address: a URL ("+http://www.google.com/bot.html"
//     names no "google" or "bot" group, "https://openai.com/gptbot" no
//     "openai" one), a host name starting "www." or an e-mail address
//     ("claudebot@anthropic.com");
//   - not a token every browser sends (see BrowserToken): a group a file
//     names "Mozilla", often a whole header pasted after "User-agent:",
//     is no crawler's, and would otherwise hold every bot whose header
//     starts with it.
//
// With no token found, the "*" group applies and name is "". It does not
// allocate, and its work is linear in the header's length.
func (f *File) GroupForUserAgent(header string) (g *Group, name string) {
	if f == nil {
		return nil, ""
	}
	best := int32(-1)
	f.namesIn(header, true, func(v int32, _, _ int) { best = v })
	if best < 0 {
		return f.global, ""
	}
	return f.agents[best].group, f.agents[best].name
}

// GroupForUserAgentSkipping is GroupForUserAgent with the names skip
// reports true of left out: a library a crawler names after its own
// product ("chklinks/3.09 libwww-perl/6.72") is how it fetches, not who
// it is, and chooses no group however long its name; of a header that
// names no other, the "*" group applies. skip is given the file's name,
// where the header gives it, and whether that is where a client puts its
// own (its first product, or the item after "compatible;"); it is called
// only for names longer than the best found before. nil skips none.
func (f *File) GroupForUserAgentSkipping(header string, skip func(name string, at int, lead bool) bool) (g *Group, name string) {
	if f == nil {
		return nil, ""
	}
	if skip == nil {
		return f.GroupForUserAgent(header)
	}
	first := firstWord(header)
	best, bestLen := int32(-1), 0
	f.namesIn(header, false, func(v int32, i, n int) {
		if n <= bestLen || skip(f.agents[v].name, i, i == first || afterCompatible(header, i)) {
			return
		}
		best, bestLen = v, n
	})
	if best < 0 {
		return f.global, ""
	}
	return f.agents[best].group, f.agents[best].name
}

// GroupsNamedIn returns the groups other than except whose names header
// names as a product, as GroupForUserAgent finds them, that restrict a
// client (Restricts) and that keep keeps, each once, at most limit of
// them, in the order of the header; of a header that names more, those
// that disallow "/" are kept before the others, so that names put before
// a group that refuses the whole site do not push it out. keep is given
// the file's name, where the header gives it, and whether that is where
// a client puts its own: its first product, or the item after
// "compatible;".
// GroupForUserAgent's group is the one of the longest name; a client
// that has not proven it is the crawler of
// that name may be held to others as well (a header "GPTBot/1.1
// Googlebot/2.1" is GPTBot's as much as Googlebot's).
func (f *File) GroupsNamedIn(header string, limit int, keep func(name string, at int, lead bool) bool, except ...*Group) []*Group {
	if f == nil || limit <= 0 {
		return nil
	}
	first := firstWord(header)
	var out []*Group
	// in finds a group in out once out is too long to scan for each
	// name found, so that the work stays linear in the header's length.
	var in map[*Group]bool
	roots := 0 // how many of out disallow "/"
	f.namesIn(header, false, func(v int32, i, _ int) {
		lead := i == first || afterCompatible(header, i)
		g := f.agents[v].group
		if slices.Contains(except, g) || (in == nil && slices.Contains(out, g) || in[g]) || !g.Restricts() || !keep(f.agents[v].name, i, lead) {
			return
		}
		add := func(g *Group) {
			out = append(out, g)
			if g.disallowsRoot() {
				roots++
			}
			if in != nil {
				in[g] = true
			} else if len(out) >= 16 {
				in = make(map[*Group]bool, 2*len(out))
				for _, o := range out {
					in[o] = true
				}
			}
		}
		if len(out) < limit {
			add(g)
			return
		}
		if !g.disallowsRoot() || roots == len(out) {
			return
		}
		// Full: it takes the place of the last that does not.
		for i := len(out) - 1; i >= 0; i-- {
			if !out[i].disallowsRoot() {
				if in != nil {
					delete(in, out[i])
				}
				out = slices.Delete(out, i, i+1)
				add(g)
				return
			}
		}
	})
	return out
}

// namesIn calls found with each agent of f that header names as a product
// (see GroupForUserAgent), where its name starts and its length, in the
// order of the header: with longer, each name longer than every one found before it,
// so that the last found is the longest (the first of that length);
// without, the longest name found at each place.
func (f *File) namesIn(header string, longer bool, found func(v int32, i, n int)) {
	bestLen := 0
	first := firstWord(header)
	// The word of the header (up to separators) that the last name found
	// stands in, and whether it is an address: a word is looked at once,
	// when a name is first found in it, so the work stays linear.
	wordEnd, inAddress := -1, false
	// The depth of comments at header[counted], brought up to date only
	// for a name found after another word, so that headers naming no
	// agent of the file cost nothing more.
	depth, counted := 0, 0
	for i := 0; i < len(header); i++ {
		if !f.first[header[i]] {
			continue
		}
		if i > first && !OpensProduct(header[i-1]) {
			continue
		}
		here, hereLen := int32(-1), 0
		n, j := int32(0), i
		for {
			c := f.nameChild(n, header, j)
			if c < 0 {
				break
			}
			n, j = c, j+len(f.names.nodes[c].label)
			v := f.names.nodes[n].val
			if v < 0 || longer && j-i <= bestLen || f.agents[v].browser {
				continue
			}
			// A name ends a word: "MJ" of "MJ12bot/1.4" is not the
			// name, but the trie goes on to "mj12bot" if the file
			// names it (see NamedGroupFor).
			if j < len(header) && (isAlnum(header[j]) || header[j] == '_' || header[j] == '-') {
				continue
			}
			if !closesProduct(header, i, j, first) {
				break
			}
			if i >= wordEnd {
				wordEnd, inAddress = addressWord(header, i)
			}
			if inAddress {
				break
			}
			if Describes(header, i) {
				for ; counted < i; counted++ {
					switch header[counted] {
					case '(':
						depth++
					case ')':
						depth = max(depth-1, 0)
					}
				}
				if depth > 0 {
					break // so is every longer name from i
				}
			}
			here, hereLen = v, j-i
			if longer {
				bestLen = hereLen
				found(here, i, hereLen)
			}
		}
		if !longer && here >= 0 {
			found(here, i, hereLen)
		}
	}
}

// firstWord is where the header's first word starts.
func firstWord(header string) int {
	return len(header) - len(strings.TrimLeft(header, " \t"))
}

// Describes reports whether the name at i of a comment follows another
// word of its item, after white space: "like ExampleBot" in
// "OtherBot/1.0 (like ExampleBot)" describes the client in words and is
// not its product, whose token is OtherBot (see GroupForUserAgent). A word
// before it that is a product with a version ("Chrome/120 GPTBot") or ends
// in a sign ("Yahoo! Slurp") leaves the name a product's. The caller knows
// i is inside a comment; the work is the length of the word before i.
func Describes(header string, i int) bool {
	k := i
	for k > 0 && (header[k-1] == ' ' || header[k-1] == '\t') {
		k--
	}
	if k == i || k == 0 || !isAlnum(header[k-1]) {
		return false
	}
	for k > 0 && !isHeaderSeparator(header[k-1]) {
		if header[k-1] == '/' {
			return false
		}
		k--
	}
	return true
}

// OpensProduct reports whether a name after c stands where a product or a
// comment's item starts.
func OpensProduct(c byte) bool {
	switch c {
	case ' ', '\t', '(', ')', ';', ',', '[', '+':
		return true
	}
	return false
}

// closesProduct reports whether the name header[i:j] (j < len is not a
// letter, digit, "-" or "_") ends a product: the header's end, a
// version's slash, the end of a comment's item, or white space before a
// comment, an item's end or the header's end. After white space and
// another word, the name was a word of a description; only the header's
// first word (at first) and the first word after "compatible;" are a
// product whatever follows them.
func closesProduct(header string, i, j, first int) bool {
	if j == len(header) {
		return true
	}
	switch header[j] {
	case '/', ';', ')', ',', ']', '(', '+':
		return true
	case ' ', '\t':
		if i == first || afterCompatible(header, i) {
			return true
		}
		// The run of white space is scanned once: a later name
		// starts after it.
		for j < len(header) && (header[j] == ' ' || header[j] == '\t') {
			j++
		}
		return j == len(header) || header[j] == '(' || header[j] == ';' || header[j] == ')' || header[j] == '['
	}
	return false
}

// afterCompatible reports whether header[i:] starts the item after
// "compatible;", where crawlers write their name, with a version after a
// space as often as after a slash ("compatible; HTTrack 3.0x;",
// "compatible; Exabot PyExalead/3.0;").
func afterCompatible(header string, i int) bool {
	for i > 0 && header[i-1] == ' ' {
		i--
	}
	if i == 0 || header[i-1] != ';' && header[i-1] != ',' {
		return false
	}
	i--
	const word = "compatible"
	return i >= len(word) && strings.EqualFold(header[i-len(word):i], word)
}

// isHeaderSeparator reports whether c separates the words of a User-Agent
// header: products, comments and their parts.
func isHeaderSeparator(c byte) bool {
	switch c {
	case ' ', '\t', '(', ')', ';', ',', '[', ']', '<', '>', '"':
		return true
	}
	return false
}

// addressWord returns the end of the word of header that holds position i
// (the bytes between separators around it), and whether that word is an
// address: a URL ("http://...", "+https://..."), a host name starting
// "www." or an e-mail address ("bot@example.com").
func addressWord(header string, i int) (end int, address bool) {
	start := i
	for start > 0 && !isHeaderSeparator(header[start-1]) {
		start--
	}
	end = i
	for end < len(header) && !isHeaderSeparator(header[end]) {
		end++
	}
	w := header[start:end]
	if strings.Contains(w, "://") || strings.IndexByte(w, '@') >= 0 {
		return end, true
	}
	w = strings.TrimPrefix(w, "+")
	return end, len(w) > 4 && strings.EqualFold(w[:4], "www.")
}

// browserTokens are product tokens every browser of a family sends: the
// engines and platforms, Chrome's, Firefox's and Edge's names on iOS and
// Android, the "Build/" of every Android device.
var browserTokens = map[string]bool{
	"mozilla": true, "applewebkit": true, "khtml": true, "gecko": true,
	"like": true, "chrome": true, "safari": true, "firefox": true,
	"version": true, "mobile": true, "compatible": true, "edg": true,
	"opera": true, "windows": true, "linux": true, "android": true,
	"macintosh": true, "iphone": true, "ipad": true,
	"crios": true, "fxios": true, "edgios": true, "edga": true, "build": true,
	"trident": true, "presto": true, "x11": true, "win64": true, "wow64": true,
	// The platforms browsers write with digits, which a line naming a
	// crawler by its whole name with digits could otherwise name.
	"x64": true, "win32": true, "x86_64": true, "i686": true, "i386": true,
	"amd64": true, "arm64": true, "aarch64": true, "armv7l": true, "armv8l": true,
}

// BrowserToken reports whether token (a product token, in any case) is one
// that every browser of a family sends ("Mozilla", "AppleWebKit",
// "Chrome", "compatible"). No crawler goes by one: a group naming it
// applies to no client by its header (see GroupForUserAgent), and a
// header containing it is not thereby named.
func BrowserToken(token string) bool {
	if len(token) > len("applewebkit") {
		return false
	}
	var buf [len("applewebkit")]byte
	for i := 0; i < len(token); i++ {
		buf[i] = lower(token[i])
	}
	return browserTokens[string(buf[:len(token)])]
}

func isAlnum(c byte) bool {
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
}
