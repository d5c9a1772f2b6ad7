package testfixtures

import (
	"fmt"
	"strings"
)

// WildcardFlood is a hostile robots.txt and request: a "*" group of 24,000
// rules "/*<t>*zzzq" (a 480 KB file), t each a different three-byte
// string, and a request target of about size bytes whose path holds the t
// one after another but never "zzzq", spelt in every way a server may
// read otherwise ("//", ";", "%2F", "\", a final "/."). Every rule whose
// t the path holds is tried, and none matches, in each spelling.
func WildcardFlood(size int) (body, target string) {
	const letters = "abcdefghijklmnopqrstuvwxyz0123456789"
	var text, mid strings.Builder
	text.WriteString("User-agent: *\n")
	n := 0
	for _, a := range letters {
		for _, b := range letters {
			for _, c := range letters {
				if n == 24000 {
					break
				}
				// The first byte varies fastest, so that neighbours
				// in the path are different rules' trigrams.
				t := string([]rune{c, a, b})
				fmt.Fprintf(&text, "Disallow: /*%s*zzzq\n", t)
				if mid.Len() < size {
					mid.WriteString(t)
				}
				n++
			}
		}
	}
	return text.String(), "//x;p/" + mid.String() + "zq%2Fzq/a\\b/."
}
