package judge

import (
	"fmt"
	"net/url"
	"strings"
	"testing"

	"github.com/robotsguard/caddy-robots-txt/internal/testfixtures"
	"github.com/robotsguard/caddy-robots-txt/robots"
)

func pathsOfURI(t testing.TB, uri string) Paths {
	u, err := url.ParseRequestURI(uri)
	if err != nil {
		t.Fatal(err)
	}
	return PathsOf(u)
}

// TestSpellingsCapped: testfixtures.WildcardFlood runs the other spellings' budget out;
// the request is allowed, as in full, and says it was capped. A path that
// the file's plain rule refuses is refused whatever the budget, and an
// ordinary file never caps.
func TestSpellingsCapped(t *testing.T) {
	body, uri := testfixtures.WildcardFlood(16 << 10)
	g := robots.Parse([]byte(body)).GroupFor("x")
	p := pathsOfURI(t, uri)
	if n := len(slicesNonEmpty(p.Spellings())); n < 6 {
		t.Fatalf("the hostile request has %d spellings; want the most PathsOf makes", n)
	}
	v, _, capped := p.DecideCapped(g)
	if !v.Allowed || !capped {
		t.Fatalf("hostile flood: allowed %v, capped %v; want allowed, capped", v.Allowed, capped)
	}
	if v2, _, c2 := p.DecideHeld(g, []*robots.Group{g}); v2 != v || c2 != capped {
		t.Fatalf("DecideHeld = %v, %v; DecideCapped %v, %v", v2, c2, v, capped)
	}

	// A plain rule refuses the spelling by Tomcat's reading
	// ("/private;x/y" is "/private/y"), capped or not.
	withPlain := robots.Parse([]byte(strings.Replace(body, "User-agent: *\n", "User-agent: *\nDisallow: /private/\n", 1)))
	evading := pathsOfURI(t, "/private;x/y/"+strings.TrimPrefix(uri, "//x;p/"))
	if v, s, _ := evading.DecideCapped(withPlain.GroupFor("x")); v.Allowed || v.Rule.String() != "disallow: /private/" {
		t.Fatalf("evading spelling %q: allowed %v by %q; want refused by disallow: /private/", s, v.Allowed, v.Rule)
	}

	ordinary := robots.Parse([]byte("User-agent: *\nDisallow: /private/\nDisallow: /*.php$\nAllow: /*?page=\n"))
	if v, _, capped := p.DecideCapped(ordinary.GroupFor("x")); !v.Allowed || capped {
		t.Fatalf("ordinary file: allowed %v, capped %v; want allowed, not capped", v.Allowed, capped)
	}
}

func slicesNonEmpty(s [8]string) []string {
	var out []string
	for _, x := range s {
		if x != "" {
			out = append(out, x)
		}
	}
	return out
}

// BenchmarkSpellingsHostile: what judging a hostile request costs in all,
// every spelling, against the flood, for paths of 2 to 16 KB.
func BenchmarkSpellingsHostile(b *testing.B) {
	for _, kb := range []int{2, 4, 8, 16} {
		body, uri := testfixtures.WildcardFlood(kb << 10)
		g := robots.Parse([]byte(body)).GroupFor("x")
		p := pathsOfURI(b, uri)
		b.Run(fmt.Sprintf("%dKB", kb), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				p.Decide(g)
			}
		})
	}
}

// BenchmarkDecideHeldHostile: a header that names many groups as its own
// is judged against each (Choice.Held), at most MaxHeld more than its
// group. The worst a 500 KiB file makes of that: the wildcard flood's
// rules split among 1+MaxHeld groups and a header naming them all, against
// the flood as one group and the same split file with one name.
func BenchmarkDecideHeldHostile(b *testing.B) {
	body, uri := testfixtures.WildcardFlood(16 << 10)
	rules := strings.Split(strings.TrimPrefix(body, "User-agent: *\n"), "\n")
	split := func(groups int) string {
		var f strings.Builder
		per := (len(rules) + groups - 1) / groups
		for i := range groups {
			fmt.Fprintf(&f, "User-agent: Bot%d\n", i)
			for _, r := range rules[i*per : min((i+1)*per, len(rules))] {
				f.WriteString(r + "\n")
			}
		}
		return f.String()
	}
	var all strings.Builder
	for i := range 1 + MaxHeld {
		fmt.Fprintf(&all, "(compatible; Bot%d/1.0) ", i)
	}
	p := pathsOfURI(b, uri)
	for _, tc := range []struct {
		name, file, ua string
		held           int
	}{
		{"one group", split(1), "Bot0/1.0", 0},
		{"split, one named", split(1 + MaxHeld), "Bot0/1.0", 0},
		{"split, all named", split(1 + MaxHeld), all.String(), MaxHeld},
	} {
		f := robots.Parse([]byte(tc.file))
		c := UnprovenFor(nil, nil)
		g, _ := c.Group(f, tc.ua)
		held := c.Held(f, tc.ua)
		if len(held) != tc.held {
			b.Fatalf("%s: held to %d groups, want %d", tc.name, len(held), tc.held)
		}
		b.Run(tc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				p.DecideHeld(g, held)
			}
		})
	}
}

