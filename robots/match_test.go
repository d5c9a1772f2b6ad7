package robots

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// decide parses a one-group file for every crawler and decides path.
func decide(t *testing.T, rules, path string) Verdict {
	t.Helper()
	return Parse([]byte("user-agent: *\n" + rules)).GroupFor("anybot").Decide(path)
}

// TestPathTable is Google's table of path patterns (SPEC.md, "Rules and
// URL matching").
func TestPathTable(t *testing.T) {
	for _, tc := range []struct {
		pattern  string
		match    []string
		notMatch []string
	}{
		{"/", []string{"/", "/fish", "/a/b?c=d"}, nil},
		{"/*", []string{"/", "/fish", "/a/b?c=d"}, nil},
		{
			"/fish",
			[]string{"/fish", "/fish.html", "/fish/salmon.html", "/fishheads", "/fishheads/yummy.html", "/fish.php?id=anything"},
			[]string{"/Fish.asp", "/catfish", "/?id=fish", "/desert/fish"},
		},
		{
			"/fish*",
			[]string{"/fish", "/fish.html", "/fish/salmon.html", "/fishheads", "/fishheads/yummy.html", "/fish.php?id=anything"},
			[]string{"/Fish.asp", "/catfish", "/?id=fish", "/desert/fish"},
		},
		{
			"/fish/",
			[]string{"/fish/", "/fish/?id=anything", "/fish/salmon.htm"},
			[]string{"/fish", "/fish.html", "/animals/fish/", "/Fish/Salmon.asp"},
		},
		{
			"/*.php",
			[]string{"/index.php", "/filename.php", "/folder/filename.php", "/folder/filename.php?parameters", "/folder/any.php.file.html", "/filename.php/"},
			[]string{"/", "/windows.PHP"},
		},
		{
			"/*.php$",
			[]string{"/filename.php", "/folder/filename.php"},
			[]string{"/filename.php?parameters", "/filename.php/", "/filename.php5", "/windows.PHP"},
		},
		{
			"/fish*.php",
			[]string{"/fish.php", "/fishheads/catfish.php?parameters"},
			[]string{"/Fish.PHP"},
		},
		// "$" is special only at the end.
		{"/a$b", []string{"/a$b", "/a$bc"}, []string{"/ab", "/a"}},
		{"/a$", []string{"/a"}, []string{"/ab", "/a/"}},
		{"/a*$", []string{"/a", "/abc"}, []string{"/b"}},
		{"/a*b*$", []string{"/ab", "/axbyz"}, []string{"/a", "/ba"}},
		{"/a*b$", []string{"/ab", "/axb", "/abab"}, []string{"/aba", "/a"}},
		{"*/x", []string{"/x", "/a/x", "/a/xy"}, []string{"/", "/y"}},
		// Query strings are part of the match.
		{"/*?sid=", []string{"/a?sid=1", "/?sid="}, []string{"/a?x=1", "/sid="}},
		// A pattern that does not start with "/" or "*" matches nothing.
		{"fish", nil, []string{"/fish", "/fish/"}},
	} {
		for _, p := range tc.match {
			if v := decide(t, "disallow: "+tc.pattern, p); v.Allowed || v.Rule == nil || v.Rule.Pattern != tc.pattern {
				t.Errorf("pattern %q should match %q: got %+v", tc.pattern, p, v)
			}
		}
		for _, p := range tc.notMatch {
			if v := decide(t, "disallow: "+tc.pattern, p); !v.Allowed || v.Rule != nil {
				t.Errorf("pattern %q should not match %q: got allowed=%v rule=%v", tc.pattern, p, v.Allowed, v.Rule)
			}
		}
	}
}

