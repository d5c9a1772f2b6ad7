package robots

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// sig builds Signals from a compact spelling: search, ai-input, ai-train,
// each "y", "n" or "-".
func sig(s string) Signals {
	p := func(c byte) Pref {
		switch c {
		case 'y':
			return Yes
		case 'n':
			return No
		}
		return Unset
	}
	return Signals{Search: p(s[0]), AIInput: p(s[1]), AITrain: p(s[2])}
}

func signalDiags(f *File) []Diagnostic {
	var out []Diagnostic
	for _, d := range f.Diagnostics() {
		if d.Kind == KindBadContentSignal || d.Kind == KindBadContentUsage || d.Kind == KindRuleOutsideGroup {
			out = append(out, d)
		}
	}
	return out
}

func TestParseContentSignal(t *testing.T) {
	for _, tc := range []struct {
		name  string
		line  string
		want  string // search, ai-input, ai-train
		diags []string
	}{
		{"all three", "search=yes, ai-input=no, ai-train=no", "ynn", nil},
		{"Cloudflare's managed default", "search=yes,ai-train=no", "y-n", nil},
		{"with use", "search=yes,ai-train=no,use=reference", "y-n", nil},
		{"case and spaces", " Search = YES ,AI-Train=No ", "y-n", nil},
		{"trailing comma", "ai-input=yes,", "-y-", nil},
		{"a key twice: the stricter", "ai-train=yes, ai-train=no", "--n", nil},
		{"unknown key", "search=yes, ai-training=no", "y--", []string{`unknown content signal "ai-training"|search, ai-input and ai-train`}},
		{"y and n are not its values", "ai-train=n", "---", []string{"values are yes and no"}},
		{"value not yes or no", "search=maybe", "---", []string{`search="maybe" is not yes or no`}},
		{"no equals sign", "search", "---", []string{`entry "search" is not key=value`}},
		{"empty", "", "---", []string{"has no value"}},
		{"bad use", "use=everything, search=no", "n--", []string{"is not immediate, reference or full"}},
		{"a path is not the policy's", "/blog/ ai-train=no, ai-input=no, search=yes", "---", []string{`starts with a path|Content-Usage: /path/`}},
		{"a path alone", "/blog/", "---", []string{"starts with a path"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := Parse([]byte("User-agent: *\nContent-Signal: " + tc.line + "\nAllow: /\n"))
			if got := f.GroupFor("bot").Signals("/"); got != sig(tc.want) {
				t.Errorf("Signals = %+v, want %+v", got, sig(tc.want))
			}
			ds := signalDiags(f)
			if len(ds) != len(tc.diags) {
				t.Fatalf("diagnostics = %v, want %d", ds, len(tc.diags))
			}
			for i, d := range ds {
				if d.Kind != KindBadContentSignal || d.Severity != Warning || d.Line != 2 {
					t.Errorf("diagnostic %v: want a warning of kind %s on line 2", d, KindBadContentSignal)
				}
				for _, part := range strings.Split(tc.diags[i], "|") {
					if !strings.Contains(d.Message, part) {
						t.Errorf("message %q lacks %q", d.Message, part)
					}
				}
			}
		})
	}
}