// TestDecideHeldCanonOnce: a client held to several groups has a long
// path's spellings canonicalized once for all its groups; the verdicts are
// those of each group judged on its own.
func TestDecideHeldCanonOnce(t *testing.T) {
	f := robots.Parse([]byte("User-agent: a\nDisallow: /x/*%7E\n\nUser-agent: b\nDisallow: /*/y;\nAllow: /*/y;p\n\n" +
		"User-agent: c\nDisallow: /z%2Fq\n\nUser-agent: d\nDisallow: /*.PDF$\n"))
	groups := []*robots.Group{f.GroupFor("a"), f.GroupFor("b"), f.GroupFor("c"), f.GroupFor("d")}
	long := strings.Repeat("seg%41/", 200)
	refused := 0
	for _, uri := range []string{
		"/x/" + long + "~", "/" + long + "y;", "/" + long + "y;p", "//x/./" + long + "%7e",
		"/z%2Fq", "/z%2fq/" + long, "/" + long + "doc.PDF", "/" + long + "doc.pdf", "/a/../x/" + long + "%7E",
	} {
		p := pathsOfURI(t, uri)
		var want robots.Verdict
		var wantG *robots.Group
		for _, g := range groups {
			if v := p.Decide(g); !v.Allowed {
				want, wantG = v, g
				break
			}
		}
		got, gotG, _ := p.DecideHeld(groups[0], groups[1:])
		if got.Allowed != (wantG == nil) || wantG != nil && (gotG != wantG || got.Rule != want.Rule) {
			t.Errorf("%s: DecideHeld = %v by %v, want %v by %v", uri, got, gotG, want, wantG)
		}
		if !got.Allowed {
			refused++
		}
	}
	if refused < 4 {
		t.Errorf("%d paths refused; the cases mean to refuse most by one group or another", refused)
	}
}

// BenchmarkDecideHeldMany: a header naming MaxNamed groups of a file,
// each of which restricts another section, costs a walk of each group's
// rules along the path, whatever the path's length: a 16 KB path within a
// small factor of a short one, and both a small multiple of one group.
func BenchmarkDecideHeldMany(b *testing.B) {
	var file, ua strings.Builder
	file.WriteString("User-agent: AcmeBot\nDisallow: /secret/\nAllow: /secret/public/\n\n")
	for i := range MaxNamed {
		fmt.Fprintf(&file, "User-agent: Decoy%03d\nDisallow: /cgi-bin/%03d/\nDisallow: /secret/public/%03d/\nDisallow: /*.php$\nAllow: /*.php$\n\n", i, i, i)
		fmt.Fprintf(&ua, "Decoy%03d/1.0 ", i)
	}
	ua.WriteString("AcmeBot/1.0")
	f := robots.Parse([]byte(file.String()))
	c := UnprovenFor(nil, nil)
	for _, tc := range []struct {
		name, ua, uri string
		held          int
	}{
		{"one group/short", "AcmeBot/1.0", "/secret/public/a", 0},
		{"one group/16KB", "AcmeBot/1.0", "/secret/public/" + strings.Repeat("a/", 8<<10), 0},
		{"all named/short", ua.String(), "/secret/public/a", MaxNamed},
		{"all named/16KB", ua.String(), "/secret/public/" + strings.Repeat("a/", 8<<10), MaxNamed},
	} {
		g, _ := c.Group(f, tc.ua)
		held := c.Held(f, tc.ua)
		if len(held) != tc.held {
			b.Fatalf("%s: held to %d groups, want %d", tc.name, len(held), tc.held)
		}
		p := pathsOfURI(b, tc.uri)
		if v, _, _ := p.DecideHeld(g, held); !v.Allowed {
			b.Fatalf("%s: refused", tc.name)
		}
		b.Run(tc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				p.DecideHeld(g, held)
			}
		})
	}
}

// BenchmarkPathsOfEscapedReserved: the spellings of a path that escapes
// reserved characters Go escapes too ("%28", audit AM-F1), whose as-sent
// spelling is made from EscapedPath, cost time linear in the path, as
// those of a plain path do.
func BenchmarkPathsOfEscapedReserved(b *testing.B) {
	for _, n := range []int{200, 16 << 10} {
		for name, unit := range map[string]string{"plain": "/abcdefgh", "parens": "/a%28b%29c", "dots": "/%28/../"} {
			uri := strings.Repeat(unit, n/len(unit))
			u, err := url.ParseRequestURI(uri)
			if err != nil {
				b.Fatal(err)
			}
			served := ServedPath(u.Path)
			b.Run(fmt.Sprintf("%s-%d", name, n), func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					PathsOfServed(served, u)
				}
			})
		}
	}
}
