package include

import (
	"fmt"
	"strings"
	"testing"

	"github.com/robotsguard/caddy-robots-txt/robots"
)

var benchSite = Source{Name: "/srv/www/robots.txt", Body: []byte(
	"User-agent: *\nDisallow: /admin/\nDisallow: /cart\nAllow: /admin/public/\n\n" +
		"User-agent: GPTBot\nAllow: /\n\nUser-agent: bot7\nDisallow: /\n\n" +
		"Sitemap: https://www.example.com/sitemap.xml\n")}

// bigList is about size bytes: one group of 160 agents disallowing
// everything, as the AI-crawler lists have, then groups of two agents with
// twenty rules each.
func bigList(size int) []byte {
	var b strings.Builder
	b.WriteString("# a large generated list\n")
	for i := 0; i < 160; i++ {
		fmt.Fprintf(&b, "User-agent: AIBot%d\n", i)
	}
	b.WriteString("Disallow: /\n\nSitemap: https://lists.example.org/sitemap.xml\n\n")
	for g := 0; b.Len() < size; g++ {
		fmt.Fprintf(&b, "User-agent: bot%d\nUser-agent: crawler%d/2.1\nCrawl-delay: 2\n", g, g)
		for r := 0; r < 20; r++ {
			fmt.Fprintf(&b, "Disallow: /section%d/page-%d/*.pdf$\n", r, g)
		}
		b.WriteString("\n")
	}
	return []byte(b.String()[:size-200] + "\nUser-agent: last\nDisallow: /\n")
}

// sharedList names every agent in one big group and in a group of its
// own: each agent obeys a different merge of the big group's rules, which
// a writer of merged groups would copy once per agent.
func sharedList(size int) []byte {
	var b strings.Builder
	for i := 0; i < 2000; i++ {
		fmt.Fprintf(&b, "User-agent: shared%d\n", i)
	}
	for r := 0; b.Len() < size/2; r++ {
		fmt.Fprintf(&b, "Disallow: /shared/%d/\n", r)
	}
	for i := 0; i < 2000 && b.Len() < size-100; i++ {
		fmt.Fprintf(&b, "\nUser-agent: shared%d\nAllow: /own/%d/\n", i, i)
	}
	return []byte(b.String())
}

func benchMerge(b *testing.B, list []byte) {
	inc := Source{Name: "https://lists.example.org/robots.txt", Body: list}
	m := Merge(benchSite, inc)
	if len(m.Warnings) != 0 {
		b.Fatal(m.Warnings)
	}
	if len(m.Body) > robots.DefaultMaxSize {
		b.Fatalf("%d bytes", len(m.Body))
	}
	b.ReportAllocs()
	b.SetBytes(int64(len(list)))
	b.ResetTimer()
	for b.Loop() {
		Merge(benchSite, inc)
	}
}

func BenchmarkMerge500KB(b *testing.B)       { benchMerge(b, bigList(500000)) }
func BenchmarkMerge500KBShared(b *testing.B) { benchMerge(b, sharedList(500000)) }

// BenchmarkParse500KB is the cost of one robots.Parse of the same list,
// for comparison: Merge parses each source once and scans it once.
func BenchmarkParse500KB(b *testing.B) {
	list := bigList(500000)
	b.ReportAllocs()
	b.SetBytes(int64(len(list)))
	for b.Loop() {
		robots.Parse(list)
	}
}