func TestParseContentUsage(t *testing.T) {
	for _, tc := range []struct {
		name  string
		line  string
		path  string // "" for no path
		want  string
		diags []string
	}{
		{"draft example", "train-ai=n", "", "--n", nil},
		{"both labels", "train-ai=y, search=n", "", "n-y", nil},
		{"path", "/docs/ train-ai=n", "/docs/", "--n", nil},
		{"path and tab", "/docs/\t search=y", "/docs/", "y--", nil},
		{"parameters are ignored", "train-ai=n;note=\"x\", search=y;q=1.5", "", "y-n", nil},
		{"later member wins", "train-ai=y, train-ai=n", "", "--n", nil},
		{"other values are unknown", "train-ai=?1, search=y", "", "y--", []string{"train-ai has no y or n token value"}},
		{"a bare key is true, not y", "train-ai", "", "---", []string{"train-ai has no y or n token value"}},
		{"a string is not a token", `search="y"`, "", "---", []string{"search has no y or n token value"}},
		{"an inner list is a value, not a token", "train-ai=(y), search=y", "", "y--", []string{"train-ai has no y or n token value"}},
		{"an extension's inner list leaves the rest", "ext=(a b);p, train-ai=n", "", "--n", []string{`unknown label "ext"`}},
		{"retired label", "train-genai=n, search=y", "", "y--", []string{`"train-genai" is from draft-ietf-aipref-vocab-02 and -03`}},
		{"unknown label", "ai-train=n", "", "---", []string{`unknown label "ai-train"|train-ai and search`}},
		{"upper case", "Train-AI=n", "", "---", []string{"not a Structured Fields dictionary|lower case"}},
		{"trailing comma", "train-ai=n,", "", "---", []string{"ends with a comma"}},
		{"Content-Signal's syntax", "train-ai=no search=yes", "", "---", []string{`expected ","`}},
		{"path without preferences", "/docs/", "/docs/", "---", []string{"has a path but no preferences"}},
		{"empty", "", "", "---", []string{"has no preferences"}},
		{"wildcard path", "*.pdf train-ai=n", "", "---", []string{`a path must start with "/"`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := Parse([]byte("User-agent: *\nAllow: /\nContent-Usage: " + tc.line + "\n"))
			path := tc.path
			if path == "" {
				path = "/"
			}
			if got := f.GroupFor("bot").Signals(path + "x"); got != sig(tc.want) {
				t.Errorf("Signals(%q) = %+v, want %+v", path+"x", got, sig(tc.want))
			}
			if tc.path != "" {
				if got := f.GroupFor("bot").Signals("/elsewhere"); !got.IsZero() {
					t.Errorf("a path-scoped line set %+v outside its path", got)
				}
			}
			ds := signalDiags(f)
			if len(ds) != len(tc.diags) {
				t.Fatalf("diagnostics = %v, want %d", ds, len(tc.diags))
			}
			for i, d := range ds {
				if d.Kind != KindBadContentUsage || d.Severity != Warning || d.Line != 3 {
					t.Errorf("diagnostic %v: want a warning of kind %s on line 3", d, KindBadContentUsage)
				}
				for _, part := range strings.Split(tc.diags[i], "|") {
					if !strings.Contains(d.Message, part) {
						t.Errorf("message %q lacks %q", d.Message, part)
					}
				}
			}
		})
	}
}

func TestSignalFieldsAreKnown(t *testing.T) {
	f := Parse([]byte("User-agent: *\nContent-Signal: search=yes\nContent-Usage: train-ai=n\n"))
	if got := f.Fields(); got != 3 {
		t.Errorf("Fields() = %d, want 3", got)
	}
	if hasKind(f, KindUnknownField) || len(f.Diagnostics()) != 0 {
		t.Errorf("valid signal lines reported: %v", f.Diagnostics())
	}
	// A file of nothing but a content signal is a robots.txt.
	if !Parse([]byte("content-signal: ai-train=no\n")).LooksLikeRobotsTxt() {
		t.Error("a lone Content-Signal line does not look like a robots.txt")
	}
}

