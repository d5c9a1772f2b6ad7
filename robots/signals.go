package robots

import (
	"fmt"
	"slices"
	"strings"
)

// Pref is a stated preference about one use of a site's content.
type Pref uint8

const (
	// Unset means the file states no preference for the use.
	Unset Pref = iota
	// Yes means the file allows the use.
	Yes
	// No means the file disallows the use.
	No
)

func (p Pref) String() string {
	switch p {
	case Unset:
		return "unset"
	case Yes:
		return "yes"
	case No:
		return "no"
	}
	return fmt.Sprintf("pref(%d)", uint8(p))
}

// stricter combines two preferences for one use as
// draft-ietf-aipref-vocab-07, section 5.1, combines statements: any No
// wins, then any Yes, else Unset.
func stricter(a, b Pref) Pref {
	if a == No || b == No {
		return No
	}
	if a == Yes || b == Yes {
		return Yes
	}
	return Unset
}

// Signals are a group's usage preferences for one path: what the site
// says crawlers of the group may do with the content once fetched. See
// the package documentation for where they come from.
type Signals struct {
	// Search is Cloudflare's "search" signal and aipref's "search"
	// category: building a search index and showing links and short
	// excerpts, not AI-generated summaries.
	Search Pref
	// AIInput is Cloudflare's "ai-input" signal: using the content as
	// input to an AI model at answer time (retrieval-augmented
	// generation, grounding). The aipref vocabulary has no category for
	// it, so only a Content-Signal line sets it.
	AIInput Pref
	// AITrain is Cloudflare's "ai-train" signal and aipref's "train-ai"
	// category: training or fine-tuning AI models.
	AITrain Pref
}

// IsZero reports whether no preference is set.
func (s Signals) IsZero() bool { return s == Signals{} }

// stricter combines two statements use by use; see the function stricter.
func (s Signals) stricter(t Signals) Signals {
	return Signals{Search: stricter(s.Search, t.Search), AIInput: stricter(s.AIInput, t.AIInput), AITrain: stricter(s.AITrain, t.AITrain)}
}

// overriddenBy returns s with every preference t sets replacing s's.
func (s Signals) overriddenBy(t Signals) Signals {
	if t.Search != Unset {
		s.Search = t.Search
	}
	if t.AIInput != Unset {
		s.AIInput = t.AIInput
	}
	if t.AITrain != Unset {
		s.AITrain = t.AITrain
	}
	return s
}

// contentUsage holds every Content-Usage header value ContentUsage can
// return, indexed by the AITrain and Search preferences, so that it never
// builds a string.
var contentUsage = [3][3]string{
	Unset: {Unset: "", Yes: "search=y", No: "search=n"},
	Yes:   {Unset: "train-ai=y", Yes: "train-ai=y, search=y", No: "train-ai=y, search=n"},
	No:    {Unset: "train-ai=n", Yes: "train-ai=n, search=y", No: "train-ai=n, search=n"},
}

// ContentUsage returns the value of a Content-Usage HTTP response header
// (draft-ietf-aipref-attach-05, section 2) stating these preferences in the
// vocabulary of draft-ietf-aipref-vocab-07: AITrain as "train-ai" and Search
// as "search", each "y" or "n", as in "train-ai=n, search=y". AIInput has
// no category in that vocabulary and is left out. It returns "" when
// neither AITrain nor Search is set, and does not allocate.
func (s Signals) ContentUsage() string {
	t, q := s.AITrain, s.Search
	if t > No {
		t = Unset
	}
	if q > No {
		q = Unset
	}
	return contentUsage[t][q]
}

// usageRule is one Content-Usage line of a group: its path pattern as a
// Rule the group's usage matcher can rank, and the preferences it states.
type usageRule struct {
	rule  Rule
	prefs Signals
}

// usagePrefs returns the preferences of the usage rule r of s.
func (s *srcGroup) usagePrefs(r *Rule) Signals {
	i, ok := slices.BinarySearchFunc(s.usage, r.Line, func(u usageRule, line int) int { return u.rule.Line - line })
	if !ok {
		return Signals{}
	}
	return s.usage[i].prefs
}