// TestPrecedence is Google's precedence table plus ties and line reporting.
func TestPrecedence(t *testing.T) {
	for _, tc := range []struct {
		name    string
		rules   string
		path    string
		allowed bool
		line    int // 0: no rule matched
	}{
		{"longer allow", "allow: /p\ndisallow: /", "/page", true, 2},
		{"equal length allow wins", "allow: /folder\ndisallow: /folder", "/folder/page", true, 2},
		{"equal length allow wins, other order", "disallow: /folder\nallow: /folder", "/folder/page", true, 3},
		{"longer wildcard disallow", "allow: /page\ndisallow: /*.htm", "/page.htm", false, 3},
		{"root anchored allow", "allow: /$\ndisallow: /", "/", true, 2},
		{"root anchored allow elsewhere", "allow: /$\ndisallow: /", "/page.htm", false, 3},
		{"no rule matches", "disallow: /private", "/public", true, 0},
		{"trailing star counts", "allow: /fish\ndisallow: /fish*", "/fish", false, 3},
		{"first of equal rules reported", "disallow: /a\ndisallow: /a", "/a", false, 2},
		{"empty disallow is no rule", "disallow:", "/anything", true, 0},
		{"empty allow is no rule", "allow:\ndisallow: /", "/x", false, 3},
		{"robots.txt always allowed", "disallow: /", "/robots.txt", true, 0},
		{"robots.txt with query", "disallow: /", "/robots.txt?x", true, 0},
		{"robots.txt prefix is not robots.txt", "disallow: /", "/robots.txt.bak", false, 2},
		{"empty path is root", "disallow: /$", "", false, 2},
		{"index.html allows its directory", "allow: /d/index.html\ndisallow: /d/", "/d/", true, 2},
		{"index.htm allows its directory", "allow: /d/index.htm\ndisallow: /", "/d/", true, 2},
		{"index.html does not allow the directory's pages", "allow: /d/index.html\ndisallow: /d/", "/d/x", false, 3},
		{"disallow index.html does not imply", "disallow: /d/index.html", "/d/", true, 0},
		{"non-ASCII counts as escaped", "allow: /é\ndisallow: /%C3%A9", "/%c3%a9", true, 2},
		{"unreserved escape in pattern", "disallow: /%70rivate", "/private", false, 2},
		{"unreserved escape in path", "disallow: /private", "/%70rivate", false, 2},
		{"reserved escape stays", "disallow: /a/b", "/a%2Fb", true, 0},
		{"encoded star is literal", "disallow: /a%2Ab", "/axb", true, 0},
		{"encoded star matches itself", "disallow: /a%2Ab", "/a%2ab", false, 2},
		{"case matters", "disallow: /Private", "/private", true, 0},
		{"lone percent matches any escape", "disallow: /a%", "/a%20b", false, 2},
		{"lone percent matches an escaped percent", "disallow: /a%", "/a%25", false, 2},
		{"lone percent before one hex digit", "disallow: /a%2", "/a%2Fb", false, 2},
		{"wildcard and lone percent", "disallow: /*%", "/caf%C3%A9", false, 2},
		{"escaped percent is only a percent", "disallow: /a%25", "/a%20b", true, 0},
		// A lone "%" stays "%" in a pattern; the escape after it must not
		// be decoded into hex digits that make an escape with it, which
		// Google's byte-for-byte reading does not see ("/%%41" is not
		// "/%A", a prefix of "/%AB").
		{"escape after a lone percent", "disallow: /%%41", "/%AB", true, 0},
		{"escape after a lone percent and a digit", "disallow: /%2%46", "/%2Fx", true, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v := decide(t, tc.rules, tc.path)
			if v.Allowed != tc.allowed {
				t.Errorf("allowed = %v, want %v (rule %v)", v.Allowed, tc.allowed, v.Rule)
			}
			line := 0
			if v.Rule != nil {
				line = v.Rule.Line
			}
			if line != tc.line {
				t.Errorf("deciding line = %d, want %d (rule %v)", line, tc.line, v.Rule)
			}
		})
	}
}

func TestPercentEncodingEquivalence(t *testing.T) {
	for _, tc := range []struct {
		pattern string
		paths   []string
	}{
		{"/ü", []string{"/ü", "/%C3%BC", "/%c3%bc", "/%C3%bc"}},
		{"/%C3%BC", []string{"/ü", "/%c3%bc"}},
		{"/%c3%bc", []string{"/ü", "/%C3%BC"}},
		{"/a%20b", []string{"/a%20b", "/a b"}},
		{"/~user", []string{"/%7Euser", "/%7euser", "/~user"}},
		{"/%7Euser", []string{"/~user"}},
		{"/日本/*.html$", []string{"/%E6%97%A5%E6%9C%AC/x.html", "/日本/a/b.html"}},
		{"/100%", []string{"/100%25", "/100%"}},
	} {
		for _, p := range tc.paths {
			if v := decide(t, "disallow: "+tc.pattern, p); v.Allowed {
				t.Errorf("pattern %q should match %q", tc.pattern, p)
			}
		}
	}
}