func TestSignalGroupAttribution(t *testing.T) {
	for _, tc := range []struct {
		name   string
		body   string
		groups [][]string
		want   map[string]string // agent -> signals at "/"
	}{
		{
			name:   "each group its own",
			body:   "User-agent: *\nContent-Signal: search=yes, ai-train=no\nAllow: /\n\nUser-agent: GPTBot\nContent-Signal: ai-train=yes\nDisallow: /private/\n",
			groups: [][]string{{"*"}, {"GPTBot"}},
			want:   map[string]string{"other": "y-n", "gptbot": "--y"},
		},
		{
			// Only allow and disallow end a run of user-agent lines, as in
			// Google's parser, and both agents get its rules; but Google
			// reads no signal, and the signal is the earlier agent's.
			name:   "between two user-agent lines",
			body:   "User-agent: a\nContent-Signal: ai-train=no\nUser-agent: b\nDisallow: /x\n",
			groups: [][]string{{"a"}, {"b"}},
			want:   map[string]string{"a": "--n", "b": "---", "c": "---"},
		},
		{
			// Content-Usage is path-scoped and written with its group's
			// rules; it stays with the group Google's reading makes.
			name:   "content-usage between two user-agent lines",
			body:   "User-agent: a\nContent-Usage: train-ai=n\nUser-agent: b\nDisallow: /x\n",
			groups: [][]string{{"a", "b"}},
			want:   map[string]string{"a": "--n", "b": "--n"},
		},
		{
			name:   "after the rules, before the next group",
			body:   "User-agent: a\nDisallow: /x\nContent-Signal: search=no\nUser-agent: b\nDisallow: /y\n",
			groups: [][]string{{"a"}, {"b"}},
			want:   map[string]string{"a": "n--", "b": "---"},
		},
		{
			name:   "before any user-agent line",
			body:   "Content-Signal: ai-train=no\nContent-Usage: train-ai=n\nUser-agent: *\nAllow: /\n",
			groups: [][]string{{"*"}},
			want:   map[string]string{"a": "---"},
		},
		{
			// An agent named in two groups obeys their merge: the
			// stricter preference of the two wins.
			name:   "merged groups",
			body:   "User-agent: a\nContent-Signal: search=yes, ai-train=yes\nDisallow: /x\n\nUser-agent: b\nUser-agent: a\nContent-Signal: ai-train=no, ai-input=yes\nDisallow: /y\n",
			groups: [][]string{{"a"}, {"b"}},
			want:   map[string]string{"a": "yyn", "b": "-yn"},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := Parse([]byte(tc.body))
			if got := agentsOf(f); !reflect.DeepEqual(got, tc.groups) {
				t.Errorf("groups = %v, want %v", got, tc.groups)
			}
			for agent, want := range tc.want {
				if got := f.GroupFor(agent).Signals("/"); got != sig(want) {
					t.Errorf("%s: Signals = %+v, want %+v", agent, got, sig(want))
				}
			}
		})
	}
	f := Parse([]byte("Content-Signal: ai-train=no\nUser-agent: *\nAllow: /\n"))
	if ds := signalDiags(f); len(ds) != 1 || ds[0].Kind != KindRuleOutsideGroup || ds[0].Severity != Warning || !strings.Contains(ds[0].Message, `"User-agent: *"`) {
		t.Errorf("a signal before any group: diagnostics %v", ds)
	}
}

func TestSignalsPrecedence(t *testing.T) {
	body := `User-agent: *
Content-Signal: search=yes, ai-input=no, ai-train=no
Content-Usage: search=n
Content-Usage: /open/ train-ai=y
Content-Usage: /open/closed/ train-ai=n
Content-Usage: /*.pdf$ search=y, train-ai=y
Content-Usage: /same/ train-ai=y
Content-Usage: /same/ train-ai=n, search=y
Content-Usage: /%7Euser/ train-ai=y
Content-Usage: /unknown/ train-genai=y
Content-Usage: /a|b/ train-ai=y
Allow: /
`
	g := Parse([]byte(body)).GroupFor("anybot")
	for _, tc := range []struct{ path, want string }{
		// The pathless Content-Usage is "/": it overrides search.
		{"/", "nnn"},
		{"", "nnn"},
		{"/page", "nnn"},
		// The longest path wins alone, and overrides only what it sets:
		// the "/" line's search=n does not apply under /open/.
		{"/open/a", "yny"},
		{"/open/closed/a", "ynn"},
		{"/open/closed", "yny"},
		// Wildcards and "$" as in allow and disallow.
		{"/x/a.pdf", "yny"},
		{"/x/a.pdf?q", "nnn"},
		// Lines with one path combine: the stricter wins.
		{"/same/x", "ynn"},
		// Paths are compared canonically.
		{"/~user/x", "yny"},
		{"/%7euser/x", "yny"},
		// A byte clients send raw or escaped ("|") matches both.
		{"/a|b/x", "yny"},
		{"/a%7Cb/x", "yny"},
		// A best match stating nothing known overrides nothing, and
		// hides the shorter "/" line, as the draft's longest match says.
		{"/unknown/x", "ynn"},
	} {
		want := sig(tc.want)
		if got := g.Signals(tc.path); got != want {
			t.Errorf("Signals(%q) = %+v, want %+v", tc.path, got, want)
		}
	}
	var nilGroup *Group
	if !nilGroup.Signals("/").IsZero() {
		t.Error("a nil group states preferences")
	}
	if s := Parse([]byte("User-agent: *\nDisallow: /x\n")).GroupFor("a").Signals("/"); !s.IsZero() {
		t.Errorf("a group without signal lines states %+v", s)
	}
}