// compileUsage builds the matcher of a group's Content-Usage paths. Lines
// with the same canonical path are combined first, as
// draft-ietf-aipref-attach-05, section 3.1, asks, into the earliest of
// them, which is the one the matcher reports among equals.
func (s *srcGroup) compileUsage(gb *groupBuilder) {
	if len(s.usage) == 0 {
		return
	}
	first := make(map[string]int, len(s.usage))
	gb.reset()
	for i := range s.usage {
		u := &s.usage[i]
		canon := canonicalPattern(u.rule.Pattern, false)
		if j, ok := first[canon]; ok {
			s.usage[j].prefs = s.usage[j].prefs.stricter(u.prefs)
			continue
		}
		first[canon] = i
		gb.add(&u.rule, canon)
	}
	m := gb.compile()
	s.um = &m
}

// Signals returns the usage preferences the group states for a path (with
// its query, if any; "" is "/"). A group's Content-Signal lines give the
// preferences for every path; the group's Content-Usage line whose path
// matches best then overrides each preference it sets. Content-Usage paths
// match as allow and disallow patterns do, the longest one winning; a line
// without a path applies to "/". The path-scoped line wins because it is
// the more specific statement, and the aipref one the IETF is
// standardizing: "Content-Signal: ai-train=no" with "Content-Usage:
// /open/ train-ai=y" opens /open/ to training, which taking the stricter
// of the two would make impossible to say.
//
// A group merged from several groups of the file combines their
// Content-Signal lines and ranks their Content-Usage lines together; where
// two statements conflict the stricter applies (No over Yes over Unset),
// as draft-ietf-aipref-vocab-07, section 5.1, combines preferences.
//
// Signals does not consult allow and disallow rules: the draft attaches no
// preference to a path crawlers may not fetch, so callers should ask only
// for paths Decide allows. A nil Group states nothing. Signals does not
// allocate for paths of up to 1,024 bytes.
func (g *Group) Signals(pathAndQuery string) Signals {
	if g == nil {
		return Signals{}
	}
	if !g.hasUsage {
		return g.signal
	}
	if pathAndQuery == "" {
		pathAndQuery = "/"
	}
	if !isCanonical(pathAndQuery) {
		return g.signalsCanonicalized(pathAndQuery)
	}
	return g.signals(bytesOf(pathAndQuery))
}

// SignalsOf is Signals for a URL's path and query given apart, as a
// request holds them (url.URL's RawQuery and ForceQuery): the query is
// part of the match, as it is for Decide, and joining the two would
// allocate. It does not allocate for a path and query of up to 1,024
// bytes.
func (g *Group) SignalsOf(path, rawQuery string, forceQuery bool) Signals {
	if rawQuery == "" && !forceQuery || g == nil || !g.hasUsage {
		return g.Signals(path)
	}
	return g.signalsJoined(path, rawQuery)
}

//go:noinline
func (g *Group) signalsJoined(path, rawQuery string) Signals {
	if path == "" {
		path = "/"
	}
	// Canonical form is byte by byte but for escapes, and no escape
	// spans the "?": the parts may be made canonical one by one.
	var buf [1024]byte
	b := append(appendCanonical(buf[:0], path), '?')
	return g.signals(appendCanonical(b, rawQuery))
}

//go:noinline
func (g *Group) signalsCanonicalized(pathAndQuery string) Signals {
	var buf [1024]byte
	return g.signals(appendCanonical(buf[:0], pathAndQuery))
}

func (g *Group) signals(p []byte) Signals {
	var best *Rule
	var prefs Signals
	// One try for all the written groups' usage matchers: see wildTry.
	try := newWildTry(p, nil)
	for _, s := range g.src {
		if s.um == nil {
			continue
		}
		r := s.um.bestWith(p, &try, nil)
		switch {
		case r == nil:
		case best == nil || r.priority > best.priority:
			best, prefs = r, s.usagePrefs(r)
		case r.priority == best.priority:
			prefs = prefs.stricter(s.usagePrefs(r))
		}
	}
	try.done()
	if best == nil {
		return g.signal
	}
	return g.signal.overriddenBy(prefs)
}