func TestCanonical(t *testing.T) {
	for in, want := range map[string]string{
		"/plain":        "/plain",
		"/%70rivate":    "/private",
		"/%2f":          "/%2F",
		"/%2F":          "/%2F",
		"/é":            "/%C3%A9",
		"/a b":          "/a%20b",
		"/50%":          "/50%25",
		"/50%zz":        "/50%25zz",
		"/a|b":          "/a%7Cb",
		"/a?b=c&d":      "/a?b=c&d",
		"/%7e%7E":       "/~~",
		"/*$":           "/*$",
		"/%41%42%2a":    "/AB%2A",
		"/\x00\x7f\xff": "/%00%7F%FF",
	} {
		if got := Canonical(in); got != want {
			t.Errorf("Canonical(%q) = %q, want %q", in, got, want)
		}
		if !isCanonical(Canonical(in)) {
			t.Errorf("Canonical(%q) = %q is not canonical", in, Canonical(in))
		}
	}
}

func TestPathFromURL(t *testing.T) {
	for in, want := range map[string]string{
		"":                                 "/",
		"http://www.example.com":           "/",
		"http://www.example.com/":          "/",
		"http://www.example.com/a":         "/a",
		"http://www.example.com/a/b?c=d#e": "/a/b?c=d",
		"http://www.example.com?a":         "/?a",
		"http://www.example.com;a":         "/;a",
		"http://www.example.com#a/b":       "/",
		"//www.example.com/a":              "/a",
		"/a/b":                             "/a/b",
		"a/b":                              "/b",
		"www.example.com/a":                "/a",
		"/a?b://c":                         "/a?b://c",
		"https://user:pw@host:8080/p?q":    "/p?q",
	} {
		if got := PathFromURL(in); got != want {
			t.Errorf("PathFromURL(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestDecideNilGroup(t *testing.T) {
	var g *Group
	if v := g.Decide("/anything"); !v.Allowed || v.Rule != nil {
		t.Errorf("nil group: got %+v, want allowed with no rule", v)
	}
}

func TestDecideDoesNotAllocate(t *testing.T) {
	g := Parse([]byte("user-agent: *\ndisallow: /private/\nallow: /private/ok\ndisallow: /*.php$\ndisallow: /*?sid=\n")).GroupFor("x")
	for _, p := range []string{"/private/a", "/private/ok", "/a/b.php", "/a?sid=1", "/%70rivate/a", "/ü/x", "/public"} {
		if n := testing.AllocsPerRun(100, func() { g.Decide(p) }); n != 0 {
			t.Errorf("Decide(%q) allocates %v times", p, n)
		}
	}
}

// TestSortByLit checks compile's radix quicksort against a comparison
// sort, on sets of prefixes that share much, little or all of their bytes,
// with budgets small enough to take the fallback as well.
func TestSortByLit(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	pieces := []string{"", "a", "b", "/", "/section", "ab", "\xff", "z", "/page1/", strings.Repeat("a", 40)}
	for iter := 0; iter < 3000; iter++ {
		n := rng.IntN(200)
		if iter%100 == 0 {
			n = 3000
		}
		pend := make([]pendingRule, n)
		words := 1 + rng.IntN(6)
		for i := range pend {
			var b strings.Builder
			for k := rng.IntN(words); k >= 0; k-- {
				b.WriteString(pieces[rng.IntN(len(pieces))])
			}
			pend[i].lit = b.String()
		}
		got := make([]int32, n)
		for i := range got {
			got[i] = int32(i)
		}
		want := slices.Clone(got)
		slices.SortFunc(want, func(a, b int32) int {
			if c := strings.Compare(pend[a].lit, pend[b].lit); c != 0 {
				return c
			}
			return int(a - b)
		})
		budget := 24
		if iter%3 == 0 {
			budget = rng.IntN(3)
		}
		if sortByLit(got, pend, 0, budget); !slices.Equal(got, want) {
			t.Fatalf("set %d of %d prefixes, budget %d: sorted differently from the comparison sort", iter, n, budget)
		}
	}
}

// TestEscapedUnreservedRanksDecoded: a pattern that spells an unreserved
// character as an escape matches what its plain spelling matches, and
// ranks as that spelling: "Disallow: /%61bc" is "Disallow: /abc", which
// "Allow: /abcd" outranks on /abcd, as Google's reading allows /abcd
// (its "/%61bc" matches no plain URL). Ranked by its written length it
// disallowed /abcd.
func TestEscapedUnreservedRanksDecoded(t *testing.T) {
	for _, tc := range []struct {
		file, path string
		allowed    bool
	}{
		{"User-agent: *\nDisallow: /%61bc\nAllow: /abcd\n", "/abcd", true},
		{"User-agent: *\nDisallow: /%61bc\nAllow: /abcd\n", "/abc", false},
		// An allow written so ranks by its written length, as Google's:
		// where the two readings part, this one allows.
		{"User-agent: *\nAllow: /%61bc\nDisallow: /abcd\n", "/abcd", true},
		{"User-agent: *\nDisallow: /*.pdf$\nAllow: /%7Ejoe/\n", "/%7Ejoe/cv.pdf", true},
		{"User-agent: *\nDisallow: /%7Ejoe/\nAllow: /~joe/pub\n", "/~joe/public", true},
		// Non-ASCII is counted encoded, as Google counts it.
		{"User-agent: *\nDisallow: /ü\nAllow: /abcdef\n", "/ü", false},
	} {
		if got := Parse([]byte(tc.file)).Allowed("x", tc.path); got != tc.allowed {
			t.Errorf("%q on %s: allowed %v, want %v", tc.file, tc.path, got, tc.allowed)
		}
	}
}

// TestRawASCIIInPatternMatchesItself: an ASCII byte a URL carries escaped
// (a space, a quote, "<", "|"...) written raw in a pattern matches no URL
// the escaped way: Google's parser leaves it raw and compares it byte for
// byte with the URL as sent, where a space or a quote is escaped, so to it
// "Disallow: /my folder/" and "Disallow: /*<script" match nothing a client
// sends. Escaped in the pattern, they match as always.
func TestRawASCIIInPatternMatchesItself(t *testing.T) {
	for _, tc := range []struct {
		pattern, path string
		allowed       bool
	}{
		{"/my folder/", "/my%20folder/x", true},
		{"/*<script", "/search?q=%3Cscript%3E", true},
		{"/a|b", "/a%7Cb", true},
		{"/a\"b", "/a%22b", true},
		{"/my%20folder/", "/my%20folder/x", false},
		{"/*%3Cscript", "/search?q=%3cscript%3e", false},
		{"/a%7Cb", "/a%7cb", false},
	} {
		if v := decide(t, "disallow: "+tc.pattern, tc.path); v.Allowed != tc.allowed {
			t.Errorf("pattern %q on %s: allowed %v, want %v", tc.pattern, tc.path, v.Allowed, tc.allowed)
		}
		// The raw spelling is reported, with the escaped one to write.
		raw := hasKind(Parse([]byte("user-agent: *\ndisallow: "+tc.pattern+"\n")), KindRawByte)
		if raw != tc.allowed {
			t.Errorf("pattern %q: raw-byte finding %v, want %v", tc.pattern, raw, tc.allowed)
		}
	}
}

// TestDecideSent: a target read as the client sent it is also matched
// with its raw bytes raw, as Google compares it, so that a disallow
// pattern holding "|" or "^" raw refuses the URL that sends it raw, and
// only that one; an allow pattern holding one allows either spelling,
// and an escape in a pattern still matches both.
func TestDecideSent(t *testing.T) {
	rules := "User-agent: *\nDisallow: /a|b\nDisallow: /c^d\nDisallow: /*?q=x|y\n" +
		"Disallow: /filter\nAllow: /filter?tags=a|b\nDisallow: /sch/*%7C\nDisallow: /my folder/\n"
	g := Parse([]byte(rules)).GroupFor("x")
	for _, tc := range []struct {
		target    string
		decide    bool // Decide, the canonical reading only
		sent      bool // DecideSent
		byPattern string
	}{
		{"/a|b", true, false, "/a|b"},
		{"/a|b/deeper", true, false, "/a|b"},
		{"/a%7Cb", true, true, ""},
		{"/a%7cb", true, true, ""},
		{"/c^d", true, false, "/c^d"},
		{"/s?q=x|y", true, false, "/*?q=x|y"},
		{"/s?q=x%7Cy", true, true, ""},
		{"/filter?tags=a|b", true, true, ""},
		{"/filter?tags=a%7Cb", true, true, ""},
		{"/filter?tags=c|d", false, false, "/filter"},
		{"/sch/a|b", false, false, "/sch/*%7C"},
		{"/sch/a%7Cb", false, false, "/sch/*%7C"},
		{"/my folder/x", true, false, "/my folder/"}, // as to Google; HTTP has no raw space
		{"/my%20folder/x", true, true, ""},
		{"/plain", true, true, ""},
	} {
		if v := g.Decide(tc.target); v.Allowed != tc.decide {
			t.Errorf("Decide(%q): allowed %v, want %v", tc.target, v.Allowed, tc.decide)
		}
		v := g.DecideSent(tc.target)
		if v.Allowed != tc.sent {
			t.Errorf("DecideSent(%q): allowed %v, want %v", tc.target, v.Allowed, tc.sent)
		}
		if !v.Allowed && (v.Rule == nil || v.Rule.Pattern != tc.byPattern) {
			t.Errorf("DecideSent(%q): refused by %v, want the rule %q", tc.target, v.Rule, tc.byPattern)
		}
	}
	var none *Group
	if !none.DecideSent("/a|b").Allowed {
		t.Error("a nil group refuses")
	}
}

// TestLonePercentReadsEscapesAsSent: a "%" that starts no escape in a
// disallow pattern matches the "%" of any escape in the URL as sent, as
// Google compares them byte for byte: "/%7Ejoe/" is refused by
// "Disallow: /*%" though canonical form reads it as "/~joe/". An allow
// pattern written with such an escape matches it in that reading too, as
// in Google's; one written decoded does not, as in Google's. A group
// without such a pattern reads every target canonically.
func TestLonePercentReadsEscapesAsSent(t *testing.T) {
	for _, tc := range []struct {
		name, rules, target string
		sent                bool // DecideSent: allowed
		byPattern           string
	}{
		{"escaped tilde", "Disallow: /*%", "/%7Ejoe/", false, "/*%"},
		{"lower-case escape", "Disallow: /*%", "/%7ejoe/", false, "/*%"},
		{"escaped letter", "Disallow: /*%", "/a%41", false, "/*%"},
		{"escaped letter in the query", "Disallow: /*%", "/a?q=%41", false, "/*%"},
		{"escaped hyphen", "Disallow: /*%", "/x%2D", false, "/*%"},
		{"no escape", "Disallow: /*%", "/~joe/", true, ""},
		{"reserved escape, read so canonically", "Disallow: /*%", "/a%2F", false, "/*%"},
		{"partial escape", "Disallow: /*%7", "/%7Ejoe/", false, "/*%7"},
		{"partial escape, another digit", "Disallow: /*%7", "/%41", true, ""},
		{"escape then lone", "Disallow: /%7E%", "/%7E%41", false, "/%7E%"},
		{"allow written escaped wins", "Disallow: /*%\nAllow: /%7Ejoe/", "/%7Ejoe/", true, ""},
		{"allow written decoded does not", "Disallow: /*%\nAllow: /~joe/", "/%7Ejoe/", false, "/*%"},
		{"index.html written escaped", "Disallow: /*%\nAllow: /%7Ejoe/index.html", "/%7Ejoe/", true, ""},
		{"no lone percent: canonical", "Disallow: /\nAllow: /~joe/", "/%7Ejoe/", true, ""},
		{"no lone percent, escape in the rule", "Disallow: /%7Ejoe", "/%7Ejoe/", false, "/%7Ejoe"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := Parse([]byte("User-agent: *\n" + tc.rules + "\n")).GroupFor("x")
			v := g.DecideSent(tc.target)
			if v.Allowed != tc.sent {
				t.Errorf("DecideSent(%q): allowed %v, want %v", tc.target, v.Allowed, tc.sent)
			}
			if !v.Allowed && (v.Rule == nil || v.Rule.Pattern != tc.byPattern) {
				t.Errorf("DecideSent(%q): refused by %v, want the rule %q", tc.target, v.Rule, tc.byPattern)
			}
		})
	}
}

// TestRawASCIIInAllowMatchesBothSpellings: an allow rule with a byte some
// clients send raw ("|", "^" in a query) matches the request whichever
// way it spells it, so that the exception Google's reading grants a
// client sending it raw is granted here, where the path is escaped.
func TestRawASCIIInAllowMatchesBothSpellings(t *testing.T) {
	f := Parse([]byte("User-agent: *\nDisallow: /filter\nAllow: /filter?tags=a|b\n"))
	for _, p := range []string{"/filter?tags=a|b", "/filter?tags=a%7Cb", "/filter?tags=a%7cb&x"} {
		if !f.Allowed("x", p) {
			t.Errorf("%s is refused: the allow with a raw \"|\" does not match it", p)
		}
	}
	if f.Allowed("x", "/filter?tags=c") {
		t.Error("/filter?tags=c is allowed")
	}
	if hasKind(f, KindRawByte) {
		t.Error("an allow rule's raw byte is reported")
	}
}