func TestSignalsMergedContentUsage(t *testing.T) {
	// a obeys both groups: their Content-Usage lines are ranked together.
	body := "User-agent: a\nContent-Usage: /docs/ train-ai=y\nContent-Usage: /d/ search=y\nDisallow: /x\n\n" +
		"User-agent: a\nUser-agent: b\nContent-Usage: /docs/api/ train-ai=n\nContent-Usage: /docs/ search=n\nDisallow: /y\n"
	f := Parse([]byte(body))
	a, b := f.GroupFor("a"), f.GroupFor("b")
	for _, tc := range []struct {
		g          *Group
		path, want string
	}{
		{a, "/docs/x", "n-y"},     // same path in two parts: both, each its own key
		{a, "/docs/api/x", "--n"}, // the longest across parts
		{a, "/d/x", "y--"},
		{b, "/docs/x", "n--"},
		{b, "/d/x", "---"},
	} {
		if got := tc.g.Signals(tc.path); got != sig(tc.want) {
			t.Errorf("%v Signals(%q) = %+v, want %+v", tc.g.Agents, tc.path, got, sig(tc.want))
		}
	}
}

func TestContentUsageHeader(t *testing.T) {
	for _, tc := range []struct {
		s    Signals
		want string
	}{
		{Signals{}, ""},
		{Signals{AIInput: No}, ""},
		{Signals{AITrain: No}, "train-ai=n"},
		{Signals{Search: Yes}, "search=y"},
		{Signals{Search: Yes, AITrain: No, AIInput: No}, "train-ai=n, search=y"},
		{Signals{Search: No, AITrain: Yes}, "train-ai=y, search=n"},
		{Signals{Search: Pref(9), AITrain: Pref(9)}, ""},
	} {
		if got := tc.s.ContentUsage(); got != tc.want {
			t.Errorf("%+v.ContentUsage() = %q, want %q", tc.s, got, tc.want)
		}
		// What it writes reads back as it was meant.
		if h := tc.s.ContentUsage(); h != "" {
			f := Parse([]byte("User-agent: *\nContent-Usage: " + h + "\n"))
			got := f.GroupFor("a").Signals("/")
			want := Signals{Search: tc.s.Search, AITrain: tc.s.AITrain}
			if got != want || len(f.Diagnostics()) != 0 {
				t.Errorf("Content-Usage: %s reads back as %+v (%v), want %+v", h, got, f.Diagnostics(), want)
			}
		}
	}
	if Yes.String() != "yes" || No.String() != "no" || Unset.String() != "unset" || Pref(7).String() != "pref(7)" {
		t.Error("Pref.String")
	}
}

func TestParseDictionary(t *testing.T) {
	for _, tc := range []struct {
		in   string
		ok   bool
		keys string
	}{
		{"a=1, b=-2.5, c=\"x\\\"y\", d=:aGk=:, e=?0, f=@1700000000, g=%\"caf%c3%a9\", h", true, "a b c d e f g h"},
		{"a=tok/en:1;p;q=2, *x=*", true, "a *x"},
		{"a=1.2345", false, ""},
		{"a=1234567890123456", false, ""},
		{"a=\"open", false, ""},
		{"a=?2", false, ""},
		{"a=%\"bad%zz\"", false, ""},
		{"a;P=1", false, ""},
		{"a=b c", false, ""},
		{"a=é", false, ""},
		{"a=(), b=(x 1 \"s\";p=?1), c=( y  z );q, d", true, "a b c d"},
		{"a=(x", false, ""},
		{"a=(x,y)", false, ""},
		{"a=(x)y", false, ""},
	} {
		var keys []string
		err := parseDictionary(tc.in, func(k, _ string, _ bool) { keys = append(keys, k) })
		if (err == "") != tc.ok {
			t.Errorf("parseDictionary(%q) error %q, want ok=%v", tc.in, err, tc.ok)
		}
		if tc.ok && strings.Join(keys, " ") != tc.keys {
			t.Errorf("parseDictionary(%q) keys %v, want %s", tc.in, keys, tc.keys)
		}
	}
}