// parseContentSignal reads the value of a Content-Signal line, Cloudflare's
// Content Signals Policy (contentsignals.org, CC0): comma-separated
// key=value entries, the keys search, ai-input and ai-train, each yes or
// no. Cloudflare's managed robots.txt also writes a "use" entry (immediate,
// reference or full); it is checked and not kept. Keys and values are read
// case-insensitively and white space around entries, keys and values is
// ignored. An entry in error is ignored, and reported; the others count.
// A value that starts with a path ("/blog/ ai-train=no", which the policy
// does not define) is ignored whole, and reported.
func (p *parser) parseContentSignal(num int, value string) Signals {
	var s Signals
	if value == "" {
		p.diag(num, Warning, KindBadContentSignal, "content-signal has no value; write entries such as \"search=yes, ai-input=no, ai-train=no\"")
		return s
	}
	if value[0] == '/' {
		// The policy has no path: taking the entries after one for the
		// whole group would widen what the line says of a path to
		// every path.
		p.diag(num, Warning, KindBadContentSignal, "content-signal %q starts with a path, which the Content Signals Policy does not define; the line is ignored (a path's preferences are written \"Content-Usage: /path/ train-ai=n\")", value)
		return s
	}
	for entry := range strings.SplitSeq(value, ",") {
		entry = trimASCIISpace(entry)
		if entry == "" {
			continue
		}
		eq := strings.IndexByte(entry, '=')
		if eq < 0 {
			p.diag(num, Warning, KindBadContentSignal, "content-signal entry %q is not key=value; ignored (write e.g. \"ai-train=no\")", entry)
			continue
		}
		key, val := trimASCIISpace(entry[:eq]), trimASCIISpace(entry[eq+1:])
		var pref *Pref
		switch strings.ToLower(key) {
		case "search":
			pref = &s.Search
		case "ai-input":
			pref = &s.AIInput
		case "ai-train":
			pref = &s.AITrain
		case "use":
			switch strings.ToLower(val) {
			case "immediate", "reference", "full":
			default:
				p.diag(num, Warning, KindBadContentSignal, "content-signal use=%q is not immediate, reference or full; ignored", val)
			}
			continue
		default:
			p.diag(num, Warning, KindBadContentSignal, "unknown content signal %q; ignored (the signals are search, ai-input and ai-train)", key)
			continue
		}
		var v Pref
		switch strings.ToLower(val) {
		case "yes":
			v = Yes
		case "no":
			v = No
		case "y", "n":
			p.diag(num, Warning, KindBadContentSignal, "content-signal %s=%s: the values are yes and no (y and n are Content-Usage's); ignored", key, val)
			continue
		default:
			p.diag(num, Warning, KindBadContentSignal, "content-signal %s=%q is not yes or no; ignored", key, val)
			continue
		}
		*pref = stricter(*pref, v)
	}
	return s
}

// retiredLabels are aipref labels that earlier drafts of the vocabulary
// defined and draft-ietf-aipref-vocab-07 no longer does; files still use
// them.
var retiredLabels = map[string]string{
	"train-genai": "draft-ietf-aipref-vocab-02 and -03",
	"ai-use":      "draft-ietf-aipref-vocab-02",
	"all":         "draft-ietf-aipref-vocab-02",
	"bots":        "draft-ietf-aipref-vocab-03 and -04",
	"ai-output":   "draft-ietf-aipref-vocab-04",
	"tdm":         "draft-ietf-aipref-vocab-01",
	"ai":          "draft-ietf-aipref-vocab-01",
	"genai":       "draft-ietf-aipref-vocab-01",
	"inference":   "draft-ietf-aipref-vocab-01",
}

