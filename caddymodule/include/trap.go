package include

import (
	"bytes"
	"slices"
	"strings"

	"github.com/robotsguard/caddy-robots-txt/robots"
)

// Trapped is a robots.txt as served with the trap (see Trap).
type Trapped struct {
	Body  []byte
	Added int // the groups the trap's Disallow was added to
	// before are the lines of the original text, ascending, that the
	// trap's line was added before.
	before []int
}

// Line returns the line of Body that line n of the original text is:
// what a bot was served there, pushed down by the trap's lines above it.
func (t *Trapped) Line(n int) int {
	i, _ := slices.BinarySearch(t.before, n+1)
	return n + i
}

// Trap adds "Disallow: <trap>" to every group of body that does not
// disallow trap already, just before the group's first rule (or at its
// end), so that no group's extent changes: only allow and disallow lines
// end a run of user-agent lines. A file with no * group gets one. It
// returns the served body, how many groups it added the line to, and
// where each line of body went.
func Trap(body []byte, f *robots.File, trap string) *Trapped {
	var out bytes.Buffer
	out.Grow(len(body) + 64)
	t := &Trapped{}
	var agents []string       // of the current run of user-agent lines
	inRun, groups := false, 0 // groups counts runs, for a file with none
	line := "Disallow: " + trap + "\n"
	flush := func(at int) {
		if inRun && needsTrap(f, agents, trap) {
			out.WriteString(line)
			t.Added++
			t.before = append(t.before, at)
		}
		inRun, agents = false, agents[:0]
	}
	// Lines end as Parse ends them.
	n := robots.EachLine(string(body), func(num int, l, eol string) {
		if eol == "" {
			if l == "" {
				return // the file ended with its last line's end
			}
			eol = "\n"
		}
		switch key, value := fieldOf(l); robots.FieldOf(key) {
		case "user-agent":
			if !inRun {
				inRun = true
				groups++
			}
			agents = append(agents, value)
		case "allow", "disallow":
			flush(num)
		}
		out.WriteString(l)
		out.WriteString(eol)
	})
	flush(n + 1)
	if groups == 0 || f.GroupFor("*") == nil {
		// Bots no group names are held to nothing without a * group:
		// one is added, with the trap its only rule.
		out.WriteString("\nUser-agent: *\n" + line)
		t.Added++
	}
	t.Body = out.Bytes()
	return t
}

// needsTrap tells whether any agent of a run obeys a group that does not
// disallow trap yet.
func needsTrap(f *robots.File, agents []string, trap string) bool {
	for _, a := range agents {
		if f.GroupFor(a).Decide(trap).Allowed {
			return true
		}
	}
	return false
}

// fieldOf returns a robots.txt line's key and value,
// without comment; "key value" without a colon counts, as Google reads it.
func fieldOf(s string) (key, value string) {
	if i := strings.IndexByte(s, '#'); i >= 0 {
		s = s[:i]
	}
	s = strings.TrimSpace(s)
	k, v, ok := strings.Cut(s, ":")
	if !ok {
		words := strings.Fields(s)
		if len(words) != 2 {
			return "", ""
		}
		k, v = words[0], words[1]
	}
	v = strings.TrimSpace(v)
	if !strings.HasPrefix(v, "*") {
		// A user-agent value counts by its product token.
		if end := strings.IndexFunc(v, func(r rune) bool {
			return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r == '-' || r == '_')
		}); end >= 0 {
			v = v[:end]
		}
	} else {
		v = "*"
	}
	return strings.TrimSpace(k), v
}