func TestSignalsDoesNotAllocate(t *testing.T) {
	f := Parse([]byte(bnSignalsBody))
	g := f.GroupFor("GPTBot")
	for _, path := range []string{"/", "/docs/guide/intro", "/caf%c3%a9/menu", "/files/a.pdf"} {
		if n := testing.AllocsPerRun(100, func() { bnSinkSignals = g.Signals(path) }); n != 0 {
			t.Errorf("Signals(%q) allocates %v times", path, n)
		}
	}
	// Enough wildcard paths at one node for the matcher's trigram index.
	var large strings.Builder
	large.WriteString("User-agent: *\n")
	for i := 0; i < 2000; i++ {
		fmt.Fprintf(&large, "Content-Usage: /*x%dy*z train-ai=y\n", i)
	}
	lg := Parse([]byte(large.String())).GroupFor("x")
	if lg.src[0].um.grams == nil {
		t.Fatal("the large group's usage matcher is not indexed")
	}
	if got := lg.Signals("/a/x1y/x20y/x300y/x1999y?q=z"); got.AITrain != Yes {
		t.Errorf("indexed usage paths: Signals = %+v", got)
	}
	if n := testing.AllocsPerRun(100, func() { bnSinkSignals = lg.Signals("/a/x1y/x20y/x300y/x1999y?q=x42y") }); n != 0 {
		t.Errorf("Signals over an indexed matcher allocates %v times", n)
	}
	for _, q := range []string{"q=1", "caf%c3%a9=%7e"} {
		if got, want := g.SignalsOf("/files/a.pdf", q, false), g.Signals("/files/a.pdf?"+q); got != want {
			t.Errorf("SignalsOf(%q) = %+v, want %+v as for the joined URL", q, got, want)
		}
		if n := testing.AllocsPerRun(100, func() { bnSinkSignals = g.SignalsOf("/docs/guide/intro", q, false) }); n != 0 {
			t.Errorf("SignalsOf with query %q allocates %v times", q, n)
		}
	}
	if got, want := g.SignalsOf("/files/a.pdf", "", true), g.Signals("/files/a.pdf?"); got != want {
		t.Errorf("SignalsOf with an empty query = %+v, want %+v", got, want)
	}
	if n := testing.AllocsPerRun(100, func() { bnSinkString = g.Signals("/docs/x").ContentUsage() }); n != 0 {
		t.Errorf("ContentUsage allocates %v times", n)
	}
}

var (
	bnSinkSignals Signals
	bnSinkString  string
)

// bnSignalsBody is a file with signals in two groups that GPTBot obeys
// merged, and a dozen Content-Usage paths.
var bnSignalsBody = func() string {
	var b strings.Builder
	b.WriteString("User-agent: *\nContent-Signal: search=yes, ai-train=no\nContent-Usage: train-ai=n\nAllow: /\n\n")
	b.WriteString("User-agent: GPTBot\nContent-Signal: ai-input=no\nDisallow: /private/\n\nUser-agent: GPTBot\nUser-agent: ClaudeBot\n")
	for i := range 12 {
		fmt.Fprintf(&b, "Content-Usage: /section%d/ train-ai=y, search=n\n", i)
	}
	b.WriteString("Content-Usage: /docs/ train-ai=y\nContent-Usage: /*.pdf$ search=n\nDisallow: /tmp/\n")
	return b.String()
}()

func BenchmarkSignals(b *testing.B) {
	f := Parse([]byte(bnSignalsBody))
	for _, tc := range []struct{ name, agent, path string }{
		{"star", "otherbot", "/docs/guide/intro"}, // one Content-Usage line, "/"
		{"merged", "GPTBot", "/docs/guide/intro"},
		{"merged-wildcard", "GPTBot", "/files/report.pdf"},
		{"merged-percent-encoded", "GPTBot", "/caf%c3%a9/%7Emenu"},
	} {
		g := f.GroupFor(tc.agent)
		b.Run(tc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				bnSinkSignals = g.Signals(tc.path)
			}
		})
	}
	b.Run("signal-only", func(b *testing.B) {
		g := Parse([]byte("User-agent: *\nContent-Signal: search=yes, ai-train=no\nAllow: /\n")).GroupFor("x")
		b.ReportAllocs()
		for b.Loop() {
			bnSinkSignals = g.Signals("/docs/guide/intro")
		}
	})
}

// TestUsageGrantRanksAsWritten: a Content-Usage line that only grants
// ranks by its path as written, as an allow rule does, so that an
// escaped grant ("/%7Ejoe/ train-ai=y") outranks a shorter refusal on the
// paths it covers, as "Allow: /%7Ejoe/" outranks "Disallow: /*.pdf$".
func TestUsageGrantRanksAsWritten(t *testing.T) {
	g := Parse([]byte("User-agent: *\nContent-Usage: /*.pdf$ train-ai=n\nContent-Usage: /%7Ejoe/ train-ai=y\nAllow: /\n")).GroupFor("x")
	if got := g.Signals("/~joe/cv.pdf").AITrain; got != Yes {
		t.Errorf("train-ai on /~joe/cv.pdf: %v, want yes (the grant, as written, is the longer)", got)
	}
}