// parseContentUsage reads the value of a Content-Usage line
// (draft-ietf-aipref-attach-05, section 3): an optional path, which starts
// with "/" and ends at the first space or tab, then a statement of
// preference, a Structured Fields Dictionary (RFC 9651) whose keys are the
// labels of draft-ietf-aipref-vocab-07 (train-ai, search) with the tokens
// y or n. A statement that does not parse states nothing; unknown labels,
// values other than y and n, and parameters are ignored, as the vocabulary
// draft says (sections 6.4 and 6.5). A line without a path has the path
// "/".
func (p *parser) parseContentUsage(num int, value string) (path string, s Signals) {
	path, prefs := "/", value
	if value != "" && value[0] == '/' {
		i := strings.IndexAny(value, " \t")
		if i < 0 {
			p.diag(num, Warning, KindBadContentUsage, "content-usage %q has a path but no preferences; write e.g. \"%s train-ai=n\"", value, value)
			return value, s
		}
		path, prefs = value[:i], trimASCIISpace(value[i:])
	}
	if prefs == "" {
		p.diag(num, Warning, KindBadContentUsage, "content-usage has no preferences; write e.g. \"train-ai=n, search=y\"")
		return path, s
	}
	var bad []string
	err := parseDictionary(prefs, func(key string, token string, isToken bool) {
		var pref *Pref
		switch key {
		case "train-ai":
			pref = &s.AITrain
		case "search":
			pref = &s.Search
		default:
			if from, ok := retiredLabels[key]; ok {
				bad = append(bad, fmt.Sprintf("label %q is from %s and no longer defined; ignored (the labels are train-ai and search)", key, from))
			} else {
				bad = append(bad, fmt.Sprintf("unknown label %q; ignored (the labels are train-ai and search)", key))
			}
			return
		}
		// As in Structured Fields, a later member replaces an earlier
		// one with the same key.
		switch {
		case isToken && token == "y":
			*pref = Yes
		case isToken && token == "n":
			*pref = No
		default:
			*pref = Unset
			bad = append(bad, fmt.Sprintf("%s has no y or n token value, so its preference is unknown", key))
		}
	})
	if err != "" {
		hint := ""
		if value[0] == '*' {
			hint = "; a path must start with \"/\""
		}
		p.diag(num, Warning, KindBadContentUsage, "content-usage %q is not a Structured Fields dictionary (%s)%s, so it states no preference", prefs, err, hint)
		return path, Signals{}
	}
	for _, b := range bad {
		p.diag(num, Warning, KindBadContentUsage, "content-usage: %s", b)
	}
	return path, s
}

// parseDictionary parses s as a Structured Fields Dictionary (RFC 9651,
// section 4.2.2) and calls member for each member with its key and, when
// its value is a Token, the token; a value may be an Item or an Inner
// List. Parameters are checked and dropped. It returns "" or what makes s
// not a dictionary.
func parseDictionary(s string, member func(key, token string, isToken bool)) string {
	i := 0
	for i < len(s) {
		if c := s[i]; !(c >= 'a' && c <= 'z') && c != '*' {
			if c >= 'A' && c <= 'Z' {
				return fmt.Sprintf("key at %q has upper-case letters; keys are lower case", s[i:])
			}
			return fmt.Sprintf("expected a key at %q", s[i:])
		}
		k := i
		for i < len(s) && isKeyChar(s[i]) {
			i++
		}
		key := s[k:i]
		token, isToken := "", false
		if i < len(s) && s[i] == '=' {
			i++
			start := i
			var err string
			if i < len(s) && s[i] == '(' {
				// A member's value is an Item or an Inner List
				// (RFC 9651, section 4.2.2): a list is no token, so
				// its key's preference is unknown, but the others
				// still count.
				i, err = skipInnerList(s, i)
			} else {
				i, err = skipBareItem(s, i)
			}
			if err != "" {
				return err
			}
			if c := s[start]; (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '*' {
				token, isToken = s[start:i], true
			}
		}
		var err string
		if i, err = skipParameters(s, i); err != "" {
			return err
		}
		member(key, token, isToken)
		for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
			i++
		}
		if i == len(s) {
			return ""
		}
		if s[i] != ',' {
			return fmt.Sprintf("expected \",\" at %q", s[i:])
		}
		i++
		for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
			i++
		}
		if i == len(s) {
			return "it ends with a comma"
		}
	}
	return ""
}

func isKeyChar(c byte) bool {
	return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '-' || c == '.' || c == '*'
}

func isTchar(c byte) bool {
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || strings.IndexByte("!#$%&'*+-.^_`|~", c) >= 0
}

// skipParameters skips the parameters (";key[=item]"...) at s[i:].
func skipParameters(s string, i int) (int, string) {
	for i < len(s) && s[i] == ';' {
		i++
		for i < len(s) && s[i] == ' ' {
			i++
		}
		if i == len(s) || !((s[i] >= 'a' && s[i] <= 'z') || s[i] == '*') {
			return i, "a parameter has no lower-case key"
		}
		for i < len(s) && isKeyChar(s[i]) {
			i++
		}
		if i < len(s) && s[i] == '=' {
			var err string
			if i, err = skipBareItem(s, i+1); err != "" {
				return i, err
			}
		}
	}
	return i, ""
}

// skipInnerList skips the Inner List (RFC 9651, section 4.2.1.2) at
// s[i:], which starts with "(", up to its parameters.
func skipInnerList(s string, i int) (int, string) {
	for i++; ; {
		for i < len(s) && s[i] == ' ' {
			i++
		}
		if i == len(s) {
			return i, "an inner list is not closed"
		}
		if s[i] == ')' {
			return i + 1, ""
		}
		var err string
		if i, err = skipBareItem(s, i); err != "" {
			return i, err
		}
		if i, err = skipParameters(s, i); err != "" {
			return i, err
		}
		if i < len(s) && s[i] != ' ' && s[i] != ')' {
			return i, fmt.Sprintf("expected \" \" or \")\" in an inner list at %q", s[i:])
		}
	}
}

// skipBareItem skips the bare item (RFC 9651, section 4.2.3.1) at s[i:].
func skipBareItem(s string, i int) (int, string) {
	if i == len(s) {
		return i, "a value is missing after \"=\""
	}
	switch c := s[i]; {
	case c == '-' || (c >= '0' && c <= '9'):
		return skipNumber(s, i)
	case c == '"':
		for i++; i < len(s); i++ {
			switch c := s[i]; {
			case c == '\\':
				if i+1 == len(s) || (s[i+1] != '"' && s[i+1] != '\\') {
					return i, "a string has a bad escape"
				}
				i++
			case c == '"':
				return i + 1, ""
			case c < 0x20 || c > 0x7e:
				return i, "a string has a character that is not printable ASCII"
			}
		}
		return i, "a string is not closed"
	case (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '*':
		for i++; i < len(s) && (isTchar(s[i]) || s[i] == ':' || s[i] == '/'); i++ {
		}
		return i, ""
	case c == ':':
		for i++; i < len(s); i++ {
			c := s[i]
			if c == ':' {
				return i + 1, ""
			}
			if !((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '+' || c == '/' || c == '=') {
				return i, "a byte sequence has a character that is not base64"
			}
		}
		return i, "a byte sequence is not closed"
	case c == '?':
		if i+1 < len(s) && (s[i+1] == '0' || s[i+1] == '1') {
			return i + 2, ""
		}
		return i, "a boolean is not ?0 or ?1"
	case c == '@':
		return skipNumber(s, i+1)
	case c == '%':
		if i+1 == len(s) || s[i+1] != '"' {
			return i, "a display string does not start with %\""
		}
		for i += 2; i < len(s); i++ {
			switch c := s[i]; {
			case c == '"':
				return i + 1, ""
			case c == '%':
				if i+2 >= len(s) || !isLowerHex(s[i+1]) || !isLowerHex(s[i+2]) {
					return i, "a display string has a bad escape"
				}
				i += 2
			case c < 0x20 || c > 0x7e:
				return i, "a display string has a character that is not printable ASCII"
			}
		}
		return i, "a display string is not closed"
	}
	return i, fmt.Sprintf("%q is not a value", s[i:])
}

func isLowerHex(c byte) bool { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') }

// skipNumber skips an Integer or Decimal at s[i:].
func skipNumber(s string, i int) (int, string) {
	if i < len(s) && s[i] == '-' {
		i++
	}
	start := i
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	intDigits := i - start
	if intDigits == 0 {
		return i, "a number has no digits"
	}
	if i < len(s) && s[i] == '.' {
		i++
		f := i
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
		if intDigits > 12 || i-f < 1 || i-f > 3 {
			return i, "a decimal is out of range"
		}
		return i, ""
	}
	if intDigits > 15 {
		return i, "an integer is out of range"
	}
	return i, ""
}
